/*
** test_interrupt.c -- mvm_interrupt from another OS thread.  The host runs
** Lua code that never ends (`while true do end`, a numeric for loop, an
** endless tail-call/recursion loop, a coroutine spinning) in the main
** thread; a second thread calls mvm_interrupt after 100 ms.  Each time the
** loop must stop with a catchable "interrupted" error, and the VM must stay
** usable afterwards.  Exit status 0 when every check passes.
*/
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"
#include "mvm.h"
#include "embedtest.h"

typedef struct Shot { lua_State *L; int delay_ms; } Shot;

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void *interrupter(void *arg) {
  Shot *s = (Shot *)arg;
  struct timespec ts = {s->delay_ms / 1000, (long)(s->delay_ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
  mvm_interrupt(s->L);       /* from a thread that is not running the VM */
  return NULL;
}

/* run 'code' while another thread interrupts after 100 ms; returns the
** lua_pcall status and leaves the error message on the stack */
static int run_interrupted(lua_State *L, const char *code, double *elapsed) {
  pthread_t th;
  Shot s = {L, 100};
  int status;
  double t0;
  if (luaL_loadstring(L, code) != LUA_OK) return -1;
  mvm_clearinterrupt(L);
  t0 = now_ms();
  pthread_create(&th, NULL, interrupter, &s);
  status = lua_pcall(L, 0, 0, 0);
  *elapsed = now_ms() - t0;
  pthread_join(th, NULL);
  return status;
}

static void expect_interrupt(lua_State *L, const char *code) {
  double ms = 0;
  int status = run_interrupted(L, code, &ms);
  CHECK(status == LUA_ERRRUN);
  CHECK(lua_isstring(L, -1) && strstr(lua_tostring(L, -1), "interrupted") != NULL);
  if (status != LUA_ERRRUN || lua_tostring(L, -1) == NULL ||
      strstr(lua_tostring(L, -1), "interrupted") == NULL)
    fprintf(stderr, "  for [%s]: status %d, %s\n", code, status, lua_tostring(L, -1));
  /* it stopped soon after the request (generous bound for loaded machines) */
  CHECK(ms >= 90 && ms < 10000);
  lua_pop(L, 1);
  /* the VM is usable afterwards */
  DOSTRING(L, "local t = {} for i = 1, 100 do t[i] = i * i end assert(t[100] == 10000)");
  CHECK(lua_gettop(L) == 0);
}

int main(void) {
  lua_State *L = luaL_newstate();
  double ms;
  int mode;
  if (L == NULL) return 1;
  luaL_openlibs(L);
  expect_interrupt(L, "while true do end");
  expect_interrupt(L, "for i = 1, math.maxinteger do end");
  expect_interrupt(L, "local function f(n) return f(n + 1) end return f(1)");
  /* deep non-tail recursion through the function's own upvalue, also
  ** compiled (direct self calls, JIT permitting): the request arrives
  ** inside it */
  for (mode = MVM_JIT_OFF; mode <= MVM_JIT_EAGER; mode += MVM_JIT_EAGER) {
    int old = mvm_jitmode(L, mode);
    expect_interrupt(L, "local function d(n) if n == 0 then return 0 end return 1 + d(n - 1) end\n"
                        "while true do d(150) end");
    expect_interrupt(L, "local function fib(k) if k < 2 then return k end return fib(k - 1) + fib(k - 2) end\n"
                        "while true do fib(20) end");
    mvm_jitmode(L, old);
  }
  expect_interrupt(L, "local function g() local x = {} ; return #x end\n"
                      "while true do g() end");
  expect_interrupt(L, "local co = coroutine.wrap(function() while true do coroutine.yield() end end)\n"
                      "while true do co() end");
  expect_interrupt(L, "repeat local s = ('x'):rep(10) until false");
  /* a loop inside a coroutine: the request is for the main thread, the
  ** coroutine's own back-edge count (lua_State.becount) finds it */
  expect_interrupt(L, "local co = coroutine.wrap(function() while true do end end)\n"
                      "co()");
  /* the error is catchable inside Lua: pcall returns it, code goes on */
  CHECK(run_interrupted(L,
    "local ok, e = pcall(function() while true do end end)\n"
    "assert(not ok and e:find('interrupted'), e)\n"
    "CAUGHT = true", &ms) == LUA_OK);
  lua_getglobal(L, "CAUGHT");
  CHECK(lua_toboolean(L, -1));
  lua_pop(L, 1);
  lua_close(L);
  return REPORT();
}
