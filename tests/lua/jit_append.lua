-- jit_append.lua: `t[#t + 1] = v`, which compiled code does as one
-- operation (llvmgen.c appendop): the array part's inline path and the
-- interpreter's four instructions behind mvmrt_append for everything
-- else -- growth, nil and false values, metatables (__len, __newindex,
-- __index), a __len result that is a float, a string or a table, values
-- that are not tables, errors with their lines and variable names,
-- metamethods that yield, and young values stored into an old table; and
-- appends whose value takes more instructions (the length inline at the
-- LEN, the store checking the key is still #t + 1: lenaddop/appendsetop),
-- with calls in between that append to the table or give it a metatable.

local function fill(t, n, f)
  for i = 1, n do t[#t + 1] = f(i) end
  return t
end

-- growth from empty, through every array size
local t = fill({}, 1000, function(i) return i * 2 end)
local s = 0
for i = 1, #t do s = s + t[i] end
print("grow", #t, s, t[1], t[1000])

-- nil appends change nothing; false is a value
local function app(t, v) t[#t + 1] = v end
local u = {}
for i = 1, 50 do app(u, i) end
app(u, nil)
print("nil", #u, u[51])
app(u, false)
print("false", #u, u[51])
-- a table whose array part has room (constructor) and one with a hash part
local w = {1, 2, 3, nil, nil, nil, nil, nil}
for i = 1, 5 do app(w, i * 10) end
print("room", #w, w[4], w[8])
local hsh = {x = 1, y = 2}
for i = 1, 20 do app(hsh, i) end
print("hash", #hsh, hsh.x, hsh[20])

-- __newindex sees every append (no raw store)
local seen = {}
local logged = setmetatable({}, {__newindex = function(t, k, v)
  seen[#seen + 1] = k .. "=" .. tostring(v)
  rawset(t, k, v)
end})
for i = 1, 4 do app(logged, "v" .. i) end
print("newindex", #logged, table.concat(seen, " "))

-- a proxy: __len and __newindex over another table
local store = {}
local proxy = setmetatable({}, {__len = function() return #store end,
                                __newindex = function(_, k, v) store[k] = v end,
                                __index = store})
for i = 1, 10 do app(proxy, i * i) end
print("proxy", #proxy, #store, proxy[10], rawget(proxy, 1))

-- __len results that are not integers: a float (its key normalised), a
-- numeric string (arithmetic converts it), a table (an error)
local fl = setmetatable({}, {__len = function() return 2.0 end})
app(fl, "x")
print("float len", rawget(fl, 3), math.type(next(fl)))
local st = setmetatable({}, {__len = function() return "41" end})
app(st, "y")
print("string len", rawget(st, 42))
local bad = setmetatable({}, {__len = function() return {} end})
print("table len", pcall(app, bad, 1))
-- and an __add on that table's result
local num = setmetatable({}, {__add = function(a, b) return 7 end})
local odd = setmetatable({}, {__len = function() return num end})
app(odd, "z")
print("add mm", rawget(odd, 7))

-- errors: not a table, nil, and a string whose length is fine but which
-- cannot be indexed; each names the value and the line
local function appname(x) x[#x + 1] = 1 end
print(pcall(appname, nil))
print(pcall(appname, 42))
print(pcall(appname, "abc"))
local ro = setmetatable({}, {__newindex = function() error("read-only", 2) end})
print(pcall(appname, ro))

-- metamethods that yield: the interpreter finishes the instruction
local co = coroutine.wrap(function()
  local yt = setmetatable({}, {
    __len = function(t) coroutine.yield("len"); return rawlen(t) end,
    __newindex = function(t, k, v) coroutine.yield("set " .. k); rawset(t, k, v) end})
  for i = 1, 3 do app(yt, i * 100) end
  return "done " .. rawlen(yt) .. " " .. yt[3]
end)
local steps = {}
repeat local r = co(); steps[#steps + 1] = r until r:sub(1, 4) == "done"
print("yield", table.concat(steps, ", "))

-- young values into an old table (its card must be marked)
local old = {}
collectgarbage()
collectgarbage()
for i = 1, 2000 do app(old, {i}) ; app(old, "s" .. i) end
collectgarbage()
local ok = true
for i = 1, 2000 do
  if old[2 * i - 1][1] ~= i or old[2 * i] ~= "s" .. i then ok = false end
end
print("old", #old, ok)

-- a live length (not fused) and an upvalue table
local up = {}
local function upapp(v) up[#up + 1] = v end
local function live(t, v)
  local n = #t + 1
  t[n] = v
  return n
end
local ln = 0
for i = 1, 30 do upapp(i); ln = live(t, i) end
print("live", ln, #up, up[30], t[ln])

-- the value takes more instructions: calls between the length and the store
local function f2(t, x) t[#t + 1] = tostring(x) .. "!" end
local sp = {}
for i = 1, 100 do f2(sp, i) end
print("split", #sp, sp[1], sp[100])
-- a call in between appends to the same table: the store keeps its key
local function pushinner(t) t[#t + 1] = "inner"; return "outer" end
local function f3(t) t[#t + 1] = pushinner(t) end
local nest = {}
for i = 1, 5 do f3(nest) end
print("nested", #nest, table.concat(nest, ","))
-- a call in between gives the table a metatable
local function setmt(t)
  setmetatable(t, {__newindex = function(t, k, v) rawset(t, k, v .. "@mt") end})
  return "v"
end
local function f4(t) t[#t + 1] = setmt(t) end
local m4 = {}
for i = 1, 3 do f4(m4) end
print("mt between", #m4, m4[1], m4[3])
-- a __len result that is not an integer, before a longer value
local function f5(t, x) t[#t + 1] = x .. "" end
local fl2 = setmetatable({}, {__len = function() return 1.5 end})
f5(fl2, "a")
print("float split", rawget(fl2, 2.5))
local st2 = setmetatable({}, {__len = function() return "9" end})
f5(st2, "b")
print("string split", rawget(st2, 10))
print(pcall(f5, setmetatable({}, {__len = function() return {} end}), "c"))
print(pcall(f5, nil, "d"))
-- young values from calls into an old table
local old2 = {}
collectgarbage()
collectgarbage()
local function mk(i) return {i, tostring(i)} end
local function f6(t, i) t[#t + 1] = mk(i) end
for i = 1, 3000 do f6(old2, i) end
collectgarbage()
local ok2 = true
for i = 1, 3000 do if old2[i][1] ~= i or old2[i][2] ~= tostring(i) then ok2 = false end end
print("old split", #old2, ok2)
