-- Inlined leaf calls (jit/llvmgen.c inlineleaf): small pure functions
-- called through an upvalue or a global are evaluated inline by compiled
-- callers; every case their fast paths do not handle must make the real
-- call and give the interpreter's result.

local function add(a, b) return a + b end
local function sub(a, b) return a - b end
local function mul(a, b) return a * b end
local function mixed(i, j) local ij = i + j - 1; return 1.0 / (ij * (ij - 1) * 0.5 + i) end
local function arith(a, b) return a % b, a // b, a / b, a ^ 2, -a end

local function loop(f, n, x, y)
  local s = 0
  for _ = 1, n do s = s + f(x, y) end
  return s
end

local function callp(f, ...) local ok, r = pcall(f, ...); return ok and r or "error" end

-- integers, floats, mixed
local function sums()
  local t = {}
  for i = 1, 30 do
    t[#t + 1] = add(i, 2)
    t[#t + 1] = add(i + 0.5, 2)
    t[#t + 1] = sub(i, 0.25)
    t[#t + 1] = mul(i, 3)
    t[#t + 1] = mixed(i, 7)
  end
  return table.concat(t, " ")
end
print(sums())
print(loop(mixed, 100, 3, 4), loop(add, 100, 1, 2), loop(add, 50, 1.5, 2))

-- the immediates' boundary (2^47) and math.maxinteger: the call boxes or wraps
local function bounds()
  local r = {}
  for _ = 1, 3 do
    r[#r + 1] = add((1 << 47) - 1, 1)
    r[#r + 1] = sub(-(1 << 47), 1)
    r[#r + 1] = add(math.maxinteger, 1)
    r[#r + 1] = mul(1 << 40, 1 << 10)
    r[#r + 1] = mul(math.maxinteger, 2)
    r[#r + 1] = mul(3, 5)
    local m, d, q, p, n = arith(-(1 << 47), -1)
    r[#r + 1] = string.format("%s %s %s %s %s", m, d, q, p, n)
    m, d, q, p, n = arith(7, -3)
    r[#r + 1] = string.format("%s %s %s %s %s", m, d, q, p, n)
    m, d, q, p, n = arith(7.5, 2)
    r[#r + 1] = string.format("%s %s %s %s %s", m, d, q, p, n)
    r[#r + 1] = callp(arith, 1, 0)
    m, d = arith(1.0, 0)
    r[#r + 1] = tostring(m) .. " " .. tostring(d)
  end
  return table.concat(r, " ")
end
print(bounds())

-- bitwise operators: integer immediates inline, the rest (floats with
-- integral values, strings, results beyond 48 bits) through the call
local function bitw(a, b) return a & b, a | b, a ~ b, a << b, a >> b, ~a end
local function bitk(a) return a & 0xff, a | 0x100, a ~ 5, a >> 3, 1 << a, a << 2 end
local function bitops()
  local r = {}
  for _ = 1, 3 do
    for _, p in ipairs({{12, 10}, {-1, 4}, {1 << 46, 1}, {1 << 47, 2}, {-5, -2}, {7, 70},
                        {3.0, 1}, {math.maxinteger, 1}}) do
      local a1, a2, a3, a4, a5, a6 = bitw(p[1], p[2])
      r[#r + 1] = table.concat({a1, a2, a3, a4, a5, a6}, ",")
      a1, a2, a3, a4, a5, a6 = bitk(p[2])
      r[#r + 1] = table.concat({a1, a2, a3, a4, a5, a6}, ",")
    end
    r[#r + 1] = callp(bitw, 1.5, 1) .. callp(bitk, "6") .. callp(bitw, "6", 3)
  end
  return table.concat(r, " ")
end
print(bitops())

-- strings: coercion needs the real call; errors come from the callee
local function strings()
  local r = {}
  for _ = 1, 3 do
    r[#r + 1] = add("10", 5)
    r[#r + 1] = add(1, "0x10")
    r[#r + 1] = callp(add, "abc", 1)
    r[#r + 1] = callp(add, {}, 1)
    r[#r + 1] = callp(add, nil, 1)
  end
  return table.concat(r, " ")
end
print(strings())
print(select(2, pcall(function() for _ = 1, 3 do add("x", 1) end end)))

-- table reads: fields, array items, metatables
local function getx(t) return t.x end
local function geti(t) return t[2] end
local function getk(t, k) return t[k] end
local function reads()
  local plain = {x = 1, 10, 20}
  local inherit = setmetatable({}, {__index = {x = "inherited", [2] = "two"}})
  local fn = setmetatable({}, {__index = function(_, k) return "fn:" .. tostring(k) end})
  local empty = {}
  local r = {}
  for _ = 1, 3 do
    r[#r + 1] = tostring(getx(plain)) .. tostring(geti(plain)) .. tostring(getk(plain, 1))
    r[#r + 1] = tostring(getx(inherit)) .. tostring(geti(inherit)) .. tostring(getk(inherit, 2))
    r[#r + 1] = getx(fn) .. geti(fn) .. getk(fn, "y") .. getk(fn, 7)
    r[#r + 1] = tostring(getx(empty)) .. tostring(geti(empty)) .. tostring(getk(empty, 1.5))
    r[#r + 1] = callp(getx, 5)
    r[#r + 1] = getk("abc", "len") == string.len and "strmeth" or "?"
    r[#r + 1] = tostring(getk(plain, 1.0))
  end
  return table.concat(r, " ")
end
print(reads())

-- the callee replaced at run time (the guard compares the Proto)
local f = add
local function callf(x) return (f(x, 1)) end
local function replaced()
  local r = {}
  for i = 1, 6 do
    if i == 3 then f = sub end
    if i == 5 then f = function(a, b) return a * 100 + b end end
    r[#r + 1] = callf(i)
  end
  f = math.max
  r[#r + 1] = callf(7)
  f = add
  return table.concat(r, " ")
end
print(replaced())

-- globals
function gadd(a, b) return a + b end
local function useglobal(n)
  local s = 0
  for i = 1, n do s = s + gadd(i, 1) end
  return s
end
print(useglobal(10))
gadd = function(a, b) return a - b end
print(useglobal(10))

-- hooks must see the call
local function hooked()
  local calls, counts = 0, 0
  debug.sethook(function(ev)
    if ev == "call" and debug.getinfo(2, "f").func == add then calls = calls + 1 end
    if ev == "count" then counts = counts + 1 end
  end, "c", 1000)
  local s = loop(add, 2000, 1, 2)
  debug.sethook()
  return s, calls, counts > 0
end
print(hooked())

-- fewer and more arguments than parameters, results as wanted
local function opt(a, b) if b == nil then return a end; return a + b end
local function three(a) return a, a + 1, a + 2 end
local function none(a) return end
local function eq(a, b) return a == b end
local function notf(a) return not a end
local eqmt = {__eq = function() return true end}
local mt1, mt2 = setmetatable({}, eqmt), setmetatable({}, eqmt)
local function cmp(a, b) return a < b, a <= b, a == b, a ~= b end
local function args()
  local r = {}
  for _ = 1, 3 do
    r[#r + 1] = opt(1)
    r[#r + 1] = opt(1, 2, 3)
    local x, y = three(1)
    r[#r + 1] = x + y
    local p, q, s, t = three(10)
    r[#r + 1] = tostring(p) .. tostring(q) .. tostring(s) .. tostring(t)
    three(5)
    local u, v = none(1)
    r[#r + 1] = tostring(u) .. tostring(v)
    r[#r + 1] = table.concat({tostring((cmp(1, 2))), tostring(select(2, cmp(2.5, 2))),
                              tostring(select(3, cmp("a", "a"))), tostring(eq({}, {})), tostring(eq(mt1, mt2)), tostring(eq(mt1, 1)),
                              tostring(eq(2^53, 1 << 53)), tostring(eq(1 << 53, 1 << 53)), tostring(eq(0/0, 0/0)),
                              tostring(notf(false)), tostring(notf(0)), tostring(notf(nil))}, ",")
    r[#r + 1] = callp(cmp, 1, "x")
  end
  return table.concat(r, " ")
end
print(args())

-- an inlined callee reading an upvalue that changes
local k = 1
local function addk(x) return x + k end
local function tests(x) if x > 10 and x ~= 15 or x == 3 then return "big" end return "small" end
local function nested()
  local r = {}
  for i = 1, 20 do
    k = i
    r[#r + 1] = addk(i) .. tests(i)
  end
  return table.concat(r, " ")
end
print(nested())

-- keep-alive: the inlined callee's closures die, then other functions
-- are called at the site (a new Proto must not take the dead one's
-- place: the compiled guard compares Proto addresses)
local h
local function callh(x) return (h(x)) end
local function keepalive()
  local bad, n = 0, 0
  h = load("return function(x) return x + 1 end")()
  for i = 1, 50 do n = n + callh(i) end
  h = nil
  collectgarbage(); collectgarbage()
  local fs = {}   -- many new Protos: one may get the dead one's memory
  for k = 1, 200 do fs[k] = load("return function(x) return x * " .. k .. " end")() end
  for k = 1, #fs do
    h = fs[k]
    if callh(3) ~= 3 * k then bad = bad + 1 end
  end
  h = nil
  return n, bad
end
print(keepalive())
