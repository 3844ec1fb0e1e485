/* test_stackmap.c -- the LLVM stack map (v3) parser and the registry, on
** synthetic sections built byte by byte. */
#include <check.h>
#include "checkmain.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../../jit/stackmap.h"
#include "../../vm/value.h"

/* ---- a little-endian section writer ---- */
typedef struct W { uint8_t b[4096]; size_t n; } W;
static void w8(W *w, uint64_t v)  { w->b[w->n++] = (uint8_t)v; }
static void wn(W *w, uint64_t v, int n) { int i; for (i = 0; i < n; i++) w8(w, v >> (8 * i)); }
static void w16(W *w, uint64_t v) { wn(w, v, 2); }
static void w32(W *w, uint64_t v) { wn(w, v, 4); }
static void w64(W *w, uint64_t v) { wn(w, v, 8); }
static void wpad8(W *w) { while (w->n % 8) w8(w, 0); }

static void header(W *w, uint32_t nf, uint32_t nc, uint32_t nr) {
  w8(w, 3); w8(w, 0); w16(w, 0);
  w32(w, nf); w32(w, nc); w32(w, nr);
}
static void func(W *w, uint64_t addr, uint64_t ss, uint64_t nrec) { w64(w, addr); w64(w, ss); w64(w, nrec); }
static void rechdr(W *w, uint64_t id, uint32_t off, uint16_t nlocs) {
  w64(w, id); w32(w, off); w16(w, 0); w16(w, nlocs);
}
static void loc(W *w, uint8_t kind, uint16_t size, uint16_t reg, int32_t off) {
  w8(w, kind); w8(w, 0); w16(w, size); w16(w, reg); w16(w, 0); w32(w, (uint32_t)off);
}
/* the live-out part of a record, with the padding before and after */
static void liveouts(W *w, int n, const uint16_t *regs) {
  int i;
  wpad8(w);
  w16(w, 0); w16(w, (uint16_t)n);
  for (i = 0; i < n; i++) { w16(w, regs[i]); w8(w, 0); w8(w, 8); }
  wpad8(w);
}

/* A section with two functions:
**   F1 @0x1000 (frame 48): statepoint at +0x10 with 2 deopt locations and 2
**     pairs, covering every location kind; a plain stackmap record at +0x20
**     with an odd number of locations (padding) and two live-outs.
**   F2 @0x5000 (frame 16): one statepoint at +0x8 without anything live. */
static size_t build(W *w) {
  static const uint16_t lo[2] = {3, 12};
  memset(w, 0, sizeof *w);
  header(w, 2, 2, 3);
  func(w, 0x1000, 48, 2);
  func(w, 0x5000, 16, 1);
  w64(w, 0x123456789ABCDEFULL);   /* constant 0 */
  w64(w, (uint64_t)-5);           /* constant 1 */
  /* record 1: statepoint */
  rechdr(w, 0xABCDEF00, 0x10, 3 + 2 + 4);
  loc(w, SM_CONSTANT, 8, 0, 0);           /* cc */
  loc(w, SM_CONSTANT, 8, 0, 1);           /* flags */
  loc(w, SM_CONSTANT, 8, 0, 2);           /* 2 deopt */
  loc(w, SM_CONSTANTINDEX, 8, 0, 0);      /* deopt 0: big constant */
  loc(w, SM_REGISTER, 8, 3, 0);           /* deopt 1: rbx */
  loc(w, SM_INDIRECT, 8, 7, 16);          /* base 0: [rsp+16] */
  loc(w, SM_INDIRECT, 8, 7, 16);          /* derived 0 == base */
  loc(w, SM_DIRECT, 8, 6, -24);           /* base 1: rbp-24 */
  loc(w, SM_INDIRECT, 8, 6, -32);         /* derived 1 */
  liveouts(w, 0, NULL);
  /* record 2: plain stackmap, 1 location (needs 4 bytes of padding) */
  rechdr(w, 7, 0x20, 1);
  loc(w, SM_CONSTANTINDEX, 8, 0, 1);
  liveouts(w, 2, lo);
  /* record 3: statepoint of F2, nothing live */
  rechdr(w, 0xABCDEF00, 0x8, 3);
  loc(w, SM_CONSTANT, 8, 0, 0);
  loc(w, SM_CONSTANT, 8, 0, 0);
  loc(w, SM_CONSTANT, 8, 0, 0);
  liveouts(w, 0, NULL);
  return w->n;
}

START_TEST(test_parse_all_kinds) {
  W w;
  const char *err;
  size_t n = build(&w);
  StackMap *sm = sm_parse(w.b, n, &err);
  const SMRecord *r;
  ck_assert_msg(sm != NULL, "parse failed: %s", err ? err : "?");
  ck_assert_uint_eq(sm->version, 3);
  ck_assert_uint_eq(sm->nfuncs, 2);
  ck_assert_uint_eq(sm->nconsts, 2);
  ck_assert_uint_eq(sm->nrecords, 3);
  ck_assert_uint_eq(sm->funcs[1].addr, 0x5000);
  ck_assert_uint_eq(sm->funcs[0].stacksize, 48);
  r = &sm->records[0];
  ck_assert_uint_eq(r->retaddr, 0x1010);
  ck_assert_uint_eq(r->funcaddr, 0x1000);
  ck_assert_uint_eq(r->stacksize, 48);
  ck_assert_uint_eq(r->id, 0xABCDEF00);
  ck_assert_uint_eq(r->nlocs, 9);
  ck_assert(r->is_statepoint);
  ck_assert_int_eq(r->cc, 0);
  ck_assert_int_eq(r->spflags, 1);
  ck_assert_int_eq(r->ndeopt, 2);
  ck_assert_int_eq(r->npairs, 2);
  ck_assert_uint_eq(sm_deopt(r, 0)->kind, SM_CONSTANTINDEX);
  ck_assert(sm_deopt(r, 0)->constant == 0x123456789ABCDEFLL);
  ck_assert_uint_eq(sm_deopt(r, 1)->kind, SM_REGISTER);
  ck_assert_uint_eq(sm_deopt(r, 1)->reg, 3);
  ck_assert_uint_eq(sm_base(r, 0)->kind, SM_INDIRECT);
  ck_assert_uint_eq(sm_base(r, 0)->reg, 7);
  ck_assert_int_eq(sm_base(r, 0)->offset, 16);
  ck_assert_uint_eq(sm_base(r, 1)->kind, SM_DIRECT);
  ck_assert_int_eq(sm_base(r, 1)->offset, -24);
  ck_assert_uint_eq(sm_derived(r, 1)->kind, SM_INDIRECT);
  ck_assert_int_eq(sm_derived(r, 1)->offset, -32);
  ck_assert_uint_eq(sm_derived(r, 1)->size, 8);
  ck_assert_uint_eq(r->nliveouts, 0);
  r = &sm->records[1];
  ck_assert_uint_eq(r->retaddr, 0x1020);
  ck_assert_uint_eq(r->id, 7);
  ck_assert(!r->is_statepoint);
  ck_assert_uint_eq(r->nlocs, 1);
  ck_assert(r->locs[0].constant == -5);
  ck_assert_uint_eq(r->nliveouts, 2);
  ck_assert_uint_eq(r->liveouts[0].reg, 3);
  ck_assert_uint_eq(r->liveouts[1].reg, 12);
  ck_assert_uint_eq(r->liveouts[1].size, 8);
  r = &sm->records[2];
  ck_assert_uint_eq(r->retaddr, 0x5008);
  ck_assert_uint_eq(r->funcaddr, 0x5000);
  ck_assert(r->is_statepoint);
  ck_assert_int_eq(r->ndeopt, 0);
  ck_assert_int_eq(r->npairs, 0);
  sm_free(sm);
}
END_TEST

/* the parser must not depend on the section's alignment in memory */
START_TEST(test_parse_unaligned_buffer) {
  W w;
  size_t n = build(&w);
  uint8_t *buf = malloc(n + 1);
  StackMap *sm;
  memcpy(buf + 1, w.b, n);
  sm = sm_parse(buf + 1, n, NULL);
  ck_assert_ptr_nonnull(sm);
  ck_assert_uint_eq(sm->records[2].retaddr, 0x5008);
  sm_free(sm);
  free(buf);
}
END_TEST

START_TEST(test_parse_rejects) {
  W w;
  const char *err;
  size_t n = build(&w), k;
  /* every truncation is rejected (never read out of bounds) */
  for (k = 0; k < n; k++)
    ck_assert_msg(sm_parse(w.b, k, NULL) == NULL, "truncated at %zu accepted", k);
  /* wrong version */
  w.b[0] = 2;
  ck_assert_ptr_null(sm_parse(w.b, n, &err));
  ck_assert_ptr_nonnull(err);
  w.b[0] = 3;
  /* record counts that do not add up */
  w.b[16 + 16] = 3;   /* F1 claims 3 records */
  ck_assert_ptr_null(sm_parse(w.b, n, &err));
  w.b[16 + 16] = 2;
  {
    StackMap *ok = sm_parse(w.b, n, NULL);
    ck_assert_ptr_nonnull(ok);
    sm_free(ok);
  }
  /* bad location kind */
  {
    size_t first_loc = 16 + 2 * 24 + 2 * 8 + 16;
    w.b[first_loc] = 9;
    ck_assert_ptr_null(sm_parse(w.b, n, &err));
    w.b[first_loc] = SM_CONSTANTINDEX;   /* index 0 is fine */
    StackMap *sm = sm_parse(w.b, n, NULL);
    ck_assert_ptr_nonnull(sm);
    ck_assert_int_eq(sm->records[0].cc, (int32_t)0x89ABCDEF);
    sm_free(sm);
    w.b[first_loc + 8] = 2;              /* constant index 2 >= NumConstants */
    ck_assert_ptr_null(sm_parse(w.b, n, &err));
  }
}
END_TEST

START_TEST(test_empty_and_no_records) {
  W w;
  StackMap *sm;
  memset(&w, 0, sizeof w);
  header(&w, 1, 0, 0);
  func(&w, 0x9000, 8, 0);
  sm = sm_parse(w.b, w.n, NULL);
  ck_assert_ptr_nonnull(sm);
  ck_assert_uint_eq(sm->nrecords, 0);
  sm_free(sm);
  /* a function without records between two with records */
  memset(&w, 0, sizeof w);
  header(&w, 3, 0, 2);
  func(&w, 0x100, 8, 1);
  func(&w, 0x200, 8, 0);
  func(&w, 0x300, 8, 1);
  rechdr(&w, 1, 4, 0); liveouts(&w, 0, NULL);
  rechdr(&w, 2, 4, 0); liveouts(&w, 0, NULL);
  sm = sm_parse(w.b, w.n, NULL);
  ck_assert_ptr_nonnull(sm);
  ck_assert_uint_eq(sm->records[0].retaddr, 0x104);
  ck_assert_uint_eq(sm->records[1].retaddr, 0x304);
  ck_assert(!sm->records[1].is_statepoint);
  sm_free(sm);
}
END_TEST

/* a section with 'n' records of one function at 'addr', offsets 4, 8, ... */
static StackMap *simple(uintptr_t addr, int n) {
  W w;
  int i;
  memset(&w, 0, sizeof w);
  header(&w, 1, 0, (uint32_t)n);
  func(&w, addr, 8, (uint64_t)n);
  for (i = 0; i < n; i++) {
    rechdr(&w, 0xABCDEF00, (uint32_t)(4 * (i + 1)), 5);
    loc(&w, SM_CONSTANT, 8, 0, 0); loc(&w, SM_CONSTANT, 8, 0, 0); loc(&w, SM_CONSTANT, 8, 0, 0);
    loc(&w, SM_INDIRECT, 8, 7, 8 * i); loc(&w, SM_INDIRECT, 8, 7, 8 * i);
    liveouts(&w, 0, NULL);
  }
  return sm_parse(w.b, w.n, NULL);
}

START_TEST(test_registry) {
  SMRegistry reg;
  StackMap *a = simple(0x4000, 20), *b = simple(0x1000, 30), *c = simple(0x8000, 1);
  const SMRecord *r;
  int i;
  ck_assert(a && b && c);
  sm_reginit(&reg);
  ck_assert_ptr_null(sm_lookup(&reg, 0x4004));
  ck_assert_int_eq(sm_register(&reg, a), 0);
  ck_assert_int_eq(sm_register(&reg, b), 0);
  ck_assert_int_eq(sm_register(&reg, c), 0);
  ck_assert_uint_eq(reg.n, 51);
  for (i = 0; i < 30; i++) {
    r = sm_lookup(&reg, 0x1000 + 4 * (i + 1));
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(r->npairs, 1);
    ck_assert_int_eq(sm_base(r, 0)->offset, 8 * i);
  }
  for (i = 0; i < 20; i++)
    ck_assert_ptr_nonnull(sm_lookup(&reg, 0x4000 + 4 * (i + 1)));
  ck_assert_ptr_nonnull(sm_lookup(&reg, 0x8004));
  ck_assert_ptr_null(sm_lookup(&reg, 0x4002));   /* not a return address */
  ck_assert_ptr_null(sm_lookup(&reg, 0x9000));
  ck_assert_ptr_null(sm_lookup(&reg, 0));
  /* unregister the middle one: the others stay */
  ck_assert_int_eq(sm_unregister(&reg, a), 0);
  ck_assert_int_eq(sm_unregister(&reg, a), -1);  /* (a is freed: only compared) */
  ck_assert_uint_eq(reg.n, 31);
  ck_assert_ptr_null(sm_lookup(&reg, 0x4004));
  ck_assert_ptr_nonnull(sm_lookup(&reg, 0x1004));
  ck_assert_ptr_nonnull(sm_lookup(&reg, 0x8004));
  ck_assert_int_eq(sm_unregister(&reg, b), 0);
  ck_assert_ptr_null(sm_lookup(&reg, 0x1004));
  ck_assert_ptr_nonnull(sm_lookup(&reg, 0x8004));
  sm_regfree(&reg);   /* frees c */
  ck_assert_uint_eq(reg.n, 0);
}
END_TEST

/* ---- walking a frame: synthetic records over a fake frame ----
** frame[] stands for the compiled caller's stack: sp is &frame[32] (RSP at
** the call) and frame[30] (sp - 16) is the RBP the helper pushed, pointing
** at &frame[48]. */
typedef struct Fake {
  uint64_t frame[64];
  uintptr_t sp;
  SMLocation locs[3 + 2 * 16];
  SMRecord r;
} Fake;

static void fake_init(Fake *f) {
  int i;
  memset(f, 0, sizeof *f);
  for (i = 0; i < 64; i++) f->frame[i] = 0xDEAD0000DEADULL;   /* not references */
  f->sp = (uintptr_t)&f->frame[32];
  f->frame[30] = (uint64_t)(uintptr_t)&f->frame[48];
  for (i = 0; i < 3; i++) f->locs[i].kind = SM_CONSTANT;
  f->r.is_statepoint = 1;
  f->r.locs = f->locs;
  f->r.nlocs = 3;
}
static SMLocation L_(uint8_t kind, uint16_t reg, int32_t off) {
  SMLocation l;
  memset(&l, 0, sizeof l);
  l.kind = kind; l.size = 8; l.reg = reg; l.offset = off;
  return l;
}
static void pair(Fake *f, SMLocation b, SMLocation d) {
  f->locs[3 + 2 * f->r.npairs] = b;
  f->locs[3 + 2 * f->r.npairs + 1] = d;
  f->r.npairs++;
  f->r.nlocs += 2;
}
#define RSP(off) L_(SM_INDIRECT, SM_DWARF_RSP, (off))
#define RBP(off) L_(SM_INDIRECT, SM_DWARF_RBP, (off))

/* the visitor: moves A by 'delta', leaves everything else, counts visits */
typedef struct Vis { uint64_t a; int64_t delta; int nvisits; uint64_t *seen[16]; } Vis;
static void visit(void *ud, uint64_t *slot) {
  Vis *v = (Vis *)ud;
  ck_assert(v_isref(*slot));
  v->seen[v->nvisits++] = slot;
  if (*slot == v->a) *slot += (uint64_t)v->delta;
}

START_TEST(test_slotaddr) {
  Fake f;
  const char *err = NULL;
  SMLocation l;
  fake_init(&f);
  l = RSP(16);
  ck_assert_ptr_eq(sm_slotaddr(&l, f.sp, &err), &f.frame[34]);
  l = RSP(-8);
  ck_assert_ptr_eq(sm_slotaddr(&l, f.sp, &err), &f.frame[31]);
  l = RBP(-24);   /* through the saved RBP, not sp */
  ck_assert_ptr_eq(sm_slotaddr(&l, f.sp, &err), &f.frame[45]);
  l = L_(SM_DIRECT, SM_DWARF_RSP, 8);
  ck_assert_ptr_eq(sm_slotaddr(&l, f.sp, &err), &f.frame[33]);
  l = L_(SM_CONSTANT, 0, 0);
  ck_assert_ptr_null(sm_slotaddr(&l, f.sp, &err));
  ck_assert_ptr_null(err);
  l = L_(SM_REGISTER, 3, 0);
  ck_assert_ptr_null(sm_slotaddr(&l, f.sp, &err));
  ck_assert_ptr_nonnull(err);
  err = NULL;
  l = L_(SM_INDIRECT, 3, 8);   /* [rbx + 8] */
  ck_assert_ptr_null(sm_slotaddr(&l, f.sp, &err));
  ck_assert_ptr_nonnull(err);
  err = NULL;
  l = RSP(0); l.size = 4;
  ck_assert_ptr_null(sm_slotaddr(&l, f.sp, &err));
  ck_assert_ptr_nonnull(err);
}
END_TEST

static void relocate(int64_t delta) {
  Fake f;
  Vis v;
  SMWalkStats st = {0, 0, 0};
  const char *err;
  uint64_t a = 0x7f0012345000ULL, b = 0x7f0000020040ULL;
  fake_init(&f);
  memset(&v, 0, sizeof v);
  v.a = a; v.delta = delta;
  ck_assert(v_isref(a) && v_isref(b));
  f.frame[32] = a;            /* [rsp+0]: A */
  f.frame[33] = a + 24;       /* [rsp+8]: a field of A */
  f.frame[34] = a + 40;       /* [rsp+16]: another one */
  f.frame[45] = b;            /* [rbp-24]: B, which does not move */
  f.frame[46] = b + 8;        /* [rbp-16]: derived from B */
  f.frame[35] = v_immint(5);  /* [rsp+24]: an integer typed as a pointer */
  f.frame[36] = MVM_NIL;      /* [rsp+32]: nil */
  pair(&f, RSP(0), RSP(8));
  pair(&f, RSP(0), RSP(16));
  pair(&f, RSP(0), RSP(8));   /* the same derived slot again: moved once */
  pair(&f, RBP(-24), RBP(-24));
  pair(&f, RBP(-24), RBP(-16));
  pair(&f, RSP(24), RSP(24));
  pair(&f, L_(SM_DIRECT, SM_DWARF_RSP, 32), L_(SM_DIRECT, SM_DWARF_RSP, 32));
  pair(&f, L_(SM_CONSTANT, 0, 0), L_(SM_CONSTANT, 0, 0));
  pair(&f, RSP(0), RSP(0));   /* A once more as its own derived */
  ck_assert_int_eq(sm_walkrecord(&f.r, f.sp, visit, &v, &st, &err), 0);
  ck_assert_int_eq(v.nvisits, 2);              /* A and B, each once */
  ck_assert_ptr_eq(v.seen[0], &f.frame[32]);
  ck_assert_ptr_eq(v.seen[1], &f.frame[45]);
  ck_assert(f.frame[32] == a + (uint64_t)delta);
  ck_assert(f.frame[33] == a + (uint64_t)delta + 24);
  ck_assert(f.frame[34] == a + (uint64_t)delta + 40);
  ck_assert(f.frame[45] == b);                 /* not moved: derived untouched */
  ck_assert(f.frame[46] == b + 8);
  ck_assert(f.frame[35] == v_immint(5));
  ck_assert(f.frame[36] == MVM_NIL);
  ck_assert(f.frame[31] == 0xDEAD0000DEADULL); /* nothing else written */
  ck_assert(f.frame[37] == 0xDEAD0000DEADULL);
  ck_assert_uint_eq(st.nbases, 2);
  ck_assert_uint_eq(st.nmoved, 1);
  ck_assert_uint_eq(st.nderived, 2);
}

START_TEST(test_walk_relocates) {
  relocate(0x10000);
  relocate(-0x7000);          /* a move to a lower address */
}
END_TEST

/* an unsupported location anywhere: an error, and nothing visited */
START_TEST(test_walk_rejects) {
  Fake f;
  Vis v;
  SMWalkStats st = {0, 0, 0};
  const char *err;
  fake_init(&f);
  memset(&v, 0, sizeof v);
  f.frame[32] = 0x7f0012345000ULL;
  pair(&f, RSP(0), RSP(0));
  pair(&f, L_(SM_REGISTER, 3, 0), L_(SM_REGISTER, 3, 0));
  ck_assert_int_eq(sm_walkrecord(&f.r, f.sp, visit, &v, &st, &err), -1);
  ck_assert_ptr_nonnull(err);
  ck_assert_int_eq(v.nvisits, 0);
  f.r.is_statepoint = 0;
  f.r.npairs = 1;
  ck_assert_int_eq(sm_walkrecord(&f.r, f.sp, visit, &v, &st, &err), -1);
  ck_assert_int_eq(v.nvisits, 0);
}
END_TEST

int main(void) {
  Suite *s = suite_create("stackmap");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_parse_all_kinds);
  tcase_add_test(tc, test_parse_unaligned_buffer);
  tcase_add_test(tc, test_parse_rejects);
  tcase_add_test(tc, test_empty_and_no_records);
  tcase_add_test(tc, test_registry);
  tcase_add_test(tc, test_slotaddr);
  tcase_add_test(tc, test_walk_relocates);
  tcase_add_test(tc, test_walk_rejects);
  suite_add_tcase(s, tc);
  return unit_run_suite(s);
}
