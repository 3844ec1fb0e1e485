-- string.pack / string.packsize / string.unpack
local pack, unpack, packsize = string.pack, string.unpack, string.packsize
local function hex(s)
  return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end))
end
local show, perr = require("lib.show").show, require("lib.show").perr

-- sizes of the fixed formats
for _, f in ipairs{"b", "B", "h", "H", "i", "I", "l", "L", "j", "J", "T", "f", "d", "n",
                   "i1", "i2", "i3", "i7", "i8", "i9", "i16", "I5", "s1", "x", "c10", "c0", "",
                   "!8 i3 i8", "!4 b i", "!2 b d", "! b d", "b Xi", "bXh", "b x h", "<i4>i4=i4", " b  b "} do
  local ok, r = pcall(packsize, f)
  show("packsize", "[" .. f .. "]", ok and r or "error: " .. r)
end

-- integers of every size and both endiannesses
for _, f in ipairs{"<i1", ">i1", "<I1", "<i2", ">i2", "<I2", ">I2", "<i3", ">i3", "<i4", ">i4",
                   "<I4", "<i8", ">i8", "<j", ">J", "<i5", ">I7", "<i12", ">i12", "<I16", ">i16"} do
  local vals = {0, 1, -1, 100, -100, 127, -128}
  local out = {}
  for _, v in ipairs(vals) do
    local ok, s = pcall(pack, f, v)
    if ok then
      local back, nextpos = unpack(f, s)
      assert(nextpos == #s + 1)
      out[#out + 1] = hex(s) .. "=" .. tostring(back)
    else
      out[#out + 1] = "ERR(" .. s .. ")"
    end
  end
  print(f, table.concat(out, " "))
end
show(hex(pack(">i2", 0x1234)), hex(pack("<i2", 0x1234)), hex(pack("=i2", 0x1234)) == hex(pack("<i2", 0x1234)))
show(hex(pack(">j", math.mininteger)), hex(pack("<j", math.maxinteger)))
show(unpack(">j", pack(">j", math.mininteger)), unpack("<J", pack("<J", -1)))
show(hex(pack("<i16", -2)), unpack("<i16", pack("<i16", -2)))
show(hex(pack(">I16", math.maxinteger)), unpack(">I16", pack(">I16", math.maxinteger)))
show(unpack("<I9", "\255\255\255\255\255\255\255\255\0"))
show(unpack("<i9", "\255\255\255\255\255\255\255\255\255"))
show(unpack("<i9", "\0\0\0\0\0\0\0\128\255"))
perr(unpack, "<i9", "\0\0\0\0\0\0\0\128\0")
perr(unpack, "<I9", "\255\255\255\255\255\255\255\255\1")
perr(unpack, ">i16", "\1" .. string.rep("\0", 15))
show(unpack("<I3", "\255\255\255"), unpack("<i3", "\255\255\255"), unpack("<i3", "\255\255\127"))
show(unpack("B", "\200"), unpack("b", "\200"), unpack("h", pack("h", -2)))

-- overflow checks
perr(pack, "i1", 128)
perr(pack, "i1", -129)
perr(pack, "I1", 256)
perr(pack, "I1", -1)
perr(pack, "i2", 40000)
perr(pack, "I4", 1 << 32)
show(hex(pack("i1", -128)), hex(pack("I1", 255)), hex(pack("<I8", -1)), hex(pack("<i2", -32768)))
perr(pack, "i", 1.5)
perr(pack, "i", "x")
show(hex(pack("<i", "10")), hex(pack("<i", 3.0)))

-- floats
for _, f in ipairs{"<f", ">f", "<d", ">d", "<n", ">n"} do
  local out = {}
  for _, v in ipairs{0.0, 1.0, -1.5, 0.1, 1/0, -1/0, 2^100} do
    local s = pack(f, v)
    out[#out + 1] = hex(s) .. "=" .. tostring((unpack(f, s)))
  end
  print(f, table.concat(out, " "))
end
local nan = unpack("<d", pack("<d", 0/0))
assert(nan ~= nan)
show(hex(pack("<d", 3)), math.type(unpack("<d", pack("<d", 3))), unpack("f", pack("f", 2^-149)))
perr(pack, "d", "x")

-- strings
show(hex(pack("z", "hello")), unpack("z", pack("z", "hello")))
show(hex(pack("s1", "hi")), unpack("s1", pack("s1", "hi")))
show(hex(pack(">s2", "hi")), unpack(">s2", pack(">s2", "hi")))
show(hex(pack("<s", "abc")), unpack("<s", pack("<s", "abc")))
show(hex(pack("c5", "ab")), unpack("c5", pack("c5", "ab")) == "ab\0\0\0")
show(hex(pack("c2", "ab")), hex(pack("c0", "")))
show(unpack("c3", "abcdef"), unpack("c3", "abcdef", 4))
show(unpack("zz", "ab\0cd\0"))
show(unpack("z", "\0"))
show(#pack("s1", string.rep("x", 255)))
perr(pack, "s1", string.rep("x", 256))
perr(pack, "c2", "abc")
perr(pack, "z", "a\0b")
perr(pack, "c")
perr(pack, "c", "x")
perr(unpack, "z", "abc")
perr(unpack, "s1", "\5abc")
perr(unpack, "c4", "abc")
show(hex(pack("s4", "")), unpack("s4", pack("s4", "")))
show(#pack("s16", "x"), unpack("s16", pack("s16", "x")))

-- multiple values, positions and alignment
local s = pack("<i4 i2 z d", 1, 2, "three", 4.5)
show(#s, hex(s))
show(unpack("<i4 i2 z d", s))
show(unpack("<i2", s, 5))
show(unpack("<i2", s, -#s + 4))
show(select("#", unpack("", "abc")), unpack("", "abc"), unpack("", "abc", 4))
show(unpack("b", "abc", -1))
perr(unpack, "b", "abc", 5)
perr(unpack, "b", "abc", 4)
perr(unpack, "i4", "abc")
show(unpack("b", "abc", -10))
show(hex(pack("!4 b i4", 1, 2)), hex(pack("!4 b i2", 1, 2)), hex(pack("!2 b i8", 1, 2)))
show(hex(pack("! b d", 1, 2)), hex(pack("!8 b Xd", 1)), hex(pack("b Xi4", 1)))
show(hex(pack("!4 b Xi4 b", 1, 2)), hex(pack("!4 b Xh b", 1, 2)))
perr(pack, "!4 i3 b i3", 1, 2, 3)
show(hex(pack("!4 i2 b i4", 1, 2, 3)), hex(pack("!2 i3", 1)))
show(hex(pack("b x b xx b", 1, 2, 3)), unpack("b x b", "\1\0\2"))
show(unpack("!4 b i4", pack("!4 b i4", 7, 8)))
show(unpack("!4 b Xi4 b", pack("!4 b Xi4 b", 7, 8)))
show(hex(pack(" < i2 > i2 = i2 ", 1, 1, 1)))
show(packsize("!4 b Xi4"), packsize("!8 b Xd i2 Xi8"), packsize("!16 b Xi16"))
show(hex(pack("!4 z i4", "ab", 5)))

-- format errors
perr(pack, "i17", 1)
perr(pack, "i0", 1)
perr(packsize, "I20")
perr(pack, "!17", 1)
perr(pack, "!3 i4", 1)
perr(packsize, "!3 i3")
perr(pack, "!5 b Xi8", 1)
perr(pack, "X", 1)
perr(pack, "bX", 1)
perr(pack, "Xc1", 1)
perr(pack, "Xz", 1)
perr(pack, "q", 1)
perr(unpack, "y", "x")
perr(packsize, "s")
perr(packsize, "z")
perr(packsize, "c2147483647 c2")
perr(pack, "i4")
perr(pack, "i4 i4", 1)
perr(pack)
perr(unpack, "i4")
show(packsize("c214748364"), pcall(packsize, "i99999999999999999999"))
perr(packsize, "c2147483647")

-- round trips
local fmts = {"<i8", ">I4", "<d", "<f", "z", "s2", "c4", "b", "H"}
local vals = {-123456789, 4000000000, math.pi, 0.5, "zstr", "lenstr", "abcd", -5, 65535}
local all = table.concat(fmts, " ")
local packed = pack(all, table.unpack(vals))
local back = table.pack(unpack(all, packed))
for i = 1, #vals do assert(back[i] == vals[i], i) end
show("roundtrip", #packed, back.n, back[back.n])

print("string_pack done")
