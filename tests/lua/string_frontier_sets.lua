-- Leading frontiers (%f[set]) and long set scans: searches skip to the
-- positions where the frontier holds, and set scans past 48 bytes read a
-- table of the set; results must be those of the plain matcher.
local long = ("word1 2.5 x_y " .. ("z"):rep(60) .. " 77.\n"):rep(30)
local subjects = { "", "a", "1", "THE (quick) brown fox", "..1.2.3..", long,
  ("a"):rep(100) .. "1", ("1"):rep(100) .. "a", "\0\0a\0b", ("\0"):rep(70) .. "x" }
local pats = { "%f[%a]%a+", "%f[%A]", "%f[%d.](%d+)", "%f[%w]%w+", "%f[^%s]", "%f[%z]", "%f[%Z]",
  "()%f[%a]", "%f[a-z]", "%f[^\0]%w*", "%f[%.]", "%f[]]", "%f[x_]", "%f[%s]%s*%d",
  "[%d.]+", "[^\n]+", "[%w_]+", "[%z]", "[^%z]+", "[a-z%d]*1", "[^z]z", "[.]", "[%p]+", "[%]]" }
for i, s in ipairs(subjects) do
  for _, p in ipairs(pats) do
    local g, n = {}, 0
    for a, b in s:gmatch(p) do
      n = n + 1
      if n <= 5 or n % 17 == 0 then g[#g + 1] = tostring(a) .. "/" .. tostring(b) end
    end
    local r, c = s:gsub(p, "<%0>")
    print(i, p, n, table.concat(g, ","), s:find(p), s:find(p, 40), c, #r, r:sub(1, 40), (r:sub(-30)))
  end
end
print(pcall(string.find, "abc", "%f[a"))
print(pcall(string.find, "abc", "%fa"))
print(pcall(string.gsub, "abc", "%f", ""))
