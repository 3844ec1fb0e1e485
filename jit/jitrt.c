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
** interpreter.  Every helper here may run Lua code, raise (longjmp through
** the compiled frame, which holds no resources) and collect: none is a
** "gc-leaf-function".  Names never look like C library functions (LLVM
** treats those as leaves).
*/
#include "jit.h"
#include "jitbackend.h"
#include "do.h"
#include "debug.h"
#include "gc.h"

/* Start the call R[a](R[a+1] .. R[a+b-1]) with 'nresults' results (>= 0),
** as the interpreter's OP_CALL does.  Returns 0 when the callee was a C
** function and has run (results in place); 1 when it is a Lua function
** whose frame is now L->ci: compiled code then returns JIT_CALLED and the
** interpreter runs the callee, so Lua-to-Lua calls never nest C frames. */
static int mvmrt_precall(lua_State *L, CallInfo *ci, int a, int b, int nresults) {
  Value *func = ci->func + 1 + a;
  L->top = func + b;
  if (l_unlikely(G(L)->interrupt)) {
    G(L)->interrupt = 0;
    dbg_runerror(L, "interrupted");
  }
  if (do_precall(L, func, nresults) != NULL)
    return 1;
  /* a C function ran; it may have run compiled code of another thread
  ** (coroutines) that left through longjmp without restoring curL */
  ((JitState *)G(L)->jit)->curL = L;
  return 0;
}

/* return R[a] .. R[a+n-1] from frame 'ci' */
static void mvmrt_return(lua_State *L, CallInfo *ci, int a, int n) {
  L->top = ci->func + 1 + a + n;
  do_poscall(L, ci, n);
}

/* the slow path of the safepoint poll, taken when the VM's poll flag
** (G(L)->interrupt) is set: raise "interrupted" in the running thread */
static void mvmrt_poll(JitState *J) {
  lua_State *L = J->curL;
  global_State *g = J->g;
  if (g->interrupt) {
    g->interrupt = 0;
    L->top = L->ci->top;
    dbg_runerror(L, "interrupted");
  }
}

static const JitHelper helpers[] = {
  {"mvmrt_precall", (void *)mvmrt_precall},
  {"mvmrt_return", (void *)mvmrt_return},
  {"mvmrt_poll", (void *)mvmrt_poll},
};

const JitHelper *jit_helpers(int *n) {
  *n = (int)(sizeof helpers / sizeof helpers[0]);
  return helpers;
}
