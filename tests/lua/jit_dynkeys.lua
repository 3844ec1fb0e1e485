-- GETTABLE/SETTABLE/GETI/SETI with keys in registers (llvmgen.c gettab_int,
-- settab_int, strprobe, setstrkey, samekey): string, integer, float,
-- negative-zero, NaN and nil keys; metatables added mid-loop; tables
-- rehashing while a loop reads and writes them.

local function sorted(t)
  local ks = {}
  for k in pairs(t) do ks[#ks + 1] = k end
  table.sort(ks, function(a, b)
    if type(a) == type(b) and (type(a) == "number" or type(a) == "string") then return a < b end
    return type(a) < type(b)
  end)
  local out = {}
  for _, k in ipairs(ks) do out[#out + 1] = tostring(k) .. "=" .. tostring(t[k]) end
  return table.concat(out, " ")
end

-- string keys: counting substrings (the main position, then the chain;
-- the table rehashes while the loop runs; the store reuses the read's slot)
local function freq(s, k)
  local t = {}
  for i = 1, #s - k + 1 do local w = s:sub(i, i + k - 1) t[w] = (t[w] or 0) + 1 end
  return t
end
local dna = {}
local seed = 11
for i = 1, 3000 do seed = (seed * 69069 + 1) % 4294967296; dna[i] = ("acgt"):sub(seed % 4 + 1, seed % 4 + 1) end
dna = table.concat(dna)
for rep = 1, 3 do
  for k = 1, 3 do
    local t, n = freq(dna, k), 0
    for _, c in pairs(t) do n = n + c end
    if rep == 3 then print("freq", k, n, k == 1 and sorted(t) or t["acg"] or t["ac"]) end
  end
end

-- mixed key types at one site
local function mixed(t, keys)
  local r = {}
  for i = 1, #keys do local k = keys[i] r[#r + 1] = tostring(t[k]) end
  return table.concat(r, ",")
end
local tk, fk = {}, function() end
local m = { 10, 20, 30, x = "sx", [2.5] = "f2.5", [0] = "zero", [-3] = "neg", [true] = "T",
            [tk] = "tab", [fk] = "fn", [1000] = "big", [2^53] = "huge" }
local keys = { 1, 2, 3, 4, "x", "y", 2.5, 2.0, 0, -0.0, -3, -3.0, true, false, tk, fk, {}, 1000, 1000.0,
               2^53, 0/0 }
for rep = 1, 3 do
  local s = mixed(m, keys)
  if rep == 3 then print("mixed", s) end
end

-- stores with keys of every kind at one site, then read back
local function fill(t, keys, vals)
  for i = 1, #keys do t[keys[i]] = vals[i] end
  return t
end
for rep = 1, 3 do
  local t = fill({}, { "a", 1, 2.0, -0.0, 7.5, "b", -1, 100, 2^40, "a", 1.0 },
                 { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 })
  if rep == 3 then print("fill", sorted(t), #t) end
end

-- errors: nil and NaN keys in stores, with the line
local function badstore(t, k) t[k] = 1 end
for _, k in ipairs({ "ok", 5 }) do badstore({}, k) end
print(pcall(badstore, {}, nil))
print(pcall(badstore, {}, 0/0))
print(pcall(badstore, {}, -(0/0)))
local function badread(t, k) return t[k] end
print(pcall(badread, nil, "x"))
print(badread({}, nil), badread({}, 0/0))

-- integer keys past the array part (hash part, collision chains):
-- queens-style boolean arrays with holes, negative and zero keys
local function marks(n)
  local d1, d2, cnt = {}, {}, 0
  for r = 1, n do
    for c = 1, n do
      if not d1[r + c] and not d2[r - c] then
        d1[r + c], d2[r - c] = true, true
        cnt = cnt + 1
        d1[r + c], d2[r - c] = false, false
      end
    end
  end
  local s = 0
  for k = -2 * n, 2 * n + 2 do
    if d1[k] == false then s = s + k end
    if d2[k] == false then s = s + 2 * k end
  end
  return cnt, s
end
for rep = 1, 3 do
  local c, s = marks(12)
  if rep == 3 then print("marks", c, s) end
end
local function sparse(n)
  local t = {}
  for i = 1, n do t[i * 7919 % 100003] = i end
  for i = 1, n do local k = i * 7919 % 100003 t[k] = t[k] + 1 end
  local s = 0
  for i = 1, n do s = s + t[i * 7919 % 100003] end
  return s
end
for rep = 1, 3 do
  local s = sparse(2000)
  if rep == 3 then print("sparse", s) end
end

-- metatables added in the middle of a loop: __index and __newindex start
-- applying at once
local log = {}
local function countmeta(n, keys)
  local t = {}
  for i = 1, n do
    local k = keys[i % #keys + 1]
    if i > n // 2 and i % 5 == 0 then k = i % 2 == 0 and "new" .. i or i * 1000 + 0.5 end
    if i == n // 2 then
      setmetatable(t, {
        __index = function(_, key) log[#log + 1] = "i:" .. tostring(key) return 100 end,
        __newindex = function(tt, key, v) log[#log + 1] = "n:" .. tostring(key) rawset(tt, key, v) end })
    end
    t[k] = (t[k] or 0) + 1
  end
  return t
end
for rep = 1, 3 do
  log = {}
  local t = countmeta(40, { "p", "q", 3, 4.5 })
  if rep == 3 then print("meta", sorted(t), table.concat(log, " ")) end
end
local extra = { "r", 9, 0.25 }
for rep = 1, 3 do
  log = {}
  local t = countmeta(20, { "p", extra[rep], "q" })
  if rep == 3 then print("meta2", sorted(t), table.concat(log, " ")) end
end

-- a key named "__index" stored through a register into a metatable: the
-- tables using it see the new __index at once
local function setkey(t, k, v) t[k] = v end
local function getfoo(o) return o.foo end
for rep = 1, 3 do
  local mt = {}
  local o = setmetatable({}, mt)
  local before = getfoo(o)
  before = getfoo(o)
  setkey(mt, "__in" .. "dex", { foo = rep })
  local after = getfoo(o)
  setkey(mt, "__index", { foo = rep * 10 })
  if rep == 3 then print("index", before, after, getfoo(o)) end
end
-- the same through method calls (SELF's method caches watch the tables
-- their lookups went through)
local function callm(o) return o:m() end
for rep = 1, 3 do
  local mt = { __index = { m = function() return "one" end } }
  local o = setmetatable({}, mt)
  local r = {}
  for i = 1, 6 do
    r[#r + 1] = callm(o)
    if i == 2 then setkey(mt, "__index", { m = function() return "two" end }) end
    if i == 4 then setkey(mt.__index, "m", function() return "three" end) end
  end
  if rep == 3 then print("method", table.concat(r, " ")) end
end

-- string values that arithmetic coerces between the read and the store
local function bump(t, ks)
  for i = 1, #ks do local k = ks[i] t[k] = (t[k] or 0) + 1 end
  return t
end
for rep = 1, 3 do
  local t = bump({ a = "5", b = 1.5, [3] = "0x10" }, { "a", "b", 3, "a", "c", 3 })
  if rep == 3 then print("coerce", sorted(t)) end
end

-- a table rehashing under a loop that reads, writes and deletes
local function churn(n)
  local t, alive = {}, 0
  for i = 1, n do
    local k = "k" .. (i % 97)
    if t[k] then t[k] = nil alive = alive - 1 else t[k] = i alive = alive + 1 end
    t[i] = k
    t[-i] = t[i]
  end
  local c = 0
  for k, v in pairs(t) do c = c + 1 end
  return alive, c
end
for rep = 1, 3 do
  local a, c = churn(1000)
  if rep == 3 then print("churn", a, c) end
end

-- negative zero and integral floats as store keys, read with integers
local function zkeys()
  local t = {}
  t[-0.0] = "z"; t[3.0] = "three"; t[2^31] = "p31"
  return t[0], t[3], t[2147483648], t[-0.0], rawlen(t)
end
for rep = 1, 3 do
  local a, b, c, d, e = zkeys()
  if rep == 3 then print("zero", a, b, c, d, e) end
end
