-- The interpreter's method cache (vm.c index_table, state.h icache): a
-- receiver's miss answered through its chain of __index tables, found or
-- absent, must follow every change of a table on that chain.  Each case
-- reads in a loop (the cache fills at the first read), changes the chain,
-- and reads again.

-- (constant field names: GETFIELD, whose misses go through the cache)
local get = {
  color = function(o) return o.color end, x = function(o) return o.x end,
  v = function(o) return o.v end, deep = function(o) return o.deep end,
  m = function(o) return o.m end, none = function(o) return o.none end,
}
local function reads(obj, key, n)
  local r, f = {}, get[key]
  for i = 1, n do r[#r + 1] = tostring(f(obj)) end
  return table.concat(r, ",")
end

-- 1. a method two levels up; replaced in the top class; shadowed by a new
-- key in the middle class; removed there again
local Base = {} Base.__index = Base
function Base.name() return "base" end
local Mid = setmetatable({}, Base) Mid.__index = Mid
local obj = setmetatable({}, Mid)
local function call(o, n) local r = {} for i = 1, n do r[i] = o:name() end return table.concat(r, ",") end
print(1, call(obj, 3))
function Base.name() return "base2" end
print(1, call(obj, 3))
function Mid.name() return "mid" end
print(1, call(obj, 3))
Mid.name = nil
print(1, call(obj, 3))

-- 2. a key absent from the whole chain (the walk ends at a class without a
-- metatable); then added to the top class; then to the middle one; then
-- the top class gets a metatable of its own
print(2, reads(obj, "color", 3))
Base.color = "red"
print(2, reads(obj, "color", 3))
Mid.color = "blue"
print(2, reads(obj, "color", 3))
Mid.color = nil; Base.color = nil
print(2, reads(obj, "color", 3))
setmetatable(Base, { __index = { color = "from meta" } })
print(2, reads(obj, "color", 3))

-- 3. a metatable without __index (the walk ends there), then given one
local plainmt = {}
local p = setmetatable({}, plainmt)
print(3, reads(p, "x", 3))
plainmt.__index = { x = 42 }
print(3, reads(p, "x", 3))
plainmt.__index = function(t, k) return k .. "!" end
print(3, reads(p, "x", 3))
plainmt.__index = { x = 43 }
print(3, reads(p, "x", 3))

-- 4. __index replaced by another table; the receiver's own key first; a
-- receiver given another metatable
local A, B = { v = "A" }, { v = "B" }
local mt = { __index = A }
local o = setmetatable({}, mt)
print(4, reads(o, "v", 3))
mt.__index = B
print(4, reads(o, "v", 3))
o.v = "own"
print(4, reads(o, "v", 3))
o.v = nil
print(4, reads(o, "v", 3))
setmetatable(o, { __index = { v = "other" } })
print(4, reads(o, "v", 3))

-- 5. many classes and keys (entries share slots of the direct-mapped
-- cache), with collections between the reads (tables move)
local classes = {}
for c = 1, 40 do
  local C = { id = c } C.__index = C
  for k = 1, 20 do C["m" .. k] = c * 100 + k end
  classes[c] = C
end
local objs = {}
for i = 1, 200 do objs[i] = setmetatable({}, classes[i % 40 + 1]) end
local sum = 0
for round = 1, 5 do
  for i = 1, 200 do
    local o = objs[i]
    sum = sum + o.m1 + o.m4 + o.m7 + o.m10 + o.m13 + o.m16 + o.m19
    if o.missing == nil then sum = sum + 1 end
  end
  collectgarbage()
  local junk = {}
  for j = 1, 2000 do junk[j] = { j } end
  classes[round].m1 = -round   -- a change in one class between rounds
end
print(5, sum)

-- 6. a class that is also an instance's field store target (a table on
-- the chain written at every step: the cache is invalidated each time)
local Counter = { count = 0 } Counter.__index = Counter
local c = setmetatable({}, Counter)
for i = 1, 10 do Counter.count = Counter.count + 1; assert(c.count == i) end
print(6, c.count)

-- 7. rawset into a class, and a chain deeper than the cache walks (5
-- levels: vm_finishget's loop answers)
local L1 = { deep = "deep" }
local chain = L1
for i = 2, 6 do chain = setmetatable({}, { __index = chain }) end
print(7, reads(chain, "deep", 2))
rawset(L1, "deep", "deeper")
print(7, reads(chain, "deep", 2))
rawset(Base, "name", function() return "raw" end)
print(7, call(obj, 2))

-- 8. classes whose metatables are not the classes themselves
-- (setmetatable(C, {__index = Super})): a store into a class in the middle
-- of the chain, which only the walk's lookups touched
local G = { m = "G" }
local P = setmetatable({}, { __index = G })
local C = setmetatable({}, { __index = P })
local x = setmetatable({}, { __index = C })
print(8, reads(x, "m", 2))
P.m = "P"
print(8, reads(x, "m", 2))
C.m = "C"
print(8, reads(x, "m", 2))
C.m = nil; P.m = nil
print(8, reads(x, "m", 2))
print(8, reads(x, "none", 2))
G.none = "now"
print(8, reads(x, "none", 2))

-- 9. an object held in an upvalue (GETTABUP), and globals through an
-- _ENV with an __index table, then an __index function
local up = setmetatable({}, { __index = { k = "up" } })
local function getup() return up.k end
print(9, getup(), getup())
getmetatable(up).__index.k = "up2"
print(9, getup(), getup())
getmetatable(up).__index = { k = "up3" }
print(9, getup(), getup())
local envmt, tostring = { __index = { gv = "env" } }, tostring
local function genv()
  local _ENV = setmetatable({}, envmt)
  local r = {}
  for i = 1, 2 do r[i] = tostring(gv) end
  envmt.__index.gv = "env2"
  r[3] = tostring(gv)
  envmt.__index = function(_, k) return k .. "?" end
  r[4] = tostring(gv)
  return r[1] .. "," .. r[2] .. "," .. r[3] .. "," .. r[4]
end
print(9, genv())

-- 10. a method or field absent from the whole chain (the cached absent
-- answer): the errors name it as lua5.4 does
local E = {} E.__index = E
local eo = setmetatable({}, E)
for i = 1, 3 do print(10, pcall(function() return eo:missing() end)) end
for i = 1, 3 do print(10, pcall(function() return eo.missing.x end)) end
