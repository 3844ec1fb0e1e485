-- table.concat copies its pieces and separators inline (no memcpy call for
-- short ones): every piece length 0..40 with separators of 0..20 bytes, on
-- the short (one buffer) and the long (one string filled in place) paths,
-- embedded zeros, numbers as pieces, ranges.
local function manual(t, sep, i, j)
  local s = ""
  for k = i, j do
    s = s .. t[k]
    if k < j then s = s .. sep end
  end
  return s
end
local alpha = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ\0\1\2"
local bad = 0
for plen = 0, 40 do
  for slen = 0, 20 do
    local sep = ("|-\0"):rep(7):sub(1, slen)
    for n = 1, 5 do
      local t = {}
      for k = 1, n do t[k] = alpha:sub(k, k + plen - 1) end
      local got = table.concat(t, sep)
      if got ~= manual(t, sep, 1, n) then bad = bad + 1 end
      if n >= 3 and table.concat(t, sep, 2, 3) ~= manual(t, sep, 2, 3) then bad = bad + 1 end
    end
  end
end
print("mismatches", bad)
-- long results (over the short buffer), pieces of every length 0..300
local t = {}
for k = 0, 300 do t[#t + 1] = ("x"):rep(k) .. "\0" end
local s = table.concat(t, "ab")
print(#s, s:sub(1, 12):byte(1, -1))
print(#table.concat(t), #table.concat(t, ("-"):rep(17)))
-- numbers as pieces (integers, floats), and the mixture with strings
print(table.concat({ 1, 2.5, -3, "x", 1e100, 2^63, -0.0, math.mininteger }, ","))
print(table.concat({ 1, 2, 3 }, ", ", 2), table.concat({}, "x"), table.concat({ "only" }, "sep"))
print(pcall(table.concat, { 1, {}, 3 }, ","))
print(pcall(table.concat, { "a", "b" }, ",", 1, 3))
