/*
** do.h -- calls, returns, errors (longjmp), stack growth, coroutines,
** protected execution (vm/do.c).
*/
#ifndef mvm_do_h
#define mvm_do_h
#include "state.h"
#include "zio.h"

typedef void (*Pfunc)(lua_State *L, void *ud);

/* ensure n free slots; may reallocate the stack (pointers into it change) */
#define checkstackGCp(L,n,p) \
  if ((L)->stack_last - (L)->top <= (n)) { \
    ptrdiff_t t__ = savestack(L, p); gc_check(L); do_growstack(L, n, 1); p = restorestack(L, t__); }
#define checkstack(L,n) \
  if ((L)->stack_last - (L)->top <= (n)) do_growstack(L, n, 1)

LUAI_FUNC int do_growstack(lua_State *L, int n, int raiseerror);
LUAI_FUNC void do_reallocstack(lua_State *L, int newsize, int raiseerror);
LUAI_FUNC void do_shrinkstack(lua_State *L);
LUAI_FUNC void do_inctop(lua_State *L);

LUAI_FUNC l_noret do_throw(lua_State *L, int errcode);
LUAI_FUNC int do_rawrunprotected(lua_State *L, Pfunc f, void *ud);
LUAI_FUNC int do_pcall(lua_State *L, Pfunc func, void *u, ptrdiff_t oldtop, ptrdiff_t ef);
LUAI_FUNC void do_seterrorobj(lua_State *L, int errcode, Value *oldtop);

/* call the value at 'func' with arguments above it; nresults or LUA_MULTRET */
LUAI_FUNC void do_call(lua_State *L, Value *func, int nresults);
LUAI_FUNC void do_callnoyield(lua_State *L, Value *func, int nresults);
/* Prepare a call for the interpreter: returns the new CallInfo for a Lua
** function (to be run by the caller's loop) or NULL after running a C function. */
LUAI_FUNC CallInfo *do_precall(lua_State *L, Value *func, int nresults);
LUAI_FUNC int do_pretailcall(lua_State *L, CallInfo *ci, Value *func, int narg1, int delta);
LUAI_FUNC void do_poscall(lua_State *L, CallInfo *ci, int nres);
LUAI_FUNC Value *do_tryfuncTM(lua_State *L, Value *func);  /* __call */
LUAI_FUNC CallInfo *do_extendCI(lua_State *L);
LUAI_FUNC void do_freeCI(lua_State *L);
LUAI_FUNC void do_hook(lua_State *L, int event, int line, int fTransfer, int nTransfer);
LUAI_FUNC void do_hookcall(lua_State *L, CallInfo *ci);
LUAI_FUNC int do_closeprotected(lua_State *L, ptrdiff_t level, int status);
/* parse/undump in protected mode; pushes the closure or the error message */
LUAI_FUNC int do_protectedparser(lua_State *L, ZIO *z, const char *name, const char *mode);
/* coroutines: lua_resume/lua_yieldk live in do.c */

#define next_ci(L)  ((L)->ci->next ? (L)->ci->next : do_extendCI(L))
#endif
