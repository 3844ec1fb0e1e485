-- Integer products near and past the 48-bit immediates and past 64 bits
-- (Lua integers wrap), in hot loops: compiled code computes a product
-- exactly (llvmgen.c OP_MUL) and leaves when it does not fit 48 bits; the
-- interpreter then computes it.  Also numeric for loops whose last value
-- (start + count * step) passes 2^47 or 2^63 (the entry check of a
-- compiled loop).  Results must equal lua5.4's in every mode.
local pairs_ = {
  {1 << 23, 1 << 24},        -- 2^47: just past
  {-(1 << 23), 1 << 24},     -- -2^47: the least that fits
  {(1 << 24) - 1, 1 << 23},  -- fits
  {1 << 40, 1 << 30},        -- 2^70: wraps to 0
  {(1 << 40) + 3, (1 << 30) + 5},
  {-(1 << 46), -(1 << 20)},
  {0x7FFFFFFFFFFF, -1},
  {1 << 62, 4},              -- 2^64: wraps
  {-(1 << 31), (1 << 31) + 1},
}
local function prods(n)
  local acc = 0
  for i = 1, n do
    local p = pairs_[i % #pairs_ + 1]
    local a, b = p[1] + i % 3, p[2] - i % 2
    acc = acc ~ (a * b)
  end
  return acc
end
print("prods", prods(100000))

local function squares(n)
  local s, x = 0, 1
  for i = 1, n do
    x = x * 3 + i          -- grows past 2^47 and 2^63, wraps
    s = s ~ x
    if i % 50 == 0 then x = i end
  end
  return s, x
end
print("squares", squares(100000))

local function mulconst(n)
  local s = 0
  for i = 1, n do s = s + (i * 1000000007) * 4099 end   -- both factors of a 64-bit overflow
  return s
end
print("mulconst", mulconst(100000))

local function bigsteps(reps)
  local c, last = 0, 0
  for _ = 1, reps do
    for i = 0, 1 << 62, 1 << 58 do c = c + 1; last = i end
    for i = (1 << 47) - 3, (1 << 47) + 3 do c = c + 1; last = i end
    for i = -(1 << 47), -(1 << 47) + 2 do c = c + 1; last = i end
    for i = math.maxinteger - 2, math.maxinteger do c = c + 1; last = i end
    for i = 10, 1, -(1 << 60) do c = c + 1; last = i end
  end
  return c, last
end
print("bigsteps", bigsteps(3000))
