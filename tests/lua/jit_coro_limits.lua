-- jit_coro_limits.lua: depth limits with compiled code inside coroutines.
-- Direct calls count in their own bits of nCcalls (jit/jitrt.c RT_DIRECT):
-- past RT_MAXNEST levels calls go through the interpreter, so recursion
-- depth, "stack overflow" and "C stack overflow" behave as interpreted,
-- and a coroutine stays yieldable inside direct calls.

local function rec(n) if n == 0 then return 0 end return 1 + rec(n - 1) end
local function inf(n) return 1 + inf(n + 1) end

-- deep recursion inside a coroutine, then a yield from the bottom
local function recy(n) if n == 0 then return coroutine.yield("bottom") end return 1 + recy(n - 1) end
for _, d in ipairs({100, 1000, 10000}) do
  local co = coroutine.wrap(function() return rec(d), recy(d) end)
  print("deep", d, co())
  print("deep", d, co(5))
end

-- stack overflow inside a coroutine: an error, the coroutine dies
for round = 1, 2 do
  local co = coroutine.create(function() return inf(1) end)
  local ok, e = coroutine.resume(co)
  print("overflow", round, ok, (string.find(e, "stack overflow", 1, true)) ~= nil,
        coroutine.status(co))
end
-- caught by a pcall inside the coroutine, which goes on and yields
for round = 1, 2 do
  local co = coroutine.wrap(function()
    local ok, e = pcall(inf, 1)
    coroutine.yield(ok, (string.find(e, "stack overflow", 1, true)) ~= nil)
    return rec(50)
  end)
  print("caught", round, co())
  print("caught", round, co())
end

-- nested resumes from compiled code: each level resumes the next from a
-- recursion; deep enough, "C stack overflow" (as interpreted)
local function nest(n)
  if n == 0 then return coroutine.yield(rec(10)) end
  local co = coroutine.wrap(function() return nest(n - 1) end)
  local v = co()
  return v + 1
end
for _, n in ipairs({10, 50, 150}) do
  local co = coroutine.wrap(function() return nest(n) end)
  print("nest", n, pcall(co))
end
local ok, e = pcall(coroutine.wrap(function() return nest(300) end))
print("nest", 300, ok, (string.find(tostring(e), "C stack overflow", 1, true)) ~= nil)

-- yieldable inside a chain of calls, non-yieldable inside a C call
local function chain(n) if n == 0 then return coroutine.isyieldable() end return chain(n - 1) end
local co = coroutine.wrap(function()
  local a = chain(20)
  local b
  table.sort({3, 2, 1}, function(x, y) b = chain(20); return x < y end)
  local ok, e = pcall(table.sort, {3, 2, 1}, function(x, y) coroutine.yield() return x < y end)
  return a, b, ok, e
end)
print("yieldable", co())
print("main", coroutine.isyieldable(), chain(20))
