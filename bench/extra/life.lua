-- life.lua: Conway's game of life on a 64x64 torus (2-D tables, neighbour
-- sums, a new grid each generation).
-- usage: mvm bench/extra/life.lua [generations]   (default 1200)
-- Self-check: a glider placed in an empty corner of the start grid moves
-- one cell diagonally every 4 generations.
local W, H, gens = 64, 64, tonumber(arg and arg[1]) or 1200
local function grid(f)
  local g = {}
  for y = 1, H do g[y] = {} for x = 1, W do g[y][x] = f(x, y) end end
  return g
end
local function step(g)
  local n = {}
  for y = 1, H do
    local row, up, dn = {}, g[(y - 2) % H + 1], g[y % H + 1]
    local cur = g[y]
    for x = 1, W do
      local l, r = (x - 2) % W + 1, x % W + 1
      local s = up[l] + up[x] + up[r] + cur[l] + cur[r] + dn[l] + dn[x] + dn[r]
      row[x] = (s == 3 or (s == 2 and cur[x] == 1)) and 1 or 0
    end
    n[y] = row
  end
  return n
end
-- the glider alone: after 4k generations it is the same shape moved by k
local glider = { {2, 1}, {3, 2}, {1, 3}, {2, 3}, {3, 3} }
local g = grid(function() return 0 end)
for _, c in ipairs(glider) do g[c[2]][c[1]] = 1 end
for _ = 1, 40 do g = step(g) end
for _, c in ipairs(glider) do assert(g[c[2] + 10][c[1] + 10] == 1, "glider") end
g = grid(function(x, y) return ((x * 7 + y * 13) % 5 == 0) and 1 or 0 end)
for _ = 1, gens do g = step(g) end
local alive = 0
for y = 1, H do for x = 1, W do alive = alive + g[y][x] end end
print(string.format("life: %d generations, %d alive", gens, alive))
