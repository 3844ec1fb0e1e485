-- Yields from Lua frames running directly under resume (the interpreter
-- returns to lua_resume instead of a longjmp) mixed with yields that must
-- unwind C frames (pcall, metamethods, iterators, sort), and the transfer
-- of values both ways (mvm_resume).
local co_create, resume, yield, wrap, status = coroutine.create, coroutine.resume,
  coroutine.yield, coroutine.wrap, coroutine.status

local function show(...)
  local t = table.pack(...)
  for i = 1, t.n do t[i] = tostring(t[i]) end
  return t.n .. ":" .. table.concat(t, ",")
end

-- values both ways: 0, 1, many, nils in between
local co = co_create(function(...)
  print("start", show(...))
  local a = table.pack(yield())
  print("got", show(table.unpack(a, 1, a.n)))
  a = table.pack(yield(1))
  print("got", show(table.unpack(a, 1, a.n)))
  a = table.pack(yield(nil, 2, nil))
  print("got", show(table.unpack(a, 1, a.n)))
  print("multret", show(yield(1, 2, 3)))
  return nil, "end", nil
end)
print(show(resume(co)))
print(show(resume(co, 10)))
print(show(resume(co)))
print(show(resume(co, nil, nil)))
print(show(resume(co, "x", "y")))
print(status(co), show(resume(co)))

-- many values: beyond LUA_MINSTACK both ways
local big = {}
for i = 1, 300 do big[i] = i end
co = co_create(function(...)
  local n = select("#", ...)
  local r = table.pack(yield(...))
  return n, r.n, r[r.n]
end)
local r = table.pack(resume(co, table.unpack(big)))
print(r.n, r[2], r[301])
print(show(resume(co, table.unpack(big, 1, 250))))

-- yields from nested Lua calls, tail calls, a recursive generator
local function deep(n) if n == 0 then return yield("bottom") end return deep(n - 1) end
local function tail(n) return deep(n) end
co = wrap(function() print("deep got", tail(5)); local x = deep(3); return "done " .. tostring(x) end)
print(co())
print(co("v1"))
print(co("v2"))

-- yield across pcall, error inside pcall after a yield, metamethods
co = wrap(function()
  local ok, v = pcall(function() local x = yield("in pcall"); error("boom " .. x) end)
  print("pcall", ok, v)
  local ok2, v2 = pcall(yield, "pcall(yield)")
  print("pcall2", ok2, v2)
  local t = setmetatable({}, {__index = function(_, k) return yield("index " .. k) end,
                               __add = function(a, b) return yield("add") end})
  print("index", t.foo)
  print("add", t + 1)
  for i, v in function(_, i) if i < 2 then return i + 1, yield("iter " .. i) end end, nil, 0 do
    print("for", i, v)
  end
  return "fin"
end)
print(co()); print(co("X")); print(co("Y")); print(co("Z")); print(co(42))
print(co("i0")); print(co("i1"))

-- errors: inside wrap (position), resume of dead/running/normal coroutines
local w = wrap(function() yield(1); error("oops") end)
print(w())
print(pcall(w))
print(pcall(w))
local w2 = wrap(function() yield(1); error({code = 7}) end)
w2()
local ok, e = pcall(w2)
print(ok, type(e), e.code)
co = co_create(function() return resume(coroutine.running()) end)
print(resume(co))
local outer
outer = co_create(function()
  local inner = co_create(function() return resume(outer) end)
  return resume(inner)
end)
print(resume(outer))
print(resume(outer))

-- yield across a C boundary that cannot yield
co = co_create(function()
  local t = {3, 1, 2}
  table.sort(t, function(a, b) yield() return a < b end)
end)
print(resume(co))
print(pcall(yield, 1))

-- status and isyieldable seen from inside and outside
local main = coroutine.running()
co = co_create(function()
  print("inside", status(main), coroutine.isyieldable(), status(coroutine.running()))
  yield()
  print("again", coroutine.isyieldable())
end)
print(status(co)); resume(co); print(status(co)); resume(co); print(status(co))
print(coroutine.isyieldable())

-- close with pending to-be-closed variables after a yield
co = co_create(function()
  local x <close> = setmetatable({}, {__close = function(_, err) print("closing x", err) end})
  local y <close> = setmetatable({}, {__close = function(_, err) print("closing y", err) end})
  yield("suspended")
end)
print(resume(co))
print(coroutine.close(co), status(co))
co = co_create(function()
  local x <close> = setmetatable({}, {__close = function() error("in close") end})
  yield()
end)
resume(co)
print(coroutine.close(co))

-- a traceback of a suspended coroutine starts at the yield
co = co_create(function() local function f() yield() end f() end)
resume(co)
print((debug.traceback(co):gsub("\n%s*", " | ")))

-- hooks inside a coroutine that yields (line hook counts)
co = co_create(function()
  local n = 0
  debug.sethook(function() n = n + 1 end, "l")
  for i = 1, 3 do yield(i) end
  debug.sethook()
  return n > 0
end)
for _ = 1, 5 do print(show(resume(co))) end

-- generators under collection pressure
local function gen(n) return wrap(function() for i = 1, n do yield({i}, ("s" .. i)) end end) end
local sum = 0
for t, s in gen(2000) do sum = sum + t[1] + #s end
print(sum)
-- a chain of wraps (nested resumes)
local g = wrap(function() for i = 1, 100 do yield(i) end end)
for _ = 1, 20 do
  local src = g
  g = wrap(function() while true do local v = src(); if v == nil then return end; yield(v) end end)
end
local c = 0
for v in g do c = c + v end
print(c)

-- C functions returning into 2 or more fixed results (OP_CALL's inline
-- result moves): fewer, as many and more results than wanted
local a1, a2, a3 = string.find("hello world", "o w")
print(a1, a2, a3)
local b1, b2, b3, b4 = pcall(select, 2, "x", "y", "z")
print(b1, b2, b3, b4)
local c1, c2 = math.type(1)
print(c1, c2)
local d1, d2, d3 = table.unpack({1, 2, 3, 4, 5})
print(d1, d2, d3)
local ok1, v1, v2 = coroutine.resume(coroutine.create(function() return 1, 2, 3 end))
print(ok1, v1, v2)

-- yield as a coroutine's body (a C function: it throws), through __call
local cy = coroutine.create(coroutine.yield)
print(coroutine.resume(cy, 1, 2))
print(coroutine.resume(cy, 3))
print(coroutine.status(cy))
local wy = coroutine.wrap(coroutine.yield)
print(wy("a", "b")); print(wy("c"))
local callobj = setmetatable({}, {__call = function(self, ...) return coroutine.yield(...) end})
local cc = coroutine.wrap(function() local r = callobj(5, 6); return "back", r end)
print(cc()); print(cc("r"))
local yobj = setmetatable({}, {__call = coroutine.yield})
local cy2 = coroutine.wrap(function() return "after", yobj(7) end)
print(select("#", cy2())); print(cy2("v"))
