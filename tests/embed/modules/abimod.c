/*
** abimod.c -- a C module built against the SYSTEM's stock Lua 5.4 headers
** (/usr/include/lua5.4 from liblua5.4-dev), never against mvm's include/,
** and loaded into mvm with require("abimod").  It checks binary
** compatibility: the layout of luaL_Buffer, lua_Debug, luaL_Reg, the
** pseudo-indices (LUA_REGISTRYINDEX, upvalue indices), lua_getextraspace,
** and the calling conventions of every API family it touches.  The
** functions are driven by abi.lua, which checks the results.
*/
#include <string.h>

#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"

/* ------------------------------------------- userdata with metatable, __gc */
typedef struct Vec {
  int n;
  double v[1];   /* n entries */
} Vec;

#define VEC "abimod.Vec"

static int vec_new(lua_State *L) {
  int n = (int)luaL_checkinteger(L, 1), i;
  const char *label = luaL_optstring(L, 2, "vec");
  Vec *p;
  luaL_argcheck(L, n >= 1 && n <= 1 << 20, 1, "bad size");
  p = (Vec *)lua_newuserdatauv(L, sizeof(Vec) + (size_t)(n - 1) * sizeof(double), 1);
  p->n = n;
  for (i = 0; i < n; i++) p->v[i] = 0.0;
  luaL_setmetatable(L, VEC);
  /* user value 1: the label string (optional second argument) */
  lua_pushstring(L, label);
  lua_setiuservalue(L, -2, 1);
  return 1;
}

static Vec *checkvec(lua_State *L) { return (Vec *)luaL_checkudata(L, 1, VEC); }

static int vec_index(lua_State *L) {
  Vec *p = checkvec(L);
  if (lua_type(L, 2) == LUA_TNUMBER) {
    lua_Integer i = luaL_checkinteger(L, 2);
    luaL_argcheck(L, 1 <= i && i <= p->n, 2, "index out of range");
    lua_pushnumber(L, p->v[i - 1]);
    return 1;
  }
  /* methods live in the metatable's "methods" field */
  luaL_getmetatable(L, VEC);
  lua_getfield(L, -1, "methods");
  lua_pushvalue(L, 2);
  lua_rawget(L, -2);
  return 1;
}

static int vec_newindex(lua_State *L) {
  Vec *p = checkvec(L);
  lua_Integer i = luaL_checkinteger(L, 2);
  luaL_argcheck(L, 1 <= i && i <= p->n, 2, "index out of range");
  p->v[i - 1] = luaL_checknumber(L, 3);
  return 0;
}

static int vec_len(lua_State *L) {
  lua_pushinteger(L, checkvec(L)->n);
  return 1;
}

static int vec_sum(lua_State *L) {
  Vec *p = checkvec(L);
  double s = 0;
  int i;
  for (i = 0; i < p->n; i++) s += p->v[i];
  lua_pushnumber(L, s);
  return 1;
}

static int vec_label(lua_State *L) {
  checkvec(L);
  lua_getiuservalue(L, 1, 1);
  return 1;
}

/* __gc: counts into the registry field "abimod.collected" */
static int vec_gc(lua_State *L) {
  lua_Integer n;
  checkvec(L);
  lua_getfield(L, LUA_REGISTRYINDEX, "abimod.collected");
  n = lua_tointeger(L, -1);
  lua_pushinteger(L, n + 1);
  lua_setfield(L, LUA_REGISTRYINDEX, "abimod.collected");
  return 0;
}

static int collected(lua_State *L) {
  lua_getfield(L, LUA_REGISTRYINDEX, "abimod.collected");
  if (lua_isnil(L, -1)) lua_pushinteger(L, 0);
  return 1;
}

static int vec_tostring(lua_State *L) {
  Vec *p = checkvec(L);
  lua_pushfstring(L, "Vec(%d)", p->n);
  return 1;
}

/* ------------------------------------------------------------- luaL_Buffer */
/* repeatstr(s, n, sep): builds the result through the buffer, growing it
** well past LUAL_BUFFERSIZE and mixing every way of adding to it */
static int repeatstr(lua_State *L) {
  size_t l;
  const char *s = luaL_checklstring(L, 1, &l);
  lua_Integer n = luaL_checkinteger(L, 2), i;
  const char *sep = luaL_optstring(L, 3, "");
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  for (i = 0; i < n; i++) {
    if (i > 0) luaL_addstring(&b, sep);
    if (i % 3 == 0) luaL_addlstring(&b, s, l);
    else if (i % 3 == 1) {
      char *p = luaL_prepbuffsize(&b, l);
      memcpy(p, s, l);
      luaL_addsize(&b, l);
    }
    else {
      lua_pushlstring(L, s, l);
      luaL_addvalue(&b);
    }
  }
  luaL_pushresult(&b);
  return 1;
}

/* upper(s) with luaL_buffinitsize / luaL_pushresultsize */
static int upper(lua_State *L) {
  size_t l, i;
  const char *s = luaL_checklstring(L, 1, &l);
  luaL_Buffer b;
  char *p = luaL_buffinitsize(L, &b, l);
  for (i = 0; i < l; i++)
    p[i] = (s[i] >= 'a' && s[i] <= 'z') ? (char)(s[i] - 32) : s[i];
  luaL_pushresultsize(&b, l);
  return 1;
}

/* --------------------------------------------------------------- upvalues */
static int counter_step(lua_State *L) {
  lua_Integer c = lua_tointeger(L, lua_upvalueindex(1));
  lua_Integer step = lua_tointeger(L, lua_upvalueindex(2));
  c += step;
  lua_pushinteger(L, c);
  lua_copy(L, -1, lua_upvalueindex(1));
  return 1;
}

/* counter(start, step) -> closure with two upvalues */
static int counter(lua_State *L) {
  lua_pushinteger(L, luaL_optinteger(L, 1, 0));
  lua_pushinteger(L, luaL_optinteger(L, 2, 1));
  lua_pushcclosure(L, counter_step, 2);
  return 1;
}

/* --------------------------------------------- lua_callk / lua_pcallk / yield */
/* callk(f, ...): calls f(...) with lua_callk; if f yields, the continuation
** finishes: it returns "k", the status, then f's results */
static int callk_cont(lua_State *L, int status, lua_KContext ctx) {
  int n = lua_gettop(L) - (int)ctx;
  lua_pushstring(L, "k");
  lua_pushinteger(L, status);
  lua_rotate(L, (int)ctx + 1, 2);
  return n + 2;
}

static int callk(lua_State *L) {
  int n = lua_gettop(L);
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_callk(L, n - 1, LUA_MULTRET, 0, callk_cont);
  return callk_cont(L, LUA_OK, 0);
}

/* pcallk(f, ...): like pcall, through lua_pcallk with a continuation:
** returns ok (boolean), then results or the error */
static int pcallk_cont(lua_State *L, int status, lua_KContext ctx) {
  (void)ctx;
  lua_pushboolean(L, status == LUA_OK || status == LUA_YIELD);
  lua_insert(L, 1);
  return lua_gettop(L);
}

static int pcallk(lua_State *L) {
  int n = lua_gettop(L);
  luaL_checktype(L, 1, LUA_TFUNCTION);
  return pcallk_cont(L, lua_pcallk(L, n - 1, LUA_MULTRET, 0, 0, pcallk_cont), 0);
}

/* yieldk(...): yields its arguments; when resumed, returns the resume
** values followed by the string "after" (added by the continuation) */
static int yield_cont(lua_State *L, int status, lua_KContext ctx) {
  (void)status;
  lua_pushstring(L, (const char *)ctx);
  return lua_gettop(L);
}

static int yieldk(lua_State *L) {
  return lua_yieldk(L, lua_gettop(L), (lua_KContext)"after", yield_cont);
}

/* ------------------------------------------------------------ registry refs */
static int ref(lua_State *L) {
  luaL_checkany(L, 1);
  lua_settop(L, 1);
  lua_pushinteger(L, luaL_ref(L, LUA_REGISTRYINDEX));
  return 1;
}

static int deref(lua_State *L) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, (lua_Integer)luaL_checkinteger(L, 1));
  return 1;
}

static int unref(lua_State *L) {
  luaL_unref(L, LUA_REGISTRYINDEX, (int)luaL_checkinteger(L, 1));
  return 0;
}

/* ------------------------------------------------------------------ tables */
/* tablestuff(t): sums t's array part with lua_geti, counts pairs with
** lua_next, writes t.sum / t[#t+1], returns sum, count, rawlen */
static int tablestuff(lua_State *L) {
  lua_Integer i, n, sum = 0, count = 0;
  luaL_checktype(L, 1, LUA_TTABLE);
  n = luaL_len(L, 1);
  for (i = 1; i <= n; i++) {
    lua_geti(L, 1, i);
    sum += lua_tointeger(L, -1);
    lua_pop(L, 1);
  }
  lua_pushnil(L);
  while (lua_next(L, 1)) { count++; lua_pop(L, 1); }
  lua_pushinteger(L, sum);
  lua_setfield(L, 1, "sum");
  lua_pushstring(L, "appended");
  lua_seti(L, 1, n + 1);
  lua_pushinteger(L, sum);
  lua_pushinteger(L, count);
  lua_pushinteger(L, (lua_Integer)lua_rawlen(L, 1));
  return 3;
}

/* maketable(n): {1..n, name = "t", nested = {x = 1}} with createtable */
static int maketable(lua_State *L) {
  lua_Integer n = luaL_checkinteger(L, 1), i;
  lua_createtable(L, (int)n, 2);
  for (i = 1; i <= n; i++) {
    lua_pushinteger(L, i);
    lua_rawseti(L, -2, i);
  }
  lua_pushliteral(L, "t");
  lua_setfield(L, -2, "name");
  lua_newtable(L);
  lua_pushinteger(L, 1);
  lua_setfield(L, -2, "x");
  lua_setfield(L, -2, "nested");
  return 1;
}

/* ---------------------------------------------------------- misc families */
/* debuginfo(level): short_src and currentline of a level (lua_Debug layout) */
static int debuginfo(lua_State *L) {
  lua_Debug ar;
  if (!lua_getstack(L, (int)luaL_checkinteger(L, 1), &ar)) return 0;
  lua_getinfo(L, "Sl", &ar);
  lua_pushstring(L, ar.short_src);
  lua_pushinteger(L, ar.currentline);
  lua_pushstring(L, ar.what);
  return 3;
}

/* extraspace(): writes and reads back the thread's extra space */
static int extraspace(lua_State *L) {
  void **p = (void **)lua_getextraspace(L);
  void *old = *p;
  *p = (void *)extraspace;
  lua_pushboolean(L, *(void **)lua_getextraspace(L) == (void *)extraspace);
  *p = old;
  return 1;
}

/* fail(kind): raises errors from C in several ways */
static int fail(lua_State *L) {
  const char *kind = luaL_checkstring(L, 1);
  if (strcmp(kind, "error") == 0) return luaL_error(L, "failed with %d", 42);
  if (strcmp(kind, "table") == 0) {
    lua_newtable(L);
    lua_pushstring(L, "payload");
    lua_setfield(L, -2, "what");
    return lua_error(L);
  }
  if (strcmp(kind, "arg") == 0) return luaL_argerror(L, 1, "bad kind");
  return luaL_typeerror(L, 1, "something");
}

/* arith(a, b): lua_arith and lua_compare on the arguments */
static int arith(lua_State *L) {
  lua_settop(L, 2);
  lua_pushvalue(L, 1); lua_pushvalue(L, 2); lua_arith(L, LUA_OPADD);
  lua_pushvalue(L, 1); lua_pushvalue(L, 2); lua_arith(L, LUA_OPIDIV);
  lua_pushvalue(L, 1); lua_arith(L, LUA_OPUNM);
  lua_pushboolean(L, lua_compare(L, 1, 2, LUA_OPLT));
  lua_pushvalue(L, 1); lua_pushvalue(L, 2); lua_concat(L, 2);
  return 5;
}

static const luaL_Reg vec_meta[] = {
  {"__index", vec_index},
  {"__newindex", vec_newindex},
  {"__len", vec_len},
  {"__gc", vec_gc},
  {"__tostring", vec_tostring},
  {NULL, NULL}
};

static const luaL_Reg vec_methods[] = {
  {"sum", vec_sum},
  {"label", vec_label},
  {NULL, NULL}
};

static const luaL_Reg funcs[] = {
  {"vec", vec_new},
  {"collected", collected},
  {"repeatstr", repeatstr},
  {"upper", upper},
  {"counter", counter},
  {"callk", callk},
  {"pcallk", pcallk},
  {"yieldk", yieldk},
  {"ref", ref},
  {"deref", deref},
  {"unref", unref},
  {"tablestuff", tablestuff},
  {"maketable", maketable},
  {"debuginfo", debuginfo},
  {"extraspace", extraspace},
  {"fail", fail},
  {"arith", arith},
  {NULL, NULL}
};

LUAMOD_API int luaopen_abimod(lua_State *L) {
  luaL_checkversion(L);      /* checks lua_Number/lua_Integer sizes, version */
  if (luaL_newmetatable(L, VEC)) {
    luaL_setfuncs(L, vec_meta, 0);
    luaL_newlib(L, vec_methods);
    lua_setfield(L, -2, "methods");
  }
  lua_pop(L, 1);
  luaL_newlib(L, funcs);
  lua_pushstring(L, LUA_VERSION);        /* the headers' version string */
  lua_setfield(L, -2, "headers");
  lua_pushinteger(L, LUA_REGISTRYINDEX);
  lua_setfield(L, -2, "registryindex");
  return 1;
}
