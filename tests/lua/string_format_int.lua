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
-- tostring and %s of numbers (luaL_tolstring)
local nums = { 0, -0.0, 1, -1, 0.1, 1/3, 100.0, -2^53, 2^63, 1e14, 1e15, 1e100, -1e-300,
               math.huge, -math.huge, math.maxinteger, math.mininteger, 123456789012 }
for _, v in ipairs(nums) do
  io.write(tostring(v), " ", string.format("%s|%5s|%-4s|", v, v, v), select("#", tostring(v)), "\n")
end
print(tostring(0/0) == tostring(0/0), string.format("%s", 2^24))
-- optional integer arguments (luaL_optinteger): absent, nil, coercible
-- strings and floats, and the errors for everything else
local s = "hello world"
print(s:byte(), s:byte(nil), s:byte(2, nil), s:byte("3"), s:byte(4.0, "5"), s:sub(2), s:sub(2, nil))
print(s:find("o", nil), s:find("o", "6"), s:find("o", 8.0), select("#", s:gsub("o", "0", nil)))
print(table.concat({ 1, 2, 3 }, "-", nil, nil), table.concat({ 1, 2, 3 }, "-", "2"), table.concat({ 1, 2, 3 }, "", 2.0, 3))
for _, bad in ipairs({ 1.5, "1.5", "x", {}, true, 2^63 }) do
  print(select(2, pcall(string.byte, s, bad)), select(2, pcall(string.sub, s, 1, bad)),
        select(2, pcall(string.find, s, "o", bad)), select(2, pcall(table.concat, { 1 }, "", bad)),
        select(2, pcall(string.gsub, s, "o", "0", bad)))
end
