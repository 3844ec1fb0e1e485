-- Lean tail calls jump to the callee's compiled code (musttail, the
-- caller's anchor passed on): no C stack growth, errors, tracebacks,
-- hooks and yields as in the interpreter.
local b
local function a(n, acc) if n == 0 then return acc end return b(n - 1, acc + 1) end
b = function(n, acc) if n == 0 then return acc end return a(n - 1, acc + 2) end
local function run(n) local r = a(n, 0) return r end
print(run(3000000))
print(run(5))
local Obj = {}
Obj.__index = Obj
function Obj:step(n) if n == 0 then return self.v end return self:other(n - 1) end
function Obj:other(n) self.v = self.v + 1 return self:step(n) end
local o = setmetatable({v = 0}, Obj)
local function drive(k) return o:step(k) + 0 end
print(drive(2000000))
-- errors and traceback after tail jumps
local function e3() error("deep") end
local function e2() return e3() end
local function e1() return e2() end
for i = 1, 3 do print(pcall(function() local x = e1() return x end)) end
local function t3() return debug.traceback("tb") end
local function t2() return t3() end
local function t1() local s = t2() return s end
for i = 1, 2 do print((t1():gsub("0x%x+", "?"))) end
-- a hook set inside a tail-called function
local cnt = 0
local function h3() debug.sethook(function() cnt = cnt + 1 end, "l") return 1 end
local function h2() return h3() end
local function h1() local r = h2() local z = r + 1 return z end
print(h1(), h1()); debug.sethook(); print(cnt > 0)
-- coroutine yield in a tail-called function
local function y2(x) coroutine.yield(x) return x * 2 end
local function y1(x) return y2(x + 1) end
for i = 1, 3 do local co = coroutine.wrap(function(v) local r = y1(v) return r end); print(co(i), co()) end
