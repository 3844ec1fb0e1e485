-- minivm.lua: a small stack-machine interpreter written in Lua, run twice:
-- once dispatching through a table of closures indexed by opcode, once
-- through an if-elseif chain on opcode numbers; the program (compiled from a
-- tiny assembler with labels) computes primes by trial division and a sum of
-- Collatz steps.  Integer-array bytecode, a Lua table as the operand stack.
-- usage: mvm bench/extra2/minivm.lua [n]   (default 4000)
-- Self-check: both dispatch styles agree with each other and with the
-- same computation in plain Lua.
local n = tonumber(arg and arg[1]) or 4000

local OPS = {"push", "load", "store", "add", "sub", "mul", "mod", "lt", "jz", "jmp", "dup", "pop",
             "halt", "inc", "div", "eq"}
local OP = {}
for i, name in ipairs(OPS) do OP[name] = i end

-- assembler: a list of {op, arg} with symbolic labels "name:" and jump targets
local function assemble(src)
  local code, labels, fix = {}, {}, {}
  for tok in src:gmatch("%S+") do
    if tok:sub(-1) == ":" then labels[tok:sub(1, -2)] = #code + 1
    elseif OP[tok] then code[#code + 1] = OP[tok]
    elseif tonumber(tok) then code[#code + 1] = math.tointeger(tonumber(tok))
    else code[#code + 1] = 0 fix[#code] = tok end
  end
  for at, name in pairs(fix) do code[at] = assert(labels[name], name) end
  return code
end

-- vars: 1 n, 2 i, 3 d, 4 isprime, 5 count, 6 x, 7 steps
local prog = assemble [[
  push 2 store 2  push 0 store 5  push 0 store 7
outer: load 2 load 1 lt jz done
  push 1 store 4  push 2 store 3
inner: load 3 load 3 mul load 2 lt load 3 load 3 mul load 2 eq add jz endin
  load 2 load 3 mod jz notp
  load 3 inc store 3 jmp inner
notp: push 0 store 4
endin: load 4 jz skip
  load 5 inc store 5
skip: load 2 store 6
coll: load 6 push 1 eq jz cstep jmp cdone
cstep: load 6 push 2 mod jz even
  load 6 push 3 mul inc store 6 jmp cnext
even: load 6 push 2 div store 6
cnext: load 7 inc store 7 jmp coll
cdone: load 2 inc store 2 jmp outer
done: halt
]]

local function runtable(code, nvalue)
  local stack, sp, pc, vars = {}, 0, 1, {nvalue, 0, 0, 0, 0, 0, 0}
  local running = true
  local h = {}
  h[OP.push] = function() sp = sp + 1 stack[sp] = code[pc] pc = pc + 1 end
  h[OP.load] = function() sp = sp + 1 stack[sp] = vars[code[pc]] pc = pc + 1 end
  h[OP.store] = function() vars[code[pc]] = stack[sp] sp = sp - 1 pc = pc + 1 end
  h[OP.add] = function() sp = sp - 1 stack[sp] = stack[sp] + stack[sp + 1] end
  h[OP.sub] = function() sp = sp - 1 stack[sp] = stack[sp] - stack[sp + 1] end
  h[OP.mul] = function() sp = sp - 1 stack[sp] = stack[sp] * stack[sp + 1] end
  h[OP.div] = function() sp = sp - 1 stack[sp] = stack[sp] // stack[sp + 1] end
  h[OP.mod] = function() sp = sp - 1 stack[sp] = stack[sp] % stack[sp + 1] end
  h[OP.lt] = function() sp = sp - 1 stack[sp] = stack[sp] < stack[sp + 1] and 1 or 0 end
  h[OP.eq] = function() sp = sp - 1 stack[sp] = stack[sp] == stack[sp + 1] and 1 or 0 end
  h[OP.jz] = function() local v = stack[sp] sp = sp - 1 if v == 0 then pc = code[pc] else pc = pc + 1 end end
  h[OP.jmp] = function() pc = code[pc] end
  h[OP.dup] = function() sp = sp + 1 stack[sp] = stack[sp - 1] end
  h[OP.pop] = function() sp = sp - 1 end
  h[OP.inc] = function() stack[sp] = stack[sp] + 1 end
  h[OP.halt] = function() running = false end
  local steps = 0
  while running do
    local op = code[pc]
    pc = pc + 1
    h[op]()
    steps = steps + 1
  end
  return vars[5], vars[7], steps
end

local function runchain(code, nvalue)
  local stack, sp, pc, vars = {}, 0, 1, {nvalue, 0, 0, 0, 0, 0, 0}
  local steps = 0
  while true do
    local op = code[pc]
    pc = pc + 1
    steps = steps + 1
    if op == 2 then sp = sp + 1 stack[sp] = vars[code[pc]] pc = pc + 1
    elseif op == 1 then sp = sp + 1 stack[sp] = code[pc] pc = pc + 1
    elseif op == 3 then vars[code[pc]] = stack[sp] sp = sp - 1 pc = pc + 1
    elseif op == 9 then
      local v = stack[sp] sp = sp - 1
      if v == 0 then pc = code[pc] else pc = pc + 1 end
    elseif op == 4 then sp = sp - 1 stack[sp] = stack[sp] + stack[sp + 1]
    elseif op == 6 then sp = sp - 1 stack[sp] = stack[sp] * stack[sp + 1]
    elseif op == 8 then sp = sp - 1 stack[sp] = stack[sp] < stack[sp + 1] and 1 or 0
    elseif op == 16 then sp = sp - 1 stack[sp] = stack[sp] == stack[sp + 1] and 1 or 0
    elseif op == 7 then sp = sp - 1 stack[sp] = stack[sp] % stack[sp + 1]
    elseif op == 14 then stack[sp] = stack[sp] + 1
    elseif op == 10 then pc = code[pc]
    elseif op == 15 then sp = sp - 1 stack[sp] = stack[sp] // stack[sp + 1]
    elseif op == 5 then sp = sp - 1 stack[sp] = stack[sp] - stack[sp + 1]
    elseif op == 11 then sp = sp + 1 stack[sp] = stack[sp - 1]
    elseif op == 12 then sp = sp - 1
    elseif op == 13 then break
    else error("bad opcode " .. tostring(op) .. " at " .. (pc - 1)) end
  end
  return vars[5], vars[7], steps
end

local p1, c1, s1 = runtable(prog, n)
local p2, c2, s2 = runchain(prog, n)
local wp, wc = 0, 0
for i = 2, n - 1 do
  local prime, d = true, 2
  while d * d <= i do
    if i % d == 0 then prime = false break end
    d = d + 1
  end
  if prime then wp = wp + 1 end
  local x = i
  while x ~= 1 do
    if x % 2 == 0 then x = x // 2 else x = 3 * x + 1 end
    wc = wc + 1
  end
end
assert(p1 == wp and p2 == wp, string.format("primes %d %d vs %d", p1, p2, wp))
assert(c1 == wc and c2 == wc, string.format("collatz %d %d vs %d", c1, c2, wc))
assert(s1 == s2, "step counts differ")
print(string.format("minivm: n=%d, %d primes, %d collatz steps, %d instructions per run", n, p1, c1, s1))
