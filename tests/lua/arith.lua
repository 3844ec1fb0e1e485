-- arith.lua: integer/float arithmetic semantics
print("arith: start")

local maxi, mini = math.maxinteger, math.mininteger

local function show(...)
  local t = table.pack(...)
  for i = 1, t.n do
    local v = t[i]
    t[i] = tostring(v) .. ":" .. (math.type(v) or type(v))
  end
  print(table.concat(t, " "))
end

-- basic operations and result subtypes
show(1 + 2, 1 + 2.0, 1.0 + 2, 3 - 5, 3.0 - 5)
show(2 * 3, 2 * 3.0, 7 / 2, 6 / 2, 6.0 / 2)
show(7 // 2, -7 // 2, 7 // -2, -7 // -2, 7.0 // 2, -7.5 // 2)
show(7 % 3, -7 % 3, 7 % -3, -7 % -3, 7.5 % 2, -7.5 % 2, 7.5 % -2)
show(2 ^ 2, 2 ^ 0.5, (-8) ^ (1/3) ~= (-8) ^ (1/3), 10 ^ -1)
show(-(2), -(2.0), - -3)

assert(7 // 2 == 3 and -7 // 2 == -4)
assert(-7 % 3 == 2 and 7 % -3 == -2)
assert(math.type(2^2) == "float")
assert(math.type(6 / 2) == "float")

-- integer wraparound
assert(maxi + 1 == mini)
assert(mini - 1 == maxi)
assert(maxi * 2 == -2)
assert(mini * -1 == mini)
assert(-mini == mini)
show(maxi + 1, mini - 1, maxi * 2, mini * -1, -mini)
show(mini // -1, mini % -1)
assert(mini // -1 == mini)
assert(mini % -1 == 0)

-- division by zero
print("int div zero", pcall(function() return 1 // 0 end))
print("int mod zero", pcall(function() return 1 % 0 end))
local zero = 0
print("int div zero var", pcall(function() return 10 // zero end))
print("int mod zero var", pcall(function() return 10 % zero end))
show(1 / 0, -1 / 0, 1.0 // 0, -1 // 0.0, 0/0 ~= 0/0)
show(1 % 0.0 ~= 1 % 0.0, 5.0 % math.huge, -5.0 % math.huge, 5.0 % -math.huge)
show(1 % math.huge, -1 % math.huge)

-- inf / nan printing
local inf, nan = math.huge, 0/0
print("inf", inf, -inf, tostring(inf), string.format("%.1f", inf))
print("nan eq", nan == nan, nan ~= nan, nan < nan, nan > 0, not (nan <= nan))
print("nan tostring has nan", tostring(nan):find("nan") ~= nil)

-- float formatting
print(1e15, 1e16, 1e100, 2^53, 2^63, -2^63, 123456789012345678)
print(0.1, 1/3, -1/3, 100.0, -0.0, 0.0, 1e-5, 123.456e10)
print(3.0, -3.0, 1e300 * 10, 2^-1074, 5e-324)
print(tostring(-0.0), tostring(0.0), 0.0 == -0.0, 1/(-0.0))
print(2^24, 2.0^31, 2^32, 255 / 5)

-- comparisons int vs float
assert(1 == 1.0)
assert(math.maxinteger + 0.0 == 2^63)
assert(math.maxinteger ~= 2^63)      -- exact comparison, no conversion
assert(math.maxinteger < 2^63)
assert(math.maxinteger + 0.0 == 2^63)
assert(math.mininteger == -2^63)
assert(math.mininteger <= -2^63)
assert(not (math.mininteger < -2^63))
assert(2^53 == 2^53 + 1.0)            -- float precision
assert(2^53 ~= (1 << 53) + 1)
assert((1 << 53) + 1 > 2^53)
assert(not ((1 << 53) + 1 <= 2^53))
assert(maxi < math.huge and mini > -math.huge)
assert(not (maxi < nan) and not (maxi > nan))
assert(1 < 1.5 and 2 > 1.5 and 1 <= 1.0 and 1 >= 1.0)
print("cmp", maxi < 2^63, maxi <= 2^63, maxi == 2^63, mini == -2^63,
  (1<<53)+1 == 2^53, (1<<53) == 2^53, -0.0 == 0)
for _, p in ipairs{{1, 1.0}, {maxi, 2^63}, {mini, -2^63}, {3, 2.5}, {-3, -2.5},
                   {(1<<53)+1, 2.0^53}} do
  local a, b = p[1], p[2]
  print("cmp pair", a, b, a < b, a <= b, a > b, a >= b, a == b)
end

-- math.maxinteger / mininteger arithmetic
show(maxi, mini, maxi + 0.0, mini + 0.0, maxi // 1, maxi / 1)
show(maxi - maxi, mini + maxi, maxi % 2, mini % 2, mini // 2)

-- string coercions in arithmetic
show("10" + 1, "10" * 2, "0x10" + 0, "1e1" * 1, " 5 " - 1, "3.0" + 1)
show(10 .. "", "2" ^ "3", -"2", "10" // "3", "10" % "3", "7" / "2")
assert("10" + 1 == 11 and math.type("10" + 1) == "integer")
assert(math.type("1e1" * 1) == "float")
print("bad coercion", pcall(function() return "abc" + 1 end))
print("bad coercion 2", pcall(function() return {} + 1 end))
print("bad coercion 3", pcall(function() return "10" + "x" end))
print("bad coercion 4", pcall(function() return 1 + nil end))

-- integer conversions of floats
print(3.0 | 0, 2^53 | 0, -2.0 | 0)
print(pcall(function() return 3.5 | 0 end))
print(pcall(function() return 2^63 | 0 end))
print(pcall(function() return "3.5" | 0 end))
print(pcall(function() return math.huge // 1 | 0 end))
show(math.tointeger(3.0), math.tointeger(3.5), math.tointeger(2^63))

-- floor division and modulo with floats
show(5.5 // 2, -5.5 // 2, 5.5 % -2, -5.5 % -2, 1e308 * 10 // 1)
show(3 % -math.huge, -3 % math.huge, 0.0 % 1, -0.0 % 1)
show(math.fmod(7, 3), math.fmod(-7, 3), math.fmod(7, -3))

-- precedence
assert(2 + 3 * 4 == 14)
assert(2 ^ 3 ^ 2 == 512)
assert(-2 ^ 2 == -4)
assert((2 * 3) % 4 == 2)
assert(1 .. 2 .. 3 == "123")
assert(not nil == true)
assert(1 + 2 < 4 and 3 > 2 == true)
assert(2 * 3 // 4 == 1)
assert(-3 % 5 == 2)
assert(- 3 ^ 2 == -9)
print("precedence", 2 + 3 * 4, 2 ^ 3 ^ 2, -2 ^ 2, 7 - 3 - 2, 64 / 4 / 2, 2 .. 3 ^ 2)

-- constant folding must not change semantics
local function f1() return 1 // 0 end
local function f2() return 3 % 0 end
print("folding", pcall(f1))
print("folding", pcall(f2))
show(0x7fffffffffffffff + 1, -(-9223372036854775807 - 1), 5 // 0.0, -5 // 0.0, 0/0 == 0/0)

-- numeric loop using arithmetic
local sum, fsum = 0, 0.0
for i = 1, 100 do sum = sum + i; fsum = fsum + i / 2 end
show(sum, fsum)

-- large integer products
show(1000000007 * 1000000009, 0x100000000 * 0x100000000, 3 ^ 40, 3 * 3^39)
print("arith: OK")
