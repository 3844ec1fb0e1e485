-- bigint.lua: N! in base 10^6 limbs (integer multiply, // and % in a tight
-- loop over a growing array), then the product divided back by N..1.
-- usage: mvm bench/extra/bigint.lua [N]   (default 6000)
-- Self-check: dividing N! by N, N-1, ..., 1 leaves 1 with no remainder.
local N = tonumber(arg and arg[1]) or 6000
local B = 1000000
local a = {1}
for m = 2, N do
  local carry = 0
  for i = 1, #a do
    local v = a[i] * m + carry
    a[i] = v % B
    carry = v // B
  end
  while carry > 0 do a[#a + 1] = carry % B; carry = carry // B end
end
local limbs, sum = #a, 0
for i = 1, #a do sum = (sum + a[i]) % 1000003 end
for d = N, 2, -1 do            -- long division from the top limb down
  local rem = 0
  for i = #a, 1, -1 do
    local v = rem * B + a[i]
    a[i] = v // d
    rem = v % d
  end
  assert(rem == 0, "remainder dividing by " .. d)
  while #a > 1 and a[#a] == 0 do a[#a] = nil end
end
assert(#a == 1 and a[1] == 1, "N! / N! ~= 1")
print(string.format("bigint: %d! has %d limbs, checksum %d", N, limbs, sum))
