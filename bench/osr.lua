-- osr.lua: one long main chunk whose hot loops run at top level, outside any
-- function (the case on-stack replacement exists for): locals of the main
-- chunk, numeric for, while and repeat loops, nested loops, table and string
-- work, all in straight-line top-level code.
-- usage: mvm bench/osr.lua [scale]   (default 30)
-- Self-check: every loop's result against a closed form or a second loop.
local scale = tonumber(arg and arg[1]) or 30
local N = math.floor(100000 * scale)

-- 1. integer sum and a sum of squares of residues (which cannot overflow)
local s, sq = 0, 0
for i = 1, N do
  s = s + i
  local r = i % 1000
  sq = sq + r * r
end
local function S2(m) return m * (m + 1) * (2 * m + 1) // 6 end
assert(s == N * (N + 1) // 2, "sum")
assert(sq == (N // 1000) * S2(999) + S2(N % 1000), "sum of squares")

-- 2. float accumulation (harmonic numbers against the log approximation)
local h = 0.0
for i = 1, N do h = h + 1.0 / i end
local gamma = 0.5772156649015329
assert(math.abs(h - (math.log(N) + gamma + 1 / (2 * N))) < 1e-6, "harmonic")

-- 3. a while loop: Collatz steps of the first values
local steps_total = 0
local k = 1
while k <= N // 10 do
  local x, steps = k, 0
  while x ~= 1 do
    if x % 2 == 0 then x = x // 2 else x = 3 * x + 1 end
    steps = steps + 1
  end
  steps_total = steps_total + steps
  k = k + 1
end
-- recompute with a memoised table walk (a different loop shape)
local memo = { [1] = 0 }
local st2 = 0
for v = 1, N // 10 do
  local path, x = {}, v
  while not memo[x] do path[#path + 1] = x; x = (x % 2 == 0) and x // 2 or 3 * x + 1 end
  local d = memo[x]
  for j = #path, 1, -1 do d = d + 1; memo[path[j]] = d end
  st2 = st2 + memo[v]
end
assert(steps_total == st2, "collatz")

-- 4. nested loops over a 2-D table (matrix product with the identity-like matrix)
local dim = 60 + scale * 2
local A, B = {}, {}
for i = 1, dim do
  local ra, rb = {}, {}
  for j = 1, dim do ra[j] = i + j; rb[j] = (i == j) and 2 or 0 end
  A[i], B[i] = ra, rb
end
local C = {}
for i = 1, dim do
  local ci, ai = {}, A[i]
  for j = 1, dim do
    local acc = 0
    for t = 1, dim do acc = acc + ai[t] * B[t][j] end
    ci[j] = acc
  end
  C[i] = ci
end
for i = 1, dim do for j = 1, dim do assert(C[i][j] == 2 * (i + j), "matrix") end end

-- 5. repeat-until with bit operations (a xorshift generator and popcount)
local x32 = 2463534242
local pop = 0
local cnt = 0
repeat
  x32 = x32 ~ ((x32 << 13) & 0xffffffff)
  x32 = x32 ~ (x32 >> 17)
  x32 = x32 ~ ((x32 << 5) & 0xffffffff)
  local v = x32
  while v ~= 0 do pop = pop + (v & 1); v = v >> 1 end
  cnt = cnt + 1
until cnt == N // 4
-- replay with a table-driven popcount over bytes
local bits = {}
for b = 0, 255 do local c, v = 0, b; while v ~= 0 do c = c + (v & 1); v = v >> 1 end; bits[b] = c end
local y32, pop2 = 2463534242, 0
for _ = 1, N // 4 do
  y32 = y32 ~ ((y32 << 13) & 0xffffffff)
  y32 = y32 ~ (y32 >> 17)
  y32 = y32 ~ ((y32 << 5) & 0xffffffff)
  pop2 = pop2 + bits[y32 & 255] + bits[(y32 >> 8) & 255] + bits[(y32 >> 16) & 255] + bits[y32 >> 24]
end
assert(y32 == x32 and pop == pop2, "xorshift")

-- 6. a string built at top level, then scanned
local parts = {}
for i = 1, N // 20 do parts[#parts + 1] = i % 10 end
local str = table.concat(parts)
local dsum = 0
for i = 1, #str do dsum = dsum + (str:byte(i) - 48) end
local m = N // 20
assert(dsum == (m // 10) * 45 + ((m % 10) * (m % 10 + 1)) // 2, "digits")

print(string.format("osr ok: %d %.6f %d %d %d", s, h, steps_total, pop, dsum))
