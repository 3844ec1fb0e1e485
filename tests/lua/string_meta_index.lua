-- string method calls (SELF) and field reads (GETFIELD) on strings at the
-- same sites while the string metatable and its __index change between
-- iterations
local mt = getmetatable("")
local orig = mt.__index
local upper = string.upper

local function site(s, i)
  local ok, r = pcall(function() return s:upper(i) end)
  local ok2, r2 = pcall(function() return s.len end)
  return tostring(ok) .. ":" .. tostring(r) .. " " .. tostring(ok2) .. ":" ..
         type(r2)
end

local other = { upper = function(s, i) return "other(" .. s .. "," .. tostring(i) .. ")" end }
local chained = setmetatable({}, { __index = { upper = function(s) return "chained " .. s end } })
local calls = 0

for i = 1, 14 do
  local step = i % 7
  if step == 0 then mt.__index = orig
  elseif step == 1 then mt.__index = other
  elseif step == 2 then
    mt.__index = function(s, k) calls = calls + 1; return orig[k] end
  elseif step == 3 then mt.__index = nil
  elseif step == 4 then mt.__index = chained
  elseif step == 5 then mt.__index = orig; orig.upper = function(s) return "patched " .. s end
  elseif step == 6 then orig.upper = upper; debug.setmetatable("", nil)
  end
  print(i, site("ab", i))
  if step == 6 then debug.setmetatable("", mt) end
end
print("calls", calls)

-- a loop whose body keeps one site hot across the changes
local out = {}
for i = 1, 300 do
  if i == 100 then mt.__index = other end
  if i == 200 then mt.__index = orig end
  if i == 250 then mt.__index = function(s, k) return function() return k end end end
  out[#out + 1] = ("x"):upper(i)
end
mt.__index = orig
orig.upper = upper
print(out[1], out[99], out[100], out[199], out[200], out[249], out[250], out[300])
print(("done"):upper(), type(("s").len), ("abc").len("xy"), #out)
