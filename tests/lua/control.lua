-- control.lua: if/while/repeat/for/break/goto semantics
print("control: start")

-- if / elseif / else and truthiness
local function classify(v)
  if v == nil then return "nil"
  elseif v == false then return "false"
  elseif type(v) == "number" and v == 0 then return "zero (truthy)"
  elseif v == "" then return "empty string (truthy)"
  else return "other" end
end
for _, v in ipairs{0, "", "x"} do print("classify", classify(v)) end
print("classify", classify(nil), classify(false))
if 0 then print("0 is true") end
if "" then print("'' is true") end
if not nil and not false then print("nil and false are false") end

-- and / or short circuit and values
print("and/or", nil and 1, false and 1, 1 and 2, nil or 1, false or nil, 1 or error("x"))
print("and/or 2", 1 and nil, false or false, nil and nil, 0 or 1, "" and "y")
local side = 0
local function bump() side = side + 1; return true end
local _ = false and bump()
local _ = true or bump()
print("short circuit", side)
print("not", not nil, not 0, not not nil, not not "")

-- while with break
local i = 0
while true do
  i = i + 1
  if i >= 5 then break end
end
print("while break", i)
i = 10
while i < 5 do i = i + 1 end
print("while zero iterations", i)

-- repeat: body local visible in until
local n = 0
repeat
  local done = n >= 3
  n = n + 1
until done
print("repeat local in until", n)
repeat local q = 1 until q == 1
print("repeat once")

-- numeric for: basic forms
local out = {}
for k = 1, 5 do out[#out + 1] = k end
print("for 1..5", table.concat(out, ","))
out = {}
for k = 5, 1, -1 do out[#out + 1] = k end
print("for 5..1", table.concat(out, ","))
out = {}
for k = 1, 10, 3 do out[#out + 1] = k end
print("for step 3", table.concat(out, ","))
out = {}
for k = 1, 0 do out[#out + 1] = k end
print("for empty", #out)
out = {}
for k = 1, 2, 0.5 do out[#out + 1] = k end
print("for float step", table.concat(out, ","))
out = {}
for k = 0.1, 0.5, 0.1 do out[#out + 1] = string.format("%.1f", k) end
print("for float accum", table.concat(out, ","))
out = {}
for k = 1.0, 3 do out[#out + 1] = k end
print("for float start", table.concat(out, ","))
out = {}
for k = 1, 3.5 do out[#out + 1] = k end
print("for float limit", table.concat(out, ","), math.type(out[1]))
out = {}
for k = 3, 1.5, -1 do out[#out + 1] = k end
print("for float limit down", table.concat(out, ","))

-- loop variable modification does not affect iteration
out = {}
for k = 1, 3 do
  local orig = k
  k = k * 10
  out[#out + 1] = orig .. "->" .. k
end
print("modify loop var", table.concat(out, " "))

-- limits evaluated once
local lim = 3
out = {}
for k = 1, lim do lim = 10; out[#out + 1] = k end
print("limit once", table.concat(out, ","))

-- step zero error and bad values
print(pcall(function() for k = 1, 10, 0 do end end))
print(pcall(function() for k = 1.0, 10, 0.0 do end end))
print(pcall(function() for k = "a", 10 do end end))
print(pcall(function() for k = 1, {} do end end))
print(pcall(function() for k = 1, 2, "x" do end end))
print(pcall(function() for k = 1, 2, nil do end end))
-- numeric strings are accepted by the numeric for in 5.4
print(pcall(function() for k = "1", 2 do end end))

-- nested loops with break only leaving the inner loop
out = {}
for a = 1, 3 do
  for b = 1, 3 do
    if b > a then break end
    out[#out + 1] = a .. b
  end
end
print("nested break", table.concat(out, " "))

-- goto continue
out = {}
for k = 1, 10 do
  if k % 2 == 0 then goto continue end
  out[#out + 1] = k
  ::continue::
end
print("continue", table.concat(out, ","))

-- goto out of nested loops
out = {}
for a = 1, 10 do
  for b = 1, 10 do
    if a * b > 6 then goto done end
    out[#out + 1] = a * b
  end
end
::done::
print("goto break out", table.concat(out, ","))

-- goto backwards loop
do
  local k = 0
  ::again::
  k = k + 1
  if k < 5 then goto again end
  print("goto loop", k)
end

-- generic for with a stateless iterator
local function iter(limit, ctl)
  if ctl < limit then return ctl + 1, (ctl + 1) ^ 2 end
end
out = {}
for k, sq in iter, 4, 0 do out[#out + 1] = k .. ":" .. sq end
print("stateless", table.concat(out, " "))

-- generic for with a closure iterator
local function range(m)
  local k = 0
  return function() k = k + 1; if k <= m then return k end end
end
local s = 0
for v in range(100) do s = s + v end
print("closure iter", s)

-- generic for with closing value (4th value)
do
  local log = {}
  local closer = setmetatable({}, {__close = function() log[#log + 1] = "closed" end})
  for v in range(3), nil, nil, closer do log[#log + 1] = v end
  print("for closing", table.concat(log, ","))
  log = {}
  for v in range(3), nil, nil, closer do
    log[#log + 1] = v
    if v == 2 then break end
  end
  print("for closing break", table.concat(log, ","))
  log = {}
  local function early()
    for v in range(3), nil, nil, closer do
      if v == 1 then return "ret" end
    end
  end
  local r = early()
  log[#log + 1] = r
  print("for closing return", table.concat(log, ","))
  log = {}
  print(pcall(function()
    for v in range(3), nil, nil, closer do error("boom") end
  end))
  print("for closing error", table.concat(log, ","))
end

-- generic for: calling a non-function
print(pcall(function() for x in 1 do end end))
print(pcall(function() for x in nil do end end))
-- iterator via __call
local callable = setmetatable({}, {__call = function(self, st, ctl)
  ctl = ctl + 1
  if ctl <= 3 then return ctl end
end})
out = {}
for v in callable, nil, 0 do out[#out + 1] = v end
print("__call iterator", table.concat(out, ","))

-- while with complex conditions
local a, b = 0, 10
while a < 5 and b > 5 do a = a + 1; b = b - 1 end
print("while and", a, b)

-- deeply nested ifs
local function deep(x)
  if x > 0 then
    if x > 10 then
      if x > 100 then return "huge" else return "big" end
    else
      return "small"
    end
  elseif x < 0 then
    return "negative"
  end
  return "zero"
end
print("deep", deep(1000), deep(50), deep(5), deep(-1), deep(0))

-- break inside repeat and the until referencing locals
local cnt = 0
repeat
  cnt = cnt + 1
  local stop = cnt == 3
  if cnt == 10 then break end
until stop
print("repeat until stop", cnt)

print("control: OK")
