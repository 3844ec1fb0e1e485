-- integer to text (tostring, %d, concatenation) at every digit count and sign
local t = {0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 9999, 10000, 99999, 100000, 999999, 1000000, 9999999, 10000000, 12345678, 123456789, math.maxinteger, math.mininteger}
local out = {}
for _, v in ipairs(t) do
  out[#out+1] = tostring(v) .. " " .. tostring(-v) .. " " .. string.format("%d|%d", v, -v) .. " " .. (v .. "") .. " " .. #tostring(v)
end
for i = -1000, 1000 do out[#out+1] = tostring(i * 37) end
for i = 0, 60 do out[#out+1] = tostring(1 << i) .. "," .. tostring(-(1 << i)) .. "," .. tostring((1 << i) - 1) end
print(table.concat(out, "\n"))
