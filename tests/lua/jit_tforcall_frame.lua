-- jit_tforcall_frame.lua: a generic for's call frame (R[A+4..A+6]: the
-- iterator, its state and the control value) reusing the registers of a
-- numeric for loop that ended before it.  The JIT kept such a register
-- as a raw integer, so the control value was decoded and boxed again:
-- pairs' first control (nil) reached next as the integer 2 and the
-- traversal skipped keys 1 and 2.  The control values here are nil,
-- integers, floats, strings, tables, booleans and integers beyond 2^47.

local function sumkeys(n)
  local d = {}
  for r = 1, n do for c = 1, n do d[r - c] = false end end
  local s = 0
  for k, v in pairs(d) do s = s + k end
  return s
end
print("pairs after nested loops", sumkeys(12), sumkeys(5))

local function two(n)
  local d1, d2, cnt = {}, {}, 0
  for r = 1, n do for c = 1, n do
    if not d1[r + c] and not d2[r - c] then
      d1[r + c], d2[r - c] = true, true; cnt = cnt + 1
      d1[r + c], d2[r - c] = false, false
    end
  end end
  local s = 0
  for k, v in pairs(d1) do if v == false then s = s + k end end
  for k, v in pairs(d2) do if v == false then s = s + k end end
  return cnt, s
end
print("two pairs loops", two(12))

-- a stateless iterator whose control is each kind of value in turn
local seq = {"a", 2.5, true, {}, 1 << 50, -7, "z"}
local pos = {}
for i, v in ipairs(seq) do pos[v] = i end
local function step(_, ctl)
  local i = ctl == nil and 0 or pos[ctl]
  return seq[i + 1]
end
local function kinds(n)
  local acc = 0
  for i = 1, n do for j = 1, n do acc = acc + i * j end end
  local out = {}
  for v in step, nil, nil do out[#out + 1] = math.type(v) or type(v) end
  return acc, table.concat(out, " ")
end
print("control kinds", kinds(4))

-- the same with the state and an initial control given explicitly
local function explicit(n)
  local t = {}
  for i = 1, n do t[i] = i * 10 end
  local s = 0
  for i = 1, n do s = s + i end
  for k, v in next, t, 2 do s = s + k * 1000 + v end
  return s
end
print("next from 2", explicit(6))

-- ipairs and string keys after loops, run many times (hot in -j on)
local function mixed(n)
  local t = {x = 1, y = 2, z = 3}
  for i = 1, n do t[i] = i end
  local s, names = 0, 0
  for i = 1, n do for j = i, n do s = s + j - i end end
  for k, v in pairs(t) do
    if type(k) == "string" then names = names + v else s = s + v end
  end
  for _, v in ipairs(t) do s = s - v end
  return s, names
end
local total = 0
for rep = 1, 300 do local a, b = mixed(7); total = total + a + b end
print("mixed", mixed(7), total)
