-- Builtin calls (math.sqrt/floor/abs) on the JIT's fast path, which skips
-- the call's flush, savedpc and stack round trip: the registers it leaves
-- dirty must still reach the stack for later calls, exits, debug.getlocal,
-- hooks and collections; each way off the fast path must behave as a call.

local function show(...)
  local t = {}
  for i = 1, select('#', ...) do
    local v = select(i, ...)
    if type(v) == "number" and v ~= v then t[i] = "nan"
    elseif math.type(v) == "float" then t[i] = string.format("%.6g:f", v)
    else t[i] = tostring(v) end
  end
  print(table.concat(t, " "))
end

-- a local written before the builtin (left dirty by the fast path) read
-- through debug.getlocal by a callee after it
local function peek(name)
  local i = 1
  while true do
    local n, v = debug.getlocal(3, i)
    if n == nil then return nil end
    if n == name then return v end
    i = i + 1
  end
end
local function look(name) local v = peek(name) return v end
local function dirtylocals(n)
  local sum = 0
  local seen = {}
  for i = 1, n do
    local x = i * 0.5
    local q = i + 7
    local y = math.sqrt(x)
    local z = math.floor(x)
    local w = math.abs(-q)
    sum = sum + y + z + w
    if i % 37 == 0 then seen[#seen + 1] = look("x") .. "/" .. look("q") end
  end
  return sum, table.concat(seen, ",")
end
show(dirtylocals(200))

-- the builtin replaced during a hot loop (by a Lua function, a C function,
-- something not callable), then restored
local function replaced(n)
  local acc, out = 0, {}
  local saved = math.sqrt
  for i = 1, n do
    local a = i + 0.25
    local ok, r = pcall(function() return math.sqrt(a) end)
    local r2 = math.sqrt(a)
    acc = acc + (ok and r or 0) + r2
    if i == 100 then math.sqrt = function(v) return v * 2 end end
    if i == 150 then math.sqrt = math.floor end
    if i == 200 then math.sqrt = saved end
    if i % 50 == 0 then out[#out + 1] = string.format("%.4f", acc) end
  end
  return table.concat(out, " ")
end
show(replaced(300))

local function notcallable(n)
  local saved = math.abs
  local res = {}
  for i = 1, n do
    local d = i * 3
    if i == n - 2 then math.abs = 42 end
    local ok, r = pcall(function() local v = math.abs(-d) return v + d end)
    res[#res + 1] = ok and tostring(r) or "err"
  end
  math.abs = saved
  return table.concat(res, " ", n - 5)
end
show(notcallable(60))

-- upvalue callees (nbody's local sqrt), replaced mid-loop through the upvalue
local sqrt, floor, abs = math.sqrt, math.floor, math.abs
local function upv(n)
  local s = 0
  for i = 1, n do
    local dx, dy = i * 0.1, i * 0.2
    local d = sqrt(dx * dx + dy * dy)
    s = s + d + floor(dx) + abs(dx - dy)
    if i == 120 then sqrt = function(v) return -v end end
    if i == 160 then floor = tostring end
    if i == 200 then sqrt, floor = math.sqrt, math.floor end
  end
  return s
end
show(upv(260))

-- arguments the inline code does not take: strings, huge integers,
-- NaN, infinities, -0.0, booleans (errors)
local args = { 4, 2.25, "16", "2.5", " 9 ", "0x10", math.maxinteger, math.mininteger,
               -math.maxinteger, 2^47, -2^47, (2^47) // 1, -(2^47) // 1, 2^53, -2^63,
               2^63, 1/0, -1/0, 0/0, -0.0, 0.0, -7.5, 3.9999999, 1e300, -1e300, {}, true, nil }
local function each(f, n)
  local out = {}
  for rep = 1, n do
    for i = 1, #args + 1 do
      local v = args[i]
      local keep = i * 1.5
      local ok, r = pcall(f, v)
      if rep == n then
        if ok then
          out[#out + 1] = (type(r) == "number" and r ~= r) and "nan"
            or (math.type(r) or type(r)) .. "=" .. tostring(r)
        else out[#out + 1] = "err" end
        out[#out + 1] = tostring(keep)
      end
    end
  end
  return table.concat(out, " ")
end
show(each(function(v) return math.sqrt(v) end, 3))
show(each(function(v) return math.floor(v) end, 3))
show(each(function(v) return math.abs(v) end, 3))
-- abs of the most negative immediate and around it
local function absedge()
  local out = {}
  for i = -3, 3 do
    local v = -(2^47) // 1 + i
    local r = math.abs(v)
    out[#out + 1] = math.type(r) .. ":" .. r
    r = math.abs(-v)
    out[#out + 1] = math.type(r) .. ":" .. r
  end
  return table.concat(out, " ")
end
show(absedge())
-- -0.0 keeps its sign through abs/floor/sqrt
local function negzero()
  local z = -0.0
  local a, b, c = math.sqrt(z), math.abs(z), math.floor(z)
  return 1 / a, 1 / b, math.type(c), c
end
show(negzero())

-- a hook set from inside a callback during the loop: every builtin call
-- after it is reported; the hook removed again later
local function hooked(n)
  local calls = 0
  local function hook()
    local info = debug.getinfo(2, "f")
    if info and (info.func == math.sqrt or info.func == math.floor) then calls = calls + 1 end
  end
  local function cb(i)
    if i == 40 then debug.sethook(hook, "c") end
    if i == 80 then debug.sethook() end
  end
  local s = 0
  for i = 1, n do
    local x = i + 0.5
    s = s + math.sqrt(x) + math.floor(x)
    cb(i)
  end
  return s, calls
end
show(hooked(120))

-- a count hook that replaces math.sqrt from inside the hook
local function hookreplace(n)
  local saved = math.sqrt
  local fired = 0
  debug.sethook(function()
    fired = fired + 1
    if fired == 3 then math.sqrt = function(v) return 1000 end end
  end, "", 500)
  local s = 0
  for i = 1, n do s = s + math.sqrt(i) end
  debug.sethook()
  math.sqrt = saved
  return s > 0, fired > 3
end
show(hookreplace(2000))

-- inside coroutines, yielding between builtin calls
local co = coroutine.wrap(function(n)
  local s = 0
  for i = 1, n do
    local x = i * 2.5
    s = s + math.sqrt(x) + math.abs(-i) + math.floor(x)
    if i % 10 == 0 then coroutine.yield(s, x) end
  end
  return s, "done"
end)
local r = {}
for k = 1, 6 do
  local a, b = co(55)
  r[#r + 1] = string.format("%.5f", a) .. ":" .. tostring(b)
end
show(table.concat(r, " "))

-- collections forced between iterations (objects moved by the moving
-- collector while values sit in registers the fast path did not flush)
local function collected(n)
  local t = { v = 1.5 }
  local list = {}
  local s = 0
  for i = 1, n do
    local x = t.v + i
    local y = math.sqrt(x)
    list[i] = { y }
    if i % 25 == 0 then collectgarbage() end
    s = s + math.floor(y) + list[i][1] + math.abs(-x) + #list
  end
  return s, #list, t.v
end
show(collected(200))

-- a local function named sqrt that is not the builtin
local function other()
  local function sqrt(v) return v + 1 end
  local s = 0
  for i = 1, 100 do s = s + sqrt(i) end
  return s
end
show(other())

-- a result used as a table key, compared, and passed along (integer
-- floor results stay integers)
local function keys(n)
  local t = {}
  for i = 1, n do
    local k = math.floor(i / 3)
    t[k] = (t[k] or 0) + 1
  end
  local c = 0
  for k, v in pairs(t) do c = c + v + k end
  return c, t[1], math.type(next(t))
end
show(keys(90))

-- results speculated as numbers (sqrt's a float): a replacement giving
-- strings or tables with metamethods, floor giving floats after integers
local function specfail(n)
  local s, saved = 0, math.sqrt
  local mt = { __mul = function(a, b) return 1 end }
  for i = 1, n do
    local r = math.sqrt(i) * 2
    s = s + r
    if i == 150 then math.sqrt = function(v) return tostring(v) end end
    if i == 200 then math.sqrt = function(v) return setmetatable({}, mt) end end
    if i == 250 then math.sqrt = saved end
  end
  return s
end
show(specfail(300))
local function floorkinds(n)
  local s, out = 0, {}
  for i = 1, n do
    local v = i + 0.5
    if i == n - 5 then v = 1 / 0 elseif i == n - 3 then v = 0 / 0 elseif i == n - 1 then v = 2^60 + 0.0 end
    local f = math.floor(v) + 1
    local a = math.abs(-v) - 1
    s = s + (f == f and f or 0)
    if i > n - 7 then out[#out + 1] = (f ~= f and "nan" or math.type(f) .. ":" .. f) .. "," .. (a ~= a and "nan" or math.type(a)) end
  end
  return s, table.concat(out, " ")
end
show(floorkinds(400))

-- string.byte on the fast path: positions in and out of range, negative,
-- floats, a number as the string, replaced mid-loop, dirty locals around
local byte = string.byte
local function bytes(s, n)
  local out, sum = {}, 0
  local saved = string.byte
  for i = 1, n do
    local k = i % (#s + 3) - 1
    local pos = (i % 7 == 0) and k + 0.0 or k
    local c = byte(s, pos)
    local d = string.byte(s)
    local e = string.byte(i * 11, 2)
    sum = sum + (c or -1) + d + (e or 0)
    if i == 60 then string.byte = function(x, j) return 7 end end
    if i == 90 then string.byte = saved end
    if i % 23 == 0 then out[#out + 1] = tostring(c) .. "/" .. look("k") end
  end
  return sum, table.concat(out, " ")
end
show(bytes("hello, world", 200))
show(pcall(function() local t = 0 for i = 1, 50 do t = t + byte(i < 45 and "abc" or {}, 1) end return t end))
