-- tables growing by new keys: string-keyed records (the rehash that skips
-- the integer count, table.c rehash_noints), string keys after a rehash
-- (newkey without rawinsert's lookup), integer keys arriving into
-- string-keyed tables (the array part must still form), __newindex on
-- absent keys
local function sorted(t)
  local ks = {}
  for k in pairs(t) do ks[#ks + 1] = tostring(k) .. "=" .. tostring(t[k]) end
  table.sort(ks)
  return table.concat(ks, " ")
end

-- records of every size up to 40 string keys
for n = 0, 40, 3 do
  local t = {}
  for j = 1, n do t["k" .. j] = j end
  local c, s = 0, 0
  for k, v in pairs(t) do c = c + 1; s = s + v; assert(t[k] == v) end
  print(n, c, s, #t, next({}) == nil)
end

-- integer keys after string keys: they must reach the array part as in lua5.4
local t = {}
for j = 1, 10 do t["s" .. j] = j end
for i = 1, 20 do t[i] = i * i end
print(#t, t[20], t.s10)
local order = {}
for i = 1, 20 do order[#order + 1] = t[i] end
print(table.concat(order, ","))
-- integer keys first, then strings, then a rehash: the integer layout stays lua5.4's
local h = {}
for i = 1, 30 do h[i * 7919 % 1009] = i end
for j = 1, 30 do h["x" .. j] = true end
local ints = {}
for k in pairs(h) do if math.type(k) == "integer" then ints[#ints + 1] = k end end
print(#ints)
-- only integer hash keys: pairs order must match lua5.4's
local p = {}
for i = 1, 12 do p[i * 37 % 101 + 200] = i end
local seq = {}
for k, v in pairs(p) do seq[#seq + 1] = k .. ":" .. v end
print(table.concat(seq, " "))

-- other key types mixed with strings
local m = {}
m[true] = 1; m[false] = 2; m[1.5] = 3; m[-0.25] = 4; m[2^53] = 5; m[math.maxinteger] = 6
m[print] = 7; m[m] = 8
for j = 1, 20 do m["k" .. j] = j end
m[2^63] = 9; m[math.mininteger] = 10
print(m[true], m[false], m[1.5], m[-0.25], m[2^53], m[math.maxinteger], m[print], m[m],
      m.k20, m[2^63], m[math.mininteger])
local cnt = 0
for _ in pairs(m) do cnt = cnt + 1 end
print(cnt)

-- removal and re-insertion while growing (dead keys in the hash part)
local r = {}
for j = 1, 50 do r["a" .. j] = j; if j % 3 == 0 then r["a" .. (j - 1)] = nil end end
print(sorted(r))

-- __newindex sees absent keys only, even on a table that grows
local log = {}
local base = {}
local proxy = setmetatable({}, { __newindex = function(t, k, v)
  log[#log + 1] = k; rawset(t, k, v) end })
for j = 1, 12 do proxy["f" .. j] = j end
proxy.f3 = 33            -- present: no __newindex
proxy[1] = "one"
proxy[1] = "uno"
print(#log, proxy.f3, proxy[1], table.concat(log, ","))
-- __newindex a table: the store goes there
local sink = {}
local fwd = setmetatable({}, { __newindex = sink })
for j = 1, 9 do fwd["g" .. j] = j end
print(next(fwd), sorted(sink))
-- a nil value stores nothing
local z = {}
z.a = nil; z[1] = nil
print(next(z))
-- lua_setfield / lua_settable through the C API (table.insert, string.gsub's table)
local api = {}
for j = 1, 10 do table.insert(api, j) end
print(#api, select(2, ("a b c"):gsub("%a", { a = "1" })))
-- an integer key among string keys moves to the array part at the next
-- rehash (next visits the array part first)
local w = {}
w.a = 1; w[1] = "x"; w.b = 2; w.c = 3; w.d = 4; w.e = 5; w[2] = "y"; w.f = 6; w.g = 7; w.h = 8
local k1, v1 = next(w)
local k2, v2 = next(w, k1)
print(k1, v1, k2, v2, #w)
