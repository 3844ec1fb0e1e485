-- string library: find, match, gmatch, gsub and Lua patterns
local show, perr = require("lib.show").show, require("lib.show").perr

-- find: plain and pattern
show("find", string.find("hello world", "o"))
show("find", string.find("hello world", "o", 6))
show("find", string.find("hello world", "o", -3))
show("find", string.find("hello world", "xyz"))
show("find", string.find("hello", ""))
show("find", string.find("hello", "", 3))
show("find", string.find("hello", "", 6))
show("find", string.find("hello", "", 7))
show("find", string.find("hello", "", 100))
show("find", string.find("hello", "", -100))
show("find", string.find("", ""))
show("find", string.find("", "", 1))
show("find", string.find("", "", 2))
show("find", string.find("a.b", ".", 1, true))
show("find", string.find("a.b", "%."))
show("find", string.find("a+b", "+", 1, true))
show("find", string.find("a(b", "(", 1, true))
show("find", string.find("a[b", "[", 1, true))
show("find", string.find("x^y", "^y", 1, true))
show("find", string.find("abc", "b", nil, true))
show("find", string.find("a\0b\0c", "\0c"))
show("find", string.find("a\0b\0c", "b\0", 1, true))
show("find", string.find("aaa", "a", 0))
show("find", string.find("abcabc", "abc", 2))
show("find", string.find("abc", "c", 3))
show("find", string.find("abc", "c", 4))
show("find caps", string.find("key = value", "(%w+)%s*=%s*(%w+)"))
show("find poscap", string.find("hello", "()ll()"))
show("find anchor", string.find("hello", "^h"), string.find("hello", "^e"), string.find("hello", "^e", 2))
show("find $", string.find("hello", "o$"), string.find("hello", "l$"), string.find("a$b", "$b"))
show("find 12", string.find(12345, 3), string.find(12.5, "%."))

-- match
show("match", string.match("hello world", "%w+"))
show("match", string.match("hello world", "(%w+) (%w+)"))
show("match", string.match("  trim  ", "^%s*(.-)%s*$"))
show("match", string.match("2024-01-15", "(%d+)-(%d+)-(%d+)"))
show("match", string.match("abc", "()b()"))
show("match", string.match("abc", "x"))
show("match", string.match("abc", ""), string.match("abc", "", 10))
show("match", string.match("abc", ".", -1), string.match("abc", "^.", 2))
show("match", string.match("[[nested]]", "%[(%b[])%]"))
show("match", string.match("f(a(b)c)d", "%b()"))
show("match", string.match("f(a(b c)d", "%b()"))
show("match", string.match("THE (quick) fox", "%f[%a]%a+"))
show("match", string.match("hello", ".-(l+)(.*)"))
show("match", string.match("aaab", "a-b"), string.match("aaab", "a*"), string.match("aaab", "a+"),
     string.match("aaab", "a?a?"), string.match("b", "a?b"), string.match("", "a*"))
show("match", string.match("xyz", "[^x]+"), string.match("a-b", "[a-]+"), string.match("a]b", "[]a]+"),
     string.match("^^x", "[%^]+"), string.match("a-z", "[z-]+"))
show("match", string.match("abc123", "[%a]+"), string.match("abc123", "[%d]+"),
     string.match("Hello World", "[A-Z]%l+", 2), string.match("x-y", "[%-]"))
show("match backref", string.match('say "hi" there', '(["\'])(.-)%1'))
show("match backref", string.match("abcabc", "(abc)%1"), string.match("aXbXc", "(X).*%1"))
show("match pos+cap", string.match("hello", "(h)()(e)"))
show("match nested", string.match("abcd", "((a)(b)((c)d))"))
show("match dollar", string.match("a$", "a$"), string.match("a$", "a%$"), string.match("$$", "%$+"))
show("match dot", string.match("\n\0x", "..."), #string.match("\n\0x", "..."))

-- classes over all bytes
local classes = {"a", "c", "d", "g", "l", "p", "s", "u", "w", "x", "z"}
for _, c in ipairs(classes) do
  local n, N = 0, 0
  for i = 0, 255 do
    local ch = string.char(i)
    if ch:find("%" .. c) then n = n + 1 end
    if ch:find("%" .. c:upper()) then N = N + 1 end
    assert(ch:find("[%" .. c .. "]") == ch:find("%" .. c))
  end
  assert(n + N == 256)
  show("class", c, n, N)
end
show("escapes", string.match("a.b", "%."), string.match("%", "%%"), string.match("a(b", "%("))

-- frontier
local words = {}
for w in string.gmatch("THE (quick) fox, jumps", "%f[%a]%a+%f[%A]") do words[#words + 1] = w end
show("frontier", table.concat(words, "|"))
show("frontier", string.find("hello", "%f[%z]"), string.find("a", "%f[a]"), string.find("aa", "%f[^a]"))
show("frontier gsub", (string.gsub("THE (quick) fox", "%f[%a]%a", "X")))

-- gmatch
local out = {}
for k, v in string.gmatch("a=1, b=2, c=3", "(%w+)=(%w+)") do out[#out + 1] = k .. ":" .. v end
show("gmatch", table.concat(out, " "))
out = {}
for w in string.gmatch("one two  three", "%a+") do out[#out + 1] = w end
show("gmatch", table.concat(out, "|"))
out = {}
for w in string.gmatch("abc", "") do out[#out + 1] = "[" .. w .. "]" end
show("gmatch empty", table.concat(out))
out = {}
for a, b in string.gmatch("abc", "()(.?)") do out[#out + 1] = a .. "=" .. b end
show("gmatch poscap", table.concat(out, " "))
out = {}
for w in string.gmatch("hello world from lua", "%a+", 7) do out[#out + 1] = w end
show("gmatch init", table.concat(out, "|"))
out = {}
for w in string.gmatch("hello", ".", -2) do out[#out + 1] = w end
show("gmatch neg init", table.concat(out, "|"))
out = {}
for w in string.gmatch("hello", ".", 10) do out[#out + 1] = w end
show("gmatch big init", #out)
out = {}
for w in string.gmatch("a^b^c", "^.") do out[#out + 1] = w end
show("gmatch caret literal", table.concat(out, "|"))
out = {}
for w in string.gmatch("xaaxax", "a*") do out[#out + 1] = "<" .. w .. ">" end
show("gmatch a*", table.concat(out))
local it = string.gmatch("1 2 3", "%d")
show("gmatch manual", it(), it(), it(), it())
-- the iterator keeps its subject alive
local gen
do
  local s = string.rep("xy", 3)
  gen = s:gmatch("y")
end
collectgarbage()
show("gmatch after gc", gen(), gen(), gen(), gen())

-- gsub with string replacement
show("gsub", string.gsub("hello world", "o", "0"))
show("gsub", string.gsub("hello world", "o", "0", 1))
show("gsub", string.gsub("hello world", "o", "0", 0))
show("gsub", string.gsub("hello world", "o", "0", -1))
show("gsub", string.gsub("hello world", "(%w+)", "<%1>"))
show("gsub", string.gsub("hello world", "%w+", "%0 %0"))
show("gsub", string.gsub("hello", "", "-"))
show("gsub", string.gsub("abc", "b*", "-"))
show("gsub", string.gsub("abc", "^", ">"))
show("gsub", string.gsub("abc", "$", "<"))
show("gsub", string.gsub("abc", "^a", "A"), string.gsub("abc", "^b", "B"))
show("gsub", string.gsub("hello world", "(o)", "%%%1%%"))
show("gsub", string.gsub("abc", "()", "%1"))
show("gsub", string.gsub("abc", "b()", "%1"))
show("gsub", string.gsub("a.b.c", "%.", "%%"))
show("gsub", string.gsub("x = 1", "(%w+) = (%w+)", "%2 = %1"))
show("gsub", string.gsub("abc", ".", 1))
show("gsub", string.gsub("abc", "b", 2.5))
show("gsub", string.gsub(123, 2, 9))
show("gsub", string.gsub("aaa", "a", "b", 2.0))
show("gsub", string.gsub("", "", "x"))
show("gsub", string.gsub("a\0b", "\0", "0"))
-- table replacement
local t = {name = "Lua", version = "5.4", n = 1}
show("gsub table", string.gsub("$name $version $none $n", "%$(%w+)", t))
show("gsub table", string.gsub("abc", "%w", {a = 1, c = false}))
perr(string.gsub, "abc", "%w", {a = 1, b = true})
show("gsub table whole", string.gsub("ab", ".", {a = "A"}))
-- function replacement
show("gsub func", string.gsub("hello world", "%w+", function(w) return w:upper() end))
show("gsub func", string.gsub("hello world", "%w+", function(w) return nil end))
show("gsub func", string.gsub("hello world", "%w+", function(w) return false end))
show("gsub func", string.gsub("abc", "(a)(b)(c)", function(a, b, c) return c .. b .. a end))
show("gsub func", string.gsub("abc", "()", function(p) return p end))
show("gsub func", string.gsub("x1y22z", "%d+", function(d) return tonumber(d) * 2 end))
local calls = 0
show("gsub func count", string.gsub("aaa", "a", function() calls = calls + 1 end, 2), calls)

-- errors
perr(string.find, "abc", "%")
perr(string.find, "abc", "[a")
perr(string.find, "abc", "[a%")
perr(string.find, "abc", "[")
perr(string.find, "abc", "[^")
perr(string.find, "abc", "(")
perr(string.match, "abc", ")")
show("find plain paren", string.find("a)c", ")"))
perr(string.find, "abc", "%1")
perr(string.find, "abc", "(a)%2")
perr(string.find, "abc", "(a%1)")
perr(string.find, "abc", "%b")
perr(string.find, "abc", "%ba")
perr(string.find, "abc", "%f")
perr(string.find, "abc", "%fa")
perr(string.match, "abc", "a(")
perr(string.match, "abc", "()))")
perr(string.gsub, "abc", "(b)", "%2")
perr(string.gsub, "abc", "b", "%2")
perr(string.gsub, "abc", "b", "%x")
perr(string.gsub, "abc", "b", "%")
perr(string.gsub, "abc", "b", {b = {}})
perr(string.gsub, "abc", "b", function() return {} end)
perr(string.gsub, "abc", "b")
perr(string.gsub, "abc", "b", true)
perr(string.gsub, "abc", "b", "x", "y")
perr(string.gmatch, "abc")
perr(string.find)
perr(string.find, "abc", {})
-- too many captures
perr(string.match, string.rep("a", 40), string.rep("(a)", 40))
show("32 captures", select("#", string.match(string.rep("a", 32), string.rep("(a)", 32))))
-- pattern too complex
perr(string.match, string.rep("a", 300), string.rep("a?", 300) .. string.rep("a", 300))
show("lazy no match", string.find(string.rep("a", 1000), ".-b"))
show("deep but ok", #string.match(string.rep("a", 10000), "a*"), #string.match(string.rep("a", 10000), ".-$"))
perr(function() return ("x"):find("(") end)
show("open capture gsub", ("abc"):gsub("(", ""))
perr(function() local s = "abc"; return s:gsub("(", "%1") end)
perr(function() return ("abc"):gsub("(", print) end)

-- longer texts
local text = "The quick brown fox jumps over the lazy dog"
local count = select(2, text:gsub("%a+", ""))
show("word count", count)
show("vowels", select(2, text:gsub("[aeiouAEIOU]", "")))
show("caps", (text:gsub("(%a)(%a*)", function(a, b) return a:upper() .. b end)))
show("rev words", (text:gsub("(%a+)", string.reverse)))
local csv = "a,b,,d,"
out = {}
for field in (csv .. ","):gmatch("([^,]*),") do out[#out + 1] = "[" .. field .. "]" end
show("csv", table.concat(out))
show("path", string.match("/usr/local/lib/lua/5.4/mod.so", "^(.*)/([^/]*)$"))
show("kv", string.match("  key_1  =  some value ", "^%s*([%w_]+)%s*=%s*(.-)%s*$"))

-- iterators and callbacks across coroutines
local it2 = ("abc"):gmatch("%w")
local co = coroutine.wrap(function() return it2(), it2() end)
show("gmatch in coroutine", co())
show("gmatch after coroutine", it2(), it2())
local bad = ("abc"):gmatch("(%w")
local co2 = coroutine.create(function() return bad() end)
show("gmatch error in coroutine", coroutine.resume(co2))
local co3 = coroutine.create(function() return string.gsub("ab", "%w", coroutine.yield) end)
show("yield inside gsub", coroutine.resume(co3))
local co4 = coroutine.wrap(function(x)
  local r = {}
  for w in string.gmatch(x, "%a+") do r[#r + 1] = w; coroutine.yield(w) end
  return table.concat(r, "+")
end)
show("yield between gmatch steps", co4("one two three"), co4(), co4(), co4())

-- collections during callbacks must not disturb the matcher or the buffer
local calls2 = 0
local big = string.rep("abc ", 300)
local r, n = string.gsub(big, "(%w+)( )", function(w, sp)
  calls2 = calls2 + 1
  if calls2 % 50 == 0 then collectgarbage() end
  return w:upper() .. string.rep("-", calls2 % 7) .. sp
end)
show("gc gsub", #r, n, r:sub(1, 30), r:sub(-20))
local acc = {}
for w, p in string.gmatch(big, "(%w+)()") do
  acc[#acc + 1] = w .. p
  if #acc % 100 == 0 then collectgarbage() end
end
show("gc gmatch", #acc, acc[1], acc[#acc])
local tbl = setmetatable({}, {__index = function(t, k) collectgarbage("step") return k:rep(3) end})
show("gc gsub table", (string.gsub("a b c d", "%a", tbl)))

print("string_patterns done")
