-- coroutine.wrap functions called by OP_CALL and TFORCALL, which make
-- wrap's resume without its C frame (vm.c vm_wrapresume), and
-- coroutine.resume's argument checks (a tail call into api_coresume):
-- results, errors with positions, error objects, dead and running
-- coroutines, hooks, calls through pcall and other C functions
local wrap, yield = coroutine.wrap, coroutine.yield

-- results: none, one, several, fewer and more than wanted
local g = wrap(function(...)
  local a, b = yield()
  a, b = yield(a, b)
  yield(a + b, a - b, a * b)
  return "done"
end)
print(g(1, 2))
print(g(10, 3))
local x = g(7, 5); print(x)
local p, q, r, s = g(); print(p, q, r, s)
print(pcall(g))

-- a generator in a generic for, several values per step
local function pairsgen(t)
  return wrap(function() for k = 1, #t do yield(k, t[k], k * 2) end end)
end
for i, v, d in pairsgen({"a", "b", "c"}) do print(i, v, d) end

-- errors raised in the coroutine: the caller's position is added to
-- string messages (OP_CALL and TFORCALL), other objects pass unchanged
local function errgen(obj)
  return wrap(function() yield(1); error(obj) end)
end
local e1 = errgen("boom")
e1()
print(pcall(function() return e1() end))
print(pcall(function() for v in errgen("in for") do end end))
local tobj = {}
local e2 = errgen(tobj)
e2()
local ok, err = pcall(function() local v = e2() return v end)
print(ok, err == tobj)
print(pcall(function() for v in errgen(42) do end end))
print(pcall(function() for v in errgen(nil) do end end))
local e3 = wrap(function() local z = nil; return z.field end)
print(pcall(function() return e3() end))

-- dead coroutines
local d = wrap(function() return 1 end)
print(d())
print(pcall(function() return d() end))
print(pcall(function() for v in d do end end))

-- resuming the running coroutine through its own wrap function
local self
self = wrap(function() return pcall(self) end)
print(self())

-- an error after a pending to-be-closed variable: wrap_error closes it
local c = wrap(function()
  local v <close> = setmetatable({}, {__close = function(_, e) print("closed", e) end})
  yield("first")
  error("late")
end)
print(c())
print(pcall(function() return c() end))

-- the same functions through C (pcall, table.sort's comparator) and
-- under a hook (the general call path)
local n = wrap(function() for i = 1, 10 do yield(i) end end)
print(pcall(n), select("#", pcall(n)))
local cmp = wrap(function() while true do yield(true) yield(false) end end)
local t = {3, 1, 2}
table.sort(t, function(a, b) cmp() return a < b end)
print(table.concat(t, " "))
local calls = 0
debug.sethook(function() calls = calls + 1 end, "c")
local h = wrap(function() for i = 1, 3 do yield(i) end end)
local sum = 0
for v in h do sum = sum + v end
debug.sethook()
print(sum, calls > 0)
local he = wrap(function() error("hooked") end)
debug.sethook(function() end, "c")
print(pcall(function() return he() end))
debug.sethook()

-- coroutine.resume's argument errors and refusals
print(pcall(coroutine.resume))
print(pcall(coroutine.resume, 42))
print(pcall(coroutine.resume, {}))
local co = coroutine.create(function(a) local b = yield(a + 1) return b * 2 end)
print(coroutine.resume(co, 1))
print(coroutine.resume(co, 5))
print(coroutine.resume(co))
print(select("#", coroutine.resume(coroutine.create(function() end))))
print(coroutine.resume(coroutine.running()))

-- many values through the inline path
local big = wrap(function(...) yield(select("#", ...)) return table.unpack({...}, 1, 300) end)
print(big(table.unpack({}, 1, 250)))
print(select("#", big()))
