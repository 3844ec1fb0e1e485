-- String-keyed records filled field by field: the hash part of a table whose
-- keys are all strings starts at 4 nodes.  Contents, pairs, next, deletion
-- during traversal, later integer/float/boolean keys and # must be lua5.4's.
-- (Outputs never depend on the order of string keys: it is seeded.)

local function sortedpairs(t)
  local ks = {}
  for k in pairs(t) do ks[#ks + 1] = k end
  table.sort(ks, function(a, b)
    local ta, tb = type(a), type(b)
    if ta ~= tb then return ta < tb end
    if ta == "boolean" then return (a and 1 or 0) < (b and 1 or 0) end
    return a < b
  end)
  local out = {}
  for _, k in ipairs(ks) do out[#out + 1] = tostring(k) .. "=" .. tostring(t[k]) end
  return table.concat(out, " ")
end

-- 1..9 fields, by SETFIELD (constant names) and SETTABLE (run-time names)
for n = 1, 9 do
  local a, b = {}, {}
  local names = {}
  for i = 1, n do names[i] = "f" .. i end
  for i = 1, n do b[names[i]] = i * 10 end
  a.x = 1
  if n >= 2 then a.y = 2 end
  if n >= 3 then a.z = 3 end
  if n >= 4 then a.w = 4 end
  if n >= 5 then a.v = 5 end
  local cnt = 0
  for _ in pairs(b) do cnt = cnt + 1 end
  print(n, cnt, sortedpairs(a), sortedpairs(b))
end

-- deletion and re-insertion, assignments of nil to absent keys
local t = {}
t.a = 1; t.b = 2; t.a = nil; t.c = 3; t.d = nil; t.e = 5
print(sortedpairs(t), t.a, t.b, t.d)
t.b = nil; t.c = nil; t.e = nil
print(next(t), sortedpairs(t))
t.q = "back"
print(sortedpairs(t))

-- clearing fields during traversal (allowed), next after the last key
local r = {}
for i = 1, 3 do r["k" .. i] = i end
local seen = 0
for k, v in pairs(r) do seen = seen + v; r[k] = nil end
print(seen, next(r))

-- strings first, then keys of other types: integers go to the array part
-- as in lua5.4, borders and lengths
local m = {}
m.name = "m"
m[1] = "one"; m[2] = "two"; m[3] = "three"
print(#m, sortedpairs(m))
m[2] = nil
print(m[1], m[2], m[3])
local f = {}
f.s = 1; f[1.5] = "x"; f[true] = "t"; f[false] = "f"; f[2^60] = "big"
print(sortedpairs(f))
local g = {}
g[true] = 1; g.s = 2; g[0.5] = 3
print(sortedpairs(g))

-- a metatable with __newindex sees only new keys; rawset skips it
local log = {}
local p = setmetatable({}, { __newindex = function(t, k, v) log[#log + 1] = k; rawset(t, k, v) end })
p.a = 1; p.b = 2; p.a = 10; p.c = 3
print(table.concat(log, ","), sortedpairs(p))

-- many records (collections move them), then a check of every field
local objs = {}
for i = 1, 2000 do
  local o = {}
  o.id = i; o.name = "n" .. i; o.sq = i * i
  if i % 3 == 0 then o.extra = true end
  objs[i] = o
end
local sum, extras = 0, 0
for i = 1, #objs do
  local o = objs[i]
  assert(o.id == i and o.name == "n" .. i and o.sq == i * i)
  sum = sum + o.sq
  if o.extra then extras = extras + 1 end
end
print(sum, extras)
