-- fannkuch_redux.lua: pancake flips over all permutations of 1..n (integer
-- arrays, tight loops).
-- usage: mvm bench/fannkuch_redux.lua [n [reps]]   (default 9, 4 repetitions)
-- Self-check: checksum and maximum flip count against the published values.
local n = tonumber(arg and arg[1]) or 9
local reps = tonumber(arg and arg[2]) or 4
local known = {   -- n = { checksum, maxflips }
  [3] = { 2, 2 }, [4] = { 4, 4 }, [5] = { 11, 7 }, [6] = { 49, 10 }, [7] = { 228, 16 },
  [8] = { 1616, 22 }, [9] = { 8629, 30 }, [10] = { 73196, 38 }, [11] = { 556355, 51 },
  [12] = { 3968050, 65 },
}

-- Permutations are visited in the order of the benchmark's reference
-- program (rotations driven by the count array), which fixes the sign
-- pattern of the checksum.
local function fannkuch(n)
  local perm, perm1, count = {}, {}, {}
  local maxflips, checksum, permcount = 0, 0, 0
  for i = 0, n - 1 do perm1[i] = i end
  local r = n
  while true do
    while r ~= 1 do count[r - 1] = r; r = r - 1 end
    for i = 0, n - 1 do perm[i] = perm1[i] end
    local flips = 0
    local k = perm[0]
    while k ~= 0 do
      local i, j = 0, k
      while i < j do
        perm[i], perm[j] = perm[j], perm[i]
        i = i + 1; j = j - 1
      end
      flips = flips + 1
      k = perm[0]
    end
    if flips > maxflips then maxflips = flips end
    if permcount % 2 == 0 then checksum = checksum + flips else checksum = checksum - flips end
    -- next permutation: rotate the first r+1 elements until a count is left
    while true do
      if r == n then return checksum, maxflips end
      local perm0 = perm1[0]
      for i = 0, r - 1 do perm1[i] = perm1[i + 1] end
      perm1[r] = perm0
      count[r] = count[r] - 1
      if count[r] > 0 then break end
      r = r + 1
    end
    permcount = permcount + 1
  end
end

local checksum, maxflips
for _ = 1, reps do checksum, maxflips = fannkuch(n) end
local k = known[n]
assert(k, "no reference result for n=" .. n .. " (use 3..12)")
assert(checksum == k[1] and maxflips == k[2],
       string.format("n=%d: checksum %d maxflips %d, expected %d %d", n, checksum, maxflips, k[1], k[2]))
print(checksum)
print(string.format("Pfannkuchen(%d) = %d", n, maxflips))
