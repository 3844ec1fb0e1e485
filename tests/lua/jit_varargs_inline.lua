-- Vararg functions in compiled code: VARARGPREP (the frame moved above the
-- extra arguments), VARARG with a fixed count (copies, nil past the last),
-- RETURN from a vararg frame (moved back down), each called often enough
-- to be compiled, from compiled and interpreted callers, with references
-- passed through (the collector must see them), deep stacks (the slow
-- path that grows the stack), hooks, errors and coroutines.

local function keys(t)
  local r = {}
  for k in pairs(t) do r[#r + 1] = tostring(k) end
  table.sort(r)
  return table.concat(r, ",")
end

-- 0, 1 and 3 fixed parameters; fewer arguments than parameters
local function v0(...) local a, b, c = ... return a, b, c end
local function v1(x, ...) local a, b = ... return x, a, b end
local function v3(x, y, z, ...) local a = ... return x, y, z, a end
local acc = {}
for i = 1, 3000 do
  local a, b, c = v0(i, i + 1)
  local d, e, f = v1(i)
  local g, h, k, l = v3(i, nil, i, "x", "y")
  acc[1] = (acc[1] or 0) + a + b + (c == nil and 1 or 0)
  acc[2] = (acc[2] or 0) + d + (e == nil and 1 or 0) + (f == nil and 1 or 0)
  acc[3] = (acc[3] or 0) + g + (h == nil and 1 or 0) + k + (l == "x" and 1 or 0)
end
print("fixed", acc[1], acc[2], acc[3])

-- results wanted by the caller: fewer, exactly, more, all
local function three(...) local a, b, c = ... return a, b, c end
local s = 0
for i = 1, 3000 do
  local x = three(i, 2, 3)
  local p, q, r, t = three(i, 2, 3)
  local all = { three(i, 2, 3) }
  s = s + x + p + q + r + (t == nil and 1 or 0) + #all
end
print("wanted", s)

-- references through varargs, with allocation between (collections move
-- the young ones)
local function pack2(...) local a, b = ... return { a, b } end
local function grab(...) local t, u = ... return t.v + u.v end
local sum = 0
for i = 1, 4000 do
  local p = pack2({ v = i }, { v = 2 * i })
  local junk = {}
  for j = 1, 5 do junk[j] = { j } end
  sum = sum + grab(p[1], p[2])
end
print("refs", sum)

-- forwarding and select('#') (VARARG with C == 0) beside the inline ones
local function count(...) return select("#", ...) end
local function fwd(f, ...) return f(...) end
local n = 0
for i = 1, 3000 do
  n = n + fwd(count, i, nil, nil) + fwd(count) + count(fwd(v0, i, i))
end
print("forward", n)

-- deep recursion with many extra arguments: the stack grows (the slow
-- VARARGPREP path) and moves under the compiled frames
local function deep(d, ...)
  if d == 0 then return select("#", ...) end
  local a, b = ...
  return deep(d - 1, a, b, d, d, d, d, d, d, d, d)
end
local dsum = 0
for i = 1, 40 do dsum = dsum + deep(150, i, i) end
print("deep", dsum)

-- an error inside a compiled vararg function: message and line
local function failing(...)
  local a = ...
  if a > 2990 then error("bad " .. a) end
  return a
end
local ok, msg
for i = 1, 3000 do
  ok, msg = pcall(failing, i)
  if not ok then break end
end
print("error", ok, msg)

-- a count hook over a compiled vararg caller and callee
local hits = 0
local function hooked(...) local a, b = ... return a + b end
for i = 1, 2000 do hooked(i, i) end
debug.sethook(function() hits = hits + 1 end, "", 100)
local hs = 0
for i = 1, 2000 do hs = hs + hooked(i, 1) end
debug.sethook()
print("hook", hs, hits > 0)

-- yields across vararg frames
local function gen(...)
  local a, b = ...
  for i = a, b do coroutine.yield(i) end
  return "done", ...
end
local cs = 0
for round = 1, 200 do
  local co = coroutine.wrap(gen)
  local v = co(1, 5)
  while v ~= "done" do cs = cs + v; v = co() end
end
print("coroutines", cs)

-- a vararg method and a table of the extras
local obj = { base = 10 }
function obj:add(...) local a, b, c = ... return self.base + a + (b or 0) + (c or 0) end
local ms, kt = 0, nil
for i = 1, 3000 do
  ms = ms + obj:add(i) + obj:add(i, 1, 2)
  kt = (function(...) local t = { ... } return t end)(i, "a", i)
end
print("method", ms, keys(kt))
