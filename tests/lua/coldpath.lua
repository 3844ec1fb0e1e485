-- A function runs hot on one path, then takes paths that never ran while
-- it was hot (arithmetic and comparisons only there), with every kind of
-- live register at the switch: compiled code must leave to the
-- interpreter with all of them intact, and a function that keeps taking
-- such paths must go on giving the same results after it is recompiled.

local function f(a, b, mode)
  local x, y, s = a * 2, b + 0.5, "s" .. a
  local t = {a, b}
  if mode == 1 then
    x = x + y * 3
    if x > 1000 then y = y - 1 else y = y + 1 end
    s = s .. x
  elseif mode == 2 then
    for i = 1, 3 do x = x + i * a end
    t[3] = x // 3
  elseif mode == 3 then
    local k = 0
    while k < b do k = k + 2 end
    x = x - k
  end
  return x, y, s, #t, t[3]
end

local acc = 0
for i = 1, 3000 do
  local x, y = f(i, i, 0)
  acc = acc + x + y
end
print("hot", acc)

-- each cold path a few times, then many times (recompiles)
for _, m in ipairs({1, 2, 3}) do
  for i = 1, 3 do print(m, f(i, i * 2, m)) end
end
local sums = {0, 0, 0}
for i = 1, 2000 do
  local m = i % 3 + 1
  local x, y, s, n, t3 = f(i, i % 50, m)
  sums[m] = sums[m] + x + y + n + (t3 or 0) + #s
end
print("mixed", sums[1], sums[2], sums[3])

-- a loop whose body has a branch that never ran, taken late inside one
-- long run of the loop (OSR region and whole-function code)
local function g(n, flip)
  local s, c = 0, 0
  for i = 1, n do
    if i < flip then s = s + i
    else s = s - i * 2; c = c + 1 end
  end
  return s, c
end
for i = 1, 50 do g(200, 1000) end
print("g", g(200, 1000))
print("g", g(3000, 2500))
for i = 1, 100 do g(100, 50) end
print("g", g(100, 50))

-- a cold path after a call: code resumes after calls only that it made
local function h(v, w)
  local r = tostring(v)
  if w then r = #r + v * 2 end
  return r
end
for i = 1, 3000 do h(i, false) end
print("h", h(7, false), h(7, true), h(2.5, true))
