-- metamethods.lua: every metamethod event
print("metamethods: start")

-- __index: table chain and function
local base = {a = "base.a"}
local mid = setmetatable({b = "mid.b"}, {__index = base})
local obj = setmetatable({c = "obj.c"}, {__index = mid})
print("index chain", obj.a, obj.b, obj.c, obj.d)
local calls = 0
local fobj = setmetatable({}, {__index = function(t, k) calls = calls + 1; return k .. "!" end})
print("index function", fobj.x, fobj[1], calls)
fobj.x = "raw"
print("index raw hit", fobj.x, calls)
-- __index on a long chain
local t = {}
local cur = t
for i = 1, 50 do
  local nxt = {}
  setmetatable(cur, {__index = nxt})
  cur = nxt
end
cur.deep = "found"
print("long index chain", t.deep)

-- __newindex: table and function
local store = {}
local nobj = setmetatable({}, {__newindex = store})
nobj.x = 1
print("newindex table", rawget(nobj, "x"), store.x)
local log = {}
local nf = setmetatable({}, {__newindex = function(t, k, v) log[#log + 1] = k .. "=" .. tostring(v); rawset(t, k, v) end})
nf.a = 1; nf.a = 2; nf.b = nil
print("newindex function", table.concat(log, " "), nf.a)
-- __newindex chain through tables with their own __newindex
local final = {}
local m2 = setmetatable({}, {__newindex = final})
local m1 = setmetatable({}, {__newindex = m2})
m1.k = "v"
print("newindex chain", rawget(m1, "k"), rawget(m2, "k"), final.k)

-- __call, including chains of callable objects
local callable = setmetatable({}, {__call = function(self, a, b) return "called", a, b end})
print("call", callable(1, 2))
local c2 = setmetatable({}, {__call = callable})
do
  local r1, r2, r3 = c2("x")
  print("call chain", r1, r2 == c2, r3)
end
print(pcall(function() local nc = setmetatable({}, {}); nc() end))

-- arithmetic metamethods
local V = {}
V.__index = V
local function vec(x, y) return setmetatable({x = x, y = y}, V) end
V.__add = function(a, b) return vec(a.x + b.x, a.y + b.y) end
V.__sub = function(a, b) return vec(a.x - b.x, a.y - b.y) end
V.__mul = function(a, b)
  if type(a) == "number" then return vec(a * b.x, a * b.y) end
  if type(b) == "number" then return vec(a.x * b, a.y * b) end
  return a.x * b.x + a.y * b.y
end
V.__div = function(a, b) return vec(a.x / b, a.y / b) end
V.__mod = function(a, b) return vec(a.x % b, a.y % b) end
V.__pow = function(a, b) return vec(a.x ^ b, a.y ^ b) end
V.__unm = function(a) return vec(-a.x, -a.y) end
V.__idiv = function(a, b) return vec(a.x // b, a.y // b) end
V.__tostring = function(v) return "(" .. v.x .. "," .. v.y .. ")" end
V.__eq = function(a, b) return a.x == b.x and a.y == b.y end
V.__lt = function(a, b) return a.x < b.x end
V.__le = function(a, b) return a.x <= b.x end
V.__len = function(v) return 2 end
V.__concat = function(a, b)
  local sa = type(a) == "table" and tostring(a) or a
  local sb = type(b) == "table" and tostring(b) or b
  return sa .. "++" .. sb
end
local p, q = vec(1, 2), vec(3, 4)
print("add", tostring(p + q), "sub", tostring(p - q), "dot", p * q)
print("scale", tostring(2 * p), tostring(p * 3), "div", tostring(q / 2))
print("mod", tostring(vec(7, 8) % 3), "pow", tostring(p ^ 2), "unm", tostring(-p), "idiv", tostring(q // 2))
print("eq", p == vec(1, 2), p ~= vec(1, 2), p == q, rawequal(p, vec(1, 2)))
print("lt", p < q, p > q, p <= q, p >= q)
print("len", #p, "concat", p .. q, p .. "s", "s" .. p, 1 .. p)
print("tostring", tostring(p))

-- arithmetic metamethod with numbers and strings on either side
local A = setmetatable({}, {__add = function(a, b)
  return (type(a) == "table" and "T" or tostring(a)) .. "+" .. (type(b) == "table" and "T" or tostring(b))
end})
print("mixed add", A + 1, 1 + A, A + "s", "s" + A, A + 1.5, A + A)
-- __sub etc. only on the right operand
local R = setmetatable({}, {__sub = function(a, b) return "sub" end, __unm = function() return "unm" end})
print("right operand", 5 - R, -R)

-- all bitwise metamethods
local B = setmetatable({}, {
  __band = function() return "band" end, __bor = function() return "bor" end,
  __bxor = function() return "bxor" end, __shl = function() return "shl" end,
  __shr = function() return "shr" end, __bnot = function() return "bnot" end})
print("bitwise", B & 1, 1 | B, B ~ B, B << 1, 1 >> B, ~B)
-- a float without integer representation and a metamethod
print("bitwise float", 1.5 & B, B | 2.5)

-- __concat with multiple operands and numbers
local C = setmetatable({}, {__concat = function(a, b)
  local sa = type(a) == "table" and "C" or tostring(a)
  local sb = type(b) == "table" and "C" or tostring(b)
  return sa .. sb
end})
print("concat multi", "a" .. "b" .. C .. "d" .. 1)
print("concat numbers", 1 .. C, C .. 2.5)

-- __eq only called for two tables (or two userdata), not for different types
local eqcount = 0
local E = {__eq = function(a, b) eqcount = eqcount + 1; return true end}
local e1, e2 = setmetatable({}, E), setmetatable({}, E)
print("eq called", e1 == e2, e1 ~= e2, eqcount)
print("eq not called", e1 == 1, e1 == "x", e1 == nil, eqcount)
print("eq same object", e1 == e1, eqcount)
local e3 = setmetatable({}, {__eq = function() return 1 end})
print("eq result converted", e3 == {}, {} == e3)
-- only one operand has __eq
print("eq one side", {} == e1, e1 == {}, eqcount)

-- __lt / __le results converted to boolean; stock 5.4 (LUA_COMPAT_5_3)
-- still emulates a missing __le with not __lt(b, a)
local L = setmetatable({}, {__lt = function() return "yes" end})
print("lt result", L < L, L > L)
print(pcall(function() return L <= L end))
local LE = setmetatable({}, {__le = function() return nil end})
print("le result", LE <= LE, LE >= LE)
-- comparing with numbers via metamethods
local N = setmetatable({}, {__lt = function(a, b) return type(a) == "number" end})
print("lt mixed", 1 < N, N < 1)

-- __len
local len = setmetatable({1, 2, 3}, {__len = function() return 42 end})
print("len", #len, rawlen(len))
local len2 = setmetatable({}, {__len = function() return "str" end})
print("len non-number", #len2)

-- __unm and __bnot get the operand twice
local U = setmetatable({}, {__unm = function(a, b) return rawequal(a, b) end,
                            __bnot = function(a, b) return rawequal(a, b) end})
print("unary args", -U, ~U)

-- __tostring and __name
local named = setmetatable({}, {__name = "MyType"})
print("name in tostring", (tostring(named):gsub("0x%x+", "ADDR"):gsub(": [%x]+$", ": ADDR")))
print(pcall(function() return named + 1 end))
print(pcall(function() return #named < 1 end))
local ts = setmetatable({}, {__tostring = function() return "custom!" end})
print("tostring", tostring(ts), ts)
print(pcall(tostring, setmetatable({}, {__tostring = function() return 1 end})))

-- __metatable protection
local prot = setmetatable({}, {__metatable = "locked"})
print("getmetatable protected", getmetatable(prot))
print(pcall(setmetatable, prot, {}))
print("string metatable protected?", type(getmetatable("")))

-- rawget / rawset / rawequal / rawlen bypass metamethods
local raw = setmetatable({}, {__index = function() return "mm" end,
                              __newindex = function() error("no") end,
                              __len = function() return 99 end,
                              __eq = function() return true end})
rawset(raw, "k", "v")
print("raw", raw.k, raw.other, rawget(raw, "other"), #raw, rawlen(raw))
print("rawequal", rawequal(raw, setmetatable({}, getmetatable(raw))), raw == setmetatable({}, getmetatable(raw)))

-- __index on non-table values via debug.setmetatable is library territory;
-- strings have __index = string
print("string index", ("x"):rep(3))

-- metamethods looked up raw in the metatable (no __index on the metatable)
local mtmt = setmetatable({}, {__index = {__add = function() return "found" end}})
local ob = setmetatable({}, mtmt)
print(pcall(function() return ob + 1 end))

-- metamethod errors propagate with positions
local bad = setmetatable({}, {__index = function(t, k) error("no field " .. k) end})
print(pcall(function() return bad.zzz end))

-- __close
do
  local order = {}
  do
    local a <close> = setmetatable({}, {__close = function(o, e) order[#order + 1] = "a:" .. tostring(e) end})
    local b <close> = setmetatable({}, {__close = function(o, e) order[#order + 1] = "b:" .. tostring(e) end})
  end
  print("close order", table.concat(order, " "))
end

-- __gc presence does not break setmetatable
local gcobj = setmetatable({}, {__gc = function() end})
print("gc mt", type(getmetatable(gcobj).__gc))

-- metamethods are read at the time of the operation
local dyn = setmetatable({}, {})
getmetatable(dyn).__add = function() return "late" end
print("dynamic add", dyn + 1)
getmetatable(dyn).__add = nil
print(pcall(function() return dyn + 1 end))

-- __index with rawset caching
local cache = setmetatable({}, {__index = function(t, k) local v = k * 2; rawset(t, k, v); return v end})
print("cache", cache[5], rawget(cache, 5), cache[5])

-- __newindex is not called for existing keys
local cnt = 0
local ex = setmetatable({present = 1}, {__newindex = function(t, k, v) cnt = cnt + 1; rawset(t, k, v) end})
ex.present = 2; ex.absent = 3; ex.absent = 4
print("newindex existing", cnt, ex.present, ex.absent)

-- inheritance with methods and self
local Animal = {}
Animal.__index = Animal
function Animal.new(name) return setmetatable({name = name}, Animal) end
function Animal:speak() return self.name .. " makes a sound" end
local Dog = setmetatable({}, {__index = Animal})
Dog.__index = Dog
function Dog.new(name) return setmetatable(Animal.new(name), Dog) end
function Dog:speak() return self.name .. " barks; " .. Animal.speak(self) end
print("inheritance", Dog.new("rex"):speak())

print("metamethods: OK")
