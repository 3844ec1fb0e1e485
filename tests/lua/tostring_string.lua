-- luaL_tolstring of a string (tostring, print, %s) reads the string
-- metatable's __tostring in place: strings with and without __tostring in
-- that metatable, the metatable removed and replaced, embedded zeros, long
-- strings, errors from a __tostring that returns no string.
local s = "hello\0world"
print(tostring("abc"), #tostring(s), string.format("[%s|%5s|%-5s|%.2s]", "x", "ab", "cd", "xyz"))
print(string.format("%s", s) == s, tostring(("z"):rep(300)) == ("z"):rep(300))
local mt = getmetatable("")
mt.__tostring = function(x) return "<" .. #x .. ">" end
print(tostring("abc"), string.format("%s/%s", "hi", 12), ("q"):rep(3))
print("print sees it:", "abc")
mt.__tostring = function() return 42 end
print(pcall(tostring, "abc"))
print(pcall(string.format, "%s", "abc"))
mt.__tostring = false
local ok, err = pcall(tostring, "abc")
mt.__tostring = nil
print(ok, err)
print(tostring("back"), string.format("%s", "plain"))
mt.__name = "STR"            -- __name never applies to strings
print(tostring("named"))
mt.__name = nil
debug.setmetatable("", nil)   -- no string metatable at all
print(tostring("nomt"), string.format("%s", "nomt"))
debug.setmetatable("", { __tostring = function(x) return x:len() end, __index = string })
print(pcall(tostring, "wrong"))
debug.setmetatable("", { __tostring = function(x) return "T" end, __index = string })
print(tostring("new"), string.format("%s", "new"), ("new"):upper())
debug.setmetatable("", mt)
print(tostring("restored"), ("restored"):upper())
-- numbers and other values are unchanged
print(tostring(1), tostring(1.5), tostring(nil), tostring(true), string.format("%s %s", 10, 2^63))
