-- Integer keys outside the array part (0, negative, sparse): the compiled
-- table paths look at the key's main position in the hash part inline;
-- collisions, misses, metatables and boxed integers take the helper.
local function rot(t, n)        -- 0-based array, as fannkuch's perm
  local first = t[0]
  for i = 0, n - 2 do t[i] = t[i + 1] end
  t[n - 1] = first
  return t[0] + t[n - 1]
end
local t = {}
for i = 0, 9 do t[i] = i * i end
for _ = 1, 7 do io.write(rot(t, 10), " ") end
print()

local function sumrange(t, lo, hi)
  local s = 0
  for i = lo, hi do
    local v = t[i]
    if v then s = s + v end
  end
  return s
end
local h = {}
for i = -20, 20, 3 do h[i] = i end
print("neg", sumrange(h, -25, 25))
for i = -20, 20, 3 do h[i * 64] = i end   -- colliding keys in a small part
print("coll", sumrange(h, -1300, 1300))
h[2^40 // 1] = 5; h[-(1 << 47)] = 7; h[1 << 50] = 9   -- big, boxed keys
print("big", h[2^40 // 1], h[-(1 << 47)], h[1 << 50], sumrange(h, -3, 3))

local dflt = setmetatable({ [0] = 1 }, { __index = function(_, k) return k * 10 end,
                                           __newindex = function(t, k, v) rawset(t, k, v + 1000) end })
local function probe(t)
  local s = t[0] + t[-1] + t[-2]
  t[-3] = 3; t[0] = 4
  return s, t[-3], t[0]
end
print("meta", probe(dflt))
print("meta", probe(dflt))

local function setneg(t, n)
  for i = 0, -n, -1 do t[i] = (t[i] or 0) + 1 end
  return t[0], t[-n], t[-n // 2]
end
local z = {}
for _ = 1, 5 do print("setneg", setneg(z, 40)) end
z[-7] = nil
print("hole", pcall(function() return z[-7] + 1 end))
