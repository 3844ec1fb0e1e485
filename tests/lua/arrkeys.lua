-- Integer keys read and written through the array part and around it:
-- 0, negatives, the array's size and one past it, the immediate range's
-- ends, boxed integers, floats with integer values, non-number keys.
local t = {10, 20, 30, 40}
local keys = {0, -1, 1, 4, 5, 2^47 - 1, -2^47, 2^47, math.maxinteger,
              math.mininteger, 1.0, 4.0, 1.5, "1", true}
for _, k in ipairs(keys) do
  local kk = math.tointeger(k) or k
  print(tostring(kk), t[kk])
end
for n, k in ipairs(keys) do
  local kk = math.tointeger(k) or k
  t[kk] = n
end
for _, k in ipairs(keys) do
  local kk = math.tointeger(k) or k
  print(tostring(kk), t[kk])
end
print(#t)
-- nil slots in the array part with and without metamethods
local u = {1, 2, 3, 4, 5}
u[3] = nil
print(u[3], #u == 5 or #u == 2)
setmetatable(u, {__index = function(_, k) return "idx" .. k end,
                 __newindex = function(tt, k, v) rawset(tt, k, v * 100) end})
print(u[3], u[6], u[0], u[-1])
u[3] = 7; u[6] = 8; u[1] = 9
print(u[1], u[3], u[6], rawget(u, 0))
-- writes growing and shrinking the array part
local g = {}
for i = 1, 20 do g[i] = i end
for i = 20, 11, -1 do g[i] = nil end
print(#g, g[10], g[11])
for i = 1, 10 do g[i] = nil end
print(next(g))
-- errors keep their messages and lines
print(pcall(function() local x = nil; return x[1] end))
print(pcall(function() local x = 5; x[1] = 2 end))
print(pcall(function() local x = {}; x[0/0] = 1 end))
print(pcall(function() local x = {}; x[nil] = 1 end))
