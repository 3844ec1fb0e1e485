-- Table reads in compiled loops whose slow paths are exits (llvmgen.c
-- tabspec): a GETFIELD/GETTABUP/GETI/GETTABLE that the inline probes
-- cannot finish leaves compiled code at that instruction and the
-- interpreter redoes it.  Each kind of miss happens mid-loop, after the
-- loop ran hot on the fast path: a table of another shape, a non-table
-- (the error names the variable and the line), a field removed (nil,
-- read through '__index' tables and functions added mid-loop), a
-- non-integer key at an integer-key site, and enough misses at one site
-- that the function is recompiled with its helpers.  Stores run in the
-- same loops (new keys, nil slots, '__newindex' added mid-loop).

-- the nbody shape: several fields of one table per iteration
local function advance(bodies, n)
  local e = 0
  for i = 1, n do
    local b = bodies[(i % #bodies) + 1]
    e = e + b.x * b.mass + b.y * b.mass + b.z * b.mass
    b.vx = b.vx + b.x
  end
  return e
end

local function body(x, y, z, m)
  return { x = x, y = y, z = z, vx = 0, vy = 0, vz = 0, mass = m }
end

local bodies = { body(1, 2, 3, 4), body(5, 6, 7, 8), body(0.5, 1.5, 2.5, 3.5) }
for _ = 1, 5 do print("hot", advance(bodies, 300)) end

-- 1. a table of another shape (other keys first, other sizes) mid-loop
local odd = { a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8, i = 9 }
odd.mass = 2; odd.z = 3; odd.y = 2; odd.x = 1; odd.vx = 0
bodies[2] = odd
print("shape", advance(bodies, 300), odd.vx)

-- 2. a field removed: nil with no metatable is an error in arithmetic,
-- with an '__index' table it is found there, with a function it is called
bodies[2] = body(5, 6, 7, 8)
bodies[3].mass = nil
print("nilfield", pcall(advance, bodies, 300))
setmetatable(bodies[3], { __index = { mass = 10 } })
print("index table", advance(bodies, 300))
setmetatable(bodies[3], { __index = function(t, k) return #k end })
print("index function", advance(bodies, 300))
-- '__index' added mid-loop, inside the loop's own body
local function addmeta(ts, n)
  local s = 0
  for i = 1, n do
    local t = ts[(i % #ts) + 1]
    s = s + t.w
    if i == n // 2 then
      for _, u in ipairs(ts) do
        u.w = nil
        setmetatable(u, { __index = function() return 1000 end })
      end
    end
  end
  return s
end
local ws = {}
for i = 1, 4 do ws[i] = { w = i } end
print("meta mid-loop", addmeta(ws, 400))

-- 3. a non-table mid-loop: the interpreter's message and line
bodies[3] = body(0.5, 1.5, 2.5, 3.5)
bodies[2] = 42
print("nontable", pcall(advance, bodies, 300))
bodies[2] = "str"
print("string", pcall(advance, bodies, 300))
bodies[2] = body(5, 6, 7, 8)
print("back", advance(bodies, 300))

-- 4. integer-key sites: array part, hash part, holes, a string key and
-- a non-table mid-loop
local function sumarr(t, keys, n)
  local s = 0
  for i = 1, n do
    local v = t[keys[(i % #keys) + 1]]
    if v then s = s + v end
    s = s + (t[1] or 0)
  end
  return s
end
local arr = {}
for i = 1, 50 do arr[i] = i end
local ks = {}
for i = 1, 60 do ks[i] = i end
print("arr", sumarr(arr, ks, 500))
ks[30] = "name"; arr.name = 1000
print("strkey", sumarr(arr, ks, 500))
ks[30] = 2.0
print("floatkey", sumarr(arr, ks, 500))
arr[-1] = 7; ks[31] = -1; ks[32] = 0
print("negkey", sumarr(arr, ks, 500))
setmetatable(arr, { __index = function(_, k) return type(k) == "number" and k * 2 or 0 end })
print("arr index", sumarr(arr, ks, 500))
print("arr nontable", pcall(sumarr, true, ks, 500))

-- 5. globals (GETTABUP) removed and read through a metatable on _ENV
gx = 5
local function readglobal(n)
  local s = 0
  for i = 1, n do
    s = s + (gx or 0)
    if i == n // 2 then gx = nil end
    if gx == nil then s = s + 1 end
  end
  return s
end
print("global", readglobal(300))
setmetatable(_G, { __index = function(_, k) return k == "gx" and 3 or nil end })
print("global index", readglobal(300))
setmetatable(_G, nil)

-- 6. one site seeing many shapes (more misses than a function may have
-- before it is compiled again with its helpers): results stay right
local function getx(ts, n)
  local s = 0
  for i = 1, n do
    local t = ts[(i % #ts) + 1]
    s = s + t.x
  end
  return s
end
local shapes = {}
for i = 1, 40 do
  local t = {}
  for j = 1, i do t["k" .. j] = j end
  if i % 3 == 0 then setmetatable(t, { __index = { x = i } })
  elseif i % 3 == 1 then setmetatable(t, { __index = function() return -i end })
  else t.x = i end
  shapes[i] = t
end
local tot = 0
for _ = 1, 150 do tot = tot + getx(shapes, 80) end
print("poly", tot, getx(shapes, 400))

-- 7. stores in the same loops: new keys, nil slots, '__newindex' mid-loop
local function stores(ts, n)
  local log = 0
  for i = 1, n do
    local t = ts[(i % #ts) + 1]
    t.cnt = (t.cnt or 0) + 1
    t.last = i
    if i % 7 == 0 then t.last = nil end
    t[i % 5 + 1] = i
  end
  for _, t in ipairs(ts) do log = log + (t.cnt or 0) + (t.last or 0) end
  return log
end
local st = {}
for i = 1, 5 do st[i] = {} end
print("stores", stores(st, 300))
local seen = 0
setmetatable(st[2], { __newindex = function(t, k, v) seen = seen + 1; rawset(t, k, v) end })
st[2].cnt = nil; st[2].last = nil
print("newindex", stores(st, 300), seen)

-- 8. garbage while the loops run (collections move the tables)
local function churn(n)
  local live = {}
  local s = 0
  for i = 1, n do
    live[i % 17 + 1] = { x = i, y = { i } }
    local t = live[(i * 7) % 17 + 1]
    if t then s = s + t.x + t.y[1] end
  end
  return s
end
for _ = 1, 3 do print("churn", churn(2000)) end

-- 9. the error of a compiled loop's read, after the loop ran hot again
bodies[2] = body(5, 6, 7, 8)
print("again", advance(bodies, 300))
bodies[1] = false
print("boolean", pcall(advance, bodies, 300))

-- 10. the main chunk's loop (an OSR region): a global and fields read
-- through '__index' functions set mid-loop, then a table of another shape
do
  local s = 0
  gy = 1
  local t = { a = 1, b = 2 }
  for i = 1, 20000 do
    s = s + gy + t.a + t.b
    if i == 10000 then
      gy = nil
      setmetatable(_G, { __index = function(_, k) return k == "gy" and 2 or nil end })
      t.a = nil
      setmetatable(t, { __index = function() return 10 end })
    end
    if i == 15000 then t = { b = 5, a = 7, c = 1 } end
  end
  setmetatable(_G, nil)
  print("region", s)
end
