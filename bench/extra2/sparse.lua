-- sparse.lua: integer-keyed hash maps with sparse keys and memoisation:
-- Collatz chain lengths memoised in a table keyed by large, scattered
-- integers; a sparse matrix stored as one table keyed by i * 2^20 + j,
-- multiplied by a vector; a memoised recursive function (partition counts)
-- with composite keys; deletions by assigning nil and re-insertions.
-- usage: mvm bench/extra2/sparse.lua [n]   (default 150000)
-- Self-check: memoised results against direct computation, the matrix
-- product against a dense computation, key counts after deletions.
local n = tonumber(arg and arg[1]) or 150000

-- Collatz lengths with a memo table (keys far beyond n land in the hash)
local memo = {[1] = 1}
local function clen(x)
  local m = memo[x]
  if m then return m end
  local nxt = (x % 2 == 0) and x // 2 or 3 * x + 1
  m = clen(nxt) + 1
  memo[x] = m
  return m
end
local best, bestlen, sumlen = 1, 1, 0
for i = 1, n do
  local l = clen(i)
  sumlen = sumlen + l
  if l > bestlen then best, bestlen = i, l end
end
local memokeys = 0
for _ in pairs(memo) do memokeys = memokeys + 1 end

-- sparse matrix: about 8 entries per row at scattered columns
local S = 1 << 20
local rows = n // 20
local A, nnz = {}, 0
for i = 1, rows do
  for k = 1, 8 do
    local j = (i * 7919 + k * 104729) % rows + 1
    local key = i * S + j
    if A[key] == nil then nnz = nnz + 1 end
    A[key] = (A[key] or 0) + k
  end
end
local x = {}
for j = 1, rows do x[j] = j % 10 end
local y = {}
for rep = 1, 3 do
  for i = 1, rows do y[i] = 0 end
  for key, v in pairs(A) do
    local i, j = key // S, key % S
    y[i] = y[i] + v * x[j]
  end
end
local ysum = 0
for i = 1, rows do ysum = ysum + y[i] * (i % 3 + 1) end
-- the same product through a per-row dense scan of the generated columns
local wsum = 0
for i = 1, rows do
  local seen, yi = {}, 0
  for k = 1, 8 do
    local j = (i * 7919 + k * 104729) % rows + 1
    if not seen[j] then seen[j] = true yi = yi + A[i * S + j] * x[j] end
  end
  wsum = wsum + yi * (i % 3 + 1)
end

-- delete every entry with an odd value, then put back half of them
local removed = 0
for key, v in pairs(A) do
  if v % 2 == 1 then A[key] = nil removed = removed + 1 end
end
local back = 0
for i = 1, rows, 2 do
  local key = i * S + (i * 7919 + 104729) % rows + 1
  if A[key] == nil then A[key] = 1 back = back + 1 end
end
local left = 0
for _ in pairs(A) do left = left + 1 end

-- memoised partition counts p(m, k): partitions of m into parts <= k
local pm = {}
local function parts(m, k)
  if m == 0 then return 1 end
  if m < 0 or k == 0 then return 0 end
  local key = m * 4096 + k
  local v = pm[key]
  if v then return v end
  v = parts(m - k, k) + parts(m, k - 1)
  pm[key] = v
  return v
end
local psum = 0
for m = 1, 60 + n // 1000 do psum = psum + parts(m, m) % 1000003 end

-- direct checks
local wbest, wbestlen, wsumlen = 1, 1, 0
for i = 1, n do
  local c, l = i, 1
  while c ~= 1 do c = (c % 2 == 0) and c // 2 or 3 * c + 1 l = l + 1 end
  wsumlen = wsumlen + l
  if l > wbestlen then wbest, wbestlen = i, l end
end
assert(sumlen == wsumlen and best == wbest and bestlen == wbestlen, "collatz " .. sumlen .. " vs " .. wsumlen)
assert(ysum == wsum, "matrix product " .. ysum .. " vs " .. wsum)
assert(left == nnz - removed + back, "keys after deletion " .. left)
assert(parts(10, 10) == 42 and parts(50, 50) == 204226, "partitions")
print(string.format("sparse: %d memo keys, longest chain %d at %d, %d nonzeros, product %d, %d partitions sum",
                    memokeys, bestlen, best, nnz, ysum, psum))
