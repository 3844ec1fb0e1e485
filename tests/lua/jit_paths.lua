-- jit_paths.lua: the paths of the JIT's second tier (run compiled under
-- -j eager): direct calls, proper tail calls, float arithmetic and NaN
-- signs, bitwise operators, table fast paths and their metamethod
-- fallbacks, globals, generic for, variable results, to-be-closed values.

-- direct calls and deep recursion (more levels than C frames allowed)
local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
print("fib", fib(20))
local function depth(n) if n == 0 then return 0 end return 1 + depth(n - 1) end
print("depth", depth(5000))

-- proper tail calls (would overflow any stack otherwise)
local function count(n, acc) if n == 0 then return acc end return count(n - 1, acc + 1) end
print("tail", count(300000, 0))
local co = coroutine.wrap(function(n) coroutine.yield(count(n, 0)); return "end" end)
print("tail in coroutine", co(20000), co())

-- yields across compiled frames (coroutines use the non-nesting path)
local gen = coroutine.wrap(function()
  local function walk(t) for i = 1, #t do if type(t[i]) == "table" then walk(t[i]) else coroutine.yield(t[i]) end end end
  walk({1, {2, {3, 4}}, 5})
end)
local got = {}
for _ = 1, 5 do got[#got + 1] = gen() end
print("yields", table.concat(got, " "))

-- float arithmetic, mixed operands, NaN signs, division and modulo
local function arith(a, b)
  return a + b, a - b, a * b, a / b, a % b, a // b, a ^ 2, -a
end
print("arith", arith(7.5, 2))
print("arith", arith(-7, 2.5))
print("arith", arith(7, -3))
local inf = 1 / 0
print("nan", inf - inf, 0 / 0, -(0 / 0), inf * 0, math.huge % 2)
print("int overflow", math.maxinteger + 1 == math.mininteger, (1 << 62) * 4, 2^53 + 1)

-- bitwise operators
local function bits(a, b) return a & b, a | b, a ~ b, a << b, a >> b, ~a, a >> 70, a << -1 end
print("bits", bits(0xF0F0, 4))
print("bits", bits(-1, 60))

-- comparisons on mixed numbers and other values
local function cmp(a, b) return a < b, a <= b, a == b, a ~= b, a == 1 end
print("cmp", cmp(1, 1.5))
print("cmp", cmp(1.0, 1))
print("cmp", cmp("a", "b"))

-- tables: array part, hash part, metamethods
local t = {10, 20, 30, x = 1, y = 2}
local function tab(t, k)
  t[2] = t[2] + 1; t.x = t.x + 1; t[k] = (t[k] or 0) + 1
  return t[1], t[2], t.x, t[k], #t
end
print("tab", tab(t, "z"))
print("tab", tab(t, 4))
local mt = setmetatable({}, {__index = function(_, k) return k .. "!" end,
                             __newindex = function(r, k, v) rawset(r, k, v * 2) end})
local function meta(m) m.a = 5; m[1] = 7; return m.a, m[1], m.missing, m[2] end
print("meta", meta(mt))
local Class = {}; Class.__index = Class
function Class.new(v) return setmetatable({v = v}, Class) end
function Class:get() return self.v end
function Class:add(o) return Class.new(self.v + o:get()) end
print("method", Class.new(2):add(Class.new(3)):get())

-- globals
G_COUNTER = 0
local function bump() G_COUNTER = G_COUNTER + 1; return G_COUNTER end
for _ = 1, 10 do bump() end
print("global", G_COUNTER, rawget(_G, "G_MISSING"))

-- generic for, variable results, closures, to-be-closed values
local function multi() return 1, 2, 3 end
local function collect(...) return select("#", ...), ... end
local function forms()
  local keys = {}
  for k, v in pairs({a = 1}) do keys[#keys + 1] = k .. v end
  for i, v in ipairs({4, 5}) do keys[#keys + 1] = i .. v end
  local packed = {multi()}
  local fs = {}
  for i = 1, 3 do fs[i] = function() return i end end
  do local c <close> = setmetatable({}, {__close = function() keys[#keys + 1] = "closed" end}) end
  return table.concat(keys, ","), #packed, fs[1]() + fs[3](), collect(multi())
end
print("forms", forms())

-- calls with variable results feeding calls, returns and constructors
local function three(a) return a, a + 1, a + 2 end
local function sum(...) local s = 0; for _, v in ipairs({...}) do s = s + v end; return s end
local function varres(x)
  local t = {three(x)}
  local n = sum(three(x))
  print("varres", #t, n, three(x))
  return three(n)
end
print("varres", varres(1))
print("varres in coroutine", coroutine.wrap(function() return varres(10) end)())

-- errors from compiled code keep their messages and lines
print("error", pcall(function(x) return x + nil end, 1))
print("error", pcall(function(x) return x.y.z end, {}))
print("error", pcall(function(x) return 1 // x end, 0))
print("concat", pcall(function(a, b) return a .. b end, "x", {}))
print("concat", (function(a, b, c) return a .. b .. c end)("a", 1, 2.5))
