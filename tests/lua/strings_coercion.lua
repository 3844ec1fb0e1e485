-- strings_coercion.lua: string <-> number conversions done by the language
print("strings_coercion: start")

local function show(v) return tostring(v) .. ":" .. (math.type(v) or type(v)) end

-- string -> number in arithmetic keeps the numeral's subtype
print(show("10" + 0), show("10.0" + 0), show("0x10" + 0), show("1e2" + 0))
print(show("10" * "2"), show("3" / "2"), show("7" // "2"), show("7" % "3"), show("2" ^ "2"))
print(show(-"3"), show(-"3.5"), show(-"0x10"), show("  12  " + 0), show("\t5\n" + 0))
print(show("9223372036854775807" + 0), show("9223372036854775808" + 0))
print(show("0x7fffffffffffffff" + 0), show("0xffffffffffffffff" + 0))
print(show("1" + 1.5), show(1 + "1.5"), show("inf" == nil), show(".5" + 0), show("5." + 0))

-- non-numeric strings fail
local function perr(f) local ok, msg = pcall(f); print(ok, msg) end
perr(function() return "abc" + 1 end)
perr(function() return "1a" + 1 end)
perr(function() return "" + 1 end)
perr(function() return " " + 1 end)
perr(function() return "1 2" + 1 end)
perr(function() return "0x" + 1 end)
perr(function() return "1e" + 1 end)
perr(function() return "nan" + 1 end)
perr(function() return "inf" + 1 end)
perr(function() local s = "x"; return -s end)

-- number -> string in concatenation
print(1 .. "", 1.0 .. "", -1 .. "", 1e100 .. "", 2^63 .. "", 0.1 .. "")
print(math.maxinteger .. "", math.mininteger .. "", 1/0 .. "", -1/0 .. "")
print(12345678901234 .. "", 1234567890123456 .. "", 0.1 + 0.2 .. "")
print(100 // 1.0 .. "", 3 % 2.0 .. "", 2^31 .. "", 1e15 .. "", 1e14 + 0.5 .. "")

-- strings are not converted for comparisons or equality
print("1" == 1, "1" ~= 1, "10" < "9")
perr(function() return "1" < 2 end)
perr(function() return 1 <= "2" end)

-- tonumber / tostring (conversions the language relies on)
print(show(tonumber("10")), show(tonumber("10.5")), show(tonumber("  0x1F  ")), show(tonumber("1e-2")))
print(show(tonumber("z", 36)), show(tonumber("ff", 16)), show(tonumber("777", 8)), show(tonumber("11", 2)))
print(show(tonumber("")), show(tonumber("0x")), show(tonumber("1e")), show(tonumber("- 1")))
print(show(tonumber("-0x10")), show(tonumber("-  1")), show(tonumber("0x1p1")), show(tonumber("1E+1")))
print(show(tonumber(10)), show(tonumber(10.5)), show(tonumber(nil)), show(tonumber({})))
print(show(tostring(10)), show(tostring(-0.0)), show(tostring(1e16)), show(tostring(123.0)))

-- integer keys from strings are not normalized in tables
local t = {}
t["1"] = "string one"
t[1] = "integer one"
print(t["1"], t[1], t[1.0])

-- string arithmetic metamethods cover mixed cases
print(show("2" + "3"), show(2 + "3"), show("2" + 3), show("2.0" + 3))
print(show("10" - 1), show("10" * 1.0), show("-10" // 3), show("-10" % 3))

-- integer-looking floats in strings remain floats
print(show("3.0" + 0), show("3.0" * 1), show("1e0" + 0))

-- concatenation with floats uses %.14g
print(1/3 .. "", 100/3 .. "", 2/3 * 3 .. "", 1e-10 .. "", 123456789012345.6 .. "")

-- string.format %d with float integral value (common use)
print(string.format("%d", 3.0), pcall(string.format, "%d", 3.5))

-- length of numbers is an error, but of numeric strings is fine
print(#"123", pcall(function() local n = 123; return #n end))

print("strings_coercion: OK")
