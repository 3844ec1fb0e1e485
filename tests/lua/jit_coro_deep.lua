-- jit_coro_deep.lua: compiled code inside coroutines makes direct calls
-- (jit/jitrt.c RT_DIRECT); a yield from the bottom of a chain of them
-- discards their C frames, and the interpreter resumes every frame from
-- the VM stack (vm/do.c unroll), re-entering compiled callers after their
-- CALL (jit/jit.c jit_unwoundframes).  Every result is checked against a
-- direct computation.

-- 1. a yield at the bottom of a recursion, values passed both ways
local function down(n, acc)
  if n == 0 then
    local got = coroutine.yield(acc)
    return got + 1
  end
  local x = n * 2 + acc % 7        -- numbers live across the call
  local r = down(n - 1, acc + n)
  return r + x - n * 2 - acc % 7   -- x must be intact after the resume
end
for _, depth in ipairs({1, 5, 50, 150, 170, 400}) do
  local co = coroutine.create(function(d) return down(d, 0) end)
  local ok, v = coroutine.resume(co, depth)
  local ok2, r = coroutine.resume(co, 1000)
  print("down", depth, ok, v, ok2, r, coroutine.status(co))
end

-- 2. permutations by recursive generators, consumed by a generic for
local function permgen(a, k)
  if k == 0 then coroutine.yield(a) return end
  for j = 1, k do
    a[k], a[j] = a[j], a[k]
    permgen(a, k - 1)
    a[k], a[j] = a[j], a[k]
  end
end
local function perms(m)
  local arr = {}
  for j = 1, m do arr[j] = j end
  return coroutine.wrap(function() permgen(arr, m) end)
end
for round = 1, 3 do
  local n, sig = 0, 0
  for p in perms(5) do
    n = n + 1
    sig = (sig * 31 + p[1] * 7 + p[3] * 3 + p[5]) % 1000003
  end
  print("perms", round, n, sig)
end

-- 3. yields from several levels of one chain, each level doing work
local function level(d, out)
  local s = 0
  for i = 1, 3 do
    s = s + i * d
    if d > 0 then s = s + level(d - 1, out) end
    out[#out + 1] = coroutine.yield(d * 100 + i)
  end
  return s
end
do
  local out = {}
  local co = coroutine.wrap(function() return "end", level(4, out) end)
  local seq, k = {}, 0
  while true do
    k = k + 1
    local a, b = co(k)
    if a == "end" then seq[#seq + 1] = "end:" .. b break end
    seq[#seq + 1] = a
  end
  local sum = 0
  for i = 1, #out do sum = sum + out[i] end
  print("levels", #seq, seq[1], seq[2], seq[#seq - 1], seq[#seq], #out, sum)
end

-- 4. generators in loops: a pipeline of wraps, each stage compiled
local function range(a, b)
  return coroutine.wrap(function() for i = a, b do coroutine.yield(i) end end)
end
local function map(f, gen)
  return coroutine.wrap(function() for x in gen do coroutine.yield(f(x)) end end)
end
local function filter(p, gen)
  return coroutine.wrap(function()
    for x in gen do if p(x) then coroutine.yield(x) end end
  end)
end
for round = 1, 3 do
  local acc, cnt = 0, 0
  for x in filter(function(x) return x % 3 == 0 end,
                  map(function(x) return x * x end, range(1, 300 * round))) do
    acc = acc + x
    cnt = cnt + 1
  end
  print("pipeline", round, acc, cnt)
end

-- 5. the concurrent prime sieve: nested resumes from compiled code
local function primes(count)
  local gen = coroutine.wrap(function()
    local i = 2
    while true do coroutine.yield(i); i = i + 1 end
  end)
  local out = {}
  for k = 1, count do
    local p = gen()
    out[k] = p
    local src = gen
    gen = coroutine.wrap(function()
      while true do
        local x = src()
        if x % p ~= 0 then coroutine.yield(x) end
      end
    end)
  end
  return out
end
for round = 1, 3 do
  local ps = primes(40)
  print("primes", round, ps[1], ps[10], ps[40])
end

-- 6. a coroutine resumed from inside a deep compiled chain of another,
-- itself yielding from a deep chain
local function yd(n, v)
  if n == 0 then coroutine.yield(v) return v end
  return yd(n - 1, v + 1) - 1
end
local function inner_gen()
  return coroutine.wrap(function()
    for i = 1, 5 do yd(30, i) end
    for i = 1, 5 do coroutine.yield(i) end
  end)
end
local function deepcall(n, g)
  if n == 0 then
    local s = 0
    for _ = 1, 5 do s = s + g() end
    return s
  end
  return deepcall(n - 1, g) + 1
end
for round = 1, 3 do
  print("deepcall", round, pcall(deepcall, 100, inner_gen()))
end
-- what the inner generator yields
local g = inner_gen()
print("inner", g(), g(), g())

-- 7. varargs and multiple results across the yield
local function spread(...)
  local n = select("#", ...)
  local t = {coroutine.yield(n, ...)}
  return #t, ...
end
local function mid(...) return spread(...) end
for round = 1, 3 do
  local co = coroutine.wrap(function(...) return mid(...) end)
  print("varargs", round, co(1, nil, 3))
  print("varargs", round, co("a", "b", "c", "d"))
end
