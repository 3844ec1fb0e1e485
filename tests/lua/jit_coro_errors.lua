-- jit_coro_errors.lua: errors, pcall, coroutine.close and hooks with
-- compiled frames inside coroutines.  Compiled code makes direct calls in
-- coroutines (jit/jitrt.c RT_DIRECT); an error or a yield discards their C
-- frames, and the interpreter continues the frames that remain.

local function thrower(n, msg)
  if n == 0 then error(msg, 0) end
  local r = thrower(n - 1, msg)
  return r + 1
end
local function yielder(n, v)
  if n == 0 then return coroutine.yield(v) end
  local r = yielder(n - 1, v)
  return r + 1
end

-- 1. an error through compiled frames kills the coroutine
for round = 1, 3 do
  local co = coroutine.create(function(d) local x = yielder(d, "y") return thrower(d, "boom") + x end)
  print("err", round, coroutine.resume(co, 10))
  print("err", round, coroutine.resume(co, 1))
  print("err", round, coroutine.status(co), coroutine.resume(co))
end

-- 2. pcall inside the coroutine catches an error from compiled frames
local function guarded(d)
  local ok, e = pcall(thrower, d, "caught")
  local s = 0
  for i = 1, d do s = s + i end
  return ok, e, s
end
for round = 1, 3 do
  local co = coroutine.wrap(function()
    local a, b, c = guarded(20)
    coroutine.yield(a, b, c)
    return guarded(5)
  end)
  print("pcall", round, co())
  print("pcall", round, co())
end

-- 3. yields across pcall (yieldable pcall) from compiled code, several times
local function through(d)
  local ok, v = pcall(yielder, d, d)
  return ok, v
end
for round = 1, 3 do
  local co = coroutine.wrap(function()
    local total = 0
    for i = 1, 4 do
      local ok, v = through(i * 3)
      total = total + v
      if not ok then return "failed" end
    end
    return "total", total
  end)
  local out = {}
  local r = {co()}
  while r[1] ~= "total" do
    out[#out + 1] = r[1]
    r = {co(r[1] * 10)}
  end
  print("ypcall", round, table.concat(out, ","), r[1], r[2])
end

-- 4. an error after a yield inside pcall: caught by the pcall after the
-- resume, the frames below it go on
local function yerr(d)
  local got = yielder(d, "before")
  error({code = got})
end
for round = 1, 3 do
  local co = coroutine.create(function()
    local ok, e = pcall(yerr, 15)
    local s = 0
    for i = 1, 10 do s = s + i end
    coroutine.yield(ok, type(e) == "table" and e.code, s)
    local ok2, e2 = pcall(function() return thrower(8, "again") end)
    return ok2, e2
  end)
  print("yerr", round, coroutine.resume(co))
  print("yerr", round, coroutine.resume(co, 7))
  print("yerr", round, coroutine.resume(co))
  print("yerr", round, coroutine.status(co))
end

-- 5. error objects and xpcall with a handler, in a coroutine
for round = 1, 3 do
  local co = coroutine.wrap(function()
    local ok, e = xpcall(thrower, function(m) return "handled:" .. tostring(m) end, 12, "x")
    coroutine.yield(ok, e)
    return xpcall(yielder, function(m) return m end, 6, "via-xpcall")
  end)
  print("xpcall", round, co())
  print("xpcall", round, co())
  print("xpcall", round, co(41))
end

-- 6. coroutine.close with compiled frames suspended
for round = 1, 3 do
  local co = coroutine.create(function() return yielder(25, "deep") end)
  print("close", round, coroutine.resume(co))
  print("close", round, coroutine.close(co), coroutine.status(co))
  print("close", round, coroutine.resume(co))
end
-- close runs pending to-be-closed variables of the suspended frames
do
  local log = {}
  local co = coroutine.create(function()
    local t <close> = setmetatable({}, {__close = function(_, e) log[#log + 1] = "closed:" .. tostring(e) end})
    return yielder(10, "tbc")
  end)
  print("closetbc", coroutine.resume(co))
  print("closetbc", coroutine.close(co), log[1])
end
-- a dead coroutine (error) can be closed: its error is returned
do
  local co = coroutine.create(function() return thrower(30, "dead") end)
  print("closedead", coroutine.resume(co))
  print("closedead", coroutine.close(co))
end

-- 7. wrap propagates errors from compiled frames to the caller
for round = 1, 3 do
  local gen = coroutine.wrap(function()
    for i = 1, 3 do yielder(i, i) end
    thrower(5, "wrapped")
  end)
  local got = {}
  local ok, e = pcall(function()
    for _ = 1, 10 do got[#got + 1] = gen(#got) end
  end)
  print("wrap", round, #got, got[1], got[3], ok, e)
end

-- 8. errors with position information from compiled frames
local function bad(n)
  if n == 0 then local t = nil; return t.x end
  return bad(n - 1)
end
local co = coroutine.create(function() return bad(40) end)
print("pos", coroutine.resume(co))

-- 9. a hook set inside the coroutine while compiled frames are active
local calls = 0
local function counted(n) return n + 1 end
local function hooked(d)
  local v = yielder(d, "h")
  debug.sethook(function(ev) calls = calls + 1 end, "c")
  for i = 1, 5 do v = counted(v) end
  debug.sethook()
  return v
end
for round = 1, 3 do
  calls = 0
  local co = coroutine.wrap(hooked)
  print("hook", round, co(8))
  print("hook", round, co(100), calls > 0)
end

-- 10. yield across a metamethod called from compiled code
local mt = {__index = function(t, k) return coroutine.yield(k) end,
            __add = function(a, b) return coroutine.yield("add") end}
local function usemeta(d)
  local o = setmetatable({}, mt)
  local a = o.foo
  local b = o + 1
  return yielder(d, a) .. "/" .. tostring(b)
end
for round = 1, 3 do
  local co = coroutine.wrap(function() return usemeta(6) end)
  print("meta", round, co(), co("A"), co("B"), co(0))
end
