/*
** test_threads.c -- independent VMs in parallel OS threads.  Four threads
** each create their own VM (luaL_newstate), run the same mixed workload
** (strings, tables, closures, coroutines, sorting, string.format,
** metatables, finalizers, garbage collection, errors) several times and
** check its result against the one computed single-threaded first.  Any
** mutable state shared between VMs (statics in vm/, gc/, stdlib/) would
** show up here as wrong results or crashes (run it under a thread
** sanitizer to hunt races).  Exit status 0 when every check passes.
*/
#include <pthread.h>
#include <stdlib.h>

#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"
#include "embedtest.h"

#define NTHREADS 4
#define ROUNDS 3

static const char workload[] =
  "local n = ...\n"
  "local parts = {}\n"
  /* strings: interning, formatting, patterns */
  "for i = 1, n do parts[#parts + 1] = string.format('%05d:%x:%g', i, i * 7, i / 3) end\n"
  "local s = table.concat(parts, ',')\n"
  "local count = 0\n"
  "for a, b in s:gmatch('(%d+):(%x+)') do count = count + (tonumber(b, 16) % 11) end\n"
  /* tables: hash + array, sorting */
  "local t = {}\n"
  "for i = 1, n do t[i] = (i * 7919) % 1009 ; t['k' .. i] = i end\n"
  "table.sort(t)\n"
  "local acc = 0\n"
  "for i = 1, n, 17 do acc = acc + t[i] * i end\n"
  /* closures and upvalues */
  "local function mk(x) return function(y) x = x + y; return x end end\n"
  "local f = mk(0)\n"
  "for i = 1, n do f(i) end\n"
  /* coroutines */
  "local gen = coroutine.wrap(function() for i = 1, n do coroutine.yield(i * i) end end)\n"
  "local sq = 0\n"
  "for i = 1, n do sq = (sq + gen()) % 1000003 end\n"
  /* metatables, finalizers, collection */
  "local V = {}\n"
  "V.__add = function(a, b) return setmetatable({v = a.v + b.v}, V) end\n"
  "local v = setmetatable({v = 0}, V)\n"
  "for i = 1, n do v = v + setmetatable({v = i}, V) end\n"
  "local fin = 0\n"
  "for i = 1, 200 do setmetatable({}, {__gc = function() fin = fin + 1 end}) end\n"
  "collectgarbage()\n"
  /* errors */
  "local errs = 0\n"
  "for i = 1, 100 do if not pcall(error, {i}) then errs = errs + 1 end end\n"
  "return string.format('%d|%d|%d|%d|%d|%d|%d|%s', count, acc, f(0), sq, v.v, fin, errs,\n"
  "                     s:sub(-20))\n";

static char expected[256];
static int size = 10000;      /* workload size (smaller under GC stress) */

/* run the workload in a fresh VM; writes the result into 'out' */
static int run_workload(char *out, size_t outsz) {
  lua_State *L = luaL_newstate();
  int ok;
  if (L == NULL) return 0;
  luaL_openlibs(L);
  ok = luaL_loadstring(L, workload) == LUA_OK;
  if (ok) {
    lua_pushinteger(L, size);
    ok = lua_pcall(L, 1, 1, 0) == LUA_OK;
  }
  snprintf(out, outsz, "%s", lua_tostring(L, -1) ? lua_tostring(L, -1) : "(no result)");
  lua_close(L);
  return ok;
}

typedef struct Job { int id, good, bad; char last[256]; } Job;

static void *worker(void *arg) {
  Job *j = (Job *)arg;
  int r;
  for (r = 0; r < ROUNDS; r++) {
    if (run_workload(j->last, sizeof j->last) && strcmp(j->last, expected) == 0)
      j->good++;
    else
      j->bad++;
  }
  return NULL;
}

int main(void) {
  pthread_t th[NTHREADS];
  Job jobs[NTHREADS];
  int i;
  const char *stress = getenv("MVM_GC_STRESS");
  if (stress != NULL && *stress != '\0' && strcmp(stress, "0") != 0) size = 1500;
  CHECK(run_workload(expected, sizeof expected));
  printf("single-threaded result: %s\n", expected);
  for (i = 0; i < NTHREADS; i++) {
    memset(&jobs[i], 0, sizeof jobs[i]);
    jobs[i].id = i;
    CHECK(pthread_create(&th[i], NULL, worker, &jobs[i]) == 0);
  }
  for (i = 0; i < NTHREADS; i++) {
    pthread_join(th[i], NULL);
    CHECK(jobs[i].good == ROUNDS && jobs[i].bad == 0);
    if (jobs[i].bad != 0)
      fprintf(stderr, "thread %d: %d bad rounds, last result %s\n", i, jobs[i].bad, jobs[i].last);
  }
  return REPORT();
}
