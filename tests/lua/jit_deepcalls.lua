-- Deep recursion through compiled code: direct calls nest on the C stack
-- as deep as its window allows (jit.h JIT_CSRESERVE), tail calls whose
-- last argument is a call's results (`return f(x, g(y))`) stay proper and
-- inline, and a function's entry checks its typed parameters inline.

-- Ackermann: tail calls of both kinds, recursion hundreds deep
local function ack(m, n)
  if m == 0 then return n + 1 elseif n == 0 then return ack(m - 1, 1) end
  return ack(m - 1, ack(m, n - 1))
end
print("ack", ack(2, 300), ack(3, 6), ack(1, 1000))

-- non-tail recursion tens of thousands of frames deep
local function depth(k) if k == 0 then return 0 end return 1 + depth(k - 1) end
for _, n in ipairs({10, 150, 170, 1000, 50000}) do print("depth", n, depth(n)) end

-- mutual recursion, deep, with a table built on the way back
local even, odd
function even(k) if k == 0 then return {} end local t = odd(k - 1) t[#t + 1] = k return t end
function odd(k) if k == 0 then return {} end local t = even(k - 1) t[#t + 1] = -k return t end
local t = even(30001)
print("mutual", #t, t[1], t[#t])

-- a list built recursively (a collection at the bottom), summed recursively
local function build(k) if k == 0 then collectgarbage() return nil end
  return {v = k, next = build(k - 1)} end
local function sum(l) if l == nil then return 0 end return l.v + sum(l.next) end
print("list", sum(build(20000)))

-- a yield from the bottom of a deep recursion, resumed with a value
local function dive(k) if k == 0 then return coroutine.yield("bottom") end return 1 + dive(k - 1) end
local co = coroutine.wrap(function(n) return dive(n) end)
print("yield", co(40000), co(7))

-- an error from the bottom, caught at the top; the VM goes on
local function fall(k) if k == 0 then error("at the bottom") end return 1 + fall(k - 1) end
local ok, msg = pcall(fall, 40000)
print("error", ok, msg:match("at the bottom"))
print("again", depth(40000))

-- runaway recursion still ends in "stack overflow"
local function inf(k) return 1 + inf(k + 1) end
ok, msg = pcall(inf, 1)
print("overflow", ok, msg:find("stack overflow") ~= nil)

-- tail calls whose arguments end at the top: 0, 1 and several results,
-- fewer arguments than parameters, a C function, a non-function
local function none() end
local function one(x) return x end
local function many(x) return x, x + 1, x + 2, x + 3 end
local function count(...) return select("#", ...) end
local function three(a, b, c) return tostring(a) .. "," .. tostring(b) .. "," .. tostring(c) end
local function tnone(x) return three(x, none()) end
local function tone(x) return three(x, one(x * 2)) end
local function tmany(x) return three(x, many(x)) end
local function tcount(x) return count(x, many(x)) end
local function tselect(x) return select(2, many(x)) end
local function tbad(x) return x(many(1)) end
for i = 1, 3 do
  print("top", tnone(i), tone(i), tmany(i), tcount(i), tselect(i))
  print("top", pcall(tbad, i))
end
-- a long chain of such tail calls: stays proper (no stack growth)
local function chain(n, acc) if n == 0 then return acc end return chain(n - 1, one(acc + 1)) end
local function chain2(n, acc) if n == 0 then return acc end return chain2(n - 1, many(acc + 1)) end
print("chain", chain(1000000, 0), chain2(100000, 0))

-- typed parameters checked at entry: the same function called with
-- integers, floats and strings
local function add3(a, b, c) return a + b + c end
local function rec(a, b, c, n) if n == 0 then return add3(a, b, c) end return rec(a, b, c, n - 1) end
for _, args in ipairs({{1, 2, 3}, {1.5, 2, 3}, {1, 2.5, 3}, {1, 2, "3"}, {2, 3, 4}}) do
  print("entry", rec(args[1], args[2], args[3], 3), add3(args[1], args[2], args[3]))
end
print(pcall(add3, 1, 2, {}))
