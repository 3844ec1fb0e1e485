-- coroutine switches: the checks and transfers of resume and wrap
-- (resume_co in vm/do.c): refused resumes, errors with positions,
-- values both ways, yields from nested calls, metamethods and pcall
local co = coroutine.create(function(...)
  local a = {...}
  while true do
    a = {coroutine.yield(table.unpack(a))}
    if #a == 0 then return "end" end
  end
end)
print(coroutine.resume(co, 1, 2, 3))
print(coroutine.resume(co, "a", nil, "c"))
print(coroutine.resume(co))
print(coroutine.resume(co, 4))
print(coroutine.resume(co))
print(coroutine.status(co))
print(coroutine.resume(co))
print(coroutine.resume(co, 1, 2))

-- resuming itself (running) and its resumer (normal)
local outer
local inner = coroutine.create(function()
  print("inner", coroutine.status(outer), coroutine.resume(outer))
  print("self", coroutine.resume(coroutine.running()))
  return 1
end)
outer = coroutine.create(function() return coroutine.resume(inner) end)
print(coroutine.resume(outer))

-- wrap: results, errors with the caller's position, dead wraps
local g = coroutine.wrap(function(x) local y = coroutine.yield(x + 1); error("boom " .. y) end)
print(g(1))
print(pcall(g, 2))
print(pcall(g, 3))
local g2 = coroutine.wrap(function() error({code = 7}) end)
local ok, e = pcall(g2)
print(ok, type(e), e.code)
local g3 = coroutine.wrap(function() error("nopos", 0) end)
print(pcall(g3))

-- a coroutine that raised is dead; its error object stays the result
local bad = coroutine.create(function() local t = nil; return t.x end)
local ok2, msg = coroutine.resume(bad)
print(ok2, (string.gsub(msg, "^.-:%d+: ", "")))
print(coroutine.status(bad), coroutine.resume(bad))

-- yields from nested Lua calls, metamethods and inside pcall
local mt = {__index = function(t, k) return coroutine.yield(k) end,
            __add = function(a, b) return coroutine.yield("add") end}
local nested = coroutine.wrap(function()
  local function deep(n) if n == 0 then return coroutine.yield("deep") end return deep(n - 1) + 1 end
  local r1 = deep(5)
  local obj = setmetatable({}, mt)
  local r2 = obj.field
  local r3 = obj + 1
  local ok3, r4 = pcall(function() return coroutine.yield("pcall") end)
  local ok4, r5 = pcall(function() coroutine.yield("before error"); error("inside", 0) end)
  return r1, r2, r3, ok3, r4, ok4, r5
end)
print(nested())
print(nested(10))
print(nested("F"))
print(nested("A"))
print(nested("P"))
print(nested())
print(pcall(nested))

-- many values each way
local many = coroutine.wrap(function(...)
  local n = select("#", ...)
  local t = {coroutine.yield(n, ...)}
  return #t, t[1], t[#t]
end)
local args = {}
for i = 1, 300 do args[i] = i end
local r = {many(table.unpack(args))}
print(#r, r[1], r[2], r[301])
print(many(table.unpack(args, 1, 250)))

-- isyieldable, running, close
print(coroutine.isyieldable(), select(2, coroutine.running()))
print(coroutine.wrap(function() return coroutine.isyieldable(), select(2, coroutine.running()) end)())
local tc = coroutine.create(function()
  local x <close> = setmetatable({}, {__close = function() print("closed") end})
  coroutine.yield(1)
end)
print(coroutine.resume(tc))
print(coroutine.close(tc), coroutine.status(tc))
print(pcall(coroutine.close, coroutine.running()))

-- a chain of nested wrapped resumes, deeper than the C levels allow
local function chain(n)
  if n == 0 then return coroutine.wrap(function() coroutine.yield(0) end) end
  local prev = chain(n - 1)
  return coroutine.wrap(function() coroutine.yield(prev() + 1) end)
end
print(chain(50)())
local okdeep, edeep = pcall(chain(300))
print(okdeep, tostring(edeep):match("C stack overflow$"))
print(pcall(coroutine.resume, 42))
print(pcall(coroutine.wrap, 42))

-- coroutine.yield itself as a metamethod and as a for iterator (the
-- resumed frame stopped at an instruction other than OP_CALL)
local direct = coroutine.wrap(function()
  local o = setmetatable({}, {__index = coroutine.yield, __lt = coroutine.yield,
                              __concat = coroutine.yield})
  local a = o.key
  local b = o < o
  local c = o .. "s"
  local seen = {}
  for v in coroutine.yield do seen[#seen + 1] = v; if #seen == 2 then break end end
  return a, b, c, table.concat(seen, ",")
end)
print(select("#", direct()), type(select(2, direct("A"))))
print(type(direct(false)))
print(direct("C"))
print(direct("x"))
print(direct("y"))

-- the values passed in as the yield's results: fewer and more than its
-- caller wants, all of them (a multiple-result call), past the stack's size
local shapes = coroutine.wrap(function()
  local a, b, c = coroutine.yield("fixed")
  print("fixed", a, b, c)
  local d = coroutine.yield("one")
  print("one", d)
  print("all", select("#", coroutine.yield("all")))
  print("many", select("#", coroutine.yield("many")))
  local t = {coroutine.yield("table")}
  print("table", #t, t[1], t[#t])
  return "shapes done"
end)
print(shapes())
print(shapes(1))
print(shapes(1, 2, 3, 4))
print(shapes(nil, nil))
local big = {}
for i = 1, 7000 do big[i] = i end
print(shapes(table.unpack(big)))
print(shapes(table.unpack(big, 1, 6000)))

-- a hook set on a suspended coroutine sees the resumed frame
local hooked = coroutine.create(function()
  local x = coroutine.yield(1)
  local y = x + 1
  return y
end)
print(coroutine.resume(hooked))
local lines = 0
debug.sethook(hooked, function() lines = lines + 1 end, "l")
print(coroutine.resume(hooked, 41))
print(lines > 0)
