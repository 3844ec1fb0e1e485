/*
** init.c -- luaL_openlibs: opens the standard libraries, plus mvm's 'jit'
** control library ('jit' sets the mode and reports statistics through the
** public mvm_jitmode/mvm_jitstats/mvm_jitflush of mvm.h).
*/
#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"

#include "mvm.h"

/* jit.on(): enable hot-code compilation (an "eager" mode is kept) */
static int jit_on(lua_State *L) {
  if (mvm_jitmode(L, MVM_JIT_QUERY) == MVM_JIT_OFF)
    mvm_jitmode(L, MVM_JIT_ON);
  return 0;
}

static int jit_off(lua_State *L) {
  mvm_jitmode(L, MVM_JIT_OFF);
  return 0;
}

/* jit.status() -> enabled (boolean), mode ("off", "on" or "eager"),
** statistics table {compiled=, failed=, stackmaps=, compile_ms=,
** side_exits=, code_bytes=, osr=} */
static int jit_status(lua_State *L) {
  int mode = mvm_jitmode(L, MVM_JIT_QUERY);
  mvm_JITStats st;
  mvm_jitstats(L, &st);
  lua_pushboolean(L, mode != MVM_JIT_OFF);
  lua_pushstring(L, mode == MVM_JIT_OFF ? "off"
                    : (mode == MVM_JIT_EAGER ? "eager" : "on"));
  lua_createtable(L, 0, 7);
  lua_pushinteger(L, (lua_Integer)st.functions_compiled);
  lua_setfield(L, -2, "compiled");
  lua_pushinteger(L, (lua_Integer)st.compile_failures);
  lua_setfield(L, -2, "failed");
  lua_pushinteger(L, (lua_Integer)st.stackmaps);
  lua_setfield(L, -2, "stackmaps");
  lua_pushnumber(L, st.compile_ms);
  lua_setfield(L, -2, "compile_ms");
  lua_pushinteger(L, (lua_Integer)st.side_exits);
  lua_setfield(L, -2, "side_exits");
  lua_pushinteger(L, (lua_Integer)st.code_bytes);
  lua_setfield(L, -2, "code_bytes");
  lua_pushinteger(L, (lua_Integer)st.loops_compiled);
  lua_setfield(L, -2, "osr");
  return 3;
}

/* jit.flush(): forget compiled code (functions recompile when hot again) */
static int jit_flush(lua_State *L) {
  mvm_jitflush(L);
  return 0;
}

static const luaL_Reg jit_funcs[] = {
  {"on", jit_on},
  {"off", jit_off},
  {"status", jit_status},
  {"flush", jit_flush},
  {NULL, NULL}
};

static int luaopen_jit(lua_State *L) {
  luaL_newlib(L, jit_funcs);
  return 1;
}

static const luaL_Reg std_libs[] = {
  {LUA_GNAME, luaopen_base},
  {LUA_LOADLIBNAME, luaopen_package},
  {LUA_COLIBNAME, luaopen_coroutine},
  {LUA_TABLIBNAME, luaopen_table},
  {LUA_IOLIBNAME, luaopen_io},
  {LUA_OSLIBNAME, luaopen_os},
  {LUA_STRLIBNAME, luaopen_string},
  {LUA_MATHLIBNAME, luaopen_math},
  {LUA_UTF8LIBNAME, luaopen_utf8},
  {LUA_DBLIBNAME, luaopen_debug},
  {"jit", luaopen_jit},
  {NULL, NULL}
};

LUAMOD_API int luaopen_ffi(lua_State *L);   /* stdlib/ffi.c */

LUALIB_API void luaL_openlibs(lua_State *L) {
  for (const luaL_Reg *lib = std_libs; lib->func != NULL; lib++) {
    luaL_requiref(L, lib->name, lib->func, 1);   /* also sets the global */
    lua_pop(L, 1);
  }
  /* ffi is not a global: require("ffi") finds it in package.preload */
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
  lua_pushcfunction(L, luaopen_ffi);
  lua_setfield(L, -2, "ffi");
  lua_pop(L, 1);
}
