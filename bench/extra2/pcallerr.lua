-- pcallerr.lua: protected calls in loops: pcall of functions that mostly
-- return and sometimes raise (string errors with positions, table error
-- objects, error with level 2, errors from the VM itself such as arithmetic
-- on nil), xpcall with a Lua message handler, error rethrown through nested
-- pcalls.
-- usage: mvm bench/extra2/pcallerr.lua [n]   (default 1000000)
-- Self-check: counts of each kind of outcome against their closed forms.
local n = tonumber(arg and arg[1]) or 1000000

local function checked(x)
  if x % 10 == 0 then error({code = x % 7}) end
  if x % 15 == 1 then error("bad value " .. x, 2) end
  return x * 2
end
local function arith(t, x)
  return t.v + x                      -- raises when t.v is nil
end
local function nested(x)
  local ok, e = pcall(checked, x)
  if not ok then error(e, 0) end      -- rethrow the same object
  return e
end
local function handler(e)
  if type(e) == "table" then return "T" .. e.code end
  return "S"
end

local sum, tabs, strs, codes, arithf, handled = 0, 0, 0, 0, 0, 0
local withv, without = {v = 1}, {}
for i = 1, n do
  local ok, r = pcall(checked, i)
  if ok then sum = sum + r
  elseif type(r) == "table" then tabs = tabs + 1 codes = codes + r.code
  else strs = strs + 1 end
  local ok2, r2 = pcall(arith, (i % 5 == 0) and without or withv, i)
  if ok2 then sum = sum + r2 else arithf = arithf + 1 end
  if i % 3 == 0 then
    local ok3, r3 = xpcall(nested, handler, i)
    if not ok3 then handled = handled + #r3 end
  end
end

local wsum, wtabs, wstrs, wcodes, warith, whandled = 0, 0, 0, 0, 0, 0
for i = 1, n do
  if i % 10 == 0 then wtabs = wtabs + 1 wcodes = wcodes + i % 7
  elseif i % 15 == 1 then wstrs = wstrs + 1
  else wsum = wsum + 2 * i end
  if i % 5 == 0 then warith = warith + 1 else wsum = wsum + 1 + i end
  if i % 3 == 0 then
    if i % 10 == 0 then whandled = whandled + 2
    elseif i % 15 == 1 then whandled = whandled + 1 end
  end
end
assert(sum == wsum and tabs == wtabs and strs == wstrs and codes == wcodes,
       string.format("pcall results %d %d %d %d", sum, tabs, strs, codes))
assert(arithf == warith and handled == whandled, "arith " .. arithf .. " handled " .. handled)
-- the message of a string error carries the caller's position (level 2)
local _, msg = pcall(function() local r = checked(16) return r end)
assert(msg:match("^.-:%d+: bad value 16$"), msg)
print(string.format("pcallerr: %d rounds, %d table errors, %d string errors, %d arith errors, sum %d",
                    n, tabs, strs, arithf, sum))
