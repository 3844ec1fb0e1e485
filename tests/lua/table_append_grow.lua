-- Appends t[#t+1] = v / t[n+1] = v grow the array part as rehash would
-- (table.c appendgrow): the sizes show in '#t' once holes appear and in
-- the order 'next' visits keys.  Compared with lua5.4.

local function keys(t)
  local ks = {}
  for k in pairs(t) do ks[#ks + 1] = tostring(k) end
  return table.concat(ks, " ")
end

-- grow by appends to n, punch a hole at h, then a key beyond
for n = 1, 20 do
  local t = {}
  for i = 1, n do t[#t + 1] = i * 10 end
  local line = { n, #t }
  for h = 1, n do
    local u = {}
    for i = 1, n do u[i] = i end
    u[h] = nil
    line[#line + 1] = #u
  end
  t[n + 2] = "x"                -- past a hole: array part or hash part
  -- (no '#t' here: lua5.4's alimit may pick the other border)
  line[#line + 1] = keys(t)
  print(table.concat(line, ","))
end

-- constructors of every small size, then appends
for n = 0, 9 do
  local src = "return {" .. string.rep("1,", n) .. "}"
  local t = load(src)()
  for i = n + 1, n + 7 do t[i] = i end
  t[n + 3] = nil
  t[n + 9] = 9
  print("ctor", n, #t, keys(t))
end

-- an array with a hole gets an append: rehash counts, not appendgrow
for n = 2, 12 do
  local t = {}
  for i = 1, n do t[i] = i end
  t[2] = nil
  t[n + 1] = "a"
  t[n + 3] = "b"
  print("hole", n, keys(t), #t)
end

-- a hash part already present: appends go through rehash
do
  local t = { x = 1 }
  for i = 1, 17 do t[i] = i end
  t[5] = nil
  print("mixed", #t, keys(t))
end

-- nil appended: nothing stored; false appended: stored
do
  local t = { 1, 2 }
  t[3] = nil
  print("nil", #t, keys(t))
  t[3] = false
  print("false", #t, keys(t))
end

-- big appends keep the values; the GC moves the growing part
do
  local t, s = {}, 0
  for i = 1, 100000 do t[#t + 1] = { i } end
  for i = 1, #t, 997 do s = s + t[i][1] end
  t[50000] = nil
  print("big", #t, s)
end

-- __newindex is honoured for appends; rawset appends grow the same way
do
  local log = {}
  local t = setmetatable({}, { __newindex = function(t, k, v) log[#log + 1] = k; rawset(t, k, v) end })
  for i = 1, 6 do t[#t + 1] = i end
  print("meta", #t, table.concat(log, " "))
  local r = {}
  for i = 1, 9 do rawset(r, i, i) end
  r[4] = nil
  print("rawset", #r, keys(r))
end

-- the first append's part has room for 4 slots (appendgrow): growth in
-- place to 2 and 4, tables old or young, values young, collections between
do
  local ts = {}
  for i = 1, 200 do ts[i] = {} end
  collectgarbage()                      -- the empty tables are old now
  for round = 1, 6 do
    for i = 1, 200 do
      local t = ts[i]
      t[#t + 1] = { i * round }         -- a young value in an old table's part
      if round == 3 and i % 2 == 0 then collectgarbage("step") end
    end
    if round == 2 then collectgarbage() end
  end
  local ok, n = true, 0
  for i = 1, 200 do
    local t = ts[i]
    if #t ~= 6 then ok = false end
    for r = 1, 6 do
      if t[r][1] ~= i * r then ok = false end
    end
    for k in pairs(t) do n = n + 1 end
  end
  print("old", ok, n)
  -- holes after in-place growth: the border and next as with rehash's sizes
  local t = {}
  t[1] = 1; t[2] = 2; t[3] = 3
  t[2] = nil
  print("room", #t, keys(t))
  t[4] = 4; t[5] = 5
  print("room2", keys(t))
end

-- appends to tables whose hash part holds strings only (table.c
-- appendgrow from newkey): the array grows as rehash would size it, the
-- strings stay.  Keys sorted: with strings in the hash part, where an
-- integer key lands there depends on the seeded string hash; the borders
-- after holes show the array's size.
local function split(t)
  local is, ss = {}, {}
  for k in pairs(t) do
    if type(k) == "number" then is[#is + 1] = k else ss[#ss + 1] = tostring(k) end
  end
  table.sort(is)
  table.sort(ss)
  return table.concat(is, " ") .. " | " .. table.concat(ss, " ")
end
for nstr = 1, 5 do
  for n = 1, 10 do
    local t = { n = 0 }
    for k = 2, nstr do t["s" .. k] = k end
    for i = 1, n do t.n = t.n + 1; t[t.n] = i end
    local line = { "str", nstr, n, #t }
    for h = n, 1, -3 do
      local v = t[h]
      t[h] = nil
      line[#line + 1] = #t
      t[h] = v
    end
    t[n + 2] = "far"                    -- past the border: array or hash part
    line[#line + 1] = split(t)
    print(table.concat(line, ","))
  end
end
do
  -- a dead string key (its node keeps the key, the count is smaller):
  -- the size rehash gives differs, so rehash it is
  local t = { a = 1, b = 2, c = 3 }
  t.b = nil
  for i = 1, 6 do t[#t + 1] = i end
  t[3] = nil
  print("dead", #t == 6 or #t == 2, split(t))
  -- a boolean and a float key: rehash too
  local u = { [true] = 1, x = 2 }
  for i = 1, 5 do u[#u + 1] = i end
  local w = { [2.5] = 1, y = 2 }
  for i = 1, 5 do w[#w + 1] = i end
  print("other", #u, #w, u[true], w[2.5])
  -- an integer key in the hash part beyond the border: rehash moves it
  local v = { z = 1, [5] = 5 }
  for i = 1, 4 do v[i] = i end
  v[6] = 6
  print("intkey", #v, split(v))
end
do
  -- old records with a young value appended; collections in between
  local rs = {}
  for i = 1, 300 do rs[i] = { n = 0, name = "r" .. i } end
  collectgarbage()
  for round = 1, 9 do
    for i = 1, 300 do
      local r = rs[i]
      r.n = r.n + 1
      r[r.n] = { i, round }
      if round == 5 and i % 3 == 0 then collectgarbage("step") end
    end
    if round == 4 then collectgarbage() end
  end
  local ok = true
  for i = 1, 300 do
    local r = rs[i]
    if #r ~= 9 or r.n ~= 9 or r.name ~= "r" .. i then ok = false end
    for k = 1, 9 do if r[k][1] ~= i or r[k][2] ~= k then ok = false end end
  end
  print("oldrec", ok)
end
