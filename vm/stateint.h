/*
** stateint.h -- internal helpers of vm/state.c (thread creation and
** destruction) used by the collector and the C API.
*/
#ifndef mvm_stateint_h
#define mvm_stateint_h
#include "state.h"

/* Free the out-of-line parts of a dead thread L1 (its stack and its list of
** CallInfos).  The LX object itself belongs to the collector, which frees it
** afterwards.  Safe on a thread whose stack was never allocated. */
LUAI_FUNC void state_freethread(lua_State *L, lua_State *L1);

/* Give thread L1 a fresh nil-filled stack and its base CallInfo (memory is
** charged through L).  Raises "not enough memory" on failure. */
LUAI_FUNC void state_initstack(lua_State *L1, lua_State *L);

/* Reset a thread's scalar fields to "no stack, no calls, no hooks". */
LUAI_FUNC void state_preinit(lua_State *L1, global_State *g);

/* vm/api.c: the value named by an API index (stack, registry, upvalue);
** a pointer to a nil that must not be written when the index is invalid */
LUAI_FUNC const Value *api_index2value(lua_State *L, int idx);
/* raw block move inside a table's array part, for table.insert/remove
** (vm/api.c; 0 when it does not apply and the caller must loop) */
LUAI_FUNC int api_tabmove(lua_State *L, int idx, lua_Integer dst,
                          lua_Integer src, lua_Integer n);
/* ipairs' step on a plain table (vm/api.c; -1 when lua_geti must run) */
LUAI_FUNC int api_ipairsstep(lua_State *L);
/* next(t, k) on a table (vm/api.c; -1 when it is no table) */
LUAI_FUNC int api_nextstep(lua_State *L);
/* type(v) and tonumber(v) read from the stack (vm/api.c; -1 when the
** general path must run) */
LUAI_FUNC int api_typestep(lua_State *L);
LUAI_FUNC int api_tonumberstep(lua_State *L);
/* setmetatable(t, mt)'s common case (vm/api.c; -1 when the library's
** checks must run) */
LUAI_FUNC int api_setmtstep(lua_State *L);
/* table.insert(t, v) / table.remove(t) on a plain table (vm/api.c; -1
** when tablib's general path must run) */
LUAI_FUNC int api_tabpush(lua_State *L);
LUAI_FUNC int api_tabpop(lua_State *L);
/* coroutine.wrap's coroutine: upvalue 1 of the running C closure */
LUAI_FUNC lua_State *api_wrapthread(lua_State *L);
/* coroutine.resume(co, ...) in one step: the results after true, or false
** and the error object (mvm_resume), or notthread(L) when slot 1 holds
** no thread (vm/api.c) */
LUAI_FUNC int api_coresume(lua_State *L, lua_CFunction notthread);
/* mvm_resume(L, api_wrapthread(L), lua_gettop(L)) in one call (vm/api.c) */
LUAI_FUNC int api_wrapresume(lua_State *L);
/* the body of coroutine.wrap's functions and its error path
** (stdlib/corolib.c wrap_call, wrap_error): OP_CALL (vm/vm.c) makes
** wrap_call's resume itself, without its frame */
LUAI_DDEC(const lua_CFunction mvm_wrapfuncs[2]);
/* luaL_getmetafield without creating the event's name (vm/api.c) */
LUAI_FUNC int api_getmetafield(lua_State *L, int obj, const char *event);
/* register ipairs' iterator and next with the interpreter (vm/api.c) */
LUAI_FUNC void api_setiters(lua_State *L, lua_CFunction ipairsaux, lua_CFunction next);

#endif
