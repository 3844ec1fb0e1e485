/*
** baselib.c -- the basic library (_G): print, type, pairs, pcall, load...
** Written against the public C API only.
*/
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"


/* ---------------------------------------------------------------- output */

static int base_print(lua_State *L) {
  int nargs = lua_gettop(L);
  for (int i = 1; i <= nargs; i++) {
    size_t len;
    const char *s = luaL_tolstring(L, i, &len);   /* pushes the text */
    if (i > 1)
      lua_writestring("\t", 1);
    lua_writestring(s, len);
    lua_pop(L, 1);
  }
  lua_writeline();
  return 0;
}

/* warn(msg1, ...): every piece must be a string; all but the last are
** "to be continued" fragments. */
static int base_warn(lua_State *L) {
  int nargs = lua_gettop(L);
  luaL_checkstring(L, 1);   /* at least one piece */
  for (int i = 2; i <= nargs; i++)
    luaL_checkstring(L, i);
  for (int i = 1; i < nargs; i++)
    lua_warning(L, lua_tostring(L, i), 1);
  lua_warning(L, lua_tostring(L, nargs), 0);
  return 0;
}

/* -------------------------------------------------------------- tonumber */

/* Convert 's' in base 'base' (2..36); accepts surrounding whitespace and a
** leading '-'.  Returns the end position or NULL when not a numeral. */
static const char *parse_in_base(const char *s, int base, lua_Integer *out) {
  lua_Unsigned acc = 0;
  int negative = 0, ndigits = 0;
  while (isspace((unsigned char)*s)) s++;
  if (*s == '-') { negative = 1; s++; }
  else if (*s == '+') s++;
  for (; isalnum((unsigned char)*s); s++) {
    int c = (unsigned char)*s;
    int d = isdigit(c) ? c - '0' : (toupper(c) - 'A') + 10;
    if (d >= base) return NULL;
    acc = acc * (lua_Unsigned)base + (lua_Unsigned)d;   /* wraps like Lua */
    ndigits++;
  }
  if (ndigits == 0) return NULL;
  while (isspace((unsigned char)*s)) s++;
  *out = (lua_Integer)(negative ? (0u - acc) : acc);
  return s;
}

/* vm/api.c (hidden, declared in vm/stateint.h): tonumber(v), type(v) and
** setmetatable(t, mt) with their usual arguments, read from the stack; -1
** otherwise */
LUAI_FUNC int api_tonumberstep(lua_State *L);
LUAI_FUNC int api_typestep(lua_State *L);
LUAI_FUNC int api_setmtstep(lua_State *L);

/* tonumber's general path, out of line: the common case then saves no
** callee-saved register */
static __attribute__((noinline)) int base_tonumbern(lua_State *L) {
  if (lua_isnoneornil(L, 2)) {   /* standard conversion */
    if (lua_type(L, 1) == LUA_TNUMBER) {
      lua_settop(L, 1);
      return 1;
    }
    size_t len;
    const char *s = lua_tolstring(L, 1, &len);
    if (s != NULL && lua_stringtonumber(L, s) == len + 1)
      return 1;   /* the converted number was pushed */
    luaL_checkany(L, 1);   /* "value expected" when called without args */
  }
  else {
    lua_Integer base = luaL_checkinteger(L, 2);
    luaL_checktype(L, 1, LUA_TSTRING);
    size_t len;
    const char *s = lua_tolstring(L, 1, &len);
    luaL_argcheck(L, 2 <= base && base <= 36, 2, "base out of range");
    lua_Integer n = 0;
    const char *e = parse_in_base(s, (int)base, &n);
    if (e == s + len) {
      lua_pushinteger(L, n);
      return 1;
    }
  }
  luaL_pushfail(L);
  return 1;
}

static int base_tonumber(lua_State *L) {
  int n = api_tonumberstep(L);
  return n >= 0 ? n : base_tonumbern(L);
}

/* ------------------------------------------------------- errors & checks */

static int base_error(lua_State *L) {
  int level = (int)luaL_optinteger(L, 2, 1);
  lua_settop(L, 1);
  if (lua_type(L, 1) == LUA_TSTRING && level > 0) {
    luaL_where(L, level);   /* prefix with the position */
    lua_pushvalue(L, 1);
    lua_concat(L, 2);
  }
  return lua_error(L);
}

static int base_assert(lua_State *L) {
  if (lua_toboolean(L, 1))
    return lua_gettop(L);   /* all arguments pass through */
  luaL_checkany(L, 1);
  lua_remove(L, 1);   /* drop the failed condition */
  lua_pushliteral(L, "assertion failed!");
  lua_settop(L, 1);   /* keep the user message when there is one */
  return base_error(L);   /* level 1: no position for C caller */
}

/* for the interpreter's call of assert without a C frame (vm.c OP_CALL)
** and compiled code's (llvmgen.c assertcall) */
LUAI_DDEF const lua_CFunction mvm_baseassert[1] = { base_assert };

/* ----------------------------------------------------------- metatables */

static int base_getmetatable(lua_State *L) {
  luaL_checkany(L, 1);
  if (!lua_getmetatable(L, 1)) {
    lua_pushnil(L);
    return 1;
  }
  luaL_getmetafield(L, 1, "__metatable");   /* the protecting field wins */
  return 1;
}

static int base_setmetatable(lua_State *L) {
  int t;
  if (api_setmtstep(L) > 0) return 1;   /* (compiled code calls this directly) */
  t = lua_type(L, 2);
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_argexpected(L, t == LUA_TNIL || t == LUA_TTABLE, 2, "nil or table");
  if (luaL_getmetafield(L, 1, "__metatable") != LUA_TNIL)
    return luaL_error(L, "cannot change a protected metatable");
  lua_settop(L, 2);
  lua_setmetatable(L, 1);
  return 1;
}

/* for the interpreter's call of setmetatable without a C frame (vm.c
** vm_setmtinline) */
LUAI_DDEF const lua_CFunction mvm_basesetmt[1] = { base_setmetatable };

/* -------------------------------------------------------------- raw ops */

static int base_rawequal(lua_State *L) {
  luaL_checkany(L, 1);
  luaL_checkany(L, 2);
  lua_pushboolean(L, lua_rawequal(L, 1, 2));
  return 1;
}

static int base_rawlen(lua_State *L) {
  int t = lua_type(L, 1);
  luaL_argexpected(L, t == LUA_TTABLE || t == LUA_TSTRING, 1, "table or string");
  lua_pushinteger(L, (lua_Integer)lua_rawlen(L, 1));
  return 1;
}

LUAI_FUNC int api_rawstep(lua_State *L, int set);

static int base_rawget(lua_State *L) {
  if (api_rawstep(L, 0) >= 0)
    return 1;
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_checkany(L, 2);
  lua_settop(L, 2);
  lua_rawget(L, 1);
  return 1;
}

static int base_rawset(lua_State *L) {
  if (api_rawstep(L, 1) >= 0)
    return 1;
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_checkany(L, 2);
  luaL_checkany(L, 3);
  lua_settop(L, 3);
  lua_rawset(L, 1);
  return 1;
}

/* ------------------------------------------------------ collectgarbage */

static int push_gcmode(lua_State *L, int previous) {
  if (previous == -1)
    luaL_pushfail(L);   /* collector busy (e.g. inside a finalizer) */
  else
    lua_pushstring(L, previous == LUA_GCINC ? "incremental" : "generational");
  return 1;
}

static int base_collectgarbage(lua_State *L) {
  static const char *const names[] = {
    "stop", "restart", "collect", "count", "step", "setpause",
    "setstepmul", "isrunning", "generational", "incremental", NULL
  };
  static const int codes[] = {
    LUA_GCSTOP, LUA_GCRESTART, LUA_GCCOLLECT, LUA_GCCOUNT, LUA_GCSTEP,
    LUA_GCSETPAUSE, LUA_GCSETSTEPMUL, LUA_GCISRUNNING, LUA_GCGEN, LUA_GCINC
  };
  int what = codes[luaL_checkoption(L, 1, "collect", names)];
  switch (what) {
    case LUA_GCCOUNT: {
      int kb = lua_gc(L, LUA_GCCOUNT);
      int rem = lua_gc(L, LUA_GCCOUNTB);
      if (kb == -1) break;
      lua_pushnumber(L, (lua_Number)kb + (lua_Number)rem / 1024.0);
      return 1;
    }
    case LUA_GCSTEP: {
      int amount = (int)luaL_optinteger(L, 2, 0);
      int done = lua_gc(L, LUA_GCSTEP, amount);
      if (done == -1) break;
      lua_pushboolean(L, done);
      return 1;
    }
    case LUA_GCSETPAUSE:
    case LUA_GCSETSTEPMUL: {
      int value = (int)luaL_optinteger(L, 2, 0);
      int previous = lua_gc(L, what, value);
      if (previous == -1) break;
      lua_pushinteger(L, previous);
      return 1;
    }
    case LUA_GCISRUNNING: {
      int running = lua_gc(L, LUA_GCISRUNNING);
      if (running == -1) break;
      lua_pushboolean(L, running);
      return 1;
    }
    case LUA_GCGEN: {
      int minormul = (int)luaL_optinteger(L, 2, 0);
      int majormul = (int)luaL_optinteger(L, 3, 0);
      return push_gcmode(L, lua_gc(L, LUA_GCGEN, minormul, majormul));
    }
    case LUA_GCINC: {
      int pause = (int)luaL_optinteger(L, 2, 0);
      int stepmul = (int)luaL_optinteger(L, 3, 0);
      int stepsize = (int)luaL_optinteger(L, 4, 0);
      return push_gcmode(L, lua_gc(L, LUA_GCINC, pause, stepmul, stepsize));
    }
    default: {
      int res = lua_gc(L, what);
      if (res == -1) break;
      lua_pushinteger(L, res);
      return 1;
    }
  }
  luaL_pushfail(L);
  return 1;
}

/* ---------------------------------------------------------- iteration */

LUAI_FUNC void api_pushtypename(lua_State *L, int t);   /* vm/api.c */

static int base_type(lua_State *L) {
  /* (api_typestep refuses only a call without arguments) */
  return api_typestep(L) > 0 ? 1 : luaL_argerror(L, 1, "value expected");
}

/* vm/api.c (hidden, declared in vm/stateint.h): next(t, k) on a table,
** raw; -1 when the argument is no table */
LUAI_FUNC int api_nextstep(lua_State *L);

static int base_next(lua_State *L) {
  int n = api_nextstep(L);
  if (n >= 0) return n;
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 2);   /* a missing key means "first" */
  if (lua_next(L, 1))
    return 2;
  lua_pushnil(L);
  return 1;
}

static int base_pairs(lua_State *L) {
  luaL_checkany(L, 1);
  if (luaL_getmetafield(L, 1, "__pairs") == LUA_TNIL) {
    lua_pushcfunction(L, base_next);
    lua_pushvalue(L, 1);
    lua_pushnil(L);
  }
  else {
    lua_pushvalue(L, 1);
    lua_call(L, 1, 3);   /* __pairs(t) supplies the triple */
  }
  return 3;
}

/* vm/api.c (hidden, declared in vm/stateint.h): the step below on a
** table without a metatable, raw; -1 when it does not apply */
LUAI_FUNC int api_ipairsstep(lua_State *L);
/* vm/api.c (hidden): tell the interpreter which functions ipairs_step and
** base_next are (TFORCALL makes their steps inline on tables) */
LUAI_FUNC void api_setiters(lua_State *L, lua_CFunction ipairsaux, lua_CFunction next);

/* ipairs iterator: honours __index through lua_geti */
static int ipairs_step(lua_State *L) {
  int n = api_ipairsstep(L);
  if (n >= 0) return n;
  lua_Integer i = luaL_checkinteger(L, 2);
  i = (lua_Integer)((lua_Unsigned)i + 1u);
  lua_pushinteger(L, i);
  return (lua_geti(L, 1, i) == LUA_TNIL) ? 1 : 2;
}

static int base_ipairs(lua_State *L) {
  luaL_checkany(L, 1);
  lua_pushcfunction(L, ipairs_step);
  lua_pushvalue(L, 1);
  lua_pushinteger(L, 0);
  return 3;
}

/* ------------------------------------------------------------- loading */

/* after a load: on success install 'env' (if given) as first upvalue */
static int finish_load(lua_State *L, int status, int envidx) {
  if (status == LUA_OK) {
    if (envidx != 0) {
      lua_pushvalue(L, envidx);
      if (!lua_setupvalue(L, -2, 1))   /* no upvalues: drop env */
        lua_pop(L, 1);
    }
    return 1;
  }
  luaL_pushfail(L);
  lua_insert(L, -2);   /* fail, message */
  return 2;
}

static int base_loadfile(lua_State *L) {
  const char *fname = luaL_optstring(L, 1, NULL);
  const char *mode = luaL_optstring(L, 2, NULL);
  int env = !lua_isnone(L, 3) ? 3 : 0;
  int status = luaL_loadfilex(L, fname, mode);
  return finish_load(L, status, env);
}

/* stack slot where the reader keeps the last piece alive */
#define READER_SLOT 5

static const char *function_reader(lua_State *L, void *ud, size_t *size) {
  (void)ud;
  luaL_checkstack(L, 2, "too many nested functions");
  lua_pushvalue(L, 1);
  lua_call(L, 0, 1);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    *size = 0;
    return NULL;   /* end of chunk */
  }
  if (!lua_isstring(L, -1))
    luaL_error(L, "reader function must return a string");
  lua_replace(L, READER_SLOT);
  return lua_tolstring(L, READER_SLOT, size);
}

static int base_load(lua_State *L) {
  size_t len;
  const char *s = lua_tolstring(L, 1, &len);
  const char *mode = luaL_optstring(L, 3, "bt");
  int env = !lua_isnone(L, 4) ? 4 : 0;
  int status;
  if (s != NULL) {
    const char *chunkname = luaL_optstring(L, 2, s);
    /* check the mode here too, so the message does not depend on the core */
    int binary = (len > 0 && s[0] == LUA_SIGNATURE[0]);
    if (strchr(mode, binary ? 'b' : 't') == NULL) {
      luaL_pushfail(L);
      lua_pushfstring(L, "attempt to load a %s chunk (mode is '%s')",
                      binary ? "binary" : "text", mode);
      return 2;
    }
    status = luaL_loadbufferx(L, s, len, chunkname, mode);
  }
  else {
    const char *chunkname = luaL_optstring(L, 2, "=(load)");
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_settop(L, READER_SLOT);
    status = lua_load(L, function_reader, NULL, chunkname, mode);
  }
  return finish_load(L, status, env);
}

static int dofile_done(lua_State *L, int status, lua_KContext ctx) {
  (void)status; (void)ctx;
  return lua_gettop(L) - 1;   /* everything but the file name */
}

static int base_dofile(lua_State *L) {
  const char *fname = luaL_optstring(L, 1, NULL);
  lua_settop(L, 1);
  if (luaL_loadfile(L, fname) != LUA_OK)
    return lua_error(L);
  lua_callk(L, 0, LUA_MULTRET, 0, dofile_done);
  return dofile_done(L, 0, 0);
}

/* ------------------------------------------------------------- select */

LUAI_FUNC int api_selectstep(lua_State *L);

/* the general path, out of line (as base_tonumbern) */
static __attribute__((noinline)) int base_selectn(lua_State *L) {
  int n = lua_gettop(L);
  if (lua_type(L, 1) == LUA_TSTRING && *lua_tostring(L, 1) == '#') {
    lua_pushinteger(L, n - 1);
    return 1;
  }
  lua_Integer i = luaL_checkinteger(L, 1);
  if (i < 0)
    i = n + i;
  else if (i > n)
    i = n;
  luaL_argcheck(L, 1 <= i, 1, "index out of range");
  return n - (int)i;
}

static int base_select(lua_State *L) {
  int r = api_selectstep(L);
  return r >= 0 ? r : base_selectn(L);
}

/* ------------------------------------------------------ protected calls */

/* continuation shared by pcall and xpcall; 'extra' counts the slots below
** the results that are not results (xpcall keeps its handler there) */
static int pcall_done(lua_State *L, int status, lua_KContext extra) {
  if (status != LUA_OK && status != LUA_YIELD) {
    lua_pushboolean(L, 0);
    lua_pushvalue(L, -2);   /* the error object */
    return 2;
  }
  return lua_gettop(L) - (int)extra;
}

static int base_pcall(lua_State *L) {
  luaL_checkany(L, 1);
  lua_pushboolean(L, 1);   /* first result on success */
  lua_insert(L, 1);
  int status = lua_pcallk(L, lua_gettop(L) - 2, LUA_MULTRET, 0, 0, pcall_done);
  return pcall_done(L, status, 0);
}

static int base_xpcall(lua_State *L) {
  int n = lua_gettop(L);
  luaL_checktype(L, 2, LUA_TFUNCTION);
  lua_pushboolean(L, 1);
  lua_pushvalue(L, 1);
  lua_rotate(L, 3, 2);   /* f, handler, true, f, args... */
  int status = lua_pcallk(L, n - 2, LUA_MULTRET, 2, 2, pcall_done);
  return pcall_done(L, status, 2);
}

static int base_tostring(lua_State *L) {
  luaL_checkany(L, 1);
  luaL_tolstring(L, 1, NULL);
  return 1;
}

static const luaL_Reg base_funcs[] = {
  {"assert", base_assert},
  {"collectgarbage", base_collectgarbage},
  {"dofile", base_dofile},
  {"error", base_error},
  {"getmetatable", base_getmetatable},
  {"ipairs", base_ipairs},
  {"loadfile", base_loadfile},
  {"load", base_load},
  {"next", base_next},
  {"pairs", base_pairs},
  {"pcall", base_pcall},
  {"print", base_print},
  {"warn", base_warn},
  {"rawequal", base_rawequal},
  {"rawlen", base_rawlen},
  {"rawget", base_rawget},
  {"rawset", base_rawset},
  {"select", base_select},
  {"setmetatable", base_setmetatable},
  {"tonumber", base_tonumber},
  {"tostring", base_tostring},
  {"type", base_type},
  {"xpcall", base_xpcall},
  {NULL, NULL}
};

LUAMOD_API int luaopen_base(lua_State *L) {
  api_setiters(L, ipairs_step, base_next);
  lua_pushglobaltable(L);
  luaL_setfuncs(L, base_funcs, 0);
  lua_pushvalue(L, -1);
  lua_setfield(L, -2, LUA_GNAME);
  lua_pushliteral(L, LUA_VERSION);
  lua_setfield(L, -2, "_VERSION");
  return 1;
}
