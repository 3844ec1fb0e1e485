/* meta.h -- metatables and metamethod lookup/calls (vm/meta.c). */
#ifndef mvm_meta_h
#define mvm_meta_h
#include "state.h"

/* fast test for absence of a metamethod e (e <= TM_EQ) in metatable mt */
#define gfasttm(g,et,e) ((et) == NULL ? NULL : \
  ((et)->extra & (1u << (e))) ? NULL : meta_gettm(et, e, (g)->tmname[e]))
#define fasttm(l,et,e)  gfasttm(G(l), et, e)

LUAI_FUNC void meta_init(lua_State *L);                       /* tmname[] */
LUAI_FUNC const Value *meta_gettm(Table *events, TMS event, TString *ename);
LUAI_FUNC const Value *meta_gettmbyobj(lua_State *L, const Value *o, TMS event);
LUAI_FUNC Table *meta_getmetatable(lua_State *L, Value o);
LUAI_FUNC int meta_setmtfast(global_State *g, Value t, Value mt);
LUAI_FUNC const char *meta_typename(int t);                   /* "nil", "number"... */
LUAI_FUNC const char *meta_objtypename(lua_State *L, const Value *o); /* honours __name */
LUAI_FUNC void meta_callTM(lua_State *L, const Value *f, const Value *p1, const Value *p2, const Value *p3);
LUAI_FUNC void meta_callTMres(lua_State *L, const Value *f, const Value *p1, const Value *p2, Value *res);
LUAI_FUNC void meta_trybinTM(lua_State *L, const Value *p1, const Value *p2, Value *res, TMS event);
LUAI_FUNC void meta_trybinassocTM(lua_State *L, const Value *p1, const Value *p2, int flip, Value *res, TMS event);
LUAI_FUNC void meta_trybiniTM(lua_State *L, const Value *p1, int64_t i2, int flip, Value *res, TMS event);
LUAI_FUNC int meta_callorderTM(lua_State *L, const Value *p1, const Value *p2, TMS event);
LUAI_FUNC int meta_callorderiTM(lua_State *L, const Value *p1, int v2, int flip, int isfloat, TMS event);
LUAI_FUNC void meta_adjustvarargs(lua_State *L, int nfixparams, CallInfo *ci, const Proto *p);
LUAI_FUNC void meta_getvarargs(lua_State *L, CallInfo *ci, Value *where, int wanted);
#endif
