-- jit_reloc_co.lua: relocation of references held by compiled frames
-- across coroutine switches and error unwinding (see jit_reloc.lua).
-- Compiled frames of several threads are on the C stack at once when
-- coroutines resume each other from compiled code; frames unwound by an
-- error or left by a yield must no longer be walked.

-- a producer/consumer pair resuming each other, both holding young tables
local function producer(n)
  return coroutine.create(function()
    local mine = {count = 0}
    for i = 1, n do
      local item = {i = i, tag = "item" .. i}
      mine.count = mine.count + 1
      coroutine.yield(item)
      if item.i ~= i or mine.count ~= i then error("producer corrupt") end
    end
    return nil
  end)
end
local function consume(n)
  local co = producer(n)
  local seen, sum = {}, 0
  while true do
    local ok, item = coroutine.resume(co)
    if not ok then error(item) end
    if item == nil then break end
    local copy = {item.i, item.tag}
    seen[#seen + 1] = copy
    sum = sum + item.i + #copy[2]
  end
  return sum, #seen, seen[#seen][2]
end
print("consume", consume(200))

-- coroutines nested three deep, resumed from compiled code
local function chain(depth, n)
  if depth == 0 then
    return coroutine.wrap(function()
      for i = 1, n do coroutine.yield({i}) end
    end)
  end
  local inner = chain(depth - 1, n)
  return coroutine.wrap(function()
    local acc = {}
    for i = 1, n do
      local v = inner()
      acc[#acc + 1] = {v[1] * 2}
      coroutine.yield({v[1] + acc[#acc][1]})
    end
  end)
end
local function runchain(n)
  local f = chain(3, n)
  local s, holder = 0, {}
  for i = 1, n do
    local v = f()
    holder[i] = v
    s = s + v[1]
  end
  return s, holder[n][1]
end
print("chain", runchain(100))

-- errors unwinding through compiled frames that hold young tables; the
-- frames that catch (pcall) keep theirs
local function thrower(d, t)
  local mine = {d = d, t}
  if d == 0 then error({code = t.v}) end
  return thrower(d - 1, {v = t.v + 1, prev = mine}) + 1
end
local function catcher(n)
  local kept, total = {}, 0
  for i = 1, n do
    local before = {i}
    local ok, e = pcall(thrower, i % 7, {v = i})
    local after = {i}
    if ok or type(e) ~= "table" then error("expected an error table") end
    total = total + e.code + before[1] + after[1]
    kept[#kept + 1] = before
  end
  return total, #kept, kept[n][1]
end
print("catcher", catcher(150))

-- errors inside coroutines, caught inside (pcall in the coroutine) and
-- outside (resume returns false), then the coroutine is collected
local function coerrors(n)
  local inside, outside = 0, 0
  for i = 1, n do
    local co = coroutine.create(function(x)
      local t = {x}
      local ok = pcall(function() local u = {t} error("in") end)
      if not ok then inside = inside + t[1] end
      coroutine.yield(t)
      local big = {}
      for j = 1, 10 do big[j] = {j} end
      error({x = t[1]})
    end)
    local ok, t = coroutine.resume(co, i)
    local ok2, e = coroutine.resume(co)
    if ok and not ok2 then outside = outside + t[1] + e.x end
  end
  collectgarbage()
  return inside, outside
end
print("coerrors", coerrors(100))

-- a yield from inside a metamethod called by compiled code
local function yieldmeta(n)
  local mt = {__index = function(t, k) local r = {k} coroutine.yield(r) return #r end}
  local co = coroutine.wrap(function()
    local s = 0
    for i = 1, n do
      local obj = setmetatable({}, mt)
      local keep = {i}
      s = s + obj.missing + keep[1]
    end
    return s
  end)
  local r = co()
  local count = 0
  while type(r) == "table" do count = count + 1; r = co() end
  return r, count
end
print("yieldmeta", yieldmeta(100))

-- a metamethod that resumes a coroutine whose compiled code yields, read
-- from a compiled loop: the loop's safepoint polls must find the running
-- thread again (the yield left the coroutine's compiled code by longjmp)
local function resumer(n)
  local co = coroutine.wrap(function()
    local i = 0
    while true do
      i = i + 1
      local t = {i}
      coroutine.yield(t[1])
    end
  end)
  -- the C function itself: no compiled caller restores the running thread
  local obj = setmetatable({}, {__index = co})
  local s, keep = 0, {}
  for i = 1, n do          -- no call on every path: the loop keeps its poll
    s = s + obj.x + i
  end
  for i = 1, n do
    local fresh = {i}
    s = s + obj.x + fresh[1]
    keep[i % 10 + 1] = fresh
  end
  return s, #keep
end
print("resumer", resumer(200))
