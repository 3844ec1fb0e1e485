-- Float modulo and floor division through the interpreter (not constant
-- folded): the result takes the sign of the divisor (a - floor(a/b)*b).
local function mod(a, b) return a % b end
local function idiv(a, b) return a // b end
local vals = {0, 1, -1, 2, -2, 3, -7, 0.0, -0.0, 0.5, -0.5, 1.5, -5.5, 2^53, -2^53,
  2^63, -2^63, math.maxinteger, math.mininteger, 1/0, -1/0, 1e308, 5e-324, 3.7, -3.7}
for _, a in ipairs(vals) do
  local row = {}
  for _, b in ipairs(vals) do
    local ok, r = pcall(mod, a, b)
    local ok2, q = pcall(idiv, a, b)
    row[#row + 1] = (ok and string.format("%.17g", r) or "E") .. "/" ..
                    (ok2 and string.format("%.17g", q) or "E")
  end
  print(string.format("%.17g", a), table.concat(row, " "))
end
-- the same operations folded at compile time must agree
print(-5.5 % -2, -1.0 % -3, -1 % -2^53, 5 % -math.huge, -5 % math.huge, 5.5 % -2)
local x, y = -5.5, -2
print(x % y, -1.0 % y, x // y, math.fmod(x, y))
-- modulo through lua_arith and metamethod-free mixed operands
print(-7 % 2.0, 7 % -2.0, -7.25 % -0.5, 7.25 % -0.5, 0.0 % -1, -0.0 % 1)
