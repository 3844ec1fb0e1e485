-- tables.lua: table-heavy loops: array append/read, string-keyed records,
-- integer-keyed hash parts, nested tables and table.insert/remove.
-- usage: mvm bench/tables.lua [scale]   (default 1)
local scale = tonumber(arg and arg[1]) or 1
local N = math.floor(1000000 * scale)
-- floor division written portably (LuaJIT, a Lua 5.1, has no //); an integer in 5.4
local function idiv(a, b) return math.floor(a / b) end

-- 1. arrays: fill, then sum with ipairs and with a numeric loop
local arr = {}
for i = 1, N do arr[#arr + 1] = i end
local s1, s2 = 0, 0
for _, v in ipairs(arr) do s1 = s1 + v end
for i = 1, #arr do s2 = s2 + arr[i] end
assert(s1 == idiv(N * (N + 1), 2) and s2 == s1, "array sums")

-- 2. records with string keys (constructor + field updates)
local pts = {}
for i = 1, idiv(N, 4) do
  pts[i] = { x = i, y = i * 2, name = "p" }
end
local sx = 0
for round = 1, 4 do
  for i = 1, #pts do
    local p = pts[i]
    p.x = p.x + 1
    sx = sx + p.x + p.y
  end
end
local M = idiv(N, 4)
-- each round r adds sum(i + r) + sum(2i) over i = 1..M
local expect = 0
for r = 1, 4 do expect = expect + (idiv(M * (M + 1), 2) + r * M) + M * (M + 1) end
assert(sx == expect, "record sums")

-- 3. sparse integer keys (hash part) and string keys built at run time
local h = {}
for i = 1, idiv(N, 2) do h[i * 7919 % 1000003] = i end
local cnt = 0
for _ in pairs(h) do cnt = cnt + 1 end
assert(cnt == idiv(N, 2), "hash count " .. cnt)
local names = {}
for i = 1, 5000 do names["k" .. i] = i end
local ns = 0
for round = 1, 100 * scale do
  for i = 1, 5000, 7 do ns = ns + names["k" .. i] end
end

-- 4. a queue with table.insert / table.remove
local q = {}
for i = 1, 1000 do table.insert(q, i) end
local qs = 0
for i = 1, idiv(N, 10) do
  local v = table.remove(q, 1 + (i % 3 == 0 and 0 or #q - 1))
  qs = qs + v
  table.insert(q, v)
end
assert(#q == 1000, "queue size")

print(string.format("tables ok: %d %d %d %d %d", s1, sx, cnt, ns, qs))
