-- assignment.lua: multiple assignment, evaluation order, swaps
print("assignment: start")

-- swaps
local a, b, c = 1, 2, 3
a, b = b, a
assert(a == 2 and b == 1)
a, b, c = c, a, b
print("swap", a, b, c)

-- extra values are evaluated and dropped, missing ones are nil
local calls = {}
local function f(x) calls[#calls + 1] = x; return x end
local x, y = f(1), f(2), f(3)
print("extra evaluated", x, y, table.concat(calls, ","))
local p, q, r = 1
print("missing nil", p, q, r)

-- all expressions are evaluated before any assignment
local t = {}
local i = 1
i, t[i] = i + 1, 20
print("i, t[i]", i, t[1], t[2])
-- the table and key in t[i] are evaluated before the assignment
i = 3
t[i], i = "three", 4
print("t[i], i", t[3], t[4], i)

-- swap table elements
t = {1, 2, 3}
t[1], t[3] = t[3], t[1]
print("table swap", t[1], t[2], t[3])

-- assignment to globals and fields in one statement
local g = {}
g.a, g.b, g.c = 1, 2
print("fields", g.a, g.b, g.c)
_ENV.gx, _ENV.gy = "gx", "gy"
print("globals", gx, gy)
gx, gy = nil, nil

-- chained tables
local s = {inner = {}}
s.inner.v, s.w = 5, 6
print("chain", s.inner.v, s.w)

-- assignment through __newindex sees final values in order
local log = {}
local proxy = setmetatable({}, {__newindex = function(t, k, v)
  log[#log + 1] = tostring(k) .. "=" .. tostring(v)
  rawset(t, k, v)
end})
proxy.a, proxy.b, proxy.c = 1, 2, 3
table.sort(log)
print("newindex log", table.concat(log, " "))

-- a function call result can be indexed and assigned
local function get() return t end
get()[2] = "two"
print("call index", t[2])

-- nested function expressions in assignment
local fn1, fn2 = function() return 1 end, function() return 2 end
print("functions", fn1(), fn2())

-- local declarations shadow, the new local is not visible in its own initializer
local v = 10
local v = v + 1
print("shadow", v)
do
  local v = v * 2
  print("inner shadow", v)
end
print("outer", v)
local w = 1
local w, w2 = w + 1, w + 2
print("multi shadow", w, w2)

-- the same local name twice in one declaration: the last one wins
local z, z = 1, 2
print("dup local", z)

-- assignments to multiple levels of upvalues
local up = 0
local function setter() up, v = up + 1, v + 1 end
setter(); setter()
print("upvalue assign", up, v)

-- assigning nil removes table entries
t = {a = 1, b = 2}
t.a = nil
local n = 0
for _ in pairs(t) do n = n + 1 end
print("nil removes", n, t.a)

-- compound constructs: string keys via brackets, numeric keys
t = {}
t["x y"], t[1.0], t[2^53] = "spaced", "one", "big"
print("keys", t["x y"], t[1], t[1 << 53])

-- evaluation order of right-hand side is left to right
local order = {}
local function o(n) order[#order + 1] = n; return n end
local _a, _b, _c = o(1), o(2), o(3)
print("rhs order", table.concat(order, ","))

-- multiple assignment from a vararg expression
local function va(...)
  local m1, m2, m3 = ...
  return m1, m2, m3
end
print("vararg assign", va(1, 2))

-- assignment of many values
local a1, a2, a3, a4, a5, a6, a7, a8, a9, a10 = 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
print("ten", a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10)

-- assigning to a local captured by a closure is visible to the closure
local cap = 1
local function readcap() return cap end
cap = 99
print("captured", readcap())

-- indexing errors name the variable
print(pcall(function() local nothing; nothing.x = 1 end))
print(pcall(function() local tt = {}; tt.a.b = 1 end))
print(pcall(function() undefinedglobal.x = 1 end))

print("assignment: OK")
