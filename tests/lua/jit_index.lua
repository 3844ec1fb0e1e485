-- Field and method reads with constant string keys (GETFIELD, SELF,
-- GETTABUP) through '__index' tables in compiled code: the key in the
-- object, in its class, in superclasses; '__index' functions; metatables
-- and classes changed between reads; nil results; errors.  Every read
-- runs in a loop so that it runs compiled (-j on) as well as interpreted.
local N = 300

local function class(parent)
  local c = {}
  c.__index = c
  if parent then setmetatable(c, {__index = parent}) end
  return c
end

local Base = class()
function Base.new(cls, x) return setmetatable({x = x}, cls) end
function Base:get() return self.x end
function Base:name() return "base" end
function Base:kind() return "B" end
Base.shared = "from-base"

local Mid = class(Base)
function Mid:name() return "mid" end
function Mid:twice() return 2 * self:get() end

local Leaf = class(Mid)
function Leaf:name() return "leaf:" .. Mid.name(self) end

-- 1. methods found in the object, the class, the superclasses
local function calls(o)
  local s, names = 0, nil
  for i = 1, N do
    s = s + o:get() + o:twice()
    names = o:name() .. "," .. o:kind() .. "," .. o.shared
  end
  return s, names
end
print("leaf", calls(Leaf.new(Leaf, 3)))
print("mid", calls(Base.new(Mid, 5)))

-- 2. a method overridden on one instance, then removed again
local o = Leaf.new(Leaf, 1)
local function namesof(obj, n)
  local r = {}
  for i = 1, n do r[#r + 1] = obj:name() end
  return r[1] .. "/" .. r[n]
end
print(namesof(o, N))
o.name = function() return "own" end
print(namesof(o, N))
o.name = nil
print(namesof(o, N))

-- 3. absent fields: nil through the whole chain, in a loop
local function absent(obj)
  local c = 0
  for i = 1, N do
    if obj.nothing == nil and obj.missing == nil then c = c + 1 end
  end
  return c
end
print("absent", absent(o), absent({}), absent(setmetatable({}, {})))

-- 4. a key added to a class after the absence was seen (absence caches)
local function late(obj)
  local seen = {}
  for i = 1, 4 do
    seen[#seen + 1] = tostring(obj.late)
    if i == 2 then Base.late = "now" end
  end
  Base.late = nil
  return table.concat(seen, " ")
end
print("late", late(Leaf.new(Leaf, 0)))
-- '__index' added to a metatable that had none
local mt = {}
local p = setmetatable({}, mt)
local function latemeta()
  local r = {}
  for i = 1, 4 do
    r[#r + 1] = tostring(p.v)
    if i == 2 then mt.__index = {v = "viaindex"} end
  end
  return table.concat(r, " ")
end
print("latemeta", latemeta())

-- 5. '__index' functions, at the first level and behind a table
local calls_made = 0
local F = setmetatable({}, {__index = function(t, k) calls_made = calls_made + 1; return k .. "!" end})
local G2 = setmetatable({}, {__index = F})
local function viafn()
  local r
  for i = 1, N do r = F.abc .. G2.xyz end
  return r
end
print("fn", viafn(), calls_made)
-- a function that returns nil, and one that returns false
local Z = setmetatable({}, {__index = function() return nil end})
local Fa = setmetatable({}, {__index = function() return false end})
local function nilfn()
  local a, b
  for i = 1, N do a, b = Z.q, Fa.q end
  return a, b
end
print("nilfn", nilfn())

-- 6. the metatable of an object swapped between calls
local A = class(); function A:who() return "A" end
local B = class(); function B:who() return "B" end
local sw = setmetatable({}, A)
local function who(obj)
  local r = {}
  for i = 1, 6 do
    r[#r + 1] = obj:who()
    if i == 2 then setmetatable(obj, B) end
    if i == 4 then getmetatable(obj).__index = A end
  end
  return table.concat(r)
end
print("swap", who(sw))

-- 7. rawget / rawset next to '__index'
local R = Leaf.new(Leaf, 7)
local function raws()
  local r = {}
  for i = 1, N do
    r[1] = tostring(rawget(R, "name"))
    r[2] = tostring(rawget(R, "x"))
    rawset(R, "y", i)
    r[3] = tostring(R.y)
  end
  return table.concat(r, " ")
end
print("raw", raws())

-- 8. fields set to nil in the object fall back to the class
local D = class(); D.v = "class-v"
local d = setmetatable({v = "own-v"}, D)
local function fallback()
  local r = {}
  for i = 1, 4 do
    r[#r + 1] = d.v
    if i == 2 then d.v = nil end
  end
  return table.concat(r, " ")
end
print("fallback", fallback())

-- 9. deep chains (longer than the inline walk) and a non-table '__index'
local deep = class()
deep.bottom = "deep-bottom"
for i = 1, 8 do deep = class(deep) end
local dobj = setmetatable({}, deep)
local function deepread()
  local r
  for i = 1, N do r = dobj.bottom .. tostring(dobj.nope) end
  return r
end
print("deep", deepread())
local strix = setmetatable({}, {__index = "abc"})
local function strread()
  local r
  for i = 1, N do r = strix.len end
  return r == string.len
end
print("strindex", strread())

-- 10. globals (GETTABUP) defined, undefined, and behind an _ENV metatable
gdefined = 42
local function globals()
  local s = 0
  for i = 1, N do
    s = s + gdefined
    if gundefined ~= nil then s = -1 end
  end
  return s
end
print("globals", globals())
local function envread()
  local _ENV = setmetatable({}, {__index = _G})
  local r
  for i = 1, N do r = tostring(gdefined) .. type(print) .. tostring(gnothing) end
  return r
end
print("env", envread())

-- 11. errors: indexing nil through a field, methods on nil
local cfg = {inner = {}}
local function err1() local s; for i = 1, N do s = cfg.inner.deep.x end return s end
print(pcall(err1))
local function err2(obj) for i = 1, N do obj:missing() end end
print(pcall(err2, Leaf.new(Leaf, 1)))
local function err3() local t = {}; for i = 1, N do t.a.b = 1 end end
print(pcall(err3))
local function err4(obj) local r; for i = 1, N do r = obj.field.sub end return r end
print(pcall(err4, setmetatable({}, {__index = {field = false}})))
print(pcall(err4, 5))

-- 12. an '__index' loop
local l1, l2 = {}, {}
setmetatable(l1, {__index = l2}); setmetatable(l2, {__index = l1})
local function loopy() local r; for i = 1, 3 do r = l1.zzz end return r end
print(pcall(loopy))

-- 13. methods of strings (SELF through the string metatable)
local function smeth(s)
  local r
  for i = 1, N do r = s:upper() .. s:sub(2, 3) .. #s:rep(2) end
  return r
end
print("smeth", smeth("hello"))
local smt = getmetatable("")
function string.shout(s) return s:upper() .. "!" end
local function shout(s) local r; for i = 1, N do r = s:shout() end return r end
print("shout", shout("hey"))
string.shout = nil
print(pcall(shout, "hey"))
local saved = smt.__index
smt.__index = function(s, k) return function() return "fn:" .. k end end
print("sfn", shout("x"), smeth ~= nil and pcall(smeth, "abc"))
smt.__index = {upper = function() return "U" end, sub = saved.sub, rep = saved.rep}
print("stab", smeth("abc"))
smt.__index = nil
print(pcall(smeth, "abc"))
smt.__index = saved
print("sback", smeth("abc"))
local function nummeth(x) local r; for i = 1, N do r = x:foo() end return r end
print(pcall(nummeth, 12))
