-- Numeric for loops on floats in compiled code (jit/llvmgen.c, fltloop):
-- a loop whose initial value or step is known to be a float runs on
-- doubles; the interpreter's rules (conversions, skip test, step 0,
-- exact accumulation of the step) must hold, and exits inside the loop
-- must leave the interpreter the exact loop state.
local fmt = string.format
local function show(...)
  local t = table.pack(...)
  for i = 1, t.n do
    local v = t[i]
    if math.type(v) == "float" then t[i] = fmt("%.17g", v) .. "f"
    else t[i] = tostring(v) end
  end
  print(table.concat(t, " "))
end

local function consts()
  local s, k, last = 0.0, 0, nil
  for v = 1.0, 3.0, 0.5 do s = s + v * v; k = k + 1; last = v end
  local s2, k2 = 0.0, 0
  for v = 0.1, 1.0, 0.1 do s2 = s2 + v; k2 = k2 + 1 end
  local s3, k3 = 0.0, 0
  for v = 3, 1.5, -0.5 do s3 = s3 + v; k3 = k3 + 1; last = v end
  local k4 = 0
  for _ = 1.0, 0.0 do k4 = k4 + 1 end      -- skipped
  local k5 = 0
  for _ = 1, 2, 0.25 do k5 = k5 + 1 end    -- integer start, float step
  return s, k, last, s2, k2, s3, k3, k4, k5, math.type(last)
end
for _ = 1, 3 do show(consts()) end

local function limits(lim)
  local k, last = 0, nil
  for v = 0.5, lim, 0.5 do k = k + 1; last = v end
  return k, last
end
show(limits(2))
show(limits(2.25))
show(limits(-1))
show(limits(0 / 0))
show(limits(1e300 * 1e10 > 0 and 4 or 0))
show(pcall(limits, "3"))         -- a string limit converts
show(pcall(limits, {}))          -- not a number: error

local function negzero()
  local out = {}
  for v = -0.0, 1.0, 0.5 do out[#out + 1] = fmt("%g", v) .. "/" .. fmt("%g", 1 / v) end
  return table.concat(out, ",")
end
show(negzero())

local function zerostep(st)
  local k = 0
  for _ = 1.0, 2.0, st do k = k + 1; if k > 5 then break end end
  return k
end
show(pcall(zerostep, 0.0))
show(pcall(zerostep, 0))
show(zerostep(0.5))

-- an exit in the middle of the loop body, the loop variable live
local function mixed(t)
  local s = 0.0
  for v = 0.5, 3.0, 0.5 do s = s + t[v * 2] + v end
  return s
end
show(mixed({ 1, 2, 3, 4, 5, 6 }))
show(mixed({ 1, 2, "3", 4, 5.5, 6 }))
show(pcall(mixed, { 1, 2, 3 }))

-- loop variables captured by closures, passed to calls
local function capture()
  local fs = {}
  for v = 0.25, 1.0, 0.25 do fs[#fs + 1] = function() return v * 4 end end
  local r = {}
  for i = 1, #fs do r[i] = fs[i]() end
  return table.unpack(r)
end
show(capture())
local function calls()
  local s = 0.0
  for v = 1.5, 4.5, 1.0 do s = s + math.floor(v) + select("#", v, v) end
  return s
end
show(calls())

-- a large float loop: the index accumulates the step exactly as lua does
local function big(n)
  local s, k = 0.0, 0
  for v = 0.0, n, 0.1 do s = s + v; k = k + 1 end
  return s, k
end
show(big(1000.0))
