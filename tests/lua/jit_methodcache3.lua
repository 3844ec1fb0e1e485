-- Method caches, round 3: entries are valid while no TAB_WATCHED bit was
-- cleared since their fill (G->watchepoch), and receivers are proved
-- to lack the method's name by their string-key filter (node[0]'s pad,
-- vm/table.h) before any chain walk.  Every store that can change a
-- lookup must be seen at the next call: stores by inlined setters
-- (which skip the 'extra' byte except for "__index"), compiled SETFIELD
-- and SETTABLE stores into classes, rawset, setmetatable and
-- debug.setmetatable, table functions, stores made inside coroutines;
-- and receivers of every layout (node moves at insertion, resizes,
-- fields set to nil and back) must find their own fields.
local out = {}
local function log(...)
  local t = table.pack(...)
  for i = 1, t.n do t[i] = tostring(t[i]) end
  out[#out + 1] = table.concat(t, " ")
end

local function call(o) return o:m() end        -- the hot site
local function runs(n, o) local r; for _ = 1, n do r = call(o) end; return r end

-- 1. a setter method overwrites '__index' of a metatable (a non-nil value
-- over a non-nil value: the inlined setter must still count it)
local Setter = {}
Setter.__index = Setter
function Setter:setindex(v) self.__index = v end
function Setter:setm(f) self.m = f end
local A = { m = function() return "A" end }
local B = { m = function() return "B" end }
local mt = setmetatable({ __index = A }, Setter)
local obj = setmetatable({}, mt)
local function step(m, o, v)
  local r = o:m()
  m:setindex(v)
  return r
end
do
  local s = {}
  for i = 1, 300 do
    s[#s + 1] = step(mt, obj, i % 3 == 0 and B or A)
    if i % 50 == 0 then collectgarbage() end
  end
  log("setindex", table.concat(s, "", 1, 40), table.concat(s, "", 261, 300))
end

-- 2. a setter replaces the method in the class (the cached slot is read
-- at each hit) and stores nil into it (the class below is found then)
local Base = { m = function() return "base" end }
Base.__index = Base
local Cls = setmetatable({}, Base)
Cls.__index = Cls
Cls.setm = Setter.setm
local o2 = setmetatable({}, Cls)
local function step2(c, o, f)
  local r = o:m()
  c:setm(f)
  return r
end
do
  local f1 = function() return "f1" end
  local f2 = function() return "f2" end
  local s = {}
  for i = 1, 300 do
    local f = (i % 4 == 0) and nil or (i % 4 == 1) and f1 or f2
    s[#s + 1] = step2(Cls, o2, f)
  end
  log("setm", table.concat(s, ",", 1, 12), table.concat(s, ",", 289, 300))
end

-- 3. compiled stores into the class: SETFIELD with a constant key,
-- SETTABLE with a key in a register, a new key, then its removal
do
  local C = {}
  C.__index = C
  function C.m() return "C" end
  local P = { m = function() return "P" end, k = function() return "Pk" end }
  P.__index = P
  local D = setmetatable({}, P)
  D.__index = D
  local o = setmetatable({}, C)
  local od = setmetatable({}, D)
  local s = {}
  local name = "m"
  for i = 1, 400 do
    s[#s + 1] = o:m() .. od:m() .. od:k()
    if i % 5 == 0 then C.m = function() return "C" .. i end end
    if i % 7 == 0 then D[name] = function() return "D" .. i end end
    if i % 11 == 0 then D.m = nil end
    if i % 13 == 0 then D.k = function() return "Dk" end end
    if i % 17 == 0 then D.k = nil end
  end
  log("stores", s[1], s[5], s[6], s[7], s[8], s[11], s[12], s[13], s[14], s[17], s[18], s[400])
end

-- 4. rawset, setmetatable, debug.setmetatable, table.insert into the class
do
  local C = {}
  C.__index = C
  function C:m() return "C" end
  local o = setmetatable({}, C)
  local s = {}
  s[#s + 1] = runs(50, o)
  rawset(C, "m", function() return "rawset" end); s[#s + 1] = runs(50, o)
  local E = { m = function() return "E" end }
  setmetatable(C, nil)
  C.__index = E; s[#s + 1] = runs(50, o)          -- '__index' replaced
  rawset(C, "__index", C); s[#s + 1] = runs(50, o)
  debug.setmetatable(o, { __index = E }); s[#s + 1] = runs(50, o)
  debug.setmetatable(o, C); s[#s + 1] = runs(50, o)
  rawset(C, "m", nil); s[#s + 1] = tostring(pcall(runs, 50, o))
  setmetatable(C, { __index = E }); s[#s + 1] = runs(50, o)
  table.insert(C, 1) ; s[#s + 1] = runs(50, o)    -- integer keys: no change
  for i = 1, 40 do C["x" .. i] = i end             -- resizes of the class
  s[#s + 1] = runs(50, o)
  C.m = function() return "C again" end; s[#s + 1] = runs(50, o)
  log("api", table.concat(s, ","))
end

-- 5. receivers of every layout: n string fields inserted in several
-- orders, the method's name among them at every position, set to nil,
-- set again; many collisions (names sharing the same main position)
do
  local C = {}
  C.__index = C
  function C:m() return "C" end
  local function own(x) return function() return x end end
  local bad, total = 0, 0
  for n = 0, 24 do
    for pos = 0, n do
      for order = 1, 2 do
        local o = setmetatable({}, C)
        local keys = {}
        for i = 1, n do keys[i] = (order == 1) and ("f" .. i) or ("g" .. (n - i) .. "_" .. i) end
        for i = 1, n do
          if i == pos then o.m = own("own" .. i) end
          o[keys[i]] = i
        end
        local want = (pos >= 1) and ("own" .. pos) or "C"
        if pos >= 1 then
          if runs(3, o) ~= want then bad = bad + 1 end
          o.m = nil
          if runs(3, o) ~= "C" then bad = bad + 1 end
          o.m = own("again")
          if runs(3, o) ~= "again" then bad = bad + 1 end
          total = total + 3
        else
          local r = call(o)
          if r ~= want then bad = bad + 1 end
          rawset(o, "m", own("raw"))
          if runs(3, o) ~= "raw" then bad = bad + 1 end
          total = total + 2
        end
      end
    end
  end
  log("layouts", total, "bad", bad)
end

-- 6. stores made inside a coroutine between calls in another
do
  local C = {}
  C.__index = C
  function C:m() return "C1" end
  local o = setmetatable({}, C)
  local changer = coroutine.wrap(function()
    local k = 1
    while true do
      k = k + 1
      C.m = function() return "C" .. k end
      coroutine.yield()
      rawset(C, "m", nil)
      setmetatable(C, { __index = { m = function() return "meta" .. k end } })
      coroutine.yield()
      setmetatable(C, nil)
      coroutine.yield()
    end
  end)
  local user = coroutine.wrap(function()
    while true do coroutine.yield(runs(20, o)) end
  end)
  local s = {}
  for i = 1, 30 do
    local ok, r = pcall(user)
    s[#s + 1] = ok and r or "err"
    if not ok then
      user = coroutine.wrap(function()
        while true do coroutine.yield(runs(20, o)) end
      end)
    end
    changer()
  end
  log("coroutines", table.concat(s, ","))
end

-- 7. many key sets (the names vary the hashes as seeds do): an insertion
-- that moves a colliding key into node[0] keeps the filter there
do
  local C = {}
  C.__index = C
  function C:m() return "C" end
  local function own(x) return function() return x end end
  local bad, total = 0, 0
  for fam = 1, 24 do
    local pre = string.char(96 + fam % 12, 97 + fam)
    for n = 1, 18 do
      for pos = 1, n, 3 do
        local o = setmetatable({}, C)
        for i = 1, n do
          if i == pos then o.m = own("own") end
          o[pre .. i] = i
        end
        total = total + 1
        if runs(2, o) ~= "own" then bad = bad + 1 end
      end
    end
  end
  log("keysets", total, "bad", bad)
end

-- 8. deep inheritance (class -> metatable -> parent -> metatable ->
-- grandparent ...: up to eight tables on the walk, all watched): stores
-- at every level are seen
do
  local function class(super)
    local c = {}
    c.__index = c
    if super then setmetatable(c, { __index = super }) end
    return c
  end
  local G = class()
  function G:m() return "G" end
  local P = class(G)
  local C = class(P)
  local D = class(C)
  local o = setmetatable({}, D)
  local s = {}
  s[#s + 1] = runs(30, o)
  P.m = function() return "P" end; s[#s + 1] = runs(30, o)
  P.m = nil; s[#s + 1] = runs(30, o)
  G.m = function() return "G2" end; s[#s + 1] = runs(30, o)
  getmetatable(C).__index = G; s[#s + 1] = runs(30, o)       -- skips P
  getmetatable(C).__index = P; P.m = function() return "P2" end; s[#s + 1] = runs(30, o)
  rawset(getmetatable(P), "__index", { m = function() return "other" end })
  P.m = nil; s[#s + 1] = runs(30, o)
  setmetatable(P, { __index = G }); s[#s + 1] = runs(30, o)
  C.m = function() return "C" end; s[#s + 1] = runs(30, o)
  C.m = nil; D.m = function() return "D" end; s[#s + 1] = runs(30, o)
  D.m = nil; s[#s + 1] = runs(30, o)
  log("deep", table.concat(s, ","))
end

for _, l in ipairs(out) do print(l) end
