-- Table paths of compiled code after session 9's IR cuts (llvmgen.c
-- tabcard, selfk/mvmrt_selfv, setslot/mvmrt_strsethint with JitKeySite,
-- exittail): card marks of young values stored into old tables, SELF on
-- tables, strings and other values at one site, stores into nil fields
-- (the leaf's hint and 'extra' clear), method caches seeing "__index"
-- and methods change through such stores, exits from many pcs.

-- 1. young tables and strings stored into old tables' parts (node array,
-- array part, inline array), then collected: the card marks must keep them
local old = {}
for i = 1, 64 do old[i] = false end
local oldh = {a = false, b = false, c = false, d = false}
collectgarbage(); collectgarbage()   -- old and oldh are old now
local function fill(n)
  for i = 1, n do
    old[i % 64 + 1] = {i}              -- SETTABLE into the array part
    oldh.a = {i * 2}                   -- SETFIELD into the node array
    oldh[i % 2 == 0 and "b" or "c"] = {i * 3}   -- SETTABLE, string key
    local s = {}; s.x = {i}; oldh.d = s
    old[1] = i % 3 == 0 and 1.5 or old[1]       -- numbers: no mark
  end
end
for r = 1, 5 do
  fill(200)
  local junk = {}
  for j = 1, 2000 do junk[j] = {j} end   -- minor collections
  collectgarbage("step")
end
local sum = 0
for i = 2, 64 do sum = sum + old[i][1] end
print("cards", sum, oldh.a[1], oldh.b[1], oldh.c[1], oldh.d.x[1])

-- 2. SELF at one site on tables of two classes, strings, and errors
local A = {}; A.__index = A
function A.name(self) return "A" .. self.v end
local B = {}; B.__index = B
function B.name(self) return "B" .. self.v end
local function callname(o) return o:name() end
local function callupper(o) return o:upper() end
local out = {}
for i = 1, 30 do
  local o
  if i % 3 == 0 then o = setmetatable({v = i}, A)
  elseif i % 3 == 1 then o = setmetatable({v = i}, B)
  else o = {v = i, name = function(self) return "own" .. self.v end} end
  out[#out + 1] = callname(o)
end
print(table.concat(out, " ", 1, 9))
local s = {}
for i = 1, 6 do
  s[#s + 1] = callupper(i % 2 == 0 and "ab" .. i or setmetatable({}, {__index = {upper = function() return "T" .. i end}}))
end
print(table.concat(s, " "))
print(pcall(callname, nil))
print(pcall(callname, 42))
print(pcall(callupper, true))
local smeta = getmetatable("")
local oldidx = smeta.__index
smeta.__index = setmetatable({upper = function(x) return "mine:" .. x end}, {__index = oldidx})
print(callupper("q"), ("z"):len())
smeta.__index = oldidx
print(callupper("q"))

-- 3. stores into fields whose node holds nil (the leaf path), with the
-- hint moving between layouts; '__newindex' appearing on a nil field
local function setx(t, v) t.x = v; return t.x end
local objs = {}
for i = 1, 8 do
  local t = {}
  for k = 1, i do t["k" .. k] = k end
  t.x = 0; t.x = nil                 -- a node with nil
  objs[i] = t
end
local acc = 0
for r = 1, 20 do
  for i = 1, 8 do acc = acc + setx(objs[i], r + i) end
  for i = 1, 8 do objs[i].x = nil end
end
print("nilfields", acc)
local logged = {}
local mt = {__newindex = function(t, k, v) logged[#logged + 1] = k .. "=" .. tostring(v) end}
local t = {x = 1}; t.x = nil
setmetatable(t, mt)
setx(t, 5)                            -- nil node, '__newindex' applies
print(rawget(t, "x"), table.concat(logged, ","))

-- 4. a method cache invalidated through a store into a nil field
local C = {}; C.__index = C
function C.f() return 1 end
local function callf(o) return o:f() end
local o = setmetatable({}, C)
local r = {}
for i = 1, 10 do
  r[#r + 1] = callf(o)
  if i == 3 then C.f = nil; C.g = 0 end          -- f's node keeps a nil
  if i == 3 then local D = {f = function() return 2 end}; C.__index = D end
  if i == 6 then C.__index = C; C.f = function() return 3 end end   -- store into the nil node
end
print(table.concat(r, " "))
-- "__index" itself stored into a node holding nil
local P = {}
local Q = {m = function() return "Q" end}
local mt2 = {__index = 1}; mt2.__index = nil
local obj = setmetatable({}, mt2)
local function getm(x) return x.m end
print(getm(obj))
local function setidx(m, v) m.__index = v end
setidx(mt2, Q)
print(getm(obj) ~= nil, obj:m())

-- 5. exits from many pcs of one function (reads of non-tables, '__index'
-- functions), each resumed at its own instruction
local function reads(a, b, c, d)
  local x = a.f
  local y = b.g
  local z = c[1]
  local w = d.h
  return tostring(x) .. tostring(y) .. tostring(z) .. tostring(w)
end
local fi = setmetatable({}, {__index = function(_, k) return k end})
local res = {}
for i = 1, 12 do
  local a = i % 4 == 0 and fi or {f = i}
  local b = i % 4 == 1 and fi or {g = -i}
  local c = i % 4 == 2 and fi or {i * 10}
  local d = i % 4 == 3 and "str" or {h = true}
  local ok, v = pcall(reads, a, b, c, d)
  res[#res + 1] = ok and v or (v:match("attempt to index") and "err" or v)
end
print(table.concat(res, " "))
