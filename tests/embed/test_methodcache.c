/*
** test_methodcache.c -- compiled code's method caches (jit/jit.h
** JitMethodCache) see classes changed through the C API: lua_setfield,
** lua_rawset, lua_rawsetp, lua_setmetatable, luaL_setfuncs, and a field
** set to nil with lua_setfield.  A hot site `o:m()` is compiled (-j eager
** and -j on, and interpreted with -j off) and called between the changes;
** every change must be seen at the next call.
*/
#include <stdlib.h>
#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"
#include "mvm.h"
#include "embedtest.h"

/* CALL(n) calls the hot site n times and returns its last result */
static const char *prelude =
  "C = {}\n"
  "C.__index = C\n"
  "function C:m() return 'C' end\n"
  "P = { m = function() return 'P' end }\n"
  "P.__index = P\n"
  "obj = setmetatable({}, C)\n"
  "local function call(o) return o:m() end\n"
  "function CALL(n) local r; for _ = 1, n do r = call(obj) end; return r end\n";

static const char *callsite(lua_State *L) {
  const char *s;
  lua_getglobal(L, "CALL");
  lua_pushinteger(L, 60);
  if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
    lua_pop(L, 1);
    return "(error)";
  }
  s = lua_tostring(L, -1);
  lua_pop(L, 1);
  return s;   /* (interned, and C keeps it alive in the tests below) */
}

static int cfun(lua_State *L) {
  lua_pushstring(L, (const char *)lua_touserdata(L, lua_upvalueindex(1)));
  return 1;
}

/* pushes a C closure returning 'name' */
static void pushnamed(lua_State *L, const char *name) {
  lua_pushlightuserdata(L, (void *)name);
  lua_pushcclosure(L, cfun, 1);
}

static void run(int mode) {
  lua_State *L = luaL_newstate();
  luaL_Reg regs[] = { { "m", cfun }, { NULL, NULL } };
  luaL_openlibs(L);
  mvm_jitmode(L, mode);
  DOSTRING(L, prelude);
  CHECKSTR(callsite(L), "C");
  /* lua_setfield: the method replaced */
  lua_getglobal(L, "C");
  pushnamed(L, "setfield");
  lua_setfield(L, -2, "m");
  CHECKSTR(callsite(L), "setfield");
  /* lua_setfield of nil: the method removed, no metatable: an error */
  lua_pushnil(L);
  lua_setfield(L, -2, "m");
  CHECKSTR(callsite(L), "(error)");
  /* lua_setmetatable of the class: the walk goes on to P */
  lua_getglobal(L, "P");
  lua_createtable(L, 0, 1);
  lua_pushvalue(L, -2);
  lua_setfield(L, -2, "__index");
  lua_setmetatable(L, -3);   /* setmetatable(C, {__index = P}) */
  lua_pop(L, 1);
  CHECKSTR(callsite(L), "P");
  /* lua_setmetatable again: the class's chain now ends in Q */
  DOSTRING(L, "Q = { m = function() return 'Q' end }");
  lua_createtable(L, 0, 1);
  lua_getglobal(L, "Q");
  lua_setfield(L, -2, "__index");
  lua_setmetatable(L, -2);
  CHECKSTR(callsite(L), "Q");
  /* lua_rawset: the method back in the class */
  lua_pushstring(L, "m");
  pushnamed(L, "rawset");
  lua_rawset(L, -3);
  CHECKSTR(callsite(L), "rawset");
  /* lua_rawset of '__index' in the class: the receivers' lookups go to P */
  lua_pushstring(L, "__index");
  lua_getglobal(L, "P");
  lua_rawset(L, -3);
  CHECKSTR(callsite(L), "P");
  lua_pushstring(L, "__index");
  lua_pushvalue(L, -2);
  lua_rawset(L, -3);
  CHECKSTR(callsite(L), "rawset");
  /* luaL_setfuncs: another method 'm' */
  lua_pushlightuserdata(L, (void *)"setfuncs");
  luaL_setfuncs(L, regs, 1);
  CHECKSTR(callsite(L), "setfuncs");
  /* lua_rawsetp (a light userdata key) and resizes of the class: no
  ** change of 'm' */
  {
    static int keys[64];
    int i;
    for (i = 0; i < 64; i++) {
      lua_pushboolean(L, 1);
      lua_rawsetp(L, -2, &keys[i]);
    }
  }
  CHECKSTR(callsite(L), "setfuncs");
  /* lua_setmetatable of the object: another class */
  lua_getglobal(L, "obj");
  lua_getglobal(L, "P");
  lua_setmetatable(L, -2);
  lua_pop(L, 1);
  CHECKSTR(callsite(L), "P");
  /* lua_setfield on the object: its own method */
  lua_getglobal(L, "obj");
  pushnamed(L, "own");
  lua_setfield(L, -2, "m");
  lua_pop(L, 1);
  CHECKSTR(callsite(L), "own");
  lua_pop(L, 1);
  CHECK(lua_gettop(L) == 0);
  lua_close(L);
}

int main(void) {
  run(MVM_JIT_OFF);
  run(MVM_JIT_EAGER);
  run(MVM_JIT_ON);
  return REPORT();
}
