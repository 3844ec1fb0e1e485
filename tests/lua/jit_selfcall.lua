-- Self-recursive calls (local function f ... f(...) ...): compiled code
-- calls its own code directly.  The function's code may be recompiled or
-- dropped while the recursion runs; results, errors, tracebacks and hooks
-- must be those of the interpreter.

-- argument types changing inside the recursion (exits, recompiles)
local function sum(n, x)
  if n == 0 then return x end
  if n % 7 == 0 then x = x + 0.5 elseif n % 11 == 0 then x = tostring(x) end
  return sum(n - 1, x + 1) + 0
end
for i = 1, 30 do
  local r = sum(i * 5, i)
  if i % 10 == 0 then print("sum", i, r) end
end

-- the upvalue is the running closure; a different closure of the same proto
local function mk(k)
  local function f(n)
    if n <= 0 then return k end
    return f(n - 1) + 1
  end
  return f
end
local f1, f2 = mk(1), mk(100)
local acc = 0
for i = 1, 200 do acc = acc + f1(i % 17) + f2(i % 13) end
print("closures", acc)

-- getinfo and traceback from inside the self recursion
local function depthinfo(n)
  if n == 0 then
    local lines = {}
    for lv = 1, 4 do
      local info = debug.getinfo(lv, "Sl")
      lines[#lines + 1] = (info.short_src:match("[^/]*$")) .. ":" .. info.currentline
    end
    local tb = debug.traceback("tb", 1)
    local cnt = 0
    for _ in tb:gmatch("depthinfo") do cnt = cnt + 1 end
    return table.concat(lines, " "), cnt
  end
  local a, b = depthinfo(n - 1)
  return a, b
end
for i = 1, 3 do print("info", depthinfo(5 + i)) end

-- errors with line numbers raised at depth
local function boom(n)
  if n == 0 then
    local t = nil
    return t.x
  end
  return boom(n - 1) + 1
end
for i = 1, 3 do
  local ok, e = pcall(boom, 10 * i)
  print("err", ok, (tostring(e):gsub("^.-:(%d+):", "line %1:")))
end

-- a hook turned on inside the self recursion, off again
local function hooked(n)
  if n == 0 then
    local calls = 0
    debug.sethook(function() calls = calls + 1 end, "r")
    return 0, calls
  end
  local r, c = hooked(n - 1)
  return r + 1, c
end
for i = 1, 3 do
  local r = hooked(6)
  debug.sethook()
  print("hook", r)
end

-- runaway self recursion still raises "stack overflow"
local function runaway(n) return 1 + runaway(n + 1) end
for i = 1, 2 do
  local ok, e = pcall(runaway, 1)
  print("overflow", ok, tostring(e):find("stack overflow") ~= nil)
end

-- self recursion inside a coroutine, yielding at depth
local function ydeep(n)
  if n == 0 then coroutine.yield("deep") return 1 end
  return ydeep(n - 1) + 1
end
for i = 1, 3 do
  local co = coroutine.wrap(function() return ydeep(20 + i) end)
  print("co", co(), co())
end
