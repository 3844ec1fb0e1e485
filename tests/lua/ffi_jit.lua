-- mvm-test: no-differential (ffi: expected output written by hand from the C definitions)
-- Direct calls (no libffi) of scalar signatures, and the libffi fallback
-- next to them: every scalar type as argument and result, register order,
-- conversions, errors, callbacks, errno.  The calls run in loops inside
-- functions, so that -j eager/stress run them from compiled code.
local ffi = require("ffi")
local L = require("lib.ffitest")

ffi.cdef[[
size_t ft_size(size_t n);
double ft_mixed(int a, double b, int64_t c, float d, char e, short f,
                double g, int h, double i, long j);
int64_t ft_i6(int8_t a, uint8_t b, int16_t c, uint16_t d, int32_t e, uint32_t f);
int64_t ft_i7(int a, int b, int c, int d, int e, int f, int g);
double ft_d8(double a, double b, double c, double d, double e, double f, double g, double h);
double ft_d9(double a, double b, double c, double d, double e, double f, double g, double h,
             double i);
double ft_interleave(float a, int64_t b, double c, int8_t d, float e, uint16_t f);
float ft_fmix(float a, int b, float c);
bool ft_isneg(int64_t x);
uint32_t ft_u32max(void);
int32_t ft_m1(void);
uint16_t ft_u16of(int32_t x);
const char *ft_skip(const char *s, size_t n);
int ft_seterrno(int e);
int ft_geterrno(void);
void ft_store(int *out, int v);
int ft_nested(int (*f)(int), int x);
typedef int (*binop)(int, int);
int ft_apply(binop f, int a, int b);
int ft_isnull(const void *p);
enum Color { RED, GREEN = 5, BLUE };
enum Color ft_next(enum Color c);
]]

-- every result type, repeated: the same value each time
local function rep(name, f, ...)
  local r
  for _ = 1, 50 do r = f(...) end
  print(name, r, type(r) == "cdata" and tostring(ffi.typeof(r)) or math.type(r) or type(r))
end

print("-- integers and truncation")
rep("i8", L.ft_i8, 127)            -- wraps to -128
rep("i8 neg", L.ft_i8, -5)
rep("u8", L.ft_u8, 255)            -- wraps to 0
rep("u8 arg wraps", L.ft_u8, 257)  -- 257 -> 1 -> 2
rep("i16", L.ft_i16, 32767)
rep("u16", L.ft_u16, 65535)
rep("i32", L.ft_i32, 2147483647)
rep("u32", L.ft_u32, 4294967295)
rep("u32max", L.ft_u32max)
rep("m1", L.ft_m1)
rep("u16of", L.ft_u16of, -1)
rep("i64", L.ft_i64, 41)
rep("i64 cdata", L.ft_i64, ffi.new("int64_t", 9))
rep("u64", L.ft_u64, -1)           -- 2^64-1 + 1 = 0
rep("long", L.ft_long, 6, 7)
rep("size", L.ft_size, 21)
rep("float->int", L.ft_i32, 2.9)   -- truncated: 2 + 1
rep("neg float->int", L.ft_i32, -2.9)

print("-- floating point")
rep("float", L.ft_float, 1.25)
rep("float int", L.ft_float, 3)
rep("double", L.ft_double, 0.5)
rep("double int", L.ft_double, 21)
rep("double cdata", L.ft_double, ffi.new("int64_t", 4))
rep("fmix", L.ft_fmix, 1.5, 4, 0.25)

print("-- bool, char, enum, pointers")
rep("not true", L.ft_not, true)
rep("not false", L.ft_not, false)
rep("isneg", L.ft_isneg, -3)
rep("isneg 0", L.ft_isneg, 0)
rep("upper", L.ft_upper, 97)
rep("next", L.ft_next, 0)
rep("next str", L.ft_next, "GREEN")
rep("isnull nil", L.ft_isnull, nil)
rep("isnull str", L.ft_isnull, "x")
print("skip", ffi.string(L.ft_skip("hello world", 6)))
local box = ffi.new("int[1]")
L.ft_store(box, 77)
print("store", box[0], L.ft_store(box, 78), box[0])

print("-- register order")
rep("i6", L.ft_i6, -1, 2, -3, 4, -5, 6)
rep("i7", L.ft_i7, 1, 2, 3, 4, 5, 6, 7)
rep("d8", L.ft_d8, 1, 2, 3, 4, 5, 6, 7, 8)
rep("d9", L.ft_d9, 1, 2, 3, 4, 5, 6, 7, 8, 9)
rep("interleave", L.ft_interleave, 1.5, 2, 3.25, -4, 0.5, 6)
rep("mixed", L.ft_mixed, 1, 2.5, 3, 4.5, 5, 6, 7.5, 8, 9.5, 10)

print("-- function pointers and callbacks")
rep("apply", L.ft_apply, function(a, b) return a * b end, 6, 7)
local add = ffi.cast("binop", function(a, b) return a + b end)
rep("apply cast", L.ft_apply, add, 40, 2)
rep("call cast", add, 20, 3)
rep("nested", L.ft_nested, function(x) return L.ft_i32(x) end, 10)  -- ffi call inside a callback
local ok, msg = pcall(L.ft_apply, function() error("boom") end, 1, 2)
print("callback error", ok, msg)
rep("after error", L.ft_apply, add, 1, 1)
local nullfn = ffi.cast("binop", nil)
print("null fn", pcall(nullfn, 1, 2))

print("-- errno")
ffi.errno(0)
print("seterrno", L.ft_seterrno(33), ffi.errno())
print("errno kept", L.ft_i32(1), ffi.errno())
print("errno old", ffi.errno(12), L.ft_geterrno(), ffi.errno())

print("-- argument errors (raised before any C code runs)")
local function try(name, f, ...)
  local ok, err = pcall(f, ...)
  print(name, ok, err)
end
try("too few", L.ft_i32)
try("too many", L.ft_i32, 1, 2)
try("string->int", L.ft_i32, "12")
try("table->double", L.ft_double, {})
try("bool->int", L.ft_i32, true)
try("nil->float", L.ft_float, nil)
try("8th arg", L.ft_d8, 1, 2, 3, 4, 5, 6, 7, "x")
try("7th arg", L.ft_i7, 1, 2, 3, 4, 5, 6, {})
try("number->ptr", L.ft_isnull, 5)
try("bad enum", L.ft_next, "PURPLE")
try("ctype arg", L.ft_i32, ffi.typeof("int"))
-- a conversion error after a callback argument was made leaves no frame
-- behind: callbacks still run on this thread afterwards
try("cb then bad", L.ft_apply, function(a, b) return a - b end, 1, "y")
rep("cb after", L.ft_apply, function(a, b) return a - b end, 9, 4)

-- a hot loop (compiled under -j eager): sum of results of two signatures
local function hot(n)
  local s, t = 0.0, 0
  for i = 1, n do
    s = s + L.ft_double(i)
    t = t + L.ft_i32(i)
  end
  return s, t
end
print("hot", hot(1000))
