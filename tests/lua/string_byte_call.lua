-- string.byte(s, i) called by the interpreter for one result (vm.c OP_CALL
-- answers it without a C frame) and every neighbouring case that must take
-- the C function: other result counts, positions out of range, non-string
-- subjects, float positions, hooks, string.byte replaced
local byte = string.byte
local s = "Hello, world\0\255"
local acc = {}
for i = -2, #s + 2 do
  local b = byte(s, i)
  acc[#acc + 1] = tostring(b)
end
print(table.concat(acc, " "))
local x, y = byte(s, 2)           -- two results wanted
print(x, y)
print(byte(s, 2))                  -- all results
print((byte(s, 3)), select('#', byte(s, 3)), select('#', byte(s, 99)))
print(byte(12345, 2), byte(s, 2.0), pcall(byte, s, 2.5))
print(pcall(byte, {}, 1), pcall(byte, s, "x"))
print(s:byte(1), s:byte(#s), s:byte(#s + 1))
local t = {}
for i = 1, #s do t[i] = s:byte(i) end
print(table.concat(t, ","))
-- a hook sees the C call
local calls = 0
debug.sethook(function(ev) calls = calls + 1 end, "c")
local h = byte(s, 1)
debug.sethook()
print(h, calls > 0)
-- the library function replaced: the call is the replacement's
local real = string.byte
string.byte = function(str, i) return -1 end
print(string.byte(s, 1), ("x"):byte(1))
string.byte = real
local sum = 0
for i = 1, 100000 do sum = sum + byte(s, i % 14 + 1) end
print(sum)
