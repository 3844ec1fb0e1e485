-- syntax_errors.lua: messages of load() for malformed chunks
print("syntax_errors: start")

local cases = {
  {"unexpected symbol", "x = = 1"},
  {"unexpected symbol 2", "local 1 = 2"},
  {"missing end", "if x then y = 1"},
  {"missing end func", "function f() return 1"},
  {"missing then", "if x y = 1 end"},
  {"missing do", "while true x = 1 end"},
  {"missing until", "repeat x = 1"},
  {"missing paren", "print(1, 2"},
  {"missing bracket", "t = {1, 2"},
  {"bad table sep", "t = {1 2}"},
  {"unfinished string", "x = 'abc"},
  {"unfinished string nl", "x = \"abc\ny\""},
  {"unfinished long string", "x = [[abc"},
  {"unfinished long comment", "--[[ abc"},
  {"invalid long string delimiter", "x = [==abc]]"},
  {"malformed number", "x = 3x"},
  {"malformed number 2", "x = 0x"},
  {"malformed number 3", "x = 1e"},
  {"malformed number 4", "x = 1.2.3"},
  {"malformed number 5", "x = 0xep"},
  {"invalid escape", [[x = "\q"]]},
  {"decimal escape too large", [[x = "\256"]]},
  {"hex escape", [[x = "\xZZ"]]},
  {"hex escape short", [[x = "\x5"]]},
  {"utf8 escape missing brace", [[x = "\u{41"]]},
  {"utf8 escape missing open", [[x = "\u41"]]},
  {"utf8 escape too large", [[x = "\u{80000000}"]]},
  {"utf8 escape empty", [[x = "\u{}"]]},
  {"goto undefined", "goto nowhere"},
  {"goto into local scope", "do goto l; local x; ::l:: print(x) end"},
  {"duplicate label", "::a:: ::a::"},
  {"duplicate label nested", "::a:: do ::a:: end"},
  {"break outside loop", "break"},
  {"break in function outside loop", "while true do local function f() break end end"},
  {"assign to const", "local x <const> = 1; x = 2"},
  {"assign to close", "local x <close> = nil; x = 2"},
  {"unknown attribute", "local x <foo> = 1"},
  {"multiple to-be-closed", "local a <close>, b <close> = nil, nil"},
  {"vararg outside vararg function", "function f() return ... end"},
  {"call on new line ok?", "local a = f\n(g).x = 1"},
  {"invalid statement", "x"},
  {"invalid statement 2", "f() = 1"},
  {"invalid assignment target", "(x) = 1"},
  {"missing name after local", "local = 1"},
  {"missing name after function", "function (x) end"},
  {"method call missing args", "a:b"},
  {"bad for", "for x do end"},
  {"bad for 2", "for 1 = 1, 2 do end"},
  {"numeric for needs 2 values", "for i = 1 do end"},
  {"unexpected eof in expr", "return 1 +"},
  {"unexpected end", "end"},
  {"return not last", "return 1; x = 2"},
  {"label at eof after return", "return ::l::"},
  {"bad char", "x = @"},
  {"bad char 2", "x = 1 $ 2"},
  {"invalid control char", "x = \1"},
  {"lonely tilde eq", "x = 1 ~== 2"},
  {"goto continue ok", "for i=1,2 do goto continue; ::continue:: end"},
  {"nested function bad", "local function f() local function g() end"},
  {"string after number", "x = 1'a'"},
  {"attrib on global", "x <const> = 1"},
  {"too many dots", "x = a....b"},
}

for i, c in ipairs(cases) do
  local f, msg = load(c[2], "=src")
  if f then
    print(i, c[1], "OK (compiled)")
  else
    print(i, c[1], msg)
  end
end

-- chunk names in messages
local _, m1 = load("x = = 1", "@file.lua")
print("chunkname @", m1)
local _, m2 = load("x = = 1")
print("chunkname default", m2)
local _, m3 = load("x = = 1", "custom name")
print("chunkname string", m3)
local _, m4 = load("\n\n  x = = 1", "=multi")
print("line numbers", m4)
local _, m5 = load("x = 'a very long string literal that goes on and on", "=long")
print("near long token", m5)

-- deep nesting: generated expressions
local function nested(n)
  return "return " .. string.rep("(", n) .. "1" .. string.rep(")", n)
end
local f = load(nested(100))
assert(f and f() == 1)
print("nest 100 ok")
local ok, msg = load(nested(100000))
print("nest 100000 fails", ok == nil, type(msg) == "string")
print("nest 100000 msg has overflow", msg:find("overflow") ~= nil or msg:find("too many") ~= nil)

local function nestedblocks(n)
  return string.rep("do ", n) .. string.rep("end ", n)
end
assert(load(nestedblocks(100)))
local g, gm = load(nestedblocks(100000))
print("blocks 100000 fails", g == nil)

-- many local variables
local src = {}
for i = 1, 199 do src[#src+1] = "local v" .. i .. " = " .. i end
src[#src+1] = "return v1 + v199"
local f2 = assert(load(table.concat(src, "\n")))
print("199 locals", f2())
src = {}
for i = 1, 201 do src[#src+1] = "local v" .. i .. " = " .. i end
local f3, m6 = load(table.concat(src, "\n"), "=locals")
print("201 locals", f3, m6)

-- many upvalues
src = {}
for i = 1, 256 do src[#src+1] = "local u" .. i .. " = " .. i end
-- split in several functions to avoid local limits
local body = {"local t = {}"}
for i = 1, 150 do body[#body+1] = "local a" .. i .. " = " .. i end
body[#body+1] = "local function f() return "
local terms = {}
for i = 1, 150 do terms[#terms+1] = "a" .. i end
body[#body+1] = table.concat(terms, "+") .. " end return f()"
local f4 = assert(load(table.concat(body, "\n")))
print("150 upvalues", f4())

-- huge numerals are floats, not errors
print("huge numeral", load("return 1" .. string.rep("0", 400))())
print("huge numeral 2", load("return 0x" .. string.rep("f", 400))())
print("tiny numeral", load("return 1e-400")())

-- errors are strings, load never throws
local okl, res = pcall(load, "x = = = ")
print("load does not throw", okl, res)

print("syntax_errors: OK")
