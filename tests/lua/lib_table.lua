-- lib_table.lua: table library (insert/remove/move/concat/pack/unpack/sort)
print("table: start")

local function show(t, n)
  local parts = {}
  for i = 1, (n or #t) do parts[#parts + 1] = tostring(t[i]) end
  return "{" .. table.concat(parts, ",") .. "}"
end

-- insert / remove
local t = {}
table.insert(t, "a"); table.insert(t, "b"); table.insert(t, 1, "z"); table.insert(t, 4, "end")
print(show(t))
print(table.remove(t), table.remove(t, 1), show(t))
print(table.remove({}), table.remove({}, 0), #t)
print(table.remove(t, #t + 1), show(t))
print(pcall(table.insert, t, 0, "x"))
print(pcall(table.insert, t, 5, "x"))
print(pcall(table.insert, t))
print(pcall(table.insert, t, 1, 2, 3))
print(pcall(table.insert, nil, 1))
print(pcall(table.insert, t, "x", 1))
print(pcall(table.remove, t, 7))
print(pcall(table.remove, t, -1))
local r = {n = 0}
print(table.remove(r, 0), table.remove(r, #r))

-- concat
print(table.concat({1, 2, 3}), table.concat({1, 2, 3}, ", "), table.concat({1, 2.5, "x"}, "-", 2, 3))
print(table.concat({}, "x"), table.concat({1, 2}, "x", 3), table.concat({"a", "b"}, "", 2, 2))
print(pcall(table.concat, {1, {}, 3}))
print(pcall(table.concat, {1, 2}, ",", 1, 3))
print(pcall(table.concat, {true}))
print(pcall(table.concat, {}, {}))

-- pack / unpack
local p = table.pack(1, nil, 3, nil)
print(p.n, p[1], p[2], p[3], p[4])
print(table.pack().n)
print(table.unpack({1, 2, 3}))
print(table.unpack({1, 2, 3}, 2))
print(table.unpack({1, 2, 3}, 2, 5))
print(table.unpack({1, 2, 3}, 3, 2))
print(select('#', table.unpack({}, 1, 0)))
print(table.unpack({[-1] = "m", [0] = "z"}, -1, 0))
print(pcall(table.unpack, {}, 1, 1e7))
print(pcall(table.unpack, {}, math.mininteger, math.maxinteger))
print(table.unpack({}, math.maxinteger, math.maxinteger))

-- move
local a = {1, 2, 3, 4, 5}
print(show(table.move(a, 2, 4, 1)))
a = {1, 2, 3, 4, 5}
print(show(table.move(a, 1, 3, 3)))
local b = table.move({1, 2, 3}, 1, 3, 2, {})
print(b[1], b[2], b[3], b[4])
print(show(table.move({1, 2}, 1, 0, 5)))
print(pcall(table.move, {}, 1, math.maxinteger, 2))
print(pcall(table.move, {}, -1, math.maxinteger, 2))
print(pcall(table.move, {}, 1, 2))
print(pcall(table.move, {}, 1, 2, 3, 4))

-- metamethods are honoured
local log = {}
local store = {10, 20, 30}
local proxy = setmetatable({}, {
  __index = function(_, k) log[#log + 1] = "get" .. k; return store[k] end,
  __newindex = function(_, k, v) log[#log + 1] = "set" .. k; store[k] = v end,
  __len = function() return #store end,
})
table.insert(proxy, 40)
print(show(store), table.concat(log, " "))
log = {}
print(table.remove(proxy, 1), show(store), table.concat(log, " "))
print(table.concat(proxy, "+"), table.unpack(proxy))
table.sort(proxy, function(x, y) return x > y end)
print(show(store))
local moved = table.move(proxy, 1, 3, 1, {})
print(show(moved))
-- userdata-like object with only __index/__len is accepted for reading
local ro = setmetatable({}, {__index = function(_, i) return i * 2 end, __len = function() return 3 end})
print(table.concat(ro, ","), table.unpack(ro))
print(pcall(table.insert, ro, 1))

-- sort
local s = {5, 2, 8, 1, 9, 3, 7, 4, 6, 0}
table.sort(s); print(show(s))
table.sort(s, function(x, y) return x > y end); print(show(s))
local words = {"pear", "apple", "fig", "banana", "cherry"}
table.sort(words); print(show(words))
table.sort(words, function(x, y) return #x < #y or (#x == #y and x < y) end); print(show(words))
local one = {1}; table.sort(one); print(show(one))
local empty = {}; table.sort(empty); print(#empty)
local two = {2, 1}; table.sort(two); print(show(two))
local three = {3, 1, 2}; table.sort(three); print(show(three))
-- larger arrays, random and adversarial, verified
math.randomseed(1234)
for _, n in ipairs({10, 100, 1000, 5000}) do
  local big = {}
  for i = 1, n do big[i] = math.random(1, n // 2 + 1) end
  table.sort(big)
  local ok = true
  for i = 2, n do if big[i - 1] > big[i] then ok = false end end
  local desc = {}
  for i = 1, n do desc[i] = n - i end
  table.sort(desc)
  for i = 1, n do if desc[i] ~= i - 1 then ok = false end end
  local same = {}
  for i = 1, n do same[i] = 7 end
  table.sort(same)
  print("sorted", n, ok)
end
local floats = {3.5, -1, 2, 2.25, math.huge, -math.huge, 0}
table.sort(floats); print(show(floats))
print(pcall(table.sort, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, function() return true end))
print(pcall(table.sort, {1, "x", 3}))
print(pcall(table.sort, {1, 2, 3}, 42))
print(pcall(table.sort, setmetatable({}, {__len = function() return math.maxinteger end})))
local sc = {3, 1, 2}
table.sort(sc, nil); print(show(sc))
-- comparator errors propagate
print(pcall(table.sort, {3, 2, 1}, function(x, y) error("cmp failed") end))
-- table.pack of many values, of nils, of fresh tables across a collection
local big = table.pack(string.byte(string.rep("x", 300), 1, 300))
print(big.n, #big, big[1], big[300])
local holes = table.pack(nil, nil, 3)
print(holes.n, holes[1], holes[3], rawlen(holes) == 3 or rawlen(holes) == 0)
local fresh = table.pack({1}, {2}, {3})
collectgarbage()
print(fresh.n, fresh[1][1], fresh[3][1])
print("table: done")
