-- assert as a statement takes a fast path in the interpreter (vm.c OP_CALL)
-- and in compiled code (llvmgen.c assertcall): a true first argument goes on
-- without a call.  Everything else must behave as the real call: false and
-- nil raise with the message (or "assertion failed!"), no argument is an
-- argument error, the results are all the arguments when used, hooks see
-- every call, and a global 'assert' replaced meanwhile is the one called.

-- a hot loop of passing asserts (compiled under -j on/eager), then failing
-- ones from the same code, with and without a message
local function check(t, n, msg)
  local s = 0
  for i = 1, n do
    assert(t[i] ~= nil, msg)
    assert(t[i])                -- any true value: a number, a string, a table
    s = s + (type(t[i]) == "number" and t[i] or 1)
  end
  return s
end
local t = {}
for i = 1, 200 do t[i] = i % 3 == 0 and "x" or (i % 5 == 0 and {} or i) end
local sum = 0
for _ = 1, 300 do sum = sum + check(t, 200, "gap") end
print("sum", sum)
print(pcall(check, { 1, 2, nil, 4 }, 4, "gap at 3"))
print(pcall(check, { 1, false }, 2, "false"))
print(pcall(check, { 1, 2 }, 3, nil))          -- nil message: "assertion failed!"
print(pcall(check, { 1 }, 2, 42))              -- a non-string message is the error
print(select(2, pcall(check, { 1 }, 2, { "tab" }))[1])

-- no argument at all (B = 1: not the fast path) and a vararg call (B = 0)
print(pcall(function() assert() end))
local function va(...) assert(...) return "va ok" end
for _ = 1, 300 do va(1, 2) end
print(pcall(va, true, "m"))
print(pcall(va, false, "va message"))
print(pcall(va))

-- results used: assert returns all of its arguments
local function firsttwo(a, b, c) local x, y = assert(a, b, c) return x, y end
for i = 1, 300 do firsttwo(i, "b", "c") end
print(firsttwo(7, "b", "c"))
print(select("#", assert(1, nil, 3, nil)))
print(pcall(firsttwo, nil, "why"))

-- the global replaced by a Lua function: the guard sees the new value
local calls = 0
local real = assert
local function loop(n)
  local c = 0
  for i = 1, n do assert(i > 0, "pos"); c = c + 1 end
  return c
end
for _ = 1, 200 do loop(100) end
assert = function(v, m) calls = calls + 1; return real(v, m) end
print("replaced", loop(100), calls)
assert = print   -- another C function: it is called (prints a line)
loop(1)
assert = real
print("restored", loop(100))

-- a call hook sees every call of assert, fast path or not
local seen = 0
local function hooked(n)
  for i = 1, n do assert(i) end
end
for _ = 1, 300 do hooked(50) end
debug.sethook(function()
  if debug.getinfo(2, "f").func == real then seen = seen + 1 end
end, "c")
hooked(25)
debug.sethook()
print("hooked calls", seen)

-- an error's traceback names the line of the failing assert
local ok, msg = xpcall(function() check({ 1, 2, 3 }, 5, "traced") end, debug.traceback)
print(ok, (msg:match("^[^\n]*")))
print(msg:find("in upvalue 'check'", 1, true) ~= nil or msg:find("in local 'check'", 1, true) ~= nil
      or msg:find("check", 1, true) ~= nil)
