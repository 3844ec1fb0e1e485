/*
** vmops.h -- instruction bodies shared by the interpreter (vm/vm.c) and the
** JIT's runtime helpers (jit/jitrt.c), so that compiled code that calls a
** helper for an instruction does exactly what the interpreter does.
** Internal (hidden); static inline, for the interpreter's sake.
*/
#ifndef mvm_vmops_h
#define mvm_vmops_h
#include "gc.h"
#include "opcodes.h"
#include "table.h"

/* Store into t's array part (a slot within asize).  The array part lives
** in the heap (gc_tryallocpart, or inline behind the table) with cards of
** its own, and a minor scanning a dirty old table looks only at the
** table's own fields: the card to mark is the SLOT's (gc_cardmark), never
** the table's.  No metamethod-cache reset: an integer key is never an
** event name.  As in gc_write, only a reference needs the card: numbers,
** booleans and nil cannot point into the nursery (sieve's `t[j] = true`
** then touches no card and no global_State).  The length hint is the
** caller's (table.h tab_lenset: only a store that turns a nil into a
** value or a value into a nil can move it). */
static inline void vm_arrstore(lua_State *L, Table *t, Value *slot, Value v) {
  *slot = v;
  if (v_isref(v)) gc_cardmark(G(L), (GCObject *)t, slot);
}

/* NEWTABLE's hash size from its B operand (0, or log2 of the size + 1) */
static inline unsigned vm_newtabhash(unsigned b) {
  return b > 0 ? 1u << (b - 1) : 0;
}

/* NEWTABLE i (with its EXTRAARG 'extra'): a table sized as the
** constructor says.  MAY ALLOCATE; the caller stores it, then gc_check. */
static inline Table *vm_newtable(lua_State *L, Instruction i, Instruction extra) {
  unsigned c = (unsigned)GETARG_C(i);
  if (GETARG_k(i)) c += (unsigned)GETARG_Ax(extra) * (MAXARG_C + 1);
  return tab_newsized(L, c, vm_newtabhash((unsigned)GETARG_B(i)));
}

/* SETLIST: h[last - n + 1 .. last] = ra[1 .. n].  No heap object is
** allocated, only table parts (may raise on OOM). */
static inline void vm_setlist(lua_State *L, Table *h, const Value *ra, int n, unsigned last) {
  unsigned hi = last;
  if (last > h->asize) {
    /* `{f(), g()}` (sized 1, filled 2): the inline slots' slack */
    if (tab_isinline(h) && last <= h->ninline) {
      unsigned j;
      for (j = h->asize; j < last; j++) h->array[j] = MVM_NIL;   /* NOBARRIER: nil */
      h->asize = last;
    }
    else tab_resizearray(L, h, last);
  }
  if (n <= 0) return;
  /* every key is now in the array part (last <= asize): plain stores, the
  ** slot's card for references, as SETI does.  The length hint turns
  ** loose, guessing the last key: a constructor's array part is full as a
  ** rule, where tab_getn needs no search, and the first append that grows
  ** it makes the hint tight again (appendgrow).  (Tracking it here cost
  ** vm_execute register spills elsewhere: sieve -j off +4.5%, and a call
  ** per constructor: binary_trees +3%.) */
  for (; n > 0; n--) {
    vm_arrstore(L, h, &h->array[last - 1], ra[n]);
    last--;
  }
  h->lenhint = hi | TAB_LENLOOSE;
}
/* ---- C calls from a C frame and TFORCALL's steps: the interpreter's
** OP_CALL and TFORCALL (vm.c) and compiled code's lean C calls and
** TFORCALL steps (jitrt.c rt_leanccall, mvmrt_tforstep) ---- */

/* the frame of a C function called from the interpreter's own C frame
** (OP_CALL's and TFORCALL's inline C calls): precall_C's, without the
** checks they made already; 'newci' is ci->next */
static inline void vm_pushcframe(lua_State *L, CallInfo *newci, Value *func, int nresults) {
  L->ci = newci;
  newci->func = func;
  newci->nresults = (short)nresults;
  newci->callstatus = CIST_C;
  newci->top = L->top + LUA_MINSTACK;
  newci->u.c.k = NULL;
}

/* do_poscall's common case for a C function called inline (no hooks, a
** fixed count 'wanted' of results): its n results, on the top, go to its
** function's slot and up, nil-padded; the caller's frame 'ci' is current
** again (always inlined: as a call it cost coroutines.lua +0.3% instructions) */
static inline __attribute__((always_inline))
void vm_cretmove(lua_State *L, CallInfo *ci, CallInfo *newci, int n, int wanted) {
  Value *res = newci->func;   /* (the stack may have moved) */
  Value *first = L->top - n;
  int j;
  for (j = 0; j < wanted && j < n; j++) res[j] = first[j];
  for (; j < wanted; j++) res[j] = MVM_NIL;
  L->top = res + wanted;
  L->ci = ci;
}

/* ipairs' step (G(L)->ipairsaux, stdlib/baselib.c ipairs_step) on a table
** without a metatable and an immediate control, inline: the iterator at
** 'res' (state res[1], control res[2]) is replaced by its 'wanted'
** results, as a C call's results are left (vm.c tfor_docall).  0 (nothing done) otherwise. */
static inline int vm_tforipairs(lua_State *L, Value *res, int wanted) {
  const Value *slot;
  int64_t n;
  int j = 1;
  if (!v_istable(res[1]) || !v_isimmint(res[2]) || v_tab(res[1])->metatable != NULL)
    return 0;
  n = v_getimmint(res[2]);
  if (n >= MVM_IMM_MAX) return 0;
  slot = tab_getimm(v_tab(res[1]), n + 1);
  if (isabstkey(slot) || v_isnil(*slot))
    res[0] = MVM_NIL;   /* the step returns its nil: the loop ends */
  else {
    res[0] = v_immint(n + 1);
    if (wanted >= 2) res[j++] = *slot;
  }
  for (; j < wanted; j++) res[j] = MVM_NIL;
  L->top = res + wanted;
  return 1;
}

/* next's step (G(L)->nextaux, stdlib/baselib.c base_next) on a table,
** inline, when its key's place needs no lookup (tab_nextquick; the lookup
** can raise "invalid key", which must come from next's C frame): as
** vm_tforipairs.  0 (nothing done) otherwise. */
static inline int vm_tfornext(lua_State *L, Value *res, int wanted) {
  Value key, val;
  int r, j = 1;
  if (!v_istable(res[1])) return 0;
  key = res[2];
  r = tab_nextquick(L, v_tab(res[1]), &key, &val);
  if (r < 0) return 0;
  res[0] = r ? key : MVM_NIL;
  if (r && wanted >= 2) res[j++] = val;
  for (; j < wanted; j++) res[j] = MVM_NIL;
  L->top = res + wanted;
  return 1;
}
#endif
