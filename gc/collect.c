/*
** collect.c -- minor (copying) and major (mark-sweep) collections.
**
** MINOR: Cheney-style evacuation of the live nursery objects straight into
** the old space (promotion on first survival; the to-space is the old
** space, so the scan queue is a worklist of promoted objects instead of a
** contiguous region).  Roots: every thread's stack (up to the same bound as
** a major, the rest is set to nil) and open upvalues, the spill slots of
** its compiled frames (jit_walkframes, also marked by majors), the registry, the
** basic-type metatables, the C root chain, the finalizer lists, and the
** objects overlapping DIRTY CARDS of the old space.  Weak tables are
** treated as strong (their young entries are promoted; a later major clears
** them) and objects with finalizers simply survive (only majors finalize).
** An evacuated object keeps its header (identity hash, finalizer flags); its
** nursery copy gets GC_FORWARD and the new address at offset 8.  Afterwards
** no old object refers to the nursery, so every card is clean.
**
** MAJOR: a minor first (so the nursery is empty), then a stop-the-world,
** non-moving, precise mark-sweep of the old space with an explicit gray
** stack.  Cycle:
**   1. mark the roots (main and running thread, registry, basic-type
**      metatables, metamethod names, memerrmsg, the C root chain, objects
**      waiting for their finalizer) and propagate;
**   2. converge ephemerons (weak-key tables) until no new object is marked;
**   3. clear dead values from weak-value tables (before resurrection: 5.4
**      removes finalized objects from weak values at once);
**   4. move unreached objects with __gc to the to-be-finalized queue and mark
**      them again (resurrection), propagate, converge;
**   5. clear dead keys and values from weak tables;
**   6. sweep: free unreached threads' stacks, unreached objects (dead strings
**      leave the intern table), reset marks; compute the next threshold.
** Strings and boxed integers are values, never removed from weak tables.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gcint.h"
#include "table.h"
#include "string.h"
#include "func.h"
#include "jit.h"

LUAI_FUNC void gc_resetnursery(GCState *gs);

/* ---------------- marking ---------------- */

static void markobject(GCState *gs, GCObject *o) {
  if (gc_color(o) != GC_WHITE) return;
  gs->nmarked++;
  if (o->tt == MVM_TSTRING || o->tt == MVM_TBIGINT) {   /* no children */
    gc_setcolor(o, GC_BLACK);
    return;
  }
  gc_setcolor(o, GC_GRAY);
  if (!gc_vecpushi(&gs->gray, o)) gs->grayoverflow = 1;  /* rescanned later */
}

static inline void markvalue(GCState *gs, Value v) {
  if (v_isref(v)) markobject(gs, v_gc(v));
}

#define markobjectN(gs, o)  do { if ((o) != NULL) markobject(gs, (GCObject *)(o)); } while (0)

const Value *gc_gettm(global_State *g, Table *mt, TMS e) {
  const Value *v;
  if (mt == NULL || g->tmname[e] == NULL) return NULL;
  v = tab_getshortstr(mt, g->tmname[e]);
  return (isabstkey(v) || v_isnil(*v)) ? NULL : v;
}

/* weakness of a table: bit 1 = weak keys, bit 2 = weak values */
static int weakmode(global_State *g, Table *t) {
  const Value *m = gc_gettm(g, t->metatable, TM_MODE);
  int mode = 0;
  if (m != NULL && v_isstring(*m)) {
    const char *s = getstr(v_str(*m));
    if (strchr(s, 'k')) mode |= 1;
    if (strchr(s, 'v')) mode |= 2;
  }
  return mode;
}

static size_t gc_totalbytes_(GCState *gs) {
  return gc_nurseryused(gs) + gs->oldbytes + gs->extbytes;
}

#define sizenodeof(t)  ((t)->isdummy ? 0u : (1u << (t)->lsizenode))

/* An entry whose value is nil keeps its key only for 'next'; a collectable
** key there is turned into a dead key so that it never dangles.  Boxed
** integer keys are values: keep them alive instead. */
static void clearemptykey(GCState *gs, Node *n) {
  if (v_isref(n->key)) {
    GCObject *o = v_gc(n->key);
    if (o->tt == MVM_TBIGINT) markobject(gs, o);
    else n->key = tab_deadkey(n->key);
  }
}

/* Is a weak-table entry 'v' dead?  Strings and boxed integers are values:
** they are marked and kept. */
static int iscleared(GCState *gs, Value v) {
  GCObject *o;
  if (!v_isref(v)) return 0;
  o = v_gc(v);
  if (o->tt == MVM_TSTRING || o->tt == MVM_TBIGINT) {
    markobject(gs, o);
    return 0;
  }
  return gc_iswhite(o);
}

static void traversestrongtable(GCState *gs, Table *t) {
  unsigned i, n = sizenodeof(t);
  for (i = 0; i < t->asize; i++) markvalue(gs, t->array[i]);
  for (i = 0; i < n; i++) {
    Node *nd = &t->node[i];
    if (v_isnil(nd->val)) clearemptykey(gs, nd);
    else { markvalue(gs, nd->key); markvalue(gs, nd->val); }
  }
}

/* weak keys, strong values: mark a value only once its key is known alive.
** Returns 1 if some entry has an unmarked key and an unmarked value. */
static int traverseephemeron(GCState *gs, Table *t) {
  unsigned i, n = sizenodeof(t);
  int pending = 0;
  for (i = 0; i < t->asize; i++) markvalue(gs, t->array[i]);
  for (i = 0; i < n; i++) {
    Node *nd = &t->node[i];
    if (v_isnil(nd->val)) clearemptykey(gs, nd);
    else if (!iscleared(gs, nd->key)) markvalue(gs, nd->val);
    else if (v_isref(nd->val) && gc_iswhite(v_gc(nd->val))) pending = 1;
  }
  return pending;
}

static void traversetable(global_State *g, GCState *gs, Table *t) {
  int mode;
  markobjectN(gs, t->metatable);
  mode = weakmode(g, t);
  if (mode != 0 && !gc_vecpush(&gs->weak, (GCObject *)t))
    mode = 0;   /* cannot remember it for clearing: keep it all alive */
  switch (mode) {
    case 0: traversestrongtable(gs, t); break;
    case 1:     /* ephemeron */
      if (traverseephemeron(gs, t) && !gc_vecpush(&gs->ephemeron, (GCObject *)t))
        traversestrongtable(gs, t);
      break;
    case 2: {   /* weak values: keys are strong */
      unsigned i, n = sizenodeof(t);
      for (i = 0; i < n; i++) {
        Node *nd = &t->node[i];
        if (v_isnil(nd->val)) clearemptykey(gs, nd);
        else markvalue(gs, nd->key);
      }
      break;
    }
    default: {  /* all weak */
      unsigned i, n = sizenodeof(t);
      for (i = 0; i < n; i++)
        if (v_isnil(t->node[i].val)) clearemptykey(gs, &t->node[i]);
      break;
    }
  }
}

static void traverseproto(GCState *gs, Proto *p) {
  int i;
  markobjectN(gs, p->source);
  if (p->k) for (i = 0; i < p->sizek; i++) markvalue(gs, p->k[i]);
  if (p->upvalues) for (i = 0; i < p->sizeupvalues; i++) markobjectN(gs, p->upvalues[i].name);
  if (p->p) for (i = 0; i < p->sizep; i++) markobjectN(gs, p->p[i]);
  if (p->locvars) for (i = 0; i < p->sizelocvars; i++) markobjectN(gs, p->locvars[i].varname);
}

/* A thread's stack is marked precisely up to the highest live slot: L->top,
** or, when the innermost frame is a Lua function, that frame's top (all its
** registers may be live while L->top is lower).  Outer frames' live values
** all lie below their callee's function slot, hence below L->top; a C
** frame's ci->top only reserves room.  Marking the registers of outer
** frames up to their ci->top would keep dead locals of closed blocks alive,
** which 5.4 collects.  Everything above is set to nil so that dead values
** never resurface.  Stacks are never shrunk here. */
static void markslot(void *gs, uint64_t *slot) {
  markvalue((GCState *)gs, *slot);
}

static void traversethread(GCState *gs, lua_State *th) {
  Value *p, *lim, *end;
  CallInfo *ci;
  UpVal *uv;
  if (th->stack == NULL) return;    /* still being built */
  lim = th->top;
  ci = th->ci;
  if (ci != NULL && isLua(ci) && ci->top > lim) lim = ci->top;
  end = th->stack_last + EXTRA_STACK;
  if (lim > end) lim = end;
  for (p = th->stack; p < lim; p++) markvalue(gs, *p);
  for (; p < end; p++) *p = MVM_NIL;   /* NOBARRIER: stacks are roots */
  for (uv = th->openupval; uv != NULL; uv = uv->u.open.next)
    markobject(gs, (GCObject *)uv);
  jit_walkframes(th, markslot, gs);    /* references spilled by compiled code */
}

static void traverse(global_State *g, GCState *gs, GCObject *o) {
  gc_setcolor(o, GC_BLACK);
  switch (o->tt) {
    case MVM_TTABLE: traversetable(g, gs, (Table *)o); break;
    case MVM_TLCL: {
      LClosure *cl = (LClosure *)o;
      int i;
      markobjectN(gs, cl->p);
      for (i = 0; i < cl->nupvalues; i++) markobjectN(gs, cl->upvals[i]);
      break;
    }
    case MVM_TCCL: {
      CClosure *cl = (CClosure *)o;
      int i;
      for (i = 0; i < cl->nupvalues; i++) markvalue(gs, cl->upvalue[i]);
      break;
    }
    case MVM_TUPVAL: {
      UpVal *uv = (UpVal *)o;
      if (uv->v != NULL) markvalue(gs, *uv->v);
      break;
    }
    case MVM_TUDATA: {
      Udata *u = (Udata *)o;
      int i;
      markobjectN(gs, u->metatable);
      for (i = 0; i < u->nuvalue; i++) markvalue(gs, u->uv[i]);
      break;
    }
    case MVM_TTHREAD: traversethread(gs, gco2thread(o)); break;
    case MVM_TPROTO: traverseproto(gs, (Proto *)o); break;
    default: break;
  }
}

/* Empty the gray stack; after an overflow, rescan for gray objects. */
static void propagate(global_State *g, GCState *gs) {
  for (;;) {
    while (gs->gray.n > 0) traverse(g, gs, gs->gray.a[--gs->gray.n]);
    if (!gs->grayoverflow) break;
    gs->grayoverflow = 0;
    if (g->mainthread && gc_color(thread2gco(g->mainthread)) == GC_GRAY)
      traverse(g, gs, thread2gco(g->mainthread));
    gc_foreachold(gs, o, if (gc_color(o) == GC_GRAY) traverse(g, gs, o));
  }
}

/* Re-traverse ephemerons until no new object gets marked. */
static void convergeephemerons(global_State *g, GCState *gs) {
  size_t before;
  propagate(g, gs);
  do {
    ObjVec cur = gs->ephemeron;
    size_t i;
    before = gs->nmarked;
    gs->ephemeron.a = NULL; gs->ephemeron.n = gs->ephemeron.cap = 0;
    for (i = 0; i < cur.n; i++) {
      Table *t = (Table *)cur.a[i];
      if (traverseephemeron(gs, t) && !gc_vecpush(&gs->ephemeron, (GCObject *)t))
        traversestrongtable(gs, t);
    }
    gc_vecfree(&cur);
    propagate(g, gs);
  } while (gs->nmarked != before);
}

/* a Proto that compiled code inlines (jit_markinlined) */
static void markinlined(void *gs, Proto *p) {
  markobject((GCState *)gs, (GCObject *)p);
}

static void markroots(lua_State *L, global_State *g, GCState *gs) {
  int i;
  size_t j;
  if (g->mainthread) markobject(gs, thread2gco(g->mainthread));
  markobject(gs, thread2gco(L));           /* the running thread */
  markvalue(gs, g->l_registry);
  for (i = 0; i < LUA_NUMTYPES; i++) markobjectN(gs, g->mt[i]);
  for (i = 0; i < TM_N; i++) markobjectN(gs, g->tmname[i]);
  for (i = 0; i < LUA_NUMTYPES; i++) markobjectN(gs, g->tname[i]);
  markobjectN(gs, g->memerrmsg);
  markobjectN(gs, g->tostringname);
  for (i = 0; i < g->nroots; i++) markvalue(gs, *g->roots[i]);
  for (j = gs->fnzhead; j < gs->tobefnz.n; j++) markobject(gs, gs->tobefnz.a[j]);
  jit_markinlined(g, markinlined, gs);   /* the Protos compiled code guards on */
}

/* ---------------- weak tables ---------------- */

static void clearbyvalues(GCState *gs, Table *t) {
  unsigned i, n = sizenodeof(t);
  for (i = 0; i < t->asize; i++)
    if (iscleared(gs, t->array[i])) {
      tab_lenset(t, (uint64_t)i + 1, 1);   /* the length hint's upkeep (table.h) */
      t->array[i] = MVM_NIL;   /* NOBARRIER: nil */
    }
  for (i = 0; i < n; i++) {
    Node *nd = &t->node[i];
    if (!v_isnil(nd->val) && iscleared(gs, nd->val)) {
      nd->val = MVM_NIL;                                      /* NOBARRIER: nil */
      clearemptykey(gs, nd);
    }
  }
}

static void clearbykeys(GCState *gs, Table *t) {
  unsigned i, n = sizenodeof(t);
  for (i = 0; i < n; i++) {
    Node *nd = &t->node[i];
    if (!v_isnil(nd->val) && iscleared(gs, nd->key)) {
      nd->val = MVM_NIL;                                      /* NOBARRIER: nil */
      clearemptykey(gs, nd);
    }
  }
}

static void clearweak(global_State *g, GCState *gs, int bykeys) {
  size_t i;
  for (i = 0; i < gs->weak.n; i++) {
    Table *t = (Table *)gs->weak.a[i];
    int mode = weakmode(g, t);
    if (bykeys && (mode & 1)) clearbykeys(gs, t);
    if (mode & 2) clearbyvalues(gs, t);
  }
}

/* ---------------- sweeping ---------------- */

static void sweepthreads(lua_State *L, GCState *gs) {
  lua_State **pp = &gs->threads;
  while (*pp != NULL) {
    lua_State *th = *pp;
    if (gc_iswhite(thread2gco(th))) {
      *pp = th->gcnext;
      th->gcnext = NULL;
      state_freethread(L, th);   /* closes its open upvalues first */
    } else
      pp = &th->gcnext;
  }
}

/* Free dead object 'o' of a small cell of 'cs' bytes (gc_freecell's
** work, inline for the common kinds: a table without parts, as from a
** constructor with an inline array, needs no call). */
static inline void freesmall(lua_State *L, GCState *gs, GCObject *o, size_t cs) {
  if (o->tt == MVM_TTABLE) {
    Table *t = (Table *)o;
    if (!t->isdummy || (t->array != NULL && !tab_isinline(t))) tab_free(L, t);
  }
  else if (o->tt == MVM_TSTRING) str_remove(L, (TString *)o);
  else gc_freeobject(L, o);
  if (gs->stress) memset(o, GC_POISON, cs);
  o->tt = 0;
  gs->oldbytes -= cs;
}

static void sweepobjects(lua_State *L, GCState *gs) {
  uint32_t pi;
  for (pi = 0; pi < gs->frontier;) {
    PageInfo *pg = &gs->pages[pi];
    if (pg->kind == PG_SMALL) {
      size_t cs = gc_classsize[pg->sclass];
      char *c = gs->oldbase + ((size_t)pi << GC_PAGESHIFT);
      char *e = c + GC_BLOCKSIZE - cs;
      for (; c <= e; c += cs) {
        GCObject *o = (GCObject *)c;
        if (o->tt == 0 || o->tt == GC_TPART) continue;   /* free; parts: their owner frees them */
        if (gc_iswhite(o)) freesmall(L, gs, o, cs);
        else gc_setcolor(o, GC_WHITE);
      }
      pi += GC_BLOCKPAGES;
    }
    else if (pg->kind == PG_LARGE) {
      GCObject *o = (GCObject *)(gs->oldbase + ((size_t)pi << GC_PAGESHIFT));
      uint32_t n = pg->npages;
      if (o->tt == GC_TPART) {}
      else if (gc_iswhite(o)) {
        if (o->tt == MVM_TSTRING) str_remove(L, (TString *)o);
        gc_freecell(L, o);
      }
      else gc_setcolor(o, GC_WHITE);
      pi += n;
    }
    else pi++;
  }
  gc_sweepdone(gs);
}

/* ---------------- minor collection ---------------- */

/* Statistics and the MVM_GC_TRACE line.  The trace also gives the pause in
** thread CPU time: on a loaded machine the wall time includes preemption. */
static void note(GCState *gs, const char *kind, double t0, double c0, size_t before, size_t promoted) {
  double ms = gc_clockms() - t0;
  gs->totalpause += ms;
  if (ms > gs->maxpause) gs->maxpause = ms;
  if (gs->trace)
    fprintf(stderr, "[gc] %s %.3f ms (cpu %.3f) %zuk -> %zuk promoted %zuk\n", kind, ms,
            gc_cpums() - c0, before >> 10, gc_totalbytes_(gs) >> 10, promoted >> 10);
}

#define young(gs, o)  gc_innursery(gs, o)

/* Is 'p' in the space this minor evacuates: eden or the survivors'
** from-space?  (The to-space is young too, but already copied.) */
static inline int collected(GCState *gs, const void *p) {
  uintptr_t a = (uintptr_t)p;
  return a - gs->v.nstart < gs->edenend - gs->v.nstart ||
         a - (uintptr_t)gs->surv[gs->survfrom] < gs->survsize;
}
#define ineden(gs, p)  ((uintptr_t)(p) - (gs)->v.nstart < (gs)->edenend - (gs)->v.nstart)

/* Bump 'size' bytes in the survivors' to-space; NULL when it is full. */
static void *survalloc(GCState *gs, size_t size) {
  char *to = gs->surv[gs->survfrom ^ 1];
  size_t sz = (size + 15) & ~(size_t)15;
  void *p;
  if (gs->survbump + sz > to + gs->survsize) return NULL;
  p = gs->survbump;
  gs->survbump += sz;
  return p;
}

/* Move a young part along with its table's copy: beside a survivor table
** when there is room, else into an old cell. */
static void *movepart(GCState *gs, const void *part, int tosurv) {
  if (tosurv) {
    const GCObject *h = (const GCObject *)(const void *)((const char *)part - GC_PARTHDR);
    size_t sz = GC_PARTHDR + gc_partsize(h);
    char *p = (char *)survalloc(gs, sz);
    if (p != NULL) {
      memcpy(p, h, sz);
      return p + GC_PARTHDR;
    }
  }
  return gc_promotepart(gs, part);
}

/* Copy young object 'o' (once), returning its new address: an eden object
** goes to the survivors' to-space (when there is room and the minor does
** not promote everything), a survivor to an old cell (promotion at the
** second survival).  The copy is queued for scanning. */
static GCObject *evacuate(GCState *gs, GCObject *o) {
  GCObject *n = NULL;
  size_t size;
  int tosurv;
  if (o->marked & GC_FORWARD) return *(GCObject **)((char *)o + 8);
  size = gc_objsize(o);
  if (!gs->promoteall && ineden(gs, o)) n = (GCObject *)survalloc(gs, size);
  tosurv = (n != NULL);
  if (!tosurv) {
    n = (GCObject *)gc_oldalloci(gs, size);
    if (n == NULL) {   /* the reservation is exhausted: nothing sane to do */
      fputs("mvm: out of memory while promoting nursery objects\n", stderr);
      abort();
    }
    gs->promoted += gc_allocsize(gs, size);
  }
  memcpy(n, o, size);
  if (o->tt == MVM_TUPVAL) {
    UpVal *uv = (UpVal *)o;
    if (uv->v == &uv->u.value) ((UpVal *)n)->v = &((UpVal *)n)->u.value;   /* closed */
  }
  else if (o->tt == MVM_TTABLE) {   /* young parts move with their table */
    Table *t = (Table *)n;
    if (tab_isinline((Table *)o)) t->array = tab_inlinearray(t);
    else if (t->array != NULL && young(gs, t->array))
      t->array = (Value *)movepart(gs, t->array, tosurv);
    if (!t->isdummy && young(gs, t->node)) {
      t->node = (Node *)movepart(gs, t->node, tosurv);
    }
    /* a surviving young table with an old part (kept, or moved there when
    ** the to-space was full): the next minor frees it if the table dies */
    if (tosurv && ((t->array != NULL && !young(gs, t->array)) ||
                   (!t->isdummy && !young(gs, t->node))) &&
        !gc_vecpushi(&gs->youngext, n))
      gs->youngwalk = 1;
  }
  o->marked |= GC_FORWARD;
  *(GCObject **)((char *)o + 8) = n;
  if (o->tt != MVM_TBIGINT && !gc_vecpushi(&gs->work, n)) {
    fputs("mvm: out of memory in the collector\n", stderr);
    abort();
  }
  return n;
}

/* The holder being scanned (gs->remember, old) keeps a reference at 'slot'
** to a survivor: mark its card again, so that the next minor finds it.
** While the cards are being scanned the marks are deferred (scancards
** cleans each card as it goes and would lose a mark on a card it has
** passed or is about to clean). */
static void remark(GCState *gs, void *slot) {
  uintptr_t off = (uintptr_t)slot - gs->v.base;
  if (off >= gs->v.size) off = (uintptr_t)gs->remember - gs->v.base;
  if (gs->scanningcards) {
    if (!gc_vecpush(&gs->remarks, (GCObject *)(off >> GC_CARDSHIFT))) {
      fputs("mvm: out of memory in the collector\n", stderr);
      abort();
    }
  }
  else gs->v.cards[off >> GC_CARDSHIFT] = 1;
}

/* Fix one reference (evacuating its referent). */
static inline void fixvalue(GCState *gs, Value *slot) {
  Value v = *slot;
  if (v_isref(v) && collected(gs, v_gc(v))) {
    GCObject *n = evacuate(gs, v_gc(v));
    *slot = v_ref(n);
    if (gs->remember != NULL && young(gs, n)) remark(gs, slot);
  }
}

#define fixptr(gs, pp)  do { \
    if (*(pp) != NULL && collected(gs, *(pp))) { \
      *(pp) = (void *)evacuate(gs, (GCObject *)*(pp)); \
      if ((gs)->remember != NULL && young(gs, *(pp))) remark(gs, (void *)(pp)); \
    } } while (0)

/* Update every reference of 'o' to a nursery object (evacuating it). */
static void scanyoung(GCState *gs, GCObject *o) {
  switch (o->tt) {
    case MVM_TTABLE: {
      Table *t = (Table *)o;
      unsigned i, n = sizenodeof(t);
      GCObject *holder = gs->remember;
      fixptr(gs, &t->metatable);
      /* a part's slots have cards of their own: an old part (even of a
      ** young table) is the holder of its survivor references */
      if (t->array != NULL && !tab_isinline(t))
        gs->remember = young(gs, t->array) ? NULL : (GCObject *)(void *)((char *)t->array - GC_PARTHDR);
      for (i = 0; i < t->asize; i++) fixvalue(gs, &t->array[i]);
      if (n > 0)
        gs->remember = young(gs, t->node) ? NULL : (GCObject *)(void *)((char *)t->node - GC_PARTHDR);
      for (i = 0; i < n; i++) {   /* empty entries too: 'next' needs their keys */
        fixvalue(gs, &t->node[i].key);
        fixvalue(gs, &t->node[i].val);
      }
      gs->remember = holder;
      break;
    }
    case MVM_TLCL: {
      LClosure *cl = (LClosure *)o;
      int i;
      for (i = 0; i < cl->nupvalues; i++) fixptr(gs, &cl->upvals[i]);
      break;
    }
    case MVM_TCCL: {
      CClosure *cl = (CClosure *)o;
      int i;
      for (i = 0; i < cl->nupvalues; i++) fixvalue(gs, &cl->upvalue[i]);
      break;
    }
    case MVM_TUPVAL: {
      UpVal *uv = (UpVal *)o;
      if (uv->v == &uv->u.value) fixvalue(gs, &uv->u.value);   /* open: the stack is a root */
      break;
    }
    case MVM_TUDATA: {
      Udata *u = (Udata *)o;
      int i;
      fixptr(gs, &u->metatable);
      for (i = 0; i < u->nuvalue; i++) fixvalue(gs, &u->uv[i]);
      break;
    }
    case MVM_TPROTO: {
      Proto *p = (Proto *)o;
      int i;
      if (p->k) for (i = 0; i < p->sizek; i++) fixvalue(gs, &p->k[i]);
      break;
    }
    case GC_TPART: {   /* an old table part under a dirty card */
      size_t i, size = gc_partsize(o);
      if (o->extra == GC_PARTVALUES) {
        Value *a = (Value *)(void *)((char *)o + GC_PARTHDR);
        for (i = 0; i < size / sizeof(Value); i++) fixvalue(gs, &a[i]);
      } else {
        Node *nd = (Node *)(void *)((char *)o + GC_PARTHDR);
        for (i = 0; i < size / sizeof(Node); i++) {
          fixvalue(gs, &nd[i].key);
          fixvalue(gs, &nd[i].val);
        }
      }
      break;
    }
    default: break;   /* strings, boxed integers: no references; threads are roots */
  }
}

static void fixslot(void *gs, uint64_t *slot) {
  fixvalue((GCState *)gs, slot);
}

/* A thread's stack (same bound as traversethread) and its open upvalues,
** whose list links are rebuilt after their objects moved. */
static void minorthread(GCState *gs, lua_State *th) {
  Value *p, *lim, *end;
  CallInfo *ci;
  UpVal **pp;
  if (th->stack == NULL) return;
  lim = th->top;
  ci = th->ci;
  if (ci != NULL && isLua(ci) && ci->top > lim) lim = ci->top;
  end = th->stack_last + EXTRA_STACK;
  if (lim > end) lim = end;
  for (p = th->stack; p < lim; p++) fixvalue(gs, p);
  for (; p < end; p++) *p = MVM_NIL;   /* NOBARRIER: stacks are roots */
  jit_walkframes(th, fixslot, gs);     /* spill slots of compiled frames */
  for (pp = &th->openupval; *pp != NULL; pp = &(*pp)->u.open.next) {
    UpVal *uv = *pp;
    if (collected(gs, uv)) uv = (UpVal *)evacuate(gs, (GCObject *)uv);
    *pp = uv;
    uv->u.open.previous = pp;
  }
}

/* Fix the slots of old part 'o' (header included) that overlap the
** card [a, a + 512): a large part is scanned card by card, since every
** store into a part marks the card of its slot. */
static void scanpartcard(GCState *gs, GCObject *o, char *a) {
  char *d = (char *)o + GC_PARTHDR, *e = d + gc_partsize(o);
  char *lo = a > d ? a : d, *hi = a + (1 << GC_CARDSHIFT);
  if (hi > e) hi = e;
  if (lo >= hi) return;
  gs->remember = o;
  if (o->extra == GC_PARTVALUES) {
    Value *p = (Value *)(void *)(d + (size_t)(lo - d) / sizeof(Value) * sizeof(Value));
    for (; (char *)p < hi; p++) fixvalue(gs, p);
  } else {   /* every node overlapping the card, whole */
    Node *p = (Node *)(void *)(d + (size_t)(lo - d) / sizeof(Node) * sizeof(Node));
    for (; (char *)p < hi; p++) { fixvalue(gs, &p->key); fixvalue(gs, &p->val); }
  }
}

/* An old object overlapping a dirty card.  An old table's parts are in the
** heap with cards of their own, so only its own fields are looked at: the
** metatable and the inline array slots (a few, all scanned). */
static void scancardobj(GCState *gs, GCObject *o) {
  gs->remember = o;
  if (o->tt == MVM_TTABLE) {
    Table *t = (Table *)o;
    fixptr(gs, &t->metatable);
    if (tab_isinline(t)) {
      unsigned i;
      for (i = 0; i < t->asize; i++) fixvalue(gs, &t->array[i]);
    }
  }
  else scanyoung(gs, o);
}

/* Scan the objects overlapping dirty cards of the old space, then clean
** the cards.  An object overlapping several dirty cards is scanned once
** (large parts: only the dirty cards). */
static void scancards(GCState *gs) {
  uint8_t *cards = gs->v.cards;
  size_t first = (size_t)(gs->oldbase - (char *)gs->v.base) >> GC_CARDSHIFT;
  size_t last = first + (((size_t)gs->frontier << GC_PAGESHIFT) >> GC_CARDSHIFT);
  size_t c = first;
  GCObject *lastobj = NULL;
  while (c < last) {
    if ((c & 7) == 0 && c + 8 <= last && *(uint64_t *)(void *)(cards + c) == 0) { c += 8; continue; }
    if (cards[c] == 0) { c++; continue; }
    cards[c] = 0;
    {
      char *a = (char *)gs->v.base + (c << GC_CARDSHIFT);
      size_t pi = (size_t)(a - gs->oldbase) >> GC_PAGESHIFT;
      PageInfo *pg = &gs->pages[pi];
      if (pg->kind == PG_LARGE) {
        GCObject *o = (GCObject *)(gs->oldbase + ((size_t)pg->head << GC_PAGESHIFT));
        if (o->tt == GC_TPART) scanpartcard(gs, o, a);
        else if (o != lastobj) { scancardobj(gs, o); lastobj = o; }
      }
      else if (pg->kind == PG_SMALL) {
        char *b = gs->oldbase + ((size_t)pg->head << GC_PAGESHIFT);
        size_t cs = gc_classsize[pg->sclass];
        size_t i = (size_t)(a - b) / cs, j = (size_t)(a + (1 << GC_CARDSHIFT) - 1 - b) / cs;
        size_t ncells = GC_BLOCKSIZE / cs;
        if (j >= ncells) j = ncells - 1;
        for (; i <= j; i++) {
          GCObject *o = (GCObject *)(b + i * cs);
          if (o->tt != 0 && o != lastobj) { scancardobj(gs, o); lastobj = o; }
        }
      }
    }
    c++;
  }
}

/* Young tables that die may own parts in old cells (parts too big for
** the nursery, or bumped when eden had no room left for them): the
** tables registered when they got one (gc_tryallocpart, and evacuate for
** survivors that keep one) and not copied by this minor are dead: their
** parts are freed.  A table registered twice is freed twice: tab_free
** leaves it without parts. */
static void freedeadlisted(lua_State *L, ObjVec *ext) {
  size_t i;
  for (i = 0; i < ext->n; i++) {
    GCObject *o = ext->a[i];
    if (!(o->marked & GC_FORWARD)) tab_free(L, (Table *)o);
  }
}

/* The same when a registration failed (out of memory): walk [p, end)
** (objects are contiguous; a forwarded object's size is read from its
** copy, since the forwarding pointer overwrote offset 8) and free the
** parts of every dead table. */
static void freedeadtables(lua_State *L, char *p, char *end) {
  while (p < end) {
    GCObject *o = (GCObject *)(void *)p;
    size_t size;
    if (o->marked & GC_FORWARD) size = gc_objsize(*(GCObject **)(p + 8));
    else {
      size = gc_objsize(o);
      if (o->tt == MVM_TTABLE) tab_free(L, (Table *)o);   /* nursery parts: no-op */
    }
    p += (size + 15) & ~(size_t)15;
  }
}


/* Debugging aid (MVM_GC_VERIFY=1): after each minor, check that no old
** object or part refers to eden or the from-space, and that every old
** reference to a survivor has a dirty card. */
static void vcheck(GCState *gs, GCObject *holder, Value *slot) {
  Value v = *slot;
  GCObject *o;
  if (!v_isref(v)) return;
  o = v_gc(v);
  if (ineden(gs, o) || (uintptr_t)o - (uintptr_t)gs->surv[gs->survfrom] < gs->survsize) {
    fprintf(stderr, "VERIFY: holder +%lx tt %d slot +%lx -> dead young +%lx (eden end +%lx)\n", (unsigned long)((uintptr_t)holder - gs->v.base), holder->tt, (unsigned long)((uintptr_t)slot - gs->v.base), (unsigned long)((uintptr_t)o - gs->v.base), (unsigned long)(gs->edenend - gs->v.base));
    abort();
  }
  if (young(gs, o)) {
    uintptr_t off = (uintptr_t)slot - gs->v.base;
    if (off >= gs->v.size) off = (uintptr_t)holder - gs->v.base;
    if (!gs->v.cards[off >> GC_CARDSHIFT]) {
      fprintf(stderr, "VERIFY: holder +%lx tt %d slot +%lx -> survivor +%lx, clean card\n", (unsigned long)((uintptr_t)holder - gs->v.base), holder->tt, (unsigned long)((uintptr_t)slot - gs->v.base), (unsigned long)((uintptr_t)o - gs->v.base));
      abort();
    }
  }
}
static void verifyobj(GCState *gs, GCObject *o) {
    switch (o->tt) {
      case GC_TPART: {
        size_t i, size = gc_partsize(o);
        if (o->extra == GC_PARTVALUES) {
          Value *a = (Value *)(void *)((char *)o + GC_PARTHDR);
          for (i = 0; i < size / sizeof(Value); i++) vcheck(gs, o, &a[i]);
        } else {
          Node *nd = (Node *)(void *)((char *)o + GC_PARTHDR);
          for (i = 0; i < size / sizeof(Node); i++) { vcheck(gs, o, &nd[i].key); vcheck(gs, o, &nd[i].val); }
        }
        break;
      }
      case MVM_TTABLE: {
        Table *t = (Table *)o;
        if (t->array && young(gs, t->array)) { fprintf(stderr, "VERIFY: old table %p young array\n", (void*)t); abort(); }
        if (tab_isinline(t)) { unsigned i; for (i = 0; i < t->asize; i++) vcheck(gs, o, &t->array[i]); }
        if (!t->isdummy && young(gs, t->node)) { fprintf(stderr, "VERIFY: old table %p young node\n", (void*)t); abort(); }
        break;
      }
      case MVM_TCCL: {
        CClosure *cl = (CClosure *)o; int i;
        for (i = 0; i < cl->nupvalues; i++) vcheck(gs, o, &cl->upvalue[i]);
        break;
      }
      case MVM_TUPVAL: {
        UpVal *uv = (UpVal *)o;
        if (uv->v == &uv->u.value) vcheck(gs, o, &uv->u.value);
        break;
      }
      case MVM_TPROTO: {
        Proto *p = (Proto *)o; int i;
        if (p->k) for (i = 0; i < p->sizek; i++) vcheck(gs, o, &p->k[i]);
        break;
      }
      default: break;
    }
}
static void verifyheap(GCState *gs) {
  gc_foreachold(gs, o, verifyobj(gs, o));
}

void gc_collectminor(lua_State *L) {
  global_State *g = G(L);
  GCState *gs = GCS(g);
  double t0, c0;
  size_t before, j;
  int i;
  lua_State *th;
  int walk;
  ObjVec ext;
  if (gs == NULL || gs->collecting) return;
  gs->collecting = 1;
  t0 = gc_clockms();
  c0 = gs->trace ? gc_cpums() : 0;
  before = gc_totalbytes_(gs);
  gs->promoted = 0;
  gs->work.n = 0;
  gs->survbump = gs->surv[gs->survfrom ^ 1];
  gs->remember = NULL;
  /* the young tables that may own old parts; the copies register the
  ** survivors that keep one, in the other buffer */
  ext = gs->youngext;
  walk = gs->youngwalk;
  gs->youngext = gs->youngspare;
  gs->youngext.n = 0;
  gs->youngwalk = 0;
  /* roots */
  if (g->mainthread) minorthread(gs, g->mainthread);
  for (th = gs->threads; th != NULL; th = th->gcnext) minorthread(gs, th);
  fixvalue(gs, &g->l_registry);
  for (i = 0; i < LUA_NUMTYPES; i++) fixptr(gs, &g->mt[i]);
  for (i = 0; i < g->nroots; i++) fixvalue(gs, g->roots[i]);
  for (j = 0; j < gs->finobj.n; j++) fixptr(gs, &gs->finobj.a[j]);
  for (j = gs->fnzhead; j < gs->tobefnz.n; j++) fixptr(gs, &gs->tobefnz.a[j]);
  gs->scanningcards = 1;
  gs->remarks.n = 0;
  scancards(gs);
  gs->scanningcards = 0;
  for (j = 0; j < gs->remarks.n; j++) gs->v.cards[(uintptr_t)gs->remarks.a[j]] = 1;
  /* transitive closure over the copies (survivors and promoted objects) */
  while (gs->work.n > 0) {
    GCObject *o = gs->work.a[--gs->work.n];
    gs->remember = young(gs, o) ? NULL : o;
    scanyoung(gs, o);
  }
  gs->remember = NULL;
  gs->bytespromoted += gs->promoted;
  if (walk) {
    freedeadtables(L, (char *)gs->v.nstart, gs->v.top);
    freedeadtables(L, gs->surv[gs->survfrom], gs->survtop);
  }
  else freedeadlisted(L, &ext);
  ext.n = 0;
  gs->youngspare = ext;
  if (gs->verify) verifyheap(gs);
  gc_resetnursery(gs);
  gs->nminors++;
  /* tables and node arrays moved or died: every method cache entry goes
  ** stale (vm.h vm_cachestamp; jit.h JitMethodCache) */
  g->watchepoch++;
  note(gs, "minor", t0, c0, before, gs->promoted);
  gs->collecting = 0;
}

/* ---------------- a full cycle ---------------- */

void gc_collect(lua_State *L, int isemergency) {
  global_State *g = G(L);
  GCState *gs = GCS(g);
  double t0, c0;
  size_t before, i;
  if (gs == NULL || gs->collecting) return;
  t0 = gc_clockms();
  c0 = gs->trace ? gc_cpums() : 0;
  before = gc_totalbytes_(gs);
  gs->promoteall = 1;
  gc_collectminor(L);                /* the major sees only old objects */
  gs->promoteall = 0;
  gs->collecting = 1;
  gs->gray.n = 0; gs->grayoverflow = 0;
  gs->weak.n = 0; gs->ephemeron.n = 0;
  /* mark */
  markroots(L, g, gs);
  convergeephemerons(g, gs);
  clearweak(g, gs, 0);               /* values only, before resurrection */
  gc_separatefinobj(g, 0);
  for (i = gs->fnzhead; i < gs->tobefnz.n; i++) markobject(gs, gs->tobefnz.a[i]);
  for (i = 0; i < gs->finobj.n; i++) markobject(gs, gs->finobj.a[i]);  /* queue-push failures */
  convergeephemerons(g, gs);
  clearweak(g, gs, 1);
  /* sweep */
  sweepthreads(L, gs);
  sweepobjects(L, gs);
  if (g->mainthread) gc_setcolor(thread2gco(g->mainthread), GC_WHITE);
  if (!isemergency) {   /* shrink the intern table while 7/8 empty (it
                        ** grows when 3/4 full: no back and forth) */
    int ns = g->strt.size;
    while (ns > 128 && g->strt.nuse < ns / 8) ns /= 2;
    if (ns != g->strt.size) str_resize(L, ns);
  }
  /* next threshold: pause 200% of the old + out-of-line bytes alive */
  gs->lastlive = gs->oldbytes + gs->extbytes;
  gs->threshold = gs->lastlive * 2;
  if (gs->threshold < GC_MINTHRESHOLD) gs->threshold = GC_MINTHRESHOLD;
  if (gs->heaplimit != 0 && gs->threshold > gs->heaplimit) {
    size_t room = gs->heaplimit > gs->lastlive ? gs->heaplimit - gs->lastlive : 0;
    gs->threshold = gs->lastlive + room / 2;
  }
  gs->nmajors++;
  gs->v.checkdue = 1;   /* finalizers may be queued */
  note(gs, isemergency ? "major(emergency)" : "major", t0, c0, before, gs->promoted);
  gs->collecting = 0;
}

void gc_fullgc(lua_State *L, int isemergency) {
  gc_collect(L, isemergency);
  if (!isemergency) gc_runfinalizers(L);
}

void gc_minor(lua_State *L) {
  gc_collectminor(L);
}

int gc_step(lua_State *L, int kbytes) {
  (void)kbytes;     /* non-incremental: every step is a whole cycle */
  gc_fullgc(L, 0);
  return 1;
}

int gc_stresscollect(lua_State *L) {
  GCState *gs = GCS(G(L));
  if (!gs->stress || !gs->running) return 0;
  if (++gs->stresscount % 64 == 0) gc_collect(L, 0);
  else gc_collectminor(L);
  return 1;
}

int gc_isstress(global_State *g) {
  return GCS(g)->stress;
}

/* gc_check's slow path; afterwards 'checkdue' says whether the next
** gc_check has something to do.  Everything that may make a major due
** sets it again: old-space growth past the threshold (gc_oldalloc),
** out-of-line growth (mvm_memtryrealloc), a new threshold or finalizer
** queue (gc_collect), the heap limit, collectgarbage("restart"). */
void gc_checkslow(lua_State *L) {
  GCState *gs = GCS(G(L));
  if (gs->running) {
    if (gs->stress) gc_stresscollect(L);
    else if (gs->oldbytes + gs->extbytes >= gs->threshold) gc_collect(L, 0);
  }
  /* Under stress every unreachable object is found at once, one per cycle;
  ** deferring finalizers a little keeps 5.4's newest-first order among
  ** objects that die together (gc_fullgc and lua_close run them all). */
  if (gs->fnzhead < gs->tobefnz.n && !gs->infinalizer &&
      (!gs->stress || gs->tobefnz.n - gs->fnzhead >= 64))
    gc_runfinalizers(L);
  gs->v.checkdue = gs->stress || gs->fnzhead < gs->tobefnz.n ||
                   (gs->running && gs->oldbytes + gs->extbytes >= gs->threshold);
}
