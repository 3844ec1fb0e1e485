-- OSR regions: a main chunk (or a chunk made by load) runs once, so an OSR
-- compile makes code for the hot loop being entered only (jit.c osrregion);
-- every way out of it goes back to the interpreter.  Several hot loops one
-- after another, nested loops whose inner loop gets hot first, branches,
-- break and goto out of the loop, a return from inside it, a chunk with a
-- hot loop called a second time, jit.flush between and inside loops.
local flush = jit and jit.flush or function() end

-- loops one after another: each needs its own region
local s1 = 0
for i = 1, 20000 do s1 = s1 + i % 7 end
print("loop1", s1)
local s2, k = 0, 0
while k < 20000 do k = k + 1; s2 = s2 + (k * 3) % 11 end
print("loop2", s2)
local s3 = 1.0
repeat s3 = s3 * 1.0001; k = k - 1 until k == 0
print("loop3", string.format("%.6f", s3))

-- nested: the inner loop gets hot first; the region covers the outer one
local rows = {}
for y = 1, 60 do
  local c = 0
  for x = 1, 400 do
    if (x * y) % 3 == 0 then c = c + 1 end
  end
  rows[#rows + 1] = c
end
print("nested", #rows, rows[1], rows[30], rows[60])

-- a branch out of the loop to code after it, with live values
local found, sum = nil, 0
for i = 1, 100000 do
  sum = sum + i
  if sum > 1234567 then found = i; goto after end
end
print("not reached")
::after::
print("goto out", found, sum)

-- break out of an inner and then an outer loop; values used after
local hits, last = 0, nil
for a = 1, 200 do
  for b = 1, 200 do
    if a * b == 9801 then last = a .. "x" .. b; break end
    hits = hits + 1
  end
  if last and a > 150 then break end
end
print("break", hits, last)

-- a goto loop (backward goto) with closures made inside
local fs, n = {}, 0
::top::
n = n + 1
if n % 1000 == 0 then local m = n; fs[#fs + 1] = function() return m end end
if n < 30000 then goto top end
print("goto loop", #fs, fs[1](), fs[#fs]())

-- calls to Lua functions and C functions inside the loop, strings, tables
local function sq(x) return x * x end
local t = {}
for i = 1, 20000 do t[i] = sq(i % 100) + #tostring(i) end
local acc = 0
for i = 1, #t do acc = acc + t[i] end
print("calls", acc)

-- jit.flush between loops and inside a loop
flush()
local f1 = 0
for i = 1, 30000 do
  f1 = f1 + i
  if i == 15000 then flush() end
end
print("flush", f1)

-- a chunk with a hot loop, called a second time: its first run enters a
-- region, its second one is an ordinary call (of code compiled whole, or
-- interpreted); a return from inside the loop
local chunk = load([[
  local n, stop = ...
  local s = 0
  for i = 1, n do
    s = s + i % 13
    if stop and i == stop then return "stopped", s end
  end
  return "done", s
]])
print("chunk1", chunk(40000))
print("chunk2", chunk(40000, 25000))
print("chunk3", chunk(100))
flush()
print("chunk4", chunk(40000, 39999))

-- an error raised inside a region, caught
local bad = load([[
  local s = 0
  for i = 1, 50000 do
    s = s + i
    if i == 45000 then error("boom at " .. s) end
  end
]])
print("error", pcall(bad))

-- a region whose loop keeps running after a collection moved its tables
local big = {}
for i = 1, 30000 do
  big[i] = { i }
  if i % 5000 == 0 then collectgarbage() end
end
local bs = 0
for i = 1, #big do bs = bs + big[i][1] end
print("gc", bs)
