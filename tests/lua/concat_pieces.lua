-- `..` joins pieces of every short length (vm_concat's word-move copies:
-- 0-3, 4-7, 8-16 and longer pieces), numbers among them, results up to
-- and past the 256-byte buffer
local alpha = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
local function piece(n) return alpha:sub(1, n) end
local h = 0
local function mix(s)
  for i = 1, #s do h = (h * 31 + s:byte(i)) % 1000000007 end
  return #s
end
for a = 0, 20 do
  for b = 0, 20 do
    local s = piece(a) .. piece(b)
    assert(#s == a + b and s:sub(1, a) == piece(a) and s:sub(a + 1) == piece(b))
    mix(s)
    local t = "<" .. piece(a) .. "|" .. piece(b) .. ">"
    assert(t == "<" .. alpha:sub(1, a) .. "|" .. alpha:sub(1, b) .. ">")
    mix(t)
    mix(piece(a) .. (a * 1000 + b) .. piece(b) .. (b / 4))
  end
end
print(h)
local long = {}
for n = 1, 40 do long[#long + 1] = piece(n % 17) .. n .. piece(n % 5) end
local s = ""
for i = 1, #long do s = s .. long[i] .. "," end
print(#s, mix(s), h)
print(piece(60) .. piece(62) .. piece(62) .. piece(62) .. piece(20))
print(("x"):rep(250) .. 12345 .. 1.5 .. -7 .. ("y"):rep(3))
print(1 .. 2, 1.0 .. "", -0.0 .. "|", math.mininteger .. "", 2^63 .. "")
