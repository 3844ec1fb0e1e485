/*
** test_api_coro.c -- a C host driving coroutines through the C API:
** lua_newthread + lua_resume from C, C functions that yield with
** lua_yield / lua_yieldk (continuations), lua_callk and lua_pcallk
** continuations when the callee yields, errors inside coroutines,
** lua_closethread, lua_isyieldable/lua_status, and many live coroutines
** under collection.  Exit status 0 when every check passes.
*/
#include <stdlib.h>

#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"
#include "embedtest.h"

/* lua_closethread is 5.4.6; the test also builds against stock 5.4.4
** headers (to check the expectations themselves), where only the older
** lua_resetthread exists */
#if LUA_VERSION_RELEASE_NUM < 50406
#define lua_closethread(co, from)  lua_resetthread(co)
#endif

/* ---------------------------------------------- resume a Lua body from C */
static void test_resume_lua(lua_State *L) {
  int base = lua_gettop(L), nres = 0, i;
  lua_State *co = lua_newthread(L);
  CHECK(lua_status(co) == LUA_OK);
  luaL_loadstring(co,
    "local n = ... local s = 0\n"
    "for i = 1, n do s = s + coroutine.yield(i) end\n"
    "return 'sum', s");
  lua_pushinteger(co, 5);
  for (i = 1; i <= 5; i++) {
    CHECK(lua_resume(co, L, i == 1 ? 1 : 1, &nres) == LUA_YIELD);
    CHECK(nres == 1 && lua_tointeger(co, -1) == i);
    CHECK(lua_status(co) == LUA_YIELD);
    lua_pop(co, nres);
    lua_pushinteger(co, i * 10);         /* value of coroutine.yield */
  }
  CHECK(lua_resume(co, L, 1, &nres) == LUA_OK && nres == 2);
  CHECKSTR(lua_tostring(co, -2), "sum");
  CHECK(lua_tointeger(co, -1) == 150);
  lua_pop(co, nres);
  CHECK(lua_status(co) == LUA_OK && lua_gettop(co) == 0);
  /* resuming a dead coroutine: error, status stays */
  CHECK(lua_resume(co, L, 0, &nres) == LUA_ERRRUN);
  CHECKSTR(lua_tostring(co, -1), "cannot resume dead coroutine");
  lua_settop(L, base);
}

/* -------------------------------------- C functions that yield (no cont.) */
static int c_yield2(lua_State *L) {
  lua_pushinteger(L, 1);
  lua_pushinteger(L, 2);
  return lua_yield(L, 2);        /* the caller gets the resume values back */
}

/* ----------------------------------------------- lua_yieldk continuation */
/* gen(n): yields 1..n one by one from C, keeping its counter in the
** continuation context; finally returns "done" */
static int gen_k(lua_State *L, int status, lua_KContext ctx) {
  lua_Integer n = luaL_checkinteger(L, 1);
  lua_Integer i = (lua_Integer)ctx;
  CHECK(status == LUA_YIELD || (status == LUA_OK && i == 0));
  lua_settop(L, 1);                  /* drop the resume values */
  if (i < n) {
    lua_pushinteger(L, i + 1);
    return lua_yieldk(L, 1, (lua_KContext)(i + 1), gen_k);
  }
  lua_pushstring(L, "done");
  return 1;
}
static int gen(lua_State *L) { return gen_k(L, LUA_OK, 0); }

static void test_yieldk(lua_State *L) {
  int base = lua_gettop(L), nres = 0, i;
  lua_State *co;
  lua_register(L, "c_yield2", c_yield2);
  lua_register(L, "gen", gen);
  /* straight from C: the thread's body is the C function itself */
  co = lua_newthread(L);
  lua_pushcfunction(co, gen);
  lua_pushinteger(co, 3);
  for (i = 1; i <= 3; i++) {
    CHECK(lua_resume(co, L, i == 1 ? 1 : 0, &nres) == LUA_YIELD);
    CHECK(nres == 1 && lua_tointeger(co, -1) == i);
    lua_pop(co, nres);
  }
  CHECK(lua_resume(co, L, 0, &nres) == LUA_OK && nres == 1);
  CHECKSTR(lua_tostring(co, -1), "done");
  lua_settop(L, base);
  /* from Lua code, through coroutine.wrap */
  DOSTRING(L,
    "local t = {}\n"
    "for v in coroutine.wrap(function() local r = gen(4); coroutine.yield(r) end) do\n"
    "  t[#t + 1] = tostring(v)\n"
    "end\n"
    "assert(table.concat(t, ',') == '1,2,3,4,done', table.concat(t, ','))\n"
    "local co = coroutine.create(function(...) return c_yield2(...) end)\n"
    "local ok, a, b = coroutine.resume(co)\n"
    "assert(ok and a == 1 and b == 2)\n"
    "local ok2, x, y = coroutine.resume(co, 'x', 'y')\n"
    "assert(ok2 and x == 'x' and y == 'y' and coroutine.status(co) == 'dead')\n");
  /* yielding from a C function outside a coroutine is an error */
  DOSTRING(L,
    "local ok, e = pcall(c_yield2)\n"
    "assert(not ok and e:find('outside a coroutine'), e)");
}

/* ------------------------------------------------ lua_callk / lua_pcallk */
/* callthen(f, ...): calls f with lua_callk; the continuation appends the
** string "cont" and the status it saw.  Works whether or not f yields. */
static int callthen_k(lua_State *L, int status, lua_KContext ctx) {
  CHECK(ctx == 77);
  lua_pushstring(L, "cont");
  lua_pushinteger(L, status);
  return lua_gettop(L);
}
static int callthen(lua_State *L) {
  lua_callk(L, lua_gettop(L) - 1, LUA_MULTRET, 77, callthen_k);
  return callthen_k(L, LUA_OK, 77);
}

/* safecall(f, ...): lua_pcallk with message handler 0 and a continuation
** that turns the outcome into (ok, ...) like pcall */
static int safecall_k(lua_State *L, int status, lua_KContext ctx) {
  (void)ctx;
  lua_pushboolean(L, status == LUA_OK || status == LUA_YIELD);
  lua_insert(L, 1);
  return lua_gettop(L);
}
static int safecall(lua_State *L) {
  int st = lua_pcallk(L, lua_gettop(L) - 1, LUA_MULTRET, 0, 0, safecall_k);
  return safecall_k(L, st, 0);
}

/* msgh for lua_pcall: decorates the error */
static int decorate(lua_State *L) {
  lua_pushfstring(L, "<%s>", luaL_tolstring(L, 1, NULL));
  return 1;
}

static void test_continuations(lua_State *L) {
  int base = lua_gettop(L);
  lua_register(L, "callthen", callthen);
  lua_register(L, "safecall", safecall);
  DOSTRING(L,
    /* no yield: continuation called directly by callthen with LUA_OK */
    "local a, b, c = callthen(function(x) return x * 2 end, 21)\n"
    "assert(a == 42 and b == 'cont' and c == 0)\n"
    /* the callee yields: after resume the continuation runs with LUA_YIELD */
    "local co = coroutine.wrap(function()\n"
    "  return callthen(function() return coroutine.yield('y') + 1 end)\n"
    "end)\n"
    "assert(co() == 'y')\n"
    "local r, s, st = co(9)\n"
    "assert(r == 10 and s == 'cont' and st == 1, tostring(st))\n"
    /* lua_pcallk: error without yield, error after a yield */
    "local ok, e = safecall(error, 'plain')\n"
    "assert(ok == false and e == 'plain')\n"
    "co = coroutine.wrap(function()\n"
    "  return safecall(function() local v = coroutine.yield(1); error(v, 0) end)\n"
    "end)\n"
    "assert(co() == 1)\n"
    "local ok2, e2 = co('late error')\n"
    "assert(ok2 == false and e2 == 'late error', e2)\n"
    /* yield across pcall inside Lua, inside a C-resumed coroutine */
    "co = coroutine.wrap(function()\n"
    "  local ok, v = pcall(function() return coroutine.yield('p') * 3 end)\n"
    "  return ok, v\n"
    "end)\n"
    "assert(co() == 'p')\n"
    "local ok3, v3 = co(5)\n"
    "assert(ok3 and v3 == 15)\n"
    /* lua_isyieldable as seen from Lua */
    "assert(not coroutine.isyieldable())\n"
    "assert(coroutine.wrap(function() return coroutine.isyieldable() end)())\n");
  /* lua_pcall with a message handler from C */
  lua_pushcfunction(L, decorate);
  luaL_loadstring(L, "error('inner', 0)");
  CHECK(lua_pcall(L, 0, 0, base + 1) == LUA_ERRRUN);
  CHECKSTR(lua_tostring(L, -1), "<inner>");
  /* an error inside the message handler itself */
  lua_settop(L, base);
  luaL_loadstring(L, "return function() error('x') end");
  lua_call(L, 0, 1);              /* the handler: raises again */
  luaL_loadstring(L, "error('first')");
  CHECK(lua_pcall(L, 0, 0, base + 1) == LUA_ERRERR);
  lua_settop(L, base);
}

/* ------------------------------------------------ errors in coroutines */
static void test_coro_errors(lua_State *L) {
  int base = lua_gettop(L), nres = 0;
  lua_State *co = lua_newthread(L);
  luaL_loadstring(co, "local x = coroutine.yield(1)\nlocal t = nil\nreturn t.field");
  CHECK(lua_resume(co, L, 0, &nres) == LUA_YIELD && nres == 1);
  lua_pop(co, nres);
  CHECK(lua_resume(co, L, 0, &nres) == LUA_ERRRUN);
  CHECK(lua_status(co) == LUA_ERRRUN);
  CHECK(strstr(lua_tostring(co, -1), "attempt to index a nil value (local 't')") != NULL);
  /* traceback of the dead coroutine, taken from the main thread */
  luaL_traceback(L, co, "tb", 0);
  CHECK(strstr(lua_tostring(L, -1), "stack traceback:") != NULL);
  CHECK(strstr(lua_tostring(L, -1), ":3:") != NULL);
  lua_pop(L, 1);
  /* lua_closethread resets it (and runs pending to-be-closed variables) */
  CHECK(lua_closethread(co, L) == LUA_ERRRUN);
  CHECK(lua_status(co) == LUA_OK && lua_gettop(co) == 1);
  lua_settop(co, 0);
  DOSTRING(L, "CLOSED = false");
  luaL_loadstring(co,
    "local x <close> = setmetatable({}, {__close = function() CLOSED = true end})\n"
    "coroutine.yield()\n");
  CHECK(lua_resume(co, L, 0, &nres) == LUA_YIELD);
  CHECK(lua_closethread(co, L) == LUA_OK);
  lua_getglobal(L, "CLOSED");
  CHECK(lua_toboolean(L, -1));
  /* the reset thread is reusable */
  lua_settop(co, 0);
  luaL_loadstring(co, "return 'again'");
  CHECK(lua_resume(co, L, 0, &nres) == LUA_OK && nres == 1);
  CHECKSTR(lua_tostring(co, -1), "again");
  lua_settop(L, base);
}

/* ------------------------------------ many coroutines alive across GCs */
static void test_many(lua_State *L) {
  int base = lua_gettop(L), i, nres, round;
  enum { N = 200 };
  lua_State *cos[N];
  lua_createtable(L, N, 0);       /* anchors the threads */
  for (i = 0; i < N; i++) {
    cos[i] = lua_newthread(L);
    lua_rawseti(L, base + 1, i + 1);
    luaL_loadstring(cos[i],
      "local id = ... local acc = {}\n"
      "for r = 1, 5 do acc[#acc + 1] = string.rep('x', r) .. id; coroutine.yield(#acc) end\n"
      "return table.concat(acc, '|')");
    lua_pushinteger(cos[i], i);
  }
  for (round = 1; round <= 5; round++) {
    for (i = 0; i < N; i++) {
      CHECK(lua_resume(cos[i], L, round == 1 ? 1 : 0, &nres) == LUA_YIELD);
      CHECK(lua_tointeger(cos[i], -1) == round);
      lua_pop(cos[i], nres);
    }
    lua_gc(L, LUA_GCCOLLECT);
  }
  for (i = 0; i < N; i++) {
    char expect[128];
    CHECK(lua_resume(cos[i], L, 0, &nres) == LUA_OK && nres == 1);
    snprintf(expect, sizeof expect, "x%d|xx%d|xxx%d|xxxx%d|xxxxx%d", i, i, i, i, i);
    CHECKSTR(lua_tostring(cos[i], -1), expect);
  }
  lua_settop(L, base);
  lua_gc(L, LUA_GCCOLLECT);       /* the threads die here */
}

int main(void) {
  lua_State *L = luaL_newstate();
  if (L == NULL) return 1;
  luaL_openlibs(L);
  test_resume_lua(L);
  test_yieldk(L);
  test_continuations(L);
  test_coro_errors(L);
  test_many(L);
  CHECK(lua_gettop(L) == 0);
  lua_close(L);
  return REPORT();
}
