-- // and % of the same operands (the interpreter computes both with one
-- division and remembers the last pair): signs, divisors -1 and 0,
-- boxed integers, floats, constants, interleaved pairs.
local function pair(a, b)
  local q, r = a // b, a % b
  local r2, q2 = a % b, a // b
  assert(q == q2 and r == r2)
  return q, r
end
local vals = {0, 1, -1, 2, -2, 7, -7, 13, -13, 1000000, -1000000,
              6000000000, -6000000000, 2^47 - 1, -2^47, 2^47, -2^47 - 1,
              math.maxinteger, math.mininteger}
for _, a in ipairs(vals) do
  a = math.tointeger(a)
  for _, b in ipairs(vals) do
    b = math.tointeger(b)
    if b ~= 0 then
      local q, r = pair(a, b)
      print(a, b, q, r, math.type(q), math.type(r))
    end
  end
end
-- interleaved: the remembered pair must not answer for another pair
local x, y = 17, 5
print(x // y, 18 % y, x % y, 18 // y, x // 4, x % 4, x % y)
local t = {}
for i = -12, 12 do
  t[#t + 1] = (i // 5) .. ":" .. (i % 5) .. ":" .. (i % -5) .. ":" .. (i // -5)
end
print(table.concat(t, " "))
-- constant divisors (MODK/IDIVK) and mixed with registers
local B = 1000
for _, v in ipairs({123456, -123456, 999, -1, 0}) do
  print(v % 1000, v // 1000, v % B, v // B, v // 1000, v % 1000)
end
-- -1 divisor: mininteger // -1 wraps, % -1 is 0
local m1 = -1
print(math.mininteger // m1, math.mininteger % m1, 5 // m1, 5 % m1, -5 % m1)
-- zero divisors: errors for integers, inf/nan for floats
local z = 0
print(pcall(function() return 7 // z end))
print(pcall(function() return 7 % z end))
print(7.0 // z, -7 // 0.0, 7 % 0.0 ~= 7 % 0.0)
-- floats and strings go the general way
print(7.5 // 2, 7.5 % 2, -7.5 // 2, -7.5 % 2, 7 // 2.0, 7 % -2.0)
print("17" // 5, "17" % 5, 17 // "5", 17 % "5.0")
-- a loop like a bignum limb pass
local a, carry = {}, 0
for i = 1, 50 do a[i] = (i * 7919) % 1000 end
for m = 2, 30 do
  carry = 0
  for i = 1, #a do
    local v = a[i] * m + carry
    a[i] = v % 1000
    carry = v // 1000
  end
  while carry > 0 do a[#a + 1] = carry % 1000; carry = carry // 1000 end
end
print(#a, table.concat(a, ",", 1, 10))
