-- Constant-key field reads (GETFIELD, GETTABUP) and writes (SETFIELD) in
-- compiled code, where a site remembers the node its key was last found
-- in (slot prediction): tables with many keys (collision chains), tables
-- that grow and rehash between reads, keys deleted and read through
-- '__index', '__newindex' on absent keys, metatables swapped, one site
-- reading tables of different shapes and sizes, globals through changed
-- _ENV tables, and collections moving the tables meanwhile.  Every access
-- runs in a loop so that it runs compiled (-j on) as well as interpreted.
local N = 200

-- a table with 'n' fields f1..fn (enough keys for collision chains)
local function wide(n, base)
  local t = {}
  for i = 1, n do t["f" .. i] = base + i end
  return t
end

-- 1. reads of many keys of the same table: most are in collision chains
local function sumfields(t)
  local s = 0
  for _ = 1, N do
    s = s + t.f1 + t.f2 + t.f3 + t.f4 + t.f5 + t.f6 + t.f7 + t.f8
          + t.f9 + t.f10 + t.f11 + t.f12 + t.f13 + t.f14 + t.f15 + t.f16
  end
  return s
end
print("wide", sumfields(wide(16, 0)), sumfields(wide(40, 1000)))

-- 2. the same sites while the table grows (rehash: new node arrays,
-- keys in other nodes) and shrinks back
local function growing()
  local t = wide(16, 0)
  local out = {}
  for round = 1, 12 do
    local s = 0
    for _ = 1, 20 do s = s + t.f3 + t.f9 + t.f16 end
    out[#out + 1] = s
    for i = 1, round * 7 do t["g" .. round .. "_" .. i] = i end   -- grow
    if round % 4 == 0 then   -- drop the extra keys again, then rehash
      for k in pairs(t) do if k:sub(1, 1) == "g" then t[k] = nil end end
      collectgarbage()
      for i = 1, 40 do t["h" .. i] = i end
      for i = 1, 40 do t["h" .. i] = nil end
    end
  end
  return table.concat(out, " ")
end
print("growing", growing())

-- 3. keys deleted from the object: the reads go on to '__index', and
-- come back to the object when the keys are set again (16 keys: some are
-- in collision chains, whatever the string hash seed)
local Class = {}
for i = 1, 16 do Class["f" .. i] = "c" .. i end
Class.__index = Class
local function readall(o)
  return table.concat({o.f1, o.f2, o.f3, o.f4, o.f5, o.f6, o.f7, o.f8, o.f9, o.f10,
                       o.f11, o.f12, o.f13, o.f14, o.f15, o.f16}, ",")
end
local function deleted()
  local o = setmetatable(wide(16, 0), Class)
  local out = {}
  for round = 1, 6 do
    local r
    for _ = 1, 30 do r = readall(o) end
    out[#out + 1] = r
    if round == 2 then for i = 1, 16 do o["f" .. i] = nil end end
    if round == 3 then collectgarbage() end   -- the removed keys become dead
    if round == 4 then for i = 1, 16, 2 do o["f" .. i] = -i end end
    if round == 5 then for i = 2, 16, 2 do Class["f" .. i] = "n" .. i end end
  end
  return table.concat(out, " ")
end
print("deleted", deleted())

-- 4. '__newindex' on absent keys; existing keys are written raw
local function newindex()
  local log = {}
  local mt = {__newindex = function(t, k, v) log[#log + 1] = k .. "=" .. tostring(v); rawset(t, k, v * 10) end}
  local o = setmetatable(wide(16, 0), mt)
  for i = 1, 30 do
    o.f7 = i          -- existing: raw
    o.f14 = i + 1     -- existing: raw
    if i % 10 == 0 then o["n" .. i] = i end
  end
  o.fresh = 1         -- absent: __newindex
  o.fresh = 2         -- now present: raw
  o.f7 = nil          -- existing: raw (removal)
  o.f7 = 3            -- absent again: __newindex
  return o.f7, o.f14, o.fresh, o.n10, o.n30, table.concat(log, ",")
end
print("newindex", newindex())

-- 5. metatables swapped on objects between reads
local A = {kind = "A", val = 1}; A.__index = A
local B = {kind = "B", val = 2}; B.__index = B
local C = setmetatable({kind = "C"}, {__index = B}); C.__index = C
local function swapped()
  local o = setmetatable({own = 0}, A)
  local out = {}
  for i = 1, 40 do
    out[#out + 1] = o.kind .. o.val
    if i % 10 == 3 then setmetatable(o, B)
    elseif i % 10 == 6 then setmetatable(o, C)
    elseif i % 10 == 9 then setmetatable(o, nil); o.kind = "raw"; o.val = 9
    elseif i % 10 == 0 then o.kind = nil; o.val = nil; setmetatable(o, A) end
  end
  return table.concat(out, " ")
end
print("swapped", swapped())

-- 6. one site, tables of different shapes (same keys in other nodes,
-- other sizes: the remembered node index may lie outside a small table)
local function getxy(t) return t.x, t.y, t.z end
local function shapes()
  local ts = {
    {x = 1, y = 2, z = 3},
    wide(30, 0),
    {z = 30, y = 20, x = 10},
    {x = 100},
    {},
    setmetatable({}, {__index = {x = "ix", y = "iy", z = "iz"}}),
    setmetatable({}, {__index = function(_, k) return "fn" .. k end}),
  }
  for i = 1, 50 do ts[2]["k" .. i] = i end
  ts[2].x, ts[2].y, ts[2].z = -1, -2, -3
  local out = {}
  for round = 1, 3 do
    for i = 1, #ts do
      local x, y, z
      for _ = 1, 20 do x, y, z = getxy(ts[i]) end
      out[#out + 1] = tostring(x) .. "," .. tostring(y) .. "," .. tostring(z)
    end
    collectgarbage()
  end
  return table.concat(out, " ")
end
print("shapes", shapes())

-- 7. globals read and written through different _ENV tables
local function envread(_ENV)
  local s = 0
  for _ = 1, 20 do s = s + alpha + beta end
  gamma = s
  return s
end
local e1 = {alpha = 1, beta = 2}
local e2 = wide(20, 0); e2.alpha = 10; e2.beta = 20
local e3 = setmetatable({alpha = 100}, {__index = {beta = 200}})
local envs = {e1, e2, e3, e2, e1}
local envout = {}
for i = 1, #envs do envout[#envout + 1] = envread(envs[i]) end
e2.beta = nil; e2.beta = 5   -- removed and set again
envout[#envout + 1] = envread(e2)
print("env", table.concat(envout, " "), e1.gamma, e2.gamma, e3.gamma)

-- globals of the script itself, replaced and removed
counter_g = 0
local function bump() for _ = 1, 10 do counter_g = counter_g + 1 end return counter_g end
print("globals", bump(), bump())
counter_g = nil; counter_g = 100
print("globals", bump())

-- 8. collections while compiled code reads fields of moving tables
local function gcloop()
  local keep = {}
  local s = 0
  for i = 1, 300 do
    local o = wide(12, i)
    o.extra = i
    keep[i % 7 + 1] = o
    if i % 50 == 0 then collectgarbage() end
    local p = keep[(i * 3) % 7 + 1] or o
    s = s + o.f1 + o.f12 + o.extra + p.f6
  end
  return s
end
print("gc", gcloop())

-- 9. method calls (SELF) through '__index' tables: objects with many
-- fields (the method name's main position taken), classes with many
-- methods (methods in collision chains), methods removed from the class
-- (found in the superclass, or missing), shadowed by the object, the
-- class's '__index' replaced by another table or a function
local function mkclass(n, tag, super)
  local c = {}
  for i = 1, n do c["m" .. i] = function(self) return tag .. i .. ":" .. self.id end end
  c.__index = c
  if super then setmetatable(c, {__index = super}) end
  return c
end
local Super = mkclass(24, "S")
local Sub = mkclass(12, "C", Super)
local function calls(o, rounds)
  local out = {}
  for r = 1, rounds do
    local a, b, c
    for _ = 1, 10 do a, b, c = o:m3(), o:m11(), o:m20() end
    out[#out + 1] = a .. "," .. b .. "," .. c
  end
  return table.concat(out, " ")
end
local plain = setmetatable({id = "p"}, Sub)
local fat = setmetatable(wide(20, 0), Sub); fat.id = "f"
print("self", calls(plain, 2), calls(fat, 2))
Sub.m3 = nil                                  -- now from Super
print("self removed", calls(plain, 1), calls(fat, 1))
fat.m11 = function(self) return "own:" .. self.id end   -- shadowed by the object
print("self shadowed", calls(fat, 1), calls(plain, 1))
fat.m11 = nil
Sub.m3 = function(self) return "back:" .. self.id end
for i = 1, 40 do Sub["x" .. i] = i end        -- the class grows: rehash
print("self rehash", calls(plain, 1), calls(fat, 1))
Sub.__index = {m3 = function() return "t3" end, m11 = function() return "t11" end,
               m20 = function() return "t20" end}
print("self other index", calls(plain, 1))
Sub.__index = function(_, k) return function(self) return "fn" .. k .. self.id end end
print("self index fn", calls(plain, 1), calls(fat, 1))
Sub.__index = Sub
collectgarbage()
print("self back", calls(plain, 1))
local ok, err = pcall(function()
  local o = setmetatable({id = "e"}, Sub)
  Super.m20 = nil
  return calls(o, 1)
end)
print("self missing", ok, (tostring(err):gsub("^.-:%d+: ", "")))
