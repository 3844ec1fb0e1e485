-- Method caches, round 4: a SELF site holds JIT_MCENTRIES (4) entries,
-- a fill going first and the others moving down (jitrt.c rt_selfwalk).
-- Receivers of two to six classes call at one site in turn, in order
-- and out of order, with chains of one to three '__index' levels; a
-- class's method is replaced, removed and put back while its entry sits
-- in each position; classes whose entries were pushed out come back;
-- and a collection between calls empties every cache.  The same for a
-- field read (GETFIELD) that objects lack and find in their class, whose
-- site's class cache has as many entries (jitrt.c mvmrt_strindex,
-- rt_indexwalk): a class's field that goes to its parent's, an object
-- that gets its own, a metatable swapped, a class reparented.
local out = {}
local function log(...)
  local t = table.pack(...)
  for i = 1, t.n do t[i] = tostring(t[i]) end
  out[#out + 1] = table.concat(t, " ")
end

local Base = {}
Base.__index = Base
function Base:m() return "base" end
function Base:tag() return self.name end
local classes = {}
for k = 1, 6 do
  local parent = k <= 2 and Base or classes[k - 2]   -- chains of 1..3 levels
  local C = setmetatable({}, {__index = parent})
  C.__index = C
  C.name = "c" .. k
  if k % 2 == 0 then C.m = function(self) return "m" .. k end end
  classes[k] = C
end
local objs = {}
for k = 1, 6 do objs[k] = setmetatable({id = k}, classes[k]) end

local function call(o) return o:m() end       -- the hot site
local function tag(o) return o:tag() end       -- found at the chain's end

local function round(order, reps)
  local s = {}
  for _ = 1, reps do
    for _, k in ipairs(order) do s[#s + 1] = call(objs[k]) .. "/" .. tag(objs[k]) end
  end
  return table.concat(s, ",", #s - #order + 1)   -- the last pass
end

log("3 in turn", round({1, 2, 3}, 400))
log("4 in turn", round({1, 2, 3, 4}, 400))
log("5 in turn", round({1, 2, 3, 4, 5}, 400))
log("6 mixed", round({6, 1, 5, 2, 4, 3, 1, 1, 6}, 300))

-- a class's field 'name' replaced, removed and put back while its entry
-- sits at each of the four positions of a site's cache
local function atpositions(classes, ks, name, newval, round, warm)
  for _, k in ipairs(ks) do
    for pos = 1, 4 do
      local order = {}
      for j = 1, 4 do order[j] = ((k + j - pos - 1) % 4) + 1 end
      round(order, warm)
      local C = classes[k]
      local old = rawget(C, name)
      C[name] = newval(k)
      log("replaced", name, k, pos, round(order, 3))
      C[name] = nil
      log("removed", name, k, pos, round(order, 3))
      C[name] = old
      log("restored", name, k, pos, round(order, 3))
    end
  end
end
atpositions(classes, {2, 4, 6, 3}, "m", function(k) return function() return "new" .. k end end,
            round, 50)

-- the base's method changes: every class without its own sees it
Base.m = function() return "base2" end
log("base replaced", round({1, 3, 5, 2}, 50))
-- a collection between calls
round({1, 2, 3, 4}, 100)
collectgarbage()
log("after gc", round({1, 2, 3, 4}, 3))
-- an object's own method wins over every entry
objs[3].m = function() return "own" end
log("own", round({1, 2, 3, 4}, 50))
objs[3].m = nil
-- a metatable swapped under a cached class
setmetatable(objs[2], classes[5])
log("swapped", round({1, 2, 3, 4}, 50))
-- fresh classes at the same site, many of them
local fresh = {}
for i = 1, 40 do
  local C = setmetatable({}, {__index = Base})
  C.__index = C
  C.name = "f" .. i
  if i % 3 == 0 then C.m = function() return "f" .. i end end
  fresh[#fresh + 1] = call(setmetatable({}, C)) .. "/" .. tag(setmetatable({}, C))
end
log("fresh", table.concat(fresh, ","))
-- the field reads' class caches
do
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

  log("fields 1", round({1}, 300))
  log("fields 2", round({1, 2}, 300))
  log("fields 3", round({1, 2, 3}, 300))
  log("fields 4", round({1, 2, 3, 4}, 300))
  log("fields 6", round({1, 2, 3, 4, 5, 6}, 300))
  log("fields mixed", round({6, 1, 1, 5, 2, 4, 3, 6}, 200))

  atpositions(classes, {2, 4, 6, 1}, "scale", function(k) return 1000 + k end, round, 40)

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
end
print(table.concat(out, "\n"))
