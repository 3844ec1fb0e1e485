-- Accumulators (jit/llvmgen.c "Accumulators", fokregs): a register that
-- starts as an integer and becomes a float in a loop (`local a = 0 ...
-- a = a + x * y`) carries a flag next to its double in compiled code,
-- set by float writes and cleared by every other write, reload and
-- resume.  Whatever writes the register (moves, constants, debug.setlocal
-- from a callee or a hook, coroutine switches, exits in the middle of the
-- loop), the values and their subtypes must be the interpreter's.
local fmt = string.format
local function show(tag, v)
  print(tag, math.type(v) or type(v), type(v) == "number" and fmt("%.17g", v) or tostring(v))
end

-- spectral_norm's shape: an integer zero, then float sums; no iteration
-- leaves the integer
local function weight(r, c)
  local s = r + c
  return 2.0 / (s * (s + 1) + 2 * r)
end
local function mulvec(v, out, size)
  for r = 1, size do
    local acc = 0
    for c = 1, size do
      acc = acc + v[c] * weight(r, c)
    end
    out[r] = acc
  end
end
local x, y = {}, {}
for i = 1, 40 do x[i] = i % 3 == 0 and i or i / 7 end
for round = 1, 30 do mulvec(x, y, 40) end
show("av1", y[1]); show("av40", y[40])
local z = {} mulvec(x, z, 0); print("av0", z[1])
local e = {}
mulvec(x, e, 1); show("av_one", e[1])

-- every arithmetic operator, the accumulator on either side, constants
local function ops(n, d)
  local s, m, q, r, f, p, w = 0, 1, 100, 7, 50, 2, 3
  for j = 1, n do
    s = s + d
    m = m * 1.0001
    q = q - d * j
    r = 10.5 - r
    f = f / 1.5
    p = p % 5.25 + 1
    w = w // 0.75
  end
  return s, m, q, r, f, p, w
end
for _, n in ipairs({0, 1, 2, 3, 50}) do
  local t = table.pack(ops(n, 0.25))
  for k = 1, t.n do show("ops" .. n .. "." .. k, t[k]) end
end

-- integers first, then floats: the integer path until the first float
local function mixed(t)
  local a = 0
  for j = 1, #t do a = a + t[j] end
  return a
end
show("mixed_int", mixed({1, 2, 3, 4}))
show("mixed_flt", mixed({1, 2, 3.5, 4}))
show("mixed_end", mixed({1, 2, 3, 4.25}))
show("mixed_big", mixed({math.maxinteger, 0.5, 1}))
show("mixed_wrap", mixed({math.maxinteger, 1, 0.5}))

-- the register written with something else inside the loop
local function resets(n)
  local a = 0
  for j = 1, n do
    a = a + 1.5
    if j % 4 == 0 then a = 1 end
    if j % 7 == 0 then a = "2" end
  end
  return a
end
for _, n in ipairs({3, 4, 5, 7, 8, 9, 30}) do show("resets" .. n, resets(n)) end

-- two accumulators feeding each other, and a doubling
local function pair(n)
  local a, b = 0, 1
  for j = 1, n do
    a = a + b * 0.5
    b = b + a
    a = a + a
  end
  return a, b
end
local pa, pb = pair(20); show("pair_a", pa); show("pair_b", pb)
pa, pb = pair(0); show("pair0_a", pa); show("pair0_b", pb)

-- debug.setlocal from a callee inside the loop: the next addition must
-- see the new value (an integer, a coercible string, a float)
local function setacc(v)
  local i = 1
  while true do
    local name = debug.getlocal(2, i)
    if name == nil then return end
    if name == "acc" then debug.setlocal(2, i, v) return end
    i = i + 1
  end
end
local function poked(n, at, v)
  local acc = 0
  for j = 1, n do
    acc = acc + 0.5
    if j == at then setacc(v) end
  end
  return acc
end
show("poke_int", poked(10, 5, 100))
show("poke_str", poked(10, 5, "7"))
show("poke_flt", poked(10, 5, 0.25))
show("poke_last", poked(10, 10, 3))
print("poke_tab", pcall(poked, 10, 5, {}))

-- a count hook that rewrites the accumulator while the loop runs
local function hooked(n)
  local acc = 0
  for j = 1, n do acc = acc + 0.125 end
  return acc
end
local fired = 0
debug.sethook(function()
  fired = fired + 1
  local i = 1
  while true do
    local name = debug.getlocal(2, i)
    if name == nil then return end
    if name == "acc" then debug.setlocal(2, i, 1000) return end
    i = i + 1
  end
end, "", 50)
local hv = hooked(200)
debug.sethook()
print("hooked", fired > 0, math.type(hv), hv >= 1000)

-- a coroutine yielding the running sum from the loop
local co = coroutine.wrap(function(n)
  local a = 0
  for j = 1, n do
    a = a + 0.75
    if j % 3 == 0 then a = coroutine.yield(a) or a end
  end
  return a
end)
show("co1", co(10)); show("co2", co(5)); show("co3", co(nil)); show("co4", co(2))

-- operands that stop being numbers: the error and the line
local function bad(t)
  local a = 0
  for j = 1, #t do a = a + t[j] * 0.5 end
  return a
end
show("bad_ok", bad({1, 2, 3}))
print("bad_str", pcall(bad, {1, "3", 2}))
print("bad_tab", pcall(bad, {1, 2, {}}))

-- special values through the flag's path
local function specials(v, n)
  local a = 0
  for j = 1, n do a = a + v end
  return a
end
show("negzero", specials(-0.0, 3))
show("inf", specials(1 / 0, 2))
show("nan", specials(0 / 0, 2) ~= specials(0 / 0, 2))
show("tiny", specials(5e-324, 4))
