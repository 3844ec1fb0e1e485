/*
** test_cstack.c -- deep recursion through compiled code on C stacks of
** every kind a host gives the VM.  Direct calls between compiled
** functions nest on the C stack as deep as the running thread's stack
** allows (jit/jit.h JIT_CSRESERVE: a window above a reserve, set from
** pthread_getattr_np); on a stack whose bounds the thread does not know
** (a host's own fiber, made with makecontext here) they are counted and
** stop JIT_MAXNEST levels deep; a VM that ran on the thread's stack
** first makes none in the fiber.  Each case runs, in -j eager, recursions
** tens of thousands of frames deep (non-tail, tail calls whose last
** argument is a call's results, a yield and an error at the bottom, a
** collection at the bottom) and checks their results: a window too large
** for its stack would crash here.  Exit status 0 when every check passes.
*/
#include <pthread.h>
#include <stdlib.h>
#include <ucontext.h>

#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"
#include "mvm.h"
#include "embedtest.h"

static const char workload[] =
  "local n = ...\n"
  "local function depth(k) if k == 0 then return 0 end return 1 + depth(k - 1) end\n"
  "local function ack(m, k)\n"
  "  if m == 0 then return k + 1 elseif k == 0 then return ack(m - 1, 1) end\n"
  "  return ack(m - 1, ack(m, k - 1))\n"
  "end\n"
  /* a list built recursively, a collection at the bottom */
  "local function build(k) if k == 0 then collectgarbage() return nil end\n"
  "  return {v = k, next = build(k - 1)} end\n"
  "local function len(l) if l == nil then return 0 end return l.v + len(l.next) end\n"
  /* a yield and an error at the bottom */
  "local function dive(k) if k == 0 then return coroutine.yield('bottom') end\n"
  "  return 1 + dive(k - 1) end\n"
  "local co = coroutine.wrap(function() return dive(n) end)\n"
  "local y = co()\n"
  "local r = co(5)\n"
  "local function fall(k) if k == 0 then error('at the bottom') end return 1 + fall(k - 1) end\n"
  "local ok, msg = pcall(fall, n)\n"
  "return string.format('%d %d %d %s %d %s %s', depth(n), ack(2, 300), len(build(n // 4)),\n"
  "                     y, r, tostring(ok), msg:match('at the bottom'))\n";

static char expected[256];
static int depth = 60000;

/* the workload in VM 'L', its result in 'out' */
static int runin(lua_State *L, char *out, size_t outsz) {
  int ok = luaL_loadstring(L, workload) == LUA_OK;
  if (ok) {
    lua_pushinteger(L, depth);
    ok = lua_pcall(L, 1, 1, 0) == LUA_OK;
  }
  snprintf(out, outsz, "%s", lua_tostring(L, -1) ? lua_tostring(L, -1) : "(no result)");
  lua_settop(L, 0);
  return ok;
}

static lua_State *newvm(int mode) {
  lua_State *L = luaL_newstate();
  if (L == NULL) return NULL;
  luaL_openlibs(L);
  mvm_jitmode(L, mode);
  return L;
}

static int run(char *out, size_t outsz, int mode) {
  lua_State *L = newvm(mode);
  int ok;
  if (L == NULL) return 0;
  ok = runin(L, out, outsz);
  lua_close(L);
  return ok;
}

typedef struct Job { int ok; char out[256]; } Job;

static void *worker(void *arg) {
  Job *j = (Job *)arg;
  j->ok = run(j->out, sizeof j->out, MVM_JIT_EAGER);
  return NULL;
}

/* a thread with a stack of 'size' bytes runs the workload */
static void onthread(size_t size) {
  pthread_t th;
  pthread_attr_t a;
  Job j;
  memset(&j, 0, sizeof j);
  CHECK(pthread_attr_init(&a) == 0);
  CHECK(pthread_attr_setstacksize(&a, size) == 0);
  CHECK(pthread_create(&th, &a, worker, &j) == 0);
  pthread_join(th, NULL);
  pthread_attr_destroy(&a);
  CHECK(j.ok);
  CHECKSTR(j.out, expected);
}

static ucontext_t mainctx, fiberctx;
static Job fiberjob;
static lua_State *fiberL;   /* a VM made on the thread's own stack, or NULL */
static void fiber(void) {
  if (fiberL == NULL) worker(&fiberjob);
  else fiberjob.ok = runin(fiberL, fiberjob.out, sizeof fiberjob.out);
}

/* a stack the thread does not know: the workload runs in a fiber, in a
** fresh VM or in 'L', which has run compiled code on the thread's stack */
static void onfiber(size_t size, lua_State *L) {
  void *stack = malloc(size);
  CHECK(stack != NULL);
  if (stack == NULL) return;
  memset(&fiberjob, 0, sizeof fiberjob);
  fiberL = L;
  CHECK(getcontext(&fiberctx) == 0);
  fiberctx.uc_stack.ss_sp = stack;
  fiberctx.uc_stack.ss_size = size;
  fiberctx.uc_link = &mainctx;
  makecontext(&fiberctx, fiber, 0);
  CHECK(swapcontext(&mainctx, &fiberctx) == 0);
  free(stack);
  CHECK(fiberjob.ok);
  CHECKSTR(fiberjob.out, expected);
}

int main(void) {
  char got[256];
  const char *stress = getenv("MVM_GC_STRESS");
  if (stress != NULL && *stress != '\0' && strcmp(stress, "0") != 0) depth = 6000;
  CHECK(run(expected, sizeof expected, MVM_JIT_OFF));   /* interpreted: no C nesting */
  printf("interpreted: %s\n", expected);
  CHECK(run(got, sizeof got, MVM_JIT_EAGER));            /* the main thread's stack */
  CHECKSTR(got, expected);
  onthread((size_t)8 << 20);
  onthread((size_t)256 << 10);
  onthread((size_t)128 << 10);
  onfiber((size_t)512 << 10, NULL);
  {   /* one VM on the main thread's stack, then in a fiber, then back */
    lua_State *L = newvm(MVM_JIT_EAGER);
    CHECK(L != NULL && runin(L, got, sizeof got));
    CHECKSTR(got, expected);
    onfiber((size_t)512 << 10, L);
    CHECK(L != NULL && runin(L, got, sizeof got));
    CHECKSTR(got, expected);
    if (L != NULL) lua_close(L);
  }
  return REPORT();
}
