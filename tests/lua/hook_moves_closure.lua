-- A hook runs Lua code, which may collect: a young closure that is running
-- (or about to run) moves meanwhile.  The interpreter must go on with the
-- closure's new copy, whose upvalues the collector updated, after a call
-- hook (also a vararg function's, which runs after VARARGPREP) and after a
-- line or count hook.  Each closure here is fresh (in the nursery) when it
-- is called, each hook collects, and the code after the hook reads and
-- writes the closure's upvalues.

local function make()
  local v = 0
  return function(x) v = v + x; return v end
end
local function makevar()   -- (reads its upvalue first: no VARARG before it)
  local v = 0
  return function(...) local old = v; v = old + (...); return v end
end

-- (made and called in one line: a line hook's first event after the
-- closure is made is at the closure's own first instruction, when it is
-- still young; a count hook's, for one of the counts)
local function run(what, mk, mask, count)
  local bad = 0
  debug.sethook(function() collectgarbage() end, mask, count)
  for _ = 1, 40 do
    local a = mk()(1)
    if a ~= 1 then bad = bad + 1 end
    local f = mk(); local b, c = f(2), f(3)
    if b ~= 2 or c ~= 5 then bad = bad + 1 end
  end
  debug.sethook()
  print(what, bad)
end

run("call hook", make, "c")
run("call hook, vararg", makevar, "c")
run("line hook", make, "l")
run("line hook, vararg", makevar, "l")
for count = 1, 9 do
  run("count hook " .. count, make, "", count)
  run("count hook, vararg " .. count, makevar, "", count)
end

-- a hook that allocates until a minor collection happens on its own
local sink
local function churn() for i = 1, 200 do sink = { i, tostring(i) } end end
local total = 0
debug.sethook(churn, "c")
for i = 1, 60 do
  local f = make()
  total = total + f(i) + f(1)
end
debug.sethook()
print("churn", total)
