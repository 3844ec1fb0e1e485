-- Anchored one-class patterns ("^[ \n\r\t]*", "^%d+", "^.", ...) in find and
-- match: found as the class's run without the matcher.  Every neighbouring
-- shape that still takes the matcher must give the same answers and errors.
local subj = { "", " ", "   x", "\n\t\r y", "abc123", "123abc", "___", "a", "\0\0z", "--x" }
local pats = { "^[ \n\r\t]*", "^[ \n\r\t]+", "^[ \n\r\t]", "^[^%s]*", "^[^%s]+", "^[%a_]+",
               "^[%d]*", "^%d+", "^%d*", "^%d", "^%D+", "^%s*", "^%a+", "^%A*", "^%w",
               "^.", "^.*", "^.+", "^%z+", "^[%z]*", "^[-x]+", "^[]]*", "^[^]]+",
               "^%x+", "^%p*", "^%u", "^%l+" }
local out = {}
for _, p in ipairs(pats) do
  local line = {}
  for _, s in ipairs(subj) do
    for _, init in ipairs({ 1, 2, -1, -100, #s, #s + 1, #s + 2 }) do
      local a, b = string.find(s, p, init)
      local m = string.match(s, p, init)
      line[#line + 1] = tostring(a) .. ":" .. tostring(b) .. ":" .. tostring(m and #m)
    end
  end
  out[#out + 1] = p:gsub("[%c%z]", "?") .. " " .. table.concat(line, " ")
end
print(table.concat(out, "\n"))
-- shapes that take the matcher: captures, suffixes, more items, anchors at the end
print(("  ab"):find("^(%s*)"), ("  ab"):match("^(%s*)()"), ("aab"):find("^a-"), ("aab"):find("^a?"))
print(("abc"):find("^%a+$"), ("abc1"):find("^%a+$"), ("abc"):find("^%a*c"), ("(x)y"):find("^%b()"))
print(("ab"):find("^%f[%a]%a+"), ("aa"):find("^(a)%1"), ("x"):find("^x*"), ("xx"):find("^x+"))
-- malformed patterns raise as before
print(pcall(string.find, "abc", "^[a"))
print(pcall(string.find, "abc", "^%"))
print(pcall(string.find, "abc", "^[%"))
print(pcall(string.match, "abc", "^%1"))
print(pcall(string.find, "abc", "^%g+"), pcall(string.find, "abc", "^%b"))
-- a long subject, the scanner used as a skipper
local text = ("  \n\t"):rep(1000) .. "end"
local _, e = text:find("^[ \n\r\t]*")
print(e, text:sub(e + 1), text:find("^[ \n\r\t]*", e + 1), text:match("^%s*()", 3))
