-- lib_debug.lua: debug library
print("debug: start")

local function sorted_keys(t)
  local ks = {}
  for k in pairs(t) do ks[#ks + 1] = tostring(k) end
  table.sort(ks)
  return table.concat(ks, " ")
end

-- getinfo on functions
local function sample(a, b, ...)
  local x = a + b
  return x
end
local info = debug.getinfo(sample)
print(sorted_keys(info))
print(info.what, info.source, info.short_src, info.linedefined, info.lastlinedefined)
print(info.nups, info.nparams, info.isvararg, info.currentline, info.func == sample, info.istailcall)
print(info.name, info.namewhat, info.ftransfer, info.ntransfer)
local pinfo = debug.getinfo(print)
print(pinfo.what, pinfo.source, pinfo.short_src, pinfo.linedefined, pinfo.lastlinedefined, pinfo.nups, pinfo.isvararg, pinfo.nparams)
print(sorted_keys(debug.getinfo(sample, "S")))
print(sorted_keys(debug.getinfo(sample, "l")))
print(sorted_keys(debug.getinfo(sample, "L")))
local lines = {}
for l in pairs(debug.getinfo(sample, "L").activelines) do lines[#lines + 1] = l end
table.sort(lines)
print(table.concat(lines, ","))
print(pcall(debug.getinfo, sample, ">S"))
print(pcall(debug.getinfo, 1, "!"))
print(pcall(debug.getinfo, {}))
print(debug.getinfo(100))
local main = debug.getinfo(1, "S")
print(main.what, main.short_src, main.linedefined)

-- getinfo on the stack
local function where()
  local i = debug.getinfo(1, "nSl")
  local c = debug.getinfo(2, "nl")
  return i.name, i.namewhat, i.currentline, c.currentline
end
print(where())
local t = {method = function(self) return debug.getinfo(1, "n").name, debug.getinfo(1, "n").namewhat end}
print(t:method())
print(t.method(t))
local function tail() return debug.getinfo(1, "t").istailcall end
local function calls_tail() return tail() end
print(calls_tail(), (tail()))
local cinfo = debug.getinfo(1, "f")
print(type(cinfo.func))

-- locals
local function locals(p1, p2)
  local l1 = "one"
  local l2 = 2
  local out = {}
  local i = 1
  while true do
    local name, value = debug.getlocal(1, i)
    if not name then break end
    if name:sub(1, 1) ~= "(" then out[#out + 1] = name .. "=" .. (type(value) == "table" and "table" or tostring(value)) end
    i = i + 1
  end
  print(table.concat(out, " "))
  print(debug.setlocal(1, 3, "changed"), l1)
  print(debug.setlocal(1, 99, "x"))
  print(debug.getlocal(1, 99))
end
locals("a", "b")
print(debug.getlocal(locals, 1), debug.getlocal(locals, 2), debug.getlocal(locals, 3))
print(debug.getlocal(print, 1))
print(pcall(debug.getlocal, 100, 1))
print(pcall(debug.setlocal, 100, 1, 1))
local function va(...)
  return debug.getlocal(1, -1), debug.getlocal(1, -2), debug.getlocal(1, -3)
end
print(va("v1", "v2"))

-- upvalues
local up1, up2 = 10, 20
local function uses() return up1 + up2 end
print(debug.getupvalue(uses, 1), debug.getupvalue(uses, 2), debug.getupvalue(uses, 3))
print(debug.setupvalue(uses, 1, 100), up1, uses())
print(debug.setupvalue(uses, 5, 1))
print(debug.getupvalue(string.gmatch("a", "a"), 1) ~= nil)
local function other() return up2 end
print(debug.upvalueid(uses, 2) == debug.upvalueid(other, 1), debug.upvalueid(uses, 1) == debug.upvalueid(other, 1))
print(debug.upvalueid(uses, 3))
local a1, a2 = 1, 2
local function fa() return a1 end
local function fb() return a2 end
debug.upvaluejoin(fa, 1, fb, 1)
print(fa(), fb(), debug.upvalueid(fa, 1) == debug.upvalueid(fb, 1))
print(pcall(debug.upvaluejoin, fa, 5, fb, 1))
print(pcall(debug.upvaluejoin, print, 1, fb, 1))
print(pcall(debug.getupvalue, 1, 1))

-- metatables, registry, uservalues
local mtab = {}
print(debug.setmetatable(10, mtab) == 10, getmetatable(1) == mtab, debug.getmetatable(5) == mtab)
debug.setmetatable(10, nil)
print(getmetatable(1))
print(pcall(debug.setmetatable, 1, 2))
local prot = setmetatable({}, {__metatable = "no"})
print(getmetatable(prot), type(debug.getmetatable(prot)))
print(type(debug.getregistry()), type(debug.getregistry()._LOADED))
print(debug.getuservalue(1), debug.getuservalue(io.stdout))
print(debug.getuservalue(io.stdout, 2))
print(pcall(debug.setuservalue, {}, 1))
print(debug.setuservalue(io.stdout, 5) == nil)

-- hooks
local events = {}
local function hook(ev, line) events[#events + 1] = ev .. (line and (":" .. line) or "") end
local function hooked(x)
  local y = x + 1
  return y
end
debug.sethook(hook, "crl")
hooked(1)
debug.sethook()
print(table.concat(events, " "))
print(debug.gethook())
debug.sethook(hook, "l", 0)
local hf, hm, hc = debug.gethook()
debug.sethook()
print(hf == hook, hm, hc)
local count = 0
debug.sethook(function() count = count + 1 end, "", 10)
for i = 1, 100 do local _ = i * 2 end
local _, m2, c2 = debug.gethook()
debug.sethook()
print(count > 0, m2, c2)
local co = coroutine.create(function() coroutine.yield() end)
debug.sethook(co, hook, "c")
print(debug.gethook(co) == hook, debug.gethook() == nil)
debug.sethook(co)

-- traceback
print(debug.traceback("msg", 1):match("^msg\nstack traceback:\n") ~= nil)
print(debug.traceback(42):match("^42\nstack traceback:\n") ~= nil, type(debug.traceback(nil)), type(debug.traceback({})))
local tb = debug.traceback()
print(tb:match("^stack traceback:") ~= nil)
local function lvl3() return debug.traceback("here", 1) end
print((lvl3():gsub("\n[^\n]*%[C%][^\n]*", "")))
print(debug.traceback(co))
print(debug.traceback(co, "comsg"))
print(type(debug.setcstacklimit(0)))
print("debug: done")
