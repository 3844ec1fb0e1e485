-- Method caches at SELF sites, round 2 (jitrt.c mvmrt_strself walks the
-- receiver's collision chain itself, then trusts the site's cache): the
-- receiver's own key is found wherever it sits in its chain (objects of
-- many sizes and fields), a key present with a nil value falls through to
-- the class, and every change of the classes (replaced methods at each
-- level of an '__index' chain, rawset, setmetatable, '__index' functions)
-- is seen at the next call, with collections in between.
local out = {}
local function log(...)
  local t = table.pack(...)
  for i = 1, t.n do t[i] = tostring(t[i]) end
  out[#out + 1] = table.concat(t, " ")
end

local function call(o) return o:m() end     -- the hot sites
local function call2(o, x) return o:k(x) end

local function runs(n, o) local r; for _ = 1, n do r = call(o) end; return r end

-- objects of many sizes: the method name lands at every position of a
-- chain; a field 'm' added later shadows the class's method
local C = {}
C.__index = C
function C:m() return "C.m" end
function C:k(x) return "C.k" .. x end
local objs = {}
for size = 0, 40 do
  local o = setmetatable({}, C)
  for i = 1, size do o["f" .. i] = i end
  objs[#objs + 1] = o
end
for round = 1, 3 do
  local acc = {}
  for i, o in ipairs(objs) do acc[#acc + 1] = runs(4, o) end
  log("sizes", round, table.concat(acc, ",", 1, 3), #acc)
end
for i, o in ipairs(objs) do
  if i % 3 == 0 then o.m = function() return "own" .. i end end
end
local acc = {}
for _, o in ipairs(objs) do acc[#acc + 1] = runs(3, o) end
log("shadowed", table.concat(acc, ","))
-- the own fields set to nil again: present keys with nil values
for i, o in ipairs(objs) do if i % 3 == 0 then o.m = nil end end
acc = {}
for _, o in ipairs(objs) do acc[#acc + 1] = runs(3, o) end
log("unshadowed", table.concat(acc, ","))
-- some set to false: a present, non-nil, non-function value
objs[5].m = false
local ok, err = pcall(call, objs[5])
log("false", ok, (tostring(err):gsub("^.-:%d+: ", "")), runs(2, objs[6]))
objs[5].m = nil

-- a three-level chain: object -> A -> B -> Base; methods replaced at each
-- level with plain stores and rawset
local Base = {}; Base.__index = Base
local B = setmetatable({}, Base); B.__index = B
local A = setmetatable({}, B); A.__index = A
function Base:m() return "Base" end
local o = setmetatable({ x = 1, y = 2, z = 3 }, A)
log("chain", runs(5, o))
rawset(B, "m", function() return "B(raw)" end)
log("rawset B", runs(5, o))
rawset(A, "m", function() return "A(raw)" end)
log("rawset A", runs(5, o))
A.m = nil
log("A nil", runs(5, o))
B.m = nil
log("B nil", runs(5, o))
Base.m = function() return "Base2" end
log("Base replaced", runs(5, o))
rawset(Base, "m", function() return "Base3" end)
log("rawset Base", runs(5, o))
collectgarbage()
log("after gc", runs(5, o))

-- setmetatable of the object, of a class in the chain
local Other = { m = function() return "Other" end }
Other.__index = Other
setmetatable(o, Other)
log("setmetatable obj", runs(5, o))
setmetatable(o, A)
log("back", runs(5, o))
setmetatable(B, { __index = { m = function() return "B's new super" end } })
log("setmetatable B", runs(5, o))
setmetatable(B, Base)

-- '__index' replaced by a function, then by a table again
A.__index = function(t, k) return function() return "fn:" .. k end end
log("index fn", runs(5, o))
A.__index = A
log("index A", runs(5, o))
A.__index = Other
log("index Other", runs(5, o))
A.__index = A

-- two classes at one site, one of them changing between calls
local P = {}; P.__index = P
function P:k(x) return "P.k" .. x end
local Q = setmetatable({}, P); Q.__index = Q
local ps = {}
for i = 1, 20 do ps[i] = setmetatable({ id = i }, i % 2 == 0 and P or Q) end
local function sweep()
  local r = {}
  for _, p in ipairs(ps) do r[#r + 1] = call2(p, p.id) end
  return table.concat(r, ",", 1, 4)
end
log("poly", sweep(), sweep())
function Q:k(x) return "Q.k" .. x end
log("poly Q", sweep(), sweep())
P.k = function(self, x) return "P2.k" .. x end
log("poly P2", sweep(), sweep())
Q.k = nil
log("poly Q nil", sweep(), sweep())
ps[3].k = function() return "own3" end
log("poly own", sweep(), sweep())

-- a site's two entries: classes in pairs and in threes, each changed
-- while its entry may be the second one
local K = {}
for i = 1, 3 do
  K[i] = {}; K[i].__index = K[i]
  K[i].m = function() return "K" .. i end
end
local ks = {}
for i = 1, 12 do ks[i] = setmetatable({ i = i }, K[i % 3 + 1]) end
local function ksweep(n)
  local r = {}
  for j = 1, n do r[#r + 1] = call(ks[j]) end
  return table.concat(r, ",")
end
log("two", ksweep(2), ksweep(2), ksweep(2))
K[2].m = function() return "K2b" end      -- the entry of ks[1]'s class
log("two K2b", ksweep(2), ksweep(2))
K[3].m = function() return "K3b" end
log("two K3b", ksweep(2), ksweep(2))
log("three", ksweep(6), ksweep(6))
K[1].m = nil
setmetatable(K[1], K[2])
log("three K1", ksweep(6), ksweep(6))
ks[4].m = function() return "own4" end
log("three own", ksweep(6), ksweep(6))
collectgarbage()
log("three gc", ksweep(6), ksweep(6))

-- many short-lived objects and collections while a site stays hot
local D = {}; D.__index = D
function D:m() return self.v end
local sum = 0
for i = 1, 3000 do
  local d = setmetatable({ v = i, pad = { i } }, D)
  for j = 1, i % 7 do d["p" .. j] = j end
  sum = sum + call(d)
  if i % 500 == 0 then collectgarbage() end
  if i == 1500 then D.m = function(self) return -self.v end end
end
log("many", sum)

print(table.concat(out, "\n"))
