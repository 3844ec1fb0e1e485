-- string.format of floats with a width and '-' (sl_plainfloat pads the
-- text vm_fmtfloat writes), next to the flags printf keeps
local f = string.format
local xs = { 0, 1, -1, 0.5, -0.5, 3.14159, -2.71828, 100, 12345.678, -0.0, 1e10, 1e-5, 2^53, 1/3, 1e300 }
local specs = { "%5.1f", "%-5.1f|", "%8.3f", "%-8.3f|", "%12.4e", "%-12.4e|", "%10g", "%-10g|",
  "%3.0f", "%1.2f", "%20.10f", "%-20.10f|", "%99.2f", "%10.3G", "%05.1f", "%-05.1f|", "%+6.1f",
  "% 6.1f", "%#8.0f", "%6f", "%-6f|", "%15.2E" }
for _, s in ipairs(specs) do
  local out = {}
  for _, x in ipairs(xs) do out[#out + 1] = f(s, x) end
  print(s, table.concat(out, ";"):gsub(" ", "_"))
end
print(f("%8.2f|%-8.2f|%8.2f", 1/0, -1/0, -1/0))
print((f("%8.2f|%-8.2f", 0/0, 0/0):gsub("-", "")))
print(f("[%6.2f] [%-6.2f] [%6.2f]", 3, 7, 2^63))
print(pcall(f, "%100.2f", 1))
print(pcall(f, "%5.1f", "x"))
