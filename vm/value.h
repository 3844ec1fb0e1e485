/*
** value.h -- the one-word value representation.
**
** Every Lua value is one 64-bit word (Value), everywhere: VM registers, table
** slots, upvalues, constants and (later) compiled code.  The encoding is
** NaN-boxing with raw pointers, after JavaScriptCore:
**
**   63      48 47                                   3 2  0
**  +----------+--------------------------------------+----+
**  |  0x0000  |  object address (8-byte aligned)      |000 |  heap reference
**  |  0x0000  |  0 ... 0                              |0010|  nil    (0x02)
**  |  0x0000  |  0 ... 0                              |0110|  false  (0x06)
**  |  0x0000  |  0 ... 0                              |0111|  true   (0x07)
**  |  0x0000  |  0 ... 0                              |1010|  "absent key" marker (0x0A, never a Lua value)
**  |  0x0002 .. 0xFFFA  |  IEEE double + 2^49                |  float
**  |  0xFFFD  |  48-bit pointer                       |    |  light C function
**  |  0xFFFE  |  48-bit pointer                       |    |  light userdata
**  |  0xFFFF  |  48-bit two's complement integer      |    |  integer immediate
**  +----------+--------------------------------------+----+
**
** Invariants:
**  - A word is a heap reference iff its top 16 bits and low 3 bits are zero and
**    it is not zero.  The reference IS the object's address (no decode step), so
**    the collector can relocate it in place and compiled code can keep it in a
**    `ptr addrspace(1)`.
**  - Doubles are stored as bits + 2^49, so their top 16 bits lie in
**    [0x0002, 0xFFFA].  All NaNs are canonicalised to a quiet NaN before
**    boxing, keeping only the sign (otherwise a NaN with a large payload would
**    wrap into tag space); +NaN encodes to 0x7FFA..., -NaN to 0xFFFA....
**  - Integers in [-2^47, 2^47) are immediates.  Any other lua_Integer is boxed
**    in a BoxedInt heap object (tt == MVM_TBIGINT).  The representation is
**    canonical: a value that fits an immediate is NEVER boxed, so two integer
**    values are equal iff both are immediates with equal bits, or both are
**    boxes holding the same payload.
**  - Word 0 is never a valid Lua value; it may be used internally as "empty".
**
** All code goes through the inline functions below; nothing else knows the bit
** layout.  Compile with -DMVM_CHECKED_VALUES to assert on every decode.
*/
#ifndef mvm_value_h
#define mvm_value_h

#include <stdint.h>
#include <string.h>
#include <assert.h>

typedef uint64_t Value;

#ifdef MVM_CHECKED_VALUES
#define mvm_vcheck(c) assert(c)
#else
#define mvm_vcheck(c) ((void)0)
#endif

#define MVM_NIL      ((Value)0x02)
#define MVM_FALSE    ((Value)0x06)
#define MVM_TRUE     ((Value)0x07)
#define MVM_ABSTKEY  ((Value)0x0A)   /* result of a failed raw table lookup */

#define MVM_TAGMASK      0xFFFF000000000000ULL
#define MVM_TAG_INT      0xFFFF000000000000ULL
#define MVM_TAG_LUDATA   0xFFFE000000000000ULL
#define MVM_TAG_LCF      0xFFFD000000000000ULL
#define MVM_DOUBLE_OFFSET (1ULL << 49)
#define MVM_PAYLOAD      0x0000FFFFFFFFFFFFULL

#define MVM_IMM_MIN  (-(1LL << 47))
#define MVM_IMM_MAX  ((1LL << 47) - 1)

struct GCObject;

/* ---- tests on the bits alone ---- */
static inline int v_isref(Value v)   { return (v & 0xFFFF000000000007ULL) == 0 && v != 0; }
static inline int v_isnil(Value v)   { return v == MVM_NIL; }
static inline int v_isfalse(Value v) { return v == MVM_FALSE; }
static inline int v_isbool(Value v)  { return (v | 1) == MVM_TRUE; }
/* Lua falsiness: nil and false */
static inline int v_isfalsy(Value v) { return v == MVM_NIL || v == MVM_FALSE; }
static inline int v_isimmint(Value v){ return (v >> 48) == (MVM_TAG_INT >> 48); }
static inline int v_isfloat(Value v) {
  uint64_t t = v >> 48;
  return t >= 0x0002 && t <= 0xFFFA;
}
/* one of the two canonical NaN encodings (the only float unequal to itself) */
static inline int v_isnan(Value v) {
  return (v & 0x7FFFFFFFFFFFFFFFULL) == (0x7FF8000000000000ULL + MVM_DOUBLE_OFFSET);
}
static inline int v_islud(Value v)   { return (v & MVM_TAGMASK) == MVM_TAG_LUDATA; }
static inline int v_islcf(Value v)   { return (v & MVM_TAGMASK) == MVM_TAG_LCF; }

/* ---- constructors ---- */
static inline Value v_bool(int b)    { return b ? MVM_TRUE : MVM_FALSE; }
static inline Value v_ref(const void *p) {
  mvm_vcheck(p != NULL && ((uintptr_t)p & 7) == 0 && ((uintptr_t)p >> 48) == 0);
  return (Value)(uintptr_t)p;
}
static inline Value v_float(double d) {
  uint64_t b;
  memcpy(&b, &d, sizeof b);
  if (d != d) b = (b & 0x8000000000000000ULL) | 0x7FF8000000000000ULL;  /* canonical NaN, sign kept */
  return b + MVM_DOUBLE_OFFSET;
}
/* Only for n in [MVM_IMM_MIN, MVM_IMM_MAX]; use vm_mkint() (may box) otherwise. */
static inline Value v_immint(int64_t n) {
  mvm_vcheck(n >= MVM_IMM_MIN && n <= MVM_IMM_MAX);
  return MVM_TAG_INT | ((uint64_t)n & MVM_PAYLOAD);
}
static inline int v_fitsimm(int64_t n) { return n >= MVM_IMM_MIN && n <= MVM_IMM_MAX; }
static inline Value v_lud(void *p)   { return MVM_TAG_LUDATA | ((uint64_t)(uintptr_t)p & MVM_PAYLOAD); }
static inline Value v_lcf(void (*f)(void)) { return MVM_TAG_LCF | ((uint64_t)(uintptr_t)f & MVM_PAYLOAD); }

/* ---- decoders ---- */
static inline struct GCObject *v_gc(Value v) { mvm_vcheck(v_isref(v)); return (struct GCObject *)(uintptr_t)v; }
static inline double v_getfloat(Value v) {
  mvm_vcheck(v_isfloat(v));
  uint64_t b = v - MVM_DOUBLE_OFFSET; double d; memcpy(&d, &b, sizeof d); return d;
}
static inline int64_t v_getimmint(Value v) {
  mvm_vcheck(v_isimmint(v));
  return ((int64_t)(v << 16)) >> 16;          /* sign-extend the 48-bit payload */
}
static inline void *v_getlud(Value v) { return (void *)(uintptr_t)(v & MVM_PAYLOAD); }
static inline void *v_getlcfptr(Value v) { return (void *)(uintptr_t)(v & MVM_PAYLOAD); }

#endif
