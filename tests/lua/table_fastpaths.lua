-- Interpreter fast paths on tables (0004 round 6): constructors with a
-- trailing call, stores into nil array slots and new integer keys with and
-- without a metatable, raw misses with and without __index.
local function none() end
local function two() return 1, 2 end
local function many() return 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18 end
local function show(t) local s = {} for i = 1, #t do s[i] = tostring(t[i]) end return #t .. ":" .. table.concat(s, ",") end
print(show({none()}), show({two()}), show({0, two()}), show({0, none()}), show({many()}), show({0, 0, many()}))
print(show({two(), two()}), show({"a", "b", "c", two()}), show({none(), none()}))
local h = {x = 1, two()}       -- hash part: the array grows the generic way
print(show(h), h.x)

-- nil array slots: a raw store without a metatable, __newindex with one
local t = {1, 2, 3}
t[2] = nil; t[2] = "two"; t[3] = nil
local log = {}
local m = setmetatable({1, 2, 3}, {__newindex = function(tt, k, v) log[#log + 1] = k .. "=" .. tostring(v); rawset(tt, k, v) end})
m[2] = nil; m[2] = "two"; m[4] = "four"; m[1] = "one"
print(t[1], t[2], t[3], m[1], m[2], m[4], table.concat(log, " "))
-- SETI (constant keys) on nil slots
local s = {nil, nil, nil}
s[1] = "a"; s[3] = "c"
local ms = setmetatable({nil, nil}, {__newindex = function(tt, k, v) rawset(tt, k, v .. "!") end})
ms[1] = "a"; ms[2] = "b"
print(s[1], s[2], s[3], ms[1], ms[2])
-- new integer keys: appends, negative, zero, hash-part keys
local a = {}
for i = 1, 100 do a[i] = i * i end
a[0] = "zero"; a[-5] = "neg"; a[1000] = "far"
local n = 0
for k, v in pairs(a) do n = n + 1 end
print(#a, a[0], a[-5], a[1000], a[50], n)
-- raw misses: nil without a metatable, __index with one
local plain = {10, 20}
local idx = setmetatable({}, {__index = function(_, k) return "idx:" .. tostring(k) end})
local key = 7
print(plain[3], plain.foo, plain[key], idx[3], idx.foo, idx[key])
