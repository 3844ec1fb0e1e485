-- Tail calls from compiled code (llvmgen.c leantailcall: the frame is
-- reused inline when the callee is a Lua closure; everything else takes
-- mvmrt_tailcall): proper tail calls at depth, callees with fewer, as many
-- and more arguments than parameters, vararg callees, C functions,
-- __call, non-callable values, closures over the caller's locals, errors
-- and tracebacks inside tail-called functions, hooks set by a tail callee,
-- and functions that change between compiled and interpreted callees.
local function count(n, acc)
  if n == 0 then return acc end
  return count(n - 1, acc + 1)
end
print("deep", count(300000, 0))

-- mutual recursion through tail calls
local even, odd
function even(n) if n == 0 then return true end return odd(n - 1) end
function odd(n) if n == 0 then return false end return even(n - 1) end
print("mutual", even(100001), odd(100001))

-- argument counts against parameter counts
local function p3(a, b, c) return tostring(a) .. tostring(b) .. tostring(c) end
local function t1(x) return p3(x) end                -- fewer: nils added (helper)
local function t3(x) return p3(x, x + 1, x + 2) end  -- as many
local function t5(x) return p3(x, 1, 2, 3, 4) end    -- more
local function va(...) return select("#", ...), ... end
local function tva(x) return va(x, nil, x) end        -- vararg callee
for i = 1, 3 do print("args", t1(i), t3(i), t5(i), tva(i)) end

-- C functions, __call, non-callables
local callable = setmetatable({}, { __call = function(self, a, b) return "called", a, b end })
local function tc(x) return math.max(x, 7) end
local function tcall(x) return callable(x, x * 2) end
local function tbad(f, x) return f(x) end
for i = 1, 3 do print("c", tc(i * 3), tcall(i)) end
print("bad", pcall(tbad, 42, 1))
print("bad nil", pcall(tbad, nil, 1))
print("select", (function(...) return select(2, ...) end)(1, 2, 3))

-- callers that close upvalues or are vararg (the helper path)
local function mkclos(x)
  local y = x * 10
  local f = function() return y end
  return f()
end
local function varcaller(...) return p3(...) end
for i = 1, 3 do print("closing", mkclos(i), varcaller(i, i)) end

-- the callee changes between calls at one site: compiled, interpreted,
-- C, a replaced global
function target(x) return "first " .. x end
local function site(x) return target(x) end
for i = 1, 3 do print("site", site(i)) end
target = function(x) return "second " .. x end
print("site", site(4))
target = string.upper
print("site", site("ab"))
target = nil
print("site", pcall(site, 1))

-- errors and tracebacks in a tail-called function
local function fails(x) error("failed " .. x) end
local function tf(x) return fails(x) end
for i = 1, 2 do print("error", pcall(tf, i)) end
local function tb() return debug.traceback("tb", 1) end
local function ttb() return tb() end
local tr = ttb()
print("traceback", (tr:gsub("\n[^\n]*%[C%][^\n]*", ""):gsub(":%d+:", ":N:")))

-- a tail callee that turns hooks on and off
local lines = 0
local function hooked(x)
  debug.sethook(function() lines = lines + 1 end, "l")
  local y = x + 1
  debug.sethook()
  return y
end
local function th(x) return hooked(x) end
for i = 1, 3 do print("hook", th(i), lines > 0) end

-- results: none, one, many, and the caller's expectations
local function none() end
local function many() return 1, 2, 3 end
local function tn() return none() end
local function tm() return many() end
for _ = 1, 2 do
  print("results", select("#", tn()), select("#", tm()), (tm()), tm())
  local a, b, c, d = tm()
  print("adjusted", a, b, c, d)
end

-- a long chain of different functions tail-calling each other in a loop
local fs = {}
for i = 1, 10 do
  fs[i] = function(n, acc)
    if n == 0 then return acc end
    return fs[(i % 10) + 1](n - 1, acc + i)
  end
end
print("chain", fs[1](100000, 0))

-- a tail call inside a coroutine, across a yield
local co = coroutine.wrap(function(n)
  local function step(k, acc)
    if k == 0 then return acc end
    if k % 1000 == 0 then coroutine.yield(k) end
    return step(k - 1, acc + k)
  end
  return step(n, 0)
end)
local last
for _ = 1, 6 do last = co(5000) end
print("coroutine", last)
