-- Integer chains whose temporaries pass the immediates' 48 bits while
-- their results fit (llvmgen.c widecons): 32-bit generators, hashes
-- masked to 32 bits, shifts right by 17 or more, 64-bit wrap-around, and
-- near misses that must not be taken for such chains (a temporary read
-- twice, a reader with an exit, a divisor of -1 or beyond 2^47).  Each
-- loop runs long enough to be compiled under -j on.

local function lcg(n)
  local seed, acc = 42, 0
  for i = 1, n do
    seed = (seed * 1103515245 + 12345) % 2147483648
    acc = acc + (seed >> 16) % 7
  end
  return seed, acc
end
print("lcg", lcg(20000))

local function lcg32(n)   -- knuc's generator: modulus 2^32
  local seed, t = 7, 0
  for i = 1, n do
    seed = (seed * 69069 + 1) % 4294967296
    t = t + ((seed >> 16) % 4)
  end
  return seed, t
end
print("lcg32", lcg32(20000))

local function fnv(s, rounds)   -- a hash masked to 32 bits
  local h = 2166136261
  for r = 1, rounds do
    for i = 1, #s do
      h = ((h ~ s:byte(i)) * 16777619) & 0xFFFFFFFF
    end
  end
  return h
end
print("fnv", fnv("the quick brown fox", 500))

local function djb(n)   -- h * 33 + c with a BANDK end
  local h = 5381
  for i = 1, n do h = (h * 33 + i) & 0x7FFFFFFF end
  return h
end
print("djb", djb(30000))

local function wrap(n)   -- products beyond 64 bits wrap around
  local x, s = 3, 0
  for i = 1, n do
    x = (x * 6364136223846793005 + 1442695040888963407) % 1000000007
    s = (s + x) % 1000000007
  end
  return x, s
end
print("wrap", wrap(20000))

local function shr(n)   -- a wide temporary ended by a shift right
  local x, s = 12345, 0
  for i = 1, n do
    x = (x * 2862933555777941757 + 3037000493) >> 20
    s = s + x % 3
  end
  return x, s
end
print("shr", shr(20000))

local function negmod(n)   -- negative temporaries, a negative modulus
  local x, s = -5, 0
  for i = 1, n do
    x = (x * 1103515245 - 12345) % -2147483647
    s = s + x % 5
  end
  return x, s
end
print("negmod", negmod(20000))

local function twice(n)   -- the temporary is read twice: boxed, exact
  local x, s = 7, 0
  for i = 1, n do
    local t = x * 1103515245
    x = (t + 1) % 2147483648
    s = (s + t % 1000) % 1000003
  end
  return x, s
end
print("twice", twice(20000))

local function minusone(n)   -- % -1 is never wide (INT64_MIN % -1)
  local x, s = 9, 0
  for i = 1, n do
    s = s + (x * 1103515245 + i) % -1
    x = (x * 75 + 74) % 65537
  end
  return x, s
end
print("minusone", minusone(20000))

local function bigmod(n)   -- a modulus beyond 2^47: results do not fit
  local x, s = 11, 0
  for i = 1, n do
    x = (x * 1103515245 + 12345) % 562949953421312
    s = (s + x) % 1000003
  end
  return x, s
end
print("bigmod", bigmod(20000))

local function mixed(n)   -- a float joins a chain: the float path
  local x, s = 5, 0
  for i = 1, n do
    local f = i == n and 0.5 or 1
    x = (x * 1103515245 + 12345) % 2147483648
    s = s + (x * f) % 3
  end
  return x, s
end
print("mixed", mixed(20000))

-- the temporary's register is also a generic for's (kept in the VM
-- stack, never typed): the chain's reader must not take it as wide
local p = {}
for i = 1, 12 do p[i * 37 % 101 + 200] = i end
local n = 0
for k, v in pairs(p) do n = n + k * v end
print("tforreg", n)
