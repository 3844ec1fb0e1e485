-- '..' with numbers among the operands: their text is written into the
-- result directly (up to four per pass, the rest become strings first);
-- every mix must give lua5.4's text, including __concat fallbacks.
local nums = { 0, 1, -1, 42, 1234567, -1234567, 12345678, 2^47, -2^47, 2^53, math.maxinteger,
  math.mininteger, 0.5, -0.0, 1e100, 1/3, 1/0, -1/0, 3.0, -2.5e-7 }
for _, a in ipairs(nums) do
  local b = a * 3
  print(a .. "", "" .. a, a .. b, "[" .. a .. "]", a .. "|" .. b .. "|" .. a .. "|" .. b .. "|" .. a .. "|" .. b)
end
local x, y, z, w, v = 1, 2.5, -3, 4, 5
print(x .. y .. z .. w .. v .. x .. y .. z .. w .. v)
print("a" .. x .. "b" .. y .. "c" .. z .. "d" .. w .. "e" .. v .. "f")
local long = ("x"):rep(300)
print(#(long .. x .. y .. long .. z), (long .. x .. y .. long .. z):sub(298, 306))
local mt = { __concat = function(a, b)
  return "<" .. (type(a) == "table" and "T" or a) .. "+" .. (type(b) == "table" and "T" or b) .. ">" end }
local t = setmetatable({}, mt)
print(t .. 1, 1 .. t, 1 .. 2 .. t, t .. 1 .. 2, 1 .. t .. 2, "s" .. 1.5 .. t .. 2 .. 3)
print(pcall(function() return 1 .. {} end))
print(pcall(function() return {} .. 1 end))
print(pcall(function() return 1 .. nil .. 2 end))
local parts = {}
for i = 1, 30 do parts[#parts + 1] = i .. ":" .. i * 0.5 .. ":" .. -i .. ";" end
print(table.concat(parts))
