/* func.h -- prototypes, closures, upvalues, to-be-closed variables (vm/func.c). */
#ifndef mvm_func_h
#define mvm_func_h
#include "state.h"

#define sizeCclosure(n)  (offsetof(CClosure, upvalue) + sizeof(Value) * (n))
#define sizeLclosure(n)  (offsetof(LClosure, upvals) + sizeof(UpVal *) * (n))

/* special status to close upvalues preserving the top of the stack */
#define CLOSEKTOP  (-1)

LUAI_FUNC Proto *func_newproto(lua_State *L);                        /* MAY ALLOCATE (old space) */
LUAI_FUNC void func_freeproto(lua_State *L, Proto *p);
LUAI_FUNC CClosure *func_newCclosure(lua_State *L, int nupvals);     /* MAY ALLOCATE */
LUAI_FUNC LClosure *func_newLclosure(lua_State *L, int nupvals);     /* MAY ALLOCATE */
LUAI_FUNC void func_initupvals(lua_State *L, LClosure *cl);          /* MAY ALLOCATE */
LUAI_FUNC UpVal *func_findupval(lua_State *L, Value *level);         /* MAY ALLOCATE */
LUAI_FUNC void func_newtbcupval(lua_State *L, Value *level);
LUAI_FUNC void func_closeupval(lua_State *L, Value *level);
/* close upvalues and to-be-closed variables >= level; returns (possibly moved) level */
LUAI_FUNC Value *func_close(lua_State *L, Value *level, int status, int yy);
LUAI_FUNC void func_unlinkupval(UpVal *uv);
LUAI_FUNC const char *func_getlocalname(const Proto *f, int local_number, int pc);
#endif
