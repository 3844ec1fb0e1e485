-- tostring, print and %s of numbers while numbers have no metatable (vm/api.c
-- api_tolstringnum) and with one (__tostring, __name)
print(tostring(12), tostring(-0.0), tostring(1e100), tostring(2^63), tostring(math.mininteger), tostring(0/0) == tostring(0/0))
print(string.format("%s|%s|%5s|%-6s|", 1, 2.5, 3, 4.0))
debug.setmetatable(0, { __tostring = function(n) return "N" .. math.type(n) end })
print(tostring(12), tostring(1.5), string.format("%s", 7))
debug.setmetatable(0, { __name = "Num" })
print((tostring(12):gsub("0x%x+", "ADDR")))
debug.setmetatable(0, nil)
print(tostring(12), tostring(1.5))
print(pcall(tostring))
local t = {}
for i = -5, 5 do t[#t + 1] = tostring(i * 7) .. "/" .. tostring(i / 4) end
print(table.concat(t, " "))
print(1, 2.0, -3, 1e15, 2^53, 123456789012)
