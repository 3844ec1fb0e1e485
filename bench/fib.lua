-- fib.lua: recursive Fibonacci, measures calls and integer arithmetic.
-- usage: mvm bench/fib.lua [n]   (default 35)
local n = tonumber(arg and arg[1]) or 35

local function fib(k)
  if k < 2 then return k end
  return fib(k - 1) + fib(k - 2)
end

local r = fib(n)
-- self-check against the closed-form iteration
local a, b = 0, 1
for _ = 1, n do a, b = b, a + b end
assert(r == a, "fib(" .. n .. ") gave " .. tostring(r) .. ", expected " .. a)
assert(math.type == nil or math.type(r) == "integer")   -- (LuaJIT has no math.type)
print(string.format("fib(%d) = %d", n, r))
