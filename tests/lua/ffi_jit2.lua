-- mvm-test: no-differential (ffi: expected output written by hand from the C definitions)
-- Direct calls from compiled code (jit/llvmffi.inc): the callee is an
-- upvalue holding a C function cdata, called in loops of functions that
-- -j eager/stress compile.  Guards: another callee in the same upvalue,
-- arguments of other kinds (generic path, same conversions and errors),
-- callbacks during a direct call, errno.
local ffi = require("ffi")
local L = require("lib.ffitest")

ffi.cdef[[
int64_t ft_i6(int8_t a, uint8_t b, int16_t c, uint16_t d, int32_t e, uint32_t f);
double ft_d8(double a, double b, double c, double d, double e, double f, double g, double h);
double ft_interleave(float a, int64_t b, double c, int8_t d, float e, uint16_t f);
float ft_fmix(float a, int b, float c);
uint32_t ft_u32max(void);
int32_t ft_m1(void);
int ft_isnull(const void *p);
size_t strlen(const char *s);
int ft_seterrno(int e);
int ft_geterrno(void);
void ft_store(int *out, int v);
typedef int (*binop)(int, int);
void ft_save(binop f);
int ft_call_saved(int a, int b);
]]

-- f is an upvalue of the loop: the compiled CALL sees it.  A new chunk
-- each time, so that each callee has its own compiled prototype (code is
-- compiled per prototype and observes the callee of its first closure).
-- (No varargs: vararg functions are not compiled.)
local function looper(f, nargs)
  local ps = {}
  for i = 1, nargs do ps[i] = "a" .. i end
  local p = table.concat(ps, ", ")
  return load(string.format([[
    local f = ...
    return function(n%s)
      local r
      for _ = 1, n do r = f(%s) end
      return r
    end]], nargs > 0 and ", " .. p or "", p), "=looper")(f)
end

local function show(name, f, ...)
  local r = looper(f, select("#", ...))(30, ...)
  print(name, r, type(r) == "cdata" and tostring(ffi.typeof(r)) or math.type(r) or type(r))
end

print("-- results")
show("i8", L.ft_i8, 127)
show("u8", L.ft_u8, 255)
show("i16", L.ft_i16, -32768)
show("u16", L.ft_u16, 65535)
show("i32", L.ft_i32, -7)
show("u32", L.ft_u32, 4294967295)
show("u32max", L.ft_u32max)
show("m1", L.ft_m1)
show("float", L.ft_float, 1.25)
show("double", L.ft_double, 0.5)
show("not", L.ft_not, false)
show("i64 (generic: boxed result)", L.ft_i64, 5)
print("-- arguments")
show("i6", L.ft_i6, -1, 2, -3, 4, -5, 6)
show("i6 wraps", L.ft_i6, 255, 256, 65535, 65536, 1, 1)
show("d8", L.ft_d8, 1, 2, 3, 4, 5, 6, 7, 8)
show("interleave", L.ft_interleave, 1.5, 2, 3.25, -4, 0.5, 6)
show("fmix", L.ft_fmix, 1.5, 4, 0.25)
show("float from int", L.ft_float, 3)
show("int from float (generic)", L.ft_i32, 2.9)
show("isnull nil", L.ft_isnull, nil)
show("isnull str", L.ft_isnull, "")
show("strlen", ffi.C.strlen, "hello")
show("bool from number (generic)", L.ft_not, 0)

print("-- one call site, changing callees")
local cur = L.ft_i32
local function site(x) return cur(x) end
local function run(n, x) local r for _ = 1, n do r = site(x) end return r end
print("i32", run(20, 1))
cur = L.ft_double
print("double", run(20, 1))
cur = function(x) return "lua " .. x end
print("lua", run(20, 1))
cur = ffi.cast("int32_t (*)(int32_t)", L.ft_i32)
print("pointer", run(20, 1))
cur = L.ft_i32
print("i32 again", run(20, 41))

print("-- errors (generic path, same messages)")
local function try(name, f, ...)
  local ok, err = pcall(looper(f, select("#", ...)), 3, ...)
  print(name, ok, err)
end
try("string->int", L.ft_i32, "12")
try("table->double", L.ft_double, {})
try("too few", L.ft_i32)
try("too many", L.ft_i32, 1, 2)
try("number->ptr", L.ft_isnull, 5)

print("-- callbacks during a direct call")
local calls = 0
local cb = ffi.cast("binop", function(a, b)
  calls = calls + 1
  local t = {}
  for i = 1, 20 do t[i] = {i} end   -- allocates: collections may run here
  return a * b + #t
end)
L.ft_save(cb)
show("call_saved", L.ft_call_saved, 6, 7)
print("calls", calls)
cb:set(function(a, b) error("cb " .. a .. " " .. b) end)
try("callback error", L.ft_call_saved, 1, 2)
cb:set(function(a, b) return a - b end)
show("after error", L.ft_call_saved, 10, 4)

print("-- errno")
ffi.errno(0)
show("seterrno", L.ft_seterrno, 33)
print("errno", ffi.errno())
ffi.errno(12)
show("geterrno", L.ft_geterrno)
print("errno", ffi.errno())

print("-- void, pointers from the generic path")
local box = ffi.new("int[1]")
show("store", L.ft_store, box, 99)
print("box", box[0])

print("-- coroutines and hooks")
cb:set(function(a, b) return a + b end)
local co = coroutine.wrap(function(x)
  local r = looper(L.ft_call_saved, 2)(10, x, 1)
  coroutine.yield(r)
  return looper(L.ft_i32, 1)(10, x)
end)
print("co", co(5), co())
local hooked = looper(L.ft_i32, 1)
print("before hook", hooked(5, 1))
local count = 0
debug.sethook(function() count = count + 1 end, "", 1)
local r = hooked(5, 2)
debug.sethook()
print("hooked", r, count > 0)

print("-- a local alias (MOVE): whatever the slot held when compiled")
local function alias(n, which)
  local f = which and L.ft_i32 or L.ft_double
  local r
  for i = 1, n do r = f(i) end
  return r
end
for k = 1, 6 do io.write(tostring(alias(10, k % 3 ~= 0)), " ") end
print()
