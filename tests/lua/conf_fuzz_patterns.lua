-- Differential fuzz of string.find/match/gsub/gmatch over generated patterns
-- (deterministic generator; the expected output comes from lua5.4).
local seed = 3
-- deterministic LCG so both interpreters see the same sequence
local st = seed
local function rnd(n) st = (st * 1103515245 + 12345) % 2147483648 return st % n + 1 end
local atoms = {"a", "b", ".", "%a", "%d", "%s", "%w", "%p", "%x", "%u", "%l", "%c", "%A", "%S", "[ab]", "[^a]", "[a-c]", "[%d_]", "%.", "%%", "x", "1", " ", "%b()", "%f[%w]", "%f[%W]", "()", "[]]", "[^]]", "%]"}
local quants = {"", "", "", "*", "+", "-", "?"}
local function genpat()
  local p = {} if rnd(5) == 1 then p[1] = "^" end
  local n = rnd(4)
  local open = 0
  for i = 1, n do
    if rnd(6) == 1 then p[#p+1] = "(" open = open + 1 end
    local a = atoms[rnd(#atoms)] p[#p+1] = a
    if not a:find("^%%[bf]") and a ~= "()" then p[#p+1] = quants[rnd(#quants)] end
    if open > 0 and rnd(3) == 1 then p[#p+1] = ")" open = open - 1 end
  end
  for i = 1, open do p[#p+1] = ")" end
  if rnd(6) == 1 then p[#p+1] = "$" end
  if rnd(10) == 1 then p[#p+1] = "%1" end
  return table.concat(p)
end
local chars = {"a", "b", "c", "1", "2", " ", "(", ")", ".", "x", "A", "_", "]", "%", "\n"}
local function gensub() local s = {} for i = 1, rnd(12) - 1 do s[#s+1] = chars[rnd(#chars)] end return table.concat(s) end
for i = 1, 700 do
  local p, s = genpat(), gensub()
  local init = rnd(5) - 2
  local r1 = table.pack(pcall(string.find, s, p, init))
  local r2 = table.pack(pcall(string.match, s, p))
  local r3 = table.pack(pcall(string.gsub, s, p, "<%0>"))
  local r4 = {} local ok = pcall(function() for a, b in string.gmatch(s, p) do r4[#r4+1] = tostring(a) .. "," .. tostring(b) if #r4 > 20 then break end end end)
  local function j(t) for k = 1, t.n do t[k] = tostring(t[k]) end return table.concat(t, "|", 1, t.n) end
  print(string.format("%q %q %d", s, p, init), j(r1), j(r2), j(r3), ok, table.concat(r4, ";"))
end
