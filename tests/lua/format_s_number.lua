-- string.format("%s") of numbers (written in place when numbers have no
-- metatable), next to widths, strings, and numbers with a metatable
local f = string.format
print(f("%s|%s|%s|%s", 0, -1, math.maxinteger, math.mininteger))
print(f("%s|%s|%s|%s|%s", 1.5, -0.0, 1e100, 2^53, 100.0))
print(f("%s|%s|%s", 1/0, -1/0, 0.1))
print((f("%s", 0/0):gsub("-", "")))
print(f("[%s][%5s][%-6s][%.2s]", 42, 42, 3.5, 12345))
print(f("%s=%s;%s=%s", "a", 1, "b", 2.25), f("%s", "str"), f("%s%s%s", 1, 2, 3))
print(f("%s %d %s", 7, 8, 9.0), #f("%s", 123456789012))
for i = -3, 3 do io.write(f("%s,", i * 1000003)) end print()
debug.setmetatable(0, { __tostring = function(n) return "N(" .. math.type(n) .. ")" end })
print(f("%s %s", 1, 2.5))
debug.setmetatable(0, { __name = "Num" })
print(f("%s", 3):gsub("0x%x+", "ADDR"))
debug.setmetatable(0, nil)
print(f("%s %s", 4, 4.5))
print(pcall(f, "%s"))
print(pcall(f, "%s %s", 1))
