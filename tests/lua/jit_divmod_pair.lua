-- Integer % and // of the same operands close together share one
-- division in compiled code: floor semantics for every sign, both
-- orders, division by zero at either one, operands changed in between
-- (not paired), floats, and a metamethod in between that changes a
-- local of the frame with debug.setlocal.

local function split(a, m, B)
  local carry = 0
  for i = 1, #a do
    local v = a[i] * m + carry
    a[i] = v % B
    carry = v // B
  end
  return carry
end
local limbs = {}
for i = 1, 40 do limbs[i] = (i * 7919) % 1000 end
local c = 0
for r = 1, 300 do c = c + split(limbs, 3 + r % 5, 1000) end
print("split", c, limbs[1], limbs[40])

-- quotient first, then remainder; every sign
local function qr(x, y) local q = x // y; local r = x % y; return q, r end
local function rq(x, y) local r = x % y; local q = x // y; return q, r end
local out = {}
for rep = 1, 50 do
  out = {}
  for _, x in ipairs({17, -17, 0, 5, -5, 123456789, -123456789, 2^40 // 1}) do
    for _, y in ipairs({5, -5, 1, -1, 7, 1000003}) do
      local q1, r1 = qr(x, y)
      local q2, r2 = rq(x, y)
      assert(q1 == q2 and r1 == r2, "orders differ")
      out[#out + 1] = q1 .. ":" .. r1
    end
  end
end
print("signs", table.concat(out, " ", 1, 24))
print("signs", table.concat(out, " ", 25))

-- division by zero at the first and at the second of a pair
local function z1(x, y) local r = x % y; local q = x // y; return r, q end
local function z2(x, y, t) local q = x // y; t[1] = q; local r = x % y; return q, r end
for rep = 1, 50 do z1(rep, 3); z2(rep, 4, {}) end
print("zero", pcall(z1, 5, 0))
print("zero", pcall(z2, 5, 0, {}))

-- the divisor changes in between: no pairing
local function changed(x, y)
  local r = x % y
  y = y + 1
  local q = x // y
  return r, q
end
local function selfdest(x, y)
  local r = x % y
  local q = x // r   -- reads the remainder: r must be exact first
  return r, q
end
for rep = 1, 50 do changed(rep, 3); selfdest(rep * 7 + 3, 7) end
local c1, c2 = changed(100, 7)
print("changed", c1, c2, selfdest(100, 7))

-- floats take the float path
local function fl(x, y) local r = x % y; local q = x // y; return r, q end
for rep = 1, 50 do fl(rep, 3) end
local f1, f2 = fl(-7.5, 2)
local f3, f4 = fl(7, 2.5)
print("floats", f1, f2, f3, f4, fl(5, 0.0))

-- a metamethod in between rewrites the divisor through debug.setlocal
local hits = 0
local probe = setmetatable({}, {__newindex = function(t, k, v)
  hits = hits + 1
  if v == "change" then
    for i = 1, 20 do
      local name = debug.getlocal(2, i)
      if name == nil then break end
      if name == "d" then debug.setlocal(2, i, 10) break end
    end
  end
  rawset(t, k, nil)
end})
local function meddle(x, d, tag)
  local r = x % d
  probe[1] = tag
  local q = x // d
  return r, q
end
for rep = 1, 50 do meddle(rep * 13, 4, "keep") end
local r1, q1 = meddle(1234, 4, "keep")
local r2, q2 = meddle(1234, 4, "change")
print("setlocal", r1, q1, r2, q2, hits)

-- 2-D indices from a flat index
local function grid(n, w)
  local s = 0
  for i = 0, n - 1 do
    local col, row = i % w, i // w
    s = s + col * 1000 + row
  end
  return s
end
local gs = 0
for rep = 1, 100 do gs = gs + grid(200, 3 + rep % 4) end
print("grid", gs)
