-- Small constructor arrays live inline behind the table (vm/table.c,
-- tab_newsized): growth out of the inline slots, a hash part added,
-- shrinking back, old tables holding young references in inline slots
-- (barrier + card scan), and weak tables.

local function dump(t, n)
  local parts = {}
  for i = 1, n do parts[#parts + 1] = tostring(t[i]) end
  return table.concat(parts, ",") .. " #" .. #t
end

-- every constructor size around the inline limit, with a call last
local function two() return "x", "y" end
for n = 1, 10 do
  local src = "local two = ... return {"
  for i = 1, n do src = src .. i .. "," end
  src = src .. "two()}"
  local t = load(src)(two)
  print(n, dump(t, n + 3))
end

-- growth past the inline slots, then back via a hash part and rehash
local t = {1, 2}
for i = 3, 20 do t[i] = i * 10 end
print(dump(t, 21))
t.name = "n"
for i = 20, 3, -1 do t[i] = nil end
collectgarbage()
print(dump(t, 4), t.name)
for k = 1, 40 do t["k" .. k] = k end     -- forces rehashes
print(dump(t, 3), t.k40)

-- old tables (promoted by full collections) get young values stored into
-- inline slots; minors must keep them alive and update them when they move
local keep = {}
for i = 1, 200 do keep[i] = {false, false} end
collectgarbage()
collectgarbage()
for round = 1, 5 do
  for i = 1, 200 do
    keep[i][1] = {round, i}          -- young table in an old inline slot
    keep[i][2] = "s" .. round .. i
  end
  local junk = {}
  for j = 1, 5000 do junk[j % 64 + 1] = {j, j + 1} end   -- several minors
end
local sum = 0
for i = 1, 200 do sum = sum + keep[i][1][1] + keep[i][1][2] end
print("sum", sum, keep[200][2])

-- a binary tree of inline pairs survives minors and majors
local function tree(d) if d == 0 then return {} end return {tree(d - 1), tree(d - 1)} end
local function count(t) if t[1] then return 1 + count(t[1]) + count(t[2]) end return 1 end
local long = tree(12)
for _ = 1, 20 do count(tree(8)) end
print("tree", count(long))

-- weak values in an inline array part
local w = setmetatable({{}, {}}, {__mode = "v"})
local held = w[1]
collectgarbage()
print("weak", w[1] == held, w[2])
