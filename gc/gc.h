/*
** gc.h -- the collector's narrow interface to the rest of the VM.
** The collector is generational and MOVING (docs/decisions/0003-generational-gc.md).
**
** MAY-ALLOCATE RULE: every function here whose name contains "new" or "alloc",
** gc_check, and every VM function that calls one, may run a collection.  A
** collection may MOVE tables, closures, upvalues and boxed integers (not
** strings, userdata, threads or protos).  Across such a call, C code keeps
** references only in
**   - the VM stack (L->stack), which is a root and is updated in place, or
**   - a C root registered with GC_ROOT/gc_pushroot (a shadow stack of slot
**     addresses, LIFO; vm/do.c restores its depth when an error unwinds),
** and re-reads them afterwards.  Raw Table, LClosure, UpVal and BoxedInt pointers
** locals in C are stale after a collection.  Out-of-line allocation
** (mvm_mem*) never collects.  MVM_GC_STRESS=1 runs a minor collection at
** every allocation and poisons the evacuated nursery to catch misses.
**
** BARRIER RULE: every store of a Value (or object pointer) that may be a
** reference into a heap object, or into memory owned by one (table parts,
** upvalues, user values, proto constants), goes through gc_write() /
** gc_cardmark(g, o, slot), or carries a NOBARRIER comment saying why it is
** safe (fresh object, nil/non-reference value, stack slot).
** gc_cardmark marks, unconditionally, the card (512 bytes) of 'slot' when
** 'slot' lies in the heap range -- the common case: a field of the object
** itself, or a table part (parts are in the heap, see gc_tryallocpart).
** EXCEPTION: when 'slot' is out-of-line memory (a proto's constant array,
** a C closure's... anything outside the heap range) the card of
** the OBJECT 'o' is marked instead, and a minor collection scans such an
** object entirely (with its out-of-line parts).  Stores into thread stacks
** need no barrier (every stack is a root of every collection).
**
** ANCHOR RULE (compiled code): compiled Lua code may keep references in
** machine registers and spill slots across its calls; the collector finds
** them through the LLVM stack maps (jit_walkframes, jit/jit.h).  Hence every
** call that compiled code makes through a statepoint (every helper that is
** not a "gc-leaf-function") goes to a runtime helper that anchors first:
** JIT_ANCHOR(L, ci) as its first statement records, in the calling
** frame's CallInfo, the return address and the stack pointer at the call
** (jit/jitrt.c).  A helper that cannot collect may be a gc-leaf instead,
** and must then really never allocate.
*/
#ifndef mvm_gc_h
#define mvm_gc_h

#include <string.h>
#include "../vm/state.h"

/* The part of the collector state that the inline paths below read; it is
** the first member of the private GCState (gc/gcint.h). */
typedef struct GCHeapView {
  char *top, *limit;        /* nursery bump pointer and its current limit */
  uintptr_t base;           /* start of the reserved heap range */
  uintptr_t size;           /* its size in bytes */
  uint8_t *cards;           /* one byte per 512-byte card of the range */
  uintptr_t nstart, nend;   /* the nursery: [nstart, nend) */
  int checkdue;             /* 0: gc_check has nothing to do (no major due,
                            ** no finalizer pending, no stress); set by
                            ** whatever may change that (gc_checkslow) */
} GCHeapView;
#define GC_CARDSHIFT 9

/* ---- allocation of heap objects ---- */
/* New object of tag 'tt' and 'size' bytes (header included), header filled in
** (tt, identity hash), body zeroed.  Raises "not enough memory" on failure.
** gc_newobj allocates movable objects (tables, closures, upvalues, boxed
** integers) in the nursery: the fast path is a bump and a limit check. */
LUAI_FUNC GCObject *gc_newobj_slow(lua_State *L, int tt, size_t size);
static inline GCObject *gc_newobj(lua_State *L, int tt, size_t size) {
  GCHeapView *h = (GCHeapView *)(void *)G(L)->gc;
  size_t sz = (size + 15) & ~(size_t)15;
  if (l_likely(sz <= (size_t)(h->limit - h->top))) {
    GCObject *o = (GCObject *)(void *)h->top;
    h->top += sz;
    memset(o, 0, sz);
    o->tt = (uint8_t)tt;
    G(L)->idhash += 0x9E3779B9u;   /* golden-ratio step: consecutive ids spread */
    o->hash = G(L)->idhash;
    return o;
  }
  return gc_newobj_slow(L, tt, size);
}
/* Same, but the body (bytes 8..size) is NOT zeroed on the fast path: for
** callers that store every field themselves (a variable-size memset is a
** 'rep stos', slow for a 64-byte table).  The padding up to the 16-byte
** rounding is left as it was too (nothing reads it). */
static inline GCObject *gc_newobjraw(lua_State *L, int tt, size_t size) {
  GCHeapView *h = (GCHeapView *)(void *)G(L)->gc;
  size_t sz = (size + 15) & ~(size_t)15;
  if (l_likely(sz <= (size_t)(h->limit - h->top))) {
    GCObject *o = (GCObject *)(void *)h->top;
    h->top += sz;
    o->tt = (uint8_t)tt; o->marked = 0; o->extra = 0; o->age = 0;
    G(L)->idhash += 0x9E3779B9u;
    o->hash = G(L)->idhash;
    return o;
  }
  return gc_newobj_slow(L, tt, size);
}
/* Same, in the non-moving old space (strings, userdata, threads, protos use
** this: the C API hands out raw pointers to them). */
LUAI_FUNC GCObject *gc_newold(lua_State *L, int tt, size_t size);
/* Same, but the body (bytes 8..size) is NOT zeroed: for callers that store
** every byte of it themselves (strings).  A small object with no
** collection due is a pop from its size class's free list. */
LUAI_FUNC GCObject *gc_newoldraw(lua_State *L, int tt, size_t size);

/* ---- out-of-line memory owned by objects (accounted, may collect) ---- */
/* realloc-like: block==NULL allocates, nsize==0 frees (never fails then).
** Raises "not enough memory" on failure. */
LUAI_FUNC void *mvm_memrealloc(lua_State *L, void *block, size_t osize, size_t nsize);
LUAI_FUNC void *mvm_memalloc(lua_State *L, size_t size);
LUAI_FUNC void mvm_memfree(lua_State *L, void *block, size_t size);
#define mvm_newvector(L,n,t)  ((t *)mvm_memalloc(L, (size_t)(n) * sizeof(t)))
#define mvm_freevector(L,b,n,t) mvm_memfree(L, (b), (size_t)(n) * sizeof(t))
#define mvm_reallocvector(L,b,on,n,t) \
   ((t *)mvm_memrealloc(L, (b), (size_t)(on) * sizeof(t), (size_t)(n) * sizeof(t)))

/* ---- parts: the array and hash parts of tables ----
** gc_tryallocpart: 'size' bytes for a part of 'owner' holding Values
** (GC_PARTVALUES) or Nodes (GC_PARTNODES).  Parts live IN THE HEAP, behind
** a 16-byte part header: bumped in the nursery while the owner is young
** and the part small (a table that dies young then costs nothing to free),
** else in an old-space cell.  A minor copies a young table's nursery parts
** into old cells with it.  Parts are not objects: their owner frees them
** (gc_freepart), majors do not mark or sweep them, but a minor scans a
** part cell whose card is dirty -- so a store into a part marks the card of
** the SLOT (the usual rule; parts are in the heap range).  Never collects;
** NULL when the heap limit or the range is exhausted.  CONSEQUENCE: like
** its owner, a young table's part MOVES at a collection: pointers into
** t->array / t->node are stale after anything that may allocate.
** gc_freepart: give a part back (a nursery part is simply left to die). */
#define GC_PARTVALUES 0
#define GC_PARTNODES  1
LUAI_FUNC void *gc_tryallocpart(lua_State *L, GCObject *owner, size_t size, int kind);
LUAI_FUNC void gc_freepart(lua_State *L, void *part, size_t size);
/* gc_newobj + gc_tryallocpart in one step (one nursery bump when both fit;
** MAY ALLOCATE); *part is NULL when the part could not be had */
LUAI_FUNC GCObject *gc_newobjpart(lua_State *L, int tt, size_t size, size_t psize,
                                  int kind, void **part);
/* grow a part in place to 'nsize' bytes when its block has the room
** (returns 0 otherwise); the caller fills the new bytes with Values */
LUAI_FUNC int gc_growpart(lua_State *L, void *part, size_t nsize);

/* ---- the barrier ---- */
/* Remember that '*slot', which belongs to object 'o', was written (see the
** BARRIER RULE above for the out-of-line exception).  Objects outside the
** heap (the main thread) need no card: they are roots. */
static inline void gc_cardmark(global_State *g, GCObject *o, void *slot) {
  GCHeapView *h = (GCHeapView *)(void *)g->gc;
  uintptr_t off = (uintptr_t)slot - h->base;
  if (off >= h->size) {             /* out-of-line part: the object's card */
    off = (uintptr_t)o - h->base;
    if (off >= h->size) return;
  }
  h->cards[off >> GC_CARDSHIFT] = 1;
}
/* Mark the cards of the 'n' bytes at 'p' (a bulk copy into a part, whose
** cards are scanned one by one when the part is large). */
static inline void gc_cardmarkrange(global_State *g, GCObject *o, void *p, size_t n) {
  GCHeapView *h = (GCHeapView *)(void *)g->gc;
  uintptr_t off = (uintptr_t)p - h->base, c, e;
  if (n == 0) return;
  if (off >= h->size) { gc_cardmark(g, o, p); return; }
  e = (off + n - 1) >> GC_CARDSHIFT;
  for (c = off >> GC_CARDSHIFT; c <= e; c++) h->cards[c] = 1;
}
/* Store 'v' into '*slot', which belongs to object 'o'.  Only a reference
** can point into the nursery: storing numbers, booleans or nil marks no
** card (one tag test here saves minors from rescanning, say, every record
** of a big array whose integer fields were updated). */
static inline void gc_write(global_State *g, GCObject *o, Value *slot, Value v) {
  *slot = v;
  if (v_isref(v)) gc_cardmark(g, o, slot);
}
#define gc_writeobj(L,o,slot,v)  gc_write(G(L), (GCObject *)(o), (slot), (v))

/* ---- C roots ---- */
LUAI_FUNC void gc_pushroot(lua_State *L, Value *slot);
static inline void gc_poproots(lua_State *L, int n) { G(L)->nroots -= n; }
/* Value v = ...; GC_ROOT(L, v); ... GC_UNROOT(L, 1); */
#define GC_ROOT(L, var)    gc_pushroot(L, &(var))
#define GC_UNROOT(L, n)    gc_poproots(L, n)

/* ---- collection control ---- */
LUAI_FUNC void gc_init(lua_State *L);           /* called by lua_newstate */
LUAI_FUNC void gc_freeall(lua_State *L);        /* called by lua_close */
/* every pending finalizer run, nothing freed: mvm_closeforexit, whose
** process ends right after (its memory goes with it) */
LUAI_FUNC void gc_finalizeall(lua_State *L);
LUAI_FUNC void gc_checkslow(lua_State *L);
/* collect if a major is due, run pending finalizers (a safe point) */
static inline void gc_check(lua_State *L) {
  if (l_unlikely(((GCHeapView *)(void *)G(L)->gc)->checkdue)) gc_checkslow(L);
}
/* MVM_GC_STRESS only: collect as gc_check does under stress (no finalizers
** run); returns 0 at once otherwise.  Compiled code's safepoint polls call
** it (jit/jitrt.c) so that every poll's stack map gets exercised. */
LUAI_FUNC int gc_stresscollect(lua_State *L);
LUAI_FUNC int gc_isstress(global_State *g);     /* MVM_GC_STRESS is on */
LUAI_FUNC void gc_fullgc(lua_State *L, int isemergency);
LUAI_FUNC void gc_minor(lua_State *L);
LUAI_FUNC int  gc_step(lua_State *L, int kbytes); /* returns 1 if a cycle finished */
LUAI_FUNC size_t gc_totalbytes(global_State *g);
LUAI_FUNC void gc_setrunning(global_State *g, int on);
LUAI_FUNC int  gc_isrunning(global_State *g);
LUAI_FUNC int  gc_setmode(global_State *g, int generational); /* returns previous (1 = gen) */
LUAI_FUNC int  gc_getmode(global_State *g);                   /* 1 = generational */
LUAI_FUNC void gc_setheaplimit(global_State *g, size_t bytes); /* 0 = none */
LUAI_FUNC size_t gc_getheaplimit(global_State *g);             /* 0 = none */
/* finalizers: mark 'o' (table/udata) as having __gc (setmetatable time) */
LUAI_FUNC void gc_checkfinalizer(lua_State *L, GCObject *o, Table *mt);
/* run pending finalizers (at a safe point, never inside the collector) */
LUAI_FUNC void gc_runfinalizers(lua_State *L);
/* link a new thread into the collector's thread list */
LUAI_FUNC void gc_linkthread(lua_State *L, lua_State *L1);

/* statistics, for collectgarbage/mvm.h */
typedef struct GCStats {
  size_t minors, majors;
  size_t bytes_allocated, bytes_promoted;
  double max_pause_ms, total_pause_ms;
} GCStats;
LUAI_FUNC void gc_getstats(global_State *g, GCStats *st);

/* gc safe point macro for the interpreter: may collect */
#define gc_checkstep(L)  gc_check(L)

/* ---- appended by DATA (gc/, strings, tables) ---- */
/* Ownership protocol: the collector allocates every object and frees the
** object block itself.  Owners' free functions
** release only OUT-OF-LINE parts and never free the object:
**   tab_free(L, t)            frees t->array and t->node (not t);
**   func_freeproto(L, p)      frees p's arrays (code, k, p, lineinfo, ...), not p;
**   state_freethread(L, L1)   closes L1's open upvalues, unlinks it from
**                             twups if needed, frees its stack and CallInfo
**                             list; not the LX block.
** The main thread's LX and the global_State are NOT collector objects: they
** are allocated by lua_newstate with g->frealloc, gc_init(L) is called once
** L->g, g->frealloc/ud and g->mainthread are set, and lua_close calls
** gc_freeall (which runs all pending finalizers, then frees every object)
** before freeing them. */
LUAI_FUNC void state_freethread(lua_State *L, lua_State *L1);   /* vm/state.c */
/* like mvm_memrealloc but returns NULL instead of raising on failure (never
** collects); freeing (nsize == 0) always succeeds */
LUAI_FUNC void *mvm_memtryrealloc(lua_State *L, void *block, size_t osize, size_t nsize);
/* number of the current collection cycle (completed collections so far) */
LUAI_FUNC size_t gc_cyclecount(global_State *g);
/* a word that changes at every collection (each major begins with a minor:
** the minors so far) and at no other time: raw addresses of collectable
** objects and of their parts kept outside the heap (compiled code's method
** caches, jit.h JitMethodCache) are valid while it keeps its value */
LUAI_FUNC const size_t *gc_epoch(global_State *g);
#endif
