-- Coroutines: wrap inside wrap, yields across pcall/metamethods/iterators, close.
local gen = coroutine.wrap(function()
  local inner = coroutine.wrap(function() for i = 1, 3 do coroutine.yield(i) end end)
  for i = 1, 3 do coroutine.yield(inner() * 10) end
end)
print(gen(), gen(), gen())
-- yield across pcall
local co = coroutine.create(function(a)
  local ok, v = pcall(function() local x = coroutine.yield(a + 1); error("e" .. x) end)
  coroutine.yield(ok, v)
  return "done"
end)
print(coroutine.resume(co, 1)) print(coroutine.resume(co, 5)) print(coroutine.resume(co)) print(coroutine.resume(co)) print(coroutine.status(co))
-- yield inside metamethods
local mt = {__add = function(a, b) return coroutine.yield("add") end,
  __index = function(t, k) return coroutine.yield("index " .. k) end,
  __lt = function() return coroutine.yield("lt") end,
  __concat = function() return coroutine.yield("concat") end,
  __eq = function() return coroutine.yield("eq") end,
  __len = function() return coroutine.yield("len") end,
  __call = function(self, x) return coroutine.yield("call " .. x) end,
  __newindex = function(t, k, v) coroutine.yield("newindex " .. k) end}
local co2 = coroutine.wrap(function()
  local a, b = setmetatable({}, mt), setmetatable({}, mt)
  print("r1", a + 1) print("r2", a.foo) print("r3", a < b) print("r4", a .. "x") print("r5", a == b) print("r6", #a) print("r7", a(3))
  a.bar = 1 print("r8") return "end"
end)
local v = co2() while v ~= "end" do io.write("[", tostring(v), "] ") v = co2(v == "lt" or v == "eq" or 42) end print()
-- yield inside for iterator
local co3 = coroutine.wrap(function()
  for k in function(s, c) c = (c or 0) + 1; if c > 3 then return nil end coroutine.yield("it" .. c) return c end do io.write(k, " ") end
  return "fin"
end)
print(co3(), co3(), co3(), co3())
print(coroutine.isyieldable(), type(coroutine.running()), select(2, coroutine.running()))
print(select("#", coroutine.running()))
print(select(2, coroutine.resume(coroutine.running())))
local co4 = coroutine.create(function() return coroutine.resume(coroutine.running()) end)
print(coroutine.resume(co4))
local dead = coroutine.create(function() end) coroutine.resume(dead)
print(coroutine.resume(dead))
local w = coroutine.wrap(function() error("inwrap") end)
print(pcall(w))
local w2 = coroutine.wrap(function() error({}) end)
print(type(select(2, pcall(w2))))
print(pcall(coroutine.yield, 1))
-- close
local co5 = coroutine.create(function() local x <close> = setmetatable({}, {__close = function() print("closed x") end}) coroutine.yield() end)
coroutine.resume(co5) print(coroutine.close(co5), coroutine.status(co5))
local co6 = coroutine.create(function() local x <close> = setmetatable({}, {__close = function() error("cerr") end}) coroutine.yield() end)
coroutine.resume(co6) print(coroutine.close(co6))
local co7 = coroutine.create(function() error("boom") end) coroutine.resume(co7) print(coroutine.close(co7))
print(pcall(coroutine.close, coroutine.running()))
-- table.sort with yields should error
local co8 = coroutine.wrap(function() table.sort({3, 2, 1}, function(a, b) coroutine.yield() return a < b end) end)
print(pcall(co8))
-- many values through resume
local co9 = coroutine.create(function(...) return select('#', ...), ... end)
print(coroutine.resume(co9, table.unpack({1, 2, 3, nil, 5}, 1, 5)))
local big = {} for i = 1, 300 do big[i] = i end
local co10 = coroutine.create(function(...) coroutine.yield(...) end)
print(select('#', coroutine.resume(co10, table.unpack(big))))
print(coroutine.status(co10), coroutine.resume(co10), coroutine.status(co10))
-- wrap status of normal
local outer
outer = coroutine.create(function() local inner = coroutine.create(function() return coroutine.status(outer) end) return coroutine.resume(inner) end)
print(coroutine.resume(outer))
-- error with level inside coroutine
local co11 = coroutine.create(function() local function f() error("lv", 2) end f() end)
print(coroutine.resume(co11))
print(pcall(string.gsub, "abc", "%w", function(c) coroutine.yield() end))
print(xpcall(function() error("a") end, function(m) error("b") end))
print(xpcall(function() error("a") end, function(m) local x = nil; return x.y end))
print(pcall(xpcall, function() end))
print(xpcall(error, error))
print(select('#', xpcall(function() return 1, 2, 3 end, print)))
local function so() return so() + 1 end
local ok, m = xpcall(so, function(m) return "H:" .. tostring(m) end) print(ok, m)
local ok2, m2 = pcall(so) print(ok2, m2)
local depth = 0 local function rec() depth = depth + 1 rec() end print(pcall(rec), depth > 1000)
local co = coroutine.create(function() local t = setmetatable({}, {__index = function(t, k) return coroutine.yield(k) end}) local ok, v = pcall(function() return t.key end) return ok, v end)
print(coroutine.resume(co)) print(coroutine.resume(co, "val"))
local outer = coroutine.wrap(function() local inner = coroutine.wrap(function() error("inner err") end) local ok, e = pcall(inner) coroutine.yield(ok, e) return "fin" end)
print(outer()) print(outer())
local c1 c1 = coroutine.create(function() return coroutine.close(c1) end) print(coroutine.resume(c1))
local c2 = coroutine.create(function() local c3 = coroutine.running() return coroutine.wrap(function() return coroutine.close(c3) end)() end) print(coroutine.resume(c2))
print(coroutine.close(coroutine.create(print)))
local c4 = coroutine.wrap(function(...) local a, b = coroutine.yield(...) return a + b end) print(c4(1, 2)) print(c4(3, 4)) print(pcall(c4))
local c5 = coroutine.create(function() error(setmetatable({}, {__tostring = function() return "custom err" end})) end)
local ok5, e5 = coroutine.resume(c5) print(ok5, tostring(e5))
print(coroutine.resume(coroutine.create(function() return pcall(coroutine.yield, 1) end)))
local gen = coroutine.wrap(function() for i = 1, 3 do coroutine.yield(i) end end) local s = 0 for v in gen do s = s + v end print(s)
local c6 = coroutine.create(function() coroutine.yield() end) coroutine.resume(c6) coroutine.resume(c6) print(coroutine.resume(c6))
local wr = coroutine.wrap(function() end) wr() print(pcall(wr))
print(coroutine.isyieldable(), coroutine.wrap(function() return coroutine.isyieldable() end)())
print(pcall(string.dump, print))
local t = {} local co7 = coroutine.wrap(function() for k, v in pairs({a = 1}) do coroutine.yield(k) end return "end" end) print(co7(), co7())
local c8 = coroutine.create(function() local x <close> = setmetatable({}, {__close = function() coroutine.yield("in close") end}) return "body" end)
print(coroutine.resume(c8)) print(coroutine.resume(c8)) print(coroutine.status(c8))
