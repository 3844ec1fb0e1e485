-- Lean returns (llvmgen.c leanreturn) of 0, 1, 2 and 3 fixed results to
-- callers that want fewer, as many, more (nil padding: the helper path) or
-- all of them, from compiled callers (inline calls), C callers (pcall,
-- select, table.pack) and through metamethods; L->top after each return
-- is seen by a following multiple-result call.  Under -j eager every
-- function here is compiled.
local function r0() end
local function r1(x) return x end
local function r2(x) return x, x + 1 end
local function r3(x) return x, x + 1, x + 2 end
local fs = {r0, r1, r2, r3}

local function show(...)
  local t = table.pack(...)
  local s = {}
  for i = 1, t.n do s[i] = tostring(t[i]) end
  return t.n .. ":" .. table.concat(s, ",")
end

for k = 1, 3 do   -- repeated: the first round may run interpreted
  for i, f in ipairs(fs) do
    local a = f(10)
    local b, c = f(20)
    local d, e, g = f(30)
    local h, j, l, m = f(40)
    f(50)
    print(i - 1, a, b, c, d, e, g, h, j, l, m)
    print(show(f(60)), show(f(70), f(80)), show((f(90))))
    print(select("#", f(1)), pcall(f, 2))
    local t = {f(3)}
    print(#t, t[1], t[2], t[3])
  end
end

-- wanted == n for every n, in a loop (compiled caller, compiled callee)
local sum = 0
for i = 1, 200 do
  local a = r1(i)
  local b, c = r2(i)
  local d, e, f = r3(i)
  r0(i)
  sum = sum + a + b + c + d + e + f
end
print(sum)

-- through __index / __call: C in the middle
local mt = {__index = function(_, k) return r2(k) end,
            __call = function(_, x) return r3(x) end}
local obj = setmetatable({}, mt)
print(obj[5], show(obj(7)), show(obj(8), 1))

-- a callee that returns many results to a caller that wants one, then a
-- multiple-result call: L->top must be right afterwards
local function many(x) return x, x, x, x, x, x end
local function user(x)
  local v = many(x)
  return v, select("#", many(x))
end
for i = 1, 3 do print(user(i)) end
