-- lib_base.lua: the basic library (assert, select, tonumber, load, pairs...)
print("base: start")

-- print / tostring / __tostring / __name
print(1, 2.5, -0.0, 1e100, 2^63, math.mininteger, "s", nil, true, false)
local t = setmetatable({}, {__tostring = function() return "T!" end})
print(t, tostring(t))
local named = setmetatable({}, {__name = "MyType"})
print((tostring(named):gsub("0x%x+", "ADDR")))
print(pcall(tostring, setmetatable({}, {__tostring = function() return 1 end})))
print(tostring(nil), tostring(true), tostring(12), tostring(1.5))

-- type
for _, v in ipairs({1, 1.0, "x", {}, print, true, coroutine.create(print)}) do
  io.write(type(v), " ")
end
print(type(nil))
print(pcall(type))

-- assert
print(assert(1, 2, 3))
print(pcall(assert, false))
print(pcall(assert, nil, "custom message"))
local ok, e = pcall(assert, false, {code = 7}); print(ok, type(e), e.code)
print(pcall(assert))

-- error levels and values
local function lvl1() error("at level 1") end
local function lvl2() error("at level 2", 2) end
local function lvl0() error("no position", 0) end
print(pcall(lvl1))
print(pcall(lvl2))
print(pcall(lvl0))
print(pcall(error))
print(pcall(error, nil))
print(select('#', pcall(error)))
ok, e = pcall(error, setmetatable({}, {__tostring = function() return "obj" end}))
print(ok, tostring(e))

-- select
print(select('#'), select('#', nil, nil), select(2, "a", "b", "c"))
print(select(-1, "a", "b", "c"), select(-3, "a", "b", "c"))
print(select(5, 1, 2))
print(pcall(select, 0, 1))
print(pcall(select, -4, 1, 2, 3))
print(pcall(select, "x"))

-- tonumber
print(tonumber("10"), tonumber("  0x1F  "), tonumber("1e2"), tonumber("  -7 "))
print(tonumber("10", 2), tonumber("ff", 16), tonumber("FF", 16), tonumber("zz", 36))
print(tonumber("  11  ", 3), tonumber("-11", 2), tonumber("8", 8), tonumber("1.5", 10))
print(tonumber(""), tonumber(" "), tonumber("0x"), tonumber("1 2"), tonumber("abc"))
print(tonumber(12), tonumber(1.25), tonumber({}), tonumber(nil))
print(tonumber("1\0"), tonumber("0x10", 16), tonumber("7fffffffffffffff", 16))
print(tonumber("10", 36), tonumber("+10", 10))
print(pcall(tonumber, "10", 1))
print(pcall(tonumber, "10", 37))
print(pcall(tonumber, {}, 10))
print(pcall(tonumber))
print(math.type(tonumber("3")), math.type(tonumber("3.0")), math.type(tonumber("3", 10)))

-- rawequal / rawlen / rawget / rawset
local mt = {__index = function() return "dflt" end, __newindex = function() error("no!") end,
            __len = function() return 99 end, __eq = function() return true end}
local p = setmetatable({}, mt)
local q = setmetatable({}, mt)
print(p.x, rawget(p, "x"), #p, rawlen(p), rawlen("abc"), p == q, rawequal(p, q), rawequal(p, p))
rawset(p, "x", 5)
print(p.x, rawget(p, "x"))
print(pcall(rawlen, 5))
print(pcall(rawset, {}, nil, 1))
print(pcall(rawget, 1, 1))
print(select('#', rawset(p, "y", 1)), rawset(p, "z", 2) == p)

-- getmetatable / setmetatable / __metatable
local prot = setmetatable({}, {__metatable = "locked"})
print(getmetatable(prot))
print(pcall(setmetatable, prot, {}))
print(getmetatable("abc").__index == string)
print(getmetatable({}), getmetatable(1))
print(pcall(setmetatable, {}, 1))
print(pcall(setmetatable, {}))
local tt = {}
print(setmetatable(tt, nil) == tt)

-- next / pairs / ipairs
local keys = {}
for k, v in pairs({10, 20, 30}) do keys[#keys + 1] = k .. "=" .. v end
print(table.concat(keys, " "))
print(next({}), next({5}))
print(pcall(next, {}, "nokey"))
local pt = setmetatable({}, {__pairs = function(t) return function(_, k)
  if not k then return 1, "one" elseif k < 3 then return k + 1, "more" end end, t, nil end})
for k, v in pairs(pt) do print("pairs mm", k, v) end
local it = setmetatable({}, {__index = function(_, i) if i <= 4 then return i * i end end})
for i, v in ipairs(it) do io.write(i, ":", v, " ") end print()
for i, v in ipairs({1, 2, nil, 4}) do io.write(i, ":", v, " ") end print()
print(pcall(ipairs))
print(pcall(pairs))

-- load with strings, functions, modes, env
local f = load("return 1 + 1")
print(f())
print(load("syntax error here"))
print(load("return x", "chunk", "t", {x = "from env"})())
print(load("return ...", "=name")(1, 2, 3))
print(load("x = 1", "=(mode)", "b"))
local pieces = {"return ", "'pie", "ces'"}
local i = 0
print(load(function() i = i + 1; return pieces[i] end)())
print(type(load(function() return nil end)))
print((select(2, load(function() return false end)):match("^[^\n]*")))
print((select(2, load(function() return {} end)):match("^[^\n]*")))
local env = {}
local g = load("y = 10; return y", "envchunk", "bt", env)
print(g(), env.y, y)
print(pcall(load))
local bin = string.dump(function() return "dumped" end)
print(load(bin, "bin", "t"))
print(load(bin, "bin", "b")())
print(load(bin)())

-- dofile / loadfile
local fname = os.tmpname()
local fh = io.open(fname, "w")
fh:write("local a, b = ...\nreturn (a or 1) * 10, 'file'\n")
fh:close()
print(dofile(fname))
print(loadfile(fname)(4))
print(loadfile(fname, "t", {})(5))
print(loadfile("/nonexistent/file.lua"))
fh = io.open(fname, "w") fh:write("return +") fh:close()
print((select(2, loadfile(fname)):gsub("^.-:", "FILE:")))
print((select(2, pcall(dofile, fname)):gsub("^.-:", "FILE:")))
os.remove(fname)

-- pcall / xpcall
print(pcall(function(...) return ... end, 1, 2, 3))
print(pcall(pcall))
print(xpcall(function(a, b) return a + b end, print, 3, 4))
print(xpcall(function() error("E") end, function(m) return "handled: " .. m end))
print(xpcall(function() error({}) end, function(m) return type(m) end))
print(pcall(xpcall, print))
print(xpcall(error, function(m) return m end, "direct"))
-- error in handler
print(xpcall(function() error("first") end, function(m) error("second") end))

-- _G, _VERSION
print(_G._G == _G, _VERSION, _G.print == print)

-- collectgarbage
print(type(collectgarbage("count")), math.type(collectgarbage("count")))
print(collectgarbage(), collectgarbage("collect"))
print(collectgarbage("isrunning"))
collectgarbage("stop")
print(collectgarbage("isrunning"))
collectgarbage("restart")
print(collectgarbage("isrunning"))
print(type(collectgarbage("step")), type(collectgarbage("step", 100)))
collectgarbage("generational")  -- lua.c starts in generational mode; do not depend on it
print(collectgarbage("incremental"), collectgarbage("generational"), collectgarbage("incremental"))
print(type(collectgarbage("setpause", 200)), type(collectgarbage("setstepmul", 100)))
print(pcall(collectgarbage, "bogus"))
print(collectgarbage("collect") == 0)

-- warn (control messages only; warnings are off by default)
warn("@off")
warn("not shown")
print(pcall(warn))
print(pcall(warn, "a", 1))
print("base: done")
