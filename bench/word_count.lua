-- word_count.lua: generate a text from a pseudo-random word stream, count the
-- words with a hash table, sort the counts (string-keyed tables, gmatch).
-- usage: mvm bench/word_count.lua [words]   (default 2000000)
-- Self-check: the counts from parsing the text equal the counts recorded
-- while generating it, and the totals agree.
local nwords = tonumber(arg and arg[1]) or 2000000

-- a vocabulary of 2000 distinct words built from syllables
local syl = { "ka", "lo", "mi", "ne", "ru", "ta", "shi", "vo", "pe", "zu", "an", "el", "or", "ix", "um" }
local vocab, seen = {}, {}
local seed = 12345
local function rnd(m)   -- Park-Miller: products stay below 2^53, exact in every VM
  seed = seed * 16807 % 2147483647
  return seed % m + 1
end
while #vocab < 2000 do
  local w = syl[rnd(#syl)] .. syl[rnd(#syl)] .. (rnd(3) == 1 and syl[rnd(#syl)] or "")
  if not seen[w] then seen[w] = true; vocab[#vocab + 1] = w end
end

-- generate: Zipf-like skew (low indices are more frequent)
local expected = {}
local buf, line = {}, {}
for i = 1, nwords do
  local r = rnd(2000)
  local idx = rnd(r)
  local w = vocab[idx]
  expected[w] = (expected[w] or 0) + 1
  line[#line + 1] = w
  if #line == 12 or i == nwords then
    buf[#buf + 1] = table.concat(line, i % 3 == 0 and ", " or " ")
    line = {}
  end
end
local text = table.concat(buf, "\n")

-- count
local counts, total = {}, 0
for w in text:gmatch("%a+") do
  counts[w] = (counts[w] or 0) + 1
  total = total + 1
end
assert(total == nwords, "total " .. total)
local distinct = 0
for w, c in pairs(counts) do
  assert(expected[w] == c, "count of " .. w)
  distinct = distinct + 1
end
for w in pairs(expected) do assert(counts[w], "missing " .. w) end

-- the ten most frequent words
local list = {}
for w, c in pairs(counts) do list[#list + 1] = { w = w, c = c } end
table.sort(list, function(a, b) if a.c ~= b.c then return a.c > b.c end return a.w < b.w end)
for i = 2, #list do assert(list[i - 1].c >= list[i].c, "sorted") end
local top = {}
for i = 1, math.min(10, #list) do top[i] = list[i].w .. "=" .. list[i].c end
print(string.format("%d words, %d distinct; top: %s", total, distinct, table.concat(top, " ")))
