-- string.char: 0 to 20 arguments (the fast path takes up to 16 immediate
-- integers), byte extremes, floats and numeric strings, errors by position
local function hex(s) return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end)) end
for n = 0, 20 do
  local args = {}
  for i = 1, n do args[i] = (i * 37 + n) % 256 end
  local s = string.char(table.unpack(args))
  print(n, #s, hex(s), s == string.char(table.unpack(args)))
end
print(hex(string.char(0, 255, 0, 255)), hex(string.char(0)), string.char() == "")
print(string.char(72, 105.0, "33"), string.char(65, 66, 67.0, 68, 69, 70, 71, 72, 73, 74))
print(pcall(string.char, 256))
print(pcall(string.char, 65, -1))
print(pcall(string.char, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 300))
print(pcall(string.char, 65, 1.5))
print(pcall(string.char, 65, "x"))
print(pcall(string.char, 65, nil))
print(pcall(string.char, math.maxinteger))
local t = {}
for i = 1, 16 do t[string.char(i, i + 1, i + 2)] = i end
local c = 0
for k, v in pairs(t) do if k == string.char(v, v + 1, v + 2) then c = c + 1 end end
print(c)
