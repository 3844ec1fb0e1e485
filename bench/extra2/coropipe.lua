-- coropipe.lua: coroutine generators and pipelines: a producer, filters and
-- a mapper chained with coroutine.wrap (each item crosses several coroutine
-- switches), a recursive tree walk as a generator (nested coroutines with
-- yields from deep recursion), and generators passing values both ways
-- through resume/yield.
-- usage: mvm bench/extra2/coropipe.lua [n]   (default 600000)
-- Self-check: the pipeline's and the walk's sums against direct loops.
local n = tonumber(arg and arg[1]) or 600000
local wrap, yield, create, resume = coroutine.wrap, coroutine.yield, coroutine.create, coroutine.resume

local function range(lo, hi) return wrap(function() for i = lo, hi do yield(i) end end) end
local function filter(pred, src)
  return wrap(function() for v in src do if pred(v) then yield(v) end end end)
end
local function map(f, src) return wrap(function() for v in src do yield(f(v)) end end) end
local function take(k, src)
  return wrap(function()
    for v in src do if k <= 0 then return end k = k - 1 yield(v) end
  end)
end

-- pipeline: odd numbers not divisible by 3, squared mod 1000, first 40%
local total, items = 0, 0
local pipe = take(n * 2 // 5, map(function(v) return v * v % 1000 end,
  filter(function(v) return v % 3 ~= 0 end, filter(function(v) return v % 2 == 1 end, range(1, n * 4)))))
for v in pipe do total = total + v items = items + 1 end

-- tree walk: a binary tree of depth d, in-order traversal as a generator
local function build(lo, hi)
  if lo > hi then return nil end
  local mid = (lo + hi) // 2
  return {v = mid, l = build(lo, mid - 1), r = build(mid + 1, hi)}
end
local function walk(t) if t then walk(t.l) yield(t.v) walk(t.r) end end
local tree = build(1, n // 4)
local wsum, prev, inorder = 0, 0, true
for v in wrap(function() walk(tree) end) do
  wsum = wsum + v
  if v <= prev then inorder = false end
  prev = v
end

-- an accumulator coroutine fed through resume's arguments
local acc = create(function(x)
  local s = 0
  while true do s = s + x x = yield(s) end
end)
local last
for i = 1, n do local _; _, last = resume(acc, i) end

-- the same values without coroutines
local want, witems, v = 0, 0, 0
while witems < n * 2 // 5 do
  v = v + 1
  if v % 2 == 1 and v % 3 ~= 0 then want = want + v * v % 1000 witems = witems + 1 end
end
assert(items == witems and total == want, "pipeline " .. items .. " " .. total .. " vs " .. want)
local m = n // 4
assert(inorder and wsum == m * (m + 1) // 2, "tree walk " .. wsum)
assert(last == n * (n + 1) // 2, "accumulator " .. tostring(last))
print(string.format("coropipe: %d pipeline items sum %d, tree of %d sum %d, accumulator %d",
                    items, total, m, wsum, last))
