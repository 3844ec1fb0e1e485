-- concatenations whose operands are all strings (vm_concat's one-scan
-- path) next to mixed ones, long results, metamethods and errors
local function show(s) return #s .. ":" .. s:gsub("%z", "~"):sub(1, 40) end
local a, b, c, e = "abc", "defgh", "ij\0kl", ""
print(show(a .. b), show(a .. b .. c), show(e .. e), show(a .. e), show(e .. a))
print(show(e .. e .. e .. a .. e), a .. b == "abcdefgh", (a .. b) == ("ab" .. "cdefgh"))
for _, n in ipairs({ 0, 1, 7, 8, 9, 15, 16, 17, 100, 127, 128, 129, 200, 255, 256, 257, 300 }) do
  local x = string.rep("x", n)
  local y = x .. "" .. "y"
  local z = "<" .. x .. ">" .. x
  print(n, #y, #z, y:sub(-3), z:sub(1, 3), z == "<" .. string.rep("x", n) .. ">" .. x)
end
local parts = {}
for i = 1, 40 do parts[i] = "p" .. i end
local many = parts[1] .. parts[2] .. parts[3] .. parts[4] .. parts[5] .. parts[6] .. parts[7] ..
  parts[8] .. parts[9] .. parts[10] .. parts[11] .. parts[12] .. parts[13] .. parts[14]
print(many, #many)
-- strings with numbers in between (the general path), floats, integers
print(a .. 1 .. b, 1 .. a, a .. 2.5, 3 .. 4, a .. -0.0 .. b, "x" .. math.mininteger)
-- __concat on a table among strings, on either side
local mt = { __concat = function(l, r)
  local ls = type(l) == "table" and "T" or l
  local rs = type(r) == "table" and "T" or r
  return ls .. "+" .. rs
end }
local t = setmetatable({}, mt)
print(a .. t, t .. a, a .. b .. t, t .. a .. b, a .. t .. b, t .. t)
-- errors
print(pcall(function() return a .. {} end))
print(pcall(function() return a .. b .. nil end))
print(pcall(function() return true .. a end))
-- a result equal to an existing string is that string (interned)
local k = {}
k[a .. b] = 1
print(k["abcdefgh"], k["abc" .. "defgh"])
-- results in a loop (new strings, collected)
local n = 0
for i = 1, 2000 do
  local s = "k" .. tostring(i) .. "-" .. "v"
  n = n + #s
end
print(n)
-- numbers formatted into the short result: floats, integral floats,
-- extremes, inf/nan, and results that cross the 256-byte bound
print("f" .. 1e15 .. "|" .. 2^63 .. "|" .. -1.5e-7 .. "|" .. 1/0 .. "|" .. -1/0 .. "|" .. 100.0)
print(math.maxinteger .. "" .. math.mininteger, 0.1 .. 0.2, 3 .. "" .. 4.0)
local nan = tostring(0/0):gsub("-", "")
print((("" .. 0/0):gsub("-", "")) == nan)
local acc = ""
for i = 1, 60 do acc = acc .. i .. "," end
print(#acc, acc:sub(1, 20), acc:sub(-20))
local long = string.rep("y", 250)
print(#(long .. 123456 .. "z"), #(long .. 1.25), #(long .. "abcdef" .. 7))
