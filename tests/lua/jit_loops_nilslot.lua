-- Integer-key stores into nil slots and reads of nil slots: compiled code
-- does them inline when no __newindex / __index can apply (no metatable,
-- or the metatable is known to lack the metamethod); metatables that
-- appear, change or gain the metamethod in the middle of a loop (also
-- from a called function) must be seen at once.
local function fill(t, n, v)
  for i = 1, n do t[i] = v end
  return t
end
local function count(t, n)     -- reads up to n, nils included
  local c = 0
  for i = 1, n do if t[i] ~= nil then c = c + 1 end end
  return c
end

-- appends into the array part's free slots, holes, sparse reads
local t = fill({}, 1000, true)
print("fill", #t, count(t, 1200))
for i = 1, 1000, 3 do t[i] = nil end
print("holes", count(t, 1000))
fill(t, 1000, false)
print("refill", count(t, 1000), t[1], t[999])
local pre = table.move({}, 1, 0, 1, {})
for i = 1, 64 do pre[i] = i end
for i = 1, 64 do pre[i] = nil end
fill(pre, 50, "s")   -- nil array slots of a table that once was full
print("pre", #pre, count(pre, 64))

-- __newindex on the metatable: every store into a nil slot calls it
local log = {}
local mt = { __newindex = function(t, k, v) log[#log + 1] = k; rawset(t, k, v) end }
local u = setmetatable({}, mt)
for i = 1, 8 do u[i] = i end
print("newindex", #log, table.concat(log, ","))
for i = 1, 8 do u[i] = i * 2 end   -- existing keys: no call
print("existing", #log, u[8])

-- a metatable without __newindex (absence known), then it gains one
local mt2 = {}
local w = setmetatable({}, mt2)
local calls = 0
local function store(n)
  for i = 1, n do
    w[i] = i
    if i == 5 then mt2.__newindex = function(t, k, v) calls = calls + 1; rawset(t, k, -v) end end
  end
end
store(10)
print("gained", calls, w[4], w[5], w[6], w[10])
for i = 1, 10 do w[i] = nil end
store(3)
print("again", calls, w[1], w[3])

-- __index for nil slots, appearing from inside the loop via a call
local r = {}
for i = 1, 20 do r[i] = i end
for i = 1, 20, 2 do r[i] = nil end
local function setidx(t) setmetatable(t, { __index = function(_, k) return -k end }) end
local function sum(t, n, at)
  local s = 0
  for i = 1, n do
    if i == at then setidx(t) end
    local v = t[i]
    if v then s = s + v end
  end
  return s
end
print("index", sum(r, 20, 0), sum(r, 20, 11))
print("index2", sum(r, 20, 0))
local plain = {}
for i = 1, 10 do plain[i] = i end
plain[4] = nil
setmetatable(plain, { __index = { [4] = 400 } })
print("index table", sum(plain, 10, 0))
getmetatable(plain).__index = nil
print("index gone", sum(plain, 10, 0))

-- a metatable set from inside the loop by a called function
local seen = {}
local function arm(t) setmetatable(t, { __newindex = function(_, k) seen[#seen + 1] = k end }) end
local function loop(t, n, at)
  for i = 1, n do
    if i == at then arm(t) end
    t[i] = i
  end
end
local x = {}
for i = 1, 10 do x[i] = 0 end
for i = 1, 10 do x[i] = nil end
loop(x, 10, 6)
print("armed", #seen, seen[1], seen[#seen], x[5], x[6])

-- stores of collectable values into nil slots, with collections under way
local big = {}
for round = 1, 3 do
  for i = 1, 300 do big[i] = { i, tostring(i) } end
  collectgarbage()
  local ok = 0
  for i = 1, 300 do if big[i][1] == i and big[i][2] == tostring(i) then ok = ok + 1 end end
  for i = 1, 300, 2 do big[i] = nil end
  print("round", round, ok, count(big, 300))
end

-- errors keep their place: a nil slot of a table whose __newindex raises
local bad = setmetatable({}, { __newindex = function() error("no writes", 2) end })
print(pcall(fill, bad, 3, 1))
