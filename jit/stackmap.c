/*
** stackmap.c -- parser of LLVM stack map sections (format v3) and the
** per-VM registry of records keyed by return address.  See stackmap.h.
**
** The parser makes two passes over the section: the first checks every
** bound and counts locations and live-outs, the second fills one allocation
** holding all arrays.  It reads byte by byte (little-endian) so that it never
** depends on the alignment of the section in memory.
*/
#include <stdlib.h>
#include <string.h>
#include "stackmap.h"
#include "value.h"

typedef struct Reader {
  const uint8_t *p;
  size_t size, pos;
  int bad;
} Reader;

static uint64_t rd(Reader *r, int n) {
  uint64_t v = 0;
  int i;
  if (r->bad || r->size - r->pos < (size_t)n || r->pos > r->size) {
    r->bad = 1;
    return 0;
  }
  for (i = 0; i < n; i++)
    v |= (uint64_t)r->p[r->pos + i] << (8 * i);
  r->pos += (size_t)n;
  return v;
}
#define rd8(r)  ((uint8_t)rd(r, 1))
#define rd16(r) ((uint16_t)rd(r, 2))
#define rd32(r) ((uint32_t)rd(r, 4))
#define rd64(r) rd(r, 8)

/* skip to the next multiple of 8 (offsets are relative to the section
** start, which LLVM aligns to 8) */
static void align8(Reader *r) {
  size_t np = (r->pos + 7) & ~(size_t)7;
  if (np > r->size) r->bad = 1;
  else r->pos = np;
}

#define HEADER_SIZE   16
#define FUNC_SIZE     24
#define RECHDR_SIZE   16
#define LOC_SIZE      12
#define LIVEOUT_SIZE  4

/* Fill in the statepoint view of 'rec' if its locations have the statepoint
** shape: three constants, the third a deopt count that fits, and an even
** number of locations after the deopt ones. */
static void statepoint_view(SMRecord *rec) {
  int32_t nd;
  int i;
  rec->is_statepoint = 0;
  rec->npairs = 0;
  if (rec->nlocs < 3) return;
  for (i = 0; i < 3; i++)
    if (rec->locs[i].kind != SM_CONSTANT && rec->locs[i].kind != SM_CONSTANTINDEX)
      return;
  nd = (int32_t)rec->locs[2].constant;
  if (nd < 0 || 3 + nd > rec->nlocs || (rec->nlocs - 3 - nd) % 2 != 0)
    return;
  rec->is_statepoint = 1;
  rec->cc = (int32_t)rec->locs[0].constant;
  rec->spflags = (int32_t)rec->locs[1].constant;
  rec->ndeopt = nd;
  rec->npairs = (rec->nlocs - 3 - nd) / 2;
}

StackMap *sm_parse(const void *section, size_t size, const char **err) {
  Reader r = { (const uint8_t *)section, size, 0, 0 };
  const char *dummy;
  uint8_t version;
  uint32_t nfuncs, nconsts, nrecords, i;
  uint64_t totlocs = 0, totlive = 0, sumrec = 0;
  size_t bytes, recstart;
  StackMap *sm;
  char *mem;
  if (err == NULL) err = &dummy;
  *err = NULL;
  if (section == NULL || size < HEADER_SIZE) { *err = "section too small"; return NULL; }
  version = rd8(&r);
  (void)rd8(&r); (void)rd16(&r);
  if (version != 3) { *err = "unsupported stack map version"; return NULL; }
  nfuncs = rd32(&r); nconsts = rd32(&r); nrecords = rd32(&r);
  /* bounds of the fixed-size tables (in 64 bits: no overflow) */
  if ((uint64_t)HEADER_SIZE + (uint64_t)nfuncs * FUNC_SIZE + (uint64_t)nconsts * 8
      + (uint64_t)nrecords * RECHDR_SIZE > size) {
    *err = "truncated section"; return NULL;
  }
  /* pass 1: validate and count */
  for (i = 0; i < nfuncs; i++) {
    r.pos = HEADER_SIZE + (size_t)i * FUNC_SIZE + 16;
    sumrec += rd64(&r);
  }
  if (sumrec != nrecords) { *err = "function record counts do not add up"; return NULL; }
  recstart = HEADER_SIZE + (size_t)nfuncs * FUNC_SIZE + (size_t)nconsts * 8;
  r.pos = recstart;
  for (i = 0; i < nrecords && !r.bad; i++) {
    uint16_t nlocs, nlive;
    uint32_t j;
    r.pos += 14;                  /* id, offset, flags */
    nlocs = rd16(&r);
    for (j = 0; j < nlocs && !r.bad; j++) {
      size_t at = r.pos;
      uint8_t kind = rd8(&r);
      if (kind < SM_REGISTER || kind > SM_CONSTANTINDEX) { *err = "bad location kind"; return NULL; }
      r.pos = at + 8;
      if (kind == SM_CONSTANTINDEX) {
        uint32_t idx = rd32(&r);
        if (idx >= nconsts) { *err = "constant index out of range"; return NULL; }
      }
      else
        (void)rd32(&r);
    }
    align8(&r);
    (void)rd16(&r);               /* padding */
    nlive = rd16(&r);
    r.pos += (size_t)nlive * LIVEOUT_SIZE;
    if (r.pos > size) r.bad = 1;
    align8(&r);
    totlocs += nlocs;
    totlive += nlive;
  }
  if (r.bad) { *err = "truncated section"; return NULL; }
  /* one block for everything */
  bytes = sizeof(StackMap) + nfuncs * sizeof(SMFunction) + nconsts * sizeof(uint64_t)
          + nrecords * sizeof(SMRecord) + totlocs * sizeof(SMLocation)
          + totlive * sizeof(SMLiveOut) + 16;
  mem = (char *)calloc(1, bytes);
  if (mem == NULL) { *err = "out of memory"; return NULL; }
  sm = (StackMap *)mem;
  sm->mem_ = mem;
  sm->version = version;
  sm->nfuncs = nfuncs; sm->nconsts = nconsts; sm->nrecords = nrecords;
  mem += sizeof(StackMap);
  sm->consts = (uint64_t *)mem;        mem += nconsts * sizeof(uint64_t);
  sm->funcs = (SMFunction *)mem;       mem += nfuncs * sizeof(SMFunction);
  sm->records = (SMRecord *)mem;       mem += nrecords * sizeof(SMRecord);
  {
    SMLocation *locs = (SMLocation *)mem;
    SMLiveOut *live = (SMLiveOut *)(mem + totlocs * sizeof(SMLocation));
    uint32_t f = 0;
    uint64_t left;
    /* pass 2: fill */
    r.pos = HEADER_SIZE;
    for (i = 0; i < nfuncs; i++) {
      sm->funcs[i].addr = (uintptr_t)rd64(&r);
      sm->funcs[i].stacksize = rd64(&r);
      sm->funcs[i].nrecords = rd64(&r);
    }
    for (i = 0; i < nconsts; i++)
      sm->consts[i] = rd64(&r);
    left = nfuncs > 0 ? sm->funcs[0].nrecords : 0;
    for (i = 0; i < nrecords; i++) {
      SMRecord *rec = &sm->records[i];
      uint32_t j;
      while (left == 0) left = sm->funcs[++f].nrecords;   /* skip functions without records */
      left--;
      rec->funcaddr = sm->funcs[f].addr;
      rec->stacksize = sm->funcs[f].stacksize;
      rec->id = rd64(&r);
      rec->offset = rd32(&r);
      rec->flags = rd16(&r);
      rec->nlocs = rd16(&r);
      rec->retaddr = rec->funcaddr + rec->offset;
      rec->locs = locs;
      for (j = 0; j < rec->nlocs; j++, locs++) {
        locs->kind = rd8(&r);
        (void)rd8(&r);
        locs->size = rd16(&r);
        locs->reg = rd16(&r);
        (void)rd16(&r);
        locs->offset = (int32_t)rd32(&r);
        if (locs->kind == SM_CONSTANT)
          locs->constant = locs->offset;
        else if (locs->kind == SM_CONSTANTINDEX)
          locs->constant = (int64_t)sm->consts[(uint32_t)locs->offset];
      }
      align8(&r);
      (void)rd16(&r);
      rec->nliveouts = rd16(&r);
      rec->liveouts = live;
      for (j = 0; j < rec->nliveouts; j++, live++) {
        live->reg = rd16(&r);
        (void)rd8(&r);
        live->size = rd8(&r);
      }
      align8(&r);
      statepoint_view(rec);
    }
  }
  return sm;
}

void sm_free(StackMap *sm) {
  if (sm != NULL) free(sm->mem_);
}

/* ---------------------------------------------------------------------
** Registry
** --------------------------------------------------------------------- */

void sm_reginit(SMRegistry *reg) {
  memset(reg, 0, sizeof *reg);
  pthread_mutex_init(&reg->lock, NULL);
}

void sm_regfree(SMRegistry *reg) {
  size_t i;
  for (i = 0; i < reg->nmaps; i++)
    sm_free(reg->maps[i]);
  free(reg->maps);
  free(reg->recs);
  pthread_mutex_destroy(&reg->lock);
  sm_reginit(reg);
}

static int cmp_rec(const void *a, const void *b) {
  uintptr_t x = (*(const SMRecord *const *)a)->retaddr;
  uintptr_t y = (*(const SMRecord *const *)b)->retaddr;
  return x < y ? -1 : x > y;
}

static int sm_register_(SMRegistry *reg, StackMap *sm);
int sm_register(SMRegistry *reg, StackMap *sm) {
  int r;
  pthread_mutex_lock(&reg->lock);
  r = sm_register_(reg, sm);
  pthread_mutex_unlock(&reg->lock);
  return r;
}
static int sm_register_(SMRegistry *reg, StackMap *sm) {
  size_t i;
  if (reg->nmaps == reg->capmaps) {
    size_t nc = reg->capmaps ? 2 * reg->capmaps : 8;
    StackMap **nm = (StackMap **)realloc(reg->maps, nc * sizeof *nm);
    if (nm == NULL) return -1;
    reg->maps = nm; reg->capmaps = nc;
  }
  if (reg->n + sm->nrecords > reg->cap) {
    size_t nc = reg->cap ? reg->cap : 64;
    SMRecord **nr;
    while (nc < reg->n + sm->nrecords) nc *= 2;
    nr = (SMRecord **)realloc(reg->recs, nc * sizeof *nr);
    if (nr == NULL) return -1;
    reg->recs = nr; reg->cap = nc;
  }
  reg->maps[reg->nmaps++] = sm;
  for (i = 0; i < sm->nrecords; i++)
    reg->recs[reg->n++] = &sm->records[i];
  /* sections arrive one per compiled unit: re-sorting is cheap enough and
  ** keeps lookups a binary search */
  qsort(reg->recs, reg->n, sizeof *reg->recs, cmp_rec);
  return 0;
}

int sm_unregister(SMRegistry *reg, StackMap *sm) {
  size_t i, j;
  pthread_mutex_lock(&reg->lock);
  for (i = 0; i < reg->nmaps && reg->maps[i] != sm; i++)
    ;
  if (i == reg->nmaps) {
    pthread_mutex_unlock(&reg->lock);
    return -1;
  }
  reg->maps[i] = reg->maps[--reg->nmaps];
  /* drop its records, keeping the order of the others */
  for (i = j = 0; i < reg->n; i++) {
    SMRecord *r = reg->recs[i];
    if (!(r >= sm->records && r < sm->records + sm->nrecords))
      reg->recs[j++] = r;
  }
  reg->n = j;
  pthread_mutex_unlock(&reg->lock);
  sm_free(sm);
  return 0;
}

const SMRecord *sm_lookup(const SMRegistry *creg, uintptr_t retaddr) {
  SMRegistry *reg = (SMRegistry *)creg;   /* only to take the lock */
  const SMRecord *r = NULL;
  size_t lo = 0, hi;
  pthread_mutex_lock(&reg->lock);
  hi = reg->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    uintptr_t a = reg->recs[mid]->retaddr;
    if (a == retaddr) { r = reg->recs[mid]; break; }
    if (a < retaddr) lo = mid + 1;
    else hi = mid;
  }
  pthread_mutex_unlock(&reg->lock);
  return r;
}

/* ---------------- walking one compiled frame ---------------- */

uint64_t *sm_slotaddr(const SMLocation *loc, uintptr_t sp, const char **err) {
  uintptr_t regval;
  switch (loc->kind) {
    case SM_CONSTANT: case SM_CONSTANTINDEX:
      return NULL;
    case SM_INDIRECT: case SM_DIRECT:
      if (loc->size != 8) { *err = "gc pointer location of size other than 8"; return NULL; }
      if (loc->reg == SM_DWARF_RSP) regval = sp;
      else if (loc->reg == SM_DWARF_RBP) regval = *(const uintptr_t *)(sp - 16);
      else { *err = "gc pointer location based on a register other than RSP/RBP"; return NULL; }
      return (uint64_t *)(regval + (intptr_t)loc->offset);
    case SM_REGISTER:
      *err = "gc pointer in a register across a statepoint";
      return NULL;
    default:
      *err = "unknown stack-map location kind";
      return NULL;
  }
}

/* Is 'a' the base slot of a pair before 'upto'? (records are small: a
** quadratic scan keeps the collector free of allocation here) */
static int seenbase(const SMRecord *r, int upto, uintptr_t sp, const uint64_t *a) {
  int j;
  const char *err = NULL;
  for (j = 0; j < upto; j++)
    if (sm_slotaddr(sm_base(r, j), sp, &err) == a) return 1;
  return 0;
}

static int isbase(const SMRecord *r, uintptr_t sp, const uint64_t *a) {
  return seenbase(r, r->npairs, sp, a);
}

/* move the derived slots of the base slot of pair 'i' (first seen there)
** by 'disp', each distinct slot once */
static void movederived(const SMRecord *r, int i, uintptr_t sp, uint64_t *b,
                        uint64_t disp, SMWalkStats *st) {
  int k, m;
  const char *err = NULL;
  for (k = i; k < r->npairs; k++) {
    uint64_t *d;
    if (sm_slotaddr(sm_base(r, k), sp, &err) != b) continue;
    d = sm_slotaddr(sm_derived(r, k), sp, &err);
    if (d == NULL || d == b || isbase(r, sp, d)) continue;
    for (m = i; m < k; m++)     /* the same derived slot, already moved? */
      if (sm_slotaddr(sm_base(r, m), sp, &err) == b &&
          sm_slotaddr(sm_derived(r, m), sp, &err) == d) break;
    if (m < k) continue;
    *d += disp;
    st->nderived++;
  }
}

int sm_walkrecord(const SMRecord *r, uintptr_t sp, SMVisitor visit,
                  void *ud, SMWalkStats *st, const char **err) {
  int i;
  *err = NULL;
  if (!r->is_statepoint) { *err = "not a statepoint record"; return -1; }
  for (i = 0; i < r->npairs; i++) {   /* validate everything first */
    sm_slotaddr(sm_base(r, i), sp, err);
    if (*err == NULL) sm_slotaddr(sm_derived(r, i), sp, err);
    if (*err != NULL) return -1;
  }
  for (i = 0; i < r->npairs; i++) {
    uint64_t *b = sm_slotaddr(sm_base(r, i), sp, err);
    uint64_t old;
    if (b == NULL || seenbase(r, i, sp, b)) continue;
    old = *b;
    if (!v_isref(old)) continue;      /* integers, floats, nil... are words too */
    st->nbases++;
    visit(ud, b);
    if (*b != old) {
      st->nmoved++;
      movederived(r, i, sp, b, *b - old, st);
    }
  }
  return 0;
}
