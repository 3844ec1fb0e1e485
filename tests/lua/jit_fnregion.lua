-- OSR regions in functions called once (jit/jit.c regionok): a function
-- whose hot loop is at most half of it, in its first call, gets that loop
-- compiled as a region, as a main chunk does.  Under "-j on" the region's
-- code is entered at a back-edge and left at the loop's end (exits to the
-- interpreter), so every way out of a region is here: falling out of the
-- loop, break, return from inside it, goto past its end, an error raised
-- in it and caught outside, a yield from inside it (a coroutine's body
-- called once), upvalues of closures made in it, parameters and varargs,
-- and the function called again afterwards (then judged by its calls).
-- Each loop runs long enough for a background compile to arrive.

local N = 300000

-- straight-line code to make the loops small against the function
local function pad(x)
  x = x + 1; x = x * 3 % 1000003; x = x + 7; x = x * 5 % 1000003
  return x
end

local function main(n, ...)
  local extra = select("#", ...)
  local p = 1
  p = pad(p); p = pad(p); p = pad(p); p = pad(p); p = pad(p)
  p = pad(p); p = pad(p); p = pad(p); p = pad(p); p = pad(p)
  local out = {}
  -- 1. falls out of its loop
  local s = 0
  for i = 1, n do s = s + i % 7 * extra end
  out[#out + 1] = s
  -- 2. break
  local b = 0
  for i = 1, n * 10 do
    b = b + (i & 3)
    if i == n then break end
  end
  out[#out + 1] = b
  -- 3. goto past the loop's end
  local g = 0
  local i = 0
  while true do
    i = i + 1
    g = g + i % 11
    if i >= n then goto done end
  end
  ::done::
  out[#out + 1] = g
  -- 4. closures capturing the loop's locals
  local fs = {}
  for k = 1, n do
    local v = k * 2
    if k % (n // 4) == 0 then fs[#fs + 1] = function() return v end end
  end
  for k = 1, #fs do out[#out + 1] = fs[k]() end
  -- 5. an error raised in a loop, caught outside
  local ok, err = pcall(function()
    local e = 0
    for k = 1, n do
      e = e + k
      if k == n - 1 then error("stop at " .. e, 0) end
    end
  end)
  out[#out + 1] = tostring(ok) .. " " .. err
  -- 6. floats and integers mixing in one accumulator
  local f = 0
  for k = 1, n do
    if k == n // 2 then f = f + 0.5 else f = f + 1 end
  end
  out[#out + 1] = f
  p = pad(p); p = pad(p); p = pad(p); p = pad(p); p = pad(p)
  out[#out + 1] = p
  return out
end

local r = main(N, "a", "b")
print(table.concat(r, " "))
-- called again: judged by its calls from now on; the same results
r = main(N // 3, "a")
print(table.concat(r, " "))

-- 7. a return from inside the loop of a function called once
local function find(n, target)
  local q = 0
  q = pad(q); q = pad(q); q = pad(q); q = pad(q); q = pad(q); q = pad(q)
  for k = 1, n do
    if (k * 7919) % n == target then return k, q end
  end
  return -1, q
end
print(find(N, 12345))

-- 8. a coroutine's body, called once, yielding from inside its loop
local co = coroutine.wrap(function(n)
  local t = 0
  t = pad(t); t = pad(t); t = pad(t); t = pad(t); t = pad(t); t = pad(t)
  for k = 1, n do
    t = t + k % 5
    if k % (n // 3) == 0 then coroutine.yield(t) end
  end
  return "end " .. t
end)
print(co(N), co(), co(), co())
