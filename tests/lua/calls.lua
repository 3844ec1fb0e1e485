-- calls.lua: call syntax, methods, argument adjustment, function definitions
print("calls: start")

-- call sugar: f"str", f[[str]], f{table}
local function id(x) return x end
print("string arg", id"abc", id[[long]], id{1, 2}[2])
local function cat(a) return function(b) return a .. b end end
print("chained sugar", cat"a""b", cat("x")[[y]])
print("method on string literal", ("abc"):upper(), ("%d-%d"):format(1, 2))

-- method definitions and self
local obj = {v = 1}
function obj.plain(x) return x end
function obj:method(x) return self.v + x end
print("method", obj:method(10), obj.method(obj, 20), obj.plain(5))
local nested = {a = {b = {}}}
function nested.a.b.f() return "nested def" end
function nested.a.b:g() return self == nested.a.b end
print("nested def", nested.a.b.f(), nested.a.b:g())

-- missing arguments are nil, extra arguments are dropped
local function three(a, b, c) return a, b, c end
print("missing", three(1))
print("extra", three(1, 2, 3, 4, 5))
-- parameters are locals
local function modify(a) a = a + 1; return a end
local x = 1
print("by value", modify(x), x)
local function modtable(t) t.changed = true end
local tt = {}
modtable(tt)
print("tables by reference", tt.changed)

-- global function definition
function globalfn() return "global" end
print("global function", globalfn(), type(_G.globalfn))
globalfn = nil

-- functions are first class values
local ops = {add = function(a, b) return a + b end, mul = function(a, b) return a * b end}
local names = {}
for k in pairs(ops) do names[#names + 1] = k end
table.sort(names)
for _, k in ipairs(names) do print("op", k, ops[k](6, 7)) end

-- higher order functions
local function map(f, t) local r = {} for i, v in ipairs(t) do r[i] = f(v) end return r end
local function compose(f, g) return function(...) return f(g(...)) end end
print("map", table.concat(map(function(v) return v * v end, {1, 2, 3}), ","))
print("compose", compose(tostring, function(a, b) return a + b end)(2, 3))

-- calling through various expressions
local t = {f = function() return function() return "inner" end end}
print("call call", t.f()())
print("index call", ({function() return "anon" end})[1]())
print("paren call", (function(...) return select("#", ...) end)(1, 2, 3))

-- a call statement discards results; an expression statement must be a call
local count = 0
local function inc() count = count + 1; return count end
inc(); inc()
print("discarded", count)

-- recursive anonymous function via a local
local function Y(f) return function(...) return f(Y(f), ...) end end
local fact = Y(function(self, n) if n <= 1 then return 1 end return n * self(n - 1) end)
print("Y fact", fact(10))

-- multiple returns through pcall and select
print("pcall returns", pcall(three, "a", "b", "c"))
print("select count", select("#", three()))

-- argument evaluation order is left to right
local order = {}
local function arg(n) order[#order + 1] = n; return n end
local function sink(...) end
sink(arg(1), arg(2), arg(3))
print("arg order", table.concat(order, ","))

-- method call evaluates the object once
local evals = 0
local function getobj() evals = evals + 1; return obj end
getobj():method(1)
print("object evaluated once", evals)

-- calling non-functions
print(pcall(function() local n = nil; n() end))
print(pcall(function() local t2 = {}; t2.x.y() end))
print(pcall(function() obj:nomethod() end))
print(pcall(function() local s = 1; s:m() end))

-- functions with many parameters
local function many(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20)
  return a1 + a20, a10
end
print("many params", many(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20))

-- a function value's type and equality
local f1 = function() end
local f2 = f1
print("function identity", f1 == f2, type(f1))

print("calls: OK")
