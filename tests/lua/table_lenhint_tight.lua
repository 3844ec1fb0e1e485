-- '#t' answers from a cached border while the array part is known to be
-- "values at 1..h, nils after" (Table.lenhint, tight); every store path
-- into the array part must keep that knowledge exact or drop it.  Each
-- check prints '#t' where the border is unique (a sequence), else only
-- whether the answer is a border; the loops run compiled under -j eager,
-- so compiled code's inline stores are exercised too.

local function isborder(t, n)
  return (n == 0 or rawget(t, n) ~= nil) and rawget(t, n + 1) == nil
end
local function count(t)   -- the length of the sequence t must be
  local n = 0
  while rawget(t, n + 1) ~= nil do n = n + 1 end
  return n
end
local function check(tag, t, unique)
  local n = #t
  if not isborder(t, n) then error(tag .. ": " .. n .. " is not a border") end
  if unique and n ~= count(t) then error(tag .. ": " .. n .. " for " .. count(t)) end
  if unique then print(tag, n) else print(tag, "border") end
end

-- 1. stores at the border: pops and appends, compiled loops
local function pushpop(t, n, m)
  for i = 1, n do t[#t + 1] = i end
  for _ = 1, m do t[#t] = nil end
  return t
end
check("pushpop", pushpop({}, 100, 37), true)
check("pushpop all", pushpop({}, 10, 10), true)
local t = pushpop({}, 64, 0)
check("full 64", t, true)
t[65] = 65
check("grown", t, true)
for i = 65, 1, -1 do t[i] = nil end
check("emptied downwards", t, true)
t[1] = "x"
check("refilled 1", t, true)

-- 2. a nil in the middle, then the gap closed again
local function fill(n) local u = {} for i = 1, n do u[i] = i end return u end
t = fill(40)
t[17] = nil
check("hole 17", t, false)
t[17] = 17
check("hole 17 closed", t, true)
t[40] = nil; t[39] = nil
check("top cleared", t, true)
t[39] = 39
check("top 39 back", t, true)

-- 3. values stored above the border, then the gap filled
local function above(u, from, to) for i = from, to do u[i] = i end return u end
t = {}
for i = 1, 8 do t[i] = false end
for i = 1, 8 do t[i] = nil end           -- an all-nil array part of 8
check("all nil", t, true)
above(t, 5, 8)
check("values above", t, false)
above(t, 1, 4)
check("gap filled", t, true)
-- stores of nil above the border change nothing
t[9] = nil; t[12] = nil
check("nil above", t, true)

-- 4. reverse fills and presized tables
local function reverse(n) local u = {} for i = n, 1, -1 do u[i] = i end return u end
check("reverse 20", reverse(20), true)
local r = reverse(16)
r[16] = nil
check("reverse then pop", r, true)
local p = table.pack(1, 2, 3, 4, 5)
check("pack", p, true)
p[5] = nil
check("pack pop", p, true)
check("pack holes", table.pack(1, nil, 3), false)

-- 5. constructors (SETLIST), multiple batches, trailing calls
local function three() return 1, 2, 3 end
check("ctor", { 1, 2, 3, 4 }, true)
check("ctor call", { 0, three() }, true)
check("ctor call nil", { three(), nil }, true)
check("ctor nils", { nil, nil }, true)
check("ctor hole", { 1, nil, 3 }, false)
local big = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
  21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40,
  41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60 }
check("ctor 60", big, true)
big[60] = nil
check("ctor 60 pop", big, true)
local function varargs(...) return { ... } end
check("varargs", varargs(1, 2, 3), true)
check("varargs trailing nil", varargs(1, 2, nil), true)
check("varargs hole", varargs(1, nil, 3, 4), false)

-- 6. the table library: insert/remove (block moves), move, sort, concat
t = fill(10)
table.insert(t, 1, 0)
check("insert front", t, true)
table.insert(t, 5, "m")
check("insert middle", t, true)
table.insert(t, "end")
check("insert end", t, true)
print(table.remove(t, 1), table.remove(t), table.remove(t, 3))
check("removes", t, true)
while #t > 0 do table.remove(t, 1) end
check("removed all", t, true)
t = fill(10)
table.move(t, 1, 10, 3)                  -- up, overlapping: 1..12
check("move up", t, true)
table.move(t, 5, 12, 1)                  -- down: 1..8 rewritten, 9..12 stay
check("move down", t, true)
table.move({ nil, nil, nil }, 1, 3, 10, t)   -- nils over the top
check("move nils top", t, true)
table.move({ nil }, 1, 1, 4, t)              -- a nil in the middle
check("move nil middle", t, false)
local d = table.move(fill(5), 1, 5, 1, {})
check("move into new", d, true)
t = { 5, 3, 9, 1, 7 }
table.sort(t)
check("sorted", t, true)
print(table.concat(t, ","), table.unpack(t))
t[#t] = nil
print(table.concat(t, ","), select("#", table.unpack(t)))
local sum = 0
for _, v in ipairs(t) do sum = sum + v end
print("ipairs sum", sum)

-- 7. raw stores, float keys, C-side stores
t = fill(6)
rawset(t, 6, nil)
check("rawset pop", t, true)
rawset(t, 6, 6); rawset(t, 7, 7)
check("rawset push", t, true)
t[7.0] = nil
check("float key pop", t, true)
t[7.0] = 7
check("float key push", t, true)
local words = {}
string.gsub("one two three four", "%a+", function(w) words[#words + 1] = w end)
check("gsub appends", words, true)
words[#words] = nil
check("gsub pop", words, true)

-- 8. resizes: hash parts, rehash moving keys between the parts
t = {}
t.x = 1; t.y = 2
for i = 1, 33 do t[i] = i end
check("with fields", t, true)
for i = 1, 30 do t[i] = nil end
for i = 1, 200 do t["k" .. i] = i end    -- rehash: the array part shrinks
check("after rehash", t, false)
t = {}
t[3] = 3; t[2] = 2; t[1] = 1             -- hash keys first, moved by rehash
check("hash then array", t, true)
for i = 4, 100 do t[i] = i end
t[101] = nil
check("grown to 100", t, true)
t = {}
for i = 1, 16 do t[i] = i end
t[18] = 18                               -- beyond the array part: hash
check("array full, hash beyond", t, false)
t[17] = 17
check("gap 17 filled", t, true)

-- 9. next/pairs clearing entries while traversing
t = fill(20)
for k in pairs(t) do if k > 10 then t[k] = nil end end
check("pairs cleared top", t, true)
for k in next, t do t[k] = nil end
check("pairs cleared all", t, true)

-- 10. metatables: __newindex instead of a store into a nil slot, __index,
-- __len
local log = {}
local mt = { __newindex = function(u, k, v) log[#log + 1] = k end }
local function setall(u, n) for i = 1, n do u[i] = i end end
local w = setmetatable({ nil, nil, nil, nil }, mt)
setall(w, 4)
print("newindex calls", #log, rawlen(w))
rawset(w, 1, "a")
setall(w, 2)                             -- 1 present: stored; 2 absent: __newindex
print("after rawset", #log, rawlen(w), w[1])
local idx = setmetatable({ 1, 2 }, { __index = function(_, k) return k * 10 end })
print("index", #idx, idx[3])
idx[3] = 3
print("index stored", #idx, idx[4])
local ln = setmetatable(fill(5), { __len = function() return 99 end })
ln[5] = nil
print("len mm", #ln, rawlen(ln))

-- 11. coroutines
local co = coroutine.wrap(function(u)
  for i = 1, 5 do u[#u + 1] = i; coroutine.yield(#u) end
  u[#u] = nil
  return #u
end)
local shared = {}
for _ = 1, 6 do io.write(co(shared), " ") end
print()
check("coroutine", shared, true)

-- 12. weak values: the collector clears array slots
local keep = {}
local weak = setmetatable({}, { __mode = "v" })
for i = 1, 10 do
  local o = {}
  if i <= 4 then keep[i] = o end
  weak[i] = o
end
collectgarbage(); collectgarbage()
check("weak cleared", weak, true)
keep = nil
collectgarbage(); collectgarbage()
check("weak all gone", weak, true)

-- 13. a compiled loop mixing every kind of store
local function churn(u, n)
  for i = 1, n do
    local m = #u
    if i % 7 == 0 then u[m] = nil
    elseif i % 11 == 0 then u[m + 2] = i     -- above the border: a gap
    elseif i % 13 == 0 then u[m + 1] = i; u[m + 2] = nil
    else u[m + 1] = i end
    if not isborder(u, #u) then error("churn " .. i) end
  end
  return u
end
local c = churn({}, 3000)
print("churn", isborder(c, #c))
