-- String creation: every way of making a string must give the same
-- (interned) string for the same bytes, at the edges of the fast paths:
-- 1-byte strings of every byte value, embedded zeros, lengths around the
-- hash/compare/concat-buffer boundaries, strings created and collected in
-- bulk, string keys of tables across collections.
local char, byte, sub, rep, fmt = string.char, string.byte, string.sub, string.rep, string.format
local concat = table.concat

-- 1. every 1-byte string, made seven ways, is one table key
local all = {}
for i = 0, 255 do all[#all + 1] = char(i) end
local allbytes = concat(all)
assert(#allbytes == 256)
local keys, nkeys = {}, 0
for i = 0, 255 do
  local c = char(i)
  local ways = {
    c, sub(allbytes, i + 1, i + 1), allbytes:sub(i - 256, i - 256),
    rep(c, 1), "" .. c, fmt("%c", i), concat({ c }), (c:rep(3)):sub(2, 2),
    (utf8 and i < 128) and utf8.char(i) or c,
  }
  for w, s in ipairs(ways) do
    assert(#s == 1 and byte(s) == i, "byte " .. i .. " way " .. w)
    assert(s == c, "equal " .. i .. " way " .. w)
    if keys[s] == nil then nkeys = nkeys + 1; keys[s] = i end
    assert(keys[s] == i)
  end
end
print("1-byte keys", nkeys)
collectgarbage()
collectgarbage()
local found = 0
for i = 0, 255 do if keys[sub(allbytes, i + 1, i + 1)] == i then found = found + 1 end end
print("1-byte keys after collect", found)
-- one-character captures and gsub results
local caps = {}
for c in ("a\0b\255a"):gmatch(".") do caps[#caps + 1] = byte(c) end
print("captures", concat(caps, " "))
print("gsub", (("xyz"):gsub(".", { x = "\0", y = "\255", z = "z" })):byte(1, -1))
print("tostring digits", tostring(7) == "7", 7 .. "" == "7", ("7"):len())

-- 2. embedded zeros
local z = { "\0", "\0\0", "a\0", "\0a", "a\0b", "a\0c", "\0\0\0\0\0\0\0\0",
  "\0\0\0\0\0\0\0\0\0", rep("\0", 40), rep("\0", 41), rep("\0", 300),
  rep("\0", 299) .. "\1", "\1" .. rep("\0", 299) }
local zk = {}
for i, s in ipairs(z) do zk[s] = i end
for i, s in ipairs(z) do
  local copy = sub("<" .. s .. ">", 2, -2)
  assert(copy == s and zk[copy] == i, "zero string " .. i)
  for j, t in ipairs(z) do assert((s == t) == (i == j), "zero distinct " .. i .. " " .. j) end
end
print("zeros", #z, #rep("\0", 300), ("a\0b"):byte(1, -1))

-- 3. lengths around the boundaries (hash word 8, compare 16, Lua's 40,
-- hash sampling 256, concatenation buffer 256), built six ways
local lens = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 31, 32, 33, 39, 40, 41,
  63, 64, 65, 127, 128, 129, 191, 192, 193, 255, 256, 257, 258, 320, 511, 512, 513, 1000 }
local src = rep("abcdefghijklmnopqrstuvwxyz0123456789", 40)
local byl, count = {}, 0
for _, n in ipairs(lens) do
  local a = sub(src, 1, n)
  local parts = {}
  for i = 1, n do parts[i] = sub(src, i, i) end
  local b = concat(parts)
  local c = ""
  local half = n // 2
  c = sub(src, 1, half) .. sub(src, half + 1, n)
  local d = fmt("%s", a)
  local e = (n > 0) and (sub(src, 1, n - 1) .. sub(src, n, n)) or ""
  local f = ("x" .. a):sub(2)
  for _, s in ipairs({ b, c, d, e, f }) do
    assert(s == a and #s == n, "length " .. n)
  end
  byl[a] = n
  count = count + 1
  assert(byl[b] == n and byl[c] == n and byl[f] == n)
  -- differs in one byte only: the last, the middle, the first
  if n > 0 then
    local last = sub(a, 1, n - 1) .. "#"
    local mid = sub(a, 1, half) .. "#" .. sub(a, half + 2)
    local first = "#" .. sub(a, 2)
    assert(last ~= a and mid ~= a and first ~= a and byl[last] == nil and byl[mid] == nil)
    assert(#mid == n and #last == n and #first == n)
  end
end
print("lengths", count)

-- long strings differing at every 37th position (beyond a sampled hash)
local long = rep("0123456789", 100)
local seen, ndiff = {}, 0
for i = 1, #long, 37 do
  local s = sub(long, 1, i - 1) .. "*" .. sub(long, i + 1)
  assert(#s == #long and s ~= long)
  assert(seen[s] == nil)
  seen[s] = i
  ndiff = ndiff + 1
end
for i = 1, #long, 37 do
  assert(seen[sub(long, 1, i - 1) .. "*" .. sub(long, i + 1)] == i)
end
print("long variants", ndiff)

-- 4. many strings created and collected; survivors keep their identity
local keep = {}
for round = 1, 5 do
  for i = 1, 20000 do
    local s = "tmp" .. round .. ":" .. i
    if i % 1000 == 0 then keep[s] = round * i end
  end
  collectgarbage()
end
local ok = 0
for round = 1, 5 do
  for i = 1000, 20000, 1000 do
    if keep["tmp" .. round .. ":" .. i] == round * i then ok = ok + 1 end
  end
end
print("survivors", ok)

-- 5. string keys of tables across collections, rebuilt from their parts
local t = {}
for i = 1, 3000 do t["key" .. i] = i; t[fmt("%05d", i)] = -i end
for pass = 1, 3 do
  for i = 1, 3000, 2 do t["key" .. i] = nil end
  collectgarbage()
  local sum = 0
  for i = 1, 3000 do sum = sum + (t["key" .. i] or 0) + (t[fmt("%05d", i)] or 0) end
  print("pass", pass, sum)
  for i = 1, 3000, 2 do t["key" .. i] = i end
  collectgarbage("step", 0)
end
local n = 0
for k in pairs(t) do n = n + 1 end
print("keys", n)

-- 6. 1-byte strings that died are made again (the cache forgets them)
keys, all, caps = nil, nil, nil
collectgarbage()
collectgarbage()
local again, agree = {}, 0
for i = 255, 0, -1 do again[char(i)] = i end
for i = 0, 255 do
  if again[sub(allbytes, i + 1, i + 1)] == i and fmt("%c", i) == char(i) then agree = agree + 1 end
end
print("1-byte again", agree)
