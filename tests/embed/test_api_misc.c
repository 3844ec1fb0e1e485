/*
** test_api_misc.c -- a C host covering the C API beyond test_api_basic.c:
** warnings (lua_setwarnf, lua_warning, warn() control messages, errors in
** __gc reported as warnings), errors raised from C (luaL_error positions,
** non-string error objects, luaL_argerror/typeerror, lua_atpanic for
** unprotected errors), a host allocator (lua_newstate, lua_getallocf),
** hooks, to-be-closed slots, upvalue access, lua_load with a reader,
** luaL_requiref and friends.  Exit status 0 when every check passes.
*/
#include <setjmp.h>
#include <stdlib.h>

#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"
#include "embedtest.h"

/* ---------------------------------------------------------------- warnings */
static char warnbuf[4096];
static int nwarnings;

/* collects pieces into warnbuf; a complete warning ends with '\n' */
static void warnf(void *ud, const char *msg, int tocont) {
  size_t n = strlen(warnbuf);
  CHECK(ud == (void *)warnbuf);
  snprintf(warnbuf + n, sizeof warnbuf - n, "%s%s", msg, tocont ? "" : "\n");
  if (!tocont) nwarnings++;
}

static int gc_raises(lua_State *L) {
  return luaL_error(L, "error in finalizer");
}

static void test_warnings(lua_State *L) {
  int base = lua_gettop(L);
  void *ud = NULL;
  lua_setwarnf(L, warnf, warnbuf);
  warnbuf[0] = '\0'; nwarnings = 0;
  /* from C: pieces joined until tocont == 0 */
  lua_warning(L, "one ", 1);
  lua_warning(L, "two", 1);
  lua_warning(L, " three", 0);
  CHECKSTR(warnbuf, "one two three\n");
  CHECK(nwarnings == 1);
  /* from Lua: warn() passes its pieces to the same function; control
  ** messages ("@on"/"@off") reach it too (the standard warnf interprets
  ** them; a host's own function decides) */
  warnbuf[0] = '\0';
  DOSTRING(L, "warn('a', 'b', 'c')");
  CHECKSTR(warnbuf, "abc\n");
  warnbuf[0] = '\0';
  DOSTRING(L, "warn('@on')");
  CHECKSTR(warnbuf, "@on\n");
  /* an error in a __gc metamethod becomes a warning */
  warnbuf[0] = '\0';
  lua_newuserdatauv(L, 8, 0);
  lua_newtable(L);
  lua_pushcfunction(L, gc_raises);
  lua_setfield(L, -2, "__gc");
  lua_setmetatable(L, -2);
  lua_pop(L, 1);
  lua_gc(L, LUA_GCCOLLECT);
  lua_gc(L, LUA_GCCOLLECT);
  CHECK(strstr(warnbuf, "error in __gc") != NULL);
  CHECK(strstr(warnbuf, "error in finalizer") != NULL);
  /* restoring the standard warning function (luaL_newstate's) */
  lua_setwarnf(L, NULL, NULL);
  warnbuf[0] = '\0';
  DOSTRING(L, "warn('goes nowhere')");
  CHECKSTR(warnbuf, "");
  CHECK(lua_getallocf(L, &ud) != NULL);
  lua_settop(L, base);
}

/* ------------------------------------------------------ errors from C */
static int raise_pos(lua_State *L) {
  return luaL_error(L, "bad thing %d %s", 7, "happened");
}
static int raise_table(lua_State *L) {
  lua_createtable(L, 0, 1);
  lua_pushinteger(L, 404);
  lua_setfield(L, -2, "code");
  return lua_error(L);
}
static int raise_arg(lua_State *L) {
  luaL_checkinteger(L, 2);
  return 0;
}
static int opt_user(lua_State *L) {
  static const char *const opts[] = {"red", "green", "blue", NULL};
  lua_pushinteger(L, luaL_checkoption(L, 1, "green", opts));
  return 1;
}

static void test_errors(lua_State *L) {
  int base = lua_gettop(L);
  lua_register(L, "raise_pos", raise_pos);
  lua_register(L, "raise_table", raise_table);
  lua_register(L, "raise_arg", raise_arg);
  lua_register(L, "opt_user", opt_user);
  /* luaL_error adds the position of the Lua caller */
  CHECK(luaL_loadbuffer(L, "\n\nraise_pos()", 13, "=src") == LUA_OK);
  CHECK(lua_pcall(L, 0, 0, 0) == LUA_ERRRUN);
  CHECKSTR(lua_tostring(L, -1), "src:3: bad thing 7 happened");
  lua_pop(L, 1);
  /* called straight from C: no Lua level, no position */
  lua_pushcfunction(L, raise_pos);
  CHECK(lua_pcall(L, 0, 0, 0) == LUA_ERRRUN);
  CHECKSTR(lua_tostring(L, -1), "bad thing 7 happened");
  lua_pop(L, 1);
  /* non-string error values travel unchanged */
  lua_pushcfunction(L, raise_table);
  CHECK(lua_pcall(L, 0, 0, 0) == LUA_ERRRUN);
  CHECK(lua_istable(L, -1));
  CHECK(lua_getfield(L, -1, "code") == LUA_TNUMBER && lua_tointeger(L, -1) == 404);
  lua_settop(L, base);
  DOSTRING(L,
    "local ok, e = pcall(raise_arg, 1, 'x')\n"
    "assert(e == \"bad argument #2 to 'raise_arg' (number expected, got string)\", e)\n"
    "ok, e = pcall(raise_arg, 1)\n"
    "assert(e == \"bad argument #2 to 'raise_arg' (number expected, got no value)\", e)\n"
    "assert(opt_user() == 1 and opt_user('blue') == 2)\n"
    "ok, e = pcall(opt_user, 'pink')\n"
    "assert(e == \"bad argument #1 to 'opt_user' (invalid option 'pink')\", e)\n"
    "ok, e = pcall(raise_table)\n"
    "assert(not ok and e.code == 404)\n"
    "ok, e = pcall(error)\n"
    "assert(not ok and e == nil)\n");
  /* syntax errors are LUA_ERRSYNTAX with the chunk name */
  CHECK(luaL_loadbuffer(L, "x = = 1", 7, "=chunk") == LUA_ERRSYNTAX);
  CHECKSTR(lua_tostring(L, -1), "chunk:1: unexpected symbol near '='");
  lua_settop(L, base);
}

/* ---------------------------------------------------------------- panic */
static jmp_buf panic_jmp;
static char panic_msg[256];

static int on_panic(lua_State *L) {
  snprintf(panic_msg, sizeof panic_msg, "%s", lua_tostring(L, -1));
  longjmp(panic_jmp, 1);   /* never return to Lua: it would abort */
  return 0;
}

static void test_panic(void) {
  lua_State *volatile L = luaL_newstate();
  lua_CFunction old;
  luaL_openlibs(L);
  old = lua_atpanic(L, on_panic);
  CHECK(old != NULL);                  /* luaL_newstate installs one */
  panic_msg[0] = '\0';
  if (setjmp(panic_jmp) == 0) {
    lua_pushcfunction(L, raise_pos);
    lua_call(L, 0, 0);                 /* unprotected: panics */
    CHECK(0);                          /* not reached */
  }
  CHECKSTR(panic_msg, "bad thing 7 happened");
  CHECK(lua_atpanic(L, old) == on_panic);
  lua_close(L);
}

/* ------------------------------------------------------ host allocator */
typedef struct AllocStats { size_t inuse, peak, calls, frees; } AllocStats;

static void *counting_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  AllocStats *st = (AllocStats *)ud;
  st->calls++;
  if (ptr != NULL) st->inuse -= osize;
  if (nsize == 0) {
    if (ptr != NULL) st->frees++;
    free(ptr);
    return NULL;
  }
  ptr = realloc(ptr, nsize);
  if (ptr != NULL) {
    st->inuse += nsize;
    if (st->inuse > st->peak) st->peak = st->inuse;
  }
  else if (ptr == NULL && osize > 0) {
    st->inuse += osize;                /* the old block stays */
  }
  return ptr;
}

static void test_allocator(void) {
  AllocStats st = {0, 0, 0, 0};
  void *ud = NULL;
  lua_State *L = lua_newstate(counting_alloc, &st);
  CHECK(L != NULL);
  if (L == NULL) return;
  CHECK(lua_getallocf(L, &ud) == counting_alloc && ud == &st);
  luaL_openlibs(L);
  /* Heap objects and table parts live in the collector's reserved address
  ** range; the host allocator provides the global state and the other
  ** out-of-line memory (stacks, CallInfo, prototype arrays): here 10000
  ** coroutine stacks, over 3 MB. */
  DOSTRING(L, "local t = {} for i = 1, 10000 do t[i] = coroutine.create(print) end");
  CHECK(st.calls > 1000);
  CHECK(st.peak > 300000);
  lua_close(L);
  CHECK(st.inuse == 0);                /* everything went back */
  CHECK(st.frees > 1000);
}

/* ---------------------------------------------------------------- hooks */
static int linecount, callcount;
static void hook(lua_State *L, lua_Debug *ar) {
  if (ar->event == LUA_HOOKLINE) linecount++;
  else if (ar->event == LUA_HOOKCALL) {
    lua_getinfo(L, "n", ar);
    if (ar->name != NULL && strcmp(ar->name, "hooked") == 0) callcount++;
  }
  else if (ar->event == LUA_HOOKCOUNT) {
    lua_getfield(L, LUA_REGISTRYINDEX, "stop_counting");
    if (lua_toboolean(L, -1)) luaL_error(L, "count hook stop");
    lua_pop(L, 1);
  }
}

static void test_hooks(lua_State *L) {
  int base = lua_gettop(L);
  linecount = callcount = 0;
  lua_sethook(L, hook, LUA_MASKLINE | LUA_MASKCALL, 0);
  CHECK(lua_gethook(L) == hook && lua_gethookmask(L) == (LUA_MASKLINE | LUA_MASKCALL));
  DOSTRING(L, "local function hooked() return 1 end\n"
              "for i = 1, 3 do\n"
              "  hooked()\n"
              "end\n");
  lua_sethook(L, NULL, 0, 0);
  CHECK(callcount == 3);
  CHECK(linecount >= 7);
  /* a count hook that raises stops an infinite loop */
  lua_pushboolean(L, 1);
  lua_setfield(L, LUA_REGISTRYINDEX, "stop_counting");
  lua_sethook(L, hook, LUA_MASKCOUNT, 1000);
  CHECK(lua_gethookcount(L) == 1000);
  luaL_loadstring(L, "while true do end");
  CHECK(lua_pcall(L, 0, 0, 0) == LUA_ERRRUN);
  CHECK(strstr(lua_tostring(L, -1), "count hook stop") != NULL);
  lua_sethook(L, NULL, 0, 0);
  lua_settop(L, base);
}

/* ------------------------------------------------- to-be-closed slots */
static int closer(lua_State *L) {
  lua_pushinteger(L, lua_isnil(L, 2) ? 1 : 2);   /* 2nd arg: the error */
  lua_setglobal(L, "CLOSED_WITH");
  return 0;
}

static int uses_tbc(lua_State *L) {
  lua_newtable(L);
  lua_newtable(L);
  lua_pushcfunction(L, closer);
  lua_setfield(L, -2, "__close");
  lua_setmetatable(L, -2);
  lua_toclose(L, -1);
  if (lua_toboolean(L, 1)) luaL_error(L, "fail with tbc");
  lua_closeslot(L, -1);
  return 0;
}

static void test_tbc(lua_State *L) {
  lua_register(L, "uses_tbc", uses_tbc);
  DOSTRING(L, "CLOSED_WITH = nil; uses_tbc(false); assert(CLOSED_WITH == 1)\n"
              "CLOSED_WITH = nil; assert(not pcall(uses_tbc, true)); assert(CLOSED_WITH == 2)");
}

/* ------------------------------------------ upvalues, reader, requiref */
typedef struct Pieces { const char *const *p; } Pieces;
static const char *reader(lua_State *L, void *ud, size_t *size) {
  Pieces *pc = (Pieces *)ud;
  const char *s = *pc->p;
  (void)L;
  if (s == NULL) { *size = 0; return NULL; }
  pc->p++;
  *size = strlen(s);
  return s;
}

static int open_mini(lua_State *L) {
  lua_newtable(L);
  lua_pushliteral(L, "mini");
  lua_setfield(L, -2, "name");
  return 1;
}

static void test_functions(lua_State *L) {
  int base = lua_gettop(L);
  static const char *const chunk[] = {"local a, b = ...; ", "return a", " .. b", NULL};
  Pieces pc = {chunk};
  const char *name;
  /* lua_load through a reader handing out pieces */
  CHECK(lua_load(L, reader, &pc, "=pieces", "t") == LUA_OK);
  lua_pushstring(L, "con");
  lua_pushstring(L, "cat");
  lua_call(L, 2, 1);
  CHECKSTR(lua_tostring(L, -1), "concat");
  lua_pop(L, 1);
  /* upvalues of a Lua closure */
  DOSTRING(L, "local x, y = 10, 20\n"
              "function GETX() return x end\n"
              "function GETY() return y end");
  lua_getglobal(L, "GETX");
  lua_getglobal(L, "GETY");
  name = lua_getupvalue(L, base + 1, 1);
  CHECKSTR(name, "x");
  CHECK(lua_tointeger(L, -1) == 10);
  lua_pop(L, 1);
  lua_pushinteger(L, 11);
  CHECKSTR(lua_setupvalue(L, base + 1, 1), "x");
  CHECK(lua_upvalueid(L, base + 1, 1) != lua_upvalueid(L, base + 2, 1));
  lua_upvaluejoin(L, base + 1, 1, base + 2, 1);   /* GETX now sees y */
  CHECK(lua_upvalueid(L, base + 1, 1) == lua_upvalueid(L, base + 2, 1));
  DOSTRING(L, "assert(GETX() == 20)");
  lua_settop(L, base);
  /* luaL_requiref: loaded once, stored in package.loaded and a global */
  luaL_requiref(L, "mini", open_mini, 1);
  CHECK(lua_istable(L, -1));
  lua_pop(L, 1);
  DOSTRING(L, "assert(mini.name == 'mini' and package.loaded.mini == mini and require('mini') == mini)");
  /* conversions and comparisons */
  CHECK(lua_stringtonumber(L, "0x1p4") == 6 && lua_tonumber(L, -1) == 16.0);
  CHECK(lua_stringtonumber(L, "12a") == 0);
  lua_pushinteger(L, 3);
  lua_pushnumber(L, 3.0);
  CHECK(lua_rawequal(L, -1, -2) && lua_compare(L, -1, -2, LUA_OPEQ));
  CHECK(lua_compare(L, -1, -2, LUA_OPLE) && !lua_compare(L, -1, -2, LUA_OPLT));
  lua_settop(L, base);
  lua_pushliteral(L, "abc");
  lua_len(L, -1);
  CHECK(lua_tointeger(L, -1) == 3);
  CHECK(luaL_len(L, base + 1) == 3);
  lua_settop(L, base);
  lua_newtable(L);
  CHECK(lua_getfield(L, -1, "missing") == LUA_TNIL);
  CHECK(luaL_getsubtable(L, -2, "sub") == 0);
  CHECK(luaL_getsubtable(L, -3, "sub") == 1);
  lua_settop(L, base);
  CHECK(luaL_dostring(L, "return 1, 2, 3") == LUA_OK && lua_gettop(L) == base + 3);
  lua_settop(L, base);
}

int main(void) {
  lua_State *L = luaL_newstate();
  if (L == NULL) return 1;
  luaL_openlibs(L);
  test_warnings(L);
  test_errors(L);
  test_hooks(L);
  test_tbc(L);
  test_functions(L);
  CHECK(lua_gettop(L) == 0);
  lua_close(L);
  test_panic();
  test_allocator();
  return REPORT();
}
