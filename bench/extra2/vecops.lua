-- vecops.lua: operator overloading through metatables: a 3-vector class and
-- a complex-number class with __add/__sub/__mul/__div/__unm/__eq/__len/
-- __index/__call, each operation allocating a fresh object (short-lived
-- small tables, arithmetic metamethods dispatched from the VM).
-- usage: mvm bench/extra2/vecops.lua [n]   (default 120000)
-- Self-check: the same sums computed with plain numbers.
local n = tonumber(arg and arg[1]) or 120000

local Vec = {}
Vec.__index = Vec
local function vec(x, y, z) return setmetatable({x = x, y = y, z = z}, Vec) end
Vec.__add = function(a, b) return vec(a.x + b.x, a.y + b.y, a.z + b.z) end
Vec.__sub = function(a, b) return vec(a.x - b.x, a.y - b.y, a.z - b.z) end
Vec.__mul = function(a, b)
  if type(a) == "number" then return vec(a * b.x, a * b.y, a * b.z) end
  if type(b) == "number" then return vec(a.x * b, a.y * b, a.z * b) end
  return a.x * b.x + a.y * b.y + a.z * b.z          -- dot product
end
Vec.__unm = function(a) return vec(-a.x, -a.y, -a.z) end
Vec.__eq = function(a, b) return a.x == b.x and a.y == b.y and a.z == b.z end
Vec.__len = function(a) return math.sqrt(a.x * a.x + a.y * a.y + a.z * a.z) end
function Vec:cross(b)
  return vec(self.y * b.z - self.z * b.y, self.z * b.x - self.x * b.z, self.x * b.y - self.y * b.x)
end

local Cx = {}
Cx.__index = Cx
local function cx(re, im) return setmetatable({re, im}, Cx) end
Cx.__add = function(a, b) return cx(a[1] + b[1], a[2] + b[2]) end
Cx.__mul = function(a, b) return cx(a[1] * b[1] - a[2] * b[2], a[1] * b[2] + a[2] * b[1]) end
Cx.__div = function(a, b)
  local d = b[1] * b[1] + b[2] * b[2]
  return cx((a[1] * b[1] + a[2] * b[2]) / d, (a[2] * b[1] - a[1] * b[2]) / d)
end
Cx.__call = function(a) return a[1] * a[1] + a[2] * a[2] end   -- squared modulus
function Cx:conj() return cx(self[1], -self[2]) end

-- vector part: a particle pulled towards the origin, with cross products
local function vecrun(steps)
  local p, v = vec(1, 0, 0.5), vec(0, 1, 0)
  local axis = vec(0, 0, 1)
  local acc, eqs = 0, 0
  for _ = 1, steps do
    local f = -p * 0.01 + p:cross(axis) * 0.001
    v = v * 0.999 + f
    p = p + v * 0.01
    acc = acc + #p + p * v
    if -(-p) == p then eqs = eqs + 1 end
  end
  return acc, eqs
end
local function vecplain(steps)
  local px, py, pz, vx, vy, vz = 1, 0, 0.5, 0, 1, 0
  local acc = 0
  for _ = 1, steps do
    local cxx, cy, cz = py * 1 - pz * 0, pz * 0 - px * 1, px * 0 - py * 0
    local fx = (-px) * 0.01 + cxx * 0.001
    local fy = (-py) * 0.01 + cy * 0.001
    local fz = (-pz) * 0.01 + cz * 0.001
    vx, vy, vz = vx * 0.999 + fx, vy * 0.999 + fy, vz * 0.999 + fz
    px, py, pz = px + vx * 0.01, py + vy * 0.01, pz + vz * 0.01
    acc = acc + math.sqrt(px * px + py * py + pz * pz) + (px * vx + py * vy + pz * vz)
  end
  return acc
end

-- complex part: iterate z -> z*z + c / (1 + |z|^2) over a small grid
local function cxrun(m)
  local total = 0
  local one = cx(1, 0)
  for i = 1, m do
    local c = cx((i % 17) / 17 - 0.5, (i % 13) / 13 - 0.5)
    local z = cx(0, 0)
    for _ = 1, 8 do
      z = z * z + c / (one + cx(z(), 0))
    end
    total = total + z() + (z * z:conj())[1]
  end
  return total
end
local function cxplain(m)
  local total = 0
  for i = 1, m do
    local cr, ci = (i % 17) / 17 - 0.5, (i % 13) / 13 - 0.5
    local zr, zi = 0, 0
    for _ = 1, 8 do
      local d = 1 + (zr * zr + zi * zi)
      local qr, qi = (cr * d) / (d * d), (ci * d) / (d * d)
      zr, zi = zr * zr - zi * zi + qr, zr * zi + zi * zr + qi
    end
    local m2 = zr * zr + zi * zi
    total = total + m2 + (zr * zr + zi * zi)
  end
  return total
end

local acc, eqs = vecrun(n)
local want = vecplain(n)
assert(math.abs(acc - want) <= 1e-9 * math.abs(want) + 1e-9, "vector sum " .. acc .. " vs " .. want)
assert(eqs == n, "equalities " .. eqs)
local ct = cxrun(n // 4)
local cwant = cxplain(n // 4)
assert(math.abs(ct - cwant) <= 1e-9 * math.abs(cwant) + 1e-9, "complex sum " .. ct .. " vs " .. cwant)
print(string.format("vecops: %d vector steps, %d complex points, sums %.6f %.6f", n, n // 4, acc, ct))
