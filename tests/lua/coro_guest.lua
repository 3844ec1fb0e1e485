-- coroutine switches in place (do_wrapresume): a wrap generator called by
-- interpreted code runs its resumer on in its own activation; everything
-- must look as with a plain resume
local wrap, yield = coroutine.wrap, coroutine.yield

-- values both ways, OP_CALL and TFORCALL, fixed and multiple results
local function gen(n)
  return wrap(function(a)
    local got = {a}
    for i = 1, n do got[#got + 1] = yield(i, i * 2) end
    return "end", table.concat(got, ",")
  end)
end
local g = gen(4)
local s = 0
for i = 1, 4 do local a, b = g(i * 10); s = s + a + b end
print(s, g("last"))
print(pcall(g))
local t = {}
for a, b in gen(5) do t[#t + 1] = a .. ":" .. tostring(b); if a == "end" then break end end
print(table.concat(t, " "))
g = gen(3)
print(g(1)); print(select("#", g(2))); print(({g(3)})[2]); print(g())

-- the resumer's frame returns while the generator is suspended; resumed
-- later from elsewhere (and from a tail call)
g = gen(10)
local function take(k) local r = {} for _ = 1, k do r[#r + 1] = (g()) end return table.concat(r, ",") end
print(take(3))
print(take(2))
local function tail(k) return take(k) end
print(tail(2), g())

-- errors inside the generator after switches in place: position of the
-- last call, error objects, dead afterwards
local bad = wrap(function()
  for i = 1, 3 do yield(i) end
  error("boom")
end)
print(pcall(function()
  local r = 0
  while true do r = r + bad() end
end))
print(pcall(bad))
local obj = setmetatable({}, {__tostring = function() return "OBJ" end})
local bad2 = wrap(function() yield(1); yield(2); error(obj) end)
print(pcall(function() for v in bad2 do end end))
print(select(2, pcall(function() local x = bad2 end)) == nil)

-- the resumer's own error while it runs in place, then the generator again
g = gen(6)
print(pcall(function() for v in g do if v == 2 then error("mine") end end end))
print(g(), g())

-- status, running, isyieldable on both sides
local main = coroutine.running()
local co
local sg = wrap(function()
  for i = 1, 3 do
    yield(coroutine.status(co), coroutine.status(main), coroutine.isyieldable(), coroutine.running() == co)
  end
end)
co = coroutine.create(function()
  for _ = 1, 3 do print("co", sg()) end
  print("from co", coroutine.running() == co, coroutine.isyieldable())
end)
coroutine.resume(co)
local sg2 = wrap(function()
  local me = coroutine.running()
  for i = 1, 3 do yield(coroutine.status(me), coroutine.isyieldable()) end
end)
for _ = 1, 3 do print("main", sg2()) end
print(coroutine.running() == main)

-- close the generator from its resumer between switches
local cl
local closing = coroutine.create(function()
  local x <close> = setmetatable({}, {__close = function() print("closed x") end})
  for i = 1, 10 do yield(i) end
end)
cl = function() local ok, v = coroutine.resume(closing); return v end
local w = wrap(function() for i = 1, 10 do yield(i) end end)
print(w(), w(), coroutine.close(closing), coroutine.status(closing))
local wco
local w2 = wrap(function() wco = coroutine.running(); for i = 1, 10 do yield(i) end end)
print(w2(), w2())
print(coroutine.close(wco), coroutine.status(wco))
print(pcall(w2))

-- two generators called alternately, many times (no C stack growth)
local a = wrap(function() local i = 0 while true do i = i + 1; yield(i) end end)
local b = wrap(function() local i = 0 while true do i = i - 1; yield(i) end end)
local c = wrap(function() local i = 0 while true do i = i + 10; yield(i) end end)
local sum = 0
for _ = 1, 20000 do sum = sum + a() + b() + c() end
print(sum)

-- tracebacks inside a generator resumed in place
local tb = wrap(function()
  yield(1)
  yield((debug.traceback("tb", 1):gsub("\n[^\n]*%[C%][^\n]*", "")))
end)
tb()
print((tb():match("^tb\nstack traceback:\n[^\n]*")))

-- the collector: generators reachable only from the running frames
local function count(n)
  local r = 0
  for v in wrap(function() for i = 1, n do yield(i) end end) do
    r = r + v
    if v % 50 == 0 then collectgarbage() end
  end
  return r
end
print(count(200))
print(wrap(function() yield("once") end)())
collectgarbage(); collectgarbage()
print(count(10))

-- a resumer that is itself a coroutine (inside pcall, so not at its base
-- level) consuming a generator, and yielding across the pcall
local outer = coroutine.wrap(function()
  local inner = gen(4)
  local ok, err = pcall(function()
    for v in inner do yield("outer", v) end
  end)
  return "outer done", ok, err
end)
for _ = 1, 6 do print(outer()) end

-- a generator that yields from a metamethod and from a pcall'd function
-- (yields that throw) between switches in place
local mixed = wrap(function()
  yield(1)
  local o = setmetatable({}, {__index = function(_, k) return yield("index " .. k) end})
  local v = o.key
  yield(v)
  local ok, r = pcall(function() return yield("in pcall") end)
  yield(tostring(ok) .. " " .. tostring(r))
  yield(3)
end)
print(mixed()); print(mixed()); print(mixed("K")); print(mixed()); print(mixed("P")); print(mixed())

-- hooks set on a generator between switches in place
local hg = wrap(function() for i = 1, 6 do yield(i) end end)
local hco
local hg2 = wrap(function() hco = coroutine.running(); for i = 1, 6 do yield(i) end end)
print(hg(), hg2())
local lines = 0
debug.sethook(hco, function() lines = lines + 1 end, "l")
print(hg(), hg2(), hg2())
print(lines > 0)
debug.sethook(hco)
print(hg2(), hg2())
debug.sethook(function() end, "c")
print(hg(), hg(), hg2())
debug.sethook()
print(hg(), hg())

-- a deep chain of wrapped resumes still ends in "C stack overflow"
local function chain(n)
  if n == 0 then return wrap(function() while true do yield(0) end end) end
  local prev = chain(n - 1)
  return wrap(function() while true do yield(prev() + 1) end end)
end
local c50 = chain(50)
print(c50(), c50())
local ok, e = pcall(function() local c = chain(300); return c() end)
print(ok, tostring(e):match("C stack overflow$"))
