/*
** vm.h -- the interpreter loop and the generic (metamethod-aware) operations
** it shares with the C API and the JIT's runtime helpers (vm/vm.c, vm/meta.c,
** vm/number.c).
*/
#ifndef mvm_vm_h
#define mvm_vm_h
#include "state.h"

LUAI_FUNC void vm_execute(lua_State *L, CallInfo *ci);
/* {string.sub} (stdlib/strlib.c), whose common calls OP_CALL makes inline */
LUAI_DDEC(const lua_CFunction mvm_strsub[1]);
/* string.sub(s, i [, j])'s common case, for the library (strlib.c sl_sub1)
** and OP_CALL (vm.c vm_subinline): of the 'nargs' values at 'args', s a
** string and i >= 1, j >= 0 immediate integers: 1, with the substring's
** offset and length in s; else 0 (the general path) */
static inline int vm_subrange(const Value *args, ptrdiff_t nargs, size_t *from, size_t *len) {
  int64_t i, j;
  if ((nargs != 2 && nargs != 3) || !v_isstring(args[0]) || !v_isimmint(args[1]))
    return 0;
  i = v_getimmint(args[1]);
  j = (int64_t)v_str(args[0])->len;
  if (nargs == 3) {
    if (!v_isimmint(args[2])) return 0;
    if (v_getimmint(args[2]) < j) j = v_getimmint(args[2]);
  }
  if (i < 1 || j < 0) return 0;
  *from = i <= j ? (size_t)(i - 1) : 0;   /* (empty: no offset past the end) */
  *len = i <= j ? (size_t)(j - i + 1) : 0;
  return 1;
}
LUAI_FUNC void vm_finishOp(lua_State *L);        /* finish an opcode interrupted by a yield */

/* The walk up the '__index' chain from 't', which has a metatable and
** lacks the string 'key' (a receiver missing a field or method): up to 4
** levels of '__index' tables.  The key's slot in one of them, or
** &vm_absentnil when the chain ends without it (a table without a
** metatable, a metatable without '__index'); then every table it went
** through is marked TAB_WATCHED, so that an answer cached under
** vm_cachestamp holds until one of them changes (a new key, a store, a
** resize, a setmetatable: vm/table.h).  NULL, marking nothing: an
** '__index' function or non-table, a longer chain (vm_finishget's work).
** Allocates nothing.  The interpreter's method cache (vm.c index_table)
** and compiled code's class caches (jit/jitrt.c mvmrt_strindex) use it. */
LUAI_FUNC const Value *vm_indexwalk(global_State *g, Table *t, TString *key);
LUAI_DDEC(const Value vm_absentnil);
/* the stamp of a cache entry that is valid now (state.h icache, jit.h
** JitMethodCache): no collection (tables move) and no TAB_WATCHED bit
** cleared since -- each counts in G->watchepoch */
static inline size_t vm_cachestamp(const global_State *g) {
  return g->watchepoch + 1;
}

/* integer value, boxing when it does not fit an immediate: MAY ALLOCATE */
LUAI_FUNC Value vm_mkint(lua_State *L, int64_t i);
static inline Value vm_int(lua_State *L, int64_t i) {
  return v_fitsimm(i) ? v_immint(i) : vm_mkint(L, i);
}

/* conversions (vm/number.c) */
/* string -> number following Lua's lexical rules; returns size+1 or 0 */
LUAI_FUNC size_t vm_str2num(lua_State *L, const char *s, Value *result);
/* a whole string value as a numeral (its length known: the common forms
** take no ctype call); 0 when it is none.  MAY ALLOCATE (a boxed integer) */
LUAI_FUNC int vm_strtonumber(lua_State *L, const TString *ts, Value *result);
LUAI_FUNC int vm_tonumber(lua_State *L, Value v, double *n);     /* with string coercion */
/* mode: 0 exact (F2Ieq), 1 floor, 2 ceil */
LUAI_FUNC int vm_tointeger(Value v, int64_t *p, int mode);        /* with string coercion */
LUAI_FUNC int vm_tointegerns(Value v, int64_t *p, int mode);      /* no string coercion */
LUAI_FUNC int vm_flttointns(double n, int64_t *p, int mode);
/* number -> string "%.14g" / "%d" (with ".0" for integral floats) into buff, returns length */
#define MAXNUMBER2STR 44
LUAI_FUNC int vm_num2buff(Value v, char *buff);
LUAI_FUNC int vm_int2buff(int64_t n, char *buff);
LUAI_FUNC int vm_fmtfloat(char *buff, double x, int prec, int conv, int dp);
/* convert a number in the given stack slot to a string in place: MAY ALLOCATE */
LUAI_FUNC void vm_tostring(lua_State *L, Value *obj);
LUAI_FUNC int64_t vm_idiv(lua_State *L, int64_t m, int64_t n);
LUAI_FUNC int64_t vm_mod(lua_State *L, int64_t m, int64_t n);
LUAI_FUNC double vm_modf(lua_State *L, double m, double n);
/* x << y with Lua's rules: a negative y shifts right (logically), and
** |y| >= 64 gives 0; inline for the interpreter's shift instructions */
static inline int64_t vm_shiftl(int64_t x, int64_t y) {
  if (y < 0) {
    if (y <= -64) return 0;
    return (int64_t)((uint64_t)x >> (uint64_t)(-y));
  }
  if (y >= 64) return 0;
  return (int64_t)((uint64_t)x << (uint64_t)y);
}
/* arithmetic on raw values for constant folding and lua_arith: returns 1 on success */
LUAI_FUNC int vm_rawarith(lua_State *L, int op, const Value *p1, const Value *p2, Value *res);
/* full arithmetic with metamethods (LUA_OP* op), result to *res (a stack slot) */
LUAI_FUNC void vm_arith(lua_State *L, int op, const Value *p1, const Value *p2, Value *res);

/* generic table access with metamethods; 'slot' is the raw lookup result or NULL */
LUAI_FUNC void vm_finishget(lua_State *L, const Value *t, Value *key, Value *val, const Value *slot);
LUAI_FUNC void vm_finishset(lua_State *L, const Value *t, Value *key, Value *val, const Value *slot);
LUAI_FUNC void vm_gettable(lua_State *L, const Value *t, Value *key, Value *val);
LUAI_FUNC void vm_settable(lua_State *L, const Value *t, Value *key, Value *val);
LUAI_FUNC int vm_equalobj(lua_State *L, const Value *a, const Value *b);  /* L==NULL: raw */
LUAI_FUNC int vm_lessthan(lua_State *L, const Value *l, const Value *r);
LUAI_FUNC int vm_lessequal(lua_State *L, const Value *l, const Value *r);
LUAI_FUNC void vm_concat(lua_State *L, int total);   /* concat 'total' values at top */
LUAI_FUNC void vm_objlen(lua_State *L, Value *ra, const Value *rb);
#endif
