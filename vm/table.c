/*
** table.c -- Lua tables: an array part for keys 1..asize and a hash part of
** 2^lsizenode nodes using chained scatter with Brent's variation: a key that
** is not in its main position yields that position to a key that belongs
** there, so every chain starts at the main position of its keys.  Empty hash
** parts share one static read-only dummy node.
**
** Keys: nil and NaN are rejected; floats with an integral value become
** integer keys; integers (immediate or boxed) hash and compare by value;
** strings hash by content (interned: compared by pointer); other objects
** hash by their identity hash (never by address: objects may move).
** A node with a nil value is empty: its key stays for 'next' (see
** tab_deadkey in table.h).  Free nodes have a nil key.
*/
#include <limits.h>
#include <math.h>
#include <string.h>
#include "table.h"
#include "gc.h"
#include "vm.h"
#include "debug.h"
#include "do.h"

#define MAXABITS   31                      /* array part has at most 2^31 slots */
#define MAXASIZE   (1u << MAXABITS)
#define MAXHBITS   30                      /* hash part has at most 2^30 nodes */

static const Node dummynode_ = { MVM_NIL, MVM_NIL, 0, 0 };
#define dummynode  ((Node *)&dummynode_)
LUAI_DDEF const Value tab_absentkey = MVM_ABSTKEY;
#define absentkey tab_absentkey

#define sizenode(t)   (1u << (t)->lsizenode)
#define allocsizenode(t) ((t)->isdummy ? 0u : sizenode(t))
#define gnext(n)      ((n)->next)

/* ---------------- hashing ---------------- */

/* light userdata and C functions: their bits, mixed (lua5.4 hashes them
** by address too, so their order is unspecified anyway) */
static inline uint32_t mix64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xFF51AFD7ED558CCDULL;
  x ^= x >> 29;
  return (uint32_t)(x ^ (x >> 32));
}

static inline Node *hashmod(const Table *t, uint32_t h) {
  return &t->node[h & (sizenode(t) - 1)];
}

/* integer keys: lua5.4's main position (table.h) */
static inline Node *hashint(const Table *t, int64_t i) {
  return &t->node[tab_hashint(t, (uint64_t)i)];
}

/* non-integral float keys: lua5.4's l_hashfloat, then the same modulo as
** integers, so that their traversal order matches lua5.4's too */
static inline Node *hashfloat(const Table *t, double n) {
  int e;
  uint32_t u = 0;
  n = frexp(n, &e) * 2147483648.0;
  if (n >= -9223372036854775808.0 && n < 9223372036854775808.0) {  /* not inf */
    u = (uint32_t)e + (uint32_t)(int64_t)n;
    if (u > 0x7FFFFFFFu) u = ~u;
  }
  return &t->node[u % (((sizenode(t) - 1u)) | 1u)];
}

/* main position of a (normalised, non-nil, live) key */
static Node *mainposition(const Table *t, Value key) {
  if (v_isimmint(key)) return hashint(t, v_getimmint(key));
  if (v_isref(key)) {
    GCObject *o = v_gc(key);
    if (o->tt == MVM_TBIGINT) return hashint(t, ((BoxedInt *)o)->i);
    return hashmod(t, o->hash);   /* content hash for strings, identity otherwise */
  }
  if (v_isfloat(key)) return hashfloat(t, v_getfloat(key));
  if (v_isbool(key)) return hashmod(t, key == MVM_TRUE);  /* lua5.4: false 0, true 1 */
  return hashmod(t, mix64(key));  /* light userdata/C functions */
}

/* ---------------- key normalisation ---------------- */

/* float with an exact integer value -> that integer */
static int floatkey(double d, int64_t *i) {
  if (d >= -9223372036854775808.0 && d < 9223372036854775808.0) {
    int64_t k = (int64_t)d;
    if ((double)k == d) { *i = k; return 1; }
  }
  return 0;
}

/* ---------------- lookups ---------------- */

const Value *tab_getint(Table *t, int64_t key) {
  Node *n;
  if ((uint64_t)key - 1u < t->asize) return &t->array[key - 1];
  if (t->isdummy) return &absentkey;
  n = hashint(t, key);
  if (v_fitsimm(key)) {
    Value k = v_immint(key);
    for (;;) {
      if (n->key == k) return &n->val;
      if (gnext(n) == 0) return &absentkey;
      n += gnext(n);
    }
  }
  for (;;) {   /* boxed integer keys compare by payload */
    if (v_isbigint(n->key) && ((BoxedInt *)v_gc(n->key))->i == key) return &n->val;
    if (gnext(n) == 0) return &absentkey;
    n += gnext(n);
  }
}

const Value *tab_getshortstr(Table *t, TString *key) {
  Node *n = hashmod(t, key->hash);
  Value k = v_ref(key);
  for (;;) {
    if (n->key == k) return &n->val;
    if (gnext(n) == 0) return &absentkey;
    n += gnext(n);
  }
}

/* keys equal by their bits (light values, non-integral floats, objects) */
static const Value *getgeneric(Table *t, Value key) {
  Node *n = mainposition(t, key);
  for (;;) {
    if (n->key == key) return &n->val;
    if (gnext(n) == 0) return &absentkey;
    n += gnext(n);
  }
}

const Value *tab_get(Table *t, Value key) {
  if (v_isimmint(key)) return tab_getint(t, v_getimmint(key));
  if (v_isref(key)) {
    GCObject *o = v_gc(key);
    if (o->tt == MVM_TSTRING) return tab_getshortstr(t, (TString *)o);
    if (o->tt == MVM_TBIGINT) return tab_getint(t, ((BoxedInt *)o)->i);
    return getgeneric(t, key);
  }
  if (v_isfloat(key)) {
    double d = v_getfloat(key);
    int64_t i;
    if (floatkey(d, &i)) return tab_getint(t, i);
    if (d != d) return &absentkey;
    return getgeneric(t, key);
  }
  if (v_isnil(key)) return &absentkey;
  return getgeneric(t, key);
}

/* ---------------- creation, sizing ---------------- */

Table *tab_new(lua_State *L) {
  Table *t = (Table *)gc_newobj(L, MVM_TTABLE, sizeof(Table));
  t->extra = 0;
  t->lsizenode = 0;
  t->isdummy = 1;
  t->asize = 0;
  t->array = NULL;
  t->node = dummynode;
  t->lastfree = 0;
  t->lenhint = 0;
  t->metatable = NULL;
  return t;
}

static int ceillog2(unsigned x) {   /* ceil(log2(x)), x >= 1 */
#if defined(__GNUC__)
  /* (rehash counts every integer key with it: a loop of up to 11 steps) */
  return x <= 1 ? 0 : 32 - __builtin_clz(x - 1);
#else
  int l = 0;
  x--;
  while (x >= 256) { l += 8; x >>= 8; }
  while (x > 0) { l++; x >>= 1; }
  return l;
#endif
}

/* Constructor sizing (NEWTABLE).  A small array part with no hash part --
** the common `{a, b}` -- is INLINE: its slots follow the Table in the same
** block (Table.ninline), so the table is one object of 48 + 8n bytes with
** no part header, and a minor copies or promotes it in one piece.  The
** count is rounded up to an even number (the 16-byte rounding of the block
** is free room; `{f(), g()}` is sized 1 and filled 2, tab_resizearray).
** When the array outgrows the slots it moves to a part and the slots stay
** unused (at most INLINEMAX of them: bigger constructors get a part, bumped
** right behind the table while it is young).  A small hash part with no
** array part -- a record, `{ x = 1, y = 2 }` -- is bumped behind its table
** the same way (tab_resize cost deltablue ~170 instructions per record).
** Slots and nodes are filled with nil (NOBARRIER: constants into a fresh
** object or part). */
#define INLINEMAX  8
#define SMALLARRAY 16
#define SMALLHASH  16
Table *tab_newsized(lua_State *L, unsigned nasize, unsigned nhsize) {
  Table *t;
  unsigned i;
  if ((nasize | nhsize) == 0) return tab_new(L);   /* `{}` */
  if (nhsize == 0 && nasize - 1u < INLINEMAX) {
    unsigned ninl = (nasize + 1) & ~1u;
    Value *a;
    t = (Table *)gc_newobjraw(L, MVM_TTABLE, sizeof(Table) + (size_t)ninl * sizeof(Value));
    t->lsizenode = 0;
    t->isdummy = 1;
    t->ninline = (uint8_t)ninl;
    t->pad_ = 0;
    t->node = dummynode;
    t->lastfree = 0;
    t->lenhint = 0;
    t->metatable = NULL;
    a = tab_inlinearray(t);
    for (i = 0; i < ninl; i++) a[i] = MVM_NIL;
    t->array = a;
    t->asize = nasize;
    return t;
  }
  if (nhsize == 0 && nasize - 1u < SMALLARRAY) {
    void *part;
    Value *a;
    t = (Table *)gc_newobjpart(L, MVM_TTABLE, sizeof(Table), (size_t)nasize * sizeof(Value),
                               GC_PARTVALUES, &part);
    t->node = dummynode;
    t->isdummy = 1;
    t->lenhint = 0;
    if (part == NULL) do_throw(L, LUA_ERRMEM);
    a = (Value *)part;
    for (i = 0; i < nasize; i++) a[i] = MVM_NIL;
    t->array = a;
    t->asize = nasize;
    return t;
  }
  if (nasize == 0 && nhsize - 1u < SMALLHASH) {   /* a record, `{ x = 1, y = 2 }` */
    int lsize = ceillog2(nhsize);
    void *part;
    Node *n;
    t = (Table *)gc_newobjpart(L, MVM_TTABLE, sizeof(Table), sizeof(Node) << lsize,
                               GC_PARTNODES, &part);
    t->node = dummynode;
    t->isdummy = 1;
    if (part == NULL) do_throw(L, LUA_ERRMEM);
    n = (Node *)part;
    for (i = 0; i < (1u << lsize); i++) {
      n[i].key = MVM_NIL;
      n[i].val = MVM_NIL;
      n[i].next = 0;
      n[i].pad_ = 0;
    }
    t->node = n;
    t->isdummy = 0;
    t->lsizenode = (uint8_t)lsize;
    t->lastfree = 1u << lsize;
    return t;
  }
  t = tab_new(L);
  if (nasize != 0 || nhsize != 0)
    tab_resize(L, t, nasize, nhsize);
  return t;
}

void tab_free(lua_State *L, Table *t) {
  if (!t->isdummy) gc_freepart(L, t->node, sizenode(t) * sizeof(Node));
  if (t->array != NULL && !tab_isinline(t))
    gc_freepart(L, t->array, (size_t)t->asize * sizeof(Value));
  t->node = dummynode; t->isdummy = 1; t->lsizenode = 0;
  t->array = NULL; t->asize = 0; t->lenhint = 0;
}

size_t tab_sizeof(Table *t) {
  size_t apart = tab_isinline(t) ? 0 : (size_t)t->asize * sizeof(Value);
  return tab_objsize(t) + apart + (size_t)allocsizenode(t) * sizeof(Node);
}

static void rawinsert(lua_State *L, Table *t, Value key, Value val);
static void newkey(lua_State *L, Table *t, Value key, Value val);

/* the length hint of a new array part (table.h TAB_LENLOOSE): one pass,
** as long as resize's copy (a hint of 2^31 reads as loose, rightly).
** (tab_resize skips it when no key came from the hash part) */
static void lenscan(Table *t) {
  const Value *a = t->array;
  unsigned n = t->asize, h = 0, i;
  while (h < n && !v_isnil(a[h])) h++;
  for (i = h + 1; i < n; i++)
    if (!v_isnil(a[i])) { t->lenhint = h | TAB_LENLOOSE; return; }
  t->lenhint = h;
}

void tab_lenrange(Table *t, unsigned lo, unsigned hi) {
  const Value *a = t->array;
  uint32_t h = t->lenhint;
  unsigned k = lo, e;
  if (h & TAB_LENLOOSE) return;
  while (k <= hi && !v_isnil(a[k - 1])) k++;   /* values at lo..k-1 */
  for (e = k + 1; e <= hi; e++)
    if (!v_isnil(a[e - 1])) { t->lenhint = h | TAB_LENLOOSE; return; }
  /* the block is values at lo..k-1, then nils up to hi; slots 1..lo-1
  ** hold values when lo - 1 <= h, slots after hi are nil when hi >= h */
  if (k > hi) {                        /* values only */
    if (lo - 1u <= h) { t->lenhint = hi > h ? hi : h; return; }
  }
  else if (k == lo) {                  /* nils only */
    if (hi >= h) { t->lenhint = lo - 1u < h ? lo - 1u : h; return; }
  }
  else if (lo - 1u <= h && hi >= h) { t->lenhint = k - 1u; return; }
  t->lenhint = h | TAB_LENLOOSE;
}

/* a[from..to) := nil; and: is any of a[0..n) nil?  Four slots a step:
** the append growths of a big array fill and scan all of it (sieve.lua's
** 1M slots, 15 times: 110 M of its 1.98 G instructions with -j on). */
static void fillnil(Value *a, unsigned from, unsigned to) {
  unsigned i = from;
  for (; i + 4 <= to; i += 4) {
    a[i] = MVM_NIL; a[i + 1] = MVM_NIL; a[i + 2] = MVM_NIL; a[i + 3] = MVM_NIL;
  }
  for (; i < to; i++) a[i] = MVM_NIL;
}
static int anynil(const Value *a, unsigned n) {
  unsigned i = 0;
  for (; i + 4 <= n; i += 4)
    if ((a[i] == MVM_NIL) | (a[i + 1] == MVM_NIL) | (a[i + 2] == MVM_NIL) | (a[i + 3] == MVM_NIL))
      return 1;
  for (; i < n; i++)
    if (v_isnil(a[i])) return 1;
  return 0;
}

/* Bring the table to 'nasize' array slots and room for 'nhsize' hash
** entries, re-inserting everything.  Nothing changes if memory runs out. */
void tab_resize(lua_State *L, Table *t, unsigned nasize, unsigned nhsize) {
  unsigned oldasize = t->asize, i, movedin = 0;
  uint32_t lh = t->lenhint;
  Value *oldarray = t->array;
  int oldinline = tab_isinline(t);
  Node *oldnode = t->node;
  unsigned oldhsize = allocsizenode(t);
  Node *newnode;
  Value *newarray = NULL;
  int lsize = 0;
  if (nasize > MAXASIZE) dbg_runerror(L, "table overflow");
  tab_unwatch(G(L), t);   /* the node array moves */
  if (nhsize > 0) {
    lsize = ceillog2(nhsize);
    if (lsize > MAXHBITS) dbg_runerror(L, "table overflow");
    /* parts come from the collector (gc.h): in the nursery while 't' is
    ** young; never collects, so 't' and the old parts stay put here */
    newnode = (Node *)gc_tryallocpart(L, (GCObject *)t, sizeof(Node) << lsize, GC_PARTNODES);
    if (newnode == NULL) do_throw(L, LUA_ERRMEM);
    for (i = 0; i < (1u << lsize); i++) {
      newnode[i].key = MVM_NIL;   /* NOBARRIER: fresh memory, constants */
      newnode[i].val = MVM_NIL;
      newnode[i].next = 0;
      newnode[i].pad_ = 0;
    }
  } else
    newnode = dummynode;
  if (nasize > 0 && nasize <= t->ninline) {   /* the inline slots will do */
    newarray = tab_inlinearray(t);
    i = oldasize < nasize ? oldasize : nasize;
    if (i > 0 && oldarray != newarray) memcpy(newarray, oldarray, (size_t)i * sizeof(Value));  /* NOBARRIER: card marked below */
    fillnil(newarray, i, nasize);
  }
  else if (nasize > 0) {
    newarray = (Value *)gc_tryallocpart(L, (GCObject *)t, (size_t)nasize * sizeof(Value), GC_PARTVALUES);
    if (newarray == NULL) {
      if (nhsize > 0) gc_freepart(L, newnode, sizeof(Node) << lsize);
      do_throw(L, LUA_ERRMEM);
    }
    i = oldasize < nasize ? oldasize : nasize;
    if (i > 0) memcpy(newarray, oldarray, (size_t)i * sizeof(Value));  /* NOBARRIER: card marked below */
    fillnil(newarray, i, nasize);
  }
  /* install the new parts, then move over what does not fit any more */
  t->array = newarray;
  t->asize = nasize;
  t->node = newnode;
  t->isdummy = (nhsize == 0);
  t->lsizenode = (uint8_t)lsize;
  t->lastfree = nhsize > 0 ? (uint32_t)1 << lsize : 0;
  if (newarray != NULL)   /* the copied slots: every card they cover */
    gc_cardmarkrange(G(L), (GCObject *)t, newarray,
                     (size_t)(oldasize < nasize ? oldasize : nasize) * sizeof(Value));
  /* the keys moved are distinct and absent from the new parts: straight
  ** into the array part, or newkey (no lookup first; the hash part has
  ** room for all of them, so it never rehashes) */
  for (i = nasize; i < oldasize; i++)
    if (!v_isnil(oldarray[i])) newkey(L, t, v_immint((int64_t)i + 1), oldarray[i]);
  for (i = 0; i < oldhsize; i++) {
    Node *old = &oldnode[i];
    if (!v_isnil(old->val)) {
      if (v_isimmint(old->key) && (uint64_t)v_getimmint(old->key) - 1u < (uint64_t)nasize) {
        gc_write(G(L), (GCObject *)t, &newarray[v_getimmint(old->key) - 1], old->val);
        movedin = 1;
      } else
        newkey(L, t, old->key, old->val);
    }
  }
  if (oldarray != NULL && !oldinline) gc_freepart(L, oldarray, (size_t)oldasize * sizeof(Value));
  if (oldhsize > 0) gc_freepart(L, oldnode, (size_t)oldhsize * sizeof(Node));
  /* the array part kept its values up to min(asizes) and got nils after:
  ** a tight hint stays tight (cut to the new size); else count */
  if (!movedin && !(lh & TAB_LENLOOSE) && t->asize == nasize)
    t->lenhint = lh < nasize ? lh : nasize;
  else lenscan(t);
}

void tab_resizearray(lua_State *L, Table *t, unsigned nasize) {
  /* growing into the slack of the part's block (SETLIST after a
  ** constructor whose last item is a call: `{f(), g()}` sized 1, filled 2);
  ** only without a hash part, whose integer keys would have to move */
  if (nasize > t->asize && t->array != NULL && t->isdummy &&
      (tab_isinline(t) ? nasize <= t->ninline
                       : gc_growpart(L, t->array, (size_t)nasize * sizeof(Value)))) {
    fillnil(t->array, t->asize, nasize);   /* NOBARRIER: nil */
    t->asize = nasize;
    return;
  }
  tab_resize(L, t, nasize, allocsizenode(t));
}

/* ---------------- rehash ---------------- */

/* nums[i] = number of integer keys k with 2^(i-1) < k <= 2^i */
static int countint(Value key, unsigned *nums) {
  int64_t k;
  if (v_isimmint(key)) k = v_getimmint(key);
  else if (v_isbigint(key)) k = v_getint(key);
  else return 0;
  if (k >= 1 && (uint64_t)k <= MAXASIZE) {
    nums[ceillog2((unsigned)k)]++;
    return 1;
  }
  return 0;
}

static unsigned numusearray(const Table *t, unsigned *nums) {
  unsigned total = 0, i = 1, lg, ttlg;
  for (lg = 0, ttlg = 1; lg <= MAXABITS; lg++, ttlg *= 2) {
    unsigned lim = ttlg, c = 0;
    if (lim > t->asize) {
      lim = t->asize;
      if (i > lim) break;
    }
    for (; i <= lim; i++) if (!v_isnil(t->array[i - 1])) c++;
    nums[lg] += c;
    total += c;
  }
  return total;
}

/* Largest power of two n such that more than n/2 of the slots 1..n would be
** used; *pna receives the number of integer keys going to the array. */
static unsigned computesizes(unsigned *nums, unsigned *pna) {
  unsigned a = 0, na = 0, optimal = 0, i;
  uint64_t twotoi;
  for (i = 0, twotoi = 1; i <= MAXABITS && twotoi / 2 < *pna; i++, twotoi *= 2) {
    a += nums[i];
    if (a > twotoi / 2) { optimal = (unsigned)twotoi; na = a; }
  }
  *pna = na;
  return optimal;
}

/* rehash of a table without array part whose keys (and the new one) are
** no integers (string-keyed records, sets, maps): the count would find no
** array candidate, so computesizes picks no array part and every key goes
** to the hash part; that answer without the counting.  0 when an integer
** key is present (the full count decides). */
static int rehash_noints(lua_State *L, Table *t, Value extrakey) {
  unsigned total = 1, i, n = allocsizenode(t);
  int strs = v_isstring(extrakey);
  if (t->asize != 0 || v_isimmint(extrakey) || v_isbigint(extrakey)) return 0;
  for (i = 0; i < n; i++) {
    const Node *nd = &t->node[i];
    if (!v_isnil(nd->val)) {
      if (v_isimmint(nd->key) || v_isbigint(nd->key)) return 0;
      strs &= v_isstring(nd->key);
      total++;
    }
  }
  /* String-keyed records filled field by field (obj.x = ..., obj[k] =
  ** ... on {}) grew 0-1-2-4: three rehashes before their fourth key.  A
  ** hash part of strings only starts at 4 nodes instead.  Only strings:
  ** their node order (pairs) depends on the seeded hash anyway, while the
  ** order of booleans, floats and other keys follows lua5.4's sizes. */
  if (strs && total < 4) total = 4;
  tab_resize(L, t, 0, total);
  return 1;
}

static void rehash(lua_State *L, Table *t, Value extrakey) {
  unsigned nums[MAXABITS + 1];
  unsigned na, total, i, n = allocsizenode(t), asize;
  if (rehash_noints(L, t, extrakey)) return;
  memset(nums, 0, sizeof nums);
  na = numusearray(t, nums);
  total = na;
  for (i = 0; i < n; i++) {
    Node *nd = &t->node[i];
    if (!v_isnil(nd->val)) {
      na += (unsigned)countint(nd->key, nums);
      total++;
    }
  }
  na += (unsigned)countint(extrakey, nums);
  total++;
  asize = computesizes(nums, &na);
  tab_resize(L, t, asize, total - na);
}

/* ---------------- insertion ---------------- */

static Node *getfreepos(Table *t) {
  if (!t->isdummy) {
    while (t->lastfree > 0) {
      Node *n = &t->node[--t->lastfree];
      if (v_isnil(n->key)) return n;
    }
  }
  return NULL;
}

/* An append `t[asize + 1] = v` whose array part is full, to a table
** without hash part or (newkey, when the hash part has no free node) one
** whose hash part rehash would rebuild as it is (strhashonly): rehash would
** count asize + 1 integer keys 1..asize+1 and nothing else in the array's
** range, and computesizes then picks the least power of two >= asize + 1
** for the array and the same size for the hash part.  That size is given
** here without the counting or the rebuilding (and the store without a
** second lookup), so the layout stays rehash's -- '#t' on later holes and
** 'next' order depend on it.  The scan for a nil slot is rehash's own
** O(asize) count, and the array doubles.  (deltablue's lists, `{ n = 0 }`
** and then `l[l.n + 1] = x`: every growth was a rehash, a new hash part
** and the key "n" moved into it.) */
#define APPENDROOM  4   /* slots of the first part of an empty table's appends */

/* Would rehash, with no integer key for the hash part, rebuild 't''s hash
** part as it is?  When it holds strings only (no integer key to move into
** the array), as many as its size (ceillog2 of their count), each in its
** main position (no collision, no chain: any insertion order puts them
** there again) and no dead key (a rebuilt part has none): then the new
** part would differ only in its free-node pointer, which the caller resets
** (lastfree).  (The string filter of node[0] keeps the bits of keys gone,
** a filter's allowed surplus.) */
static int strhashonly(const Table *t) {
  unsigned i, n = allocsizenode(t), c = 0;
  for (i = 0; i < n; i++) {
    const Node *nd = &t->node[i];
    if (v_isnil(nd->key)) continue;
    if (v_isnil(nd->val) || !v_isstring(nd->key) || hashmod(t, v_str(nd->key)->hash) != nd)
      return 0;
    c++;
  }
  return c > 0 && ceillog2(c) == t->lsizenode;
}

/* the array part grown to 'nasize' slots, nil after the old ones, the
** hash part left as it is: in place when the part's block has room
** (gc_growpart; the first part gets room for APPENDROOM slots, so that
** the growths to 2 and 4 slots are in place), else moved to a new part */
static inline __attribute__((always_inline))
void growarray(lua_State *L, Table *t, unsigned nasize) {
  unsigned asize = t->asize, room = nasize < APPENDROOM ? APPENDROOM : nasize;
  Value *a = t->array, *na;
  int inl = tab_isinline(t);
  if (a != NULL && (inl ? nasize <= t->ninline
                        : gc_growpart(L, a, (size_t)nasize * sizeof(Value)))) {
    fillnil(a, asize, nasize);   /* NOBARRIER: nil */
    t->asize = nasize;
    return;
  }
  na = (Value *)gc_tryallocpart(L, (GCObject *)t, (size_t)room * sizeof(Value), GC_PARTVALUES);
  if (na == NULL) do_throw(L, LUA_ERRMEM);
  if (asize > 0) memcpy(na, a, (size_t)asize * sizeof(Value));   /* NOBARRIER: card marked below */
  fillnil(na, asize, room);   /* NOBARRIER: nil */
  t->array = na;
  t->asize = nasize;
  if (asize > 0) gc_cardmarkrange(G(L), (GCObject *)t, na, (size_t)asize * sizeof(Value));
  if (a != NULL && !inl) gc_freepart(L, a, (size_t)asize * sizeof(Value));
}

static inline __attribute__((always_inline))
int appendgrow(lua_State *L, Table *t, Value key, Value val) {
  unsigned asize = t->asize;
  const Value *a = t->array;
  if (key != v_immint((int64_t)asize + 1) || asize >= MAXASIZE / 2 || anynil(a, asize))
    return 0;
  if (!t->isdummy) {
    if (!strhashonly(t)) return 0;
    t->lastfree = sizenode(t);   /* (a rebuilt part's) */
  }
  growarray(L, t, 1u << ceillog2(asize + 1));
  gc_write(G(L), (GCObject *)t, &t->array[asize], val);
  t->lenhint = asize + 1;   /* values at 1..asize+1, nils after (tight) */
  return 1;
}

/* The node for a key absent from 't' whose main position is 'mp': 'mp'
** when its value is nil, else a free node (where the occupant moves when
** it is not in its own main position; else the new key goes there,
** chained after it), or NULL when there is none (the caller rehashes).
** The key is not stored; nothing is allocated. */
static Node *keynode(global_State *g, Table *t, Node *mp) {
  Node *othern, *f;
  if (v_isnil(mp->val) && !t->isdummy) return mp;
  if ((f = getfreepos(t)) == NULL) return NULL;
  othern = mainposition(t, mp->key);
  if (othern != mp) {
    /* the occupant is not in its main position: move it to the free node */
    while (othern + gnext(othern) != mp) othern += gnext(othern);
    gnext(othern) = (int32_t)(f - othern);
    int32_t filter = f->pad_;                /* (node[0]'s: tab_strfilter) */
    *f = *mp;                                /* NOBARRIER: card marked below */
    f->pad_ = filter;
    gc_cardmark(g, (GCObject *)t, f);
    if (gnext(mp) != 0) {
      gnext(f) += (int32_t)(mp - f);
      gnext(mp) = 0;
    }
    mp->val = MVM_NIL;                       /* NOBARRIER: nil */
    return mp;
  }
  /* the occupant is in its main position: chain the new key after it */
  if (gnext(mp) != 0) gnext(f) = (int32_t)((mp + gnext(mp)) - f);
  gnext(mp) = (int32_t)(f - mp);
  return f;
}

/* Insert a key known to be absent (normalised, valid).  Nil values are not
** inserted. */
static void newkey(lua_State *L, Table *t, Value key, Value val) {
  global_State *g = G(L);
  Node *mp;
  if (v_isnil(val)) return;
  if (t->isdummy && v_isimmint(key) && appendgrow(L, t, key, val)) return;
  /* (strings, the usual new keys, without the call) */
  mp = v_isstring(key) ? hashmod(t, v_str(key)->hash)
     : v_isimmint(key) ? hashint(t, v_getimmint(key)) : mainposition(t, key);
  if ((mp = keynode(g, t, mp)) == NULL) {
    if (v_isimmint(key) && appendgrow(L, t, key, val)) return;
    rehash(L, t, key);
    /* the key is still absent and there is room now; only an integer
    ** key may belong to the new array part (rawinsert looks) */
    if (v_isimmint(key)) rawinsert(L, t, key, val);
    else newkey(L, t, key, val);
    return;
  }
  gc_write(g, (GCObject *)t, &mp->key, key);
  gc_write(g, (GCObject *)t, &mp->val, val);
  if (v_isstring(key)) tab_strfilterset(t, v_str(key));
}

Node *tab_newstrnode(global_State *g, Table *t, TString *key) {
  Node *n = keynode(g, t, hashmod(t, key->hash));
  if (n == NULL) return NULL;
  gc_write(g, (GCObject *)t, &n->key, v_ref(key));
  tab_strfilterset(t, key);
  return n;
}

/* tab_newsized(L, 0, nhsize) for a record laid out as 'tp' says
** (table.h TabTemplate): a copy of its node array, or, the first time,
** its keys inserted one by one with nil values (as many as fit) and the
** result kept.  May throw (memory), as tab_newsized. */
Table *tab_newrecord(lua_State *L, unsigned nhsize, TabTemplate *tp) {
  Table *t = tab_newsized(L, 0, nhsize);
  unsigned k, size;
  if (t->isdummy || tp->state == 2) return t;
  size = 1u << t->lsizenode;
  if (tp->state == 1 && t->lsizenode == tp->lsize) {
    memcpy(t->node, tp->node, size * sizeof(Node));
    t->lastfree = tp->lastfree;
    gc_cardmarkrange(G(L), (GCObject *)t, t->node, size * sizeof(Node));   /* (the keys) */
    return t;
  }
  if (tp->state == 1 || size > TAB_TMPLNODES) {   /* (another size: no template) */
    tp->state = 2;
    return t;
  }
  for (k = 0; k < tp->nkeys && tab_newstrnode(G(L), t, tp->keys[k]) != NULL; k++) ;
  memcpy(tp->node, t->node, size * sizeof(Node));
  tp->lsize = t->lsizenode;
  tp->lastfree = t->lastfree;
  tp->state = 1;
  return t;
}

/* tab_newstrfast's store when the key's main position is taken: the
** node keynode gives (the occupant moves to a free node, or the key is
** chained into one), the value stored there.  0, with nothing changed,
** when no node is free (newkey rehashes) or as tab_newstrfast.  A record
** whose fields collide in its part (3 keys in 4 nodes: in 5 of 8 hash
** seeds) went through vm_finishset, tab_setnew and newkey at every
** construction (vecops.lua's vectors, ~300 instructions a field). */
int tab_newstrslow(global_State *g, Table *t, TString *key, Value val) {
  Node *n;
  if (t->isdummy || v_isnil(val) || (n = tab_newstrnode(g, t, key)) == NULL) return 0;
  tab_clearextra(g, t);   /* a new key: forget cached absences (and TAB_WATCHED) */
  gc_write(g, (GCObject *)t, &n->val, val);
  return 1;
}

/* store without resetting the metamethod cache (used by resize) */
static void rawinsert(lua_State *L, Table *t, Value key, Value val) {
  const Value *slot = tab_get(t, key);
  if (!isabstkey(slot)) tab_putslot(L, t, slot, val);
  else newkey(L, t, key, val);
}

/* Box an integer key outside the immediate range, keeping the table and
** the value rooted across the allocation. */
static Value boxkey(lua_State *L, Table **pt, int64_t i, Value *val) {
  Value tv = v_ref(*pt), k;
  GC_ROOT(L, tv);
  GC_ROOT(L, *val);
  k = vm_mkint(L, i);
  GC_UNROOT(L, 2);
  *pt = v_tab(tv);
  return k;
}

void tab_set(lua_State *L, Table *t, Value key, Value val) {
  const Value *slot;
  if (v_isfloat(key)) {
    double d = v_getfloat(key);
    int64_t i;
    if (floatkey(d, &i)) {
      tab_setint(L, t, i, val);
      return;
    }
    if (d != d) dbg_runerror(L, "table index is NaN");
  } else if (v_isnil(key))
    dbg_runerror(L, "table index is nil");
  tab_clearextra(G(L), t);   /* may be a metatable: forget cached absences */
  slot = tab_get(t, key);
  if (!isabstkey(slot)) tab_putslot(L, t, slot, val);
  else newkey(L, t, key, val);
}

void tab_setnew(lua_State *L, Table *t, Value key, Value val) {
  if (v_isfloat(key) || v_isnil(key)) {   /* normalise, or raise */
    tab_set(L, t, key, val);
    return;
  }
  tab_clearextra(G(L), t);   /* may be a metatable: forget cached absences */
  newkey(L, t, key, val);
}

void tab_setint(lua_State *L, Table *t, int64_t key, Value val) {
  const Value *slot = tab_getint(t, key);
  tab_clearextra(G(L), t);
  if (!isabstkey(slot)) tab_putslot(L, t, slot, val);
  else if (!v_isnil(val)) {
    Value k = v_fitsimm(key) ? v_immint(key) : boxkey(L, &t, key, &val);
    newkey(L, t, k, val);
  }
}

/* ---------------- traversal ---------------- */

/* Index of the entry after which iteration continues: 0 for nil, i for
** array slot i (1-based), asize + node index + 1 for a hash entry. */
static unsigned findindex(lua_State *L, Table *t, Value key) {
  unsigned i, n;
  int64_t k;
  if (v_isnil(key)) return 0;
  /* as in Lua 5.4, next looks the key up by its exact type: a float with an
  ** integer value names no entry (such keys are stored as integers), so
  ** next(t, 1.0) is an invalid key even when t[1] exists */
  if (v_isfloat(key) && floatkey(v_getfloat(key), &k)) goto invalid;
  if (v_isinteger(key)) {
    k = v_getint(key);
    if ((uint64_t)k - 1u < t->asize) return (unsigned)k;
  }
  n = allocsizenode(t);
  if (n > 0) {
    const Value *slot = tab_get(t, key);
    if (!isabstkey(slot)) {
      i = (unsigned)((const Node *)((const char *)slot - offsetof(Node, val)) - t->node);
      return t->asize + i + 1;
    }
    if (v_isref(key)) {     /* removed entry whose key the collector marked dead */
      Value dk = tab_deadkey(key);
      for (i = 0; i < n; i++)
        if (t->node[i].key == dk) return t->asize + i + 1;
    }
  }
invalid:
  dbg_runerror(L, "invalid key to 'next'");
  return 0;
}

/* the entry after index i (findindex's numbering) */
static int nextfrom(lua_State *L, Table *t, unsigned i, Value *key, Value *val) {
  unsigned n;
  for (; i < t->asize; i++) {
    if (!v_isnil(t->array[i])) {
      *key = v_immint((int64_t)i + 1);
      *val = t->array[i];
      return 1;
    }
  }
  n = allocsizenode(t);
  for (i -= t->asize; i < n; i++) {
    Node *nd = &t->node[i];
    if (!v_isnil(nd->val)) {
      *key = nd->key;
      *val = nd->val;
      G(L)->nexthint = i + 1;
      return 1;
    }
  }
  return 0;
}

/* the place of 'k' in findindex's numbering when it needs no lookup (nil,
** an array-part index, the hash entry returned last: G->nexthint), or
** UINT_MAX */
static unsigned quickindex(lua_State *L, const Table *t, Value k) {
  unsigned h = G(L)->nexthint - 1u;
  if (v_isnil(k)) return 0;
  if (v_isimmint(k) && (uint64_t)v_getimmint(k) - 1u < (uint64_t)t->asize)
    return (unsigned)v_getimmint(k);
  if (h < allocsizenode(t) && t->node[h].key == k)
    return t->asize + h + 1;
  return UINT_MAX;
}

int tab_next(lua_State *L, Table *t, Value *key, Value *val) {
  unsigned i = quickindex(L, t, *key);
  if (i == UINT_MAX) i = findindex(L, t, *key);
  return nextfrom(L, t, i, key, val);
}

int tab_nextquick(lua_State *L, Table *t, Value *key, Value *val) {
  unsigned i = quickindex(L, t, *key);
  return i == UINT_MAX ? -1 : nextfrom(L, t, i, key, val);
}

int64_t tab_nextleft(lua_State *L, const Table *t, Value key) {
  unsigned i = quickindex(L, t, key);
  return i == UINT_MAX ? -1 : (int64_t)t->asize + (int64_t)allocsizenode(t) - (int64_t)i;
}

/* ---------------- length ---------------- */

static int absentint(Table *t, lua_Unsigned k) {
  const Value *v = tab_getint(t, (int64_t)k);
  return isabstkey(v) || v_isnil(*v);
}

/* t[j] is present: find a border beyond it (unbounded search, then binary) */
static lua_Unsigned hashsearch(Table *t, lua_Unsigned j) {
  lua_Unsigned i;
  do {
    i = j;
    if (j <= (lua_Unsigned)LUA_MAXINTEGER / 2) j *= 2;
    else {
      j = LUA_MAXINTEGER;
      if (absentint(t, j)) break;
      return j;   /* t[LUA_MAXINTEGER] present: that is a border */
    }
  } while (!absentint(t, j));
  while (j - i > 1u) {   /* t[i] present, t[j] absent */
    lua_Unsigned m = (i + j) / 2;
    if (absentint(t, m)) j = m; else i = m;
  }
  return i;
}

/* The border of the array part next to the last one found: the hint
** moved up over present slots (appends) or down over absent ones
** (removals), a few steps at most.  Only a guess for arraysearch(). */
static unsigned nearborder(const Table *t, unsigned asize) {
  const Value *a = t->array;
  unsigned g = t->lenhint & ~TAB_LENLOOSE, h = g < asize ? g : asize - 1, k;
  for (k = 0; k < 4 && h < asize && !v_isnil(a[h]); k++) h++;
  for (k = 0; k < 4 && h > 0 && v_isnil(a[h - 1]); k++) h--;
  return h;
}

/* The check of arraysearch() when asize is 2^k (rehash's sizes): the
** search's i before the probe of bit b is h with bits b..0 cleared, so
** the probe reads slot (h & ~(2^(b+1) - 1)) + 2^b - 1 and must find a
** value exactly when bit b of h is set.  The nil outcomes, top bit first,
** shifted into 'nils' must then spell the complement of h's k bits.  One
** straight-line step per level (entered by k): a mask and a load with the
** offset in the address (hence the pointer arithmetic), no loop counter. */
#define PROBE(b) \
  nils = nils * 2 + \
    (unsigned)v_isnil((a + ((1u << (b)) - 1u))[hz & ~(size_t)((2u << (b)) - 1u)])
static int pow2verify(const Value *a, unsigned asize, unsigned h) {
  unsigned nils = 0;
  size_t hz = h;
#if defined(__GNUC__)
  switch (__builtin_ctz(asize)) {   /* k, for asize = 2^k */
#else
  switch (ceillog2(asize)) {
#endif
    case 31: PROBE(30);  /* FALLTHROUGH */
    case 30: PROBE(29);  /* FALLTHROUGH */
    case 29: PROBE(28);  /* FALLTHROUGH */
    case 28: PROBE(27);  /* FALLTHROUGH */
    case 27: PROBE(26);  /* FALLTHROUGH */
    case 26: PROBE(25);  /* FALLTHROUGH */
    case 25: PROBE(24);  /* FALLTHROUGH */
    case 24: PROBE(23);  /* FALLTHROUGH */
    case 23: PROBE(22);  /* FALLTHROUGH */
    case 22: PROBE(21);  /* FALLTHROUGH */
    case 21: PROBE(20);  /* FALLTHROUGH */
    case 20: PROBE(19);  /* FALLTHROUGH */
    case 19: PROBE(18);  /* FALLTHROUGH */
    case 18: PROBE(17);  /* FALLTHROUGH */
    case 17: PROBE(16);  /* FALLTHROUGH */
    case 16: PROBE(15);  /* FALLTHROUGH */
    case 15: PROBE(14);  /* FALLTHROUGH */
    case 14: PROBE(13);  /* FALLTHROUGH */
    case 13: PROBE(12);  /* FALLTHROUGH */
    case 12: PROBE(11);  /* FALLTHROUGH */
    case 11: PROBE(10);  /* FALLTHROUGH */
    case 10: PROBE(9);  /* FALLTHROUGH */
    case 9: PROBE(8);  /* FALLTHROUGH */
    case 8: PROBE(7);  /* FALLTHROUGH */
    case 7: PROBE(6);  /* FALLTHROUGH */
    case 6: PROBE(5);  /* FALLTHROUGH */
    case 5: PROBE(4);  /* FALLTHROUGH */
    case 4: PROBE(3);  /* FALLTHROUGH */
    case 3: PROBE(2);  /* FALLTHROUGH */
    case 2: PROBE(1);  /* FALLTHROUGH */
    case 1: PROBE(0);  /* FALLTHROUGH */
    default: break;
  }
  return nils == (~h & (asize - 1));
}
#undef PROBE

/* lua5.4's binary search over [0, asize] for a border, probe for probe
** (the border it finds among several is part of the observable
** behaviour), 'a[asize - 1]' being nil.  The probes are first checked
** against the guess 'h': the search returns h exactly when every probe
** m <= h finds a value and every probe m > h finds nil, and those probes
** are independent loads (their addresses follow from h, not from the
** previous outcome), so `t[#t + 1] = v` costs no chain of dependent
** loads.  On a mismatch the real search runs, written as selects: on a
** partly filled array the probe outcomes follow the bits of the border
** and mispredict about half the time as branches. */
static unsigned arraysearch(Table *t, unsigned asize, unsigned h) {
  const Value *a = t->array;
  unsigned i = 0, j = asize, bad = 0;
  if ((asize & (asize - 1)) == 0 && h < asize)
    bad = !pow2verify(a, asize, h);
  else while (j - i > 1u) {
    unsigned m = (i + j) / 2;
    unsigned above = m > h;
    bad |= above ^ (unsigned)v_isnil(a[m - 1]);
    j = above ? m : j;
    i = above ? i : m;
  }
  if (bad == 0) return h;
  i = 0; j = asize;
  while (j - i > 1u) {
    unsigned m = (i + j) / 2;
    int isnil = v_isnil(a[m - 1]);
    j = isnil ? m : j;
    i = isnil ? i : m;
  }
  t->lenhint = i | TAB_LENLOOSE;
  return i;
}

/* tab_getn beyond a full (or absent) array part: the hash part (out of
** line, so that the array part's answer needs no stack frame) */
static __attribute__((noinline)) lua_Unsigned hashborder(Table *t, unsigned asize) {
  if (absentint(t, (lua_Unsigned)asize + 1)) return asize;
  return hashsearch(t, (lua_Unsigned)asize + 1);
}

#ifdef MVM_LENCHECK
#include <stdio.h>
#include <stdlib.h>
/* (a checking build: -DMVM_LENCHECK; every '#t' verifies the invariant) */
void tab_lencheck(const Table *t) {
  uint32_t h = t->lenhint, i;
  if (h & TAB_LENLOOSE) return;
  for (i = 0; i < t->asize; i++)
    if (v_isnil(t->array[i]) != (i >= h)) {
      fprintf(stderr, "lenhint %u wrong at slot %u (asize %u)\n", h, i + 1, t->asize);
      abort();
    }
  if (h > t->asize) abort();
}
#endif

lua_Unsigned tab_getn(Table *t) {
  unsigned asize = t->asize;
  uint32_t lh = t->lenhint;
#ifdef MVM_LENCHECK
  tab_lencheck(t);
#endif
  if (!(lh & TAB_LENLOOSE)) {
    /* tight (table.h): the array part's only border, or a full part */
    if (lh < asize || t->isdummy) return lh;
    return hashborder(t, asize);
  }
  if (asize > 0 && v_isnil(t->array[asize - 1])) {
    /* a border inside the array part */
    unsigned h;
    if (asize >= 2 && !v_isnil(t->array[asize - 2])) return asize - 1;
    h = nearborder(t, asize);
    t->lenhint = h | TAB_LENLOOSE;
    return arraysearch(t, asize, h);
  }
  /* array part full (or absent): continue in the hash part */
  if (t->isdummy) return asize;
  return hashborder(t, asize);
}
