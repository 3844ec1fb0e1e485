-- lexer.lua: numerals, string escapes, long strings, comments
print("lexer: start")

local function check(v, expected, what)
  if v ~= expected and not (v ~= v and expected ~= expected) then
    error(string.format("%s: got %s (%s), expected %s (%s)", what,
      tostring(v), math.type(v) or type(v), tostring(expected),
      math.type(expected) or type(expected)), 2)
  end
end

-- decimal integers and floats
check(0, 0, "zero"); check(math.type(0), "integer", "0 type")
check(3, 3, "3"); check(345, 345, "345")
check(math.type(3.0), "float", "3.0 type")
check(3., 3.0, "3.")
check(.5, 0.5, ".5")
check(0.5e1, 5.0, "0.5e1")
check(5E+1, 50.0, "5E+1")
check(5e-1, 0.5, "5e-1")
check(314.16e-2, 3.1416, "314.16e-2")
check(0.31416E1, 3.1416, "0.31416E1")
check(34e1, 340.0, "34e1")
check(math.type(1e2), "float", "1e2 is float")
print("decimal", 3, 3.0, 3.1416, 314.16e-2, 0.31416E1, 34e1, 1e2, .5)

-- hexadecimal
check(0xff, 255, "0xff"); check(0XFF, 255, "0XFF")
check(0xA, 10, "0xA"); check(0Xa, 10, "0Xa")
check(0x0.1, 0.0625, "0x0.1")
check(0x.8, 0.5, "0x.8")
check(0xA23p-4, 162.1875, "0xA23p-4")
check(0X1.921FB54442D18P+1, math.pi, "0X1.921FB54442D18P+1")
check(0x1p4, 16.0, "0x1p4")
check(0x1P-2, 0.25, "0x1P-2")
check(0x.1p4, 1.0, "0x.1p4")
check(math.type(0x10), "integer", "hex int type")
check(math.type(0x1p4), "float", "hex float type")
print("hex", 0xff, 0x0.1, 0xA23p-4, 0x1p4, 0x.1p4)

-- hex integers wrap around modulo 2^64
check(0xffffffffffffffff, -1, "0xff..ff wraps")
check(0x7fffffffffffffff, math.maxinteger, "maxinteger hex")
check(0x8000000000000000, math.mininteger, "mininteger hex")
check(0x10000000000000000, 0, "2^64 wraps to 0")
check(0x1ffffffffffffffff, -1, "wrap 65 bits")
print("hexwrap", 0xffffffffffffffff, 0x7fffffffffffffff, 0x8000000000000000,
      0x10000000000000000, 0x123456789abcdef01)

-- decimal integer overflow becomes float
check(math.type(9223372036854775807), "integer", "maxint literal")
check(math.type(9223372036854775808), "float", "maxint+1 literal")
check(9223372036854775808, 2.0^63, "2^63 literal")
check(-9223372036854775808, -(2.0^63), "-2^63 literal is float")
check(math.type(-9223372036854775808), "float", "-2^63 literal type")
check(math.type(18446744073709551615), "float", "2^64-1 literal")
print("overflow", 9223372036854775807, 9223372036854775808, 18446744073709551616)

-- numerals via tonumber / load give the same results
check(tonumber("0x10"), 16, "tonumber hex")
check(tonumber("  10  "), 10, "tonumber spaces")
check(tonumber("1e1"), 10.0, "tonumber exp")
check(tonumber("0x1p-1"), 0.5, "tonumber hexfloat")
check(tonumber("1e"), nil, "tonumber bad exp")
check(tonumber("0x"), nil, "tonumber bare 0x")
check(tonumber(".e1"), nil, "tonumber .e1")
check(tonumber("1 2"), nil, "tonumber 1 2")
check(load("return 0x1e")(), 30, "0x1e is hex int")

-- strings and escapes
check("\a\b\f\n\r\t\v\\\"\'", "\7\8\12\10\13\9\11\92\34\39", "simple escapes")
check("\65\066\0677", "ABC7", "decimal escapes")
check("\x41\x62\x7A", "Abz", "hex escapes")
check("\u{41}\u{7FF}\u{FFFF}", "A\xDF\xBF\xEF\xBF\xBF", "utf8 escapes")
check("\u{10FFFF}", "\xF4\x8F\xBF\xBF", "utf8 max unicode")
check("\u{7FFFFFFF}", "\xFD\xBF\xBF\xBF\xBF\xBF", "utf8 extended")
check(#"\0\0\0", 3, "embedded zeros")
check("a\z
       b", "ab", "\\z skips whitespace")
check("a\z  b", "ab", "\\z inline")
check("x\
y", "x\ny", "escaped newline")
check('single \'quoted\'', "single 'quoted'", "single quotes")
check("\255", "\xff", "\\255")
do
  local s = "\0\1\2\3\4\5\6\7\8\9"
  local t = {}
  for i = 1, #s do t[i] = s:byte(i) end
  print("bytes", table.concat(t, ","))
end
print("escapes ok", #"\u{10FFFF}", #"\u{7FFFFFFF}", "\65\x42\u{43}")

-- long strings
check([[abc]], "abc", "long string")
check([==[a]]b]=]c]==], "a]]b]=]c", "level 2")
check([[
first newline skipped]], "first newline skipped", "skip first newline")
check([[

two]], "\ntwo", "only first newline skipped")
check([=[
]=], "", "newline only")
check([[a\nb]], "a\\nb", "no escapes in long strings")
check([[a
b]], "a\nb", "newline inside")
do
  local s = load("return [[a\r\nb]]")()
  check(s, "a\nb", "CRLF normalized")
  s = load("return [[a\n\rb]]")()
  check(s, "a\nb", "LFCR normalized")
  s = load("return [[a\r\rb]]")()
  check(s, "a\n\nb", "CRCR two newlines")
end
print("long strings", [==[x]]y]==], #[[

]])

-- comments
local x = 1 -- line comment
--[[ long
comment ]] x = x + 1
--[==[ another
]] still comment ]==] x = x + 1
---[[ not a long comment
x = x + 10
--]]
check(x, 13, "comments")
--[[]] x = x + 100
check(x, 113, "empty long comment")
print("comments", x)

-- shebang line is skipped by load? (only by loadfile); '#' inside load is an error
check(load("#!/bin/lua\nreturn 1"), nil, "shebang not allowed in load")

-- names and keywords
local _ = 1
local __x1, X_2 = 2, 3
check(__x1 + X_2 + _, 6, "identifiers")
local t = {["and"] = 1, ["goto"] = 2}
check(t["and"] + t["goto"], 3, "keywords as string keys")
local t2 = {andx = 1, gotox = 2, nil_ = 3}
check(t2.andx + t2.gotox + t2.nil_, 6, "names with keyword prefixes")

-- numbers adjacent to operators / concat
check(1 .. 2, "12", "1 .. 2")
check(2^-2, 0.25, "2^-2")
check(- -2, 2, "double minus")
check(load("return 0x10..''"), nil, "0x10.. is malformed")
check(load("return 1..2"), nil, "1..2 is malformed")

-- line counting in errors
local f = load("\n\n\nerror('here')", "=lines")
local ok, msg = pcall(f)
print("line count", msg)
f = load("--[[\n\n]] error('x')", "=lines2")
ok, msg = pcall(f)
print("line count 2", msg)
f = load("local s = [[\n\n\n]] error('y')", "=lines3")
ok, msg = pcall(f)
print("line count 3", msg)
f = load("local s = 'a\\\nb\\\nc' error('z')", "=lines4")
ok, msg = pcall(f)
print("line count 4", msg)
f = load("local s = 'a\\z\n\n\n b' error('w')", "=lines5")
ok, msg = pcall(f)
print("line count 5", msg)

print("lexer: OK")
