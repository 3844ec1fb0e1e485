-- Inlined leaf calls with arguments of unknown type (jit/llvmgen.c
-- lfeed): the callee's type feedback picks one arithmetic path, guarded;
-- any other type takes the real call.  Results must be the interpreter's.

local function lerp(a, b, t) return a + (b - a) * t end
local function scale(x) return x * 3 end
local function addk(x) return x + 10 end
local xs, ns = {}, {}
for i = 1, 201 do xs[i] = i * 0.5; ns[i] = i end

local function run(t, n)
  local s = 0
  for i = 1, n do s = s + lerp(t[i], t[i + 1], 0.25) + scale(t[i]) + addk(t[i]) end
  return s
end

-- floats first (the feedback), then integers, strings, mixed, errors
local r = {}
for _ = 1, 30 do r[#r + 1] = run(xs, 200) end
print(r[1], r[30])
print(run(ns, 200))
local strs = {}
for i = 1, 201 do strs[i] = tostring(i) end
print(run(strs, 200))
local mixed = {}
for i = 1, 201 do mixed[i] = i % 3 == 0 and i or i + 0.5 end
print(run(mixed, 200))
local big = {}
for i = 1, 201 do big[i] = math.maxinteger - i end
print(run(big, 200))
print(pcall(run, {1.5, {}, 2.5}, 2))

-- integers first, then floats
local function irun(t, n)
  local s = 0
  for i = 1, n do s = s + addk(t[i]) + scale(t[i]) end
  return s
end
for _ = 1, 30 do r[#r + 1] = irun(ns, 200) end
print(r[#r], irun(xs, 200), irun(mixed, 200), irun(big, 200))
print(pcall(irun, {1, 2, "x"}, 3))

-- comparisons: floats first, then integers, strings (the real call), mixed
local function clamp(x, lo, hi) if x < lo then return lo elseif x > hi then return hi end return x end
local function pos(x) if x > 0 then return x end return 0 end
local function crun(t, n)
  local r = {}
  for i = 1, n do r[#r + 1] = tostring(clamp(t[i], t[1], t[5])) .. ":" .. tostring(pos(t[i])) end
  return table.concat(r, " ")
end
local cf = {}
for i = 1, 10 do cf[i] = (i * 7 % 10) - 4.5 end
for _ = 1, 30 do crun(cf, 10) end
print(crun(cf, 10))
local ci = {}
for i = 1, 10 do ci[i] = (i * 7 % 10) - 4 end
print(crun(ci, 10))
print(pcall(crun, {"b", "a", "c", "d", "e"}, 5))
print(crun({3, 1.5, 2, -1, 10, 0.5}, 6))
