-- gc_youngparts.lua -- young tables whose parts live in old cells (parts
-- bigger than the nursery takes, 4 KB): a minor frees the parts of the
-- dead ones (the tables registered when they got such a part) and moves
-- the survivors with theirs.  A leak shows in collectgarbage("count").

local function kb() return collectgarbage("count") end
local function churn(n)   -- small young garbage: minors come
  for i = 1, n do local g = {i, i} end
end

-- 1. dying young tables with an old array part (1000 values, 8 KB each):
-- 24 MB if their parts leaked
collectgarbage(); collectgarbage()
local base = kb()
for i = 1, 3000 do
  local t = {}
  for j = 1, 1000 do t[j] = j + i end
  churn(20)
end
collectgarbage(); collectgarbage()
print("dead arrays freed", kb() - base < 4096)

-- 2. the same with an old node part (400 string keys), grown through
-- several resizes while young (a table registered more than once)
local names = {}
for j = 1, 400 do names[j] = "k" .. j end
base = kb()
for i = 1, 600 do
  local t = {}
  for j = 1, 400 do t[names[j]] = j end
  churn(20)
end
collectgarbage(); collectgarbage()
print("dead hashes freed", kb() - base < 4096)

-- 3. survivors keep their parts: every 7th table is kept, the others die;
-- the kept ones move (survivor space, then the old space) with the minors
-- that follow, and are read back at the end
local kept = {}
for i = 1, 700 do
  local t = {}
  for j = 1, 600 do t[j] = i * j end
  if i % 7 == 0 then kept[#kept + 1] = t end
  churn(30)
end
local ok = true
for k, t in ipairs(kept) do
  local i = k * 7
  if #t ~= 600 or t[1] ~= i or t[600] ~= i * 600 then ok = false end
end
print("survivors", #kept, ok)

-- 4. a window of live tables: each survives a few minors young (in the
-- survivor space, registered again by its copy) and then dies there
base = kb()
local window, w = {}, 0
for i = 1, 2000 do
  local t = {}
  for j = 1, 520 do t[j] = j end
  w = w % 4 + 1
  window[w] = t
  churn(200)
end
window = nil
collectgarbage(); collectgarbage()
print("window freed", kb() - base < 4096)

-- 5. old parts given to young tables that then grow in place or shrink
local sum = 0
for i = 1, 300 do
  local t = {}
  for j = 1, 700 do t[j] = j end
  for j = 701, 1500 do t[j] = j end      -- a bigger old part
  for j = 1, 1500 do t[j] = nil end      -- emptied
  t.x = i                                 -- a rehash to a small table
  sum = sum + t.x
  churn(40)
end
print("regrown", sum)
