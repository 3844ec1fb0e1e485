-- Table constructors whose last item is a call or '...' (an open count of
-- values): the array part is sized for one value there (vm/parse.c
-- lastlistfield), and the results must not depend on that.
local function none() end
local function one(x) return x end
local function three(a) return a, a + 1, a + 2 end
local function nils() return nil, nil end
local function show(name, t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = tostring(k) end
  table.sort(keys)
  local n = 0
  for _ in ipairs(t) do n = n + 1 end
  print(name, #t, n, table.concat(keys, ","), select("#", table.unpack(t, 1, #t)))
end
show("none", { none() })
show("one", { one(7) })
show("three", { three(1) })
show("nils", { nils() })
show("1,none", { 1, none() })
show("1,three", { 1, three(10) })
show("none,none", { none(), none() })
show("one,one", { one(1), one(2) })
show("three,three", { three(1), three(5) })
show("x=,three", { x = 1, three(3) })
show("nil,one", { nil, one(4) })
local function va(...) return { ... } end
show("va()", va())
show("va(1)", va(1))
show("va(1,nil,3)", va(1, nil, 3))
local function pk(...) return { n = select("#", ...), ... } end
show("pk(nil,nil)", pk(nil, nil))
-- appends after a constructor sized for one more value
local t = { none() }
t[#t + 1] = "a"; t[#t + 1] = "b"
show("append", t)
local u = { one(1) }
u[2] = 2; u[3] = 3
show("grow", u)
-- many trees, as binary_trees builds them
local function tree(d) if d == 0 then return {} end return { tree(d - 1), tree(d - 1) } end
local function check(t) if t[1] == nil then return 1 end return 1 + check(t[1]) + check(t[2]) end
print("tree", check(tree(10)))
-- borders with nils before a last call that returns nothing
print("borders", #{nil, 1, none()}, #{nil, nil, 1, none()}, #{1, nil, 3, none()},
      #{nil, 1, one(nil)}, #{1, nil, none()}, #{nil, nil, nil, 1, none()})
