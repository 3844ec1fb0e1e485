/*
** llvmgen.c -- bytecode -> LLVM IR for the first compiled subset.
**
** Shape of the generated code (see jit.h for the calling convention):
**   - each Lua register is an SSA value (an alloca that sroa promotes),
**     loaded from base[r] at the entry and at each resume point, written
**     back to base[r] (flushed) before helper calls and side exits as far
**     as the callee or the interpreter may read it (liveness, active
**     locals), and read back after calls.  Only registers statically
**     known to hold numbers get this (JIT_SSA_NUMBERS_ONLY); the others,
**     and registers captured by closures, stay in the VM stack.  See
**     "Register analysis" and docs/decisions/0005 ("Registers in SSA").
**     Floats also live as doubles ("Unboxed floats", docs/decisions/0009).
**   - 'base' (ci->func + 1, a raw addrspace(0) pointer into the VM stack) is
**     kept in an alloca and re-read from ci->func after every call, because
**     the stack may have been reallocated (DESIGN: never keep a raw pointer
**     into a VM stack across a call).
**   - every Lua value is a 'ptr addrspace(1)'.  ptrtoint is used only for
**     tag tests and integer payloads; inttoptr only ever builds
**     non-reference words (integer immediates, floats, nil/booleans).
**     References are only ever loaded from memory, never rebuilt from bits.
**   - type guards: when an operand is not what the fast path handles, the
**     code stores ci->u.l.savedpc = the instruction and returns JIT_EXITED;
**     the interpreter re-executes that instruction with its full semantics
**     (boxing, floats, metamethods, errors).  Nothing has been written for
**     the failing instruction at that point.  Speculative guards (a loaded
**     value used as a number must be one; types assumed at entry points)
**     exit after the load or before anything is done, and are counted
**     per function (Proto.jitexits, jit.c recompiles it with wider types).
**   - the function has gc "statepoint-example" and "frame-pointer"="all";
**     the module defines gc.safepoint_poll, which loads the VM's poll flag
**     (G(L)->interrupt) and calls mvmrt_poll only when it is set.
**
** What is inline and what is not (jit/jitsubset.c decides the subset):
**   - integer (48-bit immediate) and float arithmetic, bitwise operators,
**     comparisons on numbers, NOT/TEST/TESTSET, numeric and generic for
**     loops: inline; boxing, overflow, strings, metamethods, errors exit.
**   - table reads and writes: the array part (integer keys) and string
**     keys at their main position inline, for constant-key reads and
**     writes the node a per-site hint predicts instead ("Slot
**     prediction"); collision chains in gc-leaf helpers (mvmrt_strchain;
**     for constant-key reads mvmrt_strindex, and for SELF mvmrt_strself,
**     which go on through __index tables; SELF sites also keep a
**     method cache, docs/decisions/0015); everything else (absent keys
**     on writes, __index functions, __newindex, non-tables) in a helper
**     doing exactly the interpreter's case.  Stores
**     into heap objects go through gcwrite() (store + card mark).
**   - LEN CONCAT CLOSURE NEWTABLE SETLIST CLOSE TFORPREP, generic
**     comparisons: helpers (jit/jitrt.c) taking (L, ci, pc).
**   - CALL: a Lua callee with compiled code, where a direct call is
**     allowed, is called inline (inlinecall: frame push and a statepoint
**     call of its code, which anchors this frame itself); anything else
**     goes to mvmrt_precall (C callees run inside it; a Lua callee with
**     compiled code runs as a direct call when nothing can yield, else the
**     interpreter runs it: JIT_CALLED).  Behind an inlined leaf's or a
**     builtin's fast path the generic call is mvmrt_precall alone, and
**     inside loops at speculation level 0 a leaf's failed guard leaves
**     (leafexits).  TAILCALL: to a Lua closure the
**     frame is reused inline (leantailcall), else mvmrt_tailcall; then
**     JIT_TAILCALLED.  RETURN of a fixed-parameter function: do_poscall's
**     common case inline (leanreturn), else mvmrt_return.  Instructions reading L->top (B == 0 CALL/RETURN/
**     SETLIST/TAILCALL, after a C == 0 CALL) and closing RETURNs exit.
**   - CALL of an ffi C function seen in an upvalue at compile time: a
**     guarded native call (llvmffi.inc).
** Vararg functions: VARARGPREP, VARARG with C > 0 and RETURN (leanreturn)
** inline in the common case (varargprep, varargcopy), else helpers.
** Entry points: the start, after calls, loop headers (entrypoints()).
*/
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include "llvmjit.h"
#include "opcodes.h"
#include "gc.h"
#include "table.h"   /* TAB_LENLOOSE */

/* After every call that may run Lua code, every live SSA register is
** reloaded from the VM stack, not only those the instruction writes, when
** the frame's trap is set (reload_after_call; lua_setlocal sets it).  The
** collector walks compiled frames (jit_walkframes relocates what
** statepoints keep), so this is not needed for moving objects; it is for
** debug.setlocal: a callee (or hook) may change a local of this frame in
** its stack slot, and the interpreter would see that.  With
** JIT_SSA_NUMBERS_ONLY the reloads are loads of numbers: measured at 0-5%
** of instructions (mandelbrot in a function 5.87 -> 6.17 G, fannkuch and
** nbody unchanged).  0 reloads only what the instruction writes. */
#define JIT_RELOAD_AFTER_CALLS 1

/* 1: only registers known to hold numbers live in SSA (numonly()); 0:
** every register not captured by a closure */
#define JIT_SSA_NUMBERS_ONLY 1

/* 1: values loaded from tables, upvalues and globals that are used as
** numbers are guarded to be numbers right after the load, and entry
** points check the types the code assumes (see "Speculation") */
#define JIT_SPECULATE 1

/* a set of Lua registers (maxstacksize <= 255) */
typedef struct RegSet { uint64_t w[4]; } RegSet;

typedef struct Gen {
  LLVMContextRef C;
  LLVMModuleRef M;
  LLVMBuilderRef B;
  LLVMValueRef fn, L, ci, basevar;
  LLVMValueRef nilslot;   /* the module's constant nil (absentslot) */
  LLVMTypeRef i1, i8, i32, i64, i128, f64, p0, p1, vd;
  LLVMTypeRef ty_call, ty_ret, ty_op, ty_opi, ty_ff, ty_req, ty_chain;
  LLVMValueRef f_call, f_ret;
  LLVMBasicBlockRef *bb, *exits;
  LLVMBasicBlockRef *hdr;   /* hdr[pc]: body of a JMP loop's header (jmploops) */
  int *hdrsave;             /* hdrsave[pc]: its savedpc, 0 if pc is not one */
  Proto *p;
  JitState *J;
  lua_State *Lc;      /* the thread compiling: its frame runs a closure of 'p' */
  const JitInline *inl;   /* CALL sites with a predicted leaf callee (inlineleaf) */
  int ninl;
  char *entry;       /* entry[pc]: compiled code can be entered at pc (entrypoints()) */
  char *reach;       /* reach[pc]: compiled code can get to pc (reachable()); else no code */
  /* registers: regvar[r] is the alloca holding register r (promoted to SSA
  ** by sroa), NULL for a register that stays in the VM stack (captured by
  ** a closure: an open upvalue points at its stack slot) */
  int nregs;
  LLVMValueRef *regvar;
  LLVMValueRef *fvar;         /* fvar[r]: R[r] unboxed (double), or NULL (fltvars) */
  RegSet *slotout;            /* per pc: stack registers whose slot may be read after it (lazyslots) */
  RegSet lazy;                /* stack registers with float writes that skip the slot */
  LLVMValueRef *fokvar;       /* fokvar[r]: i1, 1 when fvar[r] is R[r]'s value, or NULL (fokregs) */
  int curpc;                  /* the instruction being emitted */
  int widepc, widereg;        /* R[widereg] is the raw int64 'wideval' for the
                              ** arithmetic at widepc to read (widecons), or -1 */
  LLVMValueRef wideval;
  int pendpc, pendreg, pendset;   /* R[pendreg] is 'pendval' at pendpc, not in its slot (upvpend) */
  LLVMValueRef pendval;
  LLVMBasicBlockRef pendexit, pendspec;
  char *append;               /* per pc: a LEN starting `t[#t + 1] = v` (appendsite), or NULL */
  uint8_t *npred;             /* per pc: its predecessors in the bytecode CFG, at
                              ** most 3 counted (widecons; made at first use) */
  RegSet memres;
  RegSet rawint;              /* SSA registers holding a raw int64, not a word (numonly) */
  RegSet *split;              /* per pc: registers in their loop's home there (forsplit), or NULL */
  LLVMValueRef *loopvar, *homevar;   /* per register: the loop home (i64), the home elsewhere */
  RegSet homeraw;             /* rawint elsewhere */
  RegSet *win;                /* per pc: SSA registers read and written in the stack (limitwin) */
  int dmpc;                   /* pc of the MOD/IDIV whose quotient and remainder */
  LLVMValueRef dmq, dmr;      /* an earlier partner computed (divpartner), or NULL */
  int inbody;                 /* emitting instructions (not entry blocks): g->win applies */
  RegSet *livein, *liveout;   /* bytecode liveness, per pc */
  uint8_t *nactive;           /* active locals at pc: registers 0..n-1 */
  uint8_t *types;             /* TY_* of each register at each pc */
  RegSet *clean;              /* registers equal to their stack slot at pc */
  RegSet *tabin;              /* per pc: registers known to hold tables there (tabknown), or NULL */
  RegSet *forchk;             /* per FORPREP: registers it checks hold tables (forchecks), or NULL */
  char *tabadd;               /* per pc: a string-key store that makes its table known (tabknown) */
  int *rwsrc;                 /* per pc: the read whose slot a store reuses, or -1 (samefield) */
  LLVMValueRef *rslot;        /* per pc: the slot such a read found inline, or NULL (getstrk) */
  int tabtrap;                /* the helper being called must leave when the trap is set (setstr) */
  uint8_t *spec;              /* spec[pc]: TY_* guarded after the load at pc, or 0 */
  uint8_t *pspec;             /* pspec[r]: TY_* of parameter r checked at pc 0, or 0 */
  uint8_t *selfres;           /* selfres[pc]: TY_* of a self call's result when it returned (selftyped), or 0 */
  uint8_t *mm;                /* mm[pc]: the arithmetic at pc saw non-numbers (mmsites), or NULL */
  LLVMBasicBlockRef fdone;    /* inlinecall: where a typed self call goes when it returned (emitcall) */
  LLVMBasicBlockRef *specexits;   /* per pc: count the failed guard, exit at pc */
  int rlo, rhi;               /* an OSR region: only pcs rlo..rhi have code (rlo < 0: all) */
  int trapexit;               /* reload_after_call may leave when the trap is set */
  int contcall;               /* the last pc with a call that goes on whatever the trap (callop) */
  int selfcc;                 /* g->fn has JIT_CALLCONV, behind a C wrapper (selfconv) */
  int noguards;               /* resumeblock: leave out resumeguards (selfentry) */
  int selfargs;               /* pushcall: a self call with checked arguments (selfargsok) */
  LLVMBasicBlockRef trapret, resumefail;   /* shared cold blocks (one per function) */
  LLVMValueRef exitlist;      /* the boxing list of the exit taken (exitflush): an alloca */
  struct ExitTail *tails;     /* exits' stores that later exits may share */
  int ntails, captails;
  unsigned tbaa_kind;
  LLVMValueRef tb_stack, tb_heap, tb_frame, tb_card, tb_hint, tb_field, tb_value, tb_upval;
} Gen;

/* ---------------------------------------------------------------------
** Register analysis: which registers stay in the VM stack, bytecode
** liveness, active locals.  Every set here errs on the side of more
** registers: a register wrongly thought live costs a store or a load, one
** wrongly thought dead would lose a value.
** --------------------------------------------------------------------- */

static void rs_add(RegSet *s, int r) { s->w[r >> 6] |= (uint64_t)1 << (r & 63); }
static int rs_has(const RegSet *s, int r) { return (int)((s->w[r >> 6] >> (r & 63)) & 1); }
static void rs_range(RegSet *s, int from, int to) {   /* [from, to), within 256 */
  if (to > 256) to = 256;
  for (; from < to; from++) rs_add(s, from);
}
static void rs_or(RegSet *d, const RegSet *s) {
  int k;
  for (k = 0; k < 4; k++) d->w[k] |= s->w[k];
}
static void rs_and(RegSet *d, const RegSet *s) {
  int k;
  for (k = 0; k < 4; k++) d->w[k] &= s->w[k];
}

/* registers read by instruction 'pc' ('use') and written on every path
** through it ('def', kills for liveness).  Variable operand lists (B == 0:
** up to L->top) count as every register from A up. */
static void usedef(Gen *g, int pc, RegSet *use, RegSet *def) {
  Instruction i = g->p->code[pc];
  int a = GETARG_A(i), b = GETARG_B(i), c = GETARG_C(i), n = g->nregs;
  memset(use, 0, sizeof *use); memset(def, 0, sizeof *def);
  switch (GET_OPCODE(i)) {
    case OP_MOVE: case OP_UNM: case OP_BNOT: case OP_NOT: case OP_LEN:
    case OP_GETI: case OP_GETFIELD: case OP_ADDI: case OP_ADDK: case OP_SUBK:
    case OP_MULK: case OP_MODK: case OP_POWK: case OP_DIVK: case OP_IDIVK:
    case OP_BANDK: case OP_BORK: case OP_BXORK: case OP_SHRI: case OP_SHLI:
      rs_add(use, b); rs_add(def, a); break;
    case OP_LOADI: case OP_LOADF: case OP_LOADK: case OP_LOADKX: case OP_LOADFALSE:
    case OP_LFALSESKIP: case OP_LOADTRUE: case OP_GETUPVAL: case OP_GETTABUP:
    case OP_NEWTABLE: case OP_CLOSURE:
      rs_add(def, a); break;
    case OP_LOADNIL: rs_range(def, a, a + b + 1); break;
    case OP_SETUPVAL: case OP_TEST: case OP_EQK: case OP_EQI: case OP_LTI:
    case OP_LEI: case OP_GTI: case OP_GEI: case OP_RETURN1: case OP_MMBINI:
    case OP_MMBINK: case OP_TBC:
      rs_add(use, a); break;
    case OP_GETTABLE: case OP_ADD: case OP_SUB: case OP_MUL: case OP_MOD:
    case OP_POW: case OP_DIV: case OP_IDIV: case OP_BAND: case OP_BOR:
    case OP_BXOR: case OP_SHL: case OP_SHR:
      rs_add(use, b); rs_add(use, c); rs_add(def, a); break;
    case OP_SETTABUP: if (!GETARG_k(i)) rs_add(use, c); break;
    case OP_SETTABLE: rs_add(use, b); /* FALLTHROUGH */
    case OP_SETI: case OP_SETFIELD:
      rs_add(use, a); if (!GETARG_k(i)) rs_add(use, c); break;
    case OP_SELF:
      rs_add(use, b); if (!GETARG_k(i)) rs_add(use, c);
      rs_add(def, a); rs_add(def, a + 1); break;
    case OP_MMBIN: case OP_EQ: case OP_LT: case OP_LE:
      rs_add(use, a); rs_add(use, b); break;
    case OP_CONCAT: rs_range(use, a, a + b); rs_add(def, a); break;
    case OP_TESTSET: rs_add(use, b); break;   /* R[A] only on the jump */
    case OP_CALL:
      rs_range(use, a, b ? a + b : n);
      /* C == 0: results up to L->top, read only by the next instruction
      ** (B == 0, takes_top), which reads no further: every register from
      ** A up is dead before the call (it counted as live up to the
      ** function's start, keeping loop registers out of SSA) */
      rs_range(def, a, c > 0 ? a + c - 1 : n);
      break;
    case OP_VARARG: rs_range(def, a, GETARG_C(i) > 0 ? a + GETARG_C(i) - 1 : n); break;
    case OP_TAILCALL: case OP_RETURN:
      rs_range(use, a, b ? a + b : n); break;
    case OP_SETLIST: rs_range(use, a, b ? a + b + 1 : n); break;   /* R[A+1..A+B] */
    case OP_FORLOOP: case OP_FORPREP: rs_range(use, a, a + 3); break;
    case OP_TFORPREP: rs_range(use, a, a + 4); break;
    case OP_TFORCALL: rs_range(use, a, a + 3); rs_range(def, a + 4, a + 4 + c); break;
    case OP_TFORLOOP: rs_add(use, a + 4); break;
    case OP_JMP: case OP_RETURN0: case OP_CLOSE: case OP_EXTRAARG: break;
    default: rs_range(use, 0, n); break;   /* not compiled: everything */
  }
}

/* registers a helper or call performing instruction 'pc' may write: its
** 'def', plus what it may clobber (call results and frames above A) */
static void maydef(Gen *g, int pc, RegSet *d) {
  Instruction i = g->p->code[pc];
  RegSet use;
  usedef(g, pc, &use, d);
  switch (GET_OPCODE(i)) {
    case OP_CALL: case OP_TAILCALL: rs_range(d, GETARG_A(i), g->nregs); break;
    case OP_TFORCALL: rs_range(d, GETARG_A(i) + 4, g->nregs); break;
    case OP_CONCAT: rs_range(d, GETARG_A(i), GETARG_A(i) + GETARG_B(i)); break;
    case OP_TESTSET: rs_add(d, GETARG_A(i)); break;    /* on the jump */
    case OP_TFORLOOP: rs_add(d, GETARG_A(i) + 2); break; /* on the loop-back edge */
    default: break;
  }
}

/* successors of 'pc' in the bytecode CFG (at most 2); -1: none */
static void succs(Gen *g, int pc, int *s) {
  Instruction i = g->p->code[pc];
  OpCode op = GET_OPCODE(i);
  s[0] = pc + 1; s[1] = -1;
  switch (op) {
    case OP_JMP: s[0] = pc + 1 + GETARG_sJ(i); break;
    case OP_LOADKX: case OP_LFALSESKIP: case OP_NEWTABLE: s[0] = pc + 2; break;
    case OP_SETLIST: if (GETARG_k(i)) s[0] = pc + 2; break;
    case OP_FORLOOP: case OP_TFORLOOP: s[1] = pc + 1 - GETARG_Bx(i); break;
    case OP_FORPREP: s[1] = pc + 2 + GETARG_Bx(i); break;
    case OP_TFORPREP: s[0] = pc + 1 + GETARG_Bx(i); break;
    case OP_TAILCALL: case OP_RETURN: case OP_RETURN0: case OP_RETURN1: s[0] = -1; break;
    default:
      if ((op >= OP_EQ && op <= OP_TESTSET) || (op >= OP_ADDI && op <= OP_SHR))   /* +MMBIN / +JMP */
        s[1] = pc + 2;
      break;
  }
  if (s[0] >= g->p->sizecode) s[0] = -1;
  if (s[1] >= g->p->sizecode) s[1] = -1;
}

/* The control variable R[A+3] of a numeric for loop is written on the
** edge into the body (FORPREP when the loop runs, FORLOOP's back-edge),
** so it is dead before that edge.  Without this kill it was live from the
** function's start down to the body (it is read there and nothing else
** writes it on every path), where it holds anything: such registers stay
** in the VM stack (numonly), loaded and stored at every iteration.  The
** exit edges kill nothing.  Returns A+3 when pc -> succ is such an edge,
** else -1. */
static int forbodyedge(Gen *g, int pc, int succ) {
  Instruction i = g->p->code[pc];
  int a = GETARG_A(i);
  if (a + 3 >= g->nregs) return -1;
  if (GET_OPCODE(i) == OP_FORPREP && succ == pc + 1) return a + 3;
  if (GET_OPCODE(i) == OP_FORLOOP && succ == pc + 1 - GETARG_Bx(i)) return a + 3;
  return -1;
}

/* registers captured by closures made here (and to-be-closed variables,
** which closing reads from the stack) stay in the VM stack; liveness
** (backward dataflow to a fixpoint); active locals per pc */
static int analyse(Gen *g) {
  Proto *p = g->p;
  int n = p->sizecode, pc, k, changed;
  RegSet *use = (RegSet *)calloc((size_t)n, sizeof(RegSet));
  RegSet *def = (RegSet *)calloc((size_t)n, sizeof(RegSet));
  g->livein = (RegSet *)calloc((size_t)n, sizeof(RegSet));
  g->liveout = (RegSet *)calloc((size_t)n, sizeof(RegSet));
  g->nactive = (uint8_t *)calloc((size_t)n, 1);
  g->regvar = (LLVMValueRef *)calloc((size_t)g->nregs + 1, sizeof(LLVMValueRef));
  if (!use || !def || !g->livein || !g->liveout || !g->nactive || !g->regvar) {
    free(use); free(def);
    return 0;
  }
  for (pc = 0; pc < n; pc++) {
    Instruction i = p->code[pc];
    if (GET_OPCODE(i) == OP_CLOSURE) {
      Proto *f = p->p[GETARG_Bx(i)];
      for (k = 0; k < f->sizeupvalues; k++)
        if (f->upvalues[k].instack) rs_add(&g->memres, f->upvalues[k].idx);
    }
    else if (GET_OPCODE(i) == OP_TBC) rs_add(&g->memres, GETARG_A(i));
    else if (GET_OPCODE(i) == OP_TFORPREP)   /* the closing value: read when closed */
      rs_add(&g->memres, GETARG_A(i) + 3);
    usedef(g, pc, &use[pc], &def[pc]);
  }
  do {
    changed = 0;
    for (pc = n - 1; pc >= 0; pc--) {
      RegSet out, in;
      int s[2], j;
      memset(&out, 0, sizeof out);
      succs(g, pc, s);
      for (j = 0; j < 2; j++)
        if (s[j] >= 0) {
          RegSet e = g->livein[s[j]];
          int fa = forbodyedge(g, pc, s[j]);
          if (fa >= 0) e.w[fa >> 6] &= ~((uint64_t)1 << (fa & 63));
          rs_or(&out, &e);
        }
      for (k = 0; k < 4; k++)
        in.w[k] = use[pc].w[k] | (out.w[k] & ~def[pc].w[k]);
      if (memcmp(&in, &g->livein[pc], sizeof in) != 0 ||
          memcmp(&out, &g->liveout[pc], sizeof out) != 0) {
        g->livein[pc] = in; g->liveout[pc] = out;
        changed = 1;
      }
    }
  } while (changed);
  for (k = 0; k < p->sizelocvars; k++) {
    int from = p->locvars[k].startpc, to = p->locvars[k].endpc;
    for (pc = from < 0 ? 0 : from; pc < to && pc < n; pc++) g->nactive[pc]++;
  }
  free(use); free(def);
  return 1;
}

/* what the interpreter may read of the frame at instruction 'pc' (side
** exits, debug.getlocal from a callee or an error handler): the
** registers live into it and every active local */
static void needed_at(Gen *g, int pc, RegSet *s) {
  *s = g->livein[pc];
  rs_range(s, 0, g->nactive[pc]);
}

/* ---------------------------------------------------------------------
** Clean registers: R[r] is clean at pc when, on every path to pc, the
** VM stack slot already holds R[r]'s SSA value (loaded at a resume point,
** flushed or reloaded around a call, and not written since).  Flushes
** store only registers that may be dirty.  Forward must-analysis
** (intersection over predecessors) from "everything clean".
** --------------------------------------------------------------------- */

/* registers instruction 'pc' may write in SSA on some path (before any
** flush it makes itself) */
static void maywrite(Gen *g, int pc, RegSet *w) {
  Instruction i = g->p->code[pc];
  int a = GETARG_A(i);
  maydef(g, pc, w);
  switch (GET_OPCODE(i)) {
    case OP_FORLOOP: case OP_FORPREP: rs_range(w, a, a + 4); break;
    case OP_SELF: rs_add(w, a + 1); break;
    case OP_TFORCALL: rs_range(w, a + 4, a + 7); break;
    default: break;
  }
}

/* instructions whose every compiled path calls out, flushing before and
** reloading after (emitcall, or callop alone) */
static int alwayscalls(Instruction i) {
  switch (GET_OPCODE(i)) {
    case OP_CALL: case OP_SETLIST: return 1;
    case OP_TFORCALL: case OP_LEN: case OP_CONCAT: case OP_CLOSURE:
    case OP_NEWTABLE: case OP_CLOSE: case OP_TFORPREP: return 1;
    default: return 0;
  }
}

static LLVMValueRef hasty(Gen *g, LLVMValueRef b, int t);
static LLVMValueRef bits(Gen *g, LLVMValueRef v);
static void flushset(Gen *g, int pc, RegSet *s);
static void reloadset(Gen *g, int pc, RegSet *s);

/* flushed when a numeric for loop starts running (FORPREP at pc): what
** the loop body may need, so that inside the loop only registers the
** loop writes are dirty (else the first iteration's state would make
** every call in the loop flush everything again); nothing for a loop
** without calls (static_calls), whose helpers' slow paths flush what
** they need anyway */
static int static_calls(Gen *g, int from, int to);
static int calls_always(Gen *g, int from, int to);
static void loopentryset(Gen *g, int pc, RegSet *s) {
  int a = GETARG_A(g->p->code[pc]);
  memset(s, 0, sizeof *s);
  if (!static_calls(g, pc + 1, pc + 1 + GETARG_Bx(g->p->code[pc]))) return;
  needed_at(g, pc + 1, s);
  rs_range(s, a, a + 4);
}

static int fastbuiltin(Gen *g, int pc);
static int leafsite(Gen *g, int pc);
static int cleananalyse(Gen *g) {
  int n = g->p->sizecode, pc, k, changed;
  g->clean = (RegSet *)malloc((size_t)n * sizeof(RegSet) + 1);
  if (g->clean == NULL) return 0;
  memset(g->clean, 0xFF, (size_t)n * sizeof(RegSet));
  do {
    changed = 0;
    for (pc = 0; pc < n; pc++) {
      RegSet out = g->clean[pc], w;
      int s[2], j;
      RegSet run;
      /* all of these end up in the stack, but for the paths that make no
      ** call and write R[A] only: a builtin's (fastbuiltin) and LEN's
      ** (lenop's length hint), which flush nothing */
      if (alwayscalls(g->p->code[pc]) && fastbuiltin(g, pc) < 0 && !leafsite(g, pc) &&
          GET_OPCODE(g->p->code[pc]) != OP_LEN) {
        flushset(g, pc, &w); rs_or(&out, &w);
        reloadset(g, pc, &w); rs_or(&out, &w);
      }
      else {
        maywrite(g, pc, &w);
        for (k = 0; k < 4; k++) out.w[k] &= ~w.w[k];
      }
      run = out;
      if (GET_OPCODE(g->p->code[pc]) == OP_FORPREP) {   /* see forprep() */
        loopentryset(g, pc, &w); rs_or(&run, &w);
      }
      succs(g, pc, s);
      for (j = 0; j < 2; j++) {
        RegSet *in;
        const RegSet *o = j == 0 ? &run : &out;   /* s[0] = pc + 1: the loop runs */
        if (s[j] < 0) continue;
        in = &g->clean[s[j]];
        for (k = 0; k < 4; k++)
          if ((in->w[k] & o->w[k]) != in->w[k]) { in->w[k] &= o->w[k]; changed = 1; }
      }
    }
  } while (changed);
  return 1;
}

/* registers that may differ from their stack slot inside instruction pc */
static void dirty_at(Gen *g, int pc, RegSet *d) {
  int k;
  maywrite(g, pc, d);
  for (k = 0; k < 4; k++) d->w[k] |= ~g->clean[pc].w[k];
}

/* 's' minus the registers clean inside instruction pc */
static void only_dirty(Gen *g, int pc, RegSet *s) {
  RegSet d;
  int k;
  dirty_at(g, pc, &d);
  for (k = 0; k < 4; k++) s->w[k] &= d.w[k];
}

/* ---------------------------------------------------------------------
** Static types: what a register is known to hold at the start of each
** instruction, so guards with a known outcome are not emitted.  Forward
** dataflow to a fixpoint; TY_INT is an integer immediate, TY_FLT a float;
** the join of different types is TY_ANY.  The facts hold on the paths
** compiled code takes: an instruction that continues in compiled code has
** taken its fast path (arithmetic on numbers only, numeric for loops on
** integers only; anything else exits), and a speculated load has passed
** its guard ("Speculation" below).  The function's start knows nothing;
** other entry points (after calls the interpreter ran, loop headers) take
** the types of the compiled paths into them, which the code entered there
** checks (resumeguards), or nothing without speculation.  The types are bit sets (join
** is |): TY_NUM, an integer immediate or a float, is still never a
** reference.
** --------------------------------------------------------------------- */

enum { TY_NONE = 0, TY_INT = 1, TY_FLT = 2, TY_NUM = 3, TY_ANY = 7 };

static int wordty(Value w) {
  uint64_t b = (uint64_t)w;
  if (b >= MVM_TAG_INT) return TY_INT;
  if ((b >> 48) - 2 <= 0xFFFA - 2) return TY_FLT;
  return TY_ANY;
}

/* type of R[A] after arithmetic 'op' on operands of types x and y */
static int arithty(OpCode op, int x, int y) {
  if (op == OP_DIV || op == OP_POW) return TY_FLT;
  if (x == TY_INT && y == TY_INT) return TY_INT;
  if (x == TY_FLT || y == TY_FLT) return TY_FLT;   /* the other one is a number too */
  return TY_NUM;   /* going on in compiled code: the operands were numbers */
}

/* the type of R[A] after instruction 'i' of 'P', for the instructions
** whose result type follows from their operands' types 'tb', 'tc' (of
** R[B], R[C]) and constants alone: moves, constants, arithmetic, bitwise
** operators; -1 for the others.  (The caller's analysis, tytransfer, and
** an inlined leaf's result type, leafresty, share it.) */
static int valuety(const Proto *P, Instruction i, int tb, int tc) {
  OpCode op = GET_OPCODE(i);
  switch (op) {
    case OP_MOVE: return tb;
    case OP_LOADI: return TY_INT;
    case OP_LOADF: return TY_FLT;
    case OP_LOADK: return wordty(P->k[GETARG_Bx(i)]);
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_MOD:
    case OP_IDIV: case OP_POW:
      return arithty(op, tb, tc);
    case OP_ADDK: case OP_SUBK: case OP_MULK: case OP_DIVK: case OP_MODK:
    case OP_IDIVK: case OP_POWK:
      return arithty((OpCode)(op - OP_ADDK + OP_ADD), tb, wordty(P->k[GETARG_C(i)]));
    case OP_ADDI: return arithty(OP_ADD, tb, TY_INT);
    case OP_BAND: case OP_BOR: case OP_BXOR: case OP_SHL: case OP_SHR:
    case OP_BANDK: case OP_BORK: case OP_BXORK: case OP_SHRI: case OP_SHLI:
    case OP_BNOT:
      return TY_INT;
    case OP_UNM: return tb == TY_INT || tb == TY_FLT ? tb : TY_NUM;
    default: return -1;
  }
}

/* Metamethod sites.  Compiled code computes arithmetic on numbers inline
** and left to the interpreter at any other operand, for its MMBIN* to
** call the metamethod; code doing vector or complex arithmetic through
** '__add' and '__mul' left at every operation and came back at the next
** call or OSR test (a ray-sphere probe: 1.3 M exits a run, slower than
** the interpreter).  An arithmetic or bitwise instruction whose type
** feedback saw a string, table or other value (jit_mmsite; mm[pc], a
** snapshot taken once per compile: the interpreter goes on recording
** meanwhile) calls mvmrt_arith instead when an operand is not known to
** be a number (mmlive): the helper does what the interpreter does at the
** instruction and at its MMBIN* (numbers of any kind, then the
** metamethod, or the error), and compiled code goes on after the MMBIN*
** with R[A] of any type.  The same for UNM and BNOT, which call their
** metamethods themselves.  Elsewhere arithmetic still leaves: its result
** stays a number in the types, which is what the rest of the code is
** built on. */
static uint8_t *mmsites(const Proto *p) {
  uint8_t *mm = NULL;
  int pc;
  if (p->feedback == NULL) return NULL;
  for (pc = 0; pc + 1 < p->sizecode; pc++) {
    if (jit_mmsite(p, pc)) {
      if (mm == NULL && (mm = (uint8_t *)calloc((size_t)p->sizecode, 1)) == NULL) return NULL;
      mm[pc] = 1;
    }
  }
  return mm;
}
/* may arithmetic/bitwise instruction 'i' meet a non-number, its operands
** R[B] and R[C] (register-register forms only) of types tb and tc? */
static int mmlivety(Instruction i, int tb, int tc) {
  OpCode op = GET_OPCODE(i);
  int regc = (op >= OP_ADD && op <= OP_SHR);
  return ((tb | (regc ? tc : 0)) & ~TY_NUM) != 0;
}

static int resumes(Instruction i);
static void entrypoints(Gen *g, char *mark);

/* the numeric for loop whose FORPREP is at 'prep' runs on floats in
** compiled code: its initial value or step is known to be a float (as
** in the interpreter, which runs an integer loop only when both are
** integers); other loops are compiled for integers */
static int fltloop(Gen *g, int prep) {
  int a = GETARG_A(g->p->code[prep]);
  const uint8_t *t;
  if (g->types == NULL || a + 3 >= g->nregs) return 0;
  t = g->types + (size_t)prep * g->nregs;
  return t[a] == TY_FLT || t[a + 2] == TY_FLT;
}

/* effect of instruction 'pc' on the types 't' (nregs entries) */
static void tytransfer(Gen *g, int pc, uint8_t *t) {
  Instruction i = g->p->code[pc];
  OpCode op = GET_OPCODE(i);
  int a = GETARG_A(i), b = GETARG_B(i), c = GETARG_C(i), r, x;
  RegSet d;
  /* operand types before the instruction writes anything (A may be B or C) */
  uint8_t tb_ = t[b < g->nregs ? b : 0], tc_ = t[c < g->nregs ? c : 0];
  maydef(g, pc, &d);
  for (r = 0; r < g->nregs; r++)
    if (rs_has(&d, r)) t[r] = TY_ANY;
  x = valuety(g->p, i, tb_, tc_);
  if (x >= 0) t[a] = (uint8_t)x;
  if (g->mm != NULL && g->mm[pc] && mmlivety(i, tb_, tc_)) t[a] = TY_ANY;   /* (mmhelper) */
  switch (op) {
    case OP_GETUPVAL: case OP_GETTABUP: case OP_GETTABLE: case OP_GETI:
    case OP_GETFIELD:
      if (g->spec[pc]) t[a] = g->spec[pc];   /* guarded (loaddone) */
      break;
    case OP_CALL:   /* an inlined leaf's result, guarded after the call (emitcall) */
      if (g->spec[pc] && a < g->nregs) t[a] = g->spec[pc];
      if (g->selfres != NULL && g->selfres[pc] && a < g->nregs) t[a] = g->selfres[pc];
      break;
    case OP_FORPREP:   /* integer or float loops; both paths set R[A+3] */
      x = fltloop(g, pc) ? TY_FLT : TY_INT;
      for (r = a; r < a + 4; r++) t[r] = (uint8_t)x;
      break;
    case OP_FORLOOP:   /* R[A+3] on the loop-back edge only: tyanalyse */
      x = fltloop(g, pc - GETARG_Bx(i)) ? TY_FLT : TY_INT;
      for (r = a; r < a + 3; r++) t[r] = (uint8_t)x;
      break;
    default: break;
  }
  for (r = 0; r < g->nregs; r++)
    if (rs_has(&g->memres, r)) t[r] = TY_ANY;
}

/* ---------------------------------------------------------------------
** Speculation.  A value loaded from a table, upvalue or global is TY_ANY,
** so every register it flows into would stay in the VM stack and be
** tag-checked at each use.  When every path from such a load reaches a
** numeric use of the loaded register (an arithmetic, comparison or for
** loop operand) before anything else reads it, the load is followed by a
** guard that it holds a number (spec[pc]) and the type analysis takes
** that type from there on.  A failed guard exits to the interpreter
** after the load (at pc + 1, the value in its stack slot), counting the
** failure in Proto.jitexits; a function that keeps failing is compiled
** again without speculation (jit.c, despecialise).  With speculation,
** entry points are no longer "anything": the code entered there checks
** every live register it assumes a type for (resumeblock), and exits at
** once if one differs.
** --------------------------------------------------------------------- */

/* May instruction 'pc' have met what the feedback bits 'bits' (MVM_FB_*)
** record?  Yes when one of them is set, or when there is no feedback to
** tell (-j eager's first call, a function compiled before its feedback
** started).  The table accesses' inline paths for rare cases are built
** only where this holds (vm.c FEEDBACK_KEY, FEEDBACK_BIT); the
** interpreter goes on recording while a background compile reads. */
static int fbseen(Gen *g, int pc, int bits) {
  const uint8_t *fb = g->p->feedback;
  return fb == NULL || (__atomic_load_n(&fb[pc], __ATOMIC_RELAXED) & bits) != 0;
}

/* A register's use as the key of GETTABLE/SETTABLE 'pc': neither a
** numeric use nor a reason not to speculate (0) where the interpreter saw
** only integer keys there (vm.c FEEDBACK_KEY: a key that hit the array
** part was one), so that `pc = code[pc]` ... `code[pc]` ... `pc + 1`
** (minivm.lua) speculates on the integer its arithmetic saw; else -1 */
static int keyuse(Gen *g, int pc) {
  return fbseen(g, pc, MVM_FB_STR | MVM_FB_OTHER) ? -1 : 0;
}

/* how instruction 'pc' reads register r: 1 only as a number operand
** (where anything else would exit or call a metamethod), -1 otherwise,
** 0 not at all */
static int numuse(Gen *g, int pc, int r) {
  Instruction i = g->p->code[pc];
  OpCode op = GET_OPCODE(i);
  int a = GETARG_A(i), b = GETARG_B(i), c = GETARG_C(i);
  RegSet use, def;
  usedef(g, pc, &use, &def);
  if (!rs_has(&use, r)) return 0;
  switch (op) {
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_MOD:
    case OP_IDIV: case OP_POW: case OP_BAND: case OP_BOR: case OP_BXOR:
    case OP_SHL: case OP_SHR:
      return (r == b || r == c) ? 1 : -1;
    case OP_ADDK: case OP_SUBK: case OP_MULK: case OP_DIVK: case OP_MODK:
    case OP_IDIVK: case OP_POWK: case OP_BANDK: case OP_BORK: case OP_BXORK:
    case OP_ADDI: case OP_SHRI: case OP_SHLI: case OP_UNM: case OP_BNOT:
      return r == b ? 1 : -1;
    case OP_LT: case OP_LE: return (r == a || r == b) ? 1 : -1;
    case OP_LTI: case OP_LEI: case OP_GTI: case OP_GEI: case OP_EQI:
      return r == a ? 1 : -1;
    case OP_FORPREP: return (r >= a && r < a + 3) ? 1 : -1;
    /* the value a table store writes: taken whatever its type, neither a
    ** numeric use nor a reason not to speculate (`local v = t.x` used in
    ** arithmetic in a loop and stored back after it: the path where the
    ** loop runs no time reaches only the store) */
    case OP_SETTABUP:
      return (!GETARG_k(i) && r == c) ? 0 : -1;
    case OP_SETTABLE:
      if (r == b && r != a && (GETARG_k(i) || r != c)) return keyuse(g, pc);
      /* FALLTHROUGH */
    case OP_SETI: case OP_SETFIELD:
      return (!GETARG_k(i) && r == c && r != a && (op != OP_SETTABLE || r != b)) ? 0 : -1;
    case OP_GETTABLE: return (r == c && r != b) ? keyuse(g, pc) : -1;
    default: return -1;
  }
}

/* the speculation level of 'p' (Proto.jitnospec: 0 feedback types, 1 any
** number, 2 none); MVM_JIT_NOSPEC=1 in the environment: none (for
** measurements) */
static int speclevel(Gen *g) {
  static int off = -1;
  if (off < 0) {
    const char *e = getenv("MVM_JIT_NOSPEC");
    off = e != NULL && *e != '\0' && *e != '0';
  }
  return (!JIT_SPECULATE || off) ? 2 : g->p->jitnospec;
}

/* do entry points check the types (rather than assume nothing)? */
static int specentries(Gen *g) {
  return speclevel(g) < 2;
}

/* scratch of the scans below: per nesting depth (a MOVE's target is
** scanned once, nested) a visit stamp per pc and a stack */
typedef struct NumScan {
  int *seen[2], *stack[2];
  int stamp;
} NumScan;

static void numpush(int *seen, int *stack, int *sp, int stamp, const int *s) {
  int j;
  for (j = 0; j < 2; j++)
    if (s[j] >= 0 && seen[s[j]] != stamp) { seen[s[j]] = stamp; stack[(*sp)++] = s[j]; }
}

/* does every path from the pcs 'from' (-1: none) on, as long as R[a] is
** live, reach a numeric use of it before any other use (1; 0: no numeric
** use, but no other use either, as a value only stored; -1: no)?  A MOVE
** of R[a] counts as a numeric use when its target is used so in turn
** (depth 0 only).  'kinds': the union of the type feedback at those uses (MVM_FB_*),
** -1 when one of them has none.  Depth-first over the bytecode CFG. */
static int numfollows(Gen *g, const int *from, int a, NumScan *ns, int depth, int *kinds) {
  int sp = 0, found = 0, s[2], stamp = ++ns->stamp;
  int *seen = ns->seen[depth], *stack = ns->stack[depth];
  const uint8_t *fb = g->p->feedback;
  *kinds = 0;
  numpush(seen, stack, &sp, stamp, from);
  while (sp > 0) {
    int q = stack[--sp], u;
    Instruction i = g->p->code[q];
    if (!rs_has(&g->livein[q], a)) continue;   /* dead on this path */
    u = numuse(g, q, a);
    if (u < 0 && depth == 0 && GET_OPCODE(i) == OP_MOVE && GETARG_A(i) != a &&
        !rs_has(&g->memres, GETARG_A(i))) {
      int k2, s2[2];
      succs(g, q, s2);
      u = numfollows(g, s2, GETARG_A(i), ns, 1, &k2);
      if (u < 0) return -1;
      if (u > 0) {
        *kinds = (k2 < 0 || *kinds < 0) ? -1 : (*kinds | k2);
        found = 1;
      }
      if (rs_has(&g->liveout[q], a)) numpush(seen, stack, &sp, stamp, s2);   /* R[a] goes on */
      continue;
    }
    if (u < 0) return -1;
    if (u > 0) {   /* what the interpreter saw there (0: unknown) */
      found = 1;
      *kinds = (fb == NULL || fb[q] == 0 || *kinds < 0) ? -1 : (*kinds | fb[q]);
      continue;
    }
    succs(g, q, s);
    numpush(seen, stack, &sp, stamp, s);
  }
  return found;
}

/* the type to guard for a value whose numeric uses saw 'kinds' (TY_NONE:
** do not speculate) */
static int spectype(Gen *g, int kinds) {
  if (kinds > 0 && (kinds & ~(MVM_FB_INT | MVM_FB_FLOAT))) return TY_NONE;
  if (speclevel(g) == 0 && kinds == MVM_FB_INT) return TY_INT;
  if (speclevel(g) == 0 && kinds == MVM_FB_FLOAT) return TY_FLT;
  return TY_NUM;
}

/* No feedback for parameter r (-j eager compiles at the first call):
** the kind of number the call being started passes (MVM_FB_*), when the
** compile runs in the VM's thread at the start of a frame of the function
** (jit_trycompile), else -1.  A wrong guess fails the entry check, is
** counted, and the function is compiled again without it (jit.c,
** despecialise). */
static int firstarg(Gen *g, int r) {
  lua_State *L = g->Lc;
  Value f, v;
  if (L == NULL || L->ci == NULL || (L->ci->callstatus & CIST_C)) return -1;
  f = *L->ci->func;
  if (!v_isLclosure(f) || v_lcl(f)->p != g->p || L->ci->u.l.savedpc != g->p->code) return -1;
  v = L->ci->func[1 + r];
  return v_isimmint(v) ? MVM_FB_INT : v_isfloat(v) ? MVM_FB_FLOAT : -1;
}

static int isload(OpCode op) {
  return op == OP_GETUPVAL || op == OP_GETTABUP || op == OP_GETTABLE ||
         op == OP_GETI || op == OP_GETFIELD;
}

static const Proto *inlinee(Gen *g, int pc);
static int knum(int t);
/* a leaf that stores (a setter: leafstores) */
static int leafstores_any(const Proto *P) {
  int k;
  for (k = 0; k < P->sizecode; k++)
    if (GET_OPCODE(P->code[k]) == OP_SETFIELD) return 1;
  return 0;
}
/* a CALL at 'pc' for one result whose callee is predicted to be inlined
** (inlineleaf): its result is speculated like a load's (the inline path
** knows its type; the real call's result is guarded, exit after it) */
static int leafsite(Gen *g, int pc) {
  Instruction i = g->p->code[pc];
  return GET_OPCODE(i) == OP_CALL && GETARG_B(i) != 0 && GETARG_C(i) == 2 && inlinee(g, pc) != NULL &&
         !leafstores_any(inlinee(g, pc));
}

/* the type of builtin k's result for an argument of type t */
static int builtinty(int k, int t) {
  if (k == JIT_BUILTIN_SQRT) return TY_FLT;
  if (k == JIT_BUILTIN_ABS && knum(t)) return t;
  return TY_NUM;
}

/* The type of the first result of pure leaf P (jit.c pureleaf) when its
** inline code (inlineleaf) gets to a RETURN, whatever the arguments: the
** same transfer as leafop's on arguments of any type (arithmetic goes
** on with numbers only), over its forward-only code.  TY_ANY if unknown
** (or on failure). */
static int leafresty(const Proto *P) {
  int n = P->maxstacksize, pc, r, res = TY_NONE;
  uint8_t *in = (uint8_t *)calloc(((size_t)P->sizecode + 2) * (size_t)(n + 1), 1), *t;
  if (in == NULL) return TY_ANY;
  memset(in, TY_ANY, (size_t)n);
  for (pc = 0; pc < P->sizecode; pc++) {
    Instruction i = P->code[pc];
    OpCode op = GET_OPCODE(i);
    int a = GETARG_A(i), b = GETARG_B(i), c = GETARG_C(i), next = pc + 1, alt = -1, vt;
    uint8_t cur[MAXREGS];
    memcpy(cur, in + (size_t)pc * n, (size_t)n);
    for (r = 0; r < n && cur[r] == TY_NONE; r++) ;
    if (r == n && n > 0) continue;   /* not reached */
    vt = valuety(P, i, b < n ? cur[b] : TY_ANY, c < n ? cur[c] : TY_ANY);
    if (vt >= 0) {
      cur[a] = (uint8_t)vt;
      /* the binary operators are followed by their MMBIN*, skipped */
      if (op != OP_MOVE && op != OP_LOADI && op != OP_LOADF && op != OP_LOADK &&
          op != OP_BNOT && op != OP_UNM)
        next = pc + 2;
    }
    else switch (op) {
      case OP_LOADNIL: for (r = a; r <= a + b && r < n; r++) cur[r] = TY_ANY; break;
      case OP_JMP: next = pc + 1 + GETARG_sJ(i); break;
      case OP_EQ: case OP_LT: case OP_LE: case OP_EQK: case OP_EQI: case OP_LTI:
      case OP_LEI: case OP_GTI: case OP_GEI: case OP_TEST:
        alt = pc + 2; break;
      case OP_TESTSET: alt = pc + 2; break;   /* R[A] := R[B] on the jump only */
      case OP_RETURN0: res |= TY_ANY; continue;
      case OP_RETURN1: res |= cur[a]; continue;
      case OP_RETURN: res |= b >= 2 ? cur[a] : TY_ANY; continue;
      case OP_GETUPVAL: case OP_GETTABUP: case OP_GETTABLE: case OP_GETI: case OP_GETFIELD:
      case OP_NOT: case OP_LOADFALSE: case OP_LOADTRUE:
        cur[a] = TY_ANY; break;
      case OP_LEN: cur[a] = TY_INT; break;
      case OP_CALL: cur[a] = (uint8_t)builtinty(jit_leafbuiltin(P, pc), cur[a + 1]); break;
      case OP_TAILCALL: res |= builtinty(jit_leafbuiltin(P, pc), cur[a + 1]); continue;
      default: break;   /* MMBIN* (skipped), nothing else (pureleaf) */
    }
    if (alt >= 0 && alt <= P->sizecode + 1) {
      t = in + (size_t)alt * n;
      for (r = 0; r < n; r++) t[r] |= cur[r];
    }
    if (op == OP_TESTSET) cur[a] = cur[b];
    if (next >= 0 && next <= P->sizecode + 1) {
      t = in + (size_t)next * n;
      for (r = 0; r < n; r++) t[r] |= cur[r];
    }
  }
  free(in);
  return res == TY_NONE ? TY_ANY : res;
}

/* spec[pc] for every load (TY_NONE: no guard).  The guarded type is
** TY_NUM (either kind of number keeps the register in SSA; arithmetic
** then picks the integer or float path by the tags) unless the
** interpreter's type feedback (Proto.feedback, recorded once a function
** is half-way to being compiled under -j on) saw only integers or only
** floats at every numeric use: then that kind, and its arithmetic has one
** path.  Feedback that saw other values there: no speculation.  Level
** Proto.jitnospec: 0 all of this, 1 TY_NUM only, 2 no speculation. */
static int specanalyse(Gen *g) {
  int n = g->p->sizecode, pc, r, ok = 1, kinds, from[2];
  NumScan ns;
  g->spec = (uint8_t *)calloc((size_t)n + 1, 1);
  g->pspec = (uint8_t *)calloc((size_t)g->nregs + 1, 1);
  g->specexits = (LLVMBasicBlockRef *)calloc((size_t)n + 1, sizeof(LLVMBasicBlockRef));
  if (g->spec == NULL || g->pspec == NULL || g->specexits == NULL) return 0;
  if (speclevel(g) >= 2) return 1;
  memset(&ns, 0, sizeof ns);
  for (r = 0; r < 2; r++) {
    ns.seen[r] = (int *)calloc((size_t)n, sizeof(int));
    ns.stack[r] = (int *)malloc((size_t)n * 2 * sizeof(int) + 1);
    if (ns.seen[r] == NULL || ns.stack[r] == NULL) ok = 0;
  }
  for (pc = 0; ok && pc < n; pc++) {
    Instruction i = g->p->code[pc];
    int a = GETARG_A(i);
    int bk = fastbuiltin(g, pc);
    if ((!isload(GET_OPCODE(i)) && !leafsite(g, pc) && bk < 0) || bk == JIT_BUILTIN_ASSERT ||
        bk == JIT_BUILTIN_SETMT || a >= g->nregs || rs_has(&g->memres, a))
      continue;   /* (assert's fast path has no result, setmetatable's a table) */
    succs(g, pc, from);
    if (numfollows(g, from, a, &ns, 0, &kinds) > 0) {
      g->spec[pc] = (uint8_t)spectype(g, kinds);
      if (g->spec[pc] != TY_NONE && speclevel(g) == 0 && GET_OPCODE(i) == OP_CALL &&
          bk < 0 && knum(leafresty(inlinee(g, pc))))
        g->spec[pc] = (uint8_t)leafresty(inlinee(g, pc));   /* what the inline code gives */
      else if (g->spec[pc] != TY_NONE && speclevel(g) == 0 && bk == JIT_BUILTIN_SQRT)
        g->spec[pc] = TY_FLT;   /* a float whatever the argument */
      else if (g->spec[pc] != TY_NONE && speclevel(g) == 0 && bk == JIT_BUILTIN_BYTE)
        g->spec[pc] = TY_INT;   /* (or no value, or an error: the call) */
    }
  }
  /* parameters used as numbers, checked on entry at pc 0 (resumeguards;
  ** not in vararg functions, whose VARARGPREP moves the frame first):
  ** only when the feedback says which kind.  "Any number" measured no
  ** better than leaving them in the stack (nbody, sieve under -j eager:
  ** +7% and +2% instructions; spectral_norm's A(i, j) under -j on with
  ** integers: 9.3 -> 7.9 G) */
  from[0] = 0; from[1] = -1;
  for (r = 0; ok && !g->p->is_vararg && r < g->p->numparams && r < g->nregs; r++)
    if (!rs_has(&g->memres, r) && numfollows(g, from, r, &ns, 0, &kinds) > 0) {
      int t;
      if (kinds < 0) kinds = firstarg(g, r);
      t = spectype(g, kinds);
      if (t == TY_INT || t == TY_FLT) g->pspec[r] = (uint8_t)t;
    }
  for (r = 0; r < 2; r++) { free(ns.seen[r]); free(ns.stack[r]); }
  return ok;
}

static int tyanalyse(Gen *g) {
  int n = g->p->sizecode, nr = g->nregs, pc, r, changed;
  uint8_t *cur;
  g->types = (uint8_t *)calloc((size_t)n * (size_t)(nr ? nr : 1), 1);
  cur = (uint8_t *)malloc((size_t)nr + 1);
  if (g->types == NULL || cur == NULL) { free(cur); return 0; }
  /* entry points: anything, unless the code entered there checks the
  ** types (speculation: resumeblock); the start always knows nothing */
  for (pc = 0; pc < n; pc++)
    if (g->entry[pc] && (pc == 0 || !specentries(g)))
      memset(g->types + (size_t)pc * nr, TY_ANY, (size_t)nr);
  for (r = 0; r < nr; r++)   /* but parameters used as numbers are checked */
    if (g->pspec[r]) g->types[r] = g->pspec[r];
 again:
  do {
    changed = 0;
    for (pc = 0; pc < n; pc++) {
      int s[2], j;
      uint8_t *in = g->types + (size_t)pc * nr;
      if (nr == 0) break;
      for (r = 0; r < nr && in[r] == TY_NONE; r++) ;
      if (r == nr) continue;   /* not reached (yet) */
      memcpy(cur, in, (size_t)nr);
      tytransfer(g, pc, cur);
      succs(g, pc, s);
      for (j = 0; j < 2; j++) {
        uint8_t *out;
        if (s[j] < 0) continue;
        out = g->types + (size_t)s[j] * nr;
        if (j == 1 && GET_OPCODE(g->p->code[pc]) == OP_FORLOOP && !rs_has(&g->memres, GETARG_A(g->p->code[pc]) + 3))
          cur[GETARG_A(g->p->code[pc]) + 3] =   /* the loop goes on: R[A+3] = R[A] */
            (uint8_t)(fltloop(g, pc - GETARG_Bx(g->p->code[pc])) ? TY_FLT : TY_INT);
        for (r = 0; r < nr; r++)
          if ((out[r] | cur[r]) != out[r]) { out[r] |= cur[r]; changed = 1; }
      }
    }
  } while (changed);
  /* an entry point no compiled path reaches knows nothing */
  for (pc = 0; pc < n && nr > 0; pc++) {
    uint8_t *in = g->types + (size_t)pc * nr;
    if (!g->entry[pc]) continue;
    for (r = 0; r < nr && in[r] == TY_NONE; r++) ;
    if (r == nr) { memset(in, TY_ANY, (size_t)nr); goto again; }
  }
  free(cur);
  return 1;
}

/* Result types of self calls.  In a function whose body calls itself
** directly (selfconv), a self call that returns JIT_RETURNED returned
** through one of this code's RETURNs: the callee is this very code
** (pushcall), entered at pc 0.  When every RETURN the analysis reaches
** returns one value of type T, given that every such self call's result
** has type T (an induction over the calls' depth: the innermost return
** made no self call, or its self calls returned T), the result register
** of a self call has type T after the call's direct path.  Its other
** paths (mvmrt_precall: another callee or no direct call; an unfinished
** callee finished by mvmrt_finishcall) test the type and exit after the
** call when it differs (emitcall).  fib's addition of two results then
** tests no tags.  T: an integer, else a float; none: as before. */
static int selfhint(Gen *g, int pc, int a);
static int selfcallsite(Gen *g, int pc) {
  Instruction i = g->p->code[pc];
  return GET_OPCODE(i) == OP_CALL && GETARG_B(i) != 0 && GETARG_C(i) == 2 &&
         g->p->numparams <= GETARG_B(i) - 1 && GETARG_A(i) < g->nregs &&
         selfhint(g, pc, GETARG_A(i));
}
static int rettype(Gen *g) {
  int pc, r, nr = g->nregs, t = TY_NONE;
  for (pc = 0; pc < g->p->sizecode && t != TY_ANY; pc++) {
    Instruction i = g->p->code[pc];
    const uint8_t *in = g->types + (size_t)pc * nr;
    int a = GETARG_A(i);
    for (r = 0; r < nr && in[r] == TY_NONE; r++) ;
    if (r == nr) continue;   /* not reached */
    switch (GET_OPCODE(i)) {
      case OP_RETURN1: t |= a < nr ? in[a] : TY_ANY; break;
      case OP_RETURN: t |= GETARG_B(i) == 2 && a < nr ? in[a] : TY_ANY; break;
      case OP_RETURN0: case OP_TAILCALL: t = TY_ANY; break;
      default: break;
    }
  }
  return t;
}
static int selftyped(Gen *g) {
  const Proto *p = g->p;
  int pc, n = 0, k;
  static const uint8_t tries[2] = {TY_INT, TY_FLT};
  if (g->rlo >= 0 || speclevel(g) != 0 || g->nregs == 0) return tyanalyse(g);
  for (pc = 0; pc < p->sizecode; pc++) {
    if (GET_OPCODE(p->code[pc]) == OP_TAILCALL) return tyanalyse(g);
    n += selfcallsite(g, pc);
  }
  if (n == 0 || (g->selfres = (uint8_t *)calloc((size_t)p->sizecode + 1, 1)) == NULL)
    return tyanalyse(g);
  for (k = 0; k < 2; k++) {
    for (pc = 0; pc < p->sizecode; pc++)
      if (selfcallsite(g, pc)) g->selfres[pc] = tries[k];
    if (!tyanalyse(g)) return 0;
    if (rettype(g) == tries[k]) return 1;
    free(g->types);
    g->types = NULL;
  }
  free(g->selfres);
  g->selfres = NULL;
  return tyanalyse(g);
}

/* Only registers that hold numbers (integer immediates, floats) wherever
** they are live become SSA values; any register that may hold something
** else stays in the VM stack, as before.  Keeping everything in SSA made
** loops with helper calls, table accesses and guards slower than the
** all-memory code (fannkuch 9.0 -> 12.0, nbody 10.0 -> 12.1 G
** instructions, -j eager): every reference is reloaded after each call
** (JIT_RELOAD_AFTER_CALLS), and dozens of values kept live for side
** exits spill and shuffle.  Numbers never move, so they are also immune
** to stale copies; references in SSA wait for the frame walker.  See
** docs/decisions/0005 ("Registers in SSA"). */
/* the register instruction 'pc' sets to a float when it goes on in
** compiled code (arithmetic, not loads), or -1; 'tmp': nregs bytes */
static int fltdef(Gen *g, int pc, uint8_t *tmp) {
  Instruction i = g->p->code[pc];
  int a = GETARG_A(i);
  switch (GET_OPCODE(i)) {
    case OP_LOADF: case OP_LOADK: case OP_UNM:
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_MOD: case OP_IDIV: case OP_POW:
    case OP_ADDK: case OP_SUBK: case OP_MULK: case OP_DIVK: case OP_MODK: case OP_IDIVK:
    case OP_POWK: case OP_ADDI:
      break;
    default: return -1;
  }
  if (a >= g->nregs) return -1;
  memcpy(tmp, g->types + (size_t)pc * g->nregs, (size_t)g->nregs);
  tytransfer(g, pc, tmp);
  return tmp[a] == TY_FLT ? a : -1;
}

/* Registers that live across a call somewhere in the function (live out
** of an instruction that always calls, other than what it writes; calls
** inlined or made builtins count too, for their generic calls, but not
** an inlined leaf that has none: leafnocall) */
static int leafnocall(Gen *g, int pc);
static void callsurvivors(Gen *g, RegSet *c) {
  int pc, k;
  memset(c, 0, sizeof *c);
  for (pc = 0; pc < g->p->sizecode; pc++)
    if (alwayscalls(g->p->code[pc]) && !leafnocall(g, pc)) {
      RegSet d;
      maydef(g, pc, &d);
      for (k = 0; k < 4; k++) c->w[k] |= g->liveout[pc].w[k] & ~d.w[k];
    }
}
/* the register instruction 'pc' sets to a number (an integer or float
** result of arithmetic, a move of one, or a load speculated to be one)
** when it goes on in compiled code, or -1; 'tmp': nregs bytes.  Moves:
** a call's arguments copied from numbers (spectral_norm's `A(i, j)`,
** inlined) were stored to their slots before the inlined path's guards
** at every iteration; in SSA they are flushed on the real call's path
** only (spectral_norm -1% instructions, nbody -0.8%) */
static int numdef(Gen *g, int pc, uint8_t *tmp) {
  Instruction i = g->p->code[pc];
  OpCode op = GET_OPCODE(i);
  int a = GETARG_A(i), t;
  if (!isload(op) && fltdef(g, pc, tmp) < 0) {
    switch (op) {
      case OP_ADD: case OP_SUB: case OP_MUL: case OP_MOD: case OP_IDIV:
      case OP_ADDK: case OP_SUBK: case OP_MULK: case OP_MODK: case OP_IDIVK: case OP_ADDI: case OP_MOVE:
        break;
      default: return -1;
    }
  }
  if (a >= g->nregs) return -1;
  memcpy(tmp, g->types + (size_t)pc * g->nregs, (size_t)g->nregs);
  tytransfer(g, pc, tmp);
  t = tmp[a];
  return t != TY_NONE && (t & ~TY_NUM) == 0 ? a : -1;
}

/* Numeric for loops: the registers of integer loops (A..A+3 of their
** FORPREPs) in 'fr'.  Without this their state lived in the VM stack,
** loaded and stored at every iteration: the initial value and step are
** set by a LOADI while the register may hold anything before (the
** function's start knows nothing), so the type before the write kept
** them out (numonly). */
static void forregs(Gen *g, RegSet *fr) {
  int pc;
  memset(fr, 0, sizeof *fr);
  for (pc = 0; pc < g->p->sizecode; pc++) {
    int a = GETARG_A(g->p->code[pc]);
    if (GET_OPCODE(g->p->code[pc]) == OP_FORPREP && a + 4 <= g->nregs && !fltloop(g, pc) &&
        !calls_always(g, pc + 1, pc + 1 + GETARG_Bx(g->p->code[pc])))
      rs_range(fr, a, a + 4);
  }
}

/* Only loops without calls: a call in the body flushes the loop's
** registers before it (they changed since the last iteration) and keeps
** them in callee-saved registers or native spill slots around it, which
** measured worse than loading and storing them in FORLOOP (-j eager,
** calls in the inner loop: spectral_norm +9%, a micro loop +11%
** instructions).  Does any instruction in [from, to] always call? */
static int static_calls(Gen *g, int from, int to) {
  for (; from <= to && from < g->p->sizecode; from++)
    if (alwayscalls(g->p->code[from]) && fastbuiltin(g, from) < 0 && !leafsite(g, from)) return 1;
  return 0;
}

/* Loops whose calls are on some paths only (queens' `for c = 1, n do if
** free then ... place(r + 1) ... end end`: most iterations test and go
** on) get loop homes too: does every path from 'from' to the FORLOOP at
** 'to' (within the body; breaks leave it) make a call (static_calls)?
** Then the loop's registers stay where they were (see static_calls). */
static int calls_always(Gen *g, int from, int to) {
  int n = g->p->sizecode, sp = 0, q, j, s[2], found = 0;
  int *stack = (int *)malloc(((size_t)n + 1) * sizeof(int));
  char *seen = (char *)calloc((size_t)n + 1, 1);
  if (stack == NULL || seen == NULL) { free(stack); free(seen); return 1; }
  stack[sp++] = from; seen[from] = 1;
  while (sp > 0 && !found) {
    q = stack[--sp];
    if (q == to) { found = 1; break; }
    if (static_calls(g, q, q)) continue;
    succs(g, q, s);
    for (j = 0; j < 2; j++)
      if (s[j] >= from && s[j] <= to && !seen[s[j]]) { seen[s[j]] = 1; stack[sp++] = s[j]; }
  }
  free(stack); free(seen);
  return !found;
}

/* the register instruction 'pc' sets to an integer in a for loop's
** registers 'fr' when it goes on in compiled code, or -1 */
static int fordef(Gen *g, int pc, uint8_t *tmp, const RegSet *fr) {
  int a = GETARG_A(g->p->code[pc]);
  RegSet d;
  if (a >= g->nregs || !rs_has(fr, a)) return -1;
  maydef(g, pc, &d);
  if (!rs_has(&d, a)) return -1;
  memcpy(tmp, g->types + (size_t)pc * g->nregs, (size_t)g->nregs);
  tytransfer(g, pc, tmp);
  return tmp[a] == TY_INT ? a : -1;
}

/* Loop limits.  R[A+1] of a loop is set (a parameter moved, #t, a
** load) to something the types do not know to be an integer, and
** FORPREP replaces it with the count: it would stay in the VM stack for
** the whole function.  When its def d is followed by the FORPREP p with
** only constant loads and moves in between (no call, safepoint or entry
** point, no jump into the window), the register lives in its stack slot
** in the window [d, p] (getreg and setreg at those pcs, g->win; exits
** there flush its exact value from the slot) and in SSA, as the count,
** from FORPREP on.  d must not read it; nothing else is known about it
** in the window, so numonly ignores it there.  Marks the windows in
** g->win (allocated on the first). */
static int simpleop(Instruction i) {
  switch (GET_OPCODE(i)) {
    case OP_MOVE: case OP_LOADI: case OP_LOADF: case OP_LOADK: case OP_LOADFALSE:
    case OP_LOADTRUE: case OP_LOADNIL: return 1;
    default: return 0;
  }
}
static void limitwin(Gen *g, const RegSet *fr) {
  int n = g->p->sizecode, pc, q, d, s[2];
  char *jt = (char *)calloc((size_t)n + 1, 1);   /* jumped to from elsewhere */
  if (jt == NULL) return;
  for (pc = 0; pc < n; pc++) {
    succs(g, pc, s);
    for (q = 0; q < 2; q++)
      if (s[q] >= 0 && s[q] != pc + 1) jt[s[q]] = 1;
  }
  for (pc = 0; pc < n; pc++) {
    int r = GETARG_A(g->p->code[pc]) + 1;
    RegSet use, def;
    if (GET_OPCODE(g->p->code[pc]) != OP_FORPREP || !rs_has(fr, r) ||
        g->types[(size_t)pc * g->nregs + r] == TY_INT)
      continue;
    for (d = pc - 1; d >= 0; d--) {
      usedef(g, d, &use, &def);
      maydef(g, d, &def);
      if (rs_has(&def, r) || !simpleop(g->p->code[d])) break;
    }
    if (d < 0 || !rs_has(&def, r) || rs_has(&use, r)) continue;
    for (q = d + 1; q <= pc && !g->entry[q] && !jt[q]; q++) ;
    if (q <= pc) continue;
    if (g->win == NULL) g->win = (RegSet *)calloc((size_t)n, sizeof(RegSet));
    if (g->win == NULL) break;
    for (q = d; q <= pc; q++) rs_add(&g->win[q], r);
  }
  free(jt);
}

/* Loop homes.  The registers of a numeric for loop are the loop's only
** inside it, but the same registers hold temporaries elsewhere (a table
** loaded for a test, a call's result): a register needed with something
** other than a number anywhere stays in the VM stack (numonly), which put
** the index and step of most loops, and all of those in main chunks,
** in memory, loaded and stored at every iteration.  An integer loop without
** calls (forregs) whose body is entered only through its FORPREP (and its
** entry points), whose registers are dead where it ends and integers
** wherever they are needed inside gets them split: from the FORPREP's
** writes to the FORLOOP they live in a register of their own (loopvar, a
** raw int64), elsewhere in their usual place (homevar, or the stack).
** The analyses of the register (liveness, clean slots, types) are
** unchanged; only where its SSA value lives differs, so applysplit swaps
** regvar/rawint per instruction emitted (and for resume blocks and region
** exits).  FORPREP reads its operands from the outside home and writes the
** loop home (forprep). */
static int regty(Gen *g, int pc, int r);
static void forsplit(Gen *g) {
  int n = g->p->sizecode, q, pc, r, s2[2];
  for (q = 0; q < n; q++) {
    Instruction i = g->p->code[q];
    int a = GETARG_A(i), f = q + 1 + GETARG_Bx(i), ok = 1;
    RegSet mine;
    if (GET_OPCODE(i) != OP_FORPREP || a + 4 > g->nregs || f >= n || fltloop(g, q) ||
        GET_OPCODE(g->p->code[f]) != OP_FORLOOP || calls_always(g, q + 1, f) ||
        f + 1 >= n)
      continue;
    memset(&mine, 0, sizeof mine);
    for (r = a; r < a + 4; r++)
      if (!rs_has(&g->memres, r) && !rs_has(&g->livein[f + 1], r)) rs_add(&mine, r);
    for (pc = 0; pc < n && ok; pc++) {   /* no way in but FORPREP */
      int j;
      if (pc >= q && pc <= f) continue;
      succs(g, pc, s2);
      for (j = 0; j < 2; j++) if (s2[j] > q && s2[j] <= f) ok = 0;
    }
    for (pc = q + 1; pc <= f && ok; pc++) {
      RegSet need;
      needed_at(g, pc, &need);
      rs_or(&need, &g->liveout[pc]);
      for (r = a; r < a + 4; r++)
        if (rs_has(&need, r) && regty(g, pc, r) != TY_INT) mine.w[r >> 6] &= ~((uint64_t)1 << (r & 63));
      if (g->split != NULL)   /* an enclosing loop's already (not for Lua's code) */
        for (r = a; r < a + 4; r++)
          if (rs_has(&g->split[pc], r)) ok = 0;
    }
    if (!ok || (mine.w[0] | mine.w[1] | mine.w[2] | mine.w[3]) == 0) continue;
    if (g->split == NULL && (g->split = (RegSet *)calloc((size_t)n + 1, sizeof(RegSet))) == NULL) return;
    for (pc = q + 1; pc <= f; pc++) rs_or(&g->split[pc], &mine);
  }
}

static void numonly(Gen *g) {
  int pc, r, n = g->p->sizecode;
  uint8_t tmp[256];
  RegSet fr, notint, across;
  if (!JIT_SSA_NUMBERS_ONLY) return;
  forregs(g, &fr);
  callsurvivors(g, &across);
  memset(&notint, 0, sizeof notint);
  limitwin(g, &fr);
  forsplit(g);
  for (pc = 0; pc < n; pc++) {
    RegSet need;
    /* Live out with the type before the instruction: a register that an
    ** instruction writes while it holds something else (a temporary that
    ** a load fills, a table or call result before) stays in the stack.
    ** Letting such registers into SSA (the types after the write) put
    ** every speculated load's register in SSA and measured worse: nbody
    ** -j on 8.4 -> 8.9 G, -j eager 10.5 -> 12.4 G, fannkuch 6.2 -> 7.0 G
    ** (they are flushed, reloaded and checked around every call). */
    RegSet out = g->liveout[pc];
    int a = fltdef(g, pc, tmp);
    /* but a float result of arithmetic may replace anything: else a
    ** temporary that once held a table, or any register the function's
    ** start knows nothing about, kept float expressions in the stack,
    ** boxed at every step.  (Integer results too measured worse: -j
    ** eager fannkuch 6.55 -> 7.35 G, nbody 10.3 -> 11.2 G.) */
    if (a >= 0 && a < g->nregs) out.w[a >> 6] &= ~((uint64_t)1 << (a & 63));
    /* so may an integer loaded or computed into a loop's registers, and
    ** FORPREP's writes of all four */
    a = fordef(g, pc, tmp, &fr);
    if (a >= 0) out.w[a >> 6] &= ~((uint64_t)1 << (a & 63));
    /* and so may any number (arithmetic, moves, speculated loads) written into
    ** a register that never lives across a call: the cost measured above
    ** was the flushes, reloads and checks around calls; without them a
    ** temporary such as life's neighbour sum or its `% W` indices was
    ** boxed and stored at every step */
    a = numdef(g, pc, tmp);
    if (a >= 0 && !rs_has(&across, a)) out.w[a >> 6] &= ~((uint64_t)1 << (a & 63));
    if (GET_OPCODE(g->p->code[pc]) == OP_FORPREP && rs_has(&fr, GETARG_A(g->p->code[pc])))
      for (r = GETARG_A(g->p->code[pc]); r < GETARG_A(g->p->code[pc]) + 4; r++)
        out.w[r >> 6] &= ~((uint64_t)1 << (r & 63));
    needed_at(g, pc, &need);
    rs_or(&need, &out);
    if (g->win != NULL)   /* in the stack there */
      for (r = 0; r < 4; r++) need.w[r] &= ~g->win[pc].w[r];
    if (g->split != NULL)   /* in their loop's home there */
      for (r = 0; r < 4; r++) need.w[r] &= ~g->split[pc].w[r];
    for (r = 0; r < g->nregs; r++) {
      int t = g->types[(size_t)pc * g->nregs + r];
      if (t != TY_NONE && (t & ~TY_NUM) != 0 && rs_has(&need, r))
        rs_add(&g->memres, r);
      if (t != TY_NONE && t != TY_INT && rs_has(&need, r))
        notint.w[r >> 6] |= (uint64_t)1 << (r & 63);
    }
    /* TFORCALL copies the iterator, its state and the control value into
    ** R[A+4..A+6] for the call, words the types never see (they are dead
    ** before and consumed by the call): a raw integer register there
    ** would decode them (setreg) and the flush box them again, so that
    ** pairs' first control, nil, reached 'next' as the integer 2 when
    ** R[A+6] was a finished for loop's register */
    if (GET_OPCODE(g->p->code[pc]) == OP_TFORCALL)
      for (r = GETARG_A(g->p->code[pc]) + 4; r < GETARG_A(g->p->code[pc]) + 7 && r < g->nregs; r++)
        notint.w[r >> 6] |= (uint64_t)1 << (r & 63);
  }
  for (r = 0; r < 4; r++)
    g->rawint.w[r] = fr.w[r] & ~notint.w[r] & ~g->memres.w[r];
}

/* the known type of R[r] at the start of instruction 'pc' */
static int regty(Gen *g, int pc, int r) {
  int t;
  if (g->types == NULL || r >= g->nregs) return TY_ANY;
  t = g->types[(size_t)pc * g->nregs + r];
  return t == TY_NONE ? TY_ANY : t;
}

/* ---------------------------------------------------------------------
** Small IR builders
** --------------------------------------------------------------------- */

#define B_ (g->B)

static LLVMValueRef ci64(Gen *g, uint64_t v) { return LLVMConstInt(g->i64, v, 0); }
static LLVMValueRef ci32(Gen *g, int v) { return LLVMConstInt(g->i32, (unsigned long long)(long long)v, 1); }

/* a non-reference constant word as a Value */
static LLVMValueRef cword(Gen *g, Value w) {
  return LLVMConstIntToPtr(ci64(g, w), g->p1);
}

/* a raw (addrspace 0) pointer to host memory that never moves */
static LLVMValueRef craw(Gen *g, const void *addr) {
  return LLVMConstIntToPtr(ci64(g, (uint64_t)(uintptr_t)addr), g->p0);
}

static LLVMValueRef byteptr(Gen *g, LLVMValueRef base, size_t off) {
  LLVMValueRef idx = ci64(g, off);
  return LLVMBuildGEP2(B_, g->i8, base, &idx, 1, "");
}

static LLVMValueRef tb(Gen *g, LLVMValueRef memop, LLVMValueRef tag);

static void reload_base(Gen *g) {
  LLVMValueRef func = tb(g, LLVMBuildLoad2(B_, g->p0, byteptr(g, g->ci, offsetof(CallInfo, func)), "func"),
                         g->tb_frame);
  LLVMBuildStore(B_, byteptr(g, func, sizeof(Value)), g->basevar);
}

/* TBAA: VM-stack slots, heap memory (table parts, upvalues), the frame
** record (CallInfo) and the card table are disjoint, so a store into a
** table does not force a reload of a stack slot and a flush store that
** writes back the value just loaded can be dropped.
**   Inside "heap", two disjoint children: "object field" (fixed fields of
** objects: the tt byte, a table's flags, lsizenode, node, asize, array,
** metatable, lenhint) and "heap value" (the words of table node arrays
** and array parts, keys and values, the cells gcwrite stores into), so
** the store of a field's value does not make the next access to the table
** load its type, node array and mask again.  A third child, "upvalue
** cell", is the value an upvalue holds (UpVal.v points at it: the UpVal's
** own word when closed, an enclosing frame's stack slot when open), so
** table stores do not make the next GETUPVAL load it again; the chain to
** it (LClosure.upvals[i], UpVal.v) is "object field" (upvalchain).
** Sound because no compiled code accesses a location under two of them
** (a node array, an array part or an upvalue cell is never an object's
** fixed fields; an open upvalue's slot belongs to an enclosing frame,
** which this code does not store into); what is still tagged "heap"
** aliases all three.  Memory changes its
** use only inside calls (collections, rehashes), which clobber all. */
static LLVMMetadataRef tbaa_type(Gen *g, LLVMMetadataRef parent, const char *name) {
  LLVMMetadataRef ops[3];
  ops[0] = LLVMMDStringInContext2(g->C, name, strlen(name));
  ops[1] = parent;
  ops[2] = LLVMValueAsMetadata(ci64(g, 0));
  return LLVMMDNodeInContext2(g->C, ops, 3);
}
static LLVMValueRef tbaa_tag(Gen *g, LLVMMetadataRef ty) {
  LLVMMetadataRef ops[3];
  ops[0] = ty; ops[1] = ty;
  ops[2] = LLVMValueAsMetadata(ci64(g, 0));
  return LLVMMetadataAsValue(g->C, LLVMMDNodeInContext2(g->C, ops, 3));
}
static LLVMValueRef tbaa_node(Gen *g, LLVMMetadataRef root, const char *name) {
  return tbaa_tag(g, tbaa_type(g, root, name));
}
static void tbaa_init(Gen *g) {
  LLVMMetadataRef nm = LLVMMDStringInContext2(g->C, "mvm tbaa", 8);
  LLVMMetadataRef root = LLVMMDNodeInContext2(g->C, &nm, 1);
  LLVMMetadataRef heap = tbaa_type(g, root, "heap");
  g->tbaa_kind = LLVMGetMDKindIDInContext(g->C, "tbaa", 4);
  g->tb_stack = tbaa_node(g, root, "vm stack");
  g->tb_heap = tbaa_tag(g, heap);
  g->tb_field = tbaa_node(g, heap, "object field");
  g->tb_value = tbaa_node(g, heap, "heap value");
  g->tb_upval = tbaa_node(g, heap, "upvalue cell");
  g->tb_frame = tbaa_node(g, root, "callinfo");
  g->tb_card = tbaa_node(g, root, "card");
  g->tb_hint = tbaa_node(g, root, "slot hint");
}
static LLVMValueRef tb(Gen *g, LLVMValueRef memop, LLVMValueRef tag) {
  LLVMSetMetadata(memop, g->tbaa_kind, tag);
  return memop;
}
static LLVMValueRef hload(Gen *g, LLVMTypeRef ty, LLVMValueRef ptr, const char *nm) {
  return tb(g, LLVMBuildLoad2(B_, ty, ptr, nm), g->tb_heap);
}
/* field 'off' of object 'obj' (tbaa "object field") */
static LLVMValueRef ofield(Gen *g, LLVMTypeRef ty, LLVMValueRef obj, size_t off, const char *nm) {
  LLVMValueRef o = ci64(g, off);
  return tb(g, LLVMBuildLoad2(B_, ty, LLVMBuildGEP2(B_, g->i8, obj, &o, 1, ""), nm), g->tb_field);
}
/* a word of a table part (tbaa "heap value") */
static LLVMValueRef vload(Gen *g, LLVMTypeRef ty, LLVMValueRef ptr, const char *nm) {
  return tb(g, LLVMBuildLoad2(B_, ty, ptr, nm), g->tb_value);
}

static LLVMValueRef regptr(Gen *g, int r) {
  LLVMValueRef base = LLVMBuildLoad2(B_, g->p0, g->basevar, "base");
  LLVMValueRef idx = ci64(g, (uint64_t)r);
  return LLVMBuildGEP2(B_, g->i64, base, &idx, 1, "");
}

/* base[r] itself */
static LLVMValueRef stackload(Gen *g, int r) {
  return tb(g, LLVMBuildLoad2(B_, g->p1, regptr(g, r), ""), g->tb_stack);
}
/* NOBARRIER: stores into the VM stack, a root scanned in full */
static void stackstore(Gen *g, int r, LLVMValueRef v) {
  tb(g, LLVMBuildStore(B_, v, regptr(g, r)), g->tb_stack);
}

/* SSA registers (regvar) are i64 words: with JIT_SSA_NUMBERS_ONLY they
** hold numbers wherever they may be read (numonly: live, active locals),
** which are never references, so they need not be gc pointers: nothing
** is spilled and relocated for them at statepoints, and a float's boxing
** (an add) and unboxing (a sub) meet in the same integer and fold away.
** Whatever else is stored in one (a dead register) is never read back. */
static LLVMTypeRef regty_ir(Gen *g) {
  return JIT_SSA_NUMBERS_ONLY ? g->i64 : g->p1;
}

static LLVMValueRef sext48(Gen *g, LLVMValueRef r);
static LLVMValueRef mkint(Gen *g, LLVMValueRef r);
/* Raw integers: an SSA register of a numeric for loop that holds an
** integer wherever it may be read (numonly: rawint) keeps the int64
** itself rather than its boxed word, so the loop's increment, count and
** tests need no decoding and boxing at every iteration; readers of the
** word box it (exact: an integer immediate fits 48 bits).  Whatever else
** is stored in one (a dead register) is never read back; boxing its bits
** still gives a valid value should a flush store it. */
/* the homes of the registers at 'pc' (-1: outside every loop; forsplit) */
static void applysplit(Gen *g, int pc) {
  int r;
  if (g->split == NULL) return;
  for (r = 0; r < g->nregs; r++) {
    int in = pc >= 0 && rs_has(&g->split[pc], r);
    g->regvar[r] = in ? g->loopvar[r] : g->homevar[r];
    if (in || rs_has(&g->homeraw, r)) rs_add(&g->rawint, r);
    else g->rawint.w[r >> 6] &= ~((uint64_t)1 << (r & 63));
  }
}
/* R[r] is in its stack slot at the instruction being emitted (limitwin) */
static int inwin(Gen *g, int r) {
  return g->win != NULL && g->inbody && rs_has(&g->win[g->curpc], r);
}
static LLVMValueRef getreg(Gen *g, int r) {
  LLVMValueRef v;
  if (g->pendval != NULL && g->curpc == g->pendpc && r == g->pendreg && !g->pendset) return g->pendval;
  if (g->regvar[r] == NULL || inwin(g, r)) return stackload(g, r);
  if (rs_has(&g->rawint, r)) return mkint(g, LLVMBuildLoad2(B_, g->i64, g->regvar[r], ""));
  v = LLVMBuildLoad2(B_, regty_ir(g), g->regvar[r], "");
  return JIT_SSA_NUMBERS_ONLY ? LLVMBuildIntToPtr(B_, v, g->p1, "") : v;
}

static LLVMValueRef getflt(Gen *g, LLVMValueRef b);
/* R[r]'s flag (fokregs): 1 when its double is its value */
static void fokset(Gen *g, int r, int v) {
  if (g->fokvar != NULL && r < g->nregs && g->fokvar[r] != NULL)
    LLVMBuildStore(B_, LLVMConstInt(g->i1, (unsigned long long)v, 0), g->fokvar[r]);
}
/* is a write of R[r] here one to its stack slot? */
static int stackwrite(Gen *g, int r) {
  return g->regvar[r] == NULL || (inwin(g, r) && GET_OPCODE(g->p->code[g->curpc]) != OP_FORPREP);
}
static void setreg(Gen *g, int r, LLVMValueRef v) {
  if (g->pendval != NULL && g->curpc == g->pendpc && r == g->pendreg) g->pendset = 1;
  if (stackwrite(g, r)) stackstore(g, r, v);
  else if (rs_has(&g->rawint, r))
    LLVMBuildStore(B_, sext48(g, LLVMBuildPtrToInt(B_, v, g->i64, "")), g->regvar[r]);
  else LLVMBuildStore(B_, JIT_SSA_NUMBERS_ONLY ? LLVMBuildPtrToInt(B_, v, g->i64, "") : v,
                      g->regvar[r]);
  if (g->fvar != NULL && g->fvar[r] != NULL)   /* dead unless read */
    LLVMBuildStore(B_, getflt(g, LLVMBuildPtrToInt(B_, v, g->i64, "")), g->fvar[r]);
  fokset(g, r, 0);
}

/* Unboxed floats.  A register in SSA that is TY_FLT at some instruction
** also has a double alloca, fvar[r], kept equal to the float in regvar[r]
** by every write (setreg stores the decoded word, setdbl the double and
** its boxed word).  Where R[r] is TY_FLT, readers of a number take the
** double (fltreg), and so do flushes, which box it there (flushat): the
** word in regvar[r] is then dead and sroa drops it with its boxing, so
** float chains and loop phis are doubles, boxed (one add, boxdbl) only
** where they leave SSA.  Elsewhere the word is read, as before.  A reader
** must use the types at the point it reads: before 'pc' writes anything
** (operands, exits at pc), or those of the successor once it has.
**   A register in the VM stack only because it holds something else
** elsewhere (numonly) has a double too, a copy of its slot where it is
** TY_FLT: every write of a float to the slot stores it (setreg, setdbl),
** and so do loads whose helper wrote the slot (loaddone), reloads after
** calls and at resume points; captured registers never are TY_FLT.
** Float writes that nothing reads through the slot skip it ("Lazy
** slots"). */
static int isfltvar(Gen *g, int pc, int r) {
  return g->fvar != NULL && r < g->nregs && g->fvar[r] != NULL && regty(g, pc, r) == TY_FLT;
}
/* the double in R[r] at pc, or NULL when it is not known to be a float */
static LLVMValueRef fltreg(Gen *g, int pc, int r) {
  return isfltvar(g, pc, r) ? LLVMBuildLoad2(B_, g->f64, g->fvar[r], "") : NULL;
}
static LLVMValueRef boxdbl(Gen *g, LLVMValueRef d);
/* R[r]'s word at pc (a float boxed from its double) */
static LLVMValueRef getregat(Gen *g, int pc, int r) {
  LLVMValueRef d = fltreg(g, pc, r);
  return d != NULL ? boxdbl(g, d) : getreg(g, r);
}
/* bits of number operand R[r] at pc: a float boxed from its double (the
** boxing's add and getflt's sub fold away) */
static LLVMValueRef opnd(Gen *g, int pc, int r) {
  LLVMValueRef d = fltreg(g, pc, r);
  return LLVMBuildPtrToInt(B_, d != NULL ? boxdbl(g, d) : getreg(g, r), g->i64, "");
}
/* R[r] := double d, computed by compiled code (boxdbl) */
static void setdbl(Gen *g, int r, LLVMValueRef d) {
  if (g->fvar == NULL || g->fvar[r] == NULL) {
    setreg(g, r, boxdbl(g, d));
    return;
  }
  if (g->regvar[r] == NULL && g->slotout != NULL && !rs_has(&g->slotout[g->curpc], r)) {
    LLVMBuildStore(B_, d, g->fvar[r]);   /* lazy: flushat writes the slot */
    fokset(g, r, 1);
    return;
  }
  if (stackwrite(g, r)) stackstore(g, r, boxdbl(g, d));
  else if (rs_has(&g->rawint, r)) LLVMBuildStore(B_, ci64(g, 0), g->regvar[r]);   /* never read */
  else LLVMBuildStore(B_, LLVMBuildPtrToInt(B_, boxdbl(g, d), g->i64, ""), g->regvar[r]);
  LLVMBuildStore(B_, d, g->fvar[r]);
  fokset(g, r, 1);
}

/* the double of a register in the VM stack from its slot (setdbl) */
static void fltcopy(Gen *g, int r) {
  fokset(g, r, 0);   /* the slot may hold anything (reload) */
  if (g->regvar[r] == NULL && g->fvar != NULL && g->fvar[r] != NULL)
    LLVMBuildStore(B_, getflt(g, LLVMBuildPtrToInt(B_, stackload(g, r), g->i64, "")), g->fvar[r]);
}

/* write the SSA registers of 's' back to the VM stack, with the types at
** 'pc' (floats boxed from their doubles) */
static void flushat(Gen *g, int pc, const RegSet *s) {
  int r;
  for (r = 0; r < g->nregs; r++)
    /* SSA registers, and lazy ones whose slot may be behind */
    if (rs_has(s, r) && (g->regvar[r] != NULL || (rs_has(&g->lazy, r) && isfltvar(g, pc, r))))
      stackstore(g, r, getregat(g, pc, r));
}
/* read the registers of 's' from the VM stack again */
static void reload(Gen *g, const RegSet *s) {
  int r;
  for (r = 0; r < g->nregs; r++)
    if (rs_has(s, r) && g->regvar[r] != NULL) setreg(g, r, stackload(g, r));
    else if (rs_has(s, r)) fltcopy(g, r);
}

/* around a call that performs instruction 'pc' and may collect, raise
** errors or run Lua code: before it, the VM stack gets every register
** the callee or the interpreter may read ('extra': operands not live
** into pc, such as TFORCALL's copies); after it, registers it may have
** written are read back (and the others when the frame's trap is set:
** see reload_after_call) */
static int regty(Gen *g, int pc, int r);
static void flushset(Gen *g, int pc, RegSet *s) {
  int r;
  needed_at(g, pc, s);
  /* registers live out only (the instruction writes them): only those
  ** that are numbers already; an SSA register (an i64) that is neither
  ** needed nor a number here may hold stale bits of a dead reference */
  for (r = 0; r < g->nregs; r++)
    if (rs_has(&g->liveout[pc], r) &&
        (rs_has(&g->memres, r) || (regty(g, pc, r) & ~TY_NUM) == 0))
      rs_add(s, r);
}
/* Reloaded after a call: what it may write, and (JIT_RELOAD_AFTER_CALLS)
** every register live after it.  An active local that is not live need
** not be read back: it was flushed (or clean) before the call, so its
** slot holds the (relocated) value and, being clean, it is not flushed
** again before it is written. */
static void reloadset(Gen *g, int pc, RegSet *s) {
  maydef(g, pc, s);
#if JIT_RELOAD_AFTER_CALLS
  rs_or(s, &g->liveout[pc]);
#endif
}
static void flush_for_call(Gen *g, int pc, const RegSet *extra) {
  RegSet s;
  flushset(g, pc, &s);
  only_dirty(g, pc, &s);
  if (extra) rs_or(&s, extra);
  flushat(g, pc, &s);
  if (g->pendval != NULL && pc == g->pendpc) stackstore(g, g->pendreg, g->pendval);
}
/* A register in SSA holds a number wherever it may be read (numonly), so
** it is an i64 word the collector does not see.  What it reads back after
** a call that did not write it is a number unless debug.setlocal (from a
** callee or a hook) stored something else in its slot: then it keeps its
** value (a reference would go stale in an i64), so such a change is not
** seen by the compiled code.  Changes to other numbers are. */
/* Registers the call did not write are read back only when the frame's
** trap is set: lua_setlocal sets it (vm/debug.c), so does a stack
** reallocation or a hook being set (settraps); otherwise the stack slots
** still hold what was flushed.  Compiled code clears the trap once it has
** read everything back: the interpreter, should it take the frame over,
** decides on hooks from L->hookmask and reloads its base itself. */
/* The trap case of reload_after_call, where its instruction is complete
** after the call and savedpc is the next one to run (helper_only, CALL):
** rather than code reading every live register back at each call (a
** fifth of the IR of a function such as nbody's advance), the frame goes
** back to the interpreter, for which the VM stack holds everything (all
** live registers were flushed before the call, as for the exit after a
** call that turned hooks on).  One block per function, also where an
** OSR entry into a loop fails forentrycheck (nothing done yet, the interpreter
** simply goes on at savedpc). */
static LLVMBasicBlockRef trapret(Gen *g) {
  if (g->trapret == NULL) {
    LLVMBasicBlockRef cur = LLVMGetInsertBlock(B_);
    g->trapret = LLVMAppendBasicBlockInContext(g->C, g->fn, "trapexit");
    LLVMPositionBuilderAtEnd(B_, g->trapret);
    LLVMBuildRet(B_, ci32(g, JIT_EXITED));
    LLVMPositionBuilderAtEnd(B_, cur);
  }
  return g->trapret;
}

static void reload_after_call(Gen *g, int pc) {
  RegSet s, d;
  int r, pass, others = 0;
  LLVMBasicBlockRef all = NULL, cont = NULL;
  reloadset(g, pc, &s);
  maydef(g, pc, &d);
  /* pass 0: what it may have written; pass 1: the others */
  for (pass = 0; pass < 2; pass++)
  for (r = 0; r < g->nregs; r++) {
    LLVMValueRef v, old;
    int t = regty(g, pc, r);
    /* SSA registers, and stack registers with a double copy (fltcopy) */
    if (!rs_has(&s, r) || rs_has(&d, r) != (pass == 0)) continue;
    if (g->regvar[r] == NULL && (g->fvar == NULL || g->fvar[r] == NULL)) continue;
    if (pass == 1 && others++ == 0) {   /* the first one: test the trap */
      LLVMValueRef trap = tb(g, LLVMBuildLoad2(B_, g->i32, byteptr(g, g->ci, offsetof(CallInfo, u.l.trap)),
                                               "trap"), g->tb_frame);
      if (g->trapexit) {   /* the rare case leaves: see trapexit() */
        LLVMSetVolatile(trap, 1);
        cont = LLVMAppendBasicBlockInContext(g->C, g->fn, "notrap");
        LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntNE, trap, ci32(g, 0), ""), trapret(g), cont);
        LLVMPositionBuilderAtEnd(B_, cont);
        return;
      }
      all = LLVMAppendBasicBlockInContext(g->C, g->fn, "reloadall");
      cont = LLVMAppendBasicBlockInContext(g->C, g->fn, "reloaded");
      LLVMSetVolatile(trap, 1);
      LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntNE, trap, ci32(g, 0), ""), all, cont);
      LLVMPositionBuilderAtEnd(B_, all);
    }
    fltcopy(g, r);
    if (g->regvar[r] == NULL) continue;
    v = stackload(g, r);
    if (JIT_SSA_NUMBERS_ONLY && !rs_has(&d, r) && t != TY_ANY) {
      old = getregat(g, pc, r);
      v = LLVMBuildSelect(B_, hasty(g, bits(g, v), t), v, old, "");
    }
    setreg(g, r, v);
  }
  if (others) {
    tb(g, LLVMBuildStore(B_, ci32(g, 0), byteptr(g, g->ci, offsetof(CallInfo, u.l.trap))), g->tb_frame);
    LLVMBuildBr(B_, cont);
    LLVMPositionBuilderAtEnd(B_, cont);
  }
  else if (g->tabtrap && g->trapexit) {   /* nothing to reload, but known tables (tabknown) */
    LLVMValueRef trap = tb(g, LLVMBuildLoad2(B_, g->i32, byteptr(g, g->ci, offsetof(CallInfo, u.l.trap)),
                                             "trap"), g->tb_frame);
    LLVMSetVolatile(trap, 1);
    cont = LLVMAppendBasicBlockInContext(g->C, g->fn, "notrap");
    LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntNE, trap, ci32(g, 0), ""), trapret(g), cont);
    LLVMPositionBuilderAtEnd(B_, cont);
  }
}

static void countexit(Gen *g);


static LLVMValueRef getfn(Gen *g, const char *name, LLVMTypeRef ty, int leaf);
static LLVMValueRef slotlist(Gen *g, const uint16_t *list, int n, const char *nm);
static LLVMValueRef readonlyfn(Gen *g, LLVMValueRef f);
static LLVMBasicBlockRef resumefail(Gen *g) {
  if (g->resumefail == NULL) {   /* one for all entries */
    LLVMBasicBlockRef cur = LLVMGetInsertBlock(B_);
    g->resumefail = LLVMAppendBasicBlockInContext(g->C, g->fn, "resumefail");
    LLVMPositionBuilderAtEnd(B_, g->resumefail);
    countexit(g);
    LLVMBuildRet(B_, ci32(g, JIT_EXITED));
    LLVMPositionBuilderAtEnd(B_, cur);
  }
  return g->resumefail;
}
/* has resumeguards checked that R[r] has type t at entry pc (in its
** call, or inline at pc 0: checked all the same)? */
static int resumechecked(Gen *g, int pc, int r, int t) {
  RegSet need;
  int q, n = 0;
  if (!specentries(g) || regty(g, pc, r) != t) return 0;
  needed_at(g, pc, &need);
  if (!rs_has(&need, r)) return 0;
  for (q = 0; q < g->nregs; q++) n += regty(g, pc, q) != TY_ANY && rs_has(&need, q);
  return n >= 2;
}

/* With speculation the types at an entry point are those of the compiled
** paths into it (tyanalyse): entering there checks them for every live
** register and, if one differs (the interpreter got there another way, a
** speculated value changed), leaves at once; nothing has been written yet,
** so the interpreter simply continues at 'pc'.  Counted as a failed
** speculation. */
/* Two or more checks at an entry point are one call of the leaf
** mvmrt_resumeok over a constant list (slot << 2 | 1 an integer, 2 a
** float, 3 any number; jit.h JIT_EXITBOX_END) and one branch: inline, a
** float's test is 4 IR instructions and a block, a number's 6, an
** integer's 2, and an entry checks every typed register live there (OSR
** entries into float loops: a sixth of mandelbrot's IR).  One check stays
** inline.  The call hides from LLVM what it checked: forentrycheck does
** not test those integers again (resumechecked).  The register allocation
** of the loops entered there changes (docs/decisions/0016 "Session 9:
** resume IR": run -3.4..+1.0%; keeping integers or integer-only entries
** inline moved nbody +2..4%). */
static void istable(Gen *g, LLVMValueRef v, LLVMValueRef b, LLVMBasicBlockRef yes,
                    LLVMBasicBlockRef no);
/* is R[r] known to hold a table at entry point 'pc' (tabknown: the
** start knows nothing), which its resume block then checks? */
static int entrytab(Gen *g, int pc, int r) {
  return g->tabin != NULL && rs_has(&g->tabin[pc], r);
}
/* (At pc 0, the entry of every call but a typed self call's, up to
** RESUME_INLINE checks stay inline: they are a function's parameters,
** and the call of mvmrt_resumeok for two integer parameters was 27% of
** a recursive Ackermann's run.) */
#define RESUME_INLINE 4
static void resumeguards(Gen *g, int pc) {
  int r, n = 0, most = pc == 0 ? RESUME_INLINE : 1;
  uint16_t list[MAXREGS + 1];
  RegSet need;   /* what may be read before it is written (numonly) */
  LLVMBasicBlockRef ok;
  if (!specentries(g) || g->noguards) return;
  needed_at(g, pc, &need);
  for (r = 0; r < g->nregs; r++)
    if (regty(g, pc, r) != TY_ANY && rs_has(&need, r))
      list[n++] = (uint16_t)(r << 2 | (regty(g, pc, r) == TY_INT ? 1 : regty(g, pc, r) == TY_FLT ? 2 : 3));
    else if (entrytab(g, pc, r) && rs_has(&need, r))
      list[n++] = (uint16_t)(r << 2);   /* a table (tabknown) */
  for (r = 0; r < g->nregs; r++) {
    int t = regty(g, pc, r);
    if (!rs_has(&need, r) || n > most || (t == TY_ANY && !entrytab(g, pc, r))) continue;
    ok = LLVMAppendBasicBlockInContext(g->C, g->fn, "resumeok");
    if (t == TY_ANY) {   /* a table */
      LLVMValueRef v = stackload(g, r);
      istable(g, v, bits(g, v), ok, resumefail(g));
      continue;
    }
    /* the word in the stack: a raw integer register (rawint) has lost its tag */
    LLVMBuildCondBr(B_, hasty(g, bits(g, stackload(g, r)), t), ok, resumefail(g));
    LLVMPositionBuilderAtEnd(B_, ok);
  }
  if (n > most) {
    LLVMTypeRef params[2], ty;
    LLVMValueRef args[2], c;
    params[0] = params[1] = g->p0;
    ty = LLVMFunctionType(g->i32, params, 2, 0);
    args[0] = regptr(g, 0); args[1] = slotlist(g, list, n, "resumeok");
    c = LLVMBuildCall2(B_, ty, readonlyfn(g, getfn(g, "mvmrt_resumeok", ty, 1)), args, 2, "");
    ok = LLVMAppendBasicBlockInContext(g->C, g->fn, "resumeok");
    LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntNE, c, ci32(g, 0), ""), ok, resumefail(g));
    LLVMPositionBuilderAtEnd(B_, ok);
  }
}

/* An integer for loop whose only entry point is its header (no call in
** its body that the interpreter could finish, no inner loop) runs FORLOOP
** without the test that the next index fits 48 bits (forloop).  Entered at
** the header, it takes its state from the VM stack as the interpreter left
** it (OSR): that test can be left out only when the index, count and step
** are integer immediates with index + count * step an immediate too (or a
** negative count: FORLOOP leaves at once); anything else (a count the
** interpreter made from a limit past the immediates, floats, a changed
** "(for state)") goes back to the interpreter at once, which continues at
** the header (not counted as a failed speculation).  Outer loops keep the
** test: checking their state at every inner entry point cost more LLVM
** work than the test (bench/osr.lua). */
static int foronlyheader(Gen *g, int prep) {
  int q, f = prep + 1 + GETARG_Bx(g->p->code[prep]);
  for (q = prep + 2; q <= f && q < g->p->sizecode; q++)
    if (g->entry[q]) return 0;
  return 1;
}
static LLVMValueRef isint(Gen *g, LLVMValueRef b);
static LLVMValueRef fits48(Gen *g, LLVMValueRef r);
static void forentrycheck(Gen *g, int pc) {
  int q = pc - 1, a, r;
  Instruction i;
  LLVMValueRef w[3], ok, last, wide;
  LLVMBasicBlockRef in;
  if (q < 0) return;
  i = g->p->code[q];
  a = GETARG_A(i);
  if (GET_OPCODE(i) != OP_FORPREP || fltloop(g, q) || a + 3 > g->nregs || !foronlyheader(g, q))
    return;
  ok = LLVMConstInt(g->i1, 1, 0);
  for (r = 0; r < 3; r++) {
    w[r] = bits(g, stackload(g, a + r));
    if (!resumechecked(g, pc, a + r, TY_INT)) ok = LLVMBuildAnd(B_, ok, isint(g, w[r]), "");
  }
  for (r = 0; r < 3; r++) w[r] = LLVMBuildSExt(B_, sext48(g, w[r]), g->i128, "");
  last = LLVMBuildAdd(B_, w[0], LLVMBuildMul(B_, w[1], w[2], ""), "");
  wide = LLVMBuildICmp(B_, LLVMIntEQ, LLVMBuildSExt(B_, LLVMBuildTrunc(B_, last, g->i64, ""), g->i128, ""),
                       last, "");
  wide = LLVMBuildAnd(B_, wide, fits48(g, LLVMBuildTrunc(B_, last, g->i64, "")), "");
  ok = LLVMBuildAnd(B_, ok, LLVMBuildOr(B_, wide, LLVMBuildICmp(B_, LLVMIntSLT,
                       LLVMBuildTrunc(B_, w[1], g->i64, ""), ci64(g, 0), ""), ""), "forok");
  in = LLVMAppendBasicBlockInContext(g->C, g->fn, "forentry");
  LLVMBuildCondBr(B_, ok, in, trapret(g));
  LLVMPositionBuilderAtEnd(B_, in);
}

/* a block loading every SSA register from the VM stack, then going on at
** 'pc': the entry, and each point where compiled code resumes (every VM
** stack slot holds a valid value, so all can be read) */
static LLVMBasicBlockRef resumeblock(Gen *g, int pc) {
  LLVMBasicBlockRef cur = LLVMGetInsertBlock(B_);
  LLVMBasicBlockRef b = LLVMAppendBasicBlockInContext(g->C, g->fn, "resume");
  RegSet all;
  memset(&all, 0, sizeof all);
  rs_range(&all, 0, g->nregs);
  LLVMPositionBuilderAtEnd(B_, b);
  applysplit(g, pc);
  reload(g, &all);
  resumeguards(g, pc);
  forentrycheck(g, pc);
  applysplit(g, -1);
  LLVMBuildBr(B_, g->bb[pc]);
  LLVMPositionBuilderAtEnd(B_, cur);
  return b;
}

static void set_savedpc(Gen *g, int pc) {
  tb(g, LLVMBuildStore(B_, craw(g, g->p->code + pc),
                       byteptr(g, g->ci, offsetof(CallInfo, u.l.savedpc))), g->tb_frame);
}

/* tag test and payload: the only uses of ptrtoint */
static LLVMValueRef bits(Gen *g, LLVMValueRef v) {
  return LLVMBuildPtrToInt(B_, v, g->i64, "");
}
static LLVMValueRef isint(Gen *g, LLVMValueRef b) {
  return LLVMBuildICmp(B_, LLVMIntUGE, b, ci64(g, MVM_TAG_INT), "isint");
}
static LLVMValueRef sext48(Gen *g, LLVMValueRef x) {
  return LLVMBuildAShr(B_, LLVMBuildShl(B_, x, ci64(g, 16), ""), ci64(g, 16), "");
}
static LLVMValueRef fits48(Gen *g, LLVMValueRef r) {
  return LLVMBuildICmp(B_, LLVMIntEQ, sext48(g, r), r, "fits");
}
/* an integer immediate from a payload known to fit */
static LLVMValueRef mkint(Gen *g, LLVMValueRef r) {
  LLVMValueRef w = LLVMBuildOr(B_, LLVMBuildAnd(B_, r, ci64(g, MVM_PAYLOAD), ""),
                               ci64(g, MVM_TAG_INT), "");
  return LLVMBuildIntToPtr(B_, w, g->p1, "");
}

/* An exit's flush (flushat's): the numbers it writes go to their slots
** raw, a double's bits or an int64, and one call of the leaf
** mvmrt_exitbox boxes them there from a constant list (jit.h
** JIT_EXITBOX_END).  Boxing each inline took 3 of the ~4 IR instructions
** per register, and an exit flushes every dirty register live at its pc:
** a quarter of mandelbrot's IR was exits (one of 78 instructions for 19
** registers), and code generation costs about the same per instruction
** in cold code as in hot.  Words (SSA registers that are not raw, and
** lazy ones) are stored as they are. */
/* a constant module global: the n uint16 of 'list', then JIT_EXITBOX_END */
static LLVMValueRef slotlist(Gen *g, const uint16_t *list, int n, const char *nm) {
  LLVMTypeRef i16 = LLVMInt16TypeInContext(g->C);
  LLVMValueRef el[MAXREGS + 1], gv;
  int i;
  for (i = 0; i < n; i++) el[i] = LLVMConstInt(i16, list[i], 0);
  el[n] = LLVMConstInt(i16, JIT_EXITBOX_END, 0);
  gv = LLVMAddGlobal(g->M, LLVMArrayType(i16, (unsigned)n + 1), nm);
  LLVMSetInitializer(gv, LLVMConstArray(i16, el, (unsigned)n + 1));
  LLVMSetLinkage(gv, LLVMInternalLinkage);
  LLVMSetGlobalConstant(gv, 1);
  return gv;
}
/* Shared exit tails.  An exit's flush is a set of stores, each of one
** register's alloca (its double, raw integer or word) into its slot, read
** where the exit runs; so the same store is right in any exit whose set
** has it.  Exits made one after another in a region mostly differ by the
** registers written in between (nbody's advance: 70 exits, each storing
** the previous one's registers and one more, 35% of its IR), so an exit
** whose set contains an earlier exit's whole set stores only the
** difference and jumps into the earlier one's stores, which end in one
** mvmrt_exitbox and a return.  The exits' own parts set savedpc and the
** boxing list (exitlist, an alloca: sroa makes it a phi).  A set only
** ever extends one that is a subset: a store of a register dead or
** clean at the exit, or one kept elsewhere there (another alloca, its
** slot, a double where a word is), could write a stale value.
**   -j eager, callgrind, the 16 benchmarks: LLVM's instructions -3.2%
** (nbody -11%, osr -16%, word_count -5%, tables -4%), IR to code
** generation nbody -13%; the compiled code's +0.8% is register
** allocation moving with the cold code (fannkuch +2.5%, strings +4%,
** spectral_norm -2%).  Tried and not kept: savedpc and the count as phis (an
** exit's own part empty): IR nbody -20% but LLVM's instructions -6%
** only, phis costing more than the stores they replace. */
enum { XS_FLT, XS_RAW, XS_WORD, XS_VAL };
typedef struct ExitSlot { LLVMValueRef var; int r, kind; } ExitSlot;
typedef struct ExitTail { ExitSlot *s; int n; LLVMBasicBlockRef b; } ExitTail;

/* the stores of an exit at 'pc' for the registers of 's', in register
** order; 0 if one (a pending value: upvpend) is an SSA value that later
** exits may not see */
static int exitslots(Gen *g, int pc, const RegSet *s, ExitSlot *x, int *n) {
  int r, ok = 1;
  *n = 0;
  for (r = 0; r < g->nregs; r++) {
    ExitSlot e;
    if (!rs_has(s, r) || !(g->regvar[r] != NULL || (rs_has(&g->lazy, r) && isfltvar(g, pc, r))))
      continue;
    e.r = r;
    if (isfltvar(g, pc, r)) e.kind = XS_FLT, e.var = g->fvar[r];
    else if (rs_has(&g->rawint, r) && !inwin(g, r)) e.kind = XS_RAW, e.var = g->regvar[r];
    else if (g->pendval != NULL && g->curpc == g->pendpc && r == g->pendreg && !g->pendset)
      e.kind = XS_VAL, e.var = g->pendval, ok = 0;   /* (getreg's order) */
    else if (inwin(g, r)) continue;   /* in its slot already */
    else e.kind = XS_WORD, e.var = g->regvar[r];
    x[(*n)++] = e;
  }
  return ok;
}
static void exitstore(Gen *g, const ExitSlot *e) {
  LLVMValueRef v;   /* NOBARRIER: VM stack */
  switch (e->kind) {
    case XS_FLT: v = LLVMBuildLoad2(B_, g->f64, e->var, ""); break;
    case XS_RAW: v = LLVMBuildLoad2(B_, g->i64, e->var, ""); break;
    case XS_WORD: v = LLVMBuildLoad2(B_, regty_ir(g), e->var, ""); break;
    default: v = e->var; break;
  }
  tb(g, LLVMBuildStore(B_, v, regptr(g, e->r)), g->tb_stack);
}
/* is every store of 'a' one of 'b' (both in register order)? */
static int exitsubset(const ExitTail *a, const ExitSlot *b, int nb) {
  int i, j = 0;
  for (i = 0; i < a->n; i++) {
    while (j < nb && b[j].r < a->s[i].r) j++;
    if (j == nb || b[j].r != a->s[i].r || b[j].kind != a->s[i].kind || b[j].var != a->s[i].var)
      return 0;
  }
  return 1;
}
static int growtails(Gen *g) {
  int cap = g->captails ? 2 * g->captails : 16;
  ExitTail *t = (ExitTail *)realloc(g->tails, (size_t)cap * sizeof *t);
  if (t == NULL) return 0;
  g->tails = t;
  g->captails = cap;
  return 1;
}
/* the largest earlier tail whose stores 'x' has, or NULL */
static ExitTail *exitbase(Gen *g, const ExitSlot *x, int n) {
  ExitTail *best = NULL;
  int i;
  for (i = 0; i < g->ntails; i++)
    if (g->tails[i].n <= n && (best == NULL || g->tails[i].n >= best->n) && exitsubset(&g->tails[i], x, n))
      best = &g->tails[i];
  return best;
}
/* the boxing list of 'x' (JIT_EXITBOX_END), or a null pointer */
static LLVMValueRef exitlist(Gen *g, const ExitSlot *x, int n) {
  uint16_t list[MAXREGS + 1];
  int i, k = 0;
  for (i = 0; i < n; i++)
    if (x[i].kind == XS_FLT || x[i].kind == XS_RAW) list[k++] = (uint16_t)(x[i].r << 1 | (x[i].kind == XS_FLT));
  return k > 0 ? slotlist(g, list, k, "exitbox") : LLVMConstNull(g->p0);
}
/* the end of every chain: box the list, return */
static void exitend(Gen *g) {
  LLVMTypeRef params[2], ty;
  LLVMValueRef args[2];
  params[0] = params[1] = g->p0;
  ty = LLVMFunctionType(g->vd, params, 2, 0);
  args[0] = regptr(g, 0);
  args[1] = LLVMBuildLoad2(B_, g->p0, g->exitlist, "exitlist");
  LLVMBuildCall2(B_, ty, getfn(g, "mvmrt_exitbox", ty, 1), args, 2, "");
  LLVMBuildRet(B_, ci32(g, JIT_EXITED));
}
/* flush the dirty registers needed at pc, into a shared tail (above) */
static void exitflush(Gen *g, int pc, const RegSet *s) {
  ExitSlot x[MAXREGS];
  ExitTail *base, *t;
  int i, j = 0, n, keep = exitslots(g, pc, s, x, &n);
  LLVMBasicBlockRef tail;
  LLVMBuildStore(B_, exitlist(g, x, n), g->exitlist);
  set_savedpc(g, pc);
  base = keep ? exitbase(g, x, n) : NULL;
  tail = LLVMAppendBasicBlockInContext(g->C, g->fn, "exitflush");
  LLVMBuildBr(B_, tail);
  LLVMPositionBuilderAtEnd(B_, tail);
  for (i = 0; i < n; i++) {   /* the stores the base has not */
    if (base != NULL && j < base->n && base->s[j].r == x[i].r) { j++; continue; }
    exitstore(g, &x[i]);
  }
  if (base != NULL) LLVMBuildBr(B_, base->b);
  else exitend(g);
  if (!keep || (g->ntails == g->captails && !growtails(g))) return;
  t = &g->tails[g->ntails];
  if ((t->s = (ExitSlot *)malloc((size_t)(n > 0 ? n : 1) * sizeof *t->s)) == NULL) return;
  memcpy(t->s, x, (size_t)n * sizeof *x);
  t->n = n;
  t->b = tail;
  g->ntails++;
}

/* block that leaves to the interpreter at instruction 'pc' */
static LLVMBasicBlockRef pendblock(Gen *g, int pc, int spec);
static LLVMBasicBlockRef exitblock(Gen *g, int pc) {
  if (g->pendval != NULL && pc == g->pendpc) return pendblock(g, pc, 0);
  if (g->exits[pc] == NULL) {
    LLVMBasicBlockRef cur = LLVMGetInsertBlock(B_);
    LLVMBasicBlockRef e = LLVMAppendBasicBlockInContext(g->C, g->fn, "exit");
    RegSet s;
    if (g->exitlist == NULL) {   /* in the entry block (sroa) */
      LLVMPositionBuilderBefore(B_, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(g->fn)));
      g->exitlist = LLVMBuildAlloca(B_, g->p0, "exitlistvar");
    }
    LLVMPositionBuilderAtEnd(B_, e);
    needed_at(g, pc, &s);   /* the interpreter re-executes pc */
    only_dirty(g, pc, &s);
    exitflush(g, pc, &s);
    LLVMPositionBuilderAtEnd(B_, cur);
    g->exits[pc] = e;
  }
  return g->exits[pc];
}

/* count a failed speculative guard in Proto.jitexits (jit_run reads it) */
static void countexit(Gen *g) {
  /* one IR instruction instead of a load, an add and a store (one
  ** address constant, less for code generation); its lock prefix costs
  ** only a failed speculation, which then leaves to the interpreter */
  LLVMValueRef rmw = LLVMBuildAtomicRMW(B_, LLVMAtomicRMWBinOpAdd, craw(g, &g->p->jitexits),
                                        LLVMConstInt(g->i32, 1, 0), LLVMAtomicOrderingMonotonic, 0);
  tb(g, rmw, g->tb_heap);
}

/* block that counts a failed speculation, then leaves at 'pc' */
static LLVMBasicBlockRef specexit(Gen *g, int pc) {
  if (g->pendval != NULL && pc == g->pendpc) return pendblock(g, pc, 1);
  if (g->specexits[pc] == NULL) {
    LLVMBasicBlockRef cur = LLVMGetInsertBlock(B_);
    LLVMBasicBlockRef e = LLVMAppendBasicBlockInContext(g->C, g->fn, "specexit");
    LLVMPositionBuilderAtEnd(B_, e);
    countexit(g);
    LLVMBuildBr(B_, exitblock(g, pc));
    LLVMPositionBuilderAtEnd(B_, cur);
    g->specexits[pc] = e;
  }
  return g->specexits[pc];
}

/* exitblock/specexit at the instruction reading a pending register
** (upvpend): its value goes to its slot first, then the usual exit */
static LLVMBasicBlockRef pendblock(Gen *g, int pc, int spec) {
  LLVMBasicBlockRef *b = spec ? &g->pendspec : &g->pendexit;
  if (*b == NULL) {
    LLVMBasicBlockRef cur = LLVMGetInsertBlock(B_), e;
    LLVMValueRef v = g->pendval;
    *b = e = LLVMAppendBasicBlockInContext(g->C, g->fn, spec ? "pendspec" : "pendexit");
    LLVMPositionBuilderAtEnd(B_, e);
    stackstore(g, g->pendreg, v);
    g->pendval = NULL;   /* the exits proper */
    LLVMBuildBr(B_, spec ? specexit(g, pc) : exitblock(g, pc));
    g->pendval = v;
    LLVMPositionBuilderAtEnd(B_, cur);
  }
  return *b;
}

/* continue only if 'cond' holds, else go to 'no' */
static void guardto(Gen *g, LLVMValueRef cond, LLVMBasicBlockRef no) {
  LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(g->C, g->fn, "ok");
  LLVMBuildCondBr(B_, cond, ok, no);
  LLVMPositionBuilderAtEnd(B_, ok);
}

/* continue only if 'cond' holds, else exit at 'pc' */
static void guard(Gen *g, LLVMValueRef cond, int pc) {
  guardto(g, cond, exitblock(g, pc));
}

/* guard for an integer result that must fit the immediates: an overflow
** exits counted as a failed speculation (Proto.jitexits), so that code
** whose integers keep passing 2^47 (a 32-bit LCG's product: its region
** left at every other iteration) ends interpreted (jit.c despecialise)
** instead of leaving compiled code at every overflow for good */
static void fitguard(Gen *g, LLVMValueRef cond, int pc) {
  guardto(g, cond, specexit(g, pc));
}

/* payload of an operand that must be an integer immediate */
static LLVMValueRef intoperand(Gen *g, LLVMValueRef v, int pc, int t) {
  LLVMValueRef b = bits(g, v);
  if (t != TY_INT) guard(g, isint(g, b), pc);
  return sext48(g, b);
}
static int knum(int t) { return t == TY_INT || t == TY_FLT; }

static void br(Gen *g, int target) {
  LLVMBuildBr(B_, g->bb[target]);
}

/* ---------------------------------------------------------------------
** Numbers: float boxing, operand conversion
** --------------------------------------------------------------------- */

/* a float's tag (its top 16 bits) is 2..0xFFFA: the word less
** MVM_DOUBLE_OFFSET is below 0xFFF9 << 48, and that difference is the
** double's bits (getflt), which the check then shares */
static LLVMValueRef isflt(Gen *g, LLVMValueRef b) {
  LLVMValueRef t = LLVMBuildSub(B_, b, ci64(g, MVM_DOUBLE_OFFSET), "");
  return LLVMBuildICmp(B_, LLVMIntULT, t, ci64(g, (uint64_t)(0xFFFA - 1) << 48), "isflt");
}
static LLVMValueRef isnum(Gen *g, LLVMValueRef b) {
  return LLVMBuildOr(B_, isint(g, b), isflt(g, b), "isnum");
}
/* the double 'b' boxes when it is boxdbl's word (as ptrtoint of it, or
** its add), else NULL */
static LLVMValueRef boxedof(Gen *g, LLVMValueRef b) {
  LLVMValueRef c;
  if (LLVMIsAPtrToIntInst(b) && LLVMIsAIntToPtrInst(LLVMGetOperand(b, 0)))
    b = LLVMGetOperand(LLVMGetOperand(b, 0), 0);
  if (!LLVMIsAInstruction(b) || LLVMGetInstructionOpcode(b) != LLVMAdd) return NULL;
  c = LLVMGetOperand(b, 1);
  if (!LLVMIsAConstantInt(c) || LLVMConstIntGetZExtValue(c) != MVM_DOUBLE_OFFSET) return NULL;
  b = LLVMGetOperand(b, 0);
  return LLVMIsABitCastInst(b) && LLVMTypeOf(LLVMGetOperand(b, 0)) == g->f64
         ? LLVMGetOperand(b, 0) : NULL;
}
/* the double of a word known to be a float.  A word that boxdbl made
** (an operand read from a register's double: opnd, getregat) gives its
** double back, so that its box is left without a use: otherwise
** early-cse made it the box a later flush needs (a generic call's,
** an exit's), which then was computed, and kept, on the fast path
** (nbody's loop boxed its float temporaries for the call behind an
** inline sqrt) */
static LLVMValueRef getflt(Gen *g, LLVMValueRef b) {
  LLVMValueRef d = boxedof(g, b);
  if (d != NULL) return d;
  return LLVMBuildBitCast(B_, LLVMBuildSub(B_, b, ci64(g, MVM_DOUBLE_OFFSET), ""), g->f64, "");
}
/* the double of a word known to be a number (integer immediates are exact:
** 48 bits fit a double's mantissa) */
static LLVMValueRef tonum(Gen *g, LLVMValueRef b) {
  return LLVMBuildSelect(B_, isint(g, b), LLVMBuildSIToFP(B_, sext48(g, b), g->f64, ""),
                         getflt(g, b), "num");
}
/* the tests with a statically known type t (TY_*): constants, which
** simplifycfg folds into unconditional branches */
static LLVMValueRef tisint(Gen *g, LLVMValueRef b, int t) {
  return knum(t) ? LLVMConstInt(g->i1, t == TY_INT, 0) : isint(g, b);
}
static LLVMValueRef tisflt(Gen *g, LLVMValueRef b, int t) {
  return knum(t) ? LLVMConstInt(g->i1, t == TY_FLT, 0) : isflt(g, b);
}
static LLVMValueRef tisnum(Gen *g, LLVMValueRef b, int t) {
  return knum(t) ? LLVMConstInt(g->i1, 1, 0) : isnum(g, b);
}
static LLVMValueRef ttonum(Gen *g, LLVMValueRef b, int t) {
  if (t == TY_INT) return LLVMBuildSIToFP(B_, sext48(g, b), g->f64, "");
  if (t == TY_FLT) return getflt(g, b);
  return tonum(g, b);
}
/* A double computed by compiled code from numbers of the VM (whose NaNs
** are canonical: v_float) is boxed with one add: by LLVM's NaN rules an
** operation's NaN has the payload of an operand's NaN or the target's
** default NaN (x86: payload 0), so only its sign can differ from the
** canonical ones, which boxing keeps.  Doubles from elsewhere (C helpers,
** ffi) are canonicalised first (canonflt, mkflt). */
static LLVMValueRef boxdbl(Gen *g, LLVMValueRef d) {
  return LLVMBuildIntToPtr(B_, LLVMBuildAdd(B_, LLVMBuildBitCast(B_, d, g->i64, ""),
                                            ci64(g, MVM_DOUBLE_OFFSET), ""), g->p1, "");
}
/* d with a NaN made canonical (sign kept) */
static LLVMValueRef canonflt(Gen *g, LLVMValueRef d) {
  LLVMValueRef b = LLVMBuildBitCast(B_, d, g->i64, "");
  LLVMValueRef canon = LLVMBuildOr(B_, LLVMBuildAnd(B_, b, ci64(g, 0x8000000000000000ULL), ""),
                                   ci64(g, 0x7FF8000000000000ULL), "");
  return LLVMBuildSelect(B_, LLVMBuildFCmp(B_, LLVMRealUNO, d, d, ""),
                         LLVMBuildBitCast(B_, canon, g->f64, ""), d, "");
}
/* v_float(d): NaNs canonicalised (sign kept), then offset; never a reference */
static LLVMValueRef mkflt(Gen *g, LLVMValueRef d) {
  return boxdbl(g, canonflt(g, d));
}
/* does word 'b' have type t (TY_INT, TY_FLT or TY_NUM)? */
static LLVMValueRef hasty(Gen *g, LLVMValueRef b, int t) {
  return t == TY_INT ? isint(g, b) : t == TY_FLT ? isflt(g, b) : isnum(g, b);
}

/* the end of a load at 'pc' into R[A] (every path: fast and helper): a
** speculated load (spec[pc]) goes on only if the value has the guarded
** type, else leaves after the load (pc + 1: the value is flushed to its
** slot like every dirty live register) */
static void loaddone(Gen *g, int pc) {
  int t = g->spec[pc];
  if (t == TY_NONE) { br(g, pc + 1); return; }
  fltcopy(g, GETARG_A(g->p->code[pc]));   /* a helper may have written it */
  LLVMBuildCondBr(B_, hasty(g, bits(g, getreg(g, GETARG_A(g->p->code[pc]))), t),
                  g->bb[pc + 1], specexit(g, pc + 1));
}

/* constant word as i64 bits (for K operands) */
static LLVMValueRef kbits(Gen *g, int idx) {
  return ci64(g, g->p->k[idx]);
}

/* ---------------------------------------------------------------------
** Helpers
** --------------------------------------------------------------------- */

static LLVMValueRef getfn(Gen *g, const char *name, LLVMTypeRef ty, int leaf) {
  LLVMValueRef f = LLVMGetNamedFunction(g->M, name);
  if (f == NULL) {
    f = LLVMAddFunction(g->M, name, ty);
    if (leaf)   /* cannot collect: no statepoint around its calls */
      LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                              LLVMCreateStringAttribute(g->C, "gc-leaf-function", 16, "", 0));
  }
  return f;
}

/* call helper 'name'(L, ci, pc) that performs instruction 'pc' (jitrt.c);
** savedpc = 'next' first (errors, yields); registers are flushed before
** and reloaded after, as is the frame base */
static LLVMValueRef callopw(Gen *g, const char *name, int pc, int next, int retint, int w);
static LLVMValueRef callop(Gen *g, const char *name, int pc, int next, int retint) {
  return callopw(g, name, pc, next, retint, pc);
}
/* the same with 'w' for the helper's third argument instead of pc (the
** instruction's operands decoded here: mvmrt_newtabsz), and a raw
** pointer 'extra' as a fourth unless NULL (mvmrt_newrecord's template) */
static LLVMValueRef callopx(Gen *g, const char *name, int pc, int next, int retint, int w,
                            LLVMValueRef extra) {
  LLVMTypeRef ty = retint ? g->ty_opi : g->ty_op;
  LLVMValueRef args[4], r;
  flush_for_call(g, pc, NULL);
  set_savedpc(g, next);
  if (!g->trapexit) g->contcall = pc;   /* see forloop() */
  args[0] = g->L; args[1] = g->ci; args[2] = ci32(g, w); args[3] = extra;
  if (extra != NULL) {
    LLVMTypeRef pt[4];
    pt[0] = pt[1] = pt[3] = g->p0; pt[2] = g->i32;
    ty = LLVMFunctionType(LLVMGetReturnType(ty), pt, 4, 0);
  }
  r = LLVMBuildCall2(B_, ty, getfn(g, name, ty, 0), args, extra != NULL ? 4 : 3, "");
  reload_base(g);
  reload_after_call(g, pc);
  return r;
}
static LLVMValueRef callopw(Gen *g, const char *name, int pc, int next, int retint, int w) {
  return callopx(g, name, pc, next, retint, w, NULL);
}

static LLVMValueRef callff(Gen *g, const char *name, LLVMValueRef x, LLVMValueRef y) {
  LLVMValueRef args[2];
  args[0] = x; args[1] = y;
  return LLVMBuildCall2(B_, g->ty_ff, getfn(g, name, g->ty_ff, 1), args, 2, "");
}

static LLVMBasicBlockRef newbb(Gen *g, const char *nm) {
  return LLVMAppendBasicBlockInContext(g->C, g->fn, nm);
}

/* Mark every conditional branch built so far into 'bb' as almost never
** taken (branch_weights), and so the blocks that only branch into it,
** 'depth' levels up.  Without weights LLVM takes each such branch as
** 50/50, so a slow path that joins the loop again weighs like the fast
** one in block placement and register allocation.  Used for the generic
** call (mvmrt_precall) behind a CALL's inline paths (emitcall).  Measured
** and left out (-j on, pinned): the exits (LLVM already takes edges out
** of a loop as unlikely; weights on them cost sieve +4.7%, fannkuch
** +2.8%, spectral_norm +2.3%), a table read's slow-path leaves (rawget,
** strlook: nbody -2.1%, but matmul and life +0.9%) and an inlined leaf's
** own guards into its generic call (spectral_norm -1%, deltablue +0.7%).
** A wrong guess costs a taken branch and layout, never correctness. */
static void coldedges(Gen *g, LLVMBasicBlockRef bb, int depth) {
  LLVMUseRef u;
  LLVMMetadataRef w[3];
  unsigned kind = LLVMGetMDKindIDInContext(g->C, "prof", 4);
  w[0] = LLVMMDStringInContext2(g->C, "branch_weights", 14);
  for (u = LLVMGetFirstUse(LLVMBasicBlockAsValue(bb)); u != NULL; u = LLVMGetNextUse(u)) {
    LLVMValueRef br = LLVMGetUser(u);
    if (LLVMGetInstructionOpcode(br) != LLVMBr) continue;
    if (LLVMGetNumSuccessors(br) == 2) {
      int cold0 = LLVMGetSuccessor(br, 0) == bb;
      if (cold0 && LLVMGetSuccessor(br, 1) == bb) continue;
      w[1] = LLVMValueAsMetadata(LLVMConstInt(g->i32, cold0 ? 1 : 2000, 0));
      w[2] = LLVMValueAsMetadata(LLVMConstInt(g->i32, cold0 ? 2000 : 1, 0));
      LLVMSetMetadata(br, kind, LLVMMetadataAsValue(g->C, LLVMMDNodeInContext2(g->C, w, 3)));
    }
    else if (depth > 0) {
      LLVMBasicBlockRef from = LLVMGetInstructionParent(br);
      if (from != bb && LLVMGetFirstUse(LLVMBasicBlockAsValue(from)) != NULL)
        coldedges(g, from, depth - 1);
    }
  }
}

/* gcwrite(value, object, derived): store 'v' at 'slot' (which belongs to
** heap object 'obj') and mark the card as gc_cardmark does: the card of
** 'slot' when it lies in the heap range, else (out-of-line parts: a table's
** array) the card of the object, unless that is outside the heap too.  The
** mark is left out when 'v' is statically a non-reference (a constant
** word, or a register the types know to hold a number: storesnum), and
** skipped at run time when it is not a reference (docs/decisions/0014).
** The ptrtoints here test the value's kind and compute card indices,
** never references.  The store's tbaa tag is 'tag' ("heap value", or
** "upvalue cell" for SETUPVAL). */
static int regty(Gen *g, int pc, int r);
/* The value the instruction being emitted stores into a heap object (RK(C)
** of the SET* table instructions, R[A] of SETUPVAL: gcwrite's 'v') is
** statically a number: the type analysis knows its register holds one
** there (a constant operand is a constant word already) */
static int storesnum(Gen *g) {
  Instruction i = g->p->code[g->curpc];
  int r;
  switch (GET_OPCODE(i)) {
    case OP_SETTABLE: case OP_SETI: case OP_SETFIELD: case OP_SETTABUP:
      if (GETARG_k(i)) return 0;
      r = GETARG_C(i);
      break;
    case OP_SETUPVAL: r = GETARG_A(i); break;
    default: return 0;
  }
  return (regty(g, g->curpc, r) & ~TY_NUM) == 0;
}
static void gcwritetb(Gen *g, LLVMValueRef v, LLVMValueRef obj, LLVMValueRef slot,
                      LLVMValueRef tag) {
  LLVMValueRef hv, hbase, hsize, cards, off, off2, in1, in2, idx, cp;
  LLVMBasicBlockRef tryobj, mark, done;
  GCHeapView *h = (GCHeapView *)(void *)g->J->g->gc;
  tb(g, LLVMBuildStore(B_, v, slot), tag);
  if (LLVMIsConstant(v)) return;   /* cword(): integers, floats, nil, booleans */
  if (storesnum(g)) return;        /* a number, known statically */
  tryobj = newbb(g, "cardobj"); mark = newbb(g, "cardmark"); done = newbb(g, "carddone");
  {   /* numbers, nil and booleans need no mark (0014: a test on the value;
      ** 'v' is a Lua value, never word 0: no null test, as isvalreftt) */
    LLVMBasicBlockRef isref = newbb(g, "cardref");
    LLVMValueRef b = LLVMBuildPtrToInt(B_, v, g->i64, "");
    LLVMValueRef c = LLVMBuildICmp(B_, LLVMIntEQ, LLVMBuildAnd(B_, b, ci64(g, 0xFFFF000000000007ULL), ""),
                                   ci64(g, 0), "");
    LLVMBuildCondBr(B_, c, isref, done);
    LLVMPositionBuilderAtEnd(B_, isref);
  }
  hv = craw(g, h);
  hbase = tb(g, LLVMBuildLoad2(B_, g->i64, byteptr(g, hv, offsetof(GCHeapView, base)), "hbase"), g->tb_card);
  hsize = tb(g, LLVMBuildLoad2(B_, g->i64, byteptr(g, hv, offsetof(GCHeapView, size)), "hsize"), g->tb_card);
  off = LLVMBuildSub(B_, LLVMBuildPtrToInt(B_, slot, g->i64, ""), hbase, "");
  in1 = LLVMBuildICmp(B_, LLVMIntULT, off, hsize, "");
  {
    LLVMBasicBlockRef cur = LLVMGetInsertBlock(B_);
    LLVMBuildCondBr(B_, in1, mark, tryobj);
    LLVMPositionBuilderAtEnd(B_, tryobj);
    off2 = LLVMBuildSub(B_, LLVMBuildPtrToInt(B_, obj, g->i64, ""), hbase, "");
    in2 = LLVMBuildICmp(B_, LLVMIntULT, off2, hsize, "");
    LLVMBuildCondBr(B_, in2, mark, done);
    LLVMPositionBuilderAtEnd(B_, mark);
    idx = LLVMBuildPhi(B_, g->i64, "cardoff");
    LLVMAddIncoming(idx, &off, &cur, 1);
    LLVMAddIncoming(idx, &off2, &tryobj, 1);
  }
  cards = tb(g, LLVMBuildLoad2(B_, g->p0, byteptr(g, hv, offsetof(GCHeapView, cards)), "cards"), g->tb_card);
  idx = LLVMBuildLShr(B_, idx, ci64(g, GC_CARDSHIFT), "");
  cp = LLVMBuildGEP2(B_, g->i8, cards, &idx, 1, "");
  tb(g, LLVMBuildStore(B_, LLVMConstInt(g->i8, 1, 0), cp), g->tb_card);
  LLVMBuildBr(B_, done);
  LLVMPositionBuilderAtEnd(B_, done);
}
/* The card mark of a store into a table (its node array, array part or
** inline array): those slots always lie in the heap range (parts come
** from gc_tryallocpart, which never falls back to out-of-line memory, and
** a store never goes to the static dummy node: its key is nil), so the
** card is the slot's, cards[(slot - base) >> GC_CARDSHIFT], with no range
** test and no object card.  The heap's base, size and card table are
** fixed for the global state's lifetime (gc/heap.c), so the card table
** biased by base >> GC_CARDSHIFT (base is page-aligned) is a constant of
** the code.  A value that is not a reference (0014: numbers, nil,
** booleans need no mark) branches around it: two blocks and 9
** instructions where the general sequence has four blocks and about 20
** (Session 9: table IR).  (A select between the card and a sink byte,
** without the branch, cost fannkuch_redux 5% of its run: its swaps of
** numbers of unknown type then computed and stored a mark each.) */
static void tabcard(Gen *g, LLVMValueRef v, LLVMValueRef slot) {
  GCHeapView *h = (GCHeapView *)(void *)g->J->g->gc;
  uint64_t biased = (uint64_t)(uintptr_t)h->cards - ((uint64_t)h->base >> GC_CARDSHIFT);
  LLVMBasicBlockRef mark = newbb(g, "cardmark"), done = newbb(g, "carddone");
  LLVMValueRef b, isref, cp;
  b = LLVMBuildPtrToInt(B_, v, g->i64, "");
  isref = LLVMBuildICmp(B_, LLVMIntEQ, LLVMBuildAnd(B_, b, ci64(g, 0xFFFF000000000007ULL), ""),
                        ci64(g, 0), "");
  LLVMBuildCondBr(B_, isref, mark, done);
  LLVMPositionBuilderAtEnd(B_, mark);
  cp = LLVMBuildAdd(B_, LLVMBuildLShr(B_, LLVMBuildPtrToInt(B_, slot, g->i64, ""),
                                      ci64(g, GC_CARDSHIFT), ""), ci64(g, biased), "");
  tb(g, LLVMBuildStore(B_, LLVMConstInt(g->i8, 1, 0), LLVMBuildIntToPtr(B_, cp, g->p0, "card")),
     g->tb_card);
  LLVMBuildBr(B_, done);
  LLVMPositionBuilderAtEnd(B_, done);
}
/* gcwritetb for a table's slot (tabcard) */
static void gcwrite(Gen *g, LLVMValueRef v, LLVMValueRef obj, LLVMValueRef slot) {
  (void)obj;
  tb(g, LLVMBuildStore(B_, v, slot), g->tb_value);
  if (LLVMIsConstant(v) || storesnum(g)) return;
  tabcard(g, v, slot);
}

/* branch to 'yes' if word 'b' is a reference to an object of type 'tt',
** else to 'no'; 'maybenull': 'b' may be word 0 (not a Lua value) */
static void reftest(Gen *g, LLVMValueRef v, LLVMValueRef b, int tt, LLVMBasicBlockRef yes,
                    LLVMBasicBlockRef no, int maybenull) {
  LLVMBasicBlockRef isref = newbb(g, "isref");
  LLVMValueRef c = LLVMBuildICmp(B_, LLVMIntEQ,
                                 LLVMBuildAnd(B_, b, ci64(g, 0xFFFF000000000007ULL), ""),
                                 ci64(g, 0), "");
  if (maybenull) c = LLVMBuildAnd(B_, c, LLVMBuildICmp(B_, LLVMIntNE, b, ci64(g, 0), ""), "");
  LLVMBuildCondBr(B_, c, isref, no);
  LLVMPositionBuilderAtEnd(B_, isref);
  c = ofield(g, g->i8, v, 0, "tt");   /* GCHeader.tt at offset 0 */
  LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntEQ, c, LLVMConstInt(g->i8, tt, 0), ""),
                  yes, no);
  LLVMPositionBuilderAtEnd(B_, yes);
}
static void isreftt(Gen *g, LLVMValueRef v, LLVMValueRef b, int tt, LLVMBasicBlockRef yes,
                    LLVMBasicBlockRef no) {
  reftest(g, v, b, tt, yes, no, 1);
}

/* isreftt for a Lua value (a VM register or stack slot, never word 0:
** value.h), where the null test is redundant: one test fewer on every
** call (inlinecall, leantailcall) */
static void isvalreftt(Gen *g, LLVMValueRef v, LLVMValueRef b, int tt, LLVMBasicBlockRef yes,
                       LLVMBasicBlockRef no) {
  reftest(g, v, b, tt, yes, no, 0);
}

/* the tables of the table instructions are Lua values (registers,
** upvalues): isvalreftt */
static void istable(Gen *g, LLVMValueRef v, LLVMValueRef b, LLVMBasicBlockRef yes,
                    LLVMBasicBlockRef no) {
  isvalreftt(g, v, b, MVM_TTABLE, yes, no);
}

/* address of t->array[key-1] when table 't' has integer 'key' (i64, from an
** immediate) in its array part; else branches to 'no'.  The array part is
** out-of-line memory (addrspace 0, not a GC object); the pointer is used
** before any call. */
static LLVMValueRef arrayslot(Gen *g, LLVMValueRef t, LLVMValueRef key, LLVMBasicBlockRef no) {
  LLVMBasicBlockRef in = newbb(g, "inarray");
  LLVMValueRef idx = LLVMBuildSub(B_, key, ci64(g, 1), "");
  LLVMValueRef asz = ofield(g, g->i32, t, offsetof(Table, asize), "asize");
  LLVMValueRef arr;
  LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntULT, idx, LLVMBuildZExt(B_, asz, g->i64, ""), ""),
                  in, no);
  LLVMPositionBuilderAtEnd(B_, in);
  arr = ofield(g, g->p0, t, offsetof(Table, array), "array");
  return LLVMBuildGEP2(B_, g->i64, arr, &idx, 1, "");
}

/* Slot prediction.  Every GETFIELD/GETTABUP site has a hint: a mutable
** i32 of the module (newkeysite) holding the index of the node where the
** key was last found in the indexed table, at first the key's hash (its
** main position in any table).  The node at (hint & mask) is the one
** compared with the key before any walk (a leaf call; until session 25
** the main position was probed first, the hint second): any node holding the key is the
** key's one (a table holds a key in one node at most; a removed key that
** the collector declared dead no longer compares equal), so the hint is
** only ever a guess that saves the walk, whatever table the site sees,
** and whatever rehash or resize happened since (the mask keeps the index
** inside the current node array).  A node holding the key with a nil
** value means the key is absent, as for any lookup.  The hint is plain
** data (no reference), written only by the thread running the code
** (after the leaf walk, sethint).  Measured (deltablue,
** richards -j eager, instructions outside LLVM): about -3.5%.  Not done
** (measured a loss): hints for the tables an '__index' walk goes
** through (keys there are mostly absent or at their main position: the
** probe costs more than the chain steps it saves).  SETFIELD/SETTABUP
** sites probe only their hint, which starts at the key's main position
** (setslot). */
static LLVMValueRef newhints(Gen *g, unsigned n) {
  LLVMTypeRef ty = LLVMArrayType2(g->i32, n);
  LLVMValueRef gv = LLVMAddGlobal(g->M, ty, "slothint");
  LLVMSetInitializer(gv, LLVMConstNull(ty));
  LLVMSetLinkage(gv, LLVMInternalLinkage);
  return gv;
}
static LLVMValueRef newhint(Gen *g) { return newhints(g, 1); }
/* a SELF site's 'n' method caches (jit.h JitMethodCache, zero at first
** but for the first one's key and JitState: jitrt.c mvmrt_strself) */
static LLVMValueRef newmcaches(Gen *g, unsigned n, TString *key) {
  enum { W = (sizeof(JitMethodCache) + 7) / 8 };
  LLVMValueRef words[2 * W], gv;
  LLVMTypeRef ty = LLVMArrayType2(g->i64, n * W);
  unsigned k;
  lua_assert(n <= 2 && offsetof(JitMethodCache, key) % 8 == 0 && offsetof(JitMethodCache, J) % 8 == 0 &&
             offsetof(JitMethodCache, keybit) % 8 == 0);
  for (k = 0; k < n * W; k++) words[k] = ci64(g, 0);
  words[offsetof(JitMethodCache, keybit) / 8] = ci64(g, tab_strbit(key));   /* (the word's low half) */
  words[offsetof(JitMethodCache, key) / 8] = ci64(g, (uint64_t)(uintptr_t)key);
  words[offsetof(JitMethodCache, J) / 8] = ci64(g, (uint64_t)(uintptr_t)g->J);
  gv = LLVMAddGlobal(g->M, ty, "mcache");
  LLVMSetInitializer(gv, LLVMConstArray2(g->i64, words, n * W));
  LLVMSetLinkage(gv, LLVMInternalLinkage);
  return gv;
}

/* A record constructor's site (NEWTABLE at 'pc' into R[a] with a hash
** part only): its template (table.h TabTemplate, built at the first run:
** jitrt.c mvmrt_newrecord) with the keys of the SETFIELDs into R[a] that
** follow, in order, distinct, until R[a] is written or the function
** returns (a field stored on some paths only is a nil key on the others:
** absent for every lookup); NULL when there is none */
static LLVMValueRef newrecordsite(Gen *g, int pc, int a) {
  enum { W = sizeof(TabTemplate) / 8 };
  TString *keys[TAB_TMPLNODES];
  LLVMValueRef words[W], gv;
  LLVMTypeRef ty;
  const Proto *p = g->p;
  int q, n = 0, j;
  _Static_assert(sizeof(TabTemplate) % 8 == 0 && offsetof(TabTemplate, keys) == 16,
                 "newrecordsite's words");
  for (q = pc + 2; q < p->sizecode && q < pc + 64 && n < TAB_TMPLNODES; q++) {
    Instruction in = p->code[q];
    OpCode op = GET_OPCODE(in);
    RegSet d;
    if (op == OP_SETFIELD && GETARG_A(in) == a && v_isstring(p->k[GETARG_B(in)])) {
      TString *k = v_str(p->k[GETARG_B(in)]);
      for (j = 0; j < n && keys[j] != k; j++) ;   /* (interned) */
      if (j == n) keys[n++] = k;
      continue;
    }
    if (op == OP_RETURN || op == OP_RETURN0 || op == OP_RETURN1 || op == OP_TAILCALL) break;
    maydef(g, q, &d);
    if (a < g->nregs && rs_has(&d, a)) break;
  }
  if (n == 0) return NULL;
  for (j = 0; j < W; j++) words[j] = ci64(g, 0);
  words[offsetof(TabTemplate, nkeys) / 8] = ci64(g, (uint64_t)n << 32);   /* (state 0, nkeys) */
  for (j = 0; j < n; j++) words[2 + j] = ci64(g, (uint64_t)(uintptr_t)keys[j]);
  ty = LLVMArrayType2(g->i64, W);
  gv = LLVMAddGlobal(g->M, ty, "record");
  LLVMSetInitializer(gv, LLVMConstArray2(g->i64, words, W));
  LLVMSetLinkage(gv, LLVMInternalLinkage);
  return gv;
}

/* a constant-key site's data (jit.h JitKeySite): the hint (an i32 at
** its start, as newhint's) starting at 'hint0', the fill count, the key,
** the state */
static LLVMValueRef newkeysite(Gen *g, TString *key, uint32_t hint0) {
  enum { N = 3 + 3 * JIT_MCENTRIES };
  LLVMTypeRef el[N], ty;
  LLVMValueRef v[N], gv;
  int k;
  _Static_assert(offsetof(JitKeySite, fills) == 4 && offsetof(JitKeySite, key) == 8 &&
                 offsetof(JitKeySite, g) == 16 && offsetof(JitKeySite, e) == 24 &&
                 sizeof(JitKeySite) == 8 * N && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
                 "newkeysite's layout");
  for (k = 0; k < N; k++) el[k] = g->i64;
  ty = LLVMStructTypeInContext(g->C, el, N, 0);
  v[0] = ci64(g, hint0);   /* the hint, and above it 'fills', 0 */
  v[1] = ci64(g, (uint64_t)(uintptr_t)key);
  v[2] = ci64(g, (uint64_t)(uintptr_t)g->J->g);
  for (k = 3; k < N; k++) v[k] = ci64(g, 0);   /* the class cache, empty (stamp 0: never valid) */
  gv = LLVMAddGlobal(g->M, ty, "keysite");
  LLVMSetInitializer(gv, LLVMConstStructInContext(g->C, v, N, 0));
  LLVMSetLinkage(gv, LLVMInternalLinkage);
  return gv;
}

static LLVMValueRef readonlyfn(Gen *g, LLVMValueRef f);

/* the node array of table 't' and its index mask (size - 1) */
static LLVMValueRef nodearray(Gen *g, LLVMValueRef t, LLVMValueRef *mask) {
  LLVMValueRef lsz = LLVMBuildZExt(B_, ofield(g, g->i8, t, offsetof(Table, lsizenode), "lsz"),
                                   g->i64, "");
  *mask = LLVMBuildSub(B_, LLVMBuildShl(B_, ci64(g, 1), lsz, ""), ci64(g, 1), "");
  return ofield(g, g->p0, t, offsetof(Table, node), "node");
}

/* node 'idx' (i64, already masked) of node array 'node' */
static LLVMValueRef nodeat(Gen *g, LLVMValueRef node, LLVMValueRef idx, const char *nm) {
  idx = LLVMBuildMul(B_, idx, ci64(g, sizeof(Node)), "");
  return LLVMBuildGEP2(B_, g->i8, node, &idx, 1, nm);
}

/* does node 'n' hold string key 'key'? */
static LLVMValueRef nodehas(Gen *g, LLVMValueRef n, TString *key) {
  LLVMValueRef off = ci64(g, offsetof(Node, key));
  LLVMValueRef k = vload(g, g->i64, LLVMBuildGEP2(B_, g->i8, n, &off, 1, ""), "nkey");
  return LLVMBuildICmp(B_, LLVMIntEQ, k, ci64(g, v_ref(key)), "");
}

/* does node 'n' hold the key whose word is 'kb' (i64)? */
static LLVMValueRef nodekeyis(Gen *g, LLVMValueRef n, LLVMValueRef kb) {
  LLVMValueRef off = ci64(g, offsetof(Node, key));
  LLVMValueRef k = vload(g, g->i64, LLVMBuildGEP2(B_, g->i8, n, &off, 1, ""), "nkey");
  return LLVMBuildICmp(B_, LLVMIntEQ, k, kb, "");
}

/* the address of node 'n''s value */
static LLVMValueRef nodeval(Gen *g, LLVMValueRef n) {
  LLVMValueRef off = ci64(g, offsetof(Node, val));
  return LLVMBuildGEP2(B_, g->i8, n, &off, 1, "");
}

/* the node that hint 'hint' predicts in node array 'node' */
static LLVMValueRef hintnode(Gen *g, LLVMValueRef hint, LLVMValueRef node, LLVMValueRef mask) {
  LLVMValueRef h = tb(g, LLVMBuildLoad2(B_, g->i32, hint, "hint"), g->tb_hint);
  return nodeat(g, node, LLVMBuildAnd(B_, LLVMBuildZExt(B_, h, g->i64, ""), mask, ""), "hintpos");
}

static LLVMValueRef isnil(Gen *g, LLVMValueRef v) {
  return LLVMBuildICmp(B_, LLVMIntEQ, bits(g, v), ci64(g, MVM_NIL), "");
}

/* The table fast paths below share one shape: 't' must be a table, the key
** selects a slot (array part or string-key chain) or branches to 'slow';
** a read hits when the slot holds a non-nil value, a write when it already
** does (a store into an existing slot never rehashes).  Everything else,
** metamethods and errors included, is the instruction's helper at 'slow'. */

/* the helper alone, at pc */
static void helper_only(Gen *g, int pc, const char *helper) {
  g->trapexit = 1;   /* the helper completes the instruction */
  callop(g, helper, pc, pc + 1, 0);
  g->trapexit = 0;
  loaddone(g, pc);
}

/* is 'pc' inside a loop of the bytecode (between a backward jump and its
** target)? */
static int inloop(Gen *g, int pc) {
  int j;
  for (j = pc; j < g->p->sizecode; j++) {
    Instruction i = g->p->code[j];
    int t;
    switch (GET_OPCODE(i)) {
      case OP_JMP: t = j + 1 + GETARG_sJ(i); break;
      case OP_FORLOOP: case OP_TFORLOOP: t = j + 1 - GETARG_Bx(i); break;
      default: continue;
    }
    if (t <= pc) return 1;
  }
  return 0;
}

/* Table reads (GETFIELD, GETTABUP, GETI, GETTABLE) at the lowest
** speculation level (Proto.jitnospec 0): the fast path alone (inline
** probes, then leaf walks that cannot collect: mvmrt_strindex, in loops
** the read-only mvmrt_strlook, mvmrt_rawget for any other key); what it
** cannot finish (not a table, an '__index' function, a deep chain, a nil
** where '__index' may apply) counts a failed speculation and leaves at
** 'pc', where the interpreter redoes the instruction (nothing is written
** before the exit).  Without the helper's statepoint call merging back,
** the frame base and the registers stay plain SSA values across the
** accesses, and with read-only leaves LLVM reuses the loaded table
** register, its type test and its node array between the fields of one
** table (nbody's advance).  A function
** that keeps exiting is recompiled at level 1 (jit.c despecialise), where
** the helpers come back.  Stores keep their helper, but a SETFIELD in a
** loop (setexit): their misses are mostly new keys (constructors, a
** fresh object's first assignment: richards' Scheduler:schedule exited
** once per call and was recompiled), which measured a loss; SELF writes
** R[A+1] first. */
static int tabspec(Gen *g, int pc) {
  OpCode op = GET_OPCODE(g->p->code[pc]);
  return speclevel(g) == 0 && (op == OP_GETFIELD || op == OP_GETTABUP ||
                               op == OP_GETI || op == OP_GETTABLE);
}

/* Known tables.  At speculation level 0 a table access whose operand is
** not a table leaves (reads: tabspec), so past the access the register
** holds a table until something writes it; the collector moves tables,
** never changes their type.  Forward dataflow over the bytecode CFG
** (tabin[pc]: registers holding a table on every path into pc), through
** instructions that run no Lua code: moves and constant loads,
** arithmetic on operands the types know are numbers (their MMBIN is
** dead), level-0 reads (exits and read-only leaves), stores (SETFIELD
** with a constant key, SETI, SETTABLE), jumps, TEST and numeric for
** loops (FORPREP, and FORLOOP with its back-edge poll: a collection moves
** tables, never changes a type).  A store's helper (a new key,
** '__newindex') may run Lua code,
** which can change this frame's registers only through debug.setlocal:
** that sets the frame's trap, and the helper's return then leaves
** (tabtrap).  Each forgets what it may write on any path (maywrite:
** FORPREP and FORLOOP write their four registers on some paths only).
** Anything else (calls, other helpers) forgets everything.
** The start knows nothing; other entry points (loop headers, after
** calls) keep what every compiled path into them knows and some access
** after them wants, and their resume blocks check those registers
** (resumeguards, entrytab: a table kind in mvmrt_resumeok's list), so
** the interpreter entering with something else goes on interpreting.
** sieve's loops lost their type tests (run instructions -10%),
** fannkuch_redux's stores theirs (-4%).  An access whose
** table is known skips its type test (tabtest): after a store, whose
** helper merges back, LLVM cannot see that the reloaded register is still
** the table it tested.  A store makes its table known (a non-table then
** leaves instead of taking the helper) and tests the trap after its
** helper only where some later access skips its test thanks to it
** (tabwant: a backward pass first); elsewhere both measured a loss
** (deltablue +0.9%, richards +0.5%: exit blocks, trap tests). */
static TString *kstr(Gen *g, int idx);
static int arithop(OpCode op) {
  switch (op) {
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_MOD: case OP_IDIV: case OP_POW:
    case OP_ADDK: case OP_SUBK: case OP_MULK: case OP_DIVK: case OP_MODK: case OP_IDIVK:
    case OP_POWK: case OP_ADDI: case OP_UNM:
      return 1;
    default: return 0;
  }
}
/* is 'pc' arithmetic on registers known to hold numbers (no metamethod)? */
static int numarith(Gen *g, int pc) {
  Instruction i = g->p->code[pc];
  RegSet use, def;
  int r;
  if (!arithop(GET_OPCODE(i))) return 0;
  usedef(g, pc, &use, &def);
  for (r = 0; r < g->nregs; r++)
    if (rs_has(&use, r) && (regty(g, pc, r) & ~TY_NUM) != 0) return 0;
  return 1;
}
/* the table register of a table access 'pc' that runs no Lua code but
** its store helper at level 0, else -1 */
static int tabreg(Gen *g, int pc) {
  Instruction i = g->p->code[pc];
  if (speclevel(g) != 0) return -1;
  switch (GET_OPCODE(i)) {
    case OP_GETFIELD: return kstr(g, GETARG_C(i)) != NULL ? GETARG_B(i) : -1;
    case OP_GETI: case OP_GETTABLE: return GETARG_B(i);
    case OP_SETFIELD: return kstr(g, GETARG_B(i)) != NULL ? GETARG_A(i) : -1;
    case OP_SETI: case OP_SETTABLE: return GETARG_A(i);
    default: return -1;
  }
}
static int leafexits(Gen *g, int pc);
static int isstore(OpCode op) { return op == OP_SETFIELD || op == OP_SETI || op == OP_SETTABLE; }
/* does 'pc' keep what is known of registers it does not write? */
static int tabkeeps(Gen *g, int pc) {
  OpCode op = GET_OPCODE(g->p->code[pc]);
  return tabreg(g, pc) >= 0 || op == OP_MOVE || op == OP_LOADI || op == OP_LOADF ||
         op == OP_LOADK || op == OP_LOADFALSE || op == OP_LOADTRUE || op == OP_LOADNIL ||
         op == OP_FORPREP || op == OP_FORLOOP || op == OP_JMP || op == OP_TEST ||
         (op == OP_CALL && leafsite(g, pc) && leafexits(g, pc)) ||
         numarith(g, pc) ||
         ((op == OP_MMBIN || op == OP_MMBINI || op == OP_MMBINK) && pc > 0 && numarith(g, pc - 1));
}
static void tabxfer(Gen *g, int pc, RegSet *s) {
  Instruction i = g->p->code[pc];
  RegSet def;
  int r, t = tabreg(g, pc);
  if (!tabkeeps(g, pc)) { memset(s, 0, sizeof *s); return; }
  if (GET_OPCODE(i) == OP_MOVE && rs_has(s, GETARG_B(i))) { rs_add(s, GETARG_A(i)); return; }
  /* what the instruction may write on any path (FORPREP and FORLOOP
  ** write their four registers; usedef's 'def' has only what every path
  ** writes) */
  maywrite(g, pc, &def);
  if (t >= 0 && (!isstore(GET_OPCODE(i)) || g->tabadd[pc])) rs_add(s, t);
  if (GET_OPCODE(i) == OP_FORPREP && g->forchk != NULL) rs_or(s, &g->forchk[pc]);
  for (r = 0; r < 4; r++) s->w[r] &= ~def.w[r];
}
/* Tables checked before loops.  A register that some access in a numeric
** for loop wants known (want at its header) and that nothing in the loop
** writes is tested by the loop's FORPREP, which leaves (a failed
** speculation, at the FORPREP: nothing done yet) on a non-table, so the
** header knows it from the path into the loop as well as from the
** back-edge: the accesses in the loop lose their type tests
** (-j on, pinned policy, callgrind: matmul's run -8.4%, heat's -9.7%,
** sieve's -7%, fannkuch_redux's -2.6%; nbody +1.8% and spectral_norm +1%
** from their register allocation).  At level 0 the first of those
** accesses would leave on a non-table anyway, unless it is conditional:
** a loop that keeps leaving at its FORPREP has its function compiled
** again wider. */
static int inregion(Gen *g, int pc);
static void forchecks(Gen *g, const RegSet *want) {
  int n = g->p->sizecode, pc, q, r;
  g->forchk = (RegSet *)calloc((size_t)n + 1, sizeof(RegSet));
  if (g->forchk == NULL) return;
  for (pc = 0; pc + 1 < n; pc++) {
    Instruction i = g->p->code[pc];
    int f = pc + 1 + GETARG_Bx(i);
    RegSet w, d, acc;
    if (GET_OPCODE(i) != OP_FORPREP || f >= n || !inregion(g, pc)) continue;
    memset(&w, 0, sizeof w);
    memset(&acc, 0, sizeof acc);
    rs_range(&w, GETARG_A(i), GETARG_A(i) + 4);
    for (q = pc + 1; q <= f; q++) {
      int t = tabreg(g, q);
      maywrite(g, q, &d);
      rs_or(&w, &d);
      if (t >= 0) rs_add(&acc, t);
    }
    /* tables the loop's own accesses read or write, and that they want */
    for (r = 0; r < 4; r++) g->forchk[pc].w[r] = want[pc + 1].w[r] & acc.w[r] & ~w.w[r];
  }
}
/* registers whose being known at pc some access would use (a backward
** pass: want[pc] for the entry of pc); a store makes its table known
** where it is wanted after it (tabadd) */
static void tabwant(Gen *g, RegSet *want) {
  int n = g->p->sizecode, pc, r, j, changed, sc[2];
  do {
    changed = 0;
    for (pc = n - 1; pc >= 0; pc--) {
      Instruction i = g->p->code[pc];
      RegSet w, use, def;
      int t = tabreg(g, pc);
      memset(&w, 0, sizeof w);
      if (tabkeeps(g, pc)) {
        succs(g, pc, sc);
        for (j = 0; j < 2; j++)
          if (sc[j] >= 0 && !g->entry[sc[j]]) rs_or(&w, &want[sc[j]]);
        if (isstore(GET_OPCODE(i)) && t >= 0) g->tabadd[pc] = (char)rs_has(&w, t);
        usedef(g, pc, &use, &def);
        if (GET_OPCODE(i) == OP_MOVE && rs_has(&w, GETARG_A(i))) rs_add(&use, GETARG_B(i));
        for (r = 0; r < 4; r++) w.w[r] = (w.w[r] & ~def.w[r]) | (GET_OPCODE(i) == OP_MOVE ? use.w[r] : 0);
        if (t >= 0) rs_add(&w, t);
      }
      if (memcmp(&w, &want[pc], sizeof w) != 0) { want[pc] = w; changed = 1; }
    }
  } while (changed);
}
/* Dynamic keys (Session 8): a SETTABLE `t[k] = v` storing a number or a
** non-nil constant after a level-0 read `x = t[k]` of the same table and
** key registers (knuc's `t[w] = (t[w] or 0) + 1`), when every
** instruction in between runs no Lua code, calls nothing and writes
** neither register (the samefields set, less SETFIELD, plus arithmetic,
** which in compiled code completes inline or exits unless it calls a
** metamethod (mmlive), its MMBIN, TEST and
** forward jumps), and nothing jumps into the range from outside: the
** store overwrites the slot the read found with a value (value over
** value: no rehash, no length hint, no barrier for a number).  Returns
** the read's pc, or -1. */
static int mmlive(Gen *g, int pc);
static int samekey(Gen *g, int s) {
  Instruction si = g->p->code[s];
  int a = GETARG_A(si), b = GETARG_B(si), n = g->p->sizecode, q, p, j, sc[2];
  if (GETARG_k(si) ? v_isnil(g->p->k[GETARG_C(si)])
                    : (regty(g, s, GETARG_C(si)) & ~TY_NUM) != 0 || regty(g, s, GETARG_C(si)) == TY_NONE)
    return -1;
  for (q = s - 1; q >= 0 && s - q <= 32; q--) {
    Instruction i = g->p->code[q];
    if (GET_OPCODE(i) == OP_GETTABLE && GETARG_B(i) == a && GETARG_C(i) == b) break;
  }
  if (q < 0 || s - q > 32 || GETARG_A(g->p->code[q]) == a || GETARG_A(g->p->code[q]) == b)
    return -1;
  for (p = q + 1; p <= s; p++) {
    Instruction i = g->p->code[p];
    OpCode op = GET_OPCODE(i);
    RegSet use, def;
    if (g->entry[p]) return -1;
    if (p == s) break;
    if (!((tabkeeps(g, p) && !isstore(op)) || (arithop(op) && !mmlive(g, p)) || op == OP_MMBIN ||
          op == OP_MMBINI || op == OP_MMBINK || op == OP_TEST || (op == OP_JMP && GETARG_sJ(i) >= 0)))
      return -1;
    usedef(g, p, &use, &def);
    if (rs_has(&def, a) || rs_has(&def, b)) return -1;
  }
  for (p = 0; p < n; p++) {   /* no way into (q, s] but from [q, s) */
    if (p >= q && p < s) continue;
    succs(g, p, sc);
    for (j = 0; j < 2; j++)
      if (sc[j] > q && sc[j] <= s) return -1;
  }
  return q;
}
/* Stores into the slot a read found.  A string-key store `t.k = v` after
** a level-0 read `x = t.k` of the same table register and key, with only
** instructions that change no table's keys and cannot collect in between
** (moves, constants, arithmetic on numbers, level-0 reads) and no other
** way into them (jumps, entry points; an arithmetic's skip over its dead
** MMBIN is one), stores into the node the read's inline probes found (a
** node of the table holding the key with a value then): the node array
** moves or changes only in a rehash or a collection, which only calls
** do, and no key left (a value set to nil keeps its node).  When the read
** found it by a walk (the slot may be an '__index' table's), the store
** probes as usual. */
static void samefields(Gen *g) {
  int n = g->p->sizecode, pc, q, j, sc[2];
  char *foreign = (char *)calloc((size_t)n + 1, 1);   /* reached but from the instruction before */
  g->rwsrc = (int *)malloc(((size_t)n + 1) * sizeof(int));
  g->rslot = (LLVMValueRef *)calloc((size_t)n + 1, sizeof(LLVMValueRef));
  if (foreign == NULL || g->rwsrc == NULL || g->rslot == NULL) {
    free(foreign); free(g->rwsrc); free(g->rslot);
    g->rwsrc = NULL; g->rslot = NULL;
    return;
  }
  for (pc = 0; pc < n; pc++) {
    OpCode op = GET_OPCODE(g->p->code[pc]);
    succs(g, pc, sc);
    for (j = 0; j < 2; j++)
      if (sc[j] >= 0 && sc[j] != pc + 1 && !(sc[j] == pc + 2 && numarith(g, pc))) foreign[sc[j]] = 1;
    if ((op == OP_MMBIN || op == OP_MMBINI || op == OP_MMBINK) && !(pc > 0 && numarith(g, pc - 1)))
      foreign[pc + 1] = 1;   /* a live MMBIN: metamethods run there */
    g->rwsrc[pc] = -1;
  }
  for (pc = 0; pc < n; pc++) {
    Instruction si = g->p->code[pc];
    int a = GETARG_A(si);
    if (GET_OPCODE(si) == OP_SETTABLE) { g->rwsrc[pc] = samekey(g, pc); continue; }
    if (GET_OPCODE(si) != OP_SETFIELD || tabreg(g, pc) < 0) continue;
    for (q = pc - 1; q >= 0 && pc - q <= 32 && !foreign[q + 1] && !g->entry[q + 1]; q--) {
      Instruction i = g->p->code[q];
      OpCode op = GET_OPCODE(i);
      RegSet use, def;
      if (op == OP_GETFIELD && tabreg(g, q) == a && GETARG_A(i) != a &&
          kstr(g, GETARG_C(i)) == kstr(g, GETARG_B(si))) {
        g->rwsrc[pc] = q;
        break;
      }
      usedef(g, q, &use, &def);
      if (rs_has(&def, a) || isstore(op) || !tabkeeps(g, q)) break;
    }
  }
  free(foreign);
}
static void tabknown(Gen *g) {
  int n = g->p->sizecode, pc, r, j, changed, sc[2];
  RegSet *out, *want;
  if (speclevel(g) != 0) return;
  g->tabin = (RegSet *)malloc(((size_t)n + 1) * sizeof(RegSet));
  out = (RegSet *)malloc(((size_t)n + 1) * sizeof(RegSet));
  want = (RegSet *)calloc((size_t)n + 1, sizeof(RegSet));
  g->tabadd = (char *)calloc((size_t)n + 1, 1);
  if (g->tabin == NULL || out == NULL || want == NULL || g->tabadd == NULL) {
    free(g->tabin); free(out); free(want); free(g->tabadd);
    g->tabin = NULL; g->tabadd = NULL;
    return;
  }
  tabwant(g, want);
  forchecks(g, want);
  memset(g->tabin, 0xff, ((size_t)n + 1) * sizeof(RegSet));   /* all, down to the fixpoint */
  memset(out, 0xff, ((size_t)n + 1) * sizeof(RegSet));
  do {
    changed = 0;
    for (pc = 0; pc < n; pc++) {
      RegSet o = g->tabin[pc];
      if (pc == 0) memset(&o, 0, sizeof o);
      else if (g->entry[pc]) rs_and(&o, &want[pc]);   /* checked on entry (resumeguards) */
      tabxfer(g, pc, &o);
      if (memcmp(&o, &out[pc], sizeof o) == 0) continue;
      out[pc] = o;
      changed = 1;
      succs(g, pc, sc);
      for (j = 0; j < 2; j++)
        if (sc[j] >= 0)
          for (r = 0; r < 4; r++) g->tabin[sc[j]].w[r] &= o.w[r];
    }
  } while (changed);
  for (pc = 0; pc < n; pc++) {
    if (pc == 0) memset(&g->tabin[pc], 0, sizeof(RegSet));
    else if (g->entry[pc]) rs_and(&g->tabin[pc], &want[pc]);
    if (isstore(GET_OPCODE(g->p->code[pc])) && pc + 1 < n) {   /* tabtrap: wanted after? */
      RegSet o = out[pc];
      for (r = 0; r < 4; r++) o.w[r] &= want[pc + 1].w[r];
      g->tabadd[pc] |= (char)((o.w[0] | o.w[1] | o.w[2] | o.w[3]) != 0) << 1;
    }
  }
  free(out); free(want);
  samefields(g);
}
/* the type test of table access 'pc' on 't', unless its register is known
** to hold a table (tabknown) */
static void tabtest(Gen *g, int pc, LLVMValueRef t, LLVMBasicBlockRef yes, LLVMBasicBlockRef no) {
  int r = tabreg(g, pc);
  if (g->tabin != NULL && r >= 0 && rs_has(&g->tabin[pc], r)) {
    LLVMBuildBr(B_, yes);
    LLVMPositionBuilderAtEnd(B_, yes);
  }
  else istable(g, t, bits(g, t), yes, no);
}

/* The type test of store 'pc''s table 't': a store that makes its table
** known (tabadd bit 0) leaves on a non-table, as reads do, else 'slow';
** one whose knowing is wanted after it has its helper leave when the
** frame's trap is set (bit 1: g->tabtrap, cleared by the caller) */
static void storetabtest(Gen *g, int pc, LLVMValueRef t, LLVMBasicBlockRef slow) {
  tabtest(g, pc, t, newbb(g, "tab"), g->tabadd != NULL && (g->tabadd[pc] & 1) ? specexit(g, pc) : slow);
  g->tabtrap = g->tabadd != NULL && (g->tabadd[pc] & 2);
}

/* Does SETFIELD 'pc' store into a table that a NEWTABLE made just before
** (a constructor, or `local t = {}` followed by its fields)?  Scans back
** over straight-line code for the NEWTABLE that wrote the table's
** register; anything else that may write it ends the scan.  Only a guess
** (a jump into the scanned code is not seen): it decides between an exit
** and a helper call, both right. */
static int ctorstore(Gen *g, int pc) {
  int ta = GETARG_A(g->p->code[pc]), q;
  for (q = pc - 1; q >= 0 && q >= pc - 64; q--) {
    Instruction i = g->p->code[q];
    RegSet w;
    if (GET_OPCODE(i) == OP_NEWTABLE && GETARG_A(i) == ta) return 1;
    maywrite(g, q, &w);
    if (rs_has(&w, ta)) return 0;
  }
  return 0;
}

/* Stores that leave on a miss.  At speculation level 0 a SETFIELD inside
** a loop that does not fill a new table (ctorstore) leaves to the
** interpreter, counted as a failed speculation, where the inline paths
** cannot finish (not a table, a new key where the table must grow,
** '__newindex'): nothing is written before those
** tests.  Its helper call took a statepoint, the flush of the loop's SSA
** registers and their reloads on the way back into the loop; nbody's
** advance: IR to code generation -8%, run instructions -10%.  Stores
** outside loops keep the helper: constructors and first stores of a field
** miss there (richards, deltablue: 130-260 exits and recompiles when every
** SETFIELD left). */
static int inloop(Gen *g, int pc);
static int setexit(Gen *g, int pc) {
  return speclevel(g) == 0 && GET_OPCODE(g->p->code[pc]) == OP_SETFIELD && inloop(g, pc) &&
         !ctorstore(g, pc);
}
/* the end of a table access's slow block: the helper, or the exit */
static void slowpath(Gen *g, int pc, const char *helper) {
  if (tabspec(g, pc) || setexit(g, pc)) LLVMBuildBr(B_, specexit(g, pc));
  else helper_only(g, pc, helper);
}

/* the slot of an absent key for reads (intslot2): a constant nil of the
** module, so that the read's nil path (an '__index' test) takes it */
static LLVMValueRef absentslot(Gen *g) {
  if (g->nilslot == NULL) {
    g->nilslot = LLVMAddGlobal(g->M, g->i64, "nilslot");
    LLVMSetInitializer(g->nilslot, ci64(g, MVM_NIL));
    LLVMSetGlobalConstant(g->nilslot, 1);
    LLVMSetLinkage(g->nilslot, LLVMPrivateLinkage);
  }
  return g->nilslot;
}

/* May the table access at 'pc' meet an integer key outside the array
** part (MVM_FB_INTHASH, fbseen)?  Where it never did, intslot2 leaves an
** array miss to the slow path without probing the hash part inline:
** stack[sp] and code[pc] in a loop, the common case (minivm's if-chain
** dispatch: IR 3985 -> 3139 instructions, compile 117.5 -> 84.6 ms). */
static int inthashseen(Gen *g, int pc) {
  return fbseen(g, pc, MVM_FB_INTHASH);
}

/* address of the value of integer 'key' (i64, fits an immediate) in table
** 't': the array part, else (when 'probe') the key's main position in the hash part
** (tab_hashint; keys such as 0 or negative ones, fannkuch's perm[0]); a
** collision chain or a miss branches to 'slow' (the helper), except that
** a read finds a key absent whose main position ends its chain
** (absentslot).  Writes ('write') look only keys < 1 up there: a positive
** key past the array part is mostly an append, which misses (sieve's
** initialisation).
** (Session 8: probing positive keys too, behind a test for appends,
** measured +5-7% on sieve -- the hot loop's registers -- for -1% on
** queens; a leaf call there spilled in the hot loop too.) */
static LLVMValueRef intslot2(Gen *g, LLVMValueRef t, LLVMValueRef key, LLVMBasicBlockRef slow,
                             int write, LLVMBasicBlockRef big, int probe) {
  LLVMBasicBlockRef hash, found, arr, miss = slow;
  LLVMValueRef aslot, off, lsz, m, node, k, vp, phi, vals[3];
  LLVMBasicBlockRef from[3];
  if (!probe) {   /* a miss the feedback never saw: cold */
    LLVMBasicBlockRef amiss = newbb(g, "arrmiss");
    aslot = arrayslot(g, t, key, amiss);
    arr = LLVMGetInsertBlock(B_);
    LLVMPositionBuilderAtEnd(B_, amiss);
    LLVMBuildBr(B_, slow);
    coldedges(g, amiss, 0);
    LLVMPositionBuilderAtEnd(B_, arr);
    return aslot;
  }
  hash = newbb(g, "inthash");
  found = newbb(g, "intfound");
  aslot = arrayslot(g, t, key, hash);
  arr = LLVMGetInsertBlock(B_);
  LLVMBuildBr(B_, found);
  LLVMPositionBuilderAtEnd(B_, hash);
  if (write) {
    LLVMBasicBlockRef nonpos = newbb(g, "intnonpos");
    LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntSLT, key, ci64(g, 1), ""), nonpos,
                    big != NULL ? big : slow);
    LLVMPositionBuilderAtEnd(B_, nonpos);
    hash = nonpos;
  }
  lsz = LLVMBuildZExt(B_, ofield(g, g->i8, t, offsetof(Table, lsizenode), "lsz"), g->i64, "");
  m = LLVMBuildOr(B_, LLVMBuildSub(B_, LLVMBuildShl(B_, ci64(g, 1), lsz, ""), ci64(g, 1), ""),
                  ci64(g, 1), "");
  node = ofield(g, g->p0, t, offsetof(Table, node), "node");
  off = LLVMBuildMul(B_, LLVMBuildURem(B_, key, m, ""), ci64(g, sizeof(Node)), "");
  node = LLVMBuildGEP2(B_, g->i8, node, &off, 1, "intpos");
  off = ci64(g, offsetof(Node, key));
  k = vload(g, g->i64, LLVMBuildGEP2(B_, g->i8, node, &off, 1, ""), "nkey");
  off = ci64(g, offsetof(Node, val));
  vp = LLVMBuildGEP2(B_, g->i8, node, &off, 1, "");
  /* a read whose key is not at its main position, which ends its chain
  ** (next 0, the table without a hash part's dummy node too), is absent
  ** (tab_getint's walk): the nil slot, no call (binary_trees' tree[1] of
  ** a leaf `{}`, 3.2 M calls of mvmrt_rawget) */
  if (!write) miss = newbb(g, "intmiss");
  LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntEQ, k,
                                    LLVMBuildOr(B_, LLVMBuildAnd(B_, key, ci64(g, MVM_PAYLOAD), ""),
                                                ci64(g, MVM_TAG_INT), ""), ""),
                  found, miss);
  if (!write) {
    LLVMValueRef nx;
    LLVMPositionBuilderAtEnd(B_, miss);
    off = ci64(g, offsetof(Node, next));
    nx = vload(g, g->i32, LLVMBuildGEP2(B_, g->i8, node, &off, 1, ""), "nnext");
    LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntEQ, nx, ci32(g, 0), ""), found, slow);
    coldedges(g, miss, 0);
  }
  LLVMPositionBuilderAtEnd(B_, found);
  phi = LLVMBuildPhi(B_, g->p0, "slot");
  vals[0] = aslot; vals[1] = vp; from[0] = arr; from[1] = hash;
  vals[2] = write ? NULL : absentslot(g); from[2] = miss;
  LLVMAddIncoming(phi, vals, from, write ? 2 : 3);
  return phi;
}

/* array slot of integer key 'keyconst' (a constant) or 'keyv' (a register
** that must hold an immediate integer) in table 't', else branch to 'slow' */
static LLVMValueRef intslot(Gen *g, LLVMValueRef t, LLVMValueRef keyv,
                            LLVMValueRef keyconst, LLVMBasicBlockRef slow, int write) {
  LLVMValueRef key = keyconst;
  istable(g, t, bits(g, t), newbb(g, "tab"), slow);
  if (key == NULL) {
    LLVMBasicBlockRef ik = newbb(g, "intkey");
    LLVMValueRef kb = bits(g, keyv);
    LLVMBuildCondBr(B_, isint(g, kb), ik, slow);
    LLVMPositionBuilderAtEnd(B_, ik);
    key = sext48(g, kb);
  }
  return intslot2(g, t, key, slow, write, NULL, 1);
}

/* branch to 'yes' when table 't' has no metamethod 'tm' that an access
** to an absent or nil key would call (no metatable, or the metatable's
** absence bit for 'tm' set: fasttm), else to 'no' */
static void notm(Gen *g, LLVMValueRef t, int tm, LLVMBasicBlockRef yes, LLVMBasicBlockRef no) {
  LLVMBasicBlockRef hasmt = newbb(g, "hasmt");
  LLVMValueRef mt = ofield(g, g->p1, t, offsetof(Table, metatable), "mt"), ex;
  LLVMBuildCondBr(B_, LLVMBuildIsNull(B_, mt, ""), yes, hasmt);
  LLVMPositionBuilderAtEnd(B_, hasmt);
  ex = ofield(g, g->i8, mt, offsetof(GCObject, extra), "mtextra");
  ex = LLVMBuildAnd(B_, ex, LLVMConstInt(g->i8, 1u << tm, 0), "");
  LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntNE, ex, LLVMConstInt(g->i8, 0, 0), ""), yes, no);
}

/* write (integer keys: intslot2): *slot := val when the slot holds a
** non-nil value, as tab_setslot does (the barrier; the absence cache
** stays: metamethods are named by strings, which an integer key never
** adds), or when it holds nil and no __newindex can apply, as tab_setint
** does (an integer key's slot is its only place: appends into the array
** part's free slots); else the helper.  'key' (i64): that key, for the
** length hint (lenkeep: only where the store turns a nil into a value or
** a value into a nil).  'nx' other slots (xslot, from blocks xfrom:
** settab_int's string keys) join the store at its block 'hit'. */
static void lenkeep(Gen *g, LLVMValueRef t, LLVMValueRef key, LLVMValueRef val, int overvalue);
static void sethit(Gen *g, int pc, LLVMValueRef t, LLVMValueRef slot, LLVMValueRef val,
                   LLVMBasicBlockRef slow, const char *helper);
static void set_finish(Gen *g, int pc, LLVMValueRef t, LLVMValueRef slot, LLVMValueRef val,
                       LLVMBasicBlockRef slow, const char *helper, LLVMValueRef key,
                       LLVMBasicBlockRef hit, int nx, LLVMValueRef *xslot, LLVMBasicBlockRef *xfrom) {
  LLVMBasicBlockRef nil = newbb(g, "setnil");
  LLVMBasicBlockRef live = newbb(g, "setlive"), from[2];
  LLVMValueRef old = vload(g, g->p1, slot, ""), vals[2], phi;
  int nf = 0;
  LLVMBuildCondBr(B_, isnil(g, old), nil, live);
  LLVMPositionBuilderAtEnd(B_, nil);
  if (fbseen(g, pc, MVM_FB_NILSLOT)) {
    LLVMBasicBlockRef fill = newbb(g, "setfill");
    notm(g, t, TM_NEWINDEX, fill, slow);
    LLVMPositionBuilderAtEnd(B_, fill);
    lenkeep(g, t, key, val, 0);
    from[nf++] = LLVMGetInsertBlock(B_);
    LLVMBuildBr(B_, hit);
  }
  else {   /* the interpreter never stored over a nil here (MVM_FB_NILSLOT) */
    LLVMBuildBr(B_, slow);
    coldedges(g, nil, 0);
  }
  LLVMPositionBuilderAtEnd(B_, live);
  lenkeep(g, t, key, val, 1);
  from[nf++] = LLVMGetInsertBlock(B_);
  LLVMBuildBr(B_, hit);
  LLVMPositionBuilderAtEnd(B_, hit);
  if (nx > 0) {
    vals[0] = vals[1] = slot;
    phi = LLVMBuildPhi(B_, g->p0, "slot");
    LLVMAddIncoming(phi, vals, from, (unsigned)nf);
    LLVMAddIncoming(phi, xslot, xfrom, (unsigned)nx);
    slot = phi;
  }
  sethit(g, pc, t, slot, val, slow, helper);
}

/* The end of an inline table store at its hit: the store with its
** barrier, on to pc + 1; the generic path at 'slow'.  (The callers clear
** the table's 'extra' byte where the store needs it: clearextra.) */
static void sethit(Gen *g, int pc, LLVMValueRef t, LLVMValueRef slot, LLVMValueRef val,
                   LLVMBasicBlockRef slow, const char *helper) {
  gcwrite(g, val, t, slot);
  br(g, pc + 1);
  LLVMPositionBuilderAtEnd(B_, slow);
  slowpath(g, pc, helper);
}

static void clearextra(Gen *g, LLVMValueRef t);
/* vm/table.h tab_clearextra inline: table 't''s cached metamethod
** absences and TAB_WATCHED cleared, a set TAB_WATCHED counted in
** G->watchepoch (method caches, jit.h JitMethodCache).  Without a
** branch: no block for LLVM to lay out at every store site. */
static void clearextra(Gen *g, LLVMValueRef t) {
  LLVMValueRef off = ci64(g, offsetof(GCObject, extra)), p, ex, ep, n;
  p = LLVMBuildGEP2(B_, g->i8, t, &off, 1, "");
  ex = tb(g, LLVMBuildLoad2(B_, g->i8, p, "extra"), g->tb_field);
  ep = craw(g, (const void *)&g->J->g->watchepoch);
  n = LLVMBuildZExt(B_, LLVMBuildLShr(B_, ex, LLVMConstInt(g->i8, 7, 0), ""), g->i64, "");
  /* tagged as a hint's: no VM stack or heap access aliases the counter */
  tb(g, LLVMBuildStore(B_, LLVMBuildAdd(B_, tb(g, LLVMBuildLoad2(B_, g->i64, ep, "wepoch"), g->tb_hint),
                                        n, ""), ep), g->tb_hint);
  /* NOBARRIER: a byte, never a reference (an object field: table values
  ** and node words keep their loads) */
  tb(g, LLVMBuildStore(B_, LLVMConstInt(g->i8, 0, 0), p), g->tb_field);
}

/* 'f' only reads memory and returns (memory(read) nounwind willreturn):
** loads before its calls stay valid after them */
static LLVMValueRef readonlyfn(Gen *g, LLVMValueRef f) {
  static const char *const names[] = {"nounwind", "willreturn"};
  unsigned i;
  /* MemoryEffects: 2 bits (1: read) per location kind (argument,
  ** inaccessible, other memory) */
  LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                          LLVMCreateEnumAttribute(g->C, LLVMGetEnumAttributeKindForName("memory", 6), 0x15));
  for (i = 0; i < 2; i++)
    LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(g->C, LLVMGetEnumAttributeKindForName(names[i], strlen(names[i])), 0));
  return f;
}

/* may the key register of GETTABLE/SETTABLE 'pc' hold a string?  Not
** when the types know it holds a number (`g[(y - 2) % H + 1]` with H an
** upvalue): no string path to emit (life: 1% of its instructions went
** to compiling them) */
static int maystrkey(Gen *g, int pc) {
  Instruction i = g->p->code[pc];
  int r = GET_OPCODE(i) == OP_GETTABLE ? GETARG_C(i) : GETARG_B(i);
  if ((regty(g, pc, r) & ~TY_NUM) == 0) return 0;
  /* nor where the interpreter's feedback saw no string key there (vm.c
  ** FEEDBACK_KEY; one would take the walk's leaf call or the helper):
  ** minivm.lua's vars[code[pc]], with none of its string paths, cost
  ** LLVM 8% less work */
  return fbseen(g, pc, MVM_FB_STR);
}

/* The main position of a string key in a register (word 'kb' of 'keyv')
** in 't', probed inline (hash & mask, a pointer compare: strings are
** interned): a key that is not a string branches to 'notstr', a hit with
** a value to 'found' (its value slot in *slot, from block *from); else
** the builder is left in a new block.  Returns the main position. */
static LLVMValueRef strmainpos(Gen *g, LLVMValueRef t, LLVMValueRef keyv, LLVMValueRef kb,
                               LLVMBasicBlockRef notstr, LLVMBasicBlockRef found,
                               LLVMValueRef *slot, LLVMBasicBlockRef *from) {
  LLVMBasicBlockRef miss = newbb(g, "strmiss");
  LLVMValueRef h, mask, node, mp, v;
  isvalreftt(g, keyv, kb, MVM_TSTRING, newbb(g, "strkey"), notstr);
  h = ofield(g, g->i32, keyv, offsetof(GCObject, hash), "khash");
  node = nodearray(g, t, &mask);
  mp = nodeat(g, node, LLVMBuildAnd(B_, LLVMBuildZExt(B_, h, g->i64, ""), mask, ""), "strpos");
  *slot = nodeval(g, mp);
  v = vload(g, g->p1, *slot, "");
  *from = LLVMGetInsertBlock(B_);
  LLVMBuildCondBr(B_, LLVMBuildAnd(B_, nodekeyis(g, mp, kb), LLVMBuildNot(B_, isnil(g, v), ""), ""),
                  found, miss);
  LLVMPositionBuilderAtEnd(B_, miss);
  return mp;
}

/* A string key in a register read (GETTABLE): its main position inline
** (strmainpos), a hit with a value to 'found'; otherwise the leaf
** mvmrt_strnext walks the rest of the chain (an absent key's slot holds
** nil); its result to 'found' too.  Adds the two incoming slots to
** vals/from at '*n'.  Other keys (not strings) branch to 'other'. */
static void strprobe(Gen *g, LLVMValueRef t, LLVMValueRef keyv, LLVMValueRef kb,
                     LLVMBasicBlockRef other, LLVMBasicBlockRef found, LLVMValueRef *vals,
                     LLVMBasicBlockRef *from, int *n) {
  LLVMValueRef args[2];
  LLVMTypeRef params[2], ty;
  args[0] = strmainpos(g, t, keyv, kb, other, found, &vals[*n], &from[*n]);
  (*n)++;
  params[0] = g->p0; params[1] = g->i64;
  ty = LLVMFunctionType(g->p0, params, 2, 0);   /* (const Node *, Value) */
  args[1] = kb;
  vals[*n] = LLVMBuildCall2(B_, ty, readonlyfn(g, getfn(g, "mvmrt_strnext", ty, 1)), args, 2, "");
  from[(*n)++] = LLVMGetInsertBlock(B_);
  LLVMBuildBr(B_, found);
}

static int wantslot(Gen *g, int pc);
static int testpend(Gen *g, int pc, int a);
static void setpend(Gen *g, int pc, int a, LLVMValueRef v);
/* GETI / GETTABLE: the array part and the key's main position inline for
** an integer key, the main position inline and the leaf mvmrt_strnext for
** a string, one leaf call (mvmrt_rawget) for any other key or an integer
** in a collision chain; a nil with no '__index' that could apply is the
** result (whatever the key: no metatable, or its absence bit).  The
** rest: at the lowest speculation level (tabspec) an exit (not a table,
** a nil where '__index' may apply), else the instruction's helper. */
static void gettab_int(Gen *g, int pc, int a, LLVMValueRef t, LLVMValueRef keyv,
                       LLVMValueRef keyconst, const char *helper) {
  int spec = tabspec(g, pc), n = 0;
  LLVMBasicBlockRef slow = spec ? specexit(g, pc) : newbb(g, "getslow");
  LLVMBasicBlockRef walk = newbb(g, "getwalk"), hit = newbb(g, "gethit");
  LLVMBasicBlockRef nil = newbb(g, "getnil"), found = newbb(g, "getfound"), from[4];
  LLVMValueRef key = keyconst, kw = keyv, vals[4], args[2], slot, v;
  LLVMTypeRef params[2], ty;
  tabtest(g, pc, t, newbb(g, "tab"), slow);
  if (key == NULL) {
    LLVMBasicBlockRef ik = newbb(g, "intkey"), nk = newbb(g, "notint");
    LLVMValueRef kb = bits(g, keyv);
    LLVMBuildCondBr(B_, isint(g, kb), ik, nk);
    LLVMPositionBuilderAtEnd(B_, nk);
    if (maystrkey(g, pc)) strprobe(g, t, keyv, kb, walk, found, vals, from, &n);
    else LLVMBuildBr(B_, walk);
    LLVMPositionBuilderAtEnd(B_, ik);
    key = sext48(g, kb);
  }
  else kw = mkint(g, key);
  vals[n] = intslot2(g, t, key, walk, 0, NULL, inthashseen(g, pc));
  from[n++] = LLVMGetInsertBlock(B_);
  LLVMBuildBr(B_, found);
  LLVMPositionBuilderAtEnd(B_, walk);
  params[0] = params[1] = g->p1;
  ty = LLVMFunctionType(g->p0, params, 2, 0);   /* (Table *, Value) */
  args[0] = t; args[1] = kw;
  vals[n] = LLVMBuildCall2(B_, ty, readonlyfn(g, getfn(g, "mvmrt_rawget", ty, 1)), args, 2, "");
  from[n++] = LLVMGetInsertBlock(B_);
  LLVMBuildBr(B_, found);
  LLVMPositionBuilderAtEnd(B_, found);
  slot = LLVMBuildPhi(B_, g->p0, "slot");
  LLVMAddIncoming(slot, vals, from, (unsigned)n);
  v = hload(g, g->p1, slot, "");
  LLVMBuildCondBr(B_, isnil(g, v), nil, hit);
  LLVMPositionBuilderAtEnd(B_, nil);
  if (spec && g->rslot != NULL && wantslot(g, pc)) {
    /* samekey: the slot when it holds a value (always one of t's own:
    ** mvmrt_rawget walks no '__index'), else NULL */
    LLVMBasicBlockRef nilhit = newbb(g, "getnilhit"), pf[2];
    LLVMValueRef ps[2];
    notm(g, t, TM_INDEX, nilhit, slow);
    LLVMPositionBuilderAtEnd(B_, nilhit);
    LLVMBuildBr(B_, hit);
    LLVMPositionBuilderAtEnd(B_, hit);
    ps[0] = slot; ps[1] = LLVMConstNull(g->p0); pf[0] = found; pf[1] = nilhit;
    g->rslot[pc] = LLVMBuildPhi(B_, g->p0, "rslot");
    LLVMAddIncoming(g->rslot[pc], ps, pf, 2);
  }
  else {
    notm(g, t, TM_INDEX, hit, slow);
    LLVMPositionBuilderAtEnd(B_, hit);
  }
  if (spec && testpend(g, pc, a)) setpend(g, pc, a, v);
  else setreg(g, a, v);
  loaddone(g, pc);
  if (!spec) {
    LLVMPositionBuilderAtEnd(B_, slow);
    helper_only(g, pc, helper);
  }
}

/* The length hint's upkeep (table.h tab_lenset) for the store of 'val'
** at integer key 'key' of table 't' about to be made over a nil slot
** ('overvalue' 0: only a value matters, above the hint) or over a value
** (1: only a nil matters, at or below it).  A constant value folds one of
** the two away (`t[i] = true` over a value: nothing).  The slot may be a
** hash node's (intslot2 writes them for keys < 1 only): the signed tests
** leave those keys alone, and a loose hint too (table.h). */
static void lenkeep(Gen *g, LLVMValueRef t, LLVMValueRef key, LLVMValueRef val, int overvalue) {
  LLVMBasicBlockRef chk = newbb(g, "lenchk"), upd = newbb(g, "lenupd"), done = newbb(g, "lendone");
  LLVMValueRef off = ci64(g, offsetof(Table, lenhint)), hp, h, hz, trig, nv, nil = isnil(g, val);
  /* the value's nil-ness first: no load of the hint for the other kind */
  LLVMBuildCondBr(B_, overvalue ? nil : LLVMBuildNot(B_, nil, ""), chk, done);
  LLVMPositionBuilderAtEnd(B_, chk);
  hp = LLVMBuildGEP2(B_, g->i8, t, &off, 1, "");
  h = tb(g, LLVMBuildLoad2(B_, g->i32, hp, "lenhint"), g->tb_field);
  hz = LLVMBuildZExt(B_, h, g->i64, "");
  if (!overvalue) {   /* a value at h + 1 (appends): h + 1, one compare */
    LLVMBasicBlockRef next = newbb(g, "lennext"), above = newbb(g, "lenabove");
    LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntEQ, key, LLVMBuildAdd(B_, hz, ci64(g, 1), ""), ""),
                    next, above);
    LLVMPositionBuilderAtEnd(B_, next);
    tb(g, LLVMBuildStore(B_, LLVMBuildTrunc(B_, key, g->i32, ""), hp), g->tb_field);   /* NOBARRIER: an i32 */
    LLVMBuildBr(B_, done);
    LLVMPositionBuilderAtEnd(B_, above);
    trig = LLVMBuildICmp(B_, LLVMIntSGT, key, hz, "");   /* a value above h + 1 */
  }
  else                /* a nil at 1 <= key <= h */
    trig = LLVMBuildAnd(B_, LLVMBuildICmp(B_, LLVMIntSLE, key, LLVMBuildSExt(B_, h, g->i64, ""), ""),
                        LLVMBuildICmp(B_, LLVMIntSGT, key, ci64(g, 0), ""), "");
  LLVMBuildCondBr(B_, trig, upd, done);
  LLVMPositionBuilderAtEnd(B_, upd);
  /* a nil at h: h - 1; a value at h + 1: h + 1; else loose */
  nv = LLVMBuildICmp(B_, LLVMIntEQ, key, overvalue ? hz : LLVMBuildAdd(B_, hz, ci64(g, 1), ""), "");
  nv = LLVMBuildSelect(B_, nv, LLVMBuildTrunc(B_, overvalue ? LLVMBuildSub(B_, key, ci64(g, 1), "") : key,
                                              g->i32, ""),
                       LLVMBuildOr(B_, h, LLVMConstInt(g->i32, TAB_LENLOOSE, 0), ""), "");
  tb(g, LLVMBuildStore(B_, nv, hp), g->tb_field);   /* NOBARRIER: an i32, never a reference */
  LLVMBuildBr(B_, done);
  LLVMPositionBuilderAtEnd(B_, done);
}

/* t's length hint (an i32) when t is a table without a metatable whose
** hint is tight below asize; to 'loose' for such a table whose hint is
** not, else to 'slow' */
static LLVMValueRef tablehint(Gen *g, LLVMValueRef t, LLVMBasicBlockRef slow, LLVMBasicBlockRef loose) {
  LLVMBasicBlockRef tab = newbb(g, "lentab"), nomt = newbb(g, "lennomt"), hit = newbb(g, "lenhit");
  LLVMValueRef off, h, asz;
  istable(g, t, bits(g, t), tab, slow);
  LLVMPositionBuilderAtEnd(B_, tab);
  off = ci64(g, offsetof(Table, metatable));
  LLVMBuildCondBr(B_, LLVMBuildIsNull(B_, hload(g, g->p1, LLVMBuildGEP2(B_, g->i8, t, &off, 1, ""), "mt"),
                                      ""), nomt, slow);
  LLVMPositionBuilderAtEnd(B_, nomt);
  off = ci64(g, offsetof(Table, lenhint));
  h = hload(g, g->i32, LLVMBuildGEP2(B_, g->i8, t, &off, 1, ""), "lenhint");
  off = ci64(g, offsetof(Table, asize));
  asz = hload(g, g->i32, LLVMBuildGEP2(B_, g->i8, t, &off, 1, ""), "asize");
  LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntULT, h, asz, ""), hit, loose);
  LLVMPositionBuilderAtEnd(B_, hit);
  return h;
}
static LLVMValueRef tighthint(Gen *g, LLVMValueRef t, LLVMBasicBlockRef slow) {
  return tablehint(g, t, slow, slow);
}
/* #t of a table 't' without __len: the leaf mvmrt_tablen (an i64) */
static LLVMValueRef tablencall(Gen *g, LLVMValueRef t) {
  LLVMTypeRef fty = LLVMFunctionType(g->i64, &g->p1, 1, 0);
  return LLVMBuildCall2(B_, fty, getfn(g, "mvmrt_tablen", fty, 1), &t, 1, "tlen");
}
/* LEN of a table without a metatable (table.h tab_len): its length hint
** when tight below asize, inline, else the leaf mvmrt_tablen (tab_getn:
** an empty table, a full array part -- a list growing from {} -- or a
** loose hint; it was the generic helper, whose vm_objlen made a compiled
** `#self.log` slower than the interpreter's); anything else the helper */
static void lenop(Gen *g, int pc, int a, LLVMValueRef t) {
  LLVMBasicBlockRef slow = newbb(g, "lenslow"), getn = newbb(g, "lengetn"), done = newbb(g, "lendone");
  LLVMBasicBlockRef from[2];
  LLVMValueRef n[2], r;
  n[0] = LLVMBuildZExt(B_, tablehint(g, t, slow, getn), g->i64, "");
  from[0] = LLVMGetInsertBlock(B_);
  LLVMBuildBr(B_, done);
  LLVMPositionBuilderAtEnd(B_, getn);
  n[1] = tablencall(g, t);
  from[1] = getn;
  LLVMBuildBr(B_, done);
  LLVMPositionBuilderAtEnd(B_, done);
  r = LLVMBuildPhi(B_, g->i64, "len");
  LLVMAddIncoming(r, n, from, 2);
  setreg(g, a, mkint(g, r));
  br(g, pc + 1);
  LLVMPositionBuilderAtEnd(B_, slow);
  callop(g, "mvmrt_len", pc, pc + 1, 0);
  br(g, pc + 1);
}

/* Appends.  `t[#t + 1] = v` is LEN A B; ADDI A A 1; MMBINI; SETTABLE B
** A C, and each inline: 185 IR instructions and 34 blocks per site
** (LEN's hint, ADDI's overflow test, the store's array, hash and new-key
** paths and the length hint's upkeep), which json.lua has 16 of.  The
** inline path is one: t a table without a metatable whose length hint h
** is tight below asize (table.h) takes v in array slot h + 1 over its
** nil, the hint moving to h + 1 unless v is nil, as tab_lenset would;
** anything else (metamethods, a full array part, a loose hint, not a
** table) is the interpreter's instructions through a helper.
**   APPEND_FUSED: the SETTABLE right after the MMBINI, nothing else
** entering either, and A a dead temporary after them: the four as one
** (mvmrt_append), 49 IR instructions.
**   APPEND_LEN/APPEND_STORE: the value takes more instructions (a call,
** a concatenation), which may append to t themselves.  The LEN computes
** A = h + 1 inline (else mvmrt_lenadd, a non-integer leaving to the
** interpreter), and the SETTABLE stores inline only when its key is
** still h + 1 of t's hint there (else mvmrt_settable).  Each is exact
** on its own, whatever runs in between (a resume point, an exit); the
** pairing only says where the inline store is worth having.
**   -j eager, callgrind: json -2.7% (its compiled code -5.6%, LLVM
** -9.1%), tables -3.7% (compiled code -7.5%), word_count's compiled code
** -5.7%, strings -2.0%. */
enum { APPEND_FUSED = 1, APPEND_LEN, APPEND_STORE };   /* g->append[pc] */
#define APPEND_WINDOW 12   /* instructions between an append's MMBINI and its SETTABLE, at most */
static int inregion(Gen *g, int pc);
static void npreds(Gen *g);
static void maywrite(Gen *g, int pc, RegSet *w);
static void guard(Gen *g, LLVMValueRef cond, int pc);
static void helper_only(Gen *g, int pc, const char *helper);
static LLVMValueRef rkc(Gen *g, Instruction i);
static int appendsite(Gen *g, int pc, int *fused) {
  const Instruction *c = g->p->code + pc;
  int a, b, q;
  RegSet w;
  if (pc + 4 >= g->p->sizecode || GET_OPCODE(c[0]) != OP_LEN || GET_OPCODE(c[1]) != OP_ADDI ||
      GET_OPCODE(c[2]) != OP_MMBINI)
    return -1;
  a = GETARG_A(c[0]); b = GETARG_B(c[0]);
  if (a == b || GETARG_A(c[1]) != a || GETARG_B(c[1]) != a || GETARG_sC(c[1]) != 1) return -1;
  npreds(g);   /* (ADDI's skip of its MMBINI is the next one's second) */
  if (g->npred == NULL || g->entry[pc + 1] || g->entry[pc + 2] || g->npred[pc + 1] != 1 || g->npred[pc + 2] != 1)
    return -1;
  for (q = pc + 3; q < g->p->sizecode - 1 && q <= pc + 3 + APPEND_WINDOW && inregion(g, q); q++) {
    Instruction i = g->p->code[q];
    if (GET_OPCODE(i) == OP_SETTABLE && GETARG_A(i) == b && GETARG_B(i) == a) {
      *fused = q == pc + 3 && !g->entry[q] && g->npred[q] == 2 && (GETARG_k(i) || GETARG_C(i) != a) &&
               !rs_has(&g->livein[q + 1], a) && a >= g->nactive[q + 1];
      return q;
    }
    maywrite(g, q, &w);   /* (the key is likely still #t + 1 there) */
    if (rs_has(&w, a) || rs_has(&w, b)) return -1;
  }
  return -1;
}
static void appendsites(Gen *g) {
  int pc, q, fused;
  for (pc = 0; pc < g->p->sizecode; pc++)
    if (inregion(g, pc) && (q = appendsite(g, pc, &fused)) >= 0) {
      if (g->append == NULL && (g->append = (char *)calloc((size_t)g->p->sizecode, 1)) == NULL) return;
      if (fused) g->append[pc] = APPEND_FUSED;
      else g->append[pc] = APPEND_LEN, g->append[q] = APPEND_STORE;
    }
}
/* t[h + 1] = v over the nil there (tighthint's h), the hint moved as
** tab_lenset would: to h + 1 unless v is nil */
static void appendput(Gen *g, LLVMValueRef t, LLVMValueRef h, LLVMValueRef v) {
  LLVMValueRef idx = LLVMBuildZExt(B_, h, g->i64, ""), slot, nh, off;
  slot = LLVMBuildGEP2(B_, g->i64, ofield(g, g->p0, t, offsetof(Table, array), "array"), &idx, 1, "");
  gcwrite(g, v, t, slot);
  nh = LLVMBuildSelect(B_, isnil(g, v), h, LLVMBuildAdd(B_, h, LLVMConstInt(g->i32, 1, 0), ""), "");
  off = ci64(g, offsetof(Table, lenhint));
  tb(g, LLVMBuildStore(B_, nh, LLVMBuildGEP2(B_, g->i8, t, &off, 1, "")), g->tb_field);   /* NOBARRIER: an i32 */
}
/* APPEND_FUSED at pc */
static void appendop(Gen *g, int pc) {
  const Instruction *c = g->p->code + pc;
  LLVMBasicBlockRef slow = newbb(g, "appslow");
  LLVMValueRef t = getreg(g, GETARG_B(c[0]));
  LLVMValueRef h = tighthint(g, t, slow);
  appendput(g, t, h, rkc(g, c[3]));
  br(g, pc + 4);
  LLVMPositionBuilderAtEnd(B_, slow);
  callop(g, "mvmrt_append", pc, pc + 4, 0);
  br(g, pc + 4);
}
/* APPEND_LEN at pc: R[A] := #t + 1, the hint's h + 1 inline, else the
** interpreter's LEN and ADDI (mvmrt_lenadd); a result that is not an
** integer (__len's) leaves at the next instruction */
static void lenaddop(Gen *g, int pc) {
  const Instruction *c = g->p->code + pc;
  int a = GETARG_A(c[0]);
  LLVMBasicBlockRef slow = newbb(g, "lenaddslow");
  LLVMValueRef h = tighthint(g, getreg(g, GETARG_B(c[0])), slow);
  setreg(g, a, mkint(g, LLVMBuildAdd(B_, LLVMBuildZExt(B_, h, g->i64, ""), ci64(g, 1), "")));
  br(g, pc + 3);
  LLVMPositionBuilderAtEnd(B_, slow);
  callop(g, "mvmrt_lenadd", pc, pc + 3, 0);
  guard(g, isint(g, bits(g, getreg(g, a))), pc + 3);
  br(g, pc + 3);
}
/* APPEND_STORE at pc: t[k] = v where k is still #t + 1 (nothing between
** the LEN and here appended to t), inline; else the store's helper */
static void appendsetop(Gen *g, int pc) {
  Instruction i = g->p->code[pc];
  LLVMBasicBlockRef slow = newbb(g, "appsetslow"), put = newbb(g, "appput");
  LLVMValueRef t = getreg(g, GETARG_A(i)), k = bits(g, getreg(g, GETARG_B(i)));
  LLVMValueRef h = tighthint(g, t, slow);
  LLVMValueRef want = LLVMBuildOr(B_, LLVMBuildAdd(B_, LLVMBuildZExt(B_, h, g->i64, ""), ci64(g, 1), ""),
                                  ci64(g, MVM_TAG_INT), "");
  LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntEQ, k, want, ""), put, slow);
  LLVMPositionBuilderAtEnd(B_, put);
  appendput(g, t, h, rkc(g, i));
  br(g, pc + 1);
  LLVMPositionBuilderAtEnd(B_, slow);
  helper_only(g, pc, "mvmrt_settable");
}

/* SETTABLE with a string key in a register (word 'kb' of 'keyv'): the
** key's main position probed inline (strmainpos), a hit when it holds
** the key with a value; else the read-only leaf mvmrt_strset (chain, a nil with no
** '__newindex'), NULL to 'slow' (new keys, metamethods).  The store
** clears the table's 'extra' byte as tab_setslot does (the key may be a
** metamethod's name, "__index" included), then joins set_finish's at
** 'hit' (the slot and its block at xslot/xfrom[*nx]).  Other keys:
** 'slow'. */
static void setstrkey(Gen *g, LLVMValueRef t, LLVMValueRef keyv, LLVMValueRef kb,
                      LLVMBasicBlockRef slow, LLVMBasicBlockRef hit, LLVMValueRef *xslot,
                      LLVMBasicBlockRef *xfrom, int *nx) {
  LLVMBasicBlockRef found = newbb(g, "strsetfound");
  LLVMBasicBlockRef from[2];
  LLVMValueRef cp, args[2], vals[2], slot;
  strmainpos(g, t, keyv, kb, slow, found, &vals[0], &from[0]);
  /* (strings never move: the key as a raw pointer) */
  args[0] = t; args[1] = LLVMBuildIntToPtr(B_, kb, g->p0, "");
  cp = LLVMBuildCall2(B_, g->ty_chain, readonlyfn(g, getfn(g, "mvmrt_strset", g->ty_chain, 1)), args, 2, "");
  vals[1] = cp;
  from[1] = LLVMGetInsertBlock(B_);
  LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntEQ, cp, LLVMConstNull(g->p0), ""), slow, found);
  LLVMPositionBuilderAtEnd(B_, found);
  slot = LLVMBuildPhi(B_, g->p0, "slot");
  LLVMAddIncoming(slot, vals, from, 2);
  clearextra(g, t);
  xslot[*nx] = slot;
  xfrom[(*nx)++] = LLVMGetInsertBlock(B_);
  LLVMBuildBr(B_, hit);
}

/* A store at a positive integer key past the array part (at 'big'): in a
** table with a hash part, the read-only leaf mvmrt_intset finds the key's
** node (a value, or a nil with no '__newindex' that could apply), which
** joins set_finish's store at 'hit' (the slot and its block at
** xslot/xfrom[*nx]) without the length hint (a hash node: table.h keeps
** the hint for the array part only); NULL, or no hash part (appends,
** sieve's initialisation: no call), to 'slow'.  Keys a rehash left in
** the hash part (queens' boolean arrays, filled out of order) otherwise
** took the instruction's helper at every store. */
static void setbigkey(Gen *g, LLVMValueRef t, LLVMValueRef key, LLVMBasicBlockRef slow,
                      LLVMBasicBlockRef hit, LLVMValueRef *xslot, LLVMBasicBlockRef *xfrom, int *nx) {
  LLVMBasicBlockRef look = newbb(g, "setbiglook");
  LLVMValueRef dummy = ofield(g, g->i8, t, offsetof(Table, isdummy), "isdummy"), args[2], cp;
  LLVMTypeRef params[2], ty;
  LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntNE, dummy, LLVMConstInt(g->i8, 0, 0), ""), slow, look);
  LLVMPositionBuilderAtEnd(B_, look);
  params[0] = g->p1; params[1] = g->i64;
  ty = LLVMFunctionType(g->p0, params, 2, 0);   /* (Table *, lua_Integer) -> Value * */
  args[0] = t; args[1] = key;
  cp = LLVMBuildCall2(B_, ty, readonlyfn(g, getfn(g, "mvmrt_intset", ty, 1)), args, 2, "");
  xslot[*nx] = cp;
  xfrom[(*nx)++] = LLVMGetInsertBlock(B_);
  LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntEQ, cp, LLVMConstNull(g->p0), ""), slow, hit);
}

/* SETI / SETTABLE: an integer key's existing slot inline (intslot2,
** set_finish); a string key setstrkey; the rest the helper.  One store
** with its barrier for both (set_finish's hit block). */
static void settab_int(Gen *g, int pc, LLVMValueRef t, LLVMValueRef keyv,
                       LLVMValueRef keyconst, LLVMValueRef val, const char *helper) {
  LLVMBasicBlockRef slow = newbb(g, "setslow"), hit = newbb(g, "sethit"), xfrom[2];
  LLVMBasicBlockRef big, cur;
  LLVMValueRef key = keyconst, slot, xslot[2];
  int nx = 0;
  if (g->rwsrc != NULL && g->rwsrc[pc] >= 0 && g->rslot[g->rwsrc[pc]] != NULL) {
    /* samekey: the slot the read found */
    LLVMBasicBlockRef reuse = newbb(g, "setreuse"), probe = newbb(g, "setprobe");
    LLVMValueRef sl = g->rslot[g->rwsrc[pc]];
    LLVMBuildCondBr(B_, LLVMBuildIsNotNull(B_, sl, ""), reuse, probe);
    LLVMPositionBuilderAtEnd(B_, reuse);
    if (keyconst == NULL) clearextra(g, t);   /* the key may be "__index" */
    gcwrite(g, val, t, sl);
    br(g, pc + 1);
    LLVMPositionBuilderAtEnd(B_, probe);
  }
  storetabtest(g, pc, t, slow);
  if (key == NULL) {
    LLVMBasicBlockRef ik = newbb(g, "intkey"), nk = newbb(g, "notint");
    LLVMValueRef kb = bits(g, keyv);
    LLVMBuildCondBr(B_, isint(g, kb), ik, nk);
    LLVMPositionBuilderAtEnd(B_, nk);
    if (maystrkey(g, pc)) setstrkey(g, t, keyv, kb, slow, hit, xslot, xfrom, &nx);
    else LLVMBuildBr(B_, slow);
    LLVMPositionBuilderAtEnd(B_, ik);
    key = sext48(g, kb);
  }
  if (inthashseen(g, pc)) {
    big = newbb(g, "setbig");
    slot = intslot2(g, t, key, slow, 1, big, 1);
    cur = LLVMGetInsertBlock(B_);
    LLVMPositionBuilderAtEnd(B_, big);
    setbigkey(g, t, key, slow, hit, xslot, xfrom, &nx);
    LLVMPositionBuilderAtEnd(B_, cur);
  }
  else slot = intslot2(g, t, key, slow, 1, NULL, 0);
  set_finish(g, pc, t, slot, val, slow, helper, key, hit, nx, xslot, xfrom);
  g->tabtrap = 0;
}

/* The cell of upvalue 'idx' of closure 'cl' (UpVal.v), through UpVal
** 'uv' (set for SETUPVAL's barrier).  No call in between: the derived
** pointers never cross a safepoint.  Both loads are "object field":
** LClosure.upvals never changes after creation, and UpVal.v only when
** the upvalue closes, inside a call (tbaa_init). */
static LLVMValueRef upvalchain(Gen *g, LLVMValueRef cl, int idx, LLVMValueRef *uv) {
  LLVMValueRef u = ofield(g, g->p1, cl, offsetof(LClosure, upvals) + sizeof(UpVal *) * idx, "uv");
  if (uv != NULL) *uv = u;
  return ofield(g, g->p0, u, offsetof(UpVal, v), "");
}
/* the running function's closure: the word below its base (base[-1] is
** ci->func), a stack load from the base in SSA rather than one through
** ci->func: the stores into the frame's registers and CallInfo between
** two GETUPVALs then do not make the second load it again */
static LLVMValueRef selfclosure(Gen *g) {
  return tb(g, LLVMBuildLoad2(B_, g->p1, regptr(g, -1), "cl"), g->tb_stack);
}
/* the value of upvalue 'idx' (GETUPVAL; GETTABUP/SETTABUP: _ENV) */
static LLVMValueRef upvalue(Gen *g, int idx) {
  return tb(g, LLVMBuildLoad2(B_, g->p1, upvalchain(g, selfclosure(g), idx, NULL), "upv"),
            g->tb_upval);
}

/* the site's hint := the index of the node 'cp' in 't''s node array
** 'node'.  No test that 'cp' is one of 't''s nodes: a slot of an
** '__index' table (or the absent key's nil) makes the hint a wrong guess,
** which is all a hint may be (it is masked where it is used); the range
** test and the select cost nbody's advance 3% of its compile and 1.5% of
** its run */
static void sethint(Gen *g, LLVMValueRef hint, LLVMValueRef node, LLVMValueRef cp) {
  LLVMValueRef off = LLVMBuildSub(B_, LLVMBuildPtrToInt(B_, cp, g->i64, ""),
                                  LLVMBuildPtrToInt(B_, nodeval(g, node), g->i64, ""), "");
  LLVMValueRef h = LLVMBuildTrunc(B_, LLVMBuildUDiv(B_, off, ci64(g, sizeof(Node)), ""), g->i32, "");
  tb(g, LLVMBuildStore(B_, h, hint), g->tb_hint);
}

/* the slot t[key] resolved by the leaf mvmrt_strindex (the object, then
** '__index' tables, with the site's class cache), or a branch to 'slow';
** then the site's hint := the node found ('node': 't''s node array) */
static LLVMValueRef strindex(Gen *g, LLVMValueRef t, LLVMValueRef hint, LLVMValueRef node,
                             LLVMBasicBlockRef slow) {
  LLVMBasicBlockRef walked = newbb(g, "walked");
  LLVMValueRef cp, args[2];
  LLVMTypeRef params[2], ty;
  params[0] = g->p1; params[1] = g->p0;
  ty = LLVMFunctionType(g->p0, params, 2, 0);   /* (Table *, JitKeySite *) */
  args[0] = t; args[1] = hint;   /* (the key is in the site's data) */
  cp = LLVMBuildCall2(B_, ty, getfn(g, "mvmrt_strindex", ty, 1), args, 2, "");
  LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntEQ, cp, LLVMConstNull(g->p0), ""), slow, walked);
  LLVMPositionBuilderAtEnd(B_, walked);
  sethint(g, hint, node, cp);
  return cp;
}

/* strindex at speculation level 0 (tabspec): the read-only leaf
** mvmrt_strlook (t's own slot, the site's class cache), and when its
** cache misses, strindex's mvmrt_strindex (the walk, which fills it);
** then the site's hint as strindex's, in compiled code (a store tagged
** as a hint's, which no VM stack or heap load aliases) */
static LLVMValueRef strlook(Gen *g, LLVMValueRef t, LLVMValueRef hint, LLVMValueRef node,
                            LLVMBasicBlockRef slow) {
  LLVMBasicBlockRef walked = newbb(g, "walked"), miss = newbb(g, "lookmiss"), from[2];
  LLVMValueRef cp[2], args[2], phi;
  LLVMTypeRef params[2], ty;
  params[0] = g->p1; params[1] = g->p0;
  ty = LLVMFunctionType(g->p0, params, 2, 0);   /* (Table *, JitKeySite *) */
  args[0] = t; args[1] = hint;
  cp[0] = LLVMBuildCall2(B_, ty, readonlyfn(g, getfn(g, "mvmrt_strlook", ty, 1)), args, 2, "");
  from[0] = LLVMGetInsertBlock(B_);
  LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntEQ, cp[0], LLVMConstNull(g->p0), ""), miss, walked);
  LLVMPositionBuilderAtEnd(B_, miss);
  cp[1] = LLVMBuildCall2(B_, ty, getfn(g, "mvmrt_strindex", ty, 1), args, 2, "");
  from[1] = miss;
  LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntEQ, cp[1], LLVMConstNull(g->p0), ""), slow, walked);
  LLVMPositionBuilderAtEnd(B_, walked);
  phi = LLVMBuildPhi(B_, g->p0, "lookslot");
  LLVMAddIncoming(phi, cp, from, 2);
  sethint(g, hint, node, phi);
  return phi;
}

/* SELF with a string constant key.  On a table the leaf mvmrt_strself
** (the walk of mvmrt_strindex, with slot prediction for "__index" in the
** metatable and for the key in the table it names, and the site's method
** cache); inline, the same steps were 5% fewer instructions at run time
** in richards but 20-60% more in LLVM (an inline walk is a dozen blocks
** per SELF).  Any other receiver: the leaf mvmrt_selfv (a string's
** method through the string metatable's '__index' table and the site's
** second cache, mvmrt_strmethod; NULL for the rest).  Both calls' slots
** join: one NULL test (to the helper), one load and store of R[A].  The
** receiver's table test stays inline: a method inlined at the site tests
** 'self' again, which LLVM folds into this one (without it, deltablue
** +2% instructions).  Until session 9 (table IR) the string path had its
** own type test, result test, load and store. */
static void selfk(Gen *g, int pc, int a, LLVMValueRef t, TString *key, const char *helper) {
  LLVMBasicBlockRef slow = newbb(g, "selfslow"), walked = newbb(g, "selfwalked");
  LLVMBasicBlockRef tab = newbb(g, "selftab"), other = newbb(g, "selfother"), from[2];
  LLVMValueRef args[2], cp, vals[2];
  LLVMTypeRef params[2], ty;
  params[0] = g->p1; params[1] = g->p0;
  ty = LLVMFunctionType(g->p0, params, 2, 0);   /* (Table * or Value, JitMethodCache[2]) */
  args[0] = t; args[1] = newmcaches(g, 2, key);   /* the key and J in the first cache */
  istable(g, t, bits(g, t), tab, other);
  vals[0] = LLVMBuildCall2(B_, ty, getfn(g, "mvmrt_strself", ty, 1), args, 2, "");
  from[0] = LLVMGetInsertBlock(B_);
  LLVMBuildBr(B_, walked);
  LLVMPositionBuilderAtEnd(B_, other);
  vals[1] = LLVMBuildCall2(B_, ty, getfn(g, "mvmrt_selfv", ty, 1), args, 2, "");
  from[1] = other;
  LLVMBuildBr(B_, walked);
  LLVMPositionBuilderAtEnd(B_, walked);
  cp = LLVMBuildPhi(B_, g->p0, "selfslot");
  LLVMAddIncoming(cp, vals, from, 2);
  {
    LLVMBasicBlockRef ok = newbb(g, "selfok");
    LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntEQ, cp, LLVMConstNull(g->p0), ""), slow, ok);
    LLVMPositionBuilderAtEnd(B_, ok);
  }
  setreg(g, a, hload(g, g->p1, cp, ""));   /* may be nil */
  loaddone(g, pc);
  LLVMPositionBuilderAtEnd(B_, slow);
  helper_only(g, pc, helper);
}

/* is the slot read at 'pc' stored into by a later store (samefields)? */
static int wantslot(Gen *g, int pc) {
  int q;
  for (q = pc + 1; q < g->p->sizecode && q <= pc + 32; q++)
    if (g->rwsrc[q] == pc) return 1;
  return 0;
}
/* GETFIELD / GETTABUP / SELF with a string constant key.  GETFIELD and
** GETTABUP: one inline probe, of the node the site's hint names (its
** site data's, newkeysite, starts at the key's hash: the key's main
** position in any table); when it does not hold the key with a value,
** one leaf call (strindex, or strlook in loops) finishes and the node it
** found becomes the hint, so a method found in the class costs no second
** lookup.  Before, the main position was probed first and the hint
** second: a key off its main position (nbody's "mass") failed a probe at
** every access, and each site was two probes of IR (-j eager, JIT code /
** LLVM instructions: richards -4.3 / -2.2%, deltablue -2.8 / -2.5%, nbody
** -2.4 / -4.4%, bench/extra/shapes, a polymorphic one, -3.0 / -2.8%).
** SELF: selfk.  '__index' functions, deep chains and non-tables go to the
** instruction's helper, which starts over.  A key that is not a string
** constant: the helper alone. */
static void getstrk(Gen *g, int pc, int a, LLVMValueRef t, TString *key, const char *helper) {
  LLVMBasicBlockRef slow, probe, walk, done, from[2];
  LLVMValueRef mask, node, hn, hint, phi, vals[2], cp, sl[2];
  if (key == NULL) { helper_only(g, pc, helper); return; }
  if (GET_OPCODE(g->p->code[pc]) == OP_SELF) { selfk(g, pc, a, t, key, helper); return; }
  slow = newbb(g, "getslow");
  tabtest(g, pc, t, newbb(g, "tab"), slow);
  walk = newbb(g, "walk"); done = newbb(g, "getdone");
  hint = newkeysite(g, key, key->hash);
  node = nodearray(g, t, &mask);
  hn = hintnode(g, hint, node, mask);
  probe = LLVMGetInsertBlock(B_);
  /* a node holding the key with a value: one branch (the value is loaded
  ** whatever the key: node memory is valid) */
  sl[0] = nodeval(g, hn);
  vals[0] = vload(g, g->p1, sl[0], "");
  LLVMBuildCondBr(B_, LLVMBuildAnd(B_, nodehas(g, hn, key), LLVMBuildNot(B_, isnil(g, vals[0]), ""), ""),
                  done, walk);
  LLVMPositionBuilderAtEnd(B_, walk);
  /* may be nil: the result.  strlook inside loops only: elsewhere it
  ** measured 1-2% more instructions than strindex (richards, deltablue) */
  cp = tabspec(g, pc) && inloop(g, pc) ? strlook(g, t, hint, node, slow)
                                       : strindex(g, t, hint, node, slow);
  vals[1] = hload(g, g->p1, cp, "");
  from[0] = probe; from[1] = LLVMGetInsertBlock(B_);
  LLVMBuildBr(B_, done);
  LLVMPositionBuilderAtEnd(B_, done);
  phi = LLVMBuildPhi(B_, g->p1, "getv");
  LLVMAddIncoming(phi, vals, from, 2);
  if (g->rslot != NULL && wantslot(g, pc)) {   /* samefields: the node the probe found */
    sl[1] = LLVMConstNull(g->p0);
    g->rslot[pc] = LLVMBuildPhi(B_, g->p0, "rslot");
    LLVMAddIncoming(g->rslot[pc], sl, from, 2);
  }
  setreg(g, a, phi);
  loaddone(g, pc);
  LLVMPositionBuilderAtEnd(B_, slow);
  slowpath(g, pc, helper);
}

/* setslot's lookup found no slot ('cp' null): a new key at its free main
** position (mvmrt_strnew) before the helper; continues in 'found' with
** the slot, from either call */
static LLVMValueRef setnew(Gen *g, LLVMValueRef t, LLVMValueRef site, LLVMValueRef cp,
                           LLVMBasicBlockRef tryn, LLVMBasicBlockRef slow,
                           LLVMBasicBlockRef found) {
  LLVMValueRef args[2], cpn, phi, vals[2];
  LLVMBasicBlockRef from[2];
  LLVMTypeRef params[2], ty;
  from[0] = LLVMGetInsertBlock(B_);
  LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntEQ, cp, LLVMConstNull(g->p0), ""), tryn, found);
  LLVMPositionBuilderAtEnd(B_, tryn);
  params[0] = g->p1; params[1] = g->p0;
  ty = LLVMFunctionType(g->p0, params, 2, 0);   /* (Table *, JitKeySite *) */
  args[0] = t; args[1] = site;
  cpn = LLVMBuildCall2(B_, ty, getfn(g, "mvmrt_strnew", ty, 1), args, 2, "");
  from[1] = LLVMGetInsertBlock(B_);
  LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntEQ, cpn, LLVMConstNull(g->p0), ""), slow, found);
  LLVMPositionBuilderAtEnd(B_, found);
  phi = LLVMBuildPhi(B_, g->p0, "setslot");
  vals[0] = cp; vals[1] = cpn;
  LLVMAddIncoming(phi, vals, from, 2);
  return phi;
}

/* A store with a string constant key (SETFIELD, SETTABUP) into table
** 't': one inline probe, of the node the site's hint names (its site
** data's, newkeysite, starts at the key's hash: hints are masked to the
** table's size where they are used, and the key's hash masked is its main
** position in any table; the key's main position until a store found the
** key elsewhere), which
** stores when it holds the key with a value (one branch: the value is
** loaded whatever the key, node memory is valid).  Otherwise the
** read-only leaf mvmrt_strset finds the key's node (main position,
** chain) and checks what set_finish checks inline for other keys (a nil
** value: no '__newindex' can apply); the node it returns becomes the
** hint (always one of 't''s own nodes: no range test; mvmrt_strsethint
** stores it and clears the 'extra' byte), NULL leaves to
** the helper (new keys, metamethods).  Before, the main position was
** probed, every key in a collision chain cost a leaf call (nbody:
** mvmrt_strchain 7.5% of its instructions) and a nil value the
** metatable tests inline. */
static void setslot(Gen *g, int pc, LLVMValueRef t, TString *key, LLVMValueRef val,
                    LLVMBasicBlockRef slow, const char *helper) {
  LLVMBasicBlockRef hit = newbb(g, "sethit"), miss = newbb(g, "setmiss");
  LLVMBasicBlockRef found = newbb(g, "setfound"), tryn = newbb(g, "setnew"), probe, from[2];
  LLVMValueRef hint = newkeysite(g, key, key->hash), mask, node, hn, cp, args[2], slot, vals[2], old;
  LLVMTypeRef ty, params[2];
  node = nodearray(g, t, &mask);
  hn = hintnode(g, hint, node, mask);
  vals[0] = nodeval(g, hn);
  old = vload(g, g->p1, vals[0], "");
  probe = LLVMGetInsertBlock(B_);
  LLVMBuildCondBr(B_, LLVMBuildAnd(B_, nodehas(g, hn, key), LLVMBuildNot(B_, isnil(g, old), ""), ""),
                  hit, miss);
  LLVMPositionBuilderAtEnd(B_, miss);
  /* outside loops the hint's update and the 'extra' byte's clear (the
  ** slot may hold nil: the key appears) in the leaf mvmrt_strsethint: 16
  ** instructions fewer per site */
  if (inloop(g, pc)) {
    /* in loops the read-only mvmrt_strset and both updates inline: loads
    ** before the call stay valid after it (with mvmrt_strsethint there,
    ** nbody -j on +2.3% instructions) */
    LLVMValueRef off;
    args[0] = t; args[1] = craw(g, key);
    ty = g->ty_chain;   /* (Table *, TString *) */
    cp = LLVMBuildCall2(B_, ty, readonlyfn(g, getfn(g, "mvmrt_strset", ty, 1)), args, 2, "");
    cp = setnew(g, t, hint, cp, tryn, slow, found);
    off = LLVMBuildSub(B_, LLVMBuildPtrToInt(B_, cp, g->i64, ""),
                       LLVMBuildPtrToInt(B_, nodeval(g, node), g->i64, ""), "");
    off = LLVMBuildExactUDiv(B_, off, ci64(g, sizeof(Node)), "");
    tb(g, LLVMBuildStore(B_, LLVMBuildTrunc(B_, off, g->i32, ""), hint), g->tb_hint);
    clearextra(g, t);   /* (the slot may hold nil: the key appears) */
  }
  else {
    args[0] = t; args[1] = hint;
    params[0] = g->p1; params[1] = g->p0;
    ty = LLVMFunctionType(g->p0, params, 2, 0);   /* (Table *, JitKeySite *) */
    cp = LLVMBuildCall2(B_, ty, getfn(g, "mvmrt_strsethint", ty, 1), args, 2, "");
    cp = setnew(g, t, hint, cp, tryn, slow, found);
  }
  from[1] = LLVMGetInsertBlock(B_);
  LLVMBuildBr(B_, hit);
  LLVMPositionBuilderAtEnd(B_, hit);
  slot = LLVMBuildPhi(B_, g->p0, "slot");
  vals[1] = cp; from[0] = probe;
  LLVMAddIncoming(slot, vals, from, 2);
  /* the probe's hit overwrites a non-nil value: no cached metamethod
  ** absence can be set for its key, and no lookup changes but through an
  ** '__index' field (method caches read their slot at every hit), so the
  ** 'extra' byte stays unless the key is "__index" (leafstores too) */
  if (key == g->J->g->tmname[TM_INDEX]) clearextra(g, t);
  sethit(g, pc, t, slot, val, slow, helper);
}

/* SETFIELD / SETTABUP: an existing field inline */
static void setstr(Gen *g, int pc, LLVMValueRef t, TString *key, LLVMValueRef val,
                   const char *helper) {
  LLVMBasicBlockRef slow;
  if (key == NULL) { helper_only(g, pc, helper); return; }
  if (g->rwsrc != NULL && g->rwsrc[pc] >= 0 && g->rslot[g->rwsrc[pc]] != NULL) {
    LLVMBasicBlockRef reuse = newbb(g, "setreuse"), probe = newbb(g, "setprobe");
    LLVMValueRef sl = g->rslot[g->rwsrc[pc]];
    LLVMBuildCondBr(B_, LLVMBuildIsNotNull(B_, sl, ""), reuse, probe);
    LLVMPositionBuilderAtEnd(B_, reuse);
    /* (an overwrite of a value, as the probe's hit in setslot) */
    if (key == g->J->g->tmname[TM_INDEX]) clearextra(g, t);
    gcwrite(g, val, t, sl);
    br(g, pc + 1);
    LLVMPositionBuilderAtEnd(B_, probe);
  }
  slow = newbb(g, "setslow");
  storetabtest(g, pc, t, slow);
  setslot(g, pc, t, key, val, slow, helper);
  g->tabtrap = 0;
}

/* a constant that is a string (all strings are interned and never move) */
static TString *kstr(Gen *g, int idx) {
  Value k = g->p->k[idx];
  return v_isstring(k) ? v_str(k) : NULL;
}

/* RK operand of a SET*: a constant or a register */
static LLVMValueRef rkc(Gen *g, Instruction i) {
  if (GETARG_k(i)) {
    Value k = g->p->k[GETARG_C(i)];
    if (v_isref(k)) return hload(g, g->p1, craw(g, &g->p->k[GETARG_C(i)]), "");
    return cword(g, k);
  }
  return getreg(g, GETARG_C(i));
}

/* ---------------------------------------------------------------------
** Instructions
** --------------------------------------------------------------------- */

/* The NaN that the hardware (x86-64 SSE) gives for r = x op y: an operand's
** NaN (the first one's), else the "default NaN", which has the sign bit
** set.  LLVM folds operations on constants with positive NaNs, so without
** this 'inf - inf' would print "nan" compiled and "-nan" interpreted. */
static LLVMValueRef hwnan(Gen *g, LLVMValueRef r, LLVMValueRef x, LLVMValueRef y) {
  LLVMValueRef dflt = LLVMBuildBitCast(B_, ci64(g, 0xFFF8000000000000ULL), g->f64, "");
  LLVMValueRef n = LLVMBuildSelect(B_, LLVMBuildFCmp(B_, LLVMRealUNO, y, y, ""), y, dflt, "");
  n = LLVMBuildSelect(B_, LLVMBuildFCmp(B_, LLVMRealUNO, x, x, ""), x, n, "");
  return LLVMBuildSelect(B_, LLVMBuildFCmp(B_, LLVMRealUNO, r, r, ""), n, r, "");
}

/* R[A] := float r (of x op y), boxed without a NaN test (boxdbl).  Only
** an inline operation that LLVM folds into a constant can give another
** NaN than the hardware, and then (only then: llvm.is.constant is false
** for anything computed at run time) hwnan picks the hardware's. */
static void setflt(Gen *g, int a, LLVMValueRef r, LLVMValueRef x, LLVMValueRef y, int inl) {
  if (inl) {
    LLVMTypeRef ty = LLVMFunctionType(g->i1, &g->f64, 1, 0);
    LLVMValueRef isk = LLVMBuildCall2(B_, ty, getfn(g, "llvm.is.constant.f64", ty, 1), &r, 1, "");
    r = LLVMBuildSelect(B_, isk, hwnan(g, r, x, y), r, "");
  }
  setdbl(g, a, r);
}

/* g->npred, made at first use */
static void npreds(Gen *g) {
  int pc, s[2];
  if (g->npred != NULL || (g->npred = (uint8_t *)calloc((size_t)g->p->sizecode, 1)) == NULL) return;
  for (pc = 0; pc < g->p->sizecode; pc++) {
    succs(g, pc, s);
    if (s[0] >= 0 && g->npred[s[0]] < 3) g->npred[s[0]]++;
    if (s[1] >= 0 && s[1] != s[0] && g->npred[s[1]] < 3) g->npred[s[1]]++;
  }
}

/* Wide integers.  An integer result beyond the immediates' 48 bits exits
** (fitguard), and code that keeps making them ends interpreted.  But in
** a chain like a 32-bit generator's `(seed * 1103515245 + 12345) %
** 2147483648` or a hash's `(h * 31 + c) & 0xFFFFFFFF` only the temporaries
** are wide: the result fits.  A temporary whose one reader is the next
** instruction (after the arithmetic's dead MMBIN), reached from it alone,
** stays a raw int64 in 'wideval' for that reader, when it continues the
** chain or ends it with a result that fits by construction: MODK by
** 0 < |K| <= 2^47 (not -1: INT64_MIN % -1 traps), BANDK by 0 <= K < 2^47,
** SHRI by 17..63.  No exit can see the temporary (nothing in the chain has
** one: its operands are integers by the types, its constants nonzero), so
** it is never boxed, and an int64 wraps as Lua's integers do.  'pc':
** arithmetic with integer operands writing R[a]. */
static int inregion(Gen *g, int pc);
static int widecons(Gen *g, int pc, int a, int depth) {
  int q = pc + 2, b, c;
  Instruction i;
  int64_t k;
  if (depth > 8 || q + 2 >= g->p->sizecode || g->entry[q] || g->entry[pc + 1] || !inregion(g, q))
    return 0;
  i = g->p->code[q];
  b = GETARG_B(i); c = GETARG_C(i);
  /* (past the reader's MMBIN, which reads R[a] too but compiled code
  ** skips: the reader's integer operands cannot fail) */
  if (rs_has(&g->livein[q + 2], a) && GETARG_A(i) != a) return 0;
  if (regty(g, q, a) != TY_INT) return 0;   /* (the reader takes its integer path) */
  npreds(g);
  if (g->npred == NULL || g->npred[q] > 2) return 0;   /* (pc's skip, pc + 1's fall-through) */
  switch (GET_OPCODE(i)) {
    case OP_ADD: case OP_SUB: case OP_MUL:
      if ((b != a && c != a) || regty(g, q, b) != TY_INT || regty(g, q, c) != TY_INT) return 0;
      return widecons(g, q, GETARG_A(i), depth + 1);
    case OP_ADDK: case OP_SUBK: case OP_MULK:
      if (b != a || wordty(g->p->k[c]) != TY_INT) return 0;
      return widecons(g, q, GETARG_A(i), depth + 1);
    case OP_ADDI:
      return b == a && widecons(g, q, GETARG_A(i), depth + 1);
    case OP_MODK:
      if (b != a || wordty(g->p->k[c]) != TY_INT) return 0;
      k = v_getimmint(g->p->k[c]);
      return k != 0 && k != -1 && k <= ((int64_t)1 << 47) && k >= -((int64_t)1 << 47);
    case OP_BANDK:
      if (b != a || wordty(g->p->k[c]) != TY_INT) return 0;
      k = v_getimmint(g->p->k[c]);
      return k >= 0 && k < ((int64_t)1 << 47);
    case OP_SHRI:
      return b == a && GETARG_sC(i) >= 17 && GETARG_sC(i) <= 63;
    default: return 0;
  }
}
/* the operands x, y of the instruction at 'pc': the raw int64 for a wide
** one (widecons), else as they are */
static void wideopnds(Gen *g, int pc, LLVMValueRef *x, LLVMValueRef *y) {
  Instruction i = g->p->code[pc];
  OpCode op = GET_OPCODE(i);
  int regc = op == OP_ADD || op == OP_SUB || op == OP_MUL || op == OP_MOD || op == OP_IDIV ||
             op == OP_BAND || op == OP_BOR || op == OP_BXOR || op == OP_SHL || op == OP_SHR;
  if (g->widepc != pc) return;
  g->widepc = -1;
  if (GETARG_B(i) == g->widereg) *x = g->wideval;
  if (regc && GETARG_C(i) == g->widereg) *y = g->wideval;
}

/* bx op by for integer immediates (words; op ADD, SUB or MUL): the
** payload of the result, and in *ok whether it fits the immediates.
** Computed on payloads shifted 16 bits left (the tag shifts out), so
** that the 64-bit operation's overflow flag is exactly "beyond 48 bits":
** a shift per operand, the operation, a jo and a shift back, instead of
** sign extensions, a range test and, for MUL, a 128-bit product. */
static LLVMValueRef int48op(Gen *g, OpCode op, LLVMValueRef bx, LLVMValueRef by, LLVMValueRef *ok) {
  const char *nm = op == OP_ADD ? "llvm.sadd.with.overflow" :
                   op == OP_SUB ? "llvm.ssub.with.overflow" : "llvm.smul.with.overflow";
  unsigned id = LLVMLookupIntrinsicID(nm, strlen(nm));
  LLVMValueRef fn = LLVMGetIntrinsicDeclaration(g->M, id, &g->i64, 1), args[2], res;
  args[0] = LLVMBuildShl(B_, bx, ci64(g, 16), "");
  args[1] = op == OP_MUL ? sext48(g, by) : LLVMBuildShl(B_, by, ci64(g, 16), "");
  res = LLVMBuildCall2(B_, LLVMIntrinsicGetType(g->C, id, &g->i64, 1), fn, args, 2, "");
  *ok = LLVMBuildNot(B_, LLVMBuildExtractValue(B_, res, 1, ""), "fits");
  return LLVMBuildAShr(B_, LLVMBuildExtractValue(B_, res, 0, ""), ci64(g, 16), "");
}

/* Integer MOD and IDIV of the same registers close together (`a[i] = v %
** B; carry = v // B`, digits, 2-D indices `i // w`, `i % w`): one
** division gives both (x86's idiv leaves quotient and remainder; LLVM
** pairs an sdiv and srem of the same operands in one block).  The pc of
** the partner of MOD/IDIV 'pc' (register operands, both integers by the
** types) that reads the same x and y unchanged on the only path from
** 'pc', or -1.  In between only loads, stores, moves and known-number
** arithmetic (no entry point, no jump in or out): their helpers leave
** compiled code when the frame's trap is set (helper_only's trapexit:
** debug.setlocal from a metamethod), so x and y hold what 'pc' read. */
static int divpartner(Gen *g, int pc) {
  Instruction i = g->p->code[pc];
  OpCode op = GET_OPCODE(i), want = op == OP_MOD ? OP_IDIV : OP_MOD;
  int x = GETARG_B(i), y = GETARG_C(i), q, s[2];
  if ((op != OP_MOD && op != OP_IDIV) || GETARG_A(i) == x || GETARG_A(i) == y ||
      regty(g, pc, x) != TY_INT || regty(g, pc, y) != TY_INT)
    return -1;
  npreds(g);
  if (g->npred == NULL) return -1;
  for (q = pc + 2; q < g->p->sizecode && q <= pc + 8 && inregion(g, q); q++) {
    Instruction iq = g->p->code[q];
    OpCode oq = GET_OPCODE(iq);
    RegSet d;
    int prevmm = GET_OPCODE(g->p->code[q - 1]) == OP_MMBIN || GET_OPCODE(g->p->code[q - 1]) == OP_MMBINI ||
                 GET_OPCODE(g->p->code[q - 1]) == OP_MMBINK;
    if (g->entry[q] || g->npred[q] > (prevmm ? 2 : 1)) return -1;
    if (oq == want && GETARG_B(iq) == x && GETARG_C(iq) == y)
      return regty(g, q, x) == TY_INT && regty(g, q, y) == TY_INT ? q : -1;
    switch (oq) {
      case OP_MMBIN: case OP_MMBINI: case OP_MMBINK:
        if (!numarith(g, q - 1)) return -1;
        continue;   /* (never run: the arithmetic before it cannot fail) */
      case OP_MOVE: case OP_LOADI: case OP_LOADF: case OP_LOADK: case OP_LOADFALSE:
      case OP_LOADTRUE: case OP_LOADNIL: case OP_GETUPVAL:
      case OP_GETTABLE: case OP_GETI: case OP_GETFIELD:
      case OP_SETTABLE: case OP_SETI: case OP_SETFIELD:
        break;
      default:
        if (!numarith(g, q)) return -1;
        break;
    }
    succs(g, q, s);
    if (s[0] != q + 1 && !(numarith(g, q) && s[0] == q + 2)) return -1;
    if (s[1] >= 0 && s[1] != q + 1 && s[1] != q + 2) return -1;
    maydef(g, q, &d);
    if (rs_has(&d, x) || rs_has(&d, y)) return -1;
  }
  return -1;
}

/* R[a] := dx op dy, the float operation of arithmetic */
static void fltarith(Gen *g, OpCode op, LLVMValueRef dx, LLVMValueRef dy, int a) {
  LLVMValueRef r;
  switch (op) {
    case OP_ADD: r = LLVMBuildFAdd(B_, dx, dy, ""); break;
    case OP_SUB: r = LLVMBuildFSub(B_, dx, dy, ""); break;
    case OP_MUL: r = LLVMBuildFMul(B_, dx, dy, ""); break;
    case OP_DIV: r = LLVMBuildFDiv(B_, dx, dy, ""); break;
    case OP_MOD: r = canonflt(g, callff(g, "mvmrt_fltmod", dx, dy)); break;
    case OP_IDIV: r = canonflt(g, callff(g, "mvmrt_fltidiv", dx, dy)); break;
    default: {   /* x^2 is x*x (as l_fpow): inline for a constant 2 */
      LLVMBool lossy;
      if (LLVMIsAConstantFP(dy) && LLVMConstRealGetDouble(dy, &lossy) == 2.0) {
        r = LLVMBuildFMul(B_, dx, dx, "");
        op = OP_MUL;
      }
      else r = canonflt(g, callff(g, "mvmrt_fltpow", dx, dy));
      break;
    }
  }
  setflt(g, a, r, dx, dy, op == OP_ADD || op == OP_SUB || op == OP_MUL || op == OP_DIV);
}

/* does R[r] (-1: a constant) of type t have a flag to test (fokregs)? */
static int hasfok(Gen *g, int r, int t) {
  return r >= 0 && r < g->nregs && g->fokvar != NULL && g->fokvar[r] != NULL && !knum(t);
}
/* the double of a word known to be a number of type t (TY_INT or TY_FLT) */
static LLVMValueRef knumdbl(Gen *g, LLVMValueRef b, int t) {
  return t == TY_FLT ? getflt(g, b) : LLVMBuildSIToFP(B_, sext48(g, b), g->f64, "");
}
/* an operand's double on fokfast's path: its fvar when it has a flag */
static LLVMValueRef fokdbl(Gen *g, int r, LLVMValueRef b, int t) {
  return hasfok(g, r, t) ? LLVMBuildLoad2(B_, g->f64, g->fvar[r], "") : knumdbl(g, b, t);
}
/* Arithmetic whose operands (registers rx, ry; -1 for a constant) are
** each a number of known type or a register with a flag (fokregs): when
** the flags are set, the float operation on the doubles, with no test of
** the words (an operand that is a float makes the operation a float one,
** an integer converts as the interpreter converts it); else arith's
** paths, after this. */
static void fokfast(Gen *g, int pc, OpCode op, LLVMValueRef bx, LLVMValueRef by, int a, int next,
                    int tx, int ty, int rx, int ry) {
  int fx = hasfok(g, rx, tx), fy = hasfok(g, ry, ty);
  LLVMBasicBlockRef fast, slow;
  LLVMValueRef ok = NULL;
  if (!(fx || fy) || (!fx && !knum(tx)) || (!fy && !knum(ty)) || g->widepc == pc) return;
  if (fx) ok = LLVMBuildLoad2(B_, g->i1, g->fokvar[rx], "fok");
  if (fy) {
    LLVMValueRef oky = LLVMBuildLoad2(B_, g->i1, g->fokvar[ry], "fok");
    ok = ok != NULL ? LLVMBuildAnd(B_, ok, oky, "") : oky;
  }
  fast = newbb(g, "fokfast"); slow = newbb(g, "fokslow");
  LLVMBuildCondBr(B_, ok, fast, slow);
  LLVMPositionBuilderAtEnd(B_, fast);
  fltarith(g, op, fokdbl(g, rx, bx, tx), fokdbl(g, ry, by, ty), a);
  br(g, next);
  LLVMPositionBuilderAtEnd(B_, slow);
}

/* Does the arithmetic/bitwise instruction at 'pc' call mvmrt_arith for a
** non-number (mmsites)?  The same test as tytransfer's on the types there. */
static int mmlive(Gen *g, int pc) {
  Instruction i = g->p->code[pc];
  int b = GETARG_B(i), c = GETARG_C(i);
  if (g->mm == NULL || !g->mm[pc]) return 0;
  return mmlivety(i, b < g->nregs ? regty(g, pc, b) : TY_ANY,
                 c < g->nregs ? regty(g, pc, c) : TY_ANY);
}
/* the block calling mvmrt_arith for instruction 'pc' (and its MMBIN*),
** then going on at 'next' (pc + 2; UNM, BNOT: pc + 1) */
static LLVMBasicBlockRef mmhelper(Gen *g, int pc, int next) {
  LLVMBasicBlockRef cur = LLVMGetInsertBlock(B_), b = newbb(g, "mmhelper");
  LLVMPositionBuilderAtEnd(B_, b);
  g->trapexit = 1;   /* the helper completes both instructions */
  callop(g, "mvmrt_arith", pc, next, 0);
  g->trapexit = 0;
  br(g, next);
  LLVMPositionBuilderAtEnd(B_, cur);
  return b;
}
/* continue only if 'cond' (the operands are numbers) holds, else the
** metamethod site's helper or an exit at 'pc'.  The exit counts as a
** failed speculation: code compiled before the feedback saw anything but
** numbers there (`add(a, b)` first called with numbers, then with
** vectors) would otherwise leave at every call; counted, it is compiled
** again (jit.c despecialise) with the feedback the interpreter recorded
** at the exits, which makes the site a metamethod site. */
static void numguard(Gen *g, LLVMValueRef cond, int pc, int next) {
  guardto(g, cond, mmlive(g, pc) ? mmhelper(g, pc, next) : specexit(g, pc));
}

/* R[A] := x op y (x, y: i64 words); integer immediates and floats inline,
** anything else (boxed integers, overflow, strings, metamethods, division
** by zero) leaves to the interpreter at 'pc'.  'skip': pc of the next
** instruction (after the MMBIN*, when there is one).  tx, ty: the static
** types of x and y (TY_*); only the paths they allow are emitted.  rx, ry:
** their registers, -1 for a constant (fokfast). */
static void arith(Gen *g, int pc, OpCode op, LLVMValueRef bx, LLVMValueRef by, int a, int next,
                  int tx, int ty, int rx, int ry) {
  LLVMValueRef r, x, y, dx, dy, sq = NULL, sr = NULL;
  int intop = op == OP_ADD || op == OP_SUB || op == OP_MUL || op == OP_MOD || op == OP_IDIV;
  int bothint = tx == TY_INT && ty == TY_INT, partner = -1;
  fokfast(g, pc, op, bx, by, a, next, tx, ty, rx, ry);
  if (intop && (tx == TY_FLT || ty == TY_FLT)) intop = 0;   /* a float: the float path only */
  if (intop) {
    LLVMBasicBlockRef ib = newbb(g, "intop"), fb = newbb(g, "fltop");
    if (bothint) LLVMBuildBr(B_, ib);
    else LLVMBuildCondBr(B_, LLVMBuildAnd(B_, isint(g, bx), isint(g, by), ""), ib, fb);
    LLVMPositionBuilderAtEnd(B_, ib);
    x = sext48(g, bx); y = sext48(g, by);
    if (bothint && (op == OP_MOD || op == OP_IDIV) && g->widepc != pc) {
      /* divpartner: the quotient and remainder an earlier partner made,
      ** or make both for a later one */
      if (g->dmpc == pc && g->dmq != NULL) { sq = g->dmq; sr = g->dmr; }
      else if ((partner = divpartner(g, pc)) >= 0) {
        guard(g, LLVMBuildICmp(B_, LLVMIntNE, y, ci64(g, 0), ""), pc);
        sq = LLVMBuildSDiv(B_, x, y, "");
        sr = LLVMBuildSRem(B_, x, y, "");
      }
      g->dmpc = partner; g->dmq = partner >= 0 ? sq : NULL; g->dmr = sr;
    }
    if (bothint) wideopnds(g, pc, &x, &y);
    if (bothint && (op == OP_MUL || op == OP_ADD || op == OP_SUB) && widecons(g, pc, a, 0)) {
      r = op == OP_MUL ? LLVMBuildMul(B_, x, y, "") :
          op == OP_ADD ? LLVMBuildAdd(B_, x, y, "") : LLVMBuildSub(B_, x, y, "");
      g->widepc = next; g->widereg = a; g->wideval = r;
      fokset(g, a, 0);
      br(g, next);
      LLVMPositionBuilderAtEnd(B_, fb);
      LLVMBuildUnreachable(B_);
      return;
    }
    switch (op) {
      case OP_MUL: {
        LLVMValueRef ok;
        r = int48op(g, op, bx, by, &ok);
        fitguard(g, ok, pc);
        break;
      }
      case OP_MOD: {   /* floor modulo; n == 0: the interpreter raises */
        LLVMValueRef rem, adj;
        if (sr != NULL) rem = sr;   /* (y != 0 guarded where it was made) */
        else {
          guard(g, LLVMBuildICmp(B_, LLVMIntNE, y, ci64(g, 0), ""), pc);
          rem = LLVMBuildSRem(B_, x, y, "");
        }
        adj = LLVMBuildAnd(B_, LLVMBuildICmp(B_, LLVMIntNE, rem, ci64(g, 0), ""),
                           LLVMBuildICmp(B_, LLVMIntSLT, LLVMBuildXor(B_, rem, y, ""), ci64(g, 0), ""), "");
        r = LLVMBuildSelect(B_, adj, LLVMBuildAdd(B_, rem, y, ""), rem, "");
        break;
      }
      case OP_IDIV: {   /* floor division; n == 0: the interpreter raises */
        LLVMValueRef q, rem, adj;
        if (sq != NULL) { q = sq; rem = sr; }
        else {
          guard(g, LLVMBuildICmp(B_, LLVMIntNE, y, ci64(g, 0), ""), pc);
          q = LLVMBuildSDiv(B_, x, y, "");
          rem = LLVMBuildSRem(B_, x, y, "");
        }
        adj = LLVMBuildAnd(B_, LLVMBuildICmp(B_, LLVMIntNE, rem, ci64(g, 0), ""),
                           LLVMBuildICmp(B_, LLVMIntSLT, LLVMBuildXor(B_, x, y, ""), ci64(g, 0), ""), "");
        r = LLVMBuildSub(B_, q, LLVMBuildZExt(B_, adj, g->i64, ""), "");
        fitguard(g, fits48(g, r), pc);
        break;
      }
      default: {
        LLVMValueRef ok;
        r = int48op(g, op, bx, by, &ok);
        fitguard(g, ok, pc);
        break;
      }
    }
    setreg(g, a, mkint(g, r));
    br(g, next);
    LLVMPositionBuilderAtEnd(B_, fb);
    if (bothint) {   /* unreachable */
      LLVMBuildUnreachable(B_);
      return;
    }
  }
  if (knum(tx) && knum(ty)) {   /* both known numbers: convert, no tests */
    dx = knumdbl(g, bx, tx);
    dy = knumdbl(g, by, ty);
  }
  else {
    /* both floats: no conversions; else mixed (an integer converts exactly) */
    LLVMBasicBlockRef ff = newbb(g, "bothflt"), mixed = newbb(g, "mixed"), fop = newbb(g, "fop");
    LLVMBasicBlockRef from[2];
    LLVMValueRef px, py, dx2, dy2;
    LLVMBuildCondBr(B_, LLVMBuildAnd(B_, tisflt(g, bx, tx), tisflt(g, by, ty), ""), ff, mixed);
    LLVMPositionBuilderAtEnd(B_, ff);
    dx = getflt(g, bx); dy = getflt(g, by);
    LLVMBuildBr(B_, fop);
    LLVMPositionBuilderAtEnd(B_, mixed);
    numguard(g, LLVMBuildAnd(B_, tisnum(g, bx, tx), tisnum(g, by, ty), ""), pc, next);
    dx2 = ttonum(g, bx, tx); dy2 = ttonum(g, by, ty);
    from[0] = ff; from[1] = LLVMGetInsertBlock(B_);
    LLVMBuildBr(B_, fop);
    LLVMPositionBuilderAtEnd(B_, fop);
    px = LLVMBuildPhi(B_, g->f64, "dx");
    py = LLVMBuildPhi(B_, g->f64, "dy");
    { LLVMValueRef vx[2], vy[2];
      vx[0] = dx; vx[1] = dx2; vy[0] = dy; vy[1] = dy2;
      LLVMAddIncoming(px, vx, from, 2);
      LLVMAddIncoming(py, vy, from, 2); }
    dx = px; dy = py;
  }
  fltarith(g, op, dx, dy, a);
  br(g, next);
}

/* x << y as vm_shiftl: negative y shifts right (logically), |y| >= 64 gives 0 */
static LLVMValueRef shiftl(Gen *g, LLVMValueRef x, LLVMValueRef y) {
  LLVMValueRef neg = LLVMBuildICmp(B_, LLVMIntSLT, y, ci64(g, 0), "");
  LLVMValueRef ay = LLVMBuildSelect(B_, neg, LLVMBuildNeg(B_, y, ""), y, "");
  LLVMValueRef big = LLVMBuildICmp(B_, LLVMIntUGE, ay, ci64(g, 64), "");
  LLVMValueRef sh = LLVMBuildAnd(B_, ay, ci64(g, 63), "");   /* no poison shifts */
  LLVMValueRef r = LLVMBuildSelect(B_, neg, LLVMBuildLShr(B_, x, sh, ""), LLVMBuildShl(B_, x, sh, ""), "");
  return LLVMBuildSelect(B_, big, ci64(g, 0), r, "");
}

/* R[A] := x bitop y on integer immediates (anything else: interpreter) */
static void bitop(Gen *g, int pc, OpCode op, LLVMValueRef bx, LLVMValueRef by, int a, int next,
                  int tx, int ty) {
  LLVMValueRef x, y, r;
  if (tx != TY_INT || ty != TY_INT)
    numguard(g, LLVMBuildAnd(B_, tisint(g, bx, tx), tisint(g, by, ty), ""), pc, next);
  x = sext48(g, bx); y = sext48(g, by);
  wideopnds(g, pc, &x, &y);   /* (widecons: a wide x ends here, and fits) */
  switch (op) {
    case OP_BAND: r = LLVMBuildAnd(B_, x, y, ""); break;
    case OP_BOR: r = LLVMBuildOr(B_, x, y, ""); break;
    case OP_BXOR: r = LLVMBuildXor(B_, x, y, ""); break;
    case OP_SHL: r = shiftl(g, x, y); break;
    default: r = shiftl(g, x, LLVMBuildNeg(B_, y, "")); break;   /* SHR */
  }
  if ((op == OP_SHL || op == OP_SHR) && !(op == OP_SHR && LLVMIsAConstantInt(y) &&
                                          LLVMConstIntGetSExtValue(y) >= 17))
    fitguard(g, fits48(g, r), pc);   /* else boxed */
  setreg(g, a, mkint(g, r));
  br(g, next);
}

static LLVMBasicBlockRef backedge(Gen *g, int pc, int target);
/* a test (EQ/LT/.../GEI/TEST) followed by its JMP */
static void condjump(Gen *g, int pc, LLVMValueRef cond) {
  Instruction i = g->p->code[pc];
  Instruction j = g->p->code[pc + 1];
  int target = pc + 2 + GETARG_sJ(j);
  /* "if (cond ~= k) then pc++": skip the jump when cond differs from k */
  if (GETARG_k(i))
    LLVMBuildCondBr(B_, cond, backedge(g, pc, target), g->bb[pc + 2]);
  else
    LLVMBuildCondBr(B_, cond, g->bb[pc + 2], backedge(g, pc, target));
}

/* EQ LT LE on two registers: numbers inline (48-bit integers convert to
** doubles exactly, so mixed comparisons are exact), the rest in a helper */
static void compare(Gen *g, int pc, OpCode op, LLVMValueRef bx, LLVMValueRef by, int tx, int ty) {
  LLVMBasicBlockRef ib = newbb(g, "cmpint"), nb = newbb(g, "cmpnum1");
  LLVMBasicBlockRef fb = newbb(g, "cmpflt"), gb = newbb(g, "cmpgen");
  LLVMIntPredicate ip = op == OP_EQ ? LLVMIntEQ : op == OP_LT ? LLVMIntSLT : LLVMIntSLE;
  LLVMRealPredicate fp = op == OP_EQ ? LLVMRealOEQ : op == OP_LT ? LLVMRealOLT : LLVMRealOLE;
  LLVMValueRef r;
  LLVMBuildCondBr(B_, LLVMBuildAnd(B_, tisint(g, bx, tx), tisint(g, by, ty), ""), ib, nb);
  LLVMPositionBuilderAtEnd(B_, ib);
  condjump(g, pc, LLVMBuildICmp(B_, ip, sext48(g, bx), sext48(g, by), ""));
  LLVMPositionBuilderAtEnd(B_, nb);
  LLVMBuildCondBr(B_, LLVMBuildAnd(B_, tisnum(g, bx, tx), tisnum(g, by, ty), ""), fb, gb);
  LLVMPositionBuilderAtEnd(B_, fb);
  condjump(g, pc, LLVMBuildFCmp(B_, fp, ttonum(g, bx, tx), ttonum(g, by, ty), ""));
  LLVMPositionBuilderAtEnd(B_, gb);
  if (op == OP_EQ) {   /* identical non-numbers are equal (strings are interned) */
    LLVMBasicBlockRef same = newbb(g, "eqsame"), diff = newbb(g, "eqdiff");
    LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntEQ, bx, by, ""), same, diff);
    LLVMPositionBuilderAtEnd(B_, same);
    condjump(g, pc, LLVMConstInt(g->i1, 1, 0));
    LLVMPositionBuilderAtEnd(B_, diff);
  }
  r = callop(g, op == OP_EQ ? "mvmrt_eq" : op == OP_LT ? "mvmrt_lt" : "mvmrt_le", pc, pc + 1, 1);
  condjump(g, pc, LLVMBuildICmp(B_, LLVMIntNE, r, ci32(g, 0), ""));
}

/* LTI LEI GTI GEI EQI: numbers inline; other values leave (metamethods) */
static void comparei(Gen *g, int pc, OpCode op, LLVMValueRef bx, int imm, int tx) {
  LLVMBasicBlockRef ib = newbb(g, "cmpint"), fb = newbb(g, "cmpflt");
  LLVMIntPredicate ip = op == OP_EQI ? LLVMIntEQ : op == OP_LTI ? LLVMIntSLT :
                        op == OP_LEI ? LLVMIntSLE : op == OP_GTI ? LLVMIntSGT : LLVMIntSGE;
  LLVMRealPredicate fp = op == OP_EQI ? LLVMRealOEQ : op == OP_LTI ? LLVMRealOLT :
                         op == OP_LEI ? LLVMRealOLE : op == OP_GTI ? LLVMRealOGT : LLVMRealOGE;
  LLVMBuildCondBr(B_, tisint(g, bx, tx), ib, fb);
  LLVMPositionBuilderAtEnd(B_, ib);
  condjump(g, pc, LLVMBuildICmp(B_, ip, sext48(g, bx), ci64(g, (uint64_t)(int64_t)imm), ""));
  LLVMPositionBuilderAtEnd(B_, fb);
  if (op == OP_EQI) {   /* a non-number (or a boxed integer) never equals a small integer */
    LLVMBasicBlockRef nf = newbb(g, "eqnotflt");
    LLVMBasicBlockRef ff = newbb(g, "eqflt");
    LLVMBuildCondBr(B_, tisflt(g, bx, tx), ff, nf);
    LLVMPositionBuilderAtEnd(B_, nf);
    condjump(g, pc, LLVMConstInt(g->i1, 0, 0));
    LLVMPositionBuilderAtEnd(B_, ff);
  }
  else
    guard(g, tisflt(g, bx, tx), pc);
  condjump(g, pc, LLVMBuildFCmp(B_, fp, getflt(g, bx),
                                LLVMConstReal(g->f64, (double)imm), ""));
}

/* operand R[r] of a float for loop as a double: a number, else exit
** at pc (strings convert in the interpreter) */
static LLVMValueRef fltoperand(Gen *g, int pc, int r) {
  int t = regty(g, pc, r);
  LLVMValueRef b = opnd(g, pc, r);
  if (!knum(t)) guard(g, isnum(g, b), pc);
  return ttonum(g, b, t);
}

/* Numeric for loops store savedpc once, on entry (FORPREP), not at every
** back-edge.  The safepoint poll at the back-edge (and GC at it) needs a
** valid savedpc only for "interrupted" (its line, a traceback) and for
** whatever a finalizer run by the collection reads (getinfo's
** currentline); nothing reads it as an entry point (a poll never
** yields).  Inside the body savedpc only ever changes to instructions of
** the body (helper calls, inner loops' entries) or the code leaves
** (exits), so at every poll of the loop it names an instruction of the
** loop: an asynchronous interrupt is reported somewhere inside the loop,
** as in the interpreter (which raises it at its back-edge countdown).
** Entered at the header (OSR resume) instead, the interpreter's savedpc is
** the header.  Saves a reload of ci and a store per iteration. */
static void loopsavedpc(Gen *g, int pc) {
  set_savedpc(g, pc + 2 + GETARG_Bx(g->p->code[pc]));   /* after FORLOOP */
}

/* Loops closed by a backward JMP (while, repeat, goto) likewise: their
** header's block (g->bb[h], which every edge but the back-edges takes:
** falling in, forward jumps, OSR resumes) stores savedpc (after the last
** back-edge JMP) and goes on to the header's code (g->hdr[h]), where the
** back-edges go.  jmploops marks the headers before the code is made. */
static void jmploops(Gen *g) {
  int pc;
  for (pc = 0; pc < g->p->sizecode; pc++) {
    Instruction i = g->p->code[pc];
    int t = pc + 1 + GETARG_sJ(i);
    if (GET_OPCODE(i) == OP_JMP && t <= pc && t >= 0) g->hdrsave[t] = pc + 1;
  }
}
static void jmploophdr(Gen *g, int pc) {
  if (g->hdrsave[pc] == 0) return;
  set_savedpc(g, g->hdrsave[pc]);
  g->hdr[pc] = newbb(g, "loophdr");
  LLVMBuildBr(B_, g->hdr[pc]);
  LLVMPositionBuilderAtEnd(B_, g->hdr[pc]);
}
/* the block an edge from 'pc' to 'target' goes to */
static LLVMBasicBlockRef backedge(Gen *g, int pc, int target) {
  return target <= pc && g->hdr[target] != NULL ? g->hdr[target] : g->bb[target];
}

/* FORPREP of a float loop (fltloop), as the interpreter's: all three
** converted, step 0 raises (exit), then skip or run.  Both paths store
** the four registers as floats (the types say so; R[A+3] is dead after
** a skip, and so are the others once the loop is left). */
static void fltforprep(Gen *g, int pc) {
  Instruction i = g->p->code[pc];
  int a = GETARG_A(i), r;
  LLVMValueRef v[3], pos, skip, zero = LLVMConstReal(g->f64, 0.0);
  for (r = 0; r < 3; r++) v[r] = fltoperand(g, pc, a + r);
  guard(g, LLVMBuildFCmp(B_, LLVMRealUNE, v[2], zero, ""), pc);
  pos = LLVMBuildFCmp(B_, LLVMRealOLT, zero, v[2], "");
  skip = LLVMBuildSelect(B_, pos, LLVMBuildFCmp(B_, LLVMRealOLT, v[1], v[0], ""),
                         LLVMBuildFCmp(B_, LLVMRealOLT, v[0], v[1], ""), "skip");
  for (r = 0; r < 3; r++) setdbl(g, a + r, v[r]);
  setdbl(g, a + 3, v[0]);
  { LLVMBasicBlockRef runb = newbb(g, "forrun");
    LLVMBuildCondBr(B_, skip, g->bb[pc + 1 + GETARG_Bx(i) + 1], runb);
    LLVMPositionBuilderAtEnd(B_, runb); }
  { RegSet s;   /* the loop starts with clean registers (cleananalyse) */
    loopentryset(g, pc, &s);
    only_dirty(g, pc, &s);
    flushat(g, pc + 1, &s); }
  loopsavedpc(g, pc);
  br(g, pc + 1);
}

/* The back-edge from 'pc' to the loop header 'target' polls here, not
** through place-safepoints, when the loop has an entry point inside it
** besides its header (after a call that may return to the interpreter,
** at an inner loop's header: entrypoints).  Where such an entry leads
** into the block of the loop's only back-edge (a for loop's FORLOOP
** after `if i == n then f() end`), LLVM sees no natural loop (two ways
** in) and placed no poll in it: an interrupt set while it ran was not
** seen until it ended.  (Where LLVM still finds a natural loop, on the
** paths that skip the entry, the two polls are on different paths.)  The
** code of gc.safepoint_poll (pollcode), its call a statepoint, its slow
** edge cold; savedpc names an instruction of the loop, as at
** place-safepoints' polls (loopsavedpc, jmploophdr, TFORLOOP). */
static void pollcode(Gen *g, LLVMBasicBlockRef slow, LLVMBasicBlockRef done);
static void edgepoll(Gen *g, int pc, int target) {
  LLVMBasicBlockRef slow, cont;
  int q;
  if (g->entry == NULL) return;
  for (q = target + 1; q <= pc && !g->entry[q]; q++) ;
  if (q > pc) return;   /* a natural loop: place-safepoints polls it */
  slow = newbb(g, "edgepoll");
  cont = newbb(g, "edgepolled");
  pollcode(g, slow, cont);
  coldedges(g, slow, 0);
  LLVMPositionBuilderAtEnd(B_, cont);
}

/* FORLOOP of a float loop: R[A] += step; go on while within the limit */
static void fltforloop(Gen *g, int pc) {
  Instruction i = g->p->code[pc];
  int a = GETARG_A(i);
  LLVMValueRef idx = fltoperand(g, pc, a), limit = fltoperand(g, pc, a + 1);
  LLVMValueRef step = fltoperand(g, pc, a + 2), nidx = LLVMBuildFAdd(B_, idx, step, "");
  LLVMValueRef pos = LLVMBuildFCmp(B_, LLVMRealOLT, LLVMConstReal(g->f64, 0.0), step, "");
  LLVMValueRef go = LLVMBuildSelect(B_, pos, LLVMBuildFCmp(B_, LLVMRealOLE, nidx, limit, ""),
                                    LLVMBuildFCmp(B_, LLVMRealOLE, limit, nidx, ""), "");
  LLVMBasicBlockRef again = newbb(g, "fforagain");
  LLVMBuildCondBr(B_, go, again, g->bb[pc + 1]);
  LLVMPositionBuilderAtEnd(B_, again);
  setdbl(g, a, nidx);
  setdbl(g, a + 3, nidx);
  edgepoll(g, pc, pc + 1 - GETARG_Bx(i));
  br(g, pc + 1 - GETARG_Bx(i));   /* savedpc: loopsavedpc */
}

/* integer operand R[r] at pc (guarded unless known); a raw register's
** int64 itself */
static LLVMValueRef getint(Gen *g, int pc, int r) {
  if (g->regvar[r] != NULL && rs_has(&g->rawint, r) && regty(g, pc, r) == TY_INT)
    return LLVMBuildLoad2(B_, g->i64, g->regvar[r], "");
  return intoperand(g, getreg(g, r), pc, regty(g, pc, r));
}
/* GETTABLE/SETTABLE: key register R[r] known to hold an integer at pc.
** Its payload is then the key itself (getint: a raw register's int64, no
** boxing to test the tag and unbox again); the boxed key is built only
** where the hash part or a helper needs it. */
static int intkey(Gen *g, int pc, int r) {
  return regty(g, pc, r) == TY_INT;
}
/* R[r] := integer x known to fit 48 bits */
static void setint(Gen *g, int r, LLVMValueRef x) {
  if (g->regvar[r] != NULL && rs_has(&g->rawint, r)) LLVMBuildStore(B_, x, g->regvar[r]);
  else setreg(g, r, mkint(g, x));
}

/* FORPREP 'pc''s checks (forchecks) of what the types do not know yet */
static void forcheck(Gen *g, int pc) {
  int r;
  if (g->forchk == NULL || g->tabin == NULL) return;
  for (r = 0; r < g->nregs; r++)
    if (rs_has(&g->forchk[pc], r) && !rs_has(&g->tabin[pc], r)) {
      LLVMValueRef v = getreg(g, r);
      istable(g, v, bits(g, v), newbb(g, "forchk"), specexit(g, pc));
    }
}
static void forprep(Gen *g, int pc) {
  Instruction i = g->p->code[pc];
  int a = GETARG_A(i);
  LLVMValueRef init = getint(g, pc, a);
  LLVMValueRef limit = getint(g, pc, a + 1);
  LLVMValueRef step = getint(g, pc, a + 2);
  LLVMValueRef pos, skip, count, up, down, zero = ci64(g, 0);
  LLVMBasicBlockRef skipb = LLVMAppendBasicBlockInContext(g->C, g->fn, "forskip");
  LLVMBasicBlockRef runb = LLVMAppendBasicBlockInContext(g->C, g->fn, "forrun");
  /* step 0: the interpreter raises the error */
  guard(g, LLVMBuildICmp(B_, LLVMIntNE, step, zero, ""), pc);
  pos = LLVMBuildICmp(B_, LLVMIntSGT, step, zero, "");
  skip = LLVMBuildSelect(B_, pos, LLVMBuildICmp(B_, LLVMIntSGT, init, limit, ""),
                         LLVMBuildICmp(B_, LLVMIntSLT, init, limit, ""), "skip");
  LLVMBuildCondBr(B_, skip, skipb, runb);
  LLVMPositionBuilderAtEnd(B_, skipb);
  setint(g, a + 3, init);
  br(g, pc + 1 + GETARG_Bx(i) + 1);
  LLVMPositionBuilderAtEnd(B_, runb);
  /* all three fit 48 bits: the differences and quotients are exact */
  up = LLVMBuildUDiv(B_, LLVMBuildSub(B_, limit, init, ""), step, "");
  down = LLVMBuildUDiv(B_, LLVMBuildSub(B_, init, limit, ""), LLVMBuildNeg(B_, step, ""), "");
  count = LLVMBuildSelect(B_, pos, up, down, "count");
  guard(g, LLVMBuildICmp(B_, LLVMIntULE, count, ci64(g, MVM_IMM_MAX), ""), pc);
  applysplit(g, pc + 1);   /* the loop's home from here (forsplit) */
  if (g->split != NULL) {   /* the same values, moving home */
    if (rs_has(&g->split[pc + 1], a)) setint(g, a, init);
    if (rs_has(&g->split[pc + 1], a + 2)) setint(g, a + 2, step);
  }
  setint(g, a + 1, count);
  setint(g, a + 3, init);
  { RegSet s;   /* the loop starts with clean registers (cleananalyse) */
    loopentryset(g, pc, &s);
    only_dirty(g, pc, &s);
    flushat(g, pc + 1, &s); }   /* after FORPREP's writes */
  applysplit(g, pc);
  loopsavedpc(g, pc);
  br(g, pc + 1);
}

/* The next index fits 48 bits whenever the loop goes on: FORPREP's count
** keeps it between the initial value and the limit, both immediates.  This
** holds while compiled code has had the loop's state all along, so the
** test is left out where that is so: entered only at its header
** (foronlyheader; the state checked there, forentrycheck), and where no
** callee can have changed the state (debug.setlocal on the "(for state)"
** locals) with compiled code going on: CALL and the table helpers
** (helper_only) leave to the interpreter when the frame's trap is set
** (reload_after_call's trapexit); a body with other calls (callop: LEN,
** CONCAT, ...; g->contcall) keeps the test. */
static void forloop(Gen *g, int pc) {
  Instruction i = g->p->code[pc];
  int a = GETARG_A(i);
  LLVMValueRef idx = getint(g, pc, a);
  LLVMValueRef count = getint(g, pc, a + 1);
  LLVMValueRef step = getint(g, pc, a + 2);
  LLVMValueRef nidx;
  LLVMBasicBlockRef again = LLVMAppendBasicBlockInContext(g->C, g->fn, "foragain");
  LLVMBasicBlockRef notpos = LLVMAppendBasicBlockInContext(g->C, g->fn, "fordone");
  LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntSGT, count, ci64(g, 0), ""), again, notpos);
  /* count < 0 (a huge unsigned count): the interpreter's slow path */
  LLVMPositionBuilderAtEnd(B_, notpos);
  LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntEQ, count, ci64(g, 0), ""),
                  g->bb[pc + 1], exitblock(g, pc));
  LLVMPositionBuilderAtEnd(B_, again);
  nidx = LLVMBuildAdd(B_, idx, step, "");
  if (g->contcall >= pc + 1 - (int)GETARG_Bx(i) || !foronlyheader(g, pc - GETARG_Bx(i)))
    guard(g, fits48(g, nidx), pc);   /* see above */
  setint(g, a + 1, LLVMBuildSub(B_, count, ci64(g, 1), ""));
  setint(g, a, nidx);
  setint(g, a + 3, nidx);
  edgepoll(g, pc, pc + 1 - GETARG_Bx(i));
  br(g, pc + 1 - GETARG_Bx(i));   /* savedpc: loopsavedpc */
}

/* CALL-like: R[a](R[a+1] .. R[a+b-1]), 'nres' results; resumes at pc + 1 */
/* Values up to L->top: a C == 0 CALL or VARARG leaves them for the next
** instruction, which takes them all (B == 0).  The compiled code goes on
** to that instruction when it is one it compiles with L->top (CALL,
** SETLIST, RETURN, TAILCALL): nothing between the two touches L->top (flushes store into
** the frame's registers, all of which are clean after the call's
** reloads).  Otherwise the interpreter goes on at pc + 1. */
static int takes_top(Instruction i) {
  switch (GET_OPCODE(i)) {
    case OP_CALL: case OP_SETLIST: return GETARG_B(i) == 0;
    case OP_RETURN: return GETARG_B(i) == 0;
    case OP_TAILCALL: return GETARG_B(i) == 0;
    default: return 0;
  }
}
static void multret_next(Gen *g, int pc, int multret) {
  if (multret && !(pc + 1 < g->p->sizecode && takes_top(g->p->code[pc + 1])))
    LLVMBuildBr(B_, exitblock(g, pc + 1));
  else
    br(g, pc + 1);
}

/* fields of the VM's records (tbaa "callinfo": lua_State, CallInfo) */
static LLVMValueRef fload(Gen *g, LLVMTypeRef ty, LLVMValueRef rec, size_t off, const char *nm) {
  return tb(g, LLVMBuildLoad2(B_, ty, byteptr(g, rec, off), nm), g->tb_frame);
}
static void fstore(Gen *g, LLVMValueRef v, LLVMValueRef rec, size_t off) {
  tb(g, LLVMBuildStore(B_, v, byteptr(g, rec, off)), g->tb_frame);
}

/* The stack pointer of this frame's body (llvm.stacksave: no stack
** arguments, no dynamic allocas, so the one of every call it makes) */
static LLVMValueRef stackptr(Gen *g) {
  unsigned id = LLVMLookupIntrinsicID("llvm.stacksave", 14);
  return LLVMBuildCall2(B_, LLVMIntrinsicGetType(g->C, id, &g->p0, 1),
                        LLVMGetIntrinsicDeclaration(g->M, id, &g->p0, 1), NULL, 0, "sp");
}

/* May this call be made directly?  The callee R[a] (arguments up to
** R[a+b-1]) is a Lua closure 'cl' whose compiled code 'code' exists, and
** the conditions of rt_leancall (jitrt.c) and of its direct call hold:
** no hooks, no pending interrupt, a spare CallInfo 'nci', room on the
** stack, the stack pointer 'sp' in the window of direct calls (jit.h
** JIT_CSRESERVE; rt_direct; in a coroutine too: a yield discards the C
** frames of direct calls, see RT_DIRECT in jitrt.c).  Also at least as
** many arguments as parameters (no nils to add: 'npok').  'newtop' is the
** callee's frame top (func + 1 + maxstacksize).  Any of these false: the
** general path (mvmrt_precall), 'slow'; 'code' NULL: the caller knows
** there is code (a self call).  The window's test comes last, in a block
** of its own: it is returned, for the caller's branch.  (In one block
** with the others, LLVM computed all the conditions into flags and or'ed
** them: more instructions, and spills at fib's call sites.) */
static LLVMValueRef directok(Gen *g, LLVMValueRef npok, LLVMValueRef code, LLVMValueRef nci,
                             LLVMValueRef newtop, int b, LLVMValueRef sp, LLVMBasicBlockRef slow) {
  LLVMTypeRef flagty = LLVMIntTypeInContext(g->C, 8 * sizeof(sig_atomic_t));
  LLVMValueRef hook, intr, last, room, ok, lo, span, ncc;
  LLVMBasicBlockRef nest = newbb(g, "nestok");
  hook = fload(g, g->i32, g->L, offsetof(lua_State, hookmask), "hookmask");
  LLVMSetVolatile(hook, 1);
  intr = LLVMBuildLoad2(B_, flagty, craw(g, (const void *)&g->J->g->interrupt), "interrupt");
  LLVMSetVolatile(intr, 1);
  last = fload(g, g->p0, g->L, offsetof(lua_State, stack_last), "stack_last");
  /* stack_last - top > maxstacksize (in slots), top = func + b: the
  ** callee's top (func + 1 + maxstacksize, stored in its CallInfo) plus
  ** b - 1 below stack_last */
  room = LLVMBuildICmp(B_, LLVMIntULT, LLVMBuildPtrToInt(B_, byteptr(g, newtop, (size_t)(b - 1) * sizeof(Value)), g->i64, ""),
                       LLVMBuildPtrToInt(B_, last, g->i64, ""), "room");
  ok = LLVMBuildICmp(B_, LLVMIntEQ, hook, ci32(g, 0), "");
  if (code != NULL)
    ok = LLVMBuildAnd(B_, ok, LLVMBuildICmp(B_, LLVMIntUGT, LLVMBuildPtrToInt(B_, code, g->i64, ""),
                                            ci64(g, (uint64_t)(uintptr_t)JIT_QUEUED), "hascode"), "");
  ok = LLVMBuildAnd(B_, ok, LLVMBuildICmp(B_, LLVMIntEQ, intr, LLVMConstInt(flagty, 0, 0), ""), "");
  ok = LLVMBuildAnd(B_, ok, LLVMBuildIsNotNull(B_, nci, ""), "");
  ok = LLVMBuildAnd(B_, ok, room, "");
  ok = LLVMBuildAnd(B_, ok, npok, "");
  LLVMBuildCondBr(B_, ok, nest, slow);
  LLVMPositionBuilderAtEnd(B_, nest);
  /* sp - cslo < csspan, unsigned: within the window (which jit_run sets
  ** on each entry: loaded at each call), and fewer than JIT_MAXNEST
  ** nested activations (jitrt.c NESTED ACTIVATIONS: nCcalls' top byte;
  ** the bits below it are less than 1 << 24) */
  lo = LLVMBuildLoad2(B_, g->i64, craw(g, &g->J->cslo), "cslo");
  span = LLVMBuildLoad2(B_, g->i64, craw(g, &g->J->csspan), "csspan");
  ncc = fload(g, g->i32, g->L, offsetof(lua_State, nCcalls), "nCcalls");
  return LLVMBuildAnd(B_, LLVMBuildICmp(B_, LLVMIntULT, LLVMBuildSub(B_, LLVMBuildPtrToInt(B_, sp, g->i64, ""), lo, ""),
                                        span, "inwindow"),
                      LLVMBuildICmp(B_, LLVMIntULT, ncc, LLVMConstInt(g->i32, (unsigned long long)((unsigned)JIT_MAXNEST << 24), 0), "nested"),
                      "");
}

/* Is the CALL at 'pc' probably a call of the running function itself
** (recursion through an upvalue: `local function f ... f(x) ... end`)?
** The last instruction before it that writes R[a] is a GETUPVAL of the
** upvalue the parser marked (Upvaldesc.selfref).  A hint only:
** inlinecall compares R[a] with the running closure. */
static int selfhint(Gen *g, int pc, int a) {
  int i;
  for (i = pc - 1; i >= 0 && i >= pc - 8; i--) {
    Instruction in = g->p->code[i];
    RegSet d;
    maydef(g, i, &d);
    if (a < g->nregs && rs_has(&d, a))
      return GET_OPCODE(in) == OP_GETUPVAL && GETARG_B(in) < g->p->sizeupvalues &&
             g->p->upvalues[GETARG_B(in)].selfref;
  }
  return 0;
}

/* pushcall stores nresults and callstatus as one little-endian i32 */
typedef char pushcall_layout[(offsetof(CallInfo, callstatus) == offsetof(CallInfo, nresults) + 2 &&
                              offsetof(CallInfo, nresults) % 4 == 0 &&
                              __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) ? 1 : -1];

/* inlinecall's direct call of a callee whose Proto 'proto' (maxstacksize
** 'ms', i64; numparams test 'npok'; code array 'pcode') is known: the
** test, the push and the call; the insertion point is left after the
** call, whose result it returns.  'proto' NULL: a self call (this
** function's Proto), which calls this very code (g->fn) without loading
** Proto.jitcode or testing it: the code is running, so it exists and
** stays (flushed units are kept: jit.c); if the Proto has been
** recompiled meanwhile, the recursion goes on in the code it started in,
** whose guards hold for any frame as for the frames already running. */
static LLVMValueRef pushcall(Gen *g, LLVMValueRef func, int b, int nres, LLVMValueRef proto,
                             LLVMValueRef ms, LLVMValueRef npok, LLVMValueRef pcode,
                             LLVMBasicBlockRef slow) {
  LLVMBasicBlockRef fast = newbb(g, "directcall");
  LLVMTypeRef fnty = LLVMGlobalGetValueType(g->fn);
  LLVMValueRef code, nci, top, newtop, sp, n, args[3];
  if (proto != NULL) {   /* read once, acquire: the compile thread installs code (jit.c) */
    code = LLVMBuildLoad2(B_, g->p0, byteptr(g, proto, offsetof(Proto, jitcode)), "jitcode");
    LLVMSetOrdering(code, LLVMAtomicOrderingAcquire);
    LLVMSetAlignment(code, 8);
  }
  else code = NULL;
  nci = fload(g, g->p0, g->ci, offsetof(CallInfo, next), "nci");
  top = byteptr(g, func, (size_t)b * sizeof(Value));
  n = LLVMBuildAdd(B_, ms, ci64(g, 1), "");
  newtop = LLVMBuildGEP2(B_, g->i64, func, &n, 1, "newtop");
  sp = stackptr(g);
  LLVMBuildCondBr(B_, directok(g, npok, code, nci, newtop, b, sp, slow), fast, slow);
  LLVMPositionBuilderAtEnd(B_, fast);
  fstore(g, nci, g->L, offsetof(lua_State, ci));
  fstore(g, func, nci, offsetof(CallInfo, func));
  /* nresults and callstatus, adjacent (checked below), as one store */
  fstore(g, ci32(g, (int)(((uint32_t)CIST_JITACT << 16) | (uint16_t)(short)nres)), nci,
         offsetof(CallInfo, nresults));
  fstore(g, newtop, nci, offsetof(CallInfo, top));
  fstore(g, pcode, nci, offsetof(CallInfo, u.l.savedpc));
  fstore(g, ci32(g, 0), nci, offsetof(CallInfo, u.l.trap));
  fstore(g, top, g->L, offsetof(lua_State, top));
  /* Proto.hotcount is not counted: the policy only reads it while a
  ** function has no code (jit.c), and then this path is not taken.
  ** This frame's anchor: the stack pointer at the call; the return
  ** address is the word the call pushes below it (jit_anchorra) */
  fstore(g, sp, g->ci, offsetof(CallInfo, u.l.jitsp));
  args[0] = g->L; args[1] = nci; args[2] = g->ci;   /* direct: anchor this frame */
  if (g->selfargs && code == NULL && g->selfcc) args[2] = LLVMConstNull(g->p0);   /* (selfargsok; anchored all the same) */
  {
    LLVMValueRef r = LLVMBuildCall2(B_, fnty, code != NULL ? code : g->fn, args, 3, "r");
    if (code == NULL && g->selfcc) LLVMSetInstructionCallConv(r, JIT_CALLCONV);
    return r;
  }
}

/* The lean call path of mvmrt_precall inline (B != 0): when R[a] is a
** Lua closure with compiled code and directok() holds, push its frame as
** rt_leancall does and call its code directly (its 'anchor' parameter
** is this frame, anchored by the stack pointer stored at the call, see
** jit.h) through a statepoint -- it may collect.
** JIT_RETURNED: the results are in place; otherwise mvmrt_finishcall
** finishes the call.  Then 'done', or, when the callee turned hooks on,
** a return to the interpreter after the call (as mvmrt_precall's 2).
** Everything else branches to 'slow' (the general path).  With 'self'
** (selfhint) R[a] is first compared with the running closure (the value
** at ci->func): when it is that closure, its Proto is this one, whose
** maxstacksize, numparams and code are known here (no type test, no
** loads of them); any other callee there goes to 'slow'. */
static int inregion(Gen *g, int pc);
static int selfargsok(Gen *g, int pc, int a, int b);
/* Does the code after the call at 'pc' (emitcall: reload_after_call with
** trapexit) test the frame's trap?  Then that test also sees hooks the
** callee turned on: lua_sethook sets the trap of every Lua frame of its
** thread when it turns them on (vm/debug.c settraps), and the trap's exit
** is the one taken for hooks (the interpreter goes on after the call). */
static int trapafter(Gen *g, int pc) {
  RegSet s, d;
  int r;
  if (g->tabtrap) return 1;
  reloadset(g, pc, &s);
  maydef(g, pc, &d);
  for (r = 0; r < g->nregs; r++)
    if (rs_has(&s, r) && !rs_has(&d, r) &&
        (g->regvar[r] != NULL || (g->fvar != NULL && g->fvar[r] != NULL)))
      return 1;
  return 0;
}

/* after a direct call: 'done', or 'hooked' when the callee turned hooks
** on (tested here unless the trap is: trapafter) */
static void aftercall(Gen *g, LLVMBasicBlockRef done, LLVMBasicBlockRef hooked) {
  LLVMValueRef hook;
  /* the callee's CallInfo keeps CIST_JITACT: it lies above L->ci now,
  ** where nothing reads its status (the collector's walk and
  ** jit_unwound start at L->ci), and every push sets the status anew */
  /* J->curL is not stored again here (mvmrt_precall does after C
  ** functions): a callee that ran compiled code of another thread did so
  ** through lua_resume, which restores it however the run ended
  ** (jit_unwound), or through jit_run, which restores it on return;
  ** mvmrt_finishcall stores it as mvmrt_precall does */
  if (trapafter(g, g->curpc)) {
    LLVMBuildBr(B_, done);
    return;
  }
  hook = fload(g, g->i32, g->L, offsetof(lua_State, hookmask), "hookmask");
  LLVMSetVolatile(hook, 1);
  LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntEQ, hook, ci32(g, 0), ""), done, hooked);
}
static void inlinecall(Gen *g, int a, int b, int nres, int self, LLVMBasicBlockRef done,
                       LLVMBasicBlockRef slow) {
  LLVMBasicBlockRef islcl = newbb(g, "islcl");
  LLVMBasicBlockRef finish = newbb(g, "finishcall"), after = newbb(g, "aftercall");
  LLVMBasicBlockRef hooked = newbb(g, "hooked");
  LLVMValueRef base, func, fv, proto, args[3], r;
  base = LLVMBuildLoad2(B_, g->p0, g->basevar, "base");
  func = byteptr(g, base, (size_t)a * sizeof(Value));
  fv = tb(g, LLVMBuildLoad2(B_, g->p1, func, "callee"), g->tb_stack);
  self = self && g->p->numparams <= b - 1;
  if (self) {   /* the running closure (in ci->func, just below base)? */
    LLVMBasicBlockRef isself = newbb(g, "selfcall"), other = newbb(g, "notself"), called;
    LLVMValueRef m1 = ci64(g, (uint64_t)-1), sv;
    sv = tb(g, LLVMBuildLoad2(B_, g->p1, LLVMBuildGEP2(B_, g->i64, base, &m1, 1, ""), "self"),
            g->tb_stack);
    LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntEQ, fv, sv, ""), isself, other);
    LLVMPositionBuilderAtEnd(B_, isself);
    g->selfargs = selfargsok(g, g->curpc, a, b);
    r = pushcall(g, func, b, nres, inregion(g, 0) ? NULL : craw(g, g->p), ci64(g, g->p->maxstacksize),
                 LLVMConstInt(g->i1, 1, 0), craw(g, g->p->code), slow);
    g->selfargs = 0;
    called = LLVMGetInsertBlock(B_);
    /* another callee (the upvalue was assigned another function) is left
    ** to mvmrt_precall: rare, and a general inline path here doubled the
    ** site's code */
    LLVMPositionBuilderAtEnd(B_, other);
    LLVMBuildBr(B_, slow);
    LLVMDeleteBasicBlock(islcl);
    LLVMPositionBuilderAtEnd(B_, called);
  }
  else {
    isvalreftt(g, fv, bits(g, fv), MVM_TLCL, islcl, slow);
    LLVMPositionBuilderAtEnd(B_, islcl);
    /* the closure is only read here, before the call: it may move later;
    ** its Proto never moves */
    proto = hload(g, g->p0, byteptr(g, fv, offsetof(LClosure, p)), "proto");
    r = pushcall(g, func, b, nres, proto,
                 LLVMBuildZExt(B_, hload(g, g->i8, byteptr(g, proto, offsetof(Proto, maxstacksize)), "maxstack"),
                               g->i64, ""),
                 LLVMBuildICmp(B_, LLVMIntULE, hload(g, g->i8, byteptr(g, proto, offsetof(Proto, numparams)), "np"),
                               LLVMConstInt(g->i8, (unsigned)(b - 1), 0), "npok"),
                 hload(g, g->p0, byteptr(g, proto, offsetof(Proto, code)), "code"), slow);
  }
  /* JIT_RETURNED: the results are in place; anything else (a tail call
  ** made by the callee included: rt_finishnested runs the new callee) is
  ** left to mvmrt_finishcall, out of line */
  LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntEQ, r, ci32(g, JIT_RETURNED), ""), after, finish);
  LLVMPositionBuilderAtEnd(B_, finish);
  args[0] = g->L; args[1] = g->ci; args[2] = r;
  LLVMBuildCall2(B_, g->ty_opi, getfn(g, "mvmrt_finishcall", g->ty_opi, 0), args, 3, "");
  if (self && g->fdone != NULL) {   /* a typed self call (selftyped): finished elsewhere, so tested */
    LLVMBasicBlockRef fin = newbb(g, "aftercall");
    LLVMBuildBr(B_, fin);
    LLVMPositionBuilderAtEnd(B_, fin);
    aftercall(g, done, hooked);
    done = g->fdone;   /* returned: no test */
  }
  else LLVMBuildBr(B_, after);
  LLVMPositionBuilderAtEnd(B_, after);
  aftercall(g, done, hooked);
  LLVMPositionBuilderAtEnd(B_, hooked);
  LLVMBuildRet(B_, ci32(g, JIT_EXITED));   /* savedpc is pc + 1 */
}

/* Is the callee of the CALL at 'pc' probably a library C function?  The
** last instruction before it that writes R[a] loads a field, a method
** or an upvalue whose name is one of the standard library's functions
** (s:sub(...), string.byte(...), table.insert(...), type(x), a local
** alias `local sub = string.sub`).  A hint only, to keep the inline C
** call's code (ccallinline) off other sites: the code tests the value. */
static int ccallhint(Gen *g, int pc, int a) {
  static const char *const names[] = {
    "abs", "assert", "byte", "ceil", "char", "codepoint", "concat", "error", "find",
    "floor", "fmod", "format", "getinfo", "getmetatable", "gmatch", "gsub", "insert",
    "len", "lower", "match", "max", "min", "modf", "move", "next", "offset", "pack",
    "pcall", "print", "rawequal", "rawget", "rawlen", "rawset", "remove", "rep",
    "resume", "reverse", "select", "sethook", "setmetatable", "sort", "sqrt", "sub",
    "tointeger", "tonumber", "tostring", "traceback", "type", "unpack", "upper",
    "wrap", "xpcall", "yield"};
  const Proto *p = g->p;
  const char *nm = NULL;
  size_t j;
  int i;
  for (i = pc - 1; i >= 0 && i >= pc - 8; i--) {
    Instruction in = p->code[i];
    OpCode op = GET_OPCODE(in);
    RegSet d;
    maydef(g, i, &d);
    if (a >= g->nregs || !rs_has(&d, a)) continue;
    if (op == OP_GETFIELD || op == OP_GETTABUP || (op == OP_SELF && GETARG_k(in))) {
      Value k = p->k[GETARG_C(in)];
      if (v_isstring(k)) nm = getstr(v_str(k));
    }
    else if (op == OP_GETUPVAL && GETARG_B(in) < p->sizeupvalues && p->upvalues[GETARG_B(in)].name)
      nm = getstr(p->upvalues[GETARG_B(in)].name);
    break;
  }
  if (nm != NULL)
    for (j = 0; j < sizeof names / sizeof names[0]; j++)
      if (strcmp(nm, names[j]) == 0) return 1;
  return 0;
}

/* The interpreter's inline C call (vm.c OP_CALL; jitrt.c rt_leanccall)
** for a light C function at a ccallhint site with 0 or 1 results (B !=
** 0): room for LUA_MINSTACK, a spare CallInfo, no hooks, no pending
** interrupt: push precall_C's frame (CIST_C, u.c.k NULL), anchor this
** frame by the stack pointer (as pushcall) and call the function through
** a statepoint (it may collect, error, yield by longjmp, or call back
** into Lua).  Then, when it left the results wanted unmarked
** (lua_toclose) and hooks off, move its result inline and pop the frame;
** else mvmrt_cpostcall finishes (do_poscall), and hooks now on return to
** the interpreter after the call (mvmrt_precall's 2).  J->curL is stored
** again, as mvmrt_precall does after a C callee.  Anything else branches
** to 'slow'; the results done, to 'done'. */
static void ccallinline(Gen *g, int a, int b, int nres, LLVMBasicBlockRef done,
                        LLVMBasicBlockRef slow) {
  LLVMTypeRef flagty = LLVMIntTypeInContext(g->C, 8 * sizeof(sig_atomic_t));
  LLVMTypeRef cfty = LLVMFunctionType(g->i32, &g->p0, 1, 0);
  LLVMBasicBlockRef test = newbb(g, "iscfunc"), call = newbb(g, "ccall"), ret = newbb(g, "cret");
  LLVMBasicBlockRef post = newbb(g, "cpost"), hooked = newbb(g, "chooked");
  LLVMValueRef base, func, fv, fw, ok, nci, top, last, hook, intr, n, res, args[3], r;
  base = LLVMBuildLoad2(B_, g->p0, g->basevar, "base");
  func = byteptr(g, base, (size_t)a * sizeof(Value));
  fv = tb(g, LLVMBuildLoad2(B_, g->p1, func, "callee"), g->tb_stack);
  fw = LLVMBuildPtrToInt(B_, fv, g->i64, "");
  LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntEQ, LLVMBuildAnd(B_, fw, ci64(g, MVM_TAGMASK), ""),
                                    ci64(g, MVM_TAG_LCF), "islcf"), test, slow);
  LLVMPositionBuilderAtEnd(B_, test);
  nci = fload(g, g->p0, g->ci, offsetof(CallInfo, next), "nci");
  top = byteptr(g, func, (size_t)b * sizeof(Value));
  last = fload(g, g->p0, g->L, offsetof(lua_State, stack_last), "stack_last");
  hook = fload(g, g->i32, g->L, offsetof(lua_State, hookmask), "hookmask");
  LLVMSetVolatile(hook, 1);
  intr = LLVMBuildLoad2(B_, flagty, craw(g, (const void *)&g->J->g->interrupt), "interrupt");
  LLVMSetVolatile(intr, 1);
  /* stack_last - top > LUA_MINSTACK (slots) */
  ok = LLVMBuildICmp(B_, LLVMIntULT, LLVMBuildPtrToInt(B_, byteptr(g, top, LUA_MINSTACK * sizeof(Value)), g->i64, ""),
                     LLVMBuildPtrToInt(B_, last, g->i64, ""), "room");
  ok = LLVMBuildAnd(B_, ok, LLVMBuildIsNotNull(B_, nci, ""), "");
  ok = LLVMBuildAnd(B_, ok, LLVMBuildICmp(B_, LLVMIntEQ, hook, ci32(g, 0), ""), "");
  ok = LLVMBuildAnd(B_, ok, LLVMBuildICmp(B_, LLVMIntEQ, intr, LLVMConstInt(flagty, 0, 0), ""), "");
  LLVMBuildCondBr(B_, ok, call, slow);
  LLVMPositionBuilderAtEnd(B_, call);
  fstore(g, nci, g->L, offsetof(lua_State, ci));
  fstore(g, func, nci, offsetof(CallInfo, func));
  fstore(g, ci32(g, (int)(((uint32_t)CIST_C << 16) | (uint16_t)(short)nres)), nci,
         offsetof(CallInfo, nresults));   /* (pushcall_layout) */
  fstore(g, byteptr(g, top, LUA_MINSTACK * sizeof(Value)), nci, offsetof(CallInfo, top));
  fstore(g, LLVMConstNull(g->p0), nci, offsetof(CallInfo, u.c.k));
  fstore(g, top, g->L, offsetof(lua_State, top));
  {   /* this frame's anchor, as pushcall's */
    unsigned id = LLVMLookupIntrinsicID("llvm.stacksave", 14);
    LLVMValueRef sp = LLVMBuildCall2(B_, LLVMIntrinsicGetType(g->C, id, &g->p0, 1),
                                     LLVMGetIntrinsicDeclaration(g->M, id, &g->p0, 1), NULL, 0, "sp");
    fstore(g, sp, g->ci, offsetof(CallInfo, u.l.jitsp));
  }
  args[0] = g->L;
  n = LLVMBuildCall2(B_, cfty, LLVMBuildIntToPtr(B_, LLVMBuildAnd(B_, fw, ci64(g, MVM_PAYLOAD), ""), g->p0, "cfunc"),
                     args, 1, "nret");
  tb(g, LLVMBuildStore(B_, g->L, craw(g, &g->J->curL)), g->tb_frame);
  hook = fload(g, g->i32, g->L, offsetof(lua_State, hookmask), "hookmask");
  LLVMSetVolatile(hook, 1);
  ok = LLVMBuildICmp(B_, LLVMIntEQ, fload(g, LLVMInt16TypeInContext(g->C), nci, offsetof(CallInfo, nresults), "wanted"),
                     LLVMConstInt(LLVMInt16TypeInContext(g->C), (unsigned long long)(uint16_t)(short)nres, 0), "");
  ok = LLVMBuildAnd(B_, ok, LLVMBuildICmp(B_, LLVMIntEQ, hook, ci32(g, 0), ""), "");
  LLVMBuildCondBr(B_, ok, ret, post);
  LLVMPositionBuilderAtEnd(B_, ret);
  res = fload(g, g->p0, nci, offsetof(CallInfo, func), "res");   /* (the stack may have moved) */
  if (nres == 1) {
    LLVMValueRef ltop = fload(g, g->p0, g->L, offsetof(lua_State, top), "ltop");
    LLVMValueRef neg = LLVMBuildNeg(B_, LLVMBuildSExt(B_, n, g->i64, ""), "");
    LLVMValueRef v = tb(g, LLVMBuildLoad2(B_, g->p1, LLVMBuildGEP2(B_, g->i64, ltop, &neg, 1, ""), "cres"),
                        g->tb_stack);
    v = LLVMBuildSelect(B_, LLVMBuildICmp(B_, LLVMIntSGT, n, ci32(g, 0), ""), v, cword(g, MVM_NIL), "");
    tb(g, LLVMBuildStore(B_, v, res), g->tb_stack);
    res = byteptr(g, res, sizeof(Value));
  }
  fstore(g, res, g->L, offsetof(lua_State, top));
  fstore(g, g->ci, g->L, offsetof(lua_State, ci));
  LLVMBuildBr(B_, done);
  LLVMPositionBuilderAtEnd(B_, post);
  args[0] = g->L; args[1] = g->ci; args[2] = n;
  r = LLVMBuildCall2(B_, g->ty_opi, getfn(g, "mvmrt_cpostcall", g->ty_opi, 0), args, 3, "");
  LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntEQ, r, ci32(g, 0), ""), done, hooked);
  LLVMPositionBuilderAtEnd(B_, hooked);
  LLVMBuildRet(B_, ci32(g, JIT_EXITED));   /* savedpc is pc + 1 */
}

/* ---------------------------------------------------------------------
** Builtins.  `sqrt(x)`, `math.floor(x)`, `math.abs(x)` (one argument, one
** result) run inline when the callee is the library's function itself:
** the test compares R[a] with its light C function value, so a
** replaced math.sqrt, a local of the same name holding something else,
** a string argument or a result the inline code cannot make (an integer
** beyond the immediates) take the call as before.  Which builtin to test
** for is guessed from the name the callee is loaded by (a field key, an
** upvalue's name), so other calls get no extra code.
** --------------------------------------------------------------------- */

/* the builtin R[a] probably holds at the CALL at 'pc', or -1: the last
** instruction before it that writes R[a] loads a field or an upvalue of
** that name (a hint only: builtincall tests the value) */
static int builtinhint(Gen *g, int pc, int a) {
  const Proto *p = g->p;
  int i;
  for (i = pc - 1; i >= 0 && i >= pc - 8; i--) {
    Instruction in = p->code[i];
    OpCode op = GET_OPCODE(in);
    RegSet d;
    maydef(g, i, &d);
    if (a >= g->nregs || !rs_has(&d, a)) continue;
    if (op == OP_GETFIELD || op == OP_GETTABUP || (op == OP_SELF && GETARG_k(in))) {
      Value k = p->k[GETARG_C(in)];
      return v_isstring(k) ? jit_builtinname(getstr(v_str(k))) : -1;
    }
    if (op == OP_GETUPVAL && GETARG_B(in) < p->sizeupvalues && p->upvalues[GETARG_B(in)].name)
      return jit_builtinname(getstr(p->upvalues[GETARG_B(in)].name));
    return -1;
  }
  return -1;
}

static LLVMValueRef f64intrinsic(Gen *g, const char *name, LLVMValueRef x) {
  unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
  LLVMValueRef fn = LLVMGetIntrinsicDeclaration(g->M, id, &g->f64, 1);
  return LLVMBuildCall2(B_, LLVMIntrinsicGetType(g->C, id, &g->f64, 1), fn, &x, 1, "");
}

/* is word f the light C function 'fn'? */
static LLVMValueRef islcfn(Gen *g, LLVMValueRef f, lua_CFunction fn) {
  return LLVMBuildICmp(B_, LLVMIntEQ, f,
                       ci64(g, MVM_TAG_LCF | ((uint64_t)(uintptr_t)fn & MVM_PAYLOAD)), "");
}

/* The guard of a builtin's fast path at a call of R[a]: R[a] is the
** library's 'fn' and no hook is on (a hook must see the call): on to
** 'body' (the builder is left there), else to 'gen', the generic call */
static void builtinguard(Gen *g, int a, lua_CFunction fn, LLVMBasicBlockRef body,
                         LLVMBasicBlockRef gen) {
  LLVMValueRef f = bits(g, getreg(g, a)), hook;
  hook = LLVMBuildLoad2(B_, g->i32, byteptr(g, g->L, offsetof(lua_State, hookmask)), "hookmask");
  LLVMSetVolatile(hook, 1);
  LLVMBuildCondBr(B_, LLVMBuildAnd(B_, islcfn(g, f, fn),
                                   LLVMBuildICmp(B_, LLVMIntEQ, hook, ci32(g, 0), ""), ""),
                  body, gen);
  LLVMPositionBuilderAtEnd(B_, body);
}

/* The builtin (sqrt, floor, abs; string.byte: bytecall) the CALL at 'pc'
** is a candidate for, or -1: R[a] = R[a](R[a+1]) (byte: and R[a+2])
** with a builtin's name (builtinhint), not a
** leaf site (inlineleaf's).  Such a CALL has a fast path that is no call
** (builtinfast): the analyses of clean registers (cleananalyse) take it
** as writing R[A] only, so a register its generic path flushes stays
** dirty after it.  Its result is speculated like a load's when numbers
** use it (specanalyse; sqrt's a float at level 0): the fast path takes
** the generic one for a result of another type, whose real call's
** result is guarded (emitcall), so that R[A] has the type after it and
** a float can stay in its double (setdbl, lazy slots). */
static int fastbuiltin(Gen *g, int pc) {
  Instruction i = g->p->code[pc];
  int k;
  if (GET_OPCODE(i) != OP_CALL || leafsite(g, pc)) return -1;
  k = builtinhint(g, pc, GETARG_A(i));
  return jit_builtinshape(k, i) ? k : -1;
}

/* The fast path of the CALL at 'pc' (fastbuiltin: R[a] = R[a](R[a+1])),
** emitted before anything of the call: when R[a] is builtin 'k' and no
** hook is on (a C call would report events), the result is computed
** from R[a+1] as the code holds it and set in R[a], and the code goes on
** at pc + 1 as after an inlined leaf (emitcall's ldone): no flush, no
** savedpc, no stack round trip.  Nothing else changed: no call was made,
** so the stack did not move, no other register changed and the trap is
** as before; L->top is not read after a CALL for one result (takes_top),
** savedpc still names an instruction before this one.  Anything else (another
** callee, hooks, an argument the inline code cannot take) goes on where
** the builder is left, to the generic call, with nothing done yet. */
static LLVMValueRef builtinval(Gen *g, int k, LLVMValueRef x, int tx, LLVMBasicBlockRef gen);
static void builtinfast(Gen *g, int pc, int a, int k) {
  LLVMBasicBlockRef body = newbb(g, "builtin"), gen = newbb(g, "gencall");
  LLVMValueRef res;
  int t = regty(g, pc, a + 1), rt, st;
  builtinguard(g, a, g->J->builtins[k], body, gen);
  res = builtinval(g, k, bits(g, getregat(g, pc, a + 1)), knum(t) ? t : TY_ANY, gen);
  rt = builtinty(k, knum(t) ? t : TY_ANY);
  st = g->spec[pc];
  if (st != TY_NONE && st != TY_NUM && rt != st) {   /* (TY_NUM: any result) */
    LLVMBasicBlockRef ok = newbb(g, "builtinok");
    LLVMBuildCondBr(B_, hasty(g, bits(g, res), st), ok, gen);
    LLVMPositionBuilderAtEnd(B_, ok);
  }
  if (st == TY_FLT) setdbl(g, a, getflt(g, bits(g, res)));
  else setreg(g, a, res);
  br(g, pc + 1);
  LLVMPositionBuilderAtEnd(B_, gen);
}

/* builtin k (sqrt, floor, abs) of the word x (of static type tx), or a
** branch to 'gen' where the inline code cannot make the result.  Floats
** are boxed without a NaN test: computed from a VM number, a NaN has its
** canonical payload or the default one (boxdbl) */
static LLVMValueRef builtinval(Gen *g, int k, LLVMValueRef x, int tx, LLVMBasicBlockRef gen) {
  LLVMBasicBlockRef isi = newbb(g, "bi.int"), notint = newbb(g, "bi.notint");
  LLVMBasicBlockRef isf = newbb(g, "bi.flt"), store = newbb(g, "bi.store");
  LLVMValueRef ri = NULL, rf = NULL, phi, vals[2];
  LLVMBasicBlockRef from[2];
  LLVMBasicBlockRef intok = isi, fltok = isf;
  LLVMBuildCondBr(B_, tisint(g, x, tx), isi, notint);
  LLVMPositionBuilderAtEnd(B_, notint);
  LLVMBuildCondBr(B_, tisflt(g, x, tx), isf, gen);
  /* an integer argument */
  LLVMPositionBuilderAtEnd(B_, isi);
  if (k == JIT_BUILTIN_SQRT)
    ri = boxdbl(g, f64intrinsic(g, "llvm.sqrt", LLVMBuildSIToFP(B_, sext48(g, x), g->f64, "")));
  else if (k == JIT_BUILTIN_FLOOR)
    ri = LLVMBuildIntToPtr(B_, x, g->p1, "");
  else {   /* abs: -(-2^47) is no immediate: the call boxes it */
    LLVMValueRef n = sext48(g, x), m;
    LLVMBasicBlockRef ok = newbb(g, "bi.absok");
    m = LLVMBuildSelect(B_, LLVMBuildICmp(B_, LLVMIntSLT, n, ci64(g, 0), ""),
                        LLVMBuildNeg(B_, n, ""), n, "");
    LLVMBuildCondBr(B_, fits48(g, m), ok, gen);
    LLVMPositionBuilderAtEnd(B_, ok);
    ri = mkint(g, m);
    intok = ok;
  }
  LLVMBuildBr(B_, store);
  /* a float argument */
  LLVMPositionBuilderAtEnd(B_, isf);
  if (k == JIT_BUILTIN_SQRT)
    rf = boxdbl(g, f64intrinsic(g, "llvm.sqrt", getflt(g, x)));
  else if (k == JIT_BUILTIN_ABS)
    rf = boxdbl(g, f64intrinsic(g, "llvm.fabs", getflt(g, x)));
  else {   /* floor: an integer when exact and in range (push_intish) */
    LLVMValueRef d = f64intrinsic(g, "llvm.floor", getflt(g, x)), inr, n;
    LLVMBasicBlockRef toint = newbb(g, "bi.toint"), imm = newbb(g, "bi.imm");
    LLVMBasicBlockRef asflt = newbb(g, "bi.asflt"), fjoin = newbb(g, "bi.fjoin");
    LLVMValueRef fv[2];
    LLVMBasicBlockRef fb[2];
    inr = LLVMBuildAnd(B_, LLVMBuildFCmp(B_, LLVMRealOGE, d, LLVMConstReal(g->f64, -9223372036854775808.0), ""),
                       LLVMBuildFCmp(B_, LLVMRealOLT, d, LLVMConstReal(g->f64, 9223372036854775808.0), ""), "");
    LLVMBuildCondBr(B_, inr, toint, asflt);
    LLVMPositionBuilderAtEnd(B_, toint);
    n = LLVMBuildFPToSI(B_, d, g->i64, "");
    LLVMBuildCondBr(B_, fits48(g, n), imm, gen);   /* beyond 48 bits: the call boxes it */
    LLVMPositionBuilderAtEnd(B_, imm);
    fv[0] = mkint(g, n); fb[0] = imm;
    LLVMBuildBr(B_, fjoin);
    LLVMPositionBuilderAtEnd(B_, asflt);   /* NaN, infinities, beyond 2^63 */
    fv[1] = boxdbl(g, d); fb[1] = asflt;
    LLVMBuildBr(B_, fjoin);
    LLVMPositionBuilderAtEnd(B_, fjoin);
    rf = LLVMBuildPhi(B_, g->p1, "");
    LLVMAddIncoming(rf, fv, fb, 2);
    fltok = fjoin;
  }
  LLVMBuildBr(B_, store);
  LLVMPositionBuilderAtEnd(B_, store);
  phi = LLVMBuildPhi(B_, g->p1, "bires");
  vals[0] = ri; vals[1] = rf; from[0] = intok; from[1] = fltok;
  LLVMAddIncoming(phi, vals, from, 2);
  return phi;
}

/* The fast path of the CALL at 'pc' (R[a] = R[a](R[a+1], R[a+2]), b - 1
** arguments: one or two; fastbuiltin), as builtinfast's: when R[a] is
** string.byte (and no hook is on), R[a+1] a string and the position
** R[a+2] (1 without it) an integer within it, the byte is set in R[a] and
** the code goes on at pc + 1.  Anything else (negative or out-of-range
** positions, numbers to convert, errors) goes on to the generic call. */
static void bytecall(Gen *g, int pc, int a, int b) {
  LLVMBasicBlockRef body = newbb(g, "bytebi"), isstr = newbb(g, "bytestr");
  LLVMBasicBlockRef inr = newbb(g, "byteinr"), gen = newbb(g, "gencall");
  LLVMValueRef s, sb, i, len, ok, c;
  builtinguard(g, a, g->J->strbuiltins[0], body, gen);
  s = getreg(g, a + 1);
  sb = bits(g, s);
  isreftt(g, s, sb, MVM_TSTRING, isstr, gen);
  if (b == 3) {
    LLVMBasicBlockRef isi = newbb(g, "byteint");
    LLVMValueRef x = bits(g, getregat(g, pc, a + 2));
    LLVMBuildCondBr(B_, tisint(g, x, regty(g, pc, a + 2)), isi, gen);
    LLVMPositionBuilderAtEnd(B_, isi);
    i = sext48(g, x);
  }
  else i = ci64(g, 1);
  /* strings never move: the bytes are read right here, before any call */
  len = hload(g, g->i64, byteptr(g, s, offsetof(TString, len)), "slen");
  /* 1 <= i <= len, as one unsigned comparison */
  ok = LLVMBuildICmp(B_, LLVMIntULT, LLVMBuildSub(B_, i, ci64(g, 1), ""), len, "");
  LLVMBuildCondBr(B_, ok, inr, gen);
  LLVMPositionBuilderAtEnd(B_, inr);
  c = LLVMBuildAdd(B_, i, ci64(g, offsetof(TString, data) - 1), "");
  c = LLVMBuildZExt(B_, hload(g, g->i8, LLVMBuildGEP2(B_, g->i8, s, &c, 1, ""), "byte"), g->i64, "");
  if (g->spec[pc] == TY_FLT) LLVMBuildBr(B_, gen);   /* (the call's result fails the guard) */
  else {
    setreg(g, a, mkint(g, c));
    br(g, pc + 1);
  }
  LLVMPositionBuilderAtEnd(B_, gen);
}

/* The fast path of the CALL at 'pc' of assert for no results (fastbuiltin:
** R[a](R[a+1], ...)), as builtinfast's: when R[a] is assert (and no hook
** is on) and R[a+1] is neither nil nor false, the code goes on at pc + 1:
** assert returns its arguments, which nobody takes, and registers from
** R[a] on are free after a call for no results.  A false condition (the
** error) goes on to the generic call. */
static void assertcall(Gen *g, int pc, int a) {
  LLVMBasicBlockRef body = newbb(g, "assertbi"), ok = newbb(g, "assertok");
  LLVMBasicBlockRef gen = newbb(g, "gencall");
  LLVMValueRef v, truthy;
  builtinguard(g, a, g->J->assertfn[0], body, gen);
  v = bits(g, getregat(g, pc, a + 1));
  truthy = LLVMBuildAnd(B_, LLVMBuildICmp(B_, LLVMIntNE, v, ci64(g, MVM_NIL), ""),
                        LLVMBuildICmp(B_, LLVMIntNE, v, ci64(g, MVM_FALSE), ""), "truthy");
  LLVMBuildCondBr(B_, truthy, ok, gen);
  LLVMPositionBuilderAtEnd(B_, ok);
  br(g, pc + 1);
  LLVMPositionBuilderAtEnd(B_, gen);
}

/* The fast path of the CALL at 'pc' of setmetatable(t, mt) for 'nres'
** results (0 or 1; fastbuiltin), as builtinfast's: when R[a] is
** setmetatable (and no hook is on) and its common case applies
** (mvmrt_setmt, a leaf: meta_setmtfast), R[a] is t for one result and
** the code goes on at pc + 1; anything else (a metatable already there,
** __gc, no tables) goes on to the generic call. */
static void setmtfast(Gen *g, int pc, int a, LLVMBasicBlockRef ok, LLVMBasicBlockRef gen) {
  LLVMBasicBlockRef body = newbb(g, "setmtbi");
  LLVMTypeRef pt[3], ty;
  LLVMValueRef args[3], r;
  builtinguard(g, a, g->J->setmtfn[0], body, gen);
  pt[0] = g->p0; pt[1] = pt[2] = g->p1;
  ty = LLVMFunctionType(g->i32, pt, 3, 0);
  args[0] = g->L;
  args[1] = getregat(g, pc, a + 1);
  args[2] = getregat(g, pc, a + 2);
  r = LLVMBuildCall2(B_, ty, getfn(g, "mvmrt_setmt", ty, 1), args, 3, "");
  LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntNE, r, ci32(g, 0), ""), ok, gen);
}
static void setmtcall(Gen *g, int pc, int a, int nres) {
  LLVMBasicBlockRef ok = newbb(g, "setmtok"), gen = newbb(g, "gencall");
  setmtfast(g, pc, a, ok, gen);
  LLVMPositionBuilderAtEnd(B_, ok);
  if (nres == 1) setreg(g, a, getregat(g, pc, a + 1));
  br(g, pc + 1);
  LLVMPositionBuilderAtEnd(B_, gen);
}
/* `return setmetatable(t, mt)`, a constructor's last line: the TAILCALL
** at 'pc' of R[a] with two arguments (jit_builtinshape).  When
** setmtcall's common case applies, t is returned as a RETURN1 of R[a+1]
** returns it (a C function's tail call leaves no frame behind, and the
** library function returns t); otherwise on to the generic tail call,
** where the builder is left. */
static void emitreturn(Gen *g, int pc, int a, int n);
static void setmtreturn(Gen *g, int pc, int a) {
  LLVMBasicBlockRef ok = newbb(g, "setmtret"), gen = newbb(g, "gentail");
  setmtfast(g, pc, a, ok, gen);
  LLVMPositionBuilderAtEnd(B_, ok);
  emitreturn(g, pc, a + 1, 1);
  LLVMPositionBuilderAtEnd(B_, gen);
}

/* ---------------------------------------------------------------------
** Inlined leaf calls (docs/decisions/0015 "Inlined leaf calls").  At a
** CALL site where jit.c predicted the callee (JitInline: a closure of a
** "pure leaf" Proto P, jit.c pureleaf) the callee's bytecode is evaluated
** in place: guarded by hookmask == 0 (a hook must see the call) and
** R[A] being a Lua closure of P, its registers start as the arguments
** (missing ones nil), and each instruction runs its fast path only;
** anything else (another type, an overflow, a metamethod, a key not
** found at once, a string to convert) branches to the real call, which
** starts from scratch: nothing was written before the RETURN, which
** stores the results where the call puts them (R[A].., L->top) and joins
** the code after the call (a setter's stores come right before its
** RETURN, after all of their tests: leafstores).  Method calls are such
** sites too: SELF runs as before, and the guard on R[A]'s Proto is the
** whole test (what the lookup found is what runs).  The region makes no call that may collect
** (only gc-leaf helpers), raises no error and allocates nothing, so the
** callee's registers (allocas that sroa promotes, before the statepoint
** rewriting: llvmgen_check_promoted verifies) never live across a
** statepoint, and tracebacks and debug info are unchanged.
** --------------------------------------------------------------------- */

typedef struct Leaf {
  const Proto *p;
  LLVMValueRef cl;            /* its closure (R[A]), read before any call */
  LLVMValueRef reg[MAXREGS];  /* allocas of its registers (p1 words) */
  LLVMBasicBlockRef *bb;      /* per instruction */
  LLVMBasicBlockRef gen;      /* the real call */
  int cpc;                    /* the call's pc in the caller */
  int tail;                   /* a TAILCALL site: its RETURNs return from the caller */
  int fast;                   /* before the call's flush (fastleaf): RETURNs set R[A] only */
  /* static types (TY_*) of its registers: 'cur' where code is being
  ** emitted, 'in' at the start of each instruction (the union over the
  ** branches to it, which all come from before: jumps go forward only),
  ** so that arithmetic on operands of known types (the caller's numeric
  ** registers as arguments, constants, earlier results) emits one path */
  uint8_t cur[MAXREGS];
  uint8_t *in;                /* (sizecode + 2) x nregs */
  char *seen;                 /* in[pc] has a branch merged */
} Leaf;

/* a branch to the callee's instruction 'pc' from where the code is */
static LLVMBasicBlockRef ledge(Leaf *lf, int pc) {
  int n = lf->p->maxstacksize, r;
  uint8_t *t = lf->in + (size_t)pc * n;
  if (!lf->seen[pc]) memcpy(t, lf->cur, (size_t)n);
  else for (r = 0; r < n; r++) t[r] |= lf->cur[r];
  lf->seen[pc] = 1;
  return lf->bb[pc];
}

/* the callee predicted for the CALL at 'pc', or NULL.  A setter (its
** stores: leafstores) only where its RETURN needs no guard: not a tail
** call (leaftailret tests what the caller wants), not all results (the
** room test), and its result is never speculated (leafsite) */
static const Proto *inlinee(Gen *g, int pc) {
  Instruction i = g->p->code[pc];
  const Proto *P = NULL;
  int k;
  for (k = 0; k < g->ninl && P == NULL; k++)
    if (g->inl[k].pc == pc) P = g->inl[k].p;
  if (P != NULL && (GET_OPCODE(i) == OP_TAILCALL || GETARG_C(i) == 0) && leafstores_any(P))
    return NULL;
  return P;
}

static LLVMValueRef lget(Gen *g, Leaf *lf, int r) {
  return LLVMBuildLoad2(B_, g->p1, lf->reg[r], "");
}
static void lsetty(Gen *g, Leaf *lf, int r, LLVMValueRef v, int t) {
  LLVMBuildStore(B_, v, lf->reg[r]);
  lf->cur[r] = (uint8_t)t;
}
static void lset(Gen *g, Leaf *lf, int r, LLVMValueRef v) {
  lsetty(g, lf, r, v, TY_ANY);
}
/* continue in a new block when 'cond' holds, else make the real call */
static void lguard(Gen *g, Leaf *lf, LLVMValueRef cond) {
  LLVMBasicBlockRef ok = newbb(g, "leaf.ok");
  LLVMBuildCondBr(B_, cond, ok, lf->gen);
  LLVMPositionBuilderAtEnd(B_, ok);
}
static LLVMValueRef falsy(Gen *g, LLVMValueRef b) {   /* nil or false */
  return LLVMBuildICmp(B_, LLVMIntEQ, LLVMBuildAnd(B_, b, ci64(g, ~(uint64_t)4), ""),
                       ci64(g, MVM_NIL), "falsy");
}
/* R[r], of a type not known statically, is an operand of the callee's
** arithmetic at 'pc': when the interpreter saw only integers or only
** floats there (its Proto.feedback), that kind is guarded (else the real
** call) and known from here on, so the arithmetic has one path */
static void lfeed(Gen *g, Leaf *lf, int pc, int r) {
  const uint8_t *fb = lf->p->feedback;
  int t;
  if (knum(lf->cur[r]) || fb == NULL) return;
  t = fb[pc] == MVM_FB_INT ? TY_INT : fb[pc] == MVM_FB_FLOAT ? TY_FLT : TY_NONE;
  if (t == TY_NONE) return;
  lguard(g, lf, hasty(g, bits(g, lget(g, lf, r)), t));
  lf->cur[r] = (uint8_t)t;
}

/* a constant operand K[k] as a word, or NULL for a reference (a boxed
** integer, a string: the arithmetic and comparisons give up on them) */
static LLVMValueRef lconst(Gen *g, Leaf *lf, int k) {
  Value v = lf->p->k[k];
  return v_isref(v) ? NULL : cword(g, v);
}

/* x op y (words of static types tx, ty) for the arithmetic opcodes
** (OP_ADD .. OP_IDIV, OP_POW): integer immediates and floats, else the
** real call; *t: the result's type */
static LLVMValueRef leafarith(Gen *g, Leaf *lf, OpCode op, LLVMValueRef vx, LLVMValueRef vy,
                              int tx, int ty, int *t) {
  LLVMBasicBlockRef ib = newbb(g, "leaf.int"), fb = newbb(g, "leaf.flt"), join = newbb(g, "leaf.ar");
  LLVMValueRef bx = bits(g, vx), by = bits(g, vy), x, y, r, ri = NULL, rf, dx, dy, vals[2];
  LLVMBasicBlockRef from[2];
  int intop = op == OP_ADD || op == OP_SUB || op == OP_MUL || op == OP_MOD || op == OP_IDIV;
  int bothint = tx == TY_INT && ty == TY_INT;
  if (tx == TY_FLT || ty == TY_FLT) intop = 0;
  *t = arithty(op, tx, ty);
  LLVMBuildCondBr(B_, !intop ? LLVMConstInt(g->i1, 0, 0) : bothint ? LLVMConstInt(g->i1, 1, 0) :
                      LLVMBuildAnd(B_, tisint(g, bx, tx), tisint(g, by, ty), ""), ib, fb);
  LLVMPositionBuilderAtEnd(B_, ib);
  if (!intop) LLVMBuildUnreachable(B_);
  else {
    x = sext48(g, bx); y = sext48(g, by);
    if (op == OP_MUL || op == OP_ADD || op == OP_SUB) {
      LLVMValueRef ok;
      r = int48op(g, op, bx, by, &ok);
      lguard(g, lf, ok);   /* beyond the immediates: the call boxes it */
    }
    else {   /* MOD, IDIV: floor semantics; by 0: the call raises */
      LLVMValueRef rem, adj;
      lguard(g, lf, LLVMBuildICmp(B_, LLVMIntNE, y, ci64(g, 0), ""));
      rem = LLVMBuildSRem(B_, x, y, "");
      if (op == OP_MOD) {
        adj = LLVMBuildAnd(B_, LLVMBuildICmp(B_, LLVMIntNE, rem, ci64(g, 0), ""),
                           LLVMBuildICmp(B_, LLVMIntSLT, LLVMBuildXor(B_, rem, y, ""), ci64(g, 0), ""), "");
        r = LLVMBuildSelect(B_, adj, LLVMBuildAdd(B_, rem, y, ""), rem, "");
      }
      else {
        adj = LLVMBuildAnd(B_, LLVMBuildICmp(B_, LLVMIntNE, rem, ci64(g, 0), ""),
                           LLVMBuildICmp(B_, LLVMIntSLT, LLVMBuildXor(B_, x, y, ""), ci64(g, 0), ""), "");
        r = LLVMBuildSub(B_, LLVMBuildSDiv(B_, x, y, ""), LLVMBuildZExt(B_, adj, g->i64, ""), "");
      }
      lguard(g, lf, fits48(g, r));
    }
    ri = mkint(g, r);
    from[0] = LLVMGetInsertBlock(B_);
    LLVMBuildBr(B_, join);
  }
  LLVMPositionBuilderAtEnd(B_, fb);
  if (intop && bothint) {   /* integers only */
    LLVMBuildUnreachable(B_);
    LLVMPositionBuilderAtEnd(B_, join);
    return ri;
  }
  lguard(g, lf, LLVMBuildAnd(B_, tisnum(g, bx, tx), tisnum(g, by, ty), ""));
  dx = ttonum(g, bx, tx); dy = ttonum(g, by, ty);
  switch (op) {
    case OP_ADD: rf = LLVMBuildFAdd(B_, dx, dy, ""); break;
    case OP_SUB: rf = LLVMBuildFSub(B_, dx, dy, ""); break;
    case OP_MUL: rf = LLVMBuildFMul(B_, dx, dy, ""); break;
    case OP_DIV: rf = LLVMBuildFDiv(B_, dx, dy, ""); break;
    case OP_MOD: rf = callff(g, "mvmrt_fltmod", dx, dy); break;
    case OP_IDIV: rf = callff(g, "mvmrt_fltidiv", dx, dy); break;
    default: rf = callff(g, "mvmrt_fltpow", dx, dy); break;
  }
  if (op == OP_MOD || op == OP_IDIV || op == OP_POW) rf = canonflt(g, rf);
  else {   /* as setflt: a NaN LLVM folds gets the hardware's sign */
    LLVMTypeRef fty = LLVMFunctionType(g->i1, &g->f64, 1, 0);
    LLVMValueRef isk = LLVMBuildCall2(B_, fty, getfn(g, "llvm.is.constant.f64", fty, 1), &rf, 1, "");
    rf = LLVMBuildSelect(B_, isk, hwnan(g, rf, dx, dy), rf, "");
  }
  rf = boxdbl(g, rf);
  from[1] = LLVMGetInsertBlock(B_);
  LLVMBuildBr(B_, join);
  LLVMPositionBuilderAtEnd(B_, join);
  if (!intop) return rf;
  r = LLVMBuildPhi(B_, g->p1, "ar");
  vals[0] = ri; vals[1] = rf;
  LLVMAddIncoming(r, vals, from, 2);
  return r;
}

/* x op y (words) for the bitwise opcodes (OP_BAND .. OP_SHR) on integer
** immediates (floats with integral values, strings: the real call); the
** results of and, or, xor of sign-extended 48-bit values fit, shifts are
** checked */
static LLVMValueRef leafbit(Gen *g, Leaf *lf, OpCode op, LLVMValueRef vx, LLVMValueRef vy,
                            int tx, int ty) {
  LLVMValueRef bx = bits(g, vx), by = bits(g, vy), x, y, r;
  lguard(g, lf, LLVMBuildAnd(B_, tisint(g, bx, tx), tisint(g, by, ty), ""));
  x = sext48(g, bx); y = sext48(g, by);
  switch (op) {
    case OP_BAND: return mkint(g, LLVMBuildAnd(B_, x, y, ""));
    case OP_BOR: return mkint(g, LLVMBuildOr(B_, x, y, ""));
    case OP_BXOR: return mkint(g, LLVMBuildXor(B_, x, y, ""));
    case OP_SHL: r = shiftl(g, x, y); break;
    default: r = shiftl(g, x, LLVMBuildNeg(B_, y, "")); break;
  }
  lguard(g, lf, fits48(g, r));
  return mkint(g, r);
}

/* x < y or x <= y on numbers of static types tx, ty (48-bit integers
** convert to doubles exactly) */
static LLVMValueRef leafless(Gen *g, Leaf *lf, LLVMValueRef bx, LLVMValueRef by, int tx, int ty,
                             int le) {
  LLVMValueRef ic, fc;
  lguard(g, lf, LLVMBuildAnd(B_, tisnum(g, bx, tx), tisnum(g, by, ty), ""));
  ic = LLVMBuildICmp(B_, le ? LLVMIntSLE : LLVMIntSLT, sext48(g, bx), sext48(g, by), "");
  fc = LLVMBuildFCmp(B_, le ? LLVMRealOLE : LLVMRealOLT, ttonum(g, bx, tx), ttonum(g, by, ty), "");
  return LLVMBuildSelect(B_, LLVMBuildAnd(B_, tisint(g, bx, tx), tisint(g, by, ty), ""), ic, fc, "");
}

/* is word 'b' a reference? (value.h: tag 0, low bits 0) */
static LLVMValueRef isrefw(Gen *g, LLVMValueRef b) {
  return LLVMBuildICmp(B_, LLVMIntEQ, LLVMBuildAnd(B_, b, ci64(g, 0xFFFF000000000007ULL), ""),
                       ci64(g, 0), "isref");
}

/* x == y without __eq: numbers by value, else equal words are equal
** values and two words that are no references (nil, booleans, light C
** functions, numbers) differ; two references that differ are unequal
** when one is a string (strings are interned), else (tables, userdata:
** __eq; a number and a boxed integer) the real call */
static LLVMValueRef leafeq(Gen *g, Leaf *lf, LLVMValueRef vx, LLVMValueRef vy) {
  LLVMBasicBlockRef num = newbb(g, "eq.num"), other = newbb(g, "eq.other");
  LLVMBasicBlockRef diff = newbb(g, "eq.diff"), anyref = newbb(g, "eq.anyref");
  LLVMBasicBlockRef refs = newbb(g, "eq.refs"), join = newbb(g, "eq.join");
  LLVMBasicBlockRef ints = newbb(g, "eq.ints"), notints = newbb(g, "eq.notints");
  LLVMValueRef bx = bits(g, vx), by = bits(g, vy), c[5], r, xr, yr;
  LLVMBasicBlockRef from[5];
  /* two integer immediates (both tags in their AND): equal values are
  ** equal words (a state or direction code against an upvalue: deltablue) */
  LLVMBuildCondBr(B_, isint(g, LLVMBuildAnd(B_, bx, by, "")), ints, notints);
  LLVMPositionBuilderAtEnd(B_, ints);
  c[4] = LLVMBuildICmp(B_, LLVMIntEQ, bx, by, "");
  from[4] = ints;
  LLVMBuildBr(B_, join);
  LLVMPositionBuilderAtEnd(B_, notints);
  LLVMBuildCondBr(B_, LLVMBuildAnd(B_, isnum(g, bx), isnum(g, by), ""), num, other);
  LLVMPositionBuilderAtEnd(B_, num);
  c[0] = LLVMBuildFCmp(B_, LLVMRealOEQ, tonum(g, bx), tonum(g, by), "");
  from[0] = num;
  LLVMBuildBr(B_, join);
  LLVMPositionBuilderAtEnd(B_, other);
  c[1] = LLVMConstInt(g->i1, 1, 0);
  from[1] = other;
  LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntEQ, bx, by, ""), join, diff);
  LLVMPositionBuilderAtEnd(B_, diff);
  xr = isrefw(g, bx); yr = isrefw(g, by);
  c[2] = LLVMConstInt(g->i1, 0, 0);
  from[2] = diff;
  LLVMBuildCondBr(B_, LLVMBuildOr(B_, xr, yr, ""), anyref, join);
  LLVMPositionBuilderAtEnd(B_, anyref);
  LLVMBuildCondBr(B_, LLVMBuildAnd(B_, xr, yr, ""), refs, lf->gen);
  LLVMPositionBuilderAtEnd(B_, refs);
  {
    LLVMValueRef tx = hload(g, g->i8, vx, "tt"), ty = hload(g, g->i8, vy, "tt");
    LLVMValueRef s = LLVMConstInt(g->i8, MVM_TSTRING, 0);
    lguard(g, lf, LLVMBuildOr(B_, LLVMBuildICmp(B_, LLVMIntEQ, tx, s, ""),
                              LLVMBuildICmp(B_, LLVMIntEQ, ty, s, ""), ""));
  }
  c[3] = LLVMConstInt(g->i1, 0, 0);
  from[3] = LLVMGetInsertBlock(B_);
  LLVMBuildBr(B_, join);
  LLVMPositionBuilderAtEnd(B_, join);
  r = LLVMBuildPhi(B_, g->i1, "eq");
  LLVMAddIncoming(r, c, from, 5);
  return r;
}

/* the value of the callee's upvalue 'idx' */
static LLVMValueRef leafupval(Gen *g, Leaf *lf, int idx) {
  return tb(g, LLVMBuildLoad2(B_, g->p1, upvalchain(g, lf->cl, idx, NULL), "upv"), g->tb_upval);
}

/* the end of a table read: the value at 'slot' when it is not nil; nil
** (or an absent key: 'miss') only when table 't' has no __index, else
** the real call */
static LLVMValueRef leafgetend(Gen *g, Leaf *lf, LLVMValueRef t, LLVMValueRef slot,
                               LLVMBasicBlockRef miss) {
  LLVMBasicBlockRef hit = newbb(g, "leaf.hit"), nilr = newbb(g, "leaf.nil"), join = newbb(g, "leaf.got");
  LLVMValueRef v = hload(g, g->p1, slot, ""), r, vals[2];
  LLVMBasicBlockRef from[2];
  LLVMBuildCondBr(B_, isnil(g, v), miss, hit);
  LLVMPositionBuilderAtEnd(B_, hit);
  LLVMBuildBr(B_, join);
  LLVMPositionBuilderAtEnd(B_, miss);
  notm(g, t, TM_INDEX, nilr, lf->gen);
  LLVMPositionBuilderAtEnd(B_, nilr);
  LLVMBuildBr(B_, join);
  LLVMPositionBuilderAtEnd(B_, join);
  r = LLVMBuildPhi(B_, g->p1, "got");
  vals[0] = v; vals[1] = cword(g, MVM_NIL); from[0] = hit; from[1] = nilr;
  LLVMAddIncoming(r, vals, from, 2);
  return r;
}

/* The slot of a constant string key in an inlined leaf, with a
** slot-prediction hint of its own (a global of the module, as getstrk's):
** the key's main position, the node the hint names, else mvmrt_strchain,
** whose node becomes the hint.  An object's fields collide in its small
** node array (richards' tasks have 8): with the main position alone the
** inlined methods of richards made 134 M more
** mvmrt_strchain instructions (-j on) than the compiled methods, which
** have hints. */
static LLVMValueRef leafslot(Gen *g, LLVMValueRef t, TString *key, LLVMBasicBlockRef miss) {
  LLVMBasicBlockRef tryhint = newbb(g, "leaf.tryhint"), chain = newbb(g, "leaf.chain");
  LLVMBasicBlockRef inchain = newbb(g, "leaf.inchain"), found = newbb(g, "leaf.found"), from[3];
  LLVMValueRef hint = newhint(g), mask, node, mp, hn, cp, off, args[2], vals[3], phi;
  node = nodearray(g, t, &mask);
  mp = nodeat(g, node, LLVMBuildAnd(B_, ci64(g, key->hash), mask, ""), "mainpos");
  vals[0] = nodeval(g, mp);
  from[0] = LLVMGetInsertBlock(B_);
  LLVMBuildCondBr(B_, nodehas(g, mp, key), found, tryhint);
  LLVMPositionBuilderAtEnd(B_, tryhint);
  hn = hintnode(g, hint, node, mask);
  vals[1] = nodeval(g, hn);
  from[1] = tryhint;
  LLVMBuildCondBr(B_, nodehas(g, hn, key), found, chain);
  LLVMPositionBuilderAtEnd(B_, chain);
  args[0] = t; args[1] = craw(g, key);
  cp = LLVMBuildCall2(B_, g->ty_chain, readonlyfn(g, getfn(g, "mvmrt_strchain", g->ty_chain, 1)), args, 2, "");
  LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntEQ, cp, LLVMConstNull(g->p0), ""), miss, inchain);
  LLVMPositionBuilderAtEnd(B_, inchain);
  off = LLVMBuildSub(B_, LLVMBuildPtrToInt(B_, cp, g->i64, ""),
                     LLVMBuildPtrToInt(B_, nodeval(g, node), g->i64, ""), "");
  tb(g, LLVMBuildStore(B_, LLVMBuildTrunc(B_, LLVMBuildUDiv(B_, off, ci64(g, sizeof(Node)), ""), g->i32, ""),
                       hint), g->tb_hint);
  vals[2] = cp;
  from[2] = inchain;
  LLVMBuildBr(B_, found);
  LLVMPositionBuilderAtEnd(B_, found);
  phi = LLVMBuildPhi(B_, g->p0, "slot");
  LLVMAddIncoming(phi, vals, from, 3);
  return phi;
}

/* t[key], constant string key (GETFIELD, GETTABUP) */
static LLVMValueRef leafgetstr(Gen *g, Leaf *lf, LLVMValueRef t, TString *key) {
  LLVMBasicBlockRef miss = newbb(g, "leaf.miss");
  LLVMValueRef slot;
  istable(g, t, bits(g, t), newbb(g, "leaf.tab"), lf->gen);
  slot = leafslot(g, t, key, miss);
  return leafgetend(g, lf, t, slot, miss);
}

/* t[key], integer key (GETI: 'keyconst'; GETTABLE: 'keyv', an immediate
** integer or the real call); a key not in its one place: the real call */
static LLVMValueRef leafgetint(Gen *g, Leaf *lf, LLVMValueRef t, LLVMValueRef keyv,
                               LLVMValueRef keyconst) {
  LLVMValueRef slot = intslot(g, t, keyv, keyconst, lf->gen, 0);
  return leafgetend(g, lf, t, slot, newbb(g, "leaf.miss"));
}

static LLVMValueRef leafunm(Gen *g, Leaf *lf, LLVMValueRef v) {
  LLVMBasicBlockRef ib = newbb(g, "unm.int"), fb = newbb(g, "unm.flt"), join = newbb(g, "unm");
  LLVMValueRef b = bits(g, v), n, vals[2], r;
  LLVMBasicBlockRef from[2];
  LLVMBuildCondBr(B_, isint(g, b), ib, fb);
  LLVMPositionBuilderAtEnd(B_, ib);
  n = LLVMBuildNeg(B_, sext48(g, b), "");
  lguard(g, lf, fits48(g, n));   /* -(-2^47): the call boxes it */
  vals[0] = mkint(g, n);
  from[0] = LLVMGetInsertBlock(B_);
  LLVMBuildBr(B_, join);
  LLVMPositionBuilderAtEnd(B_, fb);
  lguard(g, lf, isflt(g, b));
  vals[1] = boxdbl(g, LLVMBuildFNeg(B_, getflt(g, b), ""));
  from[1] = LLVMGetInsertBlock(B_);
  LLVMBuildBr(B_, join);
  LLVMPositionBuilderAtEnd(B_, join);
  r = LLVMBuildPhi(B_, g->p1, "unm");
  LLVMAddIncoming(r, vals, from, 2);
  return r;
}

/* #v: a string's length, a table's border (mvmrt_tablen) when it has no
** __len; else the real call */
static LLVMValueRef leaflen(Gen *g, Leaf *lf, LLVMValueRef v) {
  LLVMBasicBlockRef ref = newbb(g, "len.ref"), str = newbb(g, "len.str"), nots = newbb(g, "len.nots");
  LLVMBasicBlockRef tab = newbb(g, "len.tab"), nomt = newbb(g, "len.nomt"), join = newbb(g, "len");
  LLVMValueRef b = bits(g, v), tt, n[2], r;
  LLVMBasicBlockRef from[2];
  LLVMBuildCondBr(B_, isrefw(g, b), ref, lf->gen);
  LLVMPositionBuilderAtEnd(B_, ref);
  tt = hload(g, g->i8, v, "tt");
  LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntEQ, tt, LLVMConstInt(g->i8, MVM_TSTRING, 0), ""), str, nots);
  LLVMPositionBuilderAtEnd(B_, str);
  n[0] = hload(g, g->i64, byteptr(g, v, offsetof(TString, len)), "slen");
  from[0] = str;
  LLVMBuildBr(B_, join);
  LLVMPositionBuilderAtEnd(B_, nots);
  LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntEQ, tt, LLVMConstInt(g->i8, MVM_TTABLE, 0), ""), tab, lf->gen);
  LLVMPositionBuilderAtEnd(B_, tab);
  notm(g, v, TM_LEN, nomt, lf->gen);
  LLVMPositionBuilderAtEnd(B_, nomt);
  n[1] = tablencall(g, v);
  from[1] = nomt;
  LLVMBuildBr(B_, join);
  LLVMPositionBuilderAtEnd(B_, join);
  r = LLVMBuildPhi(B_, g->i64, "len");
  LLVMAddIncoming(r, n, from, 2);
  lguard(g, lf, fits48(g, r));   /* (always: memory is smaller) */
  return mkint(g, r);
}

/* a test at 'pc' followed by its JMP: "if (cond ~= k) then pc++" */
static void leafcond(Gen *g, Leaf *lf, int pc, LLVMValueRef cond) {
  LLVMBasicBlockRef jump = ledge(lf, pc + 1), skip = ledge(lf, pc + 2);
  if (GETARG_k(lf->p->code[pc])) LLVMBuildCondBr(B_, cond, jump, skip);
  else LLVMBuildCondBr(B_, cond, skip, jump);
}

/* x op sB for LTI LEI GTI GEI (numbers only; x of static type t) */
static LLVMValueRef leafcmpi(Gen *g, Leaf *lf, OpCode op, LLVMValueRef v, int t, int imm) {
  LLVMValueRef b = bits(g, v);
  LLVMRealPredicate pr = op == OP_LTI ? LLVMRealOLT : op == OP_LEI ? LLVMRealOLE :
                         op == OP_GTI ? LLVMRealOGT : LLVMRealOGE;
  LLVMIntPredicate ip = op == OP_LTI ? LLVMIntSLT : op == OP_LEI ? LLVMIntSLE :
                        op == OP_GTI ? LLVMIntSGT : LLVMIntSGE;
  lguard(g, lf, tisnum(g, b, t));
  if (t == TY_INT) return LLVMBuildICmp(B_, ip, sext48(g, b), ci64(g, (uint64_t)(int64_t)imm), "");
  return LLVMBuildFCmp(B_, pr, ttonum(g, b, t), LLVMConstReal(g->f64, (double)imm), "");
}

/* RETURN of R[first] .. R[first+n-1]: the call's results (nres of them,
** nil-padded; all n for LUA_MULTRET) go to R[A].. of the caller, L->top
** as after the call */
static void leaftailret(Gen *g, Leaf *lf, int first, int n);
static void leafreturn(Gen *g, Leaf *lf, int a, int nres, int first, int n,
                       LLVMBasicBlockRef done) {
  LLVMValueRef vals[MAXREGS];
  int k, t = g->spec[lf->cpc];
  if (lf->tail) {
    leaftailret(g, lf, first, n);
    return;
  }
  if (lf->fast) {   /* one result (leafsite) into R[a], as builtinfast's */
    LLVMValueRef v = n > 0 ? lget(g, lf, first) : cword(g, MVM_NIL);
    if (t != TY_NONE && lf->cur[first] != t && !(t == TY_NUM && knum(lf->cur[first])))
      lguard(g, lf, n > 0 ? hasty(g, bits(g, v), t) : LLVMConstInt(g->i1, 0, 0));
    if (t == TY_FLT) setdbl(g, a, getflt(g, bits(g, v)));
    else setreg(g, a, v);
    LLVMBuildBr(B_, done);
    return;
  }
  if (nres < 0) {   /* all of them: beyond the frame, in the stack's room */
    nres = n;
    if (a + n > g->p->maxstacksize) {
      LLVMValueRef last = fload(g, g->p0, g->L, offsetof(lua_State, stack_last), "stack_last");
      lguard(g, lf, LLVMBuildICmp(B_, LLVMIntULT, LLVMBuildPtrToInt(B_, regptr(g, a + n), g->i64, ""),
                                  LLVMBuildPtrToInt(B_, last, g->i64, ""), "room"));
    }
  }
  for (k = 0; k < n && k < nres; k++) vals[k] = lget(g, lf, first + k);
  /* a speculated result (leafsite): the type the caller's code assumes,
  ** else the real call (whose result fails the same guard) */
  if (t != TY_NONE && lf->cur[first] != t && !(t == TY_NUM && knum(lf->cur[first])))
    lguard(g, lf, n > 0 ? hasty(g, bits(g, vals[0]), t) : LLVMConstInt(g->i1, 0, 0));
  /* the caller's registers as after the call: slots and SSA values (the
  ** code after the call does not reload them on this path: emitcall) */
  for (k = 0; k < nres; k++) {   /* NOBARRIER: VM stack */
    LLVMValueRef v = k < n ? vals[k] : cword(g, MVM_NIL);
    stackstore(g, a + k, v);
    if (a + k < g->nregs && (g->regvar[a + k] != NULL || (g->fvar != NULL && g->fvar[a + k] != NULL)))
      setreg(g, a + k, v);
  }
  tb(g, LLVMBuildStore(B_, regptr(g, a + nres), byteptr(g, g->L, offsetof(lua_State, top))), g->tb_frame);
  LLVMBuildBr(B_, done);
}

/* RETURN of R[first] .. R[first+n-1] at a TAILCALL site: the caller's
** own return, as leanreturn (hooks were tested off before the body):
** when its caller wants at most n results (or all of them), they go to
** func[0 ..], L->top = func + wanted, L->ci = ci->previous; otherwise
** the real tail call (nothing written yet) */
static void leaftailret(Gen *g, Leaf *lf, int first, int n) {
  LLVMValueRef vals[MAXREGS], wanted, func, cnt, prev;
  int k;
  wanted = LLVMBuildSExt(B_, tb(g, LLVMBuildLoad2(B_, LLVMInt16TypeInContext(g->C),
                                                  byteptr(g, g->ci, offsetof(CallInfo, nresults)), "wanted"),
                                g->tb_frame), g->i64, "");
  lguard(g, lf, LLVMBuildICmp(B_, LLVMIntULE, LLVMBuildAdd(B_, wanted, ci64(g, 1), ""),
                              ci64(g, (uint64_t)n + 1), ""));
  for (k = 0; k < n; k++) vals[k] = lget(g, lf, first + k);
  func = tb(g, LLVMBuildLoad2(B_, g->p0, byteptr(g, g->ci, offsetof(CallInfo, func)), "func"),
            g->tb_frame);
  for (k = 0; k < n; k++)   /* NOBARRIER: VM stack slots */
    tb(g, LLVMBuildStore(B_, vals[k], byteptr(g, func, (size_t)k * sizeof(Value))), g->tb_stack);
  cnt = n == 0 ? ci64(g, 0) :
        LLVMBuildSelect(B_, LLVMBuildICmp(B_, LLVMIntULT, wanted, ci64(g, (uint64_t)n), ""),
                        wanted, ci64(g, (uint64_t)n), "");
  tb(g, LLVMBuildStore(B_, LLVMBuildGEP2(B_, g->i64, func, &cnt, 1, ""),
                       byteptr(g, g->L, offsetof(lua_State, top))), g->tb_frame);
  prev = tb(g, LLVMBuildLoad2(B_, g->p0, byteptr(g, g->ci, offsetof(CallInfo, previous)), "prev"),
            g->tb_frame);
  tb(g, LLVMBuildStore(B_, prev, byteptr(g, g->L, offsetof(lua_State, ci))), g->tb_frame);
  LLVMBuildRet(B_, ci32(g, JIT_RETURNED));
}

/* The stores of a setter (jit.c pureleaf: a run of SETFIELDs ends in a
** RETURN, their keys distinct): from the SETFIELD at 'pc' to the run's
** end, first every check (a table, the key's slot holding a non-nil
** value, so no __newindex applies and no node moves: tab_setslot's
** case), else the real call, which starts over since nothing was written
** yet; then all the stores, each as tab_setslot (the metamethod-absence
** and TAB_WATCHED byte cleared, the card marked).  Nothing after them can
** fail: the RETURN that follows has no guard for a store leaf (inlinee
** declines sites that would need one), so no side effect is ever done
** twice.  Distinct keys: an earlier store of the run never empties a
** later one's slot.  Returns the RETURN's pc. */
static int leafstores(Gen *g, Leaf *lf, int pc) {
  const Proto *p = lf->p;
  LLVMValueRef tabs[JIT_INLINE_MAXCODE], slots[JIT_INLINE_MAXCODE];
  int k, n = 0;
  for (; GET_OPCODE(p->code[pc + n]) == OP_SETFIELD && n < JIT_INLINE_MAXCODE; n++) {
    Instruction i = p->code[pc + n];
    LLVMValueRef t = lget(g, lf, GETARG_A(i));
    istable(g, t, bits(g, t), newbb(g, "leaf.settab"), lf->gen);
    tabs[n] = t;
    slots[n] = leafslot(g, t, v_str(p->k[GETARG_B(i)]), lf->gen);
    lguard(g, lf, LLVMBuildNot(B_, isnil(g, hload(g, g->p1, slots[n], "")), ""));
  }
  for (k = 0; k < n; k++) {
    Instruction i = p->code[pc + k];
    LLVMValueRef v;
    int c = GETARG_C(i);
    if (!GETARG_k(i)) v = lget(g, lf, c);
    else if (v_isref(p->k[c])) v = hload(g, g->p1, craw(g, &p->k[c]), "");   /* (P is kept alive) */
    else v = cword(g, p->k[c]);
    /* a non-nil value overwritten (tested above): no cached absence of a
    ** metamethod can be set for its key, and no lookup changes but one
    ** through an '__index' field (the slot a method cache returns is read
    ** at every hit); so the 'extra' byte stays, except for "__index" */
    if (v_str(p->k[GETARG_B(i)]) == g->J->g->tmname[TM_INDEX]) clearextra(g, tabs[k]);
    gcwrite(g, v, tabs[k], slots[k]);
  }
  return pc + n;
}

/* the callee's instruction 'pc' */
static void leafop(Gen *g, Leaf *lf, int pc, int a, int nres, LLVMBasicBlockRef done) {
  const Proto *p = lf->p;
  Instruction i = p->code[pc];
  OpCode op = GET_OPCODE(i);
  int ra = GETARG_A(i), rb = GETARG_B(i), rc = GETARG_C(i), next = pc + 1, t;
  LLVMValueRef v;
  switch (op) {
    case OP_MOVE: lsetty(g, lf, ra, lget(g, lf, rb), lf->cur[rb]); break;
    case OP_LOADI: lsetty(g, lf, ra, cword(g, v_immint(GETARG_sBx(i))), TY_INT); break;
    case OP_LOADF: lsetty(g, lf, ra, cword(g, v_float((double)GETARG_sBx(i))), TY_FLT); break;
    case OP_LOADK: {
      int k = GETARG_Bx(i);
      /* a reference is loaded from the constant array (P is kept alive) */
      if (v_isref(p->k[k])) lset(g, lf, ra, hload(g, g->p1, craw(g, &p->k[k]), ""));
      else lsetty(g, lf, ra, cword(g, p->k[k]), wordty(p->k[k]));
      break;
    }
    case OP_LOADFALSE: lset(g, lf, ra, cword(g, MVM_FALSE)); break;
    case OP_LOADTRUE: lset(g, lf, ra, cword(g, MVM_TRUE)); break;
    case OP_LOADNIL: {
      int r;
      for (r = ra; r <= ra + rb; r++) lset(g, lf, r, cword(g, MVM_NIL));
      break;
    }
    case OP_GETUPVAL: lset(g, lf, ra, leafupval(g, lf, rb)); break;
    case OP_GETTABUP: case OP_GETFIELD: {
      Value k = p->k[rc];
      if (!v_isstring(k)) { LLVMBuildBr(B_, lf->gen); return; }
      v = op == OP_GETTABUP ? leafupval(g, lf, rb) : lget(g, lf, rb);
      lset(g, lf, ra, leafgetstr(g, lf, v, v_str(k)));
      break;
    }
    case OP_GETI: lset(g, lf, ra, leafgetint(g, lf, lget(g, lf, rb), NULL, ci64(g, (uint64_t)rc))); break;
    case OP_LEN: lsetty(g, lf, ra, leaflen(g, lf, lget(g, lf, rb)), TY_INT); break;
    case OP_CALL: case OP_TAILCALL: {   /* of a builtin (jit_leafbuiltin): when R[A] is the library's function */
      int k = jit_leafbuiltin(p, pc);
      if (k < 0 || rb != 2 || (op == OP_CALL ? rc != 2 : rc != 0 || GETARG_k(i))) {
        LLVMBuildBr(B_, lf->gen);
        return;
      }
      lguard(g, lf, islcfn(g, bits(g, lget(g, lf, ra)), g->J->builtins[k]));
      t = lf->cur[ra + 1];
      lsetty(g, lf, ra, builtinval(g, k, bits(g, lget(g, lf, ra + 1)), t, lf->gen), builtinty(k, t));
      if (op == OP_TAILCALL) {   /* its result is the callee's */
        leafreturn(g, lf, a, nres, ra, 1, done);
        return;
      }
      break;
    }
    case OP_GETTABLE:
      lset(g, lf, ra, leafgetint(g, lf, lget(g, lf, rb), lget(g, lf, rc), NULL));
      break;
    case OP_ADDI:
      lfeed(g, lf, pc, rb);
      v = leafarith(g, lf, OP_ADD, lget(g, lf, rb), cword(g, v_immint(GETARG_sC(i))),
                    lf->cur[rb], TY_INT, &t);
      lsetty(g, lf, ra, v, t);
      next = pc + 2;
      break;
    case OP_ADDK: case OP_SUBK: case OP_MULK: case OP_MODK: case OP_POWK:
    case OP_DIVK: case OP_IDIVK:
      v = lconst(g, lf, rc);
      if (v == NULL) { LLVMBuildBr(B_, lf->gen); return; }
      lfeed(g, lf, pc, rb);
      v = leafarith(g, lf, (OpCode)(op - OP_ADDK + OP_ADD), lget(g, lf, rb), v,
                    lf->cur[rb], wordty(p->k[rc]), &t);
      lsetty(g, lf, ra, v, t);
      next = pc + 2;
      break;
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_MOD: case OP_POW: case OP_DIV: case OP_IDIV:
      lfeed(g, lf, pc, rb);
      lfeed(g, lf, pc, rc);
      v = leafarith(g, lf, op, lget(g, lf, rb), lget(g, lf, rc), lf->cur[rb], lf->cur[rc], &t);
      lsetty(g, lf, ra, v, t);
      next = pc + 2;
      break;
    case OP_BAND: case OP_BOR: case OP_BXOR: case OP_SHL: case OP_SHR:
      lsetty(g, lf, ra, leafbit(g, lf, op, lget(g, lf, rb), lget(g, lf, rc), lf->cur[rb], lf->cur[rc]),
             TY_INT);
      next = pc + 2;
      break;
    case OP_BANDK: case OP_BORK: case OP_BXORK:
      if (wordty(p->k[rc]) != TY_INT) { LLVMBuildBr(B_, lf->gen); return; }
      v = leafbit(g, lf, (OpCode)(op - OP_BANDK + OP_BAND), lget(g, lf, rb), cword(g, p->k[rc]),
                  lf->cur[rb], TY_INT);
      lsetty(g, lf, ra, v, TY_INT);
      next = pc + 2;
      break;
    case OP_SHRI:   /* R[B] >> sC */
      v = leafbit(g, lf, OP_SHR, lget(g, lf, rb), cword(g, v_immint(GETARG_sC(i))), lf->cur[rb], TY_INT);
      lsetty(g, lf, ra, v, TY_INT);
      next = pc + 2;
      break;
    case OP_SHLI:   /* sC << R[B] */
      v = leafbit(g, lf, OP_SHL, cword(g, v_immint(GETARG_sC(i))), lget(g, lf, rb), TY_INT, lf->cur[rb]);
      lsetty(g, lf, ra, v, TY_INT);
      next = pc + 2;
      break;
    case OP_BNOT: {
      LLVMValueRef b = bits(g, lget(g, lf, rb));
      lguard(g, lf, tisint(g, b, lf->cur[rb]));
      lsetty(g, lf, ra, mkint(g, LLVMBuildNot(B_, sext48(g, b), "")), TY_INT);
      break;
    }
    case OP_UNM:
      t = lf->cur[rb];
      lsetty(g, lf, ra, leafunm(g, lf, lget(g, lf, rb)), knum(t) ? t : TY_NUM);
      break;
    case OP_NOT:
      lset(g, lf, ra, LLVMBuildSelect(B_, falsy(g, bits(g, lget(g, lf, rb))),
                                      cword(g, MVM_TRUE), cword(g, MVM_FALSE), ""));
      break;
    case OP_JMP: next = pc + 1 + GETARG_sJ(i); break;
    case OP_SETFIELD: next = leafstores(g, lf, pc); break;
    case OP_EQ: leafcond(g, lf, pc, leafeq(g, lf, lget(g, lf, ra), lget(g, lf, rb))); return;
    case OP_LT: case OP_LE:
      lfeed(g, lf, pc, ra);
      lfeed(g, lf, pc, rb);
      leafcond(g, lf, pc, leafless(g, lf, bits(g, lget(g, lf, ra)), bits(g, lget(g, lf, rb)),
                                   lf->cur[ra], lf->cur[rb], op == OP_LE));
      return;
    case OP_EQK: {
      Value k = p->k[rb];
      if (v_isref(k) && !v_isstring(k)) { LLVMBuildBr(B_, lf->gen); return; }   /* a boxed integer */
      v = lget(g, lf, ra);
      if (v_isnumber(k)) leafcond(g, lf, pc, leafeq(g, lf, v, cword(g, k)));
      else   /* nil, booleans, strings (interned): identity */
        leafcond(g, lf, pc, LLVMBuildICmp(B_, LLVMIntEQ, bits(g, v), ci64(g, k), ""));
      return;
    }
    case OP_EQI: {   /* a reference (a boxed integer) never equals an immediate */
      LLVMValueRef b = bits(g, lget(g, lf, ra));
      leafcond(g, lf, pc, LLVMBuildAnd(B_, isnum(g, b),
                                       LLVMBuildFCmp(B_, LLVMRealOEQ, tonum(g, b),
                                                     LLVMConstReal(g->f64, (double)GETARG_sB(i)), ""), ""));
      return;
    }
    case OP_LTI: case OP_LEI: case OP_GTI: case OP_GEI:
      lfeed(g, lf, pc, ra);
      leafcond(g, lf, pc, leafcmpi(g, lf, op, lget(g, lf, ra), lf->cur[ra], GETARG_sB(i)));
      return;
    case OP_TEST:
      leafcond(g, lf, pc, LLVMBuildNot(B_, falsy(g, bits(g, lget(g, lf, ra))), ""));
      return;
    case OP_TESTSET: {   /* falsy(R[B]) == k: skip the jump; else R[A] := R[B], jump */
      LLVMBasicBlockRef set = newbb(g, "leaf.testset");
      LLVMValueRef f;
      v = lget(g, lf, rb);
      f = falsy(g, bits(g, v));
      if (GETARG_k(i)) LLVMBuildCondBr(B_, f, ledge(lf, pc + 2), set);
      else LLVMBuildCondBr(B_, f, set, ledge(lf, pc + 2));
      LLVMPositionBuilderAtEnd(B_, set);
      lset(g, lf, ra, v);
      break;
    }
    case OP_RETURN0: leafreturn(g, lf, a, nres, 0, 0, done); return;
    case OP_RETURN1: leafreturn(g, lf, a, nres, ra, 1, done); return;
    case OP_RETURN:
      if (rb == 0 || GETARG_k(i)) { LLVMBuildBr(B_, lf->gen); return; }
      leafreturn(g, lf, a, nres, ra, rb - 1, done);
      return;
    default:   /* MMBIN* (reached only by a failed fast path: not here) and the rest */
      LLVMBuildBr(B_, lf->gen);
      return;
  }
  LLVMBuildBr(B_, ledge(lf, next));
}

/* The CALL R[a](R[a+1] .. R[a+b-1]) for nres results, registers flushed,
** savedpc set, with callee 'P' predicted: evaluate it inline (see above),
** then 'done'.  'tail' 1: a TAILCALL instead (registers not flushed: read
** with getregat; its RETURNs return from this function, leaftailret);
** 2: a CALL's fast path before its flush (fastleaf: read with getregat).
** The builder is left where the call is made as before. */
static void inlineleaf(Gen *g, int cpc, int a, int b, int nres, const Proto *P,
                       LLVMBasicBlockRef done, int tail) {
  Leaf lfs, *lf = &lfs;
  LLVMBasicBlockRef cur = LLVMGetInsertBlock(B_), entry = LLVMGetEntryBasicBlock(g->fn);
  LLVMBasicBlockRef islcl = newbb(g, "leaf.lcl"), body = newbb(g, "leaf");
  LLVMValueRef hook, fv;
  int r, pc, n = P->maxstacksize;
  lf->p = P;
  lf->cpc = cpc;
  lf->tail = tail == 1;
  lf->fast = tail == 2;
  lf->gen = newbb(g, "gencall");
  lf->bb = (LLVMBasicBlockRef *)malloc(((size_t)P->sizecode + 2) * sizeof *lf->bb);
  lf->in = (uint8_t *)malloc(((size_t)P->sizecode + 2) * (n + 1));
  lf->seen = (char *)calloc((size_t)P->sizecode + 2, 1);
  if (lf->bb == NULL || lf->in == NULL || lf->seen == NULL) {
    free(lf->bb); free(lf->in); free(lf->seen);
    LLVMBuildBr(B_, lf->gen);
    LLVMPositionBuilderAtEnd(B_, lf->gen);
    return;
  }
  /* the registers: allocas in the entry block (sroa promotes them) */
  LLVMPositionBuilderBefore(B_, LLVMGetFirstInstruction(entry));
  for (r = 0; r < n; r++) lf->reg[r] = LLVMBuildAlloca(B_, g->p1, "lreg");
  LLVMPositionBuilderAtEnd(B_, cur);
  hook = LLVMBuildLoad2(B_, g->i32, byteptr(g, g->L, offsetof(lua_State, hookmask)), "hookmask");
  LLVMSetVolatile(hook, 1);
  fv = tail ? getregat(g, cpc, a) : stackload(g, a);
  LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntEQ, hook, ci32(g, 0), ""), islcl, lf->gen);
  LLVMPositionBuilderAtEnd(B_, islcl);
  isvalreftt(g, fv, bits(g, fv), MVM_TLCL, newbb(g, "leaf.cl"), lf->gen);
  /* P is kept alive while this code exists (jit.h JitInline), so no
  ** other Proto can have its address */
  LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntEQ,
                                    hload(g, g->p0, byteptr(g, fv, offsetof(LClosure, p)), "proto"),
                                    craw(g, P), ""), body, lf->gen);
  LLVMPositionBuilderAtEnd(B_, body);
  lf->cl = fv;
  for (r = 0; r < n; r++) {   /* the arguments have the caller's types */
    if (r < P->numparams && r < b - 1) {
      int t = regty(g, cpc, a + 1 + r);
      lsetty(g, lf, r, tail ? getregat(g, cpc, a + 1 + r) : stackload(g, a + 1 + r),
             knum(t) ? t : TY_ANY);
    }
    else lset(g, lf, r, cword(g, MVM_NIL));
  }
  for (pc = 0; pc < P->sizecode + 2; pc++) lf->bb[pc] = newbb(g, "leaf.pc");
  LLVMBuildBr(B_, ledge(lf, 0));
  for (pc = 0; pc < P->sizecode; pc++) {
    LLVMPositionBuilderAtEnd(B_, lf->bb[pc]);
    if (lf->seen[pc]) memcpy(lf->cur, lf->in + (size_t)pc * n, (size_t)n);
    else memset(lf->cur, TY_ANY, (size_t)n);   /* (not reached) */
    leafop(g, lf, pc, a, nres, done);
  }
  for (; pc < P->sizecode + 2; pc++) {   /* (never reached: the code ends with a RETURN) */
    LLVMPositionBuilderAtEnd(B_, lf->bb[pc]);
    LLVMBuildBr(B_, lf->gen);
  }
  free(lf->bb); free(lf->in); free(lf->seen);
  g->J->ninlined++;
  LLVMPositionBuilderAtEnd(B_, lf->gen);
}

/* TFORCALL (emitcall of R[a] = the iterator's copy, registers flushed):
** the step of next or of ipairs' iterator without a call (the leaf
** mvmrt_tforstep, as the interpreter's TFORCALL); 1: the results are in
** their stack slots -> 'done' (reloads); else the call follows */
static void tforstep(Gen *g, int a, int nres, LLVMBasicBlockRef done) {
  LLVMBasicBlockRef call = newbb(g, "tforcall"), step = newbb(g, "tforstep");
  LLVMTypeRef params[4], ty;
  LLVMValueRef args[4], r, fv;
  /* the helper only for a light C function (generators, gmatch: C or
  ** Lua closures, straight to the call) */
  fv = tb(g, LLVMBuildLoad2(B_, g->p1, byteptr(g, LLVMBuildLoad2(B_, g->p0, g->basevar, "base"),
                                                (size_t)a * sizeof(Value)), "iter"), g->tb_stack);
  LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntEQ, LLVMBuildAnd(B_, LLVMBuildPtrToInt(B_, fv, g->i64, ""),
                                                                ci64(g, MVM_TAGMASK), ""),
                                    ci64(g, MVM_TAG_LCF), ""), step, call);
  LLVMPositionBuilderAtEnd(B_, step);
  params[0] = params[1] = g->p0; params[2] = params[3] = g->i32;
  ty = LLVMFunctionType(g->i32, params, 4, 0);
  args[0] = g->L; args[1] = g->ci; args[2] = ci32(g, a); args[3] = ci32(g, nres);
  r = LLVMBuildCall2(B_, ty, getfn(g, "mvmrt_tforstep", ty, 1), args, 4, "");
  LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntNE, r, ci32(g, 0), ""), done, call);
  LLVMPositionBuilderAtEnd(B_, call);
}

/* The inlined leaf of a leafsite CALL (one result, a pure leaf that
** stores nothing) as a fast path before anything of the call, as
** builtinfast's: its arguments are taken as the code holds them
** (getregat), its RETURN sets R[a] only (leafreturn) and the code goes
** on at pc + 1; no flush, no savedpc, no L->top (read by nothing after
** a CALL for one result: takes_top).  The leaf makes no call and runs no
** Lua code, so the stack did not move and no other register changed.
** Its guards (hooks, the closure's proto, argument types, results of
** another type than speculated) go on where the builder is left, to the
** generic call with nothing done yet (or to a failed speculation's exit
** at the CALL: leafexits).  cleananalyse counts such a CALL
** as writing R[a] only, as a builtin's. */
static void fastleaf(Gen *g, int pc, int a, int b, const Proto *P) {
  LLVMBasicBlockRef done = newbb(g, "fastleafdone"), gen;
  inlineleaf(g, pc, a, b, 1, P, done, 2);
  gen = LLVMGetInsertBlock(B_);
  LLVMPositionBuilderAtEnd(B_, done);
  br(g, pc + 1);
  LLVMPositionBuilderAtEnd(B_, gen);
}

/* At speculation level 0 the inlined leaf of a leafsite CALL inside a
** loop has no generic call behind it: when the leaf's guards fail (hooks
** on, another callee, an argument or a result of another type) the code
** leaves at the CALL as a failed speculation, and the interpreter makes
** the call (a function that keeps failing is compiled again wider,
** JIT_SPEC_EXITS, where the generic call is back).  The generic call's
** path joined the loop again after a call that clobbers the caller-saved
** registers, so the loop's values were kept in callee-saved registers or
** spilled and reloaded on every iteration: spectral_norm's inner loops
** (a + x[j] * A(i, j)) ran 115 instructions per iteration, 103 without
** that path (-j eager, callgrind), its compiles 5% less.  The same for a
** builtin's generic call (nbody's sqrt) changed nothing: 729 -> 728. */
static int leafexits(Gen *g, int pc) {
  return speclevel(g) == 0 && inloop(g, pc);
}
/* the CALL at pc is an inlined leaf with no generic call behind it:
** compiled code makes no call there (emitcall) */
static int leafnocall(Gen *g, int pc) {
  return leafsite(g, pc) && leafexits(g, pc);
}

static void emitcall(Gen *g, int pc, int a, int b, int nres) {
  LLVMValueRef args[5], r;
  LLVMBasicBlockRef luacall, cdone, ldone = NULL, after;
  const Proto *leaf = b != 0 ? inlinee(g, pc) : NULL;
  int bi = fastbuiltin(g, pc);
  /* an inlined leaf or a builtin is the call's fast path; what follows is
  ** its generic call */
  int fast = leaf != NULL || bi >= 0;
  RegSet ops;
  memset(&ops, 0, sizeof ops);
  rs_range(&ops, a, a + b);
  if (bi == JIT_BUILTIN_BYTE) bytecall(g, pc, a, b);
  else if (bi == JIT_BUILTIN_ASSERT) assertcall(g, pc, a);
  else if (bi == JIT_BUILTIN_SETMT) setmtcall(g, pc, a, nres);
  else if (bi >= 0) builtinfast(g, pc, a, bi);
  else if (leaf != NULL && leafsite(g, pc)) {
    fastleaf(g, pc, a, b, leaf);
    if (leafexits(g, pc)) {
      LLVMBuildBr(B_, specexit(g, pc));
      return;
    }
  }
  luacall = newbb(g, "luacall");
  cdone = newbb(g, "calldone");
  flush_for_call(g, pc, &ops);
  set_savedpc(g, pc + 1);   /* also the resume point (see the entry) */
  if (leaf != NULL && !leafsite(g, pc)) {
    ldone = newbb(g, "leafdone");
    inlineleaf(g, pc, a, b, nres, leaf, ldone, 0);
  }
  if (GET_OPCODE(g->p->code[pc]) == OP_TFORCALL) tforstep(g, a, nres, cdone);
  /* (not in a main chunk outside its loops: code that runs once, for
  ** which mvmrt_precall is as quick as anything inline and compiles to a
  ** fraction of it) */
  if (g->selfres != NULL && g->selfres[pc] && !fast)
    g->fdone = newbb(g, "selfdone");
  /* (nor behind an inlined leaf or a builtin's fast path: their generic
  ** call is taken only when the predicted callee was not the one called,
  ** and mvmrt_precall calls compiled code as directly; the inline direct
  ** call's IR there cost deltablue's compiles 2.6%, richards' 3.2% and
  ** nbody's 0.9% (-j eager, callgrind), their runs the same) */
  if (b != 0 && (g->p->linedefined != 0 || inloop(g, pc)) && !fast) {
    LLVMBasicBlockRef slow = newbb(g, "slowcall");
    inlinecall(g, a, b, nres, selfhint(g, pc, a), cdone, slow);
    LLVMPositionBuilderAtEnd(B_, slow);
    if ((nres == 0 || nres == 1) && ccallhint(g, pc, a)) {
      slow = newbb(g, "slowcall");
      ccallinline(g, a, b, nres, cdone, slow);
      LLVMPositionBuilderAtEnd(B_, slow);
    }
    coldedges(g, slow, 2);   /* mvmrt_precall: what the inline paths did not take */
  }
  args[0] = g->L; args[1] = g->ci; args[2] = ci32(g, a);
  args[3] = ci32(g, b); args[4] = ci32(g, nres);
  r = LLVMBuildCall2(B_, g->ty_call, g->f_call, args, 5, "");
  LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntNE, r, ci32(g, 0), ""), luacall, cdone);
  LLVMPositionBuilderAtEnd(B_, luacall);
  /* JIT_CALLED: a Lua callee for the interpreter; JIT_EXITED: done, but
  ** hooks are on now: the interpreter goes on after the call (reporting
  ** its events) */
  LLVMBuildRet(B_, r);
  LLVMPositionBuilderAtEnd(B_, cdone);
  reload_base(g);   /* the stack may have moved */
  g->trapexit = 1;   /* the call is complete (as after 'luacall' with hooks) */
  reload_after_call(g, pc);
  g->trapexit = 0;
  if (g->fdone != NULL) {   /* a typed self call (selftyped) */
    LLVMBasicBlockRef fdone = g->fdone;
    g->fdone = NULL;
    after = newbb(g, "aftercall");
    LLVMBuildCondBr(B_, hasty(g, bits(g, getreg(g, a)), g->selfres[pc]), after, specexit(g, pc + 1));
    LLVMPositionBuilderAtEnd(B_, fdone);
    if (LLVMGetFirstUse(LLVMBasicBlockAsValue(fdone)) == NULL) LLVMBuildUnreachable(B_);
    else {
      reload_base(g);
      g->trapexit = 1;
      reload_after_call(g, pc);
      g->trapexit = 0;
      LLVMBuildBr(B_, after);
    }
    LLVMPositionBuilderAtEnd(B_, after);
    multret_next(g, pc, nres == LUA_MULTRET);
    return;
  }
  if (ldone == NULL && (g->spec[pc] == TY_NONE || (bi < 0 && !leafsite(g, pc)))) {
    multret_next(g, pc, nres == LUA_MULTRET);
    return;
  }
  /* An inlined leaf's path (ldone) set the results' registers itself and
  ** skips the rest: no call was made, so the stack did not move, no other
  ** register changed, and nothing could set the trap but an asynchronous
  ** lua_sethook, which the next test of it sees.  The real call's result
  ** is guarded when speculated (leafsite), as after a load (loaddone). */
  after = newbb(g, "aftercall");
  if (g->spec[pc] != TY_NONE)
    LLVMBuildCondBr(B_, hasty(g, bits(g, getreg(g, a)), g->spec[pc]), after, specexit(g, pc + 1));
  else LLVMBuildBr(B_, after);
  if (ldone != NULL) {
    LLVMPositionBuilderAtEnd(B_, ldone);
    LLVMBuildBr(B_, after);
  }
  LLVMPositionBuilderAtEnd(B_, after);
  multret_next(g, pc, nres == LUA_MULTRET);
}

/* a vararg frame's count of extra arguments (ci->u.l.nextraargs), an i64 */
static LLVMValueRef nextraargs(Gen *g) {
  return LLVMBuildSExt(B_, fload(g, g->i32, g->ci, offsetof(CallInfo, u.l.nextraargs), "nextra"),
                       g->i64, "");
}

/* The common case of do_poscall for returning R[a] .. R[a+n-1], inline:
** no hooks, and the caller wants at most n results (or all of them):
** the n results go to func[0 .. n-1] (forward, below their registers: no
** overlap problem; slots beyond the wanted ones lie inside this frame and
** get valid values), L->top = func + wanted, L->ci = ci->previous.  No
** call, no allocation.  Otherwise control goes on to the helper path the
** caller emits next (the insertion point is left there).  'va' is the
** RETURN's C of a vararg function (numparams + 1; 0 for others): its
** frame moves back down below the extra arguments first (func -=
** nextraargs + C, as the interpreter's RETURN). */
static void leanreturn(Gen *g, int a, int n, int va) {
  LLVMBasicBlockRef fast = newbb(g, "leanret"), slow = newbb(g, "slowret");
  LLVMValueRef hook, wanted, ok, func, top, prev, cnt;
  int k;
  hook = LLVMBuildLoad2(B_, g->i32, byteptr(g, g->L, offsetof(lua_State, hookmask)), "hookmask");
  LLVMSetVolatile(hook, 1);
  wanted = LLVMBuildSExt(B_, tb(g, LLVMBuildLoad2(B_, LLVMInt16TypeInContext(g->C),
                                                  byteptr(g, g->ci, offsetof(CallInfo, nresults)), "wanted"),
                                g->tb_frame), g->i64, "");
  /* wanted <= n (wanted >= -1 always: LUA_MULTRET or a count) */
  ok = LLVMBuildICmp(B_, LLVMIntSLE, wanted, ci64(g, (uint64_t)n), "");
  ok = LLVMBuildAnd(B_, ok, LLVMBuildICmp(B_, LLVMIntEQ, hook, ci32(g, 0), ""), "");
  LLVMBuildCondBr(B_, ok, fast, slow);
  LLVMPositionBuilderAtEnd(B_, fast);
  func = tb(g, LLVMBuildLoad2(B_, g->p0, byteptr(g, g->ci, offsetof(CallInfo, func)), "func"),
            g->tb_frame);
  if (va) {
    LLVMValueRef back = LLVMBuildNeg(B_, LLVMBuildAdd(B_, nextraargs(g), ci64(g, (uint64_t)va), ""), "");
    func = LLVMBuildGEP2(B_, g->i64, func, &back, 1, "vafunc");
  }
  for (k = 0; k < n; k++) {   /* NOBARRIER: VM stack slots */
    LLVMValueRef v = getreg(g, a + k);
    tb(g, LLVMBuildStore(B_, v, byteptr(g, func, (size_t)k * sizeof(Value))), g->tb_stack);
  }
  /* wanted < 0 ? n : wanted, for -1 <= wanted <= n: the unsigned minimum;
  ** 0 for n == 0 and wanted & 1 for n == 1 (one result, the common case) */
  if (n == 0) cnt = ci64(g, 0);
  else if (n == 1) cnt = LLVMBuildAnd(B_, wanted, ci64(g, 1), "");
  else cnt = LLVMBuildSelect(B_, LLVMBuildICmp(B_, LLVMIntULT, wanted, ci64(g, (uint64_t)n), ""),
                             wanted, ci64(g, (uint64_t)n), "");
  top = LLVMBuildGEP2(B_, g->i64, func, &cnt, 1, "");
  tb(g, LLVMBuildStore(B_, top, byteptr(g, g->L, offsetof(lua_State, top))), g->tb_frame);
  prev = tb(g, LLVMBuildLoad2(B_, g->p0, byteptr(g, g->ci, offsetof(CallInfo, previous)), "prev"),
            g->tb_frame);
  tb(g, LLVMBuildStore(B_, prev, byteptr(g, g->L, offsetof(lua_State, ci))), g->tb_frame);
  LLVMBuildRet(B_, ci32(g, JIT_RETURNED));
  LLVMPositionBuilderAtEnd(B_, slow);
}

/* VARARGPREP (pc 0; OSR enters after it) as the interpreter makes it
** when the stack has room for the moved frame (vm.c; meta.h
** meta_movevarargs): the function and the 'nfix' fixed parameters are
** copied above the extra arguments, their old slots cleared, and ci->func,
** ci->top, L->top and nextraargs set; no call, no allocation.  Without
** the room, mvmrt_varargprep (meta_adjustvarargs grows the stack).  The
** call hook does not run here: compiled code is entered with hooks off
** (rt_direct, jit_run), as for the helper before. */
static void varargprep(Gen *g, int pc, int nfix) {
  LLVMBasicBlockRef fast = newbb(g, "vaprep"), slow = newbb(g, "vaprepslow");
  LLVMBasicBlockRef done = newbb(g, "vaprepdone");
  LLVMValueRef top, last, func, nargs, ctop, off, args[3];
  size_t need = ((size_t)g->p->maxstacksize + 2) * sizeof(Value);
  int k;
  flush_for_call(g, pc, NULL);
  set_savedpc(g, pc + 1);
  if (!g->trapexit) g->contcall = pc;
  top = fload(g, g->p0, g->L, offsetof(lua_State, top), "top");
  last = fload(g, g->p0, g->L, offsetof(lua_State, stack_last), "stack_last");
  /* stack_last - top > maxstacksize + 1 slots */
  LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntULE, byteptr(g, top, need), last, "room"), fast, slow);
  LLVMPositionBuilderAtEnd(B_, fast);
  func = fload(g, g->p0, g->ci, offsetof(CallInfo, func), "func");
  nargs = LLVMBuildSub(B_, LLVMBuildPtrDiff2(B_, g->i64, top, func, ""), ci64(g, 1), "nargs");
  fstore(g, LLVMBuildTrunc(B_, LLVMBuildSub(B_, nargs, ci64(g, (uint64_t)nfix), ""), g->i32, ""),
         g->ci, offsetof(CallInfo, u.l.nextraargs));
  for (k = 0; k <= nfix; k++) {   /* NOBARRIER: VM stack slots */
    LLVMValueRef v = tb(g, LLVMBuildLoad2(B_, g->p1, byteptr(g, func, (size_t)k * sizeof(Value)), ""),
                        g->tb_stack);
    tb(g, LLVMBuildStore(B_, v, byteptr(g, top, (size_t)k * sizeof(Value))), g->tb_stack);
    if (k > 0)   /* the old copy is dead */
      tb(g, LLVMBuildStore(B_, cword(g, MVM_NIL), byteptr(g, func, (size_t)k * sizeof(Value))),
         g->tb_stack);
  }
  fstore(g, byteptr(g, top, ((size_t)nfix + 1) * sizeof(Value)), g->L, offsetof(lua_State, top));
  fstore(g, top, g->ci, offsetof(CallInfo, func));   /* func + nargs + 1 */
  ctop = fload(g, g->p0, g->ci, offsetof(CallInfo, top), "citop");
  off = LLVMBuildAdd(B_, nargs, ci64(g, 1), "");
  fstore(g, LLVMBuildGEP2(B_, g->i64, ctop, &off, 1, ""), g->ci, offsetof(CallInfo, top));
  LLVMBuildBr(B_, done);
  LLVMPositionBuilderAtEnd(B_, slow);
  args[0] = g->L; args[1] = g->ci; args[2] = ci32(g, pc);
  LLVMBuildCall2(B_, g->ty_op, getfn(g, "mvmrt_varargprep", g->ty_op, 0), args, 3, "");
  LLVMBuildBr(B_, done);
  LLVMPositionBuilderAtEnd(B_, done);
  reload_base(g);
  reload_after_call(g, pc);
}

/* VARARG with a fixed count (C > 0) as meta_copyvarargs: R[a+k] = the
** k-th extra argument (below ci->func), nil past the last; each a load
** and a select (the address func - nextra + k lies in the frame either
** way), no call.  C == 0 (all of them, up to L->top) is mvmrt_vararg. */
static void varargcopy(Gen *g, int a, int wanted) {
  LLVMValueRef func = fload(g, g->p0, g->ci, offsetof(CallInfo, func), "func");
  LLVMValueRef nextra = nextraargs(g);
  int k;
  for (k = 0; k < wanted; k++) {
    LLVMValueRef idx = LLVMBuildSub(B_, ci64(g, (uint64_t)k), nextra, "");
    LLVMValueRef v = tb(g, LLVMBuildLoad2(B_, g->p1, LLVMBuildGEP2(B_, g->i64, func, &idx, 1, ""), "va"),
                        g->tb_stack);
    LLVMValueRef has = LLVMBuildICmp(B_, LLVMIntSGT, nextra, ci64(g, (uint64_t)k), "");
    setreg(g, a + k, LLVMBuildSelect(B_, has, v, cword(g, MVM_NIL), ""));
  }
}

/* the results R[a .. a+n-1] (n < 0: up to L->top) in their stack slots
** for a return: only they are read */
static void flushresults(Gen *g, int pc, int a, int n) {
  RegSet res;
  memset(&res, 0, sizeof res);
  rs_range(&res, a, n < 0 ? g->nregs : a + n);
  only_dirty(g, pc, &res);
  flushat(g, pc, &res);
}

/* a return of R[a .. a+n-1] at 'pc' from a frame with nothing to close or
** move back: the common case inline (leanreturn), else mvmrt_return */
static void emitreturn(Gen *g, int pc, int a, int n) {
  LLVMValueRef args[4];
  if (n >= 0) leanreturn(g, a, n, 0);
  flushresults(g, pc, a, n);
  set_savedpc(g, pc + 1);
  args[0] = g->L; args[1] = g->ci; args[2] = ci32(g, a); args[3] = ci32(g, n);
  LLVMBuildCall2(B_, g->ty_ret, g->f_ret, args, 4, "");
  LLVMBuildRet(B_, ci32(g, JIT_RETURNED));
}

/* TAILCALL R[a] with B == 0 right after a CALL with C == 0: how many of
** its values (the function and the arguments before that CALL's
** results) come from registers; else -1 */
static int tailtop(Gen *g, int pc, int a) {
  Instruction p;
  if (pc == 0) return -1;
  p = g->p->code[pc - 1];
  return GET_OPCODE(p) == OP_CALL && GETARG_C(p) == 0 && GETARG_A(p) > a ? GETARG_A(p) - a : -1;
}
/* The common case of mvmrt_tailcall (do_pretailcall) inline, for a
** TAILCALL of R[a](R[a+1] .. R[a+b-1]) from a function that is not
** vararg and closes nothing: when R[a] is a Lua closure with at least
** as many arguments as parameters, no hook, no pending interrupt and
** room on the stack for its frame, the function and its arguments move
** down to ci->func (forward: they lie above), the frame is set up for
** the callee as do_pretailcall does, and the code returns JIT_TAILCALLED
** (whoever runs this frame starts the callee in it).  No call, no
** allocation.  Otherwise a branch to 'slow'.  b == 0: the arguments end
** at L->top, after the results of the CALL just before (C == 0, as in
** `return f(x, g(y))`; tailtop): R[a] .. up to that CALL's register come
** from registers, the rest from the stack.  (Until session 29 only b != 0
** was inline: Ackermann's `return ack(m - 1, ack(m, n - 1))` made each of
** its tail calls through the helper, and the runner's loop.) */
static void leantailcall(Gen *g, int pc, int a, int b, LLVMBasicBlockRef slow) {
  LLVMBasicBlockRef islcl = newbb(g, "tail.islcl"), fast = newbb(g, "leantail");
  LLVMTypeRef flagty = LLVMIntTypeInContext(g->C, 8 * sizeof(sig_atomic_t));
  LLVMTypeRef i16 = LLVMInt16TypeInContext(g->C);
  LLVMValueRef fv, proto, hook, intr, last, func, ms, np, ok, vals[256], st, n, nv, ra = NULL;
  int k, fixed = b != 0 ? b : tailtop(g, pc, a);
  fv = getreg(g, a);
  isvalreftt(g, fv, bits(g, fv), MVM_TLCL, islcl, slow);
  proto = hload(g, g->p0, byteptr(g, fv, offsetof(LClosure, p)), "proto");
  hook = fload(g, g->i32, g->L, offsetof(lua_State, hookmask), "hookmask");
  LLVMSetVolatile(hook, 1);
  intr = LLVMBuildLoad2(B_, flagty, craw(g, (const void *)&g->J->g->interrupt), "interrupt");
  LLVMSetVolatile(intr, 1);
  last = fload(g, g->p0, g->L, offsetof(lua_State, stack_last), "stack_last");
  func = tb(g, LLVMBuildLoad2(B_, g->p0, byteptr(g, g->ci, offsetof(CallInfo, func)), "func"),
            g->tb_frame);
  ms = LLVMBuildZExt(B_, hload(g, g->i8, byteptr(g, proto, offsetof(Proto, maxstacksize)), "maxstack"),
                     g->i64, "");
  np = hload(g, g->i8, byteptr(g, proto, offsetof(Proto, numparams)), "numparams");
  if (b != 0) nv = ci64(g, (uint64_t)b);
  else {   /* the function and its arguments, R[a] up to L->top */
    LLVMValueRef top = fload(g, g->p0, g->L, offsetof(lua_State, top), "top");
    ra = byteptr(g, LLVMBuildLoad2(B_, g->p0, g->basevar, "base"), (size_t)a * sizeof(Value));
    nv = LLVMBuildExactSDiv(B_, LLVMBuildSub(B_, LLVMBuildPtrToInt(B_, top, g->i64, ""),
                                             LLVMBuildPtrToInt(B_, ra, g->i64, ""), ""),
                            ci64(g, sizeof(Value)), "nargs1");
  }
  /* stack_last - (func + b) > maxstacksize (in slots): do_pretailcall's
  ** checkstackGCp after the move; as func + b + maxstacksize < stack_last */
  n = LLVMBuildAdd(B_, ms, nv, "");
  ok = LLVMBuildICmp(B_, LLVMIntULT, LLVMBuildPtrToInt(B_, LLVMBuildGEP2(B_, g->i64, func, &n, 1, ""), g->i64, ""),
                     LLVMBuildPtrToInt(B_, last, g->i64, ""), "room");
  ok = LLVMBuildAnd(B_, ok, LLVMBuildICmp(B_, LLVMIntEQ, hook, ci32(g, 0), ""), "");
  ok = LLVMBuildAnd(B_, ok, LLVMBuildICmp(B_, LLVMIntEQ, intr, LLVMConstInt(flagty, 0, 0), ""), "");
  ok = LLVMBuildAnd(B_, ok, LLVMBuildICmp(B_, LLVMIntULT, LLVMBuildZExt(B_, np, g->i64, ""), nv, ""), "");
  LLVMBuildCondBr(B_, ok, fast, slow);
  LLVMPositionBuilderAtEnd(B_, fast);
  for (k = 0; k < fixed; k++) vals[k] = getregat(g, pc, a + k);   /* all read before any store */
  for (k = 0; k < fixed; k++)   /* NOBARRIER: VM stack slots */
    tb(g, LLVMBuildStore(B_, vals[k], byteptr(g, func, (size_t)k * sizeof(Value))), g->tb_stack);
  if (b == 0) {   /* the CALL's results, R[a+fixed] .. L->top - 1: a forward copy (func < ra) */
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(B_), loop = newbb(g, "tailcopy"), body = newbb(g, "tailmove");
    LLVMBasicBlockRef moved = newbb(g, "tailmoved");
    LLVMValueRef j, jn, w, start = ci64(g, (uint64_t)fixed);
    LLVMBuildBr(B_, loop);
    LLVMPositionBuilderAtEnd(B_, loop);
    j = LLVMBuildPhi(B_, g->i64, "j");
    LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntULT, j, nv, ""), body, moved);
    LLVMPositionBuilderAtEnd(B_, body);
    w = tb(g, LLVMBuildLoad2(B_, g->i64, LLVMBuildGEP2(B_, g->i64, ra, &j, 1, ""), "arg"), g->tb_stack);
    tb(g, LLVMBuildStore(B_, w, LLVMBuildGEP2(B_, g->i64, func, &j, 1, "")), g->tb_stack);   /* NOBARRIER: VM stack slots */
    jn = LLVMBuildAdd(B_, j, ci64(g, 1), "");
    LLVMBuildBr(B_, loop);
    LLVMAddIncoming(j, &start, &pre, 1);
    LLVMAddIncoming(j, &jn, &body, 1);
    LLVMPositionBuilderAtEnd(B_, moved);
  }
  n = LLVMBuildAdd(B_, ms, ci64(g, 1), "");
  fstore(g, LLVMBuildGEP2(B_, g->i64, func, &n, 1, ""), g->ci, offsetof(CallInfo, top));
  fstore(g, hload(g, g->p0, byteptr(g, proto, offsetof(Proto, code)), "code"),
         g->ci, offsetof(CallInfo, u.l.savedpc));
  st = fload(g, i16, g->ci, offsetof(CallInfo, callstatus), "callstatus");
  fstore(g, LLVMBuildOr(B_, st, LLVMConstInt(i16, CIST_TAIL, 0), ""), g->ci, offsetof(CallInfo, callstatus));
  fstore(g, LLVMBuildGEP2(B_, g->i64, func, &nv, 1, ""), g->L, offsetof(lua_State, top));
  /* the policy counts calls of functions without code (jit.c) */
  n = byteptr(g, proto, offsetof(Proto, hotcount));
  tb(g, LLVMBuildStore(B_, LLVMBuildAdd(B_, hload(g, g->i32, n, "hot"), ci32(g, 1), ""), n), g->tb_heap);
  n = byteptr(g, proto, offsetof(Proto, ncalls));
  tb(g, LLVMBuildStore(B_, LLVMBuildAdd(B_, hload(g, g->i32, n, "ncalls"), ci32(g, 1), ""), n), g->tb_heap);
  {   /* the callee has code: jump to it (musttail: this C frame is gone,
      ** the new code gets this frame's 'anchor' parameter and runs in its
      ** place, below the same return address, which is where the caller's
      ** anchor finds it (jit_anchorra); nothing of this frame is live
      ** after the jump, so the call
      ** needs no statepoint: gc-leaf at the site).  Otherwise whoever runs
      ** this frame starts the callee (JIT_TAILCALLED). */
    LLVMBasicBlockRef jump = newbb(g, "tailjump"), back = newbb(g, "tailback");
    LLVMTypeRef fnty = LLVMGlobalGetValueType(g->fn);
    LLVMValueRef code, args[3], r;
    code = LLVMBuildLoad2(B_, g->p0, byteptr(g, proto, offsetof(Proto, jitcode)), "jitcode");
    LLVMSetOrdering(code, LLVMAtomicOrderingAcquire);
    LLVMSetAlignment(code, 8);
    LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntUGT, LLVMBuildPtrToInt(B_, code, g->i64, ""),
                                      ci64(g, (uint64_t)(uintptr_t)JIT_QUEUED), "hascode"), jump, back);
    LLVMPositionBuilderAtEnd(B_, jump);
    /* its anchor is live while the code runs (set while this one ran) */
    args[0] = g->L; args[1] = g->ci; args[2] = LLVMGetParam(g->fn, 2);
    r = LLVMBuildCall2(B_, fnty, code, args, 3, "r");
    LLVMSetTailCallKind(r, LLVMTailCallKindMustTail);
    LLVMAddCallSiteAttribute(r, LLVMAttributeFunctionIndex,
                             LLVMCreateStringAttribute(g->C, "gc-leaf-function", 16, "", 0));
    LLVMBuildRet(B_, r);
    LLVMPositionBuilderAtEnd(B_, back);
  }
  LLVMBuildRet(B_, ci32(g, JIT_TAILCALLED));
}

#include "llvmffi.inc"   /* direct calls of ffi C functions: ffi_call() */

/* Upvalues read for a table access (upvpend).  `local t = {} ...
** function f() ... t[k] ... end` is GETUPVAL R, U then GETTABLE R, R, K
** (GETI, GETFIELD; SELF for `obj:m()`): the upvalue's value was stored to R's slot only for
** the access to read it back and overwrite it with its result; every
** closure-style access to a module's local table paid that store.  When
** the access is the only way on from the GETUPVAL (no entry point, no
** other predecessor, in the region) and R is a stack register, the value
** stays in SSA for it (getreg), and only the access's ways out to the
** interpreter -- its exits and specexits (pendblock) and helper calls
** (flush_for_call) at pc + 1 -- store it, so the interpreter and the
** collector see the same registers as before at every point where they
** can look.  No safepoint lies between the load and the access. */
/* may R[a], a stack register, be set at 'pc' for pc + 1 only (the only
** way into pc + 1, no speculation on it)? */
static int pendok(Gen *g, int pc, int a) {
  int q, s[2];
  if (g->spec[pc] != TY_NONE || pc + 1 >= g->p->sizecode || a >= g->nregs ||
      g->regvar[a] != NULL || (g->fvar != NULL && g->fvar[a] != NULL) ||
      g->entry[pc + 1] || !inregion(g, pc + 1) ||
      (g->split != NULL && (rs_has(&g->split[pc], a) || rs_has(&g->split[pc + 1], a))))
    return 0;
  for (q = 0; q < g->p->sizecode; q++) {   /* pc + 1's only predecessor is pc */
    if (q == pc) continue;
    succs(g, q, s);
    if (s[0] == pc + 1 || s[1] == pc + 1) return 0;
  }
  return 1;
}
static int upvpend(Gen *g, int pc) {
  Instruction i = g->p->code[pc], n;
  int a = GETARG_A(i);
  OpCode op;
  if (!pendok(g, pc, a)) return 0;
  n = g->p->code[pc + 1];
  op = GET_OPCODE(n);
  if ((op != OP_GETTABLE && op != OP_GETI && op != OP_GETFIELD && op != OP_SELF) ||
      GETARG_A(n) != a || GETARG_B(n) != a ||
      ((op == OP_GETTABLE || (op == OP_SELF && !GETARG_k(n))) && GETARG_C(n) == a))
    return 0;
  return 1;
}
/* The same for a table read's result that only a TEST reads (`if not
** t[k] then`, `if t[i] then`): the result of GETTABLE/GETI at pc in R[a]
** when pc + 1 is TEST R[a] and R[a] is dead after it (not live, not an
** active local).  At speculation level 0 (tabspec) every other way out
** of the read leaves at pc itself, so only its fast path gets to pc + 1:
** the value goes to TEST in SSA and never to the slot, which keeps an
** older value of the dead register (as dead SSA registers are not
** flushed); TEST has no exit and calls nothing. */
static int testpend(Gen *g, int pc, int a) {
  Instruction n;
  if (!pendok(g, pc, a)) return 0;
  n = g->p->code[pc + 1];
  return GET_OPCODE(n) == OP_TEST && GETARG_A(n) == a && !rs_has(&g->liveout[pc + 1], a) &&
         a >= g->nactive[pc + 1];
}
static void setpend(Gen *g, int pc, int a, LLVMValueRef v) {
  g->pendpc = pc + 1; g->pendreg = a; g->pendset = 0;
  g->pendexit = g->pendspec = NULL;
  g->pendval = v;
}

static void emit(Gen *g, int pc) {
  Proto *p = g->p;
  Instruction i = p->code[pc];
  OpCode op = GET_OPCODE(i);
  int a = GETARG_A(i);
  if (g->pendval != NULL && g->pendpc != pc) g->pendval = NULL;
  switch (op) {
    case OP_MOVE: {
      LLVMValueRef d = fltreg(g, pc, GETARG_B(i));
      if (d != NULL) setdbl(g, a, d);
      else setreg(g, a, getreg(g, GETARG_B(i)));
      br(g, pc + 1);
      break;
    }
    case OP_LOADI: setreg(g, a, cword(g, v_immint(GETARG_sBx(i)))); br(g, pc + 1); break;
    case OP_LOADF: setreg(g, a, cword(g, v_float((double)GETARG_sBx(i)))); br(g, pc + 1); break;
    case OP_LOADFALSE: setreg(g, a, cword(g, MVM_FALSE)); br(g, pc + 1); break;
    case OP_LFALSESKIP: setreg(g, a, cword(g, MVM_FALSE)); br(g, pc + 2); break;
    case OP_LOADTRUE: setreg(g, a, cword(g, MVM_TRUE)); br(g, pc + 1); break;
    case OP_LOADNIL: {
      int b = GETARG_B(i), r;
      for (r = a; r <= a + b; r++) setreg(g, r, cword(g, MVM_NIL));
      br(g, pc + 1);
      break;
    }
    case OP_LOADK: case OP_LOADKX: {
      int kx = op == OP_LOADK ? GETARG_Bx(i) : GETARG_Ax(p->code[pc + 1]);
      Value k = p->k[kx];
      if (!v_isref(k))
        setreg(g, a, cword(g, k));     /* not a reference: a constant word */
      else                             /* a reference: load it from the constant array */
        setreg(g, a, hload(g, g->p1, craw(g, &p->k[kx]), ""));
      br(g, pc + (op == OP_LOADK ? 1 : 2));
      break;
    }
    case OP_GETUPVAL:
      if (upvpend(g, pc)) {
        setpend(g, pc, a, upvalue(g, GETARG_B(i)));
        br(g, pc + 1);
        break;
      }
      setreg(g, a, upvalue(g, GETARG_B(i)));
      loaddone(g, pc);
      break;
    case OP_SETUPVAL: {   /* open: a stack slot, marking the upvalue's card is harmless */
      LLVMValueRef uv, vp = upvalchain(g, selfclosure(g), GETARG_B(i), &uv);
      gcwritetb(g, getreg(g, a), uv, vp, g->tb_upval);
      br(g, pc + 1);
      break;
    }
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_MOD:
    case OP_IDIV: case OP_POW:
      arith(g, pc, op, opnd(g, pc, GETARG_B(i)), opnd(g, pc, GETARG_C(i)), a, pc + 2,
            regty(g, pc, GETARG_B(i)), regty(g, pc, GETARG_C(i)), GETARG_B(i), GETARG_C(i));
      break;
    case OP_ADDK: case OP_SUBK: case OP_MULK: case OP_DIVK: case OP_MODK:
    case OP_IDIVK: case OP_POWK:
      arith(g, pc, (OpCode)(op - OP_ADDK + OP_ADD), opnd(g, pc, GETARG_B(i)),
            kbits(g, GETARG_C(i)), a, pc + 2, regty(g, pc, GETARG_B(i)), wordty(p->k[GETARG_C(i)]),
            GETARG_B(i), -1);
      break;
    case OP_ADDI:
      arith(g, pc, OP_ADD, opnd(g, pc, GETARG_B(i)),
            ci64(g, v_immint(GETARG_sC(i))), a, pc + 2, regty(g, pc, GETARG_B(i)), TY_INT,
            GETARG_B(i), -1);
      break;
    case OP_BAND: case OP_BOR: case OP_BXOR: case OP_SHL: case OP_SHR:
      bitop(g, pc, op, bits(g, getreg(g, GETARG_B(i))), bits(g, getreg(g, GETARG_C(i))), a, pc + 2,
            regty(g, pc, GETARG_B(i)), regty(g, pc, GETARG_C(i)));
      break;
    case OP_BANDK: case OP_BORK: case OP_BXORK:
      bitop(g, pc, op == OP_BANDK ? OP_BAND : op == OP_BORK ? OP_BOR : OP_BXOR,
            bits(g, getreg(g, GETARG_B(i))), kbits(g, GETARG_C(i)), a, pc + 2,
            regty(g, pc, GETARG_B(i)), wordty(p->k[GETARG_C(i)]));
      break;
    case OP_SHRI:   /* R[B] >> sC */
      bitop(g, pc, OP_SHR, bits(g, getreg(g, GETARG_B(i))), ci64(g, v_immint(GETARG_sC(i))), a, pc + 2,
            regty(g, pc, GETARG_B(i)), TY_INT);
      break;
    case OP_SHLI:   /* sC << R[B] */
      bitop(g, pc, OP_SHL, ci64(g, v_immint(GETARG_sC(i))), bits(g, getreg(g, GETARG_B(i))), a, pc + 2,
            TY_INT, regty(g, pc, GETARG_B(i)));
      break;
    case OP_BNOT: {
      LLVMValueRef b = bits(g, getreg(g, GETARG_B(i)));
      numguard(g, isint(g, b), pc, pc + 1);
      setreg(g, a, mkint(g, LLVMBuildNot(B_, sext48(g, b), "")));
      br(g, pc + 1);
      break;
    }
    case OP_UNM: {
      LLVMValueRef b = opnd(g, pc, GETARG_B(i));
      LLVMBasicBlockRef ib = newbb(g, "unmint"), fb = newbb(g, "unmflt");
      LLVMValueRef r;
      int tb_ = regty(g, pc, GETARG_B(i));
      LLVMBuildCondBr(B_, tisint(g, b, tb_), ib, fb);
      LLVMPositionBuilderAtEnd(B_, ib);
      r = LLVMBuildNeg(B_, sext48(g, b), "");
      guard(g, fits48(g, r), pc);
      setreg(g, a, mkint(g, r));
      br(g, pc + 1);
      LLVMPositionBuilderAtEnd(B_, fb);
      numguard(g, tisflt(g, b, tb_), pc, pc + 1);
      { LLVMValueRef d = getflt(g, b), r = LLVMBuildFNeg(B_, d, "");
        /* LLVM may fold a negation into its uses (-a - 1 into -1 - a),
        ** which flips the sign of a NaN the hardware would propagate;
        ** the fence keeps it a negation of its own */
        LLVMTypeRef ty = LLVMFunctionType(g->f64, &g->f64, 1, 0);
        r = LLVMBuildCall2(B_, ty, getfn(g, "llvm.arithmetic.fence.f64", ty, 1), &r, 1, "");
        setflt(g, a, r, d, d, 0); }
      br(g, pc + 1);
      break;
    }
    case OP_NOT: {
      LLVMValueRef b = bits(g, getreg(g, GETARG_B(i)));
      LLVMValueRef falsy = LLVMBuildOr(B_, LLVMBuildICmp(B_, LLVMIntEQ, b, ci64(g, MVM_NIL), ""),
                                       LLVMBuildICmp(B_, LLVMIntEQ, b, ci64(g, MVM_FALSE), ""), "");
      setreg(g, a, LLVMBuildSelect(B_, falsy, cword(g, MVM_TRUE), cword(g, MVM_FALSE), ""));
      br(g, pc + 1);
      break;
    }
    case OP_TEST: {
      LLVMValueRef b = bits(g, getreg(g, a));
      LLVMValueRef falsy = LLVMBuildOr(B_, LLVMBuildICmp(B_, LLVMIntEQ, b, ci64(g, MVM_NIL), ""),
                                       LLVMBuildICmp(B_, LLVMIntEQ, b, ci64(g, MVM_FALSE), ""), "");
      condjump(g, pc, LLVMBuildNot(B_, falsy, ""));
      break;
    }
    case OP_TESTSET: {
      /* if (falsy(R[B]) == k) skip the jump; else R[A] := R[B] and jump */
      LLVMValueRef v = getreg(g, GETARG_B(i));
      LLVMValueRef b = bits(g, v);
      LLVMValueRef falsy = LLVMBuildOr(B_, LLVMBuildICmp(B_, LLVMIntEQ, b, ci64(g, MVM_NIL), ""),
                                       LLVMBuildICmp(B_, LLVMIntEQ, b, ci64(g, MVM_FALSE), ""), "");
      LLVMBasicBlockRef take = newbb(g, "testset");
      Instruction j = p->code[pc + 1];
      if (GETARG_k(i)) LLVMBuildCondBr(B_, falsy, g->bb[pc + 2], take);
      else LLVMBuildCondBr(B_, falsy, take, g->bb[pc + 2]);
      LLVMPositionBuilderAtEnd(B_, take);
      setreg(g, a, v);
      br(g, pc + 2 + GETARG_sJ(j));
      break;
    }
    case OP_MMBIN: case OP_MMBINI: case OP_MMBINK:
      /* only reached when the arithmetic before failed, which exits */
      LLVMBuildBr(B_, exitblock(g, pc));
      break;
    case OP_EXTRAARG:   /* skipped by its instruction */
      LLVMBuildBr(B_, exitblock(g, pc));
      break;
    case OP_EQ: case OP_LT: case OP_LE:
      compare(g, pc, op, opnd(g, pc, a), opnd(g, pc, GETARG_B(i)),
              regty(g, pc, a), regty(g, pc, GETARG_B(i)));
      break;
    case OP_EQK: {
      Value k = p->k[GETARG_B(i)];
      LLVMValueRef v = getreg(g, a);
      if (v_isnumber(k)) {   /* integer/float equality rules: raw equality */
        LLVMValueRef args[2], r;
        LLVMTypeRef ty = g->ty_req;
        args[0] = v; args[1] = cword(g, k);
        r = LLVMBuildCall2(B_, ty, getfn(g, "mvmrt_raweq", ty, 1), args, 2, "");
        condjump(g, pc, LLVMBuildICmp(B_, LLVMIntNE, r, ci32(g, 0), ""));
      }
      else   /* nil, booleans, (interned, non-moving) strings: identity */
        condjump(g, pc, LLVMBuildICmp(B_, LLVMIntEQ, bits(g, v), ci64(g, k), ""));
      break;
    }
    case OP_EQI: case OP_LTI: case OP_LEI: case OP_GTI: case OP_GEI:
      comparei(g, pc, op, opnd(g, pc, a), GETARG_sB(i), regty(g, pc, a));
      break;
    case OP_JMP: {
      int target = pc + 1 + GETARG_sJ(i);
      if (target <= pc) edgepoll(g, pc, target);
      LLVMBuildBr(B_, backedge(g, pc, target));
      break;
    }
    case OP_FORPREP:
      forcheck(g, pc);
      if (fltloop(g, pc)) fltforprep(g, pc);
      else forprep(g, pc);
      break;
    case OP_FORLOOP:
      if (fltloop(g, pc - GETARG_Bx(i))) fltforloop(g, pc);
      else forloop(g, pc);
      break;
    case OP_TFORPREP:
      callop(g, "mvmrt_tforprep", pc, pc + 1, 0);
      br(g, pc + 1 + GETARG_Bx(i));
      break;
    case OP_TFORCALL: {
      int r;
      for (r = 0; r < 3; r++) setreg(g, a + 4 + r, getreg(g, a + r));
      emitcall(g, pc, a + 4, 3, GETARG_C(i));
      break;
    }
    case OP_TFORLOOP: {
      LLVMValueRef v = getreg(g, a + 4);
      LLVMBasicBlockRef again = newbb(g, "tforagain");
      LLVMBuildCondBr(B_, isnil(g, v), g->bb[pc + 1], again);
      LLVMPositionBuilderAtEnd(B_, again);
      setreg(g, a + 2, v);
      set_savedpc(g, pc + 1);   /* back-edge (poll) */
      edgepoll(g, pc, pc + 1 - GETARG_Bx(i));
      br(g, pc + 1 - GETARG_Bx(i));
      break;
    }
    case OP_GETTABUP:
      getstrk(g, pc, a, upvalue(g, GETARG_B(i)), kstr(g, GETARG_C(i)), "mvmrt_gettabup");
      break;
    case OP_GETFIELD:
      getstrk(g, pc, a, getreg(g, GETARG_B(i)), kstr(g, GETARG_C(i)), "mvmrt_getfield");
      break;
    case OP_SELF: {
      LLVMValueRef obj = getreg(g, GETARG_B(i));
      TString *key = GETARG_k(i) ? kstr(g, GETARG_C(i)) : NULL;
      if (key != NULL) {
        setreg(g, a + 1, obj);
        getstrk(g, pc, a, obj, key, "mvmrt_self");
      }
      else {
        callop(g, "mvmrt_self", pc, pc + 1, 0);
        br(g, pc + 1);
      }
      break;
    }
    case OP_SETTABUP:
      setstr(g, pc, upvalue(g, a), kstr(g, GETARG_B(i)), rkc(g, i), "mvmrt_settabup");
      break;
    case OP_SETFIELD:
      setstr(g, pc, getreg(g, a), kstr(g, GETARG_B(i)), rkc(g, i), "mvmrt_setfield");
      break;
    case OP_GETI:
      gettab_int(g, pc, a, getreg(g, GETARG_B(i)), NULL, ci64(g, (uint64_t)GETARG_C(i)), "mvmrt_geti");
      break;
    case OP_GETTABLE:
      if (intkey(g, pc, GETARG_C(i)))
        gettab_int(g, pc, a, getreg(g, GETARG_B(i)), NULL, getint(g, pc, GETARG_C(i)), "mvmrt_gettable");
      else
        gettab_int(g, pc, a, getreg(g, GETARG_B(i)), getreg(g, GETARG_C(i)), NULL, "mvmrt_gettable");
      break;
    case OP_SETI:
      settab_int(g, pc, getreg(g, a), NULL, ci64(g, (uint64_t)GETARG_B(i)), rkc(g, i), "mvmrt_seti");
      break;
    case OP_SETTABLE:
      if (g->append != NULL && g->append[pc] == APPEND_STORE)
        appendsetop(g, pc);
      else if (intkey(g, pc, GETARG_B(i)))
        settab_int(g, pc, getreg(g, a), NULL, getint(g, pc, GETARG_B(i)), rkc(g, i), "mvmrt_settable");
      else
        settab_int(g, pc, getreg(g, a), getreg(g, GETARG_B(i)), NULL, rkc(g, i), "mvmrt_settable");
      break;
    case OP_NEWTABLE:   /* followed by its EXTRAARG */
      /* (the sizes as constants when C holds all of the array's: the
      ** helper decodes nothing, binary_trees.lua's `{l, r}` and `{}`) */
    { LLVMValueRef tp;
      if (GETARG_k(i)) callop(g, "mvmrt_newtable", pc, pc + 2, 0);
      else if (GETARG_C(i) == 0 && GETARG_B(i) != 0 && (tp = newrecordsite(g, pc, a)) != NULL)
        callopx(g, "mvmrt_newrecord", pc, pc + 2, 0, a | (GETARG_B(i) << 8), tp);
      else callopw(g, "mvmrt_newtabsz", pc, pc + 2, 0,
                   a | (GETARG_B(i) << 8) | (GETARG_C(i) << 16));
      br(g, pc + 2);
      break; }
    case OP_SETLIST: {
      int next;
      next = pc + 1 + (GETARG_k(i) ? 1 : 0);
      callop(g, "mvmrt_setlist", pc, next, 0);
      br(g, next);
      break;
    }
    case OP_CLOSURE: callop(g, "mvmrt_closure", pc, pc + 1, 0); br(g, pc + 1); break;
    case OP_LEN:
      if (g->append != NULL && g->append[pc] == APPEND_FUSED) appendop(g, pc);
      else if (g->append != NULL && g->append[pc] == APPEND_LEN) lenaddop(g, pc);
      else lenop(g, pc, a, getreg(g, GETARG_B(i)));
      break;
    case OP_CONCAT: callop(g, "mvmrt_concat", pc, pc + 1, 0); br(g, pc + 1); break;
    case OP_CALL:
      if (GETARG_B(i) == 0 || GETARG_C(i) == 0) {
        /* B == 0: the arguments go up to L->top (left by the instruction
        ** before, see takes_top); C == 0: the results go up to L->top for
        ** the next instruction (re-entry after a Lua callee the
        ** interpreter ran has no case in the entry switch: the
        ** interpreter goes on then) */
        emitcall(g, pc, a, GETARG_B(i), GETARG_C(i) - 1);
      }
      /* (a predicted leaf's site or a builtin's: its result may be
      ** speculated, which only emitcall guards, should the callee now be
      ** an ffi function) */
      else if (inlinee(g, pc) != NULL || g->spec[pc] != TY_NONE ||
               !ffi_call(g, pc, a, GETARG_B(i), GETARG_C(i) - 1))
        emitcall(g, pc, a, GETARG_B(i), GETARG_C(i) - 1);
      break;
    case OP_CLOSE: callop(g, "mvmrt_close", pc, pc + 1, 0); br(g, pc + 1); break;
    case OP_VARARGPREP:   /* only ever entered at pc 0: OSR enters after it */
      varargprep(g, pc, a);
      br(g, pc + 1);
      break;
    case OP_VARARG:
      if (GETARG_C(i) > 0) {
        varargcopy(g, a, GETARG_C(i) - 1);
        br(g, pc + 1);
        break;
      }
      callop(g, "mvmrt_vararg", pc, pc + 1, 0);
      multret_next(g, pc, 1);   /* up to L->top */
      break;
    case OP_TAILCALL: {
      /* the helper replaces the frame; whoever runs compiled code
      ** (interpreter, direct call) starts the callee in the same frame,
      ** so the C stack does not grow */
      LLVMValueRef r;
      if (builtinhint(g, pc, a) == JIT_BUILTIN_SETMT && jit_builtinshape(JIT_BUILTIN_SETMT, i))
        setmtreturn(g, pc, a);
      if ((GETARG_B(i) != 0 || tailtop(g, pc, a) >= 0) && GETARG_C(i) == 0 && !GETARG_k(i)) {
        LLVMBasicBlockRef slow = newbb(g, "slowtail");
        if (GETARG_B(i) != 0 && inlinee(g, pc) != NULL)   /* a predicted leaf: evaluated here */
          inlineleaf(g, pc, a, GETARG_B(i), 0, inlinee(g, pc), NULL, 1);
        leantailcall(g, pc, a, GETARG_B(i), slow);
        LLVMPositionBuilderAtEnd(B_, slow);
      }
      r = callop(g, "mvmrt_tailcall", pc, pc + 1, 1);
      LLVMBuildRet(B_, LLVMBuildSelect(B_, LLVMBuildICmp(B_, LLVMIntNE, r, ci32(g, 0), ""),
                                       ci32(g, JIT_TAILCALLED), ci32(g, JIT_RETURNED), ""));
      break;
    }
    case OP_RETURN0: case OP_RETURN1: case OP_RETURN: {
      /* n < 0: the results go up to L->top (takes_top) */
      int n = op == OP_RETURN0 ? 0 : op == OP_RETURN1 ? 1 : GETARG_B(i) - 1;
      if (op == OP_RETURN && (GETARG_C(i) != 0 || GETARG_k(i))) {
        /* a vararg function's frame to move back, or upvalues and
        ** to-be-closed variables (a generic for's) to close (k) */
        if (!GETARG_k(i) && n >= 0) leanreturn(g, a, n, GETARG_C(i));
        flushresults(g, pc, a, n);
        callop(g, "mvmrt_varreturn", pc, pc + 1, 0);
        LLVMBuildRet(B_, ci32(g, JIT_RETURNED));
      }
      else emitreturn(g, pc, a, n);
      break;
    }
    default:   /* excluded by unsupported() */
      LLVMBuildBr(B_, exitblock(g, pc));
      break;
  }
}

/* instructions after which compiled code resumes when a Lua callee that
** the interpreter ran has returned (JIT_CALLED) */
static int resumes(Instruction i) {
  return (GET_OPCODE(i) == OP_CALL && GETARG_C(i) != 0) || GET_OPCODE(i) == OP_TFORCALL;
}

/* Entry points of the compiled code (the cases of its entry switch on
** ci->u.l.savedpc), marked in 'mark' (sizecode bytes):
**   - pc 0, the function's start;
**   - the instruction after each CALL/TFORCALL (resumes()), and after a
**     CALL with all results when the next instruction takes them (the
**     interpreter's return left L->top at their end; takes_top()); not
**     after a CALL that compiled code never makes (leafnocall): that
**     entry's resume block was a second way into the loop around it,
**     which kept the loop's base pointer (and the loads of the tables
**     behind it) from being loop-invariant for LLVM (spectral_norm's
**     inner loops: -7% of the compiled run); a missing entry is safe,
**     the entry switch's default returns to the interpreter;
**   - loop headers, the targets of backward jumps (FORLOOP, TFORLOOP and
**     backward JMPs, also those after a test): the interpreter enters
**     there from a back-edge when the loop gets hot (OSR, vm.c BACKEDGE).
**     A vararg function's headers all lie after its VARARGPREP (pc 0). */
static void entrypoints(Gen *g, char *mark) {
  const Proto *p = g->p;
  int pc;
  memset(mark, 0, (size_t)p->sizecode);
  mark[0] = 1;
  for (pc = 0; pc < p->sizecode; pc++) {
    Instruction i = p->code[pc];
    int t = op_backtarget(i, pc);
    if (pc + 1 < p->sizecode &&
        (resumes(i) || (GET_OPCODE(i) == OP_CALL && takes_top(p->code[pc + 1]))) &&
        !leafnocall(g, pc))
      mark[pc + 1] = 1;
    if (t >= 0 && t < p->sizecode) mark[t] = 1;
  }
}

/* A poll at the builder's position: one load of the poll flag, and when
** it is set (always under MVM_GC_STRESS: collections at polls, jitrt.c)
** 'slow', which calls mvmrt_poll and goes on to 'done'.  The builder is
** left at the end of 'slow'. */
static void pollcode(Gen *g, LLVMBasicBlockRef slow, LLVMBasicBlockRef done) {
  LLVMTypeRef flagty = LLVMIntTypeInContext(g->C, 8 * sizeof(sig_atomic_t));
  LLVMTypeRef sty = LLVMFunctionType(g->vd, &g->p0, 1, 0);
  LLVMValueRef flag, arg;
  flag = LLVMBuildLoad2(B_, flagty, craw(g, (const void *)&g->J->g->interrupt), "flag");
  LLVMSetVolatile(flag, 1);
  if (g->J->stresspoll)
    LLVMBuildBr(B_, slow);
  else
    LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntNE, flag, LLVMConstInt(flagty, 0, 0), ""), slow, done);
  LLVMPositionBuilderAtEnd(B_, slow);
  arg = craw(g, g->J);
  LLVMBuildCall2(B_, sty, getfn(g, "mvmrt_poll", sty, 0), &arg, 1, "");
  LLVMBuildBr(B_, done);
}

/* gc.safepoint_poll: place-safepoints inlines it at function entries and
** loop back-edges (and edgepoll makes the same code where it does not). */
static void build_poll(Gen *g) {
  LLVMTypeRef fty = LLVMFunctionType(g->vd, NULL, 0, 0);
  LLVMValueRef poll = LLVMAddFunction(g->M, "gc.safepoint_poll", fty);
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(g->C, poll, "entry");
  LLVMBasicBlockRef sb = LLVMAppendBasicBlockInContext(g->C, poll, "slow");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->C, poll, "done");
  LLVMPositionBuilderAtEnd(B_, entry);
  pollcode(g, sb, done);
  LLVMPositionBuilderAtEnd(B_, done);
  LLVMBuildRetVoid(B_);
}

/* At the entry: is this a direct call (third parameter 'anchor' is not
** ci, jit.h)?  The caller (anchor, ci->previous) called this code through
** a statepoint, not through a helper, and stored its stack pointer at the
** call in its anchor itself (pushcall): the return address into it is
** the word just below that (jit_anchorra, jit.h) for as long as this code
** runs, so nothing is stored here.  The caller names the CallInfo (no
** load of ci->previous here). */
static LLVMValueRef anchor_caller(Gen *g) {
  return LLVMBuildICmp(B_, LLVMIntNE, LLVMGetParam(g->fn, 2), g->ci, "direct");
}

/* Self calls whose arguments have the entry's types.  resumeguards at pc
** 0 tests the types the code assumes for its parameters; a self-call
** site (selfhint, selfconv) whose argument registers are known to have
** those types (regty at the CALL: facts on every path there) passes a
** null 'anchor', and the body (g->selfcc) enters at pc 0 without the
** guards (selfentry).  Nobody else passes a null anchor (jit.h): C passes
** ci, direct callers their own CallInfo, lean tail calls the anchor they
** were given, and self bodies make no tail calls (selfconv). */
static int selfargsok(Gen *g, int pc, int a, int b) {
  RegSet need;
  int r;
  if (!g->selfcc || !specentries(g)) return 0;
  needed_at(g, 0, &need);
  for (r = 0; r < g->nregs; r++) {
    int t0 = regty(g, 0, r), ta;
    if (t0 == TY_ANY || !rs_has(&need, r)) continue;
    if (r >= g->p->numparams || r >= b - 1) return 0;
    ta = regty(g, pc, a + 1 + r);
    if (ta == TY_ANY || (ta & ~t0) != 0) return 0;
  }
  return 1;
}
static void selfentry(Gen *g) {
  LLVMBasicBlockRef chk, b;
  RegSet need;
  int r, n = 0;
  needed_at(g, 0, &need);
  for (r = 0; r < g->nregs; r++) n += regty(g, 0, r) != TY_ANY && rs_has(&need, r);
  if (n == 0) return;   /* no guards to leave out */
  chk = LLVMAppendBasicBlockInContext(g->C, g->fn, "notself");
  g->noguards = 1;
  b = resumeblock(g, 0);
  g->noguards = 0;
  LLVMBuildCondBr(B_, LLVMBuildIsNull(B_, LLVMGetParam(g->fn, 2), "selfargs"), b, chk);
  LLVMPositionBuilderAtEnd(B_, chk);
}

/* does instruction 'pc' read R[r] only through its double (fltreg/opnd)?
** MMBIN* only ever exit (flushat) */
static int fltread(Gen *g, int pc, int r) {
  Instruction i = g->p->code[pc];
  int a = GETARG_A(i), b = GETARG_B(i), c = GETARG_C(i);
  OpCode op = GET_OPCODE(i);
  if (op == OP_MMBIN || op == OP_MMBINI || op == OP_MMBINK) return 1;
  if (regty(g, pc, r) != TY_FLT) return 0;
  switch (op) {
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_MOD: case OP_IDIV: case OP_POW:
    case OP_EQ: case OP_LT: case OP_LE:
      return (op >= OP_EQ ? r == a : r == c) || r == b;
    case OP_ADDK: case OP_SUBK: case OP_MULK: case OP_DIVK: case OP_MODK: case OP_IDIVK:
    case OP_POWK: case OP_ADDI: case OP_UNM: case OP_MOVE:
      return r == b;
    case OP_EQI: case OP_LTI: case OP_LEI: case OP_GTI: case OP_GEI:
      return r == a;
    case OP_FORPREP: return fltloop(g, pc) && r >= a && r < a + 3;
    case OP_FORLOOP: return fltloop(g, pc - GETARG_Bx(i)) && r >= a && r < a + 3;
    default: return 0;
  }
}

/* Lazy slots.  A float write to a register in the VM stack (setdbl) may
** leave its slot behind when nothing can read the slot before the
** register is written again, other than through flushat where the
** register is TY_FLT (exits, calls, returns: they box the double): no
** instruction on the way reads it otherwise, and it is not needed
** (exits, debug) where it is not TY_FLT.  Backward dataflow: slotout[pc]
** are the stack registers (with a double) whose slot may be read so
** after pc; a float write at pc skips the slot unless its register is in
** it.  Registers with such writes are 'lazy': flushat writes them. */
static void lazyslots(Gen *g) {
  int n = g->p->sizecode, pc, r, k, changed;
  RegSet cand, *in;
  memset(&cand, 0, sizeof cand);
  for (r = 0; r < g->nregs; r++)
    if (g->regvar[r] == NULL && g->fvar[r] != NULL) rs_add(&cand, r);
  g->slotout = (RegSet *)calloc((size_t)n + 1, sizeof(RegSet));
  in = (RegSet *)calloc((size_t)n + 1, sizeof(RegSet));
  if (g->slotout == NULL || in == NULL) {
    free(in); free(g->slotout); g->slotout = NULL;   /* no lazy writes */
    return;
  }
  do {
    changed = 0;
    for (pc = n - 1; pc >= 0; pc--) {
      RegSet out, use, def, need, x;
      int sc[2], j;
      memset(&out, 0, sizeof out);
      succs(g, pc, sc);
      for (j = 0; j < 2; j++)
        if (sc[j] >= 0 && sc[j] < n) rs_or(&out, &in[sc[j]]);
      g->slotout[pc] = out;
      usedef(g, pc, &use, &def);
      needed_at(g, pc, &need);
      memset(&x, 0, sizeof x);
      for (r = 0; r < g->nregs; r++) {
        if (!rs_has(&cand, r)) continue;
        if ((rs_has(&use, r) && !fltread(g, pc, r)) ||
            (rs_has(&need, r) && regty(g, pc, r) != TY_FLT) ||
            (rs_has(&out, r) && !rs_has(&def, r)))
          rs_add(&x, r);
      }
      for (k = 0; k < 4; k++)
        if (x.w[k] != in[pc].w[k]) { in[pc].w[k] = x.w[k]; changed = 1; }
    }
  } while (changed);
  free(in);
  /* the registers some float write leaves behind */
  for (pc = 0; pc < n; pc++) {
    Instruction i = g->p->code[pc];
    int a = GETARG_A(i);
    if (a < g->nregs && rs_has(&cand, a) && !rs_has(&g->slotout[pc], a)) rs_add(&g->lazy, a);
    if (GET_OPCODE(i) == OP_FORPREP || GET_OPCODE(i) == OP_FORLOOP)
      for (r = a + 1; r < a + 4 && r < g->nregs; r++)
        if (rs_has(&cand, r) && !rs_has(&g->slotout[pc], r)) rs_add(&g->lazy, r);
  }
}

/* Accumulators.  In `local a = 0  for j = 1, n do a = a + x[j] * y end`
** R[a] is an integer when the loop starts and a float after its first
** iteration, so its type at the loop's header is TY_NUM: each iteration
** loaded its word from the VM stack, tested it, converted it, added,
** boxed and stored (fvar is read only where the type is TY_FLT), and the
** loop-carried dependence went through memory (spectral_norm's inner
** loops: a fifth of their samples on that store).  A register that is a
** float somewhere, read by arithmetic where its type is not known, and
** written only by instructions that write it through setreg/setdbl
** (fokdef) gets a flag, fokvar[r] (i1): 1 when fvar[r] holds its value,
** a float.  setdbl sets it; setreg, fltcopy (reloads after calls, resume
** points, helpers' writes to the slot) and the function's start clear
** it.  Arithmetic tests the flag first and, set, computes on the double
** (fokfast): the loop's phi is a double, the flag a phi that is 1 on the
** back-edge, and the first iteration takes arith's usual paths. */
static int fokdef(OpCode op) {
  switch (op) {
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_MOD: case OP_IDIV: case OP_POW:
    case OP_ADDK: case OP_SUBK: case OP_MULK: case OP_DIVK: case OP_MODK: case OP_IDIVK:
    case OP_POWK: case OP_ADDI: case OP_UNM: case OP_MOVE: case OP_LOADI: case OP_LOADF:
    case OP_LOADK: case OP_LOADKX: case OP_LOADFALSE: case OP_LFALSESKIP: case OP_LOADTRUE:
    case OP_LOADNIL:
      return 1;
    default:
      return 0;
  }
}
/* the operands of arithmetic at pc whose type is not known there and
** that fokfast could take (the other operand a number of known type, or
** a register with a double that may get a flag too), into 'want' */
static void fokwant(Gen *g, int pc, RegSet *want) {
  Instruction i = g->p->code[pc];
  OpCode op = GET_OPCODE(i);
  int b = GETARG_B(i), c = GETARG_C(i), tb, tc;
  if (!((op >= OP_ADD && op <= OP_IDIV) || (op >= OP_ADDK && op <= OP_IDIVK) || op == OP_ADDI) ||
      b >= g->nregs)
    return;
  tb = regty(g, pc, b);
  if (op >= OP_ADD && op <= OP_IDIV) {
    if (c >= g->nregs) return;
    tc = regty(g, pc, c);
    if (!knum(tb) && tb != TY_NONE && g->fvar[b] != NULL && (knum(tc) || g->fvar[c] != NULL))
      rs_add(want, b);
    if (!knum(tc) && tc != TY_NONE && g->fvar[c] != NULL && (knum(tb) || g->fvar[b] != NULL))
      rs_add(want, c);
  }
  else if ((op == OP_ADDI || knum(wordty(g->p->k[c]))) && !knum(tb) && tb != TY_NONE &&
           g->fvar[b] != NULL)
    rs_add(want, b);
}
static void fokregs(Gen *g) {
  int n = g->p->sizecode, pc, r;
  RegSet bad, want, d;
  if (g->fvar == NULL) return;
  memset(&bad, 0, sizeof bad); memset(&want, 0, sizeof want);
  for (pc = 0; pc < n; pc++) {
    if (!fokdef(GET_OPCODE(g->p->code[pc]))) {
      maydef(g, pc, &d);
      rs_or(&bad, &d);
    }
    fokwant(g, pc, &want);
  }
  for (r = 0; r < g->nregs; r++) {
    char nm[16];
    if (!rs_has(&want, r) || rs_has(&bad, r)) continue;
    if (g->fokvar == NULL &&
        (g->fokvar = (LLVMValueRef *)calloc((size_t)g->nregs + 1, sizeof(LLVMValueRef))) == NULL)
      return;
    snprintf(nm, sizeof nm, "ok%d", r);
    g->fokvar[r] = LLVMBuildAlloca(g->B, g->i1, nm);
    LLVMBuildStore(g->B, LLVMConstInt(g->i1, 0, 0), g->fokvar[r]);
  }
}

/* a double alloca (fvar) for each register that is a float somewhere */
static void fltvars(Gen *g) {
  int r, pc;
  g->fvar = (LLVMValueRef *)calloc((size_t)g->nregs + 1, sizeof(LLVMValueRef));
  if (g->fvar == NULL || g->types == NULL) return;   /* none: words only */
  for (r = 0; r < g->nregs; r++) {
    for (pc = 0; pc < g->p->sizecode; pc++)
      if (g->types[(size_t)pc * g->nregs + r] == TY_FLT) break;
    if (pc < g->p->sizecode) {
      char nm[16];
      snprintf(nm, sizeof nm, "f%d", r);
      g->fvar[r] = LLVMBuildAlloca(g->B, g->f64, nm);
    }
  }
  lazyslots(g);
  fokregs(g);
}

static void freegen(Gen *g) {
  free(g->bb); free(g->exits); free(g->hdr); free(g->hdrsave); free(g->regvar); free(g->fvar); free(g->fokvar); free(g->slotout);
  free(g->livein); free(g->liveout); free(g->nactive); free(g->types); free(g->clean); free(g->win);
  free(g->entry); free(g->reach); free(g->spec); free(g->pspec); free(g->specexits); free(g->selfres);
  free(g->split); free(g->loopvar); free(g->homevar); free(g->tabin); free(g->forchk); free(g->tabadd);
  free(g->rwsrc); free(g->rslot);
  free(g->npred); free(g->mm); free(g->append);
  while (g->ntails > 0) free(g->tails[--g->ntails].s);
  free(g->tails);
}

/* Is instruction 'pc' compiled?  In an OSR region (jit.c: one hot loop of
** a function that runs once, such as a main chunk) only the loop's
** instructions are: the analyses above still cover the whole function (so
** the types, liveness and clean registers at each pc are those of a whole
** compile, and an exit anywhere flushes exactly what it would there), but
** no code is made for the rest. */
static int inregion(Gen *g, int pc) {
  return pc >= g->rlo && pc <= g->rhi;
}

/* The instructions compiled code can get to: from its entry points in
** the region along the bytecode's edges (succs), except the MMBIN* after
** an arithmetic instruction, which compiled code never runs (arith/bitop
** go on after it or exit at the arithmetic).  The others (the RETURN0
** after a final return, a JMP after a return, the MMBIN*s, EXTRAARGs)
** get no code: LLVM would only delete it, with the exits it makes.  No
** block of an unreached pc may have a branch to it (llvmgen_module
** checks, and gives up the compile if one does). */
static void reachable(Gen *g) {
  const Proto *p = g->p;
  int *stack = (int *)malloc(sizeof(int) * (size_t)p->sizecode);
  int sp = 0, pc, k, s[2];
  if (stack == NULL) return;
  g->reach = (char *)calloc((size_t)p->sizecode, 1);
  if (g->reach == NULL) { free(stack); return; }
  for (pc = 0; pc < p->sizecode; pc++)
    if (g->entry[pc] && inregion(g, pc)) { g->reach[pc] = 1; stack[sp++] = pc; }
  while (sp > 0) {
    OpCode op;
    pc = stack[--sp];
    op = GET_OPCODE(p->code[pc]);
    succs(g, pc, s);
    if (g->append != NULL && g->append[pc] == APPEND_FUSED) s[0] = pc + 4;   /* (appendop) */
    if (g->append != NULL && g->append[pc] == APPEND_LEN) s[0] = pc + 3;     /* (lenaddop) */
    if (op >= OP_ADDI && op <= OP_SHR && s[0] >= 0) {
      OpCode mm = GET_OPCODE(p->code[s[0]]);
      if (mm == OP_MMBIN || mm == OP_MMBINI || mm == OP_MMBINK) s[0] = -1;
    }
    for (k = 0; k < 2; k++)
      if (s[k] >= 0 && inregion(g, s[k]) && !g->reach[s[k]]) {
        g->reach[s[k]] = 1;
        stack[sp++] = s[k];
      }
  }
  free(stack);
}

/* The blocks of the instructions outside the region: one the region's
** code branches to leaves to the interpreter there (as a failed guard
** would: registers flushed, savedpc = pc; not counted as a failed
** speculation); the others are deleted before LLVM sees them. */
static void regionexits(Gen *g) {
  int pc;
  if (g->rlo < 0) return;
  for (pc = 0; pc < g->p->sizecode; pc++) {
    if (inregion(g, pc)) continue;
    if (LLVMGetFirstUse(LLVMBasicBlockAsValue(g->bb[pc])) == NULL)
      LLVMDeleteBasicBlock(g->bb[pc]);
    else {
      LLVMPositionBuilderAtEnd(g->B, g->bb[pc]);
      g->curpc = pc;
      applysplit(g, pc);
      LLVMBuildBr(g->B, exitblock(g, pc));
    }
  }
}

/* a backward jump in instructions lo..hi of 'p' (all of it when lo < 0) */
static int backjump(const Proto *p, int lo, int hi) {
  int i;
  if (lo < 0) { lo = 0; hi = p->sizecode - 1; }
  for (i = lo; i <= hi; i++)
    if (op_backtarget(p->code[i], i) >= 0) return 1;
  return 0;
}

int llvmgen_hasloop(const Proto *p, int lo, int hi, const JitInline *inl, int ninl) {
  int k;
  if (backjump(p, lo, hi)) return 1;
  for (k = 0; k < ninl; k++)
    if (inl[k].p != NULL && backjump(inl[k].p, -1, 0)) return 1;
  return 0;
}

/* delete the blocks of the unreached pcs in the region; 0 if one has a
** branch to it */
static int deadpcs(Gen *g) {
  int pc;
  if (g->reach == NULL) return 1;
  for (pc = 0; pc < g->p->sizecode; pc++) {
    if (!inregion(g, pc) || g->reach[pc]) continue;
    if (LLVMGetFirstUse(LLVMBasicBlockAsValue(g->bb[pc])) != NULL) return 0;
    LLVMDeleteBasicBlock(g->bb[pc]);
  }
  return 1;
}

/* after the optimisation pipeline: every register alloca (a gc pointer in
** memory the stack maps do not describe) must have been promoted to SSA;
** if one remains, the function stays interpreted */
int llvmgen_check_promoted(LLVMModuleRef m) {
  LLVMValueRef f, ins;
  LLVMBasicBlockRef b;
  for (f = LLVMGetFirstFunction(m); f != NULL; f = LLVMGetNextFunction(f))
    for (b = LLVMGetFirstBasicBlock(f); b != NULL; b = LLVMGetNextBasicBlock(b))
      for (ins = LLVMGetFirstInstruction(b); ins != NULL; ins = LLVMGetNextInstruction(ins)) {
        LLVMTypeRef t;
        if (LLVMIsAAllocaInst(ins) == NULL) continue;
        t = LLVMGetAllocatedType(ins);
        if (LLVMGetTypeKind(t) == LLVMPointerTypeKind && LLVMGetPointerAddressSpace(t) == 1)
          return 0;
      }
  return 1;
}

/* Self-recursive functions: their recursion costs the callee's saves of
** the callee-saved registers it uses (fib: 5 of them and the alignment,
** 12 instructions per call, the largest single item of a call).  When
** the code makes self calls (selfhint sites inlinecall takes) and no
** lean tail call (its musttail must keep the C convention), the body
** g->fn gets LLVM's preserve_none convention (JIT_CALLCONV: a callee
** saves nothing; a caller keeps what it needs across the call itself)
** and is renamed; a wrapper in the C convention under the code's name
** (Proto.jitcode, for C and every other caller) calls it.  Self calls
** call the body directly.  The wrapper holds no references and makes no
** statepoint (no gc strategy): a collection inside walks the body's
** frame through the body's own anchors, and the caller's anchor through
** its stack pointer at the call of the wrapper (jit_anchorra).  Not for
** every function: a caller in a loop would keep its loop state across
** calls of small callees on its own stack, and C's entries would pay
** the wrapper (tried: sieve, spectral_norm +2-4%). */
static void selfconv(Gen *g, const char *name) {
  const Proto *p = g->p;
  int pc, self = 0;
  char nm[128];
  if (g->rlo != -1 && g->rlo != 0) return;   /* a region: no self path (pushcall) */
  for (pc = 0; pc < p->sizecode; pc++) {
    Instruction i = p->code[pc];
    if (GET_OPCODE(i) == OP_TAILCALL) return;
    if (GET_OPCODE(i) == OP_CALL && GETARG_B(i) != 0 && p->numparams <= GETARG_B(i) - 1 &&
        inregion(g, pc) && selfhint(g, pc, GETARG_A(i)))
      self = 1;
  }
  if (!self || !inregion(g, 0)) return;
  g->selfcc = 1;
  snprintf(nm, sizeof nm, "%s.self", name);
  LLVMSetValueName2(g->fn, nm, strlen(nm));
  LLVMSetLinkage(g->fn, LLVMInternalLinkage);
  LLVMSetFunctionCallConv(g->fn, JIT_CALLCONV);
}

/* No loop among the instructions compiled (a whole function: an OSR
** region is a loop): its only poll would be the entry's, which repeats
** the interrupt test every path into compiled code has made (the
** interpreter's CALL, rt_leancall, directok, leantailcall), so it goes
** (JIT_NOENTRYPOLL; docs/decisions/0015 "Session 10: call cost").  Poll
** latency stays bounded: such code runs a bounded number of instructions
** between calls.  Functions with loops keep it: without, their loops came
** out laid out differently (+3-6% in fannkuch_redux and sieve, 0015
** "Session 4"). */
static int loopfree(Gen *g) {
  return g->rlo < 0 && !backjump(g->p, -1, 0);
}

/* the C-convention entry of a selfconv body: name(L, ci, anchor) =
** body(L, ci, anchor) */
static void selfwrapper(Gen *g, const char *name) {
  LLVMTypeRef fnty = LLVMGlobalGetValueType(g->fn);
  LLVMValueRef w = LLVMAddFunction(g->M, name, fnty), args[3], r;
  int k;
  LLVMAddAttributeAtIndex(w, LLVMAttributeFunctionIndex,
                          LLVMCreateStringAttribute(g->C, "frame-pointer", 13, "all", 3));
  LLVMPositionBuilderAtEnd(B_, LLVMAppendBasicBlockInContext(g->C, w, "entry"));
  for (k = 0; k < 3; k++) args[k] = LLVMGetParam(w, (unsigned)k);
  r = LLVMBuildCall2(B_, fnty, g->fn, args, 3, "r");
  LLVMSetInstructionCallConv(r, JIT_CALLCONV);
  LLVMBuildRet(B_, r);
}

LLVMModuleRef llvmgen_module(LLVMContextRef ctx, JitState *J, lua_State *L, Proto *p,
                             int lo, int hi, const JitInline *inl, int ninl, const char *name, const char *const *opnames,
                             int *status, const char **why) {
  Gen gs, *g = &gs;
  LLVMTypeRef params[5], fty;
  LLVMBasicBlockRef entry;
  int pc;
  const char *no = J->unsupported(p);
  if (no != NULL) {
    *status = JIT_UNSUPPORTED;
    *why = no;
    return NULL;
  }
  memset(g, 0, sizeof *g);
  g->contcall = -1;
  g->widepc = -1;
  g->C = ctx; g->p = p; g->J = J; g->Lc = L;
  g->inl = inl; g->ninl = ninl;
  g->rlo = lo; g->rhi = lo >= 0 ? hi : p->sizecode - 1;
  g->M = LLVMModuleCreateWithNameInContext(name, ctx);
  g->B = LLVMCreateBuilderInContext(ctx);
  g->i1 = LLVMInt1TypeInContext(ctx);
  g->i8 = LLVMInt8TypeInContext(ctx);
  g->i32 = LLVMInt32TypeInContext(ctx);
  g->i64 = LLVMInt64TypeInContext(ctx);
  g->i128 = LLVMIntTypeInContext(ctx, 128);
  g->p0 = LLVMPointerTypeInContext(ctx, 0);
  g->p1 = LLVMPointerTypeInContext(ctx, 1);
  g->vd = LLVMVoidTypeInContext(ctx);
  g->f64 = LLVMDoubleTypeInContext(ctx);
  /* helpers (defined as absolute symbols by the session) */
  params[0] = g->p0; params[1] = g->p0; params[2] = g->i32; params[3] = g->i32; params[4] = g->i32;
  g->ty_call = LLVMFunctionType(g->i32, params, 5, 0);
  g->f_call = LLVMAddFunction(g->M, "mvmrt_precall", g->ty_call);
  g->ty_ret = LLVMFunctionType(g->vd, params, 4, 0);
  g->f_ret = LLVMAddFunction(g->M, "mvmrt_return", g->ty_ret);
  g->ty_op = LLVMFunctionType(g->vd, params, 3, 0);      /* (L, ci, pc) */
  g->ty_opi = LLVMFunctionType(g->i32, params, 3, 0);
  {
    LLVMTypeRef dd[2], vv[2];
    dd[0] = dd[1] = g->f64;
    vv[0] = vv[1] = g->p1;
    g->ty_ff = LLVMFunctionType(g->f64, dd, 2, 0);
    g->ty_req = LLVMFunctionType(g->i32, vv, 2, 0);
    vv[1] = g->p0;   /* (Table *, TString *) -> Value * */
    g->ty_chain = LLVMFunctionType(g->p0, vv, 2, 0);
  }
  build_poll(g);
  /* the function */
  params[2] = g->p0;
  fty = LLVMFunctionType(g->i32, params, 3, 0);   /* JitFunction (L, ci, anchor) */
  g->fn = LLVMAddFunction(g->M, name, fty);
  LLVMSetGC(g->fn, "statepoint-example");
  LLVMAddAttributeAtIndex(g->fn, LLVMAttributeFunctionIndex,
                          LLVMCreateStringAttribute(ctx, "frame-pointer", 13, "all", 3));
  /* no vector code made up by the optimiser (the SLP vectorizer merges the
  ** loads of adjacent VM registers into one 16-byte load, which cannot be
  ** store-forwarded from the two 8-byte stores the interpreter or a
  ** callee's return just made: a stall that cost 40% of fib's time).
  ** Explicit double arithmetic is unaffected. */
  LLVMAddAttributeAtIndex(g->fn, LLVMAttributeFunctionIndex,
                          LLVMCreateEnumAttribute(ctx, LLVMGetEnumAttributeKindForName("noimplicitfloat", 15), 0));
  g->L = LLVMGetParam(g->fn, 0);
  g->ci = LLVMGetParam(g->fn, 1);
  LLVMSetValueName2(g->L, "L", 1);
  LLVMSetValueName2(g->ci, "ci", 2);
  g->nregs = p->maxstacksize;
  tbaa_init(g);
  g->bb = (LLVMBasicBlockRef *)calloc((size_t)p->sizecode + 1, sizeof *g->bb);
  g->exits = (LLVMBasicBlockRef *)calloc((size_t)p->sizecode + 1, sizeof *g->exits);
  g->hdr = (LLVMBasicBlockRef *)calloc((size_t)p->sizecode + 1, sizeof *g->hdr);
  g->hdrsave = (int *)calloc((size_t)p->sizecode + 1, sizeof *g->hdrsave);
  g->entry = (char *)malloc((size_t)p->sizecode);
  if (g->entry != NULL) entrypoints(g, g->entry);
  g->mm = mmsites(p);
  if (g->bb == NULL || g->exits == NULL || g->hdr == NULL || g->hdrsave == NULL || g->entry == NULL || !analyse(g) || !specanalyse(g) || !selftyped(g) || (numonly(g), !cleananalyse(g))) {
    freegen(g);
    LLVMDisposeBuilder(g->B);
    LLVMDisposeModule(g->M);
    *status = JIT_ERROR; *why = "out of memory";
    return NULL;
  }
  entry = LLVMAppendBasicBlockInContext(ctx, g->fn, "entry");
  for (pc = 0; pc < p->sizecode; pc++) {
    char nm[32];
    snprintf(nm, sizeof nm, "pc%d.%s", pc, opnames[GET_OPCODE(p->code[pc])]);
    g->bb[pc] = LLVMAppendBasicBlockInContext(ctx, g->fn, nm);
  }
  /* falling off the end cannot happen (the code ends with a RETURN), but
  ** keep the IR well formed */
  g->bb[p->sizecode] = LLVMAppendBasicBlockInContext(ctx, g->fn, "end");
  LLVMPositionBuilderAtEnd(g->B, g->bb[p->sizecode]);
  LLVMBuildUnreachable(g->B);
  LLVMPositionBuilderAtEnd(g->B, entry);
  g->basevar = LLVMBuildAlloca(g->B, g->p0, "basevar");   /* addrspace(0): a raw stack pointer */
  /* one alloca (addrspace 0) per SSA register, holding an i64 word (a
  ** number: regty_ir); sroa must promote them all */
  for (pc = 0; pc < g->nregs; pc++)
    if (!rs_has(&g->memres, pc)) {
      char nm[16];
      snprintf(nm, sizeof nm, "r%d", pc);
      g->regvar[pc] = LLVMBuildAlloca(g->B, regty_ir(g), nm);
    }
  if (g->split != NULL) {   /* loop homes (forsplit) */
    g->loopvar = (LLVMValueRef *)calloc((size_t)g->nregs + 1, sizeof(LLVMValueRef));
    g->homevar = (LLVMValueRef *)calloc((size_t)g->nregs + 1, sizeof(LLVMValueRef));
    if (g->loopvar == NULL || g->homevar == NULL) { free(g->split); g->split = NULL; }
    else {
      RegSet any;
      memset(&any, 0, sizeof any);
      for (pc = 0; pc < p->sizecode; pc++) rs_or(&any, &g->split[pc]);
      for (pc = 0; pc < g->nregs; pc++) {
        g->homevar[pc] = g->regvar[pc];
        if (rs_has(&any, pc)) {
          char nm[16];
          snprintf(nm, sizeof nm, "loop%d", pc);
          g->loopvar[pc] = LLVMBuildAlloca(g->B, g->i64, nm);
        }
      }
      g->homeraw = g->rawint;
    }
  }
  fltvars(g);
  tabknown(g);
  selfconv(g, name);
  reload_base(g);
  {
    /* dispatch on ci->u.l.savedpc: the start, the instruction after a
    ** CALL (re-entry after a Lua callee returned) or a loop header (OSR);
    ** anything else goes back to the interpreter, which continues at
    ** savedpc.  A direct call (jit.h) starts at pc 0 without the switch. */
    LLVMValueRef spc, off, sw, direct = anchor_caller(g);
    LLVMBasicBlockRef other = LLVMAppendBasicBlockInContext(ctx, g->fn, "notentry");
    LLVMBasicBlockRef sb = LLVMAppendBasicBlockInContext(ctx, g->fn, "entryswitch");
    LLVMBasicBlockRef start = inregion(g, 0) ? resumeblock(g, 0) : other;
    int nentries = 0;
    if (g->selfcc && inregion(g, 0) && specentries(g)) selfentry(g);
    LLVMBuildCondBr(g->B, direct, start, sb);
    LLVMPositionBuilderAtEnd(g->B, sb);
    spc = LLVMBuildLoad2(g->B, g->p0, byteptr(g, g->ci, offsetof(CallInfo, u.l.savedpc)), "savedpc");
    off = LLVMBuildSub(g->B, LLVMBuildPtrToInt(g->B, spc, g->i64, ""),
                       ci64(g, (uint64_t)(uintptr_t)p->code), "");
    for (pc = 0; pc < p->sizecode; pc++) nentries += g->entry[pc] && inregion(g, pc);
    sw = LLVMBuildSwitch(g->B, off, other, (unsigned)nentries);
    for (pc = 0; pc < p->sizecode; pc++)
      if (g->entry[pc] && inregion(g, pc))
        LLVMAddCase(sw, ci64(g, (uint64_t)pc * sizeof(Instruction)), pc == 0 ? start : resumeblock(g, pc));
    LLVMPositionBuilderAtEnd(g->B, other);
    LLVMBuildRet(g->B, ci32(g, JIT_EXITED));
  }
  jmploops(g);
  appendsites(g);
  reachable(g);
  for (pc = 0; pc < p->sizecode; pc++) {
    if (!inregion(g, pc) || (g->reach != NULL && !g->reach[pc])) continue;
    LLVMPositionBuilderAtEnd(g->B, g->bb[pc]);
    g->curpc = pc;
    g->inbody = 1;
    jmploophdr(g, pc);
    applysplit(g, pc);
    emit(g, pc);
  }
  g->pendval = NULL;
  regionexits(g);
  if (!deadpcs(g)) {   /* (a bug in reachable(): the function stays interpreted) */
    freegen(g);
    LLVMDisposeBuilder(g->B);
    LLVMDisposeModule(g->M);
    *status = JIT_ERROR; *why = "a branch to an unreachable instruction";
    return NULL;
  }
  if (g->selfcc || loopfree(g))
    LLVMAddAttributeAtIndex(g->fn, LLVMAttributeFunctionIndex,
                            LLVMCreateStringAttribute(ctx, JIT_NOENTRYPOLL, (unsigned)strlen(JIT_NOENTRYPOLL), "", 0));
  if (g->selfcc) selfwrapper(g, name);
  freegen(g);
  LLVMDisposeBuilder(g->B);
  *status = JIT_OK;
  return g->M;
}
