-- OSR: hot loops of every kind in a script's main chunk (run with -j on and
-- a low MVM_JIT_THRESHOLD by tests/jit_osr.sh, in every mode by the corpus)
local N = 20000

-- numeric for, integer
local s = 0
for i = 1, N do s = s + i end
print("for", s)

-- numeric for, negative step, and a float loop (exits on its guards)
local d = 0
for i = N, 1, -3 do d = d + i % 7 end
print("for down", d)
local f = 0.0
for x = 0.5, N / 4, 0.25 do f = f + x end
print("for float", f)

-- while and repeat
local w, n = 0, 0
while n < N do n = n + 1; w = w ~ (n * 31) end
print("while", w, n)
local r = 0
repeat r = r + 3 until r >= 3 * N
print("repeat", r)

-- generic for: ipairs, pairs, a closure iterator
local t = {}
for i = 1, N do t[i] = i * 2 end
local gi = 0
for _, v in ipairs(t) do gi = gi + v end
print("ipairs", gi)
local h = {}
for i = 1, 300 do h["k" .. i] = i end
local gp = 0
for rep = 1, 40 do
  for k, v in pairs(h) do gp = gp + v end
end
print("pairs", gp)
local function range(m)
  local i = 0
  return function() i = i + 1; if i <= m then return i end end
end
local gc = 0
for v in range(N) do gc = gc + v end
print("iterator", gc)

-- nested loops, with break and goto continue
local cnt, brk = 0, 0
for i = 1, 200 do
  for j = 1, 200 do
    if j > i then brk = brk + 1; break end
    if (i + j) % 3 == 0 then goto continue end
    cnt = cnt + 1
    ::continue::
  end
end
print("nested", cnt, brk)

-- a backward goto loop
local g, gi2 = 0, 0
::top::
gi2 = gi2 + 1
g = g + gi2 * gi2 % 11
if gi2 < N then goto top end
print("goto", g, gi2)

-- a loop entered by OSR that then leaves by a guard: the accumulator turns
-- from an integer into a float, then a string key appears
local acc = 0
for i = 1, N do
  if i == N // 2 then acc = acc + 0.5 end
  acc = acc + 1
end
print("guard float", acc)
local big = 1
for i = 1, 100 do big = big * 3 end   -- leaves the 48-bit immediates
print("guard overflow", big)
local mixed = {}
for i = 1, N do
  local key = i < N - 10 and i or tostring(i)
  mixed[key] = i
end
print("guard key", #mixed, mixed[tostring(N)])

-- string work and a table walk in the loop
local parts = {}
for i = 1, 2000 do parts[#parts + 1] = string.format("%d", i % 10) end
print("strings", #table.concat(parts))

-- errors inside an OSR'd loop: the message carries the loop's line
local ok, err = pcall(function()
  local u = 0
  for i = 1, N do
    u = u + i
    if i == N - 1 then u = u + nil end
  end
  return u
end)
print("error", ok, err)

-- the main chunk's varargs survive OSR
local nargs = select("#", ...)
local sum = 0
for i = 1, N do sum = sum + nargs end
print("varargs", nargs, sum)
