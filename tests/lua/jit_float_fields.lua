-- Float and field loops (docs/decisions/0014 "Session 7: float and field
-- loops").  A field loaded into a local that is used in arithmetic inside
-- an inner loop and stored back after it (nbody's `local bivx = bi.vx`) is
-- speculated to hold the kind of number the arithmetic saw, although the
-- path where the inner loop runs no time reaches only the store: whatever
-- the field holds (strings that coerce or not, tables, nil, integers,
-- floats, NaN), the results must be the interpreter's.  Also loops whose
-- tables gain keys, are rehashed, get metatables or are replaced while
-- fields are read after writes.

local function step(bodies, n, dt)
  for i = 1, n do
    local bi = bodies[i]
    local vx, vy, m = bi.vx, bi.vy, bi.m
    for j = i + 1, n do
      local bj = bodies[j]
      local dx = bi.x - bj.x
      local d = dx * dx + 0.5
      vx = vx - dx * bj.m / d
      vy = vy + dt * d
      bj.vx = bj.vx + dx * m / d
    end
    bi.vx, bi.vy = vx, vy
    bi.x = bi.x + dt * vx
  end
end

local function mk(n)
  local b = {}
  for i = 1, n do
    b[i] = { x = i * 1.5, vx = 0.25 * i, vy = -0.5, m = 1.0 + i / 8 }
  end
  return b
end

local function show(tag, b)
  local s = {}
  for i = 1, #b do
    local t = b[i]
    s[#s + 1] = string.format("%s/%s/%s", tostring(t.x), tostring(t.vx), tostring(t.vy))
  end
  print(tag, table.concat(s, " "))
end

-- warm: the compiled loop sees floats only
local b = mk(4)
for _ = 1, 300 do step(b, 4, 0.01) end
show("warm", b)

-- the last body's fields reach only the stores (its inner loop is empty):
-- any value goes through unchanged
for _, v in ipairs({ "str", 7, 2^53, {}, true }) do
  local c = mk(3)
  c[3].vy = v
  local ok, err = pcall(step, c, 3, 0.01)
  print("last", type(v), ok, ok and c[3].vy == v or err)
end
-- nil: the store of a nil field
do
  local c = mk(3)
  c[3].vy = nil
  local ok = pcall(step, c, 3, 0.01)
  print("nil last", ok, c[3].vy, c[3].vx)
end

-- the same values where the arithmetic does see them
for _, v in ipairs({ "2.5", "0x10", "abc", 3, -0.0 }) do
  local c = mk(3)
  c[1].vx = v
  local ok, err = pcall(step, c, 3, 0.01)
  if ok then show("first " .. tostring(v), c)
  else print("first", tostring(v), (string.gsub(err, "^.-:%d+: ", ""))) end
end

do
  local c = mk(3)
  c[1].vx = 0/0
  step(c, 3, 0.01)
  print("nan", c[1].vx ~= c[1].vx, c[1].x ~= c[1].x, c[2].vx, c[3].x)
end

-- integers all along (the feedback changes kind after the compile)
do
  local c = {}
  for i = 1, 4 do c[i] = { x = i, vx = i, vy = -i, m = 2 } end
  step(c, 4, 1)
  show("ints", c)
end

-- tables that change while the loop reads fields after writing them
local function churn(t, n, k)
  local s = 0.0
  for i = 1, n do
    t.a = t.a + 1.5
    s = s + t.a + t.b
    t.b = t.b * 0.5
    s = s + t.b
    if i == k then
      for j = 1, 20 do t["new" .. j] = j end   -- new keys: a rehash
    elseif i == k + 1 then
      t.b = nil                                -- a field removed...
      setmetatable(t, { __index = function(_, key) return key == "b" and 4.0 or nil end })
    elseif i == k + 2 then
      rawset(t, "b", 8.0)                      -- ...and back
      setmetatable(t, nil)
    end
  end
  return s, t.a, t.b
end
for _ = 1, 50 do churn({ a = 1.0, b = 2.0 }, 10, 100) end
print("churn", churn({ a = 1.0, b = 2.0 }, 10, 3))
print("churn", churn({ a = 1.0, b = 2.0 }, 10, 7))

-- __newindex on the stored field after it was removed
do
  local log = {}
  local t = { a = 1.0, b = 2.0 }
  for i = 1, 6 do
    t.a = t.a + t.b
    if i == 3 then
      t.a = nil
      setmetatable(t, { __index = function() return 10.0 end,
                        __newindex = function(tt, k, v) log[#log + 1] = k .. "=" .. v; rawset(tt, k, v) end })
    end
  end
  print("newindex", t.a, t.b, table.concat(log, ","))
end

-- the table itself replaced by a non-table mid-loop
do
  local t = { x = 1.0 }
  local ok, err = pcall(function()
    local s = 0.0
    for i = 1, 10 do
      s = s + t.x
      t.x = s
      if i == 5 then t = "oops" end
    end
    return s
  end)
  print("replaced", ok, (string.gsub(tostring(err), "^.-:%d+: ", "")))
end

-- allocation in the body: collections move the tables under the loop
do
  local bs = mk(5)
  local keep = {}
  for r = 1, 200 do
    step(bs, 5, 0.001)
    keep[r % 7 + 1] = { r, tostring(r) }
  end
  show("alloc", bs)
end

-- known tables (llvmgen.c tabknown): a register tested as a table by one
-- access is not tested again by the next ones, until something may
-- change it.  A '__newindex' function called by a store changes the
-- caller's table register with debug.setlocal: the next access must see
-- the number.
local function swap(t, n, k)
  local s = 0.0
  for i = 1, n do
    t.a = t.a + 1.0
    t.c = i              -- absent: '__newindex' every time
    s = s + t.b + t.a
  end
  return s
end
local function newt(k)
  local cnt = 0
  return setmetatable({ a = 0.5, b = 2.0 }, { __newindex = function(_, key, v)
    cnt = cnt + 1
    if cnt == k then debug.setlocal(2, 1, 42) end
  end })
end
for _ = 1, 30 do swap(newt(-1), 20) end
print("setlocal", pcall(swap, newt(-1), 20))
do
  local ok, err = pcall(swap, newt(7), 20)
  print("setlocal", ok, (string.gsub(tostring(err), "^.-:%d+: ", "")))
end
-- to another table: goes on with it
local function swap2(t, n)
  local s = 0.0
  for i = 1, n do
    t.a = t.a + 1.0
    t.c = i
    s = s + t.b + t.a
  end
  return s, t.a
end
do
  local other = { a = 100.0, b = -1.0 }
  local cnt = 0
  local t = setmetatable({ a = 0.5, b = 2.0 }, { __newindex = function()
    cnt = cnt + 1
    if cnt == 5 then debug.setlocal(2, 1, other) end
  end })
  print("setlocal table", swap2(t, 10))
end

-- stores and reads on values that are not tables (numbers with a
-- metatable: debug.setmetatable) once the loop was compiled for tables
local function put(o, n)
  local s = 0.0
  for i = 1, n do
    o.x = i * 0.5
    s = s + o.x
    o.y = s
  end
  return s
end
for _ = 1, 30 do put({ x = 0.0, y = 0.0 }, 20) end
do
  local store = {}
  debug.setmetatable(0, { __index = function(n, k) return store[k] end,
                          __newindex = function(n, k, v) store[k] = v end })
  print("number fields", put(7, 20), store.x, store.y)
  debug.setmetatable(0, nil)
  local ok, err = pcall(put, "str", 3)
  print("string fields", ok, (string.gsub(tostring(err), "^.-:%d+: ", "")))
end

-- a register that held a table gets something else between accesses
local function alias(t, u, n)
  local s = 0.0
  for i = 1, n do
    local v = t
    v.a = v.a + 1.0
    if i == n - 2 then v = u end
    s = s + v.a
  end
  return s
end
for _ = 1, 30 do alias({ a = 1.0 }, { a = 2.0 }, 10) end
print("alias", alias({ a = 1.0 }, { a = 5.0 }, 10))
print("alias", pcall(alias, { a = 1.0 }, setmetatable({}, { __index = function() return 0.25 end }), 10))
print("alias", select(2, pcall(alias, { a = 1.0 }, 3, 10)):gsub("^.-:%d+: ", ""))

-- the same in a loop without numbers (nothing else to read back after
-- the store's helper: the trap is tested for the known table alone)
local function walk(t)
  local last
  while t do
    t.seen = true
    last = t.name
    t = t.next
  end
  return last
end
local function chain(n, k)
  local cnt, head = 0, nil
  local mt = { __newindex = function(_, key, v)
    cnt = cnt + 1
    if cnt == k then debug.setlocal(2, 1, 42) end
  end }
  for i = n, 1, -1 do head = setmetatable({ name = "n" .. i, next = head }, mt) end
  return head
end
for _ = 1, 30 do walk(chain(10, -1)) end
print("walk", walk(chain(10, -1)))
print("walk", select(2, pcall(walk, chain(10, 4))):gsub("^.-:%d+: ", ""))

-- a store into the field just read (t.k = t.k + x: the read's node is
-- stored into, llvmgen.c samefields): the field inherited through
-- '__index' is created in the object, never written in the prototype;
-- fields set to nil and back, metamethod names, keys in collision chains
local function bump(o, n)
  for i = 1, n do
    o.x = o.x + 0.5
    o.__index = o.__index
    o.y = o.y and nil or i * 1.0
  end
  return o.x, o.y
end
for _ = 1, 30 do bump({ x = 0.0, y = 1.0 }, 10) end
do
  local P = { x = 1.0, y = 2.0 }
  local o = setmetatable({}, { __index = P })
  print("inherited", bump(o, 5))
  print("prototype", P.x, P.y, rawget(o, "x"), rawget(o, "y"))
  local seen = {}
  local q = setmetatable({ x = 1.0, y = false }, { __newindex = function(t, k, v) seen[#seen + 1] = k; rawset(t, k, v) end })
  print("newindex", bump(q, 4), table.concat(seen, ","))
end
do   -- many keys: some in chains, read and written in one loop
  local t = {}
  for i = 1, 40 do t["k" .. i] = i * 1.0 end
  local function sweep(t, n)
    for _ = 1, n do
      t.k1 = t.k1 + t.k17
      t.k17 = t.k17 * 0.5
      t.k33 = t.k33 - t.k1
    end
    return t.k1, t.k17, t.k33
  end
  for _ = 1, 20 do sweep(t, 3) end
  print("chains", sweep(t, 3))
end
