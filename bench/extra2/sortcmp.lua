-- sortcmp.lua: table.sort with Lua comparator functions: records sorted by
-- several keys (a multi-key comparator reading fields), by a computed key
-- through a closure, in reverse, strings by length then value; plus a
-- binary search over the sorted result.
-- usage: mvm bench/extra2/sortcmp.lua [n]   (default 40000)
-- Self-check: every result is ordered and is a permutation of its input.
local n = tonumber(arg and arg[1]) or 40000
local seed = 12345
local function rand(m) seed = (seed * 1103515245 + 12345) % 2147483648 return seed % m end

local recs = {}
for i = 1, n do
  recs[i] = {id = i, dept = rand(20), age = 20 + rand(45), name = "p" .. rand(1000)}
end
local function bydeptage(a, b)
  if a.dept ~= b.dept then return a.dept < b.dept end
  if a.age ~= b.age then return a.age > b.age end
  return a.id < b.id
end
local function ordered(t, lt)
  for i = 2, #t do if lt(t[i], t[i - 1]) then return false end end
  return true
end
local function checksum(t, f) local s = 0 for i = 1, #t do s = s + f(t[i]) * (i % 3 + 1) end return s end

local rounds, inv = 0, 0
for round = 1, 3 do
  local a = {}
  for i = 1, n do a[i] = recs[(i * 7919 + round) % n + 1] end
  table.sort(a, bydeptage)
  assert(ordered(a, bydeptage), "multi-key order")
  -- computed key through a closure over a weight table
  local w = {}
  for d = 0, 19 do w[d] = (d * 37 + round) % 23 end
  local b = {}
  for i = 1, n do b[i] = a[i] end
  local function lt(x, y)
    local kx, ky = w[x.dept] * 100 + x.age, w[y.dept] * 100 + y.age
    if kx ~= ky then return kx < ky end
    return x.id < y.id
  end
  table.sort(b, lt)
  assert(ordered(b, lt), "computed-key order")
  -- reverse numeric order
  local c = {}
  for i = 1, n do c[i] = a[i].id * 3 % 1009 + a[i].age end
  table.sort(c, function(x, y) return x > y end)
  for i = 2, n do assert(c[i - 1] >= c[i]) end
  -- strings: by length, then lexicographically
  local s = {}
  for i = 1, n // 2 do s[i] = a[i].name .. (i % 3 == 0 and "x" or "") end
  table.sort(s, function(x, y) if #x ~= #y then return #x < #y end return x < y end)
  for i = 2, #s do assert(#s[i - 1] < #s[i] or (#s[i - 1] == #s[i] and s[i - 1] <= s[i])) end
  -- binary search for every id's key in c (ascending copy)
  local asc = {}
  for i = 1, n do asc[i] = c[n + 1 - i] end
  local found = 0
  for i = 1, n, 3 do
    local key = a[i].id * 3 % 1009 + a[i].age
    local lo, hi = 1, n
    while lo < hi do
      local mid = (lo + hi) // 2
      if asc[mid] < key then lo = mid + 1 else hi = mid end
    end
    if asc[lo] == key then found = found + 1 end
  end
  assert(found == (n + 2) // 3, "binary search " .. found)
  -- permutation check: the sum of ids is unchanged
  assert(checksum(a, function(r) return 1 end) == checksum(b, function(r) return 1 end))
  local ids = 0
  for i = 1, n do ids = ids + b[i].id end
  rounds = rounds + 1
  inv = inv + ids
end
local want = 0
for round = 1, 3 do
  for i = 1, n do want = want + recs[(i * 7919 + round) % n + 1].id end
end
assert(inv == want, "ids " .. inv .. " vs " .. want)
print(string.format("sortcmp: %d records sorted 4 ways, %d rounds, id sum %d", n, rounds, inv))
