-- Method calls (SELF) at hot sites whose lookup compiled code caches per
-- site (jitrt.c mvmrt_strself, jit.h JitMethodCache): between calls at the
-- same site, methods are replaced, added to the object, removed, moved
-- between a class and its superclass; '__index' is replaced, removed or
-- turned into a function; metatables of objects and of classes change;
-- tables of the chain are rehashed, collected and replaced by new ones
-- at (possibly) the same address; weak classes lose their methods.
local out = {}
local function log(...) out[#out + 1] = table.concat({...}, " ") end

local function call(o) return o:m() end          -- the hot site
local function callk(o, x) return o:get(x) end   -- another one, with an argument

local function run(tag, o, n)
  local r
  for _ = 1, n or 3 do
    local ok, v = pcall(call, o)
    r = tostring(ok) .. ":" .. tostring(v)
  end
  log(tag, (r:gsub("table: 0x%x+", "table")))
end

-- a class, its subclass, an object
local Base = {}
Base.__index = Base
function Base.m() return "base" end
local Sub = setmetatable({}, Base)
Sub.__index = Sub
local o = setmetatable({}, Sub)
run("inherited", o)
function Sub.m() return "sub" end                 -- new key in the class
run("overridden", o)
Sub.m = function() return "sub2" end              -- existing key, new value
run("replaced", o)
Sub.m = nil                                       -- removed: back to Base
run("removed", o)
Base.m = function() return "base2" end            -- deeper table changes
run("base replaced", o)
o.m = function() return "own" end                 -- the object itself
run("own", o)
o.m = nil
run("own removed", o)
rawset(Sub, "m", function() return "rawset" end)  -- raw store into the class
run("rawset", o)
rawset(Sub, "m", nil)
run("rawset nil", o)

-- '__index' of the object's metatable changes
local Other = { m = function() return "other" end }
Sub.__index = Other
run("index replaced", o)
Sub.__index = function(_, k) return function() return "fn " .. k end end
run("index function", o)
Sub.__index = nil
run("no index", o)
Sub.__index = Sub
run("index back", o)

-- metatables change
setmetatable(o, Base)
run("object mt", o)
setmetatable(o, Sub)
run("object mt back", o)
local Base2 = { m = function() return "base2 class" end }
Base2.__index = Base2
setmetatable(Sub, Base2)                          -- the class's metatable
run("class mt", o)
setmetatable(Sub, nil)
run("class mt nil", o)
setmetatable(Sub, Base)
run("class mt back", o)
Base.__index = Base2                              -- one level further
run("base index", o)
Base.__index = Base
run("base index back", o)

-- a deep chain: five levels (longer than the cache watches)
local chain = { m = function() return "deep" end }
chain.__index = chain
for i = 1, 5 do
  local c = setmetatable({}, chain)
  c.__index = c
  c["x" .. i] = i
  chain = c
end
local d = setmetatable({}, chain)
run("deep", d)
getmetatable(getmetatable(getmetatable(d))).m = function() return "deep2" end
run("deep changed", d)

-- the class rehashed (new keys until its node array grows) between calls
local R = {}
R.__index = R
function R.m() return "r1" end
local ro = setmetatable({}, R)
for i = 1, 40 do
  run("rehash " .. i, ro, 2)
  R["k" .. i] = i
  if i % 10 == 0 then R.m = function() return "r" .. i end end
end

-- many objects, one site, several classes alternating (polymorphic site)
local A = { m = function() return "A" end }; A.__index = A
local B = { m = function() return "B" end }; B.__index = B
local objs = {}
for i = 1, 30 do objs[i] = setmetatable({}, i % 3 == 0 and B or A) end
local counts = {}
for r = 1, 20 do
  for i = 1, #objs do
    local v = call(objs[i])
    counts[v] = (counts[v] or 0) + 1
  end
  if r == 10 then A.m = function() return "A2" end end
  if r == 15 then objs[5].m = function() return "own5" end end
end
local ks = {}
for k in pairs(counts) do ks[#ks + 1] = k end
table.sort(ks)
for _, k in ipairs(ks) do log("poly", k, counts[k]) end

-- classes that die, with new classes made after a collection
for round = 1, 6 do
  local C = { m = function() return "gen" .. round end }
  C.__index = C
  local x = setmetatable({}, C)
  run("generation " .. round, x, 2)
  C, x = nil, nil
  collectgarbage()
  collectgarbage()
end

-- a weak-valued class loses its method at a collection
local W = setmetatable({}, { __mode = "v" })
W.__index = W
local keep = function() return "weak" end
W.m = keep
local wo = setmetatable({}, W)
run("weak", wo)
keep = nil
collectgarbage()
collectgarbage()
run("weak collected", wo)

-- methods with arguments; a class table that is also the object
local K = {}
K.__index = K
function K:get(x) return (self.base or 0) + x end
local ko = setmetatable({ base = 10 }, K)
local s = 0
for i = 1, 50 do
  s = s + callk(ko, i)
  if i == 20 then function K:get(x) return (self.base or 0) * x end end
  if i == 30 then ko.get = function(_, x) return -x end end
  if i == 40 then ko.get = nil end
end
log("args", s)
local s2 = 0
for i = 1, 10 do s2 = s2 + callk(K, i) end      -- the class as receiver
log("class receiver", s2)

-- a method stored in a table that is not yet a class when first looked up
local P = {}
local po = setmetatable({}, { __index = P })
run("missing", po)
P.m = function() return "appeared" end
run("appeared", po)

-- integer keys and array stores into the class do not matter; new string keys do
local Q = {}
Q.__index = Q
Q.m = function() return "q" end
local qo = setmetatable({}, Q)
for i = 1, 20 do
  Q[i] = i
  run("array " .. i, qo, 1)
end
Q.m = function() return "q2" end
run("array after", qo)

-- a method of a userdata-like object (string methods) at the same site
local str = "abc"
local function up(x) return x:upper() end
for _ = 1, 3 do log("string", up(str)) end
string.upper = function() return "patched" end
log("string patched", up(str))

-- two sites on one class: a store clears the class's watch bit and the
-- first site's refill sets it again; the second site must not trust its
-- entry from before the store
local T = {}
T.__index = T
function T.a() return "a1" end
function T.b() return "b1" end
local to = setmetatable({}, T)
local function ca(x) return x:a() end
local function cb(x) return x:b() end
for _ = 1, 3 do ca(to); cb(to) end
T.__index = { a = function() return "a2" end, b = function() return "b2" end }
log("aba", ca(to), cb(to))
T.__index = T
for _ = 1, 3 do ca(to); cb(to) end
T.b = function() return "b3" end
log("aba2", ca(to), cb(to))

for _, l in ipairs(out) do print(l) end
