/*
** dblib.c -- the debug library.  Public C API only.
** Lua-level hooks are kept in a weak-keyed registry table HOOK_KEY mapping
** each thread to its hook function; one C hook dispatches to them.
*/
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"


static const char *const HOOK_KEY = "_HOOKKEY";

/* make room in another thread's stack (L's own stack is checked by API) */
static void ensure_stack(lua_State *L, lua_State *L1, int n) {
  if (L != L1 && !lua_checkstack(L1, n))
    luaL_error(L, "stack overflow");
}

/* optional thread as first argument: *arg is 1 if present, else 0 */
static lua_State *opt_thread(lua_State *L, int *arg) {
  if (lua_isthread(L, 1)) {
    *arg = 1;
    return lua_tothread(L, 1);
  }
  *arg = 0;
  return L;
}

static int db_getregistry(lua_State *L) {
  lua_pushvalue(L, LUA_REGISTRYINDEX);
  return 1;
}

static int db_getmetatable(lua_State *L) {
  luaL_checkany(L, 1);
  if (!lua_getmetatable(L, 1))
    lua_pushnil(L);
  return 1;
}

static int db_setmetatable(lua_State *L) {
  int t = lua_type(L, 2);
  luaL_argexpected(L, t == LUA_TNIL || t == LUA_TTABLE, 2, "nil or table");
  lua_settop(L, 2);
  lua_setmetatable(L, 1);
  return 1;
}

static int db_getuservalue(lua_State *L) {
  int n = (int)luaL_optinteger(L, 2, 1);
  if (lua_type(L, 1) != LUA_TUSERDATA)
    luaL_pushfail(L);
  else if (lua_getiuservalue(L, 1, n) != LUA_TNONE) {
    lua_pushboolean(L, 1);
    return 2;
  }
  return 1;
}

static int db_setuservalue(lua_State *L) {
  int n = (int)luaL_optinteger(L, 3, 1);
  luaL_checktype(L, 1, LUA_TUSERDATA);
  luaL_checkany(L, 2);
  lua_settop(L, 2);
  if (!lua_setiuservalue(L, 1, n))
    luaL_pushfail(L);
  return 1;
}

/* ---------------------------------------------------------------- getinfo */

static void field_str(lua_State *L, const char *k, const char *v) {
  lua_pushstring(L, v);   /* NULL leaves the field absent */
  lua_setfield(L, -2, k);
}

static void field_int(lua_State *L, const char *k, int v) {
  lua_pushinteger(L, v);
  lua_setfield(L, -2, k);
}

static void field_bool(lua_State *L, const char *k, int v) {
  lua_pushboolean(L, v);
  lua_setfield(L, -2, k);
}

/* move a value lua_getinfo pushed on L1 into the result table on L */
static void field_from_thread(lua_State *L, lua_State *L1, const char *k) {
  if (L == L1)
    lua_rotate(L, -2, 1);   /* value above the table: swap */
  else
    lua_xmove(L1, L, 1);
  lua_setfield(L, -2, k);
}

static int db_getinfo(lua_State *L) {
  lua_Debug ar;
  int arg;
  lua_State *L1 = opt_thread(L, &arg);
  const char *opts = luaL_optstring(L, arg + 2, "flnSrtu");
  ensure_stack(L, L1, 3);
  luaL_argcheck(L, opts[0] != '>', arg + 2, "invalid option '>'");
  if (lua_isfunction(L, arg + 1)) {
    opts = lua_pushfstring(L, ">%s", opts);
    lua_pushvalue(L, arg + 1);
    lua_xmove(L, L1, 1);
  }
  else {
    if (!lua_getstack(L1, (int)luaL_checkinteger(L, arg + 1), &ar)) {
      luaL_pushfail(L);   /* level out of range */
      return 1;
    }
  }
  if (!lua_getinfo(L1, opts, &ar))
    return luaL_argerror(L, arg + 2, "invalid option");
  lua_newtable(L);
  if (strchr(opts, 'S')) {
    lua_pushlstring(L, ar.source, ar.srclen);
    lua_setfield(L, -2, "source");
    field_str(L, "short_src", ar.short_src);
    field_int(L, "linedefined", ar.linedefined);
    field_int(L, "lastlinedefined", ar.lastlinedefined);
    field_str(L, "what", ar.what);
  }
  if (strchr(opts, 'l'))
    field_int(L, "currentline", ar.currentline);
  if (strchr(opts, 'u')) {
    field_int(L, "nups", ar.nups);
    field_int(L, "nparams", ar.nparams);
    field_bool(L, "isvararg", ar.isvararg);
  }
  if (strchr(opts, 'n')) {
    field_str(L, "name", ar.name);
    field_str(L, "namewhat", ar.namewhat);
  }
  if (strchr(opts, 'r')) {
    field_int(L, "ftransfer", ar.ftransfer);
    field_int(L, "ntransfer", ar.ntransfer);
  }
  if (strchr(opts, 't'))
    field_bool(L, "istailcall", ar.istailcall);
  /* 'f' was pushed before 'L', so the lines table is on top */
  if (strchr(opts, 'L'))
    field_from_thread(L, L1, "activelines");
  if (strchr(opts, 'f'))
    field_from_thread(L, L1, "func");
  return 1;
}

/* --------------------------------------------------------------- locals */

static int db_getlocal(lua_State *L) {
  int arg;
  lua_State *L1 = opt_thread(L, &arg);
  int nvar = (int)luaL_checkinteger(L, arg + 2);
  if (lua_isfunction(L, arg + 1)) {   /* parameter names of a function */
    lua_pushvalue(L, arg + 1);
    lua_pushstring(L, lua_getlocal(L, NULL, nvar));
    return 1;
  }
  lua_Debug ar;
  int level = (int)luaL_checkinteger(L, arg + 1);
  if (!lua_getstack(L1, level, &ar))
    return luaL_argerror(L, arg + 1, "level out of range");
  ensure_stack(L, L1, 1);
  const char *name = lua_getlocal(L1, &ar, nvar);
  if (name == NULL) {
    luaL_pushfail(L);
    return 1;
  }
  lua_xmove(L1, L, 1);
  lua_pushstring(L, name);
  lua_rotate(L, -2, 1);   /* name, value */
  return 2;
}

static int db_setlocal(lua_State *L) {
  int arg;
  lua_State *L1 = opt_thread(L, &arg);
  lua_Debug ar;
  int level = (int)luaL_checkinteger(L, arg + 1);
  int nvar = (int)luaL_checkinteger(L, arg + 2);
  if (!lua_getstack(L1, level, &ar))
    return luaL_argerror(L, arg + 1, "level out of range");
  luaL_checkany(L, arg + 3);
  lua_settop(L, arg + 3);
  ensure_stack(L, L1, 1);
  lua_xmove(L, L1, 1);
  const char *name = lua_setlocal(L1, &ar, nvar);
  if (name == NULL)
    lua_pop(L1, 1);   /* value was not consumed */
  lua_pushstring(L, name);
  return 1;
}

/* ------------------------------------------------------------- upvalues */

static int access_upvalue(lua_State *L, int get) {
  int n = (int)luaL_checkinteger(L, 2);
  luaL_checktype(L, 1, LUA_TFUNCTION);
  const char *name = get ? lua_getupvalue(L, 1, n) : lua_setupvalue(L, 1, n);
  if (name == NULL)
    return 0;
  lua_pushstring(L, name);
  lua_insert(L, -(get + 1));   /* name before the value (get) */
  return get + 1;
}

static int db_getupvalue(lua_State *L) {
  return access_upvalue(L, 1);
}

static int db_setupvalue(lua_State *L) {
  luaL_checkany(L, 3);
  return access_upvalue(L, 0);
}

static void *check_upvalue(lua_State *L, int fidx, int nidx, int *pn) {
  int n = (int)luaL_checkinteger(L, nidx);
  luaL_checktype(L, fidx, LUA_TFUNCTION);
  void *id = lua_upvalueid(L, fidx, n);
  if (pn != NULL) {
    luaL_argcheck(L, id != NULL, nidx, "invalid upvalue index");
    *pn = n;
  }
  return id;
}

static int db_upvalueid(lua_State *L) {
  void *id = check_upvalue(L, 1, 2, NULL);
  if (id != NULL)
    lua_pushlightuserdata(L, id);
  else
    luaL_pushfail(L);
  return 1;
}

static int db_upvaluejoin(lua_State *L) {
  int n1, n2;
  check_upvalue(L, 1, 2, &n1);
  check_upvalue(L, 3, 4, &n2);
  luaL_argcheck(L, !lua_iscfunction(L, 1), 1, "Lua function expected");
  luaL_argcheck(L, !lua_iscfunction(L, 3), 3, "Lua function expected");
  lua_upvaluejoin(L, 1, n1, 3, n2);
  return 0;
}

/* ---------------------------------------------------------------- hooks */

static void hook_dispatch(lua_State *L, lua_Debug *ar) {
  static const char *const events[] =
    {"call", "return", "line", "count", "tail call"};
  lua_getfield(L, LUA_REGISTRYINDEX, HOOK_KEY);
  lua_pushthread(L);
  if (lua_rawget(L, -2) == LUA_TFUNCTION) {
    lua_pushstring(L, events[ar->event]);
    if (ar->currentline >= 0)
      lua_pushinteger(L, ar->currentline);
    else
      lua_pushnil(L);
    lua_call(L, 2, 0);
  }
}

static int mask_from(const char *s, int count) {
  int mask = 0;
  if (strchr(s, 'c')) mask |= LUA_MASKCALL;
  if (strchr(s, 'r')) mask |= LUA_MASKRET;
  if (strchr(s, 'l')) mask |= LUA_MASKLINE;
  if (count > 0) mask |= LUA_MASKCOUNT;
  return mask;
}

static char *mask_to(int mask, char *buf) {
  int i = 0;
  if (mask & LUA_MASKCALL) buf[i++] = 'c';
  if (mask & LUA_MASKRET) buf[i++] = 'r';
  if (mask & LUA_MASKLINE) buf[i++] = 'l';
  buf[i] = '\0';
  return buf;
}

static int db_sethook(lua_State *L) {
  int arg, mask, count;
  lua_Hook fn;
  lua_State *L1 = opt_thread(L, &arg);
  if (lua_isnoneornil(L, arg + 1)) {   /* turn hooks off */
    lua_settop(L, arg + 1);
    fn = NULL; mask = 0; count = 0;
  }
  else {
    const char *smask = luaL_checkstring(L, arg + 2);
    luaL_checktype(L, arg + 1, LUA_TFUNCTION);
    count = (int)luaL_optinteger(L, arg + 3, 0);
    fn = hook_dispatch;
    mask = mask_from(smask, count);
  }
  if (!luaL_getsubtable(L, LUA_REGISTRYINDEX, HOOK_KEY)) {
    lua_pushliteral(L, "k");   /* first use: make it weak-keyed */
    lua_setfield(L, -2, "__mode");
    lua_pushvalue(L, -1);
    lua_setmetatable(L, -2);   /* the table is its own metatable */
  }
  ensure_stack(L, L1, 1);
  lua_pushthread(L1);
  lua_xmove(L1, L, 1);   /* key: the target thread */
  lua_pushvalue(L, arg + 1);
  lua_rawset(L, -3);
  lua_sethook(L1, fn, mask, count);
  return 0;
}

static int db_gethook(lua_State *L) {
  int arg;
  lua_State *L1 = opt_thread(L, &arg);
  char buf[5];
  int mask = lua_gethookmask(L1);
  lua_Hook hook = lua_gethook(L1);
  if (hook == NULL) {
    luaL_pushfail(L);
    return 1;
  }
  if (hook != hook_dispatch)
    lua_pushliteral(L, "external hook");
  else {
    lua_getfield(L, LUA_REGISTRYINDEX, HOOK_KEY);
    ensure_stack(L, L1, 1);
    lua_pushthread(L1);
    lua_xmove(L1, L, 1);
    lua_rawget(L, -2);
    lua_remove(L, -2);
  }
  lua_pushstring(L, mask_to(mask, buf));
  lua_pushinteger(L, lua_gethookcount(L1));
  return 3;
}

/* ------------------------------------------------------------------ misc */

static int db_debug(lua_State *L) {
  for (;;) {
    char line[250];
    lua_writestringerror("%s", "lua_debug> ");
    if (fgets(line, sizeof(line), stdin) == NULL || strcmp(line, "cont\n") == 0)
      return 0;
    if (luaL_loadbuffer(L, line, strlen(line), "=(debug command)") ||
        lua_pcall(L, 0, 0, 0))
      lua_writestringerror("%s\n", luaL_tolstring(L, -1, NULL));
    lua_settop(L, 0);
  }
}

static int db_traceback(lua_State *L) {
  int arg;
  lua_State *L1 = opt_thread(L, &arg);
  const char *msg = lua_tostring(L, arg + 1);
  if (msg == NULL && !lua_isnoneornil(L, arg + 1))
    lua_pushvalue(L, arg + 1);   /* non-string message: returned as is */
  else {
    int level = (int)luaL_optinteger(L, arg + 2, (L == L1) ? 1 : 0);
    luaL_traceback(L, L1, msg, level);
  }
  return 1;
}

static int db_setcstacklimit(lua_State *L) {
  int limit = (int)luaL_optinteger(L, 1, 0);
  lua_pushinteger(L, lua_setcstacklimit(L, (unsigned int)limit));
  return 1;
}

static const luaL_Reg db_funcs[] = {
  {"debug", db_debug},
  {"getuservalue", db_getuservalue},
  {"gethook", db_gethook},
  {"getinfo", db_getinfo},
  {"getlocal", db_getlocal},
  {"getregistry", db_getregistry},
  {"getmetatable", db_getmetatable},
  {"getupvalue", db_getupvalue},
  {"upvaluejoin", db_upvaluejoin},
  {"upvalueid", db_upvalueid},
  {"setuservalue", db_setuservalue},
  {"sethook", db_sethook},
  {"setlocal", db_setlocal},
  {"setmetatable", db_setmetatable},
  {"setupvalue", db_setupvalue},
  {"traceback", db_traceback},
  {"setcstacklimit", db_setcstacklimit},
  {NULL, NULL}
};

LUAMOD_API int luaopen_debug(lua_State *L) {
  luaL_newlib(L, db_funcs);
  return 1;
}
