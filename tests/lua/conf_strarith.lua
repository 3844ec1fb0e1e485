-- String arithmetic is done by the string library's metamethods, as in 5.4.
print("10" + 1, "3" * "4", "2" ^ "3", "7" // "2", "7" % "2", -"3", "0x10" + 0, " 5 " - 1)
print(math.type("10" + 0), math.type("10" * 1.0), math.type("1e1" + 0), "6" / "2")
print(pcall(function() return "a" + 1 end))
print(pcall(function() return {} + "1" end))
-- no string metamethods for bitwise operators: strings are not converted
print(pcall(function() return "3" | 0 end))
print(pcall(function() local s = "0xff" return s & 15 end))
local smt = getmetatable("")
local keys = {} for k in pairs(smt) do keys[#keys + 1] = k end table.sort(keys)
print(table.concat(keys, " "))
print(smt.__add("1", 2), pcall(smt.__add, "a", 2))
print(pcall(smt.__unm, "x"))
-- a table operand with its own metamethod wins through the string handler
local obj = setmetatable({}, {__add = function(a, b) return "obj add" end, __unm = function() return "obj unm" end})
print("1" + obj, obj + "1", -obj)
-- replacing the string metamethods changes string arithmetic
local oldadd, oldmul = smt.__add, smt.__mul
smt.__add = function(a, b) return "custom(" .. tostring(a) .. "," .. tostring(b) .. ")" end
print("1" + "2", "x" + 1, 1 + "y", 1 + 2)
smt.__add = nil
print(pcall(function() return "1" + 2 end))
print(pcall(function() local s = "1" return 2 + s end))
smt.__mul = nil
print(pcall(function() return "2" * "3" end))
print("4" - "1", "9" / "3")
smt.__add, smt.__mul = oldadd, oldmul
print("1" + "2", "2" * "3")
