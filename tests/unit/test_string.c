/* test_string.c -- interned strings, hashing, long strings, pushfstring. */
#include <check.h>
#include "checkmain.h"
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "lua.h"
#include "lauxlib.h"
#include "state.h"
#include "string.h"
#include "gc.h"
#include "vm.h"
#include <math.h>

static lua_State *L;

static void setup(void) { L = luaL_newstate(); ck_assert_ptr_nonnull(L); }
static void teardown(void) { lua_close(L); L = NULL; }

/* anchor a string on the stack */
static TString *pushts(TString *ts) {
  lua_checkstack(L, 1);
  *L->top = v_ref(ts);
  L->top++;
  return ts;
}

START_TEST(test_interning) {
  TString *a = pushts(str_newz(L, "hello"));
  TString *b = pushts(str_new(L, "hello world", 5));
  TString *c = pushts(str_newz(L, "hellp"));
  char buf[16];
  strcpy(buf, "hel"); strcat(buf, "lo");
  ck_assert_ptr_eq(a, b);
  ck_assert_ptr_eq(a, str_newz(L, buf));
  ck_assert_ptr_ne(a, c);
  ck_assert(eqstr(a, b));
  ck_assert_uint_eq(a->len, 5);
  ck_assert_str_eq(getstr(a), "hello");
  ck_assert_int_eq(getstr(a)[5], '\0');
  ck_assert_int_eq(a->tt, MVM_TSTRING);
  /* the API returns the same interned data */
  ck_assert_ptr_eq(lua_pushstring(L, "hello"), getstr(a));
  /* empty string and embedded zeros */
  {
    TString *e = pushts(str_new(L, "", 0));
    TString *z1 = pushts(str_new(L, "a\0b", 3));
    TString *z2 = pushts(str_new(L, "a\0c", 3));
    ck_assert_uint_eq(e->len, 0);
    ck_assert_ptr_eq(e, str_new(L, "x", 0));
    ck_assert_ptr_ne(z1, z2);
    ck_assert_ptr_eq(z1, str_new(L, "a\0b", 3));
    ck_assert_ptr_ne(z1, str_new(L, "a", 1));
  }
}
END_TEST

START_TEST(test_hash) {
  const char *s = "the quick brown fox jumps over the lazy dog";
  uint32_t h1 = str_hash(s, strlen(s), 1234), h2 = str_hash(s, strlen(s), 1234);
  TString *ts = pushts(str_newz(L, s));
  size_t i;
  int distinct = 0;
  ck_assert_uint_eq(h1, h2);
  ck_assert_uint_eq(ts->hash, str_hash(s, strlen(s), G(L)->seed));
  /* the seed matters, and every byte matters (whole content hashed) */
  ck_assert_uint_ne(str_hash(s, strlen(s), 1), str_hash(s, strlen(s), 2));
  for (i = 0; i < strlen(s); i++) {
    char buf[64];
    strcpy(buf, s);
    buf[i] ^= 1;
    if (str_hash(buf, strlen(buf), 1234) != h1) distinct++;
  }
  ck_assert_int_eq(distinct, (int)strlen(s));
  /* long strings: a change at the very end changes the hash */
  {
    size_t n = 100000;
    char *big = malloc(n);
    uint32_t hb;
    memset(big, 'x', n);
    hb = str_hash(big, n, 7);
    big[n - 1] = 'y';
    ck_assert_uint_ne(hb, str_hash(big, n, 7));
    free(big);
  }
}
END_TEST

START_TEST(test_long) {
  size_t n = 1 << 20;
  char *big = malloc(n + 1);
  TString *a, *b;
  memset(big, 'q', n);
  big[n] = '\0';
  a = pushts(str_new(L, big, n));
  b = pushts(str_new(L, big, n));
  ck_assert_ptr_eq(a, b);
  ck_assert_uint_eq(a->len, n);
  ck_assert_int_eq(memcmp(getstr(a), big, n), 0);
  ck_assert_int_eq(getstr(a)[n], '\0');
  big[n / 2] = 'r';
  ck_assert_ptr_ne(a, str_new(L, big, n));
  free(big);
}
END_TEST

START_TEST(test_table_grows_and_shrinks) {
  int i, top = lua_gettop(L);
  int size0 = G(L)->strt.size;
  int nuse0 = G(L)->strt.nuse;
  lua_checkstack(L, 20);
  lua_newtable(L);
  for (i = 0; i < 20000; i++) {
    char buf[32];
    snprintf(buf, sizeof buf, "key%d", i);
    lua_pushstring(L, buf);
    lua_rawseti(L, -2, i + 1);
  }
  ck_assert_int_ge(G(L)->strt.nuse, nuse0 + 20000);
  ck_assert_int_gt(G(L)->strt.size, size0);
  ck_assert_int_eq(G(L)->strt.size & (G(L)->strt.size - 1), 0);   /* power of two */
  /* all still found */
  for (i = 0; i < 20000; i += 997) {
    char buf[32];
    snprintf(buf, sizeof buf, "key%d", i);
    lua_rawgeti(L, -1, i + 1);
    ck_assert_str_eq(lua_tostring(L, -1), buf);
    ck_assert_ptr_eq(lua_tostring(L, -1), getstr(str_newz(L, buf)));
    lua_pop(L, 1);
  }
  lua_settop(L, top);
  gc_fullgc(L, 0);
  /* dead strings left the (weak) intern table, which shrank */
  ck_assert_int_lt(G(L)->strt.nuse, nuse0 + 1000);
  ck_assert_int_lt(G(L)->strt.size, 20000);
}
END_TEST

/* Removal from the open-addressing table shifts the rest of a probe run
** back: every third string dies, and every survivor must still be the
** one a lookup of its content finds (not a fresh copy), with a table
** small enough that runs wrap around its end. */
START_TEST(test_remove_keeps_runs) {
  int i, top = lua_gettop(L), n = 3000;
  lua_checkstack(L, 20);
  lua_newtable(L);            /* survivors, by index */
  lua_newtable(L);            /* the doomed ones */
  for (i = 0; i < n; i++) {
    char buf[32];
    snprintf(buf, sizeof buf, "run%d", i);
    lua_pushstring(L, buf);
    lua_rawseti(L, i % 3 == 0 ? -2 : -3, i + 1);
  }
  lua_pop(L, 1);
  gc_fullgc(L, 0);            /* the doomed ones are swept: str_remove */
  for (i = 0; i < n; i++) {
    char buf[32];
    snprintf(buf, sizeof buf, "run%d", i);
    if (i % 3 == 0) continue;
    lua_rawgeti(L, -1, i + 1);
    ck_assert_ptr_eq(lua_tostring(L, -1), getstr(str_newz(L, buf)));
    lua_pop(L, 1);
  }
  /* the slots agree with the strings' hashes, and the count is right */
  {
    struct StringTable *tb = &G(L)->strt;
    int used = 0;
    for (i = 0; i < tb->size; i++)
      if (str_slotstr(tb, i) != NULL) {
        used++;
        ck_assert_uint_eq(str_slothash(tb, i), str_slotstr(tb, i)->hash);
      }
    ck_assert_int_eq(used, tb->nuse);
    ck_assert_int_lt(tb->nuse, tb->size);
  }
  lua_settop(L, top);
}
END_TEST

START_TEST(test_pushfstring) {
  const char *r;
  r = lua_pushfstring(L, "a%sb%dc%%", "XY", -42);
  ck_assert_str_eq(r, "aXYb-42c%");
  r = lua_pushfstring(L, "%I|%f|%f|%f", (lua_Integer)9007199254740993LL, 1.0, 0.1, 1e100);
  ck_assert_str_eq(r, "9007199254740993|1.0|0.1|1e+100");
  r = lua_pushfstring(L, "[%c%c]", 'o', 'k');
  ck_assert_str_eq(r, "[ok]");
  r = lua_pushfstring(L, "%U%U%U%U", (long)'A', (long)0xE9, (long)0x20AC, (long)0x1F600);
  ck_assert_str_eq(r, "A\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80");
  r = lua_pushfstring(L, "%s", (const char *)NULL);
  ck_assert_str_eq(r, "(null)");
  r = lua_pushfstring(L, "%p", (void *)L);
  ck_assert(strlen(r) > 2);
  r = lua_pushfstring(L, "");
  ck_assert_str_eq(r, "");
  r = lua_pushfstring(L, "no format");
  ck_assert_str_eq(r, "no format");
  /* long pieces (more than the internal buffer) */
  {
    char big[5000];
    const char *r2;
    memset(big, 'z', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    r2 = lua_pushfstring(L, "<%s>%d<%s>", big, 7, big);
    ck_assert_uint_eq(strlen(r2), 2 * 4999 + 5);
    ck_assert_int_eq(r2[0], '<');
    ck_assert_int_eq(r2[5000], '>');
    ck_assert_int_eq(r2[5001], '7');
  }
  /* the result is interned like any string */
  r = lua_pushfstring(L, "x%dy", 5);
  ck_assert_ptr_eq(r, getstr(str_newz(L, "x5y")));
}
END_TEST

START_TEST(test_udata) {
  int nuv;
  for (nuv = 0; nuv < 5; nuv++) {
    Udata *u = udata_new(L, 24, nuv);
    int i;
    lua_checkstack(L, 1);
    *L->top = v_ref(u); L->top++;
    ck_assert_int_eq(u->tt, MVM_TUDATA);
    ck_assert_uint_eq(u->len, 24);
    ck_assert_ptr_null(u->metatable);
    for (i = 0; i < nuv; i++) ck_assert(v_isnil(u->uv[i]));
    ck_assert_int_eq(((uintptr_t)getudatamem(u)) % 16, 0);
    ck_assert(getudatamem(u) >= (char *)&u->uv[nuv]);
  }
}
END_TEST

/* vm_fmtfloat against snprintf: every value it takes must print byte for
** byte as printf prints it (ties to even, carries, %g's style choice and
** zero stripping, -0.0, large integers); values it declines return -1 */
static unsigned long long fmt_rng = 88172645463325252ULL;
static unsigned long long fmt_next(void) {
  fmt_rng ^= fmt_rng << 13; fmt_rng ^= fmt_rng >> 7; fmt_rng ^= fmt_rng << 17;
  return fmt_rng;
}

static int fmt_check(double x, int prec, int conv) {
  char want[512], got[512], form[16];
  int n;
  snprintf(form, sizeof form, "%%.%d%c", prec, conv);
  n = vm_fmtfloat(got, x, prec, conv, '.');
  if (n < 0) return 0;
  snprintf(want, sizeof want, form, x);
  if (strcmp(want, got) != 0 || n != (int)strlen(want))
    ck_abort_msg("%s of %a: want '%s' got '%s'", form, x, want, got);
  return 1;
}

static double fmt_value(int i) {
  unsigned long long r = fmt_next();
  double d;
  switch (i % 8) {
    case 0: memcpy(&d, &r, 8); return d;                     /* any bits */
    case 1: return (double)(long long)(r % 2000001) / 1000.0 - 1000;
    case 2: return ldexp((double)(r % 100000) - 50000, -(int)(fmt_next() % 12));
    case 3: return (double)(r % 1000000) / 7.0;
    case 4: return ((double)(r % 20000) + 0.5) / (double)(1 << (fmt_next() % 6));
    case 5: return ldexp((double)(r >> 11), (int)(fmt_next() % 80) - 60);
    case 6: return (double)(r % 100) + 0.5;                  /* ties of %.0f */
    default: return (double)(r % 10000) * 0.001;             /* near %.2f ties */
  }
}

START_TEST(test_fmtfloat) {
  static const char convs[] = "efgEG";
  static const double fixed[] = { 0.0, -0.0, 0.5, 1.5, 2.5, -2.5, 0.125, 0.375,
    2.675, 1e15, 123456789012345678.0, 18446744073709549568.0,
    18446744073709551616.0, 9.5, 99.95, 0.0009765625, 0.001, 1e-5, 9.999999999999999e22,
    0.1, 1.0 / 3, 2.0 / 3, 100, 1e14, 99999999999999.5, 0.00012345, 5e-324,
    HUGE_VAL, -HUGE_VAL, NAN };
  int i, c, p, done = 0;
  for (i = 0; i < (int)(sizeof fixed / sizeof fixed[0]); i++)
    for (c = 0; c < 5; c++)
      for (p = 0; p <= 25; p++)
        done += fmt_check(fixed[i], p, convs[c]);
  for (i = 0; i < 400000; i++) {
    double x = fmt_value(i);
    int prec = (int)(fmt_next() % 21);
    if (i % 50 == 0) prec = (int)(fmt_next() % 100);
    done += fmt_check(x, prec, convs[i % 5]);
    done += fmt_check(x, 14, 'g');
  }
  ck_assert_int_gt(done, 500000);   /* most values take the fast path */
  {
    char b[64];
    ck_assert_int_eq(vm_fmtfloat(b, HUGE_VAL, 2, 'f', '.'), -1);
    ck_assert_int_eq(vm_fmtfloat(b, 1e-10, 2, 'g', '.'), -1);
    ck_assert_int_eq(vm_fmtfloat(b, 0.5, 2, 'f', ','), 4);
    ck_assert_str_eq(b, "0,50");
  }
}
END_TEST

/* decimal numerals read exactly as strtod reads them (number.c's exact
** path for short mantissas and small exponents, strtod for the rest) */
START_TEST(test_str2flt) {
  int i;
  for (i = 0; i < 300000; i++) {
    char b[80];
    int n = 0, k, nd = 1 + (int)(fmt_next() % 20), point = (int)(fmt_next() % (nd + 2));
    double want, got;
    Value v;
    if (fmt_next() % 4 == 0) b[n++] = ' ';
    if (fmt_next() % 3 == 0) b[n++] = '-';
    for (k = 0; k < nd; k++) {
      if (k == point) b[n++] = '.';
      b[n++] = (char)('0' + (k == 0 && fmt_next() % 2 ? 0 : fmt_next() % 10));
    }
    if (point >= nd) b[n++] = '.';
    if (fmt_next() % 3 == 0)
      n += snprintf(b + n, sizeof b - (size_t)n, "e%d", (int)(fmt_next() % 61) - 30);
    if (fmt_next() % 5 == 0) b[n++] = '\t';
    b[n] = '\0';
    want = strtod(b, NULL);
    ck_assert_uint_eq(vm_str2num(L, b, &v), (size_t)n + 1);
    got = v_isfloat(v) ? v_getfloat(v) : (double)v_getint(v);
    if (memcmp(&want, &got, sizeof got) != 0)
      ck_abort_msg("'%s': want %a got %a", b, want, got);
  }
  {
    Value v;
    ck_assert_uint_eq(vm_str2num(L, "1e", &v), 0);
    ck_assert_uint_eq(vm_str2num(L, ".", &v), 0);
    ck_assert_uint_eq(vm_str2num(L, "1.5x", &v), 0);
    ck_assert_uint_eq(vm_str2num(L, "0x1p4", &v), 6);
    ck_assert(v_getfloat(v) == 16.0);
  }
}
END_TEST

int main(void) {
  Suite *s = suite_create("string");
  TCase *tc = tcase_create("strings");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_interning);
  tcase_add_test(tc, test_hash);
  tcase_add_test(tc, test_long);
  tcase_add_test(tc, test_table_grows_and_shrinks);
  tcase_add_test(tc, test_remove_keeps_runs);
  tcase_add_test(tc, test_pushfstring);
  tcase_add_test(tc, test_udata);
  tcase_add_test(tc, test_fmtfloat);
  tcase_add_test(tc, test_str2flt);
  suite_add_tcase(s, tc);
  return unit_run_suite(s);
}
