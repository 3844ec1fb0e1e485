-- sieve.lua: sieve of Eratosthenes over booleans, run several times
-- (integer loops, array stores and loads).
-- usage: mvm bench/sieve.lua [limit]   (default 1000000)
-- Self-check: pi(limit) for known limits; for every limit, the largest
-- primes found are confirmed by trial division and no number between them
-- is prime.
local limit = tonumber(arg and arg[1]) or 1000000
local runs = 15
local known = { [100] = 25, [1000] = 168, [10000] = 1229, [100000] = 9592,
                [1000000] = 78498, [4000000] = 283146, [10000000] = 664579 }

local function sieve(n)
  local composite = {}
  for i = 1, n do composite[i] = false end
  composite[1] = true
  local i = 2
  while i * i <= n do
    if not composite[i] then
      for j = i * i, n, i do composite[j] = true end
    end
    i = i + 1
  end
  local count = 0
  for k = 2, n do if not composite[k] then count = count + 1 end end
  return count, composite
end

local count, composite
for _ = 1, runs do
  local c
  c, composite = sieve(limit)
  assert(count == nil or c == count, "runs disagree")
  count = c
end

local function isprime(k)
  if k < 2 then return false end
  local d = 2
  while d * d <= k do
    if k % d == 0 then return false end
    d = d + 1
  end
  return true
end
-- the top of the range: sieve and trial division agree on 2000 numbers
for k = math.max(1, limit - 2000), limit do
  assert((not composite[k]) == isprime(k), "sieve wrong at " .. k)
end
if known[limit] then assert(count == known[limit], "pi(" .. limit .. ") = " .. count) end
print(string.format("primes <= %d: %d", limit, count))
