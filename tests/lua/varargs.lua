-- varargs.lua: ..., select, table.pack, multiple results adjustment
print("varargs: start")

local function pack(...) return {n = select("#", ...), ...} end
local function show(...)
  local t = pack(...)
  local out = {}
  for i = 1, t.n do out[i] = tostring(t[i]) end
  return t.n .. ":[" .. table.concat(out, ",") .. "]"
end

local function three() return 1, 2, 3 end
local function none() end
local function onenil() return nil end

-- select
print("select#", select("#"), select("#", nil), select("#", nil, nil), select("#", three()))
print("select n", select(2, "a", "b", "c"))
print("select neg", select(-1, "a", "b", "c"))
print("select neg2", select(-2, "a", "b", "c"))
print("select past end", show(select(4, "a", "b", "c")))
print(pcall(select, 0, "a"))
print(pcall(select, -4, "a", "b", "c"))
print(pcall(select, "x"))

-- ... in various contexts
local function f(...)
  local a, b = ...
  local t = {...}
  local n = select("#", ...)
  return a, b, #t, n
end
print("vararg locals", f(1, 2, 3))
print("vararg locals nil", f(nil, nil))
print("vararg empty", f())

local function passthrough(...) return ... end
print("passthrough", show(passthrough()), show(passthrough(nil)), show(passthrough(1, nil, 3, nil)))

-- adjustment in call arguments
print("args", show(three()), show(three(), 10), show(10, three()), show((three())))
print("args none", show(none()), show(none(), none()), show(1, none()))
-- adjustment in assignments
local a, b, c, d = three()
print("assign", a, b, c, d)
a, b, c, d = three(), 10
print("assign middle", a, b, c, d)
a, b = none()
print("assign none", a, b)
a, b, c = 0, three()
print("assign trailing", a, b, c)
-- adjustment in returns
local function r1() return three() end
local function r2() return three(), 4 end
local function r3() return (three()) end
local function r4() return 0, three() end
print("returns", show(r1()), show(r2()), show(r3()), show(r4()))
-- adjustment in table constructors
print("ctor", #{three()}, #{three(), three()}, #{(three())}, #{1, none()}, select("#", none(), 1))
-- string concatenation and arithmetic use only the first value
print("ops", three() .. "x", three() + 10, -three())
-- in conditions
if none() then print("bad") else print("none is false") end

-- vararg functions with fixed parameters
local function fixed(a, b, ...)
  return a, b, select("#", ...), ...
end
print("fixed", show(fixed(1)))
print("fixed2", show(fixed(1, 2, 3, 4)))
print("fixed3", show(fixed()))

-- table.pack / table.unpack
local p = table.pack(1, nil, 3, nil)
print("pack", p.n, p[1], p[2], p[3], p[4])
print("unpack", table.unpack({1, 2, 3}))
print("unpack range", table.unpack({1, 2, 3}, 2))
print("unpack explicit", show(table.unpack({1, nil, 3}, 1, 3)))
print("unpack empty", show(table.unpack({}, 1, 0)))

-- many values
local big = {}
for i = 1, 250 do big[i] = i end
local function count(...) return select("#", ...) end
print("many", count(table.unpack(big)), select(250, table.unpack(big)))
local function sum(...)
  local s = 0
  for i = 1, select("#", ...) do s = s + (select(i, ...)) end
  return s
end
print("sum", sum(table.unpack(big)))
local huge = {}
for i = 1, 10000 do huge[i] = i end
print("10000 values", count(table.unpack(huge)), sum(table.unpack(huge, 9990)))

-- varargs forwarded through multiple levels
local function lvl3(...) return select("#", ...), ... end
local function lvl2(...) return lvl3(...) end
local function lvl1(...) return lvl2(...) end
print("forward", lvl1(1, nil, nil))
print("forward empty", lvl1())

-- varargs in closures must be copied into locals
local function capture(...)
  local t = pack(...)
  return function() return table.unpack(t, 1, t.n) end
end
print("captured", show(capture(1, nil, 3)()))

-- main chunk is vararg
print("main chunk args", select("#", ...) >= 0)

-- load'ed chunks receive arguments through ...
local chunk = load("local a, b = ... return b, a, select('#', ...)")
print("chunk varargs", chunk("x", "y", "z"))

-- varargs and method calls
local obj = {name = "obj"}
function obj:m(...) return self.name, select("#", ...), ... end
print("method varargs", obj:m(1, 2))
print("method varargs none", obj:m())

-- nil trailing values are preserved
print("trailing nils", select("#", nil, nil, nil), show(nil, nil, nil))
print("varargs: OK")
