-- heapsort.lua: heap sort of pseudo-random floats (array indexing, swaps,
-- a nested function called in loops).
-- usage: mvm bench/extra/heapsort.lua [n]   (default 200000)
-- Self-check: the result is ordered and holds the same values (sum).
local n = tonumber(arg and arg[1]) or 200000
local seed = 42
local function rnd() seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648 end
local function heapsort(a, n)
  local function sift(lo, hi)
    local root = lo
    while true do
      local child = root * 2
      if child > hi then break end
      if child + 1 <= hi and a[child] < a[child + 1] then child = child + 1 end
      if a[root] < a[child] then a[root], a[child] = a[child], a[root]; root = child
      else break end
    end
  end
  for i = n // 2, 1, -1 do sift(i, n) end
  for i = n, 2, -1 do a[1], a[i] = a[i], a[1]; sift(1, i - 1) end
end
local a, s0 = {}, 0
for i = 1, n do a[i] = rnd(); s0 = s0 + a[i] * 2^31 end
heapsort(a, n)
local s1 = a[1] * 2^31
for i = 2, n do assert(a[i - 1] <= a[i], "order at " .. i); s1 = s1 + a[i] * 2^31 end
assert(s0 == s1, "values changed")   -- (integers below 2^53: exact sums)
print(string.format("heapsort: %d values, %.6f .. %.6f", n, a[1], a[n]))
