-- table library lengths: raw tables, tables whose metatable has or lacks
-- __len/__index, and table.concat over strings, numbers and bad values
local plain = { "a", "b", 3, 4.5 }
print(table.concat(plain, ","), table.concat(plain, ",", 2), table.concat(plain, "", 2, 3))
table.insert(plain, "e"); table.insert(plain, 1, "z")
print(table.concat(plain, " "), table.remove(plain), table.remove(plain, 1), #plain)
print(table.unpack(plain))
local withmt = setmetatable({ "x", "y" }, {})          -- a metatable without __len
table.insert(withmt, "w")
print(table.concat(withmt, "+"), #withmt, table.remove(withmt, 1), table.concat(withmt))
local lenmt = setmetatable({ "p", "q", "r", "s" }, { __len = function() return 2 end })
print(table.concat(lenmt, "/"), table.unpack(lenmt))
table.insert(lenmt, "new")
print(rawget(lenmt, 3), table.concat(lenmt, "/", 1, 4), table.remove(lenmt))
local proxy = setmetatable({}, { __len = function() return 3 end,
                                 __index = function(_, i) return "v" .. i end })
print(table.concat(proxy, ","), table.unpack(proxy))
print(pcall(table.concat, { 1, {}, 3 }))
print(pcall(table.concat, { 1, 2, true }, ","))
print(pcall(table.insert, setmetatable({}, { __len = function() return "x" end }), 1))
print(pcall(table.concat, setmetatable({}, { __len = function() return 1.5 end })))
print(table.concat({}, ","), table.concat({ 1 }, ","), table.concat({ 10, 20.0, -3 }, ";"))
