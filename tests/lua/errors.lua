-- errors.lua: error values, levels, positions, pcall/xpcall, runtime messages
print("errors: start")

local function perr(f, ...)
  local ok, msg = pcall(f, ...)
  print(ok, msg)
end

-- error with non-string values
local ok, e = pcall(error, {code = 42})
print("table error", ok, type(e), e.code)
ok, e = pcall(error, nil)
print("nil error", ok, e)
ok, e = pcall(error, 12)
print("number error", ok, e, math.type(e))
ok, e = pcall(error)
print("no value", ok, e)
ok, e = pcall(error, true)
print("boolean error", ok, e)

-- error levels and positions
local function lvl1() error("level1") end
local function lvl2() error("level2", 2) end
local function lvl0() error("level0", 0) end
local function callslvl2() lvl2() end
perr(lvl1)
perr(callslvl2)
perr(lvl0)
local function deep3() error("deep", 3) end
local function deep2() deep3() end
local function deep1() deep2() end
perr(deep1)
-- error with a table does not get position info
ok, e = pcall(function() error({}) end)
print("table has no position", type(e))
-- string errors get position; level 1 default
perr(function() error("msg") end)
perr(function() error("msg", 1) end)
perr(function() error("msg", 2) end)

-- pcall returns all results on success
print("pcall success", pcall(function(...) return ... end, 1, 2, 3))
print("pcall non-function", pcall(42))
print("pcall nil", pcall(nil))
print("pcall no args", pcall(pcall))

-- xpcall with message handlers
print("xpcall", xpcall(function() error("oops") end, function(m) return "handled: " .. m end))
print("xpcall success", xpcall(function(a, b) return a + b end, print, 3, 4))
print("xpcall handler gets table", xpcall(function() error({1, 2}) end, function(m) return #m end))
print("xpcall traceback", (select(2, xpcall(function() error("tb") end, debug.traceback)):match("^[^\n]*")))
local tb = select(2, xpcall(function() error("tb2") end, debug.traceback))
print("traceback has header", tb:find("stack traceback:", 1, true) ~= nil)
-- error inside the message handler
local r1, r2 = xpcall(function() error("first") end, function(m) error("second") end)
print("handler error", r1, type(r2))
-- nested pcall
print("nested", pcall(function()
  local ok2, m2 = pcall(error, "inner")
  return "outer got: " .. tostring(m2)
end))
-- error rethrown keeps the value
ok, e = pcall(function()
  local ok3, m3 = pcall(error, {tag = "T"})
  error(m3)
end)
print("rethrow", ok, e.tag)

-- runtime error messages naming variables
perr(function() local x; return x.y end)
perr(function() return undefinedglobal.y end)
perr(function() local t = {}; return t.a.b end)
perr(function() local t = {}; return t[1][2] end)
local up
perr(function() return up.field end)
perr(function() local t = {}; t:nomethod() end)
perr(function() local s = "str"; s:nomethod() end)
perr(function() undefinedfunc() end)
perr(function() local t = {}; t.f() end)
perr(function() local f = 5; f() end)
perr(function() up() end)
perr(function() return ("x")() end)
perr(function() return 1 < nil end)
perr(function() return {} < 1 end)
perr(function() return "a" < 1 end)
perr(function() return {} + 1 end)
perr(function() local t = {}; return t + 1 end)
perr(function() local t = {}; return t.x + 1 end)
perr(function() return -{} end)
perr(function() return #nil end)
perr(function() local n = 5; return #n end)
perr(function() return "a" .. nil end)
perr(function() local t = {}; return "a" .. t.missing end)
perr(function() return 1.5 | 0 end)
perr(function() local f = 2.5; return f // 1 | 0 end)
perr(function() return 2^63 & 1 end)
perr(function() return math.huge | 0 end)
perr(function() local t = setmetatable({}, {__index = function(t, k) return nil end}); return t.x.y end)
perr(function() return nil .. "x" end)
perr(function() local a = {}; a.b.c.d = 1 end)
perr(function() local a; a[1] = 2 end)
perr(function() up[1] = 2 end)
perr(function() undefinedglobal2[1] = 2 end)
perr(function() return math.nofunc() end)
perr(function() return string.nofunc("x") end)
perr(function() local t = {} t[nil] = 1 end)
perr(function() return 1 // 0 end)
perr(function() return 1 % 0 end)
perr(function() return true + 1 end)
perr(function() local b = true; return -b end)
perr(function() local t = {}; return t.x.y.z end)

-- errors in various positions report the right line
local function lines()
  local a = 1
  local b = nil
  return a + b
end
perr(lines)

-- error objects with __tostring are returned unchanged by pcall
local eobj = setmetatable({}, {__tostring = function() return "EOBJ" end})
ok, e = pcall(error, eobj)
print("error object", ok, tostring(e), e == eobj)

-- tostring of errors raised from C functions
perr(function() return ("x"):rep(-1, 5, 6) end)
perr(string.rep)
perr(setmetatable, 1, {})
perr(function() return ipairs() end)
perr(function() return select() end)

-- error() with level pointing to the caller of a C function
local function checker(x) if type(x) ~= "number" then error("expected number", 2) end return x end
local function user() local r = checker("s"); return r end
perr(user)

-- assert
perr(assert, false)
perr(assert, nil, "custom message")
print("assert table msg", select("#", pcall(assert, false, {1})), type(select(2, pcall(assert, false, {1}))))
print("assert returns", assert(1, 2, 3))
ok, e = pcall(assert, false, {tag = "x"})
print("assert table", type(e), e.tag)

-- errors unwinding through many frames
local function recurse(n) if n == 0 then error("bottom") end return recurse(n - 1) + 1 end
perr(recurse, 100)

-- error in __index metamethod reports its own position
local mt = {__index = function(t, k) error("bad key " .. k, 2) end}
local obj = setmetatable({}, mt)
perr(function() return obj.foo end)

-- the message of a caught error can be a number converted to string by concat
ok, e = pcall(error, 42)
print("numeric error concat", "err: " .. e)

print("errors: OK")
