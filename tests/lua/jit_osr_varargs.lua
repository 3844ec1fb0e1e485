-- vararg functions under the JIT: VARARGPREP, VARARG, their returns, and
-- loops inside vararg functions entered by OSR
local function count(...) return select("#", ...) end
local function first(a, ...) return a, ... end
local function pack2(...) local a, b = ... return a, b end
local function sum(...)
  local s = 0
  for i = 1, select("#", ...) do s = s + (select(i, ...)) end
  return s
end
local function fwd(...) return sum(...) end
local function three(x, ...)
  local t = { ... }
  return x, #t, t[1]
end

local acc = 0
for i = 1, 3000 do
  acc = acc + count(i, nil, i) + count() + sum(i, 1, 2) + fwd(i, i)
  local a, b = pack2(i)
  if b ~= nil then error("pack2") end
  local x, n, y = three(i, i + 1, i + 2)
  acc = acc + x + n + y
  acc = acc + select(2, first(i, i * 2, 5))
end
print("calls", acc)

-- a loop inside a vararg function that is called once (OSR in its frame)
local function once(scale, ...)
  local extra = select("#", ...)
  local s = 0
  for i = 1, 30000 do s = s + i * scale + extra end
  local w = 0
  while w < 20000 do w = w + 1 end
  return s, w, ...
end
print("once", once(3, "a", "b", nil))

-- varargs with many values (the frame moves above them)
local many = {}
for i = 1, 200 do many[i] = i end
local function total(...)
  local s = 0
  for _, v in ipairs({ ... }) do s = s + v end
  return s, select("#", ...)
end
local t1 = 0
for i = 1, 200 do t1 = t1 + total(table.unpack(many, 1, i)) end
print("many", t1, total(table.unpack(many)))

-- closures over a vararg function's locals (a closing return)
local function mk(...)
  local n = select("#", ...)
  local fs = {}
  for i = 1, 3 do fs[i] = function() return i * n end end
  return fs
end
local cs = 0
for i = 1, 500 do
  local fs = mk(i, i)
  cs = cs + fs[1]() + fs[3]()
end
print("closures", cs)

-- a tail call from a vararg function, and a method with varargs
local function tail(...) return count(...) end
local obj = { n = 0 }
function obj:add(...) for i = 1, select("#", ...) do self.n = self.n + (select(i, ...)) end return self.n end
local tc = 0
for i = 1, 2000 do tc = tc + tail(i, i, i); obj:add(i, 1) end
print("tail", tc, obj.n)

-- errors in a vararg function carry their line
print(pcall(function(...) local x = ... return x.y end, nil))
