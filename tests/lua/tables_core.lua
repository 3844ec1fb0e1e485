-- tables_core.lua: constructors, length, key normalization, next/pairs/ipairs
print("tables_core: start")

local function seq(t, n)
  local out = {}
  for i = 1, n or #t do out[#out + 1] = tostring(t[i]) end
  return table.concat(out, ",")
end

local function sortedkeys(t)
  local ks = {}
  for k in pairs(t) do ks[#ks + 1] = k end
  table.sort(ks, function(a, b)
    local ta, tb = type(a), type(b)
    if ta ~= tb then return ta < tb end
    return a < b
  end)
  local out = {}
  for _, k in ipairs(ks) do out[#out + 1] = tostring(k) .. "=" .. tostring(t[k]) end
  return table.concat(out, " ")
end

-- constructors
local t = {1, 2, 3, x = 1, ["y"] = 2, [10] = 10, 4}
assert(#t == 4 and t.x == 1 and t.y == 2 and t[10] == 10)
print("ctor", seq(t), sortedkeys(t))
t = {[1] = "a", "b"}         -- positional wins (assigned later)
print("ctor override", t[1])
t = {"b", [1] = "a"}
print("ctor override 2", t[1])
t = {1, 2, 3; 4, 5; n = 5,}
print("separators", seq(t), t.n)
t = {}
assert(next(t) == nil and #t == 0)

-- varargs and multiple results in constructors
local function three() return 1, 2, 3 end
local function none() end
t = {three()}
print("trailing call", seq(t), #t)
t = {three(), three()}
print("non-trailing call", seq(t), #t)
t = {three(), 10}
print("call then value", seq(t), #t)
t = {(three())}
print("parenthesized", seq(t), #t)
t = {none()}
print("none", #t)
t = {none(), none()}
print("none none", #t, t[1])
local function va(...) return {...} end
t = va(1, nil, 3)
print("varargs with nil", t[1], t[2], t[3])
t = va()
print("empty varargs", #t)
local function va2(...) return {n = select("#", ...), ...} end
t = va2(nil, nil)
print("va2", t.n, t[1], t[2])

-- large constructors (more than one SETLIST batch)
local src = {"return {"}
for i = 1, 200 do src[#src + 1] = i .. "," end
src[#src + 1] = "}"
t = load(table.concat(src))()
assert(#t == 200 and t[1] == 1 and t[200] == 200)
print("200 items", #t, t[50], t[51], t[150], t[200])
src = {"local f = ... return {"}
for i = 1, 120 do src[#src + 1] = i .. "," end
src[#src + 1] = "f()}"
t = load(table.concat(src))(function() return "a", "b", "c" end)
print("120 + call", #t, t[120], t[121], t[123])

-- length of sequences
t = {}
for i = 1, 100 do t[i] = i end
assert(#t == 100)
t[#t] = nil
assert(#t == 99)
t[#t + 1] = "x"
assert(#t == 100)
print("seq len", #t, #{1, 2, 3, nil}, #{nil}, #{n = 1})
-- a border in a table with holes must be a border
t = {1, 2, nil, 4}
local n = #t
assert((n == 0 or t[n] ~= nil) and t[n + 1] == nil)
print("border ok")

-- integer / float key normalization
t = {}
t[1.0] = "one"
assert(t[1] == "one")
t[2] = "two"
assert(t[2.0] == "two")
t[2^53] = "big"
assert(t[1 << 53] == "big")
t[-0.0] = "zero"
assert(t[0] == "zero")
t[1.5] = "frac"
assert(t[1.5] == "frac" and t[1] == "one")
print("normalize", t[1], t[2.0], t[1 << 53], t[0], t[1.5], math.type(next({[3.0] = 1})))
for k, v in pairs({[1.0] = "a", [2.0] = "b"}) do
  assert(math.type(k) == "integer")
end

-- strings are not numbers as keys
t = {}
t["1"] = "s"; t[1] = "n"
print("string vs int key", t["1"], t[1])

-- nil and NaN keys
print(pcall(function() local x = {}; x[nil] = 1 end))
print(pcall(function() local x = {}; x[0/0] = 1 end))
print(pcall(rawset, {}, nil, 1))
print("read nil key", ({})[nil], ({})[0/0])
print(pcall(function() return {[nil] = 1} end))

-- any value can be a key
local f = function() end
local co = coroutine.create(f)
local tk = {}
t = {[f] = "func", [co] = "thread", [tk] = "table", [true] = "true", [false] = "false"}
assert(t[f] == "func" and t[co] == "thread" and t[tk] == "table")
assert(t[true] == "true" and t[false] == "false")
print("any key", t[f], t[co], t[tk], t[true], t[false])

-- next / pairs / ipairs
t = {10, 20, 30, a = 1, b = 2}
local cnt, sum = 0, 0
for k, v in pairs(t) do cnt = cnt + 1; sum = sum + v end
print("pairs", cnt, sum)
local seen = {}
for i, v in ipairs({1, 2, nil, 4}) do seen[#seen + 1] = i .. ":" .. v end
print("ipairs stops at nil", table.concat(seen, " "))
print("next empty", next({}))
local k, v = next({"only"})
print("next one", k, v)
print("next after last", next({"only"}, 1))
print(pcall(next, {}, "nokey"))
-- clearing fields during traversal is allowed
t = {}
for i = 1, 50 do t["k" .. i] = i end
for k in pairs(t) do t[k] = nil end
print("cleared", next(t))
-- modifying existing fields during traversal
t = {a = 1, b = 2, c = 3}
for k, v in pairs(t) do t[k] = v * 10 end
print("modified", sortedkeys(t))

-- ipairs respects __index
local proxy = setmetatable({}, {__index = function(_, i) if i <= 3 then return i * 2 end end})
seen = {}
for i, v in ipairs(proxy) do seen[#seen + 1] = v end
print("ipairs __index", table.concat(seen, ","))

-- pairs respects __pairs
local pp = setmetatable({}, {__pairs = function(self)
  local i = 0
  return function() i = i + 1; if i <= 2 then return i, "v" .. i end end, self, nil
end})
seen = {}
for k, v in pairs(pp) do seen[#seen + 1] = k .. "=" .. v end
print("__pairs", table.concat(seen, " "))

-- growing and shrinking
t = {}
for i = 1, 1000 do t[i] = i end
for i = 1, 1000 do t["s" .. i] = i end
for i = 1, 1000 do t[i] = nil end
print("after clear", #t, t.s1, t.s1000)
t = {}
for i = 1000, 1, -1 do t[i] = i end
print("reverse fill", #t)

-- nested tables and references
local a = {b = {c = {d = "deep"}}}
print("nested", a.b.c.d, a["b"]["c"]["d"])
local alias = a.b
alias.c = 5
print("alias", a.b.c)

-- table equality is identity
assert({} ~= {})
local same = {}
assert(same == same)
print("identity", ({}) == ({}), same == same)

-- rawlen / rawequal / rawget basics
print("raw", rawlen({1, 2}), rawlen("abc"), rawequal(t, t), rawequal({}, {}), rawget({5}, 1))

print("tables_core: OK")
