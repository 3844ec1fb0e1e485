/*
** string.c -- interned strings, userdata creation, lua_pushfstring.
**
** Every string is interned in g->strt, an open-addressing hash table whose
** size is a power of two; it grows when 3/4 full and the collector
** shrinks it when it is seven-eighths empty.  The table is weak:
** the sweep unlinks dead strings with str_remove.  Strings live in the
** non-moving old space, so getstr() pointers stay valid while the string is
** reachable.
*/
#include <stdio.h>
#include <string.h>
#include "string.h"
#include "gc.h"
#include "do.h"
#include "vm.h"
#include "debug.h"

#define MINSTRTABSIZE  128
#define MAXSTRLEN  ((size_t)0x7FFFFFFFFFFFULL)   /* far beyond any real heap */

/* ---------------- hashing ---------------- */

static inline uint64_t rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

/* strings longer than this are hashed from a sample of their content */
#define HASHFULL   256
#define HASHEDGE   64     /* bytes hashed in full at each end of a long string */
#define HASHSTEPS  32     /* 8-byte words sampled in between */

static inline uint64_t hash_round(uint64_t h, const unsigned char *p) {
  uint64_t k;
  memcpy(&k, p, 8);
  h ^= k * 0x87C37B91114253D5ULL;
  return rotl64(h, 27) * 0x4CF5AD432745937FULL + 0x52DCE729;
}

/*
** Seeded hash, eight bytes per round.  Up to HASHFULL bytes the whole
** content is hashed.  Longer strings (the results of repeated
** concatenation, file contents) are hashed from their length, both ends
** and HASHSTEPS words spread evenly over the middle, so interning a string
** costs O(1) hashing plus one copy instead of a pass over all of it.
** Equality stays pointer equality: strings whose samples agree just share a
** bucket and are told apart by length and memcmp in str_new.
*/
static inline __attribute__((always_inline))
uint32_t hash_bytes(const char *s, size_t l, uint32_t seed) {
  const unsigned char *p = (const unsigned char *)s;
  size_t len = l;
  uint64_t h = (((uint64_t)seed << 32) | seed) ^ ((uint64_t)l * 0x9E3779B97F4A7C15ULL);
  if (l > HASHFULL) {
    size_t i, step = (l - 2 * HASHEDGE) / HASHSTEPS;   /* >= 4 */
    const unsigned char *m = p + HASHEDGE;
    for (i = 0; i < HASHEDGE; i += 8) h = hash_round(h, p + i);
    for (i = 0; i < HASHSTEPS; i++) h = hash_round(h, m + i * step);
    for (i = l - HASHEDGE; i < l; i += 8) h = hash_round(h, p + i);
    l = 0;
  }
  while (l >= 8) {
    h = hash_round(h, p);
    p += 8; l -= 8;
  }
  if (l > 0) {
    /* the last 1..7 bytes, read with whole-word loads (a byte-wise copy
    ** into a word stalls store forwarding): the string's last 8 bytes
    ** shifted, or for strings shorter than 8, overlapping 4-byte or
    ** single-byte reads */
    uint64_t k;
    if (len >= 8) {
      memcpy(&k, p + l - 8, 8);
      k >>= 8 * (8 - l);
    }
    else if (l >= 4) {
      uint32_t a, b;
      memcpy(&a, p, 4);
      memcpy(&b, p + l - 4, 4);
      k = a | ((uint64_t)b << 32);
    }
    else
      k = (uint64_t)p[0] | ((uint64_t)p[l / 2] << 8) | ((uint64_t)p[l - 1] << 16);
    h ^= (k + l) * 0x87C37B91114253D5ULL;
    h = rotl64(h, 31) * 0x4CF5AD432745937FULL;
  }
  h ^= h >> 33;
  h *= 0xFF51AFD7ED558CCDULL;
  h ^= h >> 29;
  h ^= h >> 32;
  /* 0 marks an empty slot of the intern table's hash array */
  return (uint32_t)h != 0 ? (uint32_t)h : 1;
}

/* str_make inlines the hash and the probe (hash_bytes, str_find): the
** calls and their register saves were ~1% of word_count's instructions */
uint32_t str_hash(const char *s, size_t l, uint32_t seed) {
  return hash_bytes(s, l, seed);
}

/* ---------------- the intern table ---------------- */

/* Open addressing with linear probing, at most 3/4 full.  Each slot is
** one 64-bit word: the string's hash in the low half and, in the high
** half, the string's offset from the start of the collector's reserved
** range in 16-byte units (strings live in that range, 16-byte aligned,
** never move; a 16 GB range needs 30 bits).  A probe compares hashes and
** touches a string only when they are equal, so looking up a new string
** usually reads no string at all, and rehashing and removal read no
** string either (with chains, every string passed on the way was a cache
** miss).  Hash and string share a word, hence a cache line (8 slots to
** a line): a lookup that finds a string, the link of a new one and its
** removal each touch one table line where separate hash and pointer
** arrays touched two.  Removal shifts the rest of the run back (no
** tombstones).  A hash is never 0 (str_hash), so a 0 word is an empty
** slot. */

static inline uint64_t slot_make(const struct StringTable *tb, TString *ts, uint32_t h) {
  uintptr_t off = ((uintptr_t)ts - tb->base) / 16;
  lua_assert(((uintptr_t)ts - tb->base) % 16 == 0 && off <= 0xFFFFFFFFu);
  return ((uint64_t)off << 32) | h;
}

static uint64_t *str_alloc(lua_State *L, int size) {
  uint64_t *a = (uint64_t *)mvm_memtryrealloc(L, NULL, 0, str_tablebytes(size));
  if (a != NULL) memset(a, 0, str_tablebytes(size));
  return a;
}

/* the first free slot of the run from hash 'h' on */
static unsigned str_freeslot(const uint64_t *slot, unsigned mask, uint32_t h) {
  unsigned i = h & mask;
  while (slot[i] != 0) i = (i + 1) & mask;
  return i;
}

/* Rehash into 'newsize' slots (a power of two, room for every string).
** Never raises: when the new array cannot be had, the old one is kept (it
** is then fuller than 3/4; str_link raises when it is full). */
void str_resize(lua_State *L, int newsize) {
  struct StringTable *tb = &G(L)->strt;
  uint64_t *ns;
  unsigned mask = (unsigned)newsize - 1;
  int i;
  if (newsize < MINSTRTABSIZE || newsize == tb->size || newsize <= tb->nuse) return;
  if ((ns = str_alloc(L, newsize)) == NULL) return;
  for (i = 0; i < tb->size; i++) {
    uint64_t w = tb->slot[i];
    if (w != 0) ns[str_freeslot(ns, mask, str_wordhash(w))] = w;
  }
  mvm_memfree(L, tb->slot, str_tablebytes(tb->size));
  tb->slot = ns;
  tb->size = newsize;
}

void str_init(lua_State *L) {
  global_State *g = G(L);
  struct StringTable *tb = &g->strt;
  tb->base = ((GCHeapView *)(void *)g->gc)->base;
  tb->slot = str_alloc(L, MINSTRTABSIZE);
  /* a slot's 32-bit offset must reach the whole range (slot_make) */
  if (tb->slot == NULL || (((GCHeapView *)(void *)g->gc)->size >> 4) > 0xFFFFFFFFu)
    do_throw(L, LUA_ERRMEM);
  tb->size = MINSTRTABSIZE;
  tb->nuse = 0;
  g->memerrmsg = str_literal(L, MEMERRMSG);
}

/* Unlink a dead string (the sweep); a string never interned (str_newbuf)
** is found in no slot.  The entries after it in its run move back when
** their home slot is not between the hole and them. */
void str_remove(lua_State *L, TString *ts) {
  struct StringTable *tb = &G(L)->strt;
  uint64_t *slot = tb->slot;
  uint64_t w = slot_make(tb, ts, ts->hash);
  unsigned mask = (unsigned)tb->size - 1, i = ts->hash & mask, j;
  while (slot[i] != 0 && slot[i] != w) i = (i + 1) & mask;
  if (slot[i] == 0) return;
  if (ts->len == 1 && G(L)->strone[(unsigned char)ts->data[0]] == ts)
    G(L)->strone[(unsigned char)ts->data[0]] = NULL;
  for (j = (i + 1) & mask; slot[j] != 0; j = (j + 1) & mask) {
    unsigned home = str_wordhash(slot[j]) & mask;
    if (((j - home) & mask) >= ((j - i) & mask)) {   /* home not in (i, j] */
      slot[i] = slot[j];
      i = j;
    }
  }
  slot[i] = 0;
  tb->nuse--;
}

/* link a new string (grows the table when three-quarters full) */
static void str_link(lua_State *L, TString *ts) {
  struct StringTable *tb = &G(L)->strt;
  if (tb->nuse + 1 >= tb->size) {   /* a failed resize left it full */
    str_resize(L, tb->size * 2);
    if (tb->nuse + 1 >= tb->size) do_throw(L, LUA_ERRMEM);
  }
  tb->slot[str_freeslot(tb->slot, (unsigned)tb->size - 1, ts->hash)] = slot_make(tb, ts, ts->hash);
  tb->nuse++;
  if (tb->nuse >= tb->size - tb->size / 4 && tb->size <= (1 << 29))
    str_resize(L, tb->size * 2);
}

/* memcmp(a, b, l) == 0 for the short strings most lookups compare, with
** whole-word loads that overlap instead of a library call; the loads stay
** inside both strings */
static inline int str_sameshort(const char *a, const char *b, size_t l) {
  uint64_t x, y, x2, y2;
  uint32_t u, v, u2, v2;
  if (l >= 8) {
    if (l > 16) return memcmp(a, b, l) == 0;
    memcpy(&x, a, 8); memcpy(&y, b, 8);
    memcpy(&x2, a + l - 8, 8); memcpy(&y2, b + l - 8, 8);
    return ((x ^ y) | (x2 ^ y2)) == 0;
  }
  if (l >= 4) {
    memcpy(&u, a, 4); memcpy(&v, b, 4);
    memcpy(&u2, a + l - 4, 4); memcpy(&v2, b + l - 4, 4);
    return ((u ^ v) | (u2 ^ v2)) == 0;
  }
  return l == 0 || (a[0] == b[0] && a[l / 2] == b[l / 2] && a[l - 1] == b[l - 1]);
}

static inline __attribute__((always_inline))
TString *str_find(global_State *g, const char *s, size_t l, uint32_t h) {
  const struct StringTable *tb = &g->strt;
  const uint64_t *slot = tb->slot;
  unsigned mask = (unsigned)tb->size - 1, i;
  uint64_t w;
  for (i = h & mask; (w = slot[i]) != 0; i = (i + 1) & mask) {
    if (str_wordhash(w) == h) {
      TString *ts = str_wordstr(tb, w);
      if (ts->len == l && str_sameshort(getstr(ts), s, l)) return ts;
    }
  }
  return NULL;
}

/* a new string of hash 'h' (absent from the table): allocated, copied,
** linked */
static __attribute__((noinline)) TString *str_create(lua_State *L, const char *s, size_t l,
                                                     uint32_t h) {
  TString *ts;
  if (l >= MAXSTRLEN) do_throw(L, LUA_ERRMEM);
  ts = (TString *)gc_newoldraw(L, MVM_TSTRING, offsetof(TString, data) + l + 1);
  /* the collection inside gc_newoldraw may have resized the table */
  ts->hash = h;            /* content hash replaces the identity hash */
  ts->extra = 0;
  ts->pad_ = 0;
  ts->len = l;
  str_copyshort(ts->data, s, l);
  ts->data[l] = '\0';
  str_link(L, ts);
  return ts;
}

/* strings over 16 bytes: compared with memcmp, a call */
static __attribute__((noinline)) TString *str_makelong(lua_State *L, const char *s, size_t l) {
  global_State *g = G(L);
  uint32_t h = hash_bytes(s, l, g->seed);
  TString *ts = str_find(g, s, l, h);
  return ts != NULL ? ts : str_create(L, s, l, h);
}

/* The short strings most lookups find: hash and probe without a call (the
** other paths are tail calls), so that a hit saves and restores no
** callee-saved register (their prologue and epilogue were ~40 of the
** ~110 instructions of a 5-byte hit) */
static inline TString *str_make(lua_State *L, const char *s, size_t l) {
  global_State *g;
  uint32_t h;
  TString *ts;
  if (l > 16) return str_makelong(L, s, l);
  g = G(L);
  h = hash_bytes(s, l, g->seed);
  ts = str_find(g, s, l, h);
  return ts != NULL ? ts : str_create(L, s, l, h);
}

/* 1-byte strings (string.char, s:sub(i, i), one-character captures and
** digits) come from a cache indexed by the byte: no hash, no probe.  An
** entry is the interned string itself; the cache holds it weakly. */
static TString *str_one(lua_State *L, unsigned char c) {
  TString *ts = G(L)->strone[c];
  if (ts == NULL) {
    char b = (char)c;
    ts = str_make(L, &b, 1);
    G(L)->strone[c] = ts;   /* NOBARRIER: not a heap object; weak (str_remove clears it) */
  }
  return ts;
}

TString *str_new(lua_State *L, const char *s, size_t l) {
  if (l == 1) return str_one(L, (unsigned char)s[0]);
  return str_make(L, s, l);
}

TString *str_lookup(global_State *g, const char *s, size_t l) {
  return str_find(g, s, l, str_hash(s, l, g->seed));
}

TString *str_newbuf(lua_State *L, size_t l) {
  TString *ts;
  if (l >= MAXSTRLEN) do_throw(L, LUA_ERRMEM);
  ts = (TString *)gc_newoldraw(L, MVM_TSTRING, offsetof(TString, data) + l + 1);
  /* not in the table: the sweep's str_remove finds it in no slot */
  ts->extra = 0;
  ts->pad_ = 0;
  ts->len = l;
  ts->data[l] = '\0';
  return ts;
}

TString *str_intern(lua_State *L, TString *ts) {
  global_State *g = G(L);
  uint32_t h = str_hash(getstr(ts), ts->len, g->seed);
  TString *old = str_find(g, getstr(ts), ts->len, h);
  if (old != NULL) return old;
  ts->hash = h;
  str_link(L, ts);
  return ts;
}

TString *str_newz(lua_State *L, const char *s) {
  return str_new(L, s, strlen(s));
}

/* ---------------- userdata ---------------- */

Udata *udata_new(lua_State *L, size_t s, int nuvalue) {
  Udata *u;
  int i;
  size_t off = udatamemoffset(nuvalue);
  if (s > (size_t)-1 / 2 - off) do_throw(L, LUA_ERRMEM);
  u = (Udata *)gc_newold(L, MVM_TUDATA, off + s);
  u->nuvalue = (uint16_t)nuvalue;
  u->len = s;
  u->metatable = NULL;
  for (i = 0; i < nuvalue; i++) u->uv[i] = MVM_NIL;   /* NOBARRIER: nil */
  return u;
}

/* ---------------- lua_pushfstring ---------------- */

/* Pieces are accumulated in a C buffer; when it fills, its contents become
** a string on the stack, joined with the previous piece, so at most three
** stack slots above the original top are used and every intermediate
** string is anchored on the stack. */
#define FMTBUFSZ  200

typedef struct FmtBuf {
  lua_State *L;
  int pushed;        /* pieces on the stack (0 or 1) */
  size_t n;
  char b[FMTBUFSZ];
} FmtBuf;

static void pushstr(lua_State *L, TString *ts) {
  *L->top = v_ref(ts);     /* NOBARRIER: stack */
  L->top++;
}

/* replace the two strings at the top by their concatenation */
static void join2(lua_State *L) {
  TString *a = v_str(L->top[-2]), *b = v_str(L->top[-1]);
  size_t la = a->len, lb = b->len;
  TString *r;
  if (la + lb <= 512) {
    char tmp[512];
    memcpy(tmp, getstr(a), la);
    memcpy(tmp + la, getstr(b), lb);
    r = str_new(L, tmp, la + lb);
  } else {
    /* temporary buffer as a userdata, anchored on the stack */
    Udata *u = udata_new(L, la + lb, 0);
    char *m = getudatamem(u);
    *L->top = v_ref(u); L->top++;          /* NOBARRIER: stack */
    memcpy(m, getstr(a), la);
    memcpy(m + la, getstr(b), lb);
    r = str_new(L, m, la + lb);
    L->top--;
  }
  L->top[-2] = v_ref(r);                    /* NOBARRIER: stack */
  L->top--;
}

static void fb_push(FmtBuf *B, const char *s, size_t l) {
  pushstr(B->L, str_new(B->L, s, l));
  if (B->pushed) join2(B->L);
  B->pushed = 1;
}

static void fb_flush(FmtBuf *B) {
  if (B->n > 0) {
    fb_push(B, B->b, B->n);
    B->n = 0;
  }
}

static void fb_add(FmtBuf *B, const char *s, size_t l) {
  if (l > FMTBUFSZ - B->n) {
    fb_flush(B);
    if (l > FMTBUFSZ) { fb_push(B, s, l); return; }
  }
  memcpy(B->b + B->n, s, l);
  B->n += l;
}

/* UTF-8 encoding of x (up to 0x7FFFFFFF, old 6-byte forms); returns length */
static int utf8encode(char *out, unsigned long x) {
  char tmp[8];
  int i = 7, n;
  if (x < 0x80) { out[0] = (char)x; return 1; }
  {
    unsigned long room = 0x3F;   /* payload bits still fitting the first byte */
    do {
      tmp[i--] = (char)(0x80 | (x & 0x3F));
      x >>= 6;
      room >>= 1;
    } while (x > room);
    tmp[i] = (char)((~room << 1) | x);
  }
  n = 8 - i;
  memcpy(out, tmp + i, (size_t)n);
  return n;
}

const char *str_pushvfstring(lua_State *L, const char *fmt, va_list argp) {
  FmtBuf B;
  const char *e;
  B.L = L; B.pushed = 0; B.n = 0;
  while ((e = strchr(fmt, '%')) != NULL) {
    char num[MAXNUMBER2STR + 8];
    fb_add(&B, fmt, (size_t)(e - fmt));
    switch (e[1]) {
      case 's': {
        const char *s = va_arg(argp, char *);
        if (s == NULL) s = "(null)";
        fb_add(&B, s, strlen(s));
        break;
      }
      case 'c': {
        char c = (char)(unsigned char)va_arg(argp, int);
        fb_add(&B, &c, 1);
        break;
      }
      case 'd': {
        int len = snprintf(num, sizeof num, "%d", va_arg(argp, int));
        fb_add(&B, num, (size_t)len);
        break;
      }
      case 'I': {
        int len = snprintf(num, sizeof num, LUA_INTEGER_FMT, (LUAI_UACINT)va_arg(argp, lua_Integer));
        fb_add(&B, num, (size_t)len);
        break;
      }
      case 'f': {
        int len = vm_num2buff(v_float((double)va_arg(argp, LUAI_UACNUMBER)), num);
        fb_add(&B, num, (size_t)len);
        break;
      }
      case 'p': {
        int len = snprintf(num, sizeof num, "%p", va_arg(argp, void *));
        fb_add(&B, num, (size_t)len);
        break;
      }
      case 'U': {
        int len = utf8encode(num, (unsigned long)va_arg(argp, long));
        fb_add(&B, num, (size_t)len);
        break;
      }
      case '%':
        fb_add(&B, "%", 1);
        break;
      default:
        dbg_runerror(L, "invalid option '%%%c' to 'lua_pushfstring'", e[1]);
    }
    fmt = e + 2;
  }
  fb_add(&B, fmt, strlen(fmt));
  if (B.n > 0 || !B.pushed) {
    fb_push(&B, B.b, B.n);
    B.n = 0;
  }
  return getstr(v_str(L->top[-1]));
}

const char *str_pushfstring(lua_State *L, const char *fmt, ...) {
  const char *r;
  va_list argp;
  va_start(argp, fmt);
  r = str_pushvfstring(L, fmt, argp);
  va_end(argp);
  return r;
}
