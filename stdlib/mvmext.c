/*
** mvmext.c -- implementation of the mvm.h extensions: version, heap limit
** and collector statistics, interrupt requests, JIT mode and statistics.
** They only read or poke the global state; none of them allocates.
*/
#include "lua.h"
#include "mvm.h"
#include "state.h"
#include "gc.h"

LUA_API const char *mvm_version(int *num) {
  if (num != NULL) *num = MVM_VERSION_NUM;
  return MVM_RELEASE;
}

LUA_API size_t mvm_setheaplimit(lua_State *L, size_t bytes) {
  global_State *g = G(L);
  size_t old = gc_getheaplimit(g);
  gc_setheaplimit(g, bytes);
  return old;
}

LUA_API size_t mvm_getheaplimit(lua_State *L) {
  return gc_getheaplimit(G(L));
}

LUA_API void mvm_gcstats(lua_State *L, mvm_GCStats *st) {
  global_State *g = G(L);
  GCStats s;
  gc_getstats(g, &s);
  st->heap_bytes = gc_totalbytes(g);
  st->heap_limit = gc_getheaplimit(g);
  st->minor_collections = s.minors;
  st->major_collections = s.majors;
  st->bytes_allocated = s.bytes_allocated;
  st->bytes_promoted = s.bytes_promoted;
  st->max_pause_ms = s.max_pause_ms;
  st->total_pause_ms = s.total_pause_ms;
}

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

/* Both run from signal handlers and from other OS threads than the one
** running the VM: lock-free atomic stores are all
** they do (L->g never changes after lua_newstate, so reading it races with
** nothing).  The interpreter polls the flag (volatile) at calls and loop
** back-edges (lua_State.becount) and clears it when it raises
** "interrupted". */
LUA_API void mvm_interrupt(lua_State *L) {
  __atomic_store_n(&G(L)->interrupt, 1, __ATOMIC_RELEASE);
  /* L's interpreter looks at the flag at its next loop back-edge (other
  ** threads at their next look, state.h) */
  __atomic_store_n(&L->becount, -1, __ATOMIC_RELEASE);
}

LUA_API void mvm_clearinterrupt(lua_State *L) {
  __atomic_store_n(&G(L)->interrupt, 0, __ATOMIC_RELEASE);
}
