/* test_jit.c -- the JIT end to end: eager compilation of small functions,
** results, guard exits, calls in both directions, statepoint records in
** the stack-map registry, interrupts at safepoint polls, flush.
** Needs libmvmjit.so (MVM_JIT_LIB is set by ctest); skipped without it. */
#include <check.h>
#include "checkmain.h"
#include <stdio.h>
#include <stdlib.h>
#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"
#include "mvm.h"
#include "state.h"
#include "jit.h"

static lua_State *L;

static void setup(void) {
  L = luaL_newstate();
  luaL_openlibs(L);
  mvm_jitmode(L, MVM_JIT_EAGER);
}
static void teardown(void) { lua_close(L); L = NULL; }

static void run(const char *code) {
  if (luaL_dostring(L, code) != LUA_OK)
    ck_abort_msg("Lua error: %s", lua_tostring(L, -1));
}

static lua_Integer runint(const char *code) {
  lua_Integer r;
  run(code);
  ck_assert_msg(lua_isinteger(L, -1), "not an integer: %s", luaL_typename(L, -1));
  r = lua_tointeger(L, -1);
  lua_pop(L, 1);
  return r;
}

START_TEST(test_compiles_and_runs) {
  mvm_JITStats st;
  ck_assert_int_eq(runint(
    "local function sum(n) local s = 0 for i = 1, n do s = s + i end return s end\n"
    "return sum(1000)"), 500500);
  mvm_jitstats(L, &st);
  ck_assert_uint_ge(st.functions_compiled, 1);
  ck_assert_uint_gt(st.stackmaps, 0);   /* statepoint records registered */
  /* Lua -> Lua calls through upvalues, recursion, tests and jumps */
  ck_assert_int_eq(runint(
    "local function fib(n) if n < 2 then return n end return fib(n-1) + fib(n-2) end\n"
    "return fib(24)"), 46368);
  /* deep recursion does not nest C frames */
  ck_assert_int_eq(runint(
    "local function d(n) if n == 0 then return 0 end return d(n - 1) + 1 end\n"
    "return d(100000)"), 100000);
  /* jit.status reports it */
  ck_assert_int_ge(runint("local _, _, s = jit.status() return s.compiled"), 3);
}
END_TEST

START_TEST(test_guards_exit_exactly) {
  /* floats, strings with metamethod-free coercion, overflow into boxed
  ** integers and wrap-around: all leave to the interpreter mid-function */
  run("local function add(a, b) return a + b end\n"
      "assert(add(1, 2) == 3)\n"
      "assert(add(1.5, 2) == 3.5)\n"
      "assert(add('10', 5) == 15)\n"
      "assert(add(2^46|0, 2^46|0) == 2^47|0)\n"
      "assert(math.type(add(2^46|0, 2^46|0)) == 'integer')\n"
      "assert(add(math.maxinteger, 1) == math.mininteger)\n"
      "local function mul(a, b) return a * b end\n"
      "assert(mul(3, 4) == 12)\n"
      "assert(mul(1 << 40, 1 << 20) == 1 << 60)\n"
      "assert(mul(-(1 << 30), 1 << 17) == -(1 << 47))\n"
      "local function loop(a, b, c) local n = 0 for i = a, b, c do n = n + 1 end return n end\n"
      "assert(loop(1, 10, 1) == 10 and loop(10, 1, -3) == 4 and loop(1, 0, 1) == 0)\n"
      "assert(loop(1, 2.5, 0.5) == 4)\n"
      "assert(not pcall(loop, 1, 2, 0))\n"
      "local function cmp(a, b) if a < b then return 1 end if a <= b then return 2 end return 3 end\n"
      "assert(cmp(1, 2) == 1 and cmp(2, 2) == 2 and cmp(3, 2) == 3)\n"
      "assert(cmp('a', 'b') == 1 and cmp(1.5, 1.5) == 2)\n");
}
END_TEST

START_TEST(test_calls_to_c_and_errors) {
  run("local abs, type = math.abs, type\n"
      "local function f(x) return abs(x) end\n"
      "assert(f(-3) == 3)\n"
      "local function g(x) return type(x) end\n"
      "assert(g(1) == 'number')\n"
      "local function h(x) return x + 1 end\n"
      "local ok, msg = pcall(h, {})\n"
      "assert(not ok and msg:find('arithmetic'))\n"
      /* a yield across a compiled frame; the frame resumes afterwards */
      "local yield = coroutine.yield\n"
      "local function y(a) local b = yield(a) return a + b end\n"
      "local co = coroutine.wrap(y)\n"
      "assert(co(1) == 1)\n"
      "assert(co(41) == 42)\n");
}
END_TEST

/* every registered record belongs to compiled code and is found by its
** return address; statepoint records have the statepoint shape */
START_TEST(test_stackmap_records) {
  const SMRegistry *reg;
  size_t i, nsp = 0;
  run("local function sum(n) local s = 0 for i = 1, n do s = s + i end return s end\n"
      "local function twice(f, x) return f(x) + f(x) end\n"
      "assert(twice(sum, 10) == 110)\n");
  reg = jit_stackmaps(G(L));
  ck_assert_ptr_nonnull(reg);
  ck_assert_uint_gt(reg->n, 0);
  for (i = 0; i < reg->n; i++) {
    const SMRecord *r = reg->recs[i];
    ck_assert_ptr_eq(sm_lookup(reg, r->retaddr), r);
    ck_assert_uint_gt(r->retaddr, r->funcaddr);
    if (i > 0) ck_assert_uint_ge(r->retaddr, reg->recs[i - 1]->retaddr);
    if (r->is_statepoint) {
      nsp++;
      ck_assert_int_eq(r->ndeopt, 0);
      ck_assert_int_eq(3 + 2 * r->npairs, r->nlocs);
    }
  }
  ck_assert_uint_gt(nsp, 0);
}
END_TEST

static int l_interrupt(lua_State *L1) {
  mvm_interrupt(L1);
  return 0;
}

/* the flag is set by a C function called from compiled code; the loop's
** back-edge poll (no call inside the loop) must raise "interrupted" */
START_TEST(test_interrupt_at_poll) {
  lua_register(L, "interrupt", l_interrupt);
  run("local function spin(n, f) f() local s = 0 for i = 1, n do s = s + 1 end return s end\n"
      "assert(spin(10, function() end) == 10)\n"
      "local ok, msg = pcall(spin, 100, interrupt)\n"
      "assert(not ok and msg:find('interrupted'), msg)\n"
      "assert(spin(5, function() end) == 5)\n");
}
END_TEST

/* the line "interrupted" names when raised at a compiled loop's poll is
** one of the loop's (numeric for loops store savedpc at their FORPREP,
** not at every back-edge: llvmgen.c loopsavedpc), never the line of an
** instruction before the loop (the call that set the flag) */
START_TEST(test_interrupt_line_in_loop) {
  lua_register(L, "interrupt", l_interrupt);
  run("local function spin(n, f)\n"          /* line 1 */
      "  f()\n"                               /* 2 */
      "  local s = 0\n"                       /* 3 */
      "  for i = 1, n do\n"                   /* 4 */
      "    s = s + i\n"                       /* 5 */
      "  end\n"                               /* 6 */
      "  return s\n"
      "end\n"
      "local function fspin(n, f)\n"         /* 9 */
      "  f()\n"                               /* 10 */
      "  local s = 0.5\n"
      "  for x = 0.5, n do\n"                 /* 12 */
      "    s = s * 0.5 + x\n"                 /* 13 */
      "  end\n"
      "  return s\n"
      "end\n"
      "local function nest(n, f)\n"          /* 17 */
      "  local t = {}\n"
      "  for i = 1, n do\n"                   /* 19 */
      "    if i == 5 then f() end\n"          /* 20 */
      "    for j = 1, 3 do\n"                 /* 21 */
      "      t[j] = i\n"                      /* 22 */
      "    end\n"
      "  end\n"
      "  return #t\n"
      "end\n"
      /* the NEWTABLE helper on every path: no poll at the back-edge, the
      ** helper raises (rt_helperpoll) */
      "local function alloc(n, f)\n"         /* 27 */
      "  local t\n"
      "  for i = 1, n do\n"                   /* 29 */
      "    t = {i}\n"                         /* 30 */
      "    if i == 5 then f() end\n"          /* 31 */
      "  end\n"
      "  return #t\n"
      "end\n"
      "local function wspin(n, f)\n"         /* 35 */
      "  f()\n"                               /* 36 */
      "  local i = 0\n"
      "  while i < n do\n"                    /* 38 */
      "    i = i + 1\n"                       /* 39 */
      "  end\n"                               /* 40 */
      "  return i\n"
      "end\n"
      /* a vararg copy (VARARG, inline: llvmgen.c varargcopy) and a call
      ** on one path: polled at the back-edge (edgepoll), as fcond below */
      "local function va(n, f, ...)\n"      /* 43 */
      "  local x\n"
      "  for i = 1, n do\n"                   /* 45 */
      "    x = ...\n"                         /* 46 */
      "    if i == 5 then f() end\n"          /* 47 */
      "  end\n"
      "  return x\n"
      "end\n"
      /* a call on one path only: the loop has an entry point after the
      ** call; where that entry is the loop's only back-edge (fcond's
      ** FORLOOP) LLVM sees no natural loop and placed no poll, so the
      ** back-edge polls itself (llvmgen.c edgepoll).  Also a while loop
      ** (a backward JMP) and a generic for */
      "local function wcond(n, f)\n"        /* 51 */
      "  local i = 0\n"
      "  while i < n do\n"                   /* 53 */
      "    i = i + 1\n"                       /* 54 */
      "    if i == 5 then f() end\n"          /* 55 */
      "  end\n"                               /* 56 */
      "  return i\n"
      "end\n"
      "local function gcond(n, f)\n"        /* 59 */
      "  local t, s = {}, 0\n"
      "  for i = 1, n do t[i] = i end\n"      /* 61 */
      "  for _, v in ipairs(t) do\n"          /* 62 */
      "    s = s + v\n"                       /* 63 */
      "    if v == 5 then f() end\n"          /* 64 */
      "  end\n"                               /* 65 */
      "  return s\n"
      "end\n"
      "local function fcond(n, f)\n"        /* 68 */
      "  local s = 0\n"
      "  for i = 1, n do\n"                   /* 70 */
      "    s = s + i\n"                       /* 71 */
      "    if i == 5 then f() end\n"          /* 72 */
      "  end\n"
      "  return s\n"
      "end\n"
      "assert(spin(10, function() end) == 55)\n"
      "assert(wspin(10, function() end) == 10)\n"
      "assert(va(3, function() end, 7) == 7)\n"
      "assert(wcond(3, function() end) == 3)\n"
      "assert(gcond(3, function() end) == 6)\n"
      "assert(fcond(3, function() end) == 6)\n"
      "assert(fspin(3, function() end) > 0)\n"
      "assert(nest(3, function() end) == 3)\n"
      "assert(alloc(3, function() end) == 1)\n"
      "local function line(fn)\n"
      "  local ok, msg = pcall(fn, 100, interrupt)\n"
      "  assert(not ok and msg:find('interrupted'), msg)\n"
      "  return tonumber(msg:match(':(%d+):'))\n"
      "end\n"
      "local l = line(spin); assert(l == 4 or l == 5, l)\n"
      "l = line(fspin); assert(l == 12 or l == 13, l)\n"
      "l = line(nest); assert(l >= 19 and l <= 22, l)\n"
      "l = line(alloc); assert(l >= 29 and l <= 31, l)\n"
      "l = line(wspin); assert(l >= 38 and l <= 40, l)\n"
      "l = line(va); assert(l >= 45 and l <= 47, l)\n"
      "l = line(wcond); assert(l >= 53 and l <= 56, l)\n"
      "l = line(gcond); assert(l >= 62 and l <= 65, l)\n"
      "l = line(fcond); assert(l >= 70 and l <= 72, l)\n");
}
END_TEST

START_TEST(test_flush_and_off) {
  mvm_JITStats st;
  run("local function f(a) return a + 1 end\n"
      "assert(f(1) == 2)\n"
      "jit.flush()\n"
      "assert(f(2) == 3)\n"
      "jit.off()\n"
      "local function g(a) return a + 2 end\n"
      "assert(g(1) == 3)\n");
  mvm_jitstats(L, &st);
  /* the chunk (a vararg function) and f, f again after the flush, never g */
  ck_assert_uint_eq(st.functions_compiled, 3);
}
END_TEST

int main(void) {
  Suite *s = suite_create("jit");
  TCase *tc = tcase_create("core");
  lua_State *probe;
  mvm_JITStats st;
  /* skip (77) when the backend cannot be loaded */
  probe = luaL_newstate();
  luaL_openlibs(probe);
  mvm_jitmode(probe, MVM_JIT_EAGER);
  (void)luaL_dostring(probe, "local function f(a) return a end f(1)");
  mvm_jitstats(probe, &st);
  lua_close(probe);
  if (st.functions_compiled == 0) {
    fprintf(stderr, "test_jit: JIT backend not available, skipped\n");
    return 77;
  }
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_compiles_and_runs);
  tcase_add_test(tc, test_guards_exit_exactly);
  tcase_add_test(tc, test_calls_to_c_and_errors);
  tcase_add_test(tc, test_stackmap_records);
  tcase_add_test(tc, test_interrupt_at_poll);
  tcase_add_test(tc, test_interrupt_line_in_loop);
  tcase_add_test(tc, test_flush_and_off);
  suite_add_tcase(s, tc);
  return unit_run_suite(s);
}
