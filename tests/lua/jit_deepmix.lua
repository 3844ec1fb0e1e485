-- Deep compiled recursion meets the debug library, metamethod errors,
-- nested coroutines up to "C stack overflow" and C callbacks (see
-- jit_deepcalls): everything as the interpreter and lua5.4 do it.
-- traceback and hooks at depth
local function tb(n) if n == 0 then return debug.traceback("here", 1) end local r = tb(n - 1) return r end
local t = tb(3000)
print(#t > 0, select(2, t:gsub("\n", "\n")))
local cnt = 0
local function hk(n) if n == 0 then debug.sethook(function() cnt = cnt + 1 end, "", 100) return 0 end return 1 + hk(n - 1) end
print(hk(5000))
local function loop(n) local s = 0 for i = 1, n do s = s + i end return s end
print(loop(100000), cnt > 0)
debug.sethook()
-- errors in __index functions at depth
local P = setmetatable({}, {__index = function(t, k) if k == "bad" then error("bad key") end return 1 end})
local function ix(n) if n == 0 then return P.bad end return ix(n - 1) end
print(pcall(ix, 4000))
-- nested coroutines, each recursing
local function nest(level)
  local co = coroutine.wrap(function()
    local function r(n) if n == 0 then if level > 0 then return nest(level - 1) end coroutine.yield(level) return 0 end return 1 + r(n - 1) end
    return r(300)
  end)
  local a = co()
  return a
end
print(pcall(nest, 50))
print(pcall(nest, 250))
-- string.rep/gsub callbacks at depth
local function gs(n) if n == 0 then return (("abc"):rep(10):gsub("b", function(c) return c:upper() end)) end local r = gs(n - 1) return r end
print(gs(20000))
