-- conf2_oop: metatables, inheritance chains, metamethod results and errors
-- OOP
local Animal = {} Animal.__index = Animal
function Animal.new(name) return setmetatable({name=name}, Animal) end
function Animal:speak() return self.name .. " makes a sound" end
local Dog = setmetatable({}, {__index = Animal}) Dog.__index = Dog
function Dog.new(name) local d = Animal.new(name) return setmetatable(d, Dog) end
function Dog:speak() return self.name .. " barks; " .. Animal.speak(self) end
local Puppy = setmetatable({}, {__index = Dog}) Puppy.__index = Puppy
function Puppy.new(n) return setmetatable(Dog.new(n), Puppy) end
print(Puppy.new("rex"):speak(), getmetatable(Puppy.new("a")) == Puppy)
local V = {}
V.__index = V
V.__add = function(a,b) return setmetatable({x=a.x+b.x}, V) end
V.__eq = function(a,b) return a.x == b.x end
V.__lt = function(a,b) return a.x < b.x end
V.__le = function(a,b) return a.x <= b.x end
V.__tostring = function(a) return "V("..a.x..")" end
V.__len = function(a) return a.x end
V.__call = function(self, y) return self.x + y end
V.__concat = function(a, b) return tostring(a) .. "|" .. tostring(b) end
V.__unm = function(a) return setmetatable({x=-a.x}, V) end
V.__idiv = function(a,b) return "idiv" end
V.__band = function(a,b) return "band" end
V.__shl = function(a,b) return "shl" end
V.__bnot = function(a) return "bnot" end
V.__close = nil
local a, b = setmetatable({x=1}, V), setmetatable({x=2}, V)
print(tostring(a+b), a==b, a<b, a<=b, a>b, a>=b, #a, a(10), a..b, a.."s", 3 ..a, tostring(-a))
print(a//1, 1//a, a&1, 1<<a, ~a)
print(pcall(function() return a < 1 end))
print(pcall(function() return {} < {} end))
print(pcall(function() return {} .. "x" end))
print(pcall(function() return 1 < "x" end))
print(pcall(function() return "a" < 1 end))
print(pcall(function() local t = setmetatable({}, {__index = function(t,k) return k*2 end}) return t[21] end))
local t = setmetatable({}, {__newindex = function(t,k,v) rawset(t,k,v*10) end})
t.a = 1 print(t.a)
-- inheritance chain depth
local base = {foo = "deep"}
local cur = base
for i = 1, 50 do cur = setmetatable({}, {__index = cur}) end
print(cur.foo)
local cur2 = {}
local c = cur2
for i=1,150 do local n = {} setmetatable(c, {__index = n}) c = n end
print(pcall(function() return cur2.zz end))
-- __index loop
local l1 = {} setmetatable(l1, {__index = l1})
print(pcall(function() return l1.x end))
local l2 = {} setmetatable(l2, {__newindex = l2})
print(pcall(function() l2.x = 1 end))
-- __eq only called for same types
local e1 = setmetatable({}, {__eq = function() return true end})
print(e1 == {}, e1 == 1, rawequal(e1, {}))
-- __lt result converted
local m = {__lt = function() return 1 end, __le = function() return nil end}
local x, y = setmetatable({}, m), setmetatable({}, m)
print(x < y, x <= y, x > y, x >= y)
-- tostring with __name
local n = setmetatable({}, {__name = "MyType"})
print((tostring(n):gsub("0x%x+", "ADDR")))
print(pcall(tostring, setmetatable({}, {__tostring = function() return 1 end})))
print(pcall(function() return #setmetatable({}, {__len = function() return "x" end}) end))
-- __metatable
local p = setmetatable({}, {__metatable = "locked"})
print(getmetatable(p), pcall(setmetatable, p, {}))
print(getmetatable("abc").__index == string)
-- __pairs
local pp = setmetatable({}, {__pairs = function(t) return function(_, k) if not k then return 1, "one" end end, t, nil end})
for k, v in pairs(pp) do print("pairs", k, v) end
-- __index on strings
print(("x"):rep(3), #"abc", ("%d"):format(5))
print(pcall(function() return ("x").y.z end))
