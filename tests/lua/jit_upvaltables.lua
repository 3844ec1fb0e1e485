-- Tables held in upvalues and read in loops (GETUPVAL then GETTABLE,
-- GETI, GETFIELD of the same register): the upvalue changed by a call in
-- the loop, by debug.setupvalue, set to a non-table, collections in
-- between, '__index' metamethods and errors at the access.

local cols, d1, mod = {}, {}, { count = 0, limit = 3 }

local function swap()
  cols = {}
  for i = 1, 8 do cols[i] = i * 10 end
end

local function scan(n, callat)
  local s = 0
  for i = 1, n do
    local v = cols[i]
    if v then s = s + v end
    if d1[i + 1] then s = s + 1 end
    s = s + mod.count
    if i == callat then swap() end
  end
  return s
end

for i = 1, 8 do cols[i] = i end
d1[3] = true
for r = 1, 30 do
  local before = cols
  local s = scan(8, r % 10 == 0 and 4 or nil)
  if r % 10 == 0 then print("swapped", r, s, cols ~= before) end
  if r % 10 == 5 then print("plain", r, s) end
end

-- debug.setupvalue from a function called in the loop
local function upindex(f, name)
  for i = 1, 100 do
    local n = debug.getupvalue(f, i)
    if n == nil then return nil end
    if n == name then return i end
  end
end

local tab = { 1, 2, 3, 4, 5, 6 }
local reader
local function setter(v)
  debug.setupvalue(reader, upindex(reader, "tab"), v)
end
reader = function(n, at, v)
  local s = 0
  for i = 1, n do
    local x = tab[i]
    s = s + (x or 0)
    if i == at then setter(v) end
  end
  return s
end
for r = 1, 20 do
  tab = { 1, 2, 3, 4, 5, 6 }
  local s = reader(6, r % 4 == 0 and 3 or nil, { 100, 100, 100, 100, 100, 100 })
  if r % 4 <= 1 then print("setupvalue", r, s) end
end

-- the upvalue becomes a non-table: a string (its metatable's __index), a
-- number (an error), nil (an error), a table with __index functions
local thing = { 5, 6, 7, x = 1 }
local function getthing(i)
  local a = thing[i]
  local b = thing.x
  local c = thing[2]
  return a, b, c
end
for r = 1, 12 do print("thing", r, pcall(getthing, 1)) end
thing = "abc"
print("string", pcall(getthing, 1))
print("string len", pcall(function() return thing.len(thing) end))
thing = 42
print("number", pcall(getthing, 1))
thing = nil
print("nil", pcall(getthing, 1))
local calls = 0
thing = setmetatable({}, { __index = function(t, k)
  calls = calls + 1
  collectgarbage()
  local junk = {}
  for j = 1, 20 do junk[j] = { j } end
  return type(k) == "number" and k * 2 or tostring(k) .. "!"
end })
for r = 1, 12 do
  local a, b, c = getthing(r)
  if r % 4 == 0 then print("index", r, a, b, c, calls) end
end
-- __index replaces the upvalue while it runs
local other = { 1, 1, 1, x = "other" }
thing = setmetatable({}, { __index = function(t, k)
  thing = other
  return "first"
end })
print("replace", getthing(3))
print("after", getthing(3))
-- an error inside __index
thing = setmetatable({}, { __index = function(t, k) error("no " .. tostring(k)) end })
print("error", pcall(getthing, 2))

-- collections between accesses: new tables each round, the old ones garbage
local grid = {}
local function sumgrid(n)
  local s = 0
  for i = 1, n do
    s = s + grid[i]
    if i % 7 == 0 then collectgarbage("step") end
    local t = {}
    for j = 1, 4 do t[j] = { i, j } end
  end
  return s
end
for r = 1, 15 do
  grid = {}
  for i = 1, 50 do grid[i] = i + r end
  local s = sumgrid(50)
  if r % 5 == 0 then print("grid", r, s) end
end

-- a module-style counter table read and written in a loop
local stats = { hits = 0, miss = 0 }
local seen = {}
local function tally(n)
  for i = 1, n do
    local k = i % 13
    if seen[k] then stats.hits = stats.hits + 1
    else seen[k] = true; stats.miss = stats.miss + 1 end
  end
end
for r = 1, 10 do tally(100) end
print("stats", stats.hits, stats.miss)

-- many '__index' calls at the access (recompiled past its exits: the
-- helper runs it), each collecting
local calls2 = 0
local lazy = setmetatable({}, { __index = function(t, k)
  calls2 = calls2 + 1
  collectgarbage()
  return type(k) == "number" and k * 2 or tostring(k) .. "!"
end })
local function getlazy(i)
  local a = lazy[i]
  local b = lazy.x
  local c = lazy[2]
  return a, b, c
end
local total = 0
for r = 1, 300 do
  local a, b, c = getlazy(r)
  total = total + (a or 0) + c
  if r == 150 then lazy = { 1, 2, x = 3 } end
  if r == 200 then lazy = setmetatable({}, getmetatable(lazy) or { __index = function(t, k) return 1 end }) end
end
print("lazy", total, calls2)

-- method calls on an upvalue (GETUPVAL then SELF of the same register)
local Acc = {}
Acc.__index = Acc
function Acc.new() return setmetatable({ n = 0 }, Acc) end
function Acc:add(x) self.n = self.n + x return self.n end
local obj = Acc.new()
local function feed(n)
  local last
  for i = 1, n do last = obj:add(i) end
  return last
end
for r = 1, 40 do
  local v = feed(10)
  if r % 10 == 0 then print("feed", r, v) end
end
obj = "text"
print("self string", pcall(feed, 1))
obj = nil
print("self nil", pcall(feed, 1))
obj = setmetatable({ n = 0 }, { __index = function(t, k)
  collectgarbage()
  return function(self, x) self.n = self.n - x return self.n end
end })
for r = 1, 30 do
  local v = feed(5)
  if r % 10 == 0 then print("self index", r, v) end
end
obj = Acc.new()
print("self back", feed(3))

-- table reads only a TEST looks at (`if t[k] then`): true, false, nil,
-- numbers, a metatable set in the middle of the loop (the read leaves to
-- the interpreter), GETI with constant keys
local flags = {}
for i = 1, 40 do flags[i] = (i % 3 == 0) or (i % 5 == 0 and 0) or nil end
flags[7] = false
local function countflags(n)
  local c, z = 0, 0
  for i = 1, n do
    if flags[i] then c = c + 1 end
    if not flags[i + 1] then z = z + 1 end
    if flags[3] then c = c + 100 end
    if i == 20 and n > 40 then
      setmetatable(flags, { __index = function(t, k) return k % 2 == 0 end })
    end
  end
  return c, z
end
for r = 1, 10 do
  local c, z = countflags(40)
  if r % 5 == 0 then print("flags", r, c, z) end
end
print("flags mt", countflags(60))
print("flags after", countflags(60))
