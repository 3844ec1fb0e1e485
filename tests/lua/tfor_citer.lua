-- Generic for loops whose iterator is a C function (next, ipairs', string
-- gmatch's, coroutine.wrap's, coroutine.yield): the interpreter calls it
-- inline (vm.c tfor_docall).  Results adjusted to the loop's variables,
-- errors, yields across the call, hooks set inside the loop.

-- fewer results than variables (nil-filled), more (dropped)
local n = 0
for k, v, extra in ipairs({10, 20, 30}) do
  assert(extra == nil)
  n = n + k * v
end
print("ipairs", n)
local keys = {}
for k in pairs({a = 1, b = 2, c = 3}) do keys[#keys + 1] = k end
table.sort(keys)
print("pairs", table.concat(keys, ","))
for w, rest in string.gmatch("one two three", "(%a+)") do
  io.write(w, ":", tostring(rest), " ")
end
print()

-- a C iterator that is a coroutine.wrap generator
local gen = coroutine.wrap(function() for i = 1, 3 do coroutine.yield(i, i * i) end end)
for a, b in gen do io.write(a, "=", b, " ") end
print()

-- the iterator is coroutine.yield itself: each step yields to the resumer
local co = coroutine.create(function()
  local got = {}
  for v in coroutine.yield, "state", "ctl" do got[#got + 1] = v end
  return table.concat(got, ",")
end)
local ok, a, b = coroutine.resume(co)
print("first yield", ok, a, b)
print(coroutine.resume(co, "x"))
print(coroutine.resume(co, "y"))
print(coroutine.resume(co, nil))

-- an iterator that raises
local function bad() error("iterator failed") end
print(pcall(function() for _ in bad do end end))
print(pcall(function() for _ in next, 42 do end end))

-- a hook set from inside the loop body sees the following lines
local lines = 0
for i, v in ipairs({1, 2, 3, 4}) do
  if i == 2 then debug.sethook(function() lines = lines + 1 end, "l") end
end
debug.sethook()
print("hooked lines", lines > 0)

-- a to-be-closed value as the loop's fourth value
do
  local closed = false
  local tbc = setmetatable({}, {__close = function() closed = true end})
  for i in next, {5, 6}, nil, tbc do end
  print("closed", closed)
end
