-- binary_chunks.lua: string.dump + load round trips, and rejection of bad
-- binary chunks.  Binary formats are implementation specific, so only the
-- header checks shared by every 5.4-style format and normalized outcomes
-- are printed.
print("binary_chunks: start")

local function roundtrip(f, strip)
  local s = string.dump(f, strip)
  assert(type(s) == "string" and s:sub(1, 4) == "\27Lua")
  return assert(load(s, "=dumped", "b"))
end

-- simple functions
local f = roundtrip(function(a, b) return a + b, a * b end)
print("simple", f(3, 4))
f = roundtrip(function(...) return select("#", ...), ... end)
print("vararg", f(1, nil, 3))
f = roundtrip(function() end)
print("empty", select("#", f()))

-- constants of every kind survive
f = roundtrip(function()
  return nil, true, false, 0, -1, 42, math.maxinteger, math.mininteger,
         1 << 47, -(1 << 47) - 1, 0.5, -0.0, 1e300, 2^63,
         "", "short", string.rep("long string ", 20), "with\0zero"
end)
local r = table.pack(f())
for i = 1, r.n do
  local v = r[i]
  local s = tostring(v)
  if type(v) == "string" then s = string.format("%q", v):gsub("\n", "n") end
  if #s > 40 then s = s:sub(1, 20) .. "...(" .. #v .. ")" end
  io.write(s, ":", math.type(v) or type(v), " ")
end
io.write("\n")
print("-0.0 sign kept", 1 / select(12, f()))

-- nested functions and closures inside the dumped function
f = roundtrip(function(n)
  local function fact(k) if k <= 1 then return 1 end return k * fact(k - 1) end
  local mk = function(x) return function(y) return x + y end end
  return fact(n), mk(10)(n)
end)
print("nested", f(10))

-- control flow, loops, tables, metatables
f = roundtrip(function()
  local t = {}
  for i = 1, 10 do t[#t + 1] = i * i end
  local s = 0
  for _, v in ipairs(t) do if v % 2 == 0 then s = s + v end end
  local mt = setmetatable({}, {__add = function() return "mm" end})
  local w = 0
  while w < 5 do w = w + 1 end
  return s, mt + 1, w
end)
print("control", f())

-- upvalues: after load, the first upvalue is the global environment and
-- the others are nil
local up1, up2 = "one", "two"
local g = function() return up1, up2 end
local lg = load(string.dump(g))
local a, b = lg()
print("upvalues", a == _G, b)
-- a function whose only upvalue is _ENV works unchanged
local h = function() return type(print) end
print("_ENV upvalue", roundtrip(h)())
-- upvalues can be set with debug.setupvalue and joined
debug.setupvalue(lg, 2, "set")
print("setupvalue", select(2, lg()))
debug.upvaluejoin(lg, 1, g, 1)
print("upvaluejoin", (lg()))
-- custom environment through load's env argument
local genv = load(string.dump(function() return x end), "=e", "b", {x = "from env"})
print("env", genv())

-- strip removes debug information
local function faulty(t) local v = t.field return v end
local sf = load(string.dump(faulty, true))
print("stripped error", pcall(sf, nil))
local info = debug.getinfo(sf, "S")
print("stripped info", info.source, info.short_src, info.what)
print("stripped locals", debug.getlocal(sf, 1))
print("stripped error()", pcall(load(string.dump(function() error("x") end, true))))
-- non-stripped keeps lines and names
local nf = load(string.dump(faulty), "=ignored")
local okn, msgn = pcall(nf, nil)
print("unstripped error", okn, msgn)
print("unstripped locals", debug.getlocal(nf, 1))
print("unstripped source", debug.getinfo(nf, "S").source)

-- dumping is stable: dump(load(dump(f))) == dump(f)
local sample = function(x) local y = x .. "!" return y, #y end
local d1 = string.dump(sample)
print("stable", string.dump(load(d1)) == d1)
local d2 = string.dump(sample, true)
print("stable stripped", string.dump(load(d2), true) == d2)
print("strip is smaller", #d2 < #d1)

-- dumping C functions fails
print("dump C function", pcall(string.dump, print))
print("dump non-function", pcall(string.dump, {}))

-- mode checks
print("text in b mode", load("return 1", "=t", "b"))
print("binary in t mode", load(d1, "=b", "t"))

-- header checks (the header layout is shared by 5.4-style formats)
local function patch(s, pos, byte)
  return s:sub(1, pos - 1) .. string.char(byte) .. s:sub(pos + 1)
end
print("not binary", load(patch(d1, 2, 0x4D)))
print("version", load(patch(d1, 5, 0x53)))
print("format", load(patch(d1, 6, 0xEE)))
print("data", load(patch(d1, 7, 0x00)))
print("data end", load(patch(d1, 12, 0x00)))
print("instruction size", load(patch(d1, 13, 0x02)))
print("integer size", load(patch(d1, 14, 0x04)))
print("number size", load(patch(d1, 15, 0x04)))
print("chunk name", load(patch(d1, 5, 0), "=myname"))
print("chunk name @", load(patch(d1, 5, 0), "@file.luac"))
print("signature only", load("\27"))
print("short header", load("\27Lua"))

-- every truncation is rejected with "truncated"
for _, dump in ipairs{d1, d2, string.dump(roundtrip)} do
  local all, n = true, 0
  for len = 1, #dump - 1 do
    local fn, msg = load(dump:sub(1, len), "=trunc", "b")
    if fn or not msg:find("truncated", 1, true) then all = false end
    n = n + 1
  end
  print("truncations rejected", all, n == #dump - 1)
end

-- corrupted chunks never crash the loader (results are not called)
local seed = 12345
local function rnd(m) seed = (seed * 1103515245 + 12345) % 2147483648; return seed % m end
local bigdump = string.dump(roundtrip)
local survived = true
for trial = 1, 300 do
  local s = bigdump
  for k = 1, 1 + rnd(4) do
    local pos = 17 + rnd(#s - 16)     -- keep the header, corrupt the body
    s = patch(s, pos, rnd(256))
  end
  local okl, fn, msg = pcall(load, s, "=corrupt", "b")
  if not okl or (fn == nil and type(msg) ~= "string") then survived = false end
end
print("corruption handled", survived)

-- loading the same dump many times gives independent functions
local counter = string.dump(function() local n = 0; return function() n = n + 1; return n end end)
local c1, c2 = load(counter)(), load(counter)()
c1(); c1()
print("independent", c1(), c2())

-- a dumped function that uses goto, tbc and coroutines
f = roundtrip(function()
  local log = {}
  do
    local c <close> = setmetatable({}, {__close = function() log[#log + 1] = "closed" end})
    for i = 1, 3 do
      if i == 2 then goto skip end
      log[#log + 1] = i
      ::skip::
    end
  end
  local co = coroutine.wrap(function() coroutine.yield("y") end)
  log[#log + 1] = co()
  return table.concat(log, ",")
end)
print("features", f())

print("binary_chunks: OK")
