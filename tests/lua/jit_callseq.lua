-- Calls of compiled code by compiled code (-j eager compiles each function
-- at its first call): the self-call path (a `local function` calling
-- itself through its upvalue: the callee is compared with the running
-- closure), the nesting-depth mask of the inline test, and the callee's
-- anchoring of its caller.

-- self recursion with exact and extra arguments; fewer arguments than
-- parameters (nils to add) take the general path
local function fib(k) if k < 2 then return k end return fib(k - 1) + fib(k - 2) end
print("fib", fib(20), fib(1), fib(0))
local function sum3(n, acc, extra)
  if n == 0 then return acc, extra end
  return (sum3(n - 1, acc + n))
end
print("fewer", sum3(10, 0, "x"))
local function more(n) if n == 0 then return 0 end return 1 + more(n - 1, "ignored", n) end
print("more", more(50))
local function floats(x) if x < 1 then return x end return floats(x / 2) + 0.5 end
print("floats", floats(100.0), floats(3))

-- the upvalue is reassigned: the call is not recursive any more
local function rec(n) if n == 0 then return "base" end local r = rec(n - 1) return r end
local orig = rec
print("rec", orig(5))
rec = function(n) return "replaced " .. n end
print("rec2", orig(5))
rec = setmetatable({}, { __call = function(_, n) return "callable " .. tostring(n) end })
print("rec3", orig(3))
rec = print
print("rec5", orig(1))
rec = orig
print("rec4", orig(3))

-- two closures of one proto: each recurses into itself
local function mk(tag)
  local function walk(n) if n == 0 then return tag end return walk(n - 1) end
  return walk
end
local w1, w2 = mk("a"), mk("b")
print("closures", w1(10), w2(10), w1(0))

-- recursion through a plain upvalue, a global, a dumped-and-loaded chunk
local up
up = function(n) if n == 0 then return 0 end return 2 + up(n - 1) end
print("upvalue", up(30))
function gfact(n) if n <= 1 then return 1 end return n * gfact(n - 1) end
print("global", gfact(20))
local dumped = load(string.dump(function(n)
  local function f(k) if k == 0 then return 0 end return 1 + f(k - 1) end
  return f(n)
end))
print("dumped", dumped(40))

-- vararg self recursion
local function vcount(n, ...)
  if n == 0 then return select('#', ...), ... end
  return vcount(n - 1, n, ...)
end
print("vararg", vcount(10))

-- depths around the mask's bound (128 direct calls) and the exact limit,
-- also below C levels (pcall)
local function deep(n) if n == 0 then return 0 end return 1 + deep(n - 1) end
local ds = {}
for _, n in ipairs({ 100, 127, 128, 129, 150, 159, 160, 161, 200, 1000, 10000 }) do ds[#ds + 1] = deep(n) end
print("deep", table.concat(ds, " "))
local function nestpcall(k, n)
  if k == 0 then return deep(n) end
  return select(2, pcall(nestpcall, k - 1, n))
end
print("pcall levels", nestpcall(5, 300), nestpcall(20, 300), nestpcall(40, 50))
local function nestsort(k, n)
  local r
  table.sort({ 2, 1 }, function(a, b)
    if r == nil then r = k == 0 and deep(n) or nestsort(k - 1, n) end
    return a < b
  end)
  return r
end
print("sort levels", nestsort(3, 200), nestsort(12, 100))

-- runaway self recursion: "stack overflow", then the program goes on
local function runaway(n) return 1 + runaway(n + 1) end
local ok, err = pcall(runaway, 1)
print("overflow", ok, string.find(tostring(err), "stack overflow", 1, true) ~= nil)
print("after", deep(500), fib(15))
local co = coroutine.create(function() return runaway(1) end)
ok, err = coroutine.resume(co)
print("co overflow", ok, string.find(tostring(err), "stack overflow", 1, true) ~= nil)
print("after co", deep(300))

-- hooks turned on inside a self-recursive callee: call, line and count
-- events, then off again at the bottom
local events = {}
local function hooked(n, on)
  if n == on then
    debug.sethook(function(ev) events[ev] = (events[ev] or 0) + 1 end, "cl", 3)
  end
  if n == 0 then debug.sethook() return 0 end
  return 1 + hooked(n - 1, on)
end
print("hooked", hooked(20, 10), events.call, events.line ~= nil, events.count ~= nil, debug.gethook())
local rets = 0
local function hookret(n)
  if n == 3 then debug.sethook(function() rets = rets + 1 end, "r") end
  if n == 0 then return 0 end
  local r = hookret(n - 1) + 1
  if n == 6 then debug.sethook() end
  return r
end
print("hookret", hookret(8), rets)

-- coroutines yielding from a self-recursive direct callee
local function gen(n)
  if n == 0 then return end
  coroutine.yield(n)
  gen(n - 1)
  coroutine.yield(-n)
end
local out = {}
for v in coroutine.wrap(function() gen(5) end) do out[#out + 1] = v end
print("yield", table.concat(out, ","))
local function inorder(t)
  if t == nil then return end
  inorder(t[1]); coroutine.yield(t[2]); inorder(t[3])
end
local tree = { { nil, 1, { nil, 2 } }, 3, { { nil, 4 }, 5, { nil, 6, { nil, 7 } } } }
out = {}
for v in coroutine.wrap(function() inorder(tree) end) do out[#out + 1] = v end
print("inorder", table.concat(out, ","))

-- self tail calls, and a tail call out of a self-recursive function
local function loop(n, acc) if n == 0 then return acc end return loop(n - 1, acc + n) end
print("tail", loop(100000, 0))
local function other(x) return "other " .. x end
local function mixed(n) if n == 0 then return other(n) end local r = mixed(n - 1) return r .. "." end
print("mixed", mixed(5))

-- allocation and collection inside the recursion, references held in
-- the callers' frames
local function build(d) if d == 0 then return {} end return { build(d - 1), build(d - 1), tostring(d) } end
local function count(t) if t[1] == nil then return 1 end return 1 + count(t[1]) + count(t[2]) end
local function churn(n) if n == 0 then collectgarbage() return {} end local keep = { n } local r = churn(n - 1) return { keep, r } end
print("trees", count(build(6)), #churn(50))

-- errors from inside the recursion: message, traceback depth, recovery
local function fail(n) if n == 0 then error("bottom") end return fail(n - 1) + 1 end
ok, err = pcall(fail, 20)
print("error", ok, err)
local levels = select(2, xpcall(fail, function(m)
  local n = 0
  for _ in string.gmatch(debug.traceback(m), "in upvalue 'fail'") do n = n + 1 end
  return n
end, 5))
print("traceback", levels)
print("end", fib(10))
