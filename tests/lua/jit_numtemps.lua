-- Registers that hold numbers written by arithmetic or speculated loads,
-- and that never live across a call, stay in SSA even where the same
-- register held something else before (a table, a string): exits with
-- them live, speculation failing on a loaded value, and the collector
-- running while they hold numbers.

local W, H = 8, 6

-- life's neighbour sum: loads into temporaries, `% W` indices
local function step(g)
  local n = {}
  for y = 1, H do
    local row, up, dn = {}, g[(y - 2) % H + 1], g[y % H + 1]
    local cur = g[y]
    for x = 1, W do
      local l, r = (x - 2) % W + 1, x % W + 1
      local s = up[l] + up[x] + up[r] + cur[l] + cur[r] + dn[l] + dn[x] + dn[r]
      row[x] = (s == 3 or (s == 2 and cur[x] == 1)) and 1 or 0
    end
    n[y] = row
  end
  return n
end
local g = {}
for y = 1, H do g[y] = {} for x = 1, W do g[y][x] = ((x * 3 + y * 5) % 4 == 0) and 1 or 0 end end
for _ = 1, 60 do g = step(g) end
local alive = 0
for y = 1, H do for x = 1, W do alive = alive + g[y][x] end end
print("life", alive)

-- a register that held a table, then loads speculated to be numbers
local function sum2(t, n)
  local s
  do local tmp = {1, 2, 3}; s = #tmp end
  for i = 1, n do
    local v = t[i]
    s = s + v * 2
  end
  return s
end
local nums = {}
for i = 1, 50 do nums[i] = i end
for _ = 1, 40 do sum2(nums, 50) end
print("ints", sum2(nums, 50))
nums[25] = 0.5                      -- a float where integers were seen
print("float", sum2(nums, 50))
nums[30] = "7"                      -- a string: coerced by arithmetic
print("string", sum2(nums, 50))
nums[35] = setmetatable({}, {__mul = function(a, b) return 1000 end,
                             __add = function(a, b) return (type(a) == "number" and a or 0) + 1 end})
print("metamethod", sum2(nums, 50))
nums[40] = nil
print("nil", pcall(sum2, nums, 50))

-- an exit with several temporaries live, then the loop goes on interpreted
local function mix(t, n)
  local acc = 0
  for i = 1, n do
    local a, b = t[i] * 3, t[i] + 1
    local c = a % 7 + b // 2
    acc = acc + c
  end
  return acc
end
local m = {}
for i = 1, 30 do m[i] = i * 11 end
for _ = 1, 40 do mix(m, 30) end
print("mix", mix(m, 30))
m[17] = 2.25
print("mix float", mix(m, 30))
m[18] = 2^53
print("mix big", mix(m, 30))

-- the collector during the loop (no call: it runs in table growth)
local function grow(n)
  local out, s = {}, 0
  for i = 1, n do
    local k = i % 13
    local v = k * k + i // 3
    out[#out + 1] = {v}
    s = s + v
  end
  return s, #out
end
for _ = 1, 5 do grow(300) end
print("grow", grow(2000))

-- a temporary live across a call keeps its old home (unchanged behaviour)
local function across(t, f)
  local s = 0
  for i = 1, #t do
    local v = t[i] + 1
    f()
    s = s + v
  end
  return s
end
local calls = 0
for _ = 1, 30 do across(nums and m, function() calls = calls + 1 end) end
print("across", across(m, function() calls = calls + 1 end), calls)
