-- Prepared-pattern cache (stdlib/strlib.c PatPrep): the same pattern used
-- again after collections, by find/match/gmatch/gsub alternately, more
-- distinct patterns than the cache holds, malformed patterns at every call,
-- patterns rebuilt at the addresses of dead ones, and Lua code (gsub
-- replacements, finalizers) that refills the cache in the middle of a call.

local function show(...)
  local t = table.pack(...)
  for i = 1, t.n do t[i] = tostring(t[i]) end
  print(table.concat(t, " "))
end

local function err(f, ...)
  local ok, msg = pcall(f, ...)
  return ok and "ok" or msg
end

-- 1. one pattern across collections
local subj = "  key = [value] ; other=[x y] "
local pats = { "[%w_]+", "%[([^%]]*)%]", "^[ \t]*", "%f[%w]%w+", "[=;]", "%s*([^%s=]+)%s*=" }
for round = 1, 3 do
  for _, p in ipairs(pats) do
    show(round, p, string.find(subj, p), string.match(subj, p))
  end
  collectgarbage()
end

-- 2. find/match/gmatch/gsub alternately with one pattern string
local p = "(%a+)[:=]([%d.]+)"
local text = "a=1 bb:2.5 c=3. dd=x e:44"
for round = 1, 2 do
  show(string.find(text, p))
  show(string.match(text, p, 5))
  for k, v in text:gmatch(p) do show("gm", k, v) end
  show(text:gsub(p, "%2%1"))
  show(string.find(text, p, 9))
  collectgarbage()
end

-- 3. many distinct patterns (more than the cache's entries), twice
local letters = "abcdefghijklmnopqrstuvwxyz"
local hay = "the quick brown fox jumps over the lazy dog 0123456789"
local sums = {}
for round = 1, 2 do
  local sum = 0
  for i = 1, 26 do
    for j = i, math.min(i + 5, 26) do
      local set = "[" .. letters:sub(i, i) .. "-" .. letters:sub(j, j) .. "]+"
      local a, b = hay:find(set)
      sum = sum + (a or 0) * 7 + (b or 0)
      local s2, n = hay:gsub(set, "")
      sum = sum + n + #s2
      local neg = "[^" .. letters:sub(i, j) .. " ]+"
      local m = hay:match(neg)
      sum = sum + #(m or "")
    end
  end
  sums[round] = sum
  if round == 1 then collectgarbage() end
end
show("many", sums[1], sums[2], sums[1] == sums[2])

-- 4. rebuilt patterns: new strings, likely at addresses of collected ones
for i = 1, 60 do
  local c = string.char(97 + i % 26)
  local pat = "[" .. c .. "]+" .. (i % 3 == 0 and "" or "[^" .. c .. "]")
  local r = { ("xx" .. c .. c .. "yy" .. c):find(pat) }
  if i % 7 == 0 then collectgarbage() end
  if i % 10 == 0 then show("rebuilt", i, pat, table.unpack(r)) end
end

-- 5. malformed patterns: the error at every call
local bad = { "[a", "%", "a%", "[a]%", "(%1)", "%f", "%fa", "%b", "%bx", "[a][b",
              "(()", "a)", "[%", "[]", "[^]", "x[a-", "%g(" }
for round = 1, 3 do
  for _, b in ipairs(bad) do
    show(round, b, err(string.find, "xyz [ab] (c)", b),
         err(string.match, "aaa", b), err(string.gsub, "q", b, "r"),
         err(function() for w in ("abc"):gmatch(b) do end end))
  end
  collectgarbage()
end
-- malformed later in the pattern: raised only when the matcher gets there
for round = 1, 2 do
  show(err(string.find, "bbb", "a["), err(string.find, "bab", "a["))
  show(err(string.find, "bbb", "[a][c"), err(string.find, "zac", "[a]c["))
  show(err(string.gsub, "", "[x]%", ""), err(string.gsub, "x", "[x]%", ""))
  show(err(string.find, "abc", "b", 10), err(string.find, "abc", "[b", 10))
  show(err(string.gsub, "abc", "[b", "", 0), err(string.gsub, "abc", "[b", "", 1))
end

-- 6. sets of every form, '\0' in patterns and subjects
local z = "a\0b\0\0c]d-e^f%g"
local sets = { "[%z]+", "[\0]+", "[\0-\1]", "[^\0]+", "[]]", "[^]]+", "[a-]+", "[%]]",
               "[%-^]+", "[%A]+", "[%a%z]+", "[^%a%z]", "[b-d]+", "a\0b", "[\0a]+\0",
               "%f[%z]", "%f[^%z]%a", "[%%]", "[a-c%^]+" }
for round = 1, 2 do
  for _, s in ipairs(sets) do
    local a, b = z:find(s)
    local g, n = z:gsub(s, "<%0>")
    show(round, (s:gsub("%z", "\\0")), a, b, (g:gsub("%z", "0")), n)
  end
  collectgarbage()
end

-- 7. anchors, %b, %f, captures, position captures
local code = "f(a(b)c) g[x] (y)"
for round = 1, 2 do
  show(code:find("%b()"), code:match("^(%a)(%b())"), code:match("()%b[]()"))
  show(code:gsub("%f[%a]%a", string.upper))
  show(code:find("^f"), code:find("^g"), code:find("%)$"), code:find("[%)]$"))
  show(("aaa"):gsub("^a", "b"), ("aaa"):gsub("a*", "-"), ("abc"):gsub("", "."))
  show(("  x  "):match("^[ ]*()"), ("  x  "):find("[ ]*$"))
  show(("hello world"):match("^(h)(e)(l)(l)(o)[ ]+()(w)"))
  collectgarbage()
end

-- 8. more sets than prepared in one pattern, and a long pattern
local many = "[a][b][c][d][e][f]"
show(("xxabcdefyy"):find(many), ("abcdefabcdef"):gsub(many, "!"))
local long = string.rep("[ab]", 1100)
local sl = string.rep("ab", 600)
show(sl:find(long), #sl:match(long), (string.rep("b", 1100)):find(long))

-- 9. a numeric pattern (converted to a string in place)
show(("x123y"):find(123), ("x123y"):match(23), ("a1a1"):gsub(1, "!"))

-- 10. Lua code in the middle of a gsub that fills the cache with other
-- patterns and collects
local others = {}
for i = 1, 100 do others[i] = "[" .. string.char(33 + i % 90) .. "x]+" end
local calls = 0
local out, n = ("k1=v1, k2=v2, k3=[v3]"):gsub("([%w]+)=([%w%[%]]+)", function(k, v)
  calls = calls + 1
  for i = 1, #others do string.find("xyz", others[i]) end
  collectgarbage()
  return v .. "=" .. k
end)
show(out, n, calls)
-- a table replacement whose __index does the same
local rt = setmetatable({}, { __index = function(_, k)
  for i = 1, #others do string.match("abc", others[i]) end
  collectgarbage()
  return k:upper()
end })
show(("one two [three] four"):gsub("[%a%[%]]+", rt))

-- 11. a gmatch iterator interleaved with other pattern calls and collections
local it = ("a1 [b2] c3 [d4] e5"):gmatch("%[?([%a])([%d])%]?")
local res = {}
while true do
  local a, b = it()
  if not a then break end
  res[#res + 1] = a .. b
  for i = 1, #others do string.gsub("x", others[i], "") end
  collectgarbage()
end
show(table.concat(res, ","))

-- 12. finalizers that use patterns, run while other pattern calls allocate
local fin = 0
for i = 1, 50 do
  setmetatable({}, { __gc = function()
    fin = fin + select(2, ("aXbXc"):gsub("[X]", "y"))
    string.find("q", others[i])
  end })
end
local acc = {}
for i = 1, 2000 do
  acc[#acc + 1] = (("n" .. i .. ":" .. i * 3):gsub("(%d+):(%d+)", "%2-%1"))
end
collectgarbage()
show(acc[1], acc[2000], #acc, fin)

-- 13. prepared sets with classes across locale changes (the sets' member
-- bits are kept for the locale of the fill; only C locales may exist
-- here, so the answers agree with any locale, but the paths run)
local ltext = "alpha Beta_12 gamma-3 DELTA\t\0eps\200\255 zeta9 "
local locs = { "C", "POSIX", "C.UTF-8", "C" }
for round = 1, 2 do
  local k = 0
  local r, c = ltext:gsub("[%a%d_]+", function(w)
    k = k + 1
    os.setlocale(locs[k % #locs + 1], "ctype")
    return "<" .. #w .. ">"
  end)
  show((r:gsub("%z", "0")), c)
  local parts = {}
  for w in ltext:gmatch("[^%s%p]+") do
    parts[#parts + 1] = #w
    os.setlocale(locs[#parts % #locs + 1], "ctype")
    parts[#parts + 1] = ltext:find("[%u]+") or 0
  end
  show(table.concat(parts, ","))
  os.setlocale("C.UTF-8", "ctype")
  show(ltext:find("%f[%w][%l]+"), ltext:match("[%x]+", 20), ltext:find("[%c]"))
  os.setlocale("C", "ctype")
  show(ltext:find("%f[%w][%l]+"), ltext:match("[%x]+", 20), ltext:find("[%c]"))
end
