-- string library: basic functions, string metatable, coercions
local show, perr = require("lib.show").show, require("lib.show").perr

-- len
assert(string.len("") == 0)
assert(string.len("abc") == 3)
assert(#"a\0b" == 3 and string.len("a\0b\0") == 4)
assert(string.len(123) == 3)
show("len", string.len("hello"), ("hello"):len(), string.len(1.5))

-- sub: all index corner cases
local s = "abcdef"
local cases = {
  {1}, {2}, {0}, {-1}, {-3}, {-6}, {-7}, {-100}, {7}, {100},
  {1, 3}, {2, 2}, {3, 2}, {0, 0}, {0, 1}, {-3, -2}, {-2, -3}, {-100, 2},
  {2, 100}, {2, -100}, {math.mininteger, math.maxinteger},
  {math.maxinteger, math.mininteger}, {math.mininteger, -1}, {6, 6}, {7, 7},
  {-1, -1}, {4, -1}, {1, 0},
}
for _, c in ipairs(cases) do
  local r = string.sub(s, c[1], c[2])
  print("sub", c[1], c[2], "[" .. r .. "]")
end
assert(("abc"):sub(2) == "bc")
assert(string.sub("abc", 2.0, 3.0) == "bc")
assert(string.sub("", 1, 1) == "")
perr(string.sub, "abc", 1.5)
perr(string.sub, "abc")
perr(string.sub, "abc", "x")
perr(string.sub, nil, 1)
perr(string.sub, {}, 1)
show("sub num", string.sub(12345, 2, 3), string.sub("12", "1", "1"))

-- byte
show("byte", string.byte("ABC"))
show("byte", string.byte("ABC", 2))
show("byte", string.byte("ABC", 1, 3))
show("byte", string.byte("ABC", -1))
show("byte", string.byte("ABC", 1, -1))
show("byte", string.byte("ABC", 0, 10))
show("byte", select("#", string.byte("ABC", 4)))
show("byte", select("#", string.byte("ABC", 3, 2)))
show("byte", select("#", string.byte("")))
show("byte", string.byte("\0\255\128"  , 1, -1))
show("byte", ("xyz"):byte(-2, -1))

-- char
show("char", string.char(72, 105), "[" .. string.char() .. "]")
assert(string.char(0, 255) == "\0\255")
assert(string.char(65.0) == "A")
perr(string.char, 256)
perr(string.char, -1)
perr(string.char, 65, "x")
perr(string.char, 1.5)
local all = {}
for i = 0, 255 do all[#all + 1] = i end
local bytes = string.char(table.unpack(all))
assert(#bytes == 256)
for i = 0, 255 do assert(bytes:byte(i + 1) == i) end

-- rep
show("rep", string.rep("ab", 3), string.rep("ab", 3, ","), "[" .. string.rep("x", 0) .. "]",
     "[" .. string.rep("x", -5) .. "]", string.rep("x", 1, "sep"), "[" .. string.rep("", 5) .. "]")
show("rep", string.rep("", 3, "-"), string.rep("a", 2, ""), #string.rep("abc", 1000))
assert(string.rep("\0", 3, "\1") == "\0\1\0\1\0")
perr(string.rep, "x", 1 << 40)
perr(string.rep, "x", math.maxinteger)
perr(string.rep, "x", 1 << 31, "y")
perr(string.rep, "x")
perr(string.rep, "x", 2.5)

-- reverse, lower, upper
show("reverse", string.reverse("abc"), "[" .. string.reverse("") .. "]", string.reverse("a\0b"):byte(1, -1))
show("lower", string.lower("HeLLo 123 ÀB"), string.upper("HeLLo 123 àb"))
assert(string.lower("A\0B") == "a\0b")
assert(string.upper(12) == "12")

-- method syntax and the string metatable
local mt = getmetatable("")
assert(type(mt) == "table")
assert(mt.__index == string)
assert(getmetatable("abc") == mt)
show("methods", ("x"):rep(3), ("%d"):format(5), ("abc"):upper(), #("abc"):rep(2))
local names = {}
for k in pairs(mt) do names[#names + 1] = k end
table.sort(names)
show("metatable keys", table.concat(names, ","))
local fnames = {}
for k, v in pairs(string) do
  assert(type(v) == "function")
  fnames[#fnames + 1] = k
end
table.sort(fnames)
show("string functions", table.concat(fnames, ","))

-- arithmetic on strings (via the string metatable)
show("arith", "10" + 1, "10" - 1, "3" * "4", "7" / "2", "7" // "2", "7" % "3", "2" ^ "10", -"3")
show("arith", "0x10" + 0, " 5 " * 2, "1e2" + 0, "3.0" + 1, math.type("3" + 1), math.type("3.0" + 1))
show("arith", "10" + 1.5, 1 + "2", "-7" // 2, "-7" % 3, "7.5" // 2)
show("arith", math.type("9007199254740993" + 0), "9223372036854775807" + 0)
perr(function() return "abc" + 1 end)
perr(function() return 1 - "x" end)
perr(function() return "1\0" * 2 end)
perr(function() return {} .. "" end)
perr(function() return -"a" end)
perr(function() return "10" % "0" end)
show("arith div zero float", "1" / "0", "-1" // "0.0", "5" % "0.0" ~= "5" % "0.0")
-- second operand metamethod is used when the string is not numeric
local obj = setmetatable({}, {__add = function(a, b) return "mm:" .. tostring(type(a)) .. "," .. tostring(type(b)) end,
                              __unm = function() return "unm" end})
show("arith mm", "abc" + obj, obj + "abc", "1" + obj)
-- concat of numbers and strings
show("concat", 1 .. "", 1.0 .. "", "a" .. 2 .. 3.5, -0.0 .. "")

-- comparison of strings
assert("a" < "b" and "abc" < "abd" and "" < "a" and "a\0" > "a")
assert(not ("b" < "a"))
assert("Z" < "a")

-- dump: load back and call; strip flag
local function adder(a, b) return a + b, "sum" end
local d = string.dump(adder)
assert(type(d) == "string" and d:sub(1, 4) == "\27Lua")
local f2 = load(d, "dumped", "b")
show("dump", f2(2, 3))
local ds = string.dump(adder, true)
assert(#ds <= #d)
show("dump strip", load(ds)(10, 20))
local up = 5
local function withup() return up end
local f3 = load(string.dump(withup))
show("dump upvalue", f3() == _G)
perr(string.dump, print)
perr(string.dump, 1)
show("load binary as text", load(d, "x", "t"))

-- tostring / tonumber interplay
show("tostring", tostring(10), tostring(10.0), tostring(-0.0), tostring(1e100), tostring(2^63), tostring(math.mininteger))
show("tonumber", tonumber("0x1p4"), tonumber("  10  "), tonumber("10", 2), tonumber("z", 36), tonumber("1e"), tonumber(""))

print("string_basic done")
