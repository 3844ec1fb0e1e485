-- Inlined leaf calls as fast paths before the call's flush (llvmgen.c
-- fastleaf) in loops that keep their state in loop homes because such
-- calls no longer count as calls (static_calls): every way the fast path
-- can fail in the middle of a loop (the callee replaced by functions that
-- read and write the caller's locals, hooks, argument and result types,
-- errors, collections, yields) must go on exactly as the interpreter.

local f = function(i, j) local ij = i + j - 1; return 1.0 / (ij * (ij - 1) * 0.5 + i) end
local leaf = f
local add = function(a, b) return a + b end

local function dot(x, n, k)
  local a = 0
  for j = 1, n do a = a + x[j] * f(k, j) end
  return a
end

local function sum(n, k)
  local s = 0
  for j = 1, n do s = s + add(j, k) end
  return s
end

local x = {}
for i = 1, 40 do x[i] = i % 3 == 0 and i or i + 0.5 end
local function show(v) return math.type(v) == "float" and string.format("%.10g", v) or tostring(v) end

for r = 1, 30 do
  local v = dot(x, 40, r)
  if r % 10 == 0 then print("dot", r, show(v), show(sum(40, r))) end
end

-- the callee replaced in the middle of the loop by a function that reads
-- the caller's locals (the loop's index, its hidden state, the sum)
local function getl(level, name)
  for k = 1, 50 do
    local n, v = debug.getlocal(level, k)
    if n == nil then return nil end
    if n == name then return v end
  end
end
local seen = {}
f = function(i, j)
  if j == 17 then
    f = leaf
    seen[#seen + 1] = tostring(getl(3, "j")) .. ":" .. show(getl(3, "a"))
  end
  return leaf(i, j)
end
print("replaced", show(dot(x, 40, 3)), seen[1])
seen = {}
add = function(a, b)
  if a == 20 then seen[#seen + 1] = tostring(getl(3, "j")) .. ":" .. show(getl(3, "s")) end
  return a + b
end
print("sum replaced", show(sum(40, 2)), seen[1])
add = function(a, b) return a + b end
for _ = 1, 20 do sum(40, 1) end

-- debug.setlocal from the replacement: the sum and the loop variable's copy
f = function(i, j)
  if j == 10 then
    for k = 1, 50 do
      local n = debug.getlocal(2, k)
      if n == "a" then debug.setlocal(2, k, 1000) end
      if n == "j" then debug.setlocal(2, k, 35) end
    end
    f = leaf
  end
  return leaf(i, j)
end
print("setlocal", show(dot(x, 40, 5)))

-- arguments and results of other types from the middle of the loop on
local y = {}
for i = 1, 40 do y[i] = i end
y[25] = "7"
print("string elem", show(dot(y, 40, 2)))
f = function(i, j) if j > 30 then return 2 end return leaf(i, j) end
print("int result", show(dot(x, 40, 2)))
f = function(i, j) if j == 33 then return "3" end return leaf(i, j) end
print("string result", show(dot(x, 40, 2)))
f = leaf
print("float k", show(dot(x, 40, 2.5)))
print("huge k", show(dot(x, 40, 1 << 46)), show(sum(40, (1 << 47) - 20)))
print("error", pcall(dot, x, 40, nil))
local mt = setmetatable({}, {__add = function(a, b) return 5 end, __sub = function() return 9 end})
print("mt arg", pcall(dot, x, 40, mt))

-- a count hook set in the middle of the loop; a collection in the callee
local hooks = 0
f = function(i, j)
  if j == 12 then debug.sethook(function() hooks = hooks + 1 end, "", 7) end
  if j == 30 then debug.sethook() end
  return leaf(i, j)
end
print("hook", show(dot(x, 40, 4)), hooks > 0)
f = function(i, j)
  if j % 9 == 0 then collectgarbage() end
  return leaf(i, j)
end
print("gc", show(dot(x, 40, 6)))

-- yields from the callee in the middle of the loop
f = function(i, j)
  if j % 13 == 0 then coroutine.yield(j) end
  return leaf(i, j)
end
local co = coroutine.wrap(function() return "done", show(dot(x, 40, 7)) end)
print("yield", co(), co(), co(), co())
f = leaf
for r = 1, 10 do dot(x, 40, r) end
print("again", show(dot(x, 40, 9)), show(sum(40, 9)))

-- nested loops with the outer index as an argument, the inner one's
-- bounds from a call's result
local function mat(n)
  local t = 0
  for i = 1, n do
    for j = 1, add(n, 0) do t = t + leaf(i, j) * add(i, j) end
  end
  return t
end
for _ = 1, 5 do mat(12) end
print("mat", show(mat(12)))
