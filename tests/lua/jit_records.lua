-- jit_records.lua: record constructors whose compiled NEWTABLE copies
-- the layout of the site's first record (table.h TabTemplate, jitrt.c
-- mvmrt_newrecord): the constructor's keys are there with nil values
-- before its stores.  Such a key must be absent for every lookup, for
-- next/pairs, the length, rawget, metamethods (a metatable made by a
-- constructor whose '__index' or '__newindex' field is nil, cached as
-- absent, then set), and records must grow, shrink and be collected as
-- any other table.
local function keys(t)
  local r = {}
  for k, v in pairs(t) do r[#r + 1] = tostring(k) .. "=" .. tostring(v) end
  table.sort(r)
  return table.concat(r, " ")
end

local function point(x, y) return {x = x, y = y} end
local function maybe(a, b, c) return {a = a, b = b, c = c} end   -- nil fields
local function dup(v) return {k = v, k = v + 1, j = v} end         -- a key twice
local function big(v)                                                -- 10 keys: > 8 nodes
  return {f1 = v, f2 = v, f3 = v, f4 = v, f5 = v, f6 = v, f7 = v, f8 = v, f9 = v, f10 = v}
end
local function mixed(v) return {v, v + 1, name = "m" .. v, [v + 100] = "int"} end
local function nested(v) return {inner = {x = v}, tag = "n"} end
local function partial(v)                                             -- an error halfway
  return {first = v, second = v > 0 and error("stop " .. v) or v, third = v}
end

local sum, n = 0, 0
for i = 1, 3000 do
  local p = point(i, -i)
  sum = sum + p.x + p.y
  local m = maybe(i % 2 == 0 and i or nil, nil, i % 3 == 0 and "c" or nil)
  if m.a then n = n + 1 end
  if next(m) == nil then n = n + 1000 end
  if rawget(m, "b") ~= nil then error("b present") end
  local d = dup(i)
  assert(d.k == i + 1 and d.j == i)
  assert(big(i).f10 == i)
  local x = mixed(i)
  assert(#x == 2 and x.name == "m" .. i and x[i + 100] == "int")
  assert(nested(i).inner.x == i)
end
print("sums", sum, n)
print("maybe", keys(maybe(1, nil, nil)), "|", keys(maybe(nil, nil, nil)), "|", keys(maybe(nil, 2, 3)))
print("dup", keys(dup(5)), "big", keys(big(1)):sub(1, 20))
print("mixed", keys(mixed(7)))
-- the length of a record is 0, its keys absent for #
print("len", #point(1, 2), #maybe(nil, nil, nil))
-- next from a nil field, and a record's keys after its stores of nil
local m = maybe(nil, 5, nil)
print("next", next(m), next(m, "b"))
m.b = nil
print("emptied", next(m), keys(m))
-- errors halfway: the partly built table is never seen
local ok, err = pcall(partial, 1)
print("partial", ok, (err:gsub("^.-:%d+: ", "")))
print("partial ok", keys(partial(0)))

-- metatables made by a constructor with nil metamethod fields
local function meta(idx, nidx) return {__index = idx, __newindex = nidx} end
local log = {}
for i = 1, 200 do
  local mt = meta(nil, nil)
  local o = setmetatable({}, mt)
  local a = o.missing                      -- '__index' absent: cached
  o.field = i                              -- '__newindex' absent: cached
  mt.__index = function(_, k) return "idx:" .. k end
  mt.__newindex = function(t, k, v) rawset(t, k, v * 2) end
  local b = o.missing
  o.other = i
  if i == 200 then log[#log + 1] = tostring(a) .. " " .. b .. " " .. o.field .. " " .. o.other end
end
print("meta", log[1])

-- records grow past their constructor, are emptied and filled again
local grown
for i = 1, 500 do
  local r = point(i, i)
  for k = 1, 20 do r["k" .. k] = k end
  r.x, r.y = nil, nil
  r.z = i
  grown = r
end
local c = 0
for _ in pairs(grown) do c = c + 1 end
print("grown", c, grown.x, grown.z, grown.k20)

-- collections between records of one site
local keep = {}
for i = 1, 2000 do
  keep[i % 50 + 1] = point(i, i * 2)
  if i % 500 == 0 then collectgarbage() end
end
local t = 0
for _, p in ipairs(keep) do t = t + p.x + p.y end
print("kept", t)
