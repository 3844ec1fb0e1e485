/*
** gcint.h -- private state of the (first, non-moving mark-sweep) collector.
** Only files under gc/ include this.
**
** Every heap object is allocated with a hidden 16-byte prefix (GCPrefix)
** that links it into the collector's list of all objects and records the
** block size, so the object pointer itself stays 16-byte aligned and owners
** never see the list.  Owners' free functions (tab_free, func_freeproto,
** state_freethread) release only out-of-line parts; the collector frees the
** object block itself.
*/
#ifndef mvm_gcint_h
#define mvm_gcint_h

#include "gc.h"

typedef struct GCPrefix {
  struct GCPrefix *next;     /* all objects, newest first */
  size_t size;               /* whole block, prefix included */
} GCPrefix;

#define pfx2obj(p)  ((GCObject *)((char *)(p) + sizeof(GCPrefix)))
#define obj2pfx(o)  ((GCPrefix *)((char *)(o) - sizeof(GCPrefix)))

/* GCHeader.marked: colour in the low two bits, flags above */
#define GC_WHITE   0      /* not reached (yet) */
#define GC_GRAY    1      /* reached, children not yet traversed */
#define GC_BLACK   2      /* reached and traversed */
#define GC_COLOR   3
#define GC_FINOBJ  4      /* registered for finalization (in finobj vector) */

#define gc_color(o)    ((o)->marked & GC_COLOR)
#define gc_setcolor(o,c) ((o)->marked = (uint8_t)(((o)->marked & ~GC_COLOR) | (c)))
#define gc_iswhite(o)  (gc_color(o) == GC_WHITE)

/* a growable vector of object pointers (plain malloc: collector-private) */
typedef struct ObjVec { GCObject **a; size_t n, cap; } ObjVec;

typedef struct GCState {
  size_t totalbytes;        /* every byte currently allocated through frealloc */
  size_t threshold;         /* collect when totalbytes reaches this */
  size_t heaplimit;         /* 0 = none */
  size_t lastlive;          /* bytes alive after the last collection */
  GCPrefix *allgc;          /* every object except the main thread */
  lua_State *threads;       /* all threads but the main one, via gcnext */
  ObjVec gray;              /* gray stack */
  int grayoverflow;         /* a push failed: rescan allgc for gray objects */
  size_t nmarked;           /* objects marked this cycle (ephemeron convergence) */
  ObjVec weak;              /* weak tables seen this cycle */
  ObjVec ephemeron;         /* weak-key tables with white->white entries */
  ObjVec finobj;            /* objects with __gc, in registration order */
  ObjVec tobefnz;           /* unreachable finalizable objects, in call order */
  size_t fnzhead;           /* next entry of tobefnz to run */
  uint64_t *finseq, *fnzseq;  /* registration numbers, parallel to finobj/tobefnz */
  uint64_t finclock;        /* registrations so far */
  size_t fnzsorted;         /* tobefnz.n when the queue was last sorted */
  int running;              /* collectgarbage("stop") clears it */
  int stress;               /* MVM_GC_STRESS */
  int trace;                /* MVM_GC_TRACE */
  int collecting;           /* inside a collection (no reentry) */
  int infinalizer;          /* running finalizers (no reentry) */
  int closing;              /* lua_close: no new finalizer registrations */
  int generational;         /* mode requested (same collector for now) */
  size_t ncollections;
  size_t bytesallocated;    /* cumulative */
  double maxpause, totalpause;
} GCState;

#define GCS(g)  ((g)->gc)

#define GC_MINTHRESHOLD  ((size_t)1 << 20)   /* 1 MB */

/* heap.c */
LUAI_FUNC void gc_freeobject(lua_State *L, GCObject *o);
LUAI_FUNC int gc_vecpush(ObjVec *v, GCObject *o);   /* 0 on allocation failure */
LUAI_FUNC void gc_vecfree(ObjVec *v);
LUAI_FUNC double gc_clockms(void);
/* collect.c */
LUAI_FUNC void gc_collect(lua_State *L, int isemergency);
LUAI_FUNC const Value *gc_gettm(global_State *g, Table *mt, TMS e);
/* finalize.c */
LUAI_FUNC void gc_separatefinobj(global_State *g, int all);

#endif
