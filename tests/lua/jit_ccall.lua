-- jit_ccall.lua: C functions called from compiled code (the inline C
-- call at library-name sites, mvmrt_precall's lean C path) and the string
-- method cache of SELF on strings: results, errors with file:line raised
-- inside the C function, a string metatable '__index' changed mid-loop,
-- hooks turned on by the callee, callbacks into Lua, yields across such
-- calls in coroutines, and values that must survive collections.

-- results of 0 and 1 wanted, more or fewer given
local function counts(s, k)
  local t, n = {}, 0
  for i = 1, #s - k + 1 do
    local w = s:sub(i, i + k - 1)
    t[w] = (t[w] or 0) + 1
    n = n + (s:byte(i) or 0)
  end
  return t, n
end
for round = 1, 3 do
  local t, n = counts(string.rep("acgtacgatc", 30), 2)
  print(round, t.ac, t.gt, t.tc, n)
end

local function misc(n)
  local acc = {}
  for i = 1, n do
    table.insert(acc, type(i) .. select("#", i, nil, i) .. math.max(i, 3))
    local x = select(2, "a", "b")    -- several results given, one wanted
    local y = string.find("hello", "z")   -- nil
    acc[#acc] = acc[#acc] .. x .. tostring(y) .. math.min(i, 2)
  end
  return table.concat(acc, ",")
end
for _ = 1, 3 do print(misc(5)) end

-- an error raised inside a C function called from compiled code: the
-- message carries this file's name and the line of the call
local function bad(s, n)
  local r = 0
  for i = 1, n do
    r = r + #s:rep(2)
    if i == n then r = r + #s:sub("x") end
  end
  return r
end
for _ = 1, 3 do print(pcall(bad, "ab", 10)) end
local function badarg(t)
  local n = 0
  for i = 1, 20 do n = n + #tostring(i) if i == 20 then table.insert(t, 1, 2, 3) end end
  return n
end
for _ = 1, 2 do print(pcall(badarg, {})) end
local function tb()
  for i = 1, 3 do
    if i == 3 then return (select(1, debug.traceback("tb", 1))):match("^tb\n[^\n]*\n%s*[^\n]*") end
  end
end
print((tb():gsub("\t", " ")))

-- the string metatable's '__index' changed mid-loop: the site's cache
-- must notice a new '__index' table, a replaced method, a new key
local smt = getmetatable("")
local strlib = smt.__index
local origsub = string.sub
local function methods(n, at, change)
  local out = {}
  for i = 1, n do
    if i == at then change() end
    out[#out + 1] = ("xyz"):sub(1, 1) .. (("q"):upper())
  end
  return table.concat(out, " ")
end
print(methods(6, 3, function() smt.__index = setmetatable({sub = function() return "S" end}, {__index = strlib}) end))
print(methods(6, 4, function() smt.__index = strlib end))
print(methods(6, 2, function() string.sub = function(s) return "<" .. s .. ">" end end))
string.sub = nil
print(pcall(methods, 4, 2, function() end))
string.sub = function(s, i, j) return "new" end
print(methods(3, 1, function() end))
string.sub = origsub
print(methods(3, 1, function() end))
collectgarbage()
local co = coroutine.wrap(function() end)
co()

-- a C function that turns hooks on from compiled code
local function hooked(n)
  local calls = 0
  local r = 0
  for i = 1, n do
    r = r + select("#", i, i)
    if i == 3 then debug.sethook(function() calls = calls + 1 end, "c") end
  end
  debug.sethook()
  return r, calls > 0
end
print(hooked(6))
print(hooked(6))

-- callbacks into Lua from C functions called from compiled code
local function callbacks(n)
  local s = 0
  for i = 1, n do
    local t = {5, 3, i, 1}
    table.sort(t, function(a, b) return a > b end)
    s = s + t[1] + #(("abc"):gsub("%w", function(c) return c .. c end))
  end
  return s
end
for _ = 1, 3 do print(callbacks(10)) end

-- yields across C calls made from compiled code inside coroutines
local yield = coroutine.yield
local function producer(n)
  for i = 1, n do
    local v = select(2, pcall(yield, i * 2))
    local w = type(v) .. select("#", yield(i))
    yield(w)
  end
  return "end"
end
for _ = 1, 2 do
  local c = coroutine.wrap(function() return producer(3) end)
  local got = {}
  for k = 1, 10 do got[#got + 1] = tostring(c(k)) end
  print(table.concat(got, " "))
end

-- collections during C calls: references live in compiled code across the
-- calls, strings allocated by the callees
local function churn(n)
  local keep = {name = "keep"}
  local out = {}
  for i = 1, n do
    local s = string.rep("x", i % 7 + 30) .. i
    out[#out + 1] = s:sub(-3, -1) .. string.format("%d", #s)
    if i % 50 == 0 then collectgarbage() end
  end
  return keep.name, #out, out[1], out[n]
end
for _ = 1, 3 do print(churn(200)) end

-- TFORCALL's steps of next and ipairs without a call, and the cases
-- that must call: ipairs over a proxy with '__index', keys cleared while
-- traversing, '__pairs', an iterator of another kind, hooks
local function loops(t, proxy)
  local ks, s = 0, 0
  for k, v in pairs(t) do ks = ks + 1; s = s + v; if v % 3 == 0 then t[k] = nil end end
  for i, v in ipairs(proxy) do s = s + i * v end
  for i in ipairs({10, 20, nil, 40}) do s = s + i end
  for w in ("a bb ccc"):gmatch("%a+") do s = s + #w end
  return ks, s
end
for round = 1, 3 do
  local t = {}
  for i = 1, 30 do t["k" .. i] = i; t[i] = i end
  local proxy = setmetatable({}, {__index = function(_, i) if i <= 4 then return i * 10 end end})
  print(round, loops(t, proxy))
  local n = 0
  for k in next, t do n = n + 1 end
  print(n, pcall(next, t, "nokey"))
end
local mp = setmetatable({}, {__pairs = function(t) return function(_, k) if (k or 0) < 3 then return (k or 0) + 1, "p" end end, t, nil end})
for _ = 1, 2 do local c = 0 for k, v in pairs(mp) do c = c + k end print(c) end
local function hookedloop()
  local n, calls = 0, 0
  for i, v in ipairs({1, 2, 3, 4, 5, 6}) do
    n = n + v
    if i == 3 then debug.sethook(function() calls = calls + 1 end, "c") end
  end
  debug.sethook()
  return n, calls > 0
end
print(hookedloop())
print(hookedloop())

-- tail calls of C functions from compiled code (mvmrt_tailcall's lean C
-- path): results of any count, an error raised inside with file:line
local function tsub(s, i) return s:sub(i, i + 1) end
local function tmulti(...) return select(2, ...) end
local function tbad(s) return s:rep("x") end
for _ = 1, 3 do
  local acc = {}
  for i = 1, 5 do acc[#acc + 1] = tsub("abcdefg", i) .. select("#", tmulti(1, 2, 3, i)) end
  print(table.concat(acc, " "), tmulti(1, 2, 3), pcall(tbad, "ab"))
end
