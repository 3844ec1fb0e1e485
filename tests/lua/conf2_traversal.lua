-- conf2_traversal: 'pairs'/'next' order of integer, float and boolean keys
-- (lua5.4's main positions), borders of tables with holes, next() while
-- clearing fields.  String keys are left out: lua5.4 seeds their hash.
local function show(t) local r = {} for k, v in pairs(t) do r[#r+1] = tostring(k) .. "=" .. tostring(v) end print(#t, table.concat(r, " ")) end
show({10, 20, 30, nil, 50})
show({10, 20, nil, 40})
show({nil, nil, 3})
show({1, nil})
local t = {1, 2, 3} t[5] = 5 show(t)
t = {} t[1] = 1 t[2] = 2 t[4] = 4 show(t)
t = {} for i = 1, 10 do t[i] = i end t[5] = nil show(t) t[10] = nil show(t) t[9] = nil t[8] = nil show(t)
t = {} t[2] = 2 t[3] = 3 t[4] = 4 show(t)
t = {[1] = 1, [2] = 2, [3] = 3, [5] = 5} show(t)
t = {} for i = 20, 1, -1 do t[i * 2] = i end show(t)
t = {} for i = 1, 8 do t[i * i] = i end show(t)
t = {} t[1.5] = 1 t[2.5] = 2 t[-0.5] = 3 t[1e100] = 4 t[math.huge] = 5 t[-math.huge] = 6 t[0.1] = 7 show(t)
t = {} t[true] = 1 t[false] = 0 t[3] = 3 show(t)
t = {} t[math.maxinteger] = 1 t[math.mininteger] = 2 t[-1] = 3 t[2^40] = 4 show(t)
t = {1, 2, 3, 4, 5, 6, 7, 8} for i = 1, 8 do t[i] = nil end t[20] = 1 show(t)
t = {} for i = 1, 100 do t[i] = i end for i = 1, 99 do t[i] = nil end show(t) t.x = 1 show(t)
t = {} for i = 100, 1, -1 do t[i] = i end for i = 1, 100, 2 do t[i] = nil end local c = 0 for k in pairs(t) do c = c + 1 end print(#t, c)
local seq = {} for i = 1, 17 do seq[i] = i end seq[17] = nil seq[16] = nil print(#seq) seq[9] = nil print(#seq)
local m = {} for i = 1, 30 do m[i * 3] = i; m[i + 0.25] = i end
local cnt, order = 0, {}
for k in pairs(m) do m[k] = nil cnt = cnt + 1 if cnt <= 12 then order[#order + 1] = tostring(k) end end
print(cnt, next(m), table.concat(order, " "))
local g = {} for i = 1, 50 do g[i] = i end for i = 1, 50, 3 do g[i] = nil end
local r = {} for k, v in pairs(g) do r[#r + 1] = k end print(#r, table.concat(r, ","))
for i = 51, 70 do g[i * 5] = i end r = {} for k in pairs(g) do r[#r + 1] = k end print(table.concat(r, ","))
local tk = {} tk[true] = 1 tk[false] = 2 for i = 1, 5 do tk[-i] = i end r = {} for k in pairs(tk) do r[#r + 1] = tostring(k) end print(table.concat(r, ","))
