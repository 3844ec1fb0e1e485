-- jit_classfields.lua: a field read (GETFIELD) that objects lack and
-- find in their class through '__index', at a site whose class cache
-- holds JIT_MCENTRIES (4) entries (jitrt.c mvmrt_strindex, rt_indexwalk):
-- objects of one to six classes in turn, the field replaced, removed and
-- put back in a class while its entry sits at each position, a class
-- that loses its field to its parent's, an object that gets its own, a
-- metatable swapped, a collection in between.
local out = {}
local function log(...)
  local t = table.pack(...)
  for i = 1, t.n do t[i] = tostring(t[i]) end
  out[#out + 1] = table.concat(t, " ")
end

local Base = {scale = 1}
Base.__index = Base
local classes = {}
for k = 1, 6 do
  local parent = k <= 2 and Base or classes[k - 2]
  local C = setmetatable({}, {__index = parent})
  C.__index = C
  if k % 2 == 0 then C.scale = k * 10 end
  classes[k] = C
end
local objs = {}
for k = 1, 6 do objs[k] = setmetatable({v = k}, classes[k]) end

-- the read site: not a leaf (the error call), so compiled on its own
local function get(o)
  local s = o.scale
  if s == nil then error("no scale for " .. o.v) end
  return s * o.v
end

local function round(order, reps)
  local last
  for _ = 1, reps do
    local r = {}
    for _, k in ipairs(order) do r[#r + 1] = get(objs[k]) end
    last = table.concat(r, ",")
  end
  return last
end

log("1", round({1}, 300))
log("2", round({1, 2}, 300))
log("3", round({1, 2, 3}, 300))
log("4", round({1, 2, 3, 4}, 300))
log("6", round({1, 2, 3, 4, 5, 6}, 300))
log("mixed", round({6, 1, 1, 5, 2, 4, 3, 6}, 200))

for _, k in ipairs({2, 4, 6, 1}) do
  for pos = 1, 4 do
    local order = {}
    for j = 1, 4 do order[j] = ((k + j - pos - 1) % 4) + 1 end
    round(order, 40)
    local C = classes[k]
    local old = rawget(C, "scale")
    C.scale = 1000 + k
    log("set", k, pos, round(order, 3))
    C.scale = nil
    log("unset", k, pos, round(order, 3))
    C.scale = old
    log("back", k, pos, round(order, 3))
  end
end

Base.scale = 7
log("base", round({1, 3, 5, 2}, 40))
round({1, 2, 3, 4}, 100)
collectgarbage()
log("gc", round({1, 2, 3, 4}, 3))
objs[3].scale = 5
log("own", round({1, 2, 3, 4}, 40))
objs[3].scale = nil
setmetatable(objs[1], classes[6])
log("swapped", round({1, 2, 3, 4}, 40))
getmetatable(classes[5]).__index = classes[2]
log("reparented", round({5, 1, 2, 3}, 40))
Base.scale = nil
local ok, err = pcall(round, {1, 2, 3, 4, 5, 6}, 5)
log("no base", ok, (tostring(err):gsub("^.-:%d+: ", "")))
print(table.concat(out, "\n"))
