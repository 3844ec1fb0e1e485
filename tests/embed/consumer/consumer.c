/* consumer.c -- smallest host of an installed mvm: runs a chunk and checks
** that the headers and the library agree on the version. */
#include <stdio.h>
#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"
#include "mvm.h"

int main(void) {
  int num = 0;
  lua_State *L = luaL_newstate();
  luaL_openlibs(L);
  if (luaL_dostring(L, "return ('consumer: ' .. _VERSION .. ' %d'):format(6 * 7)") != LUA_OK) {
    fprintf(stderr, "%s\n", lua_tostring(L, -1));
    return 1;
  }
  mvm_version(&num);
  printf("%s mvm %s%s\n", lua_tostring(L, -1), mvm_version(NULL),
         num == MVM_VERSION_NUM ? "" : " (version mismatch)");
  lua_close(L);
  return num == MVM_VERSION_NUM ? 0 : 1;
}
