-- Self calls whose arguments are known to have the types the callee's
-- entry checks (llvmgen.c selfargsok/selfentry: such a call enters the
-- body without the entry guards; other self calls, and every other
-- caller, still go through them), and self-recursive bodies without an
-- entry poll (llvmjit.c noentrypoll).  Errors with line numbers and
-- tracebacks deep inside, stack overflow, coroutines yielding across the
-- calls, hooks and debug.setlocal, and arguments of changing types.

local function fib(k)
  if k < 2 then return k end
  return fib(k - 1) + fib(k - 2)
end
print("fib", fib(20), fib(2.0), fib(7.5))

-- one site with a checked argument (n - 1), one with a float (n / 2)
local function mix(n)
  if n < 1 then return 0 end
  return 1 + mix(n - 1) + mix(n / 2)
end
print("mix", mix(12), mix(9.0), mix(3.25))

-- two parameters, one of them never a number
local function rep(s, n)
  if n == 0 then return "" end
  return s .. rep(s, n - 1)
end
print("rep", rep("ab", 10), #rep("xyz", 200))

-- an argument that becomes a string deep inside: the entry guard catches it
local function deep(n, lim)
  if n >= lim then return type(n) end
  if n == 50 then return deep(tostring(n + 1) + 0, lim) end
  return deep(n + 1, lim)
end
print("deep", deep(1, 100), deep(1, 40))

-- errors at depth: line numbers and the traceback's compiled frames
local function boom(n)
  if n == 0 then error("bottom") end
  return boom(n - 1) + 1
end
print("error", pcall(boom, 30))
local function tb(n)
  if n == 0 then return debug.traceback("tb", 1) end
  local s = tb(n - 1)
  return s
end
local t = tb(5)
local lines = 0
for l in t:gmatch("jit_selfargs.lua:(%d+)") do lines = lines + 1 end
print("traceback", t:match("^tb\nstack traceback:\n%s*[^\n]*:(%d+):"), lines)
local function where(n)
  if n == 0 then return debug.getinfo(1, "l").currentline, debug.getinfo(2, "l").currentline end
  return where(n - 1)
end
print("getinfo", where(12))
local function arith(n)
  if n == 0 then return {} + 1 end
  return arith(n - 1)
end
print("arith", pcall(arith, 25))

-- runaway recursion: "stack overflow", then calls work again
local function runaway(n) return 1 + runaway(n + 1) end
local ok, msg = pcall(runaway, 1)
print("overflow", ok, (tostring(msg):match("stack overflow")))
print("after", fib(15))
local co = coroutine.create(function() return runaway(1) end)
ok, msg = coroutine.resume(co)
print("overflow in coroutine", ok, (tostring(msg):match("stack overflow")))

-- yields from deep inside the recursion
local function gen(n)
  if n == 0 then coroutine.yield("leaf") return 1 end
  local a = gen(n - 1)
  coroutine.yield(n)
  return a + gen(n - 1)
end
local co2 = coroutine.wrap(function() return "done", gen(4) end)
local out = {}
for _ = 1, 60 do
  local a, b = co2()
  out[#out + 1] = tostring(a)
  if a == "done" then out[#out + 1] = tostring(b) break end
end
print("yields", #out, out[1], out[2], out[#out - 1], out[#out])

-- a count hook turned on inside the recursion, then off
local hits = 0
local function hooked(n)
  if n == 10 then debug.sethook(function() hits = hits + 1 end, "", 1) end
  if n == 0 then debug.sethook() return 0 end
  return hooked(n - 1) + 1
end
print("hook", hooked(20), hits > 0)

-- debug.setlocal changes a parameter of a running frame from a hook
local function setl(n)
  if n == 3 then
    debug.sethook(function()
      local name = debug.getlocal(3, 1)
      if name == "n" then debug.setlocal(3, 1, 100) end
      debug.sethook()
    end, "r")
  end
  if n <= 0 or n >= 100 then return n end
  local r = setl(n - 1)
  return r + n
end
print("setlocal", pcall(setl, 6))

-- collections while references are live across checked self calls
local function tree(d)
  if d == 0 then return {v = 1} end
  local l = tree(d - 1)
  collectgarbage("step", 1)
  local r = tree(d - 1)
  return {l = l, r = r, v = l.v + r.v}
end
print("tree", tree(8).v)

-- the upvalue reassigned to another function during the recursion
local count
count = function(n)
  if n == 5 then
    local old = count
    count = function(m) return 1000 + m end
    local r = old(n - 1)
    count = old
    return r
  end
  if n == 0 then return 0 end
  return count(n - 1) + 1
end
print("reassigned", count(10), count(3))

-- integers beyond 2^47 as arguments (boxed differently)
local function big(n, k)
  if k == 0 then return n end
  return big(n + 1, k - 1)
end
print("big", big((1 << 47) - 3, 6), big(-(1 << 47) + 1, 4), big(math.maxinteger - 5, 3))

-- results of self calls typed by the analysis (llvmgen.c selftyped):
-- integers that outgrow the immediate range, a float-valued recursion,
-- and another callee's string result at a self-call site
local function dbl(n)
  if n < 1 then return 1 end
  return dbl(n - 1) * 2
end
print("dbl", dbl(10), dbl(46), dbl(47), dbl(50), dbl(62))
local function fsum(x)
  if x < 1 then return 0.5 end
  return fsum(x - 1) * 1.5 + fsum(x - 2)
end
print("fsum", fsum(12), fsum(3.5))
local tw
tw = function(n)
  if n == 0 then return 0 end
  if n == 4 then
    local old = tw
    tw = function(m) return tostring(m) end
    local r = old(n - 1)
    tw = old
    return r
  end
  return tw(n - 1) + 1
end
print("string result", tw(6), tw(9), math.type(tw(6)))
local function addf(n)
  if n == 0 then return 0 end
  if n == 7 then return addf(n - 1) + 0.25 end
  return addf(n - 1) + 1
end
print("float inside", addf(5), addf(12), math.type(addf(12)))
-- the upvalue assigned another function (returning a string) deep inside
-- a typed recursion: that call's result is tested, the addition coerces
local ctl = {}
local function tw3(n)
  if n == 0 then return 0 end
  if n == 4 then ctl.swap() end
  return tw3(n - 1) + 1
end
local orig = tw3
ctl.swap = function() tw3 = function(m) return tostring(m * 10) end end
print("swap", tw3(2), tw3(3))
print("swap", tw3(6), math.type(tw3(6)))
tw3 = orig
print("swap", tw3(7), math.type(tw3(7)))

-- a line hook turned on by a directly called callee: the caller's next
-- lines are reported (the trap test after the call stands for the hook test)
local hlines, armed = {}, false
local function inner()
  if armed then debug.sethook(function(_, l) hlines[#hlines + 1] = l end, "l") end
end
local function outer(x)
  local y = x + 1
  inner()
  local z = y * 2
  return z + x
end
local hs = 0
for i = 1, 50 do hs = hs + outer(i) end
armed = true
hs = hs + outer(3)
debug.sethook()
print("line hook after call", hs, table.concat(hlines, " "))
