-- tonumber(v) and string arithmetic coercion: the plain-numeral fast path
-- (vm/number.c str2num_plain) must give the general path's results
local cases = {
  "0", "-0", "7", "-7", "12345", "-12345", "007", "-007",
  "123456789012345", "-123456789012345", "999999999999999",
  "1234567890123456", "-1234567890123456", "9223372036854775807",
  "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
  "12345678901234567890",
  "1.", "-1.", "1.5", "-1.25", "0.1", "0.3", "-0.0", "0.0", "00.50",
  "3.14159265358979", "123456789012.345", "12345678901234.5",
  "1234567890123.4567", "0.123456789012345", "0.1234567890123456",
  "99999999999999.9", "999999999999999.", "9999999999999999.",
  ".5", "-.5", "5.e1", "1e5", "1E-3", "0x10", "0X1p4", " 12", "12 ", "\t3\n",
  "", "-", "+1", "+", ".", "-.", "1..2", "12.34.5", "--1", "1-", "1\0", "\0" .. "1",
  "abc", "inf", "nan", "1.5x", "١", "12\0" .. "34",
}
for _, s in ipairs(cases) do
  local v = tonumber(s)
  print(string.format("%q", s), math.type(v), v and string.format("%.17g", v))
  local ok, w = pcall(function() return s + 0 end)
  print("", ok, ok and math.type(w), ok and string.format("%.17g", w))
  local ok2, w2 = pcall(function() return s * 1 end)
  print("", ok2, ok2 and math.type(w2))
end
-- non-strings
print(tonumber(5), math.type(tonumber(5)), tonumber(2.5), tonumber(2^63))
print(tonumber(nil), tonumber(true), tonumber({}), tonumber(print))
print(pcall(tonumber))
print(tonumber("10", nil), tonumber("10", 16), tonumber("z", 36), pcall(tonumber, 10, 16))
print(select('#', tonumber("x")), select('#', tonumber(nil)))
-- type
print(type(nil), type(false), type(1), type(1.5), type("s"), type({}), type(print),
      type(function() end), type(coroutine.create(function() end)), type(io.stdout))
print(pcall(type))
print(select('#', type(1, 2, 3)), type(nil, 1))
local t = {}
for i = 1, 200 do t[#t + 1] = tonumber(tostring(i / 8)) + tonumber(tostring(i)) end
local s = 0
for i = 1, #t do s = s + t[i] end
print(s, math.type(s))
