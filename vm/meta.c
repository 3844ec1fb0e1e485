/*
** meta.c -- metatables, metamethod lookup and the calls that invoke
** metamethods on behalf of the interpreter and the C API.
**
** Calling convention for metamethods: the function and its operands are
** copied onto the top of the stack BEFORE anything can allocate or grow the
** stack, so callers may pass pointers into table parts, upvalues or C locals.
** Every frame keeps EXTRA_STACK spare slots above stack_last, which is what
** guarantees room for those pushes (function + at most 3 operands).
** Result slots ('res') must be stack slots; they are re-derived from an
** offset after the call because the call may reallocate the stack.
*/
#include <string.h>

#include "lua.h"
#include "meta.h"
#include "gc.h"
#include "do.h"
#include "vm.h"
#include "func.h"
#include "table.h"
#include "string.h"
#include "debug.h"

static const char *const event_names[TM_N] = {
  "__index", "__newindex", "__gc", "__mode", "__len", "__eq",
  "__add", "__sub", "__mul", "__mod", "__pow", "__div", "__idiv",
  "__band", "__bor", "__bxor", "__shl", "__shr",
  "__unm", "__bnot", "__lt", "__le", "__concat", "__call", "__close"
};

/* indexed by LUA_T* + 1 (LUA_TNONE is -1) */
static const char *const type_names[LUA_NUMTYPES + 1] = {
  "no value", "nil", "boolean", "userdata", "number", "string", "table",
  "function", "userdata", "thread"
};

/* what gettmbyobj returns for "no metamethod" */
static const Value absent_tm = MVM_NIL;

void meta_init(lua_State *L) {
  int i;
  for (i = 0; i < TM_N; i++) {
    /* strings never move; the collector treats g->tmname[] as roots */
    G(L)->tmname[i] = str_newz(L, event_names[i]);
  }
  for (i = 0; i < LUA_NUMTYPES; i++)   /* roots too (type() returns them) */
    G(L)->tname[i] = str_newz(L, meta_typename(i));
  G(L)->tostringname = str_newz(L, "__tostring");   /* a root too */
}

const char *meta_typename(int t) {
  if (t < LUA_TNONE || t >= LUA_NUMTYPES) return "?";
  return type_names[t + 1];
}

/*
** Look an event up in a metatable.  For the cached events (INDEX..EQ) a
** miss sets the absence bit in the table's 'extra' byte; any store of a new
** key into a table clears that byte (vm/vm.c and the table module).
*/
const Value *meta_gettm(Table *events, TMS event, TString *ename) {
  const Value *tm = tab_getshortstr(events, ename);
  if (isabstkey(tm) || v_isnil(*tm)) {
    if (event <= TM_EQ) events->extra |= (uint8_t)(1u << event);
    return NULL;
  }
  return tm;
}

Table *meta_getmetatable(lua_State *L, Value o) {
  if (v_isref(o)) {
    switch (v_gc(o)->tt) {
      case MVM_TTABLE: return v_tab(o)->metatable;
      case MVM_TUDATA: return v_udata(o)->metatable;
      default: break;
    }
  }
  {
    int t = v_type(o);
    return (t >= 0 && t < LUA_NUMTYPES) ? G(L)->mt[t] : NULL;
  }
}

/* never returns NULL: a pointer to nil means "no metamethod" */
const Value *meta_gettmbyobj(lua_State *L, const Value *o, TMS event) {
  Table *mt = meta_getmetatable(L, *o);
  const Value *tm;
  if (mt == NULL) return &absent_tm;
  tm = tab_getshortstr(mt, G(L)->tmname[event]);
  return isabstkey(tm) ? &absent_tm : tm;
}

/* Type name for messages: a "__name" string in the metatable wins. */
const char *meta_objtypename(lua_State *L, const Value *o) {
  Value v = *o;
  Table *mt = NULL;
  if (v_istable(v)) mt = v_tab(v)->metatable;
  else if (v_isudata(v)) mt = v_udata(v)->metatable;
  if (mt != NULL) {
    /* "__name" is normally already interned (auxlib uses it); creating it
    ** may allocate, so re-read the object afterwards */
    TString *key = str_literal(L, "__name");
    const Value *name;
    v = *o;
    mt = v_istable(v) ? v_tab(v)->metatable :
         v_isudata(v) ? v_udata(v)->metatable : NULL;
    if (mt != NULL) {
      name = tab_getshortstr(mt, key);
      if (!isabstkey(name) && v_isstring(*name))
        return getstr(v_str(*name));
    }
  }
  return meta_typename(v_type(v));
}

/* Are we running Lua code (so the call may yield)? */
static int in_lua_code(lua_State *L) {
  return isLua(L->ci);
}

void meta_callTM(lua_State *L, const Value *f, const Value *p1,
                 const Value *p2, const Value *p3) {
  Value *func = L->top;
  /* copy everything first: the pointers may be invalidated by the call */
  func[0] = *f;
  func[1] = *p1;
  func[2] = *p2;
  func[3] = *p3;
  L->top = func + 4;
  if (in_lua_code(L)) do_call(L, func, 0);
  else do_callnoyield(L, func, 0);
}

void meta_callTMres(lua_State *L, const Value *f, const Value *p1,
                    const Value *p2, Value *res) {
  ptrdiff_t r = savestack(L, res);
  Value *func = L->top;
  func[0] = *f;
  func[1] = *p1;
  func[2] = *p2;
  L->top = func + 3;
  if (in_lua_code(L)) do_call(L, func, 1);
  else do_callnoyield(L, func, 1);
  res = restorestack(L, r);
  *res = *--L->top;
}

/* Try the binary metamethod of either operand; returns 0 when none. */
static int callbinTM(lua_State *L, const Value *p1, const Value *p2,
                     Value *res, TMS event) {
  const Value *tm = meta_gettmbyobj(L, p1, event);
  if (v_isnil(*tm)) tm = meta_gettmbyobj(L, p2, event);
  if (v_isnil(*tm)) return 0;
  meta_callTMres(L, tm, p1, p2, res);
  return 1;
}

/*
** Binary (or unary, with p2 == p1) arithmetic/bitwise operation that the
** fast paths could not do.  Order: metamethods of either operand (strings
** get their arithmetic coercion from the string library's metamethods);
** then the proper error.
*/
void meta_trybinTM(lua_State *L, const Value *p1, const Value *p2,
                   Value *res, TMS event) {
  if (l_likely(callbinTM(L, p1, p2, res, event))) return;
  /* No string->number coercion here: as in 5.4 it is done only by the
  ** string library's metamethods (so a script that removes them from the
  ** string metatable gets the error, like with lua5.4). */
  switch (event) {
    case TM_BAND: case TM_BOR: case TM_BXOR:
    case TM_SHL: case TM_SHR: case TM_BNOT:
      if (v_isnumber(*p1) && v_isnumber(*p2))
        dbg_tointerror(L, p1, p2);
      else
        dbg_opinterror(L, p1, p2, "perform bitwise operation on");
      break;
    default:
      dbg_opinterror(L, p1, p2, "perform arithmetic on");
  }
}

void meta_trybinassocTM(lua_State *L, const Value *p1, const Value *p2,
                        int flip, Value *res, TMS event) {
  if (flip) meta_trybinTM(L, p2, p1, res, event);
  else meta_trybinTM(L, p1, p2, res, event);
}

void meta_trybiniTM(lua_State *L, const Value *p1, int64_t i2, int flip,
                    Value *res, TMS event) {
  Value aux = vm_int(L, i2);   /* small immediates: never allocates */
  meta_trybinassocTM(L, p1, &aux, flip, res, event);
}

/* __lt / __le; the result is left at L->top (also used by vm_finishOp) */
int meta_callorderTM(lua_State *L, const Value *p1, const Value *p2,
                     TMS event) {
  if (callbinTM(L, p1, p2, L->top, event))
    return !v_isfalsy(*L->top);
  if (event == TM_LE) {
    /* like stock 5.4 built with LUA_COMPAT_5_3: a <= b as not (b < a);
    ** the mark tells vm_finishOp to negate the result after a yield */
    L->ci->callstatus |= CIST_LEQ;
    if (callbinTM(L, p2, p1, L->top, TM_LT)) {
      L->ci->callstatus ^= CIST_LEQ;
      return v_isfalsy(*L->top);
    }
  }
  dbg_ordererror(L, p1, p2);
  return 0;
}

int meta_callorderiTM(lua_State *L, const Value *p1, int v2, int flip,
                      int isfloat, TMS event) {
  Value aux = isfloat ? v_float((double)v2) : v_immint(v2);
  if (flip) return meta_callorderTM(L, &aux, p1, event);
  return meta_callorderTM(L, p1, &aux, event);
}

/* VARARGPREP (meta.h meta_movevarargs), growing the stack first */
void meta_adjustvarargs(lua_State *L, int nfixparams, CallInfo *ci,
                        const Proto *p) {
  /* (set before the growth too: a "stack overflow" error's handler may
  ** look at this frame) */
  ci->u.l.nextraargs = (int)(L->top - ci->func) - 1 - nfixparams;
  checkstack(L, p->maxstacksize + 1);
  /* (the stack may have moved: ci->func was corrected) */
  meta_movevarargs(L, nfixparams, ci);
}

/* VARARG with C == 0: all the extra arguments to 'where', L->top after
** them for the next instruction (a fixed count is meta.h
** meta_copyvarargs, inline in the interpreter and in compiled code) */
void meta_getvarargs(lua_State *L, CallInfo *ci, Value *where) {
  int n = ci->u.l.nextraargs;
  checkstackGCp(L, n, where);
  L->top = where + n;
  meta_copyvarargs(ci, where, n);
}

/* setmetatable(t, mt)'s common case without the library's checks: a
** table t without a metatable (no __metatable to honour) gets a table
** mt without __gc (no finalizer to register), as lua_setmetatable does
** it.  0 (nothing done) for anything else.  For the interpreter's CALL
** and TAILCALL (vm.c vm_setmtinline) and the library function itself
** (api_setmtstep: compiled code calls it directly).  Allocates nothing. */
int meta_setmtfast(global_State *g, Value tv, Value mtv) {
  Table *t, *mt;
  if (!v_istable(tv) || !v_istable(mtv)) return 0;
  t = v_tab(tv);
  mt = v_tab(mtv);
  if (t->metatable != NULL || gfasttm(g, mt, TM_GC) != NULL) return 0;
  tab_setmetatable(g, t, mt);
  return 1;
}
