/*
** embedtest.h -- the little check harness shared by the embedding tests
** (each tests/embed/test_*.c is its own C host program).
*/
#ifndef embedtest_h
#define embedtest_h

#include <stdio.h>
#include <string.h>

static int failures = 0, checks = 0;

#define CHECK(cond) do { checks++; if (!(cond)) { failures++; \
  fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); } } while (0)
#define CHECKSTR(a, b) do { const char *a_ = (a), *b_ = (b); checks++; \
  if (a_ == NULL || strcmp(a_, b_) != 0) { failures++; \
    fprintf(stderr, "FAIL %s:%d: got \"%s\", expected \"%s\"\n", __FILE__, __LINE__, \
            a_ ? a_ : "(null)", b_); } } while (0)

/* run a chunk, expecting success */
#define DOSTRING(L, code) do { checks++; \
  if (luaL_dostring((L), (code)) != LUA_OK) { failures++; \
    fprintf(stderr, "FAIL %s:%d running [%s]: %s\n", __FILE__, __LINE__, (code), \
            lua_tostring((L), -1)); lua_pop((L), 1); } } while (0)

#define REPORT() (printf("%d passed, %d failed\n", checks - failures, failures), \
                  failures == 0 ? 0 : 1)

#endif
