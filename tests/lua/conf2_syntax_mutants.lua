-- conf2_syntax_mutants: load() messages for token-mutated chunks (deleted,
-- duplicated, swapped and inserted tokens, some lines split); seed and count
-- are fixed so the output is deterministic.
-- token mutation fuzzer: prints load() result per mutant
local seed = 12345
local function rnd(n) seed = (seed * 1103515245 + 12345) % 2147483648 return seed % n + 1 end
local srcs = {
[[local function f(a, b, ...) local t = {a, b, ...; x = 1, ["y"] = 2} for i = 1, #t do if t[i] then goto cont end t[i] = i * 2 ::cont:: end return t end]],
[[local x <const> = 10 local y <close> = nil while x > 0 do x = x - 1 if x == 5 then break end end repeat local z = x until z < 3 return x]],
[[local s = "abc" .. 'def' .. [==[long]==] local t = {f = function(self) return self end} t:f().g = s:upper() return #s, -x, not y, ~z]],
[[for k, v in pairs({}) do print(k, v) end function a.b.c:d(e) return e // 2 ^ 3 % 4 << 1 >> 2 & 3 | 4 ~ 5 end]],
[[if a then b() elseif c then d = e or f and g else h = (i) end do local j = 0x1p4 + 3e-2 + 0xA end return]],
[[local a, b, c = 1, 2 a, b = b, a; (f or g)(a)[b] = c; return function(...) return select('#', ...) end]],
}
local function tokens(s)
  local toks, i = {}, 1
  while i <= #s do
    local c = s:sub(i, i)
    local j
    if c:match("%s") then j = s:find("[^%s]", i) or #s + 1 toks[#toks+1] = s:sub(i, j-1) i = j
    else
      local pats = {"^%[=*%[.-%]=*%]", "^%d[%w%.]*", "^[%a_][%w_]*", '^"[^"]*"', "^'[^']*'", "^%.%.%.", "^%.%.", "^::", "^<<", "^>>", "^//", "^[=~<>]=", "^."}
      for _, p in ipairs(pats) do local m = s:match(p, i) if m then toks[#toks+1] = m i = i + #m break end end
    end
  end
  return toks
end
local n = 400
for k = 1, n do
  local src = srcs[rnd(#srcs)]:gsub(" ", function() if rnd(4) == 1 then return "\n" end end)
  local t = tokens(src)
  local nm = rnd(3)
  for _ = 1, nm do
    local op = rnd(4)
    local p = rnd(#t)
    if op == 1 then table.remove(t, p)
    elseif op == 2 then table.insert(t, p, t[rnd(#t)])
    elseif op == 3 then t[p], t[rnd(#t)] = t[rnd(#t)], t[p]
    else table.insert(t, p, ({"(", ")", "end", "=", ",", "local", "::", "goto", "<", "[", "}", "..", "\"", "[[", "0x", "1e", "return", "break", "\\", "@", "$", "'\\q'", "\"\\x4\"", "\"\\u{110000000}\"", "\"\\300\"", "--[[", "..."})[rnd(27)]) end
  end
  local m = table.concat(t)
  local f, err = load(m, "=m")
  print(k, f and "OK" or err)
end
