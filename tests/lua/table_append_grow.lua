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
