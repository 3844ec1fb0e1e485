-- Self-recursive functions whose compiled body has its own calling
-- convention behind a C-convention wrapper (llvmgen.c selfconv), and
-- anchors that are only the stack pointer at the call (jit_anchorra):
-- the body is entered from C (pcall, sort, gsub, metamethods), from other
-- compiled code, by tail calls and in coroutines; errors, tracebacks,
-- getinfo, hooks, collections and stack overflow inside the recursion.

local function fib(k)
  if k < 2 then return k end
  return fib(k - 1) + fib(k - 2)
end

-- entered from other compiled code, from C and by a tail call
local function viacall(n) local r = fib(n) return r + 0 end
local function viatail(n) return fib(n) end
local s = 0
for i = 1, 20 do s = s + fib(i) + viacall(i % 12) + viatail(i % 9) end
print("entries", s, pcall(fib, 15), select(2, pcall(viatail, 14)))
local t = {5, 3, 9, 4, 7, 6}
table.sort(t, function(a, b) return fib(a) < fib(b) end)
print("sort", table.concat(t, " "))
print("gsub", (string.gsub("3 4 5 6", "%d+", function(d) return fib(tonumber(d)) end)))
local mt = setmetatable({}, {__index = function(_, k) return fib(k) end})
print("__index", mt[10], mt[12])

-- references live across self calls while collections move things
local function build(d)
  if d == 0 then return {leaf = true} end
  local node = {depth = d, name = "n" .. d}
  local l = build(d - 1)
  if d % 5 == 0 then collectgarbage() end
  local r = build(d - 1 > 3 and 3 or d - 1)
  node.l, node.r = l, r
  return node
end
local function count(n)
  if n.leaf then return 1 end
  return count(n.l) + count(n.r) + 1
end
for i = 1, 4 do
  local tree = build(8 + i)
  print("tree", i, count(tree), tree.name, tree.l.name)
end

-- several results and varargs through self calls
local function three(n)
  if n == 0 then return 1, 2, 3 end
  local a, b, c = three(n - 1)
  return a + 1, b * 2, c
end
local function packs(n, ...)
  if n == 0 then return select("#", ...), ... end
  local r = {packs(n - 1, n, ...)}
  return table.unpack(r)
end
local function wantnone(n) if n > 0 then wantnone(n - 1) end end
for i = 1, 3 do
  wantnone(20)
  print("results", three(i * 10))
  print("varargs", packs(i + 2, "x"))
end

-- errors at depth: messages with line numbers, tracebacks, getinfo
local function failat(n, how)
  if n == 0 then
    if how == 1 then error("boom at the bottom") end
    if how == 2 then local x = nil; return x.field end
    return #how + nil
  end
  return failat(n - 1, how) + 1
end
for how = 1, 3 do
  for i = 1, 3 do
    local ok, msg = pcall(failat, 50 * i, how == 3 and "str" or how)
    if i == 3 then print("error", how, ok, msg) end
  end
end
local function deep(n)
  if n == 0 then
    local tb = debug.traceback("tb", 1)
    local lines = 0
    for l in tb:gmatch("jit_callconv.lua:(%d+)") do lines = lines + 1 end
    local info = debug.getinfo(2, "Sln")
    return lines, debug.getinfo(1, "l").currentline, info.currentline, info.name, info.what
  end
  local a, b, c, d, e = deep(n - 1)
  return a, b, c, d, e
end
for i = 1, 3 do print("traceback", deep(5 + i)) end

-- hooks turned on inside the recursion, and off again
local function hooked(n, on)
  if n == on then
    local calls = 0
    debug.sethook(function(ev) if ev == "call" then calls = calls + 1 end end, "c")
    local r = fib(10)
    debug.sethook()
    return calls + r
  end
  return hooked(n + 1, on) + 0
end
for i = 1, 3 do print("hook", hooked(0, 10 * i)) end

-- yields from inside the recursion, resumed from compiled code
local function walk(n)
  if n == 0 then return 0 end
  if n % 4 == 0 then coroutine.yield(n) end
  return walk(n - 1) + n
end
for round = 1, 3 do
  local co = coroutine.wrap(function() return "done", walk(30 + round) end)
  local seen = {}
  while true do
    local v, w = co()
    if v == "done" then seen[#seen + 1] = "=" .. w break end
    seen[#seen + 1] = v
  end
  print("yield", round, table.concat(seen, ","))
end

-- runaway recursion: "stack overflow", then calls work again
local function runaway(n) return runaway(n + 1) + 1 end
for i = 1, 2 do
  local ok, msg = pcall(runaway, 1)
  print("overflow", ok, (string.find(msg, "stack overflow", 1, true)) ~= nil)
  print("after", fib(20))
end
local co = coroutine.create(function() return runaway(1) end)
local ok, msg = coroutine.resume(co)
print("overflow in coroutine", ok, (string.find(msg, "stack overflow", 1, true)) ~= nil)
