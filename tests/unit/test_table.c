/* test_table.c -- array/hash parts, resize, key normalisation, next, border. */
#include <check.h>
#include "checkmain.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "lua.h"
#include "lauxlib.h"
#include "state.h"
#include "table.h"
#include "string.h"
#include "vm.h"
#include "gc.h"

static lua_State *L;

static void setup(void) { L = luaL_newstate(); ck_assert_ptr_nonnull(L); }
static void teardown(void) { lua_close(L); L = NULL; }

/* new table anchored on the stack (non-moving collector: pointer stays) */
static Table *newtab(void) {
  Table *t = tab_new(L);
  lua_checkstack(L, 1);
  *L->top = v_ref(t); L->top++;
  return t;
}

static Value pushstr(const char *s) {
  TString *ts = str_newz(L, s);
  lua_checkstack(L, 1);
  *L->top = v_ref(ts); L->top++;
  return v_ref(ts);
}

static int present(const Value *p) { return !isabstkey(p) && !v_isnil(*p); }

START_TEST(test_array_part) {
  Table *t = newtab();
  int i;
  for (i = 1; i <= 100; i++) tab_setint(L, t, i, v_immint(i * 10));
  ck_assert_uint_ge(t->asize, 64);
  ck_assert_uint_le(t->asize, 128);
  for (i = 1; i <= 100; i++) ck_assert(v_getint(*tab_getint(t, i)) == i * 10);
  ck_assert(isabstkey(tab_getint(t, 0)) || v_isnil(*tab_getint(t, 0)));
  ck_assert(!present(tab_getint(t, 101)));
  ck_assert(!present(tab_getint(t, -1)));
  ck_assert_uint_eq(tab_getn(t), 100);
}
END_TEST

START_TEST(test_hash_part) {
  Table *t = newtab();
  int i;
  char buf[32];
  for (i = 0; i < 1000; i++) {
    Value k;
    snprintf(buf, sizeof buf, "k%d", i);
    k = pushstr(buf);
    tab_set(L, t, k, v_immint(i));
    L->top--;
  }
  ck_assert(!t->isdummy);
  for (i = 0; i < 1000; i++) {
    const Value *v;
    snprintf(buf, sizeof buf, "k%d", i);
    v = tab_getstr(t, str_newz(L, buf));
    ck_assert(present(v));
    ck_assert(v_getint(*v) == i);
  }
  ck_assert(isabstkey(tab_getstr(t, str_newz(L, "nope"))));
  /* overwrite and delete */
  for (i = 0; i < 1000; i += 2) {
    snprintf(buf, sizeof buf, "k%d", i);
    tab_set(L, t, v_ref(str_newz(L, buf)), MVM_NIL);
  }
  for (i = 0; i < 1000; i++) {
    snprintf(buf, sizeof buf, "k%d", i);
    ck_assert_int_eq(present(tab_getstr(t, str_newz(L, buf))), i % 2);
  }
  /* other key kinds */
  tab_set(L, t, MVM_TRUE, v_immint(1));
  tab_set(L, t, MVM_FALSE, v_immint(2));
  tab_set(L, t, v_lud(&i), v_immint(3));
  tab_set(L, t, v_float(0.5), v_immint(4));
  tab_set(L, t, v_ref(t), v_immint(5));
  ck_assert(v_getint(*tab_get(t, MVM_TRUE)) == 1);
  ck_assert(v_getint(*tab_get(t, MVM_FALSE)) == 2);
  ck_assert(v_getint(*tab_get(t, v_lud(&i))) == 3);
  ck_assert(v_getint(*tab_get(t, v_float(0.5))) == 4);
  ck_assert(v_getint(*tab_get(t, v_ref(t))) == 5);
  ck_assert(isabstkey(tab_get(t, MVM_NIL)));
  ck_assert(isabstkey(tab_get(t, v_float(NAN))));
}
END_TEST

START_TEST(test_key_normalisation) {
  Table *t = newtab();
  Value big;
  tab_set(L, t, v_float(1.0), v_immint(11));
  ck_assert(v_getint(*tab_getint(t, 1)) == 11);
  ck_assert(v_getint(*tab_get(t, v_immint(1))) == 11);
  tab_set(L, t, v_immint(2), v_immint(22));
  ck_assert(v_getint(*tab_get(t, v_float(2.0))) == 22);
  tab_set(L, t, v_float(-0.0), v_immint(33));
  ck_assert(v_getint(*tab_getint(t, 0)) == 33);
  /* floats with integral values beyond the immediate range -> (boxed) integers */
  tab_set(L, t, v_float(1125899906842624.0), v_immint(44));   /* 2^50 */
  big = vm_int(L, 1125899906842624LL);
  ck_assert(v_isbigint(big));
  ck_assert(v_getint(*tab_get(t, big)) == 44);
  ck_assert(v_getint(*tab_getint(t, 1125899906842624LL)) == 44);
  {
    Value k = MVM_NIL, v;
    int found = 0;
    while (tab_next(L, t, &k, &v))
      if (v_isinteger(k) && v_getint(k) == 1125899906842624LL) found = 1;
    ck_assert(found);
  }
  /* boxed integer keys hash and compare by value */
  lua_checkstack(L, 2);
  *L->top++ = vm_int(L, INT64_MIN);
  tab_set(L, t, L->top[-1], v_immint(55));
  *L->top++ = vm_int(L, INT64_MIN);
  ck_assert(L->top[-1] != L->top[-2]);
  ck_assert(v_getint(*tab_get(t, L->top[-1])) == 55);
  ck_assert(v_getint(*tab_getint(t, INT64_MIN)) == 55);
  tab_setint(L, t, INT64_MAX, v_immint(66));
  ck_assert(v_getint(*tab_get(t, vm_int(L, INT64_MAX))) == 66);
  /* 1.5 is its own key */
  tab_set(L, t, v_float(1.5), v_immint(77));
  ck_assert(v_getint(*tab_getint(t, 1)) == 11);
  ck_assert(v_getint(*tab_get(t, v_float(1.5))) == 77);
}
END_TEST

static int set_nan(lua_State *L1) {
  Table *t = tab_new(L1);
  *L1->top = v_ref(t); L1->top++;
  tab_set(L1, t, v_float(NAN), MVM_TRUE);
  return 0;
}
static int set_nil(lua_State *L1) {
  Table *t = tab_new(L1);
  *L1->top = v_ref(t); L1->top++;
  tab_set(L1, t, MVM_NIL, MVM_TRUE);
  return 0;
}
static int next_bad(lua_State *L1) {
  Table *t = tab_new(L1);
  Value k = v_immint(12345), v;
  *L1->top = v_ref(t); L1->top++;
  tab_setint(L1, t, 1, MVM_TRUE);
  tab_next(L1, t, &k, &v);
  return 0;
}
/* next(t, 1.0) with t[1] present: lua5.4 looks the key up by its type */
static int next_floatint(lua_State *L1) {
  Table *t = tab_new(L1);
  Value k = v_float(1.0), v;
  *L1->top = v_ref(t); L1->top++;
  tab_setint(L1, t, 1, MVM_TRUE);
  tab_setint(L1, t, 2, MVM_TRUE);
  tab_next(L1, t, &k, &v);
  return 0;
}

START_TEST(test_key_errors) {
  lua_pushcfunction(L, set_nan);
  ck_assert_int_eq(lua_pcall(L, 0, 0, 0), LUA_ERRRUN);
  ck_assert(strstr(lua_tostring(L, -1), "index is NaN") != NULL);
  lua_pop(L, 1);
  lua_pushcfunction(L, set_nil);
  ck_assert_int_eq(lua_pcall(L, 0, 0, 0), LUA_ERRRUN);
  ck_assert(strstr(lua_tostring(L, -1), "index is nil") != NULL);
  lua_pop(L, 1);
  lua_pushcfunction(L, next_bad);
  ck_assert_int_eq(lua_pcall(L, 0, 0, 0), LUA_ERRRUN);
  ck_assert(strstr(lua_tostring(L, -1), "invalid key to 'next'") != NULL);
  lua_pop(L, 1);
  lua_pushcfunction(L, next_floatint);
  ck_assert_int_eq(lua_pcall(L, 0, 0, 0), LUA_ERRRUN);
  ck_assert(strstr(lua_tostring(L, -1), "invalid key to 'next'") != NULL);
  lua_pop(L, 1);
}
END_TEST

START_TEST(test_next) {
  Table *t = newtab();
  Value k, v;
  int i, count = 0, sum = 0;
  char buf[32];
  for (i = 1; i <= 50; i++) tab_setint(L, t, i, v_immint(i));
  for (i = 0; i < 50; i++) {
    snprintf(buf, sizeof buf, "s%d", i);
    tab_set(L, t, pushstr(buf), v_immint(1000));
    L->top--;
  }
  tab_set(L, t, v_float(2.5), v_immint(1));
  k = MVM_NIL;
  while (tab_next(L, t, &k, &v)) { count++; sum += (int)v_getint(v); }
  ck_assert_int_eq(count, 101);
  ck_assert_int_eq(sum, 50 * 51 / 2 + 50 * 1000 + 1);
  /* clearing fields during traversal is allowed */
  k = MVM_NIL; count = 0;
  while (tab_next(L, t, &k, &v)) {
    count++;
    tab_set(L, t, k, MVM_NIL);
  }
  ck_assert_int_eq(count, 101);
  k = MVM_NIL;
  ck_assert_int_eq(tab_next(L, t, &k, &v), 0);
  /* array order first */
  t = newtab();
  tab_setint(L, t, 1, MVM_TRUE);
  tab_setint(L, t, 2, MVM_TRUE);
  k = MVM_NIL;
  ck_assert(tab_next(L, t, &k, &v) && v_getint(k) == 1);
  ck_assert(tab_next(L, t, &k, &v) && v_getint(k) == 2);
  ck_assert(!tab_next(L, t, &k, &v));
  /* (a float key equal to an integer is an invalid key, as in lua5.4:
  ** test_key_errors, next_floatkey) */
}
END_TEST

START_TEST(test_border) {
  Table *t = newtab();
  int i;
  ck_assert_uint_eq(tab_getn(t), 0);
  for (i = 1; i <= 10; i++) tab_setint(L, t, i, MVM_TRUE);
  ck_assert_uint_eq(tab_getn(t), 10);
  tab_setint(L, t, 10, MVM_NIL);
  ck_assert_uint_eq(tab_getn(t), 9);
  for (i = 9; i >= 1; i--) tab_setint(L, t, i, MVM_NIL);
  ck_assert_uint_eq(tab_getn(t), 0);
  /* keys inserted in reverse order land in the hash part */
  t = newtab();
  for (i = 100; i >= 1; i--) tab_setint(L, t, i, MVM_TRUE);
  ck_assert_uint_eq(tab_getn(t), 100);
  /* a border with holes: any border is fine, it must be one */
  t = newtab();
  tab_resize(L, t, 16, 0);
  for (i = 1; i <= 16; i++) if (i != 8) tab_setint(L, t, i, MVM_TRUE);
  {
    lua_Unsigned n = tab_getn(t);
    ck_assert(n == 7 || n == 16);
    ck_assert(n == 0 || present(tab_getint(t, (int64_t)n)));
    ck_assert(!present(tab_getint(t, (int64_t)n + 1)));
  }
  /* array full, continuing in the hash part */
  t = newtab();
  tab_resize(L, t, 4, 0);
  for (i = 1; i <= 4; i++) tab_setint(L, t, i, MVM_TRUE);
  tab_resize(L, t, 4, 8);
  for (i = 5; i <= 9; i++) tab_setint(L, t, i, MVM_TRUE);
  ck_assert_uint_eq(tab_getn(t), 9);
}
END_TEST

START_TEST(test_resize) {
  Table *t = newtab();
  int i, round;
  for (round = 0; round < 3; round++) {
    for (i = 1; i <= 5000; i++) tab_setint(L, t, i * 3, v_immint(i));
    for (i = 1; i <= 5000; i++) ck_assert(v_getint(*tab_getint(t, i * 3)) == i);
    for (i = 1; i <= 5000; i += 2) tab_setint(L, t, i * 3, MVM_NIL);
    for (i = 1; i <= 5000; i++) ck_assert_int_eq(present(tab_getint(t, i * 3)), i % 2 == 0);
  }
  /* shrinking the array moves its entries to the hash part */
  t = newtab();
  for (i = 1; i <= 64; i++) tab_setint(L, t, i, v_immint(i));
  ck_assert_uint_ge(t->asize, 64);
  tab_resize(L, t, 8, 64);
  ck_assert_uint_eq(t->asize, 8);
  for (i = 1; i <= 64; i++) ck_assert(v_getint(*tab_getint(t, i)) == i);
  tab_resizearray(L, t, 128);
  for (i = 1; i <= 64; i++) ck_assert(v_getint(*tab_getint(t, i)) == i);
  ck_assert_uint_ge(tab_sizeof(t), sizeof(Table) + 128 * sizeof(Value));
}
END_TEST

START_TEST(test_cache_invalidation) {
  Table *t = newtab();
  Value k = pushstr("__index");
  const Value *slot;
  t->extra = 0x3F;
  tab_set(L, t, k, MVM_TRUE);
  ck_assert_int_eq(t->extra, 0);
  t->extra = 0x3F;
  tab_setint(L, t, 1, MVM_TRUE);
  ck_assert_int_eq(t->extra, 0);
  slot = tab_get(t, k);
  t->extra = 0x3F;
  tab_setslot(L, t, slot, MVM_FALSE);
  ck_assert_int_eq(t->extra, 0);
  ck_assert(*tab_get(t, k) == MVM_FALSE);
}
END_TEST

START_TEST(test_object_keys_identity) {
  /* many table keys: identity hashes spread them (no pathological chains) */
  Table *t = newtab();
  int i;
  lua_checkstack(L, 2);
  lua_newtable(L);    /* keep the keys alive in an array */
  for (i = 1; i <= 2000; i++) {
    Table *k = tab_new(L);
    Table *holder = v_tab(L->top[-1]);
    tab_setint(L, holder, i, v_ref(k));
    tab_set(L, t, v_ref(k), v_immint(i));
  }
  for (i = 1; i <= 2000; i++) {
    Value k = *tab_getint(v_tab(L->top[-1]), i);
    ck_assert(v_getint(*tab_get(t, k)) == i);
  }
}
END_TEST

int main(void) {
  Suite *s = suite_create("table");
  TCase *tc = tcase_create("tables");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_array_part);
  tcase_add_test(tc, test_hash_part);
  tcase_add_test(tc, test_key_normalisation);
  tcase_add_test(tc, test_key_errors);
  tcase_add_test(tc, test_next);
  tcase_add_test(tc, test_border);
  tcase_add_test(tc, test_resize);
  tcase_add_test(tc, test_cache_invalidation);
  tcase_add_test(tc, test_object_keys_identity);
  suite_add_tcase(s, tc);
  return unit_run_suite(s);
}
