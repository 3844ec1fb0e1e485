-- matmul.lua: dense matrix products of float matrices held as tables of
-- rows (nested indexing, float multiply-add in the innermost loop).
-- usage: mvm bench/extra/matmul.lua [n]   (default 260)
-- Self-check: one element of (A*B)*A recomputed on its own.
local n = tonumber(arg and arg[1]) or 260
local function mk(f)
  local m = {}
  for i = 1, n do local r = {} for j = 1, n do r[j] = f(i, j) end m[i] = r end
  return m
end
local function mul(a, b)
  local c = {}
  for i = 1, n do
    local ci, ai = {}, a[i]
    for j = 1, n do
      local s = 0.0
      for k = 1, n do s = s + ai[k] * b[k][j] end
      ci[j] = s
    end
    c[i] = ci
  end
  return c
end
local a = mk(function(i, j) return (i - j) / n end)
local b = mk(function(i, j) return (i + j) / n end)
local c = mul(mul(a, b), a)
local i0, j0 = n // 2, n // 3
local e = 0.0
for k = 1, n do
  local abk = 0.0
  for l = 1, n do abk = abk + a[i0][l] * b[l][k] end
  e = e + abk * a[k][j0]
end
assert(math.abs(e - c[i0][j0]) <= 1e-9 * math.max(1, math.abs(e)), "element " .. e)
print(string.format("matmul: %dx%d, c[%d][%d] = %.6f", n, n, i0, j0, c[i0][j0]))
