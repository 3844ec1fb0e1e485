-- shapes.lua: a class hierarchy through setmetatable and __index chains
-- (method calls that resolve one, two or three levels up, chained calls,
-- string building in a rarely taken path).
-- usage: mvm bench/extra/shapes.lua [n]   (default 5000000)
-- Self-check: the sum of areas computed again without methods.
local n = tonumber(arg and arg[1]) or 5000000
local Shape = {} Shape.__index = Shape
function Shape.new(kind) return setmetatable({kind = kind, moved = 0}, Shape) end
function Shape:move(dx) self.moved = self.moved + dx return self end
function Shape:describe() return self.kind .. ":" .. self:area() end
local Rect = setmetatable({}, {__index = Shape}) Rect.__index = Rect
function Rect.new(w, h) local r = Shape.new("rect") r.w, r.h = w, h return setmetatable(r, Rect) end
function Rect:area() return self.w * self.h end
local Circle = setmetatable({}, {__index = Shape}) Circle.__index = Circle
function Circle.new(r) local c = Shape.new("circle") c.r = r return setmetatable(c, Circle) end
function Circle:area() return 3 * self.r * self.r end
local Square = setmetatable({}, {__index = Rect}) Square.__index = Square
function Square.new(s) local q = Rect.new(s, s) q.kind = "square" return setmetatable(q, Square) end
local shapes, areas = {}, {}
for i = 1, 300 do
  local k = i % 3
  if k == 0 then shapes[i] = Rect.new(i % 7 + 1, i % 5 + 1); areas[i] = (i % 7 + 1) * (i % 5 + 1)
  elseif k == 1 then shapes[i] = Circle.new(i % 4 + 1); areas[i] = 3 * (i % 4 + 1) ^ 2 // 1
  else shapes[i] = Square.new(i % 6 + 1); areas[i] = (i % 6 + 1) ^ 2 // 1 end
end
local sum, len = 0, 0
for i = 1, n do
  local s = shapes[i % #shapes + 1]
  sum = sum + s:move(1):area()
  if i % 100 == 0 then len = len + #s:describe() end
end
local check = 0
for i = 1, n do check = check + areas[i % #shapes + 1] end
assert(sum == check, "areas " .. sum .. " ~= " .. check)
print(string.format("shapes: %d calls, area sum %d, %d characters", n, sum, len))
