-- jit_float_tags.lua: compiled float type checks at the edges of the
-- float tags.  A boxed float's top 16 bits are 2..0xFFFA (the double's
-- bits plus 2 << 48): 0.0 and subnormals at the bottom, negative NaNs at
-- the top; next to them are references, nil and booleans (below) and
-- light C functions, light userdata and integers (above).  Loops that
-- speculate on floats get each of these and must agree with the
-- interpreter (llvmgen.c isflt).
local function show(x)
  if type(x) ~= "number" then return tostring(type(x)) end
  if x ~= x then return "nan" end
  if math.type(x) == "integer" then return "int " .. x end
  return string.format("%.17g", x)
end

local function scale(t, k)     -- t[i] * k + 0.5, floats speculated
  local s = 0.0
  for i = 1, #t do s = s + t[i] * k + 0.5 end
  return s
end
local function lt(t, k)        -- comparisons of floats
  local n = 0
  for i = 1, #t do if t[i] < k then n = n + 1 end end
  return n
end
local function neg(t)          -- unary minus and division
  local s = 0.0
  for i = 1, #t do s = s - t[i] / 4.0 end
  return s
end

local warm = {}
for i = 1, 64 do warm[i] = i + 0.25 end
for _ = 1, 300 do scale(warm, 1.5); lt(warm, 30.5); neg(warm) end

local edges = {
  0.0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308, 1e308, -1e308,
  math.huge, -math.huge, 1.0, -1.0, 0.1,
}
for _, v in ipairs(edges) do
  local t = { v, 2.5, v }
  print(show(v), show(scale(t, 2.0)), lt(t, 1.0), show(neg(t)))
end
local nan = 0.0 / 0.0
for _, v in ipairs({ nan, -nan, -(0.0 / 0.0) }) do
  local t = { v, 1.5 }
  print("nan", show(scale(t, 2.0)), lt(t, 1.0), show(neg(t)))
end
-- not floats: integers, strings, booleans, nil, a light C function, a
-- table with metamethods, a coroutine
local mt = { __mul = function(a, b) return 10 end, __lt = function() return true end,
             __div = function() return 8 end }
local others = { 3, -7, "2.5", "0x10", true, false, print, setmetatable({}, mt),
                 coroutine.create(function() end), 2^53, math.mininteger }
for _, v in ipairs(others) do
  local t = { 1.5, v, 2.5 }
  local ok1, r1 = pcall(scale, t, 2.0)
  local ok2, r2 = pcall(lt, t, 2.0)
  local ok3, r3 = pcall(neg, t)
  print(show(v), ok1 and show(r1) or "error", ok2 and r2 or "error", ok3 and show(r3) or "error")
end
-- after all of that, floats again
print(show(scale(warm, 1.5)), lt(warm, 30.5), show(neg(warm)))
