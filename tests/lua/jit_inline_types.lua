-- Inlined leaf calls whose one result feeds arithmetic (jit/llvmgen.c
-- leafsite, leafresty): the caller's code assumes the result's type (the
-- callee's static result type, else the type feedback of its uses); the
-- real call's result is checked and anything else leaves compiled code
-- after the call.  Every case must give the interpreter's result.

local function half(x) return x * 0.5 end          -- always a float
local function inc(x) return x + 1 end             -- a number
local function getx(t) return t.x end             -- anything
local function pick(a, b) if a then return b end return 1.5 end

local function sumhalf(n, f)
  local s = 0
  for i = 1, n do s = s + half(i) * 2 end
  return s
end
print(sumhalf(100))

-- the callee replaced by functions returning other types
local h = half
local function useh(n)
  local s, r = 0, {}
  for i = 1, n do
    local ok, v = pcall(function() return h(i) + 1 end)
    r[#r + 1] = ok and tostring(v) or "err"
  end
  return table.concat(r, " ")
end
local function direct(n)
  local s = 0
  for i = 1, n do s = s + h(i) * 3 end
  return s
end
print(direct(10))
h = function(x) return x end            -- an integer
print(direct(10))
h = function(x) return x .. "" end      -- a string (coerced by the arithmetic)
print(direct(10))
h = function(x) return {} end           -- a table: the arithmetic fails
print(pcall(direct, 3))
h = half
print(direct(10), useh(3))

-- metamethods make the real call return anything
local mt = {__mul = function(a, b) return "m" end, __add = function(a, b) return 7 end,
            __concat = function(a, b) return "c" end}
local obj = setmetatable({}, mt)
local function usemeta(v)
  local r = {}
  for _ = 1, 3 do
    local ok, x = pcall(function() return half(v) .. "" end)
    r[#r + 1] = tostring(x)
    r[#r + 1] = tostring(inc(v))
  end
  return table.concat(r, " ")
end
print(usemeta(obj), usemeta(4), usemeta(2.5))

-- a result of any type: field reads
local function fields(ts)
  local s = 0
  for _, t in ipairs(ts) do s = s + getx(t) * 2 end
  return s
end
local floats = {}
for i = 1, 50 do floats[i] = {x = i + 0.25} end
print(fields(floats))
floats[25] = {x = 3}
print(fields(floats))
floats[30] = {x = "4"}
print(fields(floats))
floats[40] = setmetatable({}, {__index = function() return 1.5 end})
print(fields(floats))
floats[45] = {x = false}
print(pcall(fields, floats))

-- results that depend on the branch taken
local function branches(n)
  local s = 0
  for i = 1, n do s = s + pick(i % 3 ~= 0, i) end
  return s
end
print(branches(30))
local function mixedpick(n)
  local s = 0
  for i = 1, n do s = s + pick(i % 2 == 0, 2) * 0.5 end
  return s
end
print(mixedpick(31))

-- many failures in a loop: compiled code keeps leaving, then is
-- compiled again with less speculation; the sums stay right
local function flip(x) if x % 7 == 0 then return x .. "" end return x * 0.5 end
local function manyexits(n)
  local s = 0
  for i = 1, n do s = s + flip(i) end
  return s
end
for _ = 1, 5 do io.write(manyexits(2000), " ") end
print()

-- a hook set while the caller runs: the calls happen, the results are right
local calls = 0
local function counted(n)
  local s = 0
  for i = 1, n do
    if i == n // 2 then debug.sethook(function() calls = calls + 1 end, "c") end
    s = s + inc(i) * 2
  end
  debug.sethook()
  return s
end
print(counted(100), calls >= 49)
