-- debug library: hooks with call/return/line events, locals, upvalue ids.
local function trace(ev, line)
  local info = debug.getinfo(2, "nSl")
  io.write(ev, ":", tostring(line or info.currentline), ":", tostring(info.name), " ")
end
local function add(a, b) return a + b end
local function tc(n) if n == 0 then return "done" end return tc(n - 1) end
debug.sethook(trace, "crl")
local x = add(1, 2)
tc(2)
local y = {}
for i = 1, 2 do
  y[i] = i
end
debug.sethook()
print()
print(select(2, debug.gethook()))
local function hk() end
debug.sethook(hk, "l", 5) print(select(2, debug.gethook())) debug.sethook()
local function f(...) local a, b = 1, 2 print(debug.getlocal(1, -1), debug.getlocal(1, -2), debug.getlocal(1, -3), debug.setlocal(1, 1, 10), a, debug.setlocal(1, -1, "v"), ...) end
f("va1", "va2")
local function g() local a = 1; do local b = 2 end; local c = 3; local n = 1 while true do local nm, v = debug.getlocal(1, n) if not nm then break end io.write(nm, "=", tostring(v), " ") n = n + 1 end print() end g()
local u1, u2 = 1, 2
local function h1() return u1 end local function h2() return u2 end local function h3() return u1 end
print(debug.upvalueid(h1, 1) == debug.upvalueid(h3, 1), debug.upvalueid(h1, 1) == debug.upvalueid(h2, 1))
debug.upvaluejoin(h1, 1, h2, 1) print(h1(), pcall(debug.upvalueid, h1, 5))
local ud = io.stdout print(debug.getuservalue(ud), debug.getuservalue(1), debug.setuservalue ~= nil)
print(pcall(debug.setlocal, 100, 1, 1), debug.getlocal(1, 100))
local co = coroutine.create(function(a) local z = a * 2 coroutine.yield() end) coroutine.resume(co, 7)
print(debug.getlocal(co, 1, 1), debug.getlocal(co, 1, 2), debug.getinfo(co, 1, "l").currentline, debug.getinfo(co, 0, "n") and debug.getinfo(co, 0, "n").name)
local lines = {}
debug.sethook(co, function(ev, l) lines[#lines + 1] = l end, "l") coroutine.resume(co) print(table.concat(lines, ","), select(2, debug.gethook(co)))
print(debug.getinfo(1, "u").nups, debug.getinfo(f, "u").nparams, debug.getinfo(f, "u").isvararg)
local cnt = 0 debug.sethook(function() cnt = cnt + 1 end, "", 1) local z = 0 for i = 1, 10 do z = z + i end debug.sethook() print(cnt)
local t = setmetatable({}, {__index = function(t, k) return debug.getinfo(2, "n").name end})
print(debug.getinfo(1, "n").name)
local function named() return debug.getinfo(1, "n") end
local i1 = named() print(i1.name, i1.namewhat)
local obj = {meth = function() return debug.getinfo(1, "n") end}
local i2 = obj.meth() print(i2.name, i2.namewhat) local i3 = obj:meth() print(i3.name, i3.namewhat)
gfun = function() return debug.getinfo(1, "n") end local i4 = gfun() print(i4.name, i4.namewhat)
local mtc = setmetatable({}, {__add = function() return debug.getinfo(1, "n") end}) local i5 = mtc + 1 print(i5.name, i5.namewhat)
local mti = setmetatable({}, {__index = function() return debug.getinfo(1, "n") end}) local i6 = mti.x print(i6.name, i6.namewhat)
for _, v in ipairs{1} do local i7 = debug.getinfo(1, "n") print(i7.name) end
local i8 = (function() return debug.getinfo(1, "n") end)() print(i8.name, i8.namewhat)
print(pcall(debug.getinfo, "x"), pcall(debug.getlocal, 1, "x"))
print(debug.traceback("m", 50))
print(debug.traceback(nil) == nil, debug.traceback(co, nil))
print((debug.traceback("x", 0):gsub("\n.*", "")))
local function lvl() return debug.traceback("t") end print(lvl())
print(debug.getinfo(1, "f").func ~= nil, debug.getinfo(2, "S").source)
