-- coroutines.lua: generators and pipelines built from coroutines (resume and
-- yield across Lua frames, coroutine.wrap, values passed both ways).
-- usage: mvm bench/coroutines.lua [n]   (default 2000000)
-- Self-check: every pipeline's result is compared with a direct computation.
local n = tonumber(arg and arg[1]) or 2000000
local wrap, yield, create, resume, status = coroutine.wrap, coroutine.yield, coroutine.create,
                                            coroutine.resume, coroutine.status
-- floor division written portably (LuaJIT, a Lua 5.1, has no //); an integer in 5.4
local function idiv(a, b) return math.floor(a / b) end

-- 1. a numeric range generator, consumed by a generic for
local function range(a, b)
  return wrap(function() for i = a, b do yield(i) end end)
end
local s = 0
for i in range(1, n) do s = s + i end
assert(s == idiv(n * (n + 1), 2), "range")

-- 2. a pipeline: generator -> map -> filter -> consumer
local function map(f, gen) return wrap(function() for x in gen do yield(f(x)) end end) end
local function filter(p, gen) return wrap(function() for x in gen do if p(x) then yield(x) end end end) end
local acc, cnt = 0, 0
for x in filter(function(x) return x % 3 == 0 end, map(function(x) return x * x end, range(1, idiv(n, 2)))) do
  acc = acc + x
  cnt = cnt + 1
end
local eacc, ecnt = 0, 0
for i = 1, idiv(n, 2) do if (i * i) % 3 == 0 then eacc = eacc + i * i; ecnt = ecnt + 1 end end
assert(acc == eacc and cnt == ecnt, "pipeline")

-- 3. the concurrent prime sieve: a chain of filtering coroutines
local function primes(count)
  local gen = wrap(function() local i = 2; while true do yield(i); i = i + 1 end end)
  local out = {}
  for k = 1, count do
    local p = gen()
    out[k] = p
    local src = gen
    gen = wrap(function()
      while true do
        local x = src()
        if x % p ~= 0 then yield(x) end
      end
    end)
  end
  return out
end
-- the chain depth stays at 60: each link is a nested resume, and Lua limits
-- the nesting of C calls (about 200)
local np = 60
local ps
for _ = 1, math.max(1, idiv(n, 20000)) do ps = primes(np) end
local check, c = {}, 0
local i = 2
while c < np do
  local isp = true
  for d = 2, math.floor(math.sqrt(i)) do if i % d == 0 then isp = false; break end end
  if isp then c = c + 1; check[c] = i end
  i = i + 1
end
for k = 1, np do assert(ps[k] == check[k], "prime " .. k) end

-- 4. a two-way conversation: the consumer sends values back into the producer
local co = create(function(x)
  local total = 0
  while x do
    total = total + x
    x = yield(total)
  end
  return "done", total
end)
local last
for k = 1, n do
  local ok, t = resume(co, k)
  assert(ok, t)
  last = t
end
local ok, tag, total = resume(co, nil)
assert(ok and tag == "done" and total == last and total == idiv(n * (n + 1), 2), "conversation")
assert(status(co) == "dead")

-- 5. permutations by recursive generators (yield from nested Lua calls)
local function permgen(a, k)
  if k == 0 then yield(a) return end
  for j = 1, k do
    a[k], a[j] = a[j], a[k]
    permgen(a, k - 1)
    a[k], a[j] = a[j], a[k]
  end
end
local m = 7
local arr = {}
for j = 1, m do arr[j] = j end
local reps = math.max(1, idiv(n, 100000))
local perms = 0
for _ = 1, reps do
  for p in wrap(function() permgen(arr, m) end) do
    perms = perms + 1
    assert(#p == m)
  end
end
assert(perms == 5040 * reps, "permutations")

print(string.format("coroutines ok: %d %d %d primes (last %d) %d perms", s, acc, np, ps[np], perms))
