-- Stores in compiled loops whose misses are exits (llvmgen.c setexit):
-- a SETFIELD inside a loop that the inline paths cannot finish (not a
-- table, a key neither present nor insertable at its free main position,
-- '__newindex') leaves compiled code at the store and the interpreter
-- redoes it; nothing was written before.  Each kind of miss happens
-- after the loop ran hot on stores of existing fields.  Stores that fill
-- a table made just before (constructors, `local t = {}` and its fields)
-- keep their helper and must not leave.

-- the nbody shape: fields read and written back every iteration
local function step(bodies, n)
  local e = 0
  for i = 1, n do
    local b = bodies[(i % #bodies) + 1]
    b.vx = b.vx * 0.5 + b.x * 0.25
    b.vy = b.vy * 0.5 - b.y
    b.x = b.x * 0.5 + b.vx
    e = e + b.x + b.vy
  end
  return e
end

local function body(x, y)
  return { x = x, y = y, vx = 0, vy = 0 }
end

local bodies = { body(1, 2), body(3.5, 4), body(5, 6.25) }
for _ = 1, 5 do print("hot", step(bodies, 200)) end

-- 1. a field absent, the table with '__newindex' (a function): called
-- with the key and value, and the loop goes on with what it returns
local calls = 0
local watched = setmetatable({ x = 1, y = 1, vy = 0 }, {
  __newindex = function(t, k, v) calls = calls + 1; rawset(t, k, v) end,
  __index = function() return 100 end })
bodies[2] = watched
print("newindex function", step(bodies, 200), calls, rawget(watched, "vx"))

-- 2. '__newindex' a table: the stores go to the proxy's target
local target = {}
local proxy = setmetatable({ x = 2, y = 3 }, { __newindex = target,
                                              __index = function() return 7 end })
bodies[2] = proxy
print("newindex table", step(bodies, 200), target.vx, target.vy, rawget(proxy, "vx"))

-- 3. a non-table mid-loop: the interpreter's message and line
bodies[2] = body(3.5, 4)
local function poke(ts, n)
  for i = 1, n do
    local t = ts[(i % #ts) + 1]
    t.seen = i
  end
  return ts[1].seen
end
local ps = { {}, {}, {} }
for _ = 1, 5 do poke(ps, 100) end
print("poke", poke(ps, 100))
ps[3] = 12
print("number", pcall(poke, ps, 100))
ps[3] = "s"
print("string", pcall(poke, ps, 100))
ps[3] = nil
print("nil", pcall(poke, { {}, {}, false }, 100))

-- 4. new keys in a loop over fresh tables of other shapes: where a
-- table's hash part is full the key's main position is taken (a miss, an
-- exit), so often that the function is compiled again with its helpers;
-- every table gets its field
local function mark(list, v)
  for i = 1, #list do list[i].mark = v end
end
local sum, cnt = 0, 0
for r = 1, 20 do
  local list = {}
  for i = 1, 300 do
    local t = {}
    for j = 1, (i + r) % 9 do t["f" .. j] = j end
    list[i] = t
  end
  mark(list, r)
  for i = 1, #list, 37 do list[i].mark = nil end
  for _, t in ipairs(list) do
    if t.mark then sum = sum + t.mark; cnt = cnt + 1 end
  end
end
print("mark", sum, cnt)

-- 5. nil slots: a field set to nil and back inside the loop
local function toggle(t, n)
  local s = 0
  for i = 1, n do
    if i % 3 == 0 then t.v = nil else t.v = i end
    s = s + (t.v or -1)
  end
  return s
end
for _ = 1, 4 do print("toggle", toggle({ v = 0 }, 300)) end
print("toggle newindex", toggle(setmetatable({}, { __newindex = function(t, k, v)
  rawset(t, k, v and v * 2) end }), 300))

-- 6. constructors in a loop (stores that fill new tables): right values
local function build(n)
  local out = {}
  for i = 1, n do
    local p = {}
    p.a = i; p.b = i * 2; p.c = "c" .. i; p.d = i % 2 == 0
    local q = { x = i, y = -i, name = "q" }
    q.extra = p.a + q.x
    out[i] = p.b + q.extra + (p.d and 1 or 0) + #p.c
  end
  local s = 0
  for i = 1, n do s = s + out[i] end
  return s
end
for _ = 1, 4 do print("build", build(500)) end

-- 7. an erroring '__newindex' mid-loop
local frozen = setmetatable({ x = 0, y = 0 }, { __newindex = function(_, k)
  error("frozen: " .. k, 2) end, __index = function() return 0 end })
bodies[3] = frozen
print("frozen", pcall(step, bodies, 200))

-- 8. garbage while the stores run (collections move the tables)
local function churn(n)
  local live, s = {}, 0
  for i = 1, n do
    local t = live[i % 11 + 1]
    if t == nil or i % 5 == 0 then t = { n = 0, s = "" }; live[i % 11 + 1] = t end
    t.n = t.n + i
    t.s = tostring(t.n % 97)
    s = s + t.n % 13 + #t.s
  end
  return s
end
for _ = 1, 3 do print("churn", churn(3000)) end

-- 9. the main chunk's loop (an OSR region) storing fields, then a
-- '__newindex' table in its place
do
  local t = { a = 0, b = 0 }
  local log = {}
  for i = 1, 20000 do
    t.a = t.a + i
    t.b = i % 7
    if i == 15000 then
      t = setmetatable({}, { __newindex = log, __index = function() return 1 end })
    end
  end
  print("region", log.a, log.b, rawget(t, "a"))
end

-- 10. new keys whose main position is taken while the hash part has a
-- free node (jitrt.c mvmrt_strnew, table.c tab_newstrslot: the occupant
-- moves or the key is chained, as newkey does): every key stays
-- reachable, and pairs sees each once
local function addkey(list, v)
  for i = 1, #list do list[i].added = v + i end
end
local objs = {}
for i = 1, 400 do
  local t = {}
  for j = 1, 5 + i % 3 do t["k" .. (i * 7 + j) % 50] = j end
  objs[i] = t
end
for r = 1, 3 do addkey(objs, r) end
local okeys, bad = 0, 0
for i, t in ipairs(objs) do
  local n = 0
  for k, v in pairs(t) do
    n = n + 1
    if t[k] ~= v then bad = bad + 1 end
  end
  okeys = okeys + n
  if t.added ~= 3 + i then bad = bad + 1 end
  for j = 1, 5 + i % 3 do
    if t["k" .. (i * 7 + j) % 50] == nil then bad = bad + 1 end
  end
end
print("addkey", okeys, bad)
