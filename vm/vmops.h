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

/* NEWTABLE i (with its EXTRAARG 'extra'): a table sized as the
** constructor says.  MAY ALLOCATE; the caller stores it, then gc_check. */
static inline Table *vm_newtable(lua_State *L, Instruction i, Instruction extra) {
  int b = GETARG_B(i);
  unsigned c = (unsigned)GETARG_C(i);
  if (b > 0) b = 1 << (b - 1);
  if (GETARG_k(i)) c += (unsigned)GETARG_Ax(extra) * (MAXARG_C + 1);
  return tab_newsized(L, c, (unsigned)b);
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
#endif
