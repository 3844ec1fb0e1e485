-- math.sqrt, math.floor and math.abs called with one argument for one result
-- run inline in compiled code (llvmgen.c builtincall) when the callee is the
-- library's function: every kind of argument (integers at the immediates'
-- edges, floats, NaN and -0.0, infinities, strings, non-numbers), the
-- integer/float type of each result, and callees that only look like
-- builtins (a replaced math.floor, a local named sqrt).
local sqrt, floor, abs = math.sqrt, math.floor, math.abs
local function f(x) return sqrt(x), math.floor(x), abs(x) end
local function g(x) local a = sqrt(x) local b = floor(x) local c = abs(x) local d = math.abs(x) return a, b, c, d end
local vals = {4, 2.25, -3, -3.5, 0, -0.0, 1/0, -1/0, 0/0, -(0/0), 2^47, -2^47, 2^53, 2^63, -2^63, 1e300, 3.9999999, -7.5, math.maxinteger, math.mininteger, 140737488355327, -140737488355328, "16", "x"}
for r = 1, 3 do
  for _, v in ipairs(vals) do
    local ok, a, b, c, d = pcall(g, v)
    if r == 3 then print(v, math.type(v), ok, a, math.type(a), b, math.type(b), c, math.type(c), d) end
  end
end
-- a replaced builtin and a local of the same name
math.floor = function(x) return "mine" .. tostring(x) end
print(pcall(g, 2.5))
local sqrt = function(x) return -x end
local function h(x) return sqrt(x) end
print(h(9), h(9))
-- in a loop that gets compiled, with the argument changing kind mid-loop
local function loop(n)
  local s, t = 0, 0
  for i = 1, n do
    local x = (i % 7 == 0) and (i + 0.5) or i
    s = s + math.sqrt(x) + abs(-x)
    t = t + (math.type(floor(x / 3)) == "integer" and 1 or 0)
  end
  return s, t
end
for _ = 1, 3 do print(loop(2000)) end
print(pcall(abs, nil), pcall(abs, {}))
