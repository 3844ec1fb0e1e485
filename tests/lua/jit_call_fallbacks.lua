-- Calls from compiled code to other functions (llvmgen.c inlinecall,
-- directok, pushcall): the direct call, and every case it leaves to the
-- general path (mvmrt_precall) -- a callee given fewer arguments than
-- parameters, one not compiled yet, a C function, a callable table, a
-- frame that needs the stack grown, a recursion deep enough to leave the
-- window of direct calls, a hook set in a callee, an error and a yield
-- through callees -- with references passed in and out while the
-- collector runs.

local function add(a, b) return a + b end
local function opt(a, b, c) return (a or 0) + (b or 0) + (c or 0) end
local function pair(x) return { x, tostring(x) } end
local function big(n)   -- a frame of many registers: the stack may need to grow
  local a1, a2, a3, a4, a5, a6, a7, a8, a9, a10 = n, n, n, n, n, n, n, n, n, n
  local b1, b2, b3, b4, b5, b6, b7, b8, b9, b10 = n, n, n, n, n, n, n, n, n, n
  return a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10
       + b1 + b2 + b3 + b4 + b5 + b6 + b7 + b8 + b9 + b10
end
local callable = setmetatable({}, { __call = function(_, x) return x * 3 end })

local function driver(n)
  local s, t = 0, {}
  local f = add
  for i = 1, n do
    s = s + f(i, 1)                 -- a Lua callee
    s = s + opt(i)                  -- fewer arguments than parameters
    s = s + opt(i, 1, 2)
    local p = pair(i)               -- a reference returned
    t[#t + 1] = p[2]
    s = s + big(i)
    s = s + callable(i)             -- a table with __call
    s = s + math.max(i, 3)          -- a C function
    if i % 100 == 0 then collectgarbage("step") end
  end
  return s, #t, t[#t]
end
print("driver", driver(3000))

-- a callee called for the first time from compiled code (no code yet)
local late = {}
for k = 1, 5 do late[k] = load("return function(x) return x + " .. k .. " end")() end
local function uselate(n)
  local s = 0
  for i = 1, n do s = s + late[i % 5 + 1](i) end
  return s
end
print("late", uselate(4000))

-- deep recursion: past the window of direct calls and the stack's growth
local function depth(n) if n == 0 then return 0 end return 1 + depth(n - 1) end
local function deep(n) if n == 0 then return depth(50) end return deep(n - 1) + 0 end
for _ = 1, 3 do assert(deep(1000) == 50) end
local function count(n, acc) if n == 0 then return acc end local r = count(n - 1, acc + 1) return r end
print("deep", count(15000, 0), deep(5000))

-- an error raised in a callee of a direct call, caught around the caller
local function bad(x) if x == 7 then error("seven") end return x end
local function callsbad(n) local s = 0 for i = 1, n do s = s + bad(i % 10) end return s end
for _ = 1, 200 do pcall(callsbad, 5) end
print("error", pcall(callsbad, 20))

-- a yield from inside a chain of direct calls
local function leaf(x) coroutine.yield(x) return x * 2 end
local function mid(x) return leaf(x) + 1 end
local co = coroutine.wrap(function()
  local s = 0
  for i = 1, 2000 do s = s + mid(i) end
  return s
end)
local got, last = 0, nil
repeat last = co() got = got + 1 until got == 2001
print("yield", last)

-- a hook set by a callee: the callers go on with it on
local calls = 0
local function sethook() debug.sethook(function() calls = calls + 1 end, "c") end
local function hooked(n)
  local s = 0
  for i = 1, n do
    s = s + add(i, 2)
    if i == n // 2 then sethook() end
  end
  debug.sethook()
  return s
end
for _ = 1, 20 do hooked(50) end
print("hook", hooked(400), calls > 0)
