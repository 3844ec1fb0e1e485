-- Differential fuzz of table.insert/remove/move/concat/unpack/sort on small sequences.
local st = 5
local function rnd(n) st = (st * 1103515245 + 12345) % 2147483648 return st % n + 1 end
local function show(t, n) local r = {} for i = 1, n do r[i] = tostring(t[i]) end return table.concat(r, ",") end
for iter = 1, 800 do
  local n = rnd(8) - 1
  local t = {} for i = 1, n do t[i] = rnd(20) end
  local op = rnd(7)
  local res
  if op == 1 then local p = rnd(n + 3) - 1 res = {pcall(table.insert, t, p, 99)}
  elseif op == 2 then local p = rnd(n + 3) - 1 res = {pcall(table.remove, t, p)}
  elseif op == 3 then local f, e, d = rnd(n + 2) - 1, rnd(n + 2) - 1, rnd(n + 4) - 2 res = {pcall(table.move, t, f, e, d)} res[2] = nil
  elseif op == 4 then local i, j = rnd(n + 3) - 2, rnd(n + 3) - 2 res = {pcall(table.concat, t, "-", i, j)}
  elseif op == 5 then local i, j = rnd(n + 3) - 2, rnd(n + 3) - 2 res = {pcall(table.unpack, t, i, j)}
  elseif op == 6 then res = {pcall(table.sort, t, rnd(2) == 1 and function(a, b) return a > b end or nil)}
  else res = {#t, select('#', table.unpack(t))} end
  for k = 1, #res do res[k] = tostring(res[k]) end
  print(iter, op, show(t, n + 2), table.concat(res, " "))
end
