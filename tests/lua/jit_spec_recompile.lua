-- A function whose speculative guards keep failing is compiled again
-- without speculation rather than bouncing between compiled code and the
-- interpreter (jit/jit.c, despecialise).  Under -j eager the recompile is
-- observable in jit.status(); the output is the same in every mode.
local function bump(rec)
  return rec.x * 2 + 1          -- rec.x: speculated to be a number
end

local function status()
  if not jit then return nil end
  local _, mode, st = jit.status()
  return mode, st
end

local total = 0
for i = 1, 50 do total = total + bump({ x = i }) end
print("numbers", total)
local mode, before = status()

-- strings coerce: every call fails the guard after the load
local s = 0
for i = 1, 300 do s = s + bump({ x = tostring(i) }) end
print("strings", s)
local _, after = status()

-- and numbers again, in the recompiled code
total = 0
for i = 1, 50 do total = total + bump({ x = i + 0.5 }) end
print("floats", total)

-- errors raised in the recompiled code keep their line
print(pcall(bump, {}))
print(pcall(bump, { x = {} }))

-- narrow types from the interpreter's feedback (-j on): floats first,
-- then integers fail a float guard; the code is compiled again with "a
-- number" and the integers stay in compiled code
local function lerp(p, t)
  return p.a + (p.b - p.a) * t
end
local acc = 0
for i = 1, 400 do acc = acc + lerp({ a = i * 0.5, b = i * 1.5 }, 0.25) end
print("lerp floats", acc)
acc = 0
for i = 1, 400 do acc = acc + lerp({ a = i, b = 2 * i }, 2) end
print("lerp ints", acc, math.type(acc))

if mode == "eager" then
  -- bump and the main chunk (OSR-free loops with a failing guard in bump)
  assert(after.compiled > before.compiled, "no recompile")
  assert(after.side_exits >= before.side_exits + 64, "exits not counted")
  assert(after.compiled <= before.compiled + 2, "recompiled more than once")
end
print("done")
