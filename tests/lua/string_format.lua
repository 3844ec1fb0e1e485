-- string.format: every conversion, flags, width/precision, %q, errors
local fmt = string.format
local show, perr = require("lib.show").show, require("lib.show").perr
local function F(spec, ...)
  local ok, r = pcall(fmt, spec, ...)
  if ok then print(spec, "[" .. r .. "]") else print(spec, "error: " .. r) end
end

-- plain text and %%
show(fmt("hello"), fmt(""), fmt("100%%"), fmt("%%d"), fmt("a%%%%b"))
show(fmt("a\0b%d", 1):byte(1, -1))

-- integers
for _, spec in ipairs{"%d", "%i", "%5d", "%-5d|", "%05d", "%+d", "% d", "%+5d", "%-+5d|", "%.3d", "%8.3d",
                      "%x", "%X", "%#x", "%#X", "%o", "%#o", "%08x", "%-8X|", "%.0d", "%u", "%5u", "%-05d|"} do
  F(spec, 42)
  F(spec, -42)
  F(spec, 0)
end
F("%d", math.maxinteger)
F("%d", math.mininteger)
F("%x", -1)
F("%x", math.mininteger)
F("%o", -1)
F("%d", 3.0)
F("%d", -0.0)
F("%d", "10")
F("%d", "0x10")
F("%x", " 255 ")
F("%d", 2^53)
F("%d", 2^63)
F("%d", 3.5)
F("%d", "3.5")
F("%d", "abc")
F("%d", {})
F("%d", nil)
F("%d")
F("%5.2d", 7)
F("%99d", 1)
F("%100d", 1)

-- characters
F("%c", 65)
F("%5c", 66)
F("%-5c|", 67)
F("%c%c%c", 76, 117, 97)
F("%c", 65.0)
F("%c", "65")
show(#fmt("%c", 0), fmt("%c", 0):byte())
F("%05c", 65)
F("%.1c", 65)
F("%c", 1.5)

-- floats
local nums = {0, 1, -1, 3.14159265358979, -2.5, 1e10, 1e-10, 123456789.125, 2^53, 0.1, 1/3, 1e300, -0.0}
for _, spec in ipairs{"%f", "%.2f", "%10.3f", "%-10.1f|", "%+.1f", "% .1f", "%010.2f", "%#.0f", "%.0f",
                      "%e", "%.3e", "%E", "%12.4E", "%g", "%G", "%.3g", "%#g", "%10g", "%-10g|", "%.10g",
                      "%.14g", "%.17g"} do
  local parts = {}
  for _, n in ipairs(nums) do parts[#parts + 1] = fmt(spec, n) end
  print(spec, table.concat(parts, " "))
end
for _, n in ipairs{1/0, -1/0} do
  print(fmt("%f %e %g %.3f %10.2f %-6g|", n, n, n, n, n, n))
end
print(fmt("%.99f", 1/3):len(), fmt("%99.99f", -1e308):len(), fmt("%.99e", 1e300):sub(1, 12))
print(fmt("%5.1f", 42), fmt("%g", 42), fmt("%f", "1.5"), fmt("%g", "0x10"), fmt("%.3f", 2^63))
F("%f", "x")
F("%f")
F("%123f", 1)
F("%.123f", 1)
F("%10.123f", 1)
F("%1.2.3f", 1)
-- nan is formatted by C printf; only check it is some form of nan
local nanstr = fmt("%f", 0/0)
assert(nanstr:find("nan") or nanstr:find("NaN"))
local nanq = fmt("%q", 0/0)
show("nan %q", nanq)

-- hex floats
for _, n in ipairs{1, 0.5, -2, 0.1, 1e300, 2^-1074, 0, -0.0, 255.5} do
  print(fmt("%a", n), fmt("%A", n), fmt("%.3a", n), fmt("%20a|", n), fmt("%-+20a|", n))
end
F("%a", "x")
F("%#a", 1)

-- strings
F("%s", "hello")
F("%10s", "hello")
F("%-10s|", "hello")
F("%.3s", "hello")
F("%10.2s", "hello")
F("%-10.2s|", "hello")
F("%.0s", "hello")
F("%s", 42)
F("%s", 4.5)
F("%s", -0.0)
F("%s", true)
F("%s", nil)
F("%5s", false)
F("%s %s %s", 1, 2, 3)
F("%s", "a\0b")
F("%5s", "a\0b")
F("%.1s", "a\0b")
F("%05s", "x")
F("%#s", "x")
F("%+s", "x")
F("%s")
local long = string.rep("x", 120)
show(#fmt("%s", long), #fmt("%5s", long), #fmt("%.99s", long), #fmt("%-99s", long), #fmt("%.5s", long))
local obj = setmetatable({}, {__tostring = function() return "OBJ" end})
F("%s", obj)
F("%8s|", obj)
F("%.2s|", obj)
local named = setmetatable({}, {__name = "MyType"})
show(fmt("%s", named):match("^MyType: ") ~= nil)
local badts = setmetatable({}, {__tostring = function() return 42 end})
F("%s", badts)
show(fmt("%s", print):match("^builtin: ") or fmt("%s", print):match("^function: ") ~= nil)

-- %q
local qs = {
  "simple", "", "with \"quotes\"", "back\\slash", "new\nline", "tab\there", "cr\rlf\n",
  "\0", "\0001", "a\0b", "\1\2\3", "\0019", "\127", "\127x", "\1279", "\200\255",
  "bell\a", "esc\27[0m", "\r\n", "é", "\t9",
}
for _, s in ipairs(qs) do
  local q = fmt("%q", s)
  print(q)
  assert(load("return " .. q)() == s)
end
for _, v in ipairs{0, 1, -1, 42, math.maxinteger, math.mininteger, 1.0, -1.0, 0.5, 0.1, -0.0, 0.0, 1e100,
                   2^53, 2^63, -2^63, 1/3, 1/0, -1/0, 3.14159, 1e-300, 5e-324} do
  local q = fmt("%q", v)
  print(q)
  local back = load("return " .. q)()
  assert(back == v and math.type(back) == math.type(v))
end
print(fmt("%q", true), fmt("%q", false), fmt("%q", nil))
print(fmt("[%q] [%q]", "a", 1))
F("%q", {})
F("%q", print)
F("%q", coroutine.create(print))
F("%10q", "x")
F("%-q", "x")
F("%.3q", "x")
F("%q")

-- %p
F("%p", 1)
F("%p", nil)
F("%p", true)
F("%10p|", 1.5)
F("%-10p|", nil)
show("%p table", fmt("%p", {}):match("^0x%x+$") ~= nil or fmt("%p", {}))
local t = {}
assert(fmt("%p", t) == fmt("%p", t))
assert(fmt("%p", t) ~= fmt("%p", {}))
assert(fmt("%p", "abc") == fmt("%p", "abc"))
F("%.3p", 1)
F("%0p", 1)

-- invalid conversions
for _, spec in ipairs{"%y", "%", "%l", "%ld", "%lld", "%hd", "%n", "%5", "%.", "%5.2", "%-",
                      "%0000000000000000000000d", "%-+ #0-+ #0-+ #0-+ #0d", "%#c", "%+x", "% x",
                      "%#i", "%+c", "%.5x", "%.10s", "%z", "%w", "%b", "%B", "%S", "%D", "%C", "%r", "%F", "%5.1F"} do
  F(spec, 1)
end

-- argument counting
F("%d %d", 1)
F("%s %s %s", "a", "b")
F("%d %s", "x", "y")
show(fmt("%s", "only", "extra", "ignored"))
perr(fmt)
perr(fmt, nil)
perr(fmt, {})
show(fmt(42), fmt(1.5))

-- method call form and error names
show(("%d-%s"):format(7, "x"))
perr(function() return ("%d"):format("x") end)
perr(function() return string.format("%d", 1.5) end)
perr(function() return fmt("%d", {}) end)

-- building large outputs
local parts = {}
for i = 1, 100 do parts[i] = "%d" end
local big = fmt(table.concat(parts, ","), table.unpack((function() local r = {} for i = 1, 100 do r[i] = i end return r end)()))
show(#big, big:sub(1, 20), big:sub(-20))
show(#fmt("%099d", 1), #fmt("%-99s|", "x"), #fmt(string.rep("%%", 1000)))

-- __tostring that collects and returns long strings while the buffer grows
local heavy = setmetatable({}, {__tostring = function() collectgarbage() return string.rep("y", 2000) end})
local r = fmt("%s|%s|%d|%s", heavy, heavy, 42, heavy)
show(#r, r:sub(1999, 2003), r:sub(-3))
local r2 = fmt("%.5s|%10.3s|", heavy, heavy)
show(r2)

print("string_format done")
