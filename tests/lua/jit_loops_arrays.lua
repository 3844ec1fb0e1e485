-- Array reads and writes with integer keys the types know (a numeric for
-- loop's index: llvmgen.c intkey, the key's payload used directly) and
-- numeric for loops that store savedpc at their FORPREP only
-- (loopsavedpc).  Whatever happens to the table inside the loop, the
-- results must be the interpreter's: arrays grown, shrunk and replaced,
-- keys outside the array part (0, negative, past the end), metatables set
-- mid-loop, collections with allocation in the body, hooks set inside a
-- loop, and errors raised inside loops with their line numbers.

local function sum(t, a, b)
  local s = 0
  for i = a, b do
    local v = t[i]
    if v then s = s + v end
  end
  return s
end

-- grown inside the loop (the array part is reallocated: its pointer and
-- size must be reloaded after every store)
local function grow(n)
  local t = {}
  for i = 1, n do t[i] = i * 2 end
  return #t, sum(t, 1, n), t[n]
end
print("grow", grow(10), grow(1000))

-- replaced inside the loop
local function replace(n)
  local t, old = {}, nil
  for i = 1, n do
    t[i] = i
    if i == n // 2 then old = t; t = {} end
  end
  return #old, sum(old, 1, n), sum(t, 1, n)
end
print("replace", replace(100))

-- shrunk and re-grown inside the loop (nil stores, then appends)
local function shrink(n)
  local t = {}
  for i = 1, n do t[i] = i end
  for i = n, 1, -1 do
    t[i] = nil
    if i % 7 == 0 then t[i] = -i end
  end
  return sum(t, 1, n)
end
print("shrink", shrink(200))

-- keys outside the array part: 0, negative, past the end, sparse
local function outside(n)
  local t = {}
  for i = -n, n do t[i] = i end
  for i = 3 * n, 4 * n, n // 4 do t[i] = i end
  local s = 0
  for i = -n, 4 * n do
    local v = t[i]
    if v ~= nil then s = s + v end
  end
  return s, t[0], t[-n], t[4 * n], t[4 * n + 1]
end
print("outside", outside(40))

-- a metatable with __newindex / __index set in the middle of a loop
local function metamid(n)
  local t, log = {}, {}
  for i = 1, n do
    if i == n // 2 then
      setmetatable(t, {
        __newindex = function(tt, k, v) log[#log + 1] = k; rawset(tt, k, v * 10) end,
        __index = function(_, k) return -k end })
    end
    t[i] = i
  end
  local reads = 0
  for i = 1, n + 5 do reads = reads + t[i] end
  return #log, log[1], sum(t, 1, n), reads
end
print("metamid", metamid(20))

-- the metatable's __newindex added, then removed, inside one loop
local function metaflip(n)
  local t = {}
  local mt = { __newindex = function(tt, k, v) rawset(tt, k, "m" .. v) end }
  for i = 1, n do
    if i % 10 == 3 then setmetatable(t, mt) elseif i % 10 == 7 then setmetatable(t, nil) end
    t[i] = i
  end
  local strs = 0
  for i = 1, n do if type(t[i]) == "string" then strs = strs + 1 end end
  return strs
end
print("metaflip", metaflip(100))

-- collections inside the loop: allocation in the body, and full cycles;
-- the tables written in the loop move (young) or not, their arrays too
local function churn(n)
  local t, keep = {}, {}
  for i = 1, n do
    t[i] = { i }
    keep[i] = t[i][1] * 3
    if i % 500 == 0 then collectgarbage() end
  end
  local s = 0
  for i = 1, n do s = s + t[i][1] + keep[i] end
  return s
end
print("churn", churn(3000))

local function churn2(n)
  local s = 0
  local t = {}
  for i = 1, n do
    local junk = { i, i + 1, tostring(i) }
    t[i % 64 + 1] = junk[2]
    s = s + t[i % 64 + 1]
  end
  return s
end
print("churn2", churn2(20000))

-- float loops: float keys normalise to integers where they are integral
local function fltkeys()
  local t = {}
  for x = 1.0, 10.0 do t[x] = x end
  for x = 0.5, 3.5 do t[x] = -x end
  return #t, math.type(next(t)), t[3], t[0.5], t[3.5]
end
print("fltkeys", fltkeys())

-- a count hook set inside a compiled loop fires
local function hooked(n)
  local count, s = 0, 0
  for i = 1, n do
    if i == 10 then debug.sethook(function() count = count + 1 end, "", 100) end
    s = s + i
  end
  debug.sethook()
  return s, count > 0
end
print("hooked", hooked(100000))

-- errors inside loops, with their line numbers
local function bad(t, n)
  for i = 1, n do
    t[i] = t[i] + 1
  end
end
print("err1", pcall(bad, { 1, 2, 3 }, 5))
print("err2", pcall(bad, setmetatable({ 1, 2 }, { __index = function(_, k) return k > 2 and "x" or 0 end }), 5))
local function badnested(n)
  local m = {}
  for i = 1, n do
    m[i] = {}
    for j = 1, n do
      m[i][j] = i * j
      if i * j == 12 then error("at " .. i .. "," .. j) end
    end
  end
end
print("err3", pcall(badnested, 5))

-- a loop's table replaced by a non-table mid-loop
local function nottable(n)
  local t = {}
  for i = 1, n do
    t[i] = i
    if i == 3 then t = "str" end
  end
end
print("err4", pcall(nottable, 5))

-- reverse and strided loops over arrays
local function strided(n)
  local t = {}
  for i = 1, n do t[i] = 0 end
  for step = 1, 5 do
    for i = step, n, step do t[i] = t[i] + 1 end
    for i = n, 1, -step do t[i] = t[i] + 1 end
  end
  return sum(t, 1, n)
end
print("strided", strided(60))

-- sieve-like composite marks with a boolean array
local function primes(n)
  local c = {}
  for i = 1, n do c[i] = false end
  for i = 2, n do
    if not c[i] then
      for j = i * i, n, i do c[j] = true end
    end
  end
  local k = 0
  for i = 2, n do if not c[i] then k = k + 1 end end
  return k
end
print("primes", primes(10000))
