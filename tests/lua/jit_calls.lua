-- Calls and returns made by compiled code (-j eager compiles every
-- function at its first call): the direct call path, the inline return
-- (results adjusted to what the caller wants), interpreted callees run
-- from compiled code, recursion limits, hooks, errors, coroutines.

-- results: every count returned x every count wanted
local function r0() return end
local function r1() return 1 end
local function r2() return 1, 2 end
local function r3() return 1, 2, 3 end
local fs = { [0] = r0, r1, r2, r3 }

local function want(f)
  local a = f()
  local b, c = f()
  local d, e, g, h = f()
  f()
  local t = { f() }
  local u = { f(), f() }
  return a, b, c, d, e, g, h, #t, #u, select('#', f())
end
for n = 0, 3 do
  for _ = 1, 3 do   -- repeated: the same call sites with other counts
    print("ret", n, want(fs[n]))
  end
end

-- a callee that returns from a loop and from several exits
local function pick(x)
  if x < 0 then return "neg", x end
  for i = 1, 10 do
    if i == x then return "found", i, i * 2 end
  end
  return "none"
end
for _, x in ipairs({ -1, 3, 20 }) do
  local a, b, c, d = pick(x)
  print("pick", x, a, b, c, d)
end

-- an interpreted callee (a to-be-closed variable keeps it out of the
-- compiler) between compiled frames, both ways, deep
local function interp(n, f)
  local c <close> = nil
  if n == 0 then return 0 end
  return f(n - 1) + 1
end
local function comp(n)
  if n == 0 then return 0 end
  return interp(n - 1, comp) + 1
end
print("mixed", comp(10), comp(1001), comp(30001))

-- runaway recursion: "stack overflow", through compiled and interpreted
local function runaway(n) return 1 + runaway(n + 1) end
local ok, err = pcall(runaway, 1)
print("runaway", ok, string.find(tostring(err), "stack overflow", 1, true) ~= nil)
local function runaway2(n) return 1 + interp(1, runaway2) end
ok, err = pcall(runaway2, 1)
print("runaway2", ok, string.find(tostring(err), "stack overflow", 1, true) ~= nil)
-- and recovery: calls still work afterwards
print("after", comp(50), want(r2))

-- errors raised in callees carry the callee's line
local function thrower(x)
  if x > 2 then error("boom " .. x) end
  return x
end
local function caller(x)
  local s = 0
  for i = 1, x do s = s + thrower(i) end
  return s
end
print("err", pcall(caller, 2))
print("err", pcall(caller, 5))
print("errobj", select(2, pcall(function() return thrower(3) end)))

-- hooks turned on by a callee: the rest of the caller reports its events
local events = {}
local function sethook()
  debug.sethook(function(ev) events[#events + 1] = ev end, "r")
  return 7
end
local function hooked()
  local a = sethook()
  local b = r1()
  debug.sethook()
  return a + b
end
print("hooked", hooked(), #events > 0)
for _, e in ipairs(events) do assert(e == "return" or e == "tail return") end

-- coroutines: compiled calls inside a yieldable thread, yields across them
local function gen(n)
  for i = 1, n do
    local v = r3()
    coroutine.yield(i + v)
  end
  return "end"
end
local function wrapgen(n) return gen(n) end
local co = coroutine.wrap(wrapgen)
local out = {}
for _ = 1, 4 do out[#out + 1] = tostring(co(3)) end
print("co", table.concat(out, " "))

-- a coroutine resumed inside a compiled call chain of the main thread
local function inner(x)
  return coroutine.wrap(function(y) coroutine.yield(y + 1); return y end)(x)
end
local function outer(x) return inner(x) + comp(5) end
print("co2", outer(10), outer(20))

-- tail calls from compiled code between compiled functions
local function tc(n, acc) if n == 0 then return acc end return tc(n - 1, acc + 1) end
local function viatail(n) return tc(n, 0) end
print("tail", viatail(100000))

-- methods and varargs
local obj = { v = 5 }
function obj:get(a, ...) return self.v + a + select('#', ...) end
local function callm(o) return o:get(1), o:get(1, 2, 3) end
print("method", callm(obj))
local function va(...) return ... end
local function callva() return va(1, 2), va(), (va(4, 5)) end
print("vararg", callva())

-- open results (C == 0 calls) consumed by compiled code: constructors,
-- calls with open arguments, returns of open results, tail calls
local function both(x) return x, x + 1 end
local function cons(x) return { r1(), both(x) } end
local function args(x) return select('#', both(x)), math.max(both(x)) end
local function retopen(x) local y = x * 2; return y, both(y) end
local function tailopen(x) return math.max(both(x)) end
local function nest(x) return select('#', r0(), both(r3())) end
for _ = 1, 3 do
  local t = cons(5)
  print("open", #t, t[1], t[2], t[3], args(7), retopen(3))
  print("open2", tailopen(9), nest(1), select('#', retopen(1)), #{ both(r3()) })
end
