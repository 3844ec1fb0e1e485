-- lib/show.lua: printing helpers shared by the string/utf8 corpus scripts.
--   show(...)      prints its arguments through tostring, separated by spaces
--   perr(f, ...)   calls f(...), which must fail, and prints the error message
local M = {}

function M.show(...)
  local t = table.pack(...)
  for i = 1, t.n do t[i] = tostring(t[i]) end
  print(table.concat(t, " "))
end

function M.perr(f, ...)
  local ok, msg = pcall(f, ...)
  assert(not ok)
  print("error: " .. tostring(msg))
end

return M
