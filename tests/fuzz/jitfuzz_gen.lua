-- jitfuzz_gen.lua SEED: prints a random Lua program (deterministic for a
-- seed) for tests/fuzz/jitfuzz.sh, which runs it under every JIT mode and
-- compares the output with -j off.  The programs mix what the JIT's
-- analyses have to get right together: nested numeric loops whose
-- registers are reused afterwards, pairs/ipairs over array and hash keys
-- (negative, zero, strings), integer, float and bitwise arithmetic past
-- 2^47, method calls through __index, closures writing upvalues, string
-- building, branches; library calls in loops (string methods and
-- functions, select, math.max, table.insert/remove: compiled code's
-- inline C calls), string keys built at run time, varargs, generators
-- from coroutine.wrap, __add/__lt metamethods, goto; calls of every
-- shape and tables behind __index/__newindex functions (calls()).
-- Output only depends on the program's semantics:
-- sums of integer keys and values (commutative, so traversal order does
-- not matter) and counts.
local seed = tonumber(arg[1]) or 1
local state = seed * 2654435761 % 4294967296
local function rnd(n)   -- 1..n (a 32-bit LCG: the same on every platform)
  state = (state * 1103515245 + 12345) % 2147483648
  return state % n + 1
end
local function pick(t) return t[rnd(#t)] end
local out = {}
local function emit(ind, s) out[#out + 1] = string.rep("  ", ind) .. s end

local expr
function expr(vs, d)
  if d > 2 or rnd(10) <= 3 then
    local c = rnd(10)
    if c <= 5 and #vs > 0 then return pick(vs) end
    if c <= 8 then return tostring(rnd(41) - 21) end
    if c <= 9 then return pick({"0.5", "-1.25", "3.0", "5.62949953421312e+14"}) end
    return pick({"70368744177664", "-140737488355328", "1125899906842624"})
  end
  if rnd(12) == 1 then   -- the inline builtins (compiled code's fast paths)
    return pick({"math.floor", "math.abs", "math.sqrt"}) .. "(math.abs(" .. expr(vs, d + 1) .. "))"
  end
  local op = pick({"+", "-", "*", "//", "%", "&", "|", "~", "/"})
  local a, b = expr(vs, d + 1), expr(vs, d + 1)
  if op == "&" or op == "|" or op == "~" then
    return "((math.tointeger(" .. a .. ") or 0) " .. op .. " (math.tointeger(" .. b .. ") or 1))"
  elseif op == "//" or op == "%" or op == "/" then
    return "(" .. a .. " " .. op .. " ((" .. b .. ") ~= 0 and (" .. b .. ") or 3))"
  end
  return "(" .. a .. " " .. op .. " " .. b .. ")"
end

local nlocals = 0
local extra, calls
local function copy(t) local r = {} for i = 1, #t do r[i] = t[i] end return r end
-- 'ro': inside a pairs/ipairs loop, where the tables must not change
-- (next is undefined after a store into an absent field)
local stmt
function stmt(vs, d, ind, ro)
  local k = rnd(100)
  if d > 2 then k = rnd(40) end
  if ro and k > 20 and k <= 40 then k = 93 end
  if rnd(100) <= 12 then extra(vs, d, ind, ro) return end
  if rnd(100) <= 12 then calls(vs, d, ind, ro) return end
  if k <= 20 and #vs > 0 then
    emit(ind, pick(vs) .. " = " .. expr(vs, 0))
  elseif k <= 30 then
    local t = pick({"t1", "t2"})
    if rnd(4) == 1 then   -- an append (llvmgen.c appendop)
      emit(ind, t .. "[#" .. t .. " + 1] = " .. expr(vs, 0))
    else
      emit(ind, t .. "[" .. expr(vs, 0) .. "] = " .. expr(vs, 0))
    end
  elseif k <= 40 then
    emit(ind, pick({"t1", "t2"}) .. "[" .. pick({'"a"', '"b"', '"k" .. (' .. expr(vs, 0) .. ')'}) ..
         "] = " .. (#vs > 0 and pick(vs) or "1"))
  elseif k <= 60 then
    local i = "i" .. d
    emit(ind, "for " .. i .. " = " .. (rnd(6) - 4) .. ", " .. (rnd(10) - 1) ..
         pick({"", ", 1", ", 2", ", -1"}) .. " do")
    local inner = copy(vs); inner[#inner + 1] = i
    for _ = 1, rnd(3) do stmt(inner, d + 1, ind + 1, ro) end
    emit(ind, "end")
  elseif k <= 75 then
    local kk, vv = "k" .. d, "v" .. d
    emit(ind, "for " .. kk .. ", " .. vv .. " in " .. pick({"pairs", "ipairs"}) .. "(" ..
         pick({"t1", "t2"}) .. ") do")
    emit(ind + 1, "if math.type(" .. kk .. ") == \"integer\" and math.type(" .. vv ..
         ") then acc = acc + " .. kk .. " + (math.type(" .. vv .. ") == \"integer\" and " ..
         vv .. " or 1) else acc = acc + 1 end")
    for _ = 1, rnd(3) - 1 do stmt(copy(vs), d + 1, ind + 1, true) end
    emit(ind, "end")
  elseif k <= 85 and nlocals < 60 then
    nlocals = nlocals + 1
    local v = "w" .. d .. "_" .. #out
    emit(ind, "local " .. v .. " = " .. expr(vs, 0))
    vs[#vs + 1] = v
  elseif k <= 91 then
    emit(ind, "if " .. expr(vs, 0) .. " < " .. expr(vs, 0) .. " then")
    stmt(copy(vs), d + 1, ind + 1, ro)
    emit(ind, "else")
    stmt(copy(vs), d + 1, ind + 1, ro)
    emit(ind, "end")
  elseif k <= 92 then
    emit(ind, "acc = acc + f(" .. (#vs > 0 and pick(vs) or "1") .. ")")
  elseif k <= 94 then
    local v = #vs > 0 and pick(vs) or "1"
    emit(ind, "bump(" .. v .. "); acc = acc + obj:get(" .. v .. ")")
  elseif k <= 95 then
    local c = "c" .. d .. "_" .. #out
    emit(ind, "local " .. c .. " = 0")
    emit(ind, "while " .. c .. " < " .. (rnd(6) - 1) .. " do " .. c .. " = " .. c ..
         " + 1; str = str .. tostring(" .. c .. " % 10) end")
    emit(ind, "acc = acc + #str")
  elseif k <= 97 then
    local g = "g" .. #out
    emit(ind, "local " .. g .. " = function(y) acc = acc + (math.tointeger(y) or 2) return y end")
    emit(ind, (#vs > 0 and pick(vs) or "acc") .. " = " .. g .. "(" .. (#vs > 0 and pick(vs) or "1") .. ")")
  else
    extra(vs, d, ind, ro)
  end
end

-- library calls (inline C calls and string methods in compiled code),
-- string keys built at run time, varargs, coroutines, metamethods, goto
function extra(vs, d, ind, ro)
  local v = #vs > 0 and pick(vs) or "1"
  local c = rnd(9)
  if c == 1 then
    emit(ind, 'acc = acc + #tostring(' .. v .. '):sub(1, 3) + (("' .. v ..
         '"):byte(1) or 0) + #string.format("%d", math.tointeger(' .. v .. ') or 0)')
  elseif c == 2 and not ro then
    emit(ind, 'local key = "s" .. tostring(math.tointeger(' .. v .. ') or 0) % 4')
    emit(ind, 'names[key] = (names[key] or 0) + 1; acc = acc + names[key]')
  elseif c == 3 then
    emit(ind, 'acc = acc + va(' .. v .. ', nil, ' .. expr(vs, 1) .. ') + va() + va(' .. v .. ')')
  elseif c == 4 then
    emit(ind, 'for y in coroutine.wrap(function() for q = 1, 3 do coroutine.yield(q + (math.tointeger(' ..
         v .. ') or 0)) end end) do acc = acc + y end')
  elseif c == 5 then
    emit(ind, 'acc = acc + (V + (math.tointeger(' .. v .. ') or 1)) + ((V < ' .. v .. ') and 1 or 0)')
  elseif c == 6 then
    emit(ind, 'for q = 1, ' .. rnd(5) .. ' do if (math.tointeger(' .. v ..
         ') or 0) % 2 == q % 2 then goto skip' .. d .. ' end acc = acc + q ::skip' .. d .. ':: end')
  elseif c == 7 and not ro then
    emit(ind, 'table.insert(list, ' .. v .. '); if #list > 5 then acc = acc + (math.tointeger(table.remove(list, 1)) or 1) end')
  elseif c == 8 then   -- integer chains whose temporaries pass 48 bits (wide ints)
    local big = pick({"1103515245", "69069", "6364136223846793005", "-2862933555777941757", "31"})
    local add = pick({"12345", "q", "-7", "1442695040888963407"})
    local fin = pick({"% 2147483648", "% 4294967296", "% -2147483647", "% 140737488355328",
                      "% 140737488355329", "% 562949953421312", "% -1", "% 7", "& 0xFFFFFFFF",
                      "& 0x7FFFFFFFFFFF", "& -1", ">> 17", ">> 16", ">> 40", "// 65536"})
    local w = "w" .. d .. "_" .. #out
    emit(ind, 'local ' .. w .. ' = ' .. rnd(100) .. '; for q = 1, ' .. rnd(4) .. ' do ' .. w ..
         ' = (' .. w .. ' * ' .. big .. ' + ' .. add .. ') ' .. fin .. ' end')
    emit(ind, 'acc = acc + ' .. w .. ' % 1000')
  else
    emit(ind, 'acc = acc + select("#", ' .. v .. ', ' .. v .. ') + (math.tointeger(math.max(' .. v .. ', 2)) or 3)')
  end
end

-- calls in every shape (multiple results cut and spread, varargs, tail
-- and recursive calls, closures over loop variables, pcall and error,
-- methods with several arguments) and tables behind metamethods (__index
-- and __newindex functions, float keys that are integers)
function calls(vs, d, ind, ro)
  local v = #vs > 0 and pick(vs) or "1"
  local iv = "(math.tointeger(" .. v .. ") or 1)"
  local c = rnd(10)
  if c == 1 then
    local r = "r" .. #out
    emit(ind, "local " .. r .. "a, " .. r .. "b, " .. r .. "c, " .. r .. "d = mr(" .. v .. ")")
    emit(ind, "acc = acc + " .. r .. "b + (" .. r .. "c == nil and 1 or 0) + (" .. r .. "d == nil and 2 or 0)")
  elseif c == 2 then
    emit(ind, "acc = acc + select('#', mr(" .. v .. ")) + #{mr(" .. v .. ")} + sum3(mr(" .. v ..
         ")) + sum3(" .. v .. ", mr(" .. v .. "))")
  elseif c == 3 then
    emit(ind, "acc = acc + rec(" .. iv .. " % 12, 0) + math.max(mr(" .. v .. "), 1)")
  elseif c == 4 then
    emit(ind, "do local fs = {} for q = 1, 3 do fs[q] = function() return q + " .. iv ..
         " end end acc = acc + fs[1]() + fs[3]() end")
  elseif c == 5 then
    emit(ind, "do local ok, e = pcall(function() if " .. iv .. " % 3 == 0 then error(\"e\" .. " .. iv ..
         ", 0) end return " .. iv .. " end) acc = acc + (ok and e or #e) end")
  elseif c == 6 then
    emit(ind, "acc = acc + obj:m3(" .. v .. ", " .. expr(vs, 1) .. ") + obj:m3(" .. v .. ")")
  elseif c == 7 and not ro then
    emit(ind, "P[\"q\" .. " .. iv .. " % 5] = " .. iv .. "; acc = acc + P.zz + (P[\"q\" .. " .. iv .. " % 5] or 0)")
  elseif c == 8 and not ro then
    emit(ind, pick({"t1", "t2"}) .. "[" .. pick({"2.0", "-1.0", "0.5", iv .. " + 0.0"}) .. "] = " .. v)
  elseif c == 9 then
    emit(ind, "do local seq = {" .. v .. ", " .. iv .. "} seq[#seq + 1] = " .. v ..
         " local n2 = 0 repeat n2 = n2 + 1 if n2 > #seq then break end until seq[n2] == nil acc = acc + n2 + #seq end")
  else
    emit(ind, "acc = acc + va2(" .. v .. ", table.unpack({" .. v .. ", " .. iv .. ", 3}))")
  end
end

emit(0, "-- jitfuzz program, seed " .. seed)
emit(0, 'local function f(x) if math.type(x) == "integer" then return x % 7 end return 1 end')
emit(0, "local M = {} M.__index = M")
emit(0, "function M:get(v) return (math.tointeger(v) or 0) % 5 + self.x end")
emit(0, "function M:m3(a, b, c) return (math.tointeger(a) or 1) % 7 + (b == nil and 1 or 2) + (c == nil and 3 or 4) + self.x end")
emit(0, "local function mr(x) return x, (math.tointeger(x) or 0) % 9 + 1, nil end")
emit(0, "local function sum3(a, b, c) return (math.tointeger(a) or 1) % 11 + (math.tointeger(b) or 2) + (c == nil and 5 or 6) end")
emit(0, "local function rec(n, a) if n <= 0 then return a end return rec(n - 1, a + n) end")
emit(0, "local function va2(...) local n = select('#', ...) local a, b = ... return n + (math.tointeger(b) or 0) % 13 end")
emit(0, "local function run(n)")
emit(1, "local acc = 0")
emit(1, "local t1, t2 = {}, {}")
emit(1, 'local str = ""')
emit(1, "local obj = setmetatable({x = 1}, M)")
emit(1, "local function bump(v) obj.x = obj.x + 1; acc = acc + 1 end")
emit(1, "local names, list = {}, {}")
emit(1, "local P = setmetatable({}, {__index = function(t, k) return #k end, " ..
        "__newindex = function(t, k, v) rawset(t, k, v * 2) end})")
emit(1, "local function va(...) local a = ... return select('#', ...) + (math.tointeger(a) or 0) end")
emit(1, "local V = setmetatable({v = 3}, {__add = function(a, b) return (type(a) == 'table' and a.v or a) + " ..
        "(type(b) == 'table' and b.v or b) end, __lt = function(a, b) " ..
        "return (type(a) == 'table' and a.v or a) < (type(b) == 'table' and b.v or b) end})")
local vs = {"n"}
for _ = 1, rnd(6) + 2 do stmt(vs, 0, 1) end
emit(1, "local c = 0")
emit(1, "for k, v in pairs(t1) do c = c + 1 end")
emit(1, "for k, v in pairs(t2) do c = c + 1 end")
local ret = {}
for i = 1, math.min(#vs, 6) do ret[i] = vs[i] end
emit(1, "return acc, c, " .. table.concat(ret, ", "))
emit(0, "end")
emit(0, "local r = {}")
emit(0, "for rep = 1, 40 do local a = table.pack(pcall(run, rep % 5)) " ..
        "for i = 1, a.n do r[#r + 1] = tostring(a[i]) end end")
emit(0, 'print(table.concat(r, " "))')
print(table.concat(out, "\n"))
