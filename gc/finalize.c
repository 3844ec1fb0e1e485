/*
** finalize.c -- __gc finalizers.
**
** setmetatable calls gc_checkfinalizer: an object whose metatable has __gc
** at that moment is registered (finobj vector, flag GC_FINOBJ).  After a
** marking phase, registered objects left unmarked are moved, newest
** registration first (5.4's order), to the to-be-finalized queue and
** resurrected.  gc_runfinalizers runs the queue at a safe point, never
** inside the collector; each __gc is called protected and an error becomes
** the warning "error in __gc (msg)".  A finalized object is no longer
** registered: it is finalized again only if setmetatable registers it again.
*/
#include <stdlib.h>
#include <string.h>
#include "gcint.h"
#include "do.h"



/* push 'o' with registration number 's' on a vector with a parallel
** array of numbers; 0 on allocation failure (nothing pushed) */
static int pushseq(ObjVec *v, uint64_t **seq, GCObject *o, uint64_t s) {
  size_t oldcap = v->cap;
  if (!gc_vecpush(v, o)) return 0;
  if (v->cap != oldcap || *seq == NULL) {
    uint64_t *ns = (uint64_t *)realloc(*seq, v->cap * sizeof(uint64_t));
    if (ns == NULL) { v->n--; return 0; }
    *seq = ns;
  }
  (*seq)[v->n - 1] = s;
  return 1;
}

void gc_checkfinalizer(lua_State *L, GCObject *o, Table *mt) {
  global_State *g = G(L);
  GCState *gs = GCS(g);
  if (gs == NULL || gs->closing || mt == NULL) return;
  if (o->marked & (GC_FINOBJ | GC_INFNZ)) return;   /* already registered */
  if (gc_gettm(g, mt, TM_GC) == NULL) return;
  if (!pushseq(&gs->finobj, &gs->finseq, o, ++gs->finclock)) do_throw(L, LUA_ERRMEM);
  o->marked |= GC_FINOBJ;
}

/* Move registered objects that are unmarked (or all of them, at close) to
** the queue, most recent registration first.  An object whose queue push
** fails stays registered (the caller marks it; it is retried next cycle). */
void gc_separatefinobj(global_State *g, int all) {
  GCState *gs = GCS(g);
  size_t i, j;
  if (gs->fnzhead == gs->tobefnz.n) gs->fnzhead = gs->tobefnz.n = gs->fnzsorted = 0;
  for (i = gs->finobj.n; i-- > 0;) {
    GCObject *o = gs->finobj.a[i];
    if ((all || gc_iswhite(o)) && pushseq(&gs->tobefnz, &gs->fnzseq, o, gs->finseq[i])) {
      o->marked &= (uint8_t)~GC_FINOBJ;
      o->marked |= GC_INFNZ;
    }
  }
  for (i = j = 0; i < gs->finobj.n; i++)     /* compact, keeping order */
    if (gs->finobj.a[i]->marked & GC_FINOBJ) {
      gs->finseq[j] = gs->finseq[i];
      gs->finobj.a[j++] = gs->finobj.a[i];
    }
  gs->finobj.n = j;
}

struct fnzcall { Value f, o; };

static void callfnz(lua_State *L, void *ud) {
  struct fnzcall *c = (struct fnzcall *)ud;
  checkstack(L, 2);
  L->top[0] = c->f;      /* NOBARRIER: stack */
  L->top[1] = c->o;
  L->top += 2;
  do_callnoyield(L, L->top - 2, 0);
}

static void warn(global_State *g, const char *msg, int tocont) {
  if (g->warnf != NULL) g->warnf(g->ud_warn, msg, tocont);
}

static void runone(lua_State *L, GCObject *o) {
  global_State *g = G(L);
  Table *mt = NULL;
  const Value *tm;
  struct fnzcall c;
  int status;
  uint8_t oldah;
  ptrdiff_t oldtop;
  if (o->tt == MVM_TTABLE) mt = ((Table *)o)->metatable;
  else if (o->tt == MVM_TUDATA) mt = ((Udata *)o)->metatable;
  tm = gc_gettm(g, mt, TM_GC);
  if (tm == NULL) return;          /* __gc removed meanwhile */
  c.f = *tm;
  c.o = v_ref(o);
  oldah = L->allowhook;
  L->allowhook = 0;                /* no hooks inside finalizers */
  oldtop = savestack(L, L->top);
  status = do_pcall(L, callfnz, &c, oldtop, 0);
  L->allowhook = oldah;
  if (status != LUA_OK) {
    Value err = L->top[-1];
    warn(g, "error in ", 1);
    warn(g, "__gc", 1);
    warn(g, " (", 1);
    warn(g, v_isstring(err) ? getstr(v_str(err)) : "error object is not a string", 1);
    warn(g, ")", 0);
    L->top = restorestack(L, oldtop);
  }
}

/* Pending objects may come from several cycles: run the most recently
** registered first (insertion sort: the queue is nearly sorted already). */
static void sortpending(GCState *gs) {
  size_t i, j;
  for (i = gs->fnzhead + 1; i < gs->tobefnz.n; i++) {
    GCObject *o = gs->tobefnz.a[i];
    uint64_t s = gs->fnzseq[i];
    for (j = i; j > gs->fnzhead && gs->fnzseq[j - 1] < s; j--) {
      gs->tobefnz.a[j] = gs->tobefnz.a[j - 1];
      gs->fnzseq[j] = gs->fnzseq[j - 1];
    }
    gs->tobefnz.a[j] = o;
    gs->fnzseq[j] = s;
  }
  gs->fnzsorted = gs->tobefnz.n;
}

void gc_runfinalizers(lua_State *L) {
  GCState *gs = GCS(G(L));
  if (gs == NULL || gs->infinalizer) return;
  gs->infinalizer = 1;
  while (gs->fnzhead < gs->tobefnz.n) {
    GCObject *o;
    if (gs->fnzsorted != gs->tobefnz.n) sortpending(gs);
    o = gs->tobefnz.a[gs->fnzhead++];
    o->marked &= (uint8_t)~GC_INFNZ;
    if (gs->fnzhead == gs->tobefnz.n) gs->fnzhead = gs->tobefnz.n = gs->fnzsorted = 0;
    runone(L, o);   /* 'o' is anchored by the call frame while it runs */
  }
  gs->infinalizer = 0;
}
