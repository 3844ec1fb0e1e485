-- sets in patterns: every byte against sets with classes (and complemented
-- classes), ranges, negation, escapes, %z, literal ']' and '-', in single
-- tests (find), scans (gsub/gmatch/find skips) and runs ('*', '+', '-')
local all = {}
for c = 0, 255 do all[#all + 1] = string.char(c) end
local subject = table.concat(all)

-- the members of a set as a list of byte ranges, found three ways
local function ranges(bits)
  local out, c = {}, 0
  while c <= 255 do
    if bits[c] then
      local d = c
      while d < 255 and bits[d + 1] do d = d + 1 end
      out[#out + 1] = (c == d) and tostring(c) or (c .. "-" .. d)
      c = d + 1
    else c = c + 1 end
  end
  return table.concat(out, ",")
end

local sets = {
  "[%c]", "[%c\"\\]", "[^%c\"\\]", "[%a]", "[%A]", "[%d%s]", "[%D]", "[%S%D]",
  "[^%S%D]", "[%w_]", "[%W]", "[%p]", "[%P%d]", "[%l%u]", "[%L]", "[%U%l]",
  "[%x]", "[%X]", "[%g]", "[%G]", "[%z]", "[%Z]", "[^%z]", "[%za]", "[a-z]",
  "[A-Fa-f0-9]", "[^a-z]", "[%]]", "[]]", "[]a]", "[^]]", "[a-]", "[-a]",
  "[%-]", "[%%]", "[%^]", "[^^]", "[%[%]]", "[\1-\31]", "[\128-\255]",
  "[^\0-\127]", "[%.]", "[.]", "[%a%d%p]", "[^%a%d%p%s%c]", "[ \n\r\t]",
  "[%s%S]", "[^%s%S]", "[z-a]", "[%cA-C]", "[%Cx]", "[\0]", "[^\0]",
}

for _, set in ipairs(sets) do
  local single, scan, run = {}, {}, {}
  for c = 0, 255 do single[c] = string.find(all[c + 1], set) ~= nil end
  -- scan: gsub replaces members (a set pattern alone skips non-members)
  local marked = subject:gsub(set, "\1")
  for c = 0, 255 do scan[c] = (marked:byte(c + 1) == 1) ~= (c == 1 and not single[1]) end
  -- runs: every maximal run of members from gmatch with '+'
  for c = 0, 255 do run[c] = false end
  for a, e in subject:gmatch("()" .. set .. "+()") do
    for c = a - 1, e - 2 do run[c] = true end
  end
  local r1, r2, r3 = ranges(single), ranges(scan), ranges(run)
  print(set:gsub("%c", function(c) return "\\" .. c:byte() end),
        r1, r1 == r2 and "scan=" or ("scan:" .. r2), r1 == r3 and "run=" or ("run:" .. r3))
end

-- short subjects, as in JSON string escaping and scanning
local escapes = { ['"'] = '\\"', ['\\'] = '\\\\', ['\n'] = '\\n', ['\t'] = '\\t' }
local function escape(s)
  return (s:gsub('[%c"\\]', function(c) return escapes[c] or string.format("\\u%04x", c:byte()) end))
end
for _, w in ipairs({ "alpha", "tab\there", 'quote"d', "back\\slash", "new\nline",
                     "ctl\1x", "", "x", "\127del", "caf\195\169", "\0zero", "end\31" }) do
  print(escape(w), #w)
end
local doc = '{"a":"x\\"y","bb":"plain","c":"\\\\"}'
local i, found = 1, {}
while true do
  local a = string.find(doc, '["\\]', i)
  if not a then break end
  found[#found + 1] = a
  i = a + 1
end
print(table.concat(found, " "))
print(string.find("  \n\t x", "^[ \n\r\t]*"), string.find("x", "^[ \n\r\t]*"),
      string.find("", "^[ \n\r\t]*"))
print(string.find("-12.5e+3,", "^-?%d+%.?%d*[eE]?[-+]?%d*"))
print(("a1 b22 c333"):gsub("[%d]+", "#"), ("a1 b22 c333"):gsub("[^%d]+", "_"))
print(("x,y;;z"):match("^([^,;]*)[,;]+([^,;]*)"))
print(("héllo wörld"):gsub("[\128-\255]+", "?"))
print(("AbC dEf"):gsub("[%u]", string.lower), ("AbC dEf"):gsub("[%U]", "."))
print(("a\0b\0c"):gsub("[%z]", "0"), ("a\0b\0c"):gsub("[%Z]", "."))
print(("[x]"):gsub("[%[%]]", "|"), ("a-b"):gsub("[a-]", "+"))
print(("long " .. string.rep("ab\1", 100)):gsub("[%c]", ""):len())
print(select(2, string.rep("xyz\n", 200):gsub("[^\n]+", "")))
print(pcall(string.find, "abc", "[a"), pcall(string.find, "abc", "[%"))
print(pcall(string.gsub, "abc", "[]", "x"))
print(string.find("abc]", "[^]]+"), string.find("a]b", "[]]"))
