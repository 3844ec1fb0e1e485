-- binary_trees.lua: allocate and walk many perfect binary trees (allocation,
-- garbage collection, recursion).
-- usage: mvm bench/binary_trees.lua [maxdepth]   (default 15)
-- Self-check: a tree of depth d has exactly 2^(d+1) - 1 nodes.
local N = tonumber(arg and arg[1]) or 15

local function bottom_up(depth)
  if depth == 0 then return {} end
  depth = depth - 1
  return { bottom_up(depth), bottom_up(depth) }
end

local function check(tree)
  if tree[1] then return 1 + check(tree[1]) + check(tree[2]) end
  return 1
end

-- 2^k as an integer (no << so that LuaJIT can run the program too)
local function pow2(k) local r = 1; for _ = 1, k do r = r + r end; return r end
local function nodes(d) return pow2(d + 1) - 1 end

local mindepth = 4
local maxdepth = math.max(mindepth + 2, N)

local stretch = maxdepth + 1
local c = check(bottom_up(stretch))
assert(c == nodes(stretch), "stretch tree")
print(string.format("stretch tree of depth %d\t check: %d", stretch, c))

local longlived = bottom_up(maxdepth)
for depth = mindepth, maxdepth, 2 do
  local iters = pow2(maxdepth - depth + mindepth)
  local total = 0
  for _ = 1, iters do total = total + check(bottom_up(depth)) end
  assert(total == iters * nodes(depth), "depth " .. depth)
  print(string.format("%d\t trees of depth %d\t check: %d", iters, depth, total))
end
c = check(longlived)
assert(c == nodes(maxdepth), "long lived tree")
print(string.format("long lived tree of depth %d\t check: %d", maxdepth, c))
