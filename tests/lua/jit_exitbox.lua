-- Exits whose live registers hold raw numbers in compiled code (loop
-- counters as int64, floats as doubles): the exit stores them raw and
-- boxes them in place (llvmgen.c exitflush, jitrt.c mvmrt_exitbox).  The
-- interpreter must go on with exactly those values: negative and large
-- integers, -0.0, infinities, NaN, subnormals.

-- a float loop that leaves at a late element of another type
local function floats(t, n)
  local a, b, c, z = 0.5, -1.25, 0.0, -0.0
  local big, tiny = 1e308, 5e-324
  for i = 1, n do
    a = a * 0.5 + i
    b = b - a / 3
    c = c + i * 0.25
    big = big * 1.0
    local v = t[i]
    if v then a = a + v end   -- a string here: leaves compiled code
  end
  return a, b, c, z, 1 / z, big * 10, tiny, tiny / 2
end

-- integer loops (raw int64 homes) around the same kind of exit
local function ints(t, n, step)
  local s, m, neg = 0, 140737488355327, -140737488355328
  for i = n, -n, step do
    for j = 1, 3 do
      s = s + i * j
      local v = t[(i % 7) + 1]
      if v then s = s + v end
    end
    m = m - 1
    neg = neg + 1
  end
  return s, m, neg
end

local nums = {}
for i = 1, 400 do nums[i] = i % 5 end
for _ = 1, 30 do floats(nums, 400) end
nums[390] = "7"   -- coerced by the interpreter after the exit
print(floats(nums, 400))
nums[390] = 7
print(floats(nums, 400))

local small = {1, 2, 3, 4, 5, 6, 7}
for _ = 1, 30 do ints(small, 50, -3) end
small[4] = "2"
print(ints(small, 50, -3))
print(ints(small, 9, -1))
small[4] = 2.5
print(ints(small, 50, -7))

-- NaN through an exit: printed sign and payload as the interpreter's
local function nanloop(t, n)
  local x, y = 0.0, 1.0
  for i = 1, n do
    x = (x - x) / (x - x)   -- -nan on x86, as lua5.4 computes it
    y = y + 1
    local v = t[i]
    if v then y = y + v end
  end
  return x ~= x, y
end
local ones = {}
for i = 1, 200 do ones[i] = 1 end
for _ = 1, 30 do nanloop(ones, 200) end
ones[150] = "3"
print(nanloop(ones, 200))
