-- spectral_norm.lua: spectral norm of the infinite matrix A(i,j) = 1/((i+j)(i+j+1)/2+i+1)
-- by the power method (float loops, calls to a small function).
-- usage: mvm bench/spectral_norm.lua [n]   (default 600)
-- Self-check: n = 100 has a known result; every n >= 10 lies within 5e-3
-- of the limit 1.274224153 (the norm converges quickly with n).
local n = tonumber(arg and arg[1]) or 600

local function A(i, j)
  local ij = i + j - 1
  return 1.0 / (ij * (ij - 1) * 0.5 + i)
end

local function Av(x, y, N)
  for i = 1, N do
    local a = 0
    for j = 1, N do a = a + x[j] * A(i, j) end
    y[i] = a
  end
end

local function Atv(x, y, N)
  for i = 1, N do
    local a = 0
    for j = 1, N do a = a + x[j] * A(j, i) end
    y[i] = a
  end
end

local function AtAv(x, y, t, N)
  Av(x, t, N)
  Atv(t, y, N)
end

local u, v, t = {}, {}, {}
for i = 1, n do u[i] = 1 end
for _ = 1, 10 do AtAv(u, v, t, n) AtAv(v, u, t, n) end
local vBv, vv = 0, 0
for i = 1, n do
  local ui, vi = u[i], v[i]
  vBv = vBv + ui * vi
  vv = vv + vi * vi
end
local r = math.sqrt(vBv / vv)
local s = string.format("%0.9f", r)
if n == 100 then assert(s == "1.274219991", "n=100 gave " .. s) end
if n >= 10 then assert(math.abs(r - 1.274224153) < 5e-3, "norm " .. s) end
print(s)
