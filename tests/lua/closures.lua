-- closures.lua: upvalues, sharing, fresh loop variables, recursion
print("closures: start")

-- counter
local function counter()
  local n = 0
  return function() n = n + 1; return n end
end
local c1, c2 = counter(), counter()
assert(c1() == 1 and c1() == 2 and c2() == 1 and c1() == 3)
print("counters", c1(), c2())

-- shared upvalues between closures of the same scope
local function pair()
  local v = 0
  local function get() return v end
  local function set(x) v = x end
  return get, set
end
local get, set = pair()
set(42)
assert(get() == 42)
local get2, set2 = pair()
set2(7)
print("shared", get(), get2())

-- upvalue shared with the enclosing function's local while it is alive
do
  local x = 1
  local function inc() x = x + 1 end
  inc(); inc()
  assert(x == 3)
  x = 10
  inc()
  print("open upvalue", x)
end

-- fresh loop variable per iteration (numeric for)
local fs = {}
for i = 1, 5 do fs[i] = function() return i end end
local out = {}
for i = 1, 5 do out[i] = fs[i]() end
print("numeric for fresh", table.concat(out, ","))

-- fresh loop variables (generic for)
fs = {}
for k, v in ipairs({"a", "b", "c"}) do fs[#fs + 1] = function() return k .. v end end
out = {}
for i = 1, #fs do out[i] = fs[i]() end
print("generic for fresh", table.concat(out, ","))

-- while loop locals are fresh per iteration
fs = {}
local j = 0
while j < 3 do
  j = j + 1
  local captured = j * 10
  fs[j] = function() return captured end
end
print("while fresh", fs[1](), fs[2](), fs[3]())

-- repeat loop: local visible in 'until', fresh per iteration
fs = {}
local r = 0
repeat
  r = r + 1
  local z = r
  fs[r] = function() z = z + 100; return z end
until z >= 3
print("repeat fresh", fs[1](), fs[1](), fs[2](), fs[3]())

-- closure modifying a loop variable copy does not affect the loop
out = {}
for i = 1, 3 do
  local f = function() i = i * 10; return i end
  out[#out + 1] = f()
  out[#out + 1] = i
end
print("loop var copy", table.concat(out, ","))

-- nested closures, three levels
local function level1(a)
  return function(b)
    return function(c)
      a = a + 1
      return a + b + c
    end
  end
end
local l2 = level1(100)
local l3 = l2(10)
print("nested", l3(1), l3(1), l2(20)(2))

-- upvalues captured from several levels up share the same variable
local function outer()
  local shared = 0
  local function mid()
    local function inner() shared = shared + 1; return shared end
    return inner
  end
  return mid(), mid(), function() return shared end
end
local i1, i2, peek = outer()
i1(); i2(); i1()
print("multi-level share", peek())

-- recursion through upvalues
local function fact(n) if n <= 1 then return 1 end return n * fact(n - 1) end
print("fact", fact(10), fact(20))
local fib
fib = function(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
print("fib", fib(20))
-- mutual recursion
local iseven, isodd
function iseven(n) if n == 0 then return true end return isodd(n - 1) end
function isodd(n) if n == 0 then return false end return iseven(n - 1) end
print("mutual", iseven(10), isodd(7), iseven(7))

-- 'local function' can see itself, 'local f = function' cannot
local function selfref() return selfref end
assert(selfref() == selfref)
local notself = function() return notself end
print("local function self", selfref() == selfref, notself())

-- closures in tables (objects)
local function Account(balance)
  local self = {}
  function self.deposit(v) balance = balance + v end
  function self.balance() return balance end
  return self
end
local acc = Account(100)
acc.deposit(50)
print("account", acc.balance())

-- many closures capturing the same variable after it went out of scope
local makers = {}
do
  local shared = "s"
  for i = 1, 3 do
    makers[i] = function(x) if x then shared = x end return shared end
  end
end
makers[1]("changed")
print("closed shared", makers[2](), makers[3]())

-- closures capturing parameters and varargs
local function capvar(...)
  local args = {...}
  return function() return #args, args[1] end
end
print("capture varargs", capvar(7, 8, 9)())

-- upvalue in a goto loop: each pass creates a new local
do
  local fl = {}
  local k = 1
  ::top::
  local x = k
  fl[k] = function() return x end
  k = k + 1
  if k <= 3 then goto top end
  print("goto fresh", fl[1](), fl[2](), fl[3]())
end

-- closure identity: different closures are different values
local function mk() return function() end end
print("identity", mk() == mk())

-- deep chain of closures
local f = function() return 0 end
for i = 1, 100 do
  local prev = f
  f = function() return prev() + 1 end
end
print("chain", f())

-- upvalues of a function survive the function that created them returning
local function gen()
  local t = {}
  local function add(v) t[#t + 1] = v; return #t end
  return add, function() return table.concat(t, "") end
end
local add, str = gen()
add("a"); add("b"); add("c")
print("survive", str())

print("closures: OK")
