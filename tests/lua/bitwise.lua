-- bitwise.lua: bitwise operators on integers, floats and strings
print("bitwise: start")

local function hex(x) return string.format("0x%016x", x) end

assert(0xF0 & 0x3C == 0x30)
assert(0xF0 | 0x0F == 0xFF)
assert(0xF0 ~ 0xFF == 0x0F)
assert(~0 == -1)
assert(1 << 4 == 16)
assert(256 >> 4 == 16)
print("basic", 0xF0 & 0x3C, 0xF0 | 0x0F, 0xF0 ~ 0xFF, ~0, ~5, 1 << 4, 256 >> 4)

-- shifts: logical, negative amounts, >= 64
assert(-1 >> 1 == math.maxinteger)
assert(1 << 63 == math.mininteger)
assert(1 << 64 == 0)
assert(-1 >> 64 == 0)
assert(1 << -1 == 0)
assert(2 >> -1 == 4)
assert(1 >> 0 == 1)
assert(-1 << 0 == -1)
assert(3 << 62 == math.mininteger | (1 << 62))
print("shifts", hex(-1 >> 1), hex(1 << 63), 1 << 64, -1 >> 64, 1 << -1, 2 >> -1,
      hex(-1 >> 60), hex(-1 << 60), 1 << 100, 5 >> -2, -8 >> 1)
for _, n in ipairs{0, 1, 7, 31, 32, 33, 62, 63, 64, 65, -1, -63, -64, -65} do
  io.write(string.format("%d:%s ", n, hex(0x5a5a5a5a5a5a5a5a >> n)))
end
io.write("\n")
for _, n in ipairs{0, 1, 7, 31, 32, 33, 62, 63, 64, 65, -1, -63, -64, -65} do
  io.write(string.format("%d:%s ", n, hex(0x5a5a5a5a5a5a5a5a << n)))
end
io.write("\n")

-- precedence of bitwise operators
assert(1 | 2 ~ 3 & 4 == 1 | (2 ~ (3 & 4)))
assert(1 << 2 + 1 == 8)            -- + binds tighter than <<
assert(pcall(function() return 1 .. 2 << 1 end) == false)  -- .. binds tighter; strings are not coerced
assert(5 & 3 == 1 and 5 | 3 == 7)
assert(~1 + 1 == -1)               -- unary ~ binds tighter than +
assert(1 | 2 == 3 == true)
print("precedence", 1 | 2 ~ 3 & 4, 1 << 2 + 1, ~1 + 1, 6 & 3 | 8, 2 ~ 3 | 1)

-- floats with integral values are converted
assert(3.0 & 1 == 1)
assert(2.0^62 | 0 == 1 << 62)
assert(-0.0 | 0 == 0)
print("floats", 3.0 & 1, 2.0^62 | 0, -0.0 | 0, 1e3 ~ 0, 2^53 >> 52)
print(math.type(3.0 & 1), math.type(3.0 | 0.0))

-- strings are NOT coerced by bitwise operators in 5.4
print("strings", pcall(function() return "3" & 1 end))
print("strings", pcall(function() local s = "0x10" return s | 1 end))
print("strings", pcall(function() return ~"0" end))

-- errors
local function perr(f, ...)
  local ok, msg = pcall(f, ...)
  print(ok, msg)
end
perr(function() return 1.5 & 1 end)
perr(function(x) return x | 1 end, 2.5)
perr(function(x) return x | 1 end, 2^64)
perr(function(x) return x | 1 end, math.huge)
perr(function(x) return x | 1 end, 0/0)
perr(function(x) return x | 1 end, "1.5")
perr(function(x) return x | 1 end, "abc")
perr(function(x) return x | 1 end, {})
perr(function(x) return ~x end, nil)
perr(function(x, y) return x & y end, 1, true)
perr(function(x) return x << 1 end, "x")

-- metamethods for bitwise ops
local mt = {}
for _, e in ipairs{"band", "bor", "bxor", "shl", "shr"} do
  mt["__" .. e] = function(a, b)
    local av = type(a) == "table" and "T" or tostring(a)
    local bv = type(b) == "table" and "T" or tostring(b)
    return e .. "(" .. av .. "," .. bv .. ")"
  end
end
mt.__bnot = function(a) return "bnot(T)" end
local t = setmetatable({}, mt)
print(t & 1, 1 | t, t ~ t, t << 2, 2.5 >> t, ~t)
print(t & 1.5, "x" | t)

-- loops computing bit patterns
local pop = 0
local x = 0x123456789abcdef0
while x ~= 0 do
  pop = pop + (x & 1)
  x = x >> 1
end
print("popcount", pop)
local r = 0
for i = 0, 63, 3 do r = r | (1 << i) end
print("pattern", hex(r))
local v = 1
for i = 1, 70 do v = v << 1 | (v >> 63) end   -- rotate left
print("rotate", hex(v))

print("bitwise: OK")
