-- varargs.lua: variadic functions: select('#', ...), select(i, ...),
-- table.pack/table.unpack, forwarding of ... through wrappers, multiple
-- results adjusted in calls, constructors and returns.
-- usage: mvm bench/extra2/varargs.lua [n]   (default 300000)
-- Self-check: every sum against its closed form.
local n = tonumber(arg and arg[1]) or 300000
local select, pack, unpack = select, table.pack, table.unpack

local function sum(...)
  local s = 0
  for i = 1, select("#", ...) do s = s + (select(i, ...)) end
  return s
end
local function sumpack(...)
  local t = pack(...)
  local s = 0
  for i = 1, t.n do s = s + t[i] end
  return s, t.n
end
local function count(...) return select("#", ...) end
local function forward(f, ...) return f(...) end
local function twice(...) return forward(sum, ...) + forward(sumpack, ...) end
local function spread(a, ...) if a == nil then return end return a * 2, spread(...) end
local function rotate(first, ...)
  local t = pack(...)
  t[t.n + 1] = first
  return unpack(t, 1, t.n + 1)
end
local function last(...) return (select(-1, ...)) end
local function minmax(...)
  local lo, hi = math.huge, -math.huge
  for _, v in ipairs({...}) do
    if v < lo then lo = v end
    if v > hi then hi = v end
  end
  return lo, hi
end

local total, nils, rot = 0, 0, 0
for i = 1, n do
  local k = i % 7
  local a, b, c = i, i + 1, i + 2
  total = total + twice(a, b, c, k)                       -- 2 * (3i + 3 + k)
  total = total + sum(spread(a, b, k))                    -- 2 * (2i + 1 + k)
  nils = nils + count(nil, a, nil) + count(unpack({a, b, c}, 1, k % 4))
  local x, y, z = rotate(a, b, c)                         -- b, c, a
  rot = rot + x - z + last(a, b, c, k)                    -- 1 + k
  local lo, hi = minmax(c, a, b, k)
  total = total + hi - lo                                 -- (i + 2) - min(i, k)
end

local want, wnils, wrot = 0, 0, 0
for i = 1, n do
  local k = i % 7
  want = want + 2 * (3 * i + 3 + k) + 2 * (2 * i + 1 + k) + (i + 2) - math.min(i, k)
  wnils = wnils + 3 + k % 4
  wrot = wrot + 1 + k
end
assert(total == want, "total " .. total .. " vs " .. want)
assert(nils == wnils, "counts " .. nils .. " vs " .. wnils)
assert(rot == wrot, "rotations " .. rot .. " vs " .. wrot)
print(string.format("varargs: %d rounds, total %d, counts %d, rotations %d", n, total, nils, rot))
