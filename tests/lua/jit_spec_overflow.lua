-- Integer results beyond the 48-bit immediates in hot loops (compiled
-- code leaves at such an overflow, counted as a failed speculation: a
-- function that keeps overflowing is recompiled, then left to the
-- interpreter, jit.c despecialise).  Results must equal lua5.4's in every
-- mode; tests/jit_spec.sh also bounds the side exits.
local function lcg(n)
  local seed, acc = 7, 0
  for i = 1, n do
    seed = (seed * 69069 + 1) % 4294967296   -- the product passes 2^47 often
    acc = acc + (seed >> 16) % 4
  end
  return seed, acc
end
print("lcg", lcg(200000))

local function sums(n)
  local big, s = (1 << 47) - 50, 0
  for i = 1, n do
    s = s + (big + i % 100)                 -- sums past 2^47
    s = s % 1000000007
  end
  return s
end
print("sums", sums(100000))

local function shifts(n)
  local s = 0
  for i = 1, n do
    s = (s + ((i % 64) << 41)) & 0x7FFFFFFFFFFF   -- shifts into the high bits
  end
  return s
end
print("shifts", shifts(100000))

local function mixed(n)
  local t = {}
  for i = 1, n do t[i] = i * 1000003 * 31 end   -- products of both sizes
  local s = 0
  for i = 1, n, 997 do s = s ~ t[i] end
  return s, t[n], math.type(t[n])
end
print("mixed", mixed(200000))
