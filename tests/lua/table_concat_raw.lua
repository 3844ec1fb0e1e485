-- table.concat: plain tables (read in place), numbers, separators, ranges,
-- hash-part keys, errors, and tables with metatables (__index, __len)
local concat = table.concat
local function show(...) print(select("#", ...), ...) end

-- strings and separators
print(concat({}))
print(concat({}, ","))
print(concat({"a"}))
print(concat({"a"}, ","))
print(concat({"a", "b", "c"}))
print(concat({"a", "b", "c"}, ", "))
print(concat({"a", "", "c", ""}, "-"))
print(concat({"x", "y"}, nil))
print(concat({"x", "y"}, nil, nil, nil))
print(concat({"a", "b", "c"}, 7))          -- a number separator
print(concat({"a", "b", "c"}, 2.5))
local s = "shared"
print(rawequal(concat({s}), s), concat({s}) == s)

-- numbers as pieces (integers, floats, negative zero, huge, inf)
print(concat({1, 2, 3}, " "))
print(concat({1.5, -0.0, 1e100, 2^63, -2^63, math.maxinteger, math.mininteger}, "|"))
print(concat({1/0, -1/0, 0.1, 100.0, 3}, ","))
print(concat({"n=", 42, " f=", 0.25}))
print(concat({12}), math.type(concat({12})))
print(concat({12.0}))

-- ranges: i, j, empty, negative, beyond the array part, in the hash part
local t = {"a", "b", "c", "d", "e"}
print(concat(t, ",", 2))
print(concat(t, ",", 2, 4))
print(concat(t, ",", 4, 4))
print("[" .. concat(t, ",", 5, 4) .. "]")
print("[" .. concat(t, ",", 10, 1) .. "]")
print(concat(t, ",", 3.0, 4.0))            -- integral floats as bounds
print(concat(t, ",", "2", "3"))            -- numeric strings as bounds
local h = {}
h[-1], h[0], h[1], h[2], h[100] = "m", "z", "o", "t", "far"
print(concat(h, ".", -1, 2))
print(concat(h, ".", 100, 100))
local mixed = {"a", "b"}
mixed[3] = "c"; mixed[5] = "e"; mixed[4] = "d"   -- some land in the hash part
print(concat(mixed, "+", 1, 5))
local maxi = math.maxinteger
local edge = {[maxi - 1] = "p", [maxi] = "q"}
print(concat(edge, "", maxi - 1, maxi))
print(concat({[math.mininteger] = "lo"}, "", math.mininteger, math.mininteger))

-- long results (past any small buffer), long separators
local parts = {}
for i = 1, 1000 do parts[i] = (i % 7 == 0) and i or ("w" .. i) end
local r = concat(parts, " ")
print(#r, r:sub(1, 40), r:sub(-30))
local r2 = concat(parts, string.rep("-", 300), 10, 12)
print(#r2, r2:sub(1, 10), r2:sub(-10))
local big = string.rep("x", 5000)
print(#concat({big, big}, "ab"), concat({big}) == big)
local alls = {}
for i = 1, 300 do alls[i] = "ab" end
print(#concat(alls), #concat(alls, ""), concat(alls) == string.rep("ab", 300))
print(concat(parts, "", 1, 20) == concat(parts, nil, 1, 20))

-- errors: invalid values (exact messages), bad arguments
local function err(...) local ok, e = pcall(concat, ...); print(ok, e) end
err({1, {}, 3})
err({"a", nil, "c"}, ",", 1, 3)
err({"a", true})
err({"a", "b"}, ",", 1, 3)
err({}, "", 1, 1)
err({"a"}, "", 0, 1)
err({"a"}, {})
err({"a"}, ",", "x")
err({"a"}, ",", 1, 1.5)
err({"a"}, ",", 1.5)
err(nil)
err("abc")
err({"a", print})
local big2 = {}
for i = 1, 400 do big2[i] = "piece" .. i end
big2[399] = false
err(big2, ", ")

-- tables with metatables: __index and __len are honoured
local proxy = setmetatable({}, {__index = function(_, k) return "v" .. k end,
                                __len = function() return 4 end})
print(concat(proxy, ","))
print(concat(proxy, ",", 2, 3))
local base = {"b1", "b2", "b3"}
local child = setmetatable({"c1"}, {__index = base})
print(concat(child, ",", 1, 3))
print(#child, concat(child, ","))
local withlen = setmetatable({"a", "b", "c"}, {__len = function() return 2 end})
print(concat(withlen, ","))
local plainmt = setmetatable({"p", "q"}, {})
print(concat(plainmt, "/"))
local ud = setmetatable({}, {__index = function(_, k) return k * 10 end, __len = function() return 3 end})
print(concat(ud, " "))
-- __index is not called for present keys; a raw nil in the array asks it
local partial = setmetatable({"a", nil, "c"}, {__index = function() return "B" end})
print(concat(partial, ",", 1, 3))

-- the table is not changed by concatenating numbers
local nums = {1, 2.5, 3}
concat(nums, ",")
print(math.type(nums[1]), math.type(nums[2]), nums[3])

-- many calls reusing buffers (results stay valid)
local acc = {}
for i = 1, 200 do acc[#acc + 1] = concat({"k", i, "=", i * 0.5}) end
print(acc[1], acc[100], acc[200], #concat(acc, ";"))
