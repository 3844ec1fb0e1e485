-- Method caches, round 4: a SELF site holds JIT_MCENTRIES (4) entries,
-- a fill going first and the others moving down (jitrt.c rt_selfwalk).
-- Receivers of two to six classes call at one site in turn, in order
-- and out of order, with chains of one to three '__index' levels; a
-- class's method is replaced, removed and put back while its entry sits
-- in each position; classes whose entries were pushed out come back;
-- and a collection between calls empties every cache.
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

-- changes while each class's entry sits in some position
for _, k in ipairs({2, 4, 6, 3}) do
  for pos = 1, 4 do
    local order = {}
    for j = 1, 4 do order[j] = ((k + j - pos - 1) % 4) + 1 end
    round(order, 50)
    local C = classes[k]
    local old = rawget(C, "m")
    C.m = function() return "new" .. k end
    log("replaced", k, pos, round(order, 3))
    C.m = nil
    log("removed", k, pos, round(order, 3))
    C.m = old
    log("restored", k, pos, round(order, 3))
  end
end

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
print(table.concat(out, "\n"))
