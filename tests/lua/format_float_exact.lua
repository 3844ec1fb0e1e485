-- string.format %e %f %g and tostring of floats: the exact-digit path
-- (vm_fmtfloat) and the printf fallback must print alike, as lua5.4 does.
local vals = { 0.0, -0.0, 0.5, 1.5, 2.5, -2.5, 0.125, 0.375, 2.675, 1.005,
  1e15, 1e15 + 0.5, 123456789012345678.0, 2^63, 2^64, 2^64 * 3, 9.5, 99.95,
  0.0009765625, 0.001, 1e-5, 1e-300, 5e-324, 9.999999999999999e22, 0.1, 1/3, 2/3,
  100, 1e14, 99999999999999.5, 999999999999999.9, 0.00012345, 1/0, -1/0, 0/0,
  3.14159265358979, -123.456, 12345.678, 0.05, 0.15, 0.25, 0.35, 1e21, 7e-4 }
local forms = { "%e", "%E", "%f", "%g", "%G", "%.0f", "%.1f", "%.2f", "%.3f",
  "%.0e", "%.3e", "%.0g", "%.1g", "%.3g", "%.14g", "%.17g", "%.20f", "%.99f",
  "%.30e", "%.25g", "%.f", "%10.3f", "%-12g|", "%+.2f", "% g", "%#g", "%#.0f", "%08.2f" }
for _, x in ipairs(vals) do
  local out = { tostring(x), x .. "" }
  for _, f in ipairs(forms) do
    local s = string.format(f, x)
    if s:find("nan") then s = s:gsub("%-", "") end   -- the sign of a nan is not portable
    out[#out + 1] = s
  end
  print(table.concat(out, " "))
end
-- ties of %.Nf and %.Ng rounding to even on the exact binary value
for i = 0, 40 do
  local x = i / 8
  print(i, string.format("%.0f %.1f %.2f %.1g %.2g", x, x, x, x, x), tostring(x + 0.0))
end
-- carries through nines
for _, x in ipairs{ 9.995, 9.9995, 99.5, 999.5, 0.9999995, 9999999.5, 0.0995 } do
  print(string.format("%.2f %.0f %.3g %.1e %g", x, x, x, x, x))
end
-- tostring of computed floats
local acc = {}
for i = 1, 200 do acc[#acc + 1] = tostring(i / 7) .. "," .. tostring(i * 1.1) .. "," .. (i ^ 0.5) end
print(table.concat(acc, " "))
