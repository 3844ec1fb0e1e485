-- OSR in frames other than a main chunk's: a long-running function called
-- once, a coroutine body, a function running below a pcall
local function work(n)
  local t = {}
  for i = 1, n do t[i] = (i * 7) % 13 end
  local s = 0
  for rep = 1, 20 do
    for i = 1, n do s = s + t[i] end
  end
  return s
end
print("work", work(5000))

local co = coroutine.wrap(function(n)
  local s = 0
  for i = 1, n do
    s = s + i
    if i % 5000 == 0 then coroutine.yield(s) end
  end
  return -s
end)
print("co", co(20000), co(), co(), co(), co())

local function deep(k)
  if k == 0 then
    local s = 0
    for i = 1, 30000 do s = s + (i & 255) end
    return s
  end
  return deep(k - 1) + 1
end
print("deep", deep(50))

print("pcall", pcall(function()
  local s = 0
  for i = 1, 30000 do s = s + i; if s > 1e8 then error("too big at " .. i) end end
  return s
end))

-- an upvalue written by the loop and read by a closure afterwards
local up = 0
local function get() return up end
for i = 1, 25000 do up = up + 2 end
print("upvalue", get())

-- a loop with a call whose callee is interpreted-only (tbc), resumed after
do
  local hits = 0
  local function withtbc()
    local x <close> = setmetatable({}, { __close = function() hits = hits + 1 end })
    return 1
  end
  local s = 0
  for i = 1, 3000 do s = s + withtbc() end
  print("tbc", s, hits)
end
