-- select: '#', positive and negative indices, bounds, strings, errors
local function show(...) local n = select("#", ...) local t = table.pack(...)
  local out = {} for i = 1, n do out[i] = tostring(t[i]) end return n .. ":" .. table.concat(out, ",") end
print(select("#"), select("#", nil), select("#", 1, nil, nil), select("#abc", 1, 2))
for i = 1, 5 do print(i, show(select(i, "a", "b", "c", "d"))) end
for i = -4, -1 do print(i, show(select(i, "a", "b", "c", "d"))) end
print(show(select(2.0, "a", "b", "c")), show(select("2", "a", "b", "c")), show(select(" 3", "a", "b", "c")))
print(show(select(math.maxinteger, 1, 2)), show(select(4, 1, 2, 3)))
print(pcall(select, 0, 1, 2))
print(pcall(select, -5, 1, 2))
print(pcall(select, ""))
print(pcall(select, "x", 1))
print(pcall(select, nil))
print(pcall(select))
print(pcall(select, 1.5, 1))
print(pcall(select, math.mininteger, 1))
local function f(...) local s = 0 for i = 1, select("#", ...) do s = s + (select(i, ...) or 0) end return s end
print(f(), f(1), f(1, 2, 3), f(1, nil, 3))
