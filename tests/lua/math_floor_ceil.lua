-- math.floor/ceil: immediates, floats around the 2^47 immediate bound and
-- the integer range, -0.0, inf/nan, strings, extra arguments, errors
local xs = { 0, 7, -7, 0.5, -0.5, 2.5, -2.5, 1e-300, -1e-300, 3.9999999, -0.0,
  2^47 - 1, 2^47 - 0.5, 2^47, 2^47 + 0.5, -2^47, -2^47 - 0.5, -2^47 - 1,
  2^53, 2^62, 2^63, -2^63, -2^63 - 2^11, 1e300, -1e300,
  math.maxinteger, math.mininteger, (1 << 47) - 1, 1 << 47, -(1 << 47) }
for _, x in ipairs(xs) do
  local f, c = math.floor(x), math.ceil(x)
  print(x, f, math.type(f), c, math.type(c))
end
print(math.floor(1/0), math.ceil(-1/0), math.type(math.floor(1/0)))
print(math.floor(0/0) ~= math.floor(0/0), math.type(math.ceil(0/0)))
print(math.floor("3.7"), math.ceil("3.2"), math.floor("10"), math.type(math.floor("10")))
print(math.floor(3.7, 99), math.ceil(-3.7, "x"))
print(pcall(math.floor))
print(pcall(math.ceil, {}))
print(pcall(math.floor, "abc"))
local s = 0
for i = 1, 1000 do s = s + math.floor(i / 7) + math.ceil(i / 7) end
print(s)
