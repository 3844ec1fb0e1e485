/*
** jit.h -- the JIT as seen by the rest of the VM (no LLVM here).
**
** Per VM there is one JitState (G(L)->jit), created on the first compile
** attempt.  It owns the stack-map registry of all compiled code (the
** collector's stack walker looks return addresses up in it), the tier-up
** settings, statistics, and the backend's per-VM state (an ORC LLJIT in
** libmvmjit.so, which is loaded with dlopen only then: a script that never
** compiles anything never maps LLVM).
**
** Compiled frames and the moving collector: while a frame's compiled code
** is on the C stack (CIST_JITACT, set by jit_run), each runtime helper it
** calls through a statepoint first records an anchor in its CallInfo
** (jitrt.c, JIT_ANCHOR: the stack pointer at the call, below which lies
** the return address, jit_anchorra);
** jit_walkframes() uses it to find, through the statepoint's stack-map
** record, the spill slots where the frame keeps references, and relocates
** them.  lua_resume clears CIST_JITACT of a coroutine whose C stack a
** longjmp (yield, error) has discarded (jit_unwound).
**
** Compiled code: int f(lua_State *L, CallInfo *ci) runs the Lua function of
** frame 'ci' from its first instruction.  All Lua registers live in the VM
** stack (ci->func + 1 ...), which compiled code re-reads after every call
** because the stack may be reallocated.  It returns
**   JIT_RETURNED  after it has returned (do_poscall done; L->ci popped), or
**   JIT_EXITED    after a guard failed: ci->u.l.savedpc is the instruction to
**                 resume at and every register is in the stack, so the
**                 interpreter simply continues the frame.
**   JIT_CALLED    after pushing the frame of a Lua callee (L->ci) that it
**                 did not run itself as a direct call (jitrt.c: hooks,
**                 deep C nesting): the
**                 interpreter runs it in its own loop, without C recursion,
**                 marks the caller CIST_JIT, and when the callee returns it
**                 calls the compiled code again; the entry dispatches on
**                 ci->u.l.savedpc (the function start or the instruction
**                 after one of its CALLs).
**   JIT_TAILCALLED after a tail call to a Lua function replaced the frame:
**                 'ci' now runs the callee from its first instruction (the
**                 interpreter's "goto startfunc"), so tail calls stay
**                 proper and the C stack does not grow.
*/
#ifndef mvm_jit_h
#define mvm_jit_h

#include <string.h>
#include "state.h"
#include "opcodes.h"
#include "stackmap.h"
#include "mvm.h"

#define JIT_RETURNED  0
#define JIT_EXITED    1
#define JIT_CALLED    2
#define JIT_TAILCALLED 3

/* Proto.jitcode: NULL (not tried yet), JIT_NOCODE (tried: stays in the
** interpreter), or the compiled entry */
#define JIT_NOCODE    ((void *)1)
/* queued for the background compile thread, or being compiled there */
#define JIT_QUEUED    ((void *)2)
#define jit_hascode(p)  ((uintptr_t)(p)->jitcode > (uintptr_t)JIT_QUEUED)

/* 'anchor' is ci->previous only when compiled code calls compiled code
** itself (a direct call: the inline call path, llvmgen.c): the frame 'ci'
** was just pushed by that caller, at its start, and the callee skips its
** entry switch.  Everyone else passes ci itself.  Inside one compiled
** unit, a self call whose arguments have the types the entry checks
** passes NULL (llvmgen.c selfargsok: the body skips those checks). */
typedef int (*JitFunction)(lua_State *L, CallInfo *ci, CallInfo *anchor);
/* The return address of an anchor (jitrt.c, ANCHOR RULE): the word the
** call pushed just below the caller's stack pointer at the call (jitsp).
** Valid while the callee (a helper, or compiled code called directly,
** or the code a lean tail call jumped to in its place) runs, which is
** whenever the collector walks the frame: nothing stores it. */
#define jit_anchorra(ci)  (*(void *const *)((ci)->u.l.jitsp - sizeof(void *)))

/* Direct (C-nesting) calls between compiled functions, made by
** mvmrt_precall (jitrt.c) and by compiled code inline (llvmgen.c), nest on
** the C stack as deep as the stack allows: while the stack pointer at the
** call lies in the window [JitState.cslo, cslo + csspan), the running
** thread's stack above a reserve kept for whatever runs on top of the
** deepest direct call (C functions and their lua_calls, which
** LUAI_MAXCCALLS bounds as ever, the interpreter, the collector, a
** compile on the VM's thread): JIT_CSRESERVE, or half a smaller stack.
** They are not counted (only the interpreter activations compiled code
** starts above them are, in bits 24-31 of L->nCcalls: jitrt.c NESTED
** ACTIVATIONS): the C levels a Lua program can observe (the parser's
** nesting limit, "C stack overflow") stay what they are interpreted, and
** the thread stays yieldable (jitrt.c RT_DIRECT).  Until
** session 29 every direct call was counted in L->nCcalls and they stopped
** JIT_MAXNEST levels deep: a deeper recursion (Ackermann's, a list built
** recursively) made each of its calls through the interpreter, and ran
** 1.5 times as long as interpreted.  jit_run sets the window on each entry
** from the thread's stack bounds (pthread_getattr_np, per thread).  On a
** stack of unknown bounds (a host's own fibers, say) the window is empty
** and only mvmrt_precall makes direct calls, counted in bits 24-31 of
** L->nCcalls (JIT_DIRECT each) below JIT_MAXNEST levels (C, non-yieldable
** and direct levels together), as before. */
#define JIT_DIRECT      0x1000000u
#define JIT_MAXNEST     (LUAI_MAXCCALLS - 40)
#define JIT_CSRESERVE   ((size_t)2 << 20)

/* A CALL site whose callee compiled code evaluates inline ("inlined leaf
** calls", llvmgen.c inlineleaf): predicted on the VM's thread when the
** compile is requested (jit.c predict_inlines), from the value the callee
** register is loaded from (an upvalue, a global); the code guards that
** R[A] is a closure of 'p'.  KEEP-ALIVE: the code embeds 'p' (a Proto's
** address is all the guard compares), so every JitInline of a request,
** of the compile in progress and of live or flushed code is marked by
** the collector (jit_markinlined): a freed Proto whose memory another
** Proto reused would make the guard pass for the wrong function. */
typedef struct JitInline { int pc; Proto *p; } JitInline;
#define JIT_MAXINLINE 32      /* sites per compile */
#define JIT_INLINE_MAXCODE 30 /* instructions of an inlined callee */

typedef struct JitUnit {          /* one compiled function (or OSR region) */
  Proto *p;                       /* protos never move (old space) */
  JitInline *inl;                 /* the callees its code inlines (malloc'ed) */
  int ninl;
  void *handle;                   /* backend's resource tracker */
  struct JitUnit *next;
  int lo, hi;                     /* a region: its instructions (JitState.regions) */
  void *entry;                    /* a region: its code (never p->jitcode) */
} JitUnit;

typedef struct JitQueued {       /* a proto waiting for the compile thread */
  Proto *p;
  JitInline *inl;                 /* predicted inline callees (malloc'ed), or NULL */
  int ninl;
  struct JitQueued *next;
  int lo, hi;                     /* an OSR region to compile, or lo = -1 */
  int first;                      /* asked for by a running loop (jit.c enqueue) */
  uint32_t heat0;                 /* p->hotcount when queued (jit.c nextqueued) */
  double t0;                      /* when queued */
} JitQueued;

/* active jit_runs whose frames JitState.act records (jit_unwound) */
#define JIT_ACTMAX 32

/* entries of the OSR policy's caches (jit.c osrhash) */
#define JIT_OSR_BITS 6
#define JIT_OSR_SAMPLES (1 << JIT_OSR_BITS)

typedef struct JitState {
  SMRegistry stackmaps;           /* records of all live compiled code */
  /* Background compilation ("on" mode, jit.c): one compile thread takes
  ** protos from a queue, runs the backend and installs the code.  'lock'
  ** guards the queue, 'compiling', the unit lists, the statistics and every
  ** store to a Proto.jitcode once the thread exists; 'belock' makes
  ** backend calls (compile, release) one at a time; they are never held
  ** together by the compile thread.  The stack-map registry has its own
  ** lock. */
  pthread_mutex_t lock, belock;
  pthread_cond_t wake, done;      /* work queued or stop; a compile finished */
  pthread_t thread;
  int hasthread, stop;
  int prefetch;                   /* 1: the compile thread is to load LLVM
                                  ** before any compile is queued (warm
                                  ** code, prefetch_backend); 2: done */
  int background;                 /* MVM_JIT_BACKGROUND (default 1) */
  JitQueued *qhead, *qtail;
  Proto *compiling;               /* proto the thread is compiling, or NULL */
  /* Leaving the compile thread behind at exit (mvm_closeforexit): a
  ** compile or LLVM's loading takes up to tens of ms, which a program
  ** ending meanwhile waited for at lua_close.  'inllvm': the thread is in
  ** LLVM only (loading it, or past building the IR: it reads no VM memory
  ** until it returns and takes 'lock' to install); 'forexit': the host
  ** ends the process right after lua_close; 'orphaned': lua_close left
  ** the thread in LLVM, and the JitState and the backend stay allocated
  ** for it; '*leftflag' is set then (the host must end the process with
  ** _exit: LLVM's static destructors must not run under the thread). */
  int inllvm, forexit, orphaned;
  int *leftflag;
  JitInline *compinl;             /* its predicted inline callees (jit_markinlined) */
  int ncompinl;
  unsigned long ninlined;         /* call sites compiled inline (llvmgen.c, under belock) */
  void *bs;                       /* backend state, NULL if unavailable */
  lua_State *curL;                /* thread running compiled code (safepoint slow path) */
  unsigned long nactive;          /* jit_runs entered and not returned from (a longjmp
                                  ** leaves them counted; jit_unwound, jit_restore) */
  CallInfo *act[JIT_ACTMAX];      /* the frames of the first JIT_ACTMAX of them */
  global_State *g;
  uintptr_t cslo, csspan;         /* the window of direct calls' stack pointers
                                  ** (see JIT_CSRESERVE; jit_run sets it) */
  uint64_t csid;                  /* the thread it was set for (jit.c cs_id) */
  JitUnit *units;                 /* live compiled functions */
  JitUnit *flushed;               /* code dropped by jit.flush(), freed at close */
  /* OSR regions (jit.c jit_osr): code for one hot loop of a function that
  ** runs once (a main chunk), entered only from a back-edge of that loop
  ** through jit_osr, never installed as Proto.jitcode (it has no code for
  ** the function's start nor for its other loops: a call, an inline call
  ** or a resume after a call must not find it).  Several per proto. */
  JitUnit *regions;
  /* feedback buffers a main chunk stopped recording into once its loop's
  ** region runs (jit.c retire_feedback): an interpreted frame may still
  ** hold one until its next back-edge test, so they are freed at close */
  struct JitOldFb { uint8_t *b; size_t n; struct JitOldFb *next; } *oldfb;
  int noldfb;
  void *osrentry;                 /* the region jit_osr chose, for the jit_run that follows */
  uint32_t threshold;             /* hotcount that triggers a compile ("on") */
  int dump, stats;                /* MVM_JIT_DUMP, MVM_JIT_STATS */
  int broken;                     /* backend failed to load: never retry */
  int stresspoll;                 /* MVM_GC_STRESS: every safepoint poll takes the
                                  ** slow path, which collects (mvmrt_poll) */
  size_t stresspolls;             /* collections at polls under MVM_GC_STRESS */
  unsigned long ncompiled, nunsupported, nfailed;
  unsigned long nexits;           /* side exits: JIT_EXITED returns */
  unsigned long nosr;             /* entries at a loop header from a back-edge */
  unsigned long ndespec;          /* functions recompiled without speculation */
  unsigned long nlibrary;         /* functions not compiled: library-bound (jit.c) */
  unsigned long nswitching;       /* hotness restarts of functions that switch
                                  ** coroutines (jit.c calllook) */
  size_t codebytes;               /* native code held (the backend's code sections) */
  size_t codepeak;                /* the most ever held (for MVM_JIT_STATS at close) */
  size_t nwalked, nslots, nmoved; /* collector's walks: compiled frames, reference
                                  ** slots found, slots relocated (MVM_JIT_STATS) */
  double compile_seconds;
  int vminstr;                     /* MVM_JIT_STATS=4: the VM thread's instruction counter, or -1 */
  double closewait;               /* seconds jit_stopthread waited for the thread */
  double startup_seconds;         /* loading the backend and LLVM, newstate (MVM_JIT_STATS) */
  double *ctimes;                 /* seconds of each compile that ran LLVM (MVM_JIT_STATS) */
  size_t nctimes, sizectimes;
  double start;                   /* when the JitState was made (first call in "on") */
  double budget;                  /* "on": compile time may not exceed this fraction
                                  ** of the time since 'start' (MVM_JIT_BUDGET, %) */
  double bgbudget;                /* the same for compiles in the background on a
                                  ** CPU of their own (jit.c over_budget) */
  int bgauto;                     /* bgbudget is the policy's (no MVM_JIT_BUDGET or _SPARE), and
                                  ** may still rise (jit.c compile_now) */
  double payback;                 /* "on": OSR compiles a function once its interpreted
                                  ** loops lost this many times its estimated compile
                                  ** time (MVM_JIT_PAYBACK, %; 0 off; jit.c osr_pays) */
  int smallcalls;                 /* "on": small functions need more calls (jit.c
                                  ** call_threshold; MVM_JIT_SMALL) */
  double callgain;                /* "on": seconds a compile saves per instruction of
                                  ** a call's path (jit.c calls_pay; MVM_JIT_CALLGAIN) */
  double instrs_compiled;         /* bytecode instructions of the compiles timed in
                                  ** compile_seconds (the estimate's calibration) */
  double units_compiled;          /* the same in compileunits (loop compiles' estimate) */
  /* OSR policy (jit_osr, osr_pays): per loop (proto, header) seen at an
  ** OSR test, the time and the proto's hotcount at its last test and the
  ** loop's size (a scan of the proto: computed once); per
  ** proto, the time of its last OSR test and what compiled code would have
  ** saved so far.  Small caches indexed by a hash (a collision restarts
  ** an entry; a freed proto's entry only misleads an estimate). */
  struct { const Proto *p; const Instruction *pc; double t; uint32_t hot; int size;
           double csize, cshare, work, ran, saved, ocpu; int64_t ocount, imax; uint32_t ohot; int oloop;
           int64_t olast, icur, ifirst, cfirst, ilast, clast; int nchg, pure, mmbound; }
           osr[JIT_OSR_SAMPLES];
  /* (cshare: interp_share of the loop; mmbound: judged bound by
  ** metamethod calls (jit.c mmbound); pure: it runs nothing but the
  ** interpreter (pureloop); work: its size plus its callees'
  ** interpreted work (calleework); csize: the units of its compile
  ** (compileunits); ran: seconds the loop ran so far; saved: what compiled code
  ** would have saved of them; ocount, ocpu, ohot: the count of the
  ** integer for loop around it (or -1; oloop: that loop's FORLOOP pc, or
  ** -1), the VM thread's CPU time and the
  ** proto's hotcount at its first test; imax: the largest count of the
  ** loop itself seen, when it is an integer for loop; its growth (jit.c
** innergrowth): olast, the outer count at the last test; icur, the
** largest own count seen since it changed; ifirst/cfirst and
** ilast/clast, that largest count and the outer count of the first and
** of the latest outer iteration seen whole (the one after the first
** test's: that one was seen from its middle); nchg, outer changes seen,
** up to 2) */
  /* per loop seen at an OSR test: the proto's hotcount and the number of
  ** lua_resumes at its last test (jit.c switching) */
  struct { const Proto *p; const Instruction *pc; uint32_t hot; unsigned long res; }
    sw[2 * JIT_OSR_SAMPLES];     /* loops, then functions (jit.c calllook) */
  struct { const Proto *p; double tlast, lost; int span, fblo, fbhi; } osrp[JIT_OSR_SAMPLES];
  /* (fblo, fbhi: the region of the loop a main chunk's feedback is
  ** recorded for, or -1: jit.c fbloop) */
  const char *(*unsupported)(Proto *p);   /* jit_unsupported, for the backend */
  const lua_CFunction *builtins;  /* mvm_mathbuiltins, for the backend */
  const lua_CFunction *strbuiltins;  /* mvm_strbuiltins, for the backend */
  const lua_CFunction *assertfn;  /* mvm_baseassert, for the backend */
  const lua_CFunction *setmtfn;   /* mvm_basesetmt, for the backend */
  const size_t *watchepoch;       /* &G->watchepoch (JitMethodCache) */
} JitState;

/* A SELF site's method cache (jitrt.c mvmrt_strself; a global of the
** compiled module, zero at first).  It holds where the last '__index'
** walk from a receiver without the key found the method, for a receiver
** whose metatable is 'mt' and which lacks the key itself (always
** checked).  The fill sets TAB_WATCHED (vm/table.h) in every table the
** walk went through (at most JIT_MCWATCH).  Valid while
**  - the collector has not run: the raw addresses are still those of
**    the same live tables and node arrays;
**  - and no TAB_WATCHED bit was cleared since the fill: every store,
**    resize or setmetatable that could change a lookup through a walked
**    table cleared its bit, and the first clear after the fill found it
**    set and counted.
** Both count in G->watchepoch (each collection adds one: collect.c), which
** only grows, so 'stamp' is unchanged exactly when neither happened (one
** load per test; a second counter for the collections cost SELF's hit
** path two loads and an add).  JIT_MCENTRIES entries per site
** (polymorphic sites: receivers of several classes), each valid by
** these rules; a fill goes first, the entries before the one it replaces
** (its class's, else the last) moving down one.  Four, not two: a site
** whose receivers take three classes in turn (bench/extra/shapes.lua's
** `s:move(1):area()`) missed both entries every time, as an LRU of two
** does, and walked ('rt_selfwalk' 18% of its run). */
#define JIT_MCENTRIES 4
/* the tables a fill may mark: every metatable and '__index' table of a
** walk (jitrt.c RT_INDEXDEPTH levels); they cost only the fill now */
#define JIT_MCWATCH 8
typedef struct JitMethodEntry {
  size_t stamp;   /* *watchepoch + 1 at the fill (it only grows) */
  const Table *mt;
  const Value *slot;
} JitMethodEntry;
typedef struct JitMethodCache {
  JitMethodEntry e[JIT_MCENTRIES];
  uint32_t hints[2];   /* slot prediction for the walk (llvmgen.c newhints) */
  uint32_t keybit;     /* tab_strbit(key): the receiver's string filter test
                       ** without loading the key (set with it) */
  TString *key;        /* the site's method name (set in the first cache of a site) */
  JitState *J;         /* the compiled code's JIT state (idem) */
} JitMethodCache;

/* A GETFIELD/GETTABUP/SETFIELD/SETTABUP site's data (llvmgen.c
** newkeysite; a global of the compiled module): the slot-prediction hint
** first (the i32 compiled code probes with), then what the site's leaf
** helpers (jitrt.c mvmrt_strindex, mvmrt_strsethint) need besides the
** table, so that one address replaces three arguments (each a constant
** that costs the code generator two IR instructions per use).  Not the
** read-only mvmrt_strlook of loops: its site read through the argument
** cost nbody 2% of its run (register allocation in advance's loop) */
typedef struct JitKeySite {
  uint32_t hint;
  uint32_t fills;      /* fills of 'e' so far (jitrt.c mvmrt_strlook: past
                       ** JIT_KEYFILLS a site in a loop walks without them) */
  TString *key;        /* the constant key */
  global_State *g;     /* its "__index" name, its epochs (vm.h vm_cachestamp) */
  /* GETFIELD/GETTABUP (jitrt.c mvmrt_strindex): where the last
  ** '__index' walks from receivers lacking the key ended (a slot of a
  ** class, or nil), for receivers whose metatable is 'mt': valid by the
  ** rules of a method cache's entry (JitMethodCache: 'stamp',
  ** TAB_WATCHED), and filled as those are (JIT_MCENTRIES, a fill first;
  ** the first tested inline, the others out of line).  With one entry,
  ** receivers of two classes reading a class's field in turn walked
  ** every time (a probe: 783 -> 571 M instructions outside LLVM). */
  JitMethodEntry e[JIT_MCENTRIES];
} JitKeySite;
#define JIT_KEYFILLS  64

/* the end of an exit's list of raw stack slots (jitrt.c mvmrt_exitbox) */
#define JIT_EXITBOX_END 0xFFFFu

/* failed speculative guards (Proto.jitexits) after which a function is
** compiled again without speculation (jit_run) */
#define JIT_SPEC_EXITS  64

/* math.sqrt, math.floor and math.abs (stdlib/mathlib.c), which compiled
** code runs inline where it finds them called with one argument for one
** result (llvmgen.c builtincall) */
enum { JIT_BUILTIN_SQRT, JIT_BUILTIN_FLOOR, JIT_BUILTIN_ABS, JIT_NBUILTINS };
LUAI_DDEC(const lua_CFunction mvm_mathbuiltins[JIT_NBUILTINS]);
/* string.byte (stdlib/strlib.c), inline with one or two arguments for
** one result (llvmgen.c bytecall); not one of the JIT_NBUILTINS above */
#define JIT_BUILTIN_BYTE JIT_NBUILTINS
LUAI_DDEC(const lua_CFunction mvm_strbuiltins[1]);
/* assert (stdlib/baselib.c) as a statement (no results), with at least one
** argument: compiled code tests the first and goes on when it is true
** (llvmgen.c assertcall) */
#define JIT_BUILTIN_ASSERT (JIT_NBUILTINS + 1)
LUAI_DDEC(const lua_CFunction mvm_baseassert[1]);
/* setmetatable (stdlib/baselib.c) of two arguments, for one result or
** none: compiled code makes its common case (meta_setmtfast) through a
** leaf helper (llvmgen.c setmtcall) */
#define JIT_BUILTIN_SETMT (JIT_NBUILTINS + 2)
LUAI_DDEC(const lua_CFunction mvm_basesetmt[1]);

/* Is the call 'in' one of builtin k (JIT_BUILTIN_*; -1: none) that
** compiled code evaluates without the library call (llvmgen.c
** fastbuiltin), and so no C call for the policy (jit.c inlinebuiltin)?
** sqrt, floor, abs: one argument, one result; byte: one or two, one
** result; assert: a statement with an argument; setmetatable: two
** arguments, one result or none, or returned (a TAILCALL from a function
** that is not vararg and closes nothing: llvmgen.c setmtreturn). */
static inline int jit_builtinshape(int k, Instruction in) {
  int b = GETARG_B(in), c = GETARG_C(in);
  if (k == JIT_BUILTIN_SETMT && GET_OPCODE(in) == OP_TAILCALL)
    return b == 3 && c == 0 && !GETARG_k(in);
  if (GET_OPCODE(in) != OP_CALL || k < 0) return 0;
  if (k == JIT_BUILTIN_ASSERT) return c == 1 && b >= 2;
  if (k == JIT_BUILTIN_SETMT) return b == 3 && (c == 1 || c == 2);
  if (k == JIT_BUILTIN_BYTE) return c == 2 && (b == 2 || b == 3);
  return c == 2 && b == 2;
}

/* The builtin named 's' (JIT_BUILTIN_*), or -1.  Which builtin a call
** site may hold is guessed from the name its function register was
** loaded by; the guess is only a hint: compiled code compares the value. */
static inline int jit_builtinname(const char *s) {
  if (strcmp(s, "sqrt") == 0) return JIT_BUILTIN_SQRT;
  if (strcmp(s, "floor") == 0) return JIT_BUILTIN_FLOOR;
  if (strcmp(s, "abs") == 0) return JIT_BUILTIN_ABS;
  if (strcmp(s, "byte") == 0) return JIT_BUILTIN_BYTE;
  if (strcmp(s, "assert") == 0) return JIT_BUILTIN_ASSERT;
  if (strcmp(s, "setmetatable") == 0) return JIT_BUILTIN_SETMT;
  return -1;
}

/* The math builtin (< JIT_NBUILTINS) the CALL or TAILCALL at 'pc' of a
** pure leaf 'p' (jit.c pureleaf) probably calls, or -1: the name of the
** last load into its function register (a field key, an upvalue's name).
** In a pure leaf only the opcodes listed below leave R[A] unwritten. */
static inline int jit_leafbuiltin(const Proto *p, int pc) {
  int a = GETARG_A(p->code[pc]), i, k = -1;
  for (i = pc - 1; i >= 0; i--) {
    Instruction in = p->code[i];
    OpCode op = GET_OPCODE(in);
    switch (op) {
      case OP_EQ: case OP_LT: case OP_LE: case OP_EQK: case OP_EQI: case OP_LTI: case OP_LEI:
      case OP_GTI: case OP_GEI: case OP_TEST: case OP_JMP: case OP_RETURN: case OP_RETURN0:
      case OP_RETURN1: case OP_MMBIN: case OP_MMBINI: case OP_MMBINK:
        continue;
      default: break;
    }
    if (GETARG_A(in) != a) continue;
    if ((op == OP_GETFIELD || op == OP_GETTABUP) && v_isstring(p->k[GETARG_C(in)]))
      k = jit_builtinname(getstr(v_str(p->k[GETARG_C(in)])));
    else if (op == OP_GETUPVAL && GETARG_B(in) < p->sizeupvalues && p->upvalues[GETARG_B(in)].name)
      k = jit_builtinname(getstr(p->upvalues[GETARG_B(in)].name));
    break;
  }
  return k >= 0 && k < JIT_NBUILTINS ? k : -1;
}

/* Is code[pc] of 'p' a metamethod site: arithmetic or a bitwise operator
** (with its MMBIN* after it, or UNM, BNOT) whose operands the type
** feedback saw be something other than numbers (a table with '__add', a
** string to coerce)?  Compiled code calls the metamethod through a
** helper there (llvmgen.c mmsites), which saves nothing over the
** interpreter's call of it: the policy counts it as a C call (jit.c
** ccallat).  The compile thread reads the feedback while the interpreter
** records it: one relaxed load. */
static inline int jit_mmsite(const Proto *p, int pc) {
  OpCode op, next;
  if (p->feedback == NULL || pc + 1 >= p->sizecode) return 0;
  op = GET_OPCODE(p->code[pc]);
  next = GET_OPCODE(p->code[pc + 1]);
  if (next != OP_MMBIN && next != OP_MMBINI && next != OP_MMBINK && op != OP_UNM && op != OP_BNOT)
    return 0;
  return (__atomic_load_n(&p->feedback[pc], __ATOMIC_RELAXED) &
          (MVM_FB_STR | MVM_FB_TABLE | MVM_FB_OTHER)) != 0;
}

/* NULL if the compiler handles 'p', else the reason (jit/jitsubset.c) */
LUAI_FUNC const char *jit_unsupported(Proto *p);

/* Called when the interpreter enters a Lua function at its first
** instruction with jitmode on: compile 'p' if the policy says so.  May run
** the compiler (no collection, no Lua error). */
LUAI_FUNC void jit_maybecompile(lua_State *L, Proto *p);
/* jit_maybecompile's first test inline (the interpreter asks at every
** call of a function that has no code yet): with -j on, a function that
** is not hot yet is not looked at. */
static inline void jit_trycompile(lua_State *L, Proto *p) {
  global_State *g = G(L);
  /* below p->jitlook the policy has nothing to do (jit.c calllook) */
  if (g->jitmode == MVM_JIT_ON && g->jit != NULL && p->hotcount < p->jitlook)
    return;
  jit_maybecompile(L, p);
}
/* On-stack replacement, from a loop back-edge of frame L->ci running 'p'
** (ci->u.l.savedpc = the loop header): compile 'p' if it has no code yet
** and the policy says so (as jit_maybecompile); 1 if it has code, which
** the interpreter then enters at savedpc (counted as an OSR entry).  The
** interpreter asks every JIT_OSR_EVERY back-edges (a power of 2). */
#define JIT_OSR_EVERY  64
LUAI_FUNC int jit_osr(lua_State *L, Proto *p);
/* run compiled 'p' for frame 'ci' (returns JIT_RETURNED or JIT_EXITED) */
LUAI_FUNC int jit_run(lua_State *L, CallInfo *ci, Proto *p);
/* a prototype is being freed: release its code */
LUAI_FUNC void jit_freeproto(lua_State *L, Proto *p);
/* compiled code of 'p' returned JIT_EXITED: count it, and past
** JIT_SPEC_EXITS failed speculations unhook the code so that 'p' is
** recompiled with wider types (or none) */
LUAI_FUNC void jit_exited(lua_State *L, Proto *p);
/* stop the background compile thread (lua_close, before the heap goes):
** queued protos go back to "not tried", the compile in progress is
** finished and installed; later compiles run in the VM's thread */
LUAI_FUNC void jit_stopthread(lua_State *L);
/* lua_close may leave a compile thread in LLVM behind (mvm_closeforexit):
** '*left' is set to 1 if it does */
LUAI_FUNC void jit_forexit(lua_State *L, int *left);

/* The compile thread enters LLVM (on = 1: done with the proto and the VM's
** memory until it installs the code, or while it loads LLVM), or comes
** back (0); 0 if lua_close left it behind meanwhile (JitState.orphaned:
** nothing of the VM may be touched).  Wakes jit_stopthread, which waits
** for either.  (Both sides of the backend interface use it.) */
static inline int jit_setinllvm(JitState *J, int on) {
  int ok;
  pthread_mutex_lock(&J->lock);
  J->inllvm = on;
  ok = !J->orphaned;
  pthread_cond_broadcast(&J->done);
  pthread_mutex_unlock(&J->lock);
  return ok;
}
/* lua_close: release everything */
LUAI_FUNC void jit_close(lua_State *L);
/* jit.flush(): forget all compiled code (kept mapped until close) */
LUAI_FUNC void jit_flush(lua_State *L);
/* The collector's walk of compiled frames (gc/collect.c, for every thread,
** in majors and minors): for each frame of L whose compiled code is on the
** C stack (CIST_JITACT), find the statepoint record of its anchor and pass
** every spill slot holding a reference to 'visit' (which may relocate it;
** derived pointers follow their base).  A missing record is a fatal
** internal error.  See jitrt.c (JIT_ANCHOR) for how anchors are made. */
LUAI_FUNC void jit_walkframes(lua_State *L, SMVisitor visit, void *ud);
/* lua_resume: 'jit_mark' before a protected run of coroutine L, and
** 'jit_unwound(L, mark)' after it, however it ended: a longjmp (yield,
** error) has discarded L's C stack, so none of L's frames runs compiled
** code any more (CIST_JITACT cleared: their anchors are stale), and the
** compiled code that resumed L, if any, is running again (J->curL, which
** the safepoint poll uses, is restored: a jit_run left by longjmp could not
** restore it).  The frames are only walked if a jit_run was left by
** longjmp since the mark (J->nactive is higher than it was), and only
** down to the frame of the first of them (J->act): a frame is only
** CIST_JITACT inside a jit_run of its thread (direct calls are made from
** code a jit_run entered, to frames above it), the run's C stack begins
** at lua_resume, and the jit_runs active at any time run frames ever
** higher up the CallInfo chain.  The other protected runs that go on
** after an error (do_pcall, do_closeprotected) restore J->nactive
** (jit_active, jit_restore), so that J->act stays right.  No-ops until
** compiled code first runs (global_State.jitran: J->curL and J->nactive
** are NULL and 0 until then), so that -j on costs no more than -j off
** there. */
typedef struct JitMark { lua_State *cur; unsigned long active; } JitMark;
LUAI_FUNC void jit_unwoundframes(lua_State *L, const CallInfo *low);
static inline void jit_mark(global_State *g, JitMark *m) {
  JitState *J = (JitState *)g->jitran;
  m->cur = NULL;
  m->active = 0;
  if (J != NULL) {
    m->cur = J->curL;
    m->active = J->nactive;
  }
}
static inline void jit_unwound(lua_State *L, const JitMark *m) {
  JitState *J = (JitState *)G(L)->jitran;
  if (J == NULL) return;
  J->curL = m->cur;
  if (J->nactive != m->active) {
    jit_unwoundframes(L, m->active < JIT_ACTMAX ? J->act[m->active] : NULL);
    J->nactive = m->active;
  }
}
static inline unsigned long jit_active(global_State *g) {
  return g->jitran ? ((JitState *)g->jitran)->nactive : 0;
}
static inline void jit_restore(global_State *g, unsigned long active) {
  if (g->jitran) ((JitState *)g->jitran)->nactive = active;
}
/* The collector (majors, gc/collect.c markroots): pass every Proto that
** compiled code, a queued compile or the compile in progress inlines
** (JitInline) to 'mark'.  See JitInline for why. */
LUAI_FUNC void jit_markinlined(global_State *g, void (*mark)(void *ud, Proto *p), void *ud);
/* the VM's stack-map registry, or NULL if nothing was ever compiled */
LUAI_FUNC const SMRegistry *jit_stackmaps(global_State *g);

/* runtime helpers (jit/jitrt.c) */
LUAI_FUNC const struct JitHelper *jit_helpers(int *n);

#endif
