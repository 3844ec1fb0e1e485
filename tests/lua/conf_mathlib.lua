-- math library details compared with lua5.4 (Debian's build has the
-- LUA_COMPAT_MATHLIB functions: pow, cosh, sinh, tanh, frexp, ldexp, log10, atan2)
print(math.pow(2, 10), math.pow(2, 0.5), math.pow("3", 2))
print(math.cosh(0), math.sinh(0), math.tanh(0), math.cosh(1), math.sinh(-1), math.tanh(0.5))
print(math.frexp(8), math.frexp(0), math.frexp(-3.5), math.frexp(0.1))
print(math.ldexp(1, 3), math.ldexp(1.5, -2), math.ldexp(0, 100), pcall(math.ldexp, 1, 1.5))
print(math.log10(100), math.log10(2), math.atan2(1, 1), math.atan2(-1, -1), math.atan(1, -1))
print(pcall(math.pow, "x", 1))
print(pcall(math.frexp))
-- min/max compare with "<" (no number check, as in 5.4); the result is the argument
print(math.max(1, 2.0), math.min(1, 1.0), math.max(1.0, 1), math.max(3), math.min(-0.0, 0))
print(math.type(math.max(1, 2.0)), math.type(math.min(2, 1.0)), math.max(math.mininteger, -1/0))
print(pcall(math.max))
print(type(math.max({})), math.max("x"))
print(pcall(math.min, 1, "x"))
print(pcall(math.max, 1, {}))
print(pcall(math.min, "10", 9))
print(math.max("10", "9.5") == "9.5" or "not reached")
-- other corners
print(math.abs(math.mininteger), math.abs(-0.0), math.tointeger("8"), math.tointeger(2^63), math.tointeger(-2^63))
print(math.ult(1, -1), math.ult(-1, 1), math.fmod(-6, 4), math.fmod(6, -4), math.fmod(math.mininteger, -1))
print(pcall(math.fmod, 1, 0), math.fmod(1, 0.0) ~= math.fmod(1, 0.0), math.fmod(-3, math.huge))
print(math.floor(-0.0), math.ceil(-0.5), math.floor(2^62), math.floor(1e100), math.ceil(-2^63))
print(math.modf(3.7), math.modf(-3.7), math.modf(1/0), math.modf(-1/0), math.modf(5))
print(math.sqrt(-1) ~= math.sqrt(-1), math.exp(0), math.log(8, 2), math.log(100, 10), math.log(27, 3))
-- floor and ceil at the edges of the immediate integer range (vm/api.c
-- api_roundstep rounds there without libm), signed zeros, halves
for _, v in ipairs({0.5, -0.5, 1.5, -1.5, 1e-300, -1e-300, 0.9999999999999999, -0.9999999999999999,
                    2^47 - 1, 2^47 - 1.5, 2^47 - 0.5, 2^47, -2^47, -2^47 + 0.5, -2^47 - 0.5,
                    2^52 + 0.5, -2^53, 123456.789, -98765.4321}) do
  local f, c = math.floor(v), math.ceil(v)
  print(v, f, math.type(f), c, math.type(c))
end
