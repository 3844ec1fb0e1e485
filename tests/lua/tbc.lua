-- tbc.lua: to-be-closed variables and <const>
print("tbc: start")

local log = {}
local function L(s) log[#log + 1] = s end
local function flush(title)
  print(title, table.concat(log, " "))
  log = {}
end
local function closer(name)
  return setmetatable({}, {__close = function(self, err)
    L(name .. (err ~= nil and ("(" .. tostring(err):gsub("^.-:%d+: ", "") .. ")") or ""))
  end})
end

-- closing order is reverse of declaration
do
  local a <close> = closer("a")
  local b <close> = closer("b")
  local c <close> = closer("c")
  L("body")
end
flush("reverse order")

-- nil and false are allowed and ignored
do
  local x <close> = nil
  local y <close> = false
  L("ok")
end
flush("nil/false")

-- values without __close are rejected
print(pcall(function() local x <close> = {} end))
print(pcall(function() local x <close> = 42 end))
print(pcall(function() local x <close> = "str" end))

-- closed on break, goto, return
for i = 1, 3 do
  local c <close> = closer("loop" .. i)
  if i == 2 then break end
end
flush("break")
local function ret()
  local c <close> = closer("ret")
  return "value"
end
L(ret())
flush("return")
do
  local i = 0
  ::again::
  do
    local c <close> = closer("goto" .. i)
    i = i + 1
    if i < 2 then goto again end
  end
end
flush("goto")

-- return values are computed before closing
local function retval()
  local t = {v = 1}
  local c <close> = setmetatable({}, {__close = function() t.v = 2 end})
  return t.v, t
end
local v, t = retval()
print("return computed before close", v, t.v)

-- closed on error, receiving the error object
print(pcall(function()
  local a <close> = closer("a")
  local b <close> = closer("b")
  error("boom")
end))
flush("error")
do
  local ok, e = pcall(function()
    local a <close> = closer("a")
    error({})
  end)
  print("table error", ok, type(e))
  log = {}
end

-- error inside __close replaces the original error; other closers still run
print(pcall(function()
  local a <close> = closer("a")
  local b <close> = setmetatable({}, {__close = function() error("in close") end})
  local c <close> = closer("c")
  error("original")
end))
flush("error in close")
print(pcall(function()
  local a <close> = closer("a")
  local b <close> = setmetatable({}, {__close = function() error("close err") end})
  return "normal"
end))
flush("error in close, normal exit")

-- several errors in closers: the last one wins
print(pcall(function()
  local a <close> = setmetatable({}, {__close = function() error("e1") end})
  local b <close> = setmetatable({}, {__close = function() error("e2") end})
end))

-- tbc in nested functions and pcall boundaries
local function inner()
  local x <close> = closer("inner")
  error("inner error")
end
local function outer()
  local y <close> = closer("outer")
  local ok, msg = pcall(inner)
  L("caught")
  return ok
end
outer()
flush("nested")

-- generic for closes its 4th value
local function iter(n)
  local i = 0
  return function() i = i + 1; if i <= n then return i end end, nil, nil, closer("for")
end
for i in iter(2) do L("it" .. i) end
flush("generic for")
for i in iter(5) do if i == 2 then break end L("it" .. i) end
flush("generic for break")
print(pcall(function() for i in iter(5) do error("in loop") end end))
flush("generic for error")

-- tbc inside coroutines: closed when the coroutine finishes or is closed
local co = coroutine.create(function()
  local c <close> = closer("co")
  coroutine.yield(1)
  return 2
end)
print("resume", coroutine.resume(co))
print("resume", coroutine.resume(co))
flush("coroutine finished")
co = coroutine.create(function()
  local c <close> = closer("pending")
  coroutine.yield()
end)
coroutine.resume(co)
print("close", coroutine.close(co), coroutine.status(co))
flush("coroutine.close")
co = coroutine.wrap(function()
  local c <close> = closer("wrap")
  error("wrap error")
end)
print(pcall(co))
flush("wrap error")

-- the __close metamethod is looked up again when the variable is closed
do
  local mt = {__close = function() L("original mm") end}
  local obj = setmetatable({}, mt)
  do
    local x <close> = obj
    mt.__close = function() L("changed mm") end
  end
end
flush("mm lookup at close time")

-- <const>
local K <const> = 10
local S <const> = "const string"
print("const", K * 2, S)
local function usesconst() return K + 1 end
print("const in closure", usesconst())
print(load("local x <const> = 1; x = 2"))
print(load("local x <const> = 1; local function f() x = 2 end"))
local A, B <const>, C = 1, 2, 3
A = 10; C = 30
print("mixed attribs", A, B, C)

-- tbc variable itself is const
print(load("local x <close> = nil; x = 1"))

-- many tbc variables
do
  for i = 1, 10 do
    local c <close> = closer(tostring(i))
  end
end
flush("ten sequential")
do
  local a1 <close> = closer("1")
  local a2 <close> = closer("2")
  local a3 <close> = closer("3")
  local a4 <close> = closer("4")
  local a5 <close> = closer("5")
end
flush("five nested")

print("tbc: OK")
