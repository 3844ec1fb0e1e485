-- Inlined leaf calls whose callee calls math.sqrt, math.floor, math.abs
-- or takes a length (jit/llvmgen.c leafop OP_CALL/OP_LEN): evaluated
-- inline when the function is the library's own and the value a string
-- or a table without __len; anything else takes the real call.

local sqrt, floor, abs = math.sqrt, math.floor, math.abs
local function vlen(x, y) return sqrt(x * x + y * y) end
local function vlen2(x, y) return math.sqrt(x * x + y * y) end
local function fl(x) return floor(x / 2) end
local function ab(x) return abs(x) - 1 end
local function len(t) return #t end
local function count(t, s) return #t + #s end

local function run(n)
  local s = 0
  for i = 1, n do s = s + vlen(i, 2) + vlen2(3, i + 0.5) + fl(i) + fl(i + 0.5) + ab(-i) + ab(i - 0.25) end
  return s
end
print(string.format("%.6f", run(100)))

-- edge values: negative roots, infinities, NaN, the immediates' bounds
local function edges()
  local r = {}
  for _ = 1, 3 do
    r[#r + 1] = tostring(vlen(0, 0)) .. tostring(fl(-3)) .. tostring(fl(1e300)) .. tostring(fl(-1/0))
    r[#r + 1] = tostring(ab(-(1 << 47))) .. " " .. tostring(ab(math.mininteger)) .. " " .. tostring(ab(-0.0))
    r[#r + 1] = tostring(fl(2^60)) .. " " .. tostring(fl(0/0) ~= fl(0/0)) .. " " .. tostring(math.type(fl(7.5)))
    r[#r + 1] = tostring(vlen(1e200, 1e200)) .. " " .. tostring(sqrt(-1) ~= sqrt(-1))
    r[#r + 1] = tostring(vlen("3", 4)) .. " " .. select(2, pcall(vlen, {}, 1))
    r[#r + 1] = select(2, pcall(fl, "x"))
  end
  return table.concat(r, " ")
end
print(edges())

-- lengths: strings, tables (borders, hash parts), __len, other values
local function lengths()
  local r = {}
  local t = {1, 2, 3}
  local h = {}
  for i = 1, 10 do h[i] = i end
  local withlen = setmetatable({1}, {__len = function() return 42 end})
  local withmt = setmetatable({1, 2}, {__index = {}})
  for _ = 1, 3 do
    r[#r + 1] = len("hello") .. len("") .. len(t) .. len(h) .. len({}) .. len(withlen) .. len(withmt)
    r[#r + 1] = count(t, "abc") .. " " .. count(withlen, "")
    r[#r + 1] = select(2, pcall(len, 5))
    r[#r + 1] = select(2, pcall(len, nil))
    t[#t + 1] = #t
  end
  return table.concat(r, " ")
end
print(lengths())

-- the builtins replaced: the inline code must call the new function
local function replaced()
  local r = {}
  for i = 1, 6 do
    if i == 3 then sqrt = function(x) return -x end end
    if i == 4 then math.sqrt = function(x) return "s" .. x end end
    if i == 5 then floor = math.ceil end
    r[#r + 1] = tostring(vlen(3, 4)) .. "/" .. tostring(vlen2(3, 4)) .. "/" .. tostring(fl(5))
  end
  return table.concat(r, " ")
end
local msqrt = math.sqrt
print(replaced())
math.sqrt, sqrt, floor = msqrt, msqrt, math.floor
print(vlen(6, 8), vlen2(6, 8), fl(9))

-- a call hook sees the builtin's call
local function hooked()
  local n = 0
  debug.sethook(function() if debug.getinfo(2, "f").func == msqrt then n = n + 1 end end, "c")
  local s = 0
  for i = 1, 10 do s = s + vlen(i, i) end
  debug.sethook()
  return string.format("%.4f", s), n
end
print(hooked())
