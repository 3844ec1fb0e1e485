/*
** test_modules.c -- a C host linked with libmvm.so that loads C modules
** built for STOCK Lua 5.4 with require: abimod (built by the test suite
** against /usr/include/lua5.4, driven by modules/abi.lua) and, when they
** are installed, Debian's lua-lpeg, lua-cjson and lua-filesystem (driven by
** modules/stock_*.lua).  The modules resolve lua_* against libmvm.so.
** The directories come from the build: MVM_ABIMOD_DIR (where abimod.so is)
** and MVM_MODULES_SRC (tests/embed/modules).  Exit status 0 when every
** check passes.
*/
#include <stdlib.h>

#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"
#include "embedtest.h"

#ifndef MVM_MODULES_SRC
#define MVM_MODULES_SRC "modules"
#endif

/* run modules/<name>.lua in a fresh VM; the script prints "... ok" */
static void run_script(const char *name, const char *cpath) {
  char path[1024];
  lua_State *L = luaL_newstate();
  luaL_openlibs(L);
  if (cpath != NULL) {          /* prepend to package.cpath */
    lua_getglobal(L, "package");
    lua_pushstring(L, cpath);
    lua_getfield(L, -2, "cpath");
    lua_concat(L, 2);
    lua_setfield(L, -2, "cpath");
    lua_pop(L, 1);
  }
  snprintf(path, sizeof path, "%s/%s.lua", MVM_MODULES_SRC, name);
  checks++;
  if (luaL_dofile(L, path) != LUA_OK) {
    failures++;
    fprintf(stderr, "FAIL %s: %s\n", path, lua_tostring(L, -1));
  }
  lua_close(L);
}

/* is a stock module installed (on the default cpath)? */
static int installed(const char *mod) {
  lua_State *L = luaL_newstate();
  int found;
  luaL_openlibs(L);
  lua_getglobal(L, "package");
  lua_getfield(L, -1, "searchpath");
  lua_pushstring(L, mod);
  lua_getfield(L, -3, "cpath");
  lua_call(L, 2, 1);
  found = lua_isstring(L, -1);
  lua_close(L);
  return found;
}

int main(void) {
  static const char *const stock[][2] = {
    {"lpeg", "stock_lpeg"}, {"cjson", "stock_cjson"}, {"lfs", "stock_lfs"}};
  int i;
#ifdef MVM_ABIMOD_DIR
  run_script("abi", MVM_ABIMOD_DIR "/?.so;");
#else
  printf("abimod not built (no stock Lua 5.4 headers): skipped\n");
#endif
  for (i = 0; i < 3; i++) {
    if (installed(stock[i][0]))
      run_script(stock[i][1], NULL);
    else
      printf("%s not installed: skipped\n", stock[i][0]);
  }
  return REPORT();
}
