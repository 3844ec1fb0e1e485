-- Calls from compiled code to compiled code made inline (-j eager compiles
-- every function at its first call): the checks that send a call to the
-- general path (argument counts, non-functions, hooks, depth, code being
-- replaced), what the callee may do to its caller (collect, set hooks,
-- change its locals, raise), and tail calls and exits inside such callees.

-- deep non-tail recursion: direct calls up to the nesting limit, then
-- the interpreter, then direct calls again inside it
local function depth(n, a, b, c)
  if n == 0 then return a + b + c end
  return depth(n - 1, a + 1, b, c) + 1
end
print("depth", depth(10, 0, 0, 0), depth(500, 1, 2, 3), depth(20000, 0, 1, 0))

-- runaway recursion with a large frame: "stack overflow", then calls work
local function big(n, ...)
  local a, b, c, d, e, f, g, h = n, n, n, n, n, n, n, n
  return big(n + 1, a, b) + a + b + c + d + e + f + g + h
end
local ok, err = pcall(big, 1)
print("overflow", ok, string.find(tostring(err), "stack overflow", 1, true) ~= nil)
local function runaway3(x, y) return runaway3(x + 1, y) + 1 end
ok, err = pcall(runaway3, 1, 2)
print("overflow2", ok, string.find(tostring(err), "stack overflow", 1, true) ~= nil)
print("after overflow", depth(100, 0, 0, 0))

-- argument counts: fewer (nils), exact, more (ignored), none
local function three(a, b, c) return a, b, c end
local function countargs()
  local r = {}
  for i = 1, 3 do
    r[#r + 1] = table.concat({ tostring(three()), tostring(three(i)), tostring(select(2, three(i, i + 1))),
                               tostring(select(3, three(i, i + 1, i + 2))),
                               tostring(select(3, three(i, i + 1, i + 2, i + 3, i + 4))) }, ",")
  end
  return table.concat(r, " ")
end
print("args", countargs())

-- varargs: a vararg callee with few, many and nil arguments
local function va(...)
  local n = select('#', ...)
  local a, b = ...
  return n, a, b
end
local function va2(x, ...)
  return x, select('#', ...), ...
end
local function callva()
  local out = {}
  for i = 1, 3 do
    out[#out + 1] = table.concat({ va() }, ",")
    out[#out + 1] = table.concat({ va(i) }, ",")
    out[#out + 1] = table.concat({ va(i, nil, i) }, ",")
    out[#out + 1] = table.concat({ va2(i, i, i, i) }, ",")
    out[#out + 1] = tostring(va2())
  end
  return table.concat(out, " ")
end
print("varargs", callva())

-- non-functions: __call tables (extra argument), C functions, errors
local callable = setmetatable({}, { __call = function(self, x, y) return "called", x, y end })
local function callany(f, x)
  return f(x, x)
end
for _, f in ipairs({ callable, tostring, math.max, three, callable }) do
  print("callany", callany(f, 7))
end
local function callnil()
  local f = nil
  return f(1)
end
ok, err = pcall(callnil)
print("callnil", ok, err)
ok, err = pcall(callany, 42, 1)
print("callnum", ok, err)

-- the callee's code is dropped or replaced between calls (jit.flush), and
-- while it runs (the caller's code with it)
local flush = jit and jit.flush or function() end
local function sq(x) return x * x end
local function flusher(x)
  flush()
  return x + 1
end
local function usesq(n)
  local s = 0
  for i = 1, n do
    s = s + sq(i)
    if i % 3 == 0 then flush() end
    s = s + flusher(i)
  end
  return s
end
print("flush", usesq(10), usesq(10), sq(12))

-- a callee turns hooks on: the rest of the caller reports its lines,
-- calls made while hooks are on, then off again
local lines = 0
local function hookon()
  debug.sethook(function() lines = lines + 1 end, "l")
  return 1
end
local function hookoff() debug.sethook(); return 2 end
local function hookcaller()
  local a = hookon()
  local b = three(a, a)
  local c = a + b
  local d = hookoff()
  return a + b + c + d
end
print("hooks", hookcaller(), lines > 0)
lines = 0
print("hooks2", hookcaller(), lines > 0, debug.gethook())

-- a count hook set in the callee and removed by a later one
local counts = 0
local function cnt() debug.sethook(function() counts = counts + 1 end, "", 1) end
local function uncnt() debug.sethook() end
local function counted(n)
  cnt()
  local s = 0
  for i = 1, n do s = s + sq(i) end
  uncnt()
  return s
end
print("counthook", counted(20), counts > 0)

-- the callee collects while the caller holds references in its frame
local function churn(n)
  local t
  for i = 1, n do t = { i, tostring(i) } end
  collectgarbage()
  return t[2]
end
local function holder(n)
  local keep = { "a", n }
  local str = "s" .. n
  local r = churn(n)
  local r2 = churn(n + 1)
  return keep[1] .. keep[2] .. str .. r .. r2
end
for i = 1, 3 do print("gc", holder(i * 100)) end

-- debug.setlocal from a callee on a numeric local of its caller
local function setter(v)
  debug.setlocal(2, 1, v)
  return 0
end
local function setcaller()
  local x = 10
  local z = setter(99)
  return x + z
end
print("setlocal", setcaller(), setcaller())
-- ... on a parameter used as a number (kept in a machine register by
-- compiled code, which must read it back after the call)
local function setparam(x, y)
  local z = setter(x + 100)
  local w = x * y
  return x + z, w
end
print("setparam", setparam(1, 2), setparam(3, 4), setparam(2.5, 2))
local function noset(v) return v end
local function keepparam(x, y)
  local z = noset(x + 100)
  return x + z + y
end
print("keepparam", keepparam(1, 2), keepparam(3, 4))

-- errors in a callee: the message has its line, the traceback its frames
local function fails(x)
  if x > 2 then error("fails at " .. x) end
  return x
end
local function middle(x) local r = fails(x); return r + 1 end
local function outer(x) local r = middle(x); return r + 1 end
print("err", pcall(outer, 1))
print("err", pcall(outer, 3))
local function frames(tb)
  local names = {}
  for name in string.gmatch(tb, "in %a+ '(%a+)'") do names[#names + 1] = name end
  return table.concat(names, ",")
end
print("traceback", select(2, xpcall(outer, function(m) return frames(debug.traceback(m)) end, 5)))

-- the callee tail-calls, exits to the interpreter (integer overflow into
-- a float, a string operand), or is interpreted (to-be-closed variable)
local function tailee(x) return x .. "!" end
local function tailer(x) return tailee(x) end
local function exiter(x) return x + 1 end
local function interp(x) local c <close> = nil; return x end
local function mix()
  local out = {}
  for _, v in ipairs({ 1, math.maxinteger, 2.5, "3", 4 }) do
    out[#out + 1] = tostring(tailer(v)) .. "/" .. tostring(exiter(v)) .. "/" .. tostring(interp(v))
  end
  return table.concat(out, " ")
end
print("mix", mix())

-- results where the caller keeps all of them and passes them on
local function multi(n) return n, n + 1, n + 2 end
local function passon(n) return select('#', multi(n)), multi(n) end
print("multi", passon(1), (passon(5)))

-- long chains of proper tail calls from a directly called function: to
-- compiled functions, to an interpreted one, to a C function
local even, odd
function even(n) if n == 0 then return true end return odd(n - 1) end
function odd(n) if n == 0 then return false end return even(n - 1) end
local function starteven(n) local r = even(n); return r end
local function tointerp(x) return interp(x) end
local function toc(x) return tostring(x) end
print("tail", starteven(300001), starteven(100000), tointerp(5), toc(6), starteven(0))

-- the caller's frame as a directly called callee sees it: its line, its
-- locals (numbers kept in machine registers are in the stack at calls)
local function peek()
  local info = debug.getinfo(2, "lS")
  local _, v1 = debug.getlocal(2, 1)
  local _, v2 = debug.getlocal(2, 2)
  return info.currentline, v1, v2
end
local function peeker(x, y)
  local s = x + y
  local line, a, b = peek()
  return line, a, b, s
end
print("peek", peeker(1, 2))
print("peek", peeker(1.5, 2))
