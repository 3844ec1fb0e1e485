/*
** heap.c -- allocation and accounting for the first (non-moving) collector:
** heap objects, out-of-line memory, the C root chain, limits and settings.
**
** All memory goes through the host allocator g->frealloc and is counted in
** GCS(g)->totalbytes, so collectgarbage("count") is truthful.  Objects carry
** a hidden GCPrefix (gcint.h).
*/
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <time.h>
#include "gcint.h"
#include "do.h"
#include "table.h"
#include "string.h"
#include "func.h"

#define POISON  0xDB

double gc_clockms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
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

void gc_init(lua_State *L) {
  global_State *g = G(L);
  GCState *gs = (GCState *)g->frealloc(g->ud, NULL, 0, sizeof(GCState));
  const char *e;
  if (gs == NULL) do_throw(L, LUA_ERRMEM);
  memset(gs, 0, sizeof *gs);
  g->gc = gs;
  gs->running = 1;
  gs->threshold = GC_MINTHRESHOLD;
  e = getenv("MVM_GC_STRESS");
  gs->stress = (e != NULL && *e != '\0' && strcmp(e, "0") != 0);
  e = getenv("MVM_GC_TRACE");
  gs->trace = (e != NULL && *e != '\0' && strcmp(e, "0") != 0);
  e = getenv("MVM_HEAP_LIMIT");
  if (e != NULL && *e != '\0') gs->heaplimit = parsesize(e);
  g->roots = NULL; g->nroots = g->sizeroots = 0;
  /* the gray stack gets room up front so that marking roots rarely overflows */
  gs->gray.a = (GCObject **)malloc(1024 * sizeof(GCObject *));
  gs->gray.cap = gs->gray.a ? 1024 : 0;
}

/* ---------------- raw allocation ---------------- */

/* Would growing the heap by 'delta' bytes pass the heap limit? */
static int overlimit(GCState *gs, size_t delta) {
  return gs->heaplimit != 0 && gs->totalbytes + delta > gs->heaplimit;
}

/* Allocate an object block; may run an emergency collection when over the
** heap limit or when the host allocator fails.  Returns NULL on failure. */
static void *allocblock(lua_State *L, size_t n, int tt) {
  global_State *g = G(L);
  GCState *gs = GCS(g);
  void *p = NULL;
  if (!overlimit(gs, n)) p = g->frealloc(g->ud, NULL, (size_t)tt, n);
  if (p == NULL && !gs->collecting) {
    gc_collect(L, 1);                                 /* emergency */
    if (!overlimit(gs, n)) p = g->frealloc(g->ud, NULL, (size_t)tt, n);
  }
  return p;
}

static GCObject *newobject(lua_State *L, int tt, size_t size) {
  global_State *g = G(L);
  GCState *gs = GCS(g);
  size_t n = sizeof(GCPrefix) + size;
  GCPrefix *p;
  GCObject *o;
  if (size > (size_t)-1 / 2) do_throw(L, LUA_ERRMEM);
  if (!gs->collecting && gs->running) {
    if (gs->stress)
      gc_collect(L, 0);
    else {
      /* large debt without a safe point, or close to the heap limit (out-of-
      ** line memory cannot collect, so keep some headroom for it) */
      size_t debt = gs->threshold + gs->threshold / 2;
      if (gs->heaplimit != 0 && debt > gs->heaplimit - gs->heaplimit / 16)
        debt = gs->heaplimit - gs->heaplimit / 16;
      if (gs->totalbytes + n >= debt) gc_collect(L, 0);
    }
  }
  p = (GCPrefix *)allocblock(L, n, tt);
  if (p == NULL) do_throw(L, LUA_ERRMEM);
  gs->totalbytes += n;
  gs->bytesallocated += n;
  memset(p, 0, n);
  p->size = n;
  p->next = gs->allgc;
  gs->allgc = p;
  o = pfx2obj(p);
  o->tt = (uint8_t)tt;
  g->idhash += 0x9E3779B9u;   /* golden-ratio step: consecutive ids spread */
  o->hash = g->idhash;
  return o;
}

GCObject *gc_newobj(lua_State *L, int tt, size_t size) {
  return newobject(L, tt, size);
}

GCObject *gc_newold(lua_State *L, int tt, size_t size) {
  return newobject(L, tt, size);
}

/* Free one object (it is no longer on any list): out-of-line parts through
** its owner, then the block. */
void gc_freeobject(lua_State *L, GCObject *o) {
  global_State *g = G(L);
  GCState *gs = GCS(g);
  GCPrefix *p = obj2pfx(o);
  size_t n = p->size;
  switch (o->tt) {
    case MVM_TSTRING: break;           /* the sweep unlinked it from strt */
    case MVM_TTABLE: tab_free(L, (Table *)o); break;
    case MVM_TPROTO: func_freeproto(L, (Proto *)o); break;
    case MVM_TTHREAD: break;           /* stack freed by the thread sweep */
    default: break;
  }
  if (gs->stress) memset(p, POISON, n);
  g->frealloc(g->ud, p, n, 0);
  gs->totalbytes -= n;
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
      gs->totalbytes -= osize;
    }
    return NULL;
  }
  if (nsize > osize && overlimit(gs, nsize - osize)) return NULL;
  p = g->frealloc(g->ud, block, osize, nsize);
  if (p == NULL) return NULL;
  gs->totalbytes = gs->totalbytes - osize + nsize;
  if (nsize > osize) gs->bytesallocated += nsize - osize;
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

/* ---------------- barrier ---------------- */

/* Hook for card marking.  The current collector is a non-incremental,
** non-generational mark-sweep, so there is nothing to remember: every store
** already goes through gc_write and the future generational collector will
** mark the card of 'slot' here. */
void gc_cardmark(global_State *g, GCObject *o, void *slot) {
  (void)g; (void)o; (void)slot;
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

size_t gc_totalbytes(global_State *g) { return GCS(g)->totalbytes; }
void gc_setrunning(global_State *g, int on) { GCS(g)->running = on; }
int gc_isrunning(global_State *g) { return GCS(g)->running; }
size_t gc_cyclecount(global_State *g) { return GCS(g)->ncollections; }

int gc_setmode(global_State *g, int generational) {
  int old = GCS(g)->generational;
  GCS(g)->generational = generational;
  return old;
}

void gc_setheaplimit(global_State *g, size_t bytes) {
  GCState *gs = GCS(g);
  gs->heaplimit = bytes;
  if (bytes != 0 && gs->threshold > bytes / 2 && gs->threshold > gs->totalbytes) {
    size_t room = bytes > gs->totalbytes ? bytes - gs->totalbytes : 0;
    gs->threshold = gs->totalbytes + room / 2;
  }
}

size_t gc_getheaplimit(global_State *g) { return GCS(g)->heaplimit; }

void gc_getstats(global_State *g, GCStats *st) {
  GCState *gs = GCS(g);
  st->minors = 0;
  st->majors = gs->ncollections;
  st->bytes_allocated = gs->bytesallocated;
  st->bytes_promoted = 0;
  st->max_pause_ms = gs->maxpause;
  st->total_pause_ms = gs->totalpause;
}

/* ---------------- shutdown ---------------- */

void gc_freeall(lua_State *L) {
  global_State *g = G(L);
  GCState *gs = GCS(g);
  lua_State *th;
  GCPrefix *p;
  if (gs == NULL) return;
  /* every object still registered for finalization gets its __gc now */
  gc_separatefinobj(g, 1);
  gc_runfinalizers(L);
  gs->closing = 1;
  gs->collecting = 1;     /* no collection from here on */
  for (th = gs->threads; th != NULL; th = th->gcnext)
    state_freethread(L, th);
  gs->threads = NULL;
  p = gs->allgc;
  gs->allgc = NULL;
  while (p != NULL) {
    GCPrefix *next = p->next;
    gc_freeobject(L, pfx2obj(p));
    p = next;
  }
  if (g->strt.hash != NULL) {
    mvm_freevector(L, g->strt.hash, g->strt.size, TString *);
    g->strt.hash = NULL; g->strt.size = g->strt.nuse = 0;
  }
  free(g->roots);
  g->roots = NULL; g->nroots = g->sizeroots = 0;
  gc_vecfree(&gs->gray); gc_vecfree(&gs->weak); gc_vecfree(&gs->ephemeron);
  gc_vecfree(&gs->finobj); gc_vecfree(&gs->tobefnz);
  free(gs->finseq); free(gs->fnzseq);
  g->gc = NULL;
  g->frealloc(g->ud, gs, sizeof(GCState), 0);
}
