-- Field reads and writes with constant string keys in compiled code
-- (llvmgen.c getstrk, setslot): each site probes the node its hint names
-- and falls back to a walk, which moves the hint.  Whatever the hints
-- say, the results must be the interpreter's: objects of one "class" that
-- hold a key at its main position in some and in a collision chain in
-- others (other insertion orders, keys added after the constructor),
-- keys deleted and re-inserted (their node moves), tables rehashed while
-- the loop runs, nil fields, and '__index'/'__newindex' added mid-loop.
-- Which keys collide depends on the string hash seed: many keys and many
-- insertion orders make chains certain.

local keys = { "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l" }

-- objects with the same keys inserted in different orders (rotations)
local function make(rot, n)
  local o = {}
  for j = 1, n do
    local k = keys[((j + rot - 1) % n) + 1]
    o[k] = j * 10 + rot
  end
  return o
end

local objs = {}
for r = 0, 11 do objs[#objs + 1] = make(r, 12) end
for r = 0, 6 do objs[#objs + 1] = make(r, 7) end

-- every field read and written at its own site, objects alternating
local function step(objs, rounds)
  local s = 0
  for _ = 1, rounds do
    for i = 1, #objs do
      local o = objs[i]
      s = s + o.a + o.b + o.c + o.d + o.e + o.f + o.g
      o.a = o.a + 1; o.b = o.b + 2; o.c = o.c + 3; o.d = o.d + 1
      o.e = o.e - 1; o.f = o.f - 2; o.g = o.g + o.a
    end
  end
  return s
end

local function sumall(objs)
  local s = 0
  for i = 1, #objs do
    for _, k in ipairs(keys) do s = s + (objs[i][k] or 0) end
  end
  return s
end

for n = 1, 4 do print("alternating", n, step(objs, 40), sumall(objs)) end

-- reads of fields that are nil in some objects (keys 8..12 missing in
-- the 7-key objects), through the same sites
local function opt(objs)
  local s, nils = 0, 0
  for i = 1, #objs do
    local o = objs[i]
    local v = o.h
    if v == nil then nils = nils + 1 else s = s + v end
    v = o.l
    if v == nil then nils = nils + 1 else s = s + v end
  end
  return s, nils
end
for _ = 1, 3 do print("nil fields", opt(objs)) end

-- delete and re-insert keys: a key's node moves (a key first inserted
-- into a chain ends at its main position once the key there is gone)
local function churn(o, rounds)
  local s = 0
  for r = 1, rounds do
    o.x = r; o.y = r * 2; o.z = r * 3
    s = s + o.x + o.y + o.z
    if r % 3 == 0 then o.y = nil; o.x = nil end
    if r % 5 == 0 then o.z = nil end
    o.w = (o.w or 0) + 1
    s = s + o.w + (o.x or 100) + (o.y or 1000)
  end
  return s
end
print("churn", churn({}, 200), churn({ x = 1, q = 2, r = 3, s = 4 }, 200))

-- the loop's table grows (rehashes) while its fields are read and written
local function grow(rounds)
  local o = { x = 1, y = 2 }
  local s = 0
  for r = 1, rounds do
    o.x = o.x + 1
    o.y = o.y + o.x
    o["k" .. r] = r          -- a new key: rehashes from time to time
    s = s + o.x + o.y
    if r % 50 == 0 then      -- and shrinks: every extra key removed, rehash
      for j = 1, r do o["k" .. j] = nil end
      o.big = {}
      for j = 1, 20 do o["m" .. j] = j end
      for j = 1, 20 do o["m" .. j] = nil end
    end
  end
  return s, o.x, o.y
end
for _ = 1, 3 do print("grow", grow(300)) end

-- a nil field with '__newindex' and '__index' added mid-loop
local function meta(o, rounds)
  local log = {}
  local s = 0
  for r = 1, rounds do
    if r == 60 then
      setmetatable(o, {
        __newindex = function(t, k, v) log[#log + 1] = k .. "=" .. tostring(v); rawset(t, k, v) end,
        __index = function(t, k) return -1 end })
    end
    if r == 61 or r == 90 then o.n = nil; o.p = nil end
    o.p = r              -- through __newindex when p is nil
    s = s + o.p + o.n    -- o.n absent: __index after r 60
    if r == 30 then o.n = 5 end
  end
  return s, #log, log[1], log[#log]
end
print("meta", pcall(meta, { n = 0 }, 120))

-- globals (GETTABUP/SETTABUP) through the same paths, _ENV rehashed
G1, G2 = 1, 2
local function globals(rounds)
  local s = 0
  for r = 1, rounds do
    G1 = G1 + 1
    G2 = G2 + G1
    s = s + G1 + G2
    if r % 40 == 0 then _G["extra" .. r] = r end
  end
  return s
end
print("globals", globals(200), G1, G2)

-- garbage: many short-lived objects through the same sites
local function garbage(n)
  local s = 0
  for i = 1, n do
    local o = make(i % 12, 12)
    o.a = o.a + i
    s = s + o.a + o.l
  end
  return s
end
print("garbage", garbage(3000))
