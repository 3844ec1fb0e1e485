-- Closures, goto, numeric for corners, varargs, assignment order, literals.
-- closures in loops
local fs = {} for i = 1, 3 do fs[i] = function() return i end end print(fs[1](), fs[2](), fs[3]())
local ws = {} local j = 1 while j <= 3 do local k = j ws[j] = function() k = k + 10 return k end j = j + 1 end print(ws[1](), ws[1](), ws[2]())
local function counter() local c = 0 return function() c = c + 1 return c end, function() return c end end
local inc, get = counter() inc() inc() print(get())
-- goto continue
for i = 1, 5 do if i % 2 == 0 then goto continue end io.write(i, " ") ::continue:: end print()
do local i = 1 ::top:: if i <= 3 then io.write(i, ",") i = i + 1 goto top end print() end
-- goto with closures capturing fresh locals
local cl = {} do local i = 1 ::again:: local x = i cl[#cl+1] = function() return x end i = i + 1 if i <= 3 then goto again end end
print(cl[1](), cl[2](), cl[3]())
-- numeric for edge cases
for i = math.maxinteger - 2, math.maxinteger do io.write(i, " ") end print()
for i = math.mininteger, math.mininteger + 2 do io.write(i, " ") end print()
for i = math.mininteger + 2, math.mininteger, -1 do io.write(i, " ") end print()
for i = 1, 0 do print("never") end
for i = 0.1, 0.5, 0.1 do io.write(i, " ") end print()
for i = 1, 3.5 do io.write(i, " ") end print()
for i = 1.0, 3 do io.write(i, " ") end print()
for i = 3, 1, -0.5 do io.write(i, " ") end print()
for i = 1, math.huge do if i > 3 then break end io.write(i, " ") end print()
for i = 1, -math.huge do print("never") end
for i = math.maxinteger, 1e100 do io.write("x") break end print()
for i = 5, 2^53 + 10, 2^62 do io.write(i, " ") end print()
print(pcall(function() for i = 1, 10, 0.0 do end end))
for i = -1, -3, -1 do io.write(i) end print()
for i = 1, 3 do local j = i i = "changed" io.write(j) end print()
-- varargs
local function va(...) local a, b = ... return select('#', ...), a, b, ... end
print(va()) print(va(nil)) print(va(1, nil, nil)) print((va(1, 2, 3)))
local function pk(...) return {...}, select('#', ...) end print(#(pk(1, 2, 3)), select(2, pk(nil, nil)))
print(select(2, "a", "b", "c"), select(-2, "a", "b", "c"))
local function tailva(...) return select('#', ...) end print(tailva(table.unpack({}, 1, 3)))
-- multiple assignment evaluation order
local a, b, c = 1 print(a, b, c)
local t = {} local i = 1 i, t[i] = i + 1, 20 print(i, t[1], t[2])
local x, y = 1, 2 x, y = y, x print(x, y)
-- string coercion in concat
print(1 .. "", 1.0 .. "", -0.0 .. "", 2^63 .. "", 10 // 1 .. "")
-- integer division and modulo by negative
print(7 // -2, -7 // -2, 7 % -2, -7 % -2, 7.5 // -2, 7.5 % -2)
print(math.mininteger // -1, math.mininteger % -1, math.mininteger * -1 == math.mininteger)
-- long string nesting
print([==[a]]b]=]c]==], [[
first newline skipped]], "\z
      skip spaces", "\x41\65\u{41}", '\'', "tab\tend")
-- numeric literals
print(0xA, 0Xa, 1e2, 1E-2, .5, 5., 0x.8, 0x8p1, 3e0, 0x7FFFFFFFFFFFFFFF, 0x8000000000000000, 1//1)
print(100000000000000000000, 0xffffffffffffffffff, 1e309, -1e309)
-- integer/float key equality
local kt = {} kt[1] = "int" kt[1.0] = "float" kt[2^63] = "big" print(kt[1], #kt, kt[2^63])
-- operator precedence
print(2 ^ 3 ^ 2, -2 ^ 2, not 1 == 2, 1 .. 2 .. 3, "a" .. 1 + 2, 2 * 3 % 4, 1 << 2 + 1, 5 & 3 | 8, 1 < 2 == true, -3 // 2 * 2)
print(#"abc" + 1, - - 2, not not nil, ~5 ~ 3)
-- and/or
print(nil or false, false or nil, nil and 1, 1 and nil, 0 and "zero", "" or "x", (nil or 1) and 2)
-- while/repeat with locals visible in until
local n = 0 repeat local done = n >= 3 n = n + 1 until done print(n)
-- method call on number literal via string
print(("%d"):rep(2), #("abc"):upper())
-- semicolons
;;; print("semi") ;
-- table constructors
local tc = {1, 2, 3, [2] = "two", x = "x", [1 + 2] = "three"; "four"} print(tc[1], tc[2], tc[3], tc[4], tc.x)
local function three() return 1, 2, 3 end
local tc2 = {three(), three()} print(#tc2) local tc3 = {three(), (three())} print(#tc3) local tc4 = {three(), nil} print(#tc4)
print(#{n = 1, three()}, select('#', (three())))
print(load("do goto l; local x; ::l:: end return 'ok'")())
print(load("do goto l; local x; ::l:: ; ; end return 1") ~= nil)
print(load("do goto l; local x; ::l:: print(x) end"))
print(load("repeat goto cont; local x; ::cont:: until x"))
print(load("::a:: do ::a:: end"))
print(load("goto a; do ::a:: end"))
print(load("local x <const> = 10; local function f() return x end return f()")())
print(load("local x <const> = {}; x.a = 1; return x.a")())
print("a\0b" < "a\0c", "a\0b" < "a", "a" < "a\0", "\0" < "\1", #"a\0b\0")
print(tostring(nil), tostring(true), tostring(false), tostring(-0), tostring(0x10), tostring(1e3))
for i = 1, 0, -1e-300 do io.write("[", i, "]") break end print()
local a = {b = {c = {}}} function a.b.c:d(x) return self == a.b.c, x end print(a.b.c:d(5))
function a.b.f(...) return select('#', ...) end print(a.b.f(1, 2))
local t = {} t[2^53] = 1 t[2^53 + 0.0] = 2 print(t[2^53], next(t))
print(string.format("%s", 1e100), 1e100 == 10^100, 2^1000 // 1 == 2^1000)
print(#table.pack(string.byte("hello", 1, -1)), string.byte("", 1), select('#', string.byte("", 1)))
print(("x"):rep(3, ", "), ("ab"):rep(2, ""), pcall(string.rep, "x", 2^31, "y"))
local s = 0 for i = 10, 1, -3 do s = s + i end print(s)
local w = {} for k, v in ipairs({[1] = "a", [2] = "b", [4] = "d"}) do w[#w+1] = v end print(table.concat(w))
print(string.format("%-5s|%5s|", "abcdefg", "ab"), ("%s=%s"):format("k", "v"), ("%5.1f"):format(3.14159))
print(type(io.stdout), io.stdout ~= io.stderr, tostring(io.stdout):match("^file %(") ~= nil)
print(rawequal(0, -0), rawequal(0, 0.0), 0 == -0.0, math.type(-0), 1/(-0) , 1/(-0.0))
print(string.format("%d %s", -0, -0.0), -0 == 0, 3 // -0.0, -3 % math.huge, 3 % -math.huge)
print(8 % 3.5, -8 % 3.5, 8 % -3.5, 2^0.5 * 2^0.5 == 2, 7 // 0.5, -7 // 0.5)
print(math.fmod(-6, 4), math.fmod(6, -4), math.fmod(-6.0, 4), math.fmod(math.mininteger, math.maxinteger), math.fmod(3, math.mininteger), math.fmod(-3, math.huge))
print(pcall(math.fmod, 1, 0), math.fmod(1, 0.0), math.fmod(0, 1), math.fmod(math.huge, 1))
local tk = {} for i = 1, 5 do tk[i] = i end table.remove(tk, 1) print(#tk, table.concat(tk, ","))
table.insert(tk, 1, 0) print(table.concat(tk, ","), pcall(table.insert, tk, 0, 9), pcall(table.insert, tk, 7, 9), select(2, pcall(table.insert, tk, 6, 9)))
print(select('#', table.remove({})), select('#', table.remove({}, 1)))
print(next({}, nil), pcall(next, {}, 1))
print(string.len(string.rep("a", 1000, "b")), ("x"):byte(-1), ("xyz"):byte(-2, -1))
print(tostring(print):match("^builtin") or tostring(print):match("^function") )
print(#arg, ...)
