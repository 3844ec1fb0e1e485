/*
** func.c -- prototypes, closures, upvalues and to-be-closed variables.
**
** Open upvalues: each thread keeps a list (L->openupval) of the upvalues
** that still point into its stack, sorted by stack level, highest first.
** Every UpVal has its own 'previous' back-link (the address of the pointer
** that points to it), so unlinking is O(1).
**
** To-be-closed variables are kept on the same list: a tbc variable is an
** open UpVal whose header byte 'extra' is set (UPV_TBC).  Closing walks the
** list from the top, which closes tbc variables in reverse order of
** declaration, interleaved correctly with plain upvalues.  L->tbclist always
** points to the highest pending tbc variable (or to L->stack when there is
** none), so the C API can cheaply ask whether a close is needed.
** Consequence for the collector: every open upvalue of a live thread must be
** kept alive (tbc upvalues are referenced from nowhere else), as 5.4 does.
*/
#include <string.h>
#include "jit.h"

#include "lua.h"
#include "func.h"
#include "gc.h"
#include "do.h"
#include "meta.h"
#include "debug.h"
#include "string.h"

#define UPV_TBC  1   /* UpVal.extra: a to-be-closed variable */

/* ---------------- prototypes ---------------- */

Proto *func_newproto(lua_State *L) {
  /* the body comes back zeroed: every count 0, every array NULL */
  Proto *p = (Proto *)gc_newold(L, MVM_TPROTO, sizeof(Proto));
  return p;
}

void func_freeproto(lua_State *L, Proto *p) {
  if (p->jitcode != NULL)
    jit_freeproto(L, p);   /* its compiled code and stack maps */
  mvm_freevector(L, p->code, p->sizecode, Instruction);
  mvm_freevector(L, p->p, p->sizep, Proto *);
  mvm_freevector(L, p->k, p->sizek, Value);
  mvm_freevector(L, p->lineinfo, p->sizelineinfo, int);
  mvm_freevector(L, p->locvars, p->sizelocvars, LocVar);
  mvm_freevector(L, p->upvalues, p->sizeupvalues, Upvaldesc);
  if (p->feedback != NULL)
    mvm_freevector(L, p->feedback, p->sizecode, uint8_t);
  p->code = NULL; p->p = NULL; p->k = NULL; p->lineinfo = NULL;
  p->locvars = NULL; p->upvalues = NULL; p->feedback = NULL;
  /* the Proto block itself belongs to the collector */
}

/* ---------------- closures ---------------- */

CClosure *func_newCclosure(lua_State *L, int nupvals) {
  CClosure *c = (CClosure *)gc_newobj(L, MVM_TCCL, sizeCclosure(nupvals));
  int i;
  c->nupvalues = (uint8_t)nupvals;
  for (i = 0; i < nupvals; i++)
    c->upvalue[i] = MVM_NIL;   /* NOBARRIER: fresh object, non-reference */
  return c;
}

LClosure *func_newLclosure(lua_State *L, int nupvals) {
  LClosure *c = (LClosure *)gc_newobj(L, MVM_TLCL, sizeLclosure(nupvals));
  c->nupvalues = (uint8_t)nupvals;
  /* p and upvals[] are NULL (zeroed body) */
  return c;
}

static UpVal *new_closed_upval(lua_State *L) {
  UpVal *uv = (UpVal *)gc_newobj(L, MVM_TUPVAL, sizeof(UpVal));
  uv->v = &uv->u.value;
  uv->u.value = MVM_NIL;     /* NOBARRIER: fresh object, non-reference */
  return uv;
}

/* Give every missing upvalue of 'cl' a fresh closed (nil) upvalue.  The
** closure is rooted meanwhile: allocating an upvalue may move it. */
void func_initupvals(lua_State *L, LClosure *cl) {
  Value cv = v_ref(cl);
  int i, n = cl->nupvalues;
  GC_ROOT(L, cv);
  for (i = 0; i < n; i++) {
    UpVal *uv;
    if (((LClosure *)v_gc(cv))->upvals[i] != NULL) continue;
    uv = new_closed_upval(L);
    cl = (LClosure *)v_gc(cv);
    cl->upvals[i] = uv;
    gc_cardmark(G(L), (GCObject *)cl, &cl->upvals[i]);
  }
  GC_UNROOT(L, 1);
}

/* ---------------- open upvalues ---------------- */

/* link 'uv' into the open list, keeping it sorted (highest level first) */
static void link_open(lua_State *L, UpVal *uv) {
  UpVal **pp = &L->openupval;
  UpVal *p;
  while ((p = *pp) != NULL && p->v > uv->v)
    pp = &p->u.open.next;
  uv->u.open.next = p;
  uv->u.open.previous = pp;
  if (p != NULL) p->u.open.previous = &uv->u.open.next;
  *pp = uv;
}

static UpVal *lookup_open(lua_State *L, Value *level) {
  UpVal *p;
  for (p = L->openupval; p != NULL && p->v >= level; p = p->u.open.next)
    if (p->v == level) return p;
  return NULL;
}

UpVal *func_findupval(lua_State *L, Value *level) {
  ptrdiff_t lv = savestack(L, level);
  UpVal *uv = lookup_open(L, level);
  if (uv != NULL) return uv;
  /* allocate first, then search the insertion point: the allocation may
  ** move other upvalues of the list (never the stack) */
  uv = (UpVal *)gc_newobj(L, MVM_TUPVAL, sizeof(UpVal));
  level = restorestack(L, lv);
  uv->v = level;
  link_open(L, uv);
  return uv;
}

void func_unlinkupval(UpVal *uv) {
  *uv->u.open.previous = uv->u.open.next;
  if (uv->u.open.next != NULL)
    uv->u.open.next->u.open.previous = uv->u.open.previous;
}

/* detach an open upvalue from the stack, keeping its current value */
static void close_one(lua_State *L, UpVal *uv) {
  Value v = *uv->v;
  func_unlinkupval(uv);
  uv->u.value = v;
  uv->v = &uv->u.value;
  gc_cardmark(G(L), (GCObject *)uv, &uv->u.value);
}

/* recompute L->tbclist after the list changed */
static void update_tbclist(lua_State *L) {
  UpVal *p;
  for (p = L->openupval; p != NULL; p = p->u.open.next)
    if (p->extra == UPV_TBC) { L->tbclist = p->v; return; }
  L->tbclist = L->stack;
}

/* close every open upvalue >= level (no __close calls) */
void func_closeupval(lua_State *L, Value *level) {
  UpVal *uv;
  int hadtbc = 0;
  while ((uv = L->openupval) != NULL && uv->v >= level) {
    hadtbc |= (uv->extra == UPV_TBC);
    uv->extra = 0;
    close_one(L, uv);
  }
  if (hadtbc) update_tbclist(L);
}

/* ---------------- to-be-closed variables ---------------- */

static const char *local_name_at(lua_State *L, Value *level) {
  CallInfo *ci = L->ci;
  if (isLua(ci)) {
    const Proto *p = v_lcl(*ci->func)->p;
    const char *name = func_getlocalname(p, (int)(level - ci->func),
                                         pcRel(ci->u.l.savedpc, p));
    if (name != NULL) return name;
  }
  return "?";
}

/* register the variable at 'level' as to-be-closed (false/nil: ignored) */
void func_newtbcupval(lua_State *L, Value *level) {
  UpVal *uv;
  if (v_isfalsy(*level)) return;
  if (v_isnil(*meta_gettmbyobj(L, level, TM_CLOSE)))
    dbg_runerror(L, "variable '%s' got a non-closable value",
                 local_name_at(L, level));
  uv = func_findupval(L, level);
  uv->extra = UPV_TBC;
  update_tbclist(L);
}

/* call the __close metamethod of 'obj' with error object 'err' */
static void call_close(lua_State *L, Value obj, Value err, int yy) {
  Value *top = L->top;
  const Value *tm = meta_gettmbyobj(L, &obj, TM_CLOSE);
  top[0] = *tm;
  top[1] = obj;
  top[2] = err;
  L->top = top + 3;
  if (yy) do_call(L, top, 0);
  else do_callnoyield(L, top, 0);
}

/*
** Close upvalues and tbc variables down to 'level'.  'status' is CLOSEKTOP
** (normal exit: error object nil, values above top preserved), LUA_OK, or an
** error status whose error object is at L->top - 1.  'yy': the __close calls
** may yield.  Returns 'level', re-derived (the calls may move the stack).
*/
Value *func_close(lua_State *L, Value *level, int status, int yy) {
  ptrdiff_t lv = savestack(L, level);
  UpVal *uv;
  while ((uv = L->openupval) != NULL && uv->v >= level) {
    int tbc = (uv->extra == UPV_TBC);
    Value *slot = uv->v;
    uv->extra = 0;
    close_one(L, uv);
    if (tbc) {
      Value err;
      update_tbclist(L);
      if (status == CLOSEKTOP)
        err = MVM_NIL;
      else {
        /* the error object goes just above the variable; everything
        ** above 'slot' is dead now (closed in descending order) */
        do_seterrorobj(L, status, slot + 1);
        err = slot[1];
      }
      call_close(L, *slot, err, yy);
      level = restorestack(L, lv);
    }
  }
  return restorestack(L, lv);
}

/* ---------------- debug info ---------------- */

/* name of the n-th (1-based) local active at instruction 'pc' */
const char *func_getlocalname(const Proto *f, int local_number, int pc) {
  int i;
  for (i = 0; i < f->sizelocvars && f->locvars[i].startpc <= pc; i++) {
    if (pc < f->locvars[i].endpc) {
      local_number--;
      if (local_number == 0)
        return getstr(f->locvars[i].varname);
    }
  }
  return NULL;
}
