-- Values up to L->top between two instructions in compiled code: a call or
-- VARARG with all results (C == 0) feeding a call, a table constructor, a
-- return or a tail call that takes them all (B == 0).  Under -j eager every
-- function here is compiled; under stress each step may move the stack.
local function none() end
local function one(x) return x end
local function three(a) return a, a + 1, a + 2 end
local function many(n) return table.unpack((function() local t = {} for i = 1, n do t[i] = i end return t end)()) end
local function count(...) return select("#", ...) end
local function sum(...)
  local s = 0
  for i = 1, select("#", ...) do s = s + (select(i, ...) or 0) end
  return s
end

-- CALL B=0 after CALL C=0
print("count", count(none()), count(one(1)), count(three(1)), count(1, 2, three(10)))
print("sum", sum(three(5)), sum(1, many(100)), sum(many(300)))
-- nested: f(g(h()))
print("nested", count(count(three(1))), sum(three(sum(three(1)))))
-- SETLIST B=0
local function pack3(a) return {three(a)} end
local function packmany(n) return {0, many(n)} end
local t = pack3(7); print("setlist", #t, t[1], t[2], t[3])
t = packmany(250); print("setlist many", #t, t[1], t[251])
t = {none()}; print("setlist none", #t)
-- RETURN B=0 (not a tail call: extra values before)
local function ret2(a) return a, three(a) end
local function retnone() return 1, none() end
print("return", ret2(3)); print("return none", retnone())
print("return count", count(ret2(1)), count(retnone()))
-- TAILCALL B=0
local function tail(a) return sum(three(a)) end
local function tailmany(n) return count(many(n)) end
print("tail", tail(2), tailmany(200))
-- varargs: VARARG C=0 feeding each kind
local function va(...) return count(...), {...}, ... end
local c, tt, x, y = va(4, nil, 6)
print("vararg", c, #tt, x, y)
local function vatail(...) return sum(...) end
print("vararg tail", vatail(1, 2, 3), vatail(many(50)))
local function vaset(...) local r = {...} return #r end
print("vararg set", vaset(), vaset(1, 2), vaset(many(120)))
-- in loops, mixed with allocation, so the compiled code runs many times
local acc = 0
for i = 1, 2000 do
  local p = {three(i)}
  acc = acc + sum(table.unpack(p)) + count(one(i), none())
  if i % 500 == 0 then acc = acc + #tostring(select(2, three(i))) end
end
print("loop", acc)
-- errors with values up to L->top
print("error", pcall(error, three(1)))
print("error2", select("#", pcall(one, three(1))))
-- a C function taking values up to L->top
print("string", string.format("%d %d %d", three(9)), math.max(three(-5)))
print("concat", table.concat({three(1)}, ","), select(-1, many(30)))
-- RETURN closing upvalues (k), with fixed results and with results up to L->top
local function mkclosures(n)
  local fs = {}
  for i = 1, n do
    local v = i * 10
    fs[i] = function() v = v + 1; return v end
  end
  local function ret() local u = n; local g = function() return u end; return g(), three(u) end
  return fs, ret
end
local fs, ret = mkclosures(3)
print("closed", fs[1](), fs[1](), fs[3](), ret())
local function vk(...) local a = ...; local f = function() return a end; return f(), ... end
print("vararg closed", vk(5, 6, 7))
-- RETURN k closing a generic for's closing value (a to-be-closed variable),
-- with results up to L->top, also when __close yields inside a coroutine
local log = {}
local function closer(name, yield)
  return setmetatable({}, {__close = function()
    log[#log + 1] = name
    if yield then coroutine.yield("in close " .. name) end
  end})
end
local function iter(_, i) if i < 3 then return i + 1 end end
local function findtwo(yield)
  for i in iter, nil, 0, closer("c" .. tostring(yield), yield) do
    if i == 2 then return i, three(i) end
  end
end
print("for return", findtwo(false))
local co = coroutine.wrap(function() return "done", findtwo(true) end)
print("co close", co()); print("co close", co())
print("log", table.concat(log, " "))
