-- string.byte called with one or two arguments for one result runs inline
-- in compiled code (llvmgen.c bytecall) when the callee is the library's
-- function: positions inside the string, at its ends, beyond them, zero
-- and negative ones, floats and strings as positions, non-string subjects
-- (numbers convert), errors, the method form s:byte(i), bytes 0 and 255,
-- and callees that only look like string.byte.
local byte = string.byte
local s = "hello\0\255x"
local function f(str, i) local b = byte(str, i) return b end
local function g(str) local b = byte(str) return b end
local function h(str, i) local b = str:byte(i) return b end
local function m(str, i) local b = string.byte(str, i) return b end
local positions = {1, 2, 6, 7, 8, 9, 0, -1, -8, -9, 2.0, 2.5, "3", 2^50, math.mininteger, math.maxinteger}
for r = 1, 3 do
  local out = {}
  for _, i in ipairs(positions) do
    local ok1, v1 = pcall(f, s, i)
    local ok2, v2 = pcall(h, s, i)
    local ok3, v3 = pcall(m, s, i)
    out[#out + 1] = tostring(ok1 and v1) .. "/" .. tostring(ok2 and v2) .. "/" .. tostring(ok3 and v3)
  end
  if r == 3 then print(table.concat(out, " ")) end
end
print("one arg", g(s), g(""), g("A"), g(65))
print("number subject", f(1234, 2), pcall(f, {}, 1))
print("bad position", pcall(f, s, "x"))
print("bad position", pcall(f, s, {}))
print("no subject", pcall(g))
-- a loop over every byte, compiled
local function sum(str)
  local t = 0
  for i = 1, #str + 2 do t = t + (byte(str, i) or 1000) end
  return t
end
local all = {}
for i = 0, 255 do all[#all + 1] = string.char(i) end
local big = table.concat(all)
for _ = 1, 3 do print("sum", sum(big), sum(""), sum("abc")) end
-- a replaced string.byte, a local of the same name, the string metatable
string.byte = function(str, i) return "mine" .. tostring(i) end
print("replaced", m(s, 2), f(s, 2), h(s, 2))
string.byte = byte
local byte = function(str, i) return -1 end
local function f2(str, i) local b = byte(str, i) return b end
print("local", f2(s, 1), f2(s, 1))
getmetatable("").__index = { byte = function() return "meta" end }
print("metatable", h(s, 1), h(s, 1))
getmetatable("").__index = string
print("restored", h(s, 1))
