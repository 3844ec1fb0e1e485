/*
** ffi_call.c -- calling C functions through libffi, and callbacks.
**
** Calls: every argument is converted (and checked) before any C code runs;
** a non-variadic prototype keeps one prepared ffi_cif, a variadic call
** prepares one per call (ffi_prep_cif_var) with the extra arguments typed
** from their Lua values: integers -> int64_t, floats -> double, strings ->
** const char *, booleans -> int, nil -> void *, cdata by their type (float
** promoted to double, small integers to int, arrays decay to pointers).
**
** Callbacks: libffi closures whose handler enters Lua on the thread of the
** innermost active ffi call (S->frame), where the VM state is consistent:
** the calling C function of mvm is suspended inside ffi_call.  The Lua
** function runs under lua_pcall; an error is stashed in the frame, later
** callbacks of that call return 0 without running Lua, and the error is
** re-raised once the C function returns.  So no longjmp ever crosses
** foreign C frames.  A callback made from a function argument lives for the
** duration of the call; one made by ffi.cast is permanent until cb:free().
*/
#include <alloca.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ffi_int.h"

struct Callback {
  Callback *next;
  ffi_closure *closure;
  void *code;
  int fnref;
  int ftype;
  int temp;
  uint64_t seq;
  FFIState *S;
};

#define MAXARGS 64

/* the prepared cif of a non-variadic function type */
static ffi_cif *get_cif(lua_State *L, FFIState *S, int ftid) {
  CType *ft = ctype(S, ftid);
  if (ft->cif) return ft->cif;
  int n = ft->nfield;
  ffi_type **argt = calloc(n + 1, sizeof(ffi_type *));
  ffi_cif *cif = calloc(1, sizeof(ffi_cif));
  if (argt == NULL || cif == NULL) { free(argt); free(cif); luaL_error(L, "not enough memory"); }
  for (int i = 0; i < n; i++) argt[i] = ct_ffitype(S, ft->fields[i].type);
  ffi_type *rt = ct_ffitype(S, ft->base);
  if (ffi_prep_cif(cif, FFI_DEFAULT_ABI, (unsigned)n, rt, argt) != FFI_OK) {
    free(argt); free(cif);
    luaL_error(L, "cannot prepare call interface for '%s'", ct_pushname(L, S, ftid));
  }
  ft = ctype(S, ftid);
  ft->cif = cif;
  ft->argt = argt;
  return cif;
}

/* the C type a variadic argument is passed as */
static int vararg_type(lua_State *L, FFIState *S, int idx, int argn) {
  switch (lua_type(L, idx)) {
    case LUA_TNUMBER: return lua_isinteger(L, idx) ? T_INT64 : T_DOUBLE;
    case LUA_TSTRING: return T_CCHARP;
    case LUA_TBOOLEAN: return T_INT;
    case LUA_TNIL: case LUA_TLIGHTUSERDATA: return T_VOIDP;
    case LUA_TUSERDATA: {
      CData *cd = cd_test(L, idx);
      if (cd == NULL) return T_VOIDP;
      if (cd->flags & CD_CTYPE) break;
      CType *ct = ctype(S, cd->id);
      switch (ct->kind) {
        case CT_FLOAT: return ct->size == 4 ? T_DOUBLE : cd->id;
        case CT_BOOL: return T_INT;
        case CT_INT: case CT_ENUM:
          if (ct->size < 4) return T_INT;
          return ct_unqual(S, cd->id);
        case CT_ARRAY: return ct_ptr(S, ct->base);
        case CT_FUNC: return ct_ptr(S, cd->id);
        default: return ct_unqual(S, cd->id);
      }
    }
    default: break;
  }
  luaL_error(L, "bad argument #%d to '%s' (cannot pass '%s' as a variadic argument)",
             argn, ffi_callname(L), luaL_typename(L, idx));
  return 0;
}

static void free_temps(FFIState *S, uint64_t mark, lua_State *L) {
  Callback **pp = &S->callbacks;
  while (*pp != NULL && (*pp)->seq > mark) {
    Callback *cb = *pp;
    if (cb->temp) {
      *pp = cb->next;
      luaL_unref(L, LUA_REGISTRYINDEX, cb->fnref);
      ffi_closure_free(cb->closure);
      free(cb);
    } else {
      pp = &cb->next;
    }
  }
}

/* name of the function being called, for argument errors: kept in user
** value 2 of the callee cdata, which is at index 1 while arguments are
** converted (pushes it) */
const char *ffi_callname(lua_State *L) {
  const char *s;
  lua_getiuservalue(L, 1, 2);
  s = lua_tostring(L, -1);
  return s ? s : "?";
}

/* ---------------------------------------------------------------- direct calls
**
** A non-variadic function whose parameters and result are all scalars
** (integers, enums, bool, pointers, float, double) and whose integer-class
** and floating-point parameters each fit the argument registers is called
** without libffi: through a pointer of one fixed type, "every integer
** register, then every FP register", with the integer-class arguments in
** order in the first and the FP ones in order in the second.  That is
** exactly where the System V x86-64 and AAPCS64 conventions put them (the
** two classes are assigned independently and in order; extra registers are
** ignored by the callee).  Integer arguments are sign/zero extended to 64
** bits from their C type (more than the ABI asks; clang's callees rely on
** the extension of bool/char/short), a float travels in the low 32 bits of
** its FP register.  Results come back in rax/x0 or xmm0/v0: the low bytes
** are the C value, read with its C type.  Anything else uses ffi_call.
*/
#if (defined(__x86_64__) && !defined(_WIN32)) || (defined(__aarch64__) && defined(__linux__))
#define DIRECT_CALLS 1
#if defined(__x86_64__)
#define NIREG 6
#define IPARAMS int64_t, int64_t, int64_t, int64_t, int64_t, int64_t
#define IARGS(a) a[0], a[1], a[2], a[3], a[4], a[5]
#else
#define NIREG 8
#define IPARAMS int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t
#define IARGS(a) a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]
#endif
#define NFREG 8
#define FPARAMS double, double, double, double, double, double, double, double
#define FARGS(a) a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]
/* declared variadic (with no variadic argument ever passed) only so that
** x86-64 callers set %al, the count of vector registers used: harmless for
** the real callee, and it keeps a variadic C function declared without its
** '...' working as it does through libffi */
typedef int64_t (*IntFn)(IPARAMS, FPARAMS, ...);
typedef double (*FltFn)(IPARAMS, FPARAMS, ...);
#else
#define DIRECT_CALLS 1
#define NIREG 0
#define NFREG 0
#endif

/* the same kinds as compiled code uses (jit/jitffi.h) */
enum { DK_NONE = JFK_NONE, DK_VOID = JFK_VOID, DK_INT = JFK_INT, DK_BOOL = JFK_BOOL,
       DK_PTR = JFK_PTR, DK_F32 = JFK_F32, DK_F64 = JFK_F64 };

typedef struct DirectSig {
  int nargs;
  uint8_t rkind;
  uint8_t akind[NIREG + NFREG + 1];
  uint8_t aslot[NIREG + NFREG + 1];   /* register index within its class */
} DirectSig;

static int direct_kind(FFIState *S, int id) {
  CType *ct = ctype(S, id);
  switch (ct->kind) {
    case CT_VOID: return DK_VOID;
    case CT_BOOL: return ct->size == 1 ? DK_BOOL : DK_NONE;
    case CT_INT: case CT_ENUM:
      return ct->size == 1 || ct->size == 2 || ct->size == 4 || ct->size == 8 ? DK_INT : DK_NONE;
    case CT_PTR: return DK_PTR;
    case CT_FLOAT: return ct->size == 4 ? DK_F32 : ct->size == 8 ? DK_F64 : DK_NONE;
    default: return DK_NONE;
  }
}

/* the direct-call plan of function type 'ftid', or NULL (decided once) */
static DirectSig *get_dsig(FFIState *S, int ftid) {
  CType *ft = ctype(S, ftid);
  DirectSig ds, *r;
  int ni = 0, nf = 0;
  if (ft->dsigdone) return ft->dsig;
  ft->dsigdone = 1;
  if (!DIRECT_CALLS || (ft->flags & CTF_VARARG) || ft->nfield > NIREG + NFREG) return NULL;
  memset(&ds, 0, sizeof ds);
  ds.nargs = ft->nfield;
  ds.rkind = (uint8_t)direct_kind(S, ft->base);
  if (ds.rkind == DK_NONE) return NULL;
  for (int i = 0; i < ft->nfield; i++) {
    int k = direct_kind(S, ft->fields[i].type);
    if (k == DK_NONE || k == DK_VOID) return NULL;
    ds.akind[i] = (uint8_t)k;
    ds.aslot[i] = (uint8_t)(k == DK_F32 || k == DK_F64 ? nf++ : ni++);
  }
  if (ni > NIREG || nf > NFREG) return NULL;
  r = malloc(sizeof ds);
  if (r != NULL) *r = ds;   /* out of memory: libffi it is */
  ft->dsig = r;
  return r;
}

#if DIRECT_CALLS
/* argument i (Lua index idx) converted as cd_convert does, into its register */
static void direct_arg(lua_State *L, FFIState *S, int type, int kind, int idx, int argn,
                       int64_t *ireg, double *freg) {
  union { int64_t i; double d; float f; uint8_t b; void *p; char buf[16]; } v;
  CType *ct = ctype(S, type);
  memset(&v, 0, sizeof v);
  if (kind == DK_F64 && lua_type(L, idx) == LUA_TNUMBER)
    v.d = lua_tonumber(L, idx);
  else if (kind == DK_INT && lua_isinteger(L, idx))
    v.i = lua_tointeger(L, idx);   /* truncated below, as store_int does */
  else
    cd_convert(L, S, type, v.buf, idx, CONV_ARG, argn);
  switch (kind) {
    case DK_INT: {
      int u = ct->flags & CTF_UNSIGNED;
      switch (ct->size) {
        case 1: *ireg = u ? (int64_t)(uint8_t)v.i : (int64_t)(int8_t)v.i; break;
        case 2: *ireg = u ? (int64_t)(uint16_t)v.i : (int64_t)(int16_t)v.i; break;
        case 4: *ireg = u ? (int64_t)(uint32_t)v.i : (int64_t)(int32_t)v.i; break;
        default: *ireg = v.i; break;
      }
      break;
    }
    case DK_BOOL: *ireg = v.b != 0; break;
    case DK_PTR: *ireg = (int64_t)(intptr_t)v.p; break;
    case DK_F32: { union { double d; float f[2]; } w; w.d = 0; w.f[0] = v.f; *freg = w.d; break; }
    default: *freg = v.d; break;
  }
}

/* the arguments at 2.. converted into their registers */
static void direct_args(lua_State *L, FFIState *S, CType *ft, DirectSig *ds,
                        int64_t *ireg, double *freg) {
  memset(ireg, 0, NIREG * sizeof(int64_t));
  memset(freg, 0, NFREG * sizeof(double));
  for (int i = 0; i < ds->nargs; i++) {
    int k = ds->akind[i];
    int s = ds->aslot[i];
    int fp = k == DK_F32 || k == DK_F64;
    direct_arg(L, S, ft->fields[i].type, k, i + 2, i + 1,
               fp ? NULL : &ireg[s], fp ? &freg[s] : NULL);
  }
}

/* the call; the result's low bytes are the C value */
static void direct_invoke(DirectSig *ds, void *fn, int64_t *ireg, double *freg, void *res) {
  if (ds->rkind == DK_F32 || ds->rkind == DK_F64) {
    double d = ((FltFn)fn)(IARGS(ireg), FARGS(freg));
    memcpy(res, &d, sizeof d);
  } else {
    int64_t r = ((IntFn)fn)(IARGS(ireg), FARGS(freg));
    memcpy(res, &r, sizeof r);
  }
}
#endif

/* push the result of a call of type 'ft' left in 'rvalue' */
static int push_result(lua_State *L, FFIState *S, CType *ft, void *rvalue, int direct) {
  CType *rt = ctype(S, ft->base);
  switch (rt->kind) {
    case CT_VOID: return 0;
    case CT_BOOL:   /* direct: only the low byte is defined */
      lua_pushboolean(L, direct ? *(uint8_t *)rvalue != 0 : *(ffi_arg *)rvalue != 0);
      return 1;
    case CT_INT: case CT_ENUM:
      /* libffi widens small results to a full ffi_arg; a direct result's
      ** upper bytes are undefined: read it with its C type */
      if (rt->size < sizeof(ffi_arg) && !direct) {
        if (rt->flags & CTF_UNSIGNED) lua_pushinteger(L, (lua_Integer)*(ffi_arg *)rvalue);
        else lua_pushinteger(L, (lua_Integer)*(ffi_sarg *)rvalue);
        return 1;
      }
      break;
    case CT_FLOAT:
      if (rt->size == 8) { lua_pushnumber(L, *(double *)rvalue); return 1; }
      break;
    case CT_STRUCT: case CT_UNION: {
      CData *r = cd_new(L, S, ft->base, 0);
      memcpy(r->p, rvalue, rt->size);
      return 1;
    }
    default: break;
  }
  cd_push(L, S, ft->base, rvalue, 0);
  return 1;
}

/* after the C function returned: pop the frame, free the callbacks made for
** the arguments, re-raise a callback's error, push the result */
static int finish_call(lua_State *L, FFIState *S, CType *ft, CallFrame *frame, uint64_t mark,
                       void *rvalue, int direct) {
  S->frame = frame->prev;
  if (S->cbseq != mark) free_temps(S, mark, L);
  if (frame->errref != LUA_NOREF) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, frame->errref);
    luaL_unref(L, LUA_REGISTRYINDEX, frame->errref);
    return lua_error(L);
  }
  return push_result(L, S, ft, rvalue, direct);
}

#if DIRECT_CALLS
/* its own function: a small stack frame, no alloca */
static int direct_docall(lua_State *L, FFIState *S, CType *ft, DirectSig *ds, void *fn) {
  int64_t ireg[NIREG];
  double freg[NFREG];
  uint64_t rbuf[2] = {0, 0};
  uint64_t mark = S->cbseq;
  CallFrame frame;
  /* every argument is converted before the frame is pushed and any C code
  ** runs: a conversion error leaves nothing behind */
  direct_args(L, S, ft, ds, ireg, freg);
  frame.L = L;
  frame.errref = LUA_NOREF;
  frame.prev = S->frame;
  S->frame = &frame;
  errno = S->err;
  direct_invoke(ds, fn, ireg, freg, rbuf);
  S->err = errno;
  return finish_call(L, S, ft, &frame, mark, rbuf, 1);
}
#endif

static int libffi_docall(lua_State *L, FFIState *S, int ftid, int nargs, void *fn) {
  CType *ft = ctype(S, ftid);
  CType *rt = ctype(S, ft->base);
  int nfixed = ft->nfield;
  size_t rsize = rt->size < 16 ? 16 : (rt->size + 15) & ~(size_t)15;
  void *rvalue = alloca(rsize);
  uint64_t mark = S->cbseq;
  CallFrame frame;
  ffi_cif vcif, *cif;
  ffi_type *vtypes[MAXARGS + 1];
  int atype[MAXARGS + 1];
  void *avalue[MAXARGS + 1];
  memset(rvalue, 0, rsize);
  for (int i = 0; i < nargs; i++)
    atype[i] = i < nfixed ? ft->fields[i].type : vararg_type(L, S, i + 2, i + 1);
  for (int i = 0; i < nargs; i++) {
    CType *at = ctype(S, atype[i]);
    size_t size = at->size < 16 ? 16 : (at->size + 15) & ~(size_t)15;
    avalue[i] = alloca(size);
    memset(avalue[i], 0, size);
    cd_convert(L, S, atype[i], avalue[i], i + 2, CONV_ARG, i + 1);
  }
  if (ft->flags & CTF_VARARG) {
    for (int i = 0; i < nargs; i++) vtypes[i] = ct_ffitype(S, atype[i]);
    if (ffi_prep_cif_var(&vcif, FFI_DEFAULT_ABI, (unsigned)nfixed, (unsigned)nargs,
                         ct_ffitype(S, ft->base), vtypes) != FFI_OK)
      return luaL_error(L, "cannot prepare variadic call");
    cif = &vcif;
  } else {
    cif = get_cif(L, S, ftid);
  }
  frame.L = L;
  frame.errref = LUA_NOREF;
  frame.prev = S->frame;
  S->frame = &frame;
  errno = S->err;
  ffi_call(cif, FFI_FN(fn), rvalue, avalue);
  S->err = errno;
  return finish_call(L, S, ctype(S, ftid), &frame, mark, rvalue, 0);
}

int ffi_docall(lua_State *L, FFIState *S, CData *cd) {
  CType *ct = ctype(S, cd->id);
  int ftid = ct->kind == CT_FUNC ? cd->id : ct->base;
  void *fn = *(void **)cd->p;
  CType *ft = ctype(S, ftid);
  int nfixed = ft->nfield, nargs = lua_gettop(L) - 1;
  if (fn == NULL) return luaL_error(L, "attempt to call a NULL function pointer");
  if (nargs < nfixed || (nargs > nfixed && !(ft->flags & CTF_VARARG)))
    return luaL_error(L, "wrong number of arguments for function call");
  if (nargs > MAXARGS) return luaL_error(L, "too many arguments for function call");
#if DIRECT_CALLS
  DirectSig *ds = get_dsig(S, ftid);
  if (ds != NULL) return direct_docall(L, S, ft, ds, fn);
#endif
  return libffi_docall(L, S, ftid, nargs, fn);
}

/* ---------------------------------------------------------------- callbacks */

/* runs under lua_pcall: converts the arguments, calls, converts the result */
static int cb_run(lua_State *L) {
  Callback *cb = lua_touserdata(L, 1);
  void **args = lua_touserdata(L, 2);
  void *ret = lua_touserdata(L, 3);
  FFIState *S = cb->S;
  CType *ft = ctype(S, cb->ftype);
  int n = ft->nfield;
  luaL_checkstack(L, n + 4, "too many callback arguments");
  lua_rawgeti(L, LUA_REGISTRYINDEX, cb->fnref);
  for (int i = 0; i < n; i++) {
    int pt = ft->fields[i].type;
    int k = ctype(S, pt)->kind;
    if (k == CT_STRUCT || k == CT_UNION) {   /* by value: a copy */
      CData *c = cd_new(L, S, pt, 0);
      memcpy(c->p, args[i], ctype(S, pt)->size);
    } else {
      cd_push(L, S, pt, args[i], 0);
    }
  }
  lua_call(L, n, 1);
  CType *rt = ctype(S, ft->base);
  if (rt->kind == CT_VOID) return 0;
  union { int64_t i; double d; long double ld; char buf[16]; } tmp;
  char *big = rt->size > sizeof tmp ? lua_newuserdatauv(L, rt->size, 0) : tmp.buf;
  memset(big, 0, rt->size > sizeof tmp ? rt->size : sizeof tmp);
  cd_convert(L, S, ft->base, big, -1 - (big != tmp.buf), CONV_STORE, 0);
  if ((rt->kind == CT_INT || rt->kind == CT_ENUM || rt->kind == CT_BOOL) &&
      rt->size < sizeof(ffi_arg)) {
    int64_t v;
    switch (rt->size) {
      case 1: v = (rt->flags & CTF_UNSIGNED) || rt->kind == CT_BOOL ? *(uint8_t *)big : *(int8_t *)big; break;
      case 2: v = (rt->flags & CTF_UNSIGNED) ? *(uint16_t *)big : *(int16_t *)big; break;
      default: v = (rt->flags & CTF_UNSIGNED) ? *(uint32_t *)big : *(int32_t *)big; break;
    }
    if (rt->flags & CTF_UNSIGNED) *(ffi_arg *)ret = (ffi_arg)v;
    else *(ffi_sarg *)ret = (ffi_sarg)v;
  } else {
    memcpy(ret, big, rt->size);
  }
  return 0;
}

static void cb_handler(ffi_cif *cif, void *ret, void **args, void *ud) {
  Callback *cb = ud;
  FFIState *S = cb->S;
  CallFrame *fr = S->frame;
  lua_State *L = fr ? fr->L : S->mainL;
  size_t rs = cif->rtype->size < sizeof(ffi_arg) ? sizeof(ffi_arg) : cif->rtype->size;
  if (cif->rtype->type != FFI_TYPE_VOID) memset(ret, 0, rs);
  if (fr != NULL && fr->errref != LUA_NOREF) return;   /* an error is pending */
  int saved = errno;
  if (!lua_checkstack(L, 5)) return;
  lua_pushcfunction(L, cb_run);
  lua_pushlightuserdata(L, cb);
  lua_pushlightuserdata(L, args);
  lua_pushlightuserdata(L, ret);
  if (lua_pcall(L, 3, 0, 0) != LUA_OK) {
    if (fr != NULL) {
      fr->errref = luaL_ref(L, LUA_REGISTRYINDEX);
    } else {   /* entered from C outside any ffi call: cannot propagate */
      const char *msg = lua_tostring(L, -1);
      fprintf(stderr, "ffi callback error: %s\n", msg ? msg : "(error object)");
      lua_pop(L, 1);
    }
  }
  errno = saved;
}

void *cb_new(lua_State *L, FFIState *S, int fidx, int ftype, int permanent) {
  CType *ft = ctype(S, ftype);
  if (ft->flags & CTF_VARARG)
    luaL_error(L, "cannot create a callback for a variadic function");
  ffi_cif *cif = get_cif(L, S, ftype);
  Callback *cb = calloc(1, sizeof(Callback));
  if (cb == NULL) luaL_error(L, "not enough memory");
  cb->closure = ffi_closure_alloc(sizeof(ffi_closure), &cb->code);
  if (cb->closure == NULL) {
    free(cb);
    luaL_error(L, "cannot allocate callback");
    return NULL;
  }
  if (ffi_prep_closure_loc(cb->closure, cif, cb_handler, cb, cb->code) != FFI_OK) {
    ffi_closure_free(cb->closure);
    free(cb);
    luaL_error(L, "cannot prepare callback");
  }
  lua_pushvalue(L, fidx);
  cb->fnref = luaL_ref(L, LUA_REGISTRYINDEX);
  cb->ftype = ftype;
  cb->temp = !permanent;
  cb->S = S;
  cb->seq = ++S->cbseq;
  cb->next = S->callbacks;
  S->callbacks = cb;
  return cb->code;
}

Callback *cb_find(FFIState *S, void *code) {
  for (Callback *cb = S->callbacks; cb; cb = cb->next)
    if (cb->code == code) return cb;
  return NULL;
}

void cb_free(FFIState *S, Callback *cb, lua_State *L) {
  for (Callback **pp = &S->callbacks; *pp; pp = &(*pp)->next)
    if (*pp == cb) { *pp = cb->next; break; }
  luaL_unref(L, LUA_REGISTRYINDEX, cb->fnref);
  ffi_closure_free(cb->closure);
  free(cb);
}

void cb_set(lua_State *L, Callback *cb, int fidx) {
  lua_pushvalue(L, fidx);
  lua_rawseti(L, LUA_REGISTRYINDEX, cb->fnref);
}

void cb_freeall(FFIState *S) {   /* at state close: the registry is gone */
  for (Callback *cb = S->callbacks, *next; cb; cb = next) {
    next = cb->next;
    ffi_closure_free(cb->closure);
    free(cb);
  }
  S->callbacks = NULL;
}

/* ---------------------------------------------------------------- compiled code
**
** Compiled code calls a C function directly (jit/llvmffi.c) when 'describe'
** accepts it: a direct-call signature (above) whose result needs no
** allocation (no 64-bit integer, no pointer).  Compiled code converts only
** the plain cases inline (integers to integer parameters, numbers to
** floating-point ones, booleans to bool, nil and strings to pointers) and
** leaves everything else, with its errors, to this file's generic path.
*/
_Static_assert(offsetof(CData, id) == JITFFI_CD_ID && offsetof(CData, flags) == JITFFI_CD_FLAGS &&
               offsetof(CData, p) == JITFFI_CD_P, "jit/jitffi.h: CData layout");

static FFIState *jit_state(JitFFI *jf) {
  return (FFIState *)(void *)((char *)jf - offsetof(FFIState, jit));
}

static int jit_describe(JitFFI *jf, const void *cdp, JitFFISig *out) {
  FFIState *S = jit_state(jf);
  const CData *cd = cdp;
  CType *ct, *ft, *rt;
  DirectSig *ds;
  int ftid;
  if (cd->flags != 0 || cd->id <= 0 || cd->id >= S->ntypes) return 0;
  ct = ctype(S, cd->id);
  if (ct->kind == CT_FUNC) ftid = cd->id;
  else if (ct->kind == CT_PTR && ctype(S, ct->base)->kind == CT_FUNC) ftid = ct->base;
  else return 0;
  if (*(void **)cd->p == NULL || (ds = get_dsig(S, ftid)) == NULL) return 0;
  ft = ctype(S, ftid);
  rt = ctype(S, ft->base);
  if (ds->nargs > JITFFI_MAXARGS || ds->rkind == DK_PTR || (ds->rkind == DK_INT && rt->size > 4))
    return 0;
  memset(out, 0, sizeof *out);
  out->fn = *(void **)cd->p;
  out->ctid = cd->id;
  out->nargs = ds->nargs;
  out->rkind = ds->rkind;
  out->rsize = (uint8_t)rt->size;
  out->runsigned = (rt->flags & CTF_UNSIGNED) != 0;
  for (int i = 0; i < ds->nargs; i++) {
    CType *at = ctype(S, ft->fields[i].type);
    out->akind[i] = ds->akind[i];
    out->asize[i] = (uint8_t)at->size;
    out->aunsigned[i] = (at->flags & CTF_UNSIGNED) != 0;
    if (at->kind == CT_PTR) {
      CType *bt = ctype(S, at->base);
      out->astring[i] = (bt->flags & CTF_CHAR) || bt->kind == CT_VOID;   /* as cd_convert */
    }
  }
  return 1;
}

static void jit_enter(JitFFI *jf, lua_State *L, void *fp) {
  FFIState *S = jit_state(jf);
  CallFrame *fr = fp;
  fr->L = L;
  fr->errref = LUA_NOREF;
  fr->prev = S->frame;
  S->frame = fr;
  errno = S->err;
}

static void jit_leave(JitFFI *jf, lua_State *L, void *fp) {
  int e = errno;
  FFIState *S = jit_state(jf);
  CallFrame *fr = fp;
  S->err = e;
  S->frame = fr->prev;
  if (fr->errref != LUA_NOREF) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, fr->errref);
    luaL_unref(L, LUA_REGISTRYINDEX, fr->errref);
    lua_error(L);
  }
}

void ffi_jitinit(lua_State *L, FFIState *S) {
  S->jit.stateud = S;
  S->jit.describe = jit_describe;
  S->jit.enter = jit_enter;
  S->jit.leave = jit_leave;
  S->jit.framesize = sizeof(CallFrame);
  jit_setffi(L, DIRECT_CALLS ? &S->jit : NULL);
}
