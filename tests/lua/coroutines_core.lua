-- coroutines_core.lua: coroutine semantics (language-level behaviour)
print("coroutines_core: start")

-- basic resume/yield value passing
local co = coroutine.create(function(a, b)
  print("started with", a, b)
  local c = coroutine.yield(a + b)
  print("got", c)
  local d, e = coroutine.yield(c * 2)
  print("got", d, e)
  return "done", d + e
end)
print(coroutine.status(co))
print(coroutine.resume(co, 1, 2))
print(coroutine.status(co))
print(coroutine.resume(co, 10))
print(coroutine.resume(co, 3, 4))
print(coroutine.status(co))
print(coroutine.resume(co))
print(coroutine.resume(co))

-- generators with wrap
local function range(n)
  return coroutine.wrap(function()
    for i = 1, n do coroutine.yield(i) end
  end)
end
local out = {}
for v in range(5) do out[#out + 1] = v end
print("generator", table.concat(out, ","))

-- permutations generator (classic)
local function permgen(a, n)
  n = n or #a
  if n <= 1 then coroutine.yield(a)
  else
    for i = 1, n do
      a[n], a[i] = a[i], a[n]
      permgen(a, n - 1)
      a[n], a[i] = a[i], a[n]
    end
  end
end
local perms = {}
for p in coroutine.wrap(function() permgen({1, 2, 3}) end) do
  perms[#perms + 1] = table.concat(p)
end
print("permutations", table.concat(perms, " "))

-- status transitions: suspended, running, normal, dead
local co1, co2
co1 = coroutine.create(function()
  print("co1 status inside", coroutine.status(co1))
  coroutine.resume(co2)
  return "co1 done"
end)
co2 = coroutine.create(function()
  print("co1 status from co2", coroutine.status(co1))
  print("co2 status inside", coroutine.status(co2))
end)
print(coroutine.resume(co1))
print("final", coroutine.status(co1), coroutine.status(co2))

-- running / isyieldable
local main, ismain = coroutine.running()
print("main running", type(main), ismain, coroutine.isyieldable())
coroutine.wrap(function()
  local c, m = coroutine.running()
  print("inside running", type(c), m, coroutine.isyieldable())
end)()

-- resuming dead / running coroutines
co = coroutine.create(function() return 1 end)
coroutine.resume(co)
print("resume dead", coroutine.resume(co))
co = coroutine.create(function() return coroutine.resume(co) end)
print("resume self", coroutine.resume(co))
local w = coroutine.wrap(function() return 1 end)
w()
print("call dead wrap", pcall(w))

-- yield from main is an error
print("yield from main", pcall(coroutine.yield, 1))

-- errors inside coroutines
co = coroutine.create(function() error("inside") end)
print("error", coroutine.resume(co))
print("status after error", coroutine.status(co))
co = coroutine.create(function() error({code = 7}) end)
local ok, e = coroutine.resume(co)
print("error table", ok, type(e), e.code)
-- wrap propagates errors
print("wrap error", pcall(coroutine.wrap(function() error("werr") end)))
print("wrap error table", select(2, pcall(coroutine.wrap(function() error({x = 1}) end))).x)

-- yield across pcall
co = coroutine.create(function()
  local ok, v = pcall(function()
    local x = coroutine.yield("from inside pcall")
    error("after yield: " .. x)
  end)
  coroutine.yield("pcall returned " .. tostring(ok) .. " " .. v)
  return "end"
end)
print(coroutine.resume(co))
print(coroutine.resume(co, "X"))
print(coroutine.resume(co))
print(coroutine.status(co))

-- yield inside metamethods and iterators
local mt = {__index = function(t, k) return coroutine.yield("index " .. k) end,
            __add = function(a, b) return coroutine.yield("add") end,
            __lt = function(a, b) return coroutine.yield("lt") end,
            __concat = function(a, b) return coroutine.yield("concat") end,
            __eq = function(a, b) return coroutine.yield("eq") end}
co = coroutine.wrap(function()
  local t = setmetatable({}, mt)
  local a = t.foo
  local b = t + 1
  local c = t < t
  local d = t .. "x"
  local e = t == setmetatable({}, mt)
  return a, b, c, d, e
end)
print(co())
print(co("A"))
print(co("B"))
print(co(false))
print(co("D"))
print(co(1))
-- yield inside a generic-for iterator
co = coroutine.wrap(function()
  local s = 0
  for v in function(_, c) c = (c or 0) + 1; if c <= 3 then coroutine.yield(c) return c end end do
    s = s + v
  end
  return "sum " .. s
end)
print(co(), co(), co(), co())

-- yield across table.sort comparator is not allowed (C boundary)
co = coroutine.create(function()
  table.sort({3, 2, 1}, function(a, b) coroutine.yield() return a < b end)
end)
local okc, msg = coroutine.resume(co)
print("yield across C", okc, msg)

-- coroutine inside coroutine
local outer = coroutine.wrap(function()
  local inner = coroutine.wrap(function()
    coroutine.yield("inner 1")
    coroutine.yield("inner 2")
  end)
  coroutine.yield(inner())
  coroutine.yield("outer")
  coroutine.yield(inner())
end)
print(outer(), outer(), outer())

-- many coroutines alive at once
local cos = {}
for i = 1, 100 do
  cos[i] = coroutine.create(function(x) while true do x = coroutine.yield(x + i) end end)
end
local total = 0
for round = 1, 3 do
  for i = 1, 100 do
    local _, v = coroutine.resume(cos[i], round)
    total = total + v
  end
end
print("many coroutines", total)

-- coroutine.close
co = coroutine.create(function() coroutine.yield() end)
coroutine.resume(co)
print("close suspended", coroutine.close(co), coroutine.status(co))
print("close dead", coroutine.close(co))
co = coroutine.create(function() error("x") end)
coroutine.resume(co)
print("close errored", coroutine.close(co))
co = coroutine.create(function()
  local t <close> = setmetatable({}, {__close = function() print("closing tbc in coroutine") end})
  coroutine.yield()
end)
coroutine.resume(co)
print("close with tbc", coroutine.close(co))
co = coroutine.create(function()
  local t <close> = setmetatable({}, {__close = function() error("close failed") end})
  coroutine.yield()
end)
coroutine.resume(co)
print("close with failing tbc", coroutine.close(co))
print("close running", pcall(coroutine.close, coroutine.running()))

-- passing many values through resume/yield
co = coroutine.create(function(...)
  local n = select("#", ...)
  local r = table.pack(coroutine.yield(n, ...))
  return r.n, table.unpack(r, 1, r.n)
end)
print(coroutine.resume(co, 1, nil, 3))
print(coroutine.resume(co, nil, nil))

-- deep recursion inside a coroutine
co = coroutine.create(function()
  local function rec(n) if n == 0 then return 0 end return 1 + rec(n - 1) end
  return rec(5000)
end)
print("deep in coroutine", coroutine.resume(co))

-- wrap a function yielding from nested calls
local function producer()
  local function helper(x) coroutine.yield(x * 10) end
  for i = 1, 3 do helper(i) end
end
out = {}
for v in coroutine.wrap(producer) do out[#out + 1] = v end
print("nested yields", table.concat(out, ","))

-- type of a coroutine
print("type", type(coroutine.create(print)))
print("create non-function", pcall(coroutine.create, 1))

print("coroutines_core: OK")
