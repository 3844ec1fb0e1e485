-- debug library: getinfo, getlocal, hooks, traceback formats.
local function f(a, b, ...)
  local x = 1
  local info = debug.getinfo(1, "nSlutfrL")
  print(info.name, info.namewhat, info.what, info.short_src, info.source, info.currentline, info.linedefined, info.lastlinedefined, info.nups, info.nparams, info.isvararg, info.istailcall, info.func == f)
  local lines = {} for k in pairs(info.activelines) do lines[#lines+1] = k end table.sort(lines) print(table.concat(lines, ","))
  print(debug.getlocal(1, 1), debug.getlocal(1, 2), debug.getlocal(1, 3), debug.getlocal(1, 4), debug.getlocal(1, -1), debug.getlocal(1, -2), debug.getlocal(1, -3))
end
f(10, 20, 30, 40)
local t = {m = f}
t.m(1, 2)
t:m()
local i = debug.getinfo(print)
print(i.what, i.short_src, i.source, i.currentline, i.linedefined, i.nups, i.nparams, i.isvararg)
print(debug.getinfo(1, "l").currentline, debug.getinfo(100))
print(pcall(debug.getinfo, 1, ">"))
print(debug.getlocal(f, 1), debug.getlocal(f, 2), debug.getlocal(f, 3))
local up1, up2 = 5, 6
local function g() return up1 + up2 end
print(debug.getupvalue(g, 1), debug.getupvalue(g, 2), debug.getupvalue(g, 3))
print(debug.setupvalue(g, 1, 100), g())
print(debug.traceback("msg"))
print(debug.traceback("msg", 2))
print(debug.traceback())
print(debug.traceback(123))
print(debug.traceback({}) ~= nil)
local co = coroutine.create(function() coroutine.yield() end)
coroutine.resume(co)
print(debug.traceback(co))
print(debug.traceback(co, "hi"))
print(debug.traceback(co, "hi", 1))
local function lvl3() print(debug.traceback("deep", 1)) end
local function lvl2() lvl3() end
lvl2()
local cnt = 0
debug.sethook(function(ev, line) cnt = cnt + 1 end, "", 100)
for i = 1, 1000 do end
debug.sethook()
print(cnt > 0, debug.gethook())
local lines = {}
debug.sethook(function(ev, line) lines[#lines+1] = line end, "l")
local a = 1
local b = 2
debug.sethook()
print(table.concat(lines, " "))
local evs = {}
debug.sethook(function(ev) evs[#evs+1] = ev end, "cr")
math.abs(1)
debug.sethook()
print(table.concat(evs, " "))
print(xpcall(function() error("E") end, debug.traceback))
print(debug.getinfo(1, "S").what, debug.getinfo(2, "S") and debug.getinfo(2, "S").what)
local function tc() return debug.getinfo(1, "t").istailcall end
local function caller() return tc() end
print(caller())
print(string.format("%s", debug.getinfo(1, "n").name))
do local mt = debug.getmetatable("") print(mt.__index == string) end
print(debug.getregistry ~= nil, type(debug.getregistry()))
print(debug.setmetatable(10, {__index = {twice = function(n) return n * 2 end}}))
print((5):twice()) debug.setmetatable(10, nil)
print(pcall(function() return (5):twice() end))
