/*
** table.h -- Lua tables: array part + hash part with Brent's variation
** (vm/table.c).  Parts are out-of-line memory (mvm_mem*, never collects).
** The only heap allocation: tab_set/tab_setint normalising a key to an
** integer outside the immediate range (a float key like 2^50, or
** tab_setint with such a key) box it (MAY ALLOCATE); they root their own
** arguments around it.  Keys are compared by value for numbers (1 == 1.0,
** boxed integers by payload); objects hash by their identity hash.
** Lookups return a pointer to the value slot, or to a static slot holding
** MVM_ABSTKEY when the key is absent.  Stores go through gc_write (barrier).
*/
#ifndef mvm_table_h
#define mvm_table_h
#include "state.h"
#include "gc.h"

#define isabstkey(p)  (*(p) == MVM_ABSTKEY)

/* Bit of Table.extra set by compiled code's method caches (jit/jitrt.c
** mvmrt_strself) on the tables an '__index' walk went through.  Invariant:
** every store into a table's hash part or new key (tab_set, tab_setint,
** tab_setslot, compiled code's inline stores), every resize and every
** lua_setmetatable of the table clears the bit through tab_unwatch or
** tab_clearextra (the stores clear the whole byte, for the
** metamethod-absence bits) -- except compiled code's inline integer-key
** stores (llvmgen.c set_finish), which only overwrite the slot of an
** existing integer key or a free array slot: no node moves and no string
** key appears or goes.  Clearing a set bit increments G->watchepoch, so an
** unchanged watchepoch proves that no lookup through a table whose bit
** was set at some moment changed since that moment, as long as the
** collector has not run since (gc_epoch: tables move).  (jit.h
** JitMethodCache) */
#define TAB_WATCHED  0x80

/* The string-key filter of a table's node array: bit tab_strbit(key) of
** node[0].pad_ is set for every string key inserted into the array
** (newkey, tab_newstrfast; a resize builds a new array through newkey,
** and newkey's moves keep node[0]'s pad_; the shared dummy node's is 0).
** Keys set to nil keep their bits, so a clear bit proves the key absent
** from the hash part without the chain walk (compiled code's method
** lookups, jit/jitrt.c mvmrt_strself: receivers lack the method's name). */
#define tab_strbit(ts)      ((uint32_t)1 << ((ts)->hash >> 27))
#define tab_strfilter(t)    ((uint32_t)(t)->node[0].pad_)
#define tab_strfilterset(t, ts) \
  ((t)->node[0].pad_ = (int32_t)(tab_strfilter(t) | tab_strbit(ts)))

/* forget t's cached metamethod absences and its TAB_WATCHED bit, counted
** in G->watchepoch when it was set (a store that may change a lookup) */
static inline void tab_clearextra(global_State *g, Table *t) {
  if (t->extra & TAB_WATCHED) g->watchepoch++;
  t->extra = 0;
}
/* clear t's TAB_WATCHED bit only (resize, setmetatable), counted */
static inline void tab_unwatch(global_State *g, Table *t) {
  if (t->extra & TAB_WATCHED) {
    g->watchepoch++;
    t->extra &= (uint8_t)~TAB_WATCHED;
  }
}

/* t's metatable := mt (NULL: none), with its barrier; lookups through t
** may change (lua_setmetatable, meta_setmtfast) */
static inline void tab_setmetatable(global_State *g, Table *t, Table *mt) {
  t->metatable = mt;
  tab_unwatch(g, t);
  gc_cardmark(g, (GCObject *)t, &t->metatable);
}

/* The length hint, Table.lenhint.  TIGHT (bit 31 clear), h: slots 1..h
** of the array part hold values and slots h+1..asize are nil (h <=
** asize).  Then h < asize is the array part's only border, which the
** binary search of '#t' finds whatever slots it probes, so tab_getn
** answers h without a probe; h == asize continues into the hash part
** (never cached).  LOOSE (bit 31 set): nothing is known; the low bits are
** the border found last, a guess tab_getn verifies along its probes.
** Invariant: every store into an array slot goes through tab_lenset --
** the interpreter (SETTABLE/SETI in vm.c, tab_setslot, tab_putslot),
** table.c, the collector clearing weak values, and compiled code's
** inline integer-key stores (llvmgen.c set_finish, lenkeep) -- or, for a
** block written at once (table.insert/remove's block moves),
** tab_lenrange; SETLIST makes it loose (vmops.h); resizes keep or
** recompute it (tab_resize); a table is tight at birth (no array part,
** or an all-nil one).  Only a nil stored at k <= h or a value stored at
** k > h can break it: a nil at h or a value at h + 1 moves h, anything
** else makes the hint loose.  A loose hint is negative as an
** int32 and at least 2^31 as a uint32, so neither test fires on it (k <=
** asize <= 2^31): stores cost a load, a compare and a rare branch. */
#define TAB_LENLOOSE  0x80000000u
static inline void tab_lenset(Table *t, uint64_t k, int isnil) {
  uint32_t h = t->lenhint;
  if (isnil ? (int64_t)k <= (int64_t)(int32_t)h : k > (uint64_t)h)
    t->lenhint = k == (uint64_t)h + (uint64_t)!isnil ? (uint32_t)k - (uint32_t)isnil
                                                     : h | TAB_LENLOOSE;
}
/* slots lo..hi (1 <= lo <= hi <= asize) were all written at once (vm/table.c) */
LUAI_FUNC void tab_lenrange(Table *t, unsigned lo, unsigned hi);
/* tab_lenrange of a block known to hold values only (no scan) */
static inline void tab_lenvalues(Table *t, unsigned lo, unsigned hi) {
  uint32_t h = t->lenhint;
  if (h & TAB_LENLOOSE) return;
  t->lenhint = lo - 1u > h ? h | TAB_LENLOOSE : hi > h ? hi : h;
}

/* A removed entry (nil value) whose key was an object keeps that key only so
** that 'next' can continue from it; the collector turns it into a dead key:
** the reference with its low bit set, which is no longer a reference. */
#define tab_deadkey(k)    ((Value)(k) | 1)
#define tab_isdeadkey(k)  (((k) & 0xFFFF000000000007ULL) == 1)

LUAI_FUNC Table *tab_new(lua_State *L);                              /* MAY ALLOCATE */
/* new table sized for a constructor: 'nasize' array slots, room for
** 'nhsize' hash entries (MAY ALLOCATE) */
LUAI_FUNC Table *tab_newsized(lua_State *L, unsigned nasize, unsigned nhsize);
LUAI_FUNC void tab_resize(lua_State *L, Table *t, unsigned nasize, unsigned nhsize);
LUAI_FUNC void tab_resizearray(lua_State *L, Table *t, unsigned nasize);
LUAI_FUNC void tab_free(lua_State *L, Table *t);                     /* collector */
LUAI_FUNC const Value *tab_getint(Table *t, int64_t key);
LUAI_FUNC const Value *tab_getshortstr(Table *t, TString *key);
/* the slot every failed lookup returns (holds MVM_ABSTKEY) */
LUAI_DDEC(const Value tab_absentkey);
/* String keys, inlined into the interpreter: strings are interned, so a
** key matches by pointer; the chain is walked from the main position. */
static inline const Value *tab_getstr(Table *t, TString *key) {
  const Node *n = &t->node[key->hash & ((1u << t->lsizenode) - 1)];
  Value k = v_ref(key);
  for (;;) {
    if (n->key == k) return &n->val;
    if (n->next == 0) return &tab_absentkey;
    n += n->next;
  }
}
/* Main position (node index) of an integer key: the key modulo the largest
** odd number not above the node count, exactly as Lua 5.4's ltable.c
** (hashint), so that 'pairs'/'next' visit integer keys of the hash part in
** the order lua5.4 does (programs print such traversals).  The 32-bit
** division is the common case; the result is the same as the 64-bit one. */
static inline uint32_t tab_hashint(const Table *t, uint64_t ui) {
  uint32_t m = ((1u << t->lsizenode) - 1u) | 1u;
  return ui <= 0xFFFFFFFFu ? (uint32_t)ui % m : (uint32_t)(ui % m);
}
/* Immediate-integer keys, inlined into the interpreter: array part, then
** the chain from the key's main position (immediate keys match by word). */
static inline const Value *tab_getimm(Table *t, int64_t key) {
  const Node *n;
  Value k;
  if ((uint64_t)key - 1u < (uint64_t)t->asize) return &t->array[key - 1];
  if (t->isdummy) return &tab_absentkey;   /* (no division: `t[1]` on a leaf `{}`) */
  n = &t->node[tab_hashint(t, (uint64_t)key)];
  k = v_immint(key);
  for (;;) {
    if (n->key == k) return &n->val;
    if (n->next == 0) return &tab_absentkey;
    n += n->next;
  }
}
/* A string key known to be absent (its lookup returned tab_absentkey) into
** a table with a hash part whose main position for the key is free: the
** store newkey makes there, inline (the fields of a constructor into its
** presized part, new fields of records).  Returns 0, storing nothing, when
** newkey must insert (occupied main position, no hash part, a nil value). */
static inline int tab_newstrfast(lua_State *L, Table *t, TString *key, Value val) {
  Node *mp = &t->node[key->hash & ((1u << t->lsizenode) - 1)];
  if (!v_isnil(mp->val) || t->isdummy || v_isnil(val)) return 0;
  tab_clearextra(G(L), t);   /* a new key: forget cached absences (and TAB_WATCHED) */
  gc_write(G(L), (GCObject *)t, &mp->key, v_ref(key));
  tab_strfilterset(t, key);
  gc_write(G(L), (GCObject *)t, &mp->val, val);
  return 1;
}
/* A string key absent from 't' (its lookup returned tab_absentkey) gets a
** node, its value nil, when a free one is left: no rehash, no allocation,
** no error (the JIT's stores: jitrt.c mvmrt_strnew); NULL when the table
** must grow.  The caller stores the value at once. */
LUAI_FUNC Node *tab_newstrnode(global_State *g, Table *t, TString *key);

/* A record's layout, kept by a constructor's site (compiled code:
** jitrt.c mvmrt_newrecord) so that each record it makes starts with the
** node array the first one got: its string keys in their nodes with nil
** values, chained, the string-key filter set (node[0]'s pad), 'lastfree'
** where the inserts left it.  The constructor's stores then find their
** keys as they find any field (a nil-valued key is an absent field for
** every lookup, 'next' and the length), instead of inserting each.
** 'state' 0: not built yet (the site's compile fills 'nkeys' and 'keys':
** the constant keys its SETFIELDs store, first to last, distinct), 1:
** built, 2: not usable (not a record of <= TAB_TMPLNODES nodes).  Its
** keys are the constants of the code's Proto, which outlives the code
** that holds the template; strings never move. */
#define TAB_TMPLNODES 8
typedef struct TabTemplate {
  uint32_t state, nkeys, lsize, lastfree;
  TString *keys[TAB_TMPLNODES];
  Node node[TAB_TMPLNODES];
} TabTemplate;
LUAI_FUNC Table *tab_newrecord(lua_State *L, unsigned nhsize, TabTemplate *tp);
/* tab_newstrfast's store when the main position is taken (a free node);
** 0, storing nothing, when the table must grow */
LUAI_FUNC int tab_newstrslow(global_State *g, Table *t, TString *key, Value val);
/* either: a new string key stored without a rehash, else 0 */
static inline int tab_newstr(lua_State *L, Table *t, TString *key, Value val) {
  return tab_newstrfast(L, t, key, val) || tab_newstrslow(G(L), t, key, val);
}
LUAI_FUNC const Value *tab_get(Table *t, Value key);
/* raw set; raises "index is nil"/"index is NaN" errors; floats with integral
** values are normalised to integer keys */
LUAI_FUNC void tab_set(lua_State *L, Table *t, Value key, Value val);
LUAI_FUNC void tab_setint(lua_State *L, Table *t, int64_t key, Value val);
/* tab_set of a key whose raw lookup has just returned tab_absentkey (no
** second lookup); MAY ALLOCATE as tab_set */
LUAI_FUNC void tab_setnew(lua_State *L, Table *t, Value key, Value val);
/* store into a slot returned by tab_get* (not absent), with the length
** hint's upkeep when it is an array slot (a node's value slot is never
** inside the array part: the difference is out of range) */
static inline void tab_putslot(lua_State *L, Table *t, const Value *slot, Value val) {
  uint64_t k = ((uintptr_t)slot - (uintptr_t)t->array) / sizeof(Value);
  if (k < (uint64_t)t->asize) tab_lenset(t, k + 1, v_isnil(val));
  gc_write(G(L), (GCObject *)t, (Value *)slot, val);
}
static inline void tab_setslot(lua_State *L, Table *t, const Value *slot, Value val) {
  tab_clearextra(G(L), t);   /* t may be a metatable: forget cached metamethod absences */
  tab_putslot(L, t, slot, val);
}
/* tab_setslot of a string key's slot (a node's: no array slot) */
static inline void tab_setstrslot(lua_State *L, Table *t, const Value *slot, Value val) {
  tab_clearextra(G(L), t);
  gc_write(G(L), (GCObject *)t, (Value *)slot, val);
}
/* iteration: *key is the previous key (nil to start); returns 0 at the end */
LUAI_FUNC int tab_next(lua_State *L, Table *t, Value *key, Value *val);
/* tab_next when the key's place is known without a lookup (nil, an array
** index, the entry returned last); else -1, doing nothing (never raises) */
LUAI_FUNC int tab_nextquick(lua_State *L, Table *t, Value *key, Value *val);
/* how many of t's slots (array part and nodes) come after key's place
** when that place is known without a lookup (as for tab_nextquick): at
** least the iterations left of a traversal at 'key'; else -1 (never
** raises: the JIT policy's estimate of a pairs loop, jit.c loopcount) */
LUAI_FUNC int64_t tab_nextleft(lua_State *L, const Table *t, Value key);
LUAI_FUNC lua_Unsigned tab_getn(Table *t);                           /* border */
#ifdef MVM_LENCHECK
LUAI_FUNC void tab_lencheck(const Table *t);   /* aborts on a wrong tight hint */
#endif
/* tab_getn with a tight hint below asize (TAB_LENLOOSE) answered inline
** (a loose hint is never below asize) */
static inline lua_Unsigned tab_len(Table *t) {
  uint32_t h = t->lenhint;
#ifdef MVM_LENCHECK
  tab_lencheck(t);
#endif
  return h < t->asize ? h : tab_getn(t);
}
LUAI_FUNC size_t tab_sizeof(Table *t);                               /* bytes, for accounting */
#endif
