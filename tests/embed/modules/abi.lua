-- abi.lua -- drives abimod (a C module built against the system's stock
-- Lua 5.4 headers) loaded with require.  Runs unchanged under lua5.4 and
-- mvm; prints "abi ok" when every check passes.
local m = require "abimod"

assert(m.headers == "Lua 5.4", m.headers)
assert(package.loaded.abimod == m)

-- userdata with metatable, user values, __index/__newindex/__len/__tostring
local v = m.vec(10, "ten")
for i = 1, #v do v[i] = i * 1.5 end
assert(#v == 10 and v[4] == 6.0)
assert(v:sum() == 82.5, v:sum())
assert(v:label() == "ten")
assert(tostring(v) == "Vec(10)")
local ok, err = pcall(function() return v[11] end)
assert(not ok and err:find("index out of range", 1, true), err)
ok, err = pcall(m.vec(1).sum, {})
assert(not ok and err:find("abimod.Vec expected, got table", 1, true), err)

-- __gc: finalizers run for unreachable userdata
local before = m.collected()
for i = 1, 500 do m.vec(i % 7 + 1) end
collectgarbage(); collectgarbage()
assert(m.collected() - before >= 500, m.collected() - before)

-- luaL_Buffer growth (far beyond LUAL_BUFFERSIZE)
local s = m.repeatstr("abc", 100000, ",")
assert(#s == 3 * 100000 + 99999, #s)
assert(s == string.rep("abc", 100000, ","))
assert(m.repeatstr("x", 0) == "")
assert(m.upper(string.rep("hello", 1000)) == string.rep("HELLO", 1000))

-- C closures with upvalues
local c1, c2 = m.counter(10, 5), m.counter()
assert(c1() == 15 and c1() == 20 and c2() == 1 and c1() == 25 and c2() == 2)

-- lua_callk: without yield, and with a yield inside a coroutine
assert(select("#", m.callk(function(a, b) return a + b end, 1, 2)) == 3)
local k, st, r = m.callk(function(a, b) return a + b end, 1, 2)
assert(k == "k" and st == 0 and r == 3)
local co = coroutine.wrap(function(x)
  return m.callk(function(y) return coroutine.yield(y + 1) * 2 end, x)
end)
assert(co(10) == 11)
k, st, r = co(21)
assert(k == "k" and st == 1 and r == 42, tostring(k) .. tostring(st) .. tostring(r))  -- LUA_YIELD

-- lua_pcallk: errors, and yields across it
assert(select(2, m.pcallk(error, "boom")) == "boom")
local okk, a1, a2 = m.pcallk(function(...) return ... end, 7, 8)
assert(okk == true and a1 == 7 and a2 == 8)
co = coroutine.wrap(function()
  return m.pcallk(function() local z = coroutine.yield("in") ; error({z}) end)
end)
assert(co() == "in")
local ok2, e2 = co("zz")
assert(ok2 == false and type(e2) == "table" and e2[1] == "zz")

-- lua_yieldk with a continuation
co = coroutine.create(function(a) local x, y, z = m.yieldk(a, a + 1); return x, y, z end)
local okr, y1, y2 = coroutine.resume(co, 5)
assert(okr and y1 == 5 and y2 == 6)
local okr2, x, y, z = coroutine.resume(co, "r1", "r2")
assert(okr2 and x == "r1" and y == "r2" and z == "after", tostring(z))
assert(coroutine.status(co) == "dead")

-- registry references
local t = {}
local r1, r2 = m.ref(t), m.ref("str")
assert(r1 ~= r2 and m.deref(r1) == t and m.deref(r2) == "str")
m.unref(r1)
local r3 = m.ref(42)
assert(r3 == r1 and m.deref(r3) == 42)
collectgarbage()
assert(m.deref(r2) == "str")
m.unref(r2); m.unref(r3)

-- tables
local tt = {10, 20, 30, x = "y"}
local sum, count, rawlen = m.tablestuff(tt)
assert(sum == 60 and count == 4 and rawlen == 4 and tt.sum == 60 and tt[4] == "appended")
local mt = m.maketable(100)
assert(#mt == 100 and mt[100] == 100 and mt.name == "t" and mt.nested.x == 1)

-- lua_Debug layout, extra space, pseudo-indices
local src, line, what = m.debuginfo(1)
assert(src:find("abi.lua", 1, true) and line == 87 and what == "main", src .. ":" .. line)
assert(m.extraspace())
assert(m.registryindex == -1001000)

-- errors raised from C
ok, err = pcall(m.fail, "error")
assert(not ok and err == "failed with 42", err)
ok, err = pcall(m.fail, "table")
assert(not ok and err.what == "payload")
ok, err = pcall(m.fail, "arg")
assert(not ok and err == "bad argument #1 to 'abimod.fail' (bad kind)", err)
ok, err = pcall(m.fail, "type")
assert(not ok and err:find("something expected, got string", 1, true), err)

-- lua_arith / lua_compare / lua_concat
local sum2, q, neg, lt, cat = m.arith(7, 2)
assert(sum2 == 9 and q == 3 and neg == -7 and lt == false and cat == "72")
assert(select(4, m.arith(1.5, 2)) == true)

print("abi ok")
