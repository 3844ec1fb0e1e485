/*
** ffitest.c -- a shared library exercised by tests/lua/ffi_lib.lua through
** the ffi module: every scalar type, structs by value and by pointer,
** unions, bit fields, arrays, callbacks, variadic functions and globals.
*/
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

EXPORT int8_t   ft_i8(int8_t x)     { return (int8_t)(x + 1); }
EXPORT uint8_t  ft_u8(uint8_t x)    { return (uint8_t)(x + 1); }
EXPORT int16_t  ft_i16(int16_t x)   { return (int16_t)(x + 1); }
EXPORT uint16_t ft_u16(uint16_t x)  { return (uint16_t)(x + 1); }
EXPORT int32_t  ft_i32(int32_t x)   { return x + 1; }
EXPORT uint32_t ft_u32(uint32_t x)  { return x + 1; }
EXPORT int64_t  ft_i64(int64_t x)   { return x + 1; }
EXPORT uint64_t ft_u64(uint64_t x)  { return x + 1; }
EXPORT float    ft_float(float x)   { return x * 2; }
EXPORT double   ft_double(double x) { return x * 2; }
EXPORT bool     ft_not(bool b)      { return !b; }
EXPORT char     ft_upper(char c)    { return (char)(c >= 'a' && c <= 'z' ? c - 32 : c); }
EXPORT long     ft_long(long a, long b) { return a * b; }
EXPORT unsigned long long ft_ull(unsigned long long a) { return a * 3; }
EXPORT size_t   ft_size(size_t n)   { return n * 2; }

/* many mixed arguments: more than the argument registers */
EXPORT double ft_mixed(int a, double b, int64_t c, float d, char e, short f,
                       double g, int h, double i, long j) {
  return a + b + (double)c + d + e + f + g + h + i + (double)j;
}

typedef struct Point { int x, y; } Point;
typedef struct Rect { Point a, b; const char *name; } Rect;
typedef struct Vec3 { double x, y, z; } Vec3;
typedef struct Small { char c; short s; } Small;

EXPORT int ft_area(const Rect *r) { return (r->b.x - r->a.x) * (r->b.y - r->a.y); }
EXPORT Point ft_mkpoint(int x, int y) { Point p = {x, y}; return p; }
EXPORT int ft_psum(Point p) { return p.x + p.y; }
EXPORT Vec3 ft_vscale(Vec3 v, double k) { Vec3 r = {v.x * k, v.y * k, v.z * k}; return r; }
EXPORT Small ft_small(char c, short s) { Small r = {c, s}; return r; }
EXPORT void ft_fillrect(Rect *r, int w, int h) {
  r->a.x = 1; r->a.y = 2; r->b.x = 1 + w; r->b.y = 2 + h; r->name = "filled";
}

typedef union Num { int32_t i; float f; uint8_t b[4]; } Num;
EXPORT uint32_t ft_bits(Num n) { return (uint32_t)n.i; }

typedef struct Flags {
  unsigned a : 1;
  unsigned b : 3;
  int c : 4;
  unsigned : 0;
  unsigned d : 7;
} Flags;
EXPORT unsigned ft_flags(const Flags *f) { return f->a + f->b * 10 + (unsigned)(f->c * 100) + f->d * 1000; }
EXPORT void ft_setflags(Flags *f) { f->a = 1; f->b = 5; f->c = -3; f->d = 99; }

EXPORT int64_t ft_sum(const int *a, int n) {
  int64_t s = 0;
  for (int i = 0; i < n; i++) s += a[i];
  return s;
}

/* callbacks */
typedef int (*binop)(int, int);
EXPORT int ft_apply(binop f, int a, int b) { return f(a, b); }
EXPORT double ft_integrate(double (*f)(double), double a, double b, int n) {
  double h = (b - a) / n, s = 0;
  for (int i = 0; i < n; i++) s += f(a + (i + 0.5) * h) * h;
  return s;
}
EXPORT int ft_each(int (*f)(int), int n) {   /* stops at the first nonzero */
  for (int i = 0; i < n; i++) if (f(i)) return i;
  return -1;
}
EXPORT int ft_ptcb(int (*f)(Point *), int x) { Point p = {x, x * 2}; return f(&p); }

static binop saved;
EXPORT void ft_save(binop f) { saved = f; }
EXPORT int ft_call_saved(int a, int b) { return saved ? saved(a, b) : -1; }

/* variadic */
EXPORT int ft_vsum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  int s = 0;
  for (int i = 0; i < n; i++) s += va_arg(ap, int);
  va_end(ap);
  return s;
}
EXPORT double ft_vdsum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double s = 0;
  for (int i = 0; i < n; i++) s += va_arg(ap, double);
  va_end(ap);
  return s;
}

/* globals */
EXPORT int ft_counter = 42;
EXPORT const char *ft_greeting = "hello from C";
EXPORT int ft_table[4] = {10, 20, 30, 40};

enum Color { RED, GREEN = 5, BLUE };
EXPORT enum Color ft_next(enum Color c) { return c == RED ? GREEN : BLUE; }

EXPORT const char *ft_strptr(void) { return "static string"; }
EXPORT void *ft_null(void) { return NULL; }
EXPORT int ft_isnull(const void *p) { return p == NULL; }
EXPORT void ft_strrev(char *s) {
  size_t n = strlen(s);
  for (size_t i = 0; i < n / 2; i++) { char t = s[i]; s[i] = s[n - 1 - i]; s[n - 1 - i] = t; }
}

/* direct calls (stdlib/ffi_call.c): integer-class and floating-point
** arguments take their registers in order within each class; the weights
** show that every argument arrived in its place */
EXPORT int64_t ft_i6(int8_t a, uint8_t b, int16_t c, uint16_t d, int32_t e, uint32_t f) {
  return a + 10 * b + 100 * (int64_t)c + 1000 * (int64_t)d + 100000 * (int64_t)e + 10000000 * (int64_t)f;
}
EXPORT int64_t ft_i7(int a, int b, int c, int d, int e, int f, int g) {   /* 7 integers: stack on x86-64 */
  return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g;
}
EXPORT double ft_d8(double a, double b, double c, double d, double e, double f, double g, double h) {
  return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h;
}
EXPORT double ft_d9(double a, double b, double c, double d, double e, double f, double g, double h,
                    double i) {
  return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h + 9 * i;
}
EXPORT double ft_interleave(float a, int64_t b, double c, int8_t d, float e, uint16_t f) {
  return a + 10.0 * b + 100 * c + 1000.0 * d + 10000 * e + 100000.0 * f;
}
EXPORT float ft_fmix(float a, int b, float c) { return a * b - c; }
EXPORT bool ft_isneg(int64_t x) { return x < 0; }
EXPORT uint32_t ft_u32max(void) { return 0xFFFFFFFFu; }
EXPORT int32_t ft_m1(void) { return -1; }
EXPORT uint16_t ft_u16of(int32_t x) { return (uint16_t)x; }
EXPORT const char *ft_skip(const char *s, size_t n) { return s + n; }
EXPORT int ft_seterrno(int e) { errno = e; return -1; }
EXPORT int ft_geterrno(void) { return errno; }
EXPORT void ft_store(int *out, int v) { *out = v; }
EXPORT int ft_nested(int (*f)(int), int x) { return f(x) * 2; }
