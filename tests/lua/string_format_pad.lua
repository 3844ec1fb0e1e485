-- string.format's integer conversions with flags and widths and %s with a
-- width, written without printf: same text as lua5.4's printf.
local ints = { 0, 1, -1, 7, -42, 255, 4096, 123456789, -123456789, math.maxinteger,
  math.mininteger, 2^31, -2^31, 3.0, -0.0 }
local forms = { "%d", "%i", "%5d", "%-5d|", "%05d", "%-05d|", "%1d", "%20d", "%020d", "%-20d|",
  "%x", "%X", "%8x", "%-8x|", "%08X", "%o", "%6o", "%06o", "%+d", "% d", "%#x", "%#o",
  "%.3d", "%8.3d", "%-+6d|", "%+05d", "%99d", "%099x", "%-99d|" }
for _, n in ipairs(ints) do
  local out = {}
  for _, f in ipairs(forms) do out[#out + 1] = string.format(f, n) end
  print(table.concat(out, " "))
end
local strs = { "", "a", "hello", "exactly ten", ("w"):rep(99), ("w"):rep(100), 12, 1.5, true }
for _, v in ipairs(strs) do
  print(string.format("[%5s][%-5s][%1s][%20s][%-20s][%.2s][%8.3s][%-8.3s]", v, v, v, v, v, v, v, v))
end
print(pcall(string.format, "%05s", "x"))
print(pcall(string.format, "%100d", 1))
print(pcall(string.format, "%5s", "a\0b"))
print(string.format("%-3d|%3d|%03d|%x|%X|%5.1f|%-8s|%q", 5, 5, 5, 255, 255, 2.25, "v1", "q1"))
