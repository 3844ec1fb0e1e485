-- Inlined leaf calls at tail-call sites (jit/llvmgen.c inlineleaf with
-- leaftailret): `return f(x)` with f a small pure function is evaluated
-- in place and its results are the caller's own; every case the inline
-- code does not handle must take the real tail call.

local function sq(x) return x * x end
local function pair(x) return x, x + 1 end
local function three(x) return x, x * 2, x * 3 end
local function none(x) end
local function pick(a, b) if a < b then return b end return a end

local function tsq(x) return sq(x) end
local function tpair(x) return pair(x) end
local function tthree(x) return three(x) end
local function tnone(x) return none(x) end
local function tpick(a, b) return pick(a, b) end

-- 0, 1 and many results; callers wanting fewer, more, or all of them
local function results()
  local r = {}
  for i = 1, 4 do
    r[#r + 1] = tsq(i) + tsq(i + 0.5)
    local a, b = tpair(i)
    r[#r + 1] = a + b
    local c = tpair(i)                   -- fewer than returned
    r[#r + 1] = c
    local d, e, f = tpair(i)             -- more than returned: nil-padded
    r[#r + 1] = tostring(d) .. tostring(e) .. tostring(f)
    r[#r + 1] = table.concat({tthree(i)}, ",")   -- all of them
    r[#r + 1] = select("#", tthree(i)) .. select("#", tnone(i)) .. select("#", tpair(i))
    local n1, n2 = tnone(i)
    r[#r + 1] = tostring(n1) .. tostring(n2)
    r[#r + 1] = tpick(i, 2) .. tpick(1.5, i)
    r[#r + 1] = (tthree(i))              -- one of three
  end
  return table.concat(r, " ")
end
print(results())

-- types the caller does not expect: strings, tables, overflow, errors
local function types()
  local r = {}
  for _ = 1, 3 do
    r[#r + 1] = tsq("3")
    r[#r + 1] = tsq(1 << 40)
    r[#r + 1] = tsq(math.maxinteger)
    r[#r + 1] = select(2, pcall(tsq, {}))
    r[#r + 1] = tostring(tpick("a", "b"))
    r[#r + 1] = select(2, pcall(tpick, 1, "x"))
    r[#r + 1] = math.type(tsq(3)) .. math.type(tsq(3.0))
  end
  return table.concat(r, " ")
end
print(types())

-- the callee replaced at run time (the guard compares the Proto)
local g = sq
local function tg(x) return g(x) end
local function replaced()
  local r = {}
  for i = 1, 8 do
    if i == 3 then g = pair end
    if i == 5 then g = function(x) return x .. "!" end end
    if i == 6 then g = math.abs end
    if i == 7 then g = sq end
    r[#r + 1] = table.concat({tg(-i)}, ",")
  end
  return table.concat(r, " ")
end
print(replaced())

-- a global callee
function gtwice(x) return x + x end
local function tglobal(x) return gtwice(x) end
local s = 0
for i = 1, 10 do s = s + tglobal(i) end
print(s)
gtwice = function(x) return x - 1 end
print(tglobal(5))

-- hooks: the call hook must see the tail call ("tail call" event), the
-- line and count hooks run too
local function hooked()
  local ev = {}
  debug.sethook(function(e)
    local f = debug.getinfo(2, "f").func
    if f == sq then ev[e] = (ev[e] or 0) + 1 end
  end, "cr")
  local t = 0
  for i = 1, 5 do t = t + tsq(i) end
  debug.sethook()
  local keys = {}
  for k, v in pairs(ev) do keys[#keys + 1] = k .. "=" .. v end
  table.sort(keys)
  return t, table.concat(keys, " ")
end
print(hooked())
local function counted()
  local n = 0
  debug.sethook(function() n = n + 1 end, "", 100)
  local t = 0
  for i = 1, 3000 do t = t + tsq(i) end
  debug.sethook()
  return t, n > 0
end
print(counted())

-- a hook set while the caller runs (by a function it calls first)
local seen = 0
local function sethook()
  debug.sethook(function() if debug.getinfo(2, "f").func == sq then seen = seen + 1 end end, "c")
  return 1
end
local function late(x)
  local y = sethook()
  return sq(x + y)
end
local r1 = late(3)
debug.sethook()
print(r1, seen)

-- tracebacks and errors name the callee's frame
local function bad(x) return x + 1 end
local function tbad(x) return bad(x) end
for _ = 1, 3 do tbad(1) end
local ok, msg = pcall(tbad, {})
print(ok, (string.gsub(msg, "^.-:%d+: ", "")))

-- deep recursion through a tail-inlined helper stays flat
local function step(n) return n - 1 end
local function down(n) if n == 0 then return "done" end return down(step(n)) end
print(down(100000))
