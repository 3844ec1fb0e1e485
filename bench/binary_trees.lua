-- binary_trees.lua -- the classic allocation benchmark (self-checking).
-- usage: mvm bench/binary_trees.lua [depth]   (default 16)
local function bottomup(depth)
  if depth == 0 then return {} end
  depth = depth - 1
  return { bottomup(depth), bottomup(depth) }
end

local function check(tree)
  if tree[1] then return 1 + check(tree[1]) + check(tree[2]) end
  return 1
end

local N = tonumber(arg and arg[1]) or 16
local mindepth = 4
local maxdepth = math.max(mindepth + 2, N)

local stretch = maxdepth + 1
local c = check(bottomup(stretch))
assert(c == 2 ^ (stretch + 1) - 1)
io.write(string.format("stretch tree of depth %d\t check: %d\n", stretch, c))

local longlived = bottomup(maxdepth)

for depth = mindepth, maxdepth, 2 do
  local iters = 2 ^ (maxdepth - depth + mindepth)
  local total = 0
  for _ = 1, iters do total = total + check(bottomup(depth)) end
  assert(total == iters * (2 ^ (depth + 1) - 1))
  io.write(string.format("%d\t trees of depth %d\t check: %d\n", iters, depth, total))
end

local ll = check(longlived)
assert(ll == 2 ^ (maxdepth + 1) - 1)
io.write(string.format("long lived tree of depth %d\t check: %d\n", maxdepth, ll))
