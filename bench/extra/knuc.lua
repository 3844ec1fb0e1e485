-- knuc.lua: k-nucleotide style counting of substrings of a generated DNA
-- string (string.sub keys in a hash table, sort with a comparator).
-- usage: mvm bench/extra/knuc.lua [n]   (default 1500000)
-- Self-check: the counts for each k add up to the number of positions.
local n = tonumber(arg and arg[1]) or 1500000
local seed = 7
local acgt = {"a", "c", "g", "t"}
local parts = {}
for i = 1, n do seed = (seed * 69069 + 1) % 4294967296; parts[i] = acgt[(seed >> 16) % 4 + 1] end
local s = table.concat(parts)
local function freq(s, k)
  local t = {}
  for i = 1, #s - k + 1 do local w = s:sub(i, i + k - 1) t[w] = (t[w] or 0) + 1 end
  return t
end
local out = {}
for k = 1, 4 do
  local t, keys, total = freq(s, k), {}, 0
  for w, c in pairs(t) do keys[#keys + 1] = w; total = total + c end
  assert(total == #s - k + 1, "counts of length " .. k)
  table.sort(keys, function(a, b) return t[a] > t[b] or (t[a] == t[b] and a < b) end)
  out[#out + 1] = keys[1] .. "=" .. t[keys[1]]
end
print("knuc: " .. table.concat(out, " "))
