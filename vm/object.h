/*
** object.h -- layouts of heap objects.
**
** Every heap object starts with GCHeader (8 bytes).  'tt' is an MVM_T* object
** tag (below), 'marked' belongs to the collector, 'extra' is per-type (string:
** reserved-word index; table: metamethod-absence cache), 'age' belongs to the
** collector, 'hash' is the string's content hash for strings and a stable
** identity hash for every other object (objects may move: never hash or order
** objects by address).
**
** Placement (see DESIGN.md "Heap and collector"): strings, userdata, threads
** and prototypes live in the non-moving old space, so raw pointers to them
** (lua_tolstring, lua_touserdata, lua_State*, Proto* held by the compiler) stay
** valid while the object is reachable.  Tables, closures, upvalues and boxed
** integers may be allocated in the moving nursery: C code must never keep
** such a pointer across a point that may allocate unless it is rooted (on
** the VM stack or the C root chain, gc.h).
**
** Out-of-line parts (table array/hash parts, proto arrays, thread stacks) are
** allocated with mvm_mem* (gc.h) and owned by their object.
*/
#ifndef mvm_object_h
#define mvm_object_h

#include <stddef.h>
#include <stdint.h>
#include "lua.h"
#include "value.h"

/* object tags (GCHeader.tt) */
#define MVM_TSTRING   1
#define MVM_TTABLE    2
#define MVM_TLCL      3    /* Lua closure */
#define MVM_TCCL      4    /* C closure (with upvalues) */
#define MVM_TUDATA    5
#define MVM_TTHREAD   6
#define MVM_TPROTO    7
#define MVM_TUPVAL    8
#define MVM_TBIGINT   9    /* boxed integer outside the immediate range */
#define MVM_NUMTAGS   10

#if defined(__GNUC__)
#define l_noret void __attribute__((noreturn))
#else
#define l_noret void
#endif
#define l_likely(x)   __builtin_expect(((x) != 0), 1)
#define l_unlikely(x) __builtin_expect(((x) != 0), 0)
#define cast(t, exp)  ((t)(exp))

#define GCHeader  uint8_t tt; uint8_t marked; uint8_t extra; uint8_t age; uint32_t hash

typedef struct GCObject { GCHeader; } GCObject;

typedef uint32_t Instruction;

/* ---------------- strings ---------------- */
/* All strings are interned (so string equality is pointer equality); 'hash'
** is the content hash; data is NUL-terminated.  'extra' > 0 marks a reserved
** word (index into the lexer's token table, +1). */
typedef struct TString {
  GCHeader;
  uint32_t pad_;
  size_t len;
  char data[];
} TString;

#define getstr(ts)  ((ts)->data)

/* ---------------- boxed integers ---------------- */
typedef struct BoxedInt {
  GCHeader;
  int64_t i;
} BoxedInt;

/* ---------------- tables ---------------- */
typedef struct Node {
  Value val;
  Value key;
  int32_t next;    /* offset to next node in the collision chain (0 = end) */
  int32_t pad_;
} Node;

typedef struct Table {
  GCHeader;             /* extra: bit (1<<e) set = metamethod e known absent (TM_INDEX..TM_EQ);
                        ** TAB_WATCHED (table.h) */
  uint8_t lsizenode;    /* log2 of size of 'node' array */
  uint8_t isdummy;      /* node points to the shared empty node */
  uint8_t ninline;      /* Value slots allocated right behind the Table in
                        ** the same block (fixed for the object's life: its
                        ** size is sizeof(Table) + 8 * ninline); the array
                        ** part is there while 'array' points there */
  uint8_t pad_;
  uint32_t asize;       /* size of 'array' */
  Value *array;         /* array part: keys 1..asize */
  Node *node;
  uint32_t lastfree;    /* any free position is before node[lastfree] (an
                        ** index: nothing to fix when the node array moves) */
  uint32_t lenhint;     /* the length hint (table.h TAB_LENLOOSE): bit 31
                        ** clear: slots 1..lenhint present, the rest of
                        ** the array part nil; set: low bits a guess */
  struct Table *metatable;
} Table;

/* the inline array slots of a table (tab_newsized; ninline of them) */
#define tab_inlinearray(t)  ((Value *)(void *)((char *)(t) + sizeof(Table)))
#define tab_isinline(t)     ((t)->ninline != 0 && (t)->array == tab_inlinearray(t))
#define tab_objsize(t)      (sizeof(Table) + (size_t)(t)->ninline * sizeof(Value))

/* ---------------- prototypes ---------------- */
typedef struct Upvaldesc {
  TString *name;
  uint8_t instack;   /* in the enclosing function's registers? */
  uint8_t idx;       /* register or upvalue index in the enclosing function */
  uint8_t kind;      /* VDKREG, RDKCONST, RDKTOCLOSE, RDKCTC (compiler's) */
  uint8_t selfref;   /* `local function f`'s upvalue f: holds the function's
                     ** own closure until f is assigned (a JIT hint only) */
} Upvaldesc;

typedef struct LocVar {
  TString *varname;
  int startpc;   /* first pc where variable is active */
  int endpc;     /* first pc where variable is dead */
} LocVar;

typedef struct Proto {
  GCHeader;
  uint8_t numparams;
  uint8_t is_vararg;
  uint8_t maxstacksize;   /* registers needed */
  uint8_t pad_;
  int sizeupvalues, sizek, sizecode, sizep, sizelocvars, sizelineinfo;
  int linedefined, lastlinedefined;
  Value *k;               /* constants */
  Instruction *code;
  struct Proto **p;       /* nested functions */
  Upvaldesc *upvalues;
  int *lineinfo;          /* line of each instruction (sizelineinfo == sizecode, or 0 if stripped) */
  LocVar *locvars;
  TString *source;
  /* tiering (JIT): counters and per-instruction type feedback */
  uint32_t hotcount;      /* calls + loop back-edges */
  uint32_t ncalls;        /* calls (counted where hotcount counts them):
                          ** a function called once gets OSR regions as a
                          ** main chunk does (jit.c regionok) */
  uint8_t *feedback;      /* sizecode bytes of MVM_FB_* bits, or NULL */
  void *jitcode;          /* compiled entry, or NULL */
  uint32_t jitexits;      /* failed speculative guards of its compiled code
                          ** (incremented by that code; jit_run checks it) */
  uint8_t jitnospec;      /* speculation level: 0 types from feedback, 1 any
                          ** number, 2 none (raised each time it kept failing) */
  uint32_t jitlook;       /* calls of it stay on the interpreter's inline
                          ** path, and its frames skip the tier-up test,
                          ** until hotcount reaches this (0: look at every
                          ** call; set by the policy, jit.c maybecompile,
                          ** and with the JIT off by vm.c startfunc) */
  int32_t jitedges;       /* expiries of the back-edge count (vm.c BACKEDGE)
                          ** in this proto to let pass before the next look
                          ** of the JIT's OSR policy (0: look at each) */
} Proto;

/* type feedback bits recorded by the interpreter for arithmetic/compare/index */
#define MVM_FB_INT    0x01
#define MVM_FB_FLOAT  0x02
#define MVM_FB_STR    0x04
#define MVM_FB_TABLE  0x08
#define MVM_FB_OTHER  0x80
/* At a table access (GETTABLE, GETI, SETTABLE, SETI): MVM_FB_INTHASH, a
** table's array part did not hold the integer key (the JIT probes the
** hash part inline for such keys only where this was seen: llvmgen.c
** intslot2); and at GETTABLE/SETTABLE, MVM_FB_STR or MVM_FB_OTHER for a
** key of that kind (string keys are probed inline only where one was
** seen: llvmgen.c maystrkey) */
#define MVM_FB_INTHASH 0x10
/* at SETTABLE/SETI: a store found a nil in the table's array part (the
** JIT's inline path handles that case, its metatable test and the length
** hint's upkeep, only where this was seen: llvmgen.c set_finish) */
#define MVM_FB_NILSLOT 0x20

/* ---------------- upvalues and closures ---------------- */
typedef struct UpVal {
  GCHeader;
  Value *v;          /* points into a stack (open) or to u.value (closed) */
  union {
    struct { struct UpVal *next; struct UpVal **previous; } open;  /* thread's open list, sorted by level */
    Value value;     /* closed value */
  } u;
} UpVal;

#define upisopen(up)  ((up)->v != &(up)->u.value)

typedef struct LClosure {
  GCHeader;
  uint8_t nupvalues;
  uint8_t pad_[7];
  Proto *p;
  UpVal *upvals[];
} LClosure;

typedef struct CClosure {
  GCHeader;
  uint8_t nupvalues;
  uint8_t pad_[7];
  lua_CFunction f;
  Value upvalue[];
} CClosure;

/* ---------------- userdata ---------------- */
/* Block is max-aligned: payload starts at udatamem(u). */
typedef struct Udata {
  GCHeader;
  uint16_t nuvalue;
  uint16_t pad_[3];
  size_t len;
  Table *metatable;
  Value uv[];        /* nuvalue user values, then the payload */
} Udata;

#define udatamemoffset(nuv) \
   (((offsetof(Udata, uv) + sizeof(Value) * (nuv)) + 15) & ~(size_t)15)
#define getudatamem(u)  ((char *)(u) + udatamemoffset((u)->nuvalue))

/* ---------------- casts from values ---------------- */
static inline int v_tt(Value v) { return v_isref(v) ? v_gc(v)->tt : 0; }
static inline int v_isstring(Value v) { return v_isref(v) && v_gc(v)->tt == MVM_TSTRING; }
static inline int v_istable(Value v)  { return v_isref(v) && v_gc(v)->tt == MVM_TTABLE; }
static inline int v_isLclosure(Value v) { return v_isref(v) && v_gc(v)->tt == MVM_TLCL; }
static inline int v_isCclosure(Value v) { return v_isref(v) && v_gc(v)->tt == MVM_TCCL; }
static inline int v_isfunction(Value v) {
  return v_islcf(v) || (v_isref(v) && (v_gc(v)->tt == MVM_TLCL || v_gc(v)->tt == MVM_TCCL));
}
static inline int v_isudata(Value v)  { return v_isref(v) && v_gc(v)->tt == MVM_TUDATA; }
static inline int v_isthread(Value v) { return v_isref(v) && v_gc(v)->tt == MVM_TTHREAD; }
static inline int v_isbigint(Value v) { return v_isref(v) && v_gc(v)->tt == MVM_TBIGINT; }
static inline int v_isinteger(Value v){ return v_isimmint(v) || v_isbigint(v); }
static inline int v_isnumber(Value v) { return v_isimmint(v) || v_isfloat(v) || v_isbigint(v); }

#define v_str(v)    ((TString *)v_gc(v))
#define v_tab(v)    ((Table *)v_gc(v))
#define v_lcl(v)    ((LClosure *)v_gc(v))
#define v_ccl(v)    ((CClosure *)v_gc(v))
#define v_udata(v)  ((Udata *)v_gc(v))
#define v_thread(v) ((struct lua_State *)v_gc(v))
#define v_lcf(v)    ((lua_CFunction)v_getlcfptr(v))

/* integer payload of any integer value (immediate or boxed) */
static inline int64_t v_getint(Value v) {
  return v_isimmint(v) ? v_getimmint(v) : ((BoxedInt *)v_gc(v))->i;
}

/* basic Lua type (LUA_T*) of a value */
static inline int v_type(Value v) {
  if (v_isref(v)) {
    switch (v_gc(v)->tt) {
      case MVM_TSTRING: return LUA_TSTRING;
      case MVM_TTABLE: return LUA_TTABLE;
      case MVM_TLCL: case MVM_TCCL: return LUA_TFUNCTION;
      case MVM_TUDATA: return LUA_TUSERDATA;
      case MVM_TTHREAD: return LUA_TTHREAD;
      case MVM_TBIGINT: return LUA_TNUMBER;
      default: return LUA_TNONE;   /* internal objects are never Lua values */
    }
  }
  if (v == MVM_NIL) return LUA_TNIL;
  if (v_isbool(v)) return LUA_TBOOLEAN;
  if (v_isfloat(v) || v_isimmint(v)) return LUA_TNUMBER;
  if (v_islud(v)) return LUA_TLIGHTUSERDATA;
  if (v_islcf(v)) return LUA_TFUNCTION;
  return LUA_TNONE;
}

/* Raw equality (no metamethods), Lua's rawequal: identical words, or numbers
** with the same mathematical value (1 == 1.0; boxed integers by payload). */
static inline int v_rawequal(Value a, Value b) {
  /* identical words are equal, except NaN (its two canonical encodings) */
  if (a == b) return !v_isnan(a);
  if (v_isnumber(a) && v_isnumber(b)) {
    if (v_isinteger(a) && v_isinteger(b)) return v_getint(a) == v_getint(b);
    if (v_isfloat(a) && v_isfloat(b)) return v_getfloat(a) == v_getfloat(b);
    {  /* integer vs float: equal iff the float has exactly that integer value */
      int64_t i = v_isinteger(a) ? v_getint(a) : v_getint(b);
      double d = v_isfloat(a) ? v_getfloat(a) : v_getfloat(b);
      return d >= -9223372036854775808.0 && d < 9223372036854775808.0 &&
             (double)(int64_t)d == d && (int64_t)d == i;
    }
  }
  return 0;
}

#endif
