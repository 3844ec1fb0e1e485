-- == on registers and # on strings: distinct words that are strings,
-- nil, booleans or immediates are unequal at once; numbers of different
-- representations, tables and userdata with __eq still compare fully.
local vals = {nil, false, true, 0, 1, -1, 0.0, -0.0, 1.0, 2^47, 2^47 + 0.0,
              math.maxinteger, math.mininteger, 2^53, 0/0, 1/0, "", "a", "1",
              "0", {}, print}
local n = 22
local names = {}
for i = 1, n do
  local v = vals[i]
  names[i] = type(v) == "table" and "table" or type(v) == "function" and "function"
             or (type(v) == "number" and math.type(v) .. ":" .. tostring(v)) or tostring(v)
end
for i = 1, n do
  local row = {}
  for j = 1, n do
    local a, b = vals[i], vals[j]
    row[#row + 1] = (a == b) and "1" or "0"
    assert((a ~= b) == not (a == b))
  end
  print(names[i], table.concat(row))
end
-- equal strings built in different ways are one string
local s1 = "ab" .. "cd"
local s2 = table.concat({"a", "bcd"})
local s3 = string.rep("abcd", 1)
print(s1 == s2, s2 == s3, s1 == "abcd", s1 ~= s2)
local long1 = string.rep("x", 300) .. "y"
local long2 = string.rep("x", 300) .. "y"
local long3 = string.rep("x", 300) .. "z"
print(long1 == long2, long1 == long3)
-- __eq on tables and the string/table mix
local mt = {__eq = function(a, b) return a.k == b.k end}
local t1, t2 = setmetatable({k = 1}, mt), setmetatable({k = 1}, mt)
local t3 = setmetatable({k = 2}, mt)
print(t1 == t2, t1 == t3, t1 ~= t2, t1 == "x", "x" == t1, t1 == nil, nil == t1)
local calls = 0
local mt2 = {__eq = function() calls = calls + 1; return true end}
local u1, u2 = setmetatable({}, mt2), setmetatable({}, mt2)
print(u1 == u2, u1 == 1, 1 == u1, u1 == false, calls)
-- # of strings and of other values
local strs = {"", "a", "hello", string.rep("z", 1000), "a\0b", "\0"}
for _, s in ipairs(strs) do io.write(#s, " ") end
print()
local t = {1, 2, 3}
print(#t, #setmetatable({}, {__len = function() return 42 end}))
print(pcall(function() local x = 5; return #x end))
print(pcall(function() local x; return #x end))
print(select('#', pcall(function() return #true end)))
local sm = getmetatable("")
local old = sm.__len
sm.__len = function() return -1 end   -- # of a string never uses __len
print(#"abc")
sm.__len = old
