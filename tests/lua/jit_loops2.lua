-- Loop limits that live in the VM stack until FORPREP and in SSA after
-- (compiled code): #t with __len returning other things, parameters of
-- changing types, limits beyond 48-bit immediates, and the loop state
-- seen again by the interpreter after exits.

local function upto(n) local s = 0 for i = 1, n do s = s + i end return s end
local function lenloop(t) local s = 0 for i = 1, #t do s = s + i end return s end
local function inner(t, n)
  local s = 0
  for i = 1, n do for j = 1, #t do s = s + (t[j] or 0) * i end end
  return s
end

local weird = setmetatable({}, {__len = function(t) return t.len end})
for rep = 1, 3 do
  print(upto(10), upto(0), upto(-5), upto(3.7), upto(2^50 // 2^40))
  print(pcall(upto, "12"), pcall(upto, {}), pcall(upto, nil))
  print(upto(2^48 + 3 - 2^48), upto(math.mininteger))
  print(lenloop({1, 2, 3}), lenloop({}))
  weird.len = 4;      print(lenloop(weird))
  weird.len = 2.5;    print(lenloop(weird))
  weird.len = "6";    print(pcall(lenloop, weird))
  weird.len = {};     print(pcall(lenloop, weird))
  weird.len = 2^47 + 1; print(pcall(function() for i = 2^47 - 2, #weird do io.write(i, " ") end print() end))
  print(inner({1, 2, 3}, 4), inner({}, 4), inner({5}, 0))
end

-- big limits: counts beyond 48 bits (the interpreter's slow path)
local function big(a, b, c)
  local k = 0
  for i = a, b, c do k = k + 1; if k > 5 then break end end
  return k
end
for rep = 1, 3 do
  print(big(1, 2^60, 2^58), big(2^50, 2^50 + 3, 1), big(-2^50, -2^50 - 3, -1), big(0, math.maxinteger, 1))
end

-- a loop that collects on every iteration (GC stress keeps the count right)
local function churn(n)
  local last
  for i = 1, n do last = {i} end
  return last[1]
end
for rep = 1, 3 do print(churn(1000), churn(1)) end
