-- load_env.lua: load with environments, _ENV semantics
print("load_env: start")

-- load from a string with a custom environment
local env = {x = 10}
local f = load("y = x * 2; return x", "=chunk", "t", env)
print("custom env", f(), env.y, rawget(_G, "y"))

-- the environment is the first upvalue of the main chunk
local g = load("return _ENV")
print("default env is _G", g() == _G)
local h = load("return _ENV", "=c", "t", env)
print("given env", h() == env)
print("upvalue name", (debug.getupvalue(h, 1)), select(2, debug.getupvalue(h, 1)) == env)
debug.setupvalue(h, 1, _G)
print("setupvalue env", h() == _G)
print("upvaluejoin-free check", select("#", debug.getupvalue(h, 1)))

-- nil environment: globals access fails
local n = load("return x", "=nilenv", "t", nil)
print("nil env", pcall(n))

-- load from a function reader
local parts = {"return ", "1 ", "+ ", "2"}
local i = 0
local r = load(function() i = i + 1; return parts[i] end)
print("reader", r())
-- reader returning empty string ends the chunk
i = 0
parts = {"return 'a'", "", "error('not read')"}
r = load(function() i = i + 1; return parts[i] end)
print("reader empty string ends", r())
-- reader returning a non-string
-- (only the first line: lua5.4 runs the standalone interpreter's message
-- handler on reader errors and appends a traceback)
local function firstline(a, b) return a, (tostring(b):match("^[^\n]*")) end
print("reader bad", firstline(load(function() return {} end)))
-- reader raising an error
print("reader error", firstline(load(function() error("reader failed") end)))

-- mode argument
print("mode b on text", load("return 1", "=m", "b"))
print("mode t on text", load("return 1", "=m", "t")())
print("mode bt on text", load("return 1", "=m", "bt")())
local bin = string.dump(function() return "bin" end)
print("mode t on binary", load(bin, "=m", "t"))
print("mode b on binary", load(bin, "=m", "b")())

-- local _ENV redefinition
do
  local _ENV = {print = print, tostring = tostring}
  z = 5
  print("local _ENV global z", z, _ENV.z)
end
print("outer z is nil", z)

do
  local function sandbox()
    local _ENV = {}
    a = 1
    b = 2
    return _ENV
  end
  local e = sandbox()
  print("sandbox", e.a, e.b, rawget(_G, "a"))
end

-- _ENV as a parameter
local function withenv(_ENV) return v1 + v2 end
print("_ENV param", withenv({v1 = 3, v2 = 4}))

-- _ENV as upvalue of nested functions
local function makeenv()
  local _ENV = {counter = 0}
  return function() counter = counter + 1; return counter end, function() return _ENV end
end
local inc, getenv = makeenv()
inc(); inc()
print("upvalue _ENV", inc(), getenv().counter)

-- changing _ENV in the middle of a function
do
  local _ENV = setmetatable({}, {__index = _G})
  gx = "in new env"
  print("new env via __index", gx, rawget(_G, "gx"))
end

-- global access goes through _ENV metamethods
do
  local log = {}
  local proxy = setmetatable({}, {
    __index = function(t, k) log[#log + 1] = "get " .. k; return _G[k] end,
    __newindex = function(t, k, v) log[#log + 1] = "set " .. k; rawset(t, k, v) end})
  local fn = load("local a = tostring(1); b = a; return b", "=proxy", "t", proxy)
  print("proxied", fn())
  print("log", table.concat(log, ", "))
end

-- strict mode pattern
do
  local strict = setmetatable({}, {
    __index = function(_, k) error("undeclared global '" .. tostring(k) .. "'", 2) end,
    __newindex = function(t, k, v) rawset(t, k, v) end})
  local fn = load("declared = 1; return declared + undeclared", "=strict", "t", strict)
  print("strict", pcall(fn))
end

-- load with chunkname variations in error messages
print(type(load("error('e')", "=name")))
print(pcall(load("error('e')", "=name")))
print(pcall(load("error('e')", "@file.lua")))
print(pcall(load("error('e')", "some code")))
print(pcall(load("error('e')")))
print(pcall(load("\n\nerror('e')", "=lines")))
local long = string.rep("x", 100)
print(pcall(load("error('e')", long)))
print(pcall(load("error('e')", "=" .. long)))
print(pcall(load("error('e')", "@" .. long)))
print(pcall(load("error('e')", "line1\nline2")))

-- dofile-like: loadstring returns function; upvalues beyond _ENV are nil-initialized? no: only _ENV
local chunk = load("local a = ... ; return function() return a end")
print("nested chunk", chunk(5)())

-- the main chunk of a load is a vararg function
print("chunk args", load("return select('#', ...), ...")(1, 2, 3))

-- load of an empty chunk
print("empty chunk", load("")())
print("only comments", load("-- nothing")())

-- each load produces a new function
print("distinct", load("return 1") ~= load("return 1"))

-- globals in _G
gvar = "global"
print("global in _G", _G.gvar, _ENV.gvar, _G == _ENV)
_G.gvar2 = "set via _G"
print("set via _G", gvar2)
gvar, gvar2 = nil, nil

print("load_env: OK")
