-- string.upper/lower: every byte value, embedded zeros, numbers as
-- subjects, method calls, empty strings, errors
local all = {}
for c = 0, 255 do all[#all + 1] = string.char(c) end
all = table.concat(all)
local up, lo = all:upper(), all:lower()
print(#up, #lo)
local ups, los = {}, {}
for c = 0, 255 do
  ups[#ups + 1] = up:byte(c + 1)
  los[#los + 1] = lo:byte(c + 1)
end
print(table.concat(ups, " ", 60, 130))
print(table.concat(los, " ", 60, 130))
for c = 0, 255 do   -- the same byte by byte
  local s = string.char(c)
  assert(s:upper() == up:sub(c + 1, c + 1) and s:lower() == lo:sub(c + 1, c + 1))
end
print(("Hello\0World"):upper():gsub("%z", "~"), ("MiXeD 123 _!"):lower())
print(string.upper(12.5), string.lower(-7), (""):upper() == "", #string.lower(""))
print(("ab"):rep(20):upper(), ("ÀÉ ça"):upper(), ("ÀÉ ça"):lower())
local t = {}
for i = 1, 50 do t[i] = string.char(64 + i % 30) end
local s = table.concat(t)
print(s:lower(), s:upper() == s:lower():upper())
print(pcall(string.upper))
print(pcall(string.lower, {}))
print(select("#", string.upper("a", "b")))
