-- Integer for loops whose calls are on some paths only keep their
-- registers in SSA (loop homes): the calls must still see the loop's
-- state in the VM stack (debug.getlocal, errors, yields, hooks), and the
-- loop must go on correctly after them.

-- queens: a recursive call on the rare path of the loop
local function queens(n)
  local cols, d1, d2, count = {}, {}, {}, 0
  local function place(r)
    if r > n then count = count + 1 return end
    for c = 1, n do
      if not cols[c] and not d1[r + c] and not d2[r - c + n] then
        cols[c], d1[r + c], d2[r - c + n] = true, true, true
        place(r + 1)
        cols[c], d1[r + c], d2[r - c + n] = false, false, false
      end
    end
  end
  place(1)
  return count
end
for n = 4, 8 do io.write(queens(n), " ") end
print()

-- the callee reads the caller's loop variable and its locals
local seen = {}
local function peek()
  local i = 1
  while true do
    local name, v = debug.getlocal(2, i)
    if name == nil then break end
    if name == "k" or name == "acc" then seen[#seen + 1] = name .. "=" .. tostring(v) end
    i = i + 1
  end
end
local function scan(n)
  local acc = 0
  for k = 1, n do
    acc = acc + k
    if k % 7 == 0 then peek() end
  end
  return acc
end
for rep = 1, 3 do scan(30) end
print(scan(30), table.concat(seen, " ", 1, 8))

-- the callee changes the caller's control variable (the body's copy)
local function bump()
  for i = 1, 20 do
    local name = debug.getlocal(2, i)
    if name == nil then break end
    if name == "j" then debug.setlocal(2, i, 1000) break end
  end
end
local function walk(n)
  local out = {}
  for j = 1, n do
    if j == 3 then bump() end
    out[#out + 1] = j
  end
  return table.concat(out, ",")
end
for rep = 1, 3 do walk(6) end
print(walk(6))

-- errors raised by the call on the rare path
local function maybe(x) if x == 13 then error("thirteen") end return x end
local function run(n)
  local s = 0
  for i = 1, n do
    if i % 13 == 0 then s = s + maybe(i) else s = s + 1 end
  end
  return s
end
for rep = 1, 3 do pcall(run, 12) end
print(run(12), pcall(run, 20))

-- yields from the call: the loop resumes where it was
local function gen(n)
  return coroutine.wrap(function()
    local s = 0
    for i = 1, n do
      s = s + i
      if i % 4 == 0 then coroutine.yield(i, s) end
    end
    return "done", s
  end)
end
for rep = 1, 3 do local f = gen(10); f(); f() end
local f = gen(18)
local parts = {}
for _ = 1, 5 do
  local a, b = f()
  parts[#parts + 1] = tostring(a) .. ":" .. tostring(b)
end
print(table.concat(parts, " "))

-- a hook turned on inside the loop by its call
local lines = 0
local function hookon() debug.sethook(function() lines = lines + 1 end, "l") end
local function hooked(n)
  local s = 0
  for i = 1, n do
    if i == 5 then hookon() end
    s = s + i * 2
  end
  debug.sethook()
  return s
end
for rep = 1, 3 do hooked(4) end
print(hooked(10), lines > 0)

-- break out of the loop on the call path, nested loops, negative steps
local function findpair(t, target)
  for i = #t, 1, -1 do
    for j = 1, i - 1 do
      if t[i] + t[j] == target then
        if tostring(i) ~= "" then return i, j end
      end
    end
  end
end
local arr = {}
for i = 1, 60 do arr[i] = (i * 37) % 101 end
for rep = 1, 3 do findpair(arr, 150) end
print(findpair(arr, 150), findpair(arr, 1000))

-- the collector runs in the call while the loop's integers are live
local function churn(n)
  local keep = {}
  for i = 1, n do
    if i % 50 == 0 then
      for _ = 1, 200 do keep[#keep + 1] = {i} end
      collectgarbage("step", 10)
    end
  end
  return #keep, keep[#keep][1]
end
for rep = 1, 2 do churn(100) end
print(churn(500))
