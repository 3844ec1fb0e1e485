-- string.format integer conversions: the bare %d/%i fast path and the
-- printf path with flags, width and precision must agree with lua5.4.
local vals = { 0, 1, -1, 9, 10, -10, 99, 100, 12345, -987654321, 2^31, -2^31,
               2^53, 3.0, -0.0, "42", " 17 ", "0x10", math.maxinteger, math.mininteger,
               math.maxinteger - 1, math.mininteger + 1, 1e15, -1e15 }
for _, v in ipairs(vals) do
  print(string.format("%d|%i|%5d|%-5d|%05d|%+d|% d|%.3d|%x|%X|%o|%u", v, v, v, v, v, v, v, v, v, v, v, v))
end
print(string.format("a%db%ic%d", 1, 22, 333), string.format("%d%%", 50))
for _, bad in ipairs({ 1.5, "1.5", "x", {}, true, 2^63, -2^64 }) do
  print(pcall(string.format, "%d", bad))
end
print(pcall(string.format, "%d"))
print(pcall(string.format, "%i %d", 1))
