-- hello.lua: smoke test of the corpus runner and the basic language
print("hello, world")
local t = {}
for i = 1, 5 do t[#t + 1] = i * i end
print(table.concat(t, " "))
print(string.format("%d %s %.2f", 42, "str", 1 / 3))
print(10 // 3, 10 / 4, 2^10, 7 % 3, 1 << 4)
print(math.type(1), math.type(1.0), type("x"), type(nil))
local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
print("fib(20) =", fib(20))
print(select("#", 1, nil, 3), pcall(error, "caught"))
