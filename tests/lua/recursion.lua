-- recursion.lua: deep recursion and stack overflow handling
print("recursion: start")

-- deep recursion that succeeds
local function depth(n) if n == 0 then return 0 end return 1 + depth(n - 1) end
print("depth 10000", depth(10000))
print("depth 100000", depth(100000))

local function sumlist(t, i)
  i = i or 1
  if i > #t then return 0 end
  return t[i] + sumlist(t, i + 1)
end
local t = {}
for i = 1, 5000 do t[i] = i end
print("sumlist", sumlist(t))

-- infinite recursion is caught as "stack overflow"
local function inf(n) return 1 + inf(n + 1) end
local ok, msg = pcall(inf, 1)
print("overflow caught", ok, type(msg))
print("overflow message", type(msg) == "string" and msg:find("stack overflow") ~= nil)

-- the VM stays usable after an overflow
print("after overflow", depth(1000))
ok, msg = pcall(inf, 1)
print("second overflow", ok, msg:find("stack overflow") ~= nil)

-- overflow with many locals per frame
local function fat(n)
  local a, b, c, d, e, f, g, h = n, n, n, n, n, n, n, n
  return fat(n + 1) + a + b + c + d + e + f + g + h
end
ok, msg = pcall(fat, 1)
print("fat overflow", ok, msg:find("stack overflow") ~= nil)

-- overflow through metamethods (__index functions)
local mt = {}
mt.__index = function(t, k) return t[k .. "x"] end
local obj = setmetatable({}, mt)
ok, msg = pcall(function() return obj.a end)
print("__index overflow", ok, type(msg) == "string" and (msg:find("stack overflow") ~= nil or msg:find("C stack") ~= nil))

-- overflow through __call
local callme = setmetatable({}, {})
getmetatable(callme).__call = function(self, n) return 1 + self(n + 1) end
ok, msg = pcall(callme, 1)
print("__call overflow", ok, msg:find("stack overflow") ~= nil)

-- overflow through pcall nesting
local function nestpcall(n)
  local ok2, r = pcall(nestpcall, n + 1)
  if not ok2 then error(r, 0) end
  return r
end
ok, msg = pcall(nestpcall, 1)
print("nested pcall overflow", ok, type(msg) == "string" and msg:find("overflow") ~= nil)

-- overflow through string.gsub callbacks (C boundary)
local function viagsub(s) return (s:gsub(".", function(c) return viagsub(c) end)) end
ok, msg = pcall(viagsub, "a")
print("C boundary overflow", ok, type(msg) == "string" and msg:find("overflow") ~= nil)

-- error handler called on overflow (xpcall)
ok, msg = xpcall(inf, function(m) return "handled: " .. tostring(m):match("stack overflow") end, 1)
print("xpcall overflow", ok, msg)

-- recursion inside coroutines
local co = coroutine.create(function() return depth(20000) end)
print("coroutine depth", coroutine.resume(co))
co = coroutine.create(function() return inf(1) end)
ok, msg = coroutine.resume(co)
print("coroutine overflow", ok, msg:find("stack overflow") ~= nil)
co = nil   -- drop the dead coroutine and its huge stack

-- ackermann (moderate recursion)
local function ack(m, n)
  if m == 0 then return n + 1 end
  if n == 0 then return ack(m - 1, 1) end
  return ack(m - 1, ack(m, n - 1))
end
print("ack(2,3)", ack(2, 3), "ack(3,3)", ack(3, 3))

-- hanoi
local moves = 0
local function hanoi(n, a, b, c)
  if n == 0 then return end
  hanoi(n - 1, a, c, b)
  moves = moves + 1
  hanoi(n - 1, c, b, a)
end
hanoi(16, 1, 2, 3)
print("hanoi moves", moves)

-- deeply nested data built and walked recursively
local function build(n) if n == 0 then return {} end return {child = build(n - 1)} end
local function walk(node) if not node.child then return 0 end return 1 + walk(node.child) end
print("nested data", walk(build(10000)))

-- recursive tostring of nested tables via __tostring
local node = {}
local cur = node
for i = 1, 100 do cur.next = {}; cur = cur.next end
local NMT = {}
NMT.__tostring = function(n) return n.next and ("(" .. tostring(setmetatable(n.next, NMT)) .. ")") or "." end
print("tostring depth", #tostring(setmetatable(node, NMT)))

print("recursion: OK")
