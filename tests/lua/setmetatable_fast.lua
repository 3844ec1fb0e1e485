-- setmetatable(t, mt) takes a fast path in the interpreter's CALL and
-- TAILCALL (vm.c vm_setmtinline) when t has no metatable and mt has no
-- __gc.  Everything else is the library's call: a protected metatable,
-- a finalizer to register, bad arguments, nil.  The result is t, lookups
-- through t see the new metatable at once (also from compiled code whose
-- method caches watched t), and hooks see every call.

-- constructors: `return setmetatable(...)` (TAILCALL), in a vararg
-- function too (its frame is moved), and as an assignment (CALL)
local V = {}
V.__index = V
V.__add = function(a, b) return V.new(a.x + b.x) end
function V.new(x) return setmetatable({ x = x }, V) end
function V.vnew(...) local x = ... return setmetatable({ x = x }, V) end
function V:get() return self.x end
local acc = V.new(0)
for i = 1, 3000 do acc = acc + V.new(i) + V.vnew(1) end
print("sum", acc:get(), getmetatable(acc) == V)
local function assign(x) local o = setmetatable({ x = x }, V); return o end
local s = 0
for i = 1, 3000 do s = s + assign(i):get() end
print("assign", s)
print("nothing taken", select("#", (function() setmetatable({}, V) end)()))
print("all results", select("#", setmetatable({}, V)), setmetatable({}, nil) ~= nil)

-- what the fast path leaves to the library
local P = setmetatable({}, { __metatable = "locked" })
print(pcall(setmetatable, P, {}))
print(pcall(function() return setmetatable(P, V) end))
print(pcall(function() return setmetatable(1, V) end))
print(pcall(function() return setmetatable({}, 1) end))
print(pcall(function() return setmetatable({}) end))
local t = setmetatable({}, V)
print(getmetatable(setmetatable(t, nil)), getmetatable(setmetatable(t, V)) == V)
local W = { __index = function() return "other" end }
print(setmetatable(t, W).anything)      -- t has a metatable: the library's call

-- a metatable with __gc: the object is registered for finalization
local finalized = 0
local G = { __gc = function() finalized = finalized + 1 end }
local function mk() return setmetatable({}, G) end
for _ = 1, 50 do mk() end
collectgarbage(); collectgarbage()
print("finalized", finalized)

-- a class table gets its own metatable while calls through it are hot
local B = {}
function B:name() return "base" end
local D = {}
D.__index = D
function D:id() return 1 end
local function callall(objs)
  local n = 0
  for i = 1, #objs do
    local o = objs[i]
    n = n + o:id()
    if o.name then n = n + #o:name() end
  end
  return n
end
local objs = {}
for i = 1, 100 do objs[i] = setmetatable({}, D) end
local before = 0
for _ = 1, 300 do before = before + callall(objs) end
setmetatable(D, { __index = B })        -- D had no metatable: the fast path
print("inherit", before, callall(objs))

-- a call hook sees the calls of setmetatable, CALL and TAILCALL alike
local seen = 0
local function both() local o = setmetatable({}, V); return setmetatable(o, V) end
for _ = 1, 300 do both() end
debug.sethook(function()
  if debug.getinfo(2, "f").func == setmetatable then seen = seen + 1 end
end, "c")
both()
debug.sethook()
print("hooked calls", seen)

-- __gc added to a metatable after setmetatable used it (its absence was
-- cached in the metatable): objects given it afterwards are finalized,
-- whether the field came by assignment or by rawset
local M = {}
for _ = 1, 100 do setmetatable({}, M) end
local fin = 0
M.__gc = function() fin = fin + 1 end
for _ = 1, 10 do setmetatable({}, M) end
collectgarbage(); collectgarbage()
print("finalized after assignment", fin)
local N = {}
local function ctor() return setmetatable({}, N) end
for _ = 1, 100 do ctor() end
rawset(N, "__gc", function() fin = fin + 1 end)
for _ = 1, 5 do ctor() end
collectgarbage(); collectgarbage()
print("finalized after rawset", fin)
