-- '#t' on array parts of 2^k slots checks the binary search's probes for
-- its hint in straight-line code (table.c pow2verify); any other size,
-- or a hint at the end, takes the loop.  Only the border property and
-- borders that are unique are printed: which border lua5.4 picks among
-- several depends on its own array-size hint.
local function isborder(t, n)
  return (n == 0 or t[n] ~= nil) and t[n + 1] == nil
end

-- sequences: the border is unique; appends and removals around every
-- power of two (the hint moves by one; the array part grows)
for _, size in ipairs{1, 2, 3, 4, 5, 8, 15, 16, 17, 31, 32, 33, 64, 1000, 1024, 1025} do
  local t = {}
  for i = 1, size do t[#t + 1] = i end
  local n1 = #t
  for i = 1, size // 2 do t[#t] = nil end
  local n2 = #t
  for i = 1, 3 do t[#t + 1] = i end
  print(size, n1, n2, #t)
end

-- holes: every pattern of nils over 8 and 16 slots, array part sized 2^k
local bad, total = 0, 0
for _, size in ipairs{8, 16} do
  for bits = 0, (1 << size) - 1, (size == 16 and 37 or 1) do
    local t = {}
    for i = 1, size do t[i] = true end
    for i = 1, size do if bits & (1 << (i - 1)) ~= 0 then t[i] = nil end end
    local n = #t
    total = total + 1
    if not isborder(t, n) then bad = bad + 1 end
    -- the hint now points at n: a store next to it and a removal
    t[n + 1] = 1
    if not isborder(t, #t) then bad = bad + 1 end
    t[#t] = nil
    if not isborder(t, #t) then bad = bad + 1 end
  end
end
print("hole patterns", total, "not borders", bad)

-- a large array: appends one by one, then holes far from the end (the
-- top probes) and next to it (the last probes)
local big = {}
for i = 1, 1 << 16 do big[#big + 1] = i end
print(#big)
big[#big + 1] = 0
print(#big)
big[(1 << 15)] = nil
print(isborder(big, #big))
big[(1 << 15)] = 1
local m = #big
big[m - 1] = nil
print(isborder(big, #big))
big[m - 1] = 1
print(#big)
