-- Metamethod sites in compiled code (jit/llvmgen.c mmsites) under a count
-- hook, with errors raised inside the metamethod and caught around the
-- compiled caller, and with a metamethod that runs a full collection
-- while a to-be-closed variable of the compiled loop is open.
local V = {}
V.__index = V
local function vec(x) return setmetatable({x = x}, V) end
V.__add = function(a, b) return vec(a.x + (type(b) == "table" and b.x or b)) end
V.__lt = function(a, b) return a.x < b.x end
local function step(p, q, n)
  local s = p
  for i = 1, n do s = s + q; if s < p then error("never") end end
  return s.x
end
for _ = 1, 200 do step(vec(0), vec(1), 50) end
-- a count hook while compiled code calls metamethods
local count = 0
debug.sethook(function() count = count + 1 end, "", 100)
local r = step(vec(0), vec(2), 1000)
debug.sethook()
print("hook", r, count > 0)
-- errors raised inside a metamethod, caught by pcall around compiled code
V.__sub = function(a, b) if b == 13 then error("thirteen") end return vec(a.x - b) end
local function sub(p, k) local t = p - k; return t.x end
for i = 1, 300 do sub(vec(i), 1) end
print(pcall(sub, vec(1), 13))
print(select(2, pcall(sub, vec(1), {})))
-- a metamethod that runs the collector and closes a to-be-closed variable
V.__mul = function(a, b) collectgarbage(); return vec(a.x * b) end
local function mulc(p, n)
  local acc = 0
  for i = 1, n do
    local t <close> = setmetatable({}, {__close = function() acc = acc + 1 end})
    p = p * 1
  end
  return acc, p.x
end
for _ = 1, 30 do mulc(vec(2), 20) end
print("close", mulc(vec(3), 50))
