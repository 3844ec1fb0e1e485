-- Entry points with many typed registers (llvmgen.c resumeguards: one
-- signature check per entry, jitrt.c mvmrt_resumeok): loop headers
-- entered by OSR and re-entries after calls, then the same functions with
-- values of other types in the first, a middle or the last of the loaded
-- registers; results must equal lua5.4's.  (A failing signature is
-- exercised by jit_spec_types under tests/jit_spec.sh, threshold 4.)
local function work(k, n)
  local s, t, u = 0, 0.5, 1
  for i = 1, n do
    local a, b, c, d = k.a, k.b, k.c, k.d   -- loaded: speculated types
    s = s + a * i + b
    t = t + c * 0.25
    u = u + d
  end
  return s, t, u
end

local function callee(x) return x end

local function withcalls(k, n)
  local s, t = k.a, k.c
  for i = 1, n do
    local b, c = k.b, k.c
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

-- compiled after short calls: types from the feedback of their loads
for _ = 1, 30 do work({a=1, b=2, c=3, d=4}, 40) end
for _ = 1, 3 do show(work({a=1, b=2, c=3, d=4}, 3000)) end
show(work({a=1.5, b=2, c=3, d=4}, 3000))          -- first register a float
show(work({a=1, b=2, c=3.25, d=4}, 3000))         -- a middle one
show(work({a=1, b=2, c=3, d=4.5}, 3000))          -- the last one
show(work({a=1, b=2, c=3, d=4}, 3000))            -- back to integers
for _ = 1, 30 do withcalls({a=1, b=2, c=3}, 40) end
for _ = 1, 3 do show(withcalls({a=1, b=2, c=3}, 2000)) end
show(withcalls({a=1.5, b=2, c=3}, 2000))
show(withcalls({a=1, b=2.5, c=3}, 2000))
show(withcalls({a=1, b=2, c=0.5}, 2000))
show(withcalls({a=1, b=2, c=3}, 2000))
