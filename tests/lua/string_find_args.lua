-- string.find / string.match arguments read from the stack (strlib
-- sl_findaux): two strings and an immediate init take the direct path,
-- everything else the general one; both must agree with lua5.4.
local s = "hello [world] 123 hello"
local cases = {
  { s, "hello" }, { s, "hello", 2 }, { s, "hello", -5 }, { s, "hello", -100 },
  { s, "hello", 0 }, { s, "hello", 24 }, { s, "hello", 25 }, { s, "", 24 }, { s, "", 25 },
  { s, "", 26 }, { s, "[w", 1, true }, { s, "%d+", 1 }, { s, "%d+", 1.0 },
  { s, "%d+", "3" }, { s, "(%a+)", 3 }, { s, "^hello" }, { s, "^hello", 2 },
  { s, "o", nil }, { s, "[", nil, true }, { s, "l+", 3, false }, { 12345, 3 },
  { 12345, "3", 2 }, { s, 123 }, { "", "" }, { "", "", 1 }, { "", "", 2 },
  { "a\0b", "\0" }, { "a\0b", "%z" }, { s, "()o()", 6 }, { s, "h", math.mininteger },
  { s, "h", math.maxinteger }, { s, "%w+", 2^53 },
}
for i, c in ipairs(cases) do
  print(i, pcall(string.find, table.unpack(c, 1, c[4] ~= nil and 4 or c[3] ~= nil and 3 or 2)))
  print(i, pcall(string.match, table.unpack(c, 1, c[3] ~= nil and 3 or 2)))
end
-- nil init with more arguments
print(string.find(s, "o", nil, true), string.find(s, "o", nil))
print(s:find("l", 5), s:match("(l+)(o)", 1))
-- errors name the argument
print(pcall(string.find, s))
print(pcall(string.find, nil, "x"))
print(pcall(string.find, s, {}))
print(pcall(string.find, s, "x", "y"))
print(pcall(string.match, s, "x", 1.5))
-- a pattern error on the direct path
print(pcall(string.find, s, "[a"))
print(pcall(string.match, s, "%", 1))
-- string.gsub: (s, p, repl) with two strings read from the stack
print(s:gsub("l", "L"))
print(s:gsub("^h", "H"))
print(s:gsub("o", "0", 1))
print(s:gsub("o", "0", nil))
print(s:gsub("o", "0", 1.0))
print(pcall(string.gsub, s, "o", "0", 1.5))
print(string.gsub(12321, 2, 9))
print(string.gsub(s, "%d", 7))
print(s:gsub("%a+", { hello = "HI" }))
print(s:gsub("(%a)(%a*)", function(a, b) return b .. a end))
print(pcall(string.gsub, s, "o"))
print(pcall(string.gsub, s, "o", true))
print(pcall(string.gsub, s, {}, "x"))
print(pcall(string.gsub, nil, "o", "x"))
print(("abc"):gsub("", "-"))
