-- vararg_paths.lua: the interpreter's inline VARARGPREP (its stack-growth
-- fallback), fixed-count VARARG (fewer, as many or more extra arguments
-- than wanted) and one-result RETURN (vararg functions, hooks, to-be-closed
-- variables), each checked against the generic paths' results
print("vararg_paths: start")

-- fixed-count VARARG: the missing ones are nil
local function take3(...) local a, b, c = ... return a, b, c end
print("take3", take3())
print("take3", take3(1))
print("take3", take3(1, 2))
print("take3", take3(1, 2, 3))
print("take3", take3(1, 2, 3, 4, 5))
print("take3 nils", take3(nil, nil, 7))

-- fixed parameters before the varargs keep their values
local function fixed(a, b, ...)
  local x, y = ...
  return a, b, x, y, select("#", ...)
end
print("fixed", fixed())
print("fixed", fixed(1))
print("fixed", fixed(1, 2))
print("fixed", fixed(1, 2, 3))
print("fixed", fixed(1, 2, 3, 4, 5, 6))

-- one result wanted from a vararg function's RETURN
local function first(...) return ... end
local x = first()
local y = first(10, 20, 30)
local z = (first(nil, 2))
print("first", x, y, z)
local t = { first(1, 2), first(3, 4) }
print("first in constructor", #t, t[1], t[2], t[3])
print("first all", first(5, 6, 7))

-- a non-vararg function's multiple return truncated to one
local function three() return 1, 2, 3 end
local function none() return end
local a1 = three()
local n1 = none()
print("truncated", a1, n1)
local function multi(n) if n == 0 then return end return n, multi(n - 1) end
local m = multi(4)
print("multi", m, select("#", multi(4)))

-- a loop of calls (the fast paths run many times; sums checked)
local function sum(...)
  local s = 0
  for i = 1, select("#", ...) do s = s + (select(i, ...)) end
  return s
end
local function pick2(...) local _, b = ... return b end
local acc, acc2 = 0, 0
for i = 1, 20000 do
  acc = acc + sum(i, 1, 2)
  acc2 = acc2 + (pick2(i, i * 2) or 0) + (pick2(i) or 0)
end
print("loop", acc, acc2)

-- deep recursion of a vararg function: VARARGPREP grows the stack
local function deep(n, ...)
  if n == 0 then return select("#", ...) end
  return (deep(n - 1, n, ...))   -- (parenthesised: no tail call)
end
print("deep", deep(150))
local function wide(n, ...)
  if n == 0 then return select("#", ...), (select(-1, ...)) end
  local args = { ... }
  args[#args + 1] = n
  args[#args + 1] = n
  return wide(n - 1, table.unpack(args))
end
print("wide", wide(100))

-- stack overflow from vararg recursion is an error, not a crash
local function runaway(...) return 1 + runaway(1, ...) end
local ok, err = pcall(runaway)
print("runaway", ok, (tostring(err):match("stack overflow") ~= nil))

-- a call hook sees a vararg function's call after its VARARGPREP: its
-- varargs are visible to debug.getlocal with negative indices
local seen = {}
debug.sethook(function(ev)
  local info = debug.getinfo(2, "S")
  if info.short_src:match("vararg_paths") and info.linedefined > 0 then
    local _, v = debug.getlocal(2, -1)
    seen[#seen + 1] = ev .. ":" .. tostring(v)
  end
end, "cr")
local function hooked(...) local q = ... return q end
local hv = hooked("A", "B")
debug.sethook()
print("hooked", hv, table.concat(seen, " "))

-- a return hook with one result wanted
local rets = 0
debug.sethook(function() rets = rets + 1 end, "r")
local r1 = first(42, 43)
debug.sethook()
print("return hook", r1, rets > 0)

-- to-be-closed variables in a vararg function: RETURN with k
local closed = {}
local function withtbc(...)
  local n = select("#", ...)
  local c <close> = setmetatable({}, { __close = function() closed[#closed + 1] = n end })
  return ...
end
local w = withtbc("p", "q", "r")
print("tbc", w, closed[1], select("#", withtbc()), closed[2])

-- upvalues captured in a vararg function (closed at return)
local function mk(...)
  local n = select("#", ...)
  return function() return n end
end
print("upvalue", mk(1, 2, 3)(), mk()())

-- varargs survive a collection between VARARGPREP and VARARG
local function gcmid(...)
  collectgarbage()
  local s1, s2 = ...
  return s1 .. s2
end
print("gc", gcmid(string.rep("x", 3), string.rep("y", 2)))

-- coroutines: a vararg function yields between its VARARGPREP and its return
local co = coroutine.wrap(function(...)
  local a, b = ...
  local c = coroutine.yield(a + b)
  return c, ...
end)
print("coroutine", co(1, 2))
print("coroutine", co(10))

print("vararg_paths: done")
