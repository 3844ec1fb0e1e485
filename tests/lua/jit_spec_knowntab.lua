-- Known tables (llvmgen.c tabknown): at speculation level 0 a table
-- access whose operand is not a table leaves compiled code, so later
-- accesses to the same register skip their type test, also across
-- jumps, tests and loop back-edges.  Entry points (loop headers, where the
-- interpreter enters compiled code) check the registers known there.
-- Each case makes a register that compiled code takes for a table hold
-- something else at some point: the results, errors and lines must be
-- the interpreter's.

-- 1. integer stores and reads of tables in loops, with tests and jumps
-- in between (a histogram and its running maximum)
local function histogram(n, m)
  local counts, order = {}, {}
  for k = 1, m do counts[k] = 0 end
  local best, at = 0, 0
  for i = 1, n do
    local v = (i * 7919) % m + 1
    counts[v] = counts[v] + 1
    if counts[v] > best then
      best, at = counts[v], v
      order[#order + 1] = v
    elseif not order[1] then
      order[1] = v
    end
  end
  return best, at, #order
end
for _, n in ipairs({ 100, 1000, 10000, 30000 }) do print("histogram", n, histogram(n, 97)) end

-- 2. a string where a table was read before the loop: strings index
-- through their metatable; entered at the loop header from the
-- interpreter (OSR), the header's check sends it back
local function lens(s, n)
  local f = s.len
  local c = 0
  for _ = 1, n do
    if s.upper then c = c + 1 end
  end
  return c, f == string.len
end
print("lens table", lens({ len = string.len, upper = 1 }, 3000))
print("lens string", lens("abc", 30000))
print("lens table again", lens({ len = 1 }, 3000))

-- 3. a store makes its table known; a non-table mid-loop is an error
-- with the interpreter's message and line
local function fill(t, n, bad)
  t[0] = 0
  for i = 1, n do
    t[i] = i
    if i == bad then t = 42 end
  end
  return #t
end
print("fill", fill({}, 500))
print("fill bad", pcall(fill, {}, 500, 250))
print("fill string", pcall(fill, "s", 10))

-- 4. '__newindex' replacing the writer's table local through
-- debug.setlocal: the store's helper returns with the frame's trap set
-- and compiled code leaves; the next store sees a string
local function writer(n, at)
  local t = setmetatable({}, { __newindex = function(tt, k, v)
    if k == at then debug.setlocal(2, 3, "str") end
    rawset(tt, k, v)
  end })
  local t2 = t
  for i = 1, n do t[i] = i end
  return #t2
end
print("writer", writer(100, 0))
print("writer setlocal", pcall(writer, 100, 40))

-- 5. tables that grow, get metatables and move while known
local function grow(n)
  local t, s = { 1 }, 0
  for i = 2, n do
    t[i] = t[i - 1] + 1
    if i % 1000 == 0 then
      setmetatable(t, { __index = function(_, k) return -k end })
      local junk = {}
      for j = 1, 50 do junk[j] = { j } end
    end
    s = s + t[i] + (t[i + 1] or 0)
  end
  return s
end
for _ = 1, 3 do print("grow", grow(5000)) end

-- 5b. userdata-like objects that are not tables (a file handle) where
-- a table was stored into before: the method lookup and the error
local function touch(o, n)
  local ok = pcall(function() o[1] = 1 end)
  local c = 0
  for _ = 1, n do
    if o.write then c = c + 1 end
  end
  return ok, c
end
print("touch table", touch({ write = true }, 2000))
print("touch file", touch(io.stdout, 2000))

-- 6. a loop entered by OSR (the main chunk) with its table known at the
-- header, then the register changed to a string inside the loop
do
  local t, s = {}, 0
  for i = 1, 30000 do
    t[i % 7 + 1] = i
    s = s + (t[1] or 0)
    if i == 20000 then t = { 5, 5, 5, 5, 5, 5, 5, 5 } end
  end
  print("region", s, #t)
  local ok, err = pcall(function()
    local u = {}
    for i = 1, 30000 do
      u[i % 5 + 1] = i
      if i == 25000 then u = "x" .. i end
    end
  end)
  print("region error", ok, err)
end

-- 7. checks before loops (forchecks): a table the loop's accesses want
-- known is tested once at its FORPREP; a non-table there (an access that
-- is conditional, a string's methods) goes back to the interpreter
local function cond(t, n, use)
  local s = 0
  for i = 1, n do
    if use then s = s + t[i] end
  end
  return s
end
print("cond", cond({ 1, 2, 3 }, 3, true), cond(nil, 100, false), cond("abc", 5, false))
local tot = 0
for k = 1, 300 do tot = tot + cond(nil, 10, false) + cond({ k, k }, 2, true) end
print("cond many", tot)
local function meth(s, n)
  local c = 0
  for i = 1, n do c = c + #s:sub(1, i % 3) end
  return c
end
print("meth", meth("abcdef", 1000), meth(setmetatable({}, { __index = { sub = function() return "xy" end } }), 1000))

-- 8. a register known to hold a table, then a for loop's control
-- registers (FORPREP and FORLOOP write them on some paths only): the
-- loop variable indexed is the interpreter's error, not a table read
local function reuse(n)
  do local a, b, c, d = {}, {}, {}, {}; d[1] = 1; local e = d[1] end
  for i = 1, n do
    local v = i[1]
  end
end
print("reuse", pcall(reuse, 3))
print("reuse none", pcall(reuse, 0))
