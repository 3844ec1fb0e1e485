-- Numeric for loops whose registers live in SSA (raw integers) in compiled
-- code: limits from parameters and #t, negative steps, bounds near
-- math.maxinteger/mininteger, float/int mixes, closures capturing the
-- loop variable, exits in the body, calls that collect.

local function fill(t, n) for j = 1, n do t[j] = j end return t end
local function sum(t) local s = 0 for j = 1, #t do s = s + t[j] end return s end
local function down(n) local s = 0 for i = n, 1, -1 do for j = 1, 10 do s = s + i * j end end return s end
local function stepped(a, b, c) local k, last = 0, nil for i = a, b, c do k = k + 1; last = i end return k, last end

for rep = 1, 3 do
  local t = fill({}, 100)
  print(rep, #t, sum(t), down(20))
  print(stepped(1, 10, 3))
  print(stepped(10, 1, -3))
  print(stepped(1, 0, 1))
  print(stepped(5, 5, -1))
end

-- bounds: the interpreter's for-loop count semantics (Lua 5.4: no overflow)
local maxi, mini = math.maxinteger, math.mininteger
print(stepped(maxi - 2, maxi, 1))
print(stepped(mini + 2, mini, -1))
print(stepped(maxi - 10, maxi, 4))
print(stepped(mini, mini + 9, 3))
print(stepped(0, maxi, maxi))
print(stepped(mini, maxi, maxi))
print(stepped(maxi, mini, mini))
print(stepped(1, maxi, maxi // 3))
print(stepped(2^47 - 3, 2^47 + 2, 1))      -- float limits
print(stepped(140737488355325, 140737488355330, 1))   -- across 2^47
print(stepped(-140737488355326, -140737488355332, -1))
print(stepped(1, 3.5, 1))
print(stepped(1.0, 3, 1))
print(stepped(1, 3, 0.5))
print(stepped(3, 1.5, -1))
print(pcall(stepped, 1, 10, 0))
print(pcall(stepped, 1, "x", 1))
print(pcall(stepped, 1, "10", 1))

-- loop variable captured by a closure: each iteration a fresh variable
local function caps(n)
  local fs = {}
  for i = 1, n do fs[#fs + 1] = function() return i end end
  local s = 0
  for j = 1, #fs do s = s * 3 + fs[j]() end
  return s
end
for rep = 1, 3 do print(caps(7)) end

-- exits inside the loop body: a type change mid-loop (the interpreter
-- goes on at the right pc with the exact loop state)
local function mixed(t)
  local s = 0
  for i = 1, #t do s = s + t[i] * i end
  return s
end
for rep = 1, 3 do
  print(mixed({1, 2, 3, 4}), mixed({1, 2.5, 3, 4}), mixed({1, 2, 3, 2^53}))
end
local function breaks(n)
  local r = 0
  for i = 1, n do
    if i % 7 == 0 then r = r + 100 end
    if i > 20 then break end
    r = r + i
  end
  return r
end
for rep = 1, 3 do print(breaks(10), breaks(100)) end

-- calls in the body that collect; the loop state survives them
local function alloc(n)
  local keep = {}
  for i = 1, n do
    keep[i] = {i, tostring(i)}
    if i % 50 == 0 then collectgarbage() end
  end
  local s = 0
  for i = n, 1, -1 do s = s + keep[i][1] + #keep[i][2] end
  return s
end
for rep = 1, 3 do print(alloc(200)) end

-- nested loops over a 2-D table with limits from the rows
local function grid(n)
  local g = {}
  for i = 1, n do g[i] = {} for j = 1, i do g[i][j] = i * j end end
  local s = 0
  for i = #g, 1, -1 do local row = g[i] for j = 1, #row do s = s + row[j] end end
  return s
end
for rep = 1, 3 do print(grid(30)) end

-- debug.getlocal/setlocal of the loop state from a hook-free callee
local function peek()
  local names = {}
  for k = 1, 10 do
    local name, v = debug.getlocal(2, k)
    if not name then break end
    if type(v) == "number" then names[#names + 1] = name .. "=" .. v end
  end
  return table.concat(names, " ")
end
local function watched(n)
  local out
  for i = 1, n, 2 do if i == 5 then out = peek() end end
  return out
end
for rep = 1, 3 do print(watched(9)) end
local function tamper()
  -- the loop variable's copy: changing it does not change the iteration
  local name = debug.getlocal(2, 5)
  debug.setlocal(2, 5, 1000)
  return name
end
local function tampered(n)
  local seen = {}
  for i = 1, n do
    if i == 2 then tamper() end
    seen[#seen + 1] = i
  end
  return table.concat(seen, ",")
end
for rep = 1, 3 do print(tampered(4)) end
