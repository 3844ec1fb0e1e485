/*
** heap.c -- the heap of the generational collector: the reserved range,
** nursery and old-space allocation, out-of-line memory accounting, the C
** root chain, limits, settings and statistics.  Layout: gcint.h.
**
** Accounting (collectgarbage("count"), the heap limit): nursery bytes in use
** + old cells/pages in use + out-of-line bytes.
*/
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <time.h>
#include <sys/mman.h>
#include "gcint.h"
#include "do.h"
#include "table.h"
#include "string.h"
#include "func.h"

#define POISON  GC_POISON

/* the whole range: nursery + old space (virtual only until committed);
** at most 64 GB: the intern table keeps a string as its offset in the
** range in 16-byte units, 32 bits (vm/string.c) */
#define GC_RESERVE  ((size_t)16 << 30)
/* Eden's cap (0003).  A minor's pause is its copying, about 1 ms per MB
** that survives, and a program building a big structure has most of eden
** survive: with a 2 MB eden binary_trees' minors reached 1.5-2.4 ms (issue
** 3 asks for minor pauses under 1 ms), with 1 MB they stay under 0.9 ms at
** 16% more instructions than with 2 MB (more promotions; 0004 round 6).
** Shrinking eden only after a minor that found most of it alive was worse:
** the big minor has already happened by then, and its survivors are
** promoted by the next one. */
#define GC_DEFNURSERY ((size_t)1 << 20)
#define GC_MAXNURSERY ((size_t)256 << 20)
/* A small heap gets a small eden: every eden page is touched once the
** program has allocated that much, so a 1 MB eden alone is a third of a
** tiny program's peak RSS.  Minor work that does not depend on the eden
** (roots, dirty cards, sweeping young parts) grows with the heap, so an
** eden of half the old + out-of-line bytes keeps that overhead per
** allocated byte about constant while bounding eden's share of RSS. */
#define GC_MINEDEN    ((size_t)256 << 10)

const uint16_t gc_classsize[GC_NCLASSES] = {
  16, 32, 48, 64, 80, 96, 112, 128, 160, 192, 224, 256,
  320, 384, 448, 512, 640, 768, 896, 1024, 1280, 1536, 1792, 2048
};

double gc_clockms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

double gc_cpums(void) {   /* this thread's CPU time */
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* ---------------- collector-private vectors ---------------- */

int gc_vecpush(ObjVec *v, GCObject *o) {
  if (v->n == v->cap) {
    size_t ncap = v->cap ? v->cap * 2 : 64;
    GCObject **na = (GCObject **)realloc(v->a, ncap * sizeof(GCObject *));
    if (na == NULL) return 0;
    v->a = na; v->cap = ncap;
  }
  v->a[v->n++] = o;
  return 1;
}

void gc_vecfree(ObjVec *v) {
  free(v->a);
  v->a = NULL; v->n = v->cap = 0;
}

/* ---------------- settings from the environment ---------------- */

static size_t parsesize(const char *s) {
  char *end;
  unsigned long long n = strtoull(s, &end, 10);
  switch (*end) {
    case 'k': case 'K': n <<= 10; break;
    case 'm': case 'M': n <<= 20; break;
    case 'g': case 'G': n <<= 30; break;
    default: break;
  }
  return (size_t)n;
}

static int envflag(const char *name) {
  const char *e = getenv(name);
  return e != NULL && *e != '\0' && strcmp(e, "0") != 0;
}

/* Set the nursery's allocation limit: the configured size, smaller under a
** tight heap limit (the nursery counts against it), none under stress (every
** allocation takes the slow path and collects). */
static void setnurserylimit(GCState *gs) {
  size_t n = gs->edensize;
  if (gs->heaplimit != 0 && n > gs->heaplimit / 8) {
    n = gs->heaplimit / 8;
    if (n < ((size_t)64 << 10)) n = (size_t)64 << 10;
    if (n > gs->edensize) n = gs->edensize;
  }
  n &= ~(size_t)15;
  if (gs->stress) gs->v.limit = gs->v.top;
  else {
    gs->v.limit = (char *)gs->v.nstart + n;
    if (gs->v.limit < gs->v.top) gs->v.limit = gs->v.top;
  }
}

void gc_init(lua_State *L) {
  global_State *g = G(L);
  GCState *gs = (GCState *)g->frealloc(g->ud, NULL, 0, sizeof(GCState));
  const char *e;
  size_t total, i;
  int c;
  char *base;
  if (gs == NULL) do_throw(L, LUA_ERRMEM);
  memset(gs, 0, sizeof *gs);
  gs->running = 1;
  gs->g = g;
  gs->threshold = GC_MINTHRESHOLD;
  gs->stress = envflag("MVM_GC_STRESS");
  gs->v.checkdue = 1;
  gs->trace = envflag("MVM_GC_TRACE");
  gs->verify = envflag("MVM_GC_VERIFY");
  e = getenv("MVM_HEAP_LIMIT");
  if (e != NULL && *e != '\0') gs->heaplimit = parsesize(e);
  gs->nurserysize = GC_DEFNURSERY;
  e = getenv("MVM_NURSERY");
  if (e != NULL && *e != '\0') {
    size_t n = parsesize(e);
    if (n < ((size_t)64 << 10)) n = (size_t)64 << 10;
    if (n > GC_MAXNURSERY) n = GC_MAXNURSERY;
    gs->nurserysize = n;
    gs->fixednursery = 1;
  }
  gs->edensize = gs->fixednursery ? gs->nurserysize : GC_MINEDEN;
  gs->nurserycap = (gs->nurserysize + GC_PAGESIZE - 1) & ~(GC_PAGESIZE - 1);
  /* each survivor space: an eighth of eden (a minor that finds more young
  ** survivors promotes the rest directly) */
  gs->survsize = ((gs->nurserycap / 8) + GC_PAGESIZE - 1) & ~(GC_PAGESIZE - 1);
  /* one reservation for nursery + old space; the side tables are reserved
  ** too and touched (hence backed) only where the heap is used */
  total = GC_RESERVE;
  base = (char *)mmap(NULL, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (base == MAP_FAILED) goto nomem;
  gs->v.base = (uintptr_t)base;
  gs->v.size = total;
  gs->v.nstart = (uintptr_t)base;
  gs->edenend = (uintptr_t)base + gs->nurserycap;
  gs->surv[0] = base + gs->nurserycap;
  gs->surv[1] = gs->surv[0] + gs->survsize;
  gs->survfrom = 0;
  gs->survtop = gs->surv[0];
  gs->v.nend = (uintptr_t)gs->surv[1] + gs->survsize;
  if (mprotect(base, gs->v.nend - gs->v.nstart, PROT_READ | PROT_WRITE) != 0) goto nomem;
  gs->v.top = base;
  gs->oldbase = (char *)gs->v.nend;
  /* Transparent huge pages for the old space (where the kernel offers
  ** them on request, "madvise" mode): a big table part touches fresh pages
  ** at each resize, one fault per 4 KB (sieve.lua: 46000 faults, 0.40 ->
  ** 0.32 s; tables.lua 0.167 -> 0.147 s).  Not the nursery: its first
  ** huge page would add 2 MB to the RSS of every small script.
  ** MVM_GC_HUGEPAGES=0 turns it off. */
  e = getenv("MVM_GC_HUGEPAGES");
  if (e == NULL || strcmp(e, "0") != 0)
    madvise(gs->oldbase, total - (gs->v.nend - gs->v.nstart), MADV_HUGEPAGE);
  gs->npages = (uint32_t)((total - (gs->v.nend - gs->v.nstart)) >> GC_PAGESHIFT);
  gs->v.cards = (uint8_t *)mmap(NULL, total >> GC_CARDSHIFT, PROT_READ | PROT_WRITE,
                                MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (gs->v.cards == MAP_FAILED) { gs->v.cards = NULL; goto nomem; }
  gs->pages = (PageInfo *)mmap(NULL, (size_t)gs->npages * sizeof(PageInfo), PROT_READ | PROT_WRITE,
                               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (gs->pages == MAP_FAILED) { gs->pages = NULL; goto nomem; }
  for (i = 0, c = 0; i <= GC_MAXSMALL / 16; i++) {
    while (gc_classsize[c] < i * 16) c++;
    gs->classof[i] = (uint8_t)c;
  }
  setnurserylimit(gs);
  g->gc = gs;
  g->roots = NULL; g->nroots = g->sizeroots = 0;
  /* the gray stack gets room up front so that marking roots rarely overflows */
  gs->gray.a = (GCObject **)malloc(1024 * sizeof(GCObject *));
  gs->gray.cap = gs->gray.a ? 1024 : 0;
  return;
 nomem:
  if (gs->v.cards) munmap(gs->v.cards, total >> GC_CARDSHIFT);
  if (gs->v.base) munmap((void *)gs->v.base, total);
  g->frealloc(g->ud, gs, sizeof(GCState), 0);
  do_throw(L, LUA_ERRMEM);
}

static size_t totalbytes(GCState *gs) {
  return gc_nurseryused(gs) + gs->oldbytes + gs->extbytes;
}

/* Would growing the heap by 'delta' bytes pass the heap limit? */
static int overlimit(GCState *gs, size_t delta) {
  return gs->heaplimit != 0 && totalbytes(gs) + delta > gs->heaplimit;
}

/* ---------------- old space: pages ---------------- */

#define pageaddr(gs, i)  ((gs)->oldbase + ((size_t)(i) << GC_PAGESHIFT))

/* pages [first, first + n) are in use from now on (their state goes) */
static uint32_t takepages(GCState *gs, uint32_t first, uint32_t n) {
  uint32_t i;
  for (i = 0; i < n; i++) gs->pages[first + i].state = 0;
  return first;
}

/* Hand out 'n' consecutive pages: first fit among free runs, else at the
** frontier (committing more of the range).  -1 if the range is exhausted. */
static int64_t allocpages(GCState *gs, uint32_t n) {
  size_t i;
  uint32_t first;
  for (i = 0; i < gs->nruns; i++) {
    PageRun *r = &gs->runs[i];
    if (r->n >= n) {
      first = r->first;
      r->first += n; r->n -= n;
      if (r->n == 0) gs->runs[i] = gs->runs[--gs->nruns];
      return takepages(gs, first, n);
    }
  }
  if ((uint64_t)gs->frontier + n > gs->npages) return -1;
  first = gs->frontier;
  if (first + n > gs->committed) {
    /* (the committed end on an address that is a multiple of the step:
    ** a transparent huge page needs its whole aligned 2 MB inside the
    ** read-write mapping when it is first touched, and an end at 1 MB
    ** steps from an unaligned oldbase left most of them half in, so the
    ** pages there came as 4 KB ones: 4 MB of tables.lua's 37 MB were
    ** huge pages, 10300 faults) */
    uintptr_t end = (uintptr_t)pageaddr(gs, first + n) + GC_COMMITSTEP - 1;
    uint32_t ncommit;
    end &= ~(uintptr_t)(GC_COMMITSTEP - 1);
    ncommit = (uint32_t)((end - (uintptr_t)gs->oldbase) >> GC_PAGESHIFT);
    if (ncommit > gs->npages) ncommit = gs->npages;
    if (mprotect(pageaddr(gs, gs->committed), (size_t)(ncommit - gs->committed) << GC_PAGESHIFT,
                 PROT_READ | PROT_WRITE) != 0)
      return -1;
    for (i = gs->committed; i < ncommit; i++) gs->pages[i].state = PGS_OUT;   /* (untouched) */
    gs->committed = ncommit;
  }
  gs->frontier += n;
  return takepages(gs, first, n);
}

/* a new size-class block: its cells go on the class's free list */
static int newblock(GCState *gs, int c) {
  int64_t idx = allocpages(gs, GC_BLOCKPAGES);
  size_t cs = gc_classsize[c];
  char *b, *p;
  void *head = NULL;
  uint32_t i;
  if (idx < 0) return 0;
  for (i = 0; i < GC_BLOCKPAGES; i++) {
    PageInfo *pg = &gs->pages[idx + i];
    pg->kind = PG_SMALL; pg->sclass = (uint8_t)c; pg->head = (uint32_t)idx;
    pg->npages = GC_BLOCKPAGES;
  }
  b = pageaddr(gs, idx);
  /* thread the cells, lowest address first */
  for (p = b + (GC_BLOCKSIZE / cs - 1) * cs; p >= b; p -= cs) {
    ((GCObject *)p)->tt = 0;
    *(void **)(p + 8) = head;
    head = p;
  }
  gs->freelist[c] = head;
  return 1;
}

/* cell 'p', the head of class c's free list, taken: the list and the
** old space's accounting (gc_oldalloc, gc_newoldraw) */
static inline void takecell(GCState *gs, int c, void *p) {
  gs->freelist[c] = *(void **)((char *)p + 8);
  gs->oldbytes += gc_classsize[c];
  if (gs->oldbytes + gs->extbytes >= gs->threshold) gs->v.checkdue = 1;
}

void *gc_oldalloc(GCState *gs, size_t size) {
  if (size <= GC_MAXSMALL) {
    int c = gs->classof[(size + 15) >> 4];
    void *p = gs->freelist[c];
    if (p == NULL) {
      if (!newblock(gs, c)) return NULL;
      p = gs->freelist[c];
    }
    takecell(gs, c, p);
    return p;
  }
  else {
    uint32_t n = (uint32_t)((size + GC_PAGESIZE - 1) >> GC_PAGESHIFT), i;
    int64_t idx = allocpages(gs, n);
    if (idx < 0) return NULL;
    for (i = 0; i < n; i++) {
      PageInfo *pg = &gs->pages[idx + i];
      pg->kind = PG_LARGE; pg->head = (uint32_t)idx; pg->npages = n;
    }
    gs->oldbytes += (size_t)n << GC_PAGESHIFT;
    if (gs->oldbytes + gs->extbytes >= gs->threshold) gs->v.checkdue = 1;
    return pageaddr(gs, idx);
  }
}

/* bytes taken by an old object */
size_t gc_cellsize(GCState *gs, const void *p) {
  PageInfo *pg = &gs->pages[((const char *)p - gs->oldbase) >> GC_PAGESHIFT];
  if (pg->kind == PG_SMALL) return gc_classsize[pg->sclass];
  return (size_t)gs->pages[pg->head].npages << GC_PAGESHIFT;
}

/* size of a movable object (the kinds gc_newobj allocates) */
size_t gc_objsize(const GCObject *o) {
  switch (o->tt) {
    case MVM_TTABLE: return tab_objsize((const Table *)o);
    case MVM_TLCL: return sizeLclosure(((const LClosure *)o)->nupvalues);
    case MVM_TCCL: return sizeCclosure(((const CClosure *)o)->nupvalues);
    case MVM_TUPVAL: return sizeof(UpVal);
    case MVM_TBIGINT: return sizeof(BoxedInt);
    case GC_TPART: return GC_PARTHDR + gc_partsize(o);
    default: abort();   /* other kinds never live in the nursery */
  }
}

/* Free the out-of-line parts of an object through its owner. */
void gc_freeobject(lua_State *L, GCObject *o) {
  switch (o->tt) {
    case MVM_TSTRING: break;           /* the sweep unlinked it from strt */
    case MVM_TTABLE: tab_free(L, (Table *)o); break;
    case MVM_TPROTO: func_freeproto(L, (Proto *)o); break;
    case MVM_TTHREAD: break;           /* stack freed by the thread sweep */
    default: break;
  }
}

/* A large cell's pages become free pages (still committed: gc_sweepdone
** decides what is released).  'pg' is the cell's first page. */
static void freelarge(GCState *gs, PageInfo *pg) {
  uint32_t first = pg->head, n = pg->npages, i;
  gs->oldbytes -= (size_t)n << GC_PAGESHIFT;
  for (i = 0; i < n; i++) gs->pages[first + i].kind = PG_FREE;
}

/* Sweep: free one dead old object (its cell goes back at gc_sweepdone). */
void gc_freecell(lua_State *L, GCObject *o) {
  GCState *gs = GCS(G(L));
  PageInfo *pg = &gs->pages[((char *)o - gs->oldbase) >> GC_PAGESHIFT];
  gc_freeobject(L, o);
  if (pg->kind == PG_SMALL) {
    size_t cs = gc_classsize[pg->sclass];
    if (gs->stress) memset(o, POISON, cs);
    o->tt = 0;
    gs->oldbytes -= cs;
  }
  else   /* kept: gc_sweepdone releases free pages beyond its budget
         ** (sieve.lua made and dropped an 8 MB array 15 times and
         ** faulted it in again each time, 46000 page faults) */
    freelarge(gs, pg);
}

static void pushrun(GCState *gs, uint32_t first, uint32_t n) {
  if (gs->nruns == gs->capruns) {
    size_t nc = gs->capruns ? gs->capruns * 2 : 64;
    PageRun *nr = (PageRun *)realloc(gs->runs, nc * sizeof(PageRun));
    if (nr == NULL) return;   /* pages lost until the next sweep */
    gs->runs = nr; gs->capruns = nc;
  }
  gs->runs[gs->nruns].first = first;
  gs->runs[gs->nruns].n = n;
  gs->nruns++;
}

/* Release up to 'n' idle resident pages of the free pages [first, first +
** len), the highest first; how many were released. */
static size_t releaseidle(GCState *gs, uint32_t first, uint32_t len, size_t n) {
  size_t done = 0;
  uint32_t hi = first + len, lo;
  while (hi > first && done < n) {
    if (gs->pages[hi - 1].state != PGS_IDLE) { hi--; continue; }
    lo = hi;
    while (lo > first && gs->pages[lo - 1].state == PGS_IDLE && done < n) {
      lo--; done++;
      gs->pages[lo].state = PGS_OUT;
    }
    madvise(pageaddr(gs, lo), (size_t)(hi - lo) << GC_PAGESHIFT, MADV_DONTNEED);
    hi = lo;
  }
  return done;
}

/* the resident pages of the free pages [first, first + len), counted, and
** idle from now on when 'mark' */
static size_t residentfree(GCState *gs, uint32_t first, uint32_t len, int mark) {
  size_t n = 0;
  uint32_t i;
  for (i = first; i < first + len; i++)
    if (!(gs->pages[i].state & PGS_OUT)) {
      n++;
      if (mark) gs->pages[i].state = PGS_IDLE;
    }
  return n;
}

/* After a sweep: rebuild the class free lists (a block left empty goes back
** to the pages) and the list of free page runs (coalescing neighbours).
** Free pages are RETAINED (not madvised) up to as many bytes as are alive:
** the next major is due when the heap has grown by about that much (pause
** 200%), so releasing them would only make the program fault them in again
** (binary_trees refaulted 6 MB per major).  Peak RSS is unchanged: it is
** reached at the threshold anyway.  Of the resident free pages beyond the
** budget only those free since the last major's end (PGS_IDLE) are
** released, the highest addresses first (the tail beyond the frontier,
** then the runs): a page freed by this sweep is most likely the one the
** next cycle allocates (the same objects made again: sieve.lua's 8 MB
** array, a small heap's blocks), and released at once it was faulted in
** again every cycle (page faults before / now: ffi_calls.lua 20700 / 350,
** deltablue 6500 / 510, sieve 3600 / 1900; -j on, ffi_calls 0.44 -> 0.40
** s, sieve 0.20 -> 0.19; docs/decisions/0003, "Session 25").  A
** heap that shrinks gives its pages back one collection later.  A small
** heap keeps up to GC_KEEPMIN of free pages whatever it holds: a few MB
** given back gain nothing, and with a budget of ~1 MB of live data
** ffi_calls still refaulted 770 pages (deltablue 580, json 320; 8 MB:
** as with no release at all, the same peak RSS). */
#define GC_KEEPMIN  ((size_t)8 << 20)
void gc_sweepdone(GCState *gs) {
  uint32_t i, start;
  size_t nres, keep, excess, k;
  int c;
  void **tail[GC_NCLASSES];
  for (c = 0; c < GC_NCLASSES; c++) { gs->freelist[c] = NULL; tail[c] = &gs->freelist[c]; }
  for (i = 0; i < gs->frontier;) {
    PageInfo *pg = &gs->pages[i];
    if (pg->kind == PG_SMALL) {
      size_t cs = gc_classsize[pg->sclass];
      char *b = pageaddr(gs, i), *p, *e = b + GC_BLOCKSIZE - cs;
      int live = 0;
      for (p = b; p <= e; p += cs) if (((GCObject *)p)->tt != 0) { live = 1; break; }
      if (!live) {   /* released below if over the budget */
        uint32_t j;
        for (j = 0; j < GC_BLOCKPAGES; j++) gs->pages[i + j].kind = PG_FREE;
      }
      else {
        void **t = tail[pg->sclass];
        for (p = b; p <= e; p += cs)
          if (((GCObject *)p)->tt == 0) { *t = p; t = (void **)(p + 8); }
        *t = NULL;
        tail[pg->sclass] = t;
      }
      i += GC_BLOCKPAGES;
    }
    else if (pg->kind == PG_LARGE) i += pg->npages;
    else i++;
  }
  gs->nruns = 0;
  for (i = 0; i < gs->frontier;) {
    if (gs->pages[i].kind != PG_FREE) { i += gs->pages[i].npages ? gs->pages[i].npages : 1; continue; }
    start = i;
    while (i < gs->frontier && gs->pages[i].kind == PG_FREE) i++;
    if (i == gs->frontier) {   /* the tail: give back the frontier */
      gs->frontier = start;
      break;
    }
    pushrun(gs, start, i - start);
  }
  /* the pages past the frontier stay committed: allocpages reuses them */
  nres = residentfree(gs, gs->frontier, gs->committed - gs->frontier, 0);
  for (k = 0; k < gs->nruns; k++) nres += residentfree(gs, gs->runs[k].first, gs->runs[k].n, 0);
  keep = (gs->oldbytes + gs->extbytes) >> GC_PAGESHIFT;
  if (keep < GC_KEEPMIN >> GC_PAGESHIFT) keep = GC_KEEPMIN >> GC_PAGESHIFT;
  excess = nres > keep ? nres - keep : 0;
  excess -= releaseidle(gs, gs->frontier, gs->committed - gs->frontier, excess);
  for (k = gs->nruns; k > 0 && excess > 0; k--)
    excess -= releaseidle(gs, gs->runs[k - 1].first, gs->runs[k - 1].n, excess);
  residentfree(gs, gs->frontier, gs->committed - gs->frontier, 1);
  for (k = 0; k < gs->nruns; k++) residentfree(gs, gs->runs[k].first, gs->runs[k].n, 1);
}

/* ---------------- allocation of objects ---------------- */

static void initheader(global_State *g, GCObject *o, int tt) {
  o->tt = (uint8_t)tt;
  g->idhash += 0x9E3779B9u;   /* golden-ratio step: consecutive ids spread */
  o->hash = g->idhash;
}

/* Is a major collection due?  (old + out-of-line over the threshold) */
static int majordue(GCState *gs) {
  return gs->oldbytes + gs->extbytes >= gs->threshold;
}

/* the nursery is full (or stress): collect, then bump */
GCObject *gc_newobj_slow(lua_State *L, int tt, size_t size) {
  global_State *g = G(L);
  GCState *gs = GCS(g);
  size_t sz = (size + 15) & ~(size_t)15;
  GCObject *o;
  if (size > gs->edensize / 4)          /* big: straight into the old space */
    return gc_newold(L, tt, size);
  if (!gs->collecting) {
    int nroom = (size_t)(gs->edenend - (uintptr_t)gs->v.top) < sz;  /* truly full */
    int full = nroom || (size_t)(gs->v.limit - gs->v.top) < sz;      /* past the limit */
    if (gs->running && gs->stress) {
      if (++gs->stresscount % 64 == 0) gc_collect(L, 0);
      else gc_collectminor(L);
    }
    else if (full && !gs->stress) {
      /* a minor even when stopped: promoting everything frees nothing, so
      ** it is invisible to the program */
      gc_collectminor(L);
      if (gs->running && majordue(gs)) gc_collect(L, 0);
    }
    else if (nroom) gc_collectminor(L);
    if (gs->heaplimit != 0 && overlimit(gs, sz)) {
      gc_collect(L, 1);                              /* emergency */
      if (overlimit(gs, sz)) do_throw(L, LUA_ERRMEM);
    }
  }
  if ((size_t)(gs->edenend - (uintptr_t)gs->v.top) < sz)
    return gc_newold(L, tt, size);   /* collector stopped and nursery full */
  o = (GCObject *)(void *)gs->v.top;
  gs->v.top += sz;
  if (gs->stress) gs->v.limit = gs->v.top;
  else if (gs->v.limit < gs->v.top) gs->v.limit = gs->v.top;
  memset(o, 0, sz);   /* counted when the nursery is reset */
  initheader(g, o, tt);
  return o;
}

GCObject *gc_newold(lua_State *L, int tt, size_t size) {
  global_State *g = G(L);
  GCState *gs = GCS(g);
  void *p = NULL;
  size_t sz;
  if (size > (size_t)-1 / 2) do_throw(L, LUA_ERRMEM);
  if (!gs->collecting && gs->running) {
    if (gs->stress) {
      if (++gs->stresscount % 64 == 0) gc_collect(L, 0);
      else gc_collectminor(L);
    }
    else if (majordue(gs)) gc_collect(L, 0);
    else if (gs->heaplimit != 0 &&
             totalbytes(gs) + size > gs->heaplimit - gs->heaplimit / 16)
      gc_collect(L, 0);   /* close to the limit: keep headroom for parts */
  }
  if (!overlimit(gs, size)) p = gc_oldalloc(gs, size);
  if (p == NULL && !gs->collecting) {
    gc_collect(L, 1);                                 /* emergency */
    if (!overlimit(gs, size)) p = gc_oldalloc(gs, size);
  }
  if (p == NULL) do_throw(L, LUA_ERRMEM);
  sz = gc_cellsize(gs, p);
  gs->bytesallocated += sz;
  memset(p, 0, size);
  initheader(g, (GCObject *)p, tt);
  return (GCObject *)p;
}

GCObject *gc_newoldraw(lua_State *L, int tt, size_t size) {
  global_State *g = G(L);
  GCState *gs = GCS(g);
  /* gc_newold's checks would do nothing: no stress, no heap limit, no
  ** major due (gc_oldalloc's accounting below keeps majordue current) */
  if (size <= GC_MAXSMALL && !gs->stress && gs->heaplimit == 0 && !majordue(gs)) {
    int c = gs->classof[(size + 15) >> 4];
    char *p = (char *)gs->freelist[c];
    if (l_likely(p != NULL)) {
      GCObject *o = (GCObject *)(void *)p;
      takecell(gs, c, p);
      gs->bytesallocated += gc_classsize[c];
      o->marked = 0; o->extra = 0; o->age = 0;
      initheader(g, o, tt);
      return o;
    }
  }
  return gc_newold(L, tt, size);
}

/* ---------------- out-of-line memory ---------------- */

void *mvm_memtryrealloc(lua_State *L, void *block, size_t osize, size_t nsize) {
  global_State *g = G(L);
  GCState *gs = GCS(g);
  void *p;
  if (block == NULL) osize = 0;
  if (gs == NULL) {   /* before gc_init / after gc_freeall: no accounting */
    if (nsize == 0) { if (block != NULL) g->frealloc(g->ud, block, osize, 0); return NULL; }
    return g->frealloc(g->ud, block, osize, nsize);
  }
  if (nsize == 0) {
    if (block != NULL) {
      if (gs->stress) memset(block, POISON, osize);
      g->frealloc(g->ud, block, osize, 0);
      gs->extbytes -= osize;
    }
    return NULL;
  }
  if (nsize > osize && overlimit(gs, nsize - osize)) return NULL;
  p = g->frealloc(g->ud, block, osize, nsize);
  if (p == NULL) return NULL;
  gs->extbytes = gs->extbytes - osize + nsize;
  if (nsize > osize) gs->bytesallocated += nsize - osize;
  if (gs->oldbytes + gs->extbytes >= gs->threshold) gs->v.checkdue = 1;
  return p;
}

void *mvm_memrealloc(lua_State *L, void *block, size_t osize, size_t nsize) {
  void *p = mvm_memtryrealloc(L, block, osize, nsize);
  if (p == NULL && nsize > 0) do_throw(L, LUA_ERRMEM);
  return p;
}

void *mvm_memalloc(lua_State *L, size_t size) {
  if (size == 0) return NULL;
  return mvm_memrealloc(L, NULL, 0, size);
}

void mvm_memfree(lua_State *L, void *block, size_t size) {
  mvm_memtryrealloc(L, block, size, 0);
}

/* ---------------- parts (gc.h) ---------------- */

static void *newpart(GCObject *h, int kind, size_t size) {
  h->tt = GC_TPART; h->marked = 0; h->extra = (uint8_t)kind;
  gc_partsize(h) = size;
  return (char *)h + GC_PARTHDR;
}

void *gc_tryallocpart(lua_State *L, GCObject *owner, size_t size, int kind) {
  GCState *gs = GCS(G(L));
  size_t sz = (size + GC_PARTHDR + 15) & ~(size_t)15;
  GCObject *h;
  if (gc_innursery(gs, owner)) {
    /* under stress the limit is the top (every object allocation collects);
    ** parts may still use the nursery's room, so stress exercises them */
    char *lim = gs->stress ? (char *)gs->edenend : gs->v.limit;
    if (size <= GC_MAXNPART && sz <= (size_t)(lim - gs->v.top)) {
      h = (GCObject *)(void *)gs->v.top;
      gs->v.top += sz;
      if (gs->stress) gs->v.limit = gs->v.top;
      return newpart(h, kind, size);   /* counted when the nursery is reset */
    }
    /* the minor must free it if the owner dies young */
    if (!gc_vecpushi(&gs->youngext, owner)) gs->youngwalk = 1;
  }
  if (overlimit(gs, sz)) return NULL;
  h = (GCObject *)gc_oldalloc(gs, sz);
  if (h == NULL) return NULL;
  gs->bytesallocated += gc_cellsize(gs, h);
  return newpart(h, kind, size);
}

/* Object + part in one bump: the part's header right behind the object's
** (16-aligned) end.  Only when both fit under the limit; otherwise the two
** separate paths, so that a table allocated at the very end of eden does
** not get an old part (which would make the next minor walk the nursery,
** gc_collectminor's 'walk').  *part is NULL if the part could not be had. */
GCObject *gc_newobjpart(lua_State *L, int tt, size_t size, size_t psize, int kind, void **part) {
  GCState *gs = GCS(G(L));
  size_t sz = (size + 15) & ~(size_t)15;
  size_t psz = (psize + GC_PARTHDR + 15) & ~(size_t)15;
  GCObject *o;
  if (psize <= GC_MAXNPART && sz + psz <= (size_t)(gs->v.limit - gs->v.top)) {
    o = (GCObject *)(void *)gs->v.top;
    gs->v.top += sz + psz;
    memset(o, 0, sz);
    initheader(G(L), o, tt);
    *part = newpart((GCObject *)(void *)((char *)o + sz), kind, psize);
    return o;
  }
  o = gc_newobj(L, tt, size);
  *part = gc_tryallocpart(L, o, psize, kind);
  return o;
}

/* Grow part 'part' in place to 'nsize' bytes if its block has the room
** (a nursery part's 16-byte rounding, an old cell's size class); the new
** bytes are the caller's to fill with valid values (a part is scanned up
** to its recorded size). */
int gc_growpart(lua_State *L, void *part, size_t nsize) {
  GCState *gs = GCS(G(L));
  GCObject *h = (GCObject *)(void *)((char *)part - GC_PARTHDR);
  size_t cap;
  if (gc_innursery(gs, h))
    cap = ((gc_partsize(h) + GC_PARTHDR + 15) & ~(size_t)15) - GC_PARTHDR;
  else
    cap = gc_cellsize(gs, h) - GC_PARTHDR;
  if (nsize > cap) return 0;
  /* (a part recorded bigger than its table uses keeps its size: its
  ** slots beyond are nil, table.c appendgrow) */
  if (nsize > gc_partsize(h)) gc_partsize(h) = nsize;
  return 1;
}

/* An old cell goes straight back on its free list (or its pages into the
** free runs): parts are freed at resizes, between sweeps.  Both lists are
** rebuilt from the page table by the next sweep anyway. */
static void freeoldcell(GCState *gs, GCObject *o) {
  PageInfo *pg = &gs->pages[((char *)o - gs->oldbase) >> GC_PAGESHIFT];
  if (pg->kind == PG_SMALL) {
    size_t cs = gc_classsize[pg->sclass];
    if (gs->stress) memset(o, POISON, cs);
    o->tt = 0;
    *(void **)((char *)o + 8) = gs->freelist[pg->sclass];
    gs->freelist[pg->sclass] = o;
    gs->oldbytes -= cs;
  }
  else {
    /* the pages are reusable at once but released (madvise) only by the
    ** next sweep: releasing megabytes here would lengthen a minor that
    ** frees a dead young table's big part */
    freelarge(gs, pg);
    pushrun(gs, pg->head, pg->npages);
  }
}

void gc_freepart(lua_State *L, void *part, size_t size) {
  GCState *gs = GCS(G(L));
  GCObject *h;
  (void)size;
  if (part == NULL) return;
  h = (GCObject *)(void *)((char *)part - GC_PARTHDR);
  if (gc_innursery(gs, h)) return;   /* dies with the nursery */
  freeoldcell(gs, h);
}

/* Copy a nursery part of a table being promoted into an old cell.  Promotion
** never fails on the heap limit; an exhausted range aborts (as evacuate). */
void *gc_promotepart(GCState *gs, const void *part) {
  const GCObject *h = (const GCObject *)(const void *)((const char *)part - GC_PARTHDR);
  size_t sz = (gc_partsize(h) + GC_PARTHDR + 15) & ~(size_t)15;
  GCObject *n = (GCObject *)gc_oldalloc(gs, sz);
  if (n == NULL) {
    fputs("mvm: out of memory while promoting a table part\n", stderr);
    abort();
  }
  memcpy(n, h, sz);
  gs->promoted += gc_cellsize(gs, n);
  return (char *)n + GC_PARTHDR;
}

/* ---------------- C roots ---------------- */

void gc_pushroot(lua_State *L, Value *slot) {
  global_State *g = G(L);
  if (g->nroots == g->sizeroots) {
    int nsize = g->sizeroots ? g->sizeroots * 2 : 32;
    Value **nr = (Value **)realloc(g->roots, (size_t)nsize * sizeof(Value *));
    if (nr == NULL) do_throw(L, LUA_ERRMEM);
    g->roots = nr; g->sizeroots = nsize;
  }
  g->roots[g->nroots++] = slot;
}

/* ---------------- threads ---------------- */

void gc_linkthread(lua_State *L, lua_State *L1) {
  GCState *gs = GCS(G(L));
  L1->gcnext = gs->threads;
  gs->threads = L1;
}

/* ---------------- settings and statistics ---------------- */

size_t gc_totalbytes(global_State *g) { return totalbytes(GCS(g)); }
void gc_setrunning(global_State *g, int on) { GCS(g)->running = on; GCS(g)->v.checkdue = 1; }
int gc_isrunning(global_State *g) { return GCS(g)->running; }
size_t gc_cyclecount(global_State *g) { return GCS(g)->nmajors; }
const size_t *gc_epoch(global_State *g) { return &GCS(g)->nminors; }

int gc_getmode(global_State *g) { return GCS(g)->generational; }

int gc_setmode(global_State *g, int generational) {
  int old = GCS(g)->generational;
  GCS(g)->generational = generational;
  return old;
}

void gc_setheaplimit(global_State *g, size_t bytes) {
  GCState *gs = GCS(g);
  size_t used = gs->oldbytes + gs->extbytes;
  gs->heaplimit = bytes;
  if (bytes != 0 && gs->threshold > bytes / 2 && gs->threshold > used) {
    size_t room = bytes > used ? bytes - used : 0;
    gs->threshold = used + room / 2;
  }
  gs->v.checkdue = 1;
  setnurserylimit(gs);
}

size_t gc_getheaplimit(global_State *g) { return GCS(g)->heaplimit; }

void gc_getstats(global_State *g, GCStats *st) {
  GCState *gs = GCS(g);
  st->minors = gs->nminors;
  st->majors = gs->nmajors;
  st->bytes_allocated = gs->bytesallocated + (size_t)((uintptr_t)gs->v.top - gs->v.nstart);
  st->bytes_promoted = gs->bytespromoted;
  st->max_pause_ms = gs->maxpause;
  st->total_pause_ms = gs->totalpause;
}

/* ---------------- internal: nursery limit after a minor ---------------- */

LUAI_FUNC void gc_resetnursery(GCState *gs);
void gc_resetnursery(GCState *gs) {
  /* eden bytes (objects bumped inline, parts) are counted here, once */
  size_t eden = (size_t)((uintptr_t)gs->v.top - gs->v.nstart);
  gs->bytesallocated += eden;
  if (gs->stress) {   /* evacuated memory: eden and the old from-space */
    memset((void *)gs->v.nstart, POISON, eden);
    memset(gs->surv[gs->survfrom], POISON, (size_t)(gs->survtop - gs->surv[gs->survfrom]));
  }
  /* the to-space now holds the survivors */
  gs->survfrom ^= 1;
  gs->survtop = gs->survbump;
  gs->v.top = (char *)gs->v.nstart;
  if (!gs->fixednursery) {   /* eden follows the heap (GC_MINEDEN) */
    size_t e = (gs->oldbytes + gs->extbytes) / 2;
    if (e < GC_MINEDEN) e = GC_MINEDEN;
    if (e > gs->nurserysize) e = gs->nurserysize;
    gs->edensize = (e + GC_PAGESIZE - 1) & ~(size_t)(GC_PAGESIZE - 1);
  }
  setnurserylimit(gs);
}

/* ---------------- shutdown ---------------- */

void gc_finalizeall(lua_State *L) {
  global_State *g = G(L);
  if (GCS(g) == NULL) return;
  /* every object still registered for finalization gets its __gc now */
  gc_separatefinobj(g, 1);
  gc_runfinalizers(L);
  GCS(g)->closing = 1;
}

void gc_freeall(lua_State *L) {
  global_State *g = G(L);
  GCState *gs = GCS(g);
  lua_State *th;
  if (gs == NULL) return;
  gc_finalizeall(L);
  gs->promoteall = 1;
  gc_collectminor(L);     /* everything in the old space: one walk frees all */
  gs->collecting = 1;     /* no collection from here on */
  for (th = gs->threads; th != NULL; th = th->gcnext)
    state_freethread(L, th);
  gs->threads = NULL;
  gc_foreachold(gs, o, gc_freeobject(L, o));
  if (g->strt.slot != NULL) {
    mvm_memfree(L, g->strt.slot, str_tablebytes(g->strt.size));
    g->strt.slot = NULL; g->strt.size = g->strt.nuse = 0;
  }
  free(g->roots);
  g->roots = NULL; g->nroots = g->sizeroots = 0;
  gc_vecfree(&gs->gray); gc_vecfree(&gs->weak); gc_vecfree(&gs->ephemeron);
  gc_vecfree(&gs->work); gc_vecfree(&gs->remarks);
  gc_vecfree(&gs->youngext); gc_vecfree(&gs->youngspare);
  gc_vecfree(&gs->finobj); gc_vecfree(&gs->tobefnz);
  free(gs->finseq); free(gs->fnzseq);
  free(gs->runs);
  munmap(gs->pages, (size_t)gs->npages * sizeof(PageInfo));
  munmap(gs->v.cards, gs->v.size >> GC_CARDSHIFT);
  munmap((void *)gs->v.base, gs->v.size);
  g->gc = NULL;
  g->frealloc(g->ud, gs, sizeof(GCState), 0);
}
