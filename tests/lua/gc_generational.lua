-- gc_generational.lua -- workloads for the generational, moving collector:
-- many short-lived objects next to a long-lived structure, tables keyed by
-- objects across collections, weak caches, resurrecting finalizers, and
-- coroutines holding young objects while suspended.

-- 1. a long-lived structure updated with young objects (old -> young refs)
local long = {}
for i = 1, 200 do long[i] = {id = i} end
collectgarbage()                 -- 'long' and its entries are old now
for round = 1, 20 do
  for i = 1, 200, 7 do long[i].child = {round = round, i = i} end
  for _ = 1, 300 do local garbage = {round, {}} end   -- short-lived
end
local sum = 0
for i = 1, 200, 7 do sum = sum + long[i].child.round + long[i].child.i end
print("long-lived", sum)

-- 2. tables keyed by objects survive moves (identity hashes)
local keys, map = {}, {}
for i = 1, 100 do keys[i] = {} ; map[keys[i]] = i end
for _ = 1, 5 do
  for _ = 1, 500 do local t = {1, 2, 3} end
  collectgarbage("step")
end
local ok = 0
for i = 1, 100 do if map[keys[i]] == i then ok = ok + 1 end end
print("object keys", ok)
local fk = {}
local f1, f2 = function() return 1 end, function() return 2 end
fk[f1] = "one"; fk[f2] = "two"
for _ = 1, 1000 do local x = {} end
collectgarbage()
print("function keys", fk[f1], fk[f2])

-- 3. a weak cache: entries disappear when their keys/values die
local cache = setmetatable({}, {__mode = "v"})
local strong = {}
for i = 1, 50 do
  local v = {i}
  cache[i] = v
  if i % 10 == 0 then strong[#strong + 1] = v end
end
collectgarbage(); collectgarbage()
local n = 0
for _, v in pairs(cache) do n = n + 1 end
print("weak cache", n)
local wk = setmetatable({}, {__mode = "k"})
local keep = {}
wk[keep] = "kept"; wk[{}] = "lost"
for _ = 1, 100 do local g = {} end
collectgarbage()
n = 0
for k, v in pairs(wk) do n = n + 1 end
print("weak keys", n, wk[keep])

-- 4. finalizers that resurrect, in reverse order of registration
local log = {}
resurrected = nil
do
  for i = 1, 3 do
    setmetatable({i = i}, {__gc = function(o) log[#log + 1] = o.i end})
  end
  setmetatable({name = "phoenix"}, {__gc = function(o) resurrected = o end})
end
collectgarbage(); collectgarbage()
print("finalized", table.concat(log, " "))
print("resurrected", resurrected and resurrected.name)
resurrected.extra = {1, 2, 3}   -- a young object in the resurrected one
collectgarbage("step")
print("still there", #resurrected.extra)
resurrected = nil
collectgarbage()

-- 5. coroutines holding young objects while suspended
local cos = {}
for c = 1, 5 do
  cos[c] = coroutine.create(function(seed)
    local mine = {seed = seed, list = {}}
    for i = 1, 3 do
      mine.list[i] = {seed * i}
      local up = mine
      coroutine.yield(function() return up.seed end)
    end
    return mine.seed + mine.list[1][1] + mine.list[2][1] + mine.list[3][1]
  end)
end
local getters = {}
for round = 1, 3 do
  for c = 1, 5 do
    local okc, g = coroutine.resume(cos[c], c)
    getters[#getters + 1] = g
  end
  for _ = 1, 400 do local junk = {round} end
  collectgarbage("step")
end
local gs = 0
for _, g in ipairs(getters) do gs = gs + g() end
local results = {}
for c = 1, 5 do
  local okc, r = coroutine.resume(cos[c])
  results[#results + 1] = r
end
print("coroutines", gs, table.concat(results, " "))

-- 6. big and small strings and userdata-free structures mixed
local parts = {}
for i = 1, 100 do parts[i] = string.rep("x", i * 37) .. i end
for _ = 1, 3 do collectgarbage("step") end
local len = 0
for i = 1, 100 do len = len + #parts[i] end
print("strings", len)
print("count is a number", type(collectgarbage("count")) == "number")
