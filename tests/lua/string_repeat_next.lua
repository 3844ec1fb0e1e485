-- Repetitions (*, +, -) whose continuation starts with a known byte try it
-- only where the subject holds that byte; results, captures and errors
-- must be those of trying every position.
local subjects = { "", "x", "a,b,,c", "key = value\nk2=v2\n", "((x))y)", "aaa:bbb:ccc",
  "1.5e10;2;", "a%b%c", "no newline", "\n\n\n", "a.b-c", "xx" .. ("a"):rep(300) .. ":" }
local pats = { "(.-),", ".-,", "(.-)\n", "(.*):", ".*:", "(%w+)%s*=%s*(%w+)", "(%a+):",
  "[^,]-,", "a-b", "(a-)%%", "%a*%.", "(.-)%-", "(.-)()x", "((.-))y", "(.-)%)", "(%d+)[;.]",
  ".-$", "(.-)$", "a+:", "(a*):", "(.+)(.)", "x(.-)x", "(.-)%w", ".-%%", "(.)-:", "(.*)%)" }
local function show(...)
  local t = table.pack(...)
  for i = 1, t.n do t[i] = string.format("%q", t[i]) end
  return table.concat(t, ",")
end
for _, s in ipairs(subjects) do
  for _, p in ipairs(pats) do
    local g = {}
    for a, b in s:gmatch(p) do g[#g + 1] = show(a, b) end
    print(show(s:sub(1, 20)), p, show(s:find(p)), show(s:match(p, 2)), table.concat(g, ";"),
          show(s:gsub(p, "[%1]")))
  end
end
-- a ')' with no open capture still raises where the try reaches it
for _, p in ipairs{ "a-)x", "a*)x", ".-)b", "(a)-)b" } do
  print(p, pcall(string.find, "aab", p), pcall(string.find, "", p))
end
-- deep nesting still reaches the complexity limit
local deep = ("(.-"):rep(150) .. "x" .. (")"):rep(150)
print(pcall(string.find, ("a"):rep(10) .. "x", deep))
print(pcall(string.match, ("a"):rep(300), ("a?"):rep(300) .. "b"))
