-- GETFIELD/SELF __index chains (vm.c index_table) read each metatable's
-- __index inline after the absence bit: the bit set by a miss must not
-- hide an __index added later, and replaced or removed ones are seen.
local mt = {}
local t = setmetatable({}, mt)
print(t.x, t.y)                       -- misses: mt learns "no __index"
mt.__index = { x = 1 }
print(t.x, t.y)
mt.__index = { y = 2 }
print(t.x, t.y)
rawset(mt, "__index", nil)
print(t.x, t.y)
mt.__index = function(_, k) return "f" .. k end
print(t.x, t.y)
-- chains of 1..6 levels (4 inline, the rest through vm_finishget)
for depth = 1, 6 do
  local base = { m = function(self) return "m" .. depth end, v = depth }
  local obj = base
  for _ = 1, depth do obj = setmetatable({}, { __index = obj }) end
  print(depth, obj.v, obj:m(), obj.nothing)
end
-- a metatable whose __index is not a table or function
local bad = setmetatable({}, { __index = 42 })
print(pcall(function() return bad.x end))
-- a metatable with other events only
local other = setmetatable({}, { __newindex = function() end, __len = function() return 7 end })
print(other.x, #other)
getmetatable(other).__index = { x = "late" }
print(other.x, other.len2 == nil)
