-- rawget/rawset: immediate and string keys read from the stack, present
-- and absent keys, metamethods bypassed, other keys, errors
local log = {}
local mt = { __index = function(_, k) log[#log + 1] = "idx " .. tostring(k) return "meta" end,
             __newindex = function(t, k, v) log[#log + 1] = "new " .. tostring(k) rawset(t, k, v) end }
local t = setmetatable({ 10, 20, 30, x = "X" }, mt)
print(rawget(t, 1), rawget(t, 3), rawget(t, 4), rawget(t, "x"), rawget(t, "y"), rawget(t, 0))
print(t[4], t.y, #log)
print(rawset(t, 2, 22) == t, rawset(t, "x", "XX") == t, rawget(t, 2), rawget(t, "x"), #log)
print(rawset(t, 5, 50) == t, rawset(t, "z", "Z") == t, rawget(t, 5), rawget(t, "z"), #log)
rawset(t, "x", nil)
print(rawget(t, "x"), t.x, #log)
rawset(t, "x", "again")
print(rawget(t, "x"), #log)
rawset(t, 3, nil)
print(rawget(t, 3), #t == 2 or #t == 5, rawlen(t) == #t)
print(rawget(t, 1.0), rawget(t, 2.0), rawget(t, 2.5), rawget(t, true), rawget(t, -1), rawget(t, 2^53))
rawset(t, 1.0, "one") rawset(t, 2.5, "twohalf") rawset(t, false, "F") rawset(t, 2^53, "big")
print(rawget(t, 1), rawget(t, 2.5), rawget(t, false), rawget(t, 2^53), rawget(t, math.tointeger(2^53)))
local n = 0 for k in pairs(t) do n = n + 1 end print(n)
print(pcall(rawget, "s", 1))
print(pcall(rawget, {}))
print(pcall(rawset, {}, nil, 1))
print(pcall(rawset, {}, 0/0, 1))
print(pcall(rawset, {}, 1))
print(pcall(rawset, 5, 1, 1))
print(select("#", rawget({}, 1)), select("#", rawget({5}, 1, 2)))
local big = {} for i = 1, 100 do big["k" .. i] = i end
local s = 0 for i = 1, 100 do rawset(big, "k" .. i, rawget(big, "k" .. i) * 2) s = s + big["k" .. i] end
print(s, table.concat(log, ","))
