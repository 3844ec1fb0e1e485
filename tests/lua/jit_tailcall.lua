-- Tail calls from compiled code (llvmgen.c leantailcall: the frame is
-- reused inline when the callee is a Lua closure; everything else takes
-- mvmrt_tailcall): proper tail calls at depth, callees with fewer, as many
-- and more arguments than parameters, vararg callees, C functions,
-- __call, non-callable values, closures over the caller's locals, errors
-- and tracebacks inside tail-called functions, hooks set by a tail callee,
-- and functions that change between compiled and interpreted callees.
local function count(n, acc)
  if n == 0 then return acc end
  return count(n - 1, acc + 1)
end
print("deep", count(300000, 0))

-- mutual recursion through tail calls
local even, odd
function even(n) if n == 0 then return true end return odd(n - 1) end
function odd(n) if n == 0 then return false end return even(n - 1) end
print("mutual", even(100001), odd(100001))

-- argument counts against parameter counts
local function p3(a, b, c) return tostring(a) .. tostring(b) .. tostring(c) end
local function t1(x) return p3(x) end                -- fewer: nils added (helper)
local function t3(x) return p3(x, x + 1, x + 2) end  -- as many
local function t5(x) return p3(x, 1, 2, 3, 4) end    -- more
local function va(...) return select("#", ...), ... end
local function tva(x) return va(x, nil, x) end        -- vararg callee
for i = 1, 3 do print("args", t1(i), t3(i), t5(i), tva(i)) end

-- C functions, __call, non-callables
local callable = setmetatable({}, { __call = function(self, a, b) return "called", a, b end })
local function tc(x) return math.max(x, 7) end
local function tcall(x) return callable(x, x * 2) end
local function tbad(f, x) return f(x) end
for i = 1, 3 do print("c", tc(i * 3), tcall(i)) end
print("bad", pcall(tbad, 42, 1))
print("bad nil", pcall(tbad, nil, 1))
print("select", (function(...) return select(2, ...) end)(1, 2, 3))

-- callers that close upvalues or are vararg (the helper path)
local function mkclos(x)
  local y = x * 10
  local f = function() return y end
  return f()
end
local function varcaller(...) return p3(...) end
for i = 1, 3 do print("closing", mkclos(i), varcaller(i, i)) end

-- the callee changes between calls at one site: compiled, interpreted,
-- C, a replaced global
function target(x) return "first " .. x end
local function site(x) return target(x) end
for i = 1, 3 do print("site", site(i)) end
target = function(x) return "second " .. x end
print("site", site(4))
target = string.upper
print("site", site("ab"))
target = nil
print("site", pcall(site, 1))

-- errors and tracebacks in a tail-called function
local function fails(x) error("failed " .. x) end
local function tf(x) return fails(x) end
for i = 1, 2 do print("error", pcall(tf, i)) end
local function tb() return debug.traceback("tb", 1) end
local function ttb() return tb() end
local tr = ttb()
print("traceback", (tr:gsub("\n[^\n]*%[C%][^\n]*", ""):gsub(":%d+:", ":N:")))

-- a tail callee that turns hooks on and off
local lines = 0
local function hooked(x)
  debug.sethook(function() lines = lines + 1 end, "l")
  local y = x + 1
  debug.sethook()
  return y
end
local function th(x) return hooked(x) end
for i = 1, 3 do print("hook", th(i), lines > 0) end

-- results: none, one, many, and the caller's expectations
local function none() end
local function many() return 1, 2, 3 end
local function tn() return none() end
local function tm() return many() end
for _ = 1, 2 do
  print("results", select("#", tn()), select("#", tm()), (tm()), tm())
  local a, b, c, d = tm()
  print("adjusted", a, b, c, d)
end

-- a long chain of different functions tail-calling each other in a loop
local fs = {}
for i = 1, 10 do
  fs[i] = function(n, acc)
    if n == 0 then return acc end
    return fs[(i % 10) + 1](n - 1, acc + i)
  end
end
print("chain", fs[1](100000, 0))

local function bigframe(n)
  local v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15, v16, v17, v18, v19, v20, v21, v22, v23, v24, v25, v26, v27, v28, v29, v30, v31, v32, v33, v34, v35, v36, v37, v38, v39, v40, v41, v42, v43, v44, v45, v46, v47, v48, v49, v50, v51, v52, v53, v54, v55, v56, v57, v58, v59, v60, v61, v62, v63, v64, v65, v66, v67, v68, v69, v70, v71, v72, v73, v74, v75, v76, v77, v78, v79, v80, v81, v82, v83, v84, v85, v86, v87, v88, v89, v90, v91, v92, v93, v94, v95, v96, v97, v98, v99, v100, v101, v102, v103, v104, v105, v106, v107, v108, v109, v110, v111, v112, v113, v114, v115, v116, v117, v118, v119, v120, v121, v122, v123, v124, v125, v126, v127, v128, v129, v130, v131, v132, v133, v134, v135, v136, v137, v138, v139, v140, v141, v142, v143, v144, v145, v146, v147, v148, v149, v150 = 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139, 140, 141, 142, 143, 144, 145, 146, 147, 148, 149, 150
  return n + v1 + v150
end
-- tail calls into a function with a large frame, at depths where the
-- stack must grow (the inline path needs room for the callee's frame)
local function nest(d)
  if d == 0 then return 0 end
  local r = nest(d - 1)
  return bigframe(r % 7)
end
for _, d in ipairs({10, 1000, 7000}) do print("bigframe", d, nest(d)) end

-- a tail call inside a coroutine, across a yield
local co = coroutine.wrap(function(n)
  local function step(k, acc)
    if k == 0 then return acc end
    if k % 1000 == 0 then coroutine.yield(k) end
    return step(k - 1, acc + k)
  end
  return step(n, 0)
end)
local last
for _ = 1, 6 do last = co(5000) end
print("coroutine", last)
