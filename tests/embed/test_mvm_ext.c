/*
** test_mvm_ext.c -- a C host exercising mvm.h: mvm_version, the heap limit
** (mvm_setheaplimit/mvm_getheaplimit: "not enough memory" is a catchable
** error and the VM stays usable), mvm_gcstats, mvm_jitstats, mvm_jitmode
** and interrupts requested from a signal handler (mvm_interrupt,
** mvm_clearinterrupt), and the coroutine transfer mvm_resume with
** mvm_yield as a host's own C function.  Exit status 0 when every check
** passes.
*/
#include <signal.h>
#include <stdlib.h>
#include <sys/time.h>

#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"
#include "mvm.h"
#include "embedtest.h"

static void test_version(void) {
  int num = -1;
  const char *v = mvm_version(&num);
  CHECKSTR(v, MVM_RELEASE);
  CHECK(num == MVM_VERSION_NUM);
  CHECK(mvm_version(NULL) == v);
}

static void test_heaplimit(lua_State *L) {
  int base = lua_gettop(L);
  size_t inuse = (size_t)lua_gc(L, LUA_GCCOUNT) * 1024;
  size_t limit = inuse + 4 * 1024 * 1024;
  int status;
  mvm_GCStats st;
  CHECK(mvm_setheaplimit(L, limit) == 0);
  CHECK(mvm_getheaplimit(L) == limit);
  mvm_gcstats(L, &st);
  CHECK(st.heap_limit == limit);
  /* growing past the limit fails with LUA_ERRMEM, caught by pcall */
  luaL_loadstring(L, "local t = {} for i = 1, 1e8 do t[i] = {i} end");
  status = lua_pcall(L, 0, 0, 0);
  CHECK(status == LUA_ERRMEM);
  CHECKSTR(lua_tostring(L, -1), "not enough memory");
  lua_settop(L, base);
  /* inside Lua: pcall catches it too; one big string */
  DOSTRING(L, "local ok, e = pcall(string.rep, 'x', 64 * 1024 * 1024)\n"
              "assert(not ok and e == 'not enough memory', e)");
  /* the VM stays usable under the limit ... */
  DOSTRING(L, "local t = {} for i = 1, 1000 do t[i] = tostring(i) end\n"
              "assert(#t == 1000 and t[1000] == '1000')");
  mvm_gcstats(L, &st);
  CHECK(st.heap_bytes <= limit);
  /* ... and after lifting it, the big allocation succeeds */
  CHECK(mvm_setheaplimit(L, 0) == limit);
  CHECK(mvm_getheaplimit(L) == 0);
  DOSTRING(L, "local s = string.rep('x', 8 * 1024 * 1024) assert(#s == 8 * 1024 * 1024)");
  lua_settop(L, base);
}

static void test_gcstats(lua_State *L) {
  mvm_GCStats a, b;
  mvm_gcstats(L, &a);
  CHECK(a.heap_bytes > 0);
  CHECK(a.heap_bytes / 1024 == (size_t)lua_gc(L, LUA_GCCOUNT));
  CHECK(a.bytes_allocated >= a.heap_bytes);
  DOSTRING(L, "for i = 1, 20000 do local t = {i, tostring(i)} end");
  lua_gc(L, LUA_GCCOLLECT);
  mvm_gcstats(L, &b);
  CHECK(b.major_collections + b.minor_collections > a.major_collections + a.minor_collections);
  CHECK(b.bytes_allocated > a.bytes_allocated + 20000 * 16);
  CHECK(b.total_pause_ms >= b.max_pause_ms && b.max_pause_ms >= 0.0);
}

static void test_jit(lua_State *L) {
  mvm_JITStats js;
  int old = mvm_jitmode(L, MVM_JIT_QUERY);
  CHECK(old == MVM_JIT_OFF || old == MVM_JIT_ON || old == MVM_JIT_EAGER);
  CHECK(mvm_jitmode(L, MVM_JIT_OFF) == old);
  CHECK(mvm_jitmode(L, MVM_JIT_QUERY) == MVM_JIT_OFF);
  DOSTRING(L, "assert(select(2, jit.status()) == 'off')");
  CHECK(mvm_jitmode(L, 7) == -1);
  CHECK(mvm_jitmode(L, MVM_JIT_EAGER) == MVM_JIT_OFF);
  DOSTRING(L, "assert(select(2, jit.status()) == 'eager')");
  CHECK(mvm_jitmode(L, old) == MVM_JIT_EAGER);
  CHECK(mvm_jitmodename("on") == MVM_JIT_ON && mvm_jitmodename("2") == MVM_JIT_EAGER);
  CHECK(mvm_jitmodename("fast") == -1 && mvm_jitmodename(NULL) == -1);
  memset(&js, 0xff, sizeof js);
  mvm_jitstats(L, &js);        /* every field written */
  CHECK(js.loops_compiled != (size_t)-1 && js.side_exits != (size_t)-1 &&
        js.code_bytes != (size_t)-1);
  CHECK(js.compile_ms >= 0.0 && js.functions_compiled < 100 && js.compile_failures < 100);
  CHECK(js.functions_compiled > 0 || js.stackmaps == 0);
}

/* ------------------------------------------ interrupt from a signal */
static lua_State *volatile sig_target;
static void on_alarm(int sig) {
  (void)sig;
  if (sig_target != NULL) mvm_interrupt(sig_target);
}

static void test_signal_interrupt(lua_State *L) {
  int base = lua_gettop(L);
  struct itimerval it;
  /* a request made while nothing runs stays pending ... */
  mvm_interrupt(L);
  luaL_loadstring(L, "local x = 0 for i = 1, 10 do x = x + i end return x");
  CHECK(lua_pcall(L, 0, 1, 0) == LUA_ERRRUN);
  CHECK(strstr(lua_tostring(L, -1), "interrupted") != NULL);
  lua_settop(L, base);
  /* ... unless withdrawn */
  mvm_interrupt(L);
  mvm_clearinterrupt(L);
  DOSTRING(L, "local x = 0 for i = 1, 10 do x = x + i end assert(x == 55)");
  /* SIGALRM after 50 ms interrupts a busy loop inside a Lua pcall */
  sig_target = L;
  signal(SIGALRM, on_alarm);
  memset(&it, 0, sizeof it);
  it.it_value.tv_usec = 50 * 1000;
  setitimer(ITIMER_REAL, &it, NULL);
  DOSTRING(L, "local ok, e = pcall(function() local n = 0 while true do n = n + 1 end end)\n"
              "assert(not ok and e:find('interrupted'), e)\n"
              "INTERRUPTED_OK = true");
  sig_target = NULL;
  signal(SIGALRM, SIG_DFL);
  lua_getglobal(L, "INTERRUPTED_OK");
  CHECK(lua_toboolean(L, -1));
  lua_settop(L, base);
}

/* mvm_resume from the host: values both ways, yields from a Lua function
** (the interpreter's return path) and from C (mvm_yield registered under
** another name), errors, a dead coroutine, the coroutine resuming itself */
static void test_resume(lua_State *L) {
  lua_State *co;
  int n, base = lua_gettop(L);
  lua_pushcfunction(L, mvm_yield);
  lua_setglobal(L, "hostyield");
  DOSTRING(L, "function gen(a, b)\n"
              "  local x, y = coroutine.yield(a + b, a * b)\n"
              "  local z = hostyield(x .. y)\n"
              "  return z, 'done'\n"
              "end");
  co = lua_newthread(L);
  lua_getglobal(co, "gen");
  lua_pushinteger(L, 3); lua_pushinteger(L, 4);
  /* the function is moved with the arguments: resume the thread's own
  ** function first, arguments from L */
  n = mvm_resume(L, co, 2);
  CHECK(n == 2);
  CHECK(lua_tointeger(L, -2) == 7 && lua_tointeger(L, -1) == 12);
  lua_pop(L, 2);
  CHECK(lua_status(co) == LUA_YIELD);
  lua_pushstring(L, "p"); lua_pushstring(L, "q");
  n = mvm_resume(L, co, 2);
  CHECK(n == 1);
  CHECKSTR(lua_tostring(L, -1), "pq");
  lua_pop(L, 1);
  lua_pushinteger(L, 99);
  n = mvm_resume(L, co, 1);
  CHECK(n == 2);
  CHECK(lua_tointeger(L, -2) == 99);
  CHECKSTR(lua_tostring(L, -1), "done");
  lua_pop(L, 2);
  CHECK(lua_status(co) == LUA_OK && lua_gettop(co) == 0);
  /* dead now */
  n = mvm_resume(L, co, 0);
  CHECK(n == -1);
  CHECKSTR(lua_tostring(L, -1), "cannot resume dead coroutine");
  lua_pop(L, 1);
  /* an error inside the coroutine: -1, the message, the error status */
  co = lua_newthread(L);
  DOSTRING(L, "function bad(v) coroutine.yield(v) error('boom ' .. v) end");
  lua_getglobal(co, "bad");
  lua_pushinteger(L, 5);
  CHECK(mvm_resume(L, co, 1) == 1 && lua_tointeger(L, -1) == 5);
  lua_pop(L, 1);
  CHECK(mvm_resume(L, co, 0) == -1);
  CHECK(strstr(lua_tostring(L, -1), "boom 5") != NULL);
  CHECK(lua_status(co) == LUA_ERRRUN);
  lua_pop(L, 1);
  /* a coroutine may not resume the running thread */
  lua_pushthread(L);
  lua_pop(L, 1);
  CHECK(mvm_resume(L, L, 0) == -1);
  CHECKSTR(lua_tostring(L, -1), "cannot resume non-suspended coroutine");
  lua_settop(L, base);
}

int main(void) {
  lua_State *L = luaL_newstate();
  if (L == NULL) return 1;
  luaL_openlibs(L);
  test_version();
  test_gcstats(L);
  test_heaplimit(L);
  test_jit(L);
  test_signal_interrupt(L);
  test_resume(L);
  CHECK(lua_gettop(L) == 0);
  lua_close(L);
  return REPORT();
}
