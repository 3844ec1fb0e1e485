-- Differential fuzz of string.format conversions, flags, widths, precisions.
local st = 11
local function rnd(n) st = (st * 1103515245 + 12345) % 2147483648 return st % n + 1 end
local flags = {"", "-", "+", " ", "#", "0", "-0", "+ ", "#0"}
local convs = {"d", "i", "u", "c", "x", "X", "o", "e", "E", "f", "F", "g", "G", "a", "A", "s", "q", "%"}
local args = {0, 1, -1, 42, 3.5, -2.25, 1e10, 1e-10, 2^63, math.maxinteger, math.mininteger, "str", "", "10", true, nil, 1/0, 0/0, 255, 65}
for i = 1, 1200 do
  local f = "%" .. flags[rnd(#flags)] .. (rnd(3) == 1 and tostring(rnd(25) - 1) or "") .. (rnd(3) == 1 and ("." .. tostring(rnd(20) - 1)) or "") .. convs[rnd(#convs)]
  local a = args[rnd(#args)]
  local ok, r = pcall(string.format, f, a)
  if not ok then r = r:gsub("0x%x+", "ADDR") end
  print(f, tostring(a), ok, r)
end
