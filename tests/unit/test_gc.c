/* test_gc.c -- allocation, collection, roots, weak tables, finalizers, limit. */
#include <check.h>
#include "checkmain.h"
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/mman.h>
#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"
#include "state.h"
#include "table.h"
#include "string.h"
#include "vm.h"
#include "gc.h"
#include "gcint.h"

static lua_State *L;
static int stress;   /* MVM_GC_STRESS: keep the heavy tests small */

static void setup(void) { L = luaL_newstate(); ck_assert_ptr_nonnull(L); luaL_openlibs(L); }
static void teardown(void) { if (L) lua_close(L); L = NULL; }

static void run(const char *code) {
  if (luaL_dostring(L, code) != LUA_OK)
    ck_abort_msg("Lua error: %s", lua_tostring(L, -1));
}

/* a weak-keyed table used as an oracle: is 'v' still alive?  It is left on
** the stack top; tables move, so it is re-read from there (W) after every
** allocation. */
static void oracle(void) {
  lua_newtable(L);
  lua_newtable(L);
  lua_pushstring(L, "k");
  lua_setfield(L, -2, "__mode");
  lua_setmetatable(L, -2);
}
#define W  v_tab(L->top[-1])

START_TEST(test_accounting) {
  size_t before = gc_totalbytes(G(L));
  int i;
  ck_assert_uint_gt(before, 0);
  lua_newtable(L);
  for (i = 1; i <= 10000; i++) { lua_pushinteger(L, i); lua_rawseti(L, -2, i); }
  ck_assert_uint_ge(gc_totalbytes(G(L)), before + 10000 * sizeof(Value));
  /* collectgarbage("count") agrees with the accounting */
  ck_assert_int_eq(lua_gc(L, LUA_GCCOUNT, 0), (int)(gc_totalbytes(G(L)) >> 10));
  lua_pop(L, 1);
  gc_fullgc(L, 0);
  ck_assert_uint_lt(gc_totalbytes(G(L)), before + 4096);
}
END_TEST

START_TEST(test_frees_unreachable_keeps_rooted) {
  Value kept, lost;
  size_t before;
  int i;
  oracle();
  kept = v_ref(tab_new(L));
  GC_ROOT(L, kept);
  tab_set(L, W, kept, MVM_TRUE);
  lost = v_ref(tab_new(L));
  tab_set(L, W, lost, MVM_TRUE);
  before = gc_totalbytes(G(L));
  for (i = 0; i < 1000; i++) tab_new(L);   /* garbage */
  if (!stress) ck_assert_uint_gt(gc_totalbytes(G(L)), before);
  gc_fullgc(L, 0);
  ck_assert_uint_le(gc_totalbytes(G(L)), before);
  ck_assert(*tab_get(W, kept) == MVM_TRUE);        /* rooted: alive */
  ck_assert(isabstkey(tab_get(W, lost)) || v_isnil(*tab_get(W, lost)));
  /* the C root chain is LIFO and popping it releases the object */
  GC_UNROOT(L, 1);
  gc_fullgc(L, 0);
  ck_assert(isabstkey(tab_get(W, kept)) || v_isnil(*tab_get(W, kept)));
}
END_TEST

START_TEST(test_root_chain_grows) {
  Value vals[300];
  int i, n0 = G(L)->nroots;
  for (i = 0; i < 300; i++) { vals[i] = v_ref(tab_new(L)); GC_ROOT(L, vals[i]); }
  ck_assert_int_eq(G(L)->nroots, n0 + 300);
  gc_fullgc(L, 0);
  for (i = 0; i < 300; i++) {
    Table *t = v_tab(vals[i]);
    tab_setint(L, t, 1, v_immint(i));   /* still a valid table */
    ck_assert(v_getint(*tab_getint(t, 1)) == i);
  }
  GC_UNROOT(L, 300);
  ck_assert_int_eq(G(L)->nroots, n0);
}
END_TEST

START_TEST(test_strings_and_threads_collected) {
  int nuse, i;
  size_t before;
  gc_fullgc(L, 0);
  nuse = G(L)->strt.nuse;
  before = gc_totalbytes(G(L));
  for (i = 0; i < 5000; i++) lua_pushfstring(L, "garbage string %d", i), lua_pop(L, 1);
  for (i = 0; i < 50; i++) { lua_newthread(L); lua_pop(L, 1); }
  if (!stress) ck_assert_int_gt(G(L)->strt.nuse, nuse + 4000);
  gc_fullgc(L, 0);
  ck_assert_int_le(G(L)->strt.nuse, nuse);
  ck_assert_uint_le(gc_totalbytes(G(L)), before + 8192);   /* intern table may stay larger */
}
END_TEST

START_TEST(test_weak_tables) {
  run("local k = setmetatable({}, {__mode='k'})\n"
      "local v = setmetatable({}, {__mode='v'})\n"
      "local kv = setmetatable({}, {__mode='kv'})\n"
      "local keep = {}\n"
      "k[keep] = 1; k[{}] = 2; k['str'] = {}; k[1] = {}\n"
      "v[1] = keep; v[2] = {}; v.s = 'a string'; v[3] = 42\n"
      "kv[keep] = {}; kv[{}] = keep; kv.x = 'y'\n"
      "collectgarbage()\n"
      "local n = 0 for _ in pairs(k) do n = n + 1 end\n"
      "assert(n == 3, 'k: ' .. n)\n"
      "assert(k[keep] == 1 and k.str and k[1])\n"
      "assert(v[1] == keep and v[2] == nil and v.s == 'a string' and v[3] == 42)\n"
      "n = 0 for _ in pairs(kv) do n = n + 1 end\n"
      "assert(n == 1 and kv.x == 'y', 'kv: ' .. n)\n");
}
END_TEST

START_TEST(test_ephemerons) {
  run("local e = setmetatable({}, {__mode='k'})\n"
      "local a = {}\n"
      "do local x, y, z = {}, {}, {}\n"
      "  e[x] = y; e[y] = z; e[z] = x   -- a cycle only through values\n"
      "  e[a] = {a}                     -- value refers to its own key\n"
      "  local b = {}; e[b] = {}; e[e[b]] = b  -- chain reachable from nothing\n"
      "end\n"
      "collectgarbage()\n"
      "local n = 0 for _ in pairs(e) do n = n + 1 end\n"
      "assert(n == 1 and e[a][1] == a, 'ephemeron count ' .. n)\n"
      "-- a chain reachable from a live key stays\n"
      "local k1 = {}\n"
      "do local k2, k3 = {}, {}; e[k1] = k2; e[k2] = k3; e[k3] = 'end' end\n"
      "collectgarbage()\n"
      "assert(e[e[e[k1]]] == 'end')\n");
}
END_TEST

START_TEST(test_finalizer_order) {
  run("order = {}\n"
      "collectgarbage('stop')   -- (stress mode would collect each one at once)\n"
      "for i = 1, 5 do setmetatable({}, {__gc = function() order[#order+1] = i end}) end\n"
      "collectgarbage('restart')\n"
      "collectgarbage()\n"
      "assert(table.concat(order, ',') == '5,4,3,2,1', table.concat(order, ','))\n"
      "-- resurrection: the object is usable in its finalizer and finalized once\n"
      "saved = nil; count = 0\n"
      "do local o = setmetatable({name='x'}, {__gc = function(o) count = count + 1; saved = o end}) end\n"
      "collectgarbage()\n"
      "assert(count == 1 and saved.name == 'x')\n"
      "saved = nil\n"
      "collectgarbage(); collectgarbage()\n"
      "assert(count == 1)\n"
      "-- __gc added after setmetatable does not register\n"
      "local mt = {}\n"
      "do setmetatable({}, mt) end\n"
      "mt.__gc = function() error('must not run') end\n"
      "collectgarbage()\n"
      "-- weak values lose finalized objects before the finalizer runs\n"
      "local wv = setmetatable({}, {__mode='v'})\n"
      "seen = 'unset'\n"
      "do wv[1] = setmetatable({}, {__gc = function() seen = wv[1] end}) end\n"
      "collectgarbage()\n"
      "assert(seen == nil)\n");
}
END_TEST

static int warned;
static char warnbuf[256];
static void warnf(void *ud, const char *msg, int tocont) {
  (void)ud; (void)tocont;
  warned = 1;
  if (strlen(warnbuf) + strlen(msg) < sizeof warnbuf) strcat(warnbuf, msg);
}

START_TEST(test_finalizer_error_warns) {
  warned = 0; warnbuf[0] = '\0';
  lua_setwarnf(L, warnf, NULL);
  run("setmetatable({}, {__gc = function() error('boom', 0) end})\n"
      "collectgarbage()\n"
      "x = 1\n");
  ck_assert(warned);
  ck_assert_str_eq(warnbuf, "error in __gc (boom)");
}
END_TEST

static int nfinal;
static int cmark(lua_State *L1) { (void)L1; nfinal++; return 0; }

START_TEST(test_udata_finalizer_and_close) {
  nfinal = 0;
  lua_pushcfunction(L, cmark);
  lua_setglobal(L, "mark");
  /* a userdata with a C __gc */
  lua_newuserdatauv(L, 64, 1);
  lua_newtable(L);
  lua_pushcfunction(L, cmark);
  lua_setfield(L, -2, "__gc");
  lua_setmetatable(L, -2);
  lua_pop(L, 1);
  gc_fullgc(L, 0);
  ck_assert_int_eq(nfinal, 1);
  /* objects still alive at lua_close are finalized then */
  run("keep1 = setmetatable({}, {__gc = function() mark() end})\n"
      "keep2 = setmetatable({}, {__gc = function() mark() end})\n");
  lua_close(L);
  L = NULL;
  ck_assert_int_eq(nfinal, 3);
}
END_TEST

START_TEST(test_heap_limit) {
  int status;
  gc_fullgc(L, 0);
  gc_setheaplimit(G(L), gc_totalbytes(G(L)) + (4u << 20));
  ck_assert_int_eq(luaL_loadstring(L, "local t = {} for i = 1, 1e8 do t[i] = {i} end"), LUA_OK);
  if (stress) gc_setheaplimit(G(L), gc_totalbytes(G(L)) + (256u << 10));
  status = lua_pcall(L, 0, 0, 0);
  ck_assert_int_eq(status, LUA_ERRMEM);
  ck_assert_str_eq(lua_tostring(L, -1), "not enough memory");
  lua_pop(L, 1);
  /* the VM stays usable; garbage under the limit is collected on demand */
  run(stress ? "local s = 0 for i = 1, 2000 do local t = {i} s = s + t[1] end assert(s > 0)"
             : "local s = 0 for i = 1, 200000 do local t = {i} s = s + t[1] end assert(s > 0)");
  gc_setheaplimit(G(L), 0);
  run(stress ? "local t = {} for i = 1, 1000 do t[i] = {i} end"
             : "local t = {} for i = 1, 100000 do t[i] = {i} end");
}
END_TEST

START_TEST(test_collectgarbage_api) {
  lua_pushinteger(L, stress ? 2000 : 100000);
  lua_setglobal(L, "N");
  run("local before = collectgarbage('count')\n"
      "assert(type(before) == 'number' and before > 0)\n"
      "do local t = {} for i = 1, N do t[i] = {} end end\n"
      "assert(collectgarbage('count') > before)\n"
      "collectgarbage()\n"
      "assert(collectgarbage('count') < before + 64)\n"
      "assert(collectgarbage('isrunning'))\n"
      "collectgarbage('stop') assert(not collectgarbage('isrunning'))\n"
      "collectgarbage('restart') assert(collectgarbage('isrunning'))\n"
      "assert(collectgarbage('step') == true)\n");
}
END_TEST


/* ---------------- generational collector ---------------- */

#define TOP(i)  (L->top[(i)])

START_TEST(test_nursery_allocation) {
  Table *t = tab_new(L);
  GCState *gs = GCS(G(L));
  ck_assert(gc_innursery(gs, t));
  ck_assert_int_eq(t->tt, MVM_TTABLE);
  /* strings are old from the start (the C API hands out their pointers) */
  ck_assert(!gc_innursery(gs, str_literal(L, "an old string")));
}
END_TEST

START_TEST(test_copy_keeps_values_and_hash) {
  GCStats st0, st1;
  Table *t;
  uint32_t h;
  uintptr_t addr;
  lua_newtable(L);
  lua_pushinteger(L, 42); lua_rawseti(L, -2, 1);
  lua_pushstring(L, "v"); lua_setfield(L, -2, "k");
  lua_newtable(L); lua_setfield(L, -2, "child");      /* a young child */
  t = v_tab(TOP(-1));
  h = t->hash; addr = (uintptr_t)t;
  gc_getstats(G(L), &st0);
  gc_minor(L);                                        /* to a survivor space */
  gc_minor(L);                                        /* promoted: second survival */
  gc_getstats(G(L), &st1);
  ck_assert_uint_gt(st1.minors, st0.minors);
  t = v_tab(TOP(-1));                                  /* re-read: it moved */
  ck_assert(!gc_innursery(GCS(G(L)), t));             /* promoted */
  if (!stress) ck_assert_uint_ne((uintptr_t)t, addr);
  ck_assert_uint_eq(t->hash, h);                      /* identity survives */
  if (!stress) ck_assert_uint_gt(st1.bytes_promoted, st0.bytes_promoted);
  lua_rawgeti(L, -1, 1); ck_assert_int_eq(lua_tointeger(L, -1), 42); lua_pop(L, 1);
  lua_getfield(L, -1, "k"); ck_assert_str_eq(lua_tostring(L, -1), "v"); lua_pop(L, 1);
  lua_getfield(L, -1, "child"); ck_assert(lua_istable(L, -1));
  ck_assert(!gc_innursery(GCS(G(L)), v_gc(TOP(-1)))); lua_pop(L, 1);
  /* a table keyed by the object still finds it after the move */
  lua_newtable(L);
  lua_pushvalue(L, -2); lua_pushinteger(L, 7); lua_rawset(L, -3);
  gc_minor(L);
  lua_pushvalue(L, -2); lua_rawget(L, -2);
  ck_assert_int_eq(lua_tointeger(L, -1), 7);
  lua_pop(L, 3);
}
END_TEST

START_TEST(test_card_table_slot) {
  Table *old, *young;
  uint32_t h;
  int i;
  lua_newtable(L);                      /* becomes old (second survival) */
  gc_minor(L); gc_minor(L);
  ck_assert(!gc_innursery(GCS(G(L)), v_gc(TOP(-1))));
  for (i = 1; i <= 3; i++) {            /* array part, hash part, field */
    Value yv, key;
    young = tab_new(L);
    ck_assert(gc_innursery(GCS(G(L)), young));
    tab_setint(L, young, 1, v_immint(100 + i));
    h = young->hash;
    yv = v_ref(young);
    GC_ROOT(L, yv);                     /* 'young' moves under stress */
    if (i == 1) { lua_pushvalue(L, -1); lua_rawseti(L, -2, 1); }
    key = i == 2 ? v_ref(str_literal(L, "key")) : v_immint(1);
    old = v_tab(TOP(-1));
    if (i == 3) gc_writeobj(L, old, (Value *)(void *)&old->metatable, yv);  /* an object field */
    else tab_set(L, old, key, yv);
    GC_UNROOT(L, 1);
    /* the only reference to 'young' is in the old table: the first minor
    ** copies it to a survivor space and marks the card again, the second
    ** finds it through that card and promotes it */
    gc_minor(L);
    gc_minor(L);
    old = v_tab(TOP(-1));
    if (i == 3) {
      ck_assert(!gc_innursery(GCS(G(L)), old->metatable));
      ck_assert_uint_eq(old->metatable->hash, h);
      old->metatable = NULL;
    }
    else {
      const Value *v = i == 2 ? tab_get(old, v_ref(str_literal(L, "key"))) : tab_getint(old, 1);
      ck_assert(v_istable(*v));
      ck_assert(!gc_innursery(GCS(G(L)), v_gc(*v)));
      ck_assert_uint_eq(v_gc(*v)->hash, h);
      ck_assert_int_eq(v_getint(*tab_getint(v_tab(*v), 1)), 100 + i);
    }
  }
  lua_pop(L, 1);
}
END_TEST

START_TEST(test_card_upvalue) {
  run("f = (function() local u; return function(x) if x then u = x end return u end end)()");
  gc_minor(L);                          /* f and its closed upvalue are old now */
  run("f({val = 7}) for i = 1, 100 do local g = {i} end");
  gc_minor(L);                          /* the young table is reachable only via the upvalue */
  run("assert(f().val == 7)");
  gc_fullgc(L, 0);
  run("assert(f().val == 7)");
}
END_TEST

START_TEST(test_open_upvalues_move) {
  run("local co = coroutine.wrap(function()\n"
      "  local a, b = {1}, {2}\n"
      "  local function get() return a[1] + b[1] end\n"
      "  coroutine.yield(get)\n"
      "  a = {10}\n"
      "  coroutine.yield(get())\n"
      "end)\n"
      "local get = co()\n"
      "collectgarbage('step'); for i = 1, 1000 do local t = {i} end\n"
      "assert(get() == 3)\n"
      "assert(co() == 12)\n");
}
END_TEST

/* Free old-space pages stay resident through the collection that freed
** them and go back to the kernel (madvise) only when they stayed free
** until the next one (heap.c gc_sweepdone). */
static int resident(const void *p) {
  unsigned char v = 0;
  char *page = (char *)((uintptr_t)p & ~(uintptr_t)(GC_PAGESIZE - 1));
  ck_assert_int_eq(mincore(page, GC_PAGESIZE, &v), 0);
  return v & 1;
}
/* a table whose array part is 'n' slots (a large cell), as global 'big';
** the address of its last slot */
static const Value *bigarray(int n) {
  const Table *t;
  lua_pushinteger(L, n);
  lua_setglobal(L, "n");
  run("big = {} for i = 1, n do big[i] = i end");
  lua_getglobal(L, "big");
  t = v_tab(L->top[-1]);
  lua_pop(L, 1);
  ck_assert_uint_ge(t->asize, (unsigned)n);
  return &t->array[n - 1];
}
START_TEST(test_free_pages_released_when_idle) {
  GCState *gs = GCS(G(L));
  const Value *slot;
  uint32_t pg;
  int n = 1 << 21;   /* 16 MB: above the budget a small heap keeps (GC_KEEPMIN) */
  slot = bigarray(n);
  pg = (uint32_t)(((const char *)slot - gs->oldbase) >> GC_PAGESHIFT);
  gc_fullgc(L, 0);
  ck_assert_int_eq(gs->pages[pg].kind, PG_LARGE);
  run("big = nil");
  gc_fullgc(L, 0);   /* freed: kept resident for the next cycle */
  ck_assert_int_eq(gs->pages[pg].kind, PG_FREE);
  ck_assert(!(gs->pages[pg].state & PGS_OUT));
  ck_assert(resident(slot));
  gc_fullgc(L, 0);   /* free all through a cycle: released */
  ck_assert_int_eq(gs->pages[pg].state, PGS_OUT);
  ck_assert(!resident(slot));
  /* released pages taken again are in use: no state left */
  slot = bigarray(n);
  pg = (uint32_t)(((const char *)slot - gs->oldbase) >> GC_PAGESHIFT);
  ck_assert_int_eq(gs->pages[pg].kind, PG_LARGE);
  ck_assert_int_eq(gs->pages[pg].state, 0);
  run("big = nil");
}
END_TEST

int main(void) {
  Suite *s = suite_create("gc");
  const char *e = getenv("MVM_GC_STRESS");
  stress = e != NULL && *e != '\0' && strcmp(e, "0") != 0;
  TCase *tc = tcase_create("collector");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_accounting);
  tcase_add_test(tc, test_frees_unreachable_keeps_rooted);
  tcase_add_test(tc, test_root_chain_grows);
  tcase_add_test(tc, test_strings_and_threads_collected);
  tcase_add_test(tc, test_weak_tables);
  tcase_add_test(tc, test_ephemerons);
  tcase_add_test(tc, test_finalizer_order);
  tcase_add_test(tc, test_finalizer_error_warns);
  tcase_add_test(tc, test_udata_finalizer_and_close);
  tcase_add_test(tc, test_heap_limit);
  tcase_add_test(tc, test_collectgarbage_api);
  tcase_add_test(tc, test_nursery_allocation);
  tcase_add_test(tc, test_copy_keeps_values_and_hash);
  tcase_add_test(tc, test_card_table_slot);
  tcase_add_test(tc, test_card_upvalue);
  tcase_add_test(tc, test_open_upvalues_move);
  tcase_add_test(tc, test_free_pages_released_when_idle);
  suite_add_tcase(s, tc);
  return unit_run_suite(s);
}
