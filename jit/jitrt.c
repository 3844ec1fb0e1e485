/*
** jitrt.c -- runtime helpers called by compiled code.  They live in the
** core (they need the VM's hidden internals); the backend learns their
** addresses from jit_helpers() and defines them as absolute symbols in the
** JIT's main JITDylib.
**
** Conventions (see jit.h): compiled code keeps every Lua register in the VM
** stack and has stored ci->u.l.savedpc (the instruction after the current
** one, as the interpreter does) before calling a helper, so errors carry the
** right line and a yield across the call can resume the frame in the
** interpreter (vm_finishOp completes the instruction, as for interpreted
** code).  The helpers taking (L, ci, pc) decode instruction 'pc' of the
** running function themselves and do exactly what the interpreter's case
** does (fast path, then the metamethod path), so compiled code and the
** interpreter cannot disagree.  They may run Lua code, raise (longjmp
** through the compiled frame, which holds no resources) and collect: they
** are NOT "gc-leaf-function"s, and compiled code re-reads its frame base
** after each.  The few pure helpers at the end (float modulo, floor
** division, power, raw equality) never allocate and are leaves.  Names
** never look like C library functions (LLVM treats those as leaves).
**
** ANCHOR RULE: every call that compiled code makes through a statepoint
** (every helper that is not a gc-leaf) goes to a helper here that begins
** with JIT_ANCHOR(ci), ci being the compiled frame that called it.  The
** anchor records in the CallInfo the caller's stack pointer at the call
** (the base of the record's RSP-relative locations; the word just below
** it is the return address into compiled code, the key of the
** statepoint's stack-map record: jit_anchorra, jit.h; below that the
** caller's RBP, which the helper pushed), so that the collector, walking the CallInfos of a thread
** (jit_walkframes), can find and relocate the references that the
** compiled frame holds in spill slots while the helper runs -- the helper
** itself may call Lua, other compiled code, and collect.  jit_run sets
** CIST_JITACT while a frame's code is on the C stack; only those frames'
** anchors are used.  Helpers must therefore be real frames of their own:
** RT_HELPER (noinline, noclone; the core is built with frame pointers,
** and __builtin_frame_address forces one anyway), and one helper never
** calls another (its anchor would point into C code).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "jit.h"
#include "jitbackend.h"
#include "do.h"
#include "debug.h"
#include "func.h"
#include "gc.h"
#include "meta.h"
#include "opcodes.h"
#include "table.h"
#include "vm.h"
#include "vmops.h"

/* a helper called from compiled code through a statepoint */
#define RT_HELPER  static __attribute__((noinline, noclone))

#ifdef MVM_CHECKED_VALUES
/* the anchor must be the return address of a statepoint of compiled code */
static void rt_checkanchor(lua_State *L, CallInfo *ci) {
  JitState *J = (JitState *)G(L)->jit;
  if (!(ci->callstatus & CIST_JITACT) ||
      sm_lookup(&J->stackmaps, (uintptr_t)jit_anchorra(ci)) == NULL) {
    fprintf(stderr, "mvm: internal error: bad JIT anchor %p (frame %sactive)\n",
            jit_anchorra(ci), (ci->callstatus & CIST_JITACT) ? "" : "not ");
    abort();
  }
}
#else
#define rt_checkanchor(L, ci)  ((void)0)
#endif

/* See the ANCHOR RULE above.  First statement of every RT_HELPER. */
#define JIT_ANCHOR(L, ci) do { \
    (ci)->u.l.jitsp = (char *)__builtin_frame_address(0) + 16; \
    rt_checkanchor(L, ci); \
  } while (0)

#define rt_cl(ci)      v_lcl(*(ci)->func)
#define rt_base(ci)    ((ci)->func + 1)
#define rt_empty(s)    (v_isnil(*(s)) || isabstkey(s))

/* same accounting as do.c's (low 16 bits: C levels; bits 16-23:
** non-yieldable levels; bits 24-31: direct calls) */
#define rt_ccalls(L)    ((L)->nCcalls & 0xffff)
/* direct (C-nesting) calls between compiled functions on a stack of
** unknown bounds (jit.h JIT_CSRESERVE) stop this far below the C-stack
** limit; deeper calls go through the interpreter, which does not nest */
#define RT_MAXNEST      JIT_MAXNEST
/* Direct calls are not counted where the stack window bounds them
** (jit.h JIT_CSRESERVE); on a stack of unknown bounds each counts in its
** own bits of nCcalls (RT_DIRECT), neither as a C level nor as a
** non-yieldable one: the C levels a Lua program can observe (the
** parser's nesting limit, the depth of "C stack overflow") stay what
** they are interpreted, and a coroutine stays yieldable inside direct
** calls.  A yield (longjmp to lua_resume) discards their C frames; that
** is sound because at every call compiled code has flushed its frame to
** the VM stack and set savedpc after the call, so the interpreter
** (unroll) resumes each frame where it is, re-entering its compiled code
** after the CALL (jit_unwoundframes: CIST_JIT), as after a JIT_CALLED.
** An error or a yield unwinds the count with the rest of nCcalls
** (do_rawrunprotected, lua_resume); a resumed coroutine inherits its
** resumer's count, so RT_MAXNEST bounds the C stack that counted direct
** calls take across nested resumes too.  RT_MAXNEST bounds all three
** kinds.
** NESTED ACTIVATIONS: an interpreter activation that compiled code
** starts above its own C frame (rt_nestvm) counts as RT_DIRECT in both
** cases, so that the interpreter's yield without a longjmp (vm.c OP_CALL,
** L->nCcalls == L->basecalls) knows it is not the coroutine's base
** activation; direct calls stop where the count reaches RT_MAXNEST (the
** byte never wraps), inline too (llvmgen.c directok). */
#define RT_DIRECT       JIT_DIRECT
#define rt_depth(L)     (rt_ccalls(L) + (((L)->nCcalls >> 16) & 0xff) + ((L)->nCcalls >> 24))
/* May compiled code of L make a direct call now (hooks are tested
** apart)?  -1: no; else what the call adds to L->nCcalls around it (0
** within the window, RT_DIRECT counted).  Compiled code makes the
** window's test inline (llvmgen.c directok). */
static inline long rt_direct(lua_State *L) {
  const JitState *J = (const JitState *)G(L)->jit;
  if (J->csspan != 0)
    return (uintptr_t)__builtin_frame_address(0) - J->cslo < J->csspan &&
           (L->nCcalls >> 24) < RT_MAXNEST ? 0 : -1;
  return rt_depth(L) < RT_MAXNEST ? (long)RT_DIRECT : -1;
}

/* run frame 'ci' in a nested interpreter activation (see NESTED
** ACTIVATIONS above) */
static void rt_nestvm(lua_State *L, CallInfo *ci) {
  L->nCcalls += RT_DIRECT;
  vm_execute(L, ci);
  L->nCcalls -= RT_DIRECT;
}

static void rt_interrupted(lua_State *L) {
  if (l_unlikely(G(L)->interrupt)) {
    G(L)->interrupt = 0;
    dbg_runerror(L, "interrupted");
  }
}

/* The interrupt check of the helpers that compiled code may call on every
** path of a loop body: place-safepoints puts no poll on a back-edge that
** such a call dominates (it counts the call as the loop's safepoint), so
** "interrupted" must come from the call, as it does from mvmrt_precall.
** Every helper of an instruction that can be in a loop body enters with
** RT_ENTER (the anchor, then the check): the table helpers (the whole
** instruction when its key is not a constant string: helper_only), SELF,
** VARARG, SETLIST, NEWTABLE, CLOSURE, LEN, CONCAT, CLOSE, the generic
** comparisons.  The helpers of a function's entry and exit (VARARGPREP,
** RETURN, TFORPREP) and the call helpers (their own check) only anchor. */
static void rt_helperpoll(lua_State *L, CallInfo *ci) {
  if (l_unlikely(G(L)->interrupt)) {
    L->top = ci->top;
    rt_interrupted(L);
  }
}
#define RT_ENTER(L, ci)  JIT_ANCHOR(L, ci); rt_helperpoll(L, ci)

/* Finish the direct call of the Lua frame 'nci' whose compiled code has
** just run once (jit_run or the lean path of mvmrt_precall) and returned
** 'r', other than JIT_RETURNED.  Whatever the callee's code left unfinished
** (a side exit, or a call it handed back) is finished by a nested
** interpreter activation that returns at the end of 'nci' (CIST_FRESH),
** exactly as for a Lua function called from C. */
static void rt_finishnested(lua_State *L, CallInfo *nci, int r) {
  while (r == JIT_TAILCALLED) {
    /* the frame now runs another Lua function from its start: loop (a
    ** proper tail call) while it has compiled code */
    Proto *p = v_lcl(*nci->func)->p;
    if (p->jitcode == NULL && G(L)->jitmode != 0)
      jit_maybecompile(L, p);
    if (L->hookmask || !jit_hascode(p)) {
      r = JIT_EXITED;   /* the interpreter starts it (savedpc = p->code) */
      break;
    }
    /* as jit_run, without its bookkeeping: 'nci' is a direct call's
    ** frame (J->curL is L already, as in rt_leancall) */
    nci->callstatus |= CIST_JITACT;
    r = ((JitFunction)p->jitcode)(L, nci, nci);
    nci->callstatus &= (unsigned short)~CIST_JITACT;
    if (r == JIT_EXITED) jit_exited(L, p);
  }
  if (r != JIT_RETURNED) {
    if (r == JIT_CALLED) {          /* callee of the callee pushed: run it */
      nci->callstatus |= CIST_FRESH | CIST_JIT;
      rt_nestvm(L, L->ci);
    }
    else {
      nci->callstatus |= CIST_FRESH;
      rt_nestvm(L, nci);
    }
  }
}

/* Run the compiled code of the Lua frame 'nci' that do_precall has just
** pushed, nested on the C stack (a direct call). */
static void rt_runnested(lua_State *L, CallInfo *nci, Proto *p, long inc) {
  int r;
  L->nCcalls += (uint32_t)inc;
  r = jit_run(L, nci, p);
  if (r != JIT_RETURNED) rt_finishnested(L, nci, r);
  L->nCcalls -= (uint32_t)inc;
}

/* The common case of mvmrt_precall, without do_precall and jit_run: a Lua
** callee with room on the stack for its frame, a spare CallInfo, no hooks
** and no pending interrupt.  The frame is set up as do_precall does (as
** the interpreter's inline CALL does).  Then, where a direct call is
** allowed (rt_direct), compiled code is called as
** jit_run does, except that J->curL is not saved and set: it is already L
** while compiled code of L runs (the caller's), and mvmrt_precall sets it
** again after the call; an interpreted callee runs in a nested
** interpreter activation.  Returns -1 if the general path must do the
** call, else what mvmrt_precall returns for a Lua callee (0: done, 1:
** the interpreter runs the callee). */
static inline int rt_leancall(lua_State *L, CallInfo *ci, Value *func, int nresults) {
  Proto *p;
  CallInfo *nci;
  void *code;
  int narg, r;
  long inc;
  if (!v_isLclosure(*func) || G(L)->interrupt || L->hookmask)
    return -1;
  p = v_lcl(*func)->p;
  nci = ci->next;
  if (nci == NULL || L->stack_last - L->top <= p->maxstacksize)
    return -1;
  /* read once: the compile thread may install code meanwhile */
  code = __atomic_load_n(&p->jitcode, __ATOMIC_ACQUIRE);
  L->ci = nci;
  nci->func = func;
  nci->nresults = (short)nresults;
  nci->callstatus = 0;
  nci->top = func + 1 + p->maxstacksize;
  nci->u.l.savedpc = p->code;
  nci->u.l.trap = 0;
  for (narg = (int)(L->top - func) - 1; narg < p->numparams; narg++)
    *L->top++ = MVM_NIL;
  p->hotcount++;
  p->ncalls++;
  if ((inc = rt_direct(L)) < 0)
    return 1;
  L->nCcalls += (uint32_t)inc;
  if (l_likely((uintptr_t)code > (uintptr_t)JIT_QUEUED)) {   /* jit_hascode */
    nci->callstatus = CIST_JITACT;   /* its anchor is live while the code runs */
    r = ((JitFunction)code)(L, nci, nci);
    nci->callstatus &= (unsigned short)~CIST_JITACT;
    if (l_unlikely(r != JIT_RETURNED)) {
      if (r == JIT_EXITED) jit_exited(L, p);
      rt_finishnested(L, nci, r);
    }
  }
  else {
    /* An interpreted callee runs in a nested interpreter activation
    ** (which compiles it first if the policy says so), as a direct call
    ** does.  Handing it back (JIT_CALLED) costs more: this code returns,
    ** and is re-entered through its entry switch. */
    nci->callstatus = CIST_FRESH;
    rt_nestvm(L, nci);
  }
  L->nCcalls -= (uint32_t)inc;
  return 0;
}

/* The common case of mvmrt_precall for a C callee, without do_precall,
** precall_C and do_poscall: the interpreter's inline C call (vm.c
** OP_CALL): stack room for LUA_MINSTACK, a spare CallInfo, no hooks
** before or after, no pending interrupt.  The C function sees exactly
** precall_C's frame (CIST_C, u.c.k NULL, top + LUA_MINSTACK), so errors,
** yields (lua_yieldk always throws from a C frame), continuations and
** callbacks into Lua behave as on the general path.  Returns -1 if the
** general path must do the call, else 0 (done, results in place). */
static inline int rt_leanccall(lua_State *L, CallInfo *ci, Value *func, int nresults) {
  lua_CFunction f;
  CallInfo *nci = ci->next;
  int n, wanted;
  if (v_islcf(*func)) f = v_lcf(*func);
  else if (v_isCclosure(*func)) f = v_ccl(*func)->f;
  else return -1;
  if (nci == NULL || L->stack_last - L->top <= LUA_MINSTACK || L->hookmask || G(L)->interrupt)
    return -1;
  vm_pushcframe(L, nci, func, nresults);
  n = (*f)(L);
  wanted = nci->nresults;   /* (lua_toclose may have marked it) */
  if (wanted == LUA_MULTRET) wanted = n;
  if (l_likely(wanted >= 0 && !L->hookmask)) vm_cretmove(L, ci, nci, n, wanted);
  else do_poscall(L, nci, n);
  return 0;
}

/* TFORCALL's step of next or of ipairs' iterator (G->nextaux,
** G->ipairsaux) without a call, as the interpreter's TFORCALL does
** (vmops.h vm_tfornext, vm_tforipairs): R[a] .. R[a+2] of frame 'ci' hold the
** iterator, the state and the control, copied for the call; returns 1
** when their 'wanted' results are in place from R[a] (L->top after
** them, as do_poscall leaves it), 0 when the call must be made (another
** iterator, a table with a metatable for ipairs, a key whose place needs
** a lookup, hooks).  A leaf: nothing allocates or raises (no anchor). */
static int mvmrt_tforstep(lua_State *L, CallInfo *ci, int a, int wanted) {
  Value *res = rt_base(ci) + a;
  lua_CFunction f;
  if (!v_islcf(res[0]) || L->hookmask) return 0;
  f = v_lcf(res[0]);
  if (f == G(L)->ipairsaux) return vm_tforipairs(L, res, wanted);
  if (f == G(L)->nextaux) return vm_tfornext(L, res, wanted);
  return 0;
}

/* Start the call R[a](R[a+1] .. R[a+b-1]) (b == 0: the arguments end at
** L->top) with 'nresults' results (LUA_MULTRET: up to L->top),
** as the interpreter's OP_CALL does.  Returns what compiled code does
** next (the status it returns, unless JIT_RETURNED), so that its slow
** path needs no translation: JIT_RETURNED (0) when the call is complete
** (results in place): the callee was a C function, or a Lua function with
** compiled code that ran as a direct call.  JIT_CALLED when a Lua frame
** is now L->ci that the interpreter must run: compiled code returns it and
** the interpreter runs the callee in its own loop, without C recursion.
** JIT_EXITED when the call is complete but hooks are now on (the callee
** set them): compiled code leaves to the interpreter after the call
** (savedpc), which then reports the events of the rest of the frame.
** Direct calls are made with hooks off, where rt_direct allows them,
** also in coroutines (see RT_DIRECT for why a yield across
** them is sound). */
RT_HELPER int mvmrt_precall(lua_State *L, CallInfo *ci, int a, int b, int nresults) {
  JIT_ANCHOR(L, ci);
  Value *func = ci->func + 1 + a;
  CallInfo *nci;
  if (b != 0) L->top = func + b;   /* else the arguments end at L->top */
  if (rt_leanccall(L, ci, func, nresults) == 0) goto done;
  switch (rt_leancall(L, ci, func, nresults)) {
    case 0: goto done;
    case 1: return JIT_CALLED;
    default: break;
  }
  rt_interrupted(L);
  nci = do_precall(L, func, nresults);
  if (nci != NULL) {
    Proto *p = v_lcl(*nci->func)->p;
    long inc;
    if (L->hookmask || (inc = rt_direct(L)) < 0)
      return JIT_CALLED;
    if (jit_hascode(p))
      rt_runnested(L, nci, p, inc);
    else {   /* as in rt_leancall */
      nci->callstatus |= CIST_FRESH;
      L->nCcalls += (uint32_t)inc;
      rt_nestvm(L, nci);
      L->nCcalls -= (uint32_t)inc;
    }
  }
 done:
  /* a C function (or the callee) ran; it may have run compiled code of
  ** another thread (coroutines) that left through longjmp without
  ** restoring curL */
  ((JitState *)G(L)->jit)->curL = L;
  return L->hookmask ? JIT_EXITED : JIT_RETURNED;
}

/* The inline call path of compiled code (llvmgen.c, inlinecall) called
** the compiled code of the Lua frame ci->next directly and got 'r', other
** than JIT_RETURNED: finish the call as rt_leancall does (within the
** stack window: inline calls are not counted, jit.h).  Returns 0. */
RT_HELPER int mvmrt_finishcall(lua_State *L, CallInfo *ci, int r) {
  JIT_ANCHOR(L, ci);
  CallInfo *nci = ci->next;
  nci->callstatus &= (unsigned short)~CIST_JITACT;
  if (r == JIT_EXITED) jit_exited(L, v_lcl(*nci->func)->p);
  rt_finishnested(L, nci, r);
  ((JitState *)G(L)->jit)->curL = L;   /* as mvmrt_precall (the caller does not) */
  return 0;
}

/* The inline C call of compiled code (llvmgen.c ccallinline) found the
** results' count marked (lua_toclose) or hooks on after the C function
** returned 'n' results: do_poscall finishes the call.  Returns what
** mvmrt_precall returns after a C callee (0, or 2: hooks on). */
RT_HELPER int mvmrt_cpostcall(lua_State *L, CallInfo *ci, int n) {
  JIT_ANCHOR(L, ci);
  do_poscall(L, ci->next, n);
  ((JitState *)G(L)->jit)->curL = L;
  return L->hookmask ? 2 : 0;
}

/* return R[a] .. R[a+n-1] from frame 'ci' */
RT_HELPER void mvmrt_return(lua_State *L, CallInfo *ci, int a, int n) {
  JIT_ANCHOR(L, ci);
  if (n < 0) n = (int)(L->top - (ci->func + 1 + a));   /* up to L->top */
  else L->top = ci->func + 1 + a + n;
  do_poscall(L, ci, n);
}

/* MVM_GC_STRESS: collect at the first few passes through each poll, so
** that every poll's stack map is exercised.  Not at every pass: a deep
** recursion polls at every entry, and each collection scans the whole
** stack (quadratic); values that stay live across a poll are old after
** the first collections anyway, and every allocation collects under
** stress, so young values live across helper calls are still moved. */
#define RT_STRESSPOLLS 8
static void rt_stresspoll(JitState *J, lua_State *L) {
  SMRecord *r = (SMRecord *)sm_lookup(&J->stackmaps, (uintptr_t)jit_anchorra(L->ci));
  if (r != NULL && r->stresshits < RT_STRESSPOLLS) {
    r->stresshits++;
    J->stresspolls++;
    gc_stresscollect(L);
  }
}

/* the slow path of the safepoint poll, taken when the VM's poll flag
** (G(L)->interrupt) is set: raise "interrupted" in the running thread.
** Under MVM_GC_STRESS every poll comes here (llvmgen.c: J->stresspoll),
** and collects at times (rt_stresspoll). */
RT_HELPER void mvmrt_poll(JitState *J) {
  lua_State *L = J->curL;
  global_State *g = J->g;
  if (l_unlikely(!(L->ci->callstatus & CIST_JITACT))) {
    /* J->curL is stale: the anchor would go into some other CallInfo
    ** (cheap to check here: the slow path is rare outside stress runs) */
    fputs("mvm: internal error: safepoint poll: J->curL is not running compiled code\n", stderr);
    abort();
  }
  JIT_ANCHOR(L, L->ci);   /* the running compiled frame is L->ci */
  if (J->stresspoll) rt_stresspoll(J, L);
  if (g->interrupt) {
    g->interrupt = 0;
    L->top = L->ci->top;
    dbg_runerror(L, "interrupted");
  }
}

/* ---------------------------------------------------------------------
** Instructions done entirely by a helper: (L, ci, pc)
** --------------------------------------------------------------------- */

#define RT_DECODE \
  LClosure *cl = rt_cl(ci); \
  Instruction i = cl->p->code[pc]; \
  Value *base = rt_base(ci); \
  Value *k = cl->p->k; \
  (void)k

/* TAILCALL (B == 0: the arguments end at L->top; C != 0: a vararg
** function, whose frame moves back below its extra arguments), as the
** interpreter does it.  Returns 1 when a Lua callee now occupies 'ci'
** (compiled code returns JIT_TAILCALLED), 0 when a C callee ran and the
** frame has returned its results (JIT_RETURNED). */
RT_HELPER int mvmrt_tailcall(lua_State *L, CallInfo *ci, int pc) {
  JIT_ANCHOR(L, ci);
  RT_DECODE;
  Value *ra = base + GETARG_A(i);
  int n, b = GETARG_B(i);
  /* vararg functions: distance from the real to the virtual func */
  int delta = GETARG_C(i) ? ci->u.l.nextraargs + GETARG_C(i) : 0;
  if (b != 0) L->top = ra + b;
  else b = (int)(L->top - ra);   /* the arguments end at L->top */
  rt_interrupted(L);
  if (GETARG_k(i))
    func_closeupval(L, base);   /* no tbc variables can be pending */
  /* a C callee: its lean call (rt_leanccall: precall_C's frame and
  ** results, LUA_MULTRET), as do_pretailcall would call it */
  if (rt_leanccall(L, ci, ra, LUA_MULTRET) == 0)
    n = (int)(L->top - ci->next->func);   /* (the stack may have moved) */
  else if ((n = do_pretailcall(L, ci, ra, b, delta)) < 0)
    return 1;
  ((JitState *)G(L)->jit)->curL = L;
  ci->func -= delta;            /* C callee already ran */
  do_poscall(L, ci, n);
  return 0;
}

RT_HELPER void mvmrt_gettabup(lua_State *L, CallInfo *ci, int pc) {
  RT_ENTER(L, ci);
  RT_DECODE;
  L->top = ci->top;
  vm_gettable(L, cl->upvals[GETARG_B(i)]->v, k + GETARG_C(i), base + GETARG_A(i));
}

RT_HELPER void mvmrt_gettable(lua_State *L, CallInfo *ci, int pc) {
  RT_ENTER(L, ci);
  RT_DECODE;
  L->top = ci->top;
  vm_gettable(L, base + GETARG_B(i), base + GETARG_C(i), base + GETARG_A(i));
}

RT_HELPER void mvmrt_geti(lua_State *L, CallInfo *ci, int pc) {
  RT_ENTER(L, ci);
  RT_DECODE;
  Value key = v_immint(GETARG_C(i));
  L->top = ci->top;
  vm_gettable(L, base + GETARG_B(i), &key, base + GETARG_A(i));
}

RT_HELPER void mvmrt_getfield(lua_State *L, CallInfo *ci, int pc) {
  RT_ENTER(L, ci);
  RT_DECODE;
  L->top = ci->top;
  vm_gettable(L, base + GETARG_B(i), k + GETARG_C(i), base + GETARG_A(i));
}

RT_HELPER void mvmrt_self(lua_State *L, CallInfo *ci, int pc) {
  RT_ENTER(L, ci);
  RT_DECODE;
  Value *rb = base + GETARG_B(i);
  base[GETARG_A(i) + 1] = *rb;
  L->top = ci->top;
  vm_gettable(L, rb, GETARG_k(i) ? k + GETARG_C(i) : base + GETARG_C(i), base + GETARG_A(i));
}

RT_HELPER void mvmrt_settabup(lua_State *L, CallInfo *ci, int pc) {
  RT_ENTER(L, ci);
  RT_DECODE;
  L->top = ci->top;
  vm_settable(L, cl->upvals[GETARG_A(i)]->v, k + GETARG_B(i),
              GETARG_k(i) ? k + GETARG_C(i) : base + GETARG_C(i));
}

static void rt_settable(lua_State *L, CallInfo *ci, int pc) {
  RT_DECODE;
  L->top = ci->top;
  vm_settable(L, base + GETARG_A(i), base + GETARG_B(i),
              GETARG_k(i) ? k + GETARG_C(i) : base + GETARG_C(i));
}
/* (An integer key into a table without a metatable, which the inline
** paths leave here when it is not in the array part -- a list growing
** from {} -- is tab_setint's, as in the interpreter's SETTABLE, without
** vm_settable's generic lookup.) */
RT_HELPER void mvmrt_settable(lua_State *L, CallInfo *ci, int pc) {
  RT_ENTER(L, ci);
  {
    RT_DECODE;
    Value *ra = base + GETARG_A(i), *rb = base + GETARG_B(i);
    if (v_istable(*ra) && v_tab(*ra)->metatable == NULL && v_isimmint(*rb)) {
      L->top = ci->top;
      tab_setint(L, v_tab(*ra), v_getimmint(*rb), GETARG_k(i) ? k[GETARG_C(i)] : base[GETARG_C(i)]);
      return;
    }
  }
  rt_settable(L, ci, pc);
}

RT_HELPER void mvmrt_seti(lua_State *L, CallInfo *ci, int pc) {
  RT_ENTER(L, ci);
  RT_DECODE;
  Value key = v_immint(GETARG_B(i));
  L->top = ci->top;
  vm_settable(L, base + GETARG_A(i), &key, GETARG_k(i) ? k + GETARG_C(i) : base + GETARG_C(i));
}

RT_HELPER void mvmrt_setfield(lua_State *L, CallInfo *ci, int pc) {
  RT_ENTER(L, ci);
  RT_DECODE;
  L->top = ci->top;
  vm_settable(L, base + GETARG_A(i), k + GETARG_B(i),
              GETARG_k(i) ? k + GETARG_C(i) : base + GETARG_C(i));
}

/* NEWTABLE without EXTRAARG sizes (k = 0): 'w' is A | B << 8 | C << 16,
** decoded by the compiler (llvmgen.c), so that no instruction is read */
_Static_assert(SIZE_A <= 8 && SIZE_B <= 8 && SIZE_C <= 15, "mvmrt_newtabsz's packing");
RT_HELPER void mvmrt_newtabsz(lua_State *L, CallInfo *ci, int w) {
  RT_ENTER(L, ci);
  L->top = ci->top;
  /* (the stack never moves in a collection) */
  rt_base(ci)[w & 0xff] = v_ref(tab_newsized(L, (unsigned)w >> 16,
                                             vm_newtabhash(((unsigned)w >> 8) & 0xffu)));
  gc_check(L);
}

/* NEWTABLE of a record constructor (A | B << 8 in 'w': no array part)
** whose site keeps the layout of its records (llvmgen.c newrecordsite,
** table.h TabTemplate) */
RT_HELPER void mvmrt_newrecord(lua_State *L, CallInfo *ci, int w, TabTemplate *tp) {
  RT_ENTER(L, ci);
  L->top = ci->top;
  rt_base(ci)[w & 0xff] = v_ref(tab_newrecord(L, vm_newtabhash(((unsigned)w >> 8) & 0xffu), tp));
  gc_check(L);
}

RT_HELPER void mvmrt_newtable(lua_State *L, CallInfo *ci, int pc) {
  RT_ENTER(L, ci);
  RT_DECODE;
  L->top = ci->top;
  /* (the stack never moves in a collection) */
  base[GETARG_A(i)] = v_ref(vm_newtable(L, i, cl->p->code[pc + 1]));
  gc_check(L);
}

/* the interpreter's push_closure */
RT_HELPER void mvmrt_closure(lua_State *L, CallInfo *ci, int pc) {
  RT_ENTER(L, ci);
  RT_DECODE;
  Proto *p = cl->p->p[GETARG_Bx(i)];
  int a = GETARG_A(i);
  int nup = p->sizeupvalues, n;
  LClosure *ncl;
  L->top = ci->top;
  ncl = func_newLclosure(L, nup);
  base = rt_base(ci);
  ncl->p = p;
  base[a] = v_ref(ncl);      /* anchor it */
  for (n = 0; n < nup; n++) {
    UpVal *uv;
    if (p->upvalues[n].instack)
      uv = func_findupval(L, base + p->upvalues[n].idx);     /* may move ncl */
    else
      uv = v_lcl(*ci->func)->upvals[p->upvalues[n].idx];
    ncl = v_lcl(base[a]);
    ncl->upvals[n] = uv;
    gc_cardmark(G(L), (GCObject *)ncl, &ncl->upvals[n]);
  }
  gc_check(L);
}

static void rt_len(lua_State *L, CallInfo *ci, int pc) {
  RT_DECODE;
  L->top = ci->top;
  vm_objlen(L, base + GETARG_A(i), base + GETARG_B(i));
}
RT_HELPER void mvmrt_len(lua_State *L, CallInfo *ci, int pc) {
  RT_ENTER(L, ci);
  rt_len(L, ci, pc);
}

RT_HELPER void mvmrt_concat(lua_State *L, CallInfo *ci, int pc) {
  RT_ENTER(L, ci);
  RT_DECODE;
  int n = GETARG_B(i);
  L->top = base + GETARG_A(i) + n;   /* operands end at top */
  vm_concat(L, n);
  L->top = ci->top;
  gc_check(L);
}

/* SETLIST with a fixed count (B > 0) */
RT_HELPER void mvmrt_setlist(lua_State *L, CallInfo *ci, int pc) {
  RT_ENTER(L, ci);
  RT_DECODE;
  Value *ra = base + GETARG_A(i);
  int n = GETARG_B(i);
  unsigned last;
  Table *h;
  if (n == 0) n = (int)(L->top - ra) - 1;   /* the values end at L->top */
  last = (unsigned)GETARG_C(i) + (unsigned)n;
  L->top = ci->top;
  if (GETARG_k(i)) last += (unsigned)GETARG_Ax(cl->p->code[pc + 1]) * (MAXARG_C + 1);
  h = v_tab(*ra);
  vm_setlist(L, h, ra, n, last);
}

RT_HELPER void mvmrt_tforprep(lua_State *L, CallInfo *ci, int pc) {
  JIT_ANCHOR(L, ci);
  RT_DECODE;
  L->top = ci->top;
  func_newtbcupval(L, base + GETARG_A(i) + 3);
}

RT_HELPER void mvmrt_close(lua_State *L, CallInfo *ci, int pc) {
  RT_ENTER(L, ci);
  RT_DECODE;
  L->top = ci->top;
  func_close(L, base + GETARG_A(i), LUA_OK, 1);
}

/* Vararg functions (VARARGPREP, VARARG, RETURN with C != 0), as the
** interpreter does them.  VARARGPREP moves the frame above the extra
** arguments (ci->func changes; the stack may be reallocated). */
RT_HELPER void mvmrt_varargprep(lua_State *L, CallInfo *ci, int pc) {
  JIT_ANCHOR(L, ci);
  RT_DECODE;
  (void)base;
  meta_adjustvarargs(L, GETARG_A(i), ci, cl->p);
}

/* VARARG with C == 0 (all extras; a fixed count is llvmgen.c varargcopy):
** L->top at the end of the copies for the next instruction, which takes
** them (llvmgen.c multret_next) or leaves to the interpreter */
RT_HELPER void mvmrt_vararg(lua_State *L, CallInfo *ci, int pc) {
  RT_ENTER(L, ci);
  RT_DECODE;
  meta_getvarargs(L, ci, base + GETARG_A(i));
}

/* RETURN in a vararg function (the frame goes back down below the extra
** arguments) or with upvalues and to-be-closed variables to close (k: a
** generic for's closing value), as the interpreter does it */
RT_HELPER void mvmrt_varreturn(lua_State *L, CallInfo *ci, int pc) {
  JIT_ANCHOR(L, ci);
  RT_DECODE;
  Value *ra = base + GETARG_A(i);
  int n = GETARG_B(i) - 1;
  if (n < 0) n = (int)(L->top - ra);   /* the results end at L->top */
  if (GETARG_k(i)) {   /* as the interpreter: __close may run (and yield) */
    ci->u2.nres = n;
    if (L->top < ci->top) L->top = ci->top;
    func_close(L, base, CLOSEKTOP, 1);
    ra = rt_base(ci) + GETARG_A(i);   /* the stack may have moved */
  }
  if (GETARG_C(i)) ci->func -= ci->u.l.nextraargs + GETARG_C(i);
  L->top = ra + n;
  do_poscall(L, ci, n);
}

/* Arithmetic or bitwise instruction 'pc' at a metamethod site
** (llvmgen.c mmsites) with an operand that is not a number: what the
** interpreter does there and at the MMBIN* after it.  The MMBIN* names
** the operation and its operands as written (ADDI of -1 is `x - 1`,
** SHRI of -3 is `x << 3`; k: the constant came first), so both the
** numbers' path and the metamethod's take them from it.  Compiled code
** set savedpc past the MMBIN*, as the interpreter's Protect does: errors
** name the operands, and a yield in the metamethod is finished by
** vm_finishOp there.  UNM and BNOT (no MMBIN) are the interpreter's own:
** savedpc after them. */
static void rt_arith(lua_State *L, CallInfo *ci, int pc) {
  RT_DECODE;
  Instruction mm = cl->p->code[pc + 1];
  TMS tm = (TMS)GETARG_C(mm);
  Value *res = base + GETARG_A(i);
  const Value *p1 = base + GETARG_A(mm), *p2;
  Value imm;
  int flip = 0;
  L->top = ci->top;
  if (GET_OPCODE(i) == OP_UNM || GET_OPCODE(i) == OP_BNOT) {   /* no MMBIN: as the interpreter */
    tm = GET_OPCODE(i) == OP_UNM ? TM_UNM : TM_BNOT;
    p1 = p2 = base + GETARG_B(i);
  }
  else switch (GET_OPCODE(mm)) {
    case OP_MMBIN: p2 = base + GETARG_B(mm); break;
    case OP_MMBINI:   /* (a small immediate: no allocation) */
      imm = vm_int(L, GETARG_sB(mm)); p2 = &imm; flip = GETARG_k(mm); break;
    default: p2 = k + GETARG_B(mm); flip = GETARG_k(mm); break;   /* MMBINK */
  }
  if (flip) {
    const Value *t = p1;
    p1 = p2; p2 = t;
  }
  /* (numbers here: boxed integers, or floats of bitwise operations) */
  if (!(v_isnumber(*p1) && v_isnumber(*p2) &&
        vm_rawarith(L, (int)tm - TM_ADD + LUA_OPADD, p1, p2, res)))
    meta_trybinTM(L, p1, p2, res, tm);
}
RT_HELPER void mvmrt_arith(lua_State *L, CallInfo *ci, int pc) {
  RT_ENTER(L, ci);
  rt_arith(L, ci, pc);
}

/* `#t + 1` of an append (llvmgen.c appendop, lenaddop) where its inline
** path does not apply: the LEN at pc and the ADDI at pc + 1 (its MMBINI
** at pc + 2) as their own helpers would run them, each with savedpc where
** compiled code sets it for that helper: an error names its own
** instruction, and a metamethod that yields is finished there by
** vm_finishOp, the interpreter going on after it. */
static void rt_lenadd(lua_State *L, CallInfo *ci, int pc) {
  const Instruction *code = rt_cl(ci)->p->code;
  ci->u.l.savedpc = code + pc + 1;
  rt_len(L, ci, pc);
  ci->u.l.savedpc = code + pc + 3;   /* past the MMBINI */
  rt_arith(L, ci, pc + 1);
}
RT_HELPER void mvmrt_lenadd(lua_State *L, CallInfo *ci, int pc) {
  RT_ENTER(L, ci);
  rt_lenadd(L, ci, pc);
}
/* the whole `t[#t + 1] = v`, its SETTABLE at pc + 3 (appendop).  One
** anchor (RT_ENTER) for the three: the compiled frame's stack pointer is
** this frame's.  A table without a metatable (no __len, no __newindex)
** takes the interpreter's raw store of a new integer key (vm.c SETTABLE)
** without the generic length, addition and store: the inline path
** leaves here when the array part is full, as in every append to a small
** table (a list that grows from {}: its first appends all come here).
** R[A] is a dead temporary (appendsite) and is left as it is. */
RT_HELPER void mvmrt_append(lua_State *L, CallInfo *ci, int pc) {
  RT_ENTER(L, ci);
  {
    RT_DECODE;
    Value *rt = base + GETARG_B(i);
    if (v_istable(*rt) && v_tab(*rt)->metatable == NULL) {
      Instruction st = cl->p->code[pc + 3];
      Table *t = v_tab(*rt);
      L->top = ci->top;
      tab_setint(L, t, (int64_t)tab_len(t) + 1, GETARG_k(st) ? k[GETARG_C(st)] : base[GETARG_C(st)]);
      return;
    }
  }
  rt_lenadd(L, ci, pc);
  ci->u.l.savedpc = rt_cl(ci)->p->code + pc + 4;
  rt_settable(L, ci, pc + 3);
}

/* comparisons that the inline number paths do not handle (metamethods,
** strings, errors): the interpreter's generic paths */
RT_HELPER int mvmrt_eq(lua_State *L, CallInfo *ci, int pc) {
  RT_ENTER(L, ci);
  RT_DECODE;
  L->top = ci->top;
  return vm_equalobj(L, base + GETARG_A(i), base + GETARG_B(i));
}

RT_HELPER int mvmrt_lt(lua_State *L, CallInfo *ci, int pc) {
  RT_ENTER(L, ci);
  RT_DECODE;
  L->top = ci->top;
  return vm_lessthan(L, base + GETARG_A(i), base + GETARG_B(i));
}

RT_HELPER int mvmrt_le(lua_State *L, CallInfo *ci, int pc) {
  RT_ENTER(L, ci);
  RT_DECODE;
  L->top = ci->top;
  return vm_lessequal(L, base + GETARG_A(i), base + GETARG_B(i));
}

/* ---------------------------------------------------------------------
** Leaves: pure, never allocate, never raise ("gc-leaf-function")
** --------------------------------------------------------------------- */

/* Lua's float modulo (the interpreter's: vm_modf, which ignores L) */
static double mvmrt_fltmod(double m, double n) {
  return vm_modf(NULL, m, n);
}

static double mvmrt_fltidiv(double m, double n) {
  return floor(m / n);
}

static double mvmrt_fltpow(double m, double n) {
  return n == 2 ? m * m : pow(m, n);
}

/* the slot of short string 'key' in 't' after its main position missed
** (compiled code checks that one inline), or NULL */
static const Value *mvmrt_strchain(Table *t, TString *key) {
  const Value *s = tab_getstr(t, key);
  return isabstkey(s) ? NULL : s;
}

/* 's', a raw lookup's result in 't', if a store may write it inline: the
** key's node when it holds a value, or a nil with no '__newindex' that
** could apply (no metatable, or its absence bit set: as fasttm); else
** NULL, and the instruction's helper stores (new keys, metamethods) */
static const Value *rt_storable(const Table *t, const Value *s) {
  const Table *mt = t->metatable;
  if (isabstkey(s)) return NULL;
  if (v_isnil(*s) && mt != NULL && !(mt->extra & (1u << TM_NEWINDEX))) return NULL;
  return s;
}
/* the slot of short string 'key' in 't' that a store may write inline
** (llvmgen.c setslot, after its probe missed), else NULL */
static const Value *mvmrt_strset(Table *t, TString *key) {
  return rt_storable(t, tab_getstr(t, key));
}

/* the slot of integer 'key' in the hash part of 't' (a positive key past
** the array part) that a store may write inline (llvmgen.c setbigkey),
** under mvmrt_strset's conditions; else NULL (new keys, metamethods: the
** instruction's helper).  A hash node: no length hint to keep. */
static const Value *mvmrt_intset(Table *t, lua_Integer key) {
  return rt_storable(t, tab_getint(t, key));
}

/* mvmrt_strset for llvmgen.c setslot, which then stores into the slot:
** the site's hint := the slot's node, t's 'extra' byte cleared as
** tab_setslot does (the slot may hold nil: the key appears).  Not
** read-only: compiled code reloads what it loaded before the call, on
** this path only (a store's probe missed: a nil field, a key away from
** the node its site saw last) */
static const Value *mvmrt_strsethint(Table *t, JitKeySite *site) {
  const Value *s = mvmrt_strset(t, site->key);
  if (s != NULL) {
    site->hint = (uint32_t)((const Node *)(const void *)((const char *)s - offsetof(Node, val)) - t->node);
    tab_clearextra(site->g, t);
  }
  return s;
}

/* After mvmrt_strset or mvmrt_strsethint found no slot to store into
** (llvmgen.c setslot): a new key of a table where no '__newindex' can
** apply (no metatable, or its absence bit set: as fasttm) gets a node
** with nil when one is free (tab_newstrnode: its main position, or a free
** node as newkey finds it) and its slot is returned for the store that
** follows at once (the fields of a constructor into its presized hash
** part, an object's fields set after its setmetatable, a field an object
** gets on its first store); else NULL (the table must grow), and the
** instruction's helper or the interpreter stores (vm_finishset, newkey:
** it went there for every new key, through the frame's flush; until
** session 14 also for an occupied main position, which in a loop now
** leaves: richards' Scheduler:schedule, whose scheduler gets its
** 'currentId' at the first store, then left once per run and was
** compiled again, depending on the hash seed).  Only an absent key gets
** here without a metatable (a nil value with one means '__newindex' may
** apply: the helper).  The site's hint := the node, 't''s 'extra' byte
** cleared (a new key); no allocation, no error. */
static const Value *mvmrt_strnew(Table *t, JitKeySite *site) {
  const Table *mt = t->metatable;
  Node *n;
  if (t->isdummy || (mt != NULL && !(mt->extra & (1u << TM_NEWINDEX))) ||
      !isabstkey(tab_getstr(t, site->key)) ||
      (n = tab_newstrnode(site->g, t, site->key)) == NULL)
    return NULL;
  tab_clearextra(site->g, t);
  site->hint = (uint32_t)(n - t->node);
  return &n->val;
}

/* #t of a table without __len, for inlined leaf calls (llvmgen.c
** leaflen); a gc-leaf helper: tab_getn neither allocates nor raises */
static int64_t mvmrt_tablen(Table *t) {
  return (int64_t)tab_len(t);
}

/* tables a constant-key read walks through '__index' in a leaf call */
#define RT_INDEXDEPTH 4

static const Value rt_nil = MVM_NIL;

/* the slot of any 'key' in 't' (tab_get: no metamethods), an absent key's
** as a nil; a leaf for the reads llvmgen.c gettab_spec emits */
static const Value *mvmrt_rawget(Table *t, Value key) {
  const Value *s = tab_get(t, key);
  return isabstkey(s) ? &rt_nil : s;
}

/* the slot of string 'key' (its word) in the collision chain after its
** main position 'mp', which compiled code probed already (GETTABLE with a
** key in a register, llvmgen.c strprobe): pointer compares only (strings
** are interned), an absent key's as a nil; a leaf */
static const Value *mvmrt_strnext(const Node *mp, uint64_t key) {
  const Node *n = mp;
  while (n->next != 0) {
    n += n->next;
    if (n->key == key) return &n->val;
  }
  return &rt_nil;
}

/* the rest of the collision chain after node 'n' of 't', whose key is not
** 'k'; the index of the node found is remembered in '*hint', a method
** cache's slot-prediction hint (llvmgen.c newhints; rt_getstrhint) */
static const Value *rt_chainrest(const Table *t, const Node *n, Value k, uint32_t *hint) {
  while (n->next != 0) {
    n += n->next;
    if (n->key == k) {
      *hint = (uint32_t)(n - t->node);
      return &n->val;
    }
  }
  return &rt_nil;
}

/* t[key] for a string 'key', following '__index' while it is a table, as
** vm_finishget does: the raw slot when a table on the way has the key,
** &rt_nil when one without '__index' is reached (absence cached in the
** metatable's 'extra' as meta_gettm does), NULL when the generic helper
** must finish ('__index' a function or not a table, a chain longer than
** RT_INDEXDEPTH).  Nothing here has effects the helper would not repeat
** (only absence bits are set), so the helper may start over.  'ename' is
** the VM's "__index" string (G->tmname[TM_INDEX]).  Without 'marks' it
** writes nothing: NULL where a metatable lacks '__index' (mvmrt_strlook;
** the interpreter's helper sets the bit). */
static inline const Value *strwalk(Table *t, TString *key, TString *ename, int marks) {
  int depth;
  const Value *s = tab_getstr(t, key);
  for (depth = 0; depth < RT_INDEXDEPTH; depth++) {
    Table *mt;
    const Value *tm;
    if (!rt_empty(s)) return s;
    mt = t->metatable;
    if (mt == NULL || (mt->extra & (1u << TM_INDEX))) return &rt_nil;
    tm = tab_getstr(mt, ename);   /* meta_gettm, inlined */
    if (rt_empty(tm)) {
      if (!marks) return NULL;
      mt->extra |= (uint8_t)(1u << TM_INDEX);
      return &rt_nil;
    }
    if (!v_istable(*tm)) return NULL;
    t = v_tab(*tm);
    s = tab_getstr(t, key);
  }
  return NULL;
}

/* Fill the first of a cache's JIT_MCENTRIES entries 'e' (a method
** cache's or a key site's class cache, jit.h JitMethodCache) with where
** receivers with metatable 'mt' find the key: the entries before the one
** it replaces (this class's old one, else the last) move down one. */
static void rt_mcfill(JitMethodEntry *e, const Table *mt, const Value *slot, size_t stamp) {
  int i;
  for (i = 0; i < JIT_MCENTRIES - 1 && e[i].mt != mt; i++) ;
  memmove(&e[1], &e[0], (size_t)i * sizeof *e);
  e[0].mt = mt;
  e[0].slot = slot;
  e[0].stamp = stamp;
}

/* does key site entry 'e' hold where a receiver with metatable 'mt'
** finds the key (a class's slot with a value, or the walk's nil)? */
static int rt_keyhit(const JitMethodEntry *e, const Table *mt, size_t stamp) {
  return e->stamp == stamp && e->mt == mt && (e->slot == &vm_absentnil || !rt_empty(e->slot));
}

/* The '__index' walk of mvmrt_strindex from 't', which lacks the key
** (vm_indexwalk), after the site's first entry missed: its other
** entries, then the walk, which when it ends (the key's slot in a
** class, or nil) fills the site's class cache for receivers with t's
** metatable, valid by jit.h JitMethodCache's rules (the walk marked its
** tables) */
static __attribute__((noinline)) const Value *rt_indexwalk(Table *t, JitKeySite *site) {
  const Table *tmt = t->metatable;
  size_t stamp = vm_cachestamp(site->g);
  const Value *s;
  int i;
  for (i = 1; i < JIT_MCENTRIES; i++)   /* (the first missed) */
    if (rt_keyhit(&site->e[i], tmt, stamp)) return site->e[i].slot;
  s = vm_indexwalk(site->g, t, site->key);
  if (s != NULL) {
    rt_mcfill(site->e, tmt, s, stamp);
    if (site->fills < UINT32_MAX) site->fills++;
  }
  return s;
}

/* GETFIELD/GETTABUP after compiled code's probe of the hinted node
** missed: t's own lookup, then the site's class cache (a receiver without
** the key whose metatable the last walk started from: a field that is nil
** or absent in its object costs no lookups in its classes), else the walk.
** Compiled code makes the node found the hint (llvmgen.c sethint). */
static const Value *mvmrt_strindex(Table *t, JitKeySite *s) {
  TString *key = s->key;
  const Value *v = tab_getstr(t, key);
  const Table *mt;
  if (!rt_empty(v)) return v;
  mt = t->metatable;
  if (mt == NULL || (mt->extra & (1u << TM_INDEX))) return &rt_nil;
  if (rt_keyhit(&s->e[0], mt, vm_cachestamp(s->g))) return s->e[0].slot;
  return rt_indexwalk(t, s);
}

/* mvmrt_strindex without its writes (no hint, no walk, no cache fill):
** t's own slot, else the site's class cache; it only reads, so compiled
** code keeps its loads across the call (llvmgen.c strlook, in loops,
** updates the hint itself).  NULL when the cache misses: compiled code
** then calls mvmrt_strindex, which walks and fills it.  (Until session
** 29 this was a walk without the cache: a loop reading a class's field
** through receivers of two or three classes walked at every read, a
** probe's loop 30% slower.)  A site whose cache keeps missing (filled
** JIT_KEYFILLS times: receivers of more classes than it holds, taking
** turns) walks without writes, as before: its misses through
** mvmrt_strindex made a probe of six classes 1.7 times as slow. */
static const Value *mvmrt_strlook(Table *t, const JitKeySite *s) {
  const Value *v = tab_getstr(t, s->key);
  const Table *mt;
  size_t stamp;
  int i;
  if (!rt_empty(v)) return v;
  mt = t->metatable;
  if (mt == NULL || (mt->extra & (1u << TM_INDEX))) return &rt_nil;
  stamp = vm_cachestamp(s->g);
  for (i = 0; i < JIT_MCENTRIES; i++)
    if (rt_keyhit(&s->e[i], mt, stamp)) return s->e[i].slot;
  if (s->fills > JIT_KEYFILLS) return strwalk(t, s->key, s->g->tmname[TM_INDEX], 0);
  return NULL;
}

/* tab_getstr that tries the node '*hint' names after the main position
** (any node holding the key is its one; the index is masked to the
** current size), and records there where a chain walk found the key */
static const Value *rt_getstrhint(const Table *t, TString *key, uint32_t *hint) {
  uint32_t mask = (1u << t->lsizenode) - 1u;
  const Node *n = &t->node[key->hash & mask], *h;
  if (n->key == v_ref(key)) return &n->val;
  h = &t->node[*hint & mask];
  if (h->key == v_ref(key)) return &h->val;
  return rt_chainrest(t, n, v_ref(key), hint);
}

/* does method cache entry 'mc' hold where receiver 't' (without the
** key, with metatable 'mt') finds it?  (jit.h JitMethodCache) */
static int rt_mchit(const JitMethodEntry *mc, const Table *mt, const JitState *J) {
  return mc->stamp == *J->watchepoch + 1 && mc->mt == mt;
}

/* add table 't' to the first 'n' entries of 'w' (no duplicates); the new
** count, or -1 when more than JIT_MCWATCH tables are needed */
static int rt_mcadd(const Table **w, int n, const Table *t) {
  int i;
  if (n < 0) return n;
  for (i = 0; i < n; i++) if (w[i] == t) return n;
  if (n == JIT_MCWATCH) return -1;
  w[n] = t;
  return n + 1;
}

/* The walk of mvmrt_strself after its receiver 't' (without the key)
** and the method cache missed, out of line so that the hit path needs no
** saved registers: mvmrt_strindex's walk, with the site's slot
** prediction for its first step, where methods mostly are (mc->hints[0]
** for "__index" in t's metatable, mc->hints[1] for the key in the
** '__index' table); a walk that finds the method fills the cache and
** marks the tables it went through TAB_WATCHED. */
static __attribute__((noinline)) const Value *rt_selfwalk(Table *t, TString *key, TString *ename,
                                                          JitMethodCache *mc, JitState *J) {
  const Value *s, *tm;
  const Table *w[JIT_MCWATCH];
  Table *mt, *tmt;
  int depth, n = 0;
  tmt = mt = t->metatable;
  for (depth = 0; depth < RT_INDEXDEPTH; depth++) {
    if (mt == NULL || (mt->extra & (1u << TM_INDEX))) return &rt_nil;
    tm = depth == 0 ? rt_getstrhint(mt, ename, &mc->hints[0]) : tab_getstr(mt, ename);
    if (rt_empty(tm)) { mt->extra |= (uint8_t)(1u << TM_INDEX); return &rt_nil; }
    if (!v_istable(*tm)) return NULL;
    n = rt_mcadd(w, n, mt);
    t = v_tab(*tm);
    n = rt_mcadd(w, n, t);
    s = depth == 0 ? rt_getstrhint(t, key, &mc->hints[1]) : tab_getstr(t, key);
    if (!rt_empty(s)) {
      if (n > 0) {   /* fill the cache */
        int i;
        for (i = 0; i < n; i++) ((Table *)w[i])->extra |= TAB_WATCHED;
        rt_mcfill(mc->e, tmt, s, *J->watchepoch + 1);
      }
      return s;
    }
    mt = t->metatable;
  }
  return NULL;
}

/* mvmrt_strself after the cache's first entry missed, out of line (its
** hit path stays as short as with one entry: the loop in it cost
** richards' SELFs 9 instructions each): the other entries, then the walk */
static __attribute__((noinline)) const Value *rt_selfmiss(Table *t, const Table *mt,
                                                          JitMethodCache *mc) {
  JitState *J = mc->J;
  int i;
  for (i = 1; i < JIT_MCENTRIES; i++)
    if (rt_mchit(&mc->e[i], mt, J) && !rt_empty(mc->e[i].slot)) return mc->e[i].slot;
  return rt_selfwalk(t, mc->key, J->g->tmname[TM_INDEX], mc, J);
}

/* SELF on table 't' (llvmgen.c, selfk): t's own key, else the site's
** method cache 'mc' (jit.h JitMethodCache), else the walk (rt_selfwalk).
** The key and J come from the cache (two arguments: fewer constants in
** the compiled code), "__index" from J in the walk: the hit path then
** moves fewer registers (the shift for the node mask needs %cl) */
static const Value *mvmrt_strself(Table *t, JitMethodCache *mc) {
  TString *key = mc->key;
  JitState *J = mc->J;
  const Table *mt;
  /* tab_getstr's walk, but an absent key leaves the loop without the
  ** load and test of tab_absentkey (5 instructions per SELF); the
  ** table's string-key filter (vm/table.h) mostly spares the walk, and
  ** its bit for the key is the cache's (no load of the key's hash) */
  if (tab_strfilter(t) & mc->keybit) {
    const Node *n = &t->node[key->hash & ((1u << t->lsizenode) - 1u)];
    for (;;) {
      if (n->key == v_ref(key)) {
        if (!v_isnil(n->val)) return &n->val;
        break;
      }
      if (n->next == 0) break;
      n += n->next;
    }
  }
  mt = t->metatable;
  /* no test of mt for NULL: a valid entry's mt is not NULL */
  if (rt_mchit(&mc->e[0], mt, J) && !rt_empty(mc->e[0].slot)) return mc->e[0].slot;
  return rt_selfmiss(t, mt, mc);
}

/* s[key] for a string s (SELF: its methods): through the string
** metatable '*smt' (G->mt[LUA_TSTRING]) when its '__index' is a table, as
** vm_finishget does (meta_gettmbyobj: no absence cache for basic types);
** else NULL, for the helper (no metatable: the error; an '__index'
** function or non-table).  The site's method cache 'mc' (its first
** entry, for the metatable '*smt') holds the method's slot in the
** '__index' table, valid by jit.h's rules: the fill marks the metatable
** and the '__index' table TAB_WATCHED (a new key in either, a store to
** "__index" or a resize clears a bit and counts), and a replaced string
** metatable fails the metatable test.  A hit is a few loads and compares
** instead of two hashed lookups (knuc's s:sub). */
static const Value *mvmrt_strmethod(Table *const *smt, TString *key, JitMethodCache *mc,
                                    JitState *J) {
  const Value *tm, *s;
  Table *mt = *smt, *idx;
  if (rt_mchit(&mc->e[0], mt, J) && !rt_empty(mc->e[0].slot)) return mc->e[0].slot;
  if (mt == NULL) return NULL;
  tm = tab_getstr(mt, J->g->tmname[TM_INDEX]);
  if (rt_empty(tm) || !v_istable(*tm)) return NULL;
  idx = v_tab(*tm);
  s = tab_getstr(idx, key);
  if (rt_empty(s))   /* further '__index' levels: not cached */
    return strwalk(idx, key, J->g->tmname[TM_INDEX], 1);
  mt->extra |= TAB_WATCHED;
  idx->extra |= TAB_WATCHED;
  mc->e[0].mt = mt;
  mc->e[0].slot = s;
  mc->e[0].stamp = *J->watchepoch + 1;
  return s;
}

/* SELF with a string constant key on a receiver 'o' that is not a table
** (llvmgen.c selfk): a string's method through mvmrt_strmethod and the
** site's second cache; NULL (the helper) for anything else */
static const Value *mvmrt_selfv(Value o, JitMethodCache *mc) {
  if (v_isstring(o)) return mvmrt_strmethod(&mc->J->g->mt[LUA_TSTRING], mc->key, mc + 1, mc->J);
  return NULL;
}

static int mvmrt_raweq(Value a, Value b) {
  return v_rawequal(a, b);
}

/* setmetatable(t, mt)'s common case (meta_setmtfast) for compiled code's
** fast path (llvmgen.c setmtcall): 1 when done.  A leaf: allocates
** nothing, raises nothing. */
static int mvmrt_setmt(lua_State *L, Value t, Value mt) {
  return meta_setmtfast(G(L), t, mt);
}

/* An exit's numbers, stored raw into their stack slots by compiled code
** (llvmgen.c exitflush): boxed in place from the list the exit's code
** names, one uint16 per slot (slot << 1 | 1 for a double's bits, | 0 for
** an int64), ending with JIT_EXITBOX_END.  A leaf: between those stores
** and this call nothing runs, so no one sees the raw words. */
static void mvmrt_exitbox(Value *base, const uint16_t *list) {
  if (list == NULL) return;   /* nothing raw (llvmgen.c exitflush) */
  for (; *list != JIT_EXITBOX_END; list++) {
    Value *s = base + (*list >> 1);   /* NOBARRIER: VM stack */
    *s = (*list & 1) ? *s + MVM_DOUBLE_OFFSET : (*s & MVM_PAYLOAD) | MVM_TAG_INT;
  }
}

/* The type checks of an entry point into compiled code (llvmgen.c
** resumeguards): 1 if every slot of the list, one uint16 each (slot << 2
** | 1: an integer, | 2: a float, | 3: any number, | 0: a table), ending
** with JIT_EXITBOX_END, holds a value of that type.  A leaf that only
** reads. */
static int mvmrt_resumeok(const Value *base, const uint16_t *list) {
  for (; *list != JIT_EXITBOX_END; list++) {
    Value v = base[*list >> 2];
    int k = *list & 3;
    if (k == 0 ? !v_istable(v) : k == 1 ? !v_isimmint(v) : k == 2 ? !v_isfloat(v)
                                                            : !(v_isimmint(v) || v_isfloat(v)))
      return 0;
  }
  return 1;
}

static const JitHelper helpers[] = {
  {"mvmrt_precall", (void *)mvmrt_precall},
  {"mvmrt_finishcall", (void *)mvmrt_finishcall},
  {"mvmrt_tforstep", (void *)mvmrt_tforstep},
  {"mvmrt_cpostcall", (void *)mvmrt_cpostcall},
  {"mvmrt_return", (void *)mvmrt_return},
  {"mvmrt_tailcall", (void *)mvmrt_tailcall},
  {"mvmrt_poll", (void *)mvmrt_poll},
  {"mvmrt_gettabup", (void *)mvmrt_gettabup},
  {"mvmrt_gettable", (void *)mvmrt_gettable},
  {"mvmrt_geti", (void *)mvmrt_geti},
  {"mvmrt_getfield", (void *)mvmrt_getfield},
  {"mvmrt_self", (void *)mvmrt_self},
  {"mvmrt_settabup", (void *)mvmrt_settabup},
  {"mvmrt_settable", (void *)mvmrt_settable},
  {"mvmrt_seti", (void *)mvmrt_seti},
  {"mvmrt_setfield", (void *)mvmrt_setfield},
  {"mvmrt_newtable", (void *)mvmrt_newtable},
  {"mvmrt_newtabsz", (void *)mvmrt_newtabsz},
  {"mvmrt_newrecord", (void *)mvmrt_newrecord},
  {"mvmrt_closure", (void *)mvmrt_closure},
  {"mvmrt_len", (void *)mvmrt_len},
  {"mvmrt_append", (void *)mvmrt_append},
  {"mvmrt_lenadd", (void *)mvmrt_lenadd},
  {"mvmrt_concat", (void *)mvmrt_concat},
  {"mvmrt_setlist", (void *)mvmrt_setlist},
  {"mvmrt_tforprep", (void *)mvmrt_tforprep},
  {"mvmrt_close", (void *)mvmrt_close},
  {"mvmrt_varargprep", (void *)mvmrt_varargprep},
  {"mvmrt_vararg", (void *)mvmrt_vararg},
  {"mvmrt_varreturn", (void *)mvmrt_varreturn},
  {"mvmrt_arith", (void *)mvmrt_arith},
  {"mvmrt_eq", (void *)mvmrt_eq},
  {"mvmrt_lt", (void *)mvmrt_lt},
  {"mvmrt_le", (void *)mvmrt_le},
  {"mvmrt_fltmod", (void *)mvmrt_fltmod},
  {"mvmrt_fltidiv", (void *)mvmrt_fltidiv},
  {"mvmrt_fltpow", (void *)mvmrt_fltpow},
  {"mvmrt_raweq", (void *)mvmrt_raweq},
  {"mvmrt_setmt", (void *)mvmrt_setmt},
  {"mvmrt_strchain", (void *)mvmrt_strchain},
  {"mvmrt_strset", (void *)mvmrt_strset},
  {"mvmrt_intset", (void *)mvmrt_intset},
  {"mvmrt_strsethint", (void *)mvmrt_strsethint},
  {"mvmrt_strnew", (void *)mvmrt_strnew},
  {"mvmrt_tablen", (void *)mvmrt_tablen},
  {"mvmrt_strindex", (void *)mvmrt_strindex},
  {"mvmrt_strlook", (void *)mvmrt_strlook},
  {"mvmrt_rawget", (void *)mvmrt_rawget},
  {"mvmrt_strnext", (void *)mvmrt_strnext},
  {"mvmrt_strself", (void *)mvmrt_strself},
  {"mvmrt_selfv", (void *)mvmrt_selfv},
  {"mvmrt_exitbox", (void *)mvmrt_exitbox},
  {"mvmrt_resumeok", (void *)mvmrt_resumeok},
};

const JitHelper *jit_helpers(int *n) {
  *n = (int)(sizeof helpers / sizeof helpers[0]);
  return helpers;
}
