-- FORLOOP's fast step works on immediate integers (48-bit payloads): the
-- index, the step and an iteration count in [1, 2^47).  Indexes crossing
-- +-2^47, counts at and above 2^47 (and counts stored negative: more than
-- 2^63 iterations), loop ends and float loops take the other paths.
local B = 1 << 47

local function run(a, b, c, max)
  local n, first, last = 0, nil, nil
  for i = a, b, c do
    n = n + 1
    first = first or i
    last = i
    if n >= max then break end
  end
  return n, first, last
end

-- indexes crossing the immediate range, up and down, steps 1 and 3
print(run(B - 3, B + 3, 1, 100))
print(run(B + 3, B - 3, -1, 100))
print(run(-B + 3, -B - 3, -1, 100))
print(run(-B - 3, -B + 3, 1, 100))
print(run(B - 7, B + 8, 3, 100))
print(run(-B + 7, -B - 8, -3, 100))
print(run(B - 1, B, 1, 100))
print(run(B, B + 2, 1, 100))
print(run(-B, -B - 2, -1, 100))
-- a step that does not fit 48 bits, index inside
print(run(0, 3 * B, B, 100))
print(run(0, -3 * B, -B, 100))
-- counts around 2^47 (the loop is cut short: the count stays big)
print(run(0, B - 2, 1, 5))
print(run(0, B - 1, 1, 5))
print(run(0, B, 1, 5))
print(run(0, B + 1, 1, 5))
print(run(1, 2 * B, 1, 5))
-- more than 2^63 iterations: the count is stored negative
print(run(math.mininteger, math.maxinteger, 1, 5))
print(run(math.maxinteger, math.mininteger, -1, 5))
print(run(math.mininteger, math.maxinteger - B, 1, 5))
print(run(-1, math.maxinteger, 1, 5))
print(run(math.mininteger, math.maxinteger - B + 1, 1, 5))
print(run(math.maxinteger, math.mininteger + B - 1, -1, 5))
-- the last iterations at the integer limits
print(run(math.maxinteger - 2, math.maxinteger, 1, 100))
print(run(math.mininteger + 2, math.mininteger, -1, 100))
-- short loops: the end of each after 0, 1, 2 iterations
local total = 0
for k = 0, 5 do
  for j = 1, k do total = total + j end
  for j = k, 1, -1 do total = total + 10 * j end
end
print("short loops", total)
-- nested loops (each end takes the slow path once)
local s = 0
for a = 1, 30 do for b = a, 30 do for c = b, 30, 7 do s = s + a * b - c end end end
print("nested", s)
-- float loops: step, down, accumulated rounding, a float step in an
-- integer-looking loop
print(run(0.0, 1.0, 0.25, 100))
print(run(1.0, 0.0, -0.5, 100))
print(run(1, 2, 0.5, 100))
local f, cnt = 0.0, 0
for x = 0.1, 1.0, 0.1 do f = f + x; cnt = cnt + 1 end
print("float sum", cnt, string.format("%.10f", f))
print(run(2.0^53 - 2, 2.0^53 + 2, 1.0, 10))
print(run(-0.0, 0.0, 1, 10))
print(math.type((select(2, run(1.0, 3, 1, 10)))))
print(math.type((select(2, run(1, 3, 1, 10)))))
