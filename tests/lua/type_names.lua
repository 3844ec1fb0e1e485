-- type() returns preallocated names: they stay valid across collections and
-- equal to freshly built strings
local vals = { nil, true, 1, 1.5, "s", {}, print, io.stdout, coroutine.create(print) }
local seen = {}
for round = 1, 3 do
  for i = 1, 9 do
    local t = type(vals[i])
    seen[t] = (seen[t] or 0) + 1
  end
  collectgarbage(); collectgarbage()
  local junk = {}
  for i = 1, 2000 do junk[i] = tostring(i) .. "x" end
end
local names = {}
for k, v in pairs(seen) do names[#names + 1] = k .. "=" .. v end
table.sort(names)
print(table.concat(names, " "))
print(type(1) == ("num" .. "ber"), type({}) == table.concat({"ta", "ble"}))
print(pcall(type))
