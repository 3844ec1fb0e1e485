-- Registers of call-free integer for loops live in a home of their own
-- inside the loop (compiled code), while the same registers hold other
-- values (tables, strings, call results) before and after it; multiple
-- results (f(...) as the last argument) no longer keep registers live.
-- Loops entered from the interpreter (OSR, at inner headers too), loops
-- with breaks, reassigned control variables and captured ones.
local function sieve(n)
  local c = {}
  for i = 1, n do c[i] = false end
  local i = 2
  while i * i <= n do
    if not c[i] then
      for j = i * i, n, i do c[j] = true end
    end
    i = i + 1
  end
  local k = 0
  for j = 2, n do if not c[j] then k = k + 1 end end
  return k
end
print("sieve", sieve(100), sieve(1000), sieve(30000))

-- the same registers: a string, a table, then loop state, then a string
local function reuse(n)
  local out = {}
  do local s = ("x"):rep(3); out[#out + 1] = s end
  do local t = { 1, 2, 3 }; out[#out + 1] = #t end
  local acc = 0
  for i = 1, n do
    for j = i, n, 3 do acc = acc + j - i end
  end
  out[#out + 1] = acc
  do local s = tostring(acc) .. "!"; out[#out + 1] = s end
  return table.concat(out, " ")
end
print("reuse", reuse(10), reuse(200))

-- a break, a reassigned control variable, a captured one
local function brk(n)
  local found
  for i = 1, n do
    if i * i > n then found = i; break end
  end
  local t = 0
  for i = 1, 10 do
    local j = i
    i = "s" .. i          -- a local copy: the loop goes on with its count
    t = t + j + #i
  end
  local fns = {}
  for i = 1, 5 do fns[i] = function() return i end end
  local u = 0
  for k = 1, 5 do u = u + fns[k]() end
  return found, t, u
end
print("brk", brk(50), brk(1000))

-- floats where the compiled code was made for integers: the interpreter
-- runs the loop, entering the compiled inner loop at its header
local function nest(a, b, n)
  local s = 0
  for i = a, b do
    for j = 1, n do s = s + j end
    s = s + i
  end
  return s
end
print("nest", nest(1, 3, 10), nest(0.5, 3.5, 3000), nest(1, 2, 3000), nest(-2, -1, 5))

-- many results as the last arguments around loops (main-chunk style)
local function multi(...)
  local n = select("#", ...)
  local t = 0
  for i = 1, n do t = t + select(i, ...) end
  for i = 1, 100 do t = t + i % 7 end
  return t, ...
end
print("multi", multi(1, 2, 3))
print("multi", select("#", multi(table.unpack({ 4, 5, 6, 7 }))))
local r = { multi(8, 9) }
print("multi", #r, r[1], r[#r])

-- a main-chunk loop (OSR in -j on) over the same registers as temporaries
local str = ("abc"):upper()
local total = 0
for i = 1, 20000 do total = total + (i & 7) end
for i = 20000, 1, -2 do total = total - (i % 5) end
print("main", str, total, ("%d"):format(total))

-- collections while loop state lives in its loop home
local keep = {}
for i = 1, 200 do
  for j = 1, 50 do keep[j] = { i, j } end
  if i % 50 == 0 then collectgarbage() end
end
print("gc", #keep, keep[50][1], keep[50][2])
