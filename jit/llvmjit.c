/*
** llvmjit.c -- the JIT backend's ORC session (libmvmjit.so).
**
** One LLJIT per VM, created on the VM's first compile.  Its object layer is
** an RTDyldObjectLinkingLayer with MCJIT-like memory-manager callbacks:
** RTDyld creates one memory-manager context per linked object; our context
** allocates the object's sections, notices the ".llvm_stackmaps" data
** section, and at finalization (relocations applied, so function addresses
** in the section are final) parses it and registers it with the VM's
** stack-map registry.  Each compiled function is its own module under its
** own ResourceTracker: removing the tracker destroys the context, which
** unregisters the stack maps and unmaps the memory.
**
** Runtime helpers (mvmrt_*) are defined in the main JITDylib as absolute
** symbols at the addresses the core handed over (jitbackend.h).
**
** Pipeline (LLVMRunPasses): JIT_PIPELINE (sroa, dce, early-cse, instcombine,
** simplifycfg, gvn) for code with a loop, JIT_PIPELINE_NOLOOP (early-cse
** over MemorySSA instead of gvn) for code without one, then
** place-safepoints and rewrite-statepoints-for-gc,
** then globaldce (the unused poll body), then unhoist (addresses behind
** freezes); code generation at "Less"
** without the machine scheduler (init_target; docs/decisions/0016), for the
** host CPU without AVX-512 (noavx512).  The compile thread warms LLVM up
** with a small module when it starts the session (warmup).
** MVM_JIT_DUMP=1 prints the IR before and after the statepoint rewriting,
** and the machine code as linked (LLVM's disassembler, helper calls named).
**
** Tools: the object layer notifies LLVM's GDB registration listener (the
** GDB JIT interface: backtraces through compiled code show the function
** names, which carry the Lua chunk and line; MVM_JIT_GDB=0 turns it off)
** and, with MVM_JIT_PERF=1, LLVM's perf listener (jit-PID.dump for `perf
** inject --jit`, if this LLVM was built with it).  MVM_JIT_PERF also
** appends "address size lua:chunk:line" lines to /tmp/perf-PID.map, which
** perf report reads directly.  MVM_JIT_FAILTEST=LINE (a test knob) makes
** the compile of the functions defined at LINE fail inside LLVM (an
** invalid pass pipeline), to check that such a failure leaves the function
** interpreted.
*/
#define _GNU_SOURCE
#include <stdio.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Disassembler.h>
#include <llvm-c/Error.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/ExecutionEngine.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Support.h>
#include <llvm-c/OrcEE.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "llvmjit.h"
#include <time.h>

/* the compiling thread's CPU time, for MVM_JIT_STATS=3 (phases of a
** compile): unlike wall time, not inflated by other processes on a loaded
** machine */
static double tnow(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* with MVM_JIT_STATS=4 the phases are counted in user-mode instructions
** of the compiling thread instead (reproducible on a loaded machine);
** -1 where perf events are not available */
static __thread int instr_fd = -2;
static double tinstr(void) {
  long long n = 0;
  if (instr_fd == -2) instr_fd = jit_instrcounter();
  if (instr_fd < 0 || read(instr_fd, &n, sizeof n) != (ssize_t)sizeof n) return -1;
  return (double)n * 1e-9;   /* printed as "ms": millions of instructions */
}

static double phase_clock(JitState *J) {
  return J->stats > 3 ? tinstr() : tnow();
}

typedef struct Backend {
  JitState *J;
  const MvmJitHost *host;
  LLVMOrcLLJITRef jit;
  LLVMOrcThreadSafeContextRef tsctx;
  LLVMTargetMachineRef tm;      /* for the optimisation passes */
  unsigned long nextid;
  int perf;                     /* MVM_JIT_PERF: perf map and listener */
  int hoist;                    /* MVM_JIT_HOIST=1: addresses as hoistable constants (unhoist) */
  int verify;                   /* MVM_JIT_VERIFY=1: verify the IR after the statepoint passes */
  const uint8_t *lastcode;      /* code section of the object last finalized */
  size_t lastcodesize;
  char err[256];
} Backend;

/* ---------------------------------------------------------------------
** Memory manager: one context per linked object
** --------------------------------------------------------------------- */

typedef struct Section {
  void *addr;
  size_t size;                  /* mapped size (page multiple) */
  size_t req;                   /* requested size */
  int code, readonly;
  struct Section *next;
} Section;

typedef struct MMContext {
  Backend *be;
  Section *sections;
  const uint8_t *smaddr;        /* the object's .llvm_stackmaps, if any */
  size_t smsize;
  StackMap *sm;                 /* registered at finalization */
} MMContext;

static void *mm_create(void *ctxctx) {
  MMContext *mm = (MMContext *)calloc(1, sizeof *mm);
  if (mm != NULL) mm->be = (Backend *)ctxctx;
  return mm;
}

static void mm_terminating(void *ctxctx) { (void)ctxctx; }

static uint8_t *mm_alloc(MMContext *mm, uintptr_t size, unsigned align, int code, int ro) {
  size_t pg = (size_t)sysconf(_SC_PAGESIZE);
  size_t len = ((size ? size : 1) + pg - 1) & ~(pg - 1);
  Section *s;
  void *p;
  if (align > pg) return NULL;   /* mmap gives page alignment only */
  p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return NULL;
  s = (Section *)malloc(sizeof *s);
  if (s == NULL) { munmap(p, len); return NULL; }
  s->addr = p; s->size = len; s->code = code; s->readonly = ro;
  if (code) mm->be->J->codebytes += (size_t)size;   /* released in mm_destroy */
  s->req = (size_t)size;
  s->next = mm->sections;
  mm->sections = s;
  return (uint8_t *)p;
}

static uint8_t *mm_code(void *opaque, uintptr_t size, unsigned align, unsigned id,
                        const char *name) {
  (void)id; (void)name;
  return mm_alloc((MMContext *)opaque, size, align, 1, 0);
}

static uint8_t *mm_data(void *opaque, uintptr_t size, unsigned align, unsigned id,
                        const char *name, LLVMBool ro) {
  MMContext *mm = (MMContext *)opaque;
  uint8_t *p = mm_alloc(mm, size, align, 0, ro);
  if (p != NULL && name != NULL && strcmp(name, ".llvm_stackmaps") == 0) {
    mm->smaddr = p;
    mm->smsize = size;
  }
  return p;
}

static LLVMBool mm_finalize(void *opaque, char **errmsg) {
  MMContext *mm = (MMContext *)opaque;
  Backend *be = mm->be;
  Section *s;
  for (s = mm->sections; s != NULL; s = s->next) {
    int prot = s->code ? (PROT_READ | PROT_EXEC) : s->readonly ? PROT_READ : (PROT_READ | PROT_WRITE);
    if (mprotect(s->addr, s->size, prot) != 0) {
      *errmsg = strdup("mprotect failed");
      return 1;
    }
    if (s->code) {
      __builtin___clear_cache((char *)s->addr, (char *)s->addr + s->size);
      be->lastcode = (const uint8_t *)s->addr;   /* (one function per object) */
      be->lastcodesize = s->req;
    }
  }
  /* relocations are resolved: function addresses in the section are final */
  if (mm->smaddr != NULL && mm->sm == NULL) {
    const char *why = NULL;
    StackMap *sm = be->host->sm_parse(mm->smaddr, mm->smsize, &why);
    if (sm == NULL || be->host->sm_register(&be->J->stackmaps, sm) != 0) {
      if (sm != NULL) be->host->sm_free(sm);
      *errmsg = strdup(why ? why : "cannot register stack maps");
      return 1;
    }
    mm->sm = sm;
  }
  return 0;
}

static void mm_destroy(void *opaque) {
  MMContext *mm = (MMContext *)opaque;
  Section *s = mm->sections;
  if (mm->sm != NULL)
    mm->be->host->sm_unregister(&mm->be->J->stackmaps, mm->sm);
  while (s != NULL) {
    Section *next = s->next;
    if (s->code) mm->be->J->codebytes -= s->req;
    munmap(s->addr, s->size);
    free(s);
    s = next;
  }
  free(mm);
}

static int env_flag(const char *name, int dflt) {
  const char *v = getenv(name);
  if (v == NULL || *v == '\0') return dflt;
  return strcmp(v, "0") != 0;
}

/* the object layer, with the tool listeners (LLVM keeps the listeners:
** they are process-wide singletons) */
static LLVMOrcObjectLayerRef make_objlayer(void *ctx, LLVMOrcExecutionSessionRef es,
                                           const char *triple) {
  Backend *be = (Backend *)ctx;
  LLVMOrcObjectLayerRef ol;
  (void)triple;
  ol = LLVMOrcCreateRTDyldObjectLinkingLayerWithMCJITMemoryManagerLikeCallbacks(
      es, ctx, mm_create, mm_terminating, mm_code, mm_data, mm_finalize, mm_destroy);
  if (ol == NULL) return NULL;
  if (env_flag("MVM_JIT_GDB", 1)) {
    LLVMJITEventListenerRef gdb = LLVMCreateGDBRegistrationListener();
    if (gdb != NULL) LLVMOrcRTDyldObjectLinkingLayerRegisterJITEventListener(ol, gdb);
  }
  if (be->perf) {
    LLVMJITEventListenerRef perf = LLVMCreatePerfJITEventListener();
    if (perf != NULL) LLVMOrcRTDyldObjectLinkingLayerRegisterJITEventListener(ol, perf);
    else if (be->J->stats)
      fprintf(stderr, "mvm: JIT: this LLVM has no perf listener (only /tmp/perf-%d.map)\n",
              (int)getpid());
  }
  return ol;
}

/* ---------------------------------------------------------------------
** perf map: /tmp/perf-PID.map, "start size name" (hex), one line per
** compiled function, appended by every VM of the process
** --------------------------------------------------------------------- */

static pthread_mutex_t perfmap_lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *perfmap;

static void perfmap_add(const void *addr, size_t size, const Proto *p) {
  const char *src = p->source ? getstr(p->source) : "?";
  if (*src == '@' || *src == '=') src++;
  pthread_mutex_lock(&perfmap_lock);
  if (perfmap == NULL) {
    char path[64];
    snprintf(path, sizeof path, "/tmp/perf-%d.map", (int)getpid());
    perfmap = fopen(path, "a");
  }
  if (perfmap != NULL) {
    fprintf(perfmap, "%lx %zx lua:%.200s:%d\n", (unsigned long)(uintptr_t)addr, size,
            src, p->linedefined);
    fflush(perfmap);
  }
  pthread_mutex_unlock(&perfmap_lock);
}

/* the symbol of a compiled function: unique, and readable in a debugger
** or profiler without the map: mvmf_ID_CHUNK_LINE (CHUNK: the file name of
** the chunk, other characters as '_') */
static void funcname(char *buf, size_t size, unsigned long id, const Proto *p) {
  const char *src = p->source ? getstr(p->source) : "";
  const char *slash = strrchr(src, '/');
  size_t n;
  int k = snprintf(buf, size, "mvmf_%lu_", id);
  if (k < 0 || (size_t)k >= size) return;
  if (slash != NULL) src = slash + 1;
  else if (*src == '@' || *src == '=') src++;
  for (n = (size_t)k; *src != '\0' && n + 16 < size; src++)
    buf[n++] = (char)((*src >= 'a' && *src <= 'z') || (*src >= 'A' && *src <= 'Z') ||
                      (*src >= '0' && *src <= '9') ? *src : '_');
  snprintf(buf + n, size - n, "_%d", p->linedefined);
}

/* ---------------------------------------------------------------------
** Session
** --------------------------------------------------------------------- */

static const char *errtext(Backend *be, LLVMErrorRef e) {
  char *m = LLVMGetErrorMessage(e);
  snprintf(be->err, sizeof be->err, "%s", m);
  LLVMDisposeErrorMessage(m);
  return be->err;
}

/* LLVM's target registry is process-wide: initialise it exactly once, even
** when several VMs in different threads compile their first function at the
** same moment. */
static pthread_once_t target_once = PTHREAD_ONCE_INIT;
static int target_ok;
/* Code generation options that have no llvm-c setter, set through LLVM's
** option parser.  -enable-misched=false: the machine instruction scheduler
** took 5% of code generation (-time-passes) and its reordering bought no
** instructions in the code: -j eager, G instructions of the run less the
** compiles, with / without it: fannkuch_redux 5.587 / 5.587, mandelbrot
** 1.415 / 1.415, spectral_norm 4.486 / 4.486, fib 4.908 / 4.908, sieve
** 5.499 / 5.501 (the out-of-order cores schedule for themselves).
** -x86-br-merging-base-cost=-1: a branch on several conditions joined by
** and/or (the call site's directok, leanreturn, guards) stays a chain of
** branches; merged (the default below a cost threshold), the conditions
** were computed into flags registers and or'ed, which made fib's call
** sites spill (-j eager G instructions, with / without: fib 4.85 / 5.14,
** spectral_norm 4.97 / 5.21, binary_trees 4.84 / 4.90; the 16 programs
** of bench/ -0.1 to -1.3% but mandelbrot +0.6%).
** -memdep-block-scan-limit=20 (LLVM's default 100): how far back in a
** block gvn's memory dependence analysis looks for the store or load a
** load repeats.  The VM-register stores a load can reuse are near it
** (the bytecode instruction before); past 20 instructions the scan found
** little but cost: nbody's advance (3990 instructions of IR) optimised in
** 9.9 instead of 15.5 ms, 2364 instead of 2406 instructions left; the
** LLVM instructions of -j eager runs (MVM_JIT_BACKGROUND=0, callgrind),
** 100 / 20: nbody 1443 / 1345 M, osr 1495 / 1483, mandelbrot 403 / 398,
** spectral_norm 546 / 542, fannkuch_redux 745 / 743, sieve 459 / 457; the
** instructions outside LLVM the same within the runs' spread (code
** without loops gets early-cse, not gvn: no change there; 10 saved
** more, 1294 M in nbody, and was not tried further).  The options are
** LLVM's process-wide state, like the target registry. */
static const char *const jit_llvm_default_args[] = {
  "-enable-misched=false", "-x86-br-merging-base-cost=-1", "-memdep-block-scan-limit=20"
};

static void init_target(void) {
  /* MVM_JIT_LLVMARGS: more options for LLVM itself, e.g. "-time-passes" (a
  ** measurement tool; LLVM prints its report at exit).  One call of the
  ** parser: LLVM exits on an option given twice, so the defaults are
  ** left out when the user's options name the same option. */
  const char *args = getenv("MVM_JIT_LLVMARGS");
  static char buf[512];
  const char *argv[16];
  int argc = 0;
  char *tok;
  size_t i;
  target_ok = !LLVMInitializeNativeTarget() && !LLVMInitializeNativeAsmPrinter();
  LLVMInitializeNativeDisassembler();   /* (MVM_JIT_DUMP only; a failure is a dump without code) */
  if (args == NULL) args = "";
  buf[0] = '\0';
  for (i = 0; i < sizeof jit_llvm_default_args / sizeof *jit_llvm_default_args; i++) {
    const char *d = jit_llvm_default_args[i];
    size_t n = strcspn(d, "=");
    char opt[64];
    snprintf(opt, sizeof opt, "%.*s", (int)n, d);
    if (strstr(args, opt) == NULL) {   /* the user's value wins */
      strncat(buf, d, sizeof buf - strlen(buf) - 2);
      strcat(buf, " ");
    }
  }
  strncat(buf, args, sizeof buf - strlen(buf) - 1);
  argv[argc++] = "mvm";
  for (tok = strtok(buf, " "); tok != NULL && argc < 16; tok = strtok(NULL, " "))
    argv[argc++] = tok;
  if (argc > 1) LLVMParseCommandLineOptions(argc, argv, NULL);
}

static void warmup(Backend *be);

/* The host's features with AVX-512 off ("+avx512..." and "+evex512" made
** "-"), in place.  Nothing compiled uses vectors (no vectorizers,
** "noimplicitfloat"), but with AVX-512 the register allocator and
** instruction selection work over 32 vector and 8 mask registers more:
** 4-5% of code generation (llc on a dumped function).  MVM_JIT_AVX512=1
** keeps them. */
static void noavx512(char *features) {
  char *f;
  for (f = features; f != NULL && *f != '\0'; f = strchr(f, ','), f = f ? f + 1 : NULL)
    if (*f == '+' && (strncmp(f + 1, "avx512", 6) == 0 || strncmp(f + 1, "evex512", 7) == 0))
      *f = '-';
}

static void *newstate(JitState *J, const MvmJitHost *host, const char **err) {
  Backend *be;
  LLVMOrcLLJITBuilderRef jb;
  LLVMErrorRef e;
  LLVMOrcCSymbolMapPairs syms;
  LLVMOrcMaterializationUnitRef mu;
  char *triple, *cpu, *features;
  LLVMTargetRef target;
  char *msg = NULL;
  int i;
  if (host->abi != MVM_JIT_ABI || host->sizeof_proto != sizeof(Proto) ||
      host->sizeof_callinfo != sizeof(CallInfo) || host->sizeof_state != sizeof(lua_State)) {
    *err = "core and JIT backend were built from different sources";
    return NULL;
  }
  pthread_once(&target_once, init_target);
  if (!target_ok) {
    *err = "LLVM has no native target";
    return NULL;
  }
  be = (Backend *)calloc(1, sizeof *be);
  if (be == NULL) { *err = "out of memory"; return NULL; }
  be->J = J;
  be->host = host;
  be->perf = env_flag("MVM_JIT_PERF", 0);
  be->hoist = env_flag("MVM_JIT_HOIST", 0);
  be->verify = env_flag("MVM_JIT_VERIFY", 0);
  /* the target: a machine for the optimisation pipeline and one for the
  ** JIT's code generator */
  triple = LLVMGetDefaultTargetTriple();
  if (LLVMGetTargetFromTriple(triple, &target, &msg)) {
    snprintf(be->err, sizeof be->err, "%s", msg ? msg : "no target");
    LLVMDisposeMessage(msg);
    LLVMDisposeMessage(triple);
    *err = be->err;
    free(be);
    return NULL;
  }
  cpu = LLVMGetHostCPUName();
  features = LLVMGetHostCPUFeatures();
  if (!env_flag("MVM_JIT_AVX512", 0)) noavx512(features);
  if (J->stats > 2)
    fprintf(stderr, "mvm: JIT: target CPU %s, AVX-512 %s\n", cpu,
            strstr(features, "+avx512f") != NULL ? "used" : "unused");
  be->tm = LLVMCreateTargetMachine(target, triple, cpu, features, LLVMCodeGenLevelDefault,
                                   LLVMRelocDefault, LLVMCodeModelJITDefault);
  {
    /* code generation dominates compile time; "Less" (-O1 codegen) halves
    ** it and the code is simple (loads, stores, compares, helper calls) */
    const char *lv = getenv("MVM_JIT_CGLEVEL");
    LLVMCodeGenOptLevel level = lv ? (LLVMCodeGenOptLevel)atoi(lv) : LLVMCodeGenLevelLess;
    LLVMTargetMachineRef jtm = LLVMCreateTargetMachine(target, triple, cpu, features, level,
                                                       LLVMRelocDefault, LLVMCodeModelJITDefault);
    jb = LLVMOrcCreateLLJITBuilder();
    /* takes the target machine */
    LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(jb, LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(jtm));
  }
  LLVMDisposeMessage(triple);
  LLVMDisposeMessage(cpu);
  LLVMDisposeMessage(features);
  LLVMOrcLLJITBuilderSetObjectLinkingLayerCreator(jb, make_objlayer, be);
  if ((e = LLVMOrcCreateLLJIT(&be->jit, jb)) != NULL) {   /* consumes the builder */
    *err = errtext(be, e);
    LLVMDisposeTargetMachine(be->tm);
    free(be);
    return NULL;
  }
  /* runtime helpers as absolute symbols */
  syms = (LLVMOrcCSymbolMapPairs)calloc((size_t)host->nhelpers, sizeof *syms);
  for (i = 0; i < host->nhelpers; i++) {
    syms[i].Name = LLVMOrcLLJITMangleAndIntern(be->jit, host->helpers[i].name);
    syms[i].Sym.Address = (LLVMOrcExecutorAddress)(uintptr_t)host->helpers[i].addr;
    syms[i].Sym.Flags.GenericFlags = LLVMJITSymbolGenericFlagsExported |
                                     LLVMJITSymbolGenericFlagsCallable;
    syms[i].Sym.Flags.TargetFlags = 0;
  }
  mu = LLVMOrcAbsoluteSymbols(syms, (size_t)host->nhelpers);
  free(syms);
  if ((e = LLVMOrcJITDylibDefine(LLVMOrcLLJITGetMainJITDylib(be->jit), mu)) != NULL) {
    *err = errtext(be, e);
    LLVMOrcDisposeMaterializationUnit(mu);
    LLVMOrcDisposeLLJIT(be->jit);
    LLVMDisposeTargetMachine(be->tm);
    free(be);
    return NULL;
  }
  be->tsctx = LLVMOrcCreateNewThreadSafeContext();
  /* on the compile thread: LLVM's one-time work now, not in the first
  ** compile the program waits for (warmup), unless a compile waits
  ** already (taken, J->compiling, or queued): the warm-up would delay it
  ** by its own 5-7 ms to save it ~2 (fib's code arrived at 25-39 ms with
  ** it, 19-21 without; J->lock after belock, as compile_now takes them) */
  if (J->hasthread && pthread_equal(pthread_self(), J->thread) &&
      env_flag("MVM_JIT_WARMUP", 1)) {
    int waiting;
    pthread_mutex_lock(&J->lock);
    waiting = J->compiling != NULL || J->qhead != NULL;
    pthread_mutex_unlock(&J->lock);
    if (!waiting) warmup(be);
    else if (J->stats > 2)
      fprintf(stderr, "mvm: JIT: no warm-up compile: a compile waits\n");
  }
  return be;
}

static void freestate(void *bs) {
  Backend *be = (Backend *)bs;
  LLVMErrorRef e;
  if (be == NULL) return;
  /* destroys every remaining object (memory-manager contexts included) */
  if ((e = LLVMOrcDisposeLLJIT(be->jit)) != NULL)
    LLVMConsumeError(e);
  LLVMOrcDisposeThreadSafeContext(be->tsctx);
  LLVMDisposeTargetMachine(be->tm);
  free(be);
}

static void dump(const char *title, LLVMModuleRef m) {
  char *s = LLVMPrintModuleToString(m);
  fprintf(stderr, ";; ---- mvm JIT: %s ----\n%s", title, s);
  LLVMDisposeMessage(s);
}

/* MVM_JIT_DUMP: the symbol of a runtime helper at 'addr' (an immediate or
** a call target of the code being disassembled), else NULL */
static const char *helpername(void *ud, uint64_t addr, uint64_t *reftype, uint64_t pc,
                              const char **refname) {
  const MvmJitHost *host = ((Backend *)ud)->host;
  int i;
  (void)pc;
  *reftype = LLVMDisassembler_ReferenceType_InOut_None;
  *refname = NULL;
  for (i = 0; i < host->nhelpers; i++)
    if ((uint64_t)(uintptr_t)host->helpers[i].addr == addr) return host->helpers[i].name;
  return NULL;
}

/* the code section holding 'entry' (one Lua function per object): all of
** it, since a function with direct self calls has its preserve_none body
** (".self") in front of the C-convention entry that only calls it;
** NULL when the memory manager did not see the section */
static const uint8_t *codesection(Backend *be, const uint8_t *entry, size_t *size) {
  if (be->lastcode == NULL || entry < be->lastcode || entry >= be->lastcode + be->lastcodesize)
    return NULL;
  *size = be->lastcodesize;
  return be->lastcode;
}

/* MVM_JIT_DUMP: the machine code of function 'name' as linked, its whole
** code section (codesection), one instruction per line with its address */
static void dumpcode(Backend *be, const char *name, const uint8_t *entry) {
  char *triple = LLVMGetDefaultTargetTriple(), *cpu = LLVMGetHostCPUName();
  char *features = LLVMGetHostCPUFeatures(), line[256];
  size_t size = 0;
  const uint8_t *pc = codesection(be, entry, &size), *end = pc + size;
  LLVMDisasmContextRef dc = NULL;
  if (pc != NULL)
    dc = LLVMCreateDisasmCPUFeatures(triple, cpu, features, be, 0, NULL, helpername);
  fprintf(stderr, ";; ---- mvm JIT: machine code of %s ----\n", name);
  if (dc == NULL) fprintf(stderr, ";; (no disassembler for this target)\n");
  else {
    LLVMSetDisasmOptions(dc, LLVMDisassembler_Option_PrintImmHex);
    while (pc < end) {
      size_t n = LLVMDisasmInstruction(dc, (uint8_t *)pc, (uint64_t)(end - pc),
                                       (uint64_t)(uintptr_t)pc, line, sizeof line);
      if (n == 0) { fprintf(stderr, "%12lx:\t(not an instruction)\n", (unsigned long)(uintptr_t)pc); break; }
      if (pc == entry) fprintf(stderr, ";; %s (entry)\n", name);
      fprintf(stderr, "%12lx:%s\n", (unsigned long)(uintptr_t)pc, line);
      pc += n;
    }
    LLVMDisasmDispose(dc);
  }
  LLVMDisposeMessage(triple);
  LLVMDisposeMessage(cpu);
  LLVMDisposeMessage(features);
}

/* Addresses of the VM's memory are 64-bit constants in the IR: savedpc
** values (p->code + pc at every exit and call site), Proto.jitexits (every
** speculation exit), hints and keys (the TString a field access compares
** a node's key with), helper arguments.  Code generation's constant
** hoisting rebased all the constants near each other onto one base
** register, materialised where it dominates every use and live across
** the whole function, mostly for cold blocks: register allocation then
** worked on long live ranges through every block.  Behind a freeze (an
** instruction constant hoisting does not look through; instruction
** selection folds it to the constant again) each use materialises its
** own (movabs, as the hoisted base did).  Only loads, stores, calls and
** compares, and only addresses (2^31 to 2^47): tag constants (NaN-boxing
** patterns, above) stay hoisted, which pays in loops (sieve +8% when
** hoisting is off altogether).  docs/decisions/0016 "Session 7". */
static int vmaddr(LLVMValueRef c) {
  long long x;
  if (!LLVMIsAConstantInt(c) || LLVMGetIntTypeWidth(LLVMTypeOf(c)) != 64) return 0;
  x = LLVMConstIntGetSExtValue(c);
  return x >= 2147483648LL && x < (1LL << 47);
}
static void unhoist_operand(LLVMBuilderRef b, LLVMValueRef i, unsigned k) {
  LLVMValueRef v = LLVMGetOperand(i, k);
  if (vmaddr(v)) {
    LLVMPositionBuilderBefore(b, i);
    LLVMSetOperand(i, k, LLVMBuildFreeze(b, v, ""));
  }
  else if (LLVMIsAConstantExpr(v) && LLVMGetConstOpcode(v) == LLVMIntToPtr &&
           LLVMGetPointerAddressSpace(LLVMTypeOf(v)) == 0 && vmaddr(LLVMGetOperand(v, 0))) {
    LLVMPositionBuilderBefore(b, i);
    v = LLVMBuildIntToPtr(b, LLVMBuildFreeze(b, LLVMGetOperand(v, 0), ""), LLVMTypeOf(v), "");
    LLVMSetOperand(i, k, v);
  }
}
/* the operands [*k, *n) of call 'i' that are arguments of the function
** it calls: those of the wrapped call for a statepoint (its ID, flags and
** counts are immediates that must stay constants), none for another
** intrinsic */
static void callargs(LLVMValueRef i, unsigned *k, unsigned *n) {
  LLVMValueRef f = LLVMGetCalledValue(i);
  size_t len;
  const char *name;
  *k = *n = 0;
  if (!LLVMIsAFunction(f) || LLVMGetIntrinsicID(f) == 0) {
    *n = LLVMGetNumArgOperands(i);
    return;
  }
  name = LLVMGetValueName2(f, &len);
  /* gc.statepoint(id, patch bytes, target, nargs, flags, args..., 0, 0) */
  if (len >= 31 && strncmp(name, "llvm.experimental.gc.statepoint", 31) == 0 &&
      LLVMIsAConstantInt(LLVMGetOperand(i, 3))) {
    *k = 5;
    *n = 5 + (unsigned)LLVMConstIntGetZExtValue(LLVMGetOperand(i, 3));
  }
}
static void unhoist(LLVMModuleRef m) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  LLVMValueRef f, i;
  LLVMBasicBlockRef bb;
  for (f = LLVMGetFirstFunction(m); f != NULL; f = LLVMGetNextFunction(f))
    for (bb = LLVMGetFirstBasicBlock(f); bb != NULL; bb = LLVMGetNextBasicBlock(bb))
      for (i = LLVMGetFirstInstruction(bb); i != NULL; i = LLVMGetNextInstruction(i)) {
        LLVMOpcode op = LLVMGetInstructionOpcode(i);
        unsigned k = 0, n = op == LLVMStore || op == LLVMICmp ? 2 : op == LLVMLoad ? 1 : 0;
        if (op == LLVMCall) callargs(i, &k, &n);
        for (; k < n; k++) unhoist_operand(b, i, k);
      }
  LLVMDisposeBuilder(b);
}

static LLVMErrorRef runpasses(Backend *be, LLVMModuleRef m, const char *passes) {
  LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
  LLVMErrorRef e;
  /* no vectorizers (see also "noimplicitfloat" in llvmgen.c) */
  LLVMPassBuilderOptionsSetSLPVectorization(opts, 0);
  LLVMPassBuilderOptionsSetLoopVectorization(opts, 0);
  if (getenv("MVM_JIT_PASSLOG")) LLVMPassBuilderOptionsSetDebugLogging(opts, 1);
  e = LLVMRunPasses(m, passes, be->tm, opts);
  LLVMDisposePassBuilderOptions(opts);
  return e;
}

/* instcombine without <no-verify-fixpoint> aborts the process (LLVM ERROR)
** when it needs a second iteration: textual pipelines verify by default */
/* dce before early-cse: the boxes of float operands read as doubles
** (llvmgen.c getflt) are dead chains then, which early-cse, visiting the
** box before its dead use, would keep as the leader of a later flush's
** box, computed on the fast path (nbody's compiled code -6.6%) */
#define JIT_PIPELINE \
  "function(sroa,dce,early-cse,instcombine<no-verify-fixpoint>,simplifycfg,gvn,simplifycfg)"
/* Code without a loop (methods, accessors, recursive functions) gets
** early-cse over MemorySSA instead of gvn and the second simplifycfg: it
** forwards the stores to the loads along the dominator tree, which is
** where straight-line code has them; gvn's loads across joins pay in
** loops.  Instructions, all compiles at the call threshold (-j on,
** MVM_JIT_PAYBACK=0, synchronous), compile / run: richards -8.0% /
** +0.12%, deltablue -5.5% / +0.40%, fib -4.9% / +0.53%; for loops it
** lost (nbody -24% / +6.4%, spectral_norm -11% / +4.8%), so they keep
** gvn (docs/decisions/0016 "Session 15"). */
#define JIT_PIPELINE_NOLOOP \
  "function(sroa,dce,early-cse<memssa>,instcombine<no-verify-fixpoint>,simplifycfg)"

typedef struct Unit {
  LLVMOrcResourceTrackerRef rt;
} Unit;

/* Self-recursive bodies (llvmgen.c selfconv: defined in JIT_CALLCONV) are
** entered only by their own self-call sites and their C-convention
** wrapper, and every path to either tests the interrupt flag first
** (directok at the self-call sites; the interpreter's CALL, rt_leancall,
** directok and leantailcall before the wrapper): their entry poll,
** placed by place-safepoints, only repeats that test, on every call of a
** recursion (docs/decisions/0015 "Session 10: call cost").  Removed here,
** between place-safepoints and rewrite-statepoints-for-gc: the entry
** block's branch on the poll flag goes straight on, the slow block
** (mvmrt_poll) goes.  Loops in such a body keep their back-edge polls;
** MVM_GC_STRESS polls (an unconditional branch to the slow block) stay. */
static int noentry(LLVMValueRef f) {
  return !LLVMIsDeclaration(f) &&
         LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, JIT_NOENTRYPOLL,
                                       (unsigned)strlen(JIT_NOENTRYPOLL)) != NULL;
}
static int calls_poll(LLVMBasicBlockRef bb) {
  LLVMValueRef i, f;
  size_t len;
  for (i = LLVMGetFirstInstruction(bb); i != NULL; i = LLVMGetNextInstruction(i))
    if (LLVMIsACallInst(i) && (f = LLVMGetCalledValue(i)) != NULL && LLVMIsAFunction(f) &&
        strcmp(LLVMGetValueName2(f, &len), "mvmrt_poll") == 0)
      return 1;
  return 0;
}
static void noentrypoll(LLVMModuleRef m) {
  LLVMValueRef f;
  for (f = LLVMGetFirstFunction(m); f != NULL; f = LLVMGetNextFunction(f)) {
    LLVMBasicBlockRef entry, slow, on;
    LLVMValueRef br, cond;
    LLVMUseRef use;
    LLVMBuilderRef b;
    unsigned k;
    if (!noentry(f)) continue;
    entry = LLVMGetEntryBasicBlock(f);
    br = LLVMGetBasicBlockTerminator(entry);
    if (br == NULL || !LLVMIsABranchInst(br) || !LLVMIsConditional(br)) continue;
    for (k = 0; k < 2; k++) {
      LLVMValueRef sbr;
      slow = LLVMGetSuccessor(br, k);
      on = LLVMGetSuccessor(br, 1 - k);
      sbr = LLVMGetBasicBlockTerminator(slow);
      use = LLVMGetFirstUse(LLVMBasicBlockAsValue(slow));
      if (calls_poll(slow) && use != NULL && LLVMGetNextUse(use) == NULL && sbr != NULL &&
          LLVMIsABranchInst(sbr) && !LLVMIsConditional(sbr) && LLVMGetSuccessor(sbr, 0) == on &&
          LLVMGetFirstInstruction(on) != NULL && !LLVMIsAPHINode(LLVMGetFirstInstruction(on)))
        break;
    }
    if (k == 2) continue;
    cond = LLVMGetCondition(br);
    b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    LLVMPositionBuilderBefore(b, br);
    LLVMBuildBr(b, on);
    LLVMDisposeBuilder(b);
    LLVMInstructionEraseFromParent(br);
    LLVMDeleteBasicBlock(slow);
    /* the flag's compare and volatile load: no other uses */
    if (LLVMIsAInstruction(cond) && LLVMGetFirstUse(cond) == NULL) {
      LLVMValueRef ld = LLVMIsACmpInst(cond) ? LLVMGetOperand(cond, 0) : NULL;
      LLVMInstructionEraseFromParent(cond);
      if (ld != NULL && LLVMIsALoadInst(ld) && LLVMGetFirstUse(ld) == NULL)
        LLVMInstructionEraseFromParent(ld);
    }
  }
}

/* Does module 'm' pass LLVM's verifier?  If not, it is disposed of (and
** dumped with MVM_JIT_DUMP) and '*why' says what, after 'what'. */
/* MVM_JIT_STATS=3: the module's size in IR instructions and blocks (the
** size of what code generation works on is most of a compile's cost) */
static void irsize(LLVMModuleRef m, unsigned *ninst, unsigned *nblock) {
  LLVMValueRef f;
  LLVMBasicBlockRef bb;
  LLVMValueRef i;
  *ninst = *nblock = 0;
  for (f = LLVMGetFirstFunction(m); f != NULL; f = LLVMGetNextFunction(f))
    for (bb = LLVMGetFirstBasicBlock(f); bb != NULL; bb = LLVMGetNextBasicBlock(bb)) {
      (*nblock)++;
      for (i = LLVMGetFirstInstruction(bb); i != NULL; i = LLVMGetNextInstruction(i))
        (*ninst)++;
    }
}

static int verified(Backend *be, LLVMModuleRef m, const char *what, const char **why) {
  char *msg = NULL;
  if (!LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
    LLVMDisposeMessage(msg);
    return 1;
  }
  snprintf(be->err, sizeof be->err, "%s: %s", what, msg ? msg : "?");
  LLVMDisposeMessage(msg);
  if (be->J->dump) dump(what, m);
  LLVMDisposeModule(m);
  *why = be->err;
  return 0;
}

/* A module in the form llvmgen makes (a gc function, the poll, a helper
** call with a reference live across it, a loop, doubles, a switch), put
** through the same passes and code generation as a compile, then dropped.
** The first compile of a session cost ~60 M instructions (~10 ms) more
** than later ones of its size: LLVM's lazily built state (subtargets of
** both target machines, pass registries, instruction selection and
** register-class tables, the object layer's first use).  Done when the
** compile thread starts the session, while the program still interprets
** (LLVM is prefetched when code gets warm), the first real compile
** arrives that much sooner.  MVM_JIT_WARMUP=0 turns it off. */
static const char warmup_ir[] =
  "define void @gc.safepoint_poll() {\n"
  "entry:\n"
  "  %f = load volatile i32, ptr inttoptr (i64 4294967296 to ptr), align 4\n"
  "  %z = icmp eq i32 %f, 0\n"
  "  br i1 %z, label %done, label %slow\n"
  "slow:\n"
  "  call void @mvmrt_poll(ptr inttoptr (i64 4294967304 to ptr))\n"
  "  br label %done\n"
  "done:\n"
  "  ret void\n"
  "}\n"
  "declare void @mvmrt_poll(ptr)\n"
  "define i32 @mvm_warmup(ptr %L, ptr %ci, ptr %d) #0 gc \"statepoint-example\" {\n"
  "entry:\n"
  "  %base = load ptr, ptr %ci, align 8\n"
  "  %v = load ptr addrspace(1), ptr %base, align 8\n"
  "  call void @mvmrt_poll(ptr %L)\n"
  "  store ptr addrspace(1) %v, ptr %d, align 8\n"
  "  ret i32 0\n"
  "}\n"
  "attributes #0 = { noimplicitfloat \"frame-pointer\"=\"all\" }\n";

static void warmup(Backend *be) {
  double t0 = phase_clock(be->J);
  LLVMContextRef ctx = LLVMOrcThreadSafeContextGetContext(be->tsctx);
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(
      warmup_ir, sizeof warmup_ir - 1, "mvm_warmup");
  LLVMModuleRef m = NULL;
  LLVMOrcResourceTrackerRef rt;
  LLVMOrcThreadSafeModuleRef tsm;
  LLVMOrcExecutorAddress addr = 0;
  LLVMErrorRef e;
  char *msg = NULL;
  LLVMValueRef poll;
  if (LLVMParseIRInContext(ctx, buf, &m, &msg)) {   /* (takes the buffer) */
    LLVMDisposeMessage(msg);
    return;
  }
  LLVMSetTarget(m, LLVMOrcLLJITGetTripleString(be->jit));
  LLVMSetDataLayout(m, LLVMOrcLLJITGetDataLayoutStr(be->jit));
  if ((e = runpasses(be, m, JIT_PIPELINE)) != NULL ||
      (e = runpasses(be, m, "function(place-safepoints),rewrite-statepoints-for-gc")) != NULL) {
    LLVMConsumeError(e);
    LLVMDisposeModule(m);
    return;
  }
  poll = LLVMGetNamedFunction(m, "gc.safepoint_poll");
  if (poll != NULL) LLVMSetLinkage(poll, LLVMPrivateLinkage);
  if ((e = runpasses(be, m, "globaldce")) != NULL) {
    LLVMConsumeError(e);
    LLVMDisposeModule(m);
    return;
  }
  unhoist(m);
  rt = LLVMOrcJITDylibCreateResourceTracker(LLVMOrcLLJITGetMainJITDylib(be->jit));
  tsm = LLVMOrcCreateNewThreadSafeModule(m, be->tsctx);   /* takes the module */
  if ((e = LLVMOrcLLJITAddLLVMIRModuleWithRT(be->jit, rt, tsm)) != NULL)
    LLVMOrcDisposeThreadSafeModule(tsm);
  else e = LLVMOrcLLJITLookup(be->jit, &addr, "mvm_warmup");   /* compiles and links it */
  if (e != NULL) LLVMConsumeError(e);
  if ((e = LLVMOrcResourceTrackerRemove(rt)) != NULL) LLVMConsumeError(e);
  LLVMOrcReleaseResourceTracker(rt);
  if (be->J->stats > 2)
    fprintf(stderr, "mvm: JIT: warm-up compile %s, %.3f %s\n", addr ? "done" : "failed",
            (phase_clock(be->J) - t0) * 1e3, be->J->stats > 3 ? "M instructions" : "ms CPU");
}

static int compile(void *bs, lua_State *L, Proto *p, int lo, int hi,
                   const JitInline *inl, int ninl, void **entry,
                   void **handle, const char **why) {
  Backend *be = (Backend *)bs;
  JitState *J = be->J;
  LLVMContextRef ctx = LLVMOrcThreadSafeContextGetContext(be->tsctx);
  LLVMModuleRef m;
  LLVMErrorRef e;
  LLVMOrcResourceTrackerRef rt;
  LLVMOrcThreadSafeModuleRef tsm;
  LLVMOrcExecutorAddress addr = 0;
  LLVMValueRef poll;
  char name[96];
  const char *ft;
  int status, failtest;
  unsigned irn[3] = {0, 0, 0}, irb[3] = {0, 0, 0};
  Unit *u;
  funcname(name, sizeof name, be->nextid++, p);
  double t0 = phase_clock(J), t1 = 0, t2 = 0, t2b = 0, t3 = 0;
  failtest = (ft = getenv("MVM_JIT_FAILTEST")) != NULL && *ft != '\0' &&
             atoi(ft) == p->linedefined;
  m = llvmgen_module(ctx, J, L, p, lo, hi, inl, ninl, name, be->host->opnames, &status, why);
  t1 = phase_clock(J);
  if (m == NULL) return status;
  if (J->stats > 2) { irsize(m, &irn[0], &irb[0]); t1 = phase_clock(J); }
  if (J->compiling == p) jit_setinllvm(J, 1);   /* (on the compile thread) */
  LLVMSetTarget(m, LLVMOrcLLJITGetTripleString(be->jit));
  LLVMSetDataLayout(m, LLVMOrcLLJITGetDataLayoutStr(be->jit));
  if (!verified(be, m, "invalid IR", why)) return JIT_ERROR;
  {
    const char *pl = getenv("MVM_JIT_OPT");
    /* A light pipeline: the IR is straight-line loads, stores, tests and
    ** helper calls per bytecode instruction; sroa/early-cse/instcombine/gvn
    ** forward the VM-register stores to their loads and fold the tag tests,
    ** which is what default<O2> achieved here at 3x the compile time.
    ** MVM_JIT_OPT overrides it (a pass pipeline string). */
    if (failtest) pl = "mvm-no-such-pass";   /* test knob: a real LLVM error */
    if (pl == NULL)
      pl = llvmgen_hasloop(p, lo, hi, inl, ninl) ? JIT_PIPELINE : JIT_PIPELINE_NOLOOP;
    if ((e = runpasses(be, m, pl)) != NULL) goto llvmerror;
  }
  if (J->stats > 2) irsize(m, &irn[1], &irb[1]);
  t2 = phase_clock(J);
  if (J->dump) dump("before statepoint rewriting", m);
  if (!llvmgen_check_promoted(m)) {   /* never code with unmapped references */
    LLVMDisposeModule(m);
    *why = "a register was not promoted to SSA";
    return JIT_ERROR;
  }
  /* (noentrypoll between the two) */
  if ((e = runpasses(be, m, "function(place-safepoints)")) != NULL) goto llvmerror;
  noentrypoll(m);
  if ((e = runpasses(be, m, "rewrite-statepoints-for-gc")) != NULL) goto llvmerror;
  /* the poll body is inlined everywhere it is needed; each module defining
  ** it globally would clash in the JITDylib */
  poll = LLVMGetNamedFunction(m, "gc.safepoint_poll");
  if (poll != NULL) LLVMSetLinkage(poll, LLVMPrivateLinkage);
  /* (no simplifycfg here: code generation made the same code without it,
  ** 0.3-0.5% of a compile; docs/decisions/0016 "Session 6: less IR") */
  if ((e = runpasses(be, m, "globaldce")) != NULL) goto llvmerror;
  if (!be->hoist) unhoist(m);
  if (J->dump) dump("after statepoint rewriting", m);
  /* MVM_JIT_VERIFY=1 (tests): the IR code generation gets is checked too */
  if (be->verify && !verified(be, m, "invalid IR after statepoint rewriting", why))
    return JIT_ERROR;
  if (J->stats > 2) irsize(m, &irn[2], &irb[2]);
  t2b = phase_clock(J);
  rt = LLVMOrcJITDylibCreateResourceTracker(LLVMOrcLLJITGetMainJITDylib(be->jit));
  tsm = LLVMOrcCreateNewThreadSafeModule(m, be->tsctx);   /* takes the module */
  if ((e = LLVMOrcLLJITAddLLVMIRModuleWithRT(be->jit, rt, tsm)) != NULL) {
    LLVMOrcDisposeThreadSafeModule(tsm);
    LLVMOrcReleaseResourceTracker(rt);
    *why = errtext(be, e);
    return JIT_ERROR;
  }
  be->lastcode = NULL;
  /* materialises: compile, link, finalize (stack maps registered) */
  if ((e = LLVMOrcLLJITLookup(be->jit, &addr, name)) != NULL || addr == 0) {
    *why = e ? errtext(be, e) : "symbol not found";
    e = LLVMOrcResourceTrackerRemove(rt);
    if (e) LLVMConsumeError(e);
    LLVMOrcReleaseResourceTracker(rt);
    return JIT_ERROR;
  }
  t3 = phase_clock(J);
  if (J->stats > 2)   /* MVM_JIT_STATS=3: where compile time goes */
    fprintf(stderr, "mvm: JIT phases: IR %.3f, optimise %.3f, statepoints %.3f, "
            "code generation and linking %.3f %s\n",
            (t1 - t0) * 1e3, (t2 - t1) * 1e3, (t2b - t2) * 1e3, (t3 - t2b) * 1e3,
            J->stats > 3 ? "M instructions" : "ms CPU");
  if (J->stats > 2)   /* IR instructions/blocks: generated, optimised, to code generation */
    fprintf(stderr, "mvm: JIT IR: %s %u/%u generated, %u/%u optimised, %u/%u to code generation\n",
            name, irn[0], irb[0], irn[1], irb[1], irn[2], irb[2]);
  u = (Unit *)malloc(sizeof *u);
  if (u == NULL) {
    e = LLVMOrcResourceTrackerRemove(rt);
    if (e) LLVMConsumeError(e);
    LLVMOrcReleaseResourceTracker(rt);
    *why = "out of memory";
    return JIT_ERROR;
  }
  u->rt = rt;
  if (J->compiling == p && !jit_setinllvm(J, 0)) {   /* left behind at exit: 'p' is gone */
    *why = "abandoned at exit";
    return JIT_ERROR;
  }
  if (J->dump) dumpcode(be, name, (const uint8_t *)(uintptr_t)addr);
  if (be->perf) {
    size_t size = 0;
    const uint8_t *a = codesection(be, (const uint8_t *)(uintptr_t)addr, &size);
    if (a == NULL) a = (const uint8_t *)(uintptr_t)addr;
    perfmap_add(a, size, p);
  }
  *entry = (void *)(uintptr_t)addr;
  *handle = u;
  return JIT_OK;
 llvmerror:
  *why = errtext(be, e);
  LLVMDisposeModule(m);
  return JIT_ERROR;
}

static void release(void *bs, void *handle) {
  Unit *u = (Unit *)handle;
  LLVMErrorRef e;
  (void)bs;
  if (u == NULL) return;
  if ((e = LLVMOrcResourceTrackerRemove(u->rt)) != NULL)   /* -> mm_destroy */
    LLVMConsumeError(e);
  LLVMOrcReleaseResourceTracker(u->rt);
  free(u);
}

static const MvmJitBackend the_backend = {
  MVM_JIT_ABI, newstate, freestate, compile, release
};

/* the one exported symbol of libmvmjit.so */
__attribute__((visibility("default")))
const MvmJitBackend *mvm_jit_backend(void) {
  return &the_backend;
}
