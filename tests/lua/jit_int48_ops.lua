-- Integer ADD/SUB/MUL (and ADDI/ADDK/SUBK/MULK) on the immediates at
-- the edges of 48 bits (llvmgen.c int48op: the operation on payloads
-- shifted 16 bits left, its overflow flag as the "does not fit" test),
-- in compiled loops and in inlined leaves: results of exactly -2^47 fit,
-- 2^47 does not (boxed integers, then back to immediates), also for
-- products of every sign and for values that wrap at 64 bits.

local lo, hi = -(1 << 47), (1 << 47) - 1
local vals = { 0, 1, -1, 2, -2, 3, hi, lo, hi - 1, lo + 1, 1 << 23, -(1 << 23), 1 << 24,
               -(1 << 24), (1 << 24) - 1, 1 << 46, -(1 << 46), 12345678, -87654321,
               math.maxinteger, math.mininteger, 1 << 50, -(1 << 50) }

local function add(a, b) return a + b end
local function sub(a, b) return a - b end
local function mul(a, b) return a * b end

local function run(f, tag)
  local out, sum = {}, 0
  for _ = 1, 3 do
    for i = 1, #vals do
      for j = 1, #vals do
        local x, y = vals[i], vals[j]
        local r1, r2, r3 = x + y, x - y, x * y
        local r4, r5, r6 = add(x, y), sub(x, y), mul(x, y)
        assert(r1 == r4 and r2 == r5 and r3 == r6)
        assert(math.type(r1) == "integer" and math.type(r3) == "integer")
        sum = sum ~ r1 ~ (r2 << 1) ~ (r3 >> 1)
        out[#out + 1] = f(x, y)
      end
    end
  end
  print(tag, sum, #out, out[#out], out[#vals + 3])
end
run(function(x, y) return x * y - x end, "mulsub")
run(function(x, y) return (x + 1) * 3 + y * -5 end, "consts")

-- constants operands (ADDI, ADDK, SUBK, MULK) crossing the edges in loops
local function steps(x, n)
  local a, b, c, d = x, x, x, x
  local t = {}
  for _ = 1, n do
    a = a + 1
    b = b - 1
    c = c * 2
    d = d + 100000
    t[#t + 1] = math.type(a) .. math.type(c)
  end
  return a, b, c, d, t[1], t[n]
end
print(steps(hi - 5, 10))
print(steps(lo + 5, 10))
print(steps(1 << 40, 12))
print(steps(-(1 << 40), 12))
print(steps(3, 70))

-- a counter in a loop home that goes past the immediates
local function count(from, n, k)
  local s = from
  for i = 1, n do s = s + k * i end
  return s, math.type(s)
end
for _ = 1, 3 do print(count(hi - 1000, 100, 1), count(lo + 1000, 100, -1), count(0, 100, 1 << 41)) end

-- inlined leaf arithmetic at the edges, in a loop
local function leafsum(n, base)
  local s = 0
  for i = 1, n do s = s + mul(base, i) - add(base, -i) + sub(i, base) end
  return s
end
for _ = 1, 3 do print(leafsum(20, 1 << 43), leafsum(20, -(1 << 43)), leafsum(20, hi), leafsum(20, 7)) end
