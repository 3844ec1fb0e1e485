-- mvm-test: no-differential (ffi: expected output written by hand from the C definitions)
-- A callback that runs during a direct C call from compiled code
-- (jit/llvmffi.inc) sees the calling frame as the interpreter would:
-- debug.getlocal reads the frame's current number locals, and
-- debug.setlocal changes them for the code that runs after the call.
local ffi = require("ffi")
local L = require("lib.ffitest")

ffi.cdef[[
typedef int (*binop)(int, int);
int ft_apply(binop f, int a, int b);
]]

-- the frame running 'target' (its level as seen by findlocal's caller):
-- the callback's caller, or one level more when the C function has a
-- frame of its own (the generic call path)
local function findlocal(target, name)
  for level = 3, 7 do
    local info = debug.getinfo(level, "f")
    if info == nil then return nil end
    if info.func == target then
      for k = 1, 50 do
        local n, v = debug.getlocal(level, k)
        if n == nil then break end
        if n == name then return level - 1, k, v end
      end
    end
  end
end

local seen = {}
local target
local cb = ffi.cast("binop", function(a, b)
  local level, k, v = findlocal(target, "acc")
  seen[#seen + 1] = v
  if a % 25 == 0 then debug.setlocal(level, k, v + 1000) end
  return a + b
end)

local function make()
  local apply = L.ft_apply
  return function(n)
    local acc, r = 0, 0
    for i = 1, n do
      acc = acc + i          -- a number local, changed before each call
      r = r + apply(cb, i, 1)
      acc = acc * 1          -- read after the call: sees setlocal's value
    end
    return acc, r
  end
end

for round = 1, 4 do
  seen = {}
  target = make()
  local acc, r = target(100)
  local ok = true
  local expect = 0
  for i = 1, 100 do
    expect = expect + i
    if seen[i] ~= expect then ok = false; print("round", round, "call", i, "saw", seen[i], "want", expect) break end
    if i % 25 == 0 then expect = expect + 1000 end
  end
  print(round, acc, r, ok)
end
cb:free()
