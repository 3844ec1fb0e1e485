/*
** do.c -- calls and returns, errors (setjmp/longjmp), stack growth, hooks,
** protected execution, coroutines, and the call-related C API functions.
**
** Invariants:
**  - Lua-to-Lua calls never recurse in C: do_precall only builds the frame
**    and vm_execute continues in the same C frame.  C recursion happens only
**    through do_call (C functions calling Lua, metamethods, iterators), and
**    each such level counts in the low 16 bits of L->nCcalls (limit
**    LUAI_MAXCCALLS).  Bits 16-23 count non-yieldable levels (at most one
**    per C level, plus the parser's: below 256), bits 24-31 the
**    interpreter activations compiled code starts, and the direct calls
**    of compiled code on a C stack of unknown bounds (jit/jitrt.c
**    RT_DIRECT, NESTED ACTIVATIONS; below RT_MAXNEST).
**  - A protected run (do_rawrunprotected) restores L->nCcalls and the depth
**    of the C root chain (g->nroots) when an error unwinds through it.
**  - Everything pointing into a stack is corrected when it is reallocated:
**    L->top, L->tbclist, every CallInfo's func and top, open upvalues.
*/
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "lua.h"
#include "mvm.h"
#include "do.h"
#include "jit.h"
#include "gc.h"
#include "vm.h"
#include "func.h"
#include "meta.h"
#include "debug.h"
#include "string.h"
#include "table.h"
#include "compile.h"
#include "opcodes.h"

/* status saved in callstatus while finishing a yieldable pcall (3 bits,
** from CIST_RECST in state.h) */
#define getcistrecst(ci)  (((ci)->callstatus >> CIST_RECST) & 7)
#define setcistrecst(ci, st) \
  ((ci)->callstatus = (unsigned short)(((ci)->callstatus & ~(7 << CIST_RECST)) | \
                                       ((st) << CIST_RECST)))

#define getCcalls(L)   ((L)->nCcalls & 0xffff)
#define NYCI           (0x10000 | 1)   /* one C call, non-yieldable */
#define incnny(L)      ((L)->nCcalls += 0x10000)
#define decnny(L)      ((L)->nCcalls -= 0x10000)
#define DIRECTCALLS    0xff000000u     /* direct calls of compiled code */
/* the non-yieldable levels stay below bit 24 (at most one per C level,
** plus the parser's) */
_Static_assert(LUAI_MAXCCALLS / 10 * 11 + 8 < 256, "non-yieldable levels fit bits 16-23");
/* the main thread never yields, whatever its counters say */
#define yieldable(L)   (((L)->nCcalls & 0x00ff0000) == 0 && (L) != G(L)->mainthread)

/* C functions with to-be-closed variables encode nresults like this */
#define hastocloseCfunc(n)  ((n) < LUA_MULTRET)
#define decodeNresults(n)   (-(n) - 3)

#define errorstatus(s)  ((s) > LUA_YIELD)

/* stack size while handling a stack overflow */
#define ERRORSTACKSIZE  (LUAI_MAXSTACK + 200)

/* ---------------------------------------------------------------------
** Errors
** --------------------------------------------------------------------- */

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__aarch64__))
/* The compiler's own setjmp: it stores the frame and stack pointers and the
** resume address only, and the function that calls it (do_rawrunprotected,
** never inlined: it uses setjmp) keeps the callee-saved registers it needs
** in its own frame; _setjmp stores all of them, mangled, and the signal
** mask flag: ~30 instructions more for every protected call (each coroutine
** resume, pcall).  __builtin_longjmp may not be called from the function of
** the setjmp (do_throw is another) and passes 1, as _longjmp does here;
** the buffer needs 5 words, jmp_buf has more. */
#define MVM_THROW(c)  __builtin_longjmp((void **)(void *)(c)->b, 1)
#define MVM_TRY(c, a) if (__builtin_setjmp((void **)(void *)(c)->b) == 0) { a }
#elif defined(__unix__) || defined(__APPLE__)
#define MVM_THROW(c)  _longjmp((c)->b, 1)
#define MVM_TRY(c, a) if (_setjmp((c)->b) == 0) { a }
#else
#define MVM_THROW(c)  longjmp((c)->b, 1)
#define MVM_TRY(c, a) if (setjmp((c)->b) == 0) { a }
#endif

struct lua_longjmp {
  struct lua_longjmp *previous;
  jmp_buf b;
  volatile int status;
};

/* put the error object for 'errcode' at 'oldtop' and set top after it */
void do_seterrorobj(lua_State *L, int errcode, Value *oldtop) {
  switch (errcode) {
    case LUA_ERRMEM:
      *oldtop = v_ref(G(L)->memerrmsg);
      break;
    case LUA_ERRERR:
      *oldtop = v_ref(str_literal(L, "error in error handling"));
      break;
    case LUA_OK:            /* closing with no error: nil error object */
      *oldtop = MVM_NIL;
      break;
    default:
      *oldtop = L->top[-1];
      break;
  }
  L->top = oldtop + 1;
}

static int reset_thread(lua_State *L, int status);

l_noret do_throw(lua_State *L, int errcode) {
  if (L->errorJmp != NULL) {
    L->errorJmp->status = errcode;
    MVM_THROW(L->errorJmp);
  }
  else {
    global_State *g = G(L);
    errcode = reset_thread(L, errcode);   /* close pending variables */
    if (g->mainthread->errorJmp != NULL) {
      /* an unprotected coroutine: re-raise in the main thread */
      *g->mainthread->top++ = L->top[-1];
      do_throw(g->mainthread, errcode);
    }
    if (g->panic != NULL) g->panic(L);   /* last chance to jump out */
    abort();   /* unprotected error with no panic function: the host's bug */
  }
}

/* The body of a protected run: 'call' under a catch point of its own,
** then the C-call and root counts of before (an error skipped their
** decrements); the run's status.  A macro, so that resume_run has it in
** its own frame. */
#define RUN_PROTECTED(L, call) \
  uint32_t oldnCcalls = (L)->nCcalls; \
  int oldnroots = G(L)->nroots; \
  struct lua_longjmp lj; \
  lj.status = LUA_OK; \
  lj.previous = (L)->errorJmp; \
  (L)->errorJmp = &lj; \
  MVM_TRY(&lj, call;) \
  (L)->errorJmp = lj.previous; \
  (L)->nCcalls = oldnCcalls; \
  G(L)->nroots = oldnroots; \
  return lj.status

int do_rawrunprotected(lua_State *L, Pfunc f, void *ud) {
  RUN_PROTECTED(L, (*f)(L, ud));
}

/* ---------------------------------------------------------------------
** Stack
** --------------------------------------------------------------------- */

struct ReallocS { int newsize; };

static void realloc_aux(lua_State *L, int newsize) {
  int oldsize = stacksize(L);
  int i;
  Value *oldst = L->stack;
  Value *newst = mvm_reallocvector(L, L->stack, oldsize + EXTRA_STACK,
                                   newsize + EXTRA_STACK, Value);
  /* pointers are recomputed by offset (uintptr arithmetic: the old block
  ** may be gone) */
  for (i = oldsize + EXTRA_STACK; i < newsize + EXTRA_STACK; i++)
    newst[i] = MVM_NIL;    /* every slot always holds a valid value */
  L->stack = newst;
  L->stack_last = newst + newsize;
  if (newst != oldst) {
    CallInfo *ci;
    UpVal *uv;
    intptr_t d = (intptr_t)((uintptr_t)newst - (uintptr_t)oldst);
#define FIXP(p)  ((p) = (Value *)((uintptr_t)(p) + (uintptr_t)d))
    FIXP(L->top);
    if (L->tbclist != NULL) FIXP(L->tbclist);
    for (uv = L->openupval; uv != NULL; uv = uv->u.open.next) FIXP(uv->v);
    for (ci = L->ci; ci != NULL; ci = ci->previous) {
      FIXP(ci->top);
      FIXP(ci->func);
      if (isLua(ci)) ci->u.l.trap = 1;
    }
#undef FIXP
  }
}

static void realloc_protected(lua_State *L, void *ud) {
  realloc_aux(L, ((struct ReallocS *)ud)->newsize);
}

void do_reallocstack(lua_State *L, int newsize, int raiseerror) {
  if (raiseerror)
    realloc_aux(L, newsize);
  else {
    struct ReallocS s;
    s.newsize = newsize;
    (void)do_rawrunprotected(L, realloc_protected, &s);  /* ignore failure */
  }
}

int do_growstack(lua_State *L, int n, int raiseerror) {
  int size = stacksize(L);
  if (l_unlikely(size > LUAI_MAXSTACK)) {
    /* already using the reserve for handling a stack overflow */
    if (raiseerror) do_throw(L, LUA_ERRERR);
    return 0;
  }
  else if (n < LUAI_MAXSTACK) {
    int newsize = 2 * size;
    int needed = (int)(L->top - L->stack) + n;
    if (newsize > LUAI_MAXSTACK) newsize = LUAI_MAXSTACK;
    if (newsize < needed) newsize = needed;
    if (l_likely(newsize <= LUAI_MAXSTACK)) {
      if (raiseerror) realloc_aux(L, newsize);
      else {
        int oldsize = stacksize(L);
        do_reallocstack(L, newsize, 0);
        if (stacksize(L) == oldsize) return 0;   /* allocation failed */
      }
      return 1;
    }
  }
  /* too big: switch to the reserve so the error can be handled */
  do_reallocstack(L, ERRORSTACKSIZE, raiseerror);
  if (raiseerror) dbg_runerror(L, "stack overflow");
  return 0;
}

static int stack_inuse(lua_State *L) {
  CallInfo *ci;
  Value *lim = L->top;
  int res;
  for (ci = L->ci; ci != NULL; ci = ci->previous)
    if (lim < ci->top) lim = ci->top;
  res = (int)(lim - L->stack) + 1;
  if (res < LUA_MINSTACK) res = LUA_MINSTACK;
  return res;
}

/* Only called where no C code holds raw stack pointers (after errors). */
void do_shrinkstack(lua_State *L) {
  int inuse = stack_inuse(L);
  int max = (inuse > LUAI_MAXSTACK / 3) ? LUAI_MAXSTACK : inuse * 3;
  if (inuse <= LUAI_MAXSTACK && stacksize(L) > max) {
    int nsize = (inuse > LUAI_MAXSTACK / 2) ? LUAI_MAXSTACK : inuse * 2;
    do_reallocstack(L, nsize, 0);
  }
  do_freeCI(L);
}

void do_inctop(lua_State *L) {
  checkstack(L, 1);
  L->top++;
}

/* ---------------------------------------------------------------------
** CallInfo list
** --------------------------------------------------------------------- */

CallInfo *do_extendCI(lua_State *L) {
  CallInfo *ci = (CallInfo *)mvm_memalloc(L, sizeof(CallInfo));
  memset(ci, 0, sizeof *ci);
  L->ci->next = ci;
  ci->previous = L->ci;
  ci->next = NULL;
  L->nci++;
  return ci;
}

/* free every CallInfo above the current one */
void do_freeCI(lua_State *L) {
  CallInfo *ci = L->ci;
  CallInfo *next = ci->next;
  ci->next = NULL;
  while ((ci = next) != NULL) {
    next = ci->next;
    mvm_memfree(L, ci, sizeof(CallInfo));
    L->nci--;
  }
}

/* C-stack overflow: error at the limit, "error in error handling" if the
** handling itself keeps recursing */
static void check_cstack(lua_State *L) {
  if (getCcalls(L) == LUAI_MAXCCALLS)
    dbg_runerror(L, "C stack overflow");
  else if (getCcalls(L) >= (LUAI_MAXCCALLS / 10 * 11))
    do_throw(L, LUA_ERRERR);
}

/* ---------------------------------------------------------------------
** Hooks
** --------------------------------------------------------------------- */

void do_hook(lua_State *L, int event, int line, int ftransfer, int ntransfer) {
  lua_Hook hook = L->hook;
  if (hook != NULL && L->allowhook) {
    int mask = CIST_HOOKED;
    CallInfo *ci = L->ci;
    ptrdiff_t top = savestack(L, L->top);
    ptrdiff_t ci_top = savestack(L, ci->top);
    lua_Debug ar;
    ar.event = event;
    ar.currentline = line;
    ar.i_ci = ci;
    if (ntransfer != 0) {
      mask |= CIST_TRAN;
      ci->u2.transferinfo.ftransfer = (unsigned short)ftransfer;
      ci->u2.transferinfo.ntransfer = (unsigned short)ntransfer;
    }
    if (isLua(ci) && L->top < ci->top)
      L->top = ci->top;          /* protect the whole activation */
    checkstack(L, LUA_MINSTACK);
    if (ci->top < L->top + LUA_MINSTACK)
      ci->top = L->top + LUA_MINSTACK;
    L->allowhook = 0;
    ci->callstatus |= mask;
    (*hook)(L, &ar);
    L->allowhook = 1;
    ci->top = restorestack(L, ci_top);
    L->top = restorestack(L, top);
    ci->callstatus &= ~mask;
  }
}

/* call hook on entry to a Lua function (pc not yet advanced) */
void do_hookcall(lua_State *L, CallInfo *ci) {
  L->oldpc = 0;
  if (L->hookmask & LUA_MASKCALL) {
    int event = (ci->callstatus & CIST_TAIL) ? LUA_HOOKTAILCALL : LUA_HOOKCALL;
    Proto *p = v_lcl(*ci->func)->p;
    ci->u.l.savedpc++;   /* hooks expect pc already advanced */
    do_hook(L, event, -1, 1, p->numparams);
    ci->u.l.savedpc--;
  }
}

static void ret_hook(lua_State *L, CallInfo *ci, int nres) {
  if (L->hookmask & LUA_MASKRET) {
    Value *firstres = L->top - nres;
    int delta = 0;
    int ftransfer;
    if (isLua(ci)) {
      Proto *p = v_lcl(*ci->func)->p;
      if (p->is_vararg) delta = ci->u.l.nextraargs + p->numparams + 1;
    }
    ci->func += delta;    /* the "virtual" func of a vararg function */
    ftransfer = (int)(firstres - ci->func);
    do_hook(L, LUA_HOOKRET, -1, ftransfer, nres);
    ci->func -= delta;
  }
  if (isLua(ci = ci->previous))
    L->oldpc = pcRel(ci->u.l.savedpc, v_lcl(*ci->func)->p);
}

/* ---------------------------------------------------------------------
** Calls
** --------------------------------------------------------------------- */

/* 'func' is not a function: insert its __call handler below the arguments */
Value *do_tryfuncTM(lua_State *L, Value *func) {
  const Value *tm;
  Value *p;
  checkstackGCp(L, 1, func);
  tm = meta_gettmbyobj(L, func, TM_CALL);
  if (l_unlikely(v_isnil(*tm)))
    dbg_callerror(L, func);
  for (p = L->top; p > func; p--)
    *p = p[-1];
  L->top++;
  *func = *tm;
  return func;
}

/* move 'nres' results (at top - nres) to 'res', adjusting to 'wanted' */
static void move_results(lua_State *L, Value *res, int nres, int wanted) {
  Value *firstres;
  int i;
  switch (wanted) {
    case 0:
      L->top = res;
      return;
    case 1:
      *res = (nres == 0) ? MVM_NIL : L->top[-nres];
      L->top = res + 1;
      return;
    case LUA_MULTRET:
      wanted = nres;
      break;
    default:
      if (hastocloseCfunc(wanted)) {
        /* close the C function's tbc variables first, above the results */
        L->ci->callstatus |= CIST_CLSRET;
        L->ci->u2.nres = nres;
        res = func_close(L, res, CLOSEKTOP, 1);
        L->ci->callstatus &= ~CIST_CLSRET;
        if (L->hookmask) {
          ptrdiff_t sr = savestack(L, res);
          ret_hook(L, L->ci, nres);
          res = restorestack(L, sr);
        }
        wanted = decodeNresults(wanted);
        if (wanted == LUA_MULTRET) wanted = nres;
      }
      break;
  }
  firstres = L->top - nres;
  if (nres > wanted) nres = wanted;
  for (i = 0; i < nres; i++) res[i] = firstres[i];
  for (; i < wanted; i++) res[i] = MVM_NIL;
  L->top = res + wanted;
}

void do_poscall(lua_State *L, CallInfo *ci, int nres) {
  int wanted = ci->nresults;
  if (l_unlikely(L->hookmask && !hastocloseCfunc(wanted)))
    ret_hook(L, ci, nres);
  move_results(L, ci->func, nres, wanted);
  L->ci = ci->previous;
}

static inline CallInfo *prep_ci(lua_State *L, Value *func, int nresults,
                                unsigned short status, Value *top) {
  CallInfo *ci = next_ci(L);
  L->ci = ci;
  ci->func = func;
  ci->nresults = (short)nresults;
  ci->callstatus = status;
  ci->top = top;
  return ci;
}

/* call a C function; returns the number of results */
static int precall_C(lua_State *L, Value *func, int nresults, lua_CFunction f) {
  int n;
  CallInfo *ci;
  checkstackGCp(L, LUA_MINSTACK, func);
  ci = prep_ci(L, func, nresults, CIST_C, L->top + LUA_MINSTACK);
  ci->u.c.k = NULL;
  if (l_unlikely(L->hookmask & LUA_MASKCALL)) {
    int narg = (int)(L->top - func) - 1;
    do_hook(L, LUA_HOOKCALL, -1, 1, narg);
  }
  n = (*f)(L);
  do_poscall(L, ci, n);
  return n;
}

/*
** Tail call from the Lua frame 'ci' to the function at 'func' with 'narg1'
** slots (function + arguments).  Lua callee: the frame is reused (moved
** down) and -1 returned.  C callee: it runs now, returns its result count.
*/
int do_pretailcall(lua_State *L, CallInfo *ci, Value *func, int narg1, int delta) {
  for (;;) {
    Value f = *func;
    if (v_isLclosure(f)) {
      Proto *p = v_lcl(f)->p;
      int fsize = p->maxstacksize;
      int nfix = p->numparams;
      int i;
      checkstackGCp(L, fsize - delta, func);
      ci->func -= delta;   /* back to the real frame start (vararg) */
      for (i = 0; i < narg1; i++)
        ci->func[i] = func[i];
      func = ci->func;
      for (; narg1 <= nfix; narg1++)
        func[narg1] = MVM_NIL;
      ci->top = func + 1 + fsize;
      ci->u.l.savedpc = p->code;
      ci->callstatus |= CIST_TAIL;
      L->top = func + narg1;
      p->hotcount++;
      p->ncalls++;
      return -1;
    }
    else if (v_islcf(f))
      return precall_C(L, func, LUA_MULTRET, v_lcf(f));
    else if (v_isCclosure(f))
      return precall_C(L, func, LUA_MULTRET, v_ccl(f)->f);
    else {
      func = do_tryfuncTM(L, func);
      narg1++;
    }
  }
}

CallInfo *do_precall(lua_State *L, Value *func, int nresults) {
  for (;;) {
    Value f = *func;
    if (v_isLclosure(f)) {
      CallInfo *ci;
      Proto *p = v_lcl(f)->p;
      int narg = (int)(L->top - func) - 1;
      int nfix = p->numparams;
      int fsize = p->maxstacksize;
      checkstackGCp(L, fsize, func);
      ci = prep_ci(L, func, nresults, 0, func + 1 + fsize);
      ci->u.l.savedpc = p->code;
      ci->u.l.trap = 0;
      for (; narg < nfix; narg++)
        *L->top++ = MVM_NIL;
      p->hotcount++;
      p->ncalls++;
      return ci;
    }
    else if (v_islcf(f)) {
      precall_C(L, func, nresults, v_lcf(f));
      return NULL;
    }
    else if (v_isCclosure(f)) {
      precall_C(L, func, nresults, v_ccl(f)->f);
      return NULL;
    }
    else
      func = do_tryfuncTM(L, func);
  }
}

static inline void ccall(lua_State *L, Value *func, int nresults, uint32_t inc) {
  CallInfo *ci;
  L->nCcalls += inc;
  if (l_unlikely(getCcalls(L) >= LUAI_MAXCCALLS)) {
    checkstackGCp(L, 0, func);   /* free the EXTRA_STACK reserve */
    check_cstack(L);
  }
  if ((ci = do_precall(L, func, nresults)) != NULL) {
    ci->callstatus = CIST_FRESH;   /* vm_execute returns at its end */
    vm_execute(L, ci);
  }
  L->nCcalls -= inc;
}

void do_call(lua_State *L, Value *func, int nresults) {
  ccall(L, func, nresults, 1);
}

void do_callnoyield(lua_State *L, Value *func, int nresults) {
  ccall(L, func, nresults, NYCI);
}

/* ---------------------------------------------------------------------
** Protected calls
** --------------------------------------------------------------------- */

struct CloseP { Value *level; int status; };

static void closep_aux(lua_State *L, void *ud) {
  struct CloseP *pcl = (struct CloseP *)ud;
  func_close(L, pcl->level, pcl->status, 0);
}

/* close upvalues/tbc variables down to 'level' in protected mode; an error
** in a __close replaces the error status and closing goes on */
int do_closeprotected(lua_State *L, ptrdiff_t level, int status) {
  CallInfo *old_ci = L->ci;
  uint8_t old_allowhook = L->allowhook;
  unsigned long old_jit = jit_active(G(L));
  for (;;) {
    struct CloseP pcl;
    pcl.level = restorestack(L, level);
    pcl.status = status;
    status = do_rawrunprotected(L, closep_aux, &pcl);
    if (l_likely(status == LUA_OK))
      return pcl.status;
    L->ci = old_ci;
    L->allowhook = old_allowhook;
    jit_restore(G(L), old_jit);   /* compiled code left by the error */
  }
}

int do_pcall(lua_State *L, Pfunc func, void *u, ptrdiff_t old_top, ptrdiff_t ef) {
  int status;
  CallInfo *old_ci = L->ci;
  uint8_t old_allowhook = L->allowhook;
  ptrdiff_t old_errfunc = L->errfunc;
  unsigned long old_jit = jit_active(G(L));
  L->errfunc = ef;
  status = do_rawrunprotected(L, func, u);
  if (l_unlikely(status != LUA_OK)) {
    L->ci = old_ci;
    L->allowhook = old_allowhook;
    jit_restore(G(L), old_jit);   /* compiled code left by the error */
    status = do_closeprotected(L, old_top, status);
    do_seterrorobj(L, status, restorestack(L, old_top));
    do_shrinkstack(L);   /* leave the overflow reserve, if used */
  }
  L->errfunc = old_errfunc;
  return status;
}

/* ---------------------------------------------------------------------
** Parser entry
** --------------------------------------------------------------------- */

struct SParser { ZIO *z; const char *mode; const char *name; };

static void check_mode(lua_State *L, const char *mode, const char *x) {
  if (mode != NULL && strchr(mode, x[0]) == NULL) {
    str_pushfstring(L, "attempt to load a %s chunk (mode is '%s')", x, mode);
    do_throw(L, LUA_ERRSYNTAX);
  }
}

static void f_parser(lua_State *L, void *ud) {
  struct SParser *p = (struct SParser *)ud;
  LClosure *cl;
  int c = zgetc(p->z);
  if (c == LUA_SIGNATURE[0]) {
    check_mode(L, p->mode, "binary");
    cl = mvm_undump(L, p->z, p->name);
  }
  else {
    check_mode(L, p->mode, "text");
    cl = mvm_parse(L, p->z, p->name, c);
  }
  (void)cl;
  /* the closure is at the top of the stack; re-read it (it may have moved) */
  func_initupvals(L, v_lcl(L->top[-1]));
}

int do_protectedparser(lua_State *L, ZIO *z, const char *name, const char *mode) {
  struct SParser p;
  int status;
  incnny(L);   /* the parser cannot yield */
  p.z = z; p.name = name; p.mode = mode;
  status = do_pcall(L, f_parser, &p, savestack(L, L->top), L->errfunc);
  decnny(L);
  return status;
}

/* ---------------------------------------------------------------------
** Coroutines
** --------------------------------------------------------------------- */

/* finish a yieldable lua_pcallk interrupted by a yield or an error */
static int finish_pcallk(lua_State *L, CallInfo *ci) {
  int status = getcistrecst(ci);
  if (l_likely(status == LUA_OK))
    status = LUA_YIELD;   /* it was a yield */
  else {
    Value *func = restorestack(L, ci->u2.funcidx);
    L->allowhook = (ci->callstatus & CIST_OAH) ? 1 : 0;
    func = func_close(L, func, status, 1);
    do_seterrorobj(L, status, func);
    do_shrinkstack(L);
    setcistrecst(ci, LUA_OK);
  }
  ci->callstatus &= ~CIST_YPCALL;
  L->errfunc = ci->u.c.old_errfunc;
  return status;
}

#define adjustresults(L, nres) \
  { if ((nres) <= LUA_MULTRET && (L)->ci->top < (L)->top) (L)->ci->top = (L)->top; }

/* complete a C function interrupted by a yield (or an error, for pcallk) */
static void finish_Ccall(lua_State *L, CallInfo *ci) {
  int n;
  if (ci->callstatus & CIST_CLSRET)
    n = ci->u2.nres;   /* was closing its tbc variables: redo the return */
  else {
    int status = LUA_YIELD;
    if (ci->callstatus & CIST_YPCALL)
      status = finish_pcallk(L, ci);
    adjustresults(L, LUA_MULTRET);
    n = (*ci->u.c.k)(L, status, ci->u.c.ctx);
  }
  do_poscall(L, ci, n);
}

/* run every pending frame of a resumed coroutine down to the base */
static void unroll(lua_State *L, void *ud) {
  CallInfo *ci;
  (void)ud;
  /* (a yield without longjmp returns from vm_execute with L->status set) */
  while (L->status == LUA_OK && (ci = L->ci) != &L->base_ci) {
    if (!isLua(ci))
      finish_Ccall(L, ci);
    else {
      vm_finishOp(L);
      vm_execute(L, ci);
    }
  }
}

static CallInfo *find_pcall(lua_State *L) {
  CallInfo *ci;
  for (ci = L->ci; ci != NULL; ci = ci->previous)
    if (ci->callstatus & CIST_YPCALL) return ci;
  return NULL;
}

static int resume_error(lua_State *L, const char *msg, int narg) {
  L->top -= narg;
  *L->top = v_ref(str_newz(L, msg));
  L->top++;
  return LUA_ERRRUN;
}

/* resume's 'n' when mvm_resume has already put the values passed in
** where the yield's Lua caller wants its results (yield_placed) */
#define RESUME_PLACED  (-1)

/* the body of a resume's protected run (resume_run) */
static inline __attribute__((always_inline)) void resume(lua_State *L, int n) {
  Value *firstarg;
  CallInfo *ci = L->ci;
  if (n == RESUME_PLACED) {  /* mvm_resume did the transfer (yield_placed) */
    L->status = LUA_OK;
    vm_execute(L, ci);
    if (L->status == LUA_OK)   /* (not yielded again by returning) */
      unroll(L, NULL);
    return;
  }
  firstarg = L->top - n;
  if (L->status == LUA_OK)   /* starting the body */
    ccall(L, firstarg - 1, LUA_MULTRET, 0);
  else {                     /* resuming after a yield */
    L->status = LUA_OK;
    if (isLua(ci)) {         /* yielded inside a hook */
      L->top = firstarg;
      vm_execute(L, ci);
    }
    else if (ci->u.c.k == NULL && !L->hookmask && ci->nresults >= LUA_MULTRET &&
             isLua(ci->previous)) {
      /* the common case (coroutine.yield called by a Lua function): the
      ** yield's results are the values passed in; its caller runs on */
      int wanted = ci->nresults, i;
      Value *res = ci->func;
      if (wanted == LUA_MULTRET) wanted = n;
      for (i = 0; i < n && i < wanted; i++) res[i] = firstarg[i];
      for (; i < wanted; i++) res[i] = MVM_NIL;
      L->top = res + wanted;
      L->ci = ci = ci->previous;
      if (GET_OPCODE(*(ci->u.l.savedpc - 1)) != OP_CALL)
        vm_finishOp(L);   /* (OP_CALL has nothing to finish) */
      vm_execute(L, ci);
    }
    else {
      if (ci->u.c.k != NULL)
        n = (*ci->u.c.k)(L, LUA_YIELD, ci->u.c.ctx);
      do_poscall(L, ci, n);
    }
    if (L->status == LUA_OK)   /* (not yielded again by returning) */
      unroll(L, NULL);
  }
}

/* do_rawrunprotected(L, resume, &n) in one frame: its own catch point
** (the yield that returns, an error, or a yield that throws all end here;
** the indirect call and resume's own frame were ~15 instructions of every
** switch) */
static __attribute__((noinline)) int resume_run(lua_State *L, int n) {
  RUN_PROTECTED(L, resume(L, n));
}

/* errors inside the coroutine: continue in the nearest yieldable pcallk */
static int precover(lua_State *L, int status, const JitMark *jm) {
  CallInfo *ci;
  while (errorstatus(status) && (ci = find_pcall(L)) != NULL) {
    L->ci = ci;
    setcistrecst(ci, status);
    status = do_rawrunprotected(L, unroll, NULL);
    jit_unwound(L, jm);
  }
  return status;
}

/* lua_resume, inlined into mvm_resume too (one call less per switch);
** 'checked': the caller has already refused a coroutine that cannot be
** resumed (a constant: the tests vanish), and 'from' is its resumer */
static inline __attribute__((always_inline))
int resume_co(lua_State *L, lua_State *from, int nargs, int *nresults, int checked) {
  int status;
  JitMark jm;
  if (checked) {}
  else if (L->status == LUA_OK) {
    if (L->ci != &L->base_ci)
      return resume_error(L, "cannot resume non-suspended coroutine", nargs);
    else if (L->top - (L->ci->func + 1) == nargs)   /* no function */
      return resume_error(L, "cannot resume dead coroutine", nargs);
  }
  else if (L->status != LUA_YIELD)
    return resume_error(L, "cannot resume dead coroutine", nargs);
  /* the C levels and the direct calls of the resumer: both nest on the
  ** C stack that the coroutine runs on */
  L->nCcalls = (checked || from != NULL) ? getCcalls(from) | (from->nCcalls & DIRECTCALLS) : 0;
  if (nargs != RESUME_PLACED &&   /* (yield_placed has refused that case) */
      getCcalls(L) >= LUAI_MAXCCALLS)
    return resume_error(L, "C stack overflow", nargs);
  L->nCcalls++;
  L->basecalls = L->nCcalls;
  G(L)->nresumes++;
  jit_mark(G(L), &jm);
  status = resume_run(L, nargs);
  jit_unwound(L, &jm);   /* L's C stack is gone, whatever ended the run */
  if (l_unlikely(errorstatus(status)))
    status = precover(L, status, &jm);
  L->basecalls = UINT32_MAX;
  if (status == LUA_OK && L->status == LUA_YIELD)
    status = LUA_YIELD;   /* yielded by returning (vm.c OP_CALL) */
  if (l_unlikely(errorstatus(status))) {
    /* the coroutine is dead; its frames are kept for tracebacks */
    L->status = (uint8_t)status;
    do_seterrorobj(L, status, L->top);
    L->ci->top = L->top;
  }
  *nresults = (status == LUA_YIELD) ? L->ci->u2.nyield
                                    : (int)(L->top - (L->ci->func + 1));
  return status;
}

LUA_API int lua_resume(lua_State *L, lua_State *from, int nargs, int *nresults) {
  return resume_co(L, from, nargs, nresults, 0);
}

/* room for 'n' more values on L's stack, for the running C function too
** (lua_checkstack's fast case inline) */
static int resume_room(lua_State *L, int n) {
  if (L->stack_last - L->top > n && L->ci->top >= L->top + n)
    return 1;
  return lua_checkstack(L, n);
}

static int resume_refused(lua_State *L, int narg, const char *msg) {
  L->top -= narg;
  *L->top = v_ref(str_newz(L, msg));
  L->top++;
  return -1;
}

/* mvm_resume of a coroutine stopped at coroutine.yield called by OP_CALL
** of a Lua function (the yield's C frame on top, no continuation), with no
** hooks: resume's common case done before the protected run, where
** everything lives in registers (a function with a catch point keeps
** every value live across a call in memory): the 'narg' values on top of
** L go straight to the yield's results (no copy to co's top first, no
** room check: fixed results are registers of the caller's frame) and the
** caller's frame becomes co's current one (OP_CALL has nothing to
** finish).  Nothing here can fail.  0 (nothing done) otherwise. */
static int yield_placed(lua_State *L, lua_State *co, int narg) {
  CallInfo *ci = co->ci;
  int wanted = ci->nresults, i;
  Value *res = ci->func, *first;
  if (isLua(ci) || ci->u.c.k != NULL || co->hookmask || wanted < LUA_MULTRET ||
      !isLua(ci->previous) ||
      GET_OPCODE(*(ci->previous->u.l.savedpc - 1)) != OP_CALL ||
      getCcalls(L) >= LUAI_MAXCCALLS)   /* (resume_co refuses) */
    return 0;
  if (wanted == LUA_MULTRET) {
    if (co->stack_last - res <= narg)
      return 0;
    wanted = narg;
  }
  L->top -= narg;
  first = L->top;
  for (i = 0; i < narg && i < wanted; i++) res[i] = first[i];   /* NOBARRIER: stack slots */
  for (; i < wanted; i++) res[i] = MVM_NIL;
  co->top = res + wanted;
  co->ci = ci->previous;
  return 1;
}

LUA_API int mvm_resume(lua_State *L, lua_State *co, int narg) {
  int status, nres = 0, i;   /* (set on every path; -O2 -DMVM_CHECKED cannot tell) */
  Value *from;
  if (co->status == LUA_YIELD && yield_placed(L, co, narg)) {
    status = resume_co(co, L, RESUME_PLACED, &nres, 1);
    goto results;
  }
  /* only a suspended coroutine (yielded, or not started: corolib's
  ** co_state) can be resumed */
  if (co->status == LUA_OK) {
    if (co == L || co->ci != &co->base_ci)
      return resume_refused(L, narg, "cannot resume non-suspended coroutine");
    if (co->top == co->ci->func + 1)
      return resume_refused(L, narg, "cannot resume dead coroutine");
  }
  else if (co->status != LUA_YIELD)
    return resume_refused(L, narg, "cannot resume dead coroutine");
  if (!resume_room(co, narg))
    return resume_refused(L, narg, "too many arguments to resume");
  L->top -= narg;
  for (i = 0; i < narg; i++) co->top[i] = L->top[i];
  co->top += narg;
  status = resume_co(co, L, narg, &nres, 1);
 results:
  if (l_likely(status == LUA_OK || status == LUA_YIELD)) {
    if (!resume_room(L, nres + 1)) {
      co->top -= nres;
      return resume_refused(L, 0, "too many results to resume");
    }
  }
  else
    nres = 1;   /* the error object */
  from = co->top - nres;
  for (i = 0; i < nres; i++) L->top[i] = from[i];
  L->top += nres;
  co->top = from;
  return errorstatus(status) ? -1 : nres;
}

LUA_API int mvm_yield(lua_State *L) {
  return lua_yieldk(L, (int)(L->top - (L->ci->func + 1)), 0, NULL);
}

LUA_API int lua_isyieldable(lua_State *L) {
  return yieldable(L);
}

LUA_API int lua_status(lua_State *L) {
  return L->status;
}

LUA_API int lua_yieldk(lua_State *L, int nresults, lua_KContext ctx, lua_KFunction k) {
  CallInfo *ci = L->ci;
  if (l_unlikely(!yieldable(L))) {
    if (L != G(L)->mainthread)
      dbg_runerror(L, "attempt to yield across a C-call boundary");
    else
      dbg_runerror(L, "attempt to yield from outside a coroutine");
  }
  L->status = LUA_YIELD;
  ci->u2.nyield = nresults;
  if (isLua(ci)) {
    /* inside a hook: the hook returns normally and the interpreter
    ** notices L->status (dbg_traceexec) */
    return 0;
  }
  ci->u.c.k = k;
  if (k != NULL) ci->u.c.ctx = ctx;
  do_throw(L, LUA_YIELD);
}

/* unwind a thread completely, closing pending variables */
static int reset_thread(lua_State *L, int status) {
  CallInfo *ci = L->ci = &L->base_ci;
  L->stack[0] = MVM_NIL;
  ci->func = L->stack;
  ci->callstatus = CIST_C;
  if (status == LUA_YIELD) status = LUA_OK;
  L->status = LUA_OK;   /* so __close methods can run */
  status = do_closeprotected(L, savestack(L, L->stack + 1), status);
  if (status != LUA_OK)
    do_seterrorobj(L, status, L->stack + 1);
  else
    L->top = L->stack + 1;
  ci->top = L->top + LUA_MINSTACK;
  do_reallocstack(L, (int)(ci->top - L->stack), 0);
  return status;
}

LUA_API int lua_closethread(lua_State *L, lua_State *from) {
  L->nCcalls = (from != NULL) ? getCcalls(from) : 0;
  return reset_thread(L, L->status);
}

LUA_API int lua_resetthread(lua_State *L) {
  return lua_closethread(L, NULL);
}

LUA_API int lua_setcstacklimit(lua_State *L, unsigned int limit) {
  (void)L; (void)limit;
  return LUAI_MAXCCALLS;   /* deprecated in 5.4: fixed limit */
}

/* ---------------------------------------------------------------------
** C API: calls, load, error
** --------------------------------------------------------------------- */

LUA_API void lua_callk(lua_State *L, int nargs, int nresults,
                       lua_KContext ctx, lua_KFunction k) {
  Value *func = L->top - (nargs + 1);
  if (k != NULL && yieldable(L)) {
    L->ci->u.c.k = k;
    L->ci->u.c.ctx = ctx;
    do_call(L, func, nresults);
  }
  else
    do_callnoyield(L, func, nresults);
  adjustresults(L, nresults);
}

struct CallS { Value *func; int nresults; };

static void f_call(lua_State *L, void *ud) {
  struct CallS *c = (struct CallS *)ud;
  do_callnoyield(L, c->func, c->nresults);
}

/* stack slot of a (non-pseudo) API index */
static Value *api_stackslot(lua_State *L, int idx) {
  if (idx > 0) return L->ci->func + idx;
  return L->top + idx;
}

LUA_API int lua_pcallk(lua_State *L, int nargs, int nresults, int errfunc,
                       lua_KContext ctx, lua_KFunction k) {
  struct CallS c;
  int status;
  ptrdiff_t func;
  if (errfunc == 0) func = 0;
  else func = savestack(L, api_stackslot(L, errfunc));
  c.func = L->top - (nargs + 1);
  if (k == NULL || !yieldable(L)) {
    c.nresults = nresults;
    status = do_pcall(L, f_call, &c, savestack(L, c.func), func);
  }
  else {
    /* the resume protects us; errors are recovered by precover */
    CallInfo *ci = L->ci;
    ci->u.c.k = k;
    ci->u.c.ctx = ctx;
    ci->u2.funcidx = (int)savestack(L, c.func);
    ci->u.c.old_errfunc = L->errfunc;
    L->errfunc = func;
    if (L->allowhook) ci->callstatus |= CIST_OAH;
    else ci->callstatus &= ~CIST_OAH;
    ci->callstatus |= CIST_YPCALL;
    do_call(L, c.func, nresults);
    ci->callstatus &= ~CIST_YPCALL;
    L->errfunc = ci->u.c.old_errfunc;
    status = LUA_OK;
  }
  adjustresults(L, nresults);
  return status;
}

LUA_API int lua_load(lua_State *L, lua_Reader reader, void *data,
                     const char *chunkname, const char *mode) {
  ZIO z;
  int status;
  if (chunkname == NULL) chunkname = "?";
  zio_init(L, &z, reader, data);
  status = do_protectedparser(L, &z, chunkname, mode);
  if (status == LUA_OK) {
    LClosure *f = v_lcl(L->top[-1]);
    if (f->nupvalues >= 1) {
      /* first upvalue (_ENV) := the globals table */
      const Value *gt = tab_getint(v_tab(G(L)->l_registry), LUA_RIDX_GLOBALS);
      UpVal *uv = f->upvals[0];
      Value g = isabstkey(gt) ? MVM_NIL : *gt;
      if (upisopen(uv)) *uv->v = g;   /* NOBARRIER: a stack slot */
      else gc_writeobj(L, uv, uv->v, g);
    }
  }
  return status;
}

LUA_API int lua_error(lua_State *L) {
  Value errobj = L->top[-1];
  if (v_isstring(errobj) && v_str(errobj) == G(L)->memerrmsg)
    do_throw(L, LUA_ERRMEM);
  dbg_errormsg(L);
  return 0;   /* not reached */
}
