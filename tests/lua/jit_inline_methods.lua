-- Inlined methods (jit.c predict_inlines/selfsource, llvmgen.c inlineleaf,
-- leafstores): small methods called as obj:m(...) are evaluated in place
-- of the call when the callee's Proto is the predicted one; setters store
-- only after every test passed.  Everything that changes what the SELF
-- finds, or makes the fast path fail, must give the interpreter's result.

local C = {}
C.__index = C
function C.new(x) return setmetatable({ x = x, n = 0, tag = "c" }, C) end
function C:get() return self.x end
function C:twice() return self.x * 2 end
function C:set(v) self.x = v end
function C:bump() self.n = self.n + 1 end
function C:setboth(a, b) self.x = a; self.tag = b; return self end
function C:plus(a, b) return self.x + (a or 0) + (b or 0) end

-- hot callers: the receiver is a parameter (predicted at the entry)
local function sumget(o, n)
  local s = 0
  for _ = 1, n do s = s + o:get() end
  return s
end
local function sumtwice(o, n)
  local s = 0
  for _ = 1, n do s = s + o:twice() end
  return s
end
local function setloop(o, n)
  for i = 1, n do o:set(i) end
  return o.x
end
local function bumploop(o, n)
  for _ = 1, n do o:bump() end
  return o.n
end

local o = C.new(3)
print("get", sumget(o, 100), sumtwice(o, 100))
print("set", setloop(o, 50), bumploop(o, 70), o.n)

-- the method replaced in the class after the caller was compiled
C.get = function(self) return -self.x end
print("replaced", sumget(o, 10))
C.get = function(self) return self.x end
print("restored", sumget(o, 10))

-- the object shadows the class's method with its own field
o.get = function() return 1000 end
print("shadowed", sumget(o, 10))
o.get = nil
print("unshadowed", sumget(o, 10))

-- __index changed from a table to a function, and back
local mt = { __index = function(_, k) if k == "get" then return function() return 7 end end end }
local p = setmetatable({ x = 5 }, mt)
print("index fn", sumget(p, 10))
mt.__index = C
print("index tab", sumget(p, 10))
setmetatable(p, nil)
print("no mt", pcall(sumget, p, 1))

-- another class with its own methods at the same sites
local D = {}
D.__index = D
function D:get() return self.x + 0.5 end
function D:twice() return "str" end
function D:set(v) self.y = v end
function D:bump() self.n = (self.n or 100) - 1 end
local d = setmetatable({ x = 1 }, D)
print("other class", sumget(d, 4), pcall(sumtwice, d, 2))
print("other set", setloop(d, 5), d.y, bumploop(d, 3))
-- alternating classes at one site
local objs = { o, d, C.new(10), setmetatable({ x = 20 }, D) }
local s = 0
for i = 1, 40 do s = s + sumget(objs[i % 4 + 1], 2) end
print("alternating", s)

-- errors inside the method: the real call raises them
local e = C.new(nil)
print("nil arith", pcall(sumtwice, e, 3))
local e2 = C.new({})
print("table arith", pcall(sumtwice, e2, 3))
e.x = "12"
print("string coerced", sumtwice(e, 3))
e.x = 2^53
print("float", sumtwice(e, 3))
e.x = math.maxinteger
print("wrap", sumtwice(e, 1))

-- not a table: a string receiver or a number
print("receiver string", pcall(sumget, "abc", 1))
print("receiver nil", pcall(sumget, nil, 1))

-- fewer and more arguments than parameters
local function plusloop(q, n)
  local s = 0
  for i = 1, n do s = s + q:plus() + q:plus(i) + q:plus(i, 2) + q:plus(i, 2, 3, 4) end
  return s
end
print("args", plusloop(C.new(1), 20))
local function setnone(q, n)
  for _ = 1, n do q:set() end
  return q.x
end
local q = C.new(1)
print("set nothing", setnone(q, 5), q.x, rawget(q, "x"))

-- a setter on a field the object does not have: the real call (a new key)
local fresh = setmetatable({}, C)
print("new key", setloop(fresh, 3), fresh.x)
-- a field set to nil, then set again through the setter
local r = C.new(1)
r.x = nil
print("nil field", setloop(r, 4), r.x)
-- __newindex applies to absent fields only
local log = {}
local W = setmetatable({}, { __index = C, __newindex = function(t, k, v) log[#log + 1] = k; rawset(t, k, v) end })
W.__index = W
local w = setmetatable({}, { __index = C, __newindex = function(t, k, v) log[#log + 1] = k .. "!"; rawset(t, k, v) end })
print("newindex", setloop(w, 3), #log, log[1], w.x)
local w2 = setmetatable({}, W)
print("newindex2", setloop(w2, 2), #log)
-- a key whose value was set to nil keeps its node: __newindex applies again
local w3 = setmetatable({ x = 1 }, { __index = C, __newindex = function(t, k, v) log[#log + 1] = k .. "?"; rawset(t, k, v) end })
w3.x = nil
print("newindex3", setloop(w3, 3), #log, log[#log])

-- two stores: the second key absent makes the real call do both once
local function setbothloop(q2, n)
  local last
  for i = 1, n do last = q2:setboth(i, "t" .. i) end
  return last == q2, q2.x, q2.tag
end
print("setboth", setbothloop(C.new(0), 10))
local half = setmetatable({ x = 0 }, C)
print("setboth absent", setbothloop(half, 3))
local cnt = setmetatable({ n = 0 }, C)
local function bumptwice(q2, n)
  for _ = 1, n do q2:bump(); q2:bump() end
  return q2.n
end
local nlog = 0
local viaidx = setmetatable({}, { __index = setmetatable({ n = 5 }, C),
                                  __newindex = function(t, k, v) nlog = nlog + 1; rawset(t, k, v) end })
print("bump", bumptwice(cnt, 25), bumptwice(viaidx, 3), nlog)
-- the second store's key absent: the first (an increment) must not run twice
function C:bump2() self.n = self.n + 1; self.m = 0 end
local function bump2loop(q2, n) for _ = 1, n do q2:bump2() end return q2.n end
print("bump2", bump2loop(C.new(0), 10), bump2loop(setmetatable({ n = 0 }, C), 10))

-- a setter storing into the class itself: method caches must see it
local K = {}
K.__index = K
function K:get() return 1 end
function K:setget(f) self.get = f end
local k = setmetatable({}, K)
local function callget(obj, n) local t = 0 for _ = 1, n do t = t + obj:get() end return t end
print("class store", callget(k, 5))
for i = 1, 5 do K:setget(function() return i * 10 end) end
print("class store after", callget(k, 5))

-- stores of references: the collector must see young values in old objects
local holder = C.new(0)
collectgarbage()
collectgarbage()
local function setfresh(h, n)
  for i = 1, n do h:set({ v = i, s = "s" .. i }) end
  return h.x
end
for _ = 1, 20 do setfresh(holder, 50); collectgarbage("step") end
collectgarbage()
print("young in old", holder.x.v, holder.x.s)

-- call hooks see every call, inlined or not
local calls = 0
debug.sethook(function() calls = calls + 1 end, "c")
local hs = sumget(C.new(2), 10)
debug.sethook()
print("hook", hs, calls >= 10)

-- the method's closure collected and replaced by a new one at the site
for i = 1, 30 do
  C.get = load("return function(self) return self.x + " .. i .. " end")()
  collectgarbage()
end
print("reloaded", sumget(C.new(1), 3))

-- a traceback through an erroring method called at an inline site
C.twice = function(self) return self.x * 2 end
local ok, msg = pcall(sumtwice, C.new(false), 1)
print("error", ok, (msg:gsub("^.-:%d+: ", "")))

-- tail calls of methods: a getter inline (its RETURN returns from the
-- caller), a setter never (its result count is the caller's caller's)
local T = {}
T.__index = T
function T:get() return self.v, self.w end
function T:set(v) self.v = v end
local function tget(t) return t:get() end
local function tset(t, v) return t:set(v) end
local tt = setmetatable({ v = 1, w = 2 }, T)
local acc = 0
for i = 1, 30 do
  tset(tt, i)
  local a, b = tget(tt)
  acc = acc + a + b
  acc = acc + select("#", tget(tt)) + select("#", tset(tt, i))
end
print("tail", acc, (tget(tt)), tt.v)
T.get = function(self) return self.w end
print("tail replaced", tget(tt))

-- receivers that are elements of a container of one class (predicted from
-- a sample of it), then of another class, then of mixed classes
local E = {}
E.__index = E
function E:val() return self.v end
function E:put(v) self.v = v end
local F = setmetatable({}, { __index = E })
F.__index = F
function F:val() return -self.v end
local function sumlist(box, n)
  local s = 0
  for i = 1, n do local e = box.items[i]; e:put(i); s = s + e:val() end
  return s
end
local box = { items = {} }
for i = 1, 8 do box.items[i] = setmetatable({ v = 0 }, E) end
print("list one class", sumlist(box, 8))
for i = 1, 8 do box.items[i] = setmetatable({ v = 0 }, F) end
print("list other class", sumlist(box, 8))
for i = 1, 8 do box.items[i] = setmetatable({ v = 0 }, i % 2 == 0 and E or F) end
print("list mixed", sumlist(box, 8))
box.items[3] = setmetatable({ v = "x" }, { __index = { val = function() return 100 end, put = function() end } })
print("list odd one", sumlist(box, 8))
box.items[4] = 42
print("list number", pcall(sumlist, box, 8))

-- equality in an inlined method: integers (one compare of the words),
-- floats, mixed, big integers, strings, tables, nil
local Q = {}
Q.__index = Q
function Q:is(v) return self.x == v end
local function countis(q2, vals)
  local n = 0
  for i = 1, #vals do if q2:is(vals[i]) then n = n + 1 end end
  return n
end
local vals = { 1, 2, 1.0, 1.5, -1, 0, -0.0, math.maxinteger, math.mininteger, 2^53, 1 << 47, (1 << 47) - 1, "1", true, false }
for _, x in ipairs({ 1, 0, -1, 1.0, 0.0, math.maxinteger, math.mininteger, 2^53, 2^47, -2^47, 1 << 47, (1 << 47) - 1, "1", true }) do
  io.write(countis(setmetatable({ x = x }, Q), vals), " ")
end
print()
