-- to-be-closed variables: order, errors, coroutines, loops, goto.
local function mk(name) return setmetatable({}, {__close = function(o, e) print("close", name, type(e) == "table" and "table" or e) end}) end
do local a <close> = mk("a"); local b <close> = mk("b"); local c <close> = nil; local d <close> = false print("body") end
print(pcall(function() local a <close> = mk("a") error("err1") end))
print(pcall(function() local a <close> = setmetatable({}, {__close = function() error("cerr") end}) error("orig") end))
print(pcall(function() local a <close> = setmetatable({}, {__close = function() error("c1") end}) local b <close> = setmetatable({}, {__close = function(_, e) print("b sees", e) error("c2") end}) end))
print(pcall(function() local x <close> = {} end))
print(pcall(function() local x <close> = 1 end))
local function f() local a <close> = mk("ret") return "r1", "r2" end print(f())
for i = 1, 2 do local a <close> = mk("loop" .. i) if i == 2 then break end end
local function it() local i = 0 return function() i = i + 1 if i <= 2 then return i end end, nil, nil, mk("forclose") end
for i in it() do print("it", i) end
for i in it() do print("it-break", i) break end
print(pcall(function() for i in it() do error("in for") end end))
local co = coroutine.wrap(function() local a <close> = mk("co") coroutine.yield(1) return 2 end) print(co()) print(co())
local function tail() local a <close> = mk("tail") return tostring(1) end print(tail())
do local a <close> = mk("goto") goto skip end ::skip::
print(pcall(function() local a <close> = setmetatable({}, {__close = function(o, e) return "ignored" end}) return "val" end))
local mt = {__close = function() print("mt close") end}
local obj = setmetatable({}, mt) do local x <close> = obj mt.__close = function() print("changed close") end end
print(load("local x <close> = 1; local y <const> = 2; return y") ~= nil)
print(pcall(load("local x <close> = setmetatable({}, {__close=function() print('closed at chunk') end}) return 5")))
local function g(...) local t <close> = mk("varargs") return ... end print(g(1, 2, 3))
do local ok, e = pcall(function() local a <close> = mk("x") local b <close> = mk("y") error({code = 7}) end) print(ok, type(e), e.code) end
