-- mandelbrot.lua: counts the points of a w x w grid over [-1.5,0.5]x[-1,1]
-- that stay bounded for 50 iterations (float loops, no allocation).
-- usage: mvm bench/mandelbrot.lua [w]   (default 1000)
-- Self-check: the grid is symmetric about the real axis exactly (row y has
-- ci = -(ci of row w-1-y) bit for bit), so mirrored rows must count the same;
-- sizes used by bench/run also have a known total.
local w = tonumber(arg and arg[1]) or 1000
local h = w
local iter = 50
local known = { [16] = 102, [40] = 636, [100] = 3996, [1000] = 397064 }

local half = (h - 1) / 2           -- exact: a half-integer
local rows = {}
local total = 0
for y = 0, h - 1 do
  local ci = (y - half) * (2.0 / h)
  local count = 0
  for x = 0, w - 1 do
    local cr = x * (2.0 / w) - 1.5
    local zr, zi, zr2, zi2 = 0.0, 0.0, 0.0, 0.0
    local inside = true
    for _ = 1, iter do
      zi = 2.0 * zr * zi + ci
      zr = zr2 - zi2 + cr
      zr2 = zr * zr
      zi2 = zi * zi
      if zr2 + zi2 > 4.0 then inside = false; break end
    end
    if inside then count = count + 1 end
  end
  rows[y] = count
  total = total + count
end
for y = 0, h - 1 do
  assert(rows[y] == rows[h - 1 - y], "rows " .. y .. " and " .. (h - 1 - y) .. " differ")
end
if known[w] then assert(total == known[w], "w=" .. w .. ": " .. total .. " points, expected " .. known[w]) end
print(string.format("mandelbrot %dx%d: %d points", w, h, total))
