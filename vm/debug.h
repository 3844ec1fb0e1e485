/* debug.h -- runtime errors with positions, debug info (vm/debug.c). */
#ifndef mvm_debug_h
#define mvm_debug_h
#include "state.h"

#define ci_func(ci)  (v_lcl(*(ci)->func))
#define pcRel(pc, p) ((int)((pc) - (p)->code) - 1)

LUAI_FUNC int dbg_getfuncline(const Proto *f, int pc);
LUAI_FUNC l_noret dbg_typeerror(lua_State *L, const Value *o, const char *opname);
LUAI_FUNC l_noret dbg_callerror(lua_State *L, const Value *o);
LUAI_FUNC l_noret dbg_forerror(lua_State *L, const Value *o, const char *what);
LUAI_FUNC l_noret dbg_concaterror(lua_State *L, const Value *p1, const Value *p2);
LUAI_FUNC l_noret dbg_opinterror(lua_State *L, const Value *p1, const Value *p2, const char *msg);
LUAI_FUNC l_noret dbg_tointerror(lua_State *L, const Value *p1, const Value *p2);
LUAI_FUNC l_noret dbg_ordererror(lua_State *L, const Value *p1, const Value *p2);
/* "chunk:line: msg" using the current Lua frame, then raise */
LUAI_FUNC l_noret dbg_runerror(lua_State *L, const char *fmt, ...);
LUAI_FUNC const char *dbg_addinfo(lua_State *L, const char *msg, TString *src, int line);
LUAI_FUNC l_noret dbg_errormsg(lua_State *L);                 /* call message handler, throw */
LUAI_FUNC int dbg_traceexec(lua_State *L, const Instruction *pc);  /* line/count hooks */
#endif
