-- table.insert(t, v) and table.remove(t) on plain tables (vm/api.c
-- api_tabpush/api_tabpop) and on everything that takes tablib's general
-- path: borders with holes, t[0], nil values, hash-part growth,
-- metatables with __len/__index/__newindex, bad arguments
local function show(t, n)
  local out = {}
  for i = 0, n do out[#out + 1] = tostring(t[i]) end
  return table.concat(out, " ")
end

local t = {}
for i = 1, 10 do table.insert(t, i * i) end
print(#t, show(t, 11))
print(table.remove(t), table.remove(t), #t)
table.insert(t, nil)              -- t[#t + 1] = nil: nothing changes
print(#t, show(t, 9))
-- remove from an empty table reads and clears t[0]
local z = { [0] = "zero" }
print(table.remove(z), z[0], table.remove(z), #z)
print(table.remove({}))
print(select('#', table.remove({})))
-- a hole: the border rules decide, as lua5.4
local h = { 1, 2, nil, 4 }
table.insert(h, 5)
print(#h, show(h, 6))
print(table.remove(h), #h)
-- hash-part integers (constructor with explicit keys), then appends
local k = { [1] = "a", [2] = "b", [3] = "c" }
table.insert(k, "d"); table.insert(k, "e")
print(#k, show(k, 6), table.remove(k), table.remove(k), #k)
-- grow past array doublings and shrink again
local g = {}
for i = 1, 1000 do table.insert(g, i) end
local s = 0
for i = 1, 600 do s = s + table.remove(g) end
print(#g, s, g[400], g[401])
for i = 1, 5 do table.insert(g, -i) end
print(#g, g[405], g[406])
-- old tables and young values (a collection between the appends)
local old = {}
for i = 1, 100 do table.insert(old, {i}) end
collectgarbage()
for i = 1, 100 do table.insert(old, {i + 100}) end
collectgarbage()
local sum = 0
for i = 1, #old do sum = sum + old[i][1] end
print(#old, sum)
-- positions and the general path
local p = { "a", "b", "c" }
table.insert(p, 1, "z"); table.insert(p, 5, "e"); table.insert(p, 3, "m")
print(table.concat(p, ","), table.remove(p, 1), table.remove(p, #p), table.concat(p, ","))
print(pcall(table.insert, p, 9, "x"))
print(pcall(table.insert, p, 0, "x"))
print(pcall(table.insert, p))
print(pcall(table.insert, p, 1, 2, 3))
print(pcall(table.insert, nil, 1))
print(pcall(table.insert, "str", 1))
print(pcall(table.remove, nil))
print(pcall(table.remove, p, 9))
print(#p, table.remove(p, #p + 1), #p)
-- metatables: __len, __index, __newindex are honoured
local log = {}
local proxy = setmetatable({}, {
  __len = function() return 41 end,
  __newindex = function(t, key, v) log[#log + 1] = key .. "=" .. tostring(v); rawset(t, key, v) end,
  __index = function(t, key) return "idx" .. key end,
})
table.insert(proxy, "v")
print(table.concat(log, " "), rawget(proxy, 42))
print(table.remove(proxy), table.concat(log, " "))
local plainmt = setmetatable({ 1, 2 }, {})
table.insert(plainmt, 3)
print(#plainmt, table.remove(plainmt), #plainmt)
-- the values inserted are any values
local any = {}
table.insert(any, false); table.insert(any, 0.5); table.insert(any, "s"); table.insert(any, print)
print(#any, any[1], any[2], any[3], any[4] == print)
print(table.remove(any) == print, table.remove(any), table.remove(any), table.remove(any), table.remove(any))
-- string.byte and string.sub: their general paths
print(("hello"):byte(), ("hello"):byte(-1), ("hello"):byte(2, 4), ("hello"):byte(10))
print(("hello"):sub(2), ("hello"):sub(-3), ("hello"):sub(2, -2), ("hello"):sub(0), ("hello"):sub(4, 2))
print(pcall(string.byte), pcall(string.sub, "x"), pcall(string.byte, "x", "y"))
print(string.byte("abc", 1.0), string.sub("abc", 2.0, 3), string.byte(123, 2))
print(tonumber("0x10"), tonumber("1e2"), tonumber("  5  "), tonumber("z", 36), tonumber(nil))
