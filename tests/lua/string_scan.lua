-- Pattern matching where the search loops skip start positions that the
-- pattern's first class cannot match (strlib.c pm_firstclass), and the
-- class runs of greedy repetitions (pm_run): find, match, gsub and gmatch
-- over many patterns and subjects, compared with lua5.4, errors included.
local pats = {"%a+", "%d", "[%w_]+", "x", "ab", "%s*", "%a-b", "[^%s]+", "%f[%w]%w+", "(%d+)-(%d+)", "%u", "%L+", ".", "a+b", "[a-c]+", "%x%x", "()a", "b?", "%p+", "$", "^a", "^%a+", "[]]", "[^]]+", "%%", "%.%d+", "%A+", "%C", "%W%w", "[%a%d]"}
local subs = {"", "a", "hello world 123", "ab ab aab b", "x=1, y=22; z=333", "  \t\n lead", "A-b C_d 12-34 ]]x", "%%.5 50%", "tail$", "üñí ascii", "aaab", "bbb", string.rep("ab1 ", 20)}
local out = {}
for _, p in ipairs(pats) do
  for _, s in ipairs(subs) do
    local r = {pcall(string.find, s, p)}
    out[#out+1] = table.concat({p, s, tostring(r[2]), tostring(r[3]), tostring(r[4])}, "|")
    r = {pcall(string.match, s, p, 2)}
    out[#out+1] = tostring(r[2])
    local ok, g, n = pcall(string.gsub, s, p, "<%0>")
    out[#out+1] = tostring(g) .. "/" .. tostring(n)
    ok, g, n = pcall(string.gsub, s, p, "#", 2)
    out[#out+1] = tostring(g) .. "/" .. tostring(n)
    local t = {}
    pcall(function() for a, b in s:gmatch(p) do t[#t+1] = tostring(a) .. ":" .. tostring(b) end end)
    out[#out+1] = table.concat(t, ",")
  end
end
print(#out)
for _, l in ipairs(out) do print(l) end
for _, p in ipairs({"%", "[a", "(%a", "%b", "%fa"}) do print(pcall(string.find, "abc", p)) print(pcall(string.gsub, "abc", p, "x", 0)) print(pcall(string.gsub, "", p, "x")) end
