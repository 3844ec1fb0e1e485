/*
** api.c -- the Lua 5.4 C API (stack access, values, tables, userdata,
** metatables, collector control).  Calls, loading, errors and coroutines are
** in vm/do.c; the debug API is in vm/debug.c; state creation in vm/state.c.
**
** Every function here that creates an object may trigger a collection that
** may move tables and closures.  So a function never holds a table or closure
** pointer or a Value* into the stack across an allocation: it anchors new
** objects on the stack first and re-fetches its operands by index afterwards.
*/
#include <string.h>
#include <stdarg.h>
#include <math.h>

#include "lua.h"
#include "state.h"
#include "gc.h"
#include "do.h"
#include "vm.h"
#include "func.h"
#include "string.h"
#include "table.h"
#include "meta.h"
#include "compile.h"
#include "stateint.h"
#include "mvm.h"

__attribute__((visibility("default")))
const char lua_ident[] =
  "$LuaVersion: " LUA_COPYRIGHT " $"
  "$LuaAuthors: " LUA_AUTHORS " $";

/* API checks are compiled out, as in a stock release build */
#define api_check(L, e, msg)  ((void)(L), (void)0)
#define api_incr_top(L)  ((L)->top++)

#define ispseudo(i)     ((i) <= LUA_REGISTRYINDEX)
#define isupvalueidx(i) ((i) < LUA_REGISTRYINDEX)

/* what an invalid (absent) index reads as; never written */
static const Value absent_slot = MVM_NIL;
#define isvalid(L, o)  ((o) != &absent_slot)

/*
** Translate an API index to the address of the value it names.  Positive
** indices past the top and missing upvalues give &absent_slot.
*/
/* always inlined: the fast paths of lua_geti/lua_seti & co (table.insert,
** table.remove shifts) are a few instructions next to a call */
static inline __attribute__((always_inline))
const Value *index2value(lua_State *L, int idx) {
  CallInfo *ci = L->ci;
  if (idx > 0) {
    Value *o = ci->func + idx;
    return (o >= L->top) ? &absent_slot : o;
  }
  else if (!ispseudo(idx))
    return L->top + idx;
  else if (idx == LUA_REGISTRYINDEX)
    return &G(L)->l_registry;
  else {  /* upvalue of the running C closure */
    Value fv = *ci->func;
    int n = LUA_REGISTRYINDEX - idx;
    if (v_isCclosure(fv)) {
      CClosure *cl = v_ccl(fv);
      return (n <= cl->nupvalues) ? &cl->upvalue[n - 1] : &absent_slot;
    }
    return &absent_slot;   /* light C function or Lua function: no upvalues */
  }
}

const Value *api_index2value(lua_State *L, int idx) {
  return index2value(L, idx);
}

/* a real stack slot (no pseudo-indices) */
static Value *index2stack(lua_State *L, int idx) {
  CallInfo *ci = L->ci;
  if (idx > 0) return ci->func + idx;
  return L->top + idx;
}

/* store v at the place named by idx (stack slot, upvalue or registry) */
static void setatindex(lua_State *L, int idx, Value v) {
  if (isupvalueidx(idx)) {
    Value fv = *L->ci->func;
    int n = LUA_REGISTRYINDEX - idx;
    if (v_isCclosure(fv) && n <= v_ccl(fv)->nupvalues) {
      CClosure *cl = v_ccl(fv);
      gc_writeobj(L, cl, &cl->upvalue[n - 1], v);
    }
  }
  else if (idx == LUA_REGISTRYINDEX)
    G(L)->l_registry = v;     /* NOBARRIER: a root, not inside an object */
  else
    *index2stack(L, idx) = v; /* NOBARRIER: stacks are roots */
}

static inline void pushvalue(lua_State *L, Value v) {
  *L->top = v;
  api_incr_top(L);
}

/* ------------------------------------------------------------------------
** basic stack manipulation
** ---------------------------------------------------------------------- */

LUA_API int lua_checkstack(lua_State *L, int n) {
  CallInfo *ci = L->ci;
  int ok;
  if (L->stack_last - L->top > n)
    ok = 1;
  else {
    int inuse = (int)(L->top - L->stack) + EXTRA_STACK;
    if (inuse > LUAI_MAXSTACK - n) ok = 0;
    else ok = do_growstack(L, n, 0);
  }
  if (ok && ci->top < L->top + n)
    ci->top = L->top + n;    /* let the caller use the space */
  return ok;
}

LUA_API void lua_xmove(lua_State *from, lua_State *to, int n) {
  int i;
  if (from == to) return;
  from->top -= n;
  for (i = 0; i < n; i++) {
    *to->top = from->top[i];
    to->top++;
  }
}

LUA_API lua_CFunction lua_atpanic(lua_State *L, lua_CFunction panicf) {
  lua_CFunction old = G(L)->panic;
  G(L)->panic = panicf;
  return old;
}

LUA_API lua_Number lua_version(lua_State *L) {
  (void)L;
  return LUA_VERSION_NUM;
}

LUA_API int lua_absindex(lua_State *L, int idx) {
  return (idx > 0 || ispseudo(idx)) ? idx : (int)(L->top - L->ci->func) + idx;
}

LUA_API int lua_gettop(lua_State *L) {
  return (int)(L->top - (L->ci->func + 1));
}

LUA_API void lua_settop(lua_State *L, int idx) {
  CallInfo *ci = L->ci;
  Value *func = ci->func;
  Value *newtop;
  if (idx >= 0) {
    Value *target = func + 1 + idx;
    while (L->top < target) *L->top++ = MVM_NIL;   /* clear new slots */
    newtop = target;
  }
  else
    newtop = L->top + idx + 1;
  /* popping a pending to-be-closed slot closes it first */
  if (newtop < L->top && L->tbclist >= newtop)
    newtop = func_close(L, newtop, CLOSEKTOP, 0);
  L->top = newtop;
}

LUA_API void lua_closeslot(lua_State *L, int idx) {
  Value *level = index2stack(L, idx);
  level = func_close(L, level, CLOSEKTOP, 0);
  *level = MVM_NIL;
}

/* reverse the stack segment [from, to] */
static void reverse_slots(Value *from, Value *to) {
  for (; from < to; from++, to--) {
    Value t = *from;
    *from = *to;
    *to = t;
  }
}

/* rotate the elements between idx and the top by n positions (as three
** reversals: the segment's prefix, its suffix, then the whole) */
LUA_API void lua_rotate(lua_State *L, int idx, int n) {
  Value *t = L->top - 1;
  Value *p = index2stack(L, idx);
  Value *m = (n >= 0) ? t - n : p - n - 1;
  reverse_slots(p, m);
  reverse_slots(m + 1, t);
  reverse_slots(p, t);
}

LUA_API void lua_copy(lua_State *L, int fromidx, int toidx) {
  Value v = *index2value(L, fromidx);
  setatindex(L, toidx, v);
}

LUA_API void lua_pushvalue(lua_State *L, int idx) {
  pushvalue(L, *index2value(L, idx));
}

/* ------------------------------------------------------------------------
** access functions (stack -> C)
** ---------------------------------------------------------------------- */

LUA_API int lua_type(lua_State *L, int idx) {
  const Value *o = index2value(L, idx);
  return isvalid(L, o) ? v_type(*o) : LUA_TNONE;
}

static const char *const api_typenames[LUA_NUMTYPES + 1] = {
  "no value", "nil", "boolean", "userdata", "number", "string", "table",
  "function", "userdata", "thread"
};

LUA_API const char *lua_typename(lua_State *L, int t) {
  (void)L;
  if (t < LUA_TNONE || t >= LUA_NUMTYPES) return "?";
  return api_typenames[t + 1];
}

LUA_API int lua_iscfunction(lua_State *L, int idx) {
  Value v = *index2value(L, idx);
  return v_islcf(v) || v_isCclosure(v);
}

LUA_API int lua_isinteger(lua_State *L, int idx) {
  return v_isinteger(*index2value(L, idx));
}

LUA_API int lua_isnumber(lua_State *L, int idx) {
  double n;
  return vm_tonumber(L, *index2value(L, idx), &n);
}

LUA_API int lua_isstring(lua_State *L, int idx) {
  Value v = *index2value(L, idx);
  return v_isstring(v) || v_isnumber(v);
}

LUA_API int lua_isuserdata(lua_State *L, int idx) {
  Value v = *index2value(L, idx);
  return v_isudata(v) || v_islud(v);
}

LUA_API int lua_rawequal(lua_State *L, int index1, int index2) {
  const Value *o1 = index2value(L, index1);
  const Value *o2 = index2value(L, index2);
  return (isvalid(L, o1) && isvalid(L, o2)) ? v_rawequal(*o1, *o2) : 0;
}

LUA_API void lua_arith(lua_State *L, int op) {
  if (op == LUA_OPUNM || op == LUA_OPBNOT) {
    /* unary: use a copy of the operand as the fake second operand */
    *L->top = L->top[-1];
    api_incr_top(L);
  }
  vm_arith(L, op, L->top - 2, L->top - 1, L->top - 2);
  L->top--;
}

LUA_API int lua_compare(lua_State *L, int index1, int index2, int op) {
  const Value *o1 = index2value(L, index1);
  const Value *o2 = index2value(L, index2);
  if (!isvalid(L, o1) || !isvalid(L, o2)) return 0;
  switch (op) {
    case LUA_OPEQ: return vm_equalobj(L, o1, o2);
    case LUA_OPLT: return vm_lessthan(L, o1, o2);
    case LUA_OPLE: return vm_lessequal(L, o1, o2);
    default: return 0;
  }
}

LUA_API size_t lua_stringtonumber(lua_State *L, const char *s) {
  Value v = MVM_NIL;
  size_t sz = vm_str2num(L, s, &v);
  if (sz != 0) pushvalue(L, v);   /* nothing allocated since the conversion */
  return sz;
}

LUA_API lua_Number lua_tonumberx(lua_State *L, int idx, int *pisnum) {
  double n = 0;
  Value v = *index2value(L, idx);
  int ok;
  if (v_isfloat(v)) {   /* numbers need no conversion call */
    if (pisnum) *pisnum = 1;
    return v_getfloat(v);
  }
  if (v_isimmint(v)) {
    if (pisnum) *pisnum = 1;
    return (lua_Number)v_getint(v);
  }
  ok = vm_tonumber(L, v, &n);
  if (pisnum) *pisnum = ok;
  return ok ? n : 0;
}

/* lua_tointegerx's conversions, out of line so that its common case needs
** no stack frame */
static __attribute__((noinline)) lua_Integer tointeger_other(Value v, int *pisnum) {
  int64_t i = 0;
  int ok = vm_tointeger(v, &i, 0);
  if (pisnum) *pisnum = ok;
  return ok ? (lua_Integer)i : 0;
}

LUA_API lua_Integer lua_tointegerx(lua_State *L, int idx, int *pisnum) {
  Value v = *index2value(L, idx);
  if (v_isimmint(v)) {   /* the common case needs no conversion call */
    if (pisnum) *pisnum = 1;
    return (lua_Integer)v_getint(v);
  }
  return tointeger_other(v, pisnum);
}

/* type(v)'s result for a type tag t (>= 0): the preallocated name, no
** hashing or interning per call (baselib). */
LUAI_FUNC void api_pushtypename(lua_State *L, int t);
void api_pushtypename(lua_State *L, int t) {
  pushvalue(L, v_ref(G(L)->tname[t]));
}

/* api_optinteger's conversions, out of line so that its common cases need
** no stack frame */
static __attribute__((noinline)) lua_Integer optinteger_other(lua_State *L,
    int idx, Value v, void (*err)(lua_State *L, int arg)) {
  int64_t i = 0;
  if (!vm_tointeger(v, &i, 0)) {
    err(L, idx);   /* raises */
    return 0;
  }
  return (lua_Integer)i;
}

/* luaL_optinteger in one call (stdlib/auxlib.c): the integer value at idx,
** 'def' for none or nil; for a value without an integer value 'err'
** raises the error.  luaL_optinteger becomes a tail call. */
LUAI_FUNC lua_Integer api_optinteger(lua_State *L, int idx, lua_Integer def,
                                     void (*err)(lua_State *L, int arg));
lua_Integer api_optinteger(lua_State *L, int idx, lua_Integer def,
                           void (*err)(lua_State *L, int arg)) {
  Value v = *index2value(L, idx);   /* an absent index reads as nil */
  if (v_isimmint(v)) return (lua_Integer)v_getint(v);
  if (v_isnil(v)) return def;
  return optinteger_other(L, idx, v, err);
}

/* luaL_checkinteger in one call (stdlib/auxlib.c): as api_optinteger,
** but none and nil go to 'err' too */
LUAI_FUNC lua_Integer api_checkinteger(lua_State *L, int idx,
                                       void (*err)(lua_State *L, int arg));
lua_Integer api_checkinteger(lua_State *L, int idx,
                             void (*err)(lua_State *L, int arg)) {
  Value v = *index2value(L, idx);
  if (v_isimmint(v)) return (lua_Integer)v_getint(v);
  return optinteger_other(L, idx, v, err);
}

LUA_API int lua_toboolean(lua_State *L, int idx) {
  return !v_isfalsy(*index2value(L, idx));
}

/* lua_tolstring of a value that is not a string: kept out of line, so
** the string case (nearly every call: luaL_checklstring) needs no stack
** frame and no saved registers */
static __attribute__((noinline)) const char *tolstring_other(lua_State *L,
    int idx, size_t *len, Value v) {
  TString *ts;
  char buff[MAXNUMBER2STR];
  int n;
  if (!v_isnumber(v)) {
    if (len != NULL) *len = 0;
    return NULL;
  }
  /* convert in place; the slot is re-fetched after the allocation */
  n = vm_num2buff(v, buff);
  ts = str_new(L, buff, (size_t)n);
  setatindex(L, idx, v_ref(ts));
  gc_check(L);
  if (len != NULL) *len = ts->len;
  return getstr(ts);
}

/* lua_replace(L, -2) for luaL_pushresult (stdlib/auxlib.c): the top value
** over the one below it, popped (a stack slot: no barrier) */
LUAI_FUNC void api_replaceunder(lua_State *L);
void api_replaceunder(lua_State *L) {
  api_check(L, L->top - 2 > L->ci->func, "not enough elements");
  L->top[-2] = L->top[-1];
  L->top--;
}

/* luaL_tolstring of a string whose metatable has no __tostring (the usual
** string metatable, whose __index is the string library): the string
** itself pushed (g->tostringname: "__tostring", a collector root) */
static __attribute__((noinline)) const char *tolstring_str(lua_State *L, Value v,
                                                           size_t *len) {
  const Table *mt = G(L)->mt[LUA_TSTRING];
  if (mt != NULL) {
    const Value *tm = tab_getshortstr((Table *)mt, G(L)->tostringname);
    if (!isabstkey(tm) && !v_isnil(*tm)) return NULL;
  }
  pushvalue(L, v);
  if (len != NULL) *len = v_str(v)->len;
  return getstr(v_str(v));
}

/* luaL_tolstring of a number while numbers have no metatable (so no
** __tostring and no __name to ask): its text pushed, without the
** metafield lookups; of a string (tolstring_str) likewise; NULL (nothing
** pushed) otherwise (stdlib/auxlib.c) */
LUAI_FUNC const char *api_tolstringnum(lua_State *L, int idx, size_t *len);
const char *api_tolstringnum(lua_State *L, int idx, size_t *len) {
  Value v = *index2value(L, idx);
  if (v_isstring(v)) return tolstring_str(L, v, len);
  if (!v_isnumber(v) || G(L)->mt[LUA_TNUMBER] != NULL) return NULL;
  pushvalue(L, v);
  return tolstring_other(L, -1, len, v);   /* converts the copy in place */
}

/* luaL_checklstring in one call (stdlib/auxlib.c): lua_tolstring, and
** 'err' raising the error when the value is neither a string nor a
** number; luaL_checklstring becomes a tail call */
LUAI_FUNC const char *api_checklstring(lua_State *L, int idx, size_t *len,
                                       void (*err)(lua_State *L, int arg));
static __attribute__((noinline)) const char *checklstring_other(lua_State *L,
    int idx, size_t *len, Value v, void (*err)(lua_State *L, int arg)) {
  const char *s = tolstring_other(L, idx, len, v);
  if (s == NULL) err(L, idx);   /* raises */
  return s;
}

const char *api_checklstring(lua_State *L, int idx, size_t *len,
                             void (*err)(lua_State *L, int arg)) {
  Value v = *index2value(L, idx);
  TString *ts;
  if (l_unlikely(!v_isstring(v)))
    return checklstring_other(L, idx, len, v, err);
  ts = v_str(v);
  if (len != NULL) *len = ts->len;
  return getstr(ts);
}

/* Strings are interned and never move, so the returned pointer stays valid
** while the string is reachable (e.g. stays in its stack slot). */
LUA_API const char *lua_tolstring(lua_State *L, int idx, size_t *len) {
  Value v = *index2value(L, idx);
  TString *ts;
  if (l_unlikely(!v_isstring(v)))
    return tolstring_other(L, idx, len, v);
  ts = v_str(v);
  if (len != NULL) *len = ts->len;
  return getstr(ts);
}

LUA_API lua_Unsigned lua_rawlen(lua_State *L, int idx) {
  Value v = *index2value(L, idx);
  if (v_isstring(v)) return v_str(v)->len;
  if (v_isudata(v)) return v_udata(v)->len;
  if (v_istable(v)) return tab_len(v_tab(v));
  return 0;
}

LUA_API lua_CFunction lua_tocfunction(lua_State *L, int idx) {
  Value v = *index2value(L, idx);
  if (v_islcf(v)) return v_lcf(v);
  if (v_isCclosure(v)) return v_ccl(v)->f;
  return NULL;
}

static void *touserdata(Value v) {
  if (v_isudata(v)) return getudatamem(v_udata(v));
  if (v_islud(v)) return v_getlud(v);
  return NULL;
}

LUA_API void *lua_touserdata(lua_State *L, int idx) {
  return touserdata(*index2value(L, idx));
}

LUA_API lua_State *lua_tothread(lua_State *L, int idx) {
  Value v = *index2value(L, idx);
  return v_isthread(v) ? v_thread(v) : NULL;
}

/* Unique while the object is alive.  Strings, userdata and threads never
** move; for tables and closures this is the current address (luaL_tolstring
** prints an identity-hash-based id instead, which survives moves). */
LUA_API const void *lua_topointer(lua_State *L, int idx) {
  Value v = *index2value(L, idx);
  if (v_isudata(v) || v_islud(v)) return touserdata(v);
  if (v_islcf(v)) return v_getlcfptr(v);
  if (v_isref(v)) return (const void *)v_gc(v);
  return NULL;
}

/* For objects that the collector may move (tables, closures): their object
** tag (non-zero) and stable identity hash, used by luaL_tolstring to print an
** id that never changes.  0 for everything else. */
LUAI_FUNC int api_objid(lua_State *L, int idx, unsigned int *id);
int api_objid(lua_State *L, int idx, unsigned int *id) {
  Value v = *index2value(L, idx);
  if (v_istable(v) || v_isLclosure(v) || v_isCclosure(v)) {
    *id = v_gc(v)->hash;
    return v_gc(v)->tt;
  }
  return 0;
}

/* ------------------------------------------------------------------------
** push functions (C -> stack)
** ---------------------------------------------------------------------- */

LUA_API void lua_pushnil(lua_State *L) {
  pushvalue(L, MVM_NIL);
}

LUA_API void lua_pushnumber(lua_State *L, lua_Number n) {
  pushvalue(L, v_float(n));
}

/* lua_pushinteger of a value that needs a box, out of line */
static __attribute__((noinline)) void pushboxedint(lua_State *L, lua_Integer n) {
  Value v = vm_int(L, n);   /* may box (allocate) before the slot is used */
  pushvalue(L, v);
}

LUA_API void lua_pushinteger(lua_State *L, lua_Integer n) {
  if (l_likely(v_fitsimm(n)))
    pushvalue(L, v_immint(n));
  else
    pushboxedint(L, n);
}

LUA_API const char *lua_pushlstring(lua_State *L, const char *s, size_t len) {
  TString *ts = str_new(L, (len == 0) ? "" : s, len);
  pushvalue(L, v_ref(ts));
  gc_check(L);
  return getstr(ts);
}

LUA_API const char *lua_pushstring(lua_State *L, const char *s) {
  TString *ts;
  if (s == NULL) {
    pushvalue(L, MVM_NIL);
    return NULL;
  }
  ts = str_newz(L, s);
  pushvalue(L, v_ref(ts));
  gc_check(L);
  return getstr(ts);
}

LUA_API const char *lua_pushvfstring(lua_State *L, const char *fmt, va_list argp) {
  const char *r = str_pushvfstring(L, fmt, argp);
  gc_check(L);
  return r;
}

LUA_API const char *lua_pushfstring(lua_State *L, const char *fmt, ...) {
  const char *r;
  va_list argp;
  va_start(argp, fmt);
  r = str_pushvfstring(L, fmt, argp);
  va_end(argp);
  gc_check(L);
  return r;
}

LUA_API void lua_pushcclosure(lua_State *L, lua_CFunction fn, int n) {
  if (n == 0)
    pushvalue(L, (v_lcf)((void (*)(void))fn));  /* the constructor, not object.h's decoder macro */
  else {
    int i;
    CClosure *cl = func_newCclosure(L, n);   /* upvalues are anchored on the stack */
    cl->f = fn;
    L->top -= n;
    for (i = 0; i < n; i++)
      cl->upvalue[i] = L->top[i];   /* NOBARRIER: fresh closure, nothing allocated since */
    pushvalue(L, v_ref(cl));
    gc_check(L);
  }
}

LUA_API void lua_pushboolean(lua_State *L, int b) {
  pushvalue(L, v_bool(b));
}

LUA_API void lua_pushlightuserdata(lua_State *L, void *p) {
  pushvalue(L, v_lud(p));
}

LUA_API int lua_pushthread(lua_State *L) {
  pushvalue(L, v_threadval(L));
  return G(L)->mainthread == L;
}

/* ------------------------------------------------------------------------
** get functions (Lua -> stack)
** ---------------------------------------------------------------------- */

/* raw lookup result usable by the fast path (present and not nil)? */
/* t[n] with the array part inlined (table.insert/remove shift loops) */
static inline const Value *getint_fast(Table *h, lua_Integer n) {
  if ((lua_Unsigned)n - 1u < (lua_Unsigned)h->asize) return &h->array[n - 1];
  return tab_getint(h, n);
}

static inline int fastslot(const Value *slot) {
  return slot != NULL && !isabstkey(slot) && !v_isnil(*slot);
}

/* the globals table, read from the registry (a slot in its array part) */
static const Value *globals_slot(lua_State *L) {
  return tab_getint(v_tab(G(L)->l_registry), LUA_RIDX_GLOBALS);
}

/* t[k] for a string key; 't' is given by an absolute index or pseudo-index
** (or 0 for the globals table).  The key is pushed first (anchoring it) and
** becomes the result slot. */
static int getstrfield(lua_State *L, int tidx, const char *k) {
  TString *key = str_newz(L, k);
  const Value *t, *slot = NULL;
  pushvalue(L, v_ref(key));
  t = (tidx == 0) ? globals_slot(L) : index2value(L, tidx);
  if (v_istable(*t)) {
    slot = tab_getstr(v_tab(*t), key);
    if (fastslot(slot)) {
      L->top[-1] = *slot;
      return v_type(L->top[-1]);
    }
  }
  vm_finishget(L, t, L->top - 1, L->top - 1, slot);
  return v_type(L->top[-1]);
}

LUA_API int lua_getglobal(lua_State *L, const char *name) {
  return getstrfield(L, 0, name);
}

LUA_API int lua_gettable(lua_State *L, int idx) {
  const Value *t = index2value(L, idx);
  const Value *slot = NULL;
  if (v_istable(*t)) {
    slot = tab_get(v_tab(*t), L->top[-1]);
    if (fastslot(slot)) {
      L->top[-1] = *slot;
      return v_type(L->top[-1]);
    }
  }
  vm_finishget(L, t, L->top - 1, L->top - 1, slot);
  return v_type(L->top[-1]);
}

LUA_API int lua_getfield(lua_State *L, int idx, const char *k) {
  return getstrfield(L, lua_absindex(L, idx), k);
}

/* lua_geti past its array-part case, out of line so that the common case
** needs no stack frame (table.concat, ipairs, sort read through it) */
static __attribute__((noinline)) int geti_other(lua_State *L, int idx, lua_Integer n) {
  const Value *t = index2value(L, idx);
  const Value *slot = NULL;
  Value key;
  if (v_istable(*t)) {
    slot = getint_fast(v_tab(*t), n);
    if (fastslot(slot)) {
      pushvalue(L, *slot);
      return v_type(L->top[-1]);
    }
  }
  idx = lua_absindex(L, idx);
  key = vm_int(L, n);            /* may allocate: push, then re-fetch t */
  pushvalue(L, key);
  t = index2value(L, idx);
  slot = v_istable(*t) ? tab_getint(v_tab(*t), n) : NULL;
  vm_finishget(L, t, L->top - 1, L->top - 1, slot);
  return v_type(L->top[-1]);
}

LUA_API int lua_geti(lua_State *L, int idx, lua_Integer n) {
  const Value *t = index2value(L, idx);
  if (v_istable(*t)) {
    Table *h = v_tab(*t);
    if ((lua_Unsigned)n - 1u < (lua_Unsigned)h->asize && !v_isnil(h->array[n - 1])) {
      pushvalue(L, h->array[n - 1]);
      return v_type(L->top[-1]);
    }
  }
  return geti_other(L, idx, n);
}

static int finishrawget(lua_State *L, const Value *val) {
  Value v = isabstkey(val) ? MVM_NIL : *val;
  pushvalue(L, v);
  return v_type(v);
}

LUA_API int lua_rawget(lua_State *L, int idx) {
  Table *t = v_tab(*index2value(L, idx));
  const Value *val = tab_get(t, L->top[-1]);
  L->top--;
  return finishrawget(L, val);
}

LUA_API int lua_rawgeti(lua_State *L, int idx, lua_Integer n) {
  Table *t = v_tab(*index2value(L, idx));
  return finishrawget(L, tab_getint(t, n));
}

LUA_API int lua_rawgetp(lua_State *L, int idx, const void *p) {
  Table *t = v_tab(*index2value(L, idx));
  return finishrawget(L, tab_get(t, v_lud((void *)p)));
}

LUA_API void lua_createtable(lua_State *L, int narray, int nrec) {
  Table *t = tab_new(L);
  pushvalue(L, v_ref(t));
  if (narray > 0 || nrec > 0)
    tab_resize(L, t, (unsigned)(narray > 0 ? narray : 0), (unsigned)(nrec > 0 ? nrec : 0));
  gc_check(L);
}

LUA_API int lua_getmetatable(lua_State *L, int objindex) {
  Value v = *index2value(L, objindex);
  Table *mt;
  if (v_istable(v)) mt = v_tab(v)->metatable;
  else if (v_isudata(v)) mt = v_udata(v)->metatable;
  else {
    int t = v_type(v);
    mt = (t >= 0 && t < LUA_NUMTYPES) ? G(L)->mt[t] : NULL;
  }
  if (mt == NULL) return 0;
  pushvalue(L, v_ref(mt));
  return 1;
}

LUA_API int lua_getiuservalue(lua_State *L, int idx, int n) {
  Value v = *index2value(L, idx);
  Udata *u;
  if (!v_isudata(v)) { pushvalue(L, MVM_NIL); return LUA_TNONE; }
  u = v_udata(v);
  if (n <= 0 || n > u->nuvalue) {
    pushvalue(L, MVM_NIL);
    return LUA_TNONE;
  }
  pushvalue(L, u->uv[n - 1]);
  return v_type(L->top[-1]);
}

/* ------------------------------------------------------------------------
** set functions (stack -> Lua)
** ---------------------------------------------------------------------- */

/* a raw store may add a key like "__index": forget the cached absences */
static inline void invalidate_tmcache(lua_State *L, Table *t) {
  tab_clearextra(G(L), t);
}

/* t[k] = value at top-1, string key; tidx as for getstrfield */
static void setstrfield(lua_State *L, int tidx, const char *k) {
  TString *key = str_newz(L, k);
  const Value *t, *slot = NULL;
  pushvalue(L, v_ref(key));        /* stack: ... value key */
  t = (tidx == 0) ? globals_slot(L) : index2value(L, tidx);
  if (v_istable(*t)) {
    slot = tab_getstr(v_tab(*t), key);
    if (fastslot(slot)) {
      tab_setslot(L, v_tab(*t), slot, L->top[-2]);
      L->top -= 2;
      return;
    }
  }
  vm_finishset(L, t, L->top - 1, L->top - 2, slot);
  L->top -= 2;
}

LUA_API void lua_setglobal(lua_State *L, const char *name) {
  setstrfield(L, 0, name);
}

LUA_API void lua_settable(lua_State *L, int idx) {
  const Value *t = index2value(L, idx);
  const Value *slot = NULL;
  if (v_istable(*t)) {
    slot = tab_get(v_tab(*t), L->top[-2]);
    if (fastslot(slot)) {
      tab_setslot(L, v_tab(*t), slot, L->top[-1]);
      L->top -= 2;
      return;
    }
  }
  vm_finishset(L, t, L->top - 2, L->top - 1, slot);
  L->top -= 2;
}

LUA_API void lua_setfield(lua_State *L, int idx, const char *k) {
  setstrfield(L, lua_absindex(L, idx), k);
}

LUA_API void lua_seti(lua_State *L, int idx, lua_Integer n) {
  const Value *t = index2value(L, idx);
  const Value *slot = NULL;
  Value key;
  if (v_istable(*t)) {
    slot = getint_fast(v_tab(*t), n);
    /* (an array slot, even nil, is raw when no __newindex can run) */
    if (fastslot(slot) || ((lua_Unsigned)n - 1u < (lua_Unsigned)v_tab(*t)->asize &&
                           v_tab(*t)->metatable == NULL)) {
      tab_setslot(L, v_tab(*t), slot, L->top[-1]);
      L->top--;
      return;
    }
  }
  idx = lua_absindex(L, idx);
  key = vm_int(L, n);             /* may allocate: push, then re-fetch t */
  pushvalue(L, key);              /* stack: ... value key */
  t = index2value(L, idx);
  slot = v_istable(*t) ? tab_getint(v_tab(*t), n) : NULL;
  vm_finishset(L, t, L->top - 1, L->top - 2, slot);
  L->top -= 2;
}

LUA_API void lua_rawset(lua_State *L, int idx) {
  Table *t = v_tab(*index2value(L, idx));
  tab_set(L, t, L->top[-2], L->top[-1]);
  invalidate_tmcache(L, t);
  L->top -= 2;
}

LUA_API void lua_rawseti(lua_State *L, int idx, lua_Integer n) {
  Table *t = v_tab(*index2value(L, idx));
  tab_setint(L, t, n, L->top[-1]);
  L->top--;
}

LUA_API void lua_rawsetp(lua_State *L, int idx, const void *p) {
  Table *t = v_tab(*index2value(L, idx));
  tab_set(L, t, v_lud((void *)p), L->top[-1]);
  invalidate_tmcache(L, t);
  L->top--;
}

LUA_API int lua_setmetatable(lua_State *L, int objindex) {
  global_State *g = G(L);
  Value v = *index2value(L, objindex);
  Value mtv = L->top[-1];
  Table *mt = v_isnil(mtv) ? NULL : v_tab(mtv);
  if (v_istable(v)) {
    tab_setmetatable(g, v_tab(v), mt);
  }
  else if (v_isudata(v)) {
    Udata *u = v_udata(v);
    u->metatable = mt;
    gc_cardmark(g, (GCObject *)u, &u->metatable);
  }
  else {
    int tp = v_type(v);
    if (tp >= 0 && tp < LUA_NUMTYPES)
      g->mt[tp] = mt;     /* NOBARRIER: per-type metatables are roots */
  }
  if (mt != NULL && (v_istable(v) || v_isudata(v))) {
    const Value *gcf = tab_getstr(mt, g->tmname[TM_GC]);
    if (!isabstkey(gcf) && !v_isnil(*gcf))
      gc_checkfinalizer(L, v_gc(v), mt);
  }
  L->top--;
  return 1;
}

LUA_API int lua_setiuservalue(lua_State *L, int idx, int n) {
  Value v = *index2value(L, idx);
  int res = 0;
  if (v_isudata(v)) {
    Udata *u = v_udata(v);
    if (n > 0 && n <= u->nuvalue) {
      gc_writeobj(L, u, &u->uv[n - 1], L->top[-1]);
      res = 1;
    }
  }
  L->top--;
  return res;
}

/* ------------------------------------------------------------------------
** userdata, dump
** ---------------------------------------------------------------------- */

LUA_API void *lua_newuserdatauv(lua_State *L, size_t size, int nuvalue) {
  Udata *u;
  int i;
  if (nuvalue < 0) nuvalue = 0;
  u = udata_new(L, size, nuvalue);
  for (i = 0; i < nuvalue; i++)
    u->uv[i] = MVM_NIL;          /* NOBARRIER: nil is not a reference */
  pushvalue(L, v_ref(u));
  gc_check(L);
  return getudatamem(u);
}

LUA_API int lua_dump(lua_State *L, lua_Writer writer, void *data, int strip) {
  Value o = L->top[-1];
  if (v_isLclosure(o))
    return mvm_dump(L, v_lcl(o)->p, writer, data, strip);
  return 1;
}

/* ------------------------------------------------------------------------
** garbage collection
** ---------------------------------------------------------------------- */

/* Set a remembered lua_gc knob (global_State.gcpause/gcstepmul) and return
** its previous value.  5.4 keeps these in a byte as value/4, so what comes
** back later is the value rounded down to a multiple of 4, modulo 1024. */
static int gcparam(int *knob, int newval) {
  int old = *knob;
  *knob = (int)(unsigned char)(newval / 4) * 4;
  return old;
}

LUA_API int lua_gc(lua_State *L, int what, ...) {
  va_list argp;
  int res = 0;
  global_State *g = G(L);
  va_start(argp, what);
  switch (what) {
    case LUA_GCSTOP: gc_setrunning(g, 0); break;
    case LUA_GCRESTART: gc_setrunning(g, 1); break;
    case LUA_GCCOLLECT: gc_fullgc(L, 0); break;
    case LUA_GCCOUNT: res = (int)(gc_totalbytes(g) >> 10); break;
    case LUA_GCCOUNTB: res = (int)(gc_totalbytes(g) & 0x3ff); break;
    case LUA_GCSTEP: {
      int data = va_arg(argp, int);
      /* The collector is not incremental: a step is a whole cycle.  The
      ** answer imitates 5.4: in generational mode a step never ends in the
      ** pause state, so it answers false; in incremental mode a basic step
      ** (0) finishes a cycle of a small heap, and explicit amounts of work
      ** add up until they cover the heap (so "repeat until step(n)" ends). */
      if (gc_getmode(g)) {
        gc_step(L, data);
        res = 0;
      }
      else if (data <= 0)
        res = gc_step(L, data);
      else {
        g->gcstepdebt += data;
        if ((size_t)g->gcstepdebt * 1024 >= gc_totalbytes(g)) {
          g->gcstepdebt = 0;
          res = gc_step(L, data);
        }
      }
      break;
    }
    case LUA_GCSETPAUSE: {
      int data = va_arg(argp, int);
      res = gcparam(&g->gcpause, data);
      break;
    }
    case LUA_GCSETSTEPMUL: {
      int data = va_arg(argp, int);
      res = gcparam(&g->gcstepmul, data);
      break;
    }
    case LUA_GCISRUNNING: res = gc_isrunning(g); break;
    case LUA_GCGEN: {
      (void)va_arg(argp, int);   /* minormul */
      (void)va_arg(argp, int);   /* majormul */
      res = gc_setmode(g, 1) ? LUA_GCGEN : LUA_GCINC;
      break;
    }
    case LUA_GCINC: {
      int pause = va_arg(argp, int);
      int stepmul = va_arg(argp, int);
      (void)va_arg(argp, int);   /* stepsize */
      if (pause != 0) gcparam(&g->gcpause, pause);
      if (stepmul != 0) gcparam(&g->gcstepmul, stepmul);
      res = gc_setmode(g, 0) ? LUA_GCGEN : LUA_GCINC;
      break;
    }
    default: res = -1;
  }
  va_end(argp);
  return res;
}

/* ------------------------------------------------------------------------
** miscellaneous
** ---------------------------------------------------------------------- */

LUA_API int lua_next(lua_State *L, int idx) {
  Table *t = v_tab(*index2value(L, idx));
  int more = tab_next(L, t, L->top - 1, L->top);
  if (more) api_incr_top(L);
  else L->top--;
  return more;
}

LUA_API void lua_toclose(lua_State *L, int idx) {
  Value *o = index2stack(L, idx);
  int nres = L->ci->nresults;
  func_newtbcupval(L, o);
  /* mark the C frame as having tbc variables (its results must be moved
  ** with the variables closed), encoded as in 5.4 */
  if (!(nres < LUA_MULTRET))
    L->ci->nresults = (short)(-nres - 3);
}

LUA_API void lua_concat(lua_State *L, int n) {
  if (n > 0)
    vm_concat(L, n);
  else {
    TString *ts = str_new(L, "", 0);
    pushvalue(L, v_ref(ts));
  }
  gc_check(L);
}

LUA_API void lua_len(lua_State *L, int idx) {
  const Value *t = index2value(L, idx);
  vm_objlen(L, L->top, t);
  api_incr_top(L);
}

LUA_API lua_Alloc lua_getallocf(lua_State *L, void **ud) {
  lua_Alloc f = G(L)->frealloc;
  if (ud) *ud = G(L)->ud;
  return f;
}

LUA_API void lua_setallocf(lua_State *L, lua_Alloc f, void *ud) {
  G(L)->ud = ud;
  G(L)->frealloc = f;
}

LUA_API void lua_setwarnf(lua_State *L, lua_WarnFunction f, void *ud) {
  G(L)->ud_warn = ud;
  G(L)->warnf = f;
}

LUA_API void lua_warning(lua_State *L, const char *msg, int tocont) {
  lua_WarnFunction wf = G(L)->warnf;
  if (wf != NULL)
    wf(G(L)->ud_warn, msg, tocont);
}

/* ------------------------------------------------------------------------
** mvm extension for the table library: a raw block move inside the array
** part, used by table.insert/remove to shift elements.  Their shift loops
** are specified as lua_geti/lua_seti pairs; for a table without a
** metatable those are raw accesses, and when both ranges lie in the array
** part the loop reads and writes only array slots, so a memmove produces
** the same contents (a hole moves as a nil, as lua_geti/lua_seti would
** move it).  Returns 0, doing nothing, when that does not hold; the caller
** then runs the generic loop.
** ---------------------------------------------------------------------- */
LUAI_FUNC int api_tabmove(lua_State *L, int idx, lua_Integer dst,
                          lua_Integer src, lua_Integer n) {
  const Value *t = index2value(L, idx);
  Table *h;
  lua_Unsigned lo, hi;
  if (n <= 0 || !v_istable(*t)) return 0;
  h = v_tab(*t);
  if (h->metatable != NULL) return 0;
  lo = (lua_Unsigned)(dst < src ? dst : src);
  hi = (lua_Unsigned)(dst < src ? src : dst);
  /* 1 <= lo and hi + n - 1 <= asize (unsigned: rejects lo <= 0) */
  if (lo - 1u >= (lua_Unsigned)h->asize ||
      (lua_Unsigned)n > (lua_Unsigned)h->asize - (hi - 1u)) return 0;
  memmove(&h->array[dst - 1], &h->array[src - 1], (size_t)n * sizeof(Value));
  /* the moved values may include references into the nursery */
  gc_cardmarkrange(G(L), (GCObject *)h, &h->array[dst - 1],
                   (size_t)n * sizeof(Value));
  /* the length hint: a block taken from below a tight hint is values */
  if ((lua_Unsigned)(src + n - 1) <= (lua_Unsigned)h->lenhint)
    tab_lenvalues(h, (unsigned)dst, (unsigned)(dst + n - 1));
  else
    tab_lenrange(h, (unsigned)dst, (unsigned)(dst + n - 1));
  return 1;
}

/* ------------------------------------------------------------------------
** next(t, k) on a table (stdlib/baselib.c base_next), raw: the pair after
** k (2 results) or nil (1), without the API's index translations; -1,
** doing nothing, when the argument is not a table (the caller raises).
** api_setiters registers ipairs' iterator and next (stdlib/baselib.c),
** whose steps the interpreter's TFORCALL makes inline (vmops.h vm_tforipairs,
** vm_tfornext).
** The step of ipairs' iterator (stdlib/baselib.c) on a table without a
** metatable and an immediate integer control: i + 1 and t[i + 1] pushed
** from the raw lookup, without the API's index translations.  Returns the
** number of results (1: the loop ends at a nil), or -1, doing nothing,
** when the general step (lua_geti: __index) must run.
** ---------------------------------------------------------------------- */
/* the coroutine of a function made by coroutine.wrap (stdlib/corolib.c
** wrap_call), which is upvalue 1 of the running C closure: lua_tothread
** without the index translation and the checks that cannot fail there */
LUAI_FUNC lua_State *api_wrapthread(lua_State *L) {
  return v_thread(v_ccl(*L->ci->func)->upvalue[0]);
}

LUAI_FUNC int api_wrapresume(lua_State *L) {
  return mvm_resume(L, api_wrapthread(L), (int)(L->top - (L->ci->func + 1)));
}

LUAI_FUNC int api_coresume(lua_State *L, lua_CFunction notthread) {
  Value *arg = L->ci->func + 1;
  int r;
  if (L->top == arg || !v_isthread(arg[0])) return (*notthread)(L);
  r = mvm_resume(L, v_thread(arg[0]), (int)(L->top - arg) - 1);
  /* (the stack may have moved) */
  L->ci->func[1] = r >= 0 ? MVM_TRUE : MVM_FALSE;   /* NOBARRIER: a stack slot */
  return r >= 0 ? r + 1 : 2;
}

/* luaL_getmetafield(L, obj, event): pushes the field and returns its type,
** or pushes nothing and returns LUA_TNIL.  The name is looked up among the
** interned strings instead of being created (string keys are interned: a
** name that is not is the key of no table), and the metatable is read in
** place, not pushed: tostring and string.format's %s ask every string
** argument for a "__tostring" in the string metatable. */
LUAI_FUNC int api_getmetafield(lua_State *L, int obj, const char *event) {
  Value v = *index2value(L, obj);
  Table *mt;
  TString *key;
  const Value *field;
  mt = meta_getmetatable(L, v);
  if (mt == NULL || (key = str_lookup(G(L), event, strlen(event))) == NULL)
    return LUA_TNIL;
  field = tab_getshortstr(mt, key);
  if (isabstkey(field) || v_isnil(*field)) return LUA_TNIL;
  pushvalue(L, *field);
  return v_type(*field);
}

LUAI_FUNC void api_setiters(lua_State *L, lua_CFunction ipairsaux, lua_CFunction next) {
  G(L)->ipairsaux = ipairsaux;
  G(L)->nextaux = next;
}

LUAI_FUNC int api_nextstep(lua_State *L) {
  Value *arg = L->ci->func + 1;
  int n = (int)(L->top - arg);
  if (n < 1 || !v_istable(arg[0])) return -1;
  if (n == 1) arg[1] = MVM_NIL;   /* a missing key means "first" */
  L->top = arg + 2;               /* (lua_settop(L, 2)) */
  if (tab_next(L, v_tab(arg[0]), &arg[1], &arg[2])) {
    L->top = arg + 3;
    return 2;
  }
  arg[1] = MVM_NIL;
  return 1;
}

/* type(v) read from the stack: the preallocated name; -1 without an
** argument (the error path) */
LUAI_FUNC int api_typestep(lua_State *L) {
  Value *arg = L->ci->func + 1;
  if (L->top == arg) return -1;
  arg[0] = v_ref(G(L)->tname[v_type(arg[0])]);   /* NOBARRIER: stack slot */
  L->top = arg + 1;
  return 1;
}

/* setmetatable(t, mt) with two arguments, read from the stack, in its
** common case (meta_setmtfast): t is the result.  -1 otherwise (the
** library's checks and lua_setmetatable). */
LUAI_FUNC int api_setmtstep(lua_State *L) {
  Value *arg = L->ci->func + 1;
  if (L->top - arg != 2 || !meta_setmtfast(G(L), arg[0], arg[1])) return -1;
  L->top = arg + 1;
  return 1;
}

/* tonumber(v) with one argument, read from the stack: a number is its own
** result, a string its numeral's value or nil (the whole string must be
** a numeral: a '\0' inside ends the text first), anything else nil (as
** luaL_checkany passes and the conversion fails).  -1 otherwise (a
** base, or no argument: the general path). */
LUAI_FUNC int api_tonumberstep(lua_State *L) {
  Value *arg = L->ci->func + 1;
  Value v, r = MVM_NIL;
  if (L->top - arg != 1) return -1;
  v = arg[0];
  if (v_isnumber(v)) return 1;
  if (v_isstring(v)) {
    const TString *ts = v_str(v);
    /* (the string stays anchored in arg[0] while vm_str2num may box) */
    if (!vm_strtonumber(L, ts, &r)) r = MVM_NIL;
  }
  arg[0] = r;   /* NOBARRIER: stack slot */
  return 1;
}

/* table.insert(t, v) and table.remove(t) on a table without metatable
** (no __len, __index or __newindex can run), read from the stack: the
** append at #t + 1 and the pop of t[#t] (t[0] when #t is 0, as lua5.4),
** with the raw stores lua_seti would make.  -1 otherwise (positions,
** metatables, other arguments: tablib's general path). */
LUAI_FUNC int api_tabpush(lua_State *L) {
  Value *arg = L->ci->func + 1;
  Table *t;
  lua_Unsigned n;
  if (L->top - arg != 2 || !v_istable(arg[0])) return -1;
  t = v_tab(arg[0]);
  if (t->metatable != NULL || (n = tab_len(t)) >= (lua_Unsigned)MVM_IMM_MAX) return -1;
  tab_setint(L, t, (int64_t)n + 1, arg[1]);   /* (never collects; t stays put) */
  L->top = arg;
  return 0;
}

LUAI_FUNC int api_tabpop(lua_State *L) {
  Value *arg = L->ci->func + 1;
  Table *t;
  lua_Unsigned n;
  Value v;
  if (L->top - arg != 1 || !v_istable(arg[0])) return -1;
  t = v_tab(arg[0]);
  if (t->metatable != NULL || (n = tab_len(t)) >= (lua_Unsigned)MVM_IMM_MAX) return -1;
  v = *tab_getint(t, (int64_t)n);
  if (isabstkey(&v)) v = MVM_NIL;
  tab_setint(L, t, (int64_t)n, MVM_NIL);
  arg[0] = v;   /* NOBARRIER: stack slot */
  return 1;
}

/* table.pack(...)'s table, on top of the stack: the arguments copied
** into its array part as a store of each would (tab_putslot: the length
** hint's upkeep and the barrier), without lua_pushvalue and lua_seti
** per value (3-4% of bench/extra2's varargs.lua), and "n".  MAY
** ALLOCATE (the table). */
LUAI_FUNC void api_tabpack(lua_State *L) {
  int n = (int)(L->top - (L->ci->func + 1)), i;
  Table *t;
  lua_createtable(L, n, 1);
  t = v_tab(L->top[-1]);
  for (i = 0; i < n; i++) {
    Value v = L->ci->func[1 + i];
    if ((unsigned)i < t->asize) tab_putslot(L, t, &t->array[i], v);
    else tab_setint(L, t, i + 1, v);   /* (not seen: createtable sized it) */
  }
  lua_pushinteger(L, n);
  lua_setfield(L, -2, "n");
}

/* table.unpack(t [, i, j]) of a table without metatable (no __len or
** __index can run), i and j immediate, at most LUA_MINSTACK values: read
** from the stack, the values copied over the arguments (a C function has
** LUA_MINSTACK free slots above them: no stack growth, no allocation).
** -1 otherwise (tablib's general path). */
LUAI_FUNC int api_tabunpack(lua_State *L) {
  Value *arg = L->ci->func + 1;
  ptrdiff_t nargs = L->top - arg;
  Table *t;
  int64_t i = 1, e, k;
  if (nargs < 1 || nargs > 3 || !v_istable(arg[0])) return -1;
  t = v_tab(arg[0]);
  if (t->metatable != NULL) return -1;
  if (nargs >= 2) {
    if (!v_isimmint(arg[1])) return -1;
    i = v_getimmint(arg[1]);
  }
  if (nargs == 3) {
    if (!v_isimmint(arg[2])) return -1;
    e = v_getimmint(arg[2]);
  }
  else {
    lua_Unsigned n = tab_len(t);
    if (n >= (lua_Unsigned)MVM_IMM_MAX) return -1;
    e = (int64_t)n;
  }
  if (i > e) return 0;
  if (e - i >= LUA_MINSTACK) return -1;   /* (immediates: no overflow) */
  for (k = i; k <= e; k++) {
    const Value *slot = tab_getimm(t, k);
    arg[k - i] = isabstkey(slot) ? MVM_NIL : *slot;   /* NOBARRIER: stack slot */
  }
  L->top = arg + (e - i + 1);
  return (int)(e - i + 1);
}

/* select('#', ...) and select(i, ...) with an immediate i from 1 to the
** count, read from the stack (lua_type, lua_tostring and
** luaL_checkinteger were most of a call); -1 otherwise (negative or too
** large i, numeric strings, errors: baselib's general path) */
LUAI_FUNC int api_selectstep(lua_State *L) {
  Value *arg = L->ci->func + 1;
  ptrdiff_t n = L->top - arg;
  if (n < 1) return -1;
  if (v_isstring(arg[0])) {
    if (getstr(v_str(arg[0]))[0] != '#') return -1;
    arg[0] = v_immint((int64_t)(n - 1));   /* NOBARRIER: stack slot */
    L->top = arg + 1;
    return 1;
  }
  if (v_isimmint(arg[0]) && v_getimmint(arg[0]) >= 1 && v_getimmint(arg[0]) < n)
    return (int)(n - v_getimmint(arg[0]));
  return -1;
}

/* math.floor(x) and math.ceil(x) (up) of one number read from the stack:
** an immediate integer is its own result, a float whose floor (ceiling)
** is an immediate integer gives that integer, as lua_numbertointeger
** would; -1 otherwise (more arguments, non-numbers, results that box or
** stay floats: mathlib's general path) */
LUAI_FUNC int api_roundstep(lua_State *L, int up) {
  Value *arg = L->ci->func + 1;
  double x;
  int64_t i;
  if (L->top - arg != 1) return -1;
  if (v_isimmint(arg[0])) return 1;
  if (!v_isfloat(arg[0])) return -1;
  x = v_getfloat(arg[0]);
  if (!(x >= (double)MVM_IMM_MIN && x <= (double)MVM_IMM_MAX)) return -1;   /* (NaN too) */
  /* rounded without libm's floor/ceil (a call; richards' math.floor):
  ** the truncation is exact in the immediate range, then one step */
  i = (int64_t)x;
  if (up) i += (double)i < x;
  else i -= (double)i > x;
  arg[0] = v_immint(i);   /* NOBARRIER: stack slot */
  return 1;
}

/* rawget(t, k) and rawset(t, k, v) (set) with a table and an immediate
** integer or string key, read from the stack; rawset only over a present
** value (a new key may grow the table: the general path).  -1 otherwise
** (baselib's general path: other keys, errors). */
LUAI_FUNC int api_rawstep(lua_State *L, int set) {
  Value *arg = L->ci->func + 1;
  Table *t;
  const Value *slot;
  if (L->top - arg != 2 + set || !v_istable(arg[0])) return -1;
  t = v_tab(arg[0]);
  if (v_isimmint(arg[1])) slot = tab_getimm(t, v_getimmint(arg[1]));
  else if (v_isstring(arg[1])) slot = tab_getstr(t, v_str(arg[1]));
  else return -1;
  if (!set) {
    arg[0] = isabstkey(slot) ? MVM_NIL : *slot;   /* NOBARRIER: stack slot */
    L->top = arg + 1;
    return 1;
  }
  if (isabstkey(slot) || v_isnil(*slot)) return -1;   /* absent or dead */
  tab_setslot(L, t, slot, arg[2]);   /* (barrier; never allocates) */
  L->top = arg + 1;   /* rawset returns the table */
  return 1;
}

LUAI_FUNC int api_ipairsstep(lua_State *L) {
  Value *arg = L->ci->func + 1;
  Table *h;
  const Value *slot;
  int64_t i;
  if (L->top - arg != 2 || !v_istable(arg[0]) || !v_isimmint(arg[1]))
    return -1;
  h = v_tab(arg[0]);
  i = v_getimmint(arg[1]);
  if (h->metatable != NULL || i >= MVM_IMM_MAX) return -1;
  i++;
  slot = tab_getimm(h, i);
  /* (the C function's LUA_MINSTACK slots hold both) */
  arg[2] = v_immint(i);
  if (isabstkey(slot) || v_isnil(*slot)) {
    arg[3] = MVM_NIL;
    L->top = arg + 4;
    return 1;
  }
  arg[3] = *slot;
  L->top = arg + 4;
  return 2;
}
