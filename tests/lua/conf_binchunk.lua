-- Damaged binary chunks: each must fail to load with lua5.4's message.
local good = string.dump(function(a) return a + 1 end)
local H = "\27Lua\x54\x00\x19\x93\r\n\x1a\n"
local cases = {"\27", "\27Lua", "\27Lux", "\27Lua\x53", "\27Lua\x54", "\27Lua\x54\x00",
  "\27Lua\x54\x00garbage", "\27Lua\x54\x01\x19\x93\r\n\x1a\n", H, H .. "\x04",
  H .. "\x05\x08\x08", H .. "\x04\x04\x08", H .. "\x04\x08\x04",
  H .. "\x04\x08\x08" .. string.rep("\0", 8),
  H .. "\x04\x08\x08\x78\x56\0\0\0\0\0\0" .. string.rep("\0", 8),
  good:sub(1, 20), good:sub(1, #good - 5), good:sub(1, #good // 2), good:sub(1, 33)}
for i, c in ipairs(cases) do print(i, load(c, "=bin")) end
print(load(good)(41), load(good, "x", "b")(1))
print(load(good, "x", "t"))
print(load("return 1", "x", "b"))
print(pcall(load(string.dump(function() local x = {1, 2} return #x end, true))))
-- a stripped function reports '?' for its source and lines
local stripped = load(string.dump(function() error("boom") end, true))
print(pcall(stripped))
