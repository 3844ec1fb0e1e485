-- Floats formatted without printf (vm_fmtfloat reads mantissa and exponent
-- from the bits): %.17g, %.14g (tostring), %f, %e, %g of values around
-- every binary exponent that has at most 60 fraction bits, integral floats
-- up to 2^64, subnormals (printf's path), both signs; compared in full
-- with lua5.4 through a checksum plus samples.
local fmts = { "%.17g", "%.14g", "%.3f", "%.0f", "%.10e", "%g", "%.1g", "%5.2f", "%.20f" }
local function h(acc, s)
  for i = 1, #s do acc = (acc * 31 + s:byte(i)) % 4294967291 end
  return acc
end
local acc, n = 0, 0
local samples = {}
for e = -70, 66 do
  local base = 2.0 ^ e
  for _, f in ipairs({ 1, 1.5, 1.25, 1.1, 1 + 2^-52, 2 - 2^-52, 1.999, 1.0000001, 3 / 3.0001 }) do
    for _, sg in ipairs({ 1, -1 }) do
      local x = sg * base * f
      for _, fm in ipairs(fmts) do
        local s = string.format(fm, x)
        acc = h(acc, s); n = n + 1
        if e % 23 == 0 and f == 1.1 then samples[#samples + 1] = s end
      end
      acc = h(acc, tostring(x))
    end
  end
end
print(n, acc)
print(table.concat(samples, " "))
-- integral floats at the 2^52, 2^53, 2^63, 2^64 boundaries
for _, x in ipairs({ 2^52, 2^52 + 1, 2^53, 2^53 + 2, 2^63, 2^64 - 2048, 2^64, 1e15, 1e16, 123456789012345678 * 1.0 }) do
  print(string.format("%.17g %.0f %.3e %g", x, x, x, x), tostring(x), tostring(-x))
end
-- small values, subnormals, zero, rounding ties
for _, x in ipairs({ 0.0, -0.0, 1e-3, 1.5e-5, 2^-60, 2^-61, 2^-1074, 2.2250738585072014e-308, 0.5, 0.125, 2.5, 0.05, 1e-300 }) do
  print(string.format("%.17g|%.3f|%.2e|%g", x, x, x, x), tostring(x))
end
print(string.format("%.0f %.0f %.0f %.1f %.1f %.2f", 0.5, 1.5, 2.5, 0.25, 0.35, 1.005))
print(0.1 + 0.2, 100 / 3, -1e100, 2^-20, 12.5 .. "", 3.0 .. "|" .. -7.25)
