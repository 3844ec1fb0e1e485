-- Integer keys outside the array part at table accesses that, while the
-- interpreter recorded type feedback, only ever met keys inside it
-- (vm.c MVM_FB_INTHASH; llvmgen.c inthashseen), and string keys where
-- only integers were seen (vm.c FEEDBACK_KEY; llvmgen.c maystrkey), and
-- stores into nil slots of the array part where only values were
-- overwritten (vm.c FEEDBACK_NILSLOT; llvmgen.c set_finish):
-- compiled code then reads and writes such keys through the generic paths.  Keys in the hash part
-- (sparse, zero, negative, left there by a rehash), absent keys, keys past
-- the end, '__index' and '__newindex' on misses, and collections while it
-- runs; every result is checked against the same work on plain values.

local function sum(t, n)          -- GETTABLE with a register key
  local s = 0
  for i = 1, n do
    local v = t[i]
    if v then s = s + v end
  end
  return s
end

local function fill(t, lo, hi, v) -- SETTABLE with a register key
  for i = lo, hi do t[i] = v + i end
  return t
end

local function firsts(t)          -- GETI / SETI: constant keys
  local a, b = t[1], t[3]
  t[2] = (a or 0) + (b or 0)
  return a, b, t[2]
end

local function swap(t, i, j)      -- a read and a write at the same keys
  t[i], t[j] = t[j], t[i]
end

-- warm-up: array parts only, long enough for every mode to compile them
local arr = {}
for i = 1, 64 do arr[i] = i end
local acc = 0
for r = 1, 3000 do
  acc = acc + sum(arr, 64)
  fill(arr, 1, 64, r % 7)
  local a, b, c = firsts(arr)
  acc = acc + a + b + c
  swap(arr, 1 + r % 64, 64 - r % 64)
end
print("warm", acc)

-- the same functions on keys outside the array part
local sparse = {}
for i = 1, 200, 7 do sparse[i] = i end                -- every 7th key: the hash part
sparse[0], sparse[-5] = 10, 20
print("sparse sum", sum(sparse, 200), sparse[0], sparse[-5])
local h = {}
h[3], h[1] = 30, 10                                   -- out of order: hash part
print("firsts", firsts(h))
fill(h, -3, 5, 100)
print("fill", h[-3], h[0], h[1], h[5], #h >= 5)
swap(h, -3, 5)
print("swap", h[-3], h[5])

-- past the end of the array part, and absent keys
local short = { 1, 2, 3 }
print("short", sum(short, 10))
fill(short, 4, 40, 0)                                 -- appends past the array part
print("grown", #short, sum(short, 40))

-- metamethods on misses outside the array part
local log = {}
local proxy = setmetatable({ 1, 2 }, {
  __index = function(_, k) return k * 100 end,
  __newindex = function(t, k, v) log[#log + 1] = k; rawset(t, k, v) end,
})
print("index", sum(proxy, 5))                         -- 1 + 2 + 300 + 400 + 500
fill(proxy, 3, 6, 0)
print("newindex", table.concat(log, ","), rawget(proxy, 6))
local base = { [7] = 70 }
local derived = setmetatable({}, { __index = base })
print("inherited", firsts(setmetatable({ [3] = 3 }, { __index = { 1 } })), sum(derived, 7))

-- a rehash moves keys between the parts while compiled code runs
local moving = {}
local expect = 0
for i = 1, 3000 do
  local k = (i * 37) % 512 - 16                       -- zero, negative and positive keys
  moving[k] = (moving[k] or 0) + i
  expect = expect + i
  if i % 500 == 0 then collectgarbage() end
end
local got = 0
for k = -16, 495 do got = got + (moving[k] or 0) end
print("moving", got == expect, got)

-- a loop whose table changes from an array to a hash table midway
local function mixed(ts)
  local s = 0
  for _, t in ipairs(ts) do
    for i = 1, 8 do
      t[i] = (t[i] or 0) + i
      s = s + t[i]
    end
  end
  return s
end
local ts = {}
for i = 1, 400 do
  ts[i] = (i % 50 == 0) and setmetatable({}, { __index = function() return 1 end })
          or (i % 3 == 0) and { [8] = 8, [1] = 1 } or { 1, 2, 3, 4, 5, 6, 7, 8 }
end
print("mixed", mixed(ts))

-- keys of unknown type (read from a table) that were integers while the
-- feedback ran, then strings, floats, booleans
local function indirect(t, keys, n)
  local s = 0
  for i = 1, n do
    local k = keys[i]
    local v = t[k]
    if type(v) == "number" then s = s + v end
    t[k] = (v or 0) + 1
  end
  return s
end
local data, ikeys = {}, {}
for i = 1, 32 do data[i] = i; ikeys[i] = 33 - i end
local isum = 0
for _ = 1, 2000 do isum = isum + indirect(data, ikeys, 32) end
print("indirect ints", isum)
local skeys = { "a", "b", 2.0, "a", true, 1, "c", 0.5, "b" }
local rec = { a = 10, b = 20, [true] = 5, [0.5] = 7 }
print("indirect mixed", indirect(rec, skeys, #skeys), rec.a, rec.b, rec.c, rec[true], rec[0.5], rec[1], rec[2])
local proxied = setmetatable({}, { __index = function(_, k) return #tostring(k) end })
print("indirect proxied", indirect(proxied, { "xyz", "hello", 12345 }, 3))

-- a register that indexes tables and is then counted with (`pc = code[pc]`
-- ... `code[pc]` ... `pc + 1`): speculated an integer from the feedback of
-- its arithmetic, and later a float, a float key with an integer value, a
-- string
local function walk(code, start, steps)
  local pc, visited = start, 0
  for _ = 1, steps do
    local nxt = code[pc]
    if nxt == nil then break end
    visited = visited + pc
    pc = nxt
    pc = pc + 0
  end
  return visited, pc
end
local ring = {}
for i = 1, 16 do ring[i] = i % 16 + 1 end
local wsum = 0
for _ = 1, 2000 do wsum = wsum + walk(ring, 1, 40) end
print("walk ints", wsum)
local odd = { 2, 3.0, 4.5, [4.5] = 1 }
print("walk floats", walk(odd, 1, 10))
local named = { 2, "x", x = 1 }
print("walk string", pcall(walk, named, 1, 10))

-- stores that only ever overwrote values while the feedback ran, then
-- fill nil slots of an array part: the length, '__newindex' on a nil slot
local function setall(t, n, v)
  for i = 1, n do t[i] = v end
  t[2] = v                                            -- SETI
  return #t
end
local full = {}
for i = 1, 16 do full[i] = 0 end
local lens = 0
for r = 1, 2000 do lens = lens + setall(full, 16, r) end
print("setall full", lens, full[16])
local holes = { 1, 2, 3, 4, 5, 6, 7, 8 }
for i = 3, 8 do holes[i] = nil end                    -- nils inside the array part
print("setall holes", setall(holes, 6, "x"), holes[6], holes[7])
local seen = {}
local guarded = setmetatable({ 1, 2, 3, 4 }, { __newindex = function(t, k, v)
  seen[#seen + 1] = k; rawset(t, k, v .. "!") end })
guarded[3], guarded[4] = nil, nil
print("setall newindex", setall(guarded, 4, "v"), table.concat(seen, ","), guarded[3], guarded[4])
local shrink = { 1, 2, 3, 4, 5 }
local function clear(t, n) for i = n, 1, -1 do t[i] = nil end return #t end
for _ = 1, 2000 do for i = 1, 5 do shrink[i] = i end clear(shrink, 5) end
print("clear", #shrink, clear({ 1, 2, 3 }, 2))
