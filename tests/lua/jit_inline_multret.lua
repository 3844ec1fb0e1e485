-- Inlined leaf calls whose results all go on (C == 0: `g(f(x))`,
-- `{f(x)}`, `return ..., f(x)`): the results of the callee's RETURN are
-- stored from R[A] on and L->top follows them; results beyond the
-- caller's frame need room in the stack (else the real call).

local function none() end
local function one(x) return x + 1 end
local function three(x) return x, x * 2, x * 3 end
local function many(x)   -- (small enough to be inlined)
  return x, x + 1, x + 2, x + 3, x + 4, x + 5, x + 6, x + 7, x + 8, x + 9, x + 10, x + 11, x + 12
end
local function cond(x) if x > 2 then return x, x end return x end

local function sum(...)
  local s = 0
  for i = 1, select("#", ...) do s = s + (select(i, ...) or 0) end
  return s, select("#", ...)
end

local function run(n)
  local r = {}
  for i = 1, n do
    r[#r + 1] = table.concat({sum(none())}, ",")
    r[#r + 1] = table.concat({sum(one(i))}, ",")
    r[#r + 1] = table.concat({sum(three(i))}, ",")
    r[#r + 1] = table.concat({sum(many(i))}, ",")
    r[#r + 1] = table.concat({sum(cond(i))}, ",")
    r[#r + 1] = #{three(i)} .. #{many(i)} .. select("#", none())
    r[#r + 1] = string.format("%d-%d-%d", three(i))
  end
  return table.concat(r, " ")
end
print(run(4))

-- inside coroutines (small stacks): the room test
local function deep(k)
  if k == 0 then return sum(many(1)) end
  return (deep(k - 1))
end
local out = {}
for k = 0, 60 do   -- the frames end at every distance from the stack's end
  local co = coroutine.wrap(function() return deep(k), sum(many(k)) end)
  out[#out + 1] = table.concat({co()}, ",")
end
print(table.concat(out, " "))

-- results of other types and errors
local function two(a, b) return a, b end
local function trun()
  local r = {}
  for _ = 1, 3 do
    r[#r + 1] = table.concat({tostring(two(nil, 1)), select("#", two(nil, nil))}, ",")
    r[#r + 1] = select(2, pcall(function() return sum(one({})) end))
    r[#r + 1] = select("#", one("5"))
  end
  return table.concat(r, " ")
end
print(trun())

-- a function returning a leaf's results after others of its own
local function tailmix(x) return x, three(x) end
print(tailmix(2))
print(select("#", tailmix(3)))
