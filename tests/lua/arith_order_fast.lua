-- Arithmetic and order comparisons on every pairing of immediates, floats
-- (incl. -0.0, inf, NaN), boxed integers, strings and tables with
-- metamethods: the fast paths (two immediates in one tag test, floats
-- tested on the whole word) must agree with the general ones.
local nan = 0/0
local vals = {0, 1, -1, 3, -7, 2^47 - 1, -2^47, 2^47, -2^47 - 1,
              math.maxinteger, math.mininteger, 0.0, -0.0, 0.5, -2.5, 1e300,
              -1e300, 1/0, -1/0, nan, 2^53, 2^63, "10", "0x10", " 3.5 "}
local function show(x)
  if x ~= x then return "nan" end
  if math.type(x) == "float" then return string.format("%.17g", x) .. "f" end
  return tostring(x)
end
for i = 1, #vals do
  local a = math.tointeger(vals[i]) or vals[i]
  if i <= 11 and type(a) == "number" then a = math.tointeger(a) or a end
  local row = {}
  for j = 1, #vals do
    local b = math.tointeger(vals[j]) or vals[j]
    if j >= 12 and j <= 21 then b = vals[j] + 0.0 end
    local ok1, lt = pcall(function() return a < b end)
    local ok2, le = pcall(function() return a <= b end)
    local r = (ok1 and (lt and "<" or ".") or "E") .. (ok2 and (le and "=" or ".") or "E")
    if type(a) == "number" and type(b) == "number" then
      r = r .. ":" .. show(a + b) .. "," .. show(a - b) .. "," .. show(a * b)
    end
    row[#row + 1] = r
  end
  print(show(a), table.concat(row, " "))
end
-- comparisons in both branch senses and negated
local f, g = 1.5, 2.5
local n = 0
for i = 1, 10 do
  if f < g then n = n + 1 end
  if not (f < g) then n = n + 100 end
  if g <= f then n = n + 1000 end
  if nan < f or nan <= f or f < nan or f <= nan then n = n + 10000 end
  if not (nan < f) then n = n + 2 end
  f = f + 0.25
end
print(n, f)
-- integer overflow wraps, in loops and straight
local big = math.maxinteger
print(big + 1 == math.mininteger, big * 2, math.mininteger - 1, (2^47 - 1) + 1, -(2^47) - 1)
local acc = 1
for i = 1, 70 do acc = acc * 3 end
print(acc)
local m1, m2 = 140737488355327, 2
print(m1 + m1, m1 * m2, m1 - (-m1), -m1 - m1 - 2)
-- metamethods still run for tables and strings that do not convert
local mt = {__lt = function(a, b) return a.v < b.v end, __le = function(a, b) return a.v <= b.v end,
            __add = function(a, b) return "add" end}
local A, B = setmetatable({v = 1}, mt), setmetatable({v = 2}, mt)
print(A < B, B < A, A <= B, B <= A, A + 1, 1 + A)
print(pcall(function() return {} < 1 end))
print(pcall(function() return 1 < "2" end))
print(pcall(function() return "a" + 1 end))
print("10" + 1, "0x10" * 2, "3" < "10", "a" <= "a", "" < "a")
