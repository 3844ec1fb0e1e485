-- Arithmetic through metamethods in compiled code (jit/llvmgen.c mmsites,
-- jit/jitrt.c mvmrt_arith).  Under "-j on" the functions below record type
-- feedback that sees tables and strings at their arithmetic, and their
-- compiled code calls the metamethods from a helper instead of leaving to
-- the interpreter.  Every form of the instruction is here: register and
-- constant operands, immediates (x + 1, x - 1), a constant on the left
-- (2 * v), shifts written either way (x << 3 is compiled as x >> -3),
-- unary minus and bitwise not, string coercion, numbers of every kind at
-- the same site (boxed integers, floats), errors that name the operand, a
-- metamethod that yields, one that changes the caller's local with
-- debug.setlocal, and values the collector moves meanwhile.

local N = 20000

local V = {}
V.__index = V
local function vec(x, y) return setmetatable({x = x, y = y}, V) end
V.__add = function(a, b)
  if type(a) == "number" then return vec(a + b.x, a + b.y) end
  if type(b) == "number" then return vec(a.x + b, a.y + b) end
  return vec(a.x + b.x, a.y + b.y)
end
V.__sub = function(a, b)
  if type(b) == "number" then return vec(a.x - b, a.y - b) end
  return vec(a.x - b.x, a.y - b.y)
end
V.__mul = function(a, b)
  if type(a) == "number" then return vec(a * b.x, a * b.y) end
  if type(b) == "number" then return vec(a.x * b, a.y * b) end
  return a.x * b.x + a.y * b.y
end
V.__div = function(a, b) return vec(a.x / b, a.y / b) end
V.__mod = function(a, b) return vec(a.x % b, a.y % b) end
V.__idiv = function(a, b) return vec(a.x // b, a.y // b) end
V.__pow = function(a, b) return vec(a.x ^ b, a.y ^ b) end
V.__unm = function(a) return vec(-a.x, -a.y) end
V.__band = function(a, b) return "band" end
V.__bor = function(a, b) return "bor" end
V.__bxor = function(a, b) return "bxor" end
V.__shl = function(a, b) return "shl " .. tostring(type(a) == "table" and "v" or a) .. " " ..
                                tostring(type(b) == "table" and "v" or b) end
V.__shr = function(a, b) return "shr " .. tostring(type(a) == "table" and "v" or a) .. " " ..
                                tostring(type(b) == "table" and "v" or b) end
V.__bnot = function(a) return "bnot" end
V.__tostring = function(a) return string.format("(%g,%g)", a.x, a.y) end

-- 1. every arithmetic form, vectors only
local function forms(p, q)
  local r = p + q           -- ADD
  r = r - q                 -- SUB
  local d = r * q           -- MUL (a number: the dot product)
  r = r + 1                 -- ADDI
  r = r - 1                 -- ADDI of -1
  r = r * 2.5               -- MULK
  r = 2 * r                 -- MULK, constant first (flip)
  r = r / 5                 -- DIVK
  r = r % 7                 -- MODK
  r = r // 1                -- IDIVK
  r = r ^ 1                 -- POWK
  r = -r                    -- UNM
  r = -(-r)
  return r.x + r.y + d
end
local acc = 0
for i = 1, N do acc = acc + forms(vec(i, 2), vec(1, i % 5)) end
print("forms", acc)

-- 2. bitwise metamethods, shifts written both ways
local function bits(v, n)
  return (v & 1) .. (v | n) .. (n ~ v) .. (v << 3) .. (v >> 2) .. (1 << v) .. (v << n) .. (~v)
end
local last
for i = 1, N do last = bits(vec(i, i), i % 3) end
print("bits", last)

-- 3. one site, operands of every kind: integers (some beyond 48 bits),
-- floats, strings coerced by the string library, vectors
local function add(a, b) return a + b end
local function sub(a, b) return a - b end
local function mul(a, b) return a * b end
local sums = {0, 0, 0, 0}
for i = 1, N do
  local k = i % 4
  if k == 0 then sums[1] = sums[1] + add(i, 2^50 // 1) - sub(2^49 // 1, i) end
  if k == 1 then sums[2] = sums[2] + add(i * 0.5, 0.25) + mul(i, 1.5) end
  if k == 2 then sums[3] = sums[3] + add(tostring(i), "1") + mul("2", i) end
  if k == 3 then sums[4] = sums[4] + add(vec(i, 1), vec(1, i)).x + mul(vec(1, 1), vec(i, 2)) end
end
print("kinds", sums[1], sums[2], sums[3], sums[4])
print("big", add(math.maxinteger, 0), sub(math.mininteger, 0), add(2^53, 1),
      mul(1 << 40, 1 << 20), math.type(add("3", "4")), add("0x10", 1), mul("1e2", "2"))

-- 4. errors from compiled code name what the interpreter names
local function bad(a, b, t)
  local x = a + b
  local y = t.f * 2
  return x, y
end
for i = 1, N do bad(vec(i, 1), vec(1, 1), {f = i}) end
print(pcall(bad, nil, 1, {f = 1}))
print(pcall(bad, 1, {}, {f = 1}))
print(pcall(bad, vec(1, 1), vec(1, 1), {}))
print(pcall(bad, "x", 1, {f = 1}))
local function bbad(a, b) return a & b end
for i = 1, N do bbad(vec(1, 1), i) end
print(pcall(bbad, 1.5, 1))
print(pcall(bbad, "a", 1))
print(pcall(bbad, 2^63, 1))
local function ibad(a, b) return a // b, a % b end
for i = 1, N do ibad(vec(i, 1), 3) end
print(pcall(ibad, 1, 0))
print(pcall(ibad, 7, 2))

-- 5. a metamethod that yields (from a coroutine running compiled code)
local Y = {}
Y.__add = function(a, b)
  local got = coroutine.yield(a.v)
  return setmetatable({v = a.v + (type(b) == "table" and b.v or b) + got}, Y)
end
local function ysum(n)
  local s = setmetatable({v = 0}, Y)
  for i = 1, n do s = s + i end
  return s.v
end
local co = coroutine.wrap(function(n) return "done", ysum(n) end)
local r, steps = co(N), 0
while r ~= "done" do steps = steps + 1; r, last = co(1) end
print("yield", steps, last)

-- 6. a metamethod that changes a local of its caller (debug.setlocal)
local D = {}
D.__add = function(a, b)
  debug.setlocal(2, 4, "changed")   -- the caller's 'tag'
  if b == 50 then debug.setlocal(2, 3, 1000) end   -- and its 's', once
  return a.v + b
end
local function dset(t, n)
  local s = 0
  local tag = "same"
  for i = 1, n do s = s + (t + i) end
  return s, tag
end
for _ = 1, 40 do dset(setmetatable({v = 1}, D), 10) end
print("setlocal", dset(setmetatable({v = 1}, D), 100))

-- 7. many short-lived results: collections move them while compiled
-- frames hold them
local function chain(n)
  local p = vec(0, 0)
  local keep = {}
  for i = 1, n do
    p = p + vec(1, i % 3) * 0.5
    if i % 1000 == 0 then keep[#keep + 1] = p end
  end
  local s = 0
  for _, v in ipairs(keep) do s = s + v.x + v.y end
  return tostring(p), s
end
print("chain", chain(N * 5))

-- 8. __concat and comparisons beside arithmetic at the same site
V.__eq = function(a, b) return a.x == b.x and a.y == b.y end
V.__lt = function(a, b) return a.x < b.x end
V.__le = function(a, b) return a.x <= b.x end
local function cmp(a, b)
  local c = a + b
  return (c == a + b) and 1 or 0, (a < c) and 1 or 0, (c <= a) and 1 or 0
end
local e, l, le = 0, 0, 0
for i = 1, N do
  local x, y, z = cmp(vec(i, 1), vec(1, 1))
  e, l, le = e + x, l + y, le + z
end
print("cmp", e, l, le)
