-- Integer for loops near the ends of the 48-bit immediates: compiled
-- FORLOOP leaves out the test that the next index fits when the loop's
-- state comes from its own FORPREP, and checks the state where the loop is
-- entered from the interpreter (OSR at the header); loops whose state a
-- callee changes (debug.setlocal on "(for state)") go on in the interpreter.
local big = 1 << 47          -- the first integer past the immediates
local function sum(a, b, s)
  local t, n = 0, 0
  for i = a, b, s do t = t + i; n = n + 1 end
  return t, n
end
print("up", sum(big - 10, big - 1, 1))
print("down", sum(-big + 10, -big, -1))
print("step", sum(big - 100, big - 1, 7))
print("past", sum(big - 5, big + 5, 1))          -- a limit past the immediates
print("pastdown", sum(-big + 3, -big - 3, -2))
print("huge", sum(math.maxinteger - 3 * big, math.maxinteger, big))
print("float limit", sum(big - 4, 2.0^47 + 4.5, 3))

-- main-chunk loops: run by the interpreter until they get hot, then
-- entered at their header (OSR) with the interpreter's state
local t, n = 0, 0
for i = big - 3000, big + 2000 do t = t + (i - big); n = n + 1 end
print("osr past", t, n)
t, n = 0, 0
for i = -big + 3000, -big - 2000, -1 do t = t + (i + big); n = n + 1 end
print("osr pastdown", t, n)
t, n = 0, 0
for i = big - 5000, big - 1 do t = t + (i - big); n = n + 1 end
print("osr inside", t, n)
t = 0
for i = 1, 4000 do
  for j = big - 2 - i % 3, big - 1 do t = t + (j - big) end
end
print("nested", t)

-- the same in a function that has code, with a limit past the immediates:
-- compiled FORPREP leaves it to the interpreter, which enters the compiled
-- loop at its header (OSR) after a while
local function up(a, b) local t = 0 for i = a, b do t = t + (i - big) end return t end
local function down(a, b) local t = 0 for i = a, b, -3 do t = t + (i + big) end return t end
print("fn past", up(big - 3000, big + 2000), up(big - 3000, big - 1))
print("fn pastdown", down(-big + 3000, -big - 2000), down(-big + 3000, -big + 1))

-- a callee that changes the loop's count: the loop goes on with it
local function stretch(level)
  local k = 1
  while true do
    local name = debug.getlocal(level, k)
    if name == nil then return end
    if name == "(for state)" then
      local _, v = debug.getlocal(level, k + 1)
      debug.setlocal(level, k + 1, v + 4)   -- the count (5.4: 2nd "(for state)")
      return
    end
    k = k + 1
  end
end
local function stretched(a, b)
  local seen = {}
  for i = a, b do
    seen[#seen + 1] = i - a
    if i == a then stretch(2) end
  end
  return table.concat(seen, " ")
end
print("stretched", stretched(1, 3))
print("stretched big", stretched(big - 3, big - 1))
