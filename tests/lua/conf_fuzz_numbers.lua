-- Differential fuzz of tonumber/string coercion and float formatting.
local st = 7
local function rnd(n) st = (st * 1103515245 + 12345) % 2147483648 return st % n + 1 end
local pieces = {"0", "1", "9", "x", "X", "e", "E", "p", "P", ".", "-", "+", " ", "a", "f", "F", "\t", "n", "i", "\n", "0x", "1e", "7", "5"}
for i = 1, 1000 do
  local s = {} for k = 1, rnd(8) do s[#s+1] = pieces[rnd(#pieces)] end s = table.concat(s)
  local base = rnd(40)
  local n1 = tonumber(s)
  local ok, n2 = pcall(tonumber, s, base >= 2 and base <= 36 and base or nil)
  local ok3, n3 = pcall(function() return s + 0 end)
  local ok4, n4 = pcall(function() return s | 0 end)
  print(string.format("%q", s), n1, math.type(n1), base, ok, n2, ok3, ok3 and n3 or "", ok4, ok4 and n4 or "")
end
for i = 1, 700 do
  local m = (rnd(2^30) * 2^30 + rnd(2^30)) * 2.0^(rnd(200) - 130)
  if rnd(2) == 1 then m = -m end
  print(m, string.format("%.14g|%.17g|%a|%.3f|%g|%e", m, m, m, m, m, m), math.tointeger(m), m // 1, math.floor(m) == m, tostring(m) == tostring(tonumber(tostring(m))), string.format("%q", m))
end
