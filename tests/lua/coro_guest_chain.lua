-- switches in place along chains of generators (do_wrapresume): a
-- coroutine at its base level resumes another one and runs on in that
-- one's activation; its own yields end that activation (WRAP_GUESTYIELD)
local wrap, yield = coroutine.wrap, coroutine.yield

local function range(a, b) return wrap(function() for i = a, b do yield(i) end end) end
local function map(f, g) return wrap(function() for x in g do yield(f(x)) end end) end
local function filter(p, g) return wrap(function() for x in g do if p(x) then yield(x) end end end) end

-- a pipeline: generic for and OP_CALL at every level
local acc, cnt = 0, 0
for x in filter(function(x) return x % 3 == 0 end, map(function(x) return x * x end, range(1, 3000))) do
  acc = acc + x; cnt = cnt + 1
end
print(acc, cnt)
local p = filter(function(x) return x % 7 == 0 end, range(1, 100))
local got = {}
for _ = 1, 5 do got[#got + 1] = p() end
print(table.concat(got, " "))

-- the prime sieve: a chain of filtering coroutines
local function primes(count)
  local gen = wrap(function() local i = 2; while true do yield(i); i = i + 1 end end)
  local out = {}
  for k = 1, count do
    local q = gen()
    out[k] = q
    local src = gen
    gen = wrap(function()
      while true do
        local x = src()
        if x % q ~= 0 then yield(x) end
      end
    end)
  end
  return out
end
print(table.concat(primes(40), " "))
-- from a loop: the outermost activation (the caller's frame running in
-- the first generator's activation) outlives newer ones of the same
-- coroutine, started by the next levels
local ps
for _ = 1, 3 do ps = primes(8) end
print(table.concat(ps, " "), "after the loop")
local function twice() local a = primes(5); local b = primes(6); return a[5] + b[6] end
print(twice(), twice())

-- values both ways through two levels, and a middle level that yields
-- several times per value it takes
local inner = wrap(function(a)
  while true do a = yield(a * 2) end
end)
local middle = wrap(function(v)
  while true do
    local r = inner(v)
    v = yield(r, "a")
    v = yield(r + 1, "b") or v
  end
end)
for i = 1, 4 do print(middle(i)) end

-- an error in the innermost generator while the middle one runs in place
local bad = wrap(function() for i = 1, 5 do yield(i) end error("inner boom") end)
local mid = wrap(function() local s = 0 while true do s = s + bad(); if s > 3 then yield(s) end end end)
print(pcall(function() while true do print("mid", mid()) end end))
print(pcall(mid))
local bad2 = wrap(function() yield(1); error({code = 7}) end)
local mid2 = wrap(function() while true do yield(bad2()) end end)
print(mid2(), select(2, pcall(mid2)).code)

-- the middle level's own error, then status and close along the chain
local co_in, co_mid
local gin = wrap(function() co_in = coroutine.running(); for i = 1, 100 do yield(i) end end)
local gmid = wrap(function()
  co_mid = coroutine.running()
  for x in gin do
    if x == 3 then yield(coroutine.status(co_in), coroutine.status(co_mid)) end
    if x == 5 then error("mid error") end
  end
end)
print(gmid())
print(pcall(gmid))
print(coroutine.status(co_in), coroutine.status(co_mid), gin())
print(coroutine.close(co_in), coroutine.status(co_in))

-- a middle level yielding from inside a pcall and from a nested function
local deep = wrap(function()
  local src = range(1, 6)
  local function pass() return yield(src()) end
  pass()
  print(pcall(function() yield(src()); yield(src()) end))
  for x in src do yield(x) end
  return "deep done"
end)
for _ = 1, 7 do print(deep()) end

-- a chain past the C levels still fails with "C stack overflow"
local function chain(n)
  if n == 0 then return wrap(function() while true do yield(0) end end) end
  local prev = chain(n - 1)
  return wrap(function() while true do yield(prev() + 1) end end)
end
local c60 = chain(60)
print(c60(), c60(), c60())
local ok, e = pcall(function() local c = chain(300); return c() end)
print(ok, tostring(e):match("C stack overflow$"))
collectgarbage()
print(c60())
