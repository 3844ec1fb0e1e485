-- Runs of single-character classes (%a+, %S*, ...) and the search for the
-- first position where a pattern's leading class matches, for every class
-- letter in both cases, escaped literals and all 256 byte values.
local bytes = {}
for i = 0, 255 do bytes[#bytes + 1] = string.char((i * 37) % 256) end
local all = table.concat(bytes)
-- a subject with runs of varied length
local parts = {}
for i = 1, 300 do
  local c = (i * 53) % 256
  parts[#parts + 1] = string.char(c):rep(i % 5 + 1)
end
local mixed = all .. table.concat(parts) .. "abc DEF 123 x_y\t\n\0\0zz..%%BB"

local function sum(s)
  local h = 0
  for i = 1, #s do h = (h * 31 + s:byte(i)) % 1000000007 end
  return h
end

local letters = "acdglpsuwxzACDGLPSUWXZ.%B_bqQ1"
for k = 1, #letters do
  local l = letters:sub(k, k)
  if l ~= "1" and l ~= "b" then
    local cl = "%" .. l
    local out = {}
    for _, subj in ipairs({ all, mixed, "", "\0", "a", "Z9" }) do
      local r1, n1 = subj:gsub(cl .. "+", "<%0>")
      local r2, n2 = subj:gsub(cl .. "*", "|")
      local r3, n3 = subj:gsub(cl, "")
      local g, ng = {}, 0
      for w in subj:gmatch(cl .. "+") do ng = ng + 1; g[#g + 1] = w end
      local f1, f2 = subj:find(cl .. cl)
      local f3 = subj:find(cl .. "+", 7)
      local m = subj:match("(" .. cl .. "+)x?$")
      out[#out + 1] = string.format("%d:%d %d:%d %d:%d %d:%d %s %s %s %s",
        n1, sum(r1), n2, sum(r2), n3, sum(r3), ng, sum(table.concat(g, ",")),
        tostring(f1), tostring(f2), tostring(f3), m and sum(m) or "nil")
    end
    print(cl, table.concat(out, " / "))
  end
end
-- %b, %f and back references keep their own paths
print(("((a)(b))x"):find("%b()"), ("THE (quick) fox"):find("%f[%a]%a+", 5),
      ("abcabc"):match("(a%a)c%1"))
print(pcall(string.gsub, "abc", "%", "x"))
-- a leading frontier %f[set]: positions where the byte is not in the set
-- are skipped by find/gmatch/gsub; the end of the subject is still tried
local fsubj = { "THE (quick) fox, 12.5:7 jumps;over\0the lazy dog 99", "", "a", " ", "x9." }
for _, fp in ipairs({ "%f[%a]%a+", "%f[%A]", "%f[%w]", "%f[^%w]", "%f[%z]", "%f[%d.](%d+):?",
                      "%f[^%s]", "%f[a-z]", "%f[%]]", "%f[%S]*", "%f[%a]x?" }) do
  local out = {}
  for _, subj in ipairs(fsubj) do
    local r, n = subj:gsub(fp, "<%0>")
    local g = {}
    for a in subj:gmatch(fp) do g[#g + 1] = a end
    local f1, f2 = subj:find(fp)
    local f3, f4 = subj:find(fp, 4)
    out[#out + 1] = string.format("%q %d [%s] %s %s %s %s", r, n, table.concat(g, "|"),
      tostring(f1), tostring(f2), tostring(f3), tostring(f4))
  end
  print(fp, table.concat(out, " / "))
end
print(pcall(string.find, "abc", "%f[%a"), pcall(string.gsub, "abc", "%f", "x"),
      pcall(string.gmatch("abc", "%fa")))
-- leading captures before the first class: '(' and '()' consume nothing
local csubj = { "ab 12 cd 345 (x) ef6", "", "9", "((()))", "zzz" }
for _, cp in ipairs({ "(%d+)", "()(%d)", "(()%a)(%d?)", "((%a)%d*)", "(((((((((%d)))))))))",
                      "((((((((%d))))))))", "()", "()$", "(%()", "(.-)%d", "(%a*)", "([%d%(])",
                      "(z)z", "()()()%d", "(x?)" }) do
  local out = {}
  for _, subj in ipairs(csubj) do
    local r, n = subj:gsub(cp, "<%1>")
    local g = {}
    for a, b in subj:gmatch(cp) do g[#g + 1] = tostring(a) .. "," .. tostring(b) end
    out[#out + 1] = string.format("%q %d [%s] %s", r, n, table.concat(g, "|"),
      table.concat({ tostring(subj:find(cp)), tostring((select(3, subj:find(cp, 3)))) }, ","))
  end
  print(cp, table.concat(out, " / "))
end
for _, bad in ipairs({ "(", "(%", "(()", "((%b", "([a", "(%1)" }) do
  print(bad, select(2, pcall(string.find, "abc", bad)), select(2, pcall(string.gsub, "abc", bad, "")),
        select(2, pcall(function() for _ in ("abc"):gmatch(bad) do end end)))
end
