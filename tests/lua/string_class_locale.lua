-- Class runs read the locale's ctype table once per find, gmatch step and
-- gsub iteration (strlib pm_setctab): a replacement function or a loop
-- body that calls os.setlocale between matches must not leave a stale
-- table behind.  (Only C locales may exist here, so the answers agree
-- with any locale; the paths run.)
local text = "alpha Beta_12 gamma-3 DELTA\t\0eps\200\255 zeta9 "
local locales = { "C", "POSIX", "C.UTF-8", "C" }
local n = 0
local r, k = text:gsub("%a+", function(w)
  n = n + 1
  os.setlocale(locales[n % #locales + 1], "ctype")
  return w:upper() .. "#"
end)
print(r:gsub("%z", "<0>"), k)
os.setlocale("C")
local ws = {}
for w in text:gmatch("%w+") do
  ws[#ws + 1] = w
  os.setlocale(locales[#ws % #locales + 1], "ctype")
end
print(table.concat(ws, "|"))
os.setlocale("C")
for _, cl in ipairs({ "%a", "%A", "%d", "%D", "%s", "%S", "%w", "%W", "%p", "%P",
                      "%l", "%L", "%u", "%U", "%x", "%X", "%c", "%C", "%g", "%G" }) do
  local a, b = text:find(cl .. "+")
  local c = select(2, text:gsub(cl .. "+", ""))
  local t = {}
  for m in text:gmatch(cl .. "+") do t[#t + 1] = #m end
  print(cl, a, b, c, table.concat(t, ","))
end
