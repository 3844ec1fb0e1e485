-- ffi_calls.lua: FFI call overhead: C's sqrt (double -> double) and strlen
-- (string -> size_t) called through the ffi module in a loop.
-- usage: mvm bench/ffi_calls.lua [n]   (default 1e7 sqrt calls, n/10 strlen)
-- Interpreters without the ffi module (lua5.4) skip it.
local ok, ffi = pcall(require, "ffi")
if not ok then print("ffi not available: skipped") os.exit(1) end  -- "fails" in bench/run: no ratio
local n = tonumber(arg and arg[1]) or 10000000
local m = math.floor(n / 10)   -- strlen calls (no // : LuaJIT runs this too)

ffi.cdef[[
double sqrt(double x);
size_t strlen(const char *s);
]]
local C = ffi.C
local sqrt = C.sqrt

local s = 0.0
for i = 1, n do s = s + sqrt(i) end
-- self-check: the same sum with math.sqrt
local t = 0.0
for i = 1, n do t = t + math.sqrt(i) end
assert(s == t, "sqrt sum " .. s .. " ~= " .. t)

local strlen = C.strlen
local words = {"", "a", "hello", "a somewhat longer string", "mvm"}
local total = 0
for i = 1, m do
  total = total + tonumber(strlen(words[i % 5 + 1]))
end
local per = 0 + 1 + 5 + 24 + 3
assert(total == math.floor(m / 5) * per + 0, "strlen total " .. total)
print(string.format("ffi_calls: %d sqrt calls, sum %.6e; %d strlen calls, total %d",
                    n, s, m, total))
