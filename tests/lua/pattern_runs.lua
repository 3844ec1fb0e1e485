-- greedy repetitions ('*', '+') of single classes (%-classes, literal
-- bytes, '.', escaped specials) at every position: empty runs, runs to the
-- end of the subject, backtracking into the run, anchors and captures
local subjects = { "", "a", "aaa", "aab", "baa", "123", "12a34", "  x  ", "a.b.c",
                   "%%%", "x+y*z", "abc123def456", "\n\t x", "ab12" }
local patterns = { "a*", "a+", "^a*", "^a+", "a*$", "a+$", "a*a", "a+a", "a*b", "a+b",
                   "%d*", "%d+", "^%d+", "%d+%d", "%d*%a", "%a+%d+", "(%a+)(%d*)",
                   ".*", ".+", ".*x", ".+$", "^.*$", "%.+", "%%*", "%%+%%", "%s*x%s*",
                   "%+", "[%d]+", "%w+$", "%S+", "()a*()", "b*a", "%x+", "%l+%u*",
                   "%p+", "%c+", "%D+", "z*z", "x*y*z*", "%d*()$" }
local n = 0
for _, s in ipairs(subjects) do
  for _, p in ipairs(patterns) do
    local r = { string.find(s, p) }
    local g = select(2, string.gsub(s, p, "<%0>"))
    local m = {}
    for a in string.gmatch(s, p) do m[#m + 1] = tostring(a) end
    n = n + 1
    print(string.format("%q %q find=%s gsub=%d gmatch=%s", s, p,
          table.concat((function() local t = {} for i, v in ipairs(r) do t[i] = tostring(v) end return t end)(), ","),
          g, table.concat(m, "|")))
  end
end
print(n)
-- an error raised by a malformed class after an empty run still is raised
print(pcall(string.find, "aaa", "b*[a"))
print(pcall(string.find, "aaa", "a+%"))
