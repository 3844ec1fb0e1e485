-- table.sort without a comparator on plain arrays (sorted in place) and the
-- cases that keep the general path: ties of 1 and 1.0, NaN, mixed types,
-- hash-part elements, metatables, comparators
local function show(t, n)
  local out = {}
  for i = 1, n or #t do
    local v = t[i]
    out[i] = (math.type(v) == "float" and string.format("%.1f", v) .. "f") or tostring(v)
  end
  return table.concat(out, " ")
end

local seed = 7
local function rnd(m) seed = seed * 16807 % 2147483647; return seed % m + 1 end

local t = {5, 3, 9, 1, 7}; table.sort(t); print(show(t))
t = {"pear", "apple", "fig", "banana", "apple", ""}; table.sort(t); print(show(t))
t = {2, 1}; table.sort(t); print(show(t))
t = {1}; table.sort(t); print(show(t))
t = {}; table.sort(t); print(#t)
t = {3, 1, 1.0, 2, 1, 1.0, 2.0, 0, -0.0, 0.0, -1, 1}; table.sort(t); print(show(t))
t = {1.5, -2, 3, math.maxinteger, math.mininteger, 2^63, -2^63, 1e308, -1/0, 1/0}
table.sort(t); print(show(t))
t = {"b\0a", "b", "b\0", "a\0z", "a"}; table.sort(t)
for i = 1, #t do t[i] = t[i]:gsub("%z", "0") end
print(show(t))

-- larger arrays: distinct values, duplicates, sorted, reversed
for _, n in ipairs({10, 50, 200, 1000}) do
  local a, b, c = {}, {}, {}
  for i = 1, n do a[i] = rnd(n * 10); b[i] = "k" .. rnd(n); c[i] = n - i end
  table.sort(a); table.sort(b); table.sort(c)
  local ok = true
  for i = 2, n do
    if a[i - 1] > a[i] or b[i - 1] > b[i] or c[i - 1] > c[i] then ok = false end
  end
  print(n, ok, a[1], a[n], b[1], b[n], c[1], c[n])
end
local floats = {}
for i = 1, 300 do floats[i] = (rnd(1000) - 500) / 8 end
table.sort(floats)
print(floats[1], floats[150], floats[300])

-- NaN: an inconsistent order ('<' is false both ways)
for _, case in ipairs({ {1, 0/0, 2}, {0/0, 0/0, 0/0, 1}, {3, 2, 0/0, 1, 0/0, 5, 4} }) do
  local ok, err = pcall(table.sort, case)
  local out = {}
  for i = 1, #case do out[i] = case[i] ~= case[i] and "nan" or tostring(case[i]) end
  print(ok, err, table.concat(out, " "))
end

-- errors: mixed or incomparable values
print(pcall(table.sort, {1, "2", 3}))
print(pcall(table.sort, {"a", 1}))
print(pcall(table.sort, {true, false}))
print(pcall(table.sort, {{}, {}}))
print(pcall(table.sort, {1, 2, nil, 4}))

-- general path: hash part, metatables, comparators, boxed and mixed numbers
local h = {}
for i = 5, 1, -1 do h[i] = i * 3 end       -- filled backwards: hash part
table.sort(h); print(show(h, 5))
local mt = setmetatable({3, 1, 2}, {__index = function() return 0 end})
table.sort(mt); print(show(mt))
local lt = {__lt = function(a, b) return a.v < b.v end}
local objs = {}
for i, v in ipairs({4, 2, 3, 1}) do objs[i] = setmetatable({v = v}, lt) end
table.sort(objs)
for i = 1, 4 do objs[i] = objs[i].v end
print(show(objs))
t = {1, 5, 3, 2}; table.sort(t, function(a, b) return a > b end); print(show(t))
t = {"x", "yy", "z"}; table.sort(t, nil); print(show(t))
print(pcall(table.sort, {3, 2, 1}, 42))
local proxy = setmetatable({}, {__len = function() return 3 end,
  __index = function(_, k) return ({30, 10, 20})[k] end,
  __newindex = function(_, k, v) print("set", k, v) end})
table.sort(proxy)
