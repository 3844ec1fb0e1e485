-- GETFIELD of fields a receiver lacks (or holds as nil), found or not in
-- its classes: compiled code's per-site class cache (jit/jitrt.c
-- mvmrt_strindex, rt_indexwalk) and every way it must be invalidated.
local Base = {} Base.__index = Base
Base.kind = "base"
local Mid = setmetatable({}, Base) Mid.__index = Mid
local Leaf = setmetatable({}, Mid) Leaf.__index = Leaf

local function new(cls, x) return setmetatable({x = x, opt = nil}, cls) end

local function read(o) return o.kind, o.opt, o.extra end

local function sweep(objs, n)
  local acc = {}
  for i = 1, n do
    local o = objs[i % #objs + 1]
    local k, opt, extra = read(o)
    acc[#acc + 1] = tostring(k) .. "/" .. tostring(opt) .. "/" .. tostring(extra)
  end
  return acc
end

local objs = {new(Leaf, 1), new(Mid, 2), new(Base, 3), new(Leaf, 4)}
local function show(tag, acc)
  local seen, list = {}, {}
  for _, s in ipairs(acc) do if not seen[s] then seen[s] = true; list[#list + 1] = s end end
  table.sort(list)
  print(tag, table.concat(list, " "))
end

show("start", sweep(objs, 4000))
Base.extra = "e-base"                      -- a new key in the root class
show("root key", sweep(objs, 4000))
Mid.kind = "mid"                           -- a new key that shadows it
show("shadow", sweep(objs, 4000))
Mid.kind = nil                             -- gone again (store of nil)
show("unshadow", sweep(objs, 4000))
objs[1].opt = "own"                        -- the object itself
show("own field", sweep(objs, 4000))
objs[1].opt = nil
Base.kind = nil                            -- a class slot set to nil
show("slot nil", sweep(objs, 4000))
Base.kind = "base2"
Leaf.__index = function(t, k) return "fn:" .. k end   -- __index a function
show("index fn", sweep(objs, 4000))
Leaf.__index = Mid
getmetatable(Mid).__index = {kind = "other"}           -- a replaced __index table
show("new index", sweep(objs, 4000))
setmetatable(Mid, {__index = Base})        -- a replaced metatable
show("new mt", sweep(objs, 4000))
for i = 1, 2000 do local _ = {i, tostring(i)} end
collectgarbage()                           -- tables move
show("after gc", sweep(objs, 4000))
for i = 1, 40 do Base["pad" .. i] = i end  -- the class grows (resize)
show("resized", sweep(objs, 4000))

-- a chain deeper than the walk follows, and a metatable without __index
local deep = {kind = "deep"}
for _ = 1, 6 do deep = setmetatable({}, {__index = deep}) end
local plain = setmetatable({}, {})
local both = {deep, plain, deep}
show("deep", sweep(both, 3000))
getmetatable(plain).__index = {kind = "late", opt = 0}
show("late index", sweep(both, 3000))
