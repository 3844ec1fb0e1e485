-- jit_setmt_return.lua: `return setmetatable(t, mt)`, the constructor's
-- last line, compiled as a return of t when the common case applies
-- (llvmgen.c setmtreturn) and as the generic tail call otherwise: a
-- protected metatable, a metatable already there, __gc, arguments that
-- are no tables, another function under the name, and callers that want
-- no result, one, two or all of them.
local V = {}
V.__index = V
function V:sum() return self.x + self.y end
local function vec(x, y) return setmetatable({x = x, y = y}, V) end
local function wrap(t, mt) return setmetatable(t, mt) end
local Locked = {__metatable = "locked"}
local finalized = 0
local G = {__gc = function() finalized = finalized + 1 end}

local s, n2, nall = 0, 0, 0
for i = 1, 2000 do
  local v = vec(i, 1)
  s = s + v:sum()
  local a, b = vec(i, 2)                      -- two wanted: t, then nil
  if b == nil and getmetatable(a) == V then n2 = n2 + 1 end
  nall = nall + select("#", vec(i, 3))        -- all of them: one
  vec(i, 4)                                   -- none
end
print("vec", s, n2, nall)

-- the generic path: each of these goes through the library function
local function try(t, mt)
  local ok, r = pcall(wrap, t, mt)
  if not ok then return "error: " .. tostring(r) end
  local m = getmetatable(r)
  return r == t and (m == mt and "same" or tostring(m)) or "other"
end
local results = {}
for i = 1, 400 do
  local locked = setmetatable({}, Locked)
  local has = setmetatable({}, V)
  local k = i % 8
  local r
  if k == 0 then r = try({}, V)
  elseif k == 1 then r = try(locked, V)
  elseif k == 2 then r = try(has, Locked)      -- replaced: not protected
  elseif k == 3 then r = try({}, G)
  elseif k == 4 then r = try(5, V)
  elseif k == 5 then r = try({}, 7)
  elseif k == 6 then r = try({}, nil)
  else r = try(has, nil) end
  results[r] = (results[r] or 0) + 1
end
local keys = {}
for k in pairs(results) do keys[#keys + 1] = k end
table.sort(keys)
for _, k in ipairs(keys) do print(k, results[k]) end

-- another function under the name setmetatable
do
  local setmetatable = function(t, mt) return "not the library's", t, mt end
  local function f(x) return setmetatable({x}, V) end
  local last
  for i = 1, 500 do last = {f(i)} end
  print(#last, last[1], last[2][1], last[3] == V)
end

-- a hook sees the library call
local calls = 0
debug.sethook(function() calls = calls + 1 end, "c")
for i = 1, 50 do vec(i, i) end
debug.sethook()
print("hooked calls", calls)
collectgarbage()
collectgarbage()
print("finalized", finalized)
