-- utf8 library
local show, perr = require("lib.show").show, require("lib.show").perr
local function hex(s)
  return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end))
end

-- charpattern
assert(utf8.charpattern == "[\0-\x7F\xC2-\xFD][\x80-\xBF]*")
show("charpattern", #utf8.charpattern, hex(utf8.charpattern))

-- char
for _, cp in ipairs{0, 0x41, 0x7f, 0x80, 0x7ff, 0x800, 0xffff, 0x10000, 0x10ffff, 0x110000, 0x1fffff,
                    0x200000, 0x3ffffff, 0x4000000, 0x7fffffff, 0xd800, 0xdfff} do
  show("char", string.format("%x", cp), hex(utf8.char(cp)))
end
show("char multi", utf8.char(72, 0xe9, 0x4e2d, 0x1f600), "[" .. utf8.char() .. "]")
show("char float", utf8.char(65.0))
perr(utf8.char, -1)
perr(utf8.char, 0x80000000)
perr(utf8.char, 65, 1.5)
perr(utf8.char, "x")
perr(utf8.char, 65, nil)

local s = "héllo wörld ✓ 😀"
-- len
show("len", utf8.len(s), #s)
show("len", utf8.len(""), utf8.len("abc"), utf8.len("abc", 2), utf8.len("abc", 4), utf8.len("abc", 1, 0))
show("len", utf8.len(s, 3), utf8.len(s, -4), utf8.len(s, 1, -5))
show("len invalid", utf8.len("ab\xffcd"))
show("len invalid", utf8.len("\x80"))
show("len invalid", utf8.len("abc\xe4\xb8"))
show("len overlong", utf8.len("\xc0\x80"), utf8.len("\xe0\x80\x80"), utf8.len("\xc1\xbf"))
show("len surrogate", utf8.len("\xed\xa0\x80"), utf8.len("\xed\xa0\x80", 1, -1, true))
show("len big", utf8.len("\xf4\x90\x80\x80"), utf8.len("\xf4\x90\x80\x80", 1, -1, true))
show("len 6byte", utf8.len("\xfd\xbf\xbf\xbf\xbf\xbf"), utf8.len("\xfd\xbf\xbf\xbf\xbf\xbf", 1, -1, true))
show("len 7byte", utf8.len("\xfe\xbf\xbf\xbf\xbf\xbf\xbf", 1, -1, true))
show("len continuation start", utf8.len(s, 3))
perr(utf8.len, "abc", 5)
perr(utf8.len, "abc", 0)
perr(utf8.len, "abc", 1, 4)
perr(utf8.len, "abc", -10)
perr(utf8.len)
show("len neg", utf8.len("abc", -1), utf8.len("abc", 1, -10))

-- codepoint
show("codepoint", utf8.codepoint("A"), utf8.codepoint("héllo", 1, -1))
show("codepoint", utf8.codepoint(s, 2), select("#", utf8.codepoint("abc", 3, 2)), select("#", utf8.codepoint("abc", 4, 3)))
perr(utf8.codepoint, "abc", 4)
show("codepoint", utf8.codepoint("😀✓"), utf8.codepoint("😀✓", 5))
show("codepoint", utf8.codepoint("abc", -1), utf8.codepoint("abc", -2, -1))
show("codepoint lax", utf8.codepoint("\xed\xa0\x80", 1, 1, true), utf8.codepoint("\xf4\x90\x80\x80", 1, 1, true),
     utf8.codepoint("\xfd\xbf\xbf\xbf\xbf\xbf", 1, 1, true))
perr(utf8.codepoint, "\xff")
perr(utf8.codepoint, "\xed\xa0\x80")
perr(utf8.codepoint, "\xf4\x90\x80\x80")
perr(utf8.codepoint, "abc", 0)
perr(utf8.codepoint, "abc", 1, 4)
perr(utf8.codepoint, "\xe4\xb8")
perr(utf8.codepoint, "h\xc3\xa9", 3)
perr(utf8.codepoint, "\xfe\xbf\xbf\xbf\xbf\xbf\xbf", 1, 1, true)

-- offset
for _, n in ipairs{1, 2, 3, 5, 14, 15, 16, 17, 0, -1, -2, -15, -16} do
  show("offset", n, utf8.offset(s, n))
end
show("offset i", utf8.offset(s, 1, 4), utf8.offset(s, 2, 4), utf8.offset(s, -1, 4), utf8.offset(s, 0, 3),
     utf8.offset(s, 0, 4), utf8.offset(s, 0, #s + 1))
show("offset empty", utf8.offset("", 1), utf8.offset("", 0), utf8.offset("", -1), utf8.offset("", 2))
show("offset end", utf8.offset("abc", 4), utf8.offset("abc", 5), utf8.offset("abc", -3), utf8.offset("abc", -4))
perr(utf8.offset, s, 1, 3)
perr(utf8.offset, "abc", 1, 5)
perr(utf8.offset, "abc", 1, 0)
perr(utf8.offset, "abc")
perr(utf8.offset, "\x80", 1)

-- codes
local out = {}
for p, c in utf8.codes(s) do out[#out + 1] = p .. ":" .. c end
show("codes", table.concat(out, " "))
out = {}
for p, c in utf8.codes("") do out[#out + 1] = p end
show("codes empty", #out)
out = {}
for p, c in utf8.codes("ab\xed\xa0\x80", true) do out[#out + 1] = p .. ":" .. c end
show("codes lax", table.concat(out, " "))
perr(function() for p, c in utf8.codes("ab\xffcd") do end end)
perr(function() for p, c in utf8.codes("ab\xed\xa0\x80") do end end)
out = {}
for p, c in utf8.codes("\x80\x80a\x80b") do out[#out + 1] = p .. ":" .. c end
show("codes leading continuation", table.concat(out, " "))
perr(utf8.codes)
perr(utf8.codes, {})
out = {}
for p, c in utf8.codes("a\x80") do out[#out + 1] = p .. ":" .. c end
show("codes trailing continuation", table.concat(out, " "))
local f, st, init = utf8.codes("xy")
show("codes manual", type(f), st, init, f(st, init))

-- iteration with charpattern
out = {}
for ch in s:gmatch(utf8.charpattern) do out[#out + 1] = hex(ch) end
show("gmatch charpattern", table.concat(out, ","))

-- round trip over a range of code points
local n = 0
for cp = 0, 0x10ffff, 997 do
  if cp < 0xd800 or cp > 0xdfff then
    local ch = utf8.char(cp)
    assert(utf8.codepoint(ch) == cp)
    assert(utf8.len(ch) == 1)
    n = n + 1
  end
end
show("roundtrip", n)
for _, cp in ipairs{0x110000, 0x7fffffff, 0xd800, 0x12345678} do
  local ch = utf8.char(cp)
  assert(utf8.codepoint(ch, 1, -1, true) == cp)
  assert(utf8.len(ch) == nil and utf8.len(ch, 1, -1, true) == 1)
end

print("utf8 done")
