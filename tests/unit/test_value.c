/* test_value.c -- the one-word value encoding (vm/value.h, vm/object.h). */
#include <check.h>
#include "checkmain.h"
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lua.h"
#include "lauxlib.h"
#include "object.h"
#include "state.h"
#include "vm.h"

static uint64_t bitsof(double d) { uint64_t b; memcpy(&b, &d, sizeof b); return b; }

static void check_nonref_kind(Value v) {
  ck_assert(!v_isref(v));
}

START_TEST(test_constants) {
  ck_assert(v_isnil(MVM_NIL));
  ck_assert(v_isfalse(MVM_FALSE));
  ck_assert(v_isbool(MVM_TRUE) && v_isbool(MVM_FALSE) && !v_isbool(MVM_NIL));
  ck_assert(v_isfalsy(MVM_NIL) && v_isfalsy(MVM_FALSE) && !v_isfalsy(MVM_TRUE));
  ck_assert_int_eq(v_type(MVM_NIL), LUA_TNIL);
  ck_assert_int_eq(v_type(MVM_TRUE), LUA_TBOOLEAN);
  ck_assert_int_eq(v_type(v_bool(0)), LUA_TBOOLEAN);
  ck_assert(v_bool(1) == MVM_TRUE && v_bool(0) == MVM_FALSE);
  check_nonref_kind(MVM_NIL); check_nonref_kind(MVM_FALSE);
  check_nonref_kind(MVM_TRUE); check_nonref_kind(MVM_ABSTKEY);
  check_nonref_kind((Value)0);
  ck_assert(!v_isfloat(MVM_NIL) && !v_isimmint(MVM_NIL));
  ck_assert(!v_isfloat(MVM_ABSTKEY) && !v_isimmint(MVM_ABSTKEY));
}
END_TEST

static void roundtrip_float(double d) {
  Value v = v_float(d);
  ck_assert(v_isfloat(v));
  ck_assert(!v_isref(v) && !v_isimmint(v) && !v_islud(v) && !v_islcf(v) && !v_isnil(v) && !v_isbool(v));
  ck_assert_int_eq(v_type(v), LUA_TNUMBER);
  if (d != d) ck_assert(isnan(v_getfloat(v)));
  else ck_assert(bitsof(v_getfloat(v)) == bitsof(d));   /* exact, incl. -0.0 */
}

START_TEST(test_floats) {
  double specials[] = { 0.0, -0.0, 1.0, -1.0, 0.5, 1e308, -1e308, DBL_MAX, -DBL_MAX,
                        DBL_MIN, -DBL_MIN, 4.9e-324, -4.9e-324, HUGE_VAL, -HUGE_VAL,
                        9007199254740993.0, 3.14159, 1e-300 };
  size_t i;
  for (i = 0; i < sizeof specials / sizeof specials[0]; i++) roundtrip_float(specials[i]);
  roundtrip_float(NAN);
  roundtrip_float(-NAN);
  { /* NaNs with arbitrary payloads are canonicalised, never tags */
    uint64_t b = 0xFFFFFFFFFFFFFFFFULL; double d; memcpy(&d, &b, sizeof d);
    roundtrip_float(d);
    b = 0x7FF0000000000001ULL; memcpy(&d, &b, sizeof d);
    roundtrip_float(d);
  }
  ck_assert(signbit(v_getfloat(v_float(-0.0))));
  ck_assert(isinf(v_getfloat(v_float(HUGE_VAL))));
}
END_TEST

START_TEST(test_random_floats) {
  uint64_t x = 0x123456789ABCDEFULL;
  int i;
  for (i = 0; i < 200000; i++) {
    double d;
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;   /* xorshift */
    memcpy(&d, &x, sizeof d);
    roundtrip_float(d);
  }
}
END_TEST

static void roundtrip_int(int64_t n) {
  Value v;
  ck_assert(v_fitsimm(n));
  v = v_immint(n);
  ck_assert(v_isimmint(v) && v_isinteger(v) && v_isnumber(v));
  ck_assert(!v_isref(v) && !v_isfloat(v) && !v_islud(v) && !v_islcf(v));
  ck_assert(v_getimmint(v) == n);
  ck_assert(v_getint(v) == n);
  ck_assert_int_eq(v_type(v), LUA_TNUMBER);
}

START_TEST(test_ints) {
  int64_t k;
  roundtrip_int(0); roundtrip_int(1); roundtrip_int(-1);
  roundtrip_int(MVM_IMM_MAX); roundtrip_int(MVM_IMM_MIN);
  roundtrip_int(MVM_IMM_MAX - 1); roundtrip_int(MVM_IMM_MIN + 1);
  ck_assert(MVM_IMM_MAX == (1LL << 47) - 1);
  ck_assert(MVM_IMM_MIN == -(1LL << 47));
  ck_assert(!v_fitsimm(MVM_IMM_MAX + 1));
  ck_assert(!v_fitsimm(MVM_IMM_MIN - 1));
  ck_assert(!v_fitsimm(INT64_MAX) && !v_fitsimm(INT64_MIN));
  for (k = -100000; k <= 100000; k += 7) roundtrip_int(k);
  for (k = 1; k < (1LL << 47); k <<= 1) { roundtrip_int(k); roundtrip_int(-k); roundtrip_int(k - 1); }
}
END_TEST

static int dummyf(lua_State *L) { (void)L; return 0; }

START_TEST(test_light) {
  int x;
  Value v = v_lud(&x);
  ck_assert(v_islud(v) && !v_isref(v) && !v_isfloat(v) && !v_isimmint(v));
  ck_assert_ptr_eq(v_getlud(v), &x);
  ck_assert_int_eq(v_type(v), LUA_TLIGHTUSERDATA);
  v = v_lud(NULL);
  ck_assert(v_islud(v) && !v_isref(v));
  ck_assert_ptr_eq(v_getlud(v), NULL);
  v = (v_lcf)((void (*)(void))dummyf);   /* the constructor, not the decoder macro */
  ck_assert(v_islcf(v) && !v_isref(v) && v_isfunction(v));
  ck_assert_ptr_eq((void *)v_lcf(v), (void *)dummyf);
  ck_assert_int_eq(v_type(v), LUA_TFUNCTION);
}
END_TEST

START_TEST(test_refs) {
  static uint64_t block[4];   /* 8-aligned */
  GCObject *o = (GCObject *)block;
  Value v = v_ref(o);
  o->tt = MVM_TTABLE;
  ck_assert(v_isref(v));
  ck_assert_ptr_eq(v_gc(v), o);
  ck_assert(!v_isfloat(v) && !v_isimmint(v) && !v_isnil(v));
  ck_assert_int_eq(v_type(v), LUA_TTABLE);
  ck_assert(v_istable(v));
  /* unaligned or tagged words are never references */
  ck_assert(!v_isref(v | 1) && !v_isref(v | 4));
  ck_assert(!v_isref(v_immint(8)) && !v_isref(v_float(8.0)));
}
END_TEST

START_TEST(test_rawequal) {
  ck_assert(v_rawequal(v_immint(1), v_float(1.0)));
  ck_assert(v_rawequal(v_float(1.0), v_immint(1)));
  ck_assert(!v_rawequal(v_immint(1), v_float(1.5)));
  ck_assert(v_rawequal(v_float(0.0), v_float(-0.0)));
  ck_assert(!v_rawequal(MVM_NIL, MVM_FALSE));
  ck_assert(!v_rawequal(v_immint(0), MVM_FALSE));
}
END_TEST

START_TEST(test_boxed) {
  lua_State *L = luaL_newstate();
  Value a, b, c;
  ck_assert_ptr_nonnull(L);
  a = vm_int(L, MVM_IMM_MAX);
  ck_assert(v_isimmint(a));
  a = vm_int(L, MVM_IMM_MIN);
  ck_assert(v_isimmint(a));
  lua_checkstack(L, 4);
  a = vm_int(L, MVM_IMM_MAX + 1);
  *L->top++ = a;
  b = vm_int(L, MVM_IMM_MAX + 1);
  *L->top++ = b;
  c = vm_int(L, INT64_MIN);
  *L->top++ = c;
  a = L->top[-3]; b = L->top[-2]; c = L->top[-1];
  ck_assert(v_isbigint(a) && v_isref(a) && v_isinteger(a) && v_isnumber(a));
  ck_assert(!v_isimmint(a) && !v_isfloat(a));
  ck_assert_int_eq(v_type(a), LUA_TNUMBER);
  ck_assert(v_getint(a) == MVM_IMM_MAX + 1);
  ck_assert(v_getint(c) == INT64_MIN);
  ck_assert(a != b);                    /* two boxes ... */
  ck_assert(v_rawequal(a, b));          /* ... equal by payload */
  ck_assert(!v_rawequal(a, c));
  ck_assert(v_rawequal(a, v_float((double)(MVM_IMM_MAX + 1))));
  L->top -= 3;
  lua_close(L);
}
END_TEST

int main(void) {
  Suite *s = suite_create("value");
  TCase *tc = tcase_create("encoding");
  tcase_add_test(tc, test_constants);
  tcase_add_test(tc, test_floats);
  tcase_add_test(tc, test_random_floats);
  tcase_add_test(tc, test_ints);
  tcase_add_test(tc, test_light);
  tcase_add_test(tc, test_refs);
  tcase_add_test(tc, test_rawequal);
  tcase_add_test(tc, test_boxed);
  suite_add_tcase(s, tc);
  return unit_run_suite(s);
}
