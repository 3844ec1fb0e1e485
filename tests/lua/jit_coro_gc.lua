-- jit_coro_gc.lua: the moving collector and coroutines suspended with
-- compiled frames.  A yield discards the C frames of compiled code (its
-- state is in the VM stack); the collector must then walk the suspended
-- frames as interpreted ones (CIST_JITACT cleared), and the references they
-- hold in the VM stack are relocated like any other.  Young tables are
-- kept in locals of frames at several depths across each yield, the
-- resumer allocates and collects while they are suspended, and every
-- table is checked after each resume.  (The corpus' stress mode collects
-- at every allocation and at compiled safepoints.)

local function churn(n)
  local junk = {}
  for i = 1, n do junk[i % 50 + 1] = {i, tostring(i)} end
  return #junk
end

local function holder(d, tag)
  local mine = {tag = tag, depth = d, list = {d, d * 2}}
  local r
  if d == 0 then
    r = coroutine.yield(mine)
  else
    r = holder(d - 1, tag)
  end
  -- after the resume: this frame's table must be intact
  if mine.tag ~= tag or mine.depth ~= d or mine.list[2] ~= d * 2 then
    error("corrupt frame at depth " .. d)
  end
  return r + mine.list[1]
end

for round = 1, 4 do
  local cos = {}
  for k = 1, 6 do
    cos[k] = coroutine.create(function(d) return holder(d, "co" .. k) end)
  end
  local tops = {}
  for k = 1, 6 do
    local ok, top = coroutine.resume(cos[k], k * 7)
    assert(ok, top)
    tops[k] = top
  end
  churn(2000)
  collectgarbage()           -- a full collection while all are suspended
  churn(2000)
  collectgarbage("step", 0)
  local sum = 0
  for k = 1, 6 do
    assert(tops[k].tag == "co" .. k and tops[k].depth == 0)
    local ok, r = coroutine.resume(cos[k], k)
    assert(ok, r)
    sum = sum + r
  end
  print("holders", round, sum)
end

-- a generator whose frames hold tables across many yields, with
-- allocation on both sides
local function treegen(depth)
  local function walk(node, d)
    local path = {d = d}
    if d == depth then
      coroutine.yield(node)
    else
      walk({node, 1}, d + 1)
      churn(20)
      walk({node, 2}, d + 1)
    end
    assert(path.d == d)
  end
  return coroutine.wrap(function() walk({}, 0) end)
end
for round = 1, 3 do
  local n, s = 0, 0
  for leaf in treegen(8) do
    n = n + 1
    local node = leaf
    while node[1] do s = s + node[2]; node = node[1] end
    if n % 37 == 0 then collectgarbage() end
  end
  print("leaves", round, n, s)
end

-- an error in a coroutine leaves its dead frames (kept for tracebacks)
-- to the collector: they must not be walked as compiled
for round = 1, 3 do
  local dead = {}
  for k = 1, 5 do
    local co = coroutine.create(function() local t = {k}; holder(10, "x"); error({t}) end)
    coroutine.resume(co)
    local ok, e = coroutine.resume(co, 1)
    dead[k] = {co, ok, e}
  end
  churn(3000)
  collectgarbage()
  local s = 0
  for k = 1, 5 do s = s + dead[k][3][1][1] end
  print("dead", round, s, coroutine.status(dead[1][1]))
end
