-- Instructions compiled code cannot reach get no code (llvmgen.c
-- reachable()): the MMBIN* after arithmetic, a RETURN0 after a final
-- return, JMPs after returns, labels reached only by a backward goto.
-- Arithmetic that falls back to metamethods leaves at the arithmetic and
-- the interpreter runs its MMBIN; jit.tools checks that no compile was
-- given up for a branch to an unreached instruction.

local V = setmetatable({}, {
  __add = function(a, b) return "add" end,
  __sub = function(a, b) return "sub" end,
  __mul = function(a, b) return "mul" end,
  __div = function(a, b) return "div" end,
  __mod = function(a, b) return "mod" end,
  __idiv = function(a, b) return "idiv" end,
  __band = function(a, b) return "band" end,
  __shl = function(a, b) return "shl" end,
  __shr = function(a, b) return "shr" end,
  __unm = function(a) return "unm" end,
})

local function arith(x, y)
  return x + y, x - 1, x * 2.5, x / y, x % 3, x // y, x & 7, x << 1, x >> y, -x
end

local function sign(n)
  if n < 0 then return -1 elseif n > 0 then return 1 else return 0 end
end

local function early(n)
  do return n * 2 end
end

-- a label reached only by a backward goto: the code between is entered
-- from the jump over it
local function backgoto(n)
  local s, i = 0, 0
  goto start
  ::again::
  s = s + i
  ::start::
  i = i + 1
  if i <= n then goto again end
  return s
end

local function loop(t)
  local s = 0
  for i = 1, #t do
    local v = t[i]
    s = s + v * 2 - v // 3 + (v << 1)
  end
  return s
end

for round = 1, 3 do
  print(arith(7, 2))
  print(pcall(arith, 7.5, 2))
  print(pcall(arith, V, 2))
  print(arith(V, V))
  print(sign(-3), sign(4), sign(0), early(21), backgoto(10))
  print(loop({1, 2, 3, 4}), pcall(loop, {1, V, 3}))
end
print(pcall(arith, "x", 1))
