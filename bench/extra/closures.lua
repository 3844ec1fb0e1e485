-- closures.lua: map/filter/reduce with function arguments and counters
-- made of closures (calls of small Lua functions from a loop, upvalues).
-- usage: mvm bench/extra/closures.lua [n]   (default 3000000)
-- Self-check: the same total computed with plain loops.
local n = tonumber(arg and arg[1]) or 3000000
local function map(t, f) local r = {} for i = 1, #t do r[i] = f(t[i]) end return r end
local function filter(t, f)
  local r = {}
  for i = 1, #t do if f(t[i]) then r[#r + 1] = t[i] end end
  return r
end
local function reduce(t, f, acc) for i = 1, #t do acc = f(acc, t[i]) end return acc end
local function counter() local c = 0 return function() c = c + 1 return c end end
local total = 0
for round = 1, 10 do
  local t = {}
  local nextid = counter()
  for i = 1, n // 10 do t[i] = nextid() * round end
  local sq = map(t, function(x) return x * x % 1000 end)
  local ev = filter(sq, function(x) return x % 2 == 0 end)
  total = total + reduce(ev, function(a, b) return a + b end, 0)
end
local check = 0
for round = 1, 10 do
  for i = 1, n // 10 do
    local x = (i * round) * (i * round) % 1000
    if x % 2 == 0 then check = check + x end
  end
end
assert(total == check, "total " .. total .. " ~= " .. check)
print(string.format("closures: %d", total))
