/*
** corolib.c -- the coroutine library.  Public C API only, with mvm.h's
** mvm_resume (the transfer of values and the resume in one step) and
** mvm_yield (a yield the interpreter makes without longjmp), and the
** hidden api_wrapthread (below).
*/
#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"
#include "mvm.h"

enum { CO_RUNNING, CO_SUSPENDED, CO_NORMAL, CO_DEAD };
static const char *const status_names[] =
  {"running", "suspended", "normal", "dead"};

static lua_State *check_co(lua_State *L, int arg) {
  lua_State *co = lua_tothread(L, arg);
  luaL_argexpected(L, co != NULL, arg, "thread");
  return co;
}

/* status of 'co' as seen from 'L' */
static int co_state(lua_State *L, lua_State *co) {
  if (L == co)
    return CO_RUNNING;
  switch (lua_status(co)) {
    case LUA_YIELD:
      return CO_SUSPENDED;
    case LUA_OK: {
      lua_Debug ar;
      if (lua_getstack(co, 0, &ar))
        return CO_NORMAL;   /* it resumed another coroutine */
      return (lua_gettop(co) == 0) ? CO_DEAD : CO_SUSPENDED;  /* not started? */
    }
    default:
      return CO_DEAD;   /* finished with an error */
  }
}

/* vm/api.c (hidden, declared in vm/stateint.h): lua_tothread(L,
** lua_upvalueindex(1)) for wrap_call, whose upvalue 1 is its thread */
LUAI_FUNC lua_State *api_wrapthread(lua_State *L);
/* vm/api.c: what co_resume did through lua_tothread, lua_gettop,
** mvm_resume, lua_pushboolean and lua_replace (the results, or the error
** object, above slot 1, which becomes the boolean), without the API
** calls; notthread(L) when slot 1 is no thread */
LUAI_FUNC int api_coresume(lua_State *L, lua_CFunction notthread);
/* vm/api.c: mvm_resume(L, api_wrapthread(L), lua_gettop(L)), one call */
LUAI_FUNC int api_wrapresume(lua_State *L);

/* co_resume's argument error, out of line like wrap_error */
static __attribute__((noinline)) int co_notthread(lua_State *L) {
  check_co(L, 1);   /* raises the argument error */
  return 0;
}

/* (a tail call: no frame of its own, ~10 instructions a resume) */
static int co_resume(lua_State *L) {
  return api_coresume(L, co_notthread);
}

/* wrap_call's error: the resume failed (kept out of wrap_call, whose
** frame then saves no registers: every switch through wrap pays for it) */
static __attribute__((noinline)) int wrap_error(lua_State *L) {
  lua_State *co = api_wrapthread(L);
  int st = lua_status(co);
  if (st != LUA_OK && st != LUA_YIELD) {   /* the coroutine raised */
    lua_closethread(co, L);    /* run its pending to-be-closed variables */
    lua_xmove(co, L, 1);    /* error object after closing */
  }
  if (lua_type(L, -1) == LUA_TSTRING) {   /* add caller position */
    luaL_where(L, 1);
    lua_insert(L, -2);
    lua_concat(L, 2);
  }
  return lua_error(L);
}

/* body of the functions made by coroutine.wrap */
static int wrap_call(lua_State *L) {
  int r = api_wrapresume(L);
  if (r >= 0)
    return r;
  return wrap_error(L);
}

/* for OP_CALL (vm/vm.c, declared in vm/stateint.h), which does
** wrap_call's work itself in its inline C call's frame */
LUAI_DDEF const lua_CFunction mvm_wrapfuncs[2] = { wrap_call, wrap_error };

static int co_create(lua_State *L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_State *co = lua_newthread(L);
  lua_pushvalue(L, 1);
  lua_xmove(L, co, 1);   /* the body becomes the thread's first slot */
  return 1;
}

static int co_wrap(lua_State *L) {
  co_create(L);
  lua_pushcclosure(L, wrap_call, 1);
  return 1;
}

static int co_status(lua_State *L) {
  lua_State *co = check_co(L, 1);
  lua_pushstring(L, status_names[co_state(L, co)]);
  return 1;
}

static int co_running(lua_State *L) {
  int ismain = lua_pushthread(L);
  lua_pushboolean(L, ismain);
  return 2;
}

static int co_isyieldable(lua_State *L) {
  lua_State *co = lua_isnone(L, 1) ? L : check_co(L, 1);
  lua_pushboolean(L, lua_isyieldable(co));
  return 1;
}

static int co_close(lua_State *L) {
  lua_State *co = check_co(L, 1);
  int st = co_state(L, co);
  if (st == CO_DEAD || st == CO_SUSPENDED) {
    int status = lua_closethread(co, L);
    if (status == LUA_OK) {
      lua_pushboolean(L, 1);
      return 1;
    }
    lua_pushboolean(L, 0);
    lua_xmove(co, L, 1);   /* error object */
    return 2;
  }
  return luaL_error(L, "cannot close a %s coroutine", status_names[st]);
}

static const luaL_Reg co_funcs[] = {
  {"create", co_create},
  {"resume", co_resume},
  {"running", co_running},
  {"status", co_status},
  {"wrap", co_wrap},
  {"yield", mvm_yield},
  {"isyieldable", co_isyieldable},
  {"close", co_close},
  {NULL, NULL}
};

LUAMOD_API int luaopen_coroutine(lua_State *L) {
  luaL_newlib(L, co_funcs);
  return 1;
}
