-- tailcalls.lua: proper tail calls run in constant stack space
print("tailcalls: start")

-- deep tail recursion
local function count(n, acc)
  if n == 0 then return acc end
  return count(n - 1, acc + 1)
end
print("tail 1e6", count(1000000, 0))

-- mutual tail recursion
local even, odd
function even(n) if n == 0 then return true end return odd(n - 1) end
function odd(n) if n == 0 then return false end return even(n - 1) end
print("mutual 1e6", even(1000000), odd(1000001))

-- tail calls through varargs
local function va(n, ...)
  if n == 0 then return select("#", ...), ... end
  return va(n - 1, ...)
end
print("vararg tail", va(300000, "a", "b", nil))

-- tail calls through methods
local obj = {n = 0}
function obj:loop(k)
  if k == 0 then return self.n end
  self.n = self.n + 1
  return self:loop(k - 1)
end
print("method tail", obj:loop(500000))

-- tail call through a __call metamethod
local callable = setmetatable({}, {__call = function(self, n)
  if n == 0 then return "callable done" end
  return self(n - 1)
end})
print("__call tail", callable(200000))

-- tail call to a C function
local function tostr(x) return tostring(x) end
print("C tail", tostr(12))
local function sel(...) return select("#", ...) end
print("C tail varargs", sel(1, 2, 3))

-- tail call returning multiple values
local function multi() return 1, 2, 3 end
local function tailmulti() return multi() end
print("multi", tailmulti())

-- a tail call is not made when results are adjusted or parenthesized
local function notail1(n) if n == 0 then return 0 end return (notail1(n - 1)) end
print("paren not tail", notail1(100))
local function one() return 1 end
local function adj() return one(), 2 end
print("adjusted", adj())

-- tail-called functions do not appear in tracebacks as their callers
local function inner() return debug.traceback("tb", 1) end
local function outer() return inner() end
local tb = outer()
print("traceback mentions tail call", tb:find("(...tail calls...)", 1, true) ~= nil)

-- debug.getinfo sees istailcall
local function probe() return debug.getinfo(1, "t").istailcall end
local function callprobe() return probe() end
local function callprobe2() local r = probe(); return r end
print("istailcall", callprobe(), callprobe2())

-- tail call in a coroutine
local co = coroutine.wrap(function()
  local function loop(n) if n == 0 then return "co done" end coroutine.yield(n) return loop(n - 1) end
  return loop(3)
end)
print("coroutine tail", co(), co(), co(), co())

-- tail call with many arguments
local function many(a1, a2, a3, a4, a5, a6, a7, a8, n)
  if n == 0 then return a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 end
  return many(a2, a3, a4, a5, a6, a7, a8, a1, n - 1)
end
print("many args", many(1, 2, 3, 4, 5, 6, 7, 8, 100001))

-- a long chain of different functions in tail position
local fs = {}
for i = 1, 100 do
  fs[i] = function(n)
    if n == 0 then return i end
    return fs[(i % 100) + 1](n - 1)
  end
end
print("chain", fs[1](123456))

-- tail call from a function with to-be-closed variables is not a tail call
local closed = false
local function withtbc(n)
  local c <close> = setmetatable({}, {__close = function() closed = true end})
  return count(n, 0)
end
print("tbc tail", withtbc(1000), closed)

print("tailcalls: OK")
