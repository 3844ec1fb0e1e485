/*
** vm.c -- the interpreter loop and the generic operations it shares with
** the C API: table access with __index/__newindex, comparisons, equality,
** concatenation, length, arithmetic fallback.
**
** Interpreter state cached in C locals: pc, base (first register), k
** (constants), cl (running closure) and trap (hooks / stack moved).  Any
** operation that may allocate, raise, call or reallocate the stack goes
** through VM_SAFE (via Protect/ProtectNT): it saves pc into the CallInfo,
** optionally sets L->top = ci->top (so the collector and nested calls see
** every live register), runs the operation and reloads base/cl/trap, since
** the stack may have been reallocated and the closure moved.  Those points
** are also where compiled code will exit to the interpreter.
**
** Integers: immediates are handled inline; results that do not fit 48 bits
** are boxed through vm_mkint, which allocates (so: under VM_SAFE).
*/
#include <math.h>
#include <string.h>

#include "lua.h"
#include "mvm.h"
#include "vm.h"
#include "do.h"
#include "gc.h"
#include "func.h"
#include "meta.h"
#include "debug.h"
#include "string.h"
#include "table.h"
#include "opcodes.h"
#include "jit.h"
#include "vmops.h"
#include "stateint.h"

/* limit for __index/__newindex chains */
#define MAXTAGLOOP  2000

/* F2I modes of vm_tointeger & co */
#define F2Ieq    0
#define F2Ifloor 1
#define F2Iceil  2

#define isempty(slot)  (isabstkey(slot) || v_isnil(*(slot)))

/* ---------------------------------------------------------------------
** Small helpers
** --------------------------------------------------------------------- */

/* number value as double, no string coercion */
static inline int tonum_ns(Value v, double *d) {
  if (v_isfloat(v)) { *d = v_getfloat(v); return 1; }
  if (v_isimmint(v)) { *d = (double)v_getimmint(v); return 1; }
  if (v_isbigint(v)) { *d = (double)v_getint(v); return 1; }
  return 0;
}

/* a float or an immediate integer as double (no boxed integers: the
** interpreter's mixed int/float arithmetic path, before the general one) */
static inline int num_imm(Value v, double *d) {
  if (v_isfloat(v)) { *d = v_getfloat(v); return 1; }
  if (v_isimmint(v)) { *d = (double)v_getimmint(v); return 1; }
  return 0;
}

/* identical words are equal values, except NaN */
static inline int same_value(Value a, Value b) {
  return a == b && !v_isnan(a);
}

/* raw lookup of any key, with the array part inlined */
static inline const Value *rawget_any(Table *t, Value key) {
  if (v_isimmint(key)) {
    return tab_getimm(t, v_getimmint(key));
  }
  if (v_isstring(key)) return tab_getstr(t, v_str(key));
  return tab_get(t, key);
}

/* the entry of G->icache for receivers with metatable 'mt' and 'key' */
#define icache_at(g, mt, key) \
  (&(g)->icache[(((uintptr_t)(mt) >> 6) ^ (key)->hash) & (VM_ICACHE_SIZE - 1)])

LUAI_DDEF const Value vm_absentnil = MVM_NIL;

const Value *vm_indexwalk(global_State *g, Table *t, TString *key) {
  Table *seen[8];
  const Value *s = NULL;
  int n, ns = 0;
  for (n = 0; n < 4; n++) {
    const Value *tm;
    Table *mt = t->metatable;
    if (mt == NULL) { s = &vm_absentnil; break; }   /* (t is in seen: an __index table) */
    seen[ns++] = mt;
    if (mt->extra & (1u << TM_INDEX)) { s = &vm_absentnil; break; }
    /* (fasttm's lookup inline: with __index present fasttm calls
    ** meta_gettm at every step) */
    tm = tab_getstr(mt, g->tmname[TM_INDEX]);
    if (isempty(tm)) {   /* (fasttm's absence bit, as meta_gettm sets it) */
      mt->extra |= (uint8_t)(1u << TM_INDEX);
      s = &vm_absentnil;
      break;
    }
    if (!v_istable(*tm)) return NULL;
    t = v_tab(*tm);
    seen[ns++] = t;
    s = tab_getstr(t, key);
    if (!isempty(s)) break;
    s = NULL;
  }
  if (s != NULL)
    while (ns > 0) seen[--ns]->extra |= TAB_WATCHED;
  return s;
}

/* t[key] missed in t, which has a metatable: the slot of key in the
** chain of __index tables above t (a class's methods, its superclasses'),
** up to 4 levels, or vm_absentnil when the chain ends without it, else NULL
** (vm_finishget does the rest: __index functions, longer chains).  The
** method cache (state.h icache) answers for a metatable and key that a
** walk answered before: the walk cost 17% of deltablue.lua's and 22% of
** shapes.lua's interpreted time (two hashed lookups per level), and
** richards.lua reads fields its objects leave nil (absent: the walk goes
** to the class and finds nothing).  Allocates nothing. */
static __attribute__((noinline)) const Value *index_table(lua_State *L, Table *t, TString *key) {
  global_State *g = G(L);
  const Table *mt = t->metatable;
  VMMethodEntry *e = icache_at(g, mt, key);
  size_t stamp = vm_cachestamp(g);
  const Value *s;
  if (e->mt == mt && e->key == key && e->stamp == stamp &&
      (e->slot == &vm_absentnil || !isempty(e->slot)))
    return e->slot;
  s = vm_indexwalk(g, t, key);
  if (s != NULL) {   /* (the marks did not change the epoch: 'stamp' holds) */
    e->mt = mt; e->key = key; e->slot = s; e->stamp = stamp;
  }
  return s;
}

/* s[key] for a string s (s:sub(...), s:byte(...)): the slot of key in the
** __index table of the string metatable, else NULL (vm_finishget does the
** rest).  Read at every use: debug.setmetatable and assignments to
** getmetatable("").__index may change either at any time.  Allocates
** nothing. */
static inline const Value *index_string(lua_State *L, TString *key) {
  Table *mt = G(L)->mt[LUA_TSTRING];
  const Value *tm, *s;
  if (mt == NULL) return NULL;
  /* (the lookup inline: fasttm calls meta_gettm whenever __index is
  ** present; an absent entry reads as the absent-key value, no table) */
  tm = tab_getstr(mt, G(L)->tmname[TM_INDEX]);
  if (!v_istable(*tm)) return NULL;
  s = tab_getstr(v_tab(*tm), key);
  return isempty(s) ? NULL : s;
}

/* (GETI/SETI keys are 8-bit constants: always immediates) */
static inline const Value *rawget_int(Table *t, int64_t n) {
  return tab_getimm(t, n);
}

/* ---------------------------------------------------------------------
** Table access with metamethods
** --------------------------------------------------------------------- */

/*
** t[key] when the fast path failed.  'slot' (if not NULL) is the empty raw
** lookup result of *t, which is then known to be a table.  Everything is
** copied into locals first: 'key' and 'val' may be the same slot (C API),
** and 't' may point into an upvalue or a metatable.  The original 't' is
** only used for the error message of the first step (variable info).
*/
void vm_finishget(lua_State *L, const Value *t, Value *key, Value *val,
                  const Value *slot) {
  int loop;
  Value tv = *t;
  Value kv = *key;
  /* s:sub(...), s:byte(...) (a table receiver comes with its slot) */
  if (slot == NULL && v_isstring(tv) && v_isstring(kv)) {
    const Value *s = index_string(L, v_str(kv));
    if (s != NULL) { *val = *s; return; }
  }
  for (loop = 0; loop < MAXTAGLOOP; loop++) {
    const Value *tm;
    if (v_istable(tv)) {
      Table *h = v_tab(tv);
      if (!(loop == 0 && slot != NULL)) {
        const Value *s = rawget_any(h, kv);
        if (!isempty(s)) { *val = *s; return; }
      }
      tm = fasttm(L, h->metatable, TM_INDEX);
      if (tm == NULL) { *val = MVM_NIL; return; }
    }
    else {
      tm = meta_gettmbyobj(L, &tv, TM_INDEX);
      if (l_unlikely(v_isnil(*tm)))
        dbg_typeerror(L, loop == 0 ? t : &tv, "index");
    }
    if (v_isfunction(*tm)) {
      meta_callTMres(L, tm, &tv, &kv, val);
      return;
    }
    tv = *tm;   /* repeat with the metamethod as the indexed value */
  }
  dbg_runerror(L, "'__index' chain too long; possible loop");
}

/* SETFIELD of a key absent from 't': stored at its free main position
** when no __newindex can run (tab_newstrfast; constructors' fields), or
** at a free node when that position is taken (tab_newstrslow), else 0
** and vm_finishset does it (a rehash).  Out of line: inlined into SETFIELD it
** changed the code of the existing-key path (nbody -j off +0.5%
** instructions, richards +0.3%). */
static __attribute__((noinline)) int setnewfield(lua_State *L, Table *t,
                                                 const Value *key, const Value *val) {
  return t->metatable == NULL && tab_newstr(L, t, v_str(*key), *val);
}

/* string.sub(s, i [, j]) in OP_CALL: with a string and immediate integers
** i >= 1, j >= 0 (sl_sub1's case) the result goes to *ra; 0 (nothing
** done) otherwise.  Out of line: the other C calls pay only the test of f. */
static __attribute__((noinline)) int vm_subinline(lua_State *L, Value *ra, int nargs) {
  size_t from, len;
  if (!vm_subrange(ra + 1, nargs, &from, &len)) return 0;
  /* (strings never move: the bytes stay valid if str_new collects) */
  *ra = v_ref(str_new(L, getstr(v_str(ra[1])) + from, len));
  return 1;
}

/* setmetatable(t, mt) in OP_CALL and OP_TAILCALL, its common case
** (meta_setmtfast), and *ra is t; 0 (nothing done) otherwise (also
** mvm_baseassert, mvm_basesetmt: jit.h).  Object constructors' `return
** setmetatable({...}, C)` spent ~10% of bench/extra2/vecops.lua in the
** library call's checks. */
static __attribute__((noinline)) int vm_setmtinline(lua_State *L, Value *ra, int nargs) {
  if (nargs != 2 || !meta_setmtfast(G(L), ra[1], ra[2])) return 0;
  *ra = ra[1];   /* NOBARRIER: stack slot */
  return 1;
}

void vm_finishset(lua_State *L, const Value *t, Value *key, Value *val,
                  const Value *slot) {
  int loop;
  Value tv = *t;
  Value kv = *key;
  Value vv = *val;
  (void)slot;
  for (loop = 0; loop < MAXTAGLOOP; loop++) {
    const Value *tm;
    if (v_istable(tv)) {
      Table *h = v_tab(tv);
      const Value *s = rawget_any(h, kv);
      if (!isempty(s)) {       /* existing key: plain store */
        tab_setslot(L, h, s, vv);
        return;
      }
      tm = fasttm(L, h->metatable, TM_NEWINDEX);
      if (tm == NULL) {        /* new key, no metamethod: raw set */
        /* (no second lookup; a string key at a free main position, as
        ** constructors' fields, stored inline) */
        if (!isabstkey(s)) tab_set(L, h, kv, vv);
        else if (!(v_isstring(kv) && tab_newstr(L, h, v_str(kv), vv)))
          tab_setnew(L, h, kv, vv);
        h->extra = 0;          /* may be a metatable: forget cached absences */
        return;
      }
    }
    else {
      tm = meta_gettmbyobj(L, &tv, TM_NEWINDEX);
      if (l_unlikely(v_isnil(*tm)))
        dbg_typeerror(L, loop == 0 ? t : &tv, "index");
    }
    if (v_isfunction(*tm)) {
      meta_callTM(L, tm, &tv, &kv, &vv);
      return;
    }
    tv = *tm;
  }
  dbg_runerror(L, "'__newindex' chain too long; possible loop");
}

/* t[key] and t[key] = val with metamethods, for the C API and the JIT's
** helpers: the raw lookup first; a table without a metatable needs no
** metamethod search on a miss (nil; a raw store of an integer key, as
** the interpreter's SETTABLE). */
void vm_gettable(lua_State *L, const Value *t, Value *key, Value *val) {
  const Value *slot = NULL;
  if (v_istable(*t)) {
    Table *h = v_tab(*t);
    slot = rawget_any(h, *key);
    if (!isempty(slot)) { *val = *slot; return; }
    if (h->metatable == NULL) { *val = MVM_NIL; return; }
  }
  vm_finishget(L, t, key, val, slot);
}

void vm_settable(lua_State *L, const Value *t, Value *key, Value *val) {
  const Value *slot = NULL;
  if (v_istable(*t)) {
    Table *h = v_tab(*t);
    slot = rawget_any(h, *key);
    if (!isempty(slot)) { tab_setslot(L, h, slot, *val); return; }
    if (v_isimmint(*key) && h->metatable == NULL) {
      tab_setint(L, h, v_getimmint(*key), *val);
      return;
    }
  }
  vm_finishset(L, t, key, val, slot);
}

/* ---------------------------------------------------------------------
** Comparisons
** --------------------------------------------------------------------- */

/* strcoll-based order that also handles embedded zeros */
static int str_order(const TString *a, const TString *b) {
  const char *s1 = getstr(a), *s2 = getstr(b);
  size_t n1 = a->len, n2 = b->len;
  for (;;) {
    int c = strcoll(s1, s2);
    size_t seg;
    if (c != 0) return c;
    seg = strlen(s1);          /* equal up to the first '\0' of both */
    if (seg == n2) return (seg == n1) ? 0 : 1;   /* b is exhausted */
    if (seg == n1) return -1;                     /* a is exhausted */
    seg++;                     /* skip the '\0' and compare the rest */
    s1 += seg; n1 -= seg;
    s2 += seg; n2 -= seg;
  }
}

/* can integer i be converted to a double exactly? (|i| <= 2^53) */
static inline int int_fits_flt(int64_t i) {
  return (uint64_t)i + (1ULL << 53) <= (2ULL << 53);
}

static int lt_intflt(int64_t i, double f) {
  int64_t fi;
  if (int_fits_flt(i)) return (double)i < f;
  if (vm_flttointns(f, &fi, F2Iceil)) return i < fi;   /* i < f <=> i < ceil(f) */
  return f > 0;   /* f is NaN or out of range */
}

static int le_intflt(int64_t i, double f) {
  int64_t fi;
  if (int_fits_flt(i)) return (double)i <= f;
  if (vm_flttointns(f, &fi, F2Ifloor)) return i <= fi;  /* i <= f <=> i <= floor(f) */
  return f > 0;
}

static int lt_fltint(double f, int64_t i) {
  int64_t fi;
  if (int_fits_flt(i)) return f < (double)i;
  if (vm_flttointns(f, &fi, F2Ifloor)) return fi < i;   /* f < i <=> floor(f) < i */
  return f < 0;
}

static int le_fltint(double f, int64_t i) {
  int64_t fi;
  if (int_fits_flt(i)) return f <= (double)i;
  if (vm_flttointns(f, &fi, F2Iceil)) return fi <= i;   /* f <= i <=> ceil(f) <= i */
  return f < 0;
}

/* both operands are numbers */
static int lt_num(Value l, Value r) {
  if (v_isinteger(l)) {
    int64_t li = v_getint(l);
    if (v_isinteger(r)) return li < v_getint(r);
    return lt_intflt(li, v_getfloat(r));
  }
  else {
    double lf = v_getfloat(l);
    if (v_isfloat(r)) return lf < v_getfloat(r);
    return lt_fltint(lf, v_getint(r));
  }
}

static int le_num(Value l, Value r) {
  if (v_isinteger(l)) {
    int64_t li = v_getint(l);
    if (v_isinteger(r)) return li <= v_getint(r);
    return le_intflt(li, v_getfloat(r));
  }
  else {
    double lf = v_getfloat(l);
    if (v_isfloat(r)) return lf <= v_getfloat(r);
    return le_fltint(lf, v_getint(r));
  }
}

int vm_lessthan(lua_State *L, const Value *l, const Value *r) {
  if (v_isnumber(*l) && v_isnumber(*r))
    return lt_num(*l, *r);
  if (v_isstring(*l) && v_isstring(*r))
    return str_order(v_str(*l), v_str(*r)) < 0;
  return meta_callorderTM(L, l, r, TM_LT);
}

int vm_lessequal(lua_State *L, const Value *l, const Value *r) {
  if (v_isnumber(*l) && v_isnumber(*r))
    return le_num(*l, *r);
  if (v_isstring(*l) && v_isstring(*r))
    return str_order(v_str(*l), v_str(*r)) <= 0;
  return meta_callorderTM(L, l, r, TM_LE);   /* (with the __lt fallback) */
}

/* equality; L == NULL means raw (no __eq) */
int vm_equalobj(lua_State *L, const Value *t1, const Value *t2) {
  Value a = *t1, b = *t2;
  const Value *tm = NULL;
  int tt;
  if (v_isnumber(a) || v_isnumber(b))
    return v_isnumber(a) && v_isnumber(b) && v_rawequal(a, b);
  if (a == b) return 1;
  if (!v_isref(a) || !v_isref(b)) return 0;
  tt = v_gc(a)->tt;
  if (tt != v_gc(b)->tt) return 0;
  if (L == NULL) return 0;
  if (tt == MVM_TTABLE) {
    tm = fasttm(L, v_tab(a)->metatable, TM_EQ);
    if (tm == NULL) tm = fasttm(L, v_tab(b)->metatable, TM_EQ);
  }
  else if (tt == MVM_TUDATA) {
    tm = fasttm(L, v_udata(a)->metatable, TM_EQ);
    if (tm == NULL) tm = fasttm(L, v_udata(b)->metatable, TM_EQ);
  }
  if (tm == NULL) return 0;
  meta_callTMres(L, tm, t1, t2, L->top);
  return !v_isfalsy(*L->top);
}

/* ---------------------------------------------------------------------
** Length, concatenation, arithmetic
** --------------------------------------------------------------------- */

void vm_objlen(lua_State *L, Value *ra, const Value *rb) {
  const Value *tm;
  Value v = *rb;
  if (v_istable(v)) {
    Table *h = v_tab(v);
    tm = fasttm(L, h->metatable, TM_LEN);
    if (tm == NULL) {
      lua_Unsigned n = tab_len(h);
      ptrdiff_t r = savestack(L, ra);
      Value res = vm_int(L, (int64_t)n);
      *restorestack(L, r) = res;
      return;
    }
  }
  else if (v_isstring(v)) {
    ptrdiff_t r = savestack(L, ra);
    Value res = vm_int(L, (int64_t)v_str(v)->len);
    *restorestack(L, r) = res;
    return;
  }
  else {
    tm = meta_gettmbyobj(L, rb, TM_LEN);
    if (l_unlikely(v_isnil(*tm)))
      dbg_typeerror(L, rb, "get length of");
  }
  meta_callTMres(L, tm, rb, rb, ra);
}

/* make *o a string if it is a number; 1 if it is (now) a string */
static inline int to_str(lua_State *L, Value *o) {
  if (v_isstring(*o)) return 1;
  if (v_isnumber(*o)) { vm_tostring(L, o); return 1; }
  return 0;
}

#define CONCAT_BUF  256
#define CONCAT_NUMS  4   /* numbers per pass written without a string each */

/* vm_concat when every operand is a string or a number and the result is
** short (the usual `a .. b .. c`, `"k" .. i`): one pass from the first
** operand on, copying or formatting each into the buffer, then one
** str_new; no per-operand dispatch over metamethods (the general loop
** below cost ~220 instructions around a 2-piece concat's str_new).
** Returns 0, having changed nothing, at an operand that is neither or a
** result longer than CONCAT_BUF; else 1 with the result in top[-total]
** (the caller pops the rest). */
static int concat_short(lua_State *L, Value *top, int total) {
  char buf[CONCAT_BUF + MAXNUMBER2STR];   /* a number's text may pass the end */
  size_t pos = 0;
  int n;
  for (n = total; n > 0; n--) {
    Value v = top[-n];
    if (v_isstring(v)) {
      const TString *s = v_str(v);
      if (s->len > CONCAT_BUF - pos) return 0;
      str_copyshort(buf + pos, getstr(s), s->len);
      pos += s->len;
    }
    else if (v_isnumber(v)) {
      pos += (size_t)vm_num2buff(v, buf + pos);
      if (pos > CONCAT_BUF) return 0;
    }
    else
      return 0;
  }
  /* str_new may collect: the operands stay below L->top, rooted */
  top[-total] = v_ref(str_new(L, buf, pos));
  return 1;
}

/*
** Concatenate the 'total' values at the top of the stack, leaving the
** result in the first of them (L->top ends one after it).  Works from the
** top down, joining as many adjacent strings/numbers as possible per pass;
** other operands go through __concat.  A __concat call may yield: see
** vm_finishOp, which relies on L->top marking the pair being handled.
*/
void vm_concat(lua_State *L, int total) {
  if (total == 1) return;
  do {
    Value *top = L->top;
    int n = 2;
    if (!(v_isstring(top[-2]) || v_isnumber(top[-2])) ||
        !(v_isstring(top[-1]) || v_isnumber(top[-1]))) {
      /* __concat */
      const Value *tm = meta_gettmbyobj(L, top - 2, TM_CONCAT);
      if (v_isnil(*tm)) tm = meta_gettmbyobj(L, top - 1, TM_CONCAT);
      if (l_unlikely(v_isnil(*tm)))
        dbg_concaterror(L, top - 2, top - 1);
      meta_callTMres(L, tm, top - 2, top - 1, top - 2);
    }
    else if (v_isstring(top[-1]) && v_str(top[-1])->len == 0)      /* x .. "" */
      (void)to_str(L, top - 2);
    else if (v_isstring(top[-2]) && v_str(top[-2])->len == 0) {   /* "" .. x */
      (void)to_str(L, top - 1);
      top[-2] = top[-1];
    }
    else if (concat_short(L, top, total))
      n = total;
    else {
      /* collect as many strings as possible; the text of the first
      ** CONCAT_NUMS numbers is written here, not interned as a string of
      ** its own */
      size_t tl = 0;
      size_t pos;
      char sbuf[CONCAT_BUF];
      char nbuf[CONCAT_NUMS][MAXNUMBER2STR];
      int nlen[CONCAT_NUMS], nn = 0;
      char *buf = sbuf;
      TString *ts = NULL;
      int j;
      for (n = 0; n < total; n++) {
        Value *o = top - n - 1;
        size_t l;
        if (v_isstring(*o))
          l = v_str(*o)->len;
        else if (v_isnumber(*o) && nn < CONCAT_NUMS) {
          nlen[nn] = vm_num2buff(*o, nbuf[nn]);
          l = (size_t)nlen[nn++];
        }
        else if (to_str(L, o))
          l = v_str(*o)->len;
        else
          break;
        if (l_unlikely(l >= ((~(size_t)0) >> 2) - tl)) {
          L->top = top - total;
          dbg_runerror(L, "string length overflow");
        }
        tl += l;
      }
      if (tl > CONCAT_BUF) {
        /* big result: built in place in a new string object, anchored on
        ** the stack (EXTRA_STACK guarantees the slot at 'top'), then
        ** interned (str_newbuf/str_intern) */
        ts = str_newbuf(L, tl);
        *top = v_ref(ts);
        L->top = top + 1;
        buf = getstr(ts);
      }
      pos = 0;
      for (j = n; j > 0; j--) {   /* numbers come up in reverse order */
        if (v_isstring(top[-j])) {
          TString *s = v_str(top[-j]);
          str_copyshort(buf + pos, getstr(s), s->len);
          pos += s->len;
        }
        else {
          nn--;
          str_copyshort(buf + pos, nbuf[nn], (size_t)nlen[nn]);
          pos += (size_t)nlen[nn];
        }
      }
      ts = (ts != NULL) ? str_intern(L, ts) : str_new(L, buf, tl);
      L->top = top;
      top[-n] = v_ref(ts);
    }
    total -= n - 1;
    L->top -= n - 1;
  } while (total > 1);
}

void vm_arith(lua_State *L, int op, const Value *p1, const Value *p2, Value *res) {
  if (!vm_rawarith(L, op, p1, p2, res))
    meta_trybinTM(L, p1, p2, res, (TMS)(op - LUA_OPADD + TM_ADD));
}

/* ---------------------------------------------------------------------
** 'for' loops
** --------------------------------------------------------------------- */

/* integer loop limit; returns 1 if the loop must not run */
static int for_limit(lua_State *L, int64_t init, const Value *lim,
                     int64_t *p, int64_t step) {
  if (!vm_tointeger(*lim, p, step < 0 ? F2Iceil : F2Ifloor)) {
    double flim;
    if (!vm_tonumber(L, *lim, &flim))
      dbg_forerror(L, lim, "limit");
    /* a float out of the integer range (or NaN) */
    if (0 < flim) {
      if (step < 0) return 1;
      *p = LUA_MAXINTEGER;
    }
    else {
      if (step > 0) return 1;
      *p = LUA_MININTEGER;
    }
  }
  return step > 0 ? init > *p : init < *p;
}

/* FORPREP; returns 1 to skip the loop.  May allocate (boxed counters). */
static int for_prep(lua_State *L, Value *ra) {
  Value pinit = ra[0], pstep = ra[2];
  if (v_isinteger(pinit) && v_isinteger(pstep)) {
    int64_t init = v_getint(pinit);
    int64_t step = v_getint(pstep);
    int64_t limit;
    uint64_t count;
    Value v;
    if (step == 0) dbg_runerror(L, "'for' step is zero");
    ra[3] = pinit;    /* control variable */
    if (for_limit(L, init, ra + 1, &limit, step)) return 1;
    if (step > 0) {
      count = (uint64_t)limit - (uint64_t)init;
      if (step != 1) count /= (uint64_t)step;
    }
    else {
      count = (uint64_t)init - (uint64_t)limit;
      count /= (uint64_t)(-(step + 1)) + 1u;   /* avoids -mininteger */
    }
    v = vm_int(L, (int64_t)count);   /* iterations left, in place of the limit */
    ra[1] = v;
  }
  else {
    double init, flimit, step;
    if (l_unlikely(!vm_tonumber(L, ra[1], &flimit)))
      dbg_forerror(L, ra + 1, "limit");
    if (l_unlikely(!vm_tonumber(L, ra[2], &step)))
      dbg_forerror(L, ra + 2, "step");
    if (l_unlikely(!vm_tonumber(L, ra[0], &init)))
      dbg_forerror(L, ra, "initial value");
    if (step == 0) dbg_runerror(L, "'for' step is zero");
    if (0 < step ? flimit < init : init < flimit) return 1;
    ra[1] = v_float(flimit);
    ra[2] = v_float(step);
    ra[0] = v_float(init);
    ra[3] = v_float(init);
  }
  return 0;
}

/* slow integer FORLOOP step (some value is boxed); may allocate */
static void for_store(lua_State *L, Value *ra, uint64_t count, int64_t idx) {
  Value v = vm_int(L, (int64_t)count);
  ra[1] = v;
  v = vm_int(L, idx);
  ra[0] = v;
  ra[3] = v;
}

static int flt_forloop(Value *ra) {
  double step = v_getfloat(ra[2]);
  double limit = v_getfloat(ra[1]);
  double idx = v_getfloat(ra[0]) + step;
  if (0 < step ? idx <= limit : limit <= idx) {
    ra[0] = v_float(idx);
    ra[3] = ra[0];
    return 1;
  }
  return 0;
}

/* ---------------------------------------------------------------------
** Closures
** --------------------------------------------------------------------- */

/* R[a] := closure of nested proto 'bx' of the running function.  Finding
** upvalues may allocate and move closures: re-read them from the stack. */
static void push_closure(lua_State *L, CallInfo *ci, int bx, int a) {
  Proto *p = v_lcl(*ci->func)->p->p[bx];
  int nup = p->sizeupvalues;
  int i;
  LClosure *ncl = func_newLclosure(L, nup);
  Value *base = ci->func + 1;
  ncl->p = p;                /* NOBARRIER: fresh closure, nothing allocated since */
  base[a] = v_ref(ncl);      /* anchor it */
  for (i = 0; i < nup; i++) {
    UpVal *uv;
    if (p->upvalues[i].instack)
      uv = func_findupval(L, base + p->upvalues[i].idx);
    else
      uv = v_lcl(*ci->func)->upvals[p->upvalues[i].idx];
    ncl = v_lcl(base[a]);
    ncl->upvals[i] = uv;
    gc_cardmark(G(L), (GCObject *)ncl, &ncl->upvals[i]);
  }
}

/* ---------------------------------------------------------------------
** Generic for loops with a C iterator (next, ipairs', gmatch's)
** --------------------------------------------------------------------- */

/* mvm_resume of the function made by coroutine.wrap at 'func', whose C
** frame is pushed: wrap_call's (stdlib/corolib.c) resume without its C
** frame (OP_CALL, TFORCALL; the frame is wrap_call's, for wrap_error's
** position and the thread); -1 when the resume failed, and the caller
** calls wrap_error.  Out of line: inlined, it changed the register
** allocation of vm_execute */
static __attribute__((noinline)) int vm_wrapresume(lua_State *L, Value *func) {
  return mvm_resume(L, v_thread(v_ccl(*func)->upvalue[0]), (int)(L->top - func) - 1);
}

/* can TFORCALL call the iterator at 'func' inline (tfor_docall)?  A C
** function, stack room for its LUA_MINSTACK, a spare CallInfo, no hooks */
static inline int tfor_ccall(lua_State *L, CallInfo *ci, Value *func) {
  Value f = *func;
  return (v_islcf(f) || v_isCclosure(f)) && L->stack_last - L->top > LUA_MINSTACK &&
         ci->next != NULL && !L->hookmask;
}

/* the call do_call would make (precall_C's frame, do_poscall's results),
** without the C-level bookkeeping of a call from C: the iterator runs on
** the interpreter's C frame, as a C function called by OP_CALL does */
static inline void tfor_docall(lua_State *L, CallInfo *ci, Value *func, int nresults) {
  CallInfo *newci = ci->next;
  int n, wanted;
  vm_pushcframe(L, newci, func, nresults);
  if (v_islcf(*func))
    n = (*v_lcf(*func))(L);
  else if (l_unlikely(v_ccl(*func)->f == mvm_wrapfuncs[0])) {
    n = vm_wrapresume(L, func);   /* a generator made by coroutine.wrap */
    if (l_unlikely(n < 0))
      n = (*mvm_wrapfuncs[1])(L);   /* wrap_error: raises */
  }
  else
    n = (*v_ccl(*func)->f)(L);
  wanted = newci->nresults;   /* (lua_toclose may have marked it) */
  if (l_likely(wanted >= 0 && !L->hookmask))
    vm_cretmove(L, ci, newci, n, wanted);
  else
    do_poscall(L, newci, n);
}

/* ---------------------------------------------------------------------
** Finishing an opcode interrupted by a yield (inside a metamethod or a
** __close): put the metamethod's result where the opcode wanted it.
** --------------------------------------------------------------------- */

void vm_finishOp(lua_State *L) {
  CallInfo *ci = L->ci;
  Value *base = ci->func + 1;
  Instruction inst = *(ci->u.l.savedpc - 1);
  OpCode op = GET_OPCODE(inst);
  switch (op) {
    case OP_MMBIN: case OP_MMBINI: case OP_MMBINK:
      base[GETARG_A(*(ci->u.l.savedpc - 2))] = *--L->top;
      break;
    case OP_UNM: case OP_BNOT: case OP_LEN:
    case OP_GETTABUP: case OP_GETTABLE: case OP_GETI:
    case OP_GETFIELD: case OP_SELF:
      base[GETARG_A(inst)] = *--L->top;
      break;
    case OP_LT: case OP_LE:
    case OP_LTI: case OP_LEI:
    case OP_GTI: case OP_GEI:
    case OP_EQ: {
      int res = !v_isfalsy(L->top[-1]);
      L->top--;
      if (ci->callstatus & CIST_LEQ) {   /* "<=" done as "not <" */
        ci->callstatus ^= CIST_LEQ;
        res = !res;
      }
      if (res != GETARG_k(inst))   /* condition failed: skip the jump */
        ci->u.l.savedpc++;
      break;
    }
    case OP_CONCAT: {
      Value *top = L->top - 1;      /* where the __concat call was made */
      int a = GETARG_A(inst);
      int total = (int)(top - 1 - (base + a));
      top[-2] = *top;               /* the metamethod's result */
      L->top = top - 1;
      vm_concat(L, total);
      break;
    }
    case OP_CLOSE:
      ci->u.l.savedpc--;            /* redo: close the remaining variables */
      break;
    case OP_RETURN: {
      Value *ra = base + GETARG_A(inst);
      L->top = ra + ci->u2.nres;
      ci->u.l.savedpc--;            /* redo the return */
      break;
    }
    default:
      /* OP_TFORCALL, OP_CALL, OP_TAILCALL, OP_SET*: nothing to finish */
      break;
  }
}

/* ---------------------------------------------------------------------
** The interpreter
** --------------------------------------------------------------------- */

#define l_iadd(L,a,b)  ((int64_t)((uint64_t)(a) + (uint64_t)(b)))
#define l_isub(L,a,b)  ((int64_t)((uint64_t)(a) - (uint64_t)(b)))
#define l_imul(L,a,b)  ((int64_t)((uint64_t)(a) * (uint64_t)(b)))
#define l_imod(L,a,b)  (savepc(), int_mod(L, a, b))
#define l_iidiv(L,a,b) (savepc(), int_idiv(L, a, b))
#define l_band(a,b)    ((int64_t)((uint64_t)(a) & (uint64_t)(b)))
#define l_bor(a,b)     ((int64_t)((uint64_t)(a) | (uint64_t)(b)))
#define l_bxor(a,b)    ((int64_t)((uint64_t)(a) ^ (uint64_t)(b)))
/* vm_shiftl (number.c), inline for the interpreter's shifts */
#define l_shl(a,b)     vm_shiftl(a, b)
#define l_shr(a,b)     vm_shiftl(a, (int64_t)(0u - (uint64_t)(b)))

#define l_fadd(L,a,b)  ((a) + (b))
#define l_fsub(L,a,b)  ((a) - (b))
#define l_fmul(L,a,b)  ((a) * (b))
#define l_fdiv(L,a,b)  ((a) / (b))
#define l_fpow(L,a,b)  ((b) == 2 ? (a) * (a) : pow(a, b))
#define l_fidiv(L,a,b) (floor((a) / (b)))
#define l_fmod(L,a,b)  vm_modf(L, a, b)

/* +, - and * of two immediate integers on their words: shifted left by 16
** the payloads are the integers times 2^16, whose sum, difference or
** product (with the other factor unshifted) overflows 64 bits exactly
** when the result does not fit an immediate (48 bits); shifted back and
** tagged it is the result's word.  No decoding of the operands and no
** range test of the result.  imm_op(a, b, s) is 1 on overflow (then the
** caller does the full-width operation, which may box), else s is the
** result shifted; imm_word(s) is its word. */
#if defined(__GNUC__)
#define imm_add(a,b,s)  __builtin_add_overflow((int64_t)((a) << 16), (int64_t)((b) << 16), s)
#define imm_sub(a,b,s)  __builtin_sub_overflow((int64_t)((a) << 16), (int64_t)((b) << 16), s)
#define imm_mul(a,b,s)  __builtin_mul_overflow((int64_t)((a) << 16), v_getimmint(b), s)
#else
static inline int imm_shifted(int64_t r, int64_t *s) {
  if (!v_fitsimm(r)) return 1;
  *s = (int64_t)((uint64_t)r << 16);
  return 0;
}
#define imm_add(a,b,s)  imm_shifted(v_getimmint(a) + v_getimmint(b), s)
#define imm_sub(a,b,s)  imm_shifted(v_getimmint(a) - v_getimmint(b), s)
#define imm_mul(a,b,s)  1   /* the full-width operation */
#endif
/* (the low 16 bits of s are zero: setting them and rotating them to the
** top is the tag, without a 64-bit constant) */
static inline Value imm_word(int64_t s) {
  uint64_t w = (uint64_t)s | 0xFFFF;
  return (w >> 16) | (w << 48);
}

/* the operation on immediates for each integer operation of op_arith */
#define l_iadd_imm(a,b,s)   imm_add(a, b, s)
#define l_isub_imm(a,b,s)   imm_sub(a, b, s)
#define l_imul_imm(a,b,s)   imm_mul(a, b, s)
#define l_imod_imm(a,b,s)   imm_mod(&L->divmod, a, b, s)
#define l_iidiv_imm(a,b,s)  imm_idiv(&L->divmod, a, b, s)

/* % and // of two immediates: the result always fits an immediate
** (|r| < |b|, |q| <= |a|) except for // -1 of the least one; a 0 or -1
** divisor takes the full-width operation (errors, number.c) */
/* floor modulo/division for b not in {-1, 0} (no error, no overflow) */
static inline int64_t floor_mod(int64_t a, int64_t b) {
  int64_t r = a % b;
  if (r != 0 && (r ^ b) < 0) r += b;
  return r;
}
static inline int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a ^ b) < 0)) q--;
  return q;
}
#define divisor_ok(b)  ((uint64_t)(b) + 1u > 1u)   /* b not in {-1, 0} */

/* The last pair of immediates divided by // or %, with both results
** (shifted, as imm_op's s).  One hardware division yields quotient and
** remainder; programs that want both write 'x // b' and 'x % b' (digits,
** limbs, row/column), and the second of the pair then costs two compares
** instead of a division (a 64-bit divide is 15-45 cycles and not
** pipelined).  Per thread (lua_State.divmod).  Keyed by the operand words only: immediates are plain
** values, so an entry never goes stale (no invalidation on calls, GC or
** coroutine switches; word 0 is never a value, so the empty cache never
** matches). */
typedef struct DivModCache DivModCache;

/* floor quotient and remainder of the immediates a, b (b not in {-1, 0}),
** shifted */
static inline void imm_divmod(Value a, Value b, int64_t *qs, int64_t *rs) {
  int64_t x = v_getimmint(a), y = v_getimmint(b);
  int64_t q = x / y, r = x % y;
  if (r != 0 && (r ^ y) < 0) { r += y; q--; }   /* floor: see floor_div */
  *qs = (int64_t)((uint64_t)q << 16); *rs = (int64_t)((uint64_t)r << 16);
}

/* each operation leaves the OTHER result for its partner: % caches the
** quotient for a following //, // the remainder for a following % (three
** stores instead of four on a miss) */
static inline int imm_mod(DivModCache *c, Value a, Value b, int64_t *s) {
  int64_t q;
  if (a == c->ra && b == c->rb) { *s = c->r; return 0; }
  if (l_unlikely(!divisor_ok(v_getimmint(b)))) return 1;
  imm_divmod(a, b, &q, s);
  c->qa = a; c->qb = b; c->q = q;
  return 0;
}

static inline int imm_idiv(DivModCache *c, Value a, Value b, int64_t *s) {
  int64_t r;
  if (a == c->qa && b == c->qb) { *s = c->q; return 0; }
  if (l_unlikely(!divisor_ok(v_getimmint(b)))) return 1;
  imm_divmod(a, b, s, &r);
  c->ra = a; c->rb = b; c->r = r;
  return 0;
}

/* floor modulo/division inline; 0 and -1 divisors go to number.c */
static inline int64_t int_mod(lua_State *L, int64_t a, int64_t b) {
  return l_likely(divisor_ok(b)) ? floor_mod(a, b) : vm_mod(L, a, b);
}

static inline int64_t int_idiv(lua_State *L, int64_t a, int64_t b) {
  return l_likely(divisor_ok(b)) ? floor_div(a, b) : vm_idiv(L, a, b);
}

/* Registers, constants and upvalues always hold a Lua value, never the
** internal word 0 (value.h; the collector clears dead stack slots to nil),
** so the interpreter's reference test on them drops v_isref's != 0 test. */
static inline int reg_isref(Value v) { return (v & 0xFFFF000000000007ULL) == 0; }
static inline int reg_istable(Value v) {
  return reg_isref(v) && v_gc(v)->tt == MVM_TTABLE;
}

/* v_isfloat as one subtraction and compare on the whole word (tags
** 0x0002..0xFFFA); in op_arith it keeps gcc from keeping v_isfloat's tag
** for the later mixed-type tests, which spilled it */
static inline int word_isfloat(Value v) {
  return v - 0x0002000000000000ULL < 0xFFF9000000000000ULL;
}

/* A value equal only to its own word: nil, a boolean or a (interned)
** string.  Two distinct words of which one is such a value are unequal
** without vm_equalobj: no number conversion and no __eq can apply. */
static inline int eq_byword(Value v) {
  return v < 8 || (reg_isref(v) && v_gc(v)->tt == MVM_TSTRING);
}

/* The array index (key - 1) of a key word, as an unsigned number that is
** below any array size unless the key is an immediate integer >= 1: the
** word minus the word of 1 is n - 1 for an immediate n >= 1, at least
** 2^47 for a negative or zero immediate (payload bit 47 set, or the
** borrow from 0), and wraps past 2^48 for every other word (all below the
** integer tag).  One subtraction for v_isimmint, decoding and the - 1. */
static inline uint64_t arr_index(Value kv) {
  return kv - (MVM_TAG_INT | 1u);
}

/* both words immediate integers: the tag 0xFFFF is all ones, so it
** survives the AND of two words exactly when both carry it (one test and
** one branch instead of two) */
static inline int both_imm(Value a, Value b) { return v_isimmint(a & b); }

#define RA(i)     (base + GETARG_A(i))
#define savepc()  (ci->u.l.savedpc = pc)

/*
** THE safe point.  'settop': also set L->top = ci->top (every operation
** except those whose operands end at L->top: calls, concat, varargs).
** Afterwards reload everything that a collection or a stack reallocation
** may have invalidated.
*/
#define VM_SAFE(settop, exp) do { \
    savepc(); \
    if (settop) L->top = ci->top; \
    exp; \
    trap = ci->u.l.trap; \
    base = ci->func + 1; \
    cl = v_lcl(*ci->func); \
  } while (0)
#define Protect(exp)    VM_SAFE(1, exp)
#define ProtectNT(exp)  VM_SAFE(0, exp)

#define updatetrap(ci)  (trap = (ci)->u.l.trap)

/* store an integer result into R[A]; boxing allocates */
#define setint_ra(i, val) do { \
    int64_t iv_ = (val); \
    if (l_likely(v_fitsimm(iv_))) base[GETARG_A(i)] = v_immint(iv_); \
    else { Value bx_; Protect(bx_ = vm_mkint(L, iv_)); base[GETARG_A(i)] = bx_; } \
  } while (0)

/* type feedback for the JIT (p->feedback is NULL until the JIT asks) */
/* (decided by the tag word first: numbers, the common operands, cost a
** compare and a conditional move, no load; the chain of v_is* tests it
** replaces cost ~35 instructions per recorded operation, and a float loop
** that recorded feedback without ever being compiled ran +48% instructions
** over -j off: bench/extra2/heat.lua's wave loop) */
static inline uint8_t fb_refkind(Value v) {
  int tt;
  if (!v_isref(v)) return MVM_FB_OTHER;   /* (nil, booleans) */
  tt = v_gc(v)->tt;
  return tt == MVM_TSTRING ? MVM_FB_STR : tt == MVM_TTABLE ? MVM_FB_TABLE
       : tt == MVM_TBIGINT ? MVM_FB_INT : MVM_FB_OTHER;
}
static inline uint8_t fb_kind(Value v) {
  uint64_t t = v >> 48;   /* 0xFFFF immediate integer, 2..0xFFFA float */
  if (l_likely(t != 0))
    return t == 0xFFFF ? MVM_FB_INT : t <= 0xFFFA ? MVM_FB_FLOAT : MVM_FB_OTHER;
  return fb_refkind(v);
}
#define FEEDBACK(v1, v2) \
  { if (l_unlikely(fb != NULL)) fb[pc - 1 - cl->p->code] |= (uint8_t)(fb_kind(v1) | fb_kind(v2)); }
/* a fact about the instruction (MVM_FB_INTHASH: an integer key was not
** in the array part of the table indexed; MVM_FB_NILSLOT: a store found
** a nil there) */
#define FEEDBACK_BIT(bit) \
  { if (l_unlikely(fb != NULL)) fb[pc - 1 - cl->p->code] |= (bit); }
/* GETTABLE/SETTABLE's key 'kv' missed the array part: what it was (a key
** that hit it was an integer) */
#define FEEDBACK_KEY(kv) \
  { if (l_unlikely(fb != NULL)) \
      fb[pc - 1 - cl->p->code] |= v_isimmint(kv) ? MVM_FB_INTHASH \
                                 : v_isstring(kv) ? MVM_FB_STR : MVM_FB_OTHER; }

/* loop back-edge: one decrement and sign test of L->becount (state.h),
** the same in every JIT mode.  At its expiry (every JIT_OSR_EVERY
** back-edges of the thread with the JIT on, every VM_BEPERIOD with it off,
** or at once after mvm_interrupt or lua_sethook) the running proto's hotcount grows by as
** many (a sample: the proto running when it expires gets the counts,
** which puts them where the loops run), a pending interrupt is raised (an
** interrupt is asynchronous: a few dozen iterations late is in time) and,
** with the JIT on, a function that is not known to stay interpreted is
** compiled if the policy says so (jit_osr; p->jitedges spaces out the
** looks at a proto, see jit.c), and its compiled code is entered at the
** loop header 'pc' (an entry point of every compiled function), exactly
** like an entry at the start; never under hooks.  'from' is the pc before
** the jump (just past the jumping instruction): the error is raised
** there, so that it is reported at the loop's own line and not at the
** instruction before the loop's start (which may not exist: line -1). */
#define VM_BEPERIOD  1024
/* -j off: calls of a function without compiled code between two looks at
** it (startfunc) */
#define VM_OFFLOOK   65536u
#define BACKEDGE(from) { \
    if (l_unlikely(--L->becount < 0)) { \
      Proto *p_ = cl->p; \
      int jm_ = G(L)->jitmode; \
      L->becount = (jm_ != 0 ? JIT_OSR_EVERY : VM_BEPERIOD) - 1; \
      p_->hotcount += jm_ != 0 ? JIT_OSR_EVERY : VM_BEPERIOD;   /* (only read by the JIT policy) */ \
      updatetrap(ci);   /* a hook set asynchronously (lua_sethook) */ \
      if (l_unlikely(G(L)->interrupt)) { \
        G(L)->interrupt = 0; \
        pc = (from); \
        Protect(dbg_runerror(L, "interrupted")); \
      } \
      if (jm_ != 0 && p_->jitcode != JIT_NOCODE && !L->hookmask && --p_->jitedges < 0) { \
        p_->jitedges = 0; \
        savepc(); \
        if (jit_osr(L, p_)) goto runjit; \
      } \
      fb = p_->feedback;   /* (the policy may have started or stopped it: \
                           ** this activation records from now on, or not) */ \
    } \
  }

/* jump to the target of jump instruction 'ni' (+ e).  (Jumps and loops
** do not reload 'trap' themselves: a hook set while the function runs is
** set by a call, after which 'trap' is reloaded, or asynchronously by
** lua_sethook, which makes the next back-edge look (BACKEDGE).) */
#define dojump(ni, e) { \
    int off_ = GETARG_sJ(ni) + (e); \
    pc += off_; \
    if (off_ < 0) BACKEDGE(pc - off_); \
  }
#define donextjump()   { Instruction ni_ = *pc; dojump(ni_, 1); }
#define docondjump(cond) { if ((cond) != GETARG_k(i)) pc++; else donextjump(); }

/*
** Float operands and results of the arithmetic fast paths.  Decoding a float
** is an integer subtraction of the 2^49 offset; doing it in a vector
** register (SSE2) keeps the value out of the general registers, which
** shortens the dependency chain of float-heavy loops by two
** general<->vector moves per operation.  The type tests still use the
** words loaded into general registers (off the critical path).
**
** flt_store_arith stores the result of +, -, * or / of canonical operands
** WITHOUT re-canonicalising NaN: IEEE hardware returns either one of its
** (quieted) NaN operands, which are canonical already, or its default NaN,
** which is canonical too (x86: sign set, quiet bit only = -nan, what
** v_float makes of it; AArch64: +nan).  Other platforms, and results of
** library functions (fmod, pow, floor), go through v_float.
*/
#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h>
static inline double flt_load(const Value *p) {
  /* psubq of the same constant flt_store_arith adds (gcc would turn the
  ** subtraction into paddq of a second, negated constant: one more load) */
  __m128i x = _mm_loadl_epi64((const __m128i *)p);
  __m128i off = _mm_cvtsi64_si128((long long)MVM_DOUBLE_OFFSET);
  __asm__("psubq %1, %0" : "+x"(x) : "x"(off));
  return _mm_cvtsd_f64(_mm_castsi128_pd(x));
}
static inline void flt_store_arith(Value *p, double d) {
  /* paddq on the register holding d (the intrinsics would first zero its
  ** upper half, one more step on the chain) */
  __m128i off = _mm_cvtsi64_si128((long long)MVM_DOUBLE_OFFSET);
  __asm__("paddq %1, %0" : "+x"(d) : "x"(off));
  memcpy(p, &d, sizeof d);
}
#else
static inline double flt_load(const Value *p) { return v_getfloat(*p); }
#if defined(__aarch64__)
static inline void flt_store_arith(Value *p, double d) {
  uint64_t b; memcpy(&b, &d, sizeof b); *p = b + MVM_DOUBLE_OFFSET;
}
#else
static inline void flt_store_arith(Value *p, double d) { *p = v_float(d); }
#endif
#endif
/* store of a float result: exact IEEE op (1) or anything else (0) */
#define flt_store(exact, p, d) \
  do { if (exact) flt_store_arith(p, d); else *(p) = v_float(d); } while (0)

/* arithmetic on the operands at p1, p2: integers (wrapping), then floats;
** otherwise fall into the following MMBIN instruction.  'fx': the float
** operation is an exact IEEE one (see flt_store_arith). */
#define op_arith_aux(p1, p2, iop, fop, fx) { \
    Value v1 = *(p1), v2 = *(p2); \
    double d1_, d2_; \
    FEEDBACK(v1, v2); \
    if (both_imm(v1, v2)) { \
      int64_t s_; \
      Value *ra_ = base + GETARG_A(i);   /* (before the operation: its jo) */ \
      pc++; \
      if (l_unlikely(iop##_imm(v1, v2, &s_))) \
        setint_ra(i, iop(L, v_getimmint(v1), v_getimmint(v2))); \
      else *ra_ = imm_word(s_); \
    } \
    else if (word_isfloat(v1) && word_isfloat(v2)) { \
      pc++; flt_store(fx, base + GETARG_A(i), fop(L, flt_load(p1), flt_load(p2))); \
    } \
    else if (num_imm(v1, &d1_) && num_imm(v2, &d2_)) {  /* int op float */ \
      pc++; flt_store(fx, base + GETARG_A(i), fop(L, d1_, d2_)); \
    } \
    else if (v_isinteger(v1) && v_isinteger(v2)) { \
      int64_t r_ = iop(L, v_getint(v1), v_getint(v2)); \
      pc++; setint_ra(i, r_); \
    } \
    else if (tonum_ns(v1, &d1_) && tonum_ns(v2, &d2_)) { \
      pc++; flt_store(fx, base + GETARG_A(i), fop(L, d1_, d2_)); \
    } }

/* float-only operations (/ and ^) */
#define op_arithf_aux(p1, p2, fop, fx) { \
    Value v1 = *(p1), v2 = *(p2); \
    double d1_, d2_; \
    FEEDBACK(v1, v2); \
    if (v_isfloat(v1) && v_isfloat(v2)) { \
      pc++; flt_store(fx, base + GETARG_A(i), fop(L, flt_load(p1), flt_load(p2))); \
    } \
    else if (tonum_ns(v1, &d1_) && tonum_ns(v2, &d2_)) { \
      pc++; flt_store(fx, base + GETARG_A(i), fop(L, d1_, d2_)); \
    } }

/* bitwise: integers and floats with an exact integer value */
#define op_bitwise_aux(v1, v2, op) { \
    int64_t i1_, i2_; \
    FEEDBACK(v1, v2); \
    if (both_imm(v1, v2)) { \
      pc++; setint_ra(i, op(v_getimmint(v1), v_getimmint(v2))); \
    } \
    else if (vm_tointegerns(v1, &i1_, F2Ieq) && vm_tointegerns(v2, &i2_, F2Ieq)) { \
      pc++; setint_ra(i, op(i1_, i2_)); \
    } }

/* whole handlers of the binary arithmetic/bitwise instructions: operand B
** is a register, operand C a register ('from' = base) or a constant
** ('from' = k); on success the next instruction (the MMBIN*) is skipped */
#define op_arith(from, iop, fop, fx) { \
  Value *p1 = base + GETARG_B(i), *p2 = (from) + GETARG_C(i); \
  op_arith_aux(p1, p2, iop, fop, fx); \
  vmbreak; }
#define op_arithf(from, fop, fx) { \
  Value *p1 = base + GETARG_B(i), *p2 = (from) + GETARG_C(i); \
  op_arithf_aux(p1, p2, fop, fx); \
  vmbreak; }
#define op_bitwise(from, op) { \
  Value v1 = base[GETARG_B(i)], v2 = (from)[GETARG_C(i)]; \
  op_bitwise_aux(v1, v2, op); \
  vmbreak; }

/* order comparisons: integers, numbers, then generic */
#define op_order(iop, nop, other) { \
    Value va_ = *ra, vb_ = base[GETARG_B(i)]; \
    double d1_, d2_; \
    int cond_; \
    FEEDBACK(va_, vb_); \
    if (both_imm(va_, vb_)) \
      cond_ = (v_getimmint(va_) iop v_getimmint(vb_)); \
    else if (word_isfloat(va_) && word_isfloat(vb_)) \
      cond_ = (v_getfloat(va_) iop v_getfloat(vb_)); \
    else if (num_imm(va_, &d1_) && num_imm(vb_, &d2_))  /* (exact: |imm| < 2^47) */ \
      cond_ = (d1_ iop d2_); \
    else if (v_isnumber(va_) && v_isnumber(vb_)) \
      cond_ = nop(va_, vb_); \
    else \
      Protect(cond_ = other(L, ra, base + GETARG_B(i))); \
    docondjump(cond_); }

/* comparisons with an immediate sB */
#define op_orderI(iop, inv, tm) { \
    Value va_ = *ra; \
    int im_ = GETARG_sB(i); \
    int cond_; \
    FEEDBACK(va_, va_); \
    if (v_isimmint(va_)) cond_ = (v_getimmint(va_) iop im_); \
    else if (v_isfloat(va_)) cond_ = (v_getfloat(va_) iop (double)im_); \
    else if (v_isbigint(va_)) cond_ = (v_getint(va_) iop im_); \
    else { \
      int isf_ = GETARG_C(i); \
      Protect(cond_ = meta_callorderiTM(L, ra, im_, inv, isf_, tm)); \
    } \
    docondjump(cond_); }

#if defined(__GNUC__) && !defined(MVM_NO_JUMPTABLE)
#define MVM_USE_JUMPTABLE 1
#else
#define MVM_USE_JUMPTABLE 0
#endif

/* vmbreak is two statements with the jump table (and a bare 'break'
** without it, so it cannot be wrapped in do-while): after an 'if', brace
** it -- `if (c) vmbreak;` dispatches the same instruction again without
** fetching when c is false, an endless loop. */
#if MVM_USE_JUMPTABLE
#define vmdispatch(o)  goto *disptab[o];
#define vmcase(l)      L_OP_##l:
#define vmbreak        vmfetch(); vmdispatch(GET_OPCODE(i));
#else
#define vmdispatch(o)  switch (o)
#define vmcase(l)      case OP_##l:
#define vmbreak        break
#endif

/* (a line or count hook runs Lua code, which may collect and move the
** running closure: 'cl' is reloaded with 'base') */
#define vmfetch() { \
    if (l_unlikely(trap)) { \
      trap = dbg_traceexec(L, pc); \
      base = ci->func + 1; \
      cl = v_lcl(*ci->func); \
    } \
    i = *(pc++); \
  }

void vm_execute(lua_State *L, CallInfo *ci) {
  LClosure *cl;
  Value *k;
  Value *base;
  const Instruction *pc;
  uint8_t *fb;
  int trap;
#if MVM_USE_JUMPTABLE
  static const void *const disptab[NUM_OPCODES] = {
#define MVM_OPLABEL(name, mode, a, t, it, ot, mm) &&L_OP_##name,
    MVM_OPCODES(MVM_OPLABEL)
#undef MVM_OPLABEL
  };
#endif
 startfunc:
  trap = L->hookmask;
  {
    /* tier-up: run the function's compiled code, if any (never under
    ** hooks; only from the first instruction) */
    Proto *p_ = v_lcl(*ci->func)->p;
    /* (a frame resumed after a yield comes here too: in a cold function
    ** it costs this test only, in every JIT mode) */
    if (l_unlikely(p_->hotcount >= p_->jitlook)) {
      if (p_->jitcode == NULL && G(L)->jitmode == 0) {
        /* -j off, no code: nothing to look at for VM_OFFLOOK calls (a
        ** look now and then hands p to the policy after jit.on()) */
        p_->jitlook = p_->hotcount < UINT32_MAX - VM_OFFLOOK ? p_->hotcount + VM_OFFLOOK
                                                             : UINT32_MAX;
      }
      else if (ci->u.l.savedpc != p_->code) {
        /* resumed after a yield: no look; the next call of p looks again
        ** (a generator's body, called once, whose back-edges took its
        ** hotcount past jitlook, skips this at its other resumes) */
        if (p_->hotcount < UINT32_MAX) p_->jitlook = p_->hotcount + 1;
      }
      else if (!trap) {
        if (p_->jitcode == NULL)
          jit_trycompile(L, p_);
        if (jit_hascode(p_))
          goto runjit;
      }
    }
  }
  goto returning;
 runjit:
  switch (jit_run(L, ci, v_lcl(*ci->func)->p)) {
    case JIT_RETURNED:
      goto ret;
    case JIT_TAILCALLED:
      /* compiled code made a tail call: 'ci' holds the Lua callee */
      goto startfunc;
    case JIT_CALLED:
      /* compiled code pushed a Lua call: run it here (no C recursion);
      ** when it returns, 'returning' re-enters the compiled caller */
      ci->callstatus |= CIST_JIT;
      ci = L->ci;
      goto startfunc;
    default:   /* JIT_EXITED: interpret on from ci->u.l.savedpc */
      trap = L->hookmask;
      break;
  }
 returning:
  if (l_unlikely(ci->callstatus & CIST_JIT)) {
    /* back in a compiled frame that made a call: resume its code after
    ** the CALL (every register is in the stack), unless hooks are on or
    ** its code was flushed, in which case the interpreter continues */
    ci->callstatus &= (unsigned short)~CIST_JIT;
    if (!L->hookmask && jit_hascode(v_lcl(*ci->func)->p))
      goto runjit;
  }
  cl = v_lcl(*ci->func);
  k = cl->p->k;
  fb = cl->p->feedback;
  pc = ci->u.l.savedpc;
  if (l_unlikely(trap)) {
    if (pc == cl->p->code) {       /* entering (not resuming) */
      if (cl->p->is_vararg)
        trap = 0;                  /* the call hook runs after VARARGPREP */
      else {
        do_hookcall(L, ci);
        cl = v_lcl(*ci->func);     /* (the hook may have moved it) */
      }
    }
    ci->u.l.trap = 1;
  }
  base = ci->func + 1;
  for (;;) {
    Instruction i;
    vmfetch();
    vmdispatch(GET_OPCODE(i)) {
      vmcase(MOVE) {
        base[GETARG_A(i)] = base[GETARG_B(i)];
        vmbreak;
      }
      vmcase(LOADI) {
        base[GETARG_A(i)] = v_immint(GETARG_sBx(i));
        vmbreak;
      }
      vmcase(LOADF) {
        base[GETARG_A(i)] = v_float((double)GETARG_sBx(i));
        vmbreak;
      }
      vmcase(LOADK) {
        base[GETARG_A(i)] = k[GETARG_Bx(i)];
        vmbreak;
      }
      vmcase(LOADKX) {
        base[GETARG_A(i)] = k[GETARG_Ax(*pc)];
        pc++;
        vmbreak;
      }
      vmcase(LOADFALSE) {
        base[GETARG_A(i)] = MVM_FALSE;
        vmbreak;
      }
      vmcase(LFALSESKIP) {
        base[GETARG_A(i)] = MVM_FALSE;
        pc++;
        vmbreak;
      }
      vmcase(LOADTRUE) {
        base[GETARG_A(i)] = MVM_TRUE;
        vmbreak;
      }
      vmcase(LOADNIL) {
        Value *ra = RA(i);
        int b = GETARG_B(i);
        do { *ra++ = MVM_NIL; } while (b--);
        vmbreak;
      }
      vmcase(GETUPVAL) {
        base[GETARG_A(i)] = *cl->upvals[GETARG_B(i)]->v;
        vmbreak;
      }
      vmcase(SETUPVAL) {
        UpVal *uv = cl->upvals[GETARG_B(i)];
        Value v = base[GETARG_A(i)];
        if (upisopen(uv)) *uv->v = v;   /* NOBARRIER: a stack slot */
        else gc_write(G(L), (GCObject *)uv, uv->v, v);
        vmbreak;
      }
      vmcase(GETTABUP) {
        const Value *upv = cl->upvals[GETARG_B(i)]->v;
        Value *key = k + GETARG_C(i);
        const Value *slot = NULL;
        if (reg_istable(*upv)) {
          const Value *s2;
          slot = tab_getstr(v_tab(*upv), v_str(*key));
          if (!isempty(slot)) { base[GETARG_A(i)] = *slot; vmbreak; }
          if (v_tab(*upv)->metatable != NULL &&   /* (an object held in an upvalue) */
              (s2 = index_table(L, v_tab(*upv), v_str(*key))) != NULL) {
            base[GETARG_A(i)] = *s2;
            vmbreak;
          }
        }
        Protect(vm_finishget(L, upv, key, RA(i), slot));
        vmbreak;
      }
      vmcase(GETTABLE) {
        Value *rb = base + GETARG_B(i);
        Value *rc = base + GETARG_C(i);
        const Value *slot = NULL;
        if (reg_istable(*rb)) {
          Table *t = v_tab(*rb);
          Value kv = *rc;
          uint64_t n1 = arr_index(kv);
          if (l_likely(n1 < (uint64_t)t->asize)) {   /* an integer key in the array part */
            Value v = t->array[n1];
            if (l_likely(!v_isnil(v) || t->metatable == NULL)) {
              base[GETARG_A(i)] = v;
              vmbreak;
            }
          }
          else FEEDBACK_KEY(kv);
          slot = rawget_any(t, kv);
          if (!isempty(slot)) { base[GETARG_A(i)] = *slot; vmbreak; }
          if (t->metatable == NULL) { base[GETARG_A(i)] = MVM_NIL; vmbreak; }  /* raw miss */
        }
        Protect(vm_finishget(L, rb, rc, RA(i), slot));
        vmbreak;
      }
      vmcase(GETI) {
        Value *rb = base + GETARG_B(i);
        int c = GETARG_C(i);
        const Value *slot = NULL;
        if (reg_istable(*rb)) {
          if ((unsigned)c - 1u >= v_tab(*rb)->asize) FEEDBACK_BIT(MVM_FB_INTHASH);
          slot = rawget_int(v_tab(*rb), c);
          if (!isempty(slot)) { base[GETARG_A(i)] = *slot; vmbreak; }
          if (v_tab(*rb)->metatable == NULL) { base[GETARG_A(i)] = MVM_NIL; vmbreak; }  /* raw miss */
        }
        {
          Value key = v_immint(c);
          Protect(vm_finishget(L, rb, &key, RA(i), slot));
        }
        vmbreak;
      }
      vmcase(GETFIELD) {
        Value *rb = base + GETARG_B(i);
        Value *key = k + GETARG_C(i);
        const Value *slot = NULL;
        if (reg_istable(*rb)) {
          const Value *s2;
          slot = tab_getstr(v_tab(*rb), v_str(*key));
          if (!isempty(slot)) { base[GETARG_A(i)] = *slot; vmbreak; }
          if (v_tab(*rb)->metatable == NULL) { base[GETARG_A(i)] = MVM_NIL; vmbreak; }  /* raw miss */
          if ((s2 = index_table(L, v_tab(*rb), v_str(*key))) != NULL) {
            base[GETARG_A(i)] = *s2;
            vmbreak;
          }
        }
        Protect(vm_finishget(L, rb, key, RA(i), slot));
        vmbreak;
      }
      vmcase(SETTABUP) {
        const Value *upv = cl->upvals[GETARG_A(i)]->v;
        Value *key = k + GETARG_B(i);
        Value *rc = GETARG_k(i) ? k + GETARG_C(i) : base + GETARG_C(i);
        const Value *slot = NULL;
        if (reg_istable(*upv)) {
          Table *t = v_tab(*upv);
          slot = tab_getstr(t, v_str(*key));
          if (!isempty(slot)) { tab_setstrslot(L, t, slot, *rc); vmbreak; }
        }
        Protect(vm_finishset(L, upv, key, rc, slot));
        vmbreak;
      }
      vmcase(SETTABLE) {
        Value *ra = RA(i);
        Value *rb = base + GETARG_B(i);
        Value *rc = GETARG_k(i) ? k + GETARG_C(i) : base + GETARG_C(i);
        const Value *slot = NULL;
        if (reg_istable(*ra)) {
          Table *t = v_tab(*ra);
          Value kv = *rb;
          uint64_t n1 = arr_index(kv);
          {
            if (l_likely(n1 < (uint64_t)t->asize)) {
              Value *s = &t->array[n1];
              /* over a value: only a nil moves the length hint */
              if (l_likely(!v_isnil(*s))) {
                if (l_unlikely(v_isnil(*rc))) tab_lenset(t, n1 + 1, 1);
                vm_arrstore(L, t, s, *rc);
                vmbreak;
              }
              /* a nil slot is a raw store too when no __newindex can run */
              FEEDBACK_BIT(MVM_FB_NILSLOT);
              if (t->metatable == NULL) {
                if (!v_isnil(*rc)) tab_lenset(t, n1 + 1, 0);
                vm_arrstore(L, t, s, *rc);
                vmbreak;
              }
              slot = s;
              goto settable_finish;
            }
          }
          FEEDBACK_KEY(kv);
          slot = rawget_any(t, kv);
          if (!isempty(slot)) { tab_setslot(L, t, slot, *rc); vmbreak; }
          if (v_isimmint(kv) && t->metatable == NULL) {   /* new integer key, raw */
            /* (an absent key needs no second lookup: tab_setnew) */
            if (isabstkey(slot)) Protect(tab_setnew(L, t, kv, *rc));
            else Protect(tab_setint(L, t, v_getimmint(kv), *rc));
            vmbreak;
          }
        }
       settable_finish:
        Protect(vm_finishset(L, ra, rb, rc, slot));
        vmbreak;
      }
      vmcase(SETI) {
        Value *ra = RA(i);
        int b = GETARG_B(i);
        Value *rc = GETARG_k(i) ? k + GETARG_C(i) : base + GETARG_C(i);
        const Value *slot = NULL;
        if (reg_istable(*ra)) {
          Table *t = v_tab(*ra);
          if (l_likely((unsigned)b - 1u < t->asize)) {
            Value *s = &t->array[b - 1];
            if (l_likely(!v_isnil(*s))) {   /* as SETTABLE */
              if (l_unlikely(v_isnil(*rc))) tab_lenset(t, (uint64_t)b, 1);
              vm_arrstore(L, t, s, *rc);
              vmbreak;
            }
            FEEDBACK_BIT(MVM_FB_NILSLOT);
            if (t->metatable == NULL) {
              if (!v_isnil(*rc)) tab_lenset(t, (uint64_t)b, 0);
              vm_arrstore(L, t, s, *rc);
              vmbreak;
            }
            slot = s;
          }
          else {
            FEEDBACK_BIT(MVM_FB_INTHASH);
            slot = rawget_int(t, b);
            if (!isempty(slot)) { tab_setslot(L, t, slot, *rc); vmbreak; }
          }
        }
        {
          Value key = v_immint(b);
          Protect(vm_finishset(L, ra, &key, rc, slot));
        }
        vmbreak;
      }
      vmcase(SETFIELD) {
        Value *ra = RA(i);
        Value *key = k + GETARG_B(i);
        Value *rc = GETARG_k(i) ? k + GETARG_C(i) : base + GETARG_C(i);
        const Value *slot = NULL;
        if (reg_istable(*ra)) {
          Table *t = v_tab(*ra);
          slot = tab_getstr(t, v_str(*key));
          if (!isempty(slot)) { tab_setstrslot(L, t, slot, *rc); vmbreak; }
          if (isabstkey(slot) && setnewfield(L, t, key, rc)) {
            vmbreak;
          }
        }
        Protect(vm_finishset(L, ra, key, rc, slot));
        vmbreak;
      }
      vmcase(NEWTABLE) {
        int a = GETARG_A(i);
        Instruction extra = *pc++;   /* skip the extra argument */
        Protect({
          base[a] = v_ref(vm_newtable(L, i, extra));  /* (stack never moves in a collection) */
          gc_check(L);
        });
        vmbreak;
      }
      vmcase(SELF) {
        Value *rb = base + GETARG_B(i);
        Value *rc = GETARG_k(i) ? k + GETARG_C(i) : base + GETARG_C(i);
        Value obj = *rb;
        const Value *slot = NULL;
        base[GETARG_A(i) + 1] = obj;
        if (reg_istable(obj)) {
          const Value *s2;
          slot = tab_getstr(v_tab(obj), v_str(*rc));
          if (!isempty(slot)) { base[GETARG_A(i)] = *slot; vmbreak; }
          if (v_tab(obj)->metatable != NULL &&
              (s2 = index_table(L, v_tab(obj), v_str(*rc))) != NULL) {
            base[GETARG_A(i)] = *s2;   /* a method of the object's class */
            vmbreak;
          }
        }
        else if (v_isstring(obj)) {   /* s:sub(...): the string metatable's __index */
          const Value *s2 = index_string(L, v_str(*rc));
          if (s2 != NULL) { base[GETARG_A(i)] = *s2; vmbreak; }
        }
        Protect(vm_finishget(L, rb, rc, RA(i), slot));
        vmbreak;
      }
      vmcase(ADDI) {
        Value v1 = base[GETARG_B(i)];
        int imm = GETARG_sC(i);
        FEEDBACK(v1, v1);
        if (v_isimmint(v1)) {
          int64_t s;
          Value *ra = base + GETARG_A(i);   /* (before the addition: its jo) */
          pc++;
          if (l_unlikely(imm_add(v1, v_immint(imm), &s))) setint_ra(i, v_getimmint(v1) + imm);
          else *ra = imm_word(s);
        }
        else if (v_isfloat(v1)) {
          pc++; flt_store_arith(base + GETARG_A(i), flt_load(base + GETARG_B(i)) + (double)imm);
        }
        else if (v_isbigint(v1)) {
          pc++; setint_ra(i, l_iadd(L, v_getint(v1), imm));
        }
        vmbreak;
      }
      vmcase(ADDK) op_arith(k, l_iadd, l_fadd, 1)
      vmcase(SUBK) op_arith(k, l_isub, l_fsub, 1)
      vmcase(MULK) op_arith(k, l_imul, l_fmul, 1)
      vmcase(MODK) op_arith(k, l_imod, l_fmod, 0)
      vmcase(POWK) op_arithf(k, l_fpow, 0)
      vmcase(DIVK) op_arithf(k, l_fdiv, 1)
      vmcase(IDIVK) op_arith(k, l_iidiv, l_fidiv, 0)
      vmcase(BANDK) op_bitwise(k, l_band)
      vmcase(BORK) op_bitwise(k, l_bor)
      vmcase(BXORK) op_bitwise(k, l_bxor)
      vmcase(SHRI) {
        Value v1 = base[GETARG_B(i)];
        int64_t ib;
        FEEDBACK(v1, v1);
        if (v_isimmint(v1)) {
          pc++; setint_ra(i, vm_shiftl(v_getimmint(v1), -(int64_t)GETARG_sC(i)));
        }
        else if (vm_tointegerns(v1, &ib, F2Ieq)) {
          pc++; setint_ra(i, vm_shiftl(ib, -(int64_t)GETARG_sC(i)));
        }
        vmbreak;
      }
      vmcase(SHLI) {
        Value v1 = base[GETARG_B(i)];
        int64_t ib;
        FEEDBACK(v1, v1);
        if (v_isimmint(v1)) {
          pc++; setint_ra(i, vm_shiftl((int64_t)GETARG_sC(i), v_getimmint(v1)));
        }
        else if (vm_tointegerns(v1, &ib, F2Ieq)) {
          pc++; setint_ra(i, vm_shiftl((int64_t)GETARG_sC(i), ib));
        }
        vmbreak;
      }
      vmcase(ADD) op_arith(base, l_iadd, l_fadd, 1)
      vmcase(SUB) op_arith(base, l_isub, l_fsub, 1)
      vmcase(MUL) op_arith(base, l_imul, l_fmul, 1)
      vmcase(MOD) op_arith(base, l_imod, l_fmod, 0)
      vmcase(POW) op_arithf(base, l_fpow, 0)
      vmcase(DIV) op_arithf(base, l_fdiv, 1)
      vmcase(IDIV) op_arith(base, l_iidiv, l_fidiv, 0)
      vmcase(BAND) op_bitwise(base, l_band)
      vmcase(BOR) op_bitwise(base, l_bor)
      vmcase(BXOR) op_bitwise(base, l_bxor)
      vmcase(SHL) op_bitwise(base, l_shl)
      vmcase(SHR) op_bitwise(base, l_shr)
      vmcase(MMBIN) {
        Instruction pi = *(pc - 2);   /* the arithmetic instruction */
        Value *ra = RA(i);
        Value *rb = base + GETARG_B(i);
        TMS tm = (TMS)GETARG_C(i);
        Value *result = base + GETARG_A(pi);
        Protect(meta_trybinTM(L, ra, rb, result, tm));
        vmbreak;
      }
      vmcase(MMBINI) {
        Instruction pi = *(pc - 2);
        Value *ra = RA(i);
        int imm = GETARG_sB(i);
        TMS tm = (TMS)GETARG_C(i);
        int flip = GETARG_k(i);
        Value *result = base + GETARG_A(pi);
        Protect(meta_trybiniTM(L, ra, imm, flip, result, tm));
        vmbreak;
      }
      vmcase(MMBINK) {
        Instruction pi = *(pc - 2);
        Value *ra = RA(i);
        Value *imm = k + GETARG_B(i);
        TMS tm = (TMS)GETARG_C(i);
        int flip = GETARG_k(i);
        Value *result = base + GETARG_A(pi);
        Protect(meta_trybinassocTM(L, ra, imm, flip, result, tm));
        vmbreak;
      }
      vmcase(UNM) {
        Value *rb = base + GETARG_B(i);
        Value v = *rb;
        FEEDBACK(v, v);
        if (v_isinteger(v)) {
          setint_ra(i, (int64_t)(0u - (uint64_t)v_getint(v)));
        }
        else if (v_isfloat(v))
          base[GETARG_A(i)] = v_float(-v_getfloat(v));
        else
          Protect(meta_trybinTM(L, rb, rb, RA(i), TM_UNM));
        vmbreak;
      }
      vmcase(BNOT) {
        Value *rb = base + GETARG_B(i);
        int64_t ib;
        FEEDBACK(*rb, *rb);
        if (vm_tointegerns(*rb, &ib, F2Ieq)) {
          setint_ra(i, (int64_t)~(uint64_t)ib);
        }
        else
          Protect(meta_trybinTM(L, rb, rb, RA(i), TM_BNOT));
        vmbreak;
      }
      vmcase(NOT) {
        base[GETARG_A(i)] = v_bool(v_isfalsy(base[GETARG_B(i)]));
        vmbreak;
      }
      vmcase(LEN) {
        Value rb = base[GETARG_B(i)];
        /* a table without a metatable: tab_getn neither allocates nor
        ** raises errors */
        if (reg_isref(rb)) {
          GCObject *o = v_gc(rb);
          if (o->tt == MVM_TTABLE && ((Table *)o)->metatable == NULL) {
            lua_Unsigned n = tab_getn((Table *)o);
            if (l_likely(n <= (lua_Unsigned)MVM_IMM_MAX)) {
              *RA(i) = v_immint((int64_t)n);
              vmbreak;
            }
          }
          else if (o->tt == MVM_TSTRING) {   /* (len < MAXSTRLEN = 2^47 - 1) */
            *RA(i) = v_immint((int64_t)((TString *)o)->len);
            vmbreak;
          }
        }
        Protect(vm_objlen(L, RA(i), base + GETARG_B(i)));
        vmbreak;
      }
      vmcase(CONCAT) {
        int n = GETARG_B(i);
        L->top = RA(i) + n;   /* operands end at top */
        ProtectNT(vm_concat(L, n));
        Protect(gc_check(L));
        vmbreak;
      }
      vmcase(CLOSE) {
        Protect(func_close(L, RA(i), LUA_OK, 1));
        vmbreak;
      }
      vmcase(TBC) {
        Protect(func_newtbcupval(L, RA(i)));
        vmbreak;
      }
      vmcase(JMP) {
        dojump(i, 0);
        vmbreak;
      }
      vmcase(EQ) {
        Value *ra = RA(i);
        Value *rb = base + GETARG_B(i);
        int cond;
        if (same_value(*ra, *rb)) cond = 1;
        else if (both_imm(*ra, *rb) || eq_byword(*ra) || eq_byword(*rb)) cond = 0;
        else Protect(cond = vm_equalobj(L, ra, rb));
        docondjump(cond);
        vmbreak;
      }
      vmcase(LT) {
        Value *ra = RA(i);
        op_order(<, lt_num, vm_lessthan);
        vmbreak;
      }
      vmcase(LE) {
        Value *ra = RA(i);
        op_order(<=, le_num, vm_lessequal);
        vmbreak;
      }
      vmcase(EQK) {
        /* constants are numbers, strings, booleans or nil: raw equality */
        int cond = v_rawequal(base[GETARG_A(i)], k[GETARG_B(i)]);
        docondjump(cond);
        vmbreak;
      }
      vmcase(EQI) {
        Value va = base[GETARG_A(i)];
        int im = GETARG_sB(i);
        int cond;
        FEEDBACK(va, va);   /* (a numeric use for the JIT: llvmgen.c numuse) */
        if (v_isimmint(va)) cond = (v_getimmint(va) == im);
        else if (v_isfloat(va)) cond = (v_getfloat(va) == (double)im);
        else cond = 0;
        docondjump(cond);
        vmbreak;
      }
      vmcase(LTI) {
        Value *ra = RA(i);
        op_orderI(<, 0, TM_LT);
        vmbreak;
      }
      vmcase(LEI) {
        Value *ra = RA(i);
        op_orderI(<=, 0, TM_LE);
        vmbreak;
      }
      vmcase(GTI) {
        Value *ra = RA(i);
        op_orderI(>, 1, TM_LT);
        vmbreak;
      }
      vmcase(GEI) {
        Value *ra = RA(i);
        op_orderI(>=, 1, TM_LE);
        vmbreak;
      }
      vmcase(TEST) {
        int cond = !v_isfalsy(base[GETARG_A(i)]);
        docondjump(cond);
        vmbreak;
      }
      vmcase(TESTSET) {
        Value rb = base[GETARG_B(i)];
        if (v_isfalsy(rb) == GETARG_k(i)) pc++;
        else {
          base[GETARG_A(i)] = rb;
          donextjump();
        }
        vmbreak;
      }
      vmcase(CALL) {
        Value *ra = RA(i);
        CallInfo *newci;
        int n, wanted;
        int b = GETARG_B(i);
        int nresults = GETARG_C(i) - 1;
        if (b != 0) L->top = ra + b;   /* else the previous op set top */
        savepc();
        if (l_unlikely(G(L)->interrupt)) {
          G(L)->interrupt = 0;
          ProtectNT(dbg_runerror(L, "interrupted"));
        }
        if (l_likely(v_isLclosure(*ra))) {
          /* Lua callee with stack room and a spare CallInfo: do_precall's
          ** frame set-up, inline (the common case of every call) */
          Proto *p = v_lcl(*ra)->p;
          int narg = (int)(L->top - ra) - 1;
          int fsize = p->maxstacksize;
          if (l_likely(L->stack_last - L->top > fsize && ci->next != NULL)) {
            newci = ci->next;
            L->ci = newci;
            newci->func = ra;
            newci->nresults = (short)nresults;
            newci->callstatus = 0;
            newci->top = ra + 1 + fsize;
            newci->u.l.savedpc = p->code;
            newci->u.l.trap = 0;
            for (; narg < p->numparams; narg++)
              *L->top++ = MVM_NIL;
            p->hotcount++;
            p->ncalls++;
            ci = newci;
            /* startfunc: hooks, compiled code to run, or the JIT policy
            ** to ask once hotcount reaches jitlook (0 when p has code or
            ** is queued; a cold or declined function costs only this
            ** test, in every JIT mode) */
            if (l_unlikely(p->hotcount >= p->jitlook || L->hookmask))
              goto startfunc;
            /* plain interpreted entry: what startfunc and returning do
            ** for a fresh frame without compiled code or hooks */
            cl = v_lcl(*ra);
            k = p->k;
            fb = p->feedback;
            pc = p->code;
            base = ra + 1;
            trap = 0;
            vmbreak;
          }
        }
        else {
          /* C callee with stack room and a spare CallInfo, no hooks:
          ** precall_C's frame set-up and do_poscall for 0 or 1 results,
          ** inline */
          lua_CFunction f;
          if (v_islcf(*ra))
            f = v_lcf(*ra);
          else if (v_isCclosure(*ra)) {
            f = v_ccl(*ra)->f;
            /* (tested on C closures only: light C functions, most
            ** library calls, pay nothing for it) */
            if (l_unlikely(f == mvm_wrapfuncs[0])) goto wrapcall;
          }
          else
            f = NULL;
          if (f != NULL && l_likely(L->stack_last - L->top > LUA_MINSTACK &&
                                    ci->next != NULL && !L->hookmask)) {
            if (f == mvm_strbuiltins[0] && nresults == 1 && L->top == ra + 3 &&
                v_isstring(ra[1]) && v_isimmint(ra[2])) {
              /* string.byte(s, i) for one result, i in range: the byte,
              ** without a C frame (as compiled code's bytecall) */
              const TString *ts = v_str(ra[1]);
              uint64_t j = (uint64_t)v_getimmint(ra[2]) - 1u;
              if (j < ts->len) {
                *ra = v_immint((unsigned char)getstr(ts)[j]);
                L->top = ra + 1;
                vmbreak;
              }
            }
            else if (l_unlikely(f == mvm_baseassert[0]) && nresults == 0 &&
                     L->top > ra + 1 && !v_isfalsy(ra[1])) {
              /* assert(v, ...) as a statement, v true: nothing to do
              ** (no results wanted; the arguments are dead registers) */
              L->top = ra;
              vmbreak;
            }
            else if (l_unlikely(f == mvm_basesetmt[0]) && (unsigned)nresults <= 1u &&
                     vm_setmtinline(L, ra, (int)(L->top - ra) - 1)) {
              L->top = ra + nresults;
              vmbreak;
            }
            else if (l_unlikely(f == mvm_strsub[0]) && nresults == 1 &&
                     vm_subinline(L, ra, (int)(L->top - ra) - 1)) {
              /* string.sub(s, i [, j]) for one result, i >= 1, j >= 0: the
              ** result made without a C frame; str_new may collect (the
              ** frame's registers are marked up to ci->top; the stack
              ** never moves in a collection), gc_check may run finalizers */
              L->top = ra + 1;
              ProtectNT(gc_check(L));
              vmbreak;
            }
            newci = ci->next;
            vm_pushcframe(L, newci, ra, nresults);
            if (l_unlikely(f == mvm_yield) && L->nCcalls == L->basecalls) {
              /* coroutine.yield at the coroutine's base level (nothing
              ** but this activation between here and lua_resume): leave
              ** the state lua_yieldk leaves (the yield's C frame, the
              ** values to transfer on top) and return to lua_resume
              ** instead of a longjmp; unroll resumes this frame */
              newci->u2.nyield = (int)(L->top - ra) - 1;
              L->status = LUA_YIELD;
              return;
            }
            n = (*f)(L);
           cresults:
            /* (the results' place: the stack may have moved) */
            wanted = newci->nresults;   /* (lua_toclose may have marked it) */
            if (l_likely((unsigned)wanted <= 1u && !L->hookmask)) {
              Value *res = newci->func;
              if (wanted == 1) {
                *res = n > 0 ? L->top[-n] : MVM_NIL;
                res++;
              }
              L->top = res;
              L->ci = ci;
            }
            else if (wanted > 1 && !L->hookmask)
              vm_cretmove(L, ci, newci, n, wanted);
            else
              do_poscall(L, newci, n);
            updatetrap(ci);
            base = ci->func + 1;
            cl = v_lcl(*ci->func);
            vmbreak;
          }
        }
       gencall:
        if ((newci = do_precall(L, ra, nresults)) == NULL) {
          /* a C function ran: the stack may have moved */
          updatetrap(ci);
          base = ci->func + 1;
          cl = v_lcl(*ci->func);
        }
        else {
          ci = newci;
          goto startfunc;
        }
        vmbreak;
       wrapcall:
        /* a function made by coroutine.wrap: its resume made in the
        ** inline C call's frame, without wrap_call's own (vm_wrapresume) */
        if (l_likely(L->stack_last - L->top > LUA_MINSTACK &&
                     ci->next != NULL && !L->hookmask)) {
          newci = ci->next;
          vm_pushcframe(L, newci, ra, nresults);
          n = vm_wrapresume(L, ra);
          if (l_unlikely(n < 0))
            n = (*mvm_wrapfuncs[1])(L);   /* wrap_error: raises */
          goto cresults;
        }
        goto gencall;
      }
      vmcase(TAILCALL) {
        Value *ra = RA(i);
        int b = GETARG_B(i);
        int n;
        int nparams1 = GETARG_C(i);
        /* vararg functions: distance from the real to the virtual func */
        int delta = nparams1 ? ci->u.l.nextraargs + nparams1 : 0;
        if (b != 0) L->top = ra + b;
        else b = (int)(L->top - ra);
        savepc();
        if (l_unlikely(G(L)->interrupt)) {
          G(L)->interrupt = 0;
          ProtectNT(dbg_runerror(L, "interrupted"));
        }
        if (GETARG_k(i))
          func_closeupval(L, base);   /* no tbc variables can be pending */
        if (l_unlikely(v_islcf(*ra) && v_lcf(*ra) == mvm_basesetmt[0]) && !L->hookmask &&
            vm_setmtinline(L, ra, b - 1)) {
          /* a constructor's `return setmetatable(t, C)`: its one result
          ** returned as RETURN would (no C frame, no hook to see it) */
          L->top = ra + 1;
          ci->func -= delta;
          do_poscall(L, ci, 1);
          updatetrap(ci);
          goto ret;
        }
        if ((n = do_pretailcall(L, ci, ra, b, delta)) < 0)
          goto startfunc;             /* Lua callee reuses this frame */
        ci->func -= delta;            /* C callee already ran */
        do_poscall(L, ci, n);
        updatetrap(ci);
        goto ret;
      }
      vmcase(RETURN) {
        Value *ra = RA(i);
        int n = GETARG_B(i) - 1;
        int nparams1 = GETARG_C(i);
        if (n < 0) n = (int)(L->top - ra);
        savepc();
        if (GETARG_k(i)) {
          /* close upvalues and tbc variables, keeping the results */
          ci->u2.nres = n;
          if (L->top < ci->top) L->top = ci->top;
          func_close(L, base, CLOSEKTOP, 1);
          updatetrap(ci);
          base = ci->func + 1;
          ra = RA(i);
        }
        if (nparams1) ci->func -= ci->u.l.nextraargs + nparams1;
        if (l_likely(ci->nresults == 1 && !L->hookmask)) {
          /* one result wanted (a vararg function's usual return: its
          ** RETURN is never RETURN1): do_poscall inline */
          Value *res = ci->func;
          *res = n > 0 ? *ra : MVM_NIL;
          L->top = res + 1;
          L->ci = ci->previous;
          goto ret;
        }
        L->top = ra + n;
        do_poscall(L, ci, n);
        updatetrap(ci);
        goto ret;
      }
      vmcase(RETURN0) {
        if (l_unlikely(L->hookmask)) {
          L->top = RA(i);
          savepc();
          do_poscall(L, ci, 0);
          trap = 1;
        }
        else {
          int nres = ci->nresults;
          L->ci = ci->previous;
          L->top = base - 1;
          for (; l_unlikely(nres > 0); nres--)
            *L->top++ = MVM_NIL;
        }
        goto ret;
      }
      vmcase(RETURN1) {
        if (l_unlikely(L->hookmask)) {
          L->top = RA(i) + 1;
          savepc();
          do_poscall(L, ci, 1);
          trap = 1;
        }
        else {
          int nres = ci->nresults;
          L->ci = ci->previous;
          if (nres == 0)
            L->top = base - 1;
          else {
            base[-1] = base[GETARG_A(i)];
            L->top = base;
            for (; l_unlikely(nres > 1); nres--)
              *L->top++ = MVM_NIL;
          }
        }
        goto ret;
      }
      vmcase(FORLOOP) {
        Value *ra = RA(i);
        Value w0 = ra[0], w1 = ra[1], w2 = ra[2], n1 = w1 - 1;
        /* index and step immediates, the count an immediate in [1, 2^47):
        ** the AND of the index's and step's words and of the count's word
        ** minus 1 keeps the 0xFFFF tag exactly when all three are
        ** immediates and the count is not 0 (an immediate 0 minus 1 has
        ** tag 0xFFFE; no other valid word minus 1 gains tag 0xFFFF), and
        ** bit 47 is the count's sign (a huge unsigned count is stored
        ** negative).  The count's word minus 1 is then the count minus 1,
        ** and the index plus the step is imm_add's.  Everything else
        ** (the loop's end included) takes the general integer step */
        if (l_likely(v_isimmint(w0 & n1 & w2) && !(w1 & (1ULL << 47)))) {
          int64_t s;
          ra[1] = n1;
          if (l_likely(!imm_add(w0, w2, &s))) {
            ra[0] = imm_word(s);
            ra[3] = ra[0];
          }
          else
            Protect(for_store(L, RA(i), (uint64_t)v_getimmint(n1),
                              v_getimmint(w0) + v_getimmint(w2)));
          pc -= GETARG_Bx(i);
          BACKEDGE(pc + GETARG_Bx(i));
        }
        else if (v_isfloat(w2)) {
          if (flt_forloop(ra)) {
            pc -= GETARG_Bx(i);
            BACKEDGE(pc + GETARG_Bx(i));
          }
        }
        else if (w1 == v_immint(0)) {
          /* the integer loop's end */
        }
        else if (v_isinteger(w2)) {
          uint64_t count = (uint64_t)v_getint(ra[1]);
          if (count > 0) {
            int64_t idx = l_iadd(L, v_getint(ra[0]), v_getint(ra[2]));
            count--;
            if (l_likely(v_fitsimm(idx) && count <= (uint64_t)MVM_IMM_MAX)) {
              ra[1] = v_immint((int64_t)count);
              ra[0] = v_immint(idx);
              ra[3] = ra[0];
            }
            else
              Protect(for_store(L, RA(i), count, idx));
            pc -= GETARG_Bx(i);
            BACKEDGE(pc + GETARG_Bx(i));
          }
        }
        vmbreak;
      }
      vmcase(FORPREP) {
        int skip;
        Protect(skip = for_prep(L, RA(i)));
        if (skip) pc += GETARG_Bx(i) + 1;
        vmbreak;
      }
      vmcase(TFORPREP) {
        Protect(func_newtbcupval(L, RA(i) + 3));
        pc += GETARG_Bx(i);
        i = *(pc++);   /* the TFORCALL */
        goto l_tforcall;
      }
      vmcase(TFORCALL) {
       l_tforcall: {
        Value *ra = RA(i);
        /* iterator, state, control -> copies above the tbc slot */
        ra[4] = ra[0];
        ra[5] = ra[1];
        ra[6] = ra[2];
        L->top = ra + 4 + 3;
        if (v_islcf(ra[4]) && !L->hookmask &&
            ((v_lcf(ra[4]) == G(L)->ipairsaux && vm_tforipairs(L, ra + 4, GETARG_C(i))) ||
             (v_lcf(ra[4]) == G(L)->nextaux && vm_tfornext(L, ra + 4, GETARG_C(i)))))
          ;   /* (no call: no hook to report, nothing can raise) */
        else if (tfor_ccall(L, ci, ra + 4)) {
          savepc();
          tfor_docall(L, ci, ra + 4, GETARG_C(i));
          updatetrap(ci);
          base = ci->func + 1;
          cl = v_lcl(*ci->func);
        }
        else
          ProtectNT(do_call(L, RA(i) + 4, GETARG_C(i)));
        i = *(pc++);   /* the TFORLOOP */
        goto l_tforloop;
       }
      }
      vmcase(TFORLOOP) {
       l_tforloop: {
        Value *ra = RA(i);
        if (!v_isnil(ra[4])) {
          ra[2] = ra[4];
          pc -= GETARG_Bx(i);
          BACKEDGE(pc + GETARG_Bx(i));
        }
        vmbreak;
       }
      }
      vmcase(SETLIST) {
        Value *ra = RA(i);
        int n = GETARG_B(i);
        unsigned last = (unsigned)GETARG_C(i);
        Table *h;
        if (n == 0) n = (int)(L->top - ra) - 1;
        else L->top = ci->top;
        last += (unsigned)n;
        if (GETARG_k(i)) {
          last += (unsigned)GETARG_Ax(*pc) * (MAXARG_C + 1);
          pc++;
        }
        savepc();
        h = v_tab(*ra);
        vm_setlist(L, h, ra, n, last);
        vmbreak;
      }
      vmcase(CLOSURE) {
        int bx = GETARG_Bx(i);
        int a = GETARG_A(i);
        Protect(push_closure(L, ci, bx, a));
        Protect(gc_check(L));
        vmbreak;
      }
      vmcase(VARARG) {
        int n = GETARG_C(i) - 1;
        /* a fixed count (`local a, b = ...`) copies inline: nothing is
        ** allocated, nothing can throw */
        if (l_likely(n >= 0)) meta_copyvarargs(ci, RA(i), n);
        else Protect(meta_getvarargs(L, ci, RA(i)));
        vmbreak;
      }
      vmcase(VARARGPREP) {
        const Proto *p = cl->p;
        if (l_likely(L->stack_last - L->top > p->maxstacksize + 1)) {
          meta_movevarargs(L, GETARG_A(i), ci);   /* (no stack growth) */
          updatetrap(ci);   /* (entry cleared it: the call hook runs below) */
        }
        else ProtectNT(meta_adjustvarargs(L, GETARG_A(i), ci, p));
        if (l_unlikely(trap)) {
          do_hookcall(L, ci);
          L->oldpc = 1;   /* the next opcode is seen as a new line */
          cl = v_lcl(*ci->func);   /* (the hook may have moved it) */
        }
        base = ci->func + 1;
        vmbreak;
      }
      vmcase(EXTRAARG) {
        /* never executed: always consumed by the previous opcode */
        vmbreak;
      }
#if !MVM_USE_JUMPTABLE
      default: break;
#endif
    }
  }
 ret:
  if (ci->callstatus & CIST_FRESH)
    return;   /* end of this C-level activation */
  ci = ci->previous;
  goto returning;
}
