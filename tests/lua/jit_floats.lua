-- Floats in compiled code (jit/llvmgen.c "Unboxed floats"): registers
-- known to be floats live as doubles and are boxed (NaNs canonicalised)
-- only where they leave SSA: flushes for calls and exits, stores, returns.
-- Under -j eager every function here is compiled at its first call.
local fmt = string.format
local function show(...)
  local t = table.pack(...)
  for i = 1, t.n do
    local v = t[i]
    if math.type(v) == "float" then t[i] = fmt("%s(%s)", tostring(v), fmt("%a", v))
    else t[i] = tostring(v) .. "/" .. tostring(math.type(v)) end
  end
  print(table.concat(t, " "))
end

-- NaN made at run time, carried through a chain of unboxed operations,
-- compared (IEEE: unequal to itself), then boxed on return
local function nanchain(x, y)
  local n = x / y            -- 0/0: the hardware's default NaN
  local a = n * 2.0 + 1.0
  local b = -a
  local c = b - 1.0          -- propagates b (the sign of a NaN is not rewritten)
  return n ~= n, a == a, c < 1.0, c >= 1.0, a, b, c
end
for _ = 1, 3 do show(nanchain(0.0, 0.0)) end
show(nanchain(1.0, 0.0))

-- NaN from constants LLVM can fold: the sign must be the hardware's
local function nanconst()
  local inf = 1 / 0
  local n = inf - inf
  local m = n * 3.0
  return n, m, -m, math.type(m)
end
show(nanconst())

-- NaN stored into tables, upvalues and passed to calls stays a NaN key-less
local saved
local function nanstore(x)
  local n = x - x
  local t = { n, n + 1.0 }
  saved = n * 2.0
  return t[1] ~= t[1], t[2] ~= t[2], saved ~= saved, tostring(n) == tostring(saved),
         pcall(function() local u = {}; u[n] = 1 end)
end
show(nanstore(math.huge))

-- negative zero through unboxed chains, comparisons and conversions
local function negzero(z)
  local a = z * -1.0         -- -0.0 from 0.0
  local b = a + 0.0          -- +0.0 (IEEE: -0 + +0 = +0)
  local c = a * 1.0          -- still -0.0
  local d = -c               -- +0.0
  return a, b, c, d, 1 / a, 1 / c, a == 0, a == b, math.type(a)
end
for _ = 1, 2 do show(negzero(0.0)) end

-- integers stay integers, floats stay floats; float keys are normalised
local function kinds(i, f)
  local a = i + 1
  local b = f + 1
  local c = i * 1.0
  local d = a // 1.0
  local t = {}
  t[c] = "c"; t[b] = "b"; t[2^53] = "big"
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys)
  return a, b, c, d, 3 / 1, math.type(keys[1]), keys[1], keys[2], t[3], t[2], #keys
end
show(kinds(2, 2.0))
show(kinds(2, 2.5))

-- float loop counters and float accumulators carried around loops
local function fsum(n)
  local s, x = 0.0, 0.5
  for i = 1, n do
    x = x * 1.25 + 0.125
    if x > 100.0 then x = x - 100.0 end
    s = s + x / (x + 1.0)
  end
  return s, x
end
show(fsum(10))
show(fsum(1000))
local function floop(a, b, st)
  local s, k = 0.0, 0
  for v = a, b, st do s = s + v * v; k = k + 1 end
  return s, k
end
show(floop(1.0, 3.0, 0.5))
show(floop(0.1, 1.0, 0.1))
show(floop(3, 1.5, -0.5))
show(floop(1, 3, 1))
show(floop(1.0, 0.0, 1))
show(pcall(floop, 1.0, 2.0, 0.0))

-- exits in the middle of a chain with float registers live: the
-- interpreter must see exact values at the failing instruction
local mt = { __add = function(a, b) return "meta" end,
             __mul = function(a, b) return 10 end }
local function chain(x, y)
  local a = x * 1.5
  local b = a + 0.25
  local c = b + y            -- y a string or a table: leaves here
  local d = a * b
  return a, b, c, d
end
for _, y in ipairs({ 1.0, 2, "3", 4.5, setmetatable({}, mt), "0x10", 0.0 / 0.0 }) do
  show(pcall(chain, 2.0, y))
end

-- floats captured by closures and passed to calls
local function capture(n)
  local acc = 0.0
  local function add(v) acc = acc + v; return acc end
  local last
  for i = 1, n do
    local f = i * 0.5
    last = add(f * 2.0)
  end
  return acc, last, (function() return acc * 2.0 end)()
end
show(capture(5))
local function pass(a)
  local x = a * 3.0
  local y = x / 7.0
  return math.floor(y), math.max(x, y), select("#", x, y), fmt("%.17g", y), tostring(x)
end
for _ = 1, 2 do show(pass(1.1)) end

-- a float parameter and values loaded from tables (speculated floats)
local function dot(p, q)
  local s = 0.0
  for i = 1, #p do s = s + p[i] * q[i] end
  return s
end
local p, q = {}, {}
for i = 1, 10 do p[i] = i * 0.5; q[i] = 1.0 / i end
for _ = 1, 3 do show(dot(p, q)) end
q[5] = 2        -- an integer where floats were seen
show(dot(p, q))
q[6] = "x"      -- not a number: the arithmetic raises
show(pcall(dot, p, q))
local body = { x = 1.5, vx = 0.25 }
local function advance(b, dt)
  for _ = 1, 4 do b.x = b.x + dt * b.vx end
  return b.x
end
show(advance(body, 0.5))
body.vx = 1
show(advance(body, 0.5))
body.vx = -0.0
show(advance(body, 0.0), 1 / (body.vx * 1.0))

-- registers that hold tables or strings at some point and floats at
-- others (they stay in the VM stack, with a double copy where they are
-- floats), and a float local changed by debug.setlocal during a call
local function reuse(n)
  local s = #{ 1, 2, 3 } + 0.5
  local name = "k" .. n
  for i = 1, n do
    local x = i * 0.5
    local y = x * x + s
    s = y - x
  end
  local u = { name, s }
  return s, u[1], #u
end
for _ = 1, 2 do show(reuse(7)) end
local function setter(v) debug.setlocal(2, 2, v) end
local function victim(v)
  local f = 1.5 * 2.0
  setter(v)
  local g = f * 2.0
  return f, g
end
show(victim(42.5))
show(victim(-0.0))

-- x ^ 2 is x * x (inline for a constant 2), other exponents call pow
local function pows(x, n)
  local s = 0.0
  for i = 1, n do s = s + (x * i) ^ 2 + i ^ 2 + x ^ 2.0 + x ^ 0.5 end
  return s, (x - x) / (x - x) ^ 2, (-0.0 * x) ^ 2, (x * math.huge) ^ 2, (-3) ^ 2, 2 ^ 2
end
show(pows(1.5, 10))
show(pows(-0.25, 100))

-- float writes to stack registers that skip the slot (lazy slots): exits,
-- calls and debug.getlocal must still see the values
local function probe(name)
  for k = 1, 50 do
    local nm, v = debug.getlocal(2, k)
    if nm == nil then return nil end
    if nm == name then return v end
  end
end
local function lazy(n, bad)
  do local a, b = {}, "x"; if a == b then return end end   -- x, y's registers
  local s = 0.0
  for i = 1, n do
    local x = i * 0.5
    local y = x * x - 0.25
    if i == bad then y = y + "1" end          -- a string: leaves mid-loop
    if i == bad + 1 then s = s + probe("y") + probe("x") end
    s = s + y
  end
  return s
end
show(lazy(6, 3))
show(lazy(6, 0))
show(pcall(lazy, 4, 2.5))

-- NaNs from the C helpers (fmod, floor division, pow) carried on unboxed
local function helpers(x, y)
  local m = x % y
  local d = x // y
  local p = x ^ 0.5
  return m * 2.0 + 1.0, d - 1.0, p * 3.0, -(m * p), (x * math.huge) % 2.0
end
for _ = 1, 2 do show(helpers(-8.0, 0.0)) end
show(helpers(7.5, 2.0))
show(helpers(-7.5, -2.0))
