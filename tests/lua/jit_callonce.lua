-- Calls in a main chunk outside its loops (code that runs once): compiled
-- code makes them through mvmrt_precall only, without the inline direct
-- call (llvmgen.c emitcall); inside loops and in functions they keep it.
-- Every kind of callee and outcome at such sites, and the status the
-- helper hands back (done, a Lua callee for the interpreter, hooks on).

local function add(x, y) return x + y end
local function three() return 1, 2, 3 end
local function opt(a, b, c) return a, b, c end
local function va(...) return select("#", ...), ... end
local function deep(n) if n == 0 then return 0 end return 1 + deep(n - 1) end

-- Lua callees: results wanted 0, 1, several, all; fewer and more arguments
add(1, 2)
print("one", add(2, 3))
local p, q, r = three()
print("several", p, q, r)
print("all", three())
print("fewer", opt(1))
print("more", add(1, 2, 3, 4))
print("vararg", va(1, nil, 3))
print("vararg none", va())
print("deep", deep(150))

-- C functions, a table with __call, a C function through pcall
print("c", string.format("%d-%s", 7, "x"), select("#", 1, 2, 3), type(print))
local callable = setmetatable({}, {__call = function(self, x) return "called", x end})
print("__call", callable(42))
print("pcall", pcall(add, 1, 2))
print("pcall err", pcall(add, 1, nil))

-- errors raised by the callee: messages with line numbers, tracebacks
local function fail(msg) error(msg) end
print("error", pcall(fail, "boom"))
print("error table", select(2, pcall(fail, {code = 7})).code)
local ok, tb = xpcall(fail, debug.traceback, "traced")
print("traceback", ok, (tb:gsub("\n.*", "")))
print("traceback lines", select(2, tb:gsub("jit_callonce.lua:%d+", "")) > 0)
local function inf() return inf() + 1 end
local ok2, msg2 = pcall(inf)
print("stack overflow", ok2, (msg2:match("stack overflow") ~= nil))

-- a callee that turns a hook on: the rest of the chunk reports lines
local lines = {}
local function sethook()
  debug.sethook(function(_, line)
    lines[#lines + 1] = line
    if #lines >= 3 then debug.sethook() end
  end, "l")
end
sethook()
local z = 1
z = z + 1
z = z + 1
print("hook lines", #lines, lines[1] ~= nil)

-- a count hook during calls made here
local n = 0
debug.sethook(function() n = n + 1 end, "", 1)
add(1, 1)
deep(10)
debug.sethook()
print("count hook", n > 0)

-- collections inside callees
local keep = {}
local function alloc(k)
  local t = {}
  for i = 1, k do t[i] = {i} end
  collectgarbage()
  return t
end
keep[1] = alloc(100)
print("alloc", #keep[1], keep[1][100][1])

-- loaded chunks are main chunks too; one called many times
local chunk = load("local f, x = ... ; return f(x) + f(x + 1)")
local s = 0
for i = 1, 200 do s = s + chunk(add and function(v) return v * 2 end, i) end
print("loaded chunk", s)
local counter = load("local t = ... ; t.n = (t.n or 0) + 1 ; return type(t), t.n")
local st = {}
for _ = 1, 50 do counter(st) end
print("loaded again", counter(st))

-- a loaded chunk that yields at such a site inside a coroutine
local gen = coroutine.wrap(load([[
  local y = coroutine.yield(1)
  local w = coroutine.yield(y + 1)
  return w * 10
]]))
print("coroutine", gen(), gen(5), gen(7))

-- calls in this chunk's loops keep the inline path
local acc = 0
for i = 1, 1000 do acc = add(acc, i) end
local j = 0
while j < 10 do j = j + 1; acc = acc + deep(j) end
print("loops", acc)
