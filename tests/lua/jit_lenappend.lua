-- Lengths and integer-key stores of compiled code off the array part's
-- fast paths: lists growing from {} (an empty array part, a full one),
-- `self.log[#self.log + 1] = v` (the length read through another
-- register: no fused append), holes, nil stores, float and negative keys,
-- and tables with __len and __newindex, which must still be called.

local Acc = {}
Acc.__index = Acc
function Acc.new() return setmetatable({log = {}, n = 0}, Acc) end
function Acc:add(v) self.log[#self.log + 1] = v; self.n = self.n + 1 end
function Acc:len() return #self.log end

local function grow(n)
  local t, lens = {}, {}
  for i = 1, n do
    lens[#lens + 1] = #t
    t[i] = i * 10
  end
  return t, lens
end

for round = 1, 3 do
  local a = Acc.new()
  for i = 1, 40 do a:add(i) end
  local t, lens = grow(20)
  print("acc", round, a:len(), a.n, a.log[1], a.log[40])
  print("grow", round, #t, table.concat(lens, ","))
end

-- stores by computed integer keys: new keys beyond the array part, nil
-- stores, holes, float keys with integer values, negative and zero keys
local function fill(t, from, to, step, v)
  for k = from, to, step do if v == nil then t[k] = k else t[k] = v end end
  return t
end
local function keys(t)
  local ks = {}
  for k in pairs(t) do ks[#ks + 1] = tostring(k) end
  table.sort(ks)
  return table.concat(ks, " ")
end
for round = 1, 3 do
  local t = fill({}, 1, 9, 1)
  fill(t, 5, 9, 2, false)
  print("fill", round, #t, t[5], t[9], keys(t))
  local h = fill({}, -3, 3, 1)
  print("neg", round, #h, h[-3], h[0], keys(h))
  local f = {}
  for k = 1.0, 4.0 do f[k] = k end        -- float keys with integer values
  print("float", round, #f, math.type(next(f)), f[2], keys(f))
  local z = {1, 2, 3}
  for k = 3, 1, -1 do z[k] = nil end
  print("nil", round, #z, next(z))
  local big = {}
  big[100] = 1; big[1] = 1; big[2] = 2
  print("sparse", round, big[100], (#big == 2 or #big == 100))
end

-- metatables: __len answers, __newindex sees each new key
local seen = {}
local mt = {__len = function() return 42 end,
            __newindex = function(t, k, v) seen[#seen + 1] = k; rawset(t, k, v) end}
local function lens(t) local s = 0 for _ = 1, 5 do s = s + #t end return s end
local function puts(t) for k = 1, 5 do t[k] = k end return t end
for round = 1, 3 do
  seen = {}
  local m = setmetatable({}, mt)
  puts(m)
  print("meta", round, lens(m), rawlen(m), table.concat(seen, ","))
  local plain = puts({})
  print("plain", round, lens(plain), #plain)
end

-- errors keep their messages
print(pcall(function(x) return #x end, 5))
print(pcall(function(t, k) t[k] = 1 end, {}, 0 / 0))
print(pcall(function(t, k) t[k] = 1 end, {}, nil))
