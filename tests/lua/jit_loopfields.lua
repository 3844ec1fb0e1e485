-- Constant-key reads inside compiled loops (llvmgen.c strlook): an
-- object's own field, a class's field through '__index' tables for
-- receivers of one to six classes taking turns (the site's class cache,
-- then walks without it once it keeps missing), and everything that
-- must change what they read: a class field assigned mid-loop, an
-- instance field shadowing its class's, a field removed, a metatable
-- swapped, '__index' functions, absent keys, non-tables.

local function class(parent, fields)
  local c = fields or {}
  c.__index = c
  if parent then setmetatable(c, {__index = parent}) end
  return c
end

local Root = class(nil, {k = 1, name = "root"})
local classes = {Root}
for i = 2, 6 do classes[i] = class(classes[i - 1], {["f" .. i] = i}) end
classes[4].k = 40   -- a nearer definition for classes 4-6

local function objects(ncls, n)
  local objs = {}
  for i = 1, n do objs[i] = setmetatable({v = i}, classes[(i - 1) % ncls + 1]) end
  return objs
end

local function sumk(objs, reps)
  local s = 0
  for _ = 1, reps do
    for i = 1, #objs do local o = objs[i]; s = s + o.k * o.v end
  end
  return s
end

for ncls = 1, 6 do
  local objs = objects(ncls, 60)
  print("classes", ncls, sumk(objs, 200))
end

-- a class field changed between and inside loops
local objs = objects(5, 50)
print("before", sumk(objs, 100))
Root.k = 2
print("root k=2", sumk(objs, 100))
classes[4].k = nil            -- classes 4 and 5 now find Root's
print("k removed", sumk(objs, 100))
local s = 0
for r = 1, 300 do
  if r == 150 then Root.k = 3 end
  for i = 1, #objs do s = s + objs[i].k end
end
print("changed mid-loop", s)

-- an instance field shadows its class's, then goes away
s = 0
for r = 1, 200 do
  local o = objs[1 + r % #objs]
  if r == 100 then rawset(o, "k", 1000) end
  if r == 150 then o.k = nil end
  for i = 1, #objs do s = s + objs[i].k end
end
print("shadowed", s)

-- a metatable swapped mid-loop, absent keys read as nil
s = 0
local misses = 0
for r = 1, 200 do
  if r == 100 then setmetatable(objs[3], classes[6]) end
  for i = 1, #objs do
    local o = objs[i]
    s = s + o.k
    if o.f6 == nil then misses = misses + 1 end
  end
end
print("swapped", s, misses)

-- '__index' functions and non-tables among the receivers
local calls = 0
local Fn = setmetatable({}, {__index = function(t, k) calls = calls + 1; return 7 end})
local mixed = {objs[1], Fn, objs[2], setmetatable({}, {__index = Root})}
s = 0
for r = 1, 300 do for i = 1, #mixed do s = s + mixed[i].k end end
print("functions", s, calls)
local ok, err = pcall(function()
  local t = {objs[1], objs[2], 5}
  local z = 0
  for r = 1, 100 do for i = 1, #t do z = z + t[i].k end end
  return z
end)
print("non-table", ok, err)
