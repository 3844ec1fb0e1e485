-- Raw fast paths of next/pairs (the traversal hint), ipairs on plain
-- tables, new string keys stored inline by SETFIELD, resize reinsertion,
-- and table.insert/remove at the edges, with and without metamethods.

local function keys(t)
  local ks = {}
  for k in pairs(t) do ks[#ks + 1] = tostring(k) end
  table.sort(ks)
  return table.concat(ks, " ")
end

-- next: missing key, explicit nil, extra arguments, errors
local t = {10, 20, x = 1}
print(next({}), next({}, nil))
print(select("#", next({})))
local k, v = next(t)
print(k, v)
print(next(t, 2))
print(pcall(next, t, "nokey"))
print(pcall(next, 1))
print(pcall(next))
print(select("#", next(t, "x")), next(t, "x"))
print(next({5}, nil, "extra"))

-- pairs order of integer keys in the hash part is lua5.4's
local h = {}
for i = 1, 40 do h[i * 7919 % 1009] = i end
local order = {}
for k2 in pairs(h) do order[#order + 1] = k2 end
print(#order, table.concat(order, ",", 1, 12))

-- deleting entries during traversal (allowed), nested traversals of
-- different tables (the hint is shared), and a traversal restarted
local d = {}
for i = 1, 100 do d["k" .. i] = i end
local n, sum = 0, 0
for k2, v2 in pairs(d) do
  n = n + 1; sum = sum + v2
  d[k2] = nil
  if n % 10 == 0 then collectgarbage() end
end
print(n, sum, next(d))
local a, b = {}, {}
for i = 1, 20 do a[i * 3 + 100] = i; b["b" .. i] = i end
local pairsum = 0
for _, va in pairs(a) do
  for _, vb in pairs(b) do pairsum = pairsum + va * vb end
end
print(pairsum)
local cnt = 0
for k2 in pairs(a) do
  cnt = cnt + 1
  if cnt == 5 then
    local c2 = 0
    for _ in pairs(a) do c2 = c2 + 1 end   -- inner traversal of the same table
    print("inner", c2)
  end
end
print("outer", cnt)
-- next from a float key
local f = {[1] = "a", [2^53] = "big", [1.5] = "f"}
print(next(f, 1.5) ~= 1.5)

-- ipairs: plain tables, holes, __index, non-tables with __index
local s = 0
for i, v2 in ipairs({1, 2, 3, nil, 5}) do s = s + i * v2 end
print(s)
local proxy = setmetatable({}, {__index = function(_, i) if i <= 4 then return i * 10 end end})
for i, v2 in ipairs(proxy) do io.write(i, "=", v2, " ") end
print()
local mixed = setmetatable({1, 2}, {__index = {nil, nil, 3, 4}})
for i, v2 in ipairs(mixed) do io.write(i, "=", v2, " ") end
print()
local ud = setmetatable({}, {__index = function(_, i) return i < 3 and i or nil end})
print(pcall(function() local c = 0 for _ in ipairs(ud) do c = c + 1 end return c end))
print(pcall(ipairs))
local it, st, ctl = ipairs({7})
print(it(st, ctl), it(st, 1), it({[math.maxinteger] = 1}, math.maxinteger - 1))
print(pcall(it, nil, 0))
print(pcall(it, {}, "x"))
print(it({[2] = "two"}, 1.0))

-- constructors and new fields: collisions, nil values, metatables
local recs = {}
for i = 1, 200 do
  recs[i] = {x = i, y = -i, name = "p" .. i, z = nil}
  recs[i].extra = i % 3 == 0 and i or nil
  recs[i].w = i
end
local rs = 0
for i = 1, 200 do local r = recs[i]; rs = rs + r.x + r.y + (r.extra or 0) + r.w end
print(rs, keys(recs[3]), keys(recs[4]))
local log = {}
local mt = {__newindex = function(tt, key, val) log[#log + 1] = key; rawset(tt, key, val) end}
local o = setmetatable({a = 1}, mt)
o.a = 2; o.b = 3; o.b = 4; o.c = nil
print(table.concat(log, ","), o.a, o.b, rawget(o, "c"))
local ro = setmetatable({}, {__newindex = function() error("read-only") end})
print(pcall(function() ro.field = 1 end))
local dead = {p = 1, q = 2}
dead.p = nil; dead.r = 3; dead.p = 5
print(keys(dead), dead.p, dead.q, dead.r)

-- table.insert / table.remove at the edges, errors
local q = {}
for i = 1, 10 do table.insert(q, i) end
table.insert(q, 1, 0); table.insert(q, #q + 1, 11); table.insert(q, 6, "mid")
print(table.concat(q, ","))
print(table.remove(q, 1), table.remove(q), table.remove(q, 5), #q)
print(table.concat(q, ","))
print(pcall(table.insert, q, 0, "x"))
print(pcall(table.insert, q, #q + 2, "x"))
print(pcall(table.insert, q, 1, 2, 3))
print(pcall(table.remove, q, #q + 2))
print(table.remove({}), table.remove({}, 0), table.remove({}, 1))
local e = {n = 1}
print(table.remove(e, #e), #e)
local obs = {}
local m2 = setmetatable({}, {
  __index = function(_, i) obs[#obs + 1] = "get" .. i; return rawget(_, -i) end,
  __newindex = function(tt, i, val) obs[#obs + 1] = "set" .. i; rawset(tt, -i, val) end,
  __len = function() return 3 end})
rawset(m2, -1, "a"); rawset(m2, -2, "b"); rawset(m2, -3, "c")
table.insert(m2, 1, "z")
print(table.concat(obs, " "))
obs = {}
print(table.remove(m2, 1), table.concat(obs, " "))
-- a queue that rotates through the array part
local qq = {}
for i = 1, 100 do qq[i] = i end
local qs = 0
for i = 1, 1000 do
  local val = table.remove(qq, 1 + (i % 3 == 0 and 0 or #qq - 1))
  qs = qs + val
  table.insert(qq, val)
end
print(#qq, qs, qq[1], qq[100])

-- sparse integer keys: growth through rehash keeps every entry
local sp = {}
for i = 1, 3000 do sp[i * 7919 % 100003] = i end
for i = 1, 3000, 2 do sp[i * 7919 % 100003] = nil end
local c3, s3 = 0, 0
for k2, v2 in pairs(sp) do c3 = c3 + 1; s3 = s3 + v2; assert(sp[k2] == v2) end
print(c3, s3)
local grow = {}
for i = 1, 64 do grow[i + 64] = i end   -- hash part, then moved to the array part
for i = 1, 64 do grow[i] = -i end
local g2 = 0
for i = 1, 128 do g2 = g2 + grow[i] end
print(#grow, g2)

-- ipairs' step inline: loop variables 1, 2, 3; the table changed by the
-- body; the iterator reused by hand; hooks on; a metatable set midway
local arr = {10, 20, 30, 40}
local out = {}
for i in ipairs(arr) do out[#out + 1] = i end
for i, v2, extra in ipairs(arr) do out[#out + 1] = v2 + i + (extra or 0) end
print(table.concat(out, ","))
out = {}
for i, v2 in ipairs(arr) do
  out[#out + 1] = v2
  if i == 2 then arr[4] = nil; arr[3] = 33 end
end
print(table.concat(out, ","))
local iter = ipairs({})
out = {}
for i, v2 in iter, {"a", "b"}, 0 do out[#out + 1] = i .. v2 end
for i, v2 in iter, {"a", "b"}, 1 do out[#out + 1] = i .. v2 end
print(table.concat(out, ","))
local hooked = 0
debug.sethook(function() hooked = hooked + 1 end, "c")
for _ in ipairs({1, 2, 3}) do end
debug.sethook()
print(hooked > 0)
local later = {1, 2, 3, 4}
out = {}
for i, v2 in ipairs(later) do
  out[#out + 1] = v2
  if i == 2 then setmetatable(later, {__index = function(_, k) return k < 6 and k * 100 or nil end}); later[3] = nil end
end
print(table.concat(out, ","))
local big = {}
big[math.maxinteger] = "last"
for i, v2 in iter, big, math.maxinteger - 1 do print(i, v2) end

-- next's step inline: 1 and 3 loop variables, next given by hand, an
-- invalid key (the error comes from next), a collection between steps
-- (removed entries whose keys die), hooks on
local ht = {a = 1, b = 2, c = 3, [1] = "one", [2] = "two"}
local ks = {}
for k2 in pairs(ht) do ks[#ks + 1] = tostring(k2) end
table.sort(ks)
print(table.concat(ks, " "))
local c4 = 0
for k2, v2, extra in next, ht do c4 = c4 + (extra == nil and 1 or 100) end
print(c4)
print(pcall(function() for _ in next, ht, "nokey" do end end))
print(pcall(function() for _ in next, {}, 1 do end end))
local objs = {}
for i = 1, 50 do objs[{}] = i end
local seen = 0
for k2, v2 in pairs(objs) do
  seen = seen + v2
  objs[k2] = nil
  collectgarbage()
end
print(seen, next(objs))
local hk = 0
debug.sethook(function() hk = hk + 1 end, "c")
for _ in pairs({x = 1, y = 2}) do end
debug.sethook()
print(hk > 0)
