-- Entry points with many typed registers (llvmgen.c resumeguards: one
-- signature check per entry): loop headers entered by OSR and re-entries
-- after calls, with registers whose types match the compiled code's and
-- with one that differs (the first, a middle or the last register of the
-- signature), which must leave to the interpreter and give the same
-- results.
local function work(a, b, c, d, n)
  local s, t, u = 0, 0.5, 1
  for i = 1, n do
    s = s + a * i + b
    t = t + c * 0.25
    u = u + d
  end
  return s, t, u
end

local function callee(x) return x end

local function withcalls(a, b, c, n)
  local s, t = a, c
  for i = 1, n do
    s = s + b * i
    t = t + callee(i) * c
  end
  return s, t
end

local function show(...)
  local out = {}
  for i, v in ipairs({...}) do out[i] = string.format("%s:%s", math.type(v), tostring(v)) end
  print(table.concat(out, " "))
end

for _ = 1, 3 do show(work(1, 2, 3, 4, 3000)) end
show(work(1.5, 2, 3, 4, 3000))          -- first register a float
show(work(1, 2, 3.25, 4, 3000))         -- a middle one
show(work(1, 2, 3, 4.5, 3000))          -- the last one
show(work(1, 2, 3, 4, 3000))            -- back to integers
for _ = 1, 3 do show(withcalls(1, 2, 3, 2000)) end
show(withcalls(1.5, 2, 3, 2000))
show(withcalls(1, 2.5, 3, 2000))
show(withcalls(1, 2, 0.5, 2000))
show(withcalls(1, 2, 3, 2000))
