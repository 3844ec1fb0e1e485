/*
** mvmext.c -- implementation of the small mvm.h extensions that only poke
** the global state: JIT mode and interrupt requests.
*/
#include "lua.h"
#include "mvm.h"
#include "../vm/state.h"

LUA_API int mvm_jitmode(lua_State *L, int mode) {
  global_State *g = G(L);
  int old = g->jitmode;
  if (mode == MVM_JIT_QUERY)
    return old;
  if (mode < MVM_JIT_OFF || mode > MVM_JIT_EAGER)
    return -1;
  g->jitmode = mode;
  return old;
}

LUA_API int mvm_jitmodename(const char *name) {
  /* no <string.h> here: with -Ivm on the command line it would resolve to
  ** vm/string.h */
  static const char *const names[] = {"off", "on", "eager"};
  int i, j;
  if (name == NULL)
    return -1;
  for (i = 0; i < 3; i++) {
    for (j = 0; names[i][j] != '\0' && names[i][j] == name[j]; j++)
      ;
    if ((names[i][j] == '\0' && name[j] == '\0') ||
        (name[0] == '0' + i && name[1] == '\0'))
      return i;
  }
  return -1;
}

/* Both run from signal handlers: a single store to a volatile sig_atomic_t
** is all they may do. */
LUA_API void mvm_interrupt(lua_State *L) {
  G(L)->interrupt = 1;
}

LUA_API void mvm_clearinterrupt(lua_State *L) {
  G(L)->interrupt = 0;
}
