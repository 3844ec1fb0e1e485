-- mvm-test: no-differential (ffi: expected output written by hand, checked against luajit)
local ffi = require("ffi")

ffi.cdef[[
typedef unsigned long size_t;
size_t strlen(const char *s);
int snprintf(char *buf, size_t n, const char *fmt, ...);
void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
void *memcpy(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);
char *strcpy(char *dst, const char *src);
double sqrt(double x);
int abs(int x);
long strtol(const char *s, char **end, int base);
struct timeval { long tv_sec; long tv_usec; };
int gettimeofday(struct timeval *tv, void *tz);
int *__errno_location(void);
int close(int fd);
]]

local C = ffi.C

-- strlen: size_t comes back as a 64-bit cdata
local n = C.strlen("hello, world")
print("strlen", tostring(n), tonumber(n) == 12, ffi.istype("size_t", n))

-- snprintf: variadic (a string, a Lua integer as int64, a double)
local buf = ffi.new("char[64]")
local len = C.snprintf(buf, 64, "%s|%d|%.2f|%c", "abc", 42, 3.14159, 65)
print("snprintf", len, ffi.string(buf))
len = C.snprintf(buf, ffi.sizeof(buf), "%5.1f%%", ffi.new("double", 99.44))
print("snprintf2", len, ffi.string(buf))
len = C.snprintf(buf, 64, "%lld %u", ffi.new("int64_t", -7), ffi.new("unsigned int", 7))
print("snprintf3", ffi.string(buf, len))

-- qsort with a Lua comparator (a callback created for the call)
local arr = ffi.new("int[10]", {5, 3, 9, 1, 7, 2, 8, 6, 4, 0})
local calls = 0
C.qsort(arr, 10, ffi.sizeof("int"), function(a, b)
  calls = calls + 1
  local x = ffi.cast("const int *", a)[0]
  local y = ffi.cast("const int *", b)[0]
  return x < y and -1 or (x > y and 1 or 0)
end)
local t = {}
for i = 0, 9 do t[#t + 1] = tostring(arr[i]) end
print("qsort", table.concat(t, " "), calls > 0)

-- a permanent callback made by ffi.cast, used twice, then freed
local desc = ffi.cast("int (*)(const void *, const void *)", function(a, b)
  return ffi.cast("const int *", b)[0] - ffi.cast("const int *", a)[0]
end)
C.qsort(arr, 10, 4, desc)
print("qsort desc", arr[0], arr[9])
local strs = ffi.new("int[3]", 2, 1, 3)   -- several initializers
C.qsort(strs, 3, 4, desc)
print("qsort desc2", strs[0], strs[1], strs[2])
desc:free()

-- gettimeofday with a struct
local tv = ffi.new("struct timeval")
print("gettimeofday", C.gettimeofday(tv, nil), tv.tv_sec > 1000000000, tonumber(tv.tv_usec) < 1000000)
print("timeval size", ffi.sizeof(tv), ffi.sizeof("struct timeval"), ffi.offsetof("struct timeval", "tv_usec"))

-- memcpy/memcmp on arrays
local src = ffi.new("double[4]", {1.5, 2.5, 3.5, 4.5})
local dst = ffi.new("double[4]")
C.memcpy(dst, src, ffi.sizeof(src))
print("memcpy", dst[0], dst[3], C.memcmp(dst, src, 32))
dst[2] = 0
print("memcmp", C.memcmp(dst, src, 32) < 0)

-- ffi.string, ffi.copy, ffi.fill
local cb = ffi.new("char[16]")
ffi.copy(cb, "mvm ffi")
print("string", ffi.string(cb), ffi.string(cb, 3), #ffi.string(cb, 9))
ffi.fill(cb, 3, 65)
print("fill", ffi.string(cb))
ffi.copy(cb + 1, "xyz", 2)
print("copy", ffi.string(cb))
C.strcpy(cb, "copied")
print("strcpy", ffi.string(cb))

-- math functions and out parameters
print("sqrt", C.sqrt(2) == math.sqrt(2), C.abs(-5))
local endp = ffi.new("char *[1]")
local s = "123xyz"
local v = C.strtol(s, endp, 10)
print("strtol", tostring(v), ffi.string(endp[0]))

-- errno
print("close", C.close(-1), ffi.errno())

-- errors: bad declarations name the offending token
local function perr(f, ...)
  local ok, msg = pcall(f, ...)
  msg = tostring(msg):gsub("^[^:]*:%d+: ", "")
  print(ok, msg)
end
perr(ffi.cdef, "int x y;")
perr(ffi.cdef, "foo bar;")
perr(ffi.cdef, "int f(;")
perr(ffi.cdef, "struct { int a; } }")
perr(ffi.cdef, "int a[3;")
perr(ffi.typeof, "struct nosuch")
perr(ffi.typeof, "int int")
-- unknown symbols
perr(function() return C.no_such_function end)
ffi.cdef("int mvm_ffi_not_defined_anywhere(int);")
perr(function() return C.mvm_ffi_not_defined_anywhere end)
perr(ffi.load, "mvm_no_such_library")
-- wrong argument types and counts, caught before the call
perr(C.strlen, 42)
perr(C.strlen)
perr(C.strlen, "a", "b")
perr(C.abs, "x")
perr(C.memcpy, dst, {}, 4)
perr(C.qsort, ffi.new("int[2]"), 2, 4, 5)
perr(function() return ffi.new("int *")[0] end)
perr(function() local p = ffi.new("struct timeval"); return p.nope end)
perr(function() local p = ffi.new("struct timeval"); p.tv_sec = "x" end)
perr(ffi.new, "int[?]")
print("done")
