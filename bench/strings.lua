-- strings.lua: string building and processing: string.format, concatenation
-- with .. and table.concat, gsub with string/table/function replacements,
-- gmatch, find, rep, sub, byte/char, upper/lower.
-- usage: mvm bench/strings.lua [n]   (default 200000)
-- Self-check: every produced string is parsed back or measured independently.
local n = tonumber(arg and arg[1]) or 200000
local fmt, concat = string.format, table.concat
-- floor division written portably (LuaJIT, a Lua 5.1, has no //); an integer in 5.4
local function idiv(a, b) return math.floor(a / b) end

-- 1. format records, join them, parse them back with gmatch
local parts = {}
for i = 1, n do parts[i] = fmt("%d:%.2f:%s", i, i / 7, i % 2 == 0 and "even" or "odd") end
local s = concat(parts, ",")
local k = 0
for a, b, c in s:gmatch("(%d+):([%d.]+):(%a+)") do
  k = k + 1
  assert(tonumber(a) == k, "record number")
  assert(math.abs(tonumber(b) - k / 7) <= 0.005, "record float")
  assert(c == (k % 2 == 0 and "even" or "odd"), "record word")
end
assert(k == n, "record count")

-- 2. gsub: count digits two ways, rewrite with a table and with a function
local digits = 0
for i = 1, #s do
  local b = s:byte(i)
  if b >= 48 and b <= 57 then digits = digits + 1 end
end
local s2, nd = s:gsub("%d", "#")
assert(nd == digits and #s2 == #s, "gsub digits")
local s3, nw = s:gsub("%a+", { even = "E", odd = "O" })
assert(nw == n and #s3 == #s - idiv(n, 2) * 3 - (n - idiv(n, 2)) * 2, "gsub table")
local sum = 0
-- %f[%d.] skips the digits after a decimal point: only record numbers match
local s4, nr = s:gsub("%f[%d.](%d+):", function(d) sum = sum + tonumber(d); return "" end)
assert(nr == n and sum == idiv(n * (n + 1), 2), "gsub function")
local removed = 0
for i = 1, n do removed = removed + #tostring(i) + 1 end
assert(#s4 == #s - removed, "gsub function result")

-- 3. concatenation with .. in a loop (lines of a report), then split again
local lines = {}
for i = 1, idiv(n, 10) do
  local line = ""
  for j = 1, 10 do line = line .. (i * j) .. (j < 10 and " " or "") end
  lines[#lines + 1] = line
end
local report = concat(lines, "\n")
local nl, total = 0, 0
for line in (report .. "\n"):gmatch("(.-)\n") do
  nl = nl + 1
  for w in line:gmatch("%d+") do total = total + tonumber(w) end
end
assert(nl == idiv(n, 10), "report lines")
local m = idiv(n, 10)
assert(total == (idiv(m * (m + 1), 2)) * 55, "report total")

-- 4. case conversion, rep, reverse, sub, find, byte/char round trips
local alpha = "the quick brown fox jumps over the lazy dog "
local text = alpha:rep(idiv(n, 20))
local up = text:upper()
assert(up:lower() == text and #up == #text, "upper/lower")
assert(text:reverse():reverse() == text, "reverse")
local foxes, pos = 0, 1
while true do
  local a, b = text:find("fox", pos, true)
  if not a then break end
  foxes = foxes + 1
  pos = b + 1
end
assert(foxes == idiv(n, 20), "find")
local bytes = { text:byte(1, 200) }
assert(string.char((table.unpack or unpack)(bytes)) == text:sub(1, 200), "byte/char")
local chunks = {}
for i = 1, #text, 64 do chunks[#chunks + 1] = text:sub(i, i + 63) end
assert(concat(chunks) == text, "sub chunks")

-- 5. formatted output of several kinds
local acc = {}
for i = 1, idiv(n, 4) do
  acc[#acc + 1] = fmt("%5d|%-8s|%x|%q|%g", i, "v" .. i, i, "q" .. i, i * 0.5)
end
local joined = concat(acc, "\n")
local hex = 0
for h in joined:gmatch("|(%x+)|\"") do hex = hex + tonumber(h, 16) end
assert(hex == idiv(idiv(n, 4) * (idiv(n, 4) + 1), 2), "format %x")

print(fmt("strings ok: %d records, %d digits, %d lines, %d foxes", k, digits, nl, foxes))
