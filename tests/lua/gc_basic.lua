-- gc_basic.lua: collector-visible semantics (weak tables, finalizers)
print("gc_basic: start")

local function count(t)
  local n = 0
  for _ in pairs(t) do n = n + 1 end
  return n
end

-- Dead temporaries may linger in VM registers of the current frame (an
-- implementation may scan a whole frame), so overwrite them with nils before
-- collecting: 'scrub' runs in the registers just above the caller's.
local function scrub()
  local a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16
  local b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12, b13, b14, b15, b16
  local c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15, c16
  local d1, d2, d3, d4, d5, d6, d7, d8, d9, d10, d11, d12, d13, d14, d15, d16
end
local function fullgc()
  scrub()
  collectgarbage()
  collectgarbage()
end

-- collectgarbage basics
print("count is number", math.type(collectgarbage("count")) == "float")
print("collect returns 0", collectgarbage())
print("collect 'collect'", collectgarbage("collect"))
print("isrunning", collectgarbage("isrunning"))
collectgarbage("stop")
print("stopped", collectgarbage("isrunning"))
collectgarbage("restart")
print("restarted", collectgarbage("isrunning"))
print("step returns boolean", type(collectgarbage("step")))

-- memory decreases after freeing a large structure
do
  local big = {}
  for i = 1, 20000 do big[i] = {i} end
  local before = collectgarbage("count")
  big = nil
  fullgc()
  fullgc()
  local after = collectgarbage("count")
  print("memory freed", after < before)
end

-- weak values
local wv = setmetatable({}, {__mode = "v"})
wv[1] = {}
wv[2] = {}
local keep = {}
wv[3] = keep
wv[4] = "strings are not collected from weak tables"
wv[5] = 42
fullgc()
print("weak values", wv[1], wv[2], wv[3] == keep, wv[4] ~= nil, wv[5])

-- weak keys
local wk = setmetatable({}, {__mode = "k"})
local k1 = {}
wk[k1] = "kept"
wk[{}] = "dropped"
wk[{}] = "dropped"
fullgc()
print("weak keys", count(wk), wk[k1])

-- weak both
local wkv = setmetatable({}, {__mode = "kv"})
wkv[{}] = 1
wkv[1] = {}
wkv[k1] = keep
fullgc()
print("weak kv", count(wkv), wkv[k1] == keep)

-- ephemerons: value refers to its own key
local eph = setmetatable({}, {__mode = "k"})
do
  local key = {}
  eph[key] = {ref = key}
end
fullgc()
print("ephemeron collected", count(eph))
local livekey = {}
eph[livekey] = {ref = livekey}
fullgc()
print("ephemeron kept", count(eph), eph[livekey].ref == livekey)

-- functions and closures in weak tables
local wf = setmetatable({}, {__mode = "v"})
wf[1] = function() return 1 end
local upv = 5
wf[2] = function() return upv end
fullgc()
print("weak closure collected", wf[2] == nil)

-- finalizers run, in reverse order of marking
local order = {}
do  -- all five become garbage in the same cycle
  local hold = {}
  for i = 1, 5 do
    hold[i] = setmetatable({}, {__gc = function() order[#order + 1] = i end})
  end
  hold = nil
end
fullgc()
print("finalizers", table.concat(order, ","))

-- finalizer receives the object and may resurrect it
local saved
do
  local o = setmetatable({name = "phoenix"}, {__gc = function(obj) saved = obj end})
end
fullgc()
print("resurrected", saved and saved.name)
-- a resurrected object's finalizer does not run again
local runs = 0
do
  setmetatable({}, {__gc = function(o) runs = runs + 1; saved = o end})
end
fullgc(); saved = nil; fullgc()
print("finalizer runs once", runs)

-- __gc set after setmetatable is not registered
local late = 0
do
  local mt = {}
  setmetatable({}, mt)
  mt.__gc = function() late = late + 1 end
end
fullgc()
print("late __gc ignored", late)
-- but a placeholder __gc field registers the object
do
  local mt = {__gc = true}
  setmetatable({}, mt)
  mt.__gc = function() late = late + 1 end
end
fullgc()
print("placeholder __gc", late)

-- errors in finalizers produce warnings, not errors
do
  setmetatable({}, {__gc = function() error("in finalizer") end})
end
local okgc = pcall(fullgc)
print("error in finalizer does not propagate", okgc)

-- objects referenced only from a finalized object are still valid in the finalizer
local seen
do
  local inner = {value = "inner value"}
  setmetatable({inner = inner}, {__gc = function(o) seen = o.inner.value end})
end
fullgc()
print("finalizer sees fields", seen)

-- finalizers of objects still referenced do not run
local alive = setmetatable({}, {__gc = function() print("alive finalized at the end") end})
fullgc()
print("alive not finalized", type(alive))

-- a weak-valued cache
local cache = setmetatable({}, {__mode = "v"})
local function get(k)
  local v = cache[k]
  if not v then v = {k = k}; cache[k] = v end
  return v
end
local a1 = get("a")
local a2 = get("a")
print("cache hit", a1 == a2)
a1, a2 = nil, nil
fullgc()
print("cache emptied", cache.a == nil)

-- lots of garbage does not break anything
local s = 0
for i = 1, 20000 do
  local t = {i, tostring(i)}
  s = s + #t[2]
end
print("garbage loop", s)

-- strings as weak keys are never removed
local ws = setmetatable({}, {__mode = "k"})
ws["key" .. 1] = true
fullgc()
print("string weak key", ws.key1)

-- coroutines are collectable
local wc = setmetatable({}, {__mode = "v"})
wc[1] = coroutine.create(function() coroutine.yield() end)
coroutine.resume(wc[1])
fullgc()
print("coroutine collected", wc[1] == nil)

alive = nil
fullgc()
print("gc_basic: OK")
