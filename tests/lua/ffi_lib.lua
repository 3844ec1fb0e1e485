-- mvm-test: no-differential (ffi: expected output written by hand, checked against luajit)
-- Exercises tests/ffi/ffitest.c, whose path is in MVM_FFITEST_LIB.
local ffi = require("ffi")
local L = require("lib.ffitest")

ffi.cdef[[
unsigned long long ft_ull(unsigned long long a);
size_t ft_size(size_t n);
double ft_mixed(int a, double b, int64_t c, float d, char e, short f,
                double g, int h, double i, long j);

typedef struct Point { int x, y; } Point;
typedef struct Rect { Point a, b; const char *name; } Rect;
typedef struct Vec3 { double x, y, z; } Vec3;
typedef struct Small { char c; short s; } Small;
int ft_area(const Rect *r);
Point ft_mkpoint(int x, int y);
int ft_psum(Point p);
Vec3 ft_vscale(Vec3 v, double k);
Small ft_small(char c, short s);
void ft_fillrect(Rect *r, int w, int h);

typedef union Num { int32_t i; float f; uint8_t b[4]; } Num;
uint32_t ft_bits(Num n);

typedef struct Flags {
  unsigned a : 1;
  unsigned b : 3;
  int c : 4;
  unsigned : 0;
  unsigned d : 7;
} Flags;
unsigned ft_flags(const Flags *f);
void ft_setflags(Flags *f);

int64_t ft_sum(const int *a, int n);

typedef int (*binop)(int, int);
int ft_apply(binop f, int a, int b);
double ft_integrate(double (*f)(double), double a, double b, int n);
int ft_each(int (*f)(int), int n);
int ft_ptcb(int (*f)(Point *), int x);
void ft_save(binop f);
int ft_call_saved(int a, int b);

int ft_vsum(int n, ...);
double ft_vdsum(int n, ...);

extern int ft_counter;
extern const char *ft_greeting;
extern int ft_table[4];

enum Color { RED, GREEN = 5, BLUE };
enum Color ft_next(enum Color c);
const char *ft_strptr(void);
void *ft_null(void);
int ft_isnull(const void *p);
void ft_strrev(char *s);

struct Nested {
  int kind;
  union { int i; double d; };
  struct { short lo, hi; } range;
  int (*cb)(int, int);
  char tag[8];
};
]]

-- every scalar type through a call
print("ints", L.ft_i8(127), L.ft_u8(255), L.ft_i16(-1), L.ft_u16(65535),
      L.ft_i32(2147483647), L.ft_u32(4294967295))
print("int64", tostring(L.ft_i64(-2)), tostring(L.ft_u64(ffi.new("uint64_t", -2))))
print("int64b", tostring(L.ft_i64(ffi.new("int64_t", 9007199254740993))), tostring(L.ft_u64(41)))
print("floats", L.ft_float(1.25), L.ft_double(-2.5), L.ft_float(ffi.new("float", 3)))
print("bool char", L.ft_not(false), L.ft_not(true), L.ft_upper(string.byte("q")))
print("long", tostring(L.ft_long(6, 7)), tostring(L.ft_ull(5)), tostring(L.ft_size(21)))
print("mixed", L.ft_mixed(1, 2.5, 3, 4.5, 5, 6, 7.5, 8, 9.5, 10))

-- structs by pointer, by value, nested
local r = ffi.new("Rect", {{1, 2}, {11, 7}, "box"})
print("rect", r.a.x, r.a.y, r.b.x, r.b.y, ffi.string(r.name), L.ft_area(r))
r.b.x = 21
print("area", L.ft_area(r), L.ft_area(ffi.new("Rect", {a = {0, 0}, b = {3, 3}})))
local p = L.ft_mkpoint(3, 4)
print("point", p.x, p.y, L.ft_psum(p), L.ft_psum(ffi.new("Point", 10, 20)))
local v = L.ft_vscale(ffi.new("Vec3", 1, 2, 3), 1.5)
print("vec3", v.x, v.y, v.z)
local sm = L.ft_small(65, -300)
print("small", sm.c, sm.s, ffi.sizeof("Small"))
local fr = ffi.new("Rect")
L.ft_fillrect(fr, 4, 5)
print("fill", fr.a.x, fr.a.y, fr.b.x, fr.b.y, ffi.string(fr.name))
local rp = ffi.new("Rect[2]")
L.ft_fillrect(rp + 1, 2, 2)
print("ptr arith", rp[1].b.x, (rp + 1).b.y, L.ft_area(rp[1]), (rp + 1) - rp)

-- unions
local u = ffi.new("Num")
u.f = 1.0
print("union", string.format("0x%08x", L.ft_bits(u)), u.b[3], u.b[2], ffi.sizeof(u))
u.i = 0x01020304
print("union2", u.b[0], u.b[1], u.b[2], u.b[3])

-- bit fields
local f = ffi.new("Flags")
f.a = 1; f.b = 7; f.c = -8; f.d = 127
print("bits", f.a, f.b, f.c, f.d, ffi.sizeof(f))
f.b = 9   -- truncated to 3 bits
print("bits2", f.b, L.ft_flags(f))
L.ft_setflags(f)
print("bits3", f.a, f.b, f.c, f.d)
print("offsetof", ffi.offsetof("Flags", "c"))
print("offsetof d", ffi.offsetof("Flags", "d"))

-- arrays
local a = ffi.new("int[?]", 100)
for i = 0, 99 do a[i] = i end
print("sum", tostring(L.ft_sum(a, 100)), ffi.sizeof(a))
local a2 = ffi.new("int[5]", 7)
print("fill init", a2[0], a2[4], tostring(L.ft_sum(a2, 5)))

-- callbacks
print("apply", L.ft_apply(function(x, y) return x * y end, 6, 7))
print("integrate", string.format("%.6f", L.ft_integrate(function(x) return x * x end, 0, 3, 1000)))
print("each", L.ft_each(function(i) return i == 3 and 1 or 0 end, 10))
print("ptcb", L.ft_ptcb(function(pt) return pt.x + pt.y end, 5))
local sub = ffi.cast("binop", function(x, y) return x - y end)
L.ft_save(sub)
print("saved", L.ft_call_saved(10, 3), L.ft_call_saved(1, 2))
sub:set(function(x, y) return x + y end)
print("set", L.ft_call_saved(10, 3))
-- an error inside a callback propagates after the C function returns
local ok, msg = pcall(L.ft_apply, function() error("boom") end, 1, 2)
print("cb error", ok, (tostring(msg):gsub("^[^:]*:%d+: ", "")))
ok, msg = pcall(L.ft_apply, function() return "str" end, 1, 2)
print("cb bad result", ok, (tostring(msg):gsub("^[^:]*:%d+: ", "")))
print("apply after", L.ft_apply(function(x, y) return x + y end, 1, 2))
sub:free()

-- variadic
print("vsum", L.ft_vsum(3, ffi.new("int", 1), ffi.new("int", 2), ffi.new("int", 3)))
print("vdsum", L.ft_vdsum(3, 1.5, 2.25, ffi.new("float", 0.25)))

-- globals
print("globals", L.ft_counter, ffi.string(L.ft_greeting), L.ft_table[2])
L.ft_counter = 7
print("counter", L.ft_counter)
L.ft_table[0] = 99
print("table", L.ft_table[0])

-- enums, strings, NULL
print("enum", L.ft_next(L.RED), L.ft_next("GREEN"), L.BLUE, ffi.C.GREEN)
print("strptr", ffi.string(L.ft_strptr()))
local np = L.ft_null()
print("null", np == ffi.NULL, np == ffi.nullptr, L.ft_isnull(nil), L.ft_isnull(np), L.ft_isnull(a))
local rev = ffi.new("char[6]", "hello")
L.ft_strrev(rev)
print("strrev", ffi.string(rev))

-- nested anonymous members and function pointer fields
local n = ffi.new("struct Nested")
n.kind = 2; n.d = 2.5; n.range.lo = -1; n.range.hi = 9
n.cb = ffi.cast("binop", function(x, y) return x * 10 + y end)
ffi.copy(n.tag, "abc")
print("nested", n.kind, n.d, n.range.lo, n.range.hi, n.cb(4, 2), ffi.string(n.tag))
print("nested sizes", ffi.sizeof(n), ffi.offsetof("struct Nested", "d"),
      ffi.offsetof("struct Nested", "range"), ffi.offsetof("struct Nested", "tag"))

-- types
print(ffi.typeof("Point"), ffi.typeof("binop"), ffi.typeof("int *[3]"), ffi.typeof("double (*)[4]"))
print(ffi.sizeof("Rect"), ffi.alignof("Vec3"), ffi.sizeof("Num"), ffi.sizeof("int[?]", 10))
print(ffi.istype("Point", p), ffi.istype("Rect", p), ffi.istype("int", 5))

-- 64-bit arithmetic
local x = ffi.new("int64_t", 1) * 2^40
local y = ffi.new("uint64_t", 3)
print("i64", tostring(x), tostring(x + 1), tostring(-x), tostring(x / 3), tostring(x % 7))
print("u64", tostring(y - 4), tostring(y * y), tostring(y ^ 3), x > y, y < 4, x == x + 0)
print("tonumber", tonumber(x), tonumber(ffi.new("double", 0.5)), tonumber(ffi.new("char", 65)))

-- metatypes
local PointT = ffi.metatype("Point", {
  __index = { len2 = function(self) return self.x * self.x + self.y * self.y end },
  __add = function(a, b) return ffi.new("Point", a.x + b.x, a.y + b.y) end,
  __tostring = function(self) return "Point(" .. self.x .. "," .. self.y .. ")" end,
})
local q = PointT(3, 4)
print("metatype", q:len2(), tostring(q + q), tostring(L.ft_mkpoint(1, 2)))

-- finalizers
local collected = 0
do
  local c = ffi.gc(ffi.new("int[4]"), function(o) collected = collected + 1 end)
  c = nil
end
collectgarbage() collectgarbage()
print("gc", collected)
local keep = ffi.gc(ffi.new("int[1]"), function() collected = collected + 100 end)
ffi.gc(keep, nil)
keep = nil
collectgarbage() collectgarbage()
print("gc2", collected)
print("done")
