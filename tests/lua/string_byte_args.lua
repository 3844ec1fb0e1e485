-- string.byte: the two-argument call on every position (in range, zero,
-- negative, past the end), and the other argument shapes
local s = "A\0\255z"
for i = -6, 6 do print(i, s:byte(i), string.byte(s, i)) end
print(s:byte(), ("").byte(""), ("x"):byte(1), (""):byte(1), (""):byte(0))
print(s:byte(2.0), s:byte("3"), s:byte(" 4 "), s:byte(1, -1))
print(s:byte(1, 2), s:byte(3, 2), s:byte(-2, -1), s:byte(math.mininteger),
      s:byte(math.maxinteger))
print(string.byte(1234, 2), string.byte(12.5, 3), string.byte(-7, 1))
print(pcall(string.byte, s, 1.5))
print(pcall(string.byte, s, "x"))
print(pcall(string.byte, {}, 1))
print(pcall(string.byte, nil, 1))
print(pcall(string.byte))
print(s:byte(1, nil), s:byte(nil, 2), select("#", s:byte(5)), select("#", s:byte(0)))
local sum = 0
local text = string.rep("abc\1", 50)
for i = 1, #text do sum = sum + text:byte(i) end
print(sum, text:byte(#text), text:byte(#text + 1))

-- string.sub: immediate positions in and out of range, and the other shapes
local t = "hello"
for i = -7, 7 do
  local row = {}
  for j = -7, 7 do row[#row + 1] = "[" .. t:sub(i, j) .. "]" end
  print(i, t:sub(i), table.concat(row))
end
print(t:sub(2.0, 3.0), t:sub("2", "4"), t:sub(math.maxinteger), t:sub(math.mininteger),
      t:sub(1, math.maxinteger), t:sub(2, math.mininteger), ("").sub("", 1, 1))
print(string.sub(12345, 2, 3), string.sub(1.5, 1))
print(pcall(string.sub, t), pcall(string.sub, t, 1.5), pcall(string.sub, t, 1, {}))
print(pcall(string.sub, nil, 1, 2))
print(t:sub(1, nil), t:sub(3, 2), t:sub(5, 5), t:sub(6, 6), #t:sub(1, 0))
