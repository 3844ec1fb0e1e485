-- jit_intabsent.lua -- reads of integer keys that a table lacks, in
-- compiled code: a key not at its main position whose node ends its chain
-- is absent without a call (llvmgen.c intslot2), a chain is walked by the
-- helper, and an absent key still reaches '__index'.

local function sum(t, lo, hi)
  local s, nils = 0, 0
  for i = lo, hi do
    local v = t[i]
    if v == nil then nils = nils + 1 else s = s + v end
  end
  return s, nils
end

-- 1. no hash part: every key past the array is absent (the dummy node)
local leaf = {}
local arr = {1, 2, 3}
print("empty", sum(leaf, -3, 5))
print("array", sum(arr, -2, 8))

-- 2. a hash part with integer keys: present ones, absent ones whose main
-- position holds another key (alone, or heading a chain)
local h = {}
for k = -20, 40, 3 do h[k] = k * 10 end
h[0] = 7
print("hash", sum(h, -25, 45))
local g = {}
for k = 100, 164 do g[k] = k end   -- collisions: chains in the node array
for k = 100, 164, 2 do g[k] = nil end
print("chains", sum(g, 90, 175))

-- 3. absent keys with '__index' (a function, a table, a chain of them)
local calls = 0
local viaf = setmetatable({1, 2}, {__index = function(_, k) calls = calls + 1; return k * 100 end})
print("index fn", sum(viaf, -1, 6), calls)
local base = {[5] = 50, [-1] = -10}
local viat = setmetatable({[1] = 1}, {__index = base})
print("index table", sum(viat, -2, 7))
local viac = setmetatable({}, {__index = viat})
print("index chain", sum(viac, -2, 7))

-- 4. the same table changing under a hot read: a hash part appears,
-- keys come and go, a metatable is set and removed
local t = {}
local out = {}
for round = 1, 6 do
  if round == 2 then t[10] = 1 end
  if round == 3 then for k = 11, 30 do t[k] = k end end
  if round == 4 then setmetatable(t, {__index = function() return 0 end}) end
  if round == 5 then setmetatable(t, nil); t[10] = nil end
  if round == 6 then t[-5] = 5; t[0] = 0 end
  local s, n = sum(t, -6, 31)
  out[#out + 1] = s .. "/" .. n
end
print("changing", table.concat(out, " "))
