-- stock_lfs.lua -- Debian's lua-filesystem (built for stock Lua 5.4),
-- loaded with require from its Debian cpath: lfs.dir and lfs.attributes on
-- a fresh temporary directory.  Exit status 77 (skip) when not installed.
if not package.searchpath("lfs", package.cpath) then
  print("lfs not installed: skipped"); os.exit(77)
end
local lfs = require "lfs"

local base = os.tmpname()          -- a fresh file name; make it a directory
os.remove(base)
assert(lfs.mkdir(base))
assert(lfs.attributes(base, "mode") == "directory")

local names = {}
for i = 1, 20 do
  local name = string.format("f%02d.txt", i)
  local f = assert(io.open(base .. "/" .. name, "w"))
  f:write(string.rep("x", i * 10))
  f:close()
  names[name] = i * 10
end
assert(lfs.mkdir(base .. "/sub"))

-- lfs.dir: an iterator over a directory userdata (closed by __gc or :close)
local seen, nsub = 0, 0
for entry in lfs.dir(base) do
  if entry ~= "." and entry ~= ".." then
    local attr = assert(lfs.attributes(base .. "/" .. entry))
    if attr.mode == "file" then
      assert(names[entry] == attr.size, entry)
      seen = seen + 1
    else
      assert(attr.mode == "directory" and entry == "sub")
      nsub = nsub + 1
    end
  end
end
assert(seen == 20 and nsub == 1, seen)

local iter, dirobj = lfs.dir(base)
local first = dirobj:next()
assert(type(first) == "string")
dirobj:close()

local a = lfs.attributes(base .. "/f05.txt")
assert(a.size == 50 and a.mode == "file" and type(a.modification) == "number")
assert(lfs.attributes(base .. "/missing") == nil)
assert(lfs.touch(base .. "/f01.txt", 1000000, 1000000))
assert(lfs.attributes(base .. "/f01.txt", "modification") == 1000000)
local cwd = lfs.currentdir()
assert(lfs.chdir(base) and lfs.currentdir():find("sub", 1, true) == nil)
assert(lfs.chdir(cwd))

-- clean up
for name in pairs(names) do assert(os.remove(base .. "/" .. name)) end
assert(lfs.rmdir(base .. "/sub"))
assert(lfs.rmdir(base))
assert(lfs.attributes(base) == nil)
collectgarbage()
print("lfs ok")
