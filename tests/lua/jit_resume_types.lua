-- Entry points into compiled code with many typed registers (llvmgen.c
-- resumeguards: two or more type checks are one call of jitrt.c
-- mvmrt_resumeok): re-entries after calls the interpreter made and OSR
-- entries at loop headers, with floats (-0.0, NaN, infinities,
-- subnormals), integers and numbers live there; then the same code with a
-- register of another type at the entry (the check fails, the interpreter
-- goes on).  Results must equal lua5.4's.

local function id(x) return x end

local function show(...)
  local out = {}
  for i, v in ipairs({...}) do
    if v ~= v then out[i] = "nan"
    elseif math.type(v) == "float" then out[i] = string.format("float:%.17g", v)
    else out[i] = string.format("%s:%s", math.type(v) or type(v), tostring(v)) end
  end
  print(table.concat(out, " "))
end

-- a float loop with a call in its body: after a load of another type
-- leaves compiled code, the interpreter makes the call and compiled code
-- is entered again after it, where 'w' must be a float
local function floats(t, n)
  local a, b, z, nan, inf, tiny = 0.5, -1.25, -0.0, 0 / 0, 1 / 0, 5e-324
  local k, s = 7, 0
  local acc = 0.0
  for i = 1, n do
    local w = t[i]
    a = a * 0.5 + w
    b = b - w * 0.25
    acc = acc + id(w)
    a = a + w * 0.125
    s = s + k
    tiny = tiny * 1.0
  end
  return a, b, z, 1 / z, nan, inf, -inf, tiny, tiny / 2, k, s, acc
end

-- integers and numbers live at the entries (raw int64 loop counters,
-- registers that are either kind)
local function mixed(t, n)
  local s, m, neg = 0, 140737488355327, -140737488355328
  local x = 1
  for i = 1, n do
    local v = t[(i % #t) + 1]
    s = s + id(i) + v
    x = x + v
    m = m - 1
    neg = neg + 1
  end
  return s, m, neg, x
end

local ft = {}
for i = 1, 400 do ft[i] = (i % 3 == 0) and -0.0 or i * 0.5 end
for _ = 1, 20 do floats(ft, 40) end
for _ = 1, 3 do show(floats(ft, 400)) end

-- a float register that is an integer or a string at some element
local f2 = {}
for i = 1, 400 do f2[i] = ft[i] end
f2[100] = 3          -- an integer where a float is expected
show(floats(f2, 400))
f2[100] = 0 / 0      -- NaN
f2[200] = 1 / 0      -- infinity
show(floats(f2, 400))
f2[100], f2[200] = 2^53, -2^-1074
show(floats(f2, 400))
f2[300] = "1.5"      -- a string: arithmetic converts it
show(floats(f2, 400))
show(floats(ft, 400))  -- back to floats

local it = {3, -4, 5, 0, 9}
for _ = 1, 20 do mixed(it, 30) end
for _ = 1, 2 do show(mixed(it, 3000)) end
show(mixed({3, -4.5, 5, -0.0, 9}, 3000))   -- floats among the integers
show(mixed({3, 0 / 0, 5}, 3000))
show(mixed({3, 1 << 60, 5}, 3000))          -- an integer beyond 48 bits
show(mixed(it, 3000))

-- OSR entry into a long float loop started by the interpreter, then the
-- same loop entered with an integer where it had a float
local function osr(n, a, b)
  local c, d = -0.0, 0.0
  for i = 1, n do
    a = a * 0.999 + 0.5
    b = b + a * 1e-3
    c = c - 0.25
    d = d + i
  end
  return a, b, c, d
end
show(osr(100000, 1.5, -0.0))
show(osr(100000, 1, 2))
show(osr(100000, 0 / 0, 1 / 0))
show(osr(100000, 1.5, -0.0))
