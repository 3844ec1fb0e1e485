-- Pattern shapes with fast paths in strlib: a lone class or class+ (no
-- pm_match), '%'-free gsub replacements, lazy and greedy items followed by
-- a literal (candidate positions skipped), and their neighbours that must
-- take the general path.
local subjects = { "", "a", "abc", "  hello world  ", "x1y22z333", "a\0b\0c", "%%a%%",
  "line one\nline two\n\nlast", "((a)(b))", "aaa", "a.b.c", "[x]-[y]", "9" }
local pats = { "%a", "%a+", "%d", "%d+", ".", ".+", "[%a%d]", "[^%s]+", "\0", "%z+",
  "a", "a+", "[a-c]+", "%%", "%.", "%s+", "x", "%w+", "[%]]", "%A+",
  "(.-)\n", "(.-)%s", ".-b", "a.-c", "(%a+)%s*", "%d+z", "%a+%d", "^%a+", "%a+$",
  "()a", "(a)", "%f[%a]%a+", "%b()", "a-", "a*", "a?", "[%d.]+", "(.-)$", "%s-\n", "(%d-)z" }
local function show(...)
  local t = table.pack(...)
  for i = 1, t.n do t[i] = string.format("%q", t[i]) end
  return table.concat(t, ",")
end
for _, s in ipairs(subjects) do
  for _, p in ipairs(pats) do
    local out = { show(s:find(p)), show(s:find(p, 2)), show(s:match(p)), show(s:match(p, -2)) }
    local g = {}
    for a, b in s:gmatch(p) do g[#g + 1] = show(a, b) end
    out[#out + 1] = table.concat(g, ";")
    out[#out + 1] = show(s:gsub(p, "<>"))
    out[#out + 1] = show(s:gsub(p, "<%0>", 2))
    out[#out + 1] = show(s:gsub(p, ""))
    out[#out + 1] = show(s:gsub(p, { a = "A", abc = false, ["1"] = 1 }))
    out[#out + 1] = show(s:gsub(p, function(x) if x == "a" then return nil end return "#" end))
    print(show(s), show(p), table.concat(out, " | "))
  end
end
-- long subjects: runs across many positions, the short/long hashing edge
for _, n in ipairs{ 255, 256, 257, 1000, 5000 } do
  local s = ("ab1 "):rep(n // 4) .. ("x"):rep(n % 4)
  local c1 = select(2, s:gsub("%d", "#"))
  local c2 = select(2, s:gsub("%a+", "w"))
  local c3, last = 0, nil
  for w in s:gmatch("%a+") do c3 = c3 + 1; last = w end
  local lines = 0
  for l in (s:gsub(" ", "\n") .. "\n"):gmatch("(.-)\n") do lines = lines + #l end
  print(n, #s, c1, c2, c3, last, lines, s:find("x", 1, true), s:find("1 ab", 3), #s:gsub("b", "bb"))
end
-- errors keep their messages
for _, p in ipairs{ "[a", "%", "(a", "a)", "%b", "%f", "%1" } do
  print(p, select(2, pcall(string.gsub, "abc", p, "x")))
  print(p, select(2, pcall(string.find, "abc", p)))
  print(p, pcall(function() for _ in ("abc"):gmatch(p) do end end))
end
print(pcall(string.gsub, "abc", "%a", "%2"))
print(pcall(string.gsub, "abc", "%a", "%"))
print(("abc"):gsub("%w", "%%%0%%"))
print(("abc"):gsub("", "-"))
print(pcall(string.gsub, "abc", ".", { a = true }))
