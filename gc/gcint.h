/*
** gcint.h -- private state of the generational, moving collector.
** Only files under gc/ include this.  See docs/decisions/0003-generational-gc.md.
**
** The whole heap is ONE reserved virtual address range (mmap PROT_NONE,
** committed on demand with mprotect, released with madvise):
**
**   base                 nursery end = oldbase                         end
**   | nursery (bump)     | old space: 4 KB pages                        |
**
** - Nursery: bump-pointer allocation of movable objects (tables, closures,
**   upvalues, boxed integers).  Emptied by every minor collection, which
**   copies the live objects into the old space (promotion on first survival).
** - Old space: pages described by a side table (PageInfo, one per page).
**   A size-class block is GC_BLOCKPAGES pages of equal cells (16..2048
**   bytes); a free cell has tt == 0 and the next free cell at offset 8.
**   Bigger objects take a run of whole pages (large objects), starting at
**   the run's first page.  Old objects never move (mark-sweep).
** - Card table: one byte per 512-byte card over the whole range; a non-zero
**   byte means "some slot in this card (or, for out-of-line parts, the
**   object whose header is in this card) may hold a nursery reference".
*/
#ifndef mvm_gcint_h
#define mvm_gcint_h

#include "gc.h"

#define GC_PAGESHIFT  12
#define GC_PAGESIZE   ((size_t)1 << GC_PAGESHIFT)
#define GC_BLOCKPAGES 4                       /* 16 KB size-class blocks */
#define GC_BLOCKSIZE  (GC_BLOCKPAGES * GC_PAGESIZE)
#define GC_MAXSMALL   2048
#define GC_NCLASSES   24
#define GC_COMMITSTEP ((size_t)2 << 20)       /* old-space commit granularity (a huge page) */

/* page kinds */
#define PG_FREE   0
#define PG_SMALL  1
#define PG_LARGE  2

/* a free page's state (PageInfo.state; 0 on a page in use): PGS_OUT, not
** resident (released to the kernel, or committed and never touched);
** PGS_IDLE, free and resident since the last major collection's end */
#define PGS_IDLE  1
#define PGS_OUT   2

typedef struct PageInfo {
  uint8_t kind;      /* PG_* */
  uint8_t sclass;    /* PG_SMALL: size class */
  uint8_t state;     /* PG_FREE: PGS_* (heap.c gc_sweepdone) */
  uint8_t pad_;
  uint32_t head;     /* first page of the block / large object */
  uint32_t npages;   /* on the head page: pages in the block / object */
  uint32_t pad2_;
} PageInfo;

typedef struct PageRun { uint32_t first, n; } PageRun;

/* GCHeader.marked: colour in the low two bits, flags above */
#define GC_WHITE   0      /* not reached (yet) */
#define GC_GRAY    1      /* reached, children not yet traversed */
#define GC_BLACK   2      /* reached and traversed */
#define GC_COLOR   3
#define GC_FINOBJ  4      /* registered for finalization (in finobj vector) */
#define GC_INFNZ   8      /* waiting in the to-be-finalized queue */
#define GC_FORWARD 16     /* nursery object already copied: new address at offset 8 */
#define GC_POISON  0xDB   /* fill of freed and evacuated memory under stress */

/* A table part (gc_tryallocpart), in the nursery or in an old cell: a
** 16-byte header -- tt GC_TPART, 'extra' the kind (GC_PARTVALUES/NODES),
** the part's byte size at offset 8 -- then the part.  The nursery walk
** steps over nursery parts; a minor scans an old part whose card is dirty;
** majors skip part cells (the owner frees them). */
#define GC_TPART      0x7F
#define GC_PARTHDR    16
#define GC_MAXNPART   ((size_t)4096)   /* bigger parts go straight to old cells */
#define gc_partsize(h)  (*(size_t *)(void *)((char *)(h) + 8))

#define gc_color(o)    ((o)->marked & GC_COLOR)
#define gc_setcolor(o,c) ((o)->marked = (uint8_t)(((o)->marked & ~GC_COLOR) | (c)))
#define gc_iswhite(o)  (gc_color(o) == GC_WHITE)

/* a growable vector of object pointers (plain malloc: collector-private) */
typedef struct ObjVec { GCObject **a; size_t n, cap; } ObjVec;

typedef struct GCState {
  GCHeapView v;             /* MUST be first: gc.h's inline paths read it */
  global_State *g;          /* the owner (host allocator for promoted parts) */
  /* the reservation */
  char *oldbase;            /* first old page */
  uint32_t npages;          /* pages in the old range */
  uint32_t frontier;        /* pages [0, frontier) have been handed out once */
  uint32_t committed;       /* pages [0, committed) are readable/writable */
  PageInfo *pages;          /* side table, one entry per old page */
  size_t nurserysize;       /* configured (MVM_NURSERY) */
  size_t nurserycap;        /* reserved for eden (the bump area) */
  size_t edensize;          /* eden in use now: nurserysize, or (default
                            ** size) half the old + out-of-line bytes,
                            ** at least GC_MINEDEN -- see gc_resetnursery */
  int fixednursery;         /* MVM_NURSERY given: edensize = nurserysize */
  /* Survivor semispaces after eden, inside [v.nstart, v.nend) (young):
  ** an object that survives its first minor is copied to the to-space
  ** (age 1), one that survives a second is promoted; the spaces swap. */
  uintptr_t edenend;        /* eden: [v.nstart, edenend) */
  char *surv[2];            /* the two survivor spaces */
  size_t survsize;          /* bytes in each */
  int survfrom;             /* index of the space holding survivors now */
  char *survtop;            /* end of the survivors in surv[survfrom] */
  char *survbump;           /* during a minor: bump pointer in the to-space */
  int promoteall;           /* this minor promotes every survivor (majors, close) */
  GCObject *remember;       /* old object being scanned (its card is re-marked
                            ** when it keeps a reference to a survivor) */
  int scanningcards;        /* re-marks are deferred into 'remarks' */
  ObjVec remarks;           /* card indices (cast) to mark after scancards */
  void *freelist[GC_NCLASSES];
  uint8_t classof[GC_MAXSMALL / 16 + 1];   /* (size+15)/16 -> class */
  PageRun *runs;            /* free page runs (rebuilt after each sweep) */
  size_t nruns, capruns;
  /* accounting */
  size_t oldbytes;          /* bytes in allocated old cells / large pages */
  size_t extbytes;          /* out-of-line memory (mvm_mem*) */
  size_t threshold;         /* major when oldbytes+extbytes reaches this */
  size_t heaplimit;         /* 0 = none */
  size_t lastlive;          /* old+ext bytes after the last major */
  lua_State *threads;       /* all threads but the main one, via gcnext */
  /* marking (major) */
  ObjVec gray;              /* gray stack */
  int grayoverflow;         /* a push failed: rescan the heap for gray objects */
  size_t nmarked;           /* objects marked this cycle (ephemeron convergence) */
  ObjVec weak;              /* weak tables seen this cycle */
  ObjVec ephemeron;         /* weak-key tables with white->white entries */
  /* copying (minor) */
  ObjVec work;              /* promoted objects whose fields are not yet scanned */
  size_t promoted;          /* bytes promoted by the current minor */
  ObjVec youngext;          /* young tables that got an old-space part since the
                            ** last minor (duplicates allowed): its dead ones
                            ** free their parts (gc_collectminor) */
  ObjVec youngspare;        /* the other buffer, filled by the minor's copies */
  int youngwalk;            /* a push failed: the minor walks the whole nursery */
  /* finalizers */
  ObjVec finobj;            /* objects with __gc, in registration order */
  ObjVec tobefnz;           /* unreachable finalizable objects, in call order */
  size_t fnzhead;           /* next entry of tobefnz to run */
  uint64_t *finseq, *fnzseq;  /* registration numbers, parallel to finobj/tobefnz */
  uint64_t finclock;        /* registrations so far */
  size_t fnzsorted;         /* tobefnz.n when the queue was last sorted */
  /* modes and flags */
  int running;              /* collectgarbage("stop") clears it */
  int stress;               /* MVM_GC_STRESS */
  int trace;                /* MVM_GC_TRACE */
  int verify;               /* MVM_GC_VERIFY: check the heap after minors */
  int collecting;           /* inside a collection (no reentry) */
  int infinalizer;          /* running finalizers (no reentry) */
  int closing;              /* lua_close: no new finalizer registrations */
  int generational;         /* mode requested by collectgarbage */
  /* statistics */
  size_t nminors, nmajors, stresscount;
  size_t bytesallocated;    /* cumulative */
  size_t bytespromoted;     /* cumulative */
  double maxpause, totalpause;
} GCState;

#define GCS(g)  ((g)->gc)

#define GC_MINTHRESHOLD  ((size_t)512 << 10)   /* 512 KB of old + out-of-line (peak RSS of small heaps; 0003) */

static inline int gc_innursery(GCState *gs, const void *p) {
  return (uintptr_t)p - gs->v.nstart < gs->v.nend - gs->v.nstart;
}
static inline size_t gc_nurseryused(GCState *gs) {   /* eden + survivors */
  return (size_t)((uintptr_t)gs->v.top - gs->v.nstart) +
         (size_t)(gs->survtop - gs->surv[gs->survfrom]);
}

/* heap.c */
extern const uint16_t gc_classsize[GC_NCLASSES];
LUAI_FUNC void gc_freeobject(lua_State *L, GCObject *o);
LUAI_FUNC int gc_vecpush(ObjVec *v, GCObject *o);   /* 0 on allocation failure */
/* the same, with the common case (room left) inline */
static inline int gc_vecpushi(ObjVec *v, GCObject *o) {
  if (l_likely(v->n < v->cap)) { v->a[v->n++] = o; return 1; }
  return gc_vecpush(v, o);
}
/* bytes of the old cell that gc_oldalloc(gs, size) hands out */
static inline size_t gc_allocsize(const GCState *gs, size_t size) {
  return size <= GC_MAXSMALL ? gc_classsize[gs->classof[(size + 15) >> 4]]
                             : (size + GC_PAGESIZE - 1) & ~(GC_PAGESIZE - 1);
}
LUAI_FUNC void gc_vecfree(ObjVec *v);
LUAI_FUNC double gc_clockms(void);
LUAI_FUNC double gc_cpums(void);
LUAI_FUNC void *gc_oldalloc(GCState *gs, size_t size);   /* NULL if no room */
/* gc_oldalloc with a non-empty free list inline (promotion by minors) */
static inline void *gc_oldalloci(GCState *gs, size_t size) {
  if (size <= GC_MAXSMALL) {
    int c = gs->classof[(size + 15) >> 4];
    void *p = gs->freelist[c];
    if (l_likely(p != NULL)) {
      gs->freelist[c] = *(void **)((char *)p + 8);
      gs->oldbytes += gc_classsize[c];
      if (gs->oldbytes + gs->extbytes >= gs->threshold) gs->v.checkdue = 1;
      return p;
    }
  }
  return gc_oldalloc(gs, size);
}
LUAI_FUNC size_t gc_objsize(const GCObject *o);           /* movable kinds */
LUAI_FUNC size_t gc_cellsize(GCState *gs, const void *p); /* old objects */
LUAI_FUNC void gc_freecell(lua_State *L, GCObject *o);    /* sweep: free one old object */
LUAI_FUNC void gc_sweepdone(GCState *gs);                  /* rebuild free lists/runs */
LUAI_FUNC void *gc_promotepart(GCState *gs, const void *part);  /* nursery part -> old cell */
/* iterate over every allocated old object */
#define gc_foreachold(gs, o, body) do { \
  uint32_t pi_; \
  for (pi_ = 0; pi_ < (gs)->frontier;) { \
    PageInfo *pg_ = &(gs)->pages[pi_]; \
    if (pg_->kind == PG_SMALL) { \
      size_t cs_ = gc_classsize[pg_->sclass]; \
      char *c_ = (gs)->oldbase + ((size_t)pi_ << GC_PAGESHIFT); \
      char *e_ = c_ + GC_BLOCKSIZE - cs_; \
      for (; c_ <= e_; c_ += cs_) { \
        GCObject *o = (GCObject *)c_; \
        if (o->tt != 0) { body; } \
      } \
      pi_ += GC_BLOCKPAGES; \
    } else if (pg_->kind == PG_LARGE) { \
      GCObject *o = (GCObject *)((gs)->oldbase + ((size_t)pi_ << GC_PAGESHIFT)); \
      uint32_t n_ = pg_->npages; \
      body; \
      pi_ += n_; \
    } else pi_++; \
  } } while (0)
/* collect.c */
LUAI_FUNC void gc_collect(lua_State *L, int isemergency);   /* major */
LUAI_FUNC void gc_collectminor(lua_State *L);
LUAI_FUNC const Value *gc_gettm(global_State *g, Table *mt, TMS e);
/* finalize.c */
LUAI_FUNC void gc_separatefinobj(global_State *g, int all);

#endif
