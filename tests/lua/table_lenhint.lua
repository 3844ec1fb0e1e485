-- '#t' remembers the border it found last (Table.lenhint) and checks it
-- against the probes of the binary search: the border reported must be the
-- one the search finds, also on tables with holes where the hint is stale.

-- appends and removals at the end (the hint follows the border)
local t = {}
for i = 1, 100 do t[#t + 1] = i end
assert(#t == 100)
for i = 1, 37 do t[#t] = nil end
print("after removals", #t)
for i = 1, 10 do t[#t + 1] = -i end
print("after appends", #t)

-- holes: several borders; the hint points at one the search may not find
local function show(tag, u) io.write(tag, " ", #u, "\n") end
local h = {}
for i = 1, 64 do h[i] = i end
show("full", h)
h[40] = nil
show("hole at 40", h)       -- the hint (64) is no longer in the array part's end
h[64] = nil
show("hole at 40, 64", h)
h[20] = nil
show("holes 20 40 64", h)
h[63] = nil; h[62] = nil
show("holes 20 40 62..64", h)
h[40] = 40
show("hole 20 and 62..64", h)
h[20] = 20
show("62..64", h)

-- a deterministic random walk of stores and removals: '#' after each is a
-- border (which one, among several, is up to the implementation: lua5.4's
-- own choice depends on its array-size hint, so only the property is
-- printed)
local seed = 12345
local function rnd(n) seed = (seed * 1103515245 + 12345) % 2147483648; return (seed // 65536) % n + 1 end
local r = {}
for i = 1, 64 do r[i] = true end
local borders, moved, last = 0, 0, #r
for step = 1, 400 do
  local k = rnd(64)
  if rnd(2) == 1 then r[k] = nil else r[k] = step end
  local n = #r
  if (n == 0 or r[n] ~= nil) and r[n + 1] == nil then borders = borders + 1 end
  if n ~= last then moved = moved + 1; last = n end
end
print("random walk: borders", borders, "changes seen", moved > 5)

-- the border of a sequence is exact whatever the hint
local s = {}
for n = 1, 300 do
  s[n] = n
  if #s ~= n then error("border " .. #s .. " for a sequence of " .. n) end
end
for n = 300, 1, -1 do
  s[n] = nil
  if #s ~= n - 1 then error("border after removal") end
end
print("sequences ok")
