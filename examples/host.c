/*
** host.c -- a small C program embedding libmvm.
**
**   usage: host [-m limit-bytes] script.lua [args...]
**
** It creates a VM, opens the standard libraries, exposes one C function to
** Lua (host.greet(name) -> "hello, <name> from C"), optionally sets a heap
** limit with mvm_setheaplimit, and runs the script with its arguments as
** '...'.  Ctrl-C (SIGINT) while the script runs calls mvm_interrupt: the
** script stops at its next call or loop iteration with the error
** "interrupted" (a second Ctrl-C falls back to the default action).
**
** Build against an installed mvm:
**   cc host.c $(pkg-config --cflags --libs mvm) -o host
*/
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"
#include "mvm.h"

/* the VM the SIGINT handler interrupts; set while a script runs */
static lua_State *volatile running_vm = NULL;

static void on_sigint(int sig) {
  lua_State *L = running_vm;
  (void)sig;
  signal(SIGINT, SIG_DFL);          /* a second Ctrl-C kills the host */
  if (L != NULL)
    mvm_interrupt(L);               /* async-signal-safe: sets a flag */
}

/* host.greet(name): the C function the script can call */
static int host_greet(lua_State *L) {
  const char *name = luaL_checkstring(L, 1);
  lua_pushfstring(L, "hello, %s from C", name);
  return 1;
}

static const luaL_Reg host_funcs[] = {
  {"greet", host_greet},
  {NULL, NULL}
};

/* message handler: add a traceback to string errors */
static int msghandler(lua_State *L) {
  const char *msg = lua_tostring(L, 1);
  if (msg == NULL) msg = lua_pushfstring(L, "(error object is a %s value)",
                                         luaL_typename(L, 1));
  luaL_traceback(L, L, msg, 1);
  return 1;
}

int main(int argc, char **argv) {
  lua_State *L;
  size_t limit = 0;
  int i = 1, status, nargs;
  if (i + 1 < argc && strcmp(argv[i], "-m") == 0) {
    limit = (size_t)strtoull(argv[i + 1], NULL, 10);
    i += 2;
  }
  if (i >= argc) {
    fprintf(stderr, "usage: %s [-m limit-bytes] script.lua [args...]\n", argv[0]);
    return 2;
  }
  L = luaL_newstate();
  if (L == NULL) {
    fprintf(stderr, "host: cannot create a VM\n");
    return 1;
  }
  luaL_openlibs(L);
  luaL_newlib(L, host_funcs);
  lua_pushstring(L, mvm_version(NULL));
  lua_setfield(L, -2, "mvm_version");
  lua_setglobal(L, "host");
  if (limit != 0)
    mvm_setheaplimit(L, limit);

  lua_pushcfunction(L, msghandler);
  status = luaL_loadfile(L, argv[i]);
  if (status == LUA_OK) {
    for (nargs = 0, i++; i < argc; i++, nargs++)
      lua_pushstring(L, argv[i]);
    mvm_clearinterrupt(L);          /* no stale request hits the script */
    running_vm = L;
    signal(SIGINT, on_sigint);
    status = lua_pcall(L, nargs, 0, 1);
    signal(SIGINT, SIG_DFL);
    running_vm = NULL;
  }
  if (status != LUA_OK) {
    fprintf(stderr, "host: %s\n", lua_tostring(L, -1));
    lua_pop(L, 1);
  }
  {
    mvm_GCStats st;
    mvm_gcstats(L, &st);
    if (getenv("HOST_GCSTATS") != NULL)
      fprintf(stderr, "host: %zu collections, %zu bytes in use\n",
              st.major_collections + st.minor_collections, st.heap_bytes);
  }
  lua_close(L);
  return status == LUA_OK ? 0 : 1;
}
