-- Decimal float numerals: the exact short path (<= 19 digits, |e| <= 22)
-- and strtod for the rest must read the same doubles as lua5.4.
local texts = { "0.1", "0.2", "0.3", ".5", "5.", "-0.0", "+1.5", " 2.5 ", "\t7.25\n", "1e22", "1e23",
  "9007199254740993.0", "9007199254740992.0", "123456789012345678.9", "1234567890123456789.0",
  "0.000000000000000000001", "1e-22", "1e-23", "4.35", "0.14", "2.675", "1.7976931348623157e308",
  "2.2250738585072014e-308", "1e400", "-1e400", "1e", "1e+", ".", "-.", "1..2", "1.5x", "0x1.8p1",
  "0x.1", "1E5", "1e+05", "1e-05", "00000000000000000000001.5", "1.00000000000000000000001",
  "0.30000000000000004", "123.456e-2", "inf", "nan", "1 2", "", " ", "1.5 x" }
for _, t in ipairs(texts) do
  local v = tonumber(t)
  print(string.format("%q", t), v, v and math.type(v), v and string.format("%a", v))
end
local acc = 0
for i = 1, 2000 do
  local t = string.format("%d.%03d", i * 37 % 1000, i % 1000)
  local v = tonumber(t)
  acc = acc + v
  assert(v == tonumber(t .. "e0") and v == tonumber("0" .. t .. "00"))
end
print(string.format("%.17g", acc))
print(("3.25" + 0) * 2, "1.5e2" * 1, math.type("2.0" + 0))
