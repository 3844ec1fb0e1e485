-- table_recordfields.lua -- new string fields stored into records whose
-- part has room: at the key's main position, or, when another key holds
-- it (whether two names collide depends on the run's hash seed, so many
-- sets of names are tried), at a free node of the part (vm.c setnewfield,
-- table.c tab_newstrslow); the part full, a rehash.  Every record is read
-- back by field, by next and by counting.

local pool = {}
for i = 1, 40 do pool[i] = "f" .. i end
local seed = 7
local function rnd(m) seed = seed * 16807 % 2147483647; return seed % m + 1 end

local function count(t) local n = 0; for _ in pairs(t) do n = n + 1 end; return n end

-- 1. constructors with 2-7 names (presized parts), then new fields after
local bad, total = 0, 0
for _ = 1, 3000 do
  local a, b, c = pool[rnd(40)], pool[rnd(40)], pool[rnd(40)]
  local t
  local k = rnd(3)
  if k == 1 then t = {[a] = 1, [b] = 2, [c] = 3}
  elseif k == 2 then t = {x = 1, y = 2, z = 3, [a] = 4}
  else t = {x = 1, y = 2, z = 3, w = 4, v = 5, [a] = 6, [b] = 7} end
  -- fields stored by SETFIELD into the same record: free nodes, then a rehash
  t.p = "p"; t.q = "q"; t[c] = "c"
  local want = {}
  for key, v in pairs(t) do want[key] = v end
  if t.p ~= "p" or t.q ~= "q" or t[c] ~= "c" then bad = bad + 1 end
  for key, v in next, t do if want[key] ~= v then bad = bad + 1 end end
  total = total + count(t)
end
print("constructed", bad, total)

-- 2. the same names in every record (the case of objects of one class):
-- SETFIELD after setmetatable with and without __newindex
local log = 0
local plain = {__index = function() return "none" end}
local watched = {__newindex = function(t, k, v) log = log + 1; rawset(t, k, v) end}
bad = 0
for i = 1, 2000 do
  local o = setmetatable({x = i, y = -i, z = 0}, i % 2 == 0 and plain or watched)
  o.w = i * 2
  o.vx = 1; o.vy = 2
  if o.x ~= i or o.y ~= -i or o.w ~= i * 2 or o.vx + o.vy ~= 3 or count(o) ~= 6 then bad = bad + 1 end
  if i % 2 == 0 and o.missing ~= "none" then bad = bad + 1 end
end
print("objects", bad, log)

-- 3. delete and add again: dead keys are not free nodes
bad = 0
for i = 1, 500 do
  local t = {a = 1, b = 2, c = 3}
  t.a = nil; t.d = 4; t.b = nil; t.e = 5; t.a = 6
  if t.a ~= 6 or t.b ~= nil or t.c ~= 3 or t.d ~= 4 or t.e ~= 5 or count(t) ~= 4 then
    bad = bad + 1
  end
end
print("deleted", bad)
