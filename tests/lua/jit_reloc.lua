-- jit_reloc.lua: compiled frames holding young objects in locals across
-- calls that allocate (and so collect, moving the young objects) -- the
-- collector must find and relocate whatever compiled code keeps in
-- registers or spill slots.  Run compiled under -j eager; under
-- MVM_GC_STRESS every allocation collects.  Every function here is
-- non-vararg (vararg functions stay interpreted).

local function mk(i) return {i = i, s = "k" .. i} end

-- tables, closures and strings live across allocating calls in a loop
local function hold(n)
  local sum, acc = 0, {}
  for i = 1, n do
    local t = {v = i}                   -- young table in a local
    local f = function(x) return x + t.v end   -- young closure over it
    local s = "s" .. i                  -- a string (never moves)
    local u = mk(i)                     -- allocates: t, f, u may move
    acc[#acc + 1] = mk(-i)              -- more allocation
    sum = sum + f(1) + t.v + u.i + #s + #u.s
    if t.v ~= i or f(0) ~= i or u.s ~= "k" .. i then error("corrupt at " .. i) end
  end
  return sum, #acc, acc[n].s
end
print("hold", hold(300))

-- fields read through __index (the generic GETFIELD path calls out) of
-- young objects, with allocation inside the metamethod
local Point = {}
Point.__index = function(p, k)
  local tmp = {k, p.x}                  -- allocation in the metamethod
  if k == "len2" then return p.x * p.x + p.y * p.y end
  return tmp[1]
end
local function newpoint(x, y) return setmetatable({x = x, y = y}, Point) end
local function points(n)
  local total, names = 0, {}
  for i = 1, n do
    local p = newpoint(i, i + 1)
    local q = newpoint(-i, 2)
    total = total + p.len2 + q.len2 + p.x + q.y
    names[#names + 1] = p.name .. q.other
  end
  return total, #names, names[1]
end
print("points", points(200))

-- a table fresh from the nursery (moved by the next minor) read through an
-- __index that allocates, then used again: the read's helper collects
-- while the compiled frame may hold the table
local Fresh = {__index = function(t, k) local a = {k} return #a end}
local function fresh(n)
  local s = 0
  for i = 1, n do
    local p = setmetatable({v = i}, Fresh)
    s = s + p.missing + p.v + rawget(p, "v")
    local c = function() return p.v end
    local q = setmetatable({w = c}, Fresh)
    s = s + q.absent + q.w() + c()
  end
  return s
end
print("fresh", fresh(300))

-- many live locals (more than registers) across nested calls
local function wide(n)
  local a, b, c, d, e = {1}, {2}, {3}, {4}, {5}
  local f, g, h, k, l = {6}, {7}, {8}, {9}, {10}
  local r = 0
  for i = 1, n do
    local junk = {i, {i}, "x" .. i}
    r = r + a[1] + b[1] + c[1] + d[1] + e[1] + f[1] + g[1] + h[1] + k[1] + l[1] + #junk
    a, b, c, d, e, f, g, h, k, l = l, a, b, c, d, e, f, g, h, k   -- rotate
  end
  return r, a[1], l[1]
end
print("wide", wide(200))

-- nested compiled calls, each level holding its own young table
local function nest(d)
  local here = {depth = d, name = "n" .. d}
  if d == 0 then
    local t = {}
    for i = 1, 50 do t[i] = {i} end
    return #t + here.depth
  end
  local below = nest(d - 1)
  local extra = {below}
  return below + here.depth + #here.name - #("n" .. d) + #extra - 1
end
print("nest", nest(60))

-- closures capturing loop locals (upvalues move too)
local function counters(n)
  local fs = {}
  for i = 1, n do
    local c = {n = i}
    fs[i] = function() c.n = c.n + 1; return c.n end
  end
  local s = 0
  for round = 1, 3 do
    for i = 1, n do s = s + fs[i]() end
    local garbage = {}
    for j = 1, 20 do garbage[j] = {j} end
  end
  return s
end
print("counters", counters(100))

-- string building (strings do not move, tables around them do)
local function strings(n)
  local parts = {}
  local t = {prefix = "p"}
  for i = 1, n do
    parts[#parts + 1] = t.prefix .. i .. string.rep("x", i % 5)
    t = {prefix = t.prefix}   -- a new young table every time
  end
  return #table.concat(parts), parts[n]
end
print("strings", strings(300))

-- floats and integers that look like pointers to nobody
local function numbers(n)
  local t = {}
  local x, y, z = 1.5, 2 ^ 40, -7
  for i = 1, n do
    t[i] = {x * i, y + i, z - i}
    x = x + 0.25
  end
  return x, y, z, t[n][1], t[n][2], t[n][3]
end
print("numbers", numbers(200))
