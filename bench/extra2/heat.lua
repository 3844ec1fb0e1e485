-- heat.lua: 2D float grids: explicit finite-difference heat diffusion on an
-- N x N grid stored as rows (tables of tables) with two buffers swapped
-- each step, fixed boundary values, plus a 1D wave equation in flat arrays;
-- float arithmetic on array elements with neighbour reads.
-- usage: mvm bench/extra2/heat.lua [N]   (default 140)
-- Self-check: the total heat obeys the boundary-flux balance computed along
-- the way, the grid stays within the boundary bounds, symmetry holds, and
-- the wave's energy stays bounded.
local N = tonumber(arg and arg[1]) or 140
local steps = 300

local function grid(v)
  local g = {}
  for i = 1, N do
    local row = {}
    for j = 1, N do row[j] = v end
    g[i] = row
  end
  return g
end
local a, b = grid(0.0), grid(0.0)
for _, g in ipairs({a, b}) do
  for j = 1, N do g[1][j] = 100.0 g[N][j] = 100.0 end   -- hot top and bottom
end
local r = 0.2
local flux = 0.0
for _ = 1, steps do
  for i = 2, N - 1 do
    local up, row, down, out = a[i - 1], a[i], a[i + 1], b[i]
    for j = 2, N - 1 do
      local c = row[j]
      out[j] = c + r * (up[j] + down[j] + row[j - 1] + row[j + 1] - 4.0 * c)
    end
  end
  -- heat entering the interior from the boundary in this step
  for j = 2, N - 1 do
    flux = flux + r * ((a[1][j] - a[2][j]) + (a[N][j] - a[N - 1][j]))
    flux = flux + r * ((a[j][1] - a[j][2]) + (a[j][N] - a[j][N - 1]))
  end
  a, b = b, a
end
local total, lo, hi, asym = 0.0, math.huge, -math.huge, 0.0
for i = 2, N - 1 do
  local row = a[i]
  for j = 2, N - 1 do
    local v = row[j]
    total = total + v
    if v < lo then lo = v end
    if v > hi then hi = v end
    asym = math.max(asym, math.abs(v - a[N + 1 - i][j]), math.abs(v - row[N + 1 - j]))
  end
end
assert(math.abs(total - flux) <= 1e-6 * flux, string.format("heat %.9f vs flux %.9f", total, flux))
assert(lo >= 0.0 and hi <= 100.0, "bounds")
assert(asym < 1e-9, "symmetry " .. asym)

-- 1D wave equation, leapfrog, flat arrays
local M = N * N // 4
local u0, u1, u2 = {}, {}, {}
for i = 1, M do
  local x = (i - 1) / (M - 1)
  local v = math.exp(-200.0 * (x - 0.5) ^ 2)
  u0[i], u1[i], u2[i] = v, v, 0.0
end
local c2 = 0.25
local wsteps = steps * 4
for _ = 1, wsteps do
  for i = 2, M - 1 do
    u2[i] = 2.0 * u1[i] - u0[i] + c2 * (u1[i - 1] - 2.0 * u1[i] + u1[i + 1])
  end
  u0, u1, u2 = u1, u2, u0
end
local energy = 0.0
for i = 1, M do energy = energy + u1[i] * u1[i] end
assert(energy > 0 and energy < M, "wave energy " .. energy)
print(string.format("heat: %dx%d grid, %d steps, heat %.6f, range %.4f..%.4f, wave energy %.6f",
                    N, N, steps, total, lo, hi, energy))
