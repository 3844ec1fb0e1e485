-- Runs of a %-class and of its complement (pm_classspan, one loop per
-- direction): every class letter in both cases over all 256 bytes, runs that
-- end at the subject's end, empty runs, and a class followed by more pattern.
local all = {}
for c = 0, 255 do all[#all + 1] = string.char(c) end
all = table.concat(all)
for _, cl in ipairs({ "a", "c", "d", "g", "l", "p", "s", "u", "w", "x" }) do
  for _, k in ipairs({ cl, cl:upper() }) do
    local n, first, total = 0, nil, 0
    for run in all:gmatch("%" .. k .. "+") do
      n = n + 1
      first = first or run:byte(1)
      total = total + #run
    end
    local a, b = all:find("%" .. k .. "*", 1)
    local c, d = all:find("%" .. k .. "+$")
    print(k, n, first, total, a, b, c, d)
  end
end
-- runs to the very end, empty subjects, positions after the end
print(("abc"):find("%a+"), ("abc"):find("%A*"), ("123"):find("%d+$"))
print((""):find("%a*"), (""):find("%a+"), ("x"):find("%a*", 2), ("x"):find("%a*", 5))
print(("abc123def"):match("%a+(%d+)%a+$"), ("  \t\n x"):match("^%s*()"))
print(("aB3_ ;z"):gsub("%w", "."), ("aB3_ ;z"):gsub("%W+", "|"))
print(("\0\0a\0"):find("%z+"), ("\0\0a\0"):find("%Z+"))
local words = 0
for w in ("the quick, brown fox; 42 jumps"):gmatch("%a+") do words = words + 1 end
print(words, ("x1y22z333"):gsub("%D+", "-"))
