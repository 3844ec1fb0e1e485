-- lib_coroutine.lua: coroutine library
print("coroutine: start")
local co = coroutine.create(function(a, b)
  print("started with", a, b)
  local c = coroutine.yield(a + b)
  print("resumed with", c)
  local d, e = coroutine.yield(c * 2)
  print("resumed again with", d, e)
  return "finished", d + e
end)
print(coroutine.status(co))
print(coroutine.resume(co, 1, 2))
print(coroutine.status(co))
print(coroutine.resume(co, 10))
print(coroutine.resume(co, 3, 4))
print(coroutine.status(co))
print(coroutine.resume(co))
print(coroutine.resume(co))

-- errors inside a coroutine
local bad = coroutine.create(function() local x = nil; return x.field end)
print(coroutine.resume(bad))
print(coroutine.status(bad))
print(coroutine.resume(bad))
local bad2 = coroutine.create(function() error({code = 1}) end)
local ok, err = coroutine.resume(bad2)
print(ok, type(err), err.code)
local bad3 = coroutine.create(function() error("plain", 0) end)
print(coroutine.resume(bad3))

-- running / isyieldable / status from inside
local main, ismain = coroutine.running()
print(type(main), ismain, coroutine.isyieldable())
local inner
inner = coroutine.create(function()
  local me, im = coroutine.running()
  print("inside:", me == inner, im, coroutine.isyieldable(), coroutine.status(inner))
  print("main status:", coroutine.status(main))
  local nested = coroutine.create(function()
    print("outer status from nested:", coroutine.status(inner))
  end)
  coroutine.resume(nested)
  print(coroutine.resume(inner))
end)
coroutine.resume(inner)
print(coroutine.isyieldable(inner), coroutine.isyieldable(main))

-- wrap
local gen = coroutine.wrap(function(n)
  for i = 1, n do coroutine.yield(i) end
  return "done"
end)
print(gen(3), gen(), gen(), gen())
print(pcall(gen))
local werr = coroutine.wrap(function() error("wrapped failure") end)
print(pcall(werr))
local werr2 = coroutine.wrap(function() error({}) end)
local ok2, e2 = pcall(werr2)
print(ok2, type(e2))
local werr3 = coroutine.wrap(function() error("lvl0", 0) end)
print(pcall(werr3))
-- generators in for loops
local function range(n)
  return coroutine.wrap(function() for i = 1, n do coroutine.yield(i, i * i) end end)
end
for i, sq in range(4) do io.write(i, "^2=", sq, " ") end print()

-- yield across pcall
local py = coroutine.create(function()
  local ok, v = pcall(function()
    local got = coroutine.yield("from pcall")
    error("after " .. got)
  end)
  coroutine.yield(ok, v)
  return "end"
end)
print(coroutine.resume(py))
print(coroutine.resume(py, "resume"))
print(coroutine.resume(py))
-- yield from nested Lua calls, passing many values
local deep = coroutine.wrap(function(...)
  local args = table.pack(...)
  local function rec(n) if n == 0 then return coroutine.yield(table.unpack(args, 1, args.n)) end return rec(n - 1) end
  return rec(10)
end)
print(deep(1, 2, 3))
print(deep("x", "y"))
-- table.sort comparator / metamethods cannot yield (C boundary)
local cs = coroutine.create(function()
  table.sort({3, 2, 1}, function(a, b) coroutine.yield() return a < b end)
end)
print(coroutine.resume(cs))
-- yield outside a coroutine
print(pcall(coroutine.yield, 1))

-- close
local cl = coroutine.create(function() coroutine.yield() end)
coroutine.resume(cl)
print(coroutine.status(cl), coroutine.close(cl), coroutine.status(cl))
print(coroutine.close(coroutine.create(print)))
local cle = coroutine.create(function() error("oops", 0) end)
coroutine.resume(cle)
print(coroutine.close(cle))
local closed_log = {}
local ctbc = coroutine.create(function()
  local x <close> = setmetatable({}, {__close = function() closed_log[#closed_log + 1] = "closed" end})
  coroutine.yield()
end)
coroutine.resume(ctbc)
print(coroutine.close(ctbc), closed_log[1])
print(pcall(coroutine.close, coroutine.running()))
local selfclose = coroutine.create(function()
  return pcall(coroutine.close, inner)
end)
print(coroutine.resume(selfclose))

-- argument errors
print(pcall(coroutine.create, 1))
print(pcall(coroutine.resume, 1))
print(pcall(coroutine.status, "x"))
print(pcall(coroutine.wrap))
print(pcall(coroutine.close, {}))
print(coroutine.resume(coroutine.running()))
-- resume a normal coroutine
local outer
outer = coroutine.create(function()
  local n = coroutine.create(function() return coroutine.resume(outer) end)
  return coroutine.resume(n)
end)
print(coroutine.resume(outer))
print("coroutine: done")
