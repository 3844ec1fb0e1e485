-- jit_ssa_regs: compiled code keeps Lua registers in SSA values; everything
-- the interpreter, a callee or the debug library may read must be in the
-- VM stack at calls and side exits.  Run in -j eager (every function
-- compiled) and under GC stress, which moves objects at every allocation.

-- SETLIST reads R[A+1..A+B]: the last element must be flushed too
local function lists()
  local out = {}
  for _, p in ipairs({"a", "b", "c"}) do out[#out + 1] = p end
  local t = {10, 20, 30, 40}
  return table.concat(out, ","), #t, t[4]
end
print("lists", lists())

-- a callee reads the caller's locals through debug.getlocal
local function peek(level)
  local names = {}
  local i = 1
  while true do
    local n, v = debug.getlocal(level, i)
    if not n then break end
    if n:sub(1, 1) ~= "(" then names[#names + 1] = n .. "=" .. tostring(v) end
    i = i + 1
  end
  return table.concat(names, " ")
end
local function locals(n)
  local acc, x = 0, 1.5
  for i = 1, n do acc = acc + i; x = x * 2 end
  local s = "str"
  local r = peek(2)
  return r
end
print("locals", locals(4))

-- a hot integer loop whose value turns float, then string, mid-loop: the
-- guard exits and the interpreter finishes with every register restored
local function turns(n)
  local a, b, c = 0, 1, 2
  for i = 1, n do
    a = a + i
    b = b * 3
    if i == n - 2 then a = a + 0.5 end
    if i == n - 1 then c = "s" .. c end
  end
  return a, b, c
end
print("turns", turns(10), turns(40))

-- while loop with nested generic for and break (registers across CLOSE)
local function tokens(s)
  local toks, i = {}, 1
  while i <= #s do
    for _, p in ipairs({"^%a+", "^%d+", "^."}) do
      local m = s:match(p, i)
      if m then toks[#toks + 1] = m; i = i + #m; break end
    end
  end
  return table.concat(toks, "|")
end
print("tokens", tokens("local x1 = 42"))

-- closures capture loop variables (stay in the stack), values survive GC
local function closures(n)
  local fs = {}
  for i = 1, n do
    local j = i * 2
    fs[i] = function() j = j + 1; return i + j end
  end
  local t = {}
  for k = 1, n do t[k] = {k} end   -- allocation: moving collections
  local sum = 0
  for i = 1, n do sum = sum + fs[i]() + fs[i]() + t[i][1] end
  return sum
end
print("closures", closures(50))

-- tables in registers across calls that allocate (and may move them)
local function keep(n)
  local a, b = {x = 1}, {y = 2}
  local s = 0
  for i = 1, n do
    local tmp = {i, tostring(i)}
    s = s + a.x + b.y + #tmp[2]
    a.x = a.x + 1
  end
  return s, a.x, b.y
end
print("keep", keep(200))

-- an error handler sees the frame's locals at the failing call
local function fails(v)
  local here = "local-here"
  local n = 7
  return v + n   -- v is a table: arithmetic error from the interpreter
end
print("xpcall", xpcall(fails, function(m)
  local _, v = debug.getlocal(2, 2)
  return tostring(m):match("attempt to perform arithmetic") and v
end, {}))

-- to-be-closed variables in generic for loops and explicit <close>
local log = {}
local function closer(name)
  return setmetatable({}, {__close = function() log[#log + 1] = name end})
end
local function tbc()
  for _ in function(_, c) if c < 3 then return c + 1 end end, nil, 0, closer("for") do end
  do local x <close> = closer("do") end
  return table.concat(log, ",")
end
print("tbc", tbc())

-- float and integer arithmetic with known types: results must match
local function mix(n)
  local x, y, k = 0.25, 3, 0
  for i = 1, n do
    x = x * 1.5 + i / 4
    y = y + i * 2 - (i // 3) + (i % 5)
    k = k ~ (i << 2) | (y & 0xff)
    if x > 1e6 then x = x / 1024 end
  end
  return string.format("%.6g", x), y, k, -y, -x < 0
end
print("mix", mix(100))
