-- New string keys stored by compiled code (jitrt.c mvmrt_strnew): a key
-- absent from a table whose main position for it is free goes there, when
-- no __newindex can apply; everything else takes the instruction's helper.
-- Each case runs in functions called often enough to be compiled, and
-- prints what lua5.4 prints.

local function keys(t)
  local r = {}
  for k, v in pairs(t) do r[#r + 1] = tostring(k) .. "=" .. tostring(v) end
  table.sort(r)   -- (string hashes are seeded per run: pairs' order varies)
  return table.concat(r, " ")
end

-- 1. constructors with fields (a presized hash part) and fields added after
local function point(x, y) return { x = x, y = y } end
local function grow(x)
  local t = { a = x }
  t.b = x + 1; t.c = x + 2; t.d = x + 3; t.e = x + 4   -- the hash part grows
  return t
end
local s = 0
for i = 1, 3000 do
  local p = point(i, -i)
  local g = grow(i)
  s = s + p.x + p.y + g.a + g.b + g.c + g.d + g.e
end
print(1, s, keys(point(1, 2)), keys(grow(10)))

-- 2. objects with a metatable without __newindex (the absence bit), then
-- the metatable gains __newindex: later new keys must call it
local C = {}
C.__index = C
local log = {}
local function new(v)
  local o = setmetatable({}, C)
  o.v = v; o.w = v * 2; o.tag = "c"
  return o
end
local t = 0
for i = 1, 3000 do local o = new(i) t = t + o.v + o.w end
print(2, t, keys(new(7)))
C.__newindex = function(o, k, v) log[#log + 1] = k; rawset(o, k, v) end
for i = 1, 3 do local o = new(i) t = t + o.v + o.w end
print(2, t, table.concat(log, ","))
C.__newindex = nil

-- 3. a __newindex table: the key goes there, not into the object
local store = {}
local D = { __newindex = store }
local function newd(v) local o = setmetatable({}, D) o.k = v return o end
for i = 1, 3000 do local o = newd(i) assert(rawget(o, "k") == nil) end
print(3, store.k)

-- 4. keys set to nil, then new again (dead keys in nodes); keys with a
-- nil value stored (no key appears)
local function churn(n)
  local o = { a = 1, b = 2, c = 3 }
  for i = 1, n do
    o.a = nil; o.b = nil
    o.a = i; o.x = nil; o.b = i + 1
  end
  return o
end
for i = 1, 2000 do churn(3) end
print(4, keys(churn(5)))

-- 5. in a loop (the read-only lookup, then the new key's store), and
-- colliding main positions (more keys than a constructor's size)
local function fill(n)
  local o = {}
  for i = 1, n do
    local r = { first = i }
    r.second = i * 2; r.third = i * 3; r.fourth = i * 4; r.fifth = i * 5
    o[i] = r
  end
  return o
end
local acc = 0
for k = 1, 30 do
  local o = fill(100)
  for i = 1, 100 do local r = o[i] acc = acc + r.first + r.second + r.third + r.fourth + r.fifth end
end
print(5, acc, keys(fill(1)[1]))

-- 6. collections between stores (tables move; the key's node is found
-- again after each), and a global table (SETTABUP)
local function many(n)
  local out = {}
  for i = 1, n do
    local o = { id = i }
    o.name = "n" .. i
    if i % 50 == 0 then collectgarbage() end
    o.half = i // 2
    out[#out + 1] = o
  end
  return out
end
local m = many(400)
print(6, #m, m[400].name, m[400].half, keys(m[3]))
NEWGLOBAL_A = 1
for i = 1, 2000 do _ENV["NEWGLOBAL_" .. (i % 3)] = i end
print(6, NEWGLOBAL_0, NEWGLOBAL_1, NEWGLOBAL_2)
