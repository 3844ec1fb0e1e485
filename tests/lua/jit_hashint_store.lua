-- Stores at positive integer keys past the array part: keys a rehash left
-- in the hash part (filled out of order), with values, with nils (removed
-- keys), under metatables with and without __newindex, new keys (the
-- helper), and the same store sites reached with other tables and keys
-- (exits and generic paths).  Each store site runs in a loop so that it
-- is compiled.

-- a table whose integer keys sit in the hash part: 1, then 3, 5, 7, ...
local function scattered(n)
  local t = {}
  t[1] = 0
  for k = 3, n, 2 do t[k] = 0 end
  return t
end

local function fill(t, lo, hi, v)
  for k = lo, hi do t[k] = v end
end

local function sum(t, lo, hi)
  local s, nils = 0, 0
  for k = lo, hi do
    local v = t[k]
    if v == nil then nils = nils + 1 elseif v == true then s = s + 1000
    elseif v ~= false then s = s + v end
  end
  return s, nils
end

-- existing hash keys with values: overwritten in place
local t = scattered(41)
for rep = 1, 30 do
  for k = 3, 41, 2 do t[k] = k * rep end
end
print("values", sum(t, 1, 41))

-- booleans, as queens stores them
for rep = 1, 20 do
  for k = 3, 41, 2 do t[k] = (rep % 2 == 0) end
end
print("bools", sum(t, 1, 41))

-- removed keys (nil values left in their nodes), then stored again
for k = 3, 41, 4 do t[k] = nil end
print("removed", sum(t, 1, 41))
for rep = 1, 10 do
  for k = 3, 41, 2 do t[k] = rep end
end
print("refilled", sum(t, 1, 41))

-- new keys through the same site (the even ones): the generic path
fill(t, 1, 60, 7)
print("new keys", sum(t, 1, 60), #t >= 1)

-- a metatable without __newindex: nil nodes are written
local plain = setmetatable(scattered(21), {__index = function() return -1 end})
for k = 3, 21, 4 do plain[k] = nil end
for rep = 1, 10 do fill(plain, 3, 21, rep) end
print("mt no newindex", sum(plain, 1, 21), plain[100])

-- __newindex: called for keys whose nodes hold nil, never for live ones
local calls = 0
local log = {}
local mt = {__newindex = function(tt, k, v) calls = calls + 1; log[#log + 1] = k; rawset(tt, k, v) end}
local guarded = setmetatable(scattered(21), mt)
for k = 3, 21, 4 do rawset(guarded, k, nil) end
for rep = 1, 10 do
  for k = 3, 21, 2 do guarded[k] = rep end
  if rep == 5 then for k = 3, 21, 8 do rawset(guarded, k, nil) end end
end
print("newindex calls", calls, table.concat(log, " "), sum(guarded, 1, 21))

-- __newindex as a table
local store = {}
local proxy = setmetatable(scattered(15), {__newindex = store})
for k = 5, 15, 5 do rawset(proxy, k, nil) end
for rep = 1, 5 do fill(proxy, 3, 15, rep) end
print("newindex table", sum(proxy, 1, 15), sum(store, 1, 20))

-- the same site with something else: a non-table, float keys, string keys
local function put(x, k, v) x[k] = v end
local h = scattered(31)
for i = 1, 200 do put(h, 3 + 2 * (i % 14), i) end
put(h, 5.0, "five")
put(h, "5", "str")
print("mixed keys", h[5], h["5"], sum(h, 7, 31))
local ok, err = pcall(put, 42, 5, 1)
print("non-table", ok, (tostring(err):gsub("^.-:%d+: ", "")))
local ok2, err2 = pcall(put, h, 0/0, 1)
print("nan key", ok2, (tostring(err2):gsub("^.-:%d+: ", "")))

-- a large sparse table: keys far past the array part, negative and zero
local sp = {}
for k = 1, 50 do sp[k * 1000] = k end
sp[0] = 0; sp[-5] = -5
for rep = 1, 5 do
  for k = 1, 50 do sp[k * 1000] = sp[k * 1000] + rep end
  sp[0] = sp[0] + 1; sp[-5] = sp[-5] - 1
end
local s = 0
for k = 1, 50 do s = s + sp[k * 1000] end
print("sparse", s, sp[0], sp[-5], sp[1001])

-- the collector: tables stored as values into hash nodes of an old table
local holder = scattered(61)
collectgarbage()
for rep = 1, 20 do
  for k = 3, 61, 2 do holder[k] = {rep, k} end
  if rep % 7 == 0 then collectgarbage() end
end
collectgarbage()
local tot = 0
for k = 3, 61, 2 do tot = tot + holder[k][1] + holder[k][2] end
print("refs", tot)

-- the length after stores into hash nodes next to the array part
local lt = {1, 2, 3, 4}
lt[6] = 6; lt[8] = 8
for rep = 1, 5 do lt[6] = rep; lt[8] = rep end
lt[5] = 5
print("len", #lt == 6 or #lt == 8, lt[5], lt[6], lt[7], lt[8])
