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
LUAI_FUNC void meta_getvarargs(lua_State *L, CallInfo *ci, Value *where);

/*
** Vararg functions: the caller left func, fixed params and extra args in
** place.  VARARGPREP copies the function and the fixed parameters above
** the extra arguments, so the frame starts after them and the extras stay
** below ci->func (at func - nextra .. func - 1 of the new frame).  This is
** the copy, for a stack with room for it and the frame (p->maxstacksize +
** 1 slots above L->top: meta_adjustvarargs grows it first); the
** interpreter makes it inline when there is room.  Allocates nothing.
*/
static inline void meta_movevarargs(lua_State *L, int nfixparams, CallInfo *ci) {
  Value *func = ci->func, *top = L->top;
  int actual = (int)(top - func) - 1;   /* number of arguments */
  int i;
  ci->u.l.nextraargs = actual - nfixparams;   /* >= 0: precall padded */
  top[0] = func[0];
  for (i = 1; i <= nfixparams; i++) {
    top[i] = func[i];
    func[i] = MVM_NIL;    /* the old copy is dead */
  }
  L->top = top + nfixparams + 1;
  ci->func = func + actual + 1;
  ci->top += actual + 1;
}

/* VARARG with a fixed count 'wanted' (>= 0): the first 'wanted' extra
** arguments to 'where', nil for the missing ones.  The frame has the
** room; allocates nothing, cannot throw. */
static inline void meta_copyvarargs(const CallInfo *ci, Value *where, int wanted) {
  int nextra = ci->u.l.nextraargs, i;
  const Value *src = ci->func - nextra;
  for (i = 0; i < wanted && i < nextra; i++) where[i] = src[i];
  for (; i < wanted; i++) where[i] = MVM_NIL;
}
#endif
