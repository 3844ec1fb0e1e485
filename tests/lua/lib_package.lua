-- lib_package.lua: require, package.path/searchers/preload/loadlib/searchpath
print("package: start")
print(package.config)
print(type(package.path), type(package.cpath), type(package.searchers), #package.searchers)
print(package.loaded._G == _G, package.loaded.string == string, package.loaded.package == package)
print(require("string") == string, select('#', require("math")))

-- a private module directory
local dir = os.tmpname()
os.remove(dir)
assert(os.execute("mkdir -p " .. dir .. "/sub"))
local function writefile(name, text)
  local f = assert(io.open(dir .. "/" .. name, "w"))
  f:write(text)
  f:close()
end
writefile("mymod.lua", "local name, file = ...\nmymod_loads = (mymod_loads or 0) + 1\nreturn {name = name, file = file}\n")
writefile("sub/inner.lua", "return 'inner:' .. select(1, ...)\n")
writefile("noreturn.lua", "noreturn_ran = true\n")
writefile("falsy.lua", "return false\n")
writefile("broken.lua", "return +\n")
writefile("raises.lua", "error('module failed')\n")

package.path = dir .. "/?.lua;" .. dir .. "/?/init.lua"
package.cpath = dir .. "/?.so"
local function clean(s) return (s:gsub(dir, "DIR")) end

local m, extra = require("mymod")
print(m.name, clean(m.file), clean(extra), mymod_loads)
local m2, extra2 = require("mymod")
print(m2 == m, extra2, mymod_loads)
local si, sie = require("sub.inner"); print(si, clean(sie))
print(require("noreturn"), noreturn_ran, package.loaded.noreturn)
print(require("falsy"), package.loaded.falsy)

local ok, err = pcall(require, "does.not.exist")
print(ok, clean(err))
ok, err = pcall(require, "broken")
print(ok, clean(err))
ok, err = pcall(require, "raises")
print(ok, clean(err))
print(pcall(require))

-- preload
package.preload.virtual = function(name, arg) return {n = name, a = arg} end
local v, vextra = require("virtual")
print(v.n, v.a, vextra)

-- searchpath
print(clean(package.searchpath("mymod", package.path)))
print(clean(package.searchpath("sub.inner", package.path)))
print(clean(package.searchpath("sub_inner", dir .. "/?.lua", "_", "/")))
local none, msg = package.searchpath("nothing", dir .. "/?.lua;" .. dir .. "/x/?.lua")
print(none, clean(msg))
print(package.searchpath("a.b", "?.x;?.y", ".", "#"))

-- custom searchers
table.insert(package.searchers, 2, function(name)
  if name == "magic" then return function(n, x) return "magic module " .. n .. " " .. x end, "xtra" end
  return "\n\tno magic for '" .. name .. "'"
end)
print(require("magic"))
ok, err = pcall(require, "nomagic")
print(ok, clean(err))
table.remove(package.searchers, 2)
local saved = package.searchers
package.searchers = nil
print(pcall(require, "whatever"))
package.searchers = saved
local savedpath = package.path
package.path = nil
print(pcall(require, "whatever2"))
package.path = savedpath

-- loadlib
local f1, e1, w1 = package.loadlib(dir .. "/nolib.so", "luaopen_x")
print(f1, clean(e1), w1)
print(pcall(package.loadlib))
local found, lw = package.loadlib(dir .. "/nolib.so", "*")
print(found, lw ~= nil)

-- C module search failure message includes cpath entries
ok, err = pcall(require, "cmod.part")
print(ok, clean(err))

os.execute("rm -rf " .. dir)
print("package: done")
