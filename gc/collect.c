/*
** collect.c -- the first collector: stop-the-world, non-moving, precise
** mark-sweep with an explicit gray stack.
**
** Cycle:
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
#include <string.h>
#include "gcint.h"
#include "table.h"
#include "string.h"

/* ---------------- marking ---------------- */

static void markobject(GCState *gs, GCObject *o) {
  if (gc_color(o) != GC_WHITE) return;
  gs->nmarked++;
  if (o->tt == MVM_TSTRING || o->tt == MVM_TBIGINT) {   /* no children */
    gc_setcolor(o, GC_BLACK);
    return;
  }
  gc_setcolor(o, GC_GRAY);
  if (!gc_vecpush(&gs->gray, o)) gs->grayoverflow = 1;  /* rescanned later */
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
    GCPrefix *p;
    while (gs->gray.n > 0) traverse(g, gs, gs->gray.a[--gs->gray.n]);
    if (!gs->grayoverflow) break;
    gs->grayoverflow = 0;
    if (g->mainthread && gc_color(thread2gco(g->mainthread)) == GC_GRAY)
      traverse(g, gs, thread2gco(g->mainthread));
    for (p = gs->allgc; p != NULL; p = p->next)
      if (gc_color(pfx2obj(p)) == GC_GRAY) traverse(g, gs, pfx2obj(p));
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

static void markroots(lua_State *L, global_State *g, GCState *gs) {
  int i;
  size_t j;
  if (g->mainthread) markobject(gs, thread2gco(g->mainthread));
  markobject(gs, thread2gco(L));           /* the running thread */
  markvalue(gs, g->l_registry);
  for (i = 0; i < LUA_NUMTYPES; i++) markobjectN(gs, g->mt[i]);
  for (i = 0; i < TM_N; i++) markobjectN(gs, g->tmname[i]);
  markobjectN(gs, g->memerrmsg);
  for (i = 0; i < g->nroots; i++) markvalue(gs, *g->roots[i]);
  for (j = gs->fnzhead; j < gs->tobefnz.n; j++) markobject(gs, gs->tobefnz.a[j]);
}

/* ---------------- weak tables ---------------- */

static void clearbyvalues(GCState *gs, Table *t) {
  unsigned i, n = sizenodeof(t);
  for (i = 0; i < t->asize; i++)
    if (iscleared(gs, t->array[i])) t->array[i] = MVM_NIL;   /* NOBARRIER: nil */
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

static void sweepobjects(lua_State *L, GCState *gs) {
  GCPrefix **pp = &gs->allgc;
  while (*pp != NULL) {
    GCPrefix *p = *pp;
    GCObject *o = pfx2obj(p);
    if (gc_iswhite(o)) {
      *pp = p->next;
      if (o->tt == MVM_TSTRING) str_remove(L, (TString *)o);
      gc_freeobject(L, o);
    } else {
      gc_setcolor(o, GC_WHITE);
      pp = &p->next;
    }
  }
}

/* ---------------- a full cycle ---------------- */

void gc_collect(lua_State *L, int isemergency) {
  global_State *g = G(L);
  GCState *gs = GCS(g);
  double t0;
  size_t before, i;
  if (gs == NULL || gs->collecting) return;
  gs->collecting = 1;
  t0 = gc_clockms();
  before = gs->totalbytes;
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
  if (!isemergency) {   /* shrink the intern table while 3/4 empty */
    int ns = g->strt.size;
    while (ns > 128 && g->strt.nuse < ns / 4) ns /= 2;
    if (ns != g->strt.size) str_resize(L, ns);
  }
  /* next threshold: pause 200% */
  gs->lastlive = gs->totalbytes;
  gs->threshold = gs->lastlive * 2;
  if (gs->threshold < GC_MINTHRESHOLD) gs->threshold = GC_MINTHRESHOLD;
  if (gs->heaplimit != 0 && gs->threshold > gs->heaplimit) {
    size_t room = gs->heaplimit > gs->lastlive ? gs->heaplimit - gs->lastlive : 0;
    gs->threshold = gs->lastlive + room / 2;
  }
  gs->ncollections++;
  {
    double ms = gc_clockms() - t0;
    gs->totalpause += ms;
    if (ms > gs->maxpause) gs->maxpause = ms;
    if (gs->trace)
      fprintf(stderr, "[gc] %s %.3f ms %zuk -> %zuk\n", isemergency ? "emergency" : "full",
              ms, before >> 10, gs->totalbytes >> 10);
  }
  gs->collecting = 0;
}

void gc_fullgc(lua_State *L, int isemergency) {
  gc_collect(L, isemergency);
  if (!isemergency) gc_runfinalizers(L);
}

void gc_minor(lua_State *L) {
  gc_collect(L, 0);
}

int gc_step(lua_State *L, int kbytes) {
  (void)kbytes;     /* non-incremental: every step is a whole cycle */
  gc_fullgc(L, 0);
  return 1;
}

void gc_check(lua_State *L) {
  GCState *gs = GCS(G(L));
  if (gs->running && (gs->stress || gs->totalbytes >= gs->threshold))
    gc_collect(L, 0);
  /* Under stress every unreachable object is found at once, one per cycle;
  ** deferring finalizers a little keeps 5.4's newest-first order among
  ** objects that die together (gc_fullgc and lua_close run them all). */
  if (gs->fnzhead < gs->tobefnz.n && !gs->infinalizer &&
      (!gs->stress || gs->tobefnz.n - gs->fnzhead >= 64))
    gc_runfinalizers(L);
}
