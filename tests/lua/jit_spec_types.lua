-- Speculation on values loaded from tables (jit/llvmgen.c "Speculation"):
-- loads whose value is used as a number are guarded; a value of another
-- type leaves the compiled code right after the load, and the interpreter
-- must go on from there exactly.

-- a loop over a table whose values change type midway:
-- numbers, then strings (coerced), then tables with __add
local mt = { __add = function(a, b)
  local x = type(a) == "table" and a.v or a
  local y = type(b) == "table" and b.v or b
  return x + y
end }
local function sum(t, n)
  local s = 0
  for i = 1, n do
    s = s + t[i]
  end
  return s
end
local t = {}
for i = 1, 30 do t[i] = i end
print("ints", sum(t, 30))
for i = 1, 30 do t[i] = i + 0.5 end
print("floats", sum(t, 30))
for i = 1, 30 do t[i] = (i % 2 == 0) and i or i * 0.25 end
print("mixed", sum(t, 30))
for i = 11, 20 do t[i] = tostring(i) end
print("strings", sum(t, 30))
for i = 21, 30 do t[i] = setmetatable({ v = i }, mt) end
print("tables", sum(t, 20))
print("tables2", type(sum(t, 30)) == "number" and sum(t, 30))

-- fields of records: float arithmetic on loaded values, the record type
-- switches from floats to integers to strings
local function norm2(ps)
  local acc = 0
  for i = 1, #ps do
    local p = ps[i]
    local x, y = p.x, p.y
    acc = acc + x * x + y * y
  end
  return acc
end
local ps = {}
for i = 1, 40 do ps[i] = { x = i * 0.5, y = -i * 0.25 } end
print("norm float", norm2(ps))
for i = 1, 40 do ps[i] = { x = i, y = -i } end
print("norm int", norm2(ps))
ps[17] = { x = "3", y = "4.5" }
print("norm str", norm2(ps))
ps[23] = { x = 1 << 50, y = 1 }   -- an integer outside the immediate range
print("norm big", norm2(ps))
ps[29] = { x = 2^53, y = 0.5 }
print("norm big float", norm2(ps))

-- comparisons and for-loop bounds from tables
local function count(t, lo, hi)
  local n = 0
  for i = 1, #t do
    local v = t[i]
    if v >= lo and v < hi then n = n + 1 end
  end
  return n
end
local c = {}
for i = 1, 50 do c[i] = i % 7 end
print("count", count(c, 2, 5))
c[10] = 3.5; c[11] = 2.0; c[12] = -0.0
print("count float", count(c, 2, 5))
c[13] = "x"
print("count str", pcall(count, c, 2, 5))

local bounds = { lo = 1, hi = 10, step = 1 }
local function ranged(b)
  local s = 0
  for i = b.lo, b.hi, b.step do s = s + i end
  return s
end
print("ranged", ranged(bounds))
bounds.hi = 10.5
print("ranged float", ranged(bounds))
bounds.step = 0.5
print("ranged step", ranged(bounds))

-- nil holes: the error names the field, at the right line
local function addxs(list)
  local s = 0
  for i = 1, #list do
    s = s + list[i].x
  end
  return s
end
local list = {}
for i = 1, 20 do list[i] = { x = i } end
print("holes", addxs(list))
list[7] = {}
print("holes nil", pcall(addxs, list))
list[7] = { x = false }
print("holes bool", pcall(addxs, list))

-- upvalues and globals used as numbers
local scale = 2
G_OFFSET = 10
local function scaled(n)
  local s = 0
  for i = 1, n do s = s + i * scale + G_OFFSET end
  return s
end
print("upv", scaled(10))
scale = 2.5
print("upv float", scaled(10))
G_OFFSET = "1"
print("global str", scaled(10))
G_OFFSET = nil
print("global nil", pcall(scaled, 10))

-- integer and float switches in a loop-carried value
local function walk(t)
  local acc = 0
  for i = 1, #t do
    acc = acc * 2 + t[i]
    acc = acc % 1000003
  end
  return acc
end
local w = {}
for i = 1, 64 do w[i] = i end
print("walk int", walk(w))
w[32] = 0.5
print("walk float", walk(w))
w[33] = math.huge
print("walk inf", walk(w))
w[34] = 0/0
print("walk nan", walk(w) ~= walk(w))

-- parameters used as numbers (checked on entry when the interpreter's
-- feedback saw one kind): integers, then floats, strings, a table with
-- __add, nil (an error at the right line)
local function tri(i, j)
  local ij = i + j - 1
  return ij * (ij - 1) // 2 + i
end
local acc = 0
for i = 1, 60 do acc = acc + tri(i, i + 1) end
print("tri ints", acc)
print("tri float", tri(2.5, 3), tri(3, 0.5))
print("tri str", tri("4", 5), tri(4, "5"))
print("tri meta", pcall(tri, setmetatable({}, { __add = function() return 7 end }), 1))
print("tri nil", pcall(tri, nil, 1))
print("tri big", tri(1 << 47, 1), tri(-(1 << 47), 3))
for i = 1, 60 do acc = acc + tri(i * 0.5, 2) end
print("tri after", acc)
