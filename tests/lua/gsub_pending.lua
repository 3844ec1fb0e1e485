-- gsub copies the subject's unmatched text only before a replacement and at
-- the end of a changed result (the pending span): no match, matches at the
-- start and end, adjacent and empty matches, anchors, limits, replacements
-- that keep the match (false/nil), tables with missing keys, errors half way,
-- captures in replacement strings, and large subjects (buffer growth).
local function show(...) print(select('#', ...), ...) end
show(("hello world"):gsub("z", "Z"))
show(("hello world"):gsub("h", "H"))
show(("hello world"):gsub("d", "D"))
show(("hello world"):gsub("l", "L"))
show(("hello world"):gsub("l+", "<%0>"))
show(("hello world"):gsub("", "-"))
show(("hello world"):gsub("x*", "-"))
show(("hello world"):gsub("o?", "0"))
show(("abc"):gsub("%w", "%0%0"))
show(("hello world"):gsub("^h", "J"))
show(("hello world"):gsub("^x", "J"))
show(("hello world"):gsub("^", ">"))
show(("hello world"):gsub("$", "<"))
show(("hello world"):gsub("o", "0", 1))
show(("hello world"):gsub("o", "0", 0))
show(("hello world"):gsub("l", "L", 2))
show((""):gsub("", "e"))
show((""):gsub("a", "e"))
show(("a\0b\0c"):gsub("%z", "|"))
show(("a\0b\0c"):gsub("b", "\0B\0"))
-- functions and tables that keep the original text
show(("one two three"):gsub("%a+", function(w) if w == "two" then return false end return w:upper() end))
show(("one two three"):gsub("%a+", function(w) return nil end))
show(("one two three"):gsub("%a+", { one = 1, three = "3" }))
show(("one two three"):gsub("%a+", {}))
show(("one two three"):gsub("(%a)(%a*)", "%2%1"))
show(("x = 1, y = 22"):gsub("(%w+) = (%w+)", "%2 = %1"))
show(("abc"):gsub("", function() return "." end))
show(("aaa"):gsub("a-", "!"))
show(("[a][b]"):gsub("%b[]", function(s) return #s end))
show(("  pad  "):gsub("^%s+", ""))
show(("  pad  "):gsub("%s+$", ""))
show(("%d"):gsub("%%", "%%%%"))
-- errors after some replacements
print(pcall(string.gsub, "a b c", "%a", function(c) if c == "b" then error("stop at b") end return c end))
print(pcall(string.gsub, "a b c", "%a", function(c) return {} end))
print(pcall(string.gsub, "abc", "b", "%2"))
-- large subjects: long unmatched runs, many matches, a match at the very end
local big = ("x"):rep(5000) .. "y" .. ("x"):rep(5000) .. "y"
local r, n = big:gsub("y", "Y")
print(#r, n, r:sub(4999, 5003), r:sub(-3))
r, n = big:gsub("x", "")
print(r, n)
r, n = big:gsub("z", "")
print(#r, n, r == big)
local parts = {}
for i = 1, 3000 do parts[i] = (i % 7 == 0) and "#" or ("w" .. i) end
local text = table.concat(parts, " ")
r, n = text:gsub("#", function() return "HASH" end)
print(#r, n, r:sub(1, 60))
r, n = text:gsub("w(%d+)", { ["100"] = "C", ["2999"] = "L" })
print(#r, n, r:find("C", 1, true), r:sub(-12))
