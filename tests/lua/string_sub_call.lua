-- string.sub(s, i [, j]) called by the interpreter for one result (vm.c
-- OP_CALL makes the string without a C frame when i >= 1 and j >= 0 are
-- immediate integers) and every neighbouring case that takes the C function:
-- negative and zero positions, j past the end, i past j, other result
-- counts, floats, huge and minimum integers, non-string subjects (numbers
-- are converted), errors, hooks, tracebacks, string.sub replaced, and
-- collections during the call (MVM_GC_STRESS runs this too).
local sub = string.sub
local s = "Hello, world\0\255!"
local out = {}
for i = -3, #s + 2 do
  for j = -3, #s + 2 do
    out[#out + 1] = sub(s, i, j)
  end
  out[#out + 1] = sub(s, i)
end
print(#out, #table.concat(out), table.concat(out):byte(1, 20))
local acc = 0
for i = 1, #out do acc = (acc * 31 + #out[i] + (out[i]:byte(1) or 0)) % 1000003 end
print(acc)
print(sub(s, 1, 5), sub(s, 8), sub(s, 0), sub(s, 3, 2) == "", sub("", 1, 1) == "", sub(s, 100, 200) == "")
print(sub(s, 1, 0) == "", sub(s, 2, 2), #sub(s, 13, 14), sub(s, 12, 12))
print(sub(s, math.maxinteger), sub(s, 1, math.maxinteger) == s, sub(s, math.mininteger, 3))
print(sub(s, 2^46, 2^47) == "", sub(s, 3, 2^62) == sub(s, 3))
local a, b = sub(s, 1, 2)                 -- two results wanted
print(a, b, select('#', sub(s, 1, 2)))
print(sub(s, 2.0, 4.0), pcall(sub, s, 2.5), pcall(sub, s, 1, "x"))
print(sub(123456, 2, 4), sub(1.5, 1, 2), pcall(sub, {}, 1), pcall(sub))
print(s:sub(1, 4), s:sub(-3), ("x"):rep(40):sub(3, 30) == ("x"):rep(28))
-- a result that is used as a table key and compared (interned)
local t = {}
for i = 1, #s - 1 do local w = sub(s, i, i + 1); t[w] = (t[w] or 0) + 1 end
print(t["He"], t["ld"], t["o,"], sub(s, 1, 2) == "He")
-- long results and many new strings (collections while making them)
local long = ("abcdefghij"):rep(50)
local n = 0
for i = 1, #long - 30, 7 do
  local w = sub(long, i, i + 29)
  if w == sub(long, i, i + 29) and #w == 30 then n = n + 1 end
end
local made = {}
for i = 1, 20000 do made[i] = sub("k" .. i .. "x", 2, -2) end
print(n, made[1], made[20000], #made)
-- a hook sees the C call
local calls = 0
debug.sethook(function(ev) calls = calls + 1 end, "c")
local h = sub(s, 1, 3)
debug.sethook()
print(h, calls > 0)
-- errors inside a caller's traceback
print(select(2, pcall(function() return sub(nil, 1, 2) end)))
-- the library function replaced: the call is the replacement's
local real = string.sub
string.sub = function(x, i, j) return "R" .. real(x, i, j) end
print(("abc"):sub(1, 2), string.sub("abc", 2, 3), sub("abc", 1, 1))
string.sub = real
print(("abc"):sub(1, 2))
