/*
** test_api_basic.c -- a C host exercising the core of the Lua 5.4 C API as
** implemented by libmvm: stack manipulation, conversions, tables, calls and
** protected calls with message handlers, userdata with metatables and __gc,
** luaL_Buffer growth, registry references, string pointer stability and
** errors raised from C.  Exit status 0 when every check passes.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"

static int failures = 0, checks = 0;

#define CHECK(cond) do { checks++; if (!(cond)) { failures++; \
  fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); } } while (0)
#define CHECKSTR(a, b) do { const char *a_ = (a), *b_ = (b); checks++; \
  if (a_ == NULL || strcmp(a_, b_) != 0) { failures++; \
    fprintf(stderr, "FAIL %s:%d: got \"%s\", expected \"%s\"\n", __FILE__, __LINE__, \
            a_ ? a_ : "(null)", b_); } } while (0)

/* run a chunk, expecting success */
static void dostring(lua_State *L, const char *code) {
  if (luaL_dostring(L, code) != LUA_OK) {
    failures++;
    fprintf(stderr, "FAIL running [%s]: %s\n", code, lua_tostring(L, -1));
    lua_pop(L, 1);
  }
}

/* ---------------------------------------------------------------- stack */
static void test_stack(lua_State *L) {
  int base = lua_gettop(L);
  lua_pushinteger(L, 1);
  lua_pushinteger(L, 2);
  lua_pushinteger(L, 3);
  lua_pushinteger(L, 4);
  CHECK(lua_gettop(L) == base + 4);
  lua_rotate(L, base + 1, 1);            /* 4 1 2 3 */
  CHECK(lua_tointeger(L, base + 1) == 4 && lua_tointeger(L, -1) == 3);
  lua_rotate(L, base + 1, -1);           /* 1 2 3 4 */
  CHECK(lua_tointeger(L, base + 1) == 1 && lua_tointeger(L, -1) == 4);
  lua_insert(L, base + 2);               /* 1 4 2 3 */
  CHECK(lua_tointeger(L, base + 2) == 4);
  lua_remove(L, base + 2);               /* 1 2 3 */
  CHECK(lua_gettop(L) == base + 3 && lua_tointeger(L, base + 2) == 2);
  lua_pushinteger(L, 9);
  lua_replace(L, base + 1);              /* 9 2 3 */
  CHECK(lua_tointeger(L, base + 1) == 9);
  lua_copy(L, -1, base + 2);             /* 9 3 3 */
  CHECK(lua_tointeger(L, base + 2) == 3);
  CHECK(lua_absindex(L, -1) == base + 3);
  CHECK(lua_absindex(L, LUA_REGISTRYINDEX) == LUA_REGISTRYINDEX);
  lua_settop(L, base + 5);
  CHECK(lua_isnil(L, -1) && lua_isnil(L, -2));
  CHECK(lua_type(L, base + 10) == LUA_TNONE);
  CHECK(lua_isnone(L, base + 10));
  CHECKSTR(lua_typename(L, LUA_TNONE), "no value");
  CHECKSTR(lua_typename(L, LUA_TTABLE), "table");
  lua_settop(L, base);
  CHECK(lua_checkstack(L, 5000));
  {
    int i;
    for (i = 0; i < 5000; i++) lua_pushinteger(L, i);
    CHECK(lua_tointeger(L, -1) == 4999);
    lua_settop(L, base);
  }
  CHECK(!lua_checkstack(L, LUAI_MAXSTACK + 10));
}

/* ---------------------------------------------------------- conversions */
static void test_values(lua_State *L) {
  int isnum;
  size_t len;
  const char *s;
  int base = lua_gettop(L);
  lua_pushstring(L, "  0x10  ");
  CHECK(lua_isnumber(L, -1));
  CHECK(lua_tointegerx(L, -1, &isnum) == 16 && isnum);
  lua_pushnumber(L, 3.0);
  CHECK(!lua_isinteger(L, -1));
  CHECK(lua_tointegerx(L, -1, &isnum) == 3 && isnum);
  lua_pushnumber(L, 3.5);
  lua_tointegerx(L, -1, &isnum);
  CHECK(!isnum);
  lua_pushinteger(L, LUA_MAXINTEGER);
  CHECK(lua_isinteger(L, -1) && lua_tointeger(L, -1) == LUA_MAXINTEGER);
  lua_pushinteger(L, LUA_MININTEGER);
  CHECK(lua_tointeger(L, -1) == LUA_MININTEGER);
  lua_pushinteger(L, (lua_Integer)1 << 50);      /* beyond a 48-bit immediate */
  CHECK(lua_tointeger(L, -1) == ((lua_Integer)1 << 50));
  CHECK(lua_rawequal(L, -1, -1));
  lua_pushinteger(L, (lua_Integer)1 << 50);
  CHECK(lua_rawequal(L, -1, -2));
  CHECK(lua_compare(L, -1, -2, LUA_OPEQ));
  lua_pushinteger(L, 42);
  s = lua_tolstring(L, -1, &len);                /* converts in place */
  CHECKSTR(s, "42");
  CHECK(len == 2 && lua_type(L, -1) == LUA_TSTRING);
  lua_pushnumber(L, 1.5);
  CHECKSTR(lua_tostring(L, -1), "1.5");
  lua_pushnumber(L, 10.0);
  CHECKSTR(lua_tostring(L, -1), "10.0");
  lua_pushboolean(L, 0);
  CHECK(!lua_toboolean(L, -1) && lua_tostring(L, -1) == NULL);
  lua_pushnil(L);
  CHECK(!lua_toboolean(L, -1));
  lua_pushinteger(L, 0);
  CHECK(lua_toboolean(L, -1));
  CHECK(lua_stringtonumber(L, "0x1p4") == 6 && lua_tonumber(L, -1) == 16.0);
  CHECK(lua_stringtonumber(L, "12abc") == 0);
  lua_pushlightuserdata(L, &failures);
  CHECK(lua_touserdata(L, -1) == &failures && lua_islightuserdata(L, -1));
  lua_pushstring(L, NULL);
  CHECK(lua_isnil(L, -1));
  lua_pushfstring(L, "%s-%d-%I-%c-%%", "a", 7, (LUAI_UACINT)123456789012LL, 'z');
  CHECKSTR(lua_tostring(L, -1), "a-7-123456789012-z-%");
  lua_pushlstring(L, "x\0y", 3);
  lua_tolstring(L, -1, &len);
  CHECK(len == 3);
  /* arithmetic, comparison, concat, length */
  lua_pushinteger(L, 7);
  lua_pushinteger(L, 2);
  lua_arith(L, LUA_OPIDIV);
  CHECK(lua_tointeger(L, -1) == 3 && lua_isinteger(L, -1));
  lua_pushinteger(L, 7);
  lua_arith(L, LUA_OPUNM);
  CHECK(lua_tointeger(L, -1) == -7);
  lua_pushnumber(L, 1.0);
  lua_pushinteger(L, 2);
  CHECK(lua_compare(L, -2, -1, LUA_OPLT) && lua_compare(L, -2, -1, LUA_OPLE));
  CHECK(!lua_compare(L, -1, -2, LUA_OPLT));
  lua_pushstring(L, "ab");
  lua_pushinteger(L, 12);
  lua_pushstring(L, "cd");
  lua_concat(L, 3);
  CHECKSTR(lua_tostring(L, -1), "ab12cd");
  lua_concat(L, 0);
  CHECKSTR(lua_tostring(L, -1), "");
  lua_len(L, -2);
  CHECK(lua_tointeger(L, -1) == 6);
  CHECK(lua_rawlen(L, -3) == 6);
  lua_settop(L, base);
}

/* --------------------------------------------------------------- tables */
static int index_mm(lua_State *L) {     /* __index: returns key .. "!" */
  lua_pushvalue(L, 2);
  lua_pushliteral(L, "!");
  lua_concat(L, 2);
  return 1;
}

static void test_tables(lua_State *L) {
  int base = lua_gettop(L), n = 0, i;
  static char key;
  lua_createtable(L, 4, 4);
  lua_pushstring(L, "v");
  lua_setfield(L, -2, "k");
  CHECK(lua_getfield(L, -1, "k") == LUA_TSTRING);
  CHECKSTR(lua_tostring(L, -1), "v");
  lua_pop(L, 1);
  for (i = 1; i <= 100; i++) {
    lua_pushinteger(L, i * 10);
    lua_seti(L, -2, i);
  }
  CHECK(lua_rawlen(L, -1) == 100);
  CHECK(lua_geti(L, -1, 50) == LUA_TNUMBER && lua_tointeger(L, -1) == 500);
  lua_pop(L, 1);
  lua_pushinteger(L, 7);
  lua_rawseti(L, -2, (lua_Integer)1 << 60);
  CHECK(lua_rawgeti(L, -1, (lua_Integer)1 << 60) == LUA_TNUMBER);
  lua_pop(L, 1);
  lua_pushboolean(L, 1);
  lua_rawsetp(L, -2, &key);
  CHECK(lua_rawgetp(L, -1, &key) == LUA_TBOOLEAN);
  lua_pop(L, 1);
  lua_pushstring(L, "k");
  CHECK(lua_rawget(L, -2) == LUA_TSTRING);
  lua_pop(L, 1);
  lua_pushstring(L, "x");
  lua_pushnumber(L, 2.5);
  lua_settable(L, -3);
  lua_pushstring(L, "x");
  CHECK(lua_gettable(L, -2) == LUA_TNUMBER && lua_tonumber(L, -1) == 2.5);
  lua_pop(L, 1);
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    n++;
    lua_pop(L, 1);
  }
  CHECK(n == 104);
  /* metatable with __index */
  lua_newtable(L);
  lua_pushcfunction(L, index_mm);
  lua_setfield(L, -2, "__index");
  lua_setmetatable(L, -2);
  CHECK(lua_getfield(L, -1, "zz") == LUA_TSTRING);
  CHECKSTR(lua_tostring(L, -1), "zz!");
  lua_pop(L, 1);
  CHECK(lua_rawgeti(L, -1, 1000) == LUA_TNIL);
  lua_pop(L, 1);
  CHECK(lua_geti(L, -1, 1000) == LUA_TSTRING);   /* "1000!" */
  CHECKSTR(lua_tostring(L, -1), "1000!");
  lua_pop(L, 1);
  CHECK(lua_getmetatable(L, -1) == 1);
  lua_pop(L, 1);
  /* globals */
  lua_pushvalue(L, -1);
  lua_setglobal(L, "T");
  dostring(L, "assert(T.k == 'v' and T[3] == 30 and T.nope == 'nope!')");
  CHECK(lua_getglobal(L, "T") == LUA_TTABLE && lua_rawequal(L, -1, -2));
  lua_settop(L, base);
  /* luaL_getsubtable, luaL_len */
  lua_newtable(L);
  CHECK(luaL_getsubtable(L, -1, "sub") == 0);
  CHECK(luaL_getsubtable(L, -2, "sub") == 1 && lua_rawequal(L, -1, -2));
  lua_settop(L, base);
  dostring(L, "LT = setmetatable({}, {__len = function() return 42 end})");
  lua_getglobal(L, "LT");
  CHECK(luaL_len(L, -1) == 42);
  lua_settop(L, base);
}

/* -------------------------------------------------------------- calls */
static int handler(lua_State *L) {
  lua_pushfstring(L, "handled: %s", lua_tostring(L, 1));
  return 1;
}

static int c_adder(lua_State *L) {          /* sums its integer args + upvalue */
  lua_Integer s = lua_tointeger(L, lua_upvalueindex(1));
  int i, n = lua_gettop(L);
  for (i = 1; i <= n; i++) s += luaL_checkinteger(L, i);
  lua_pushinteger(L, s);
  lua_pushinteger(L, s + 1);
  lua_copy(L, -1, lua_upvalueindex(1));     /* counter lives in the upvalue */
  lua_pop(L, 1);
  return 1;
}

static int c_raise(lua_State *L) {
  return luaL_error(L, "boom %d", 42);
}

static int c_raisetable(lua_State *L) {
  lua_newtable(L);
  lua_pushinteger(L, 99);
  lua_setfield(L, -2, "code");
  return lua_error(L);
}

static int c_method(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_checkinteger(L, 2);
  return 0;
}

static void test_calls(lua_State *L) {
  int base = lua_gettop(L);
  lua_pushinteger(L, 100);
  lua_pushcclosure(L, c_adder, 1);
  lua_setglobal(L, "adder");
  dostring(L, "assert(adder(1, 2, 3) == 106); assert(adder(1) == 108)");
  /* lua_call with multiple results */
  luaL_loadstring(L, "return 1, 2, ...");
  lua_pushinteger(L, 3);
  lua_call(L, 1, LUA_MULTRET);
  CHECK(lua_gettop(L) == base + 3 && lua_tointeger(L, -1) == 3);
  lua_settop(L, base);
  /* pcall with a message handler */
  lua_pushcfunction(L, handler);
  luaL_loadstring(L, "error('oops')");
  CHECK(lua_pcall(L, 0, 0, base + 1) == LUA_ERRRUN);
  CHECKSTR(lua_tostring(L, -1), "handled: [string \"error('oops')\"]:1: oops");
  lua_settop(L, base);
  /* errors from C */
  lua_pushcfunction(L, c_raise);
  CHECK(lua_pcall(L, 0, 0, 0) == LUA_ERRRUN);
  CHECKSTR(lua_tostring(L, -1), "boom 42");
  lua_pop(L, 1);
  lua_register(L, "raise", c_raise);
  luaL_loadstring(L, "\n raise()");
  CHECK(lua_pcall(L, 0, 0, 0) == LUA_ERRRUN);
  CHECKSTR(lua_tostring(L, -1), "[string \"...\"]:2: boom 42");
  lua_pop(L, 1);
  lua_pushcfunction(L, c_raisetable);
  CHECK(lua_pcall(L, 0, 0, 0) == LUA_ERRRUN);
  CHECK(lua_istable(L, -1));
  lua_getfield(L, -1, "code");
  CHECK(lua_tointeger(L, -1) == 99);
  lua_settop(L, base);
  /* argument errors as lua5.4 words them */
  lua_register(L, "cm", c_method);
  dostring(L, "obj = {m = cm}");
  luaL_loadstring(L, "cm({}, 'x')");
  lua_pcall(L, 0, 0, 0);
  CHECKSTR(lua_tostring(L, -1),
           "[string \"cm({}, 'x')\"]:1: bad argument #2 to 'cm' (number expected, got string)");
  lua_pop(L, 1);
  luaL_loadstring(L, "obj.m(1)");
  lua_pcall(L, 0, 0, 0);
  CHECKSTR(lua_tostring(L, -1),
           "[string \"obj.m(1)\"]:1: bad argument #1 to 'm' (table expected, got number)");
  lua_pop(L, 1);
  luaL_loadstring(L, "obj:m()");
  lua_pcall(L, 0, 0, 0);
  CHECKSTR(lua_tostring(L, -1),
           "[string \"obj:m()\"]:1: bad argument #1 to 'm' (number expected, got no value)");
  lua_pop(L, 1);
  luaL_loadstring(L, "local s = 1; obj.m(s, 2)");
  lua_pcall(L, 0, 0, 0);
  CHECKSTR(lua_tostring(L, -1),
           "[string \"local s = 1; obj.m(s, 2)\"]:1: bad argument #1 to 'm' (table expected, got number)");
  lua_pop(L, 1);
  dostring(L, "obj2 = {m = function(self) cm(self) end}");
  luaL_loadstring(L, "obj.m2 = cm; (1 < 2 and obj):m2()");
  lua_pcall(L, 0, 0, 0);
  CHECK(strstr(lua_tostring(L, -1), "bad argument #1 to 'm2'") != NULL);
  lua_pop(L, 1);
  /* runtime error texts */
  luaL_loadstring(L, "local t = nil; return t.x");
  lua_pcall(L, 0, 0, 0);
  CHECKSTR(lua_tostring(L, -1),
           "[string \"local t = nil; return t.x\"]:1: attempt to index a nil value (local 't')");
  lua_pop(L, 1);
  luaL_loadstring(L, "undefinedfn()");
  lua_pcall(L, 0, 0, 0);
  CHECKSTR(lua_tostring(L, -1),
           "[string \"undefinedfn()\"]:1: attempt to call a nil value (global 'undefinedfn')");
  lua_pop(L, 1);
  /* syntax errors come back as LUA_ERRSYNTAX */
  CHECK(luaL_loadstring(L, "x = = 1") == LUA_ERRSYNTAX);
  lua_pop(L, 1);
  lua_settop(L, base);
}

/* ------------------------------------------------------------- userdata */
static int gc_count = 0;
typedef struct Point { double x, y; } Point;

static int point_gc(lua_State *L) {
  Point *p = (Point *)luaL_checkudata(L, 1, "Point");
  if (p->x == 1.0) gc_count++;
  return 0;
}

static int point_x(lua_State *L) {
  Point *p = (Point *)luaL_checkudata(L, 1, "Point");
  lua_pushnumber(L, p->x);
  return 1;
}

static void newpoint(lua_State *L, double x) {
  Point *p = (Point *)lua_newuserdatauv(L, sizeof(Point), 2);
  p->x = x;
  p->y = 0;
  luaL_setmetatable(L, "Point");
}

static void test_userdata(lua_State *L) {
  int base = lua_gettop(L), i;
  CHECK(luaL_newmetatable(L, "Point") == 1);
  lua_pushcfunction(L, point_gc);
  lua_setfield(L, -2, "__gc");
  lua_newtable(L);
  lua_pushcfunction(L, point_x);
  lua_setfield(L, -2, "getx");
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1);
  CHECK(luaL_newmetatable(L, "Point") == 0);
  lua_pop(L, 1);
  newpoint(L, 5.0);
  CHECK(luaL_testudata(L, -1, "Point") != NULL);
  CHECK(luaL_testudata(L, -1, "Other") == NULL);
  CHECK(lua_rawlen(L, -1) == sizeof(Point));
  lua_pushstring(L, "uv1");
  CHECK(lua_setiuservalue(L, -2, 1) == 1);
  lua_newtable(L);
  CHECK(lua_setiuservalue(L, -2, 2) == 1);
  lua_pushinteger(L, 1);
  CHECK(lua_setiuservalue(L, -2, 3) == 0);
  CHECK(lua_getiuservalue(L, -1, 1) == LUA_TSTRING);
  CHECKSTR(lua_tostring(L, -1), "uv1");
  lua_pop(L, 1);
  CHECK(lua_getiuservalue(L, -1, 2) == LUA_TTABLE);
  lua_pop(L, 1);
  CHECK(lua_getiuservalue(L, -1, 3) == LUA_TNONE);
  lua_pop(L, 1);
  lua_setglobal(L, "P");
  dostring(L, "assert(P:getx() == 5.0)");
  lua_getglobal(L, "P");
  CHECK(strncmp(luaL_tolstring(L, -1, NULL), "Point: 0x", 9) == 0);
  lua_settop(L, base);
  /* finalizers run for unreachable userdata */
  gc_count = 0;
  for (i = 0; i < 1000; i++) {
    newpoint(L, 1.0);
    lua_pop(L, 1);
  }
  lua_gc(L, LUA_GCCOLLECT);
  lua_gc(L, LUA_GCCOLLECT);
  CHECK(gc_count == 1000);
  /* bad self */
  luaL_loadstring(L, "local p = P; p.getx({})");
  lua_pcall(L, 0, 0, 0);
  CHECKSTR(lua_tostring(L, -1),
           "[string \"local p = P; p.getx({})\"]:1: bad argument #1 to 'getx' (Point expected, got table)");
  lua_pop(L, 1);
  luaL_loadstring(L, "local p = P; local q = {getx = p.getx}; q:getx()");
  lua_pcall(L, 0, 0, 0);
  CHECKSTR(lua_tostring(L, -1),
           "[string \"local p = P; local q = {getx = p.getx}; q:get...\"]:1: "
           "calling 'getx' on bad self (Point expected, got table)");
  lua_settop(L, base);
}

/* ---------------------------------------------------------------- buffers */
static int buildbig(lua_State *L) {
  luaL_Buffer b;
  size_t i, total = (size_t)luaL_checkinteger(L, 1);
  luaL_buffinit(L, &b);
  for (i = 0; i < total / 2; i++)
    luaL_addchar(&b, (char)('a' + i % 26));
  lua_pushstring(L, "[value]");
  luaL_addvalue(&b);
  while (luaL_bufflen(&b) < total) {
    char *p = luaL_prepbuffsize(&b, 1000);
    size_t n = total - luaL_bufflen(&b);
    if (n > 1000) n = 1000;
    memset(p, 'z', n);
    luaL_addsize(&b, n);
  }
  luaL_pushresult(&b);
  return 1;
}

static void test_buffers(lua_State *L) {
  int base = lua_gettop(L);
  size_t len;
  const char *s;
  luaL_Buffer b;
  lua_pushcfunction(L, buildbig);
  lua_pushinteger(L, 3 * 1024 * 1024);
  CHECK(lua_pcall(L, 1, 1, 0) == LUA_OK);
  s = lua_tolstring(L, -1, &len);
  CHECK(len == 3 * 1024 * 1024);
  CHECK(s != NULL && s[0] == 'a' && s[25] == 'z' && s[26] == 'a');
  CHECK(s != NULL && memcmp(s + 3 * 1024 * 1024 / 2, "[value]", 7) == 0);
  CHECK(s != NULL && s[len - 1] == 'z');
  CHECK(lua_gettop(L) == base + 1);
  lua_settop(L, base);
  /* on the main thread's stack, small */
  luaL_buffinit(L, &b);
  luaL_addstring(&b, "hello ");
  luaL_addlstring(&b, "world!!", 5);
  luaL_pushresult(&b);
  CHECKSTR(lua_tostring(L, -1), "hello world");
  CHECK(lua_gettop(L) == base + 1);
  CHECKSTR(luaL_gsub(L, "a.b.c", ".", "::"), "a::b::c");
  lua_settop(L, base);
}

/* ------------------------------------------------------------ references */
static void test_refs(lua_State *L) {
  int base = lua_gettop(L);
  int r1, r2, r3;
  lua_pushstring(L, "first");
  r1 = luaL_ref(L, LUA_REGISTRYINDEX);
  lua_newtable(L);
  r2 = luaL_ref(L, LUA_REGISTRYINDEX);
  CHECK(r1 > 0 && r2 > 0 && r1 != r2);
  lua_pushnil(L);
  CHECK(luaL_ref(L, LUA_REGISTRYINDEX) == LUA_REFNIL);
  CHECK(lua_rawgeti(L, LUA_REGISTRYINDEX, r1) == LUA_TSTRING);
  CHECKSTR(lua_tostring(L, -1), "first");
  lua_pop(L, 1);
  luaL_unref(L, LUA_REGISTRYINDEX, r1);
  lua_pushstring(L, "again");
  r3 = luaL_ref(L, LUA_REGISTRYINDEX);
  CHECK(r3 == r1);                     /* freed references are reused */
  CHECK(lua_rawgeti(L, LUA_REGISTRYINDEX, r2) == LUA_TTABLE);
  lua_pop(L, 1);
  luaL_unref(L, LUA_REGISTRYINDEX, r2);
  luaL_unref(L, LUA_REGISTRYINDEX, r3);
  CHECK(lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_MAINTHREAD) == LUA_TTHREAD);
  CHECK(lua_tothread(L, -1) == L);
  lua_pop(L, 1);
  CHECK(lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS) == LUA_TTABLE);
  lua_settop(L, base);
}

/* ---------------------------------------------------- pointer stability */
static void test_stability(lua_State *L) {
  int base = lua_gettop(L), i;
  const char *s1, *tt1, *tt2;
  char saved[64], tsaved[64];
  lua_pushstring(L, "a string that must stay put");
  s1 = lua_tostring(L, -1);
  lua_newtable(L);
  tt1 = luaL_tolstring(L, -1, NULL);
  snprintf(tsaved, sizeof tsaved, "%s", tt1);
  lua_pop(L, 1);
  CHECK(strncmp(tsaved, "table: 0x", 9) == 0);
  strcpy(saved, s1);
  for (i = 0; i < 200000; i++) {       /* lots of garbage */
    lua_createtable(L, 2, 2);
    lua_pushfstring(L, "garbage %d", i);
    lua_setfield(L, -2, "k");
    lua_pop(L, 1);
  }
  lua_gc(L, LUA_GCCOLLECT);
  CHECK(lua_tostring(L, base + 1) == s1);
  CHECK(strcmp(s1, saved) == 0);
  tt2 = luaL_tolstring(L, base + 2, NULL);
  CHECKSTR(tt2, tsaved);              /* tostring(t) is stable */
  lua_pop(L, 1);
  lua_pushvalue(L, base + 2);
  CHECK(lua_topointer(L, -1) == lua_topointer(L, base + 2));
  lua_settop(L, base);
  /* luaL_tolstring basics */
  lua_pushinteger(L, -5);
  CHECKSTR(luaL_tolstring(L, -1, NULL), "-5");
  lua_pushnumber(L, 0.5);
  CHECKSTR(luaL_tolstring(L, -1, NULL), "0.5");
  lua_pushboolean(L, 1);
  CHECKSTR(luaL_tolstring(L, -1, NULL), "true");
  lua_pushnil(L);
  CHECKSTR(luaL_tolstring(L, -1, NULL), "nil");
  dostring(L, "TS = setmetatable({}, {__tostring = function() return 'custom' end})");
  lua_getglobal(L, "TS");
  CHECKSTR(luaL_tolstring(L, -1, NULL), "custom");
  dostring(L, "TN = setmetatable({}, {__name = 'MyType'})");
  lua_getglobal(L, "TN");
  CHECK(strncmp(luaL_tolstring(L, -1, NULL), "MyType: 0x", 10) == 0);
  lua_settop(L, base);
}

/* ------------------------------------------------------ threads, misc */
static int tb_from_c(lua_State *L) {
  luaL_traceback(L, L, "msg", 0);
  return 1;
}

static void test_misc(lua_State *L) {
  int base = lua_gettop(L);
  int nres = 0;
  lua_State *co;
  /* threads and xmove */
  co = lua_newthread(L);
  CHECK(lua_isthread(L, -1) && lua_tothread(L, -1) == co);
  CHECK(lua_pushthread(co) == 0);
  lua_pop(co, 1);
  lua_pushinteger(L, 11);
  lua_pushinteger(L, 22);
  lua_xmove(L, co, 2);
  CHECK(lua_gettop(co) == 2 && lua_tointeger(co, -1) == 22);
  lua_settop(co, 0);
  luaL_loadstring(co, "local a = ...; local b = coroutine.yield(a + 1); return b * 2");
  lua_pushinteger(co, 1);
  CHECK(lua_resume(co, L, 1, &nres) == LUA_YIELD && nres == 1);
  CHECK(lua_tointeger(co, -1) == 2);
  lua_pop(co, nres);
  lua_pushinteger(co, 21);
  CHECK(lua_resume(co, L, 1, &nres) == LUA_OK && nres == 1);
  CHECK(lua_tointeger(co, -1) == 42);
  lua_settop(L, base);
  /* traceback */
  lua_register(L, "tb", tb_from_c);
  dostring(L, "local function f() return tb() end\n TBR = f()");
  lua_getglobal(L, "TBR");
  CHECK(strncmp(lua_tostring(L, -1), "msg\nstack traceback:\n\t[C]: in function 'tb'", 43) == 0);
  lua_pop(L, 1);
  /* debug info */
  dostring(L, "function DBGF(a, b) local c = a return debug.getinfo(1, 'Slnu') end\n"
              "local i = DBGF(1, 2)\n"
              "assert(i.currentline == 1 and i.linedefined == 1 and i.nparams == 2)\n"
              "assert(i.what == 'Lua' and i.short_src == '[string \"function DBGF(a, b) local c = a return debug....\"]')\n"
              "assert(i.name == 'DBGF' and i.namewhat == 'global', i.namewhat)");
  /* load errors */
  CHECK(luaL_loadfile(L, "/nonexistent/file.lua") == LUA_ERRFILE);
  CHECK(strncmp(lua_tostring(L, -1), "cannot open /nonexistent/file.lua", 33) == 0);
  lua_pop(L, 1);
  /* gc control */
  CHECK(lua_gc(L, LUA_GCCOUNT) > 0);
  CHECK(lua_gc(L, LUA_GCISRUNNING) == 1);
  lua_gc(L, LUA_GCSTOP);
  CHECK(lua_gc(L, LUA_GCISRUNNING) == 0);
  lua_gc(L, LUA_GCRESTART);
  CHECK(lua_gc(L, LUA_GCSETPAUSE, 150) == 200);
  CHECK(lua_gc(L, LUA_GCSETPAUSE, 200) == 148);   /* 5.4 keeps pause/4 */
  CHECK(lua_version(L) == 504);
  luaL_checkversion(L);
  lua_settop(L, base);
}

static int writer(lua_State *L, const void *p, size_t sz, void *ud) {
  luaL_addlstring((luaL_Buffer *)ud, (const char *)p, sz);
  (void)L;
  return 0;
}

static void test_dump(lua_State *L) {
  int base = lua_gettop(L);
  luaL_Buffer b;
  size_t len;
  const char *s;
  luaL_loadstring(L, "local x = ... return 6 * x");
  luaL_buffinit(L, &b);          /* placeholder above the function */
  lua_pushvalue(L, -2);
  CHECK(lua_dump(L, writer, &b, 0) == 0);
  lua_pop(L, 1);
  luaL_pushresult(&b);
  s = lua_tolstring(L, -1, &len);
  CHECK(len > 4 && memcmp(s, LUA_SIGNATURE, 4) == 0);
  CHECK(luaL_loadbufferx(L, s, len, "=dumped", "b") == LUA_OK);
  lua_pushinteger(L, 7);
  CHECK(lua_pcall(L, 1, 1, 0) == LUA_OK && lua_tointeger(L, -1) == 42);
  CHECK(luaL_loadbufferx(L, s, len, "=dumped", "t") != LUA_OK);
  lua_settop(L, base);
}

int main(void) {
  lua_State *L = luaL_newstate();
  if (L == NULL) {
    fprintf(stderr, "cannot create state\n");
    return 1;
  }
  luaL_openlibs(L);
  test_stack(L);
  test_values(L);
  test_tables(L);
  test_calls(L);
  test_userdata(L);
  test_buffers(L);
  test_refs(L);
  test_stability(L);
  test_misc(L);
  test_dump(L);
  CHECK(lua_gettop(L) == 0);
  gc_count = 0;
  lua_close(L);   /* runs P's finalizer (x == 5: not counted) */
  printf("%d passed, %d failed\n", checks - failures, failures);
  return failures == 0 ? 0 : 1;
}
