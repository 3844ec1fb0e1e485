-- table.unpack: the stack fast path (tables without metatable, immediate
-- bounds, up to 20 values) next to the general one
local unpack = table.unpack
local function show(...) local n = select("#", ...) local t = table.pack(...)
  local out = {} for i = 1, n do out[i] = tostring(t[i]) end return n .. ":" .. table.concat(out, ",") end
print(show(unpack({})), show(unpack({1})), show(unpack({1, 2, 3})))
print(show(unpack({1, 2, 3}, 2)), show(unpack({1, 2, 3}, 2, 3)), show(unpack({1, 2, 3}, 3, 2)))
print(show(unpack({1, 2, 3}, -1, 1)), show(unpack({1, 2, 3}, 0, 5)), show(unpack({[0] = "z", 1}, 0)))
print(show(unpack({1, nil, 3}, 1, 3)), show(unpack({nil, nil, "c"}, 1, 3)))
local h = {} h[2] = "b" h[5] = "e" h[-3] = "m"
print(show(unpack(h, -3, 5)), show(unpack(h, 2, 2)))
for _, n in ipairs({ 19, 20, 21, 22, 40 }) do
  local t = {} for i = 1, n do t[i] = i * i end
  local r = table.pack(unpack(t))
  print(n, r.n, r[1], r[n], select("#", unpack(t, 1, n)), select("#", unpack(t, 2, n)))
end
-- mixed array and hash parts
local m = {1, 2, 3} m[4] = 4 m[5] = 5 m[7] = 7
print(show(unpack(m, 1, 7)))
print(show(unpack({"a", "b"}, 1.0, 2.0)), show(unpack({"a", "b"}, "1", "2")))
print(show(unpack({"a", "b"}, nil, 2)), show(unpack({"a", "b"}, 1, nil)))
-- metatables: __index and __len are used
local p = setmetatable({}, { __index = function(_, k) return "i" .. k end, __len = function() return 3 end })
print(show(unpack(p)), show(unpack(p, 2, 4)))
local q = setmetatable({10, 20, 30}, {})
print(show(unpack(q)))
-- errors
print(pcall(unpack))
print(pcall(unpack, 5))
print(pcall(unpack, {}, 1, 1e8))
print(pcall(unpack, {}, math.mininteger, math.maxinteger))
print(pcall(unpack, {}, 1.5))
-- in expressions and calls
local function sum(...) local s = 0 for i = 1, select("#", ...) do s = s + (select(i, ...) or 0) end return s end
print(sum(unpack({1, 2, 3, 4})), sum(1, unpack({2, 3})), ({unpack({1, 2, 3})})[3], #{unpack({1, 2, 3}, 1, 2)})
