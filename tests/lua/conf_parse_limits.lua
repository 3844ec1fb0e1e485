-- Deep nesting and parser limits: clean errors, never a crash.
local function maxok(mk)
  for n = 1, 300 do if not load(mk(n)) then return n - 1 end end
  return "all"
end
print(maxok(function(n) return "x = " .. string.rep("(", n) .. "1" .. string.rep(")", n) end))
print(maxok(function(n) return "x = " .. string.rep("{", n) .. string.rep("}", n) end))
print(maxok(function(n) return string.rep("do ", n) .. string.rep("end ", n) end))
print(maxok(function(n) return "x = " .. string.rep("not ", n) .. "1" end))
print(maxok(function(n) return "x = " .. string.rep("f(", n) .. string.rep(")", n) end))
print(maxok(function(n) return string.rep("function f() ", n) .. string.rep("end ", n) end))
print(maxok(function(n) return "return " .. string.rep("2^", n) .. "2" end))
print(maxok(function(n) return "x = " .. string.rep("- ", n) .. "1" end))
print(coroutine.wrap(maxok)(function(n) return "x = " .. string.rep("(", n) .. "1" .. string.rep(")", n) end))
-- the overflow is a runtime error raised through the message handler in
-- force (here the stand-alone interpreter's traceback handler)
print(load("x = " .. string.rep("(", 300) .. "1" .. string.rep(")", 300)))
print(select(2, pcall(load, "x = " .. string.rep("{", 300) .. string.rep("}", 300))))
print(xpcall(load, function(m) return "handled: " .. m end, string.rep("do ", 300) .. string.rep("end ", 300)))
local function try(s) local f, e = load(s, "=limits") print(f and "ok" or e) end
local l = {} for i = 1, 201 do l[#l + 1] = "local a" .. i end
try(table.concat(l, "\n"))
l = {} for i = 1, 200 do l[#l + 1] = "local a" .. i end
try(table.concat(l, "\n"))
try("return " .. string.rep("1,", 260) .. "1")
try("local t = {" .. string.rep("1,", 300) .. "}")
try("f(" .. string.rep("1,", 300) .. "1)")
try("local " .. string.rep("a,", 250) .. "a = 1")
try("x = " .. string.rep("a + ", 300) .. "a")
try("x = " .. string.rep("'s' .. ", 300) .. "'e'")
try("a" .. string.rep(".b", 1000) .. " = 1")
try("return f" .. string.rep("()", 300))
l = {} for i = 1, 130 do l[#l + 1] = "local a" .. i .. " = " .. i end
local l2 = {} for i = 1, 130 do l2[#l2 + 1] = "local b" .. i .. " = " .. i end
local u2 = {} for i = 1, 130 do u2[#u2 + 1] = "a" .. i end for i = 1, 130 do u2[#u2 + 1] = "b" .. i end
try("local function outer() " .. table.concat(l, " ") .. " return function() " .. table.concat(l2, " ") ..
    " return function() return " .. table.concat(u2, "+") .. " end end end")
print(select("#", load("return " .. string.rep("1,", 253) .. "1")()))
-- malformed source
for _, s in ipairs{"x = ", "local 1 = 2", "x = '\\300'", "x = '\\u{110000000}'", "x = '\\u{80000000}'",
    "x = 'abc", "x = [[abc", "--[[ open", "x = 0x", "x = 1e", "x = 3..4", "goto nowhere",
    "::a:: ::a::", "break", "local x <foo> = 1", "local x <const> = 1; x = 2", "x = '\\xZZ'",
    "x = '\\q'", "x = \"abc\ndef\"", "x = @", "x = [==[ abc ]=]", "x = '\\u{}'", "x = '\\999'",
    "for a in", "if x then elseif end", "return return", "local function end", "x = 1 y = 2 z"} do
  print((select(2, load(s, "=src"))))
end
