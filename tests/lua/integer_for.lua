-- integer_for.lua: numeric for loop edge cases (5.4 semantics)
print("integer_for: start")

local maxi, mini = math.maxinteger, math.mininteger

local function collect(a, b, c)
  local out = {}
  if c then
    for i = a, b, c do out[#out + 1] = i; if #out > 20 then break end end
  else
    for i = a, b do out[#out + 1] = i; if #out > 20 then break end end
  end
  local s = {}
  for i, v in ipairs(out) do s[i] = tostring(v) .. (math.type(v) == "float" and "f" or "") end
  return #out .. ":" .. table.concat(s, ",")
end

-- loops near maxinteger do not overflow
print("near max", collect(maxi - 2, maxi))
print("near max step 2", collect(maxi - 4, maxi, 2))
print("near max big step", collect(maxi - 10, maxi, 7))
print("at max", collect(maxi, maxi))
print("near min", collect(mini + 2, mini, -1))
print("near min step -2", collect(mini + 4, mini, -2))
print("at min", collect(mini, mini, -1))
print("full range step", collect(mini, maxi, maxi))
print("full range down", collect(maxi, mini, mini))
print("huge step", collect(0, maxi, maxi))
print("huge step 2", collect(1, maxi, maxi))
print("min step", collect(0, mini, mini))
print("min step from -1", collect(-1, mini, mini))

-- float limits are clipped for integer loops
print("float limit", collect(1, 3.7))
print("float limit neg", collect(-1, -3.7, -1))
print("float limit huge", collect(maxi - 1, math.huge))
print("float limit -huge", collect(mini + 1, -math.huge, -1))
print("float limit nan", collect(1, 0/0))
print("float limit above max", collect(maxi - 1, 2^63))
print("float limit below min", collect(1, -2^63))
print("float limit 2^63 down", collect(mini + 1, -2^63, -1))
print("limit less than start", collect(5, 4.5))
print("limit large float", collect(1, 1e300, 1e18 // 1))

-- float loops
print("float loop", collect(1.0, 3))
print("float loop step", collect(0, 1, 0.25))
print("float loop down", collect(1, 0, -0.5))
print("float loop huge", collect(1e308, math.huge, 1e308))
do  -- a NaN start runs once (the prep test is 'limit < init', false for NaN)
  local cnt, isnan = 0, false
  for i = 0/0, 10 do cnt = cnt + 1; isnan = (i ~= i) end
  print("float nan start", cnt, isnan)
end
print("float start int step", collect(1.5, 4, 1))

-- types of the control variable
for i = 1, 1 do print("int type", math.type(i)) end
for i = 1.0, 1 do print("float type", math.type(i)) end
for i = 1, 1.0 do print("int type with float limit", math.type(i)) end
for i = 1, 1, 1.0 do print("float type with float step", math.type(i)) end

-- step zero
print(pcall(collect, 1, 10, 0))
print(pcall(collect, 1, 10, 0.0))
print(pcall(collect, 1.0, 10, 0))

-- iteration count computed up front: changing the variable has no effect
local n = 0
for i = 1, 10 do i = 100; n = n + 1 end
print("count", n)

-- large iteration counts
local c = 0
for i = 1, 1000000 do c = c + 1 end
print("million", c)
c = 0
for i = 1000000, 1, -1 do c = c + i end
print("million down", c)
c = 0
for i = 0, 1, 1 / 1024 do c = c + 1 end
print("fractional", c)

-- loops with negative steps and wrap
print("neg step", collect(10, 1, -3))
print("neg step empty", collect(1, 10, -1))
print("step maxi", collect(mini, 0, maxi))
print("step mini", collect(maxi, 0, mini))

-- nested integer loops
local pairs_ = 0
for i = 1, 100 do
  for j = i, 100 do pairs_ = pairs_ + 1 end
end
print("nested", pairs_)

print("integer_for: OK")
