-- strings_core.lua: concatenation, length, comparison (core language only)
print("strings_core: start")

-- concatenation of strings and numbers
assert("a" .. "b" == "ab")
assert(1 .. "" == "1")
assert(1.0 .. "" == "1.0")
assert(-0.0 .. "" == "-0.0")
assert(2^63 .. "" == "9.2233720368548e+18")
assert(math.mininteger .. "" == "-9223372036854775808")
assert("x" .. 10 .. "y" == "x10y")
assert(1 .. 2 == "12")
print("concat", "a" .. 1, 1.5 .. "b", 1e100 .. "", 10 // 3 .. "", 10 / 2 .. "")
print("concat chain", "a" .. "b" .. "c" .. 1 .. 2 .. 3.0)

-- concat is right associative, evaluated as one operation
local parts = {}
for i = 1, 10 do parts[i] = tostring(i) end
local s = parts[1] .. parts[2] .. parts[3] .. parts[4] .. parts[5] .. parts[6] ..
          parts[7] .. parts[8] .. parts[9] .. parts[10]
assert(s == "12345678910")
print("long chain", s)

-- concatenation errors
local function perr(f)
  local ok, msg = pcall(f)
  print("error", ok, msg)
end
perr(function() return "a" .. nil end)
perr(function() return "a" .. {} end)
perr(function() local t = {} return t.x .. "a" end)
perr(function() return "a" .. true end)
perr(function() local x; return "a" .. x end)
perr(function() return 1 .. print end)

-- building a large string
local buf = ""
for i = 1, 1000 do buf = buf .. "x" end
assert(#buf == 1000)
local big = string.rep("ab", 50000)
assert(#(big .. big) == 200000)
print("large", #buf, #(big .. big))

-- length operator
assert(#"" == 0)
assert(#"abc" == 3)
assert(#"\0\0" == 2)
assert(#"\u{10FFFF}" == 4)
local str = "hello"
assert(#str == 5)
print("len", #"", #"abc", #"\0a\0", #str, #(str .. str))

-- comparison: byte-wise, '\0' aware
assert("a" < "b")
assert("a" < "aa")
assert("" < "a")
assert("Z" < "a")
assert("abc" < "abd")
assert("a\0b" < "a\0c")
assert("a\0" > "a")
assert(not ("a" < "a"))
assert("a" <= "a")
assert("b" >= "a")
assert("10" < "9")             -- string comparison, not numeric
assert("\255" > "\1")
print("cmp", "a" < "b", "a" < "aa", "a\0" > "a", "10" < "9", "abc" == "abc",
      "abc" ~= "abd", "" == "")

-- strings vs numbers never equal, and ordering them is an error
assert("1" ~= 1)
assert(not ("1" == 1))
perr(function() return "1" < 1 end)
perr(function() return 1 < "1" end)
perr(function() return "a" <= {} end)
perr(function() return {} < {} end)
perr(function() return nil > 1 end)

-- interned strings: equal content means equal (and usable as same key)
local a = "hel" .. "lo"
local b = string.format("%s", "hello")
assert(a == b and a == "hello")
local t = {[a] = 1}
assert(t[b] == 1 and t.hello == 1)
print("interned", a == b, t[b])

-- long strings compare and hash correctly
local l1 = string.rep("x", 100) .. "1"
local l2 = string.rep("x", 100) .. "2"
local l3 = string.rep("x", 100) .. "1"
assert(l1 ~= l2 and l1 == l3 and l1 < l2)
local tl = {[l1] = "one"}
assert(tl[l3] == "one" and tl[l2] == nil)
print("long keys", tl[l3], tl[l2])

-- string indexing through the string metatable (method calls)
local m = "abc"
print("methods", m:upper(), ("x"):rep(3), #m:rep(2), ("%d"):format(5))
print("string index", type(("abc").len), ("abc").nosuchmethod, ("abc").len == string.len)
perr(function() return ("abc"):nosuchmethod() end)
perr(function() local q = "abc"; q.x = 1 end)

-- tostring and numbers inside strings
print("tostring", tostring(12), tostring(12.5), tostring(-0.0), tostring(1e16))
print("numbers in strings", "10" + 0, "0x1p4" + 0, "  7  " * 1)

print("strings_core: OK")
