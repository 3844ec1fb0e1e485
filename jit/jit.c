/*
** jit.c -- the core side of the JIT: lazy loading of the backend
** (libmvmjit.so), the per-VM JitState, the tier-up policy, the entry into
** compiled code, statistics.  No LLVM here: see jitbackend.h.
**
** Loading: the backend is looked for, in order, at $MVM_JIT_LIB, next to
** the object that contains this code (dladdr: the mvm executable or
** libmvm.so, i.e. the build directory or <prefix>/bin -> also ../lib), and
** in the install directory.  One load per process (all VMs share it); a
** failure is reported once on stderr and the VM keeps interpreting.
*/
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "jit.h"
#include "jitbackend.h"
#include "gc.h"
#include "jitffi.h"
#include "table.h"
#include "opcodes.h"
#include "mvm.h"

#ifndef MVM_JIT_INSTALL_DIR
#define MVM_JIT_INSTALL_DIR "/usr/local/lib"
#endif
#define JIT_LIBNAME "libmvmjit.so"

static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;
static const MvmJitBackend *backend;     /* NULL until loaded */
static int load_failed;
static MvmJitHost host;

static void *try_open(const char *path) {
  return path != NULL ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
}

/* directory of the object containing this function, with 'rel' appended */
static int selfpath(char *buf, size_t size, const char *rel) {
  Dl_info info;
  const char *slash;
  if (!dladdr((void *)&selfpath, &info) || info.dli_fname == NULL) return 0;
  slash = strrchr(info.dli_fname, '/');
  if (slash == NULL) return snprintf(buf, size, "./%s", rel) < (int)size;
  return snprintf(buf, size, "%.*s/%s", (int)(slash - info.dli_fname), info.dli_fname, rel)
         < (int)size;
}

static const MvmJitBackend *load_backend(void) {
  const MvmJitBackend *be;
  pthread_mutex_lock(&load_lock);
  if (backend == NULL && !load_failed) {
    char path[4096];
    const char *env = getenv("MVM_JIT_LIB");
    void *h = NULL;
    if (env != NULL && *env != '\0')
      h = try_open(env);
    else {
      if (selfpath(path, sizeof path, JIT_LIBNAME)) h = try_open(path);
      if (h == NULL && selfpath(path, sizeof path, "../lib/" JIT_LIBNAME)) h = try_open(path);
      if (h == NULL) h = try_open(MVM_JIT_INSTALL_DIR "/" JIT_LIBNAME);
    }
    if (h != NULL) {
      mvm_jit_backend_fn get = (mvm_jit_backend_fn)dlsym(h, MVM_JIT_BACKEND_SYM);
      const MvmJitBackend *b = get ? get() : NULL;
      if (b != NULL && b->abi == MVM_JIT_ABI) {
        host.abi = MVM_JIT_ABI;
        host.sizeof_proto = sizeof(Proto);
        host.sizeof_callinfo = sizeof(CallInfo);
        host.sizeof_state = sizeof(lua_State);
        host.sm_parse = sm_parse;
        host.sm_free = sm_free;
        host.sm_register = sm_register;
        host.sm_unregister = sm_unregister;
        host.helpers = jit_helpers(&host.nhelpers);
        host.opnames = mvm_opnames;
        backend = b;
      }
      else {
        fprintf(stderr, "mvm: JIT backend %s is incompatible; running interpreted\n",
                env ? env : JIT_LIBNAME);
        load_failed = 1;
      }
    }
    else {
      const char *e = dlerror();
      fprintf(stderr, "mvm: JIT not available (%s); running interpreted\n",
              e ? e : "libmvmjit.so not found");
      load_failed = 1;
    }
  }
  be = backend;
  pthread_mutex_unlock(&load_lock);
  return be;
}

static uint32_t env_uint(const char *name, uint32_t dflt) {
  const char *s = getenv(name);
  char *end;
  unsigned long v;
  if (s == NULL || *s == '\0') return dflt;
  v = strtoul(s, &end, 10);
  return (*end == '\0' && v > 0 && v <= 0xFFFFFFFFUL) ? (uint32_t)v : dflt;
}

static int env_flag(const char *name) {
  const char *s = getenv(name);
  return s != NULL && *s != '\0' && strcmp(s, "0") != 0;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* the calling thread's CPU time: what a compile costs, whether or not
** other processes on a loaded machine delay it (in wall time a compile
** took 1-4 times its CPU time on the shared 2-core test machine, which
** made the budget and the OSR estimate depend on the load) */
static double cputime(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}


/* the VM thread's split of its CPU time and its page faults: system time
** beyond what '-j off' spends shows the kernel's work on this thread, which
** the compile thread can cause (page faults that wait on the address-space
** lock the compile thread holds while it maps and protects memory) */
static void threadusage(void) {
  struct rusage ru;
  if (getrusage(RUSAGE_THREAD, &ru) != 0) return;
  fprintf(stderr, "mvm: JIT: of which user %.3f s, system %.3f s; %ld page faults\n",
          ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6,
          ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6, ru.ru_minflt + ru.ru_majflt);
}

/* the size under which a function needs more calls to be compiled (call_threshold) */
#define JIT_SMALL_CALLS 120
/* what compiled code saves per bytecode instruction of a call, in ps
** (JIT_INTERP_COST times JIT_GAIN: calls_pay) */
#define JIT_CALL_GAIN 500
/* a call of a Lua function, in instructions of pathgain (compiled callers
** make it inline, without the interpreter's frame set-up) */
#define JIT_LUACALL_GAIN 4
/* the interpreter's time for a Lua call and its return, in bytecode
** instructions (calleework): ~60-80 machine instructions, 5-8 bytecode
** instructions' worth */
#define JIT_LUACALL_WORK 6
/* entering compiled code from the interpreter or from C (jit_run, the
** code's entry switch, prologue and return), in pathgain's units: a
** function whose expected path is no longer runs slower compiled when
** its callers are interpreted (waits_for_caller) */
#define JIT_ENTRY_WORK 5

/* the compile-time budget, in % of the run time (over_budget): compiles
** that make the VM wait, and compiles in the background with a CPU to
** spare (100: none; the compile thread may be busy all the time) */
#define JIT_BUDGET   10
#define JIT_BGBUDGET 100

/* Can the compile thread run beside the VM's?  Not when the process may
** use one CPU only, nor when the machine's other CPUs are busy: a compile
** in the background then takes its time from the program as much as one
** in the VM's thread (word_count.lua -j on was 20% behind -j off at load 8
** on 2 CPUs with the budget and payback for spare CPUs).  The load average
** of the last minute counts this process's thread too, and a run of short
** programs one after the other (a benchmark runner) keeps it about 1: one
** CPU counts as idle while the load stays half a CPU below their number
** (load + 1 <= 2 on 2 CPUs refused the spare CPU at load 1.03-1.9 in a
** benchmark run on an otherwise idle machine: osr.lua compiled 4 of its 7
** regions within the 10% budget, 0.475 -> 0.572 s).  But the average
** lags: for a minute after a busy spell it refused an idle machine
** (load 1.9 falling: osr.lua 0.28 -> 0.45 s, richards.lua 0.33 -> 0.45 s),
** so a high average is looked at again in the number of threads that
** are runnable now (/proc/loadavg's fourth field, this one included). */
static int running_now(void) {
  FILE *f = fopen("/proc/loadavg", "r");
  int n = -1;
  if (f == NULL) return -1;
  if (fscanf(f, "%*f %*f %*f %d/", &n) != 1) n = -1;
  fclose(f);
  return n;
}
static int spare_cpu(void) {
  cpu_set_t set;
  double load;
  int n;
  if (sched_getaffinity(0, sizeof set, &set) != 0 || (n = CPU_COUNT(&set)) < 2) return 0;
  if (getloadavg(&load, 1) == 1 && load > n - 0.5) {
    int r = running_now();
    return r > 0 && r <= n - 1;
  }
  return 1;
}

/* the VM's JitState, created on first use (plain malloc: it is not a Lua
** object and holds no Lua references) */
static JitState *getstate(lua_State *L) {
  global_State *g = G(L);
  JitState *J = (JitState *)g->jit;
  int spare, sparesaid;
  const char *sp;
  if (J == NULL) {
    J = (JitState *)calloc(1, sizeof *J);
    if (J == NULL) return NULL;
    sm_reginit(&J->stackmaps);
    J->g = g;
    J->csid = UINT64_MAX;   /* no thread's (jit_run sets the window) */
    J->stresspoll = gc_isstress(g);
    J->threshold = env_uint("MVM_JIT_THRESHOLD", 1000);
    J->dump = env_flag("MVM_JIT_DUMP");
    J->stats = env_flag("MVM_JIT_STATS") ? (int)env_uint("MVM_JIT_STATS", 1) : 0;
    /* (the VM thread's instructions, for -j on against -j off runs
    ** without the compile thread's) */
    J->vminstr = J->stats > 3 ? jit_instrcounter() : -1;
    J->unsupported = jit_unsupported;
    J->builtins = mvm_mathbuiltins;
    J->strbuiltins = mvm_strbuiltins;
    J->assertfn = mvm_baseassert;
    J->setmtfn = mvm_basesetmt;
    J->watchepoch = &g->watchepoch;
    J->start = now();
    J->background = getenv("MVM_JIT_BACKGROUND") == NULL || env_flag("MVM_JIT_BACKGROUND");
    /* (looked at once; MVM_JIT_SPARE=1 or 0 says instead, and then the
    ** compile thread's CPU time does not change it: compile_now) */
    sparesaid = (sp = getenv("MVM_JIT_SPARE")) != NULL && *sp != '\0';
    spare = J->background && (sparesaid ? env_flag("MVM_JIT_SPARE") : spare_cpu());
    J->budget = env_uint("MVM_JIT_BUDGET", JIT_BUDGET) / 100.0;
    J->bgbudget = getenv("MVM_JIT_BUDGET") == NULL && spare ? JIT_BGBUDGET / 100.0 : J->budget;
    J->bgauto = getenv("MVM_JIT_BUDGET") == NULL && !sparesaid;
    /* MVM_JIT_PAYBACK=0 turns the rule off (the tests' "on" mode) */
    /* (half the payback when compiles run beside the program: over_budget) */
    J->payback = getenv("MVM_JIT_PAYBACK") && strcmp(getenv("MVM_JIT_PAYBACK"), "0") == 0
                 ? 0.0 : env_uint("MVM_JIT_PAYBACK", spare ? 10 : 20) / 100.0;
    /* MVM_JIT_CALLGAIN: picoseconds a compile saves per instruction of a call (calls_pay) */
    J->callgain = env_uint("MVM_JIT_CALLGAIN", JIT_CALL_GAIN) * 1e-12;
    J->smallcalls = getenv("MVM_JIT_SMALL") != NULL ? atoi(getenv("MVM_JIT_SMALL")) : JIT_SMALL_CALLS;
    /* MVM_JIT_PREFETCH=0: LLVM loads at the first compile, not before (prefetch_backend) */
    J->prefetch = getenv("MVM_JIT_PREFETCH") != NULL && !env_flag("MVM_JIT_PREFETCH") ? 2 : 0;
    pthread_mutex_init(&J->lock, NULL);
    pthread_mutex_init(&J->belock, NULL);
    pthread_cond_init(&J->wake, NULL);
    pthread_cond_init(&J->done, NULL);
    g->jit = J;
  }
  return J;
}

/* keep the duration of one compile for the statistics at close (dropped
** silently when out of memory: only statistics) */
static void record_ctime(JitState *J, double t) {
  if (J->nctimes == J->sizectimes) {
    size_t n = J->sizectimes ? 2 * J->sizectimes : 64;
    double *a = (double *)realloc(J->ctimes, n * sizeof *a);
    if (a == NULL) return;
    J->ctimes = a;
    J->sizectimes = n;
  }
  J->ctimes[J->nctimes++] = t;
}

static int cmpdouble(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* MVM_JIT_STATS at close: totals, then the distribution of compile times
** and their share of the run time (since the JIT started) */
static void print_stats(JitState *J) {
  double run = now() - J->start;
  fprintf(stderr, "mvm: JIT: %lu compiled, %lu not supported, %lu failed, "
          "%.3f ms compiling, %lu side exits, %lu OSR entries, %zu code bytes at most, "
          "%zu stack-map records\n",
          J->ncompiled, J->nunsupported, J->nfailed, J->compile_seconds * 1e3,
          J->nexits, J->nosr, J->codepeak, J->stackmaps.n);
  if (J->ndespec)
    fprintf(stderr, "mvm: JIT: %lu functions recompiled with wider types\n", J->ndespec);
  if (J->ninlined)
    fprintf(stderr, "mvm: JIT: inlined %lu call sites\n", J->ninlined);
  if (J->nlibrary)
    fprintf(stderr, "mvm: JIT: %lu functions left interpreted as library-bound\n",
            J->nlibrary);
  if (J->nswitching)
    fprintf(stderr, "mvm: JIT: %lu times a function was left interpreted: it switches "
            "coroutines\n", J->nswitching);
  if (J->bs != NULL)
    fprintf(stderr, "mvm: JIT: loading LLVM and starting its session took %.3f ms\n",
            J->startup_seconds * 1e3);
  fprintf(stderr, "mvm: JIT: collector walked %zu compiled frames: %zu reference slots, "
          "%zu relocated\n", J->nwalked, J->nslots, J->nmoved);
  if (J->stresspoll)
    fprintf(stderr, "mvm: JIT: %zu stress collections at safepoint polls\n", J->stresspolls);
  /* (with compiles in the background, on an otherwise idle machine the
  ** run's wall time is about this thread's CPU time) */
  fprintf(stderr, "mvm: JIT: the VM's thread ran %.3f s of CPU; %.3f ms waiting for the "
          "compile thread to stop\n", cputime(), J->closewait * 1e3);
  threadusage();
  if (J->vminstr >= 0) {
    long long n = 0;
    if (read(J->vminstr, &n, sizeof n) == (ssize_t)sizeof n)
      fprintf(stderr, "mvm: JIT: the VM's thread ran %.3f M user-mode instructions since "
              "the JIT's start\n", (double)n * 1e-6);
  }
  if (J->orphaned)
    fprintf(stderr, "mvm: JIT: the compile thread was left in LLVM at exit\n");
  fprintf(stderr, "mvm: JIT: policy: budget %.0f%% (%.0f%% in the background), payback %.0f%%\n",
          J->budget * 100, J->bgbudget * 100, J->payback * 100);
  if (J->nctimes > 0) {
    size_t n = J->nctimes;
    double med;
    qsort(J->ctimes, n, sizeof *J->ctimes, cmpdouble);
    med = n % 2 ? J->ctimes[n / 2] : (J->ctimes[n / 2 - 1] + J->ctimes[n / 2]) / 2;
    fprintf(stderr, "mvm: JIT: compile time per function: median %.3f ms, max %.3f ms "
            "(%zu compiles); compiling took %.1f%% of %.3f s run time\n",
            med * 1e3, J->ctimes[n - 1] * 1e3, n,
            run > 0 ? 100.0 * J->compile_seconds / run : 0.0, run);
  }
}


/* The OSR policy's model (osr_pays).  LLVM's cost per bytecode
** instruction before any compile (code generation dominates: 0.3-0.6 ms
** measured on the 2-core test machine), weighted as JIT_PRIOR_WEIGHT
** instructions against the compiles timed since; the interpreter's time
** per bytecode instruction of a loop when nothing else (library calls,
** allocation, the collector) is in the way; the part of the interpreter's
** time compiled code saves (mandelbrot, fannkuch, osr.lua: about half);
** the longest gap between two OSR tests of a proto that still counts as
** time spent in it. */
#define JIT_PRIOR_COST   0.0004
#define JIT_PRIOR_WEIGHT 300
#define JIT_INTERP_COST  1e-9
#define JIT_GAIN         0.5
#define JIT_OSR_MAXGAP   1e-3
/* a call of a C library function, in bytecode instructions of the
** interpreter's time (string.find, string.sub, table.insert: 30-300 ns
** where an interpreted instruction takes about 1), and the least share of
** a function's time, so estimated, for which a compile is worth it
** (interp_share) */
#define JIT_OSR_SKIP     15
/* a loop's type feedback starts this many OSR tests (at the rate of the
** last one) before its payback (osr_pays) */
#define JIT_FB_TESTS     4
/* A loop compile's estimate (osr_pays, ends_first) is in units of LLVM
** work: each bytecode instruction 1, a table access (the GET and SET ops, SELF)
** JIT_UNITS_TABLE more (its inline lookup, hint, slow path and barrier),
** a loop instruction (FORPREP, FORLOOP, TFORPREP, TFORLOOP) JIT_UNITS_LOOP
** more (OSR entry, SSA homes and phis), and JIT_UNITS_FIXED per compile.
** Fitted (least squares of relative error) to the compile times of 246
** compiles of bench/ and bench/extra with `-j on` and MVM_JIT_PAYBACK=0:
** 0.30 ms + 1.36 per table access + 3.3 per loop instruction + 2.6 fixed;
** on 122 compiles of bench/extra2 left out of the fit the estimate's
** mean |log(est/actual)| is 0.27 where one cost per instruction (and a
** fixed one) gave 0.41 (docs/decisions/0010, "Session 12").  The scale
** is learnt (cost_per_unit), the weights are not. */
#define JIT_UNITS_TABLE  4.5
#define JIT_UNITS_LOOP   11.0
#define JIT_UNITS_FIXED  8.5
/* the prior cost of a unit, weighted as JIT_PRIOR_WEIGHT units */
#define JIT_PRIOR_UNIT   0.0003
/* the least time a loop of a main chunk runs before its region's compile
** (osr_pays): tables.lua's loops run 10-20 ms each, and once the chunk's
** earlier loops paid, each new one was compiled at its first test and
** ended before its code arrived */
#define JIT_REGION_MINRUN 0.005
/* LLVM is loaded when a loop's compile is this many seconds away
** (osr_pays): about twice what loading it takes */
#define JIT_PREFETCH_LEAD 0.025
#define JIT_CCALL_COST   30
#define JIT_MIN_SHARE    0.3
/* the least share of a main chunk's loop's time, measured (osr_pays:
** its time per back-edge against its interpreted work), for which its
** region is compiled.  0.2 was tried in session 13: word_count.lua's
** generating loop (0.23-0.31) was then compiled in every run instead of
** one in three (its VM thread 0.25 -> 0.22 s), but so was tables.lua's
** records loop (0.30-0.47, 4 rounds of ~4.5 ms), whose 20 ms compile
** arrived after it ended: -j on went 11% behind -j off on tables.  Since
** ends_first sees such loops end (session 21: loopcount of for and ipairs
** loops), 0.2 again (session 22): tables -j on 0.165 -> 0.153 s (-j off
** 0.142), word_count's region compiled in every run (VM thread 0.30-0.41
** s; at 0.3, 0.31-0.59, the loop's share measured 0.2-0.3 in the runs
** that left it interpreted), knuc.lua's counting loop compiled (0.414 ->
** 0.285 s; -j off 0.488); interleaved medians. */
#define JIT_LOOP_SHARE   0.2
/* the same for a loop that calls nothing and allocates nothing (pureloop):
** its time is the interpreter's, unless its reads miss the caches */
#define JIT_PURE_SHARE   0.12
/* a function or loop switches coroutines too often to gain from a
** compile with a lua_resume per this many hotcount units (calls and
** back-edges: calllook; back-edges of one loop: jit_osr) */
#define JIT_SWITCH_CALLS 8
#define JIT_SWITCH_LOOP  2
/* OSR looks at a proto whose loop switches: one per this many expiries of
** the back-edge count in it (vm.c BACKEDGE) */
#define JIT_SWITCH_SPACING 16

/* estimated seconds of LLVM per bytecode instruction: the compiles so far,
** with the prior as JIT_PRIOR_WEIGHT instructions of them (the first
** compiles carry a fixed cost per function that small ones make look big
** per instruction).  Under J->lock. */
static double cost_per_instr(JitState *J) {
  return (J->compile_seconds + JIT_PRIOR_COST * JIT_PRIOR_WEIGHT) /
         (J->instrs_compiled + JIT_PRIOR_WEIGHT);
}

/* the same for a unit of compileunits (the loop compiles' estimate) */
static double cost_per_unit(JitState *J) {
  return (J->compile_seconds + JIT_PRIOR_UNIT * JIT_PRIOR_WEIGHT) /
         (J->units_compiled + JIT_PRIOR_WEIGHT);
}

/* the units of LLVM work of compiling p's instructions lo..hi (above) */
static double compileunits(const Proto *p, int lo, int hi) {
  double u = JIT_UNITS_FIXED;
  int i;
  for (i = lo; i <= hi; i++) {
    switch (GET_OPCODE(p->code[i])) {
      case OP_GETTABUP: case OP_GETTABLE: case OP_GETI: case OP_GETFIELD: case OP_SELF:
      case OP_SETTABUP: case OP_SETTABLE: case OP_SETI: case OP_SETFIELD:
        u += 1 + JIT_UNITS_TABLE; break;
      case OP_FORPREP: case OP_FORLOOP: case OP_TFORPREP: case OP_TFORLOOP:
        u += 1 + JIT_UNITS_LOOP; break;
      default: u += 1;
    }
  }
  return u;
}

/* Do "on" compiles go to the compile thread?  Not with
** MVM_JIT_BACKGROUND=0, nor once ffi is in use: they then run in the
** VM's thread, which waits for them (maybecompile). */
static int inbackground(JitState *J) {
  return J->background && J->g->ffijit == NULL;
}

/* Does the compile thread have a CPU of its own?  The policy records it
** as the background budget at JIT_BGBUDGET (getstate from spare_cpu or
** MVM_JIT_SPARE, raised by compile_now when a compile had a CPU to
** itself); J->lock held. */
static int sparecpu(JitState *J) {
  return inbackground(J) && J->bgbudget >= JIT_BGBUDGET / 100.0;
}

/* Over the compile-time budget?  The first compile is always allowed.
** (Neither loading LLVM, a one-time cost, nor the compiles queued
** meanwhile are counted: deltablue.lua and richards.lua gain from their
** dozens of methods, which reach the threshold together.)  A compile that
** makes the VM wait (no compile thread, or ffi in use: compile_now) costs
** the program its time, JitState.budget; one in the background on a CPU
** of its own costs it nothing but the wait for its code, and a budget
** that kept it waiting lost more than the compile: at 10%, spectral_norm's
** Atv was refused until its loops were over (0.24 s; 0.14 s at 50%),
** richards' methods waited (0.57 -> 0.48 s).  At 50% the compile thread
** still sat idle while richards' hot methods waited (96-158 ms of a
** 0.42 s run): with a CPU of its own no budget is kept (JIT_BGBUDGET
** 100), and the queue hands out the hottest function first (nextqueued). */
static int over_budget(JitState *J) {
  int over;
  double budget = inbackground(J) ? J->bgbudget : J->budget;
  pthread_mutex_lock(&J->lock);
  over = J->ncompiled > 0 && J->compile_seconds > budget * (now() - J->start);
  pthread_mutex_unlock(&J->lock);
  return over;
}

/* MVM_JIT_STATS=5: a compile's time and the count of each opcode it
** compiled (in opcode order), the samples compileunits' weights were
** fitted to: "mvm: JIT cost: MS INLINED N0 N1 ..." */
static void costsample(const Proto *p, int lo, int hi, double dt, unsigned long inlined) {
  int h[NUM_OPCODES] = {0}, k;
  for (k = lo; k <= hi; k++) h[GET_OPCODE(p->code[k])]++;
  fprintf(stderr, "mvm: JIT cost: %.4f %lu", dt * 1e3, inlined);
  for (k = 0; k < NUM_OPCODES; k++) fprintf(stderr, " %d", h[k]);
  fprintf(stderr, "\n");
}

/* The result of one compile: the code becomes the proto's (a unit of
** J->units), or the proto stays interpreted.  Under J->lock, since the
** compile thread installs its results while the VM runs: a Proto.jitcode
** store is one aligned word, made after the code is finalized (its stack
** maps registered), so the VM's thread sees JIT_QUEUED or a complete
** entry. */
static void install(JitState *J, Proto *p, int lo, int hi, int r, void *entry, void *handle,
                    const char *why, double dt, JitInline *inl, int ninl, unsigned long inlined) {
  JitUnit *u = NULL;
  char region[48] = "", inlines[48] = "";
  pthread_mutex_lock(&J->lock);
  J->inllvm = 0;
  if (J->compinl == inl) { J->compinl = NULL; J->ncompinl = 0; }   /* the unit or free() takes them */
  if (J->orphaned) {   /* lua_close went on without us: 'p' is gone */
    pthread_mutex_unlock(&J->lock);
    free(inl);
    return;
  }
  {   /* what was compiled: the region lo..hi, or all of p (lo < 0) */
    int a = lo >= 0 ? lo : 0, b = lo >= 0 ? hi : p->sizecode - 1;
    J->compile_seconds += dt;
    J->instrs_compiled += b - a + 1;
    J->units_compiled += compileunits(p, a, b);
    if (J->stats > 4 && r == JIT_OK) costsample(p, a, b, dt, inlined);
  }
  if (J->stats) record_ctime(J, dt);
  if (lo >= 0) snprintf(region, sizeof region, " region %d-%d", lo, hi);
  if (inlined > 0) snprintf(inlines, sizeof inlines, ", %lu calls inline", inlined);
  if (J->stats > 1)
    fprintf(stderr, "mvm: JIT: %s:%d (%d instructions)%s: %s%s, %.3f ms, %zu code bytes held%s, "
            "at %.1f ms\n",
            p->source ? getstr(p->source) : "?", p->linedefined, p->sizecode, region,
            r == JIT_OK ? "compiled" : (why ? why : "failed"), inlines, dt * 1e3, J->codebytes,
            J->hasthread && J->compiling == p ? " (in the background)" : "",
            (now() - J->start) * 1e3);
  if (r == JIT_OK && (u = (JitUnit *)malloc(sizeof *u)) != NULL) {
    J->ncompiled++;
    if (J->codebytes > J->codepeak) J->codepeak = J->codebytes;
    u->p = p; u->handle = handle; u->lo = lo; u->hi = hi; u->entry = entry;
    u->inl = inl; u->ninl = ninl;   /* marked while the code lives */
    inl = NULL;
    if (lo >= 0) {   /* p itself stays without code (see JitState.regions) */
      u->next = J->regions;
      __atomic_store_n(&J->regions, u, __ATOMIC_RELEASE);
      entry = NULL;
    }
    else {
      u->next = J->units;
      J->units = u;
    }
    __atomic_store_n(&p->jitcode, entry, __ATOMIC_RELEASE);
  }
  else {
    if (r == JIT_UNSUPPORTED) J->nunsupported++;
    else if (r != JIT_OK) {
      /* LLVM failed on this function: it stays interpreted, the rest of
      ** the program is not affected */
      J->nfailed++;
      if (J->dump || J->stats)
        fprintf(stderr, "mvm: JIT: warning: compiling %s:%d failed (%s); it stays interpreted\n",
                p->source ? getstr(p->source) : "?", p->linedefined, why ? why : "?");
    }
    __atomic_store_n(&p->jitcode, JIT_NOCODE, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&J->lock);
  free(inl);   /* no code holds them (the compile thread's copy: see compile_thread) */
  if (r == JIT_OK && u == NULL) {   /* out of memory for the unit: drop the code */
    pthread_mutex_lock(&J->belock);
    backend->release(J->bs, handle);
    pthread_mutex_unlock(&J->belock);
  }
}

/* Load the backend and LLVM and make the VM's session, once (1 when
** there is one).  40-100 ms of dlopen, relocations and LLJIT creation:
** with background compiles the compile thread does it, so the program
** goes on interpreting meanwhile.  A failure is reported once and the VM
** keeps interpreting (J->broken). */
static int start_backend(JitState *J) {
  int ok;
  pthread_mutex_lock(&J->belock);
  if (J->bs == NULL && !__atomic_load_n(&J->broken, __ATOMIC_ACQUIRE)) {
    const char *err = NULL;
    const MvmJitBackend *be;
    double t0 = now();
    be = load_backend();
    if (be != NULL) J->bs = be->newstate(J, &host, &err);
    J->startup_seconds = now() - t0;
    if (J->stats > 2)
      fprintf(stderr, "mvm: JIT: LLVM loaded and its session started at %.1f ms (%.1f ms)\n",
              (now() - J->start) * 1e3, J->startup_seconds * 1e3);
    if (J->bs == NULL) {
      if (be != NULL)
        fprintf(stderr, "mvm: JIT initialisation failed (%s); running interpreted\n",
                err ? err : "?");
      __atomic_store_n(&J->broken, 1, __ATOMIC_RELEASE);
    }
  }
  ok = J->bs != NULL;
  pthread_mutex_unlock(&J->belock);
  return ok;
}

/* run the backend on 'p' ('L' NULL on the compile thread: no hints taken
** from the running frame) and install the result */
static void compile_now(JitState *J, lua_State *L, Proto *p, int lo, int hi,
                        JitInline *inl, int ninl) {
  void *entry = NULL, *handle = NULL;
  const char *why = NULL;
  char whybuf[256];
  double t0;
  int r;
  unsigned long inlined;
  double w0;
  pthread_mutex_lock(&J->belock);
  inlined = J->ninlined;   /* (counted by the backend, under belock) */
  t0 = cputime();
  w0 = now();
  r = backend->compile(J->bs, L, p, lo, hi, inl, ninl, &entry, &handle, &why);
  t0 = cputime() - t0;
  w0 = now() - w0;
  /* The spare CPU is judged once, at the JIT's start (spare_cpu): one look
  ** at the load, which a process just ended or a daemon waking up can
  ** tip (bench/run's deltablue compiled 4 functions instead of 30 in one
  ** of its runs).  A background compile of 2 ms or more that had a CPU
  ** to itself (its CPU time at least 80% of its wall time) says there is
  ** one after all: the background budget rises to JIT_BGBUDGET.  (It
  ** never falls: spare_cpu's yes was right on an idle machine.) */
  if (L == NULL && J->bgauto && t0 >= 0.002 && t0 >= 0.8 * w0 &&
      J->bgbudget < JIT_BGBUDGET / 100.0) {
    pthread_mutex_lock(&J->lock);   /* (over_budget reads it there) */
    J->bgbudget = JIT_BGBUDGET / 100.0;
    pthread_mutex_unlock(&J->lock);
    if (J->stats > 1)
      fprintf(stderr, "mvm: JIT: the compile thread has a CPU of its own: no budget\n");
  }
  if (why != NULL) {   /* may point into the backend's state: copy it */
    snprintf(whybuf, sizeof whybuf, "%s", why);
    why = whybuf;
  }
  inlined = J->ninlined - inlined;
  pthread_mutex_unlock(&J->belock);
  install(J, p, lo, hi, r, entry, handle, why, t0, inl, ninl, inlined);
}

/* start_backend on the compile thread, in LLVM only meanwhile: 1 if the
** backend is there, 0 if not, -1 if lua_close left the thread behind
** meanwhile (JitState.orphaned: the proto it took is gone) */
static int startthread_backend(JitState *J) {
  int ok;
  if (J->bs != NULL) return 1;
  jit_setinllvm(J, 1);   /* (wakes a jit_stopthread waiting for it) */
  ok = start_backend(J);
  return jit_setinllvm(J, 0) ? ok : -1;
}

/* Take the next proto to compile off the queue (J->lock held; not
** empty).  Loops that run now (OSR, 'first') go first, in their order.
** Of the others, the one called most often per second since it was
** queued: the compile thread is the bottleneck when many functions get
** hot together (richards.lua queues 7 within 10 ms, 10-28 ms of LLVM
** each), and in the order asked the hottest could wait for all the
** others.  Calls of a very small function are worth less (its compile's
** fixed cost, ~3 instructions' worth: 0016). */
static JitQueued *nextqueued(JitState *J) {
  JitQueued **pq, **best = &J->qhead, *q;
  double t = now(), bestrate = -1.0;
  if (!J->qhead->first) {
    for (pq = &J->qhead; *pq != NULL; pq = &(*pq)->next) {
      const Proto *p = (*pq)->p;
      uint32_t heat = __atomic_load_n(&p->hotcount, __ATOMIC_RELAXED);
      double age = t - (*pq)->t0, rate;
      rate = heat > (*pq)->heat0 ? (double)(heat - (*pq)->heat0) : 0.0;
      rate /= age > 1e-4 ? age : 1e-4;
      rate *= p->sizecode / (p->sizecode + 3.0);
      if (rate > bestrate) { bestrate = rate; best = pq; }
    }
  }
  q = *best;
  *best = q->next;
  if (J->qtail == q) {   /* the new tail: the entry before it, if any */
    JitQueued *r;
    J->qtail = NULL;
    for (r = J->qhead; r != NULL; r = r->next) J->qtail = r;
  }
  return q;
}

/* The compile thread: compiles queued protos one at a time.  A queued
** proto cannot be freed meanwhile: jit_freeproto takes it off the queue,
** or waits for the compile of it to finish. */
static void *compile_thread(void *ud) {
  JitState *J = (JitState *)ud;
  pthread_mutex_lock(&J->lock);
  while (!J->stop) {
    JitQueued *q = J->qhead;
    int lo, hi, r;
    if (q == NULL && J->prefetch == 1) {   /* warm code: load LLVM now */
      J->prefetch = 2;
      pthread_mutex_unlock(&J->lock);
      startthread_backend(J);
      pthread_mutex_lock(&J->lock);
      continue;
    }
    if (q == NULL) {
      pthread_cond_wait(&J->wake, &J->lock);
      continue;
    }
    q = nextqueued(J);
    J->compiling = q->p;
    /* the callees stay marked (compinl) until install() hands them to
    ** the unit under J->lock: compile_now reads them meanwhile */
    J->compinl = q->inl; J->ncompinl = q->ninl;
    lo = q->lo; hi = q->hi;
    free(q);
    pthread_mutex_unlock(&J->lock);
    r = startthread_backend(J);
    if (r > 0)
      compile_now(J, NULL, J->compiling, lo, hi, J->compinl, J->ncompinl);
    else if (r == 0)
      __atomic_store_n(&J->compiling->jitcode, JIT_NOCODE, __ATOMIC_RELEASE);
    pthread_mutex_lock(&J->lock);
    free(J->compinl);   /* NULL unless the backend could not start */
    J->compinl = NULL; J->ncompinl = 0;
    J->compiling = NULL;
    pthread_cond_broadcast(&J->done);
  }
  pthread_mutex_unlock(&J->lock);
  return NULL;
}

/* start the compile thread if it is not running (J->lock held); 0 if
** threads cannot be had here: compiles then run in the VM's thread */
static int startthread(JitState *J) {
  if (!J->hasthread) {
    if (pthread_create(&J->thread, NULL, compile_thread, J) != 0) {
      J->background = 0;
      return 0;
    }
    /* (named for top -H, perf and gdb, by its creator: the name is there
    ** before the thread first runs, which on a loaded machine was after
    ** a short program's end; a host's own thread names are not touched:
    ** this thread is ours) */
    pthread_setname_np(J->thread, "mvm-jit");
    J->hasthread = 1;
  }
  return 1;
}

/* Queue 'p' for the compile thread (started on first use); the VM goes on
** interpreting it meanwhile.  0 if that is not possible (then the caller
** compiles it right away).  A compile for a loop that runs now ('first':
** OSR) goes before those asked for by calls: its function may never be
** called again, and until its code arrives the loop runs interpreted
** (spectral_norm's Av waited for the compile of A, which Av inlines). */
static int enqueue(JitState *J, Proto *p, int lo, int hi, JitInline *inl, int ninl, int first) {
  JitQueued *q = (JitQueued *)malloc(sizeof *q);
  if (q == NULL) return 0;
  q->p = p; q->lo = lo; q->hi = hi; q->first = first;
  q->inl = inl; q->ninl = ninl;
  q->next = NULL;
  q->heat0 = p->hotcount;
  q->t0 = now();
  pthread_mutex_lock(&J->lock);
  if (!startthread(J)) {
    pthread_mutex_unlock(&J->lock);
    free(q);
    return 0;
  }
  p->jitcode = JIT_QUEUED;
  if (first) {   /* after the other loops' compiles */
    JitQueued **pq = &J->qhead;
    while (*pq != NULL && (*pq)->first) pq = &(*pq)->next;
    q->next = *pq;
    *pq = q;
    if (q->next == NULL) J->qtail = q;
  }
  else {
    if (J->qtail) J->qtail->next = q; else J->qhead = q;
    J->qtail = q;
  }
  pthread_cond_signal(&J->wake);
  pthread_mutex_unlock(&J->lock);
  return 1;
}

static int library_bound(JitState *J, lua_State *L, Proto *p);
static int predict_inlines(lua_State *L, Proto *p, JitInline **out);
static int calls_pay(JitState *J, lua_State *L, Proto *p);
static int switching(JitState *J, Proto *p, const Instruction *hdr, uint32_t work);

/* Code half-way to a compile (where its type feedback starts) is likely to
** be compiled soon: with background compiles, the compile thread loads
** LLVM now, so that the first compile does not wait the 40-100 ms that
** takes while the program runs interpreted (28% of fannkuch's and 22% of
** nbody's samples were in the interpreter, mostly before their first
** compiled code arrived).
** Library-bound functions are declined before (calllook), so they do not
** load LLVM. */
static void prefetch_backend(JitState *J, lua_State *L, Proto *p);

/* the interpreter records operand kinds of 'p' from now on (or from its
** next entry or return from a Lua call: vm.c reads p->feedback there) */
static void start_feedback(lua_State *L, Proto *p) {
  if (p->feedback == NULL && p->jitnospec == 0) {
    JitState *J = (JitState *)G(L)->jit;
    p->feedback = (uint8_t *)mvm_memtryrealloc(L, NULL, 0, (size_t)p->sizecode);
    if (p->feedback != NULL) memset(p->feedback, 0, (size_t)p->sizecode);
    if (J != NULL && J->stats > 2)
      fprintf(stderr, "mvm: JIT: %s:%d (%d instructions): type feedback starts at "
              "hotcount %u\n", p->source ? getstr(p->source) : "?", p->linedefined,
              p->sizecode, p->hotcount);
  }
  prefetch_backend((JitState *)G(L)->jit, L, p);
}

/* "on": calls of 'p' (no code, below the threshold) reached p->jitlook.
** The look is staged, so that the interpreter pays nothing per call in
** between (vm.c OP_CALL tests jitlook only): at a quarter of the
** threshold the coroutine switches are sampled; at half of it 'p' is
** judged before its type feedback starts (recording costs 3% of its
** time): a function that switches coroutines every few calls or loop
** iterations (a generator's callback, a recursive generator: its
** compiled frames would be unwound at every yield and re-entered one by
** one) starts its hotness over, and a library-bound one stays
** interpreted for good (library_bound); then the interpreter records
** operand kinds (vm.c FEEDBACK) for the compiler's speculation until the
** threshold. */
static double calls_need(JitState *J, lua_State *L, Proto *p);
static int waits_for_caller(JitState *J, lua_State *L, Proto *p);
static void notyet(JitState *J, const Proto *p, double need);
static int feedback_due(JitState *J, lua_State *L, Proto *p, double need);
static double feedback_at(JitState *J, double need);
static uint32_t lookat(double hot);
static uint32_t call_threshold(JitState *J, const Proto *p);
static void calllook(lua_State *L, JitState *J, Proto *p) {
  uint32_t quarter = J->threshold / 4, half = J->threshold / 2, ct;
  double need;
  if (p->hotcount < quarter) {
    p->jitlook = quarter;
    return;
  }
  if (p->hotcount < half) {
    if (J->payback > 0) switching(J, p, p->code, JIT_SWITCH_CALLS);   /* the sample */
    p->jitlook = half;
    return;
  }
  if (p->feedback == NULL && J->payback > 0) {
    /* (a program that never resumed a coroutine does not switch) */
    int sw = G(L)->nresumes > 0 ? switching(J, p, p->code, JIT_SWITCH_CALLS) : 0;
    if (sw < 0 && p->hotcount < half + quarter) {
      p->jitlook = half + quarter;   /* the sample was lost (a hash collision) */
      return;
    }
    if (sw > 0) {
      J->nswitching++;
      if (J->stats > 1)
        fprintf(stderr, "mvm: JIT: %s:%d (%d instructions): not compiled yet: "
                "switches coroutines\n",
                p->source ? getstr(p->source) : "?", p->linedefined, p->sizecode);
      p->hotcount = 0;
      p->jitlook = quarter;
      return;
    }
    if (library_bound(J, L, p)) return;
    if (waits_for_caller(J, L, p)) return;   /* (no feedback, no LLVM for it) */
    /* (a compile that comes later than the threshold: the feedback waits,
    ** feedback_at) */
    need = calls_need(J, L, p);
    ct = call_threshold(J, p);
    if (need < ct) need = ct;
    if (!feedback_due(J, L, p, need)) {
      /* (LLVM loads now all the same: prefetch_backend) */
      prefetch_backend(J, L, p);
      notyet(J, p, need);
      p->jitlook = lookat(feedback_at(J, need) > J->threshold ? feedback_at(J, need) : J->threshold);
      return;
    }
  }
  start_feedback(L, p);
  p->jitlook = J->threshold;
}

static void osrregion(const Proto *p, const Instruction *hdr, int *lo, int *hi);
static unsigned osrhash(const void *key);

/* Calls a function needs before a call-count compile ("on"): small ones
** need more.  A compile's LLVM time grows with the function's size (15 M
** instructions fixed plus ~4.6 M per bytecode instruction, deltablue
** -j eager), but what compiled code saves per call grows less than that
** for small functions: their calls, returns and table lookups cost about
** as much either way.  With JIT_SMALL_CALLS a 10-instruction function
** waits for 13x the threshold, a 100-instruction one 2.2x: deltablue.lua
** compiles 15 functions instead of 32, in 420 instead of 620 ms, and the
** run's instructions (all threads) fall: deltablue 14.59 -> 13.67 G,
** richards 11.82 -> 11.02 G (0016).  A function that is
** really hot reaches the higher count within milliseconds.  Off with the
** payback rules (MVM_JIT_PAYBACK=0); MVM_JIT_SMALL overrides the factor. */
static uint32_t call_threshold(JitState *J, const Proto *p) {
  double t = (double)J->threshold;
  if (J->payback > 0) t += t * J->smallcalls / (p->sizecode > 0 ? p->sizecode : 1);
  return t < (double)UINT32_MAX ? (uint32_t)t : UINT32_MAX - 1;
}

/* the OSR policy looks at p's loops again only JIT_OSR_SKIP tests later */
static void osrskip(JitState *J, Proto *p) {
  p->jitedges = JIT_OSR_SKIP;
  J->osrp[osrhash(p)].span = JIT_OSR_SKIP + 1;
}

/* jit_maybecompile; 'osr': asked at a loop back-edge (jit_osr), whose
** policy measured the loop's share already; 'region' (not NULL): compile
** only the OSR region of the loop at that header (jit_osr) */
static void maybecompile(lua_State *L, Proto *p, int osr, const Instruction *region) {
  global_State *g = G(L);
  JitState *J = (JitState *)g->jit;
  const char *why = NULL;
  int lo = -1, hi = -1, ninl;
  JitInline *inl = NULL;
  if (g->jitmode == MVM_JIT_OFF) return;
  if (J == NULL && (J = getstate(L)) == NULL) return;   /* no LLVM yet: a malloc */
  if (g->jitmode == MVM_JIT_ON && p->hotcount < J->threshold) {
    /* (asked at a back-edge, osr_pays decides when the feedback starts:
    ** recording costs 3% of a loop's time, and a loop may never pay for
    ** a compile) */
    if (!osr) calllook(L, J, p);
    return;
  }
  if (g->jitmode == MVM_JIT_ON && !osr && waits_for_caller(J, L, p)) return;
  if (g->jitmode == MVM_JIT_ON && !osr && p->hotcount < call_threshold(J, p)) {
    /* (a small function; its feedback starts half the threshold before) */
    uint32_t ct = call_threshold(J, p);
    p->jitlook = feedback_due(J, L, p, ct) ? ct : (uint32_t)feedback_at(J, ct);
    return;
  }
  if (__atomic_load_n(&J->broken, __ATOMIC_ACQUIRE)) {
    p->jitcode = JIT_NOCODE;
    p->jitlook = UINT32_MAX;
    return;
  }
  if (g->jitmode == MVM_JIT_ON && over_budget(J)) {
    /* Over the compile-time budget: LLVM needs milliseconds per function,
    ** so a program with many warm functions would spend more time
    ** compiling than it saves.  Ask again after more calls: the functions
    ** that are still hot then get compiled as the budget grows.  A loop
    ** asks again at a later test, its sample going on (osr_pays): a
    ** hotcount set back restarted the loop's entry, whose counts then
    ** began mid-loop (bench/extra2/heat.lua's wave loop, refused once
    ** under a 10% budget, then "ended first" at 280 tests: its largest
    ** inner count seen was 383 of 4898) */
    if (J->stats > 2)
      fprintf(stderr, "mvm: JIT: %s:%d: not compiled yet: over the compile budget\n",
              p->source ? getstr(p->source) : "?", p->linedefined);
    if (osr) {
      osrskip(J, p);
      return;
    }
    p->hotcount = J->threshold / 2;
    p->jitlook = J->threshold;
    return;
  }
  if ((why = jit_unsupported(p)) != NULL) {   /* decided without loading LLVM */
    J->nunsupported++;
    if (J->stats > 1)
      fprintf(stderr, "mvm: JIT: %s:%d (%d instructions): not compiled: %s\n",
              p->source ? getstr(p->source) : "?", p->linedefined, p->sizecode, why);
    p->jitcode = JIT_NOCODE;
    p->jitlook = UINT32_MAX;
    return;
  }
  if (g->jitmode == MVM_JIT_ON && J->payback > 0 && !osr && library_bound(J, L, p))
    return;
  if (g->jitmode == MVM_JIT_ON && J->payback > 0 && !osr && !calls_pay(J, L, p))
    return;
  if (region != NULL) osrregion(p, region, &lo, &hi);
  p->jitlook = 0;   /* from now on every call looks for the code */
  ninl = predict_inlines(L, p, &inl);
  /* in the background, the compile thread loads LLVM (start_backend):
  ** the program goes on meanwhile */
  if (g->jitmode == MVM_JIT_ON && inbackground(J) && enqueue(J, p, lo, hi, inl, ninl, osr))
    return;
  if (!start_backend(J)) {
    free(inl);
    p->jitcode = JIT_NOCODE;
    return;
  }
  compile_now(J, L, p, lo, hi, inl, ninl);
}

void jit_maybecompile(lua_State *L, Proto *p) {
  maybecompile(L, p, 0, NULL);
}

/* ---------------------------------------------------------------------
** Library-bound code.  A call of a C function (string.find, table.insert,
** string.format...) costs as much as dozens of bytecode instructions, and
** compiled code makes it no faster: code whose calls are mostly C calls
** gains little from a compile (json.lua, strings.lua).  Which calls go to
** C is read from the values the callee registers are loaded from now: an
** upvalue (local find = string.find), a global, or a field of either
** (string.format); a method call whose name is one of the string
** library's (s:sub, s:gsub: taken as a string method, the common case);
** other method calls, a local, a call's result are not followed (taken
** as Lua calls: the compile stays allowed).  A call of a Lua function
** that stays interpreted (JIT_NOCODE: library-bound itself, or not
** supported) counts as a C call: its time is not made faster either.
** --------------------------------------------------------------------- */

/* a field of table value 't' with constant string key K[kidx], or NULL */
static const Value *kfield(const Proto *p, Value t, int kidx) {
  const Value *v;
  if (!v_istable(t) || kidx >= p->sizek || !v_isstring(p->k[kidx])) return NULL;
  v = tab_getstr(v_tab(t), v_str(p->k[kidx]));
  return v == &tab_absentkey ? NULL : v;
}

/* the value register 'reg' is loaded with by the last instruction before
** 'pc' that writes it (a few instructions back, following MOVE, GETFIELD
** once), or NULL when it is not a constant-like source */
static const Value *regsource(const Table *strlib, const LClosure *cl, int pc, int reg,
                              int depth) {
  const Proto *p = cl->p;
  int i, stop = pc > 12 ? pc - 12 : 0;
  for (i = pc - 1; i >= stop; i--) {
    Instruction in = p->code[i];
    OpCode op = GET_OPCODE(in);
    if (!testAMode(op) || GETARG_A(in) != reg) continue;
    switch (op) {
      case OP_GETUPVAL:
        return GETARG_B(in) < cl->nupvalues ? cl->upvals[GETARG_B(in)]->v : NULL;
      case OP_GETTABUP: {
        const Value *t = GETARG_B(in) < cl->nupvalues ? cl->upvals[GETARG_B(in)]->v : NULL;
        return t != NULL ? kfield(p, *t, GETARG_C(in)) : NULL;
      }
      case OP_GETFIELD: {
        const Value *t = depth > 0 ? NULL : regsource(strlib, cl, i, GETARG_B(in), depth + 1);
        return t != NULL ? kfield(p, *t, GETARG_C(in)) : NULL;
      }
      case OP_MOVE:
        return depth > 0 ? NULL : regsource(strlib, cl, i, GETARG_B(in), depth + 1);
      case OP_SELF: {   /* R[A] := R[B][K[C]] (k set: C names a constant) */
        const Value *v;
        int c = GETARG_C(in);
        if (strlib == NULL || !GETARG_k(in) || c >= p->sizek || !v_isstring(p->k[c]))
          return NULL;
        v = tab_getstr((Table *)strlib, v_str(p->k[c]));
        return v == &tab_absentkey ? NULL : v;
      }
      default:
        return NULL;
    }
  }
  return NULL;
}

/* the string library (the __index table of the strings' metatable), or NULL */
static const Table *stringlib(global_State *g) {
  const Value *v;
  if (g->mt[LUA_TSTRING] == NULL) return NULL;
  v = tab_getstr(g->mt[LUA_TSTRING], g->tmname[TM_INDEX]);
  return v != &tab_absentkey && v_istable(*v) ? v_tab(*v) : NULL;
}

/* Is the call 'in' of light C function 'f' one that compiled code
** evaluates without a call (jit_builtinshape)?  Then it is
** no C call for the policy: compiled, its cost goes (json.lua's decoder
** calls byte at every token, and looked library-bound for it). */
static int inlinebuiltin(global_State *g, Instruction in, Value f) {
  const JitState *J = (const JitState *)g->jit;
  lua_CFunction fn = v_lcf(f);
  int k;
  for (k = 0; k < JIT_NBUILTINS && fn != J->builtins[k]; k++) ;
  if (k == JIT_NBUILTINS)
    k = fn == J->strbuiltins[0] ? JIT_BUILTIN_BYTE : fn == J->assertfn[0] ? JIT_BUILTIN_ASSERT
      : fn == J->setmtfn[0] ? JIT_BUILTIN_SETMT : -1;
  return jit_builtinshape(k, in);
}

/* call sites of 'cl' in code[from..to) whose callee is a C function, or a
** Lua function that stays interpreted; with the frame's registers 'base'
** (not NULL: asked at a loop back-edge), also generic-for loops whose
** iterator (R[A] of the TFORCALL, as it is now) is a C function (pairs'
** next, gmatch's) */
static int ccallat(global_State *g, const Table *strlib, const LClosure *cl, int pc,
                   const Value *base) {
  Instruction in = cl->p->code[pc];
  OpCode op = GET_OPCODE(in);
  /* (VARARG with C == 0, all the extra arguments up to L->top, is a
  ** runtime helper call in compiled code, which the interpreter makes
  ** inline; VARARGPREP and VARARG with C > 0 are inline in both
  ** (llvmgen.c varargprep, varargcopy).  Counting all three as C calls,
  ** as before those were inline, kept every vararg function interpreted:
  ** a loop calling f(...) forwarders and a `local a, b = ...` function
  ** took 0.42 s with -j on, 0.41 s with -j off.  Counting C == 0 only:
  ** 0.35 s, and bench/extra2's varargs.lua, whose functions pass ... to
  ** select, pack, unpack and calls, level (0.403 against 0.398 s; counting
  ** none: 0.432, its compiled forwarders entered from the interpreter) */
  if (op == OP_VARARG && GETARG_C(in) == 0) return 1;
  /* (a metamethod called from arithmetic runs through C either way: a
  ** vector loop whose every operation called one, compiled, ran 5% slower
  ** than interpreted, its calls made from a helper) */
  if (jit_mmsite(cl->p, pc)) return 1;
  if (op == OP_CALL || op == OP_TAILCALL) {
    const Value *f = regsource(strlib, cl, pc, GETARG_A(in), 0);
    return f != NULL && ((v_islcf(*f) && !inlinebuiltin(g, in, *f)) || v_isCclosure(*f) ||
                         (v_isLclosure(*f) && v_lcl(*f)->p->jitcode == JIT_NOCODE));
  }
  /* (the steps of next and of ipairs' iterator are no calls: the
  ** interpreter's TFORCALL and compiled code's, mvmrt_tforstep, make them
  ** inline: a generic for over ipairs or pairs that calls a Lua function
  ** in its body looked library-bound and stayed interpreted) */
  if (op == OP_TFORCALL && base != NULL) {
    Value f = base[GETARG_A(in)];
    return v_isCclosure(f) ||
           (v_islcf(f) && v_lcf(f) != g->ipairsaux && v_lcf(f) != g->nextaux);
  }
  return 0;
}

static int ccalls(global_State *g, const LClosure *cl, int from, int to, const Value *base) {
  const Table *strlib = stringlib(g);
  int pc, n = 0;
  for (pc = from; pc < to; pc++) n += ccallat(g, strlib, cl, pc, base);
  return n;
}

/* ---------------------------------------------------------------------
** Inlined leaf calls (llvmgen.c inlineleaf; docs/decisions/0015).  A
** "pure leaf" is a small function with fixed parameters whose bytecode
** only moves, loads constants, upvalues and table fields, computes
** (also lengths and the builtins sqrt, floor, abs, which the code tests
** for), compares and jumps forward, then returns: no other call, no
** store, no allocation, so compiled code may evaluate it in place of a
** call and,
** on anything its fast paths do not handle, make the real call instead.
** A setter's stores are admitted where they end the function (storerun):
** the code tests them all before the first, and nothing after them can
** fail.  Method calls (obj:m()) are predicted too (selfsource).
** --------------------------------------------------------------------- */

/* Is the CALL (one argument, one result) or TAILCALL (one argument) at
** 'pc' of 'p' one of a builtin that compiled code may evaluate inline
** (sqrt, floor, abs: llvmgen.c builtincall)?  A hint by name
** (jit_leafbuiltin): the code compares the value. */
static int leafbuiltin(const Proto *p, int pc) {
  Instruction c = p->code[pc];
  if (GETARG_B(c) != 2 || (GET_OPCODE(c) == OP_CALL ? GETARG_C(c) != 2 : GETARG_C(c) != 0 || GETARG_k(c)))
    return 0;
  return jit_leafbuiltin(p, pc) >= 0;
}

/* Stores (llvmgen.c leafstores): the SETFIELD at 'pc' starts or continues
** a run of SETFIELDs that ends in a RETURN (fixed count, no close) and
** whose keys from 'pc' on are distinct.  The code tests every store of
** the run before the first one and nothing after the stores can fail, so
** the real call never runs after a store was made. */
static int storerun(const Proto *p, int pc) {
  int e, k;
  for (e = pc; e < p->sizecode && GET_OPCODE(p->code[e]) == OP_SETFIELD; e++) {
    if (GETARG_B(p->code[e]) >= p->sizek || !v_isstring(p->k[GETARG_B(p->code[e])])) return 0;
    for (k = pc; k < e; k++)
      if (p->k[GETARG_B(p->code[k])] == p->k[GETARG_B(p->code[e])]) return 0;   /* (interned) */
  }
  if (e >= p->sizecode) return 0;
  switch (GET_OPCODE(p->code[e])) {
    case OP_RETURN0: case OP_RETURN1: return 1;
    case OP_RETURN: return GETARG_B(p->code[e]) != 0 && !GETARG_k(p->code[e]);
    default: return 0;
  }
}

static int pureleaf(const Proto *p) {
  int pc;
  if (p->is_vararg || p->sizecode > JIT_INLINE_MAXCODE) return 0;
  for (pc = 0; pc < p->sizecode; pc++) {
    Instruction i = p->code[pc];
    switch (GET_OPCODE(i)) {
      case OP_MOVE: case OP_LOADI: case OP_LOADF: case OP_LOADK: case OP_LOADFALSE:
      case OP_LOADTRUE: case OP_LOADNIL: case OP_GETUPVAL: case OP_GETTABUP:
      case OP_GETTABLE: case OP_GETI: case OP_GETFIELD:
      case OP_ADDI: case OP_ADDK: case OP_SUBK: case OP_MULK: case OP_DIVK:
      case OP_MODK: case OP_IDIVK: case OP_POWK:
      case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_MOD: case OP_IDIV:
      case OP_POW: case OP_MMBIN: case OP_MMBINI: case OP_MMBINK:
      case OP_BAND: case OP_BOR: case OP_BXOR: case OP_SHL: case OP_SHR: case OP_BNOT:
      case OP_BANDK: case OP_BORK: case OP_BXORK: case OP_SHRI: case OP_SHLI:
      case OP_UNM: case OP_NOT: case OP_EQ: case OP_LT: case OP_LE: case OP_EQK:
      case OP_EQI: case OP_LTI: case OP_LEI: case OP_GTI: case OP_GEI:
      case OP_TEST: case OP_TESTSET: case OP_RETURN0: case OP_RETURN1: case OP_LEN:
        break;
      case OP_CALL:   /* of a pure builtin (tested at run time) */
        if (!leafbuiltin(p, pc)) return 0;
        break;
      case OP_TAILCALL:   /* the same; it returns: its RETURN is not run */
        if (!leafbuiltin(p, pc)) return 0;
        pc++;
        break;
      case OP_JMP:
        if (GETARG_sJ(i) < 0) return 0;
        break;
      case OP_RETURN:
        if (GETARG_B(i) == 0 || GETARG_k(i)) return 0;
        break;
      case OP_SETFIELD:   /* a setter's stores (leafstores) */
        if (!storerun(p, pc)) return 0;
        break;
      default:
        return 0;
    }
  }
  return 1;
}

/* An element of container 't' (a list of objects, a map of them): the
** first of up to 8 values of its array part and 8 of its node array
** when all of those that are not nil are tables of one metatable, else
** NULL (a polymorphic container: deltablue's constraint lists mix four
** classes, whose sites lost with any one predicted). */
/* the first slots of 't' that a sample looks at (up to 8 of its array
** part, then up to 8 of its hash part) into 'v'; their number */
#define JIT_SAMPLE 16
static int sampleslots(const Table *t, const Value **v) {
  unsigned i, n = t->asize < 8 ? t->asize : 8, m = t->isdummy ? 0 : 1u << t->lsizenode;
  if (m > 8) m = 8;
  for (i = 0; i < n + m; i++) v[i] = i < n ? &t->array[i] : &t->node[i - n].val;
  return (int)(n + m);
}
static const Value *sampleelem(const Table *t) {
  const Value *first = NULL, *s[JIT_SAMPLE];
  int i, n = sampleslots(t, s);
  for (i = 0; i < n; i++) {
    const Value *v = s[i];
    if (v_isnil(*v)) continue;
    if (!v_istable(*v) || v_tab(*v)->metatable == NULL) return NULL;
    if (first == NULL) first = v;
    else if (v_tab(*v)->metatable != v_tab(*first)->metatable) return NULL;
  }
  return first;
}

/* Method calls (obj:m(...): a SELF with a constant key loads the callee
** register).  The receiver is followed back as the frame sees it now:
** an upvalue or global (regsource), a field of one or of a register (two
** levels), a MOVE, or a parameter not written before (its value at the
** function's entry).  A prediction only: the code guards the Proto.
** Tried and dropped: any register's value in the frame when asked at a
** loop's back-edge (a list element, a call's result: deltablue -j on
** 13.29 G with them, 13.14 without, 13.20 with no method inlined: they
** found polymorphic sites, whose inline code costs compile time and a
** failing guard). */
static const Value *recvsource(const LClosure *cl, const Value *base, int pc, int reg,
                               int depth) {
  const Proto *p = cl->p;
  int i, stop = pc > 12 ? pc - 12 : 0;
  if (reg >= p->maxstacksize) return NULL;
  for (i = pc - 1; i >= 0; i--) {
    Instruction in = p->code[i];
    OpCode op = GET_OPCODE(in);
    if (!testAMode(op) || GETARG_A(in) != reg) continue;
    if (i < stop) return NULL;
    switch (op) {
      case OP_GETUPVAL: case OP_GETTABUP:
        return regsource(NULL, cl, i + 1, reg, 1);
      case OP_GETFIELD: {
        const Value *t = depth > 1 ? NULL : recvsource(cl, base, i, GETARG_B(in), depth + 1);
        return t != NULL ? kfield(p, *t, GETARG_C(in)) : NULL;
      }
      case OP_MOVE:
        return depth > 1 ? NULL : recvsource(cl, base, i, GETARG_B(in), depth + 1);
      case OP_GETTABLE: case OP_GETI: {   /* an element: of one class? */
        const Value *t = depth > 1 ? NULL : recvsource(cl, base, i, GETARG_B(in), depth + 1);
        return t != NULL && v_istable(*t) ? sampleelem(v_tab(*t)) : NULL;
      }
      default:
        return NULL;
    }
  }
  return reg < p->numparams ? &base[reg] : NULL;   /* (the entry's value) */
}

/* the method 'key' of table 'v' as SELF finds it through '__index' tables
** (raw reads, at most 4 levels, as the interpreter's SELF), or NULL */
static const Value *methodof(global_State *g, Value v, TString *key) {
  int n;
  for (n = 0; n < 5 && v_istable(v); n++) {
    const Table *mt;
    const Value *s = tab_getstr(v_tab(v), key);
    if (s != &tab_absentkey && !v_isnil(*s)) return s;
    if ((mt = v_tab(v)->metatable) == NULL) return NULL;
    s = tab_getstr((Table *)mt, g->tmname[TM_INDEX]);
    if (s == &tab_absentkey) return NULL;
    v = *s;
  }
  return NULL;
}

/* the callee a CALL at 'pc' with function register 'reg' gets from a SELF
** of a constant string key shortly before, as predicted now, or NULL */
static const Value *selfsource(global_State *g, const LClosure *cl, const Value *base,
                               int pc, int reg) {
  const Proto *p = cl->p;
  int i, stop = pc > 12 ? pc - 12 : 0;
  for (i = pc - 1; i >= stop; i--) {
    Instruction in = p->code[i];
    const Value *r;
    if (!testAMode(GET_OPCODE(in)) || GETARG_A(in) != reg) continue;
    if (GET_OPCODE(in) != OP_SELF || !GETARG_k(in) || GETARG_C(in) >= p->sizek ||
        !v_isstring(p->k[GETARG_C(in)]))
      return NULL;
    r = recvsource(cl, base, i, GETARG_B(in), 0);
    return r != NULL ? methodof(g, *r, v_str(p->k[GETARG_C(in)])) : NULL;
  }
  return NULL;
}

/* The CALL sites of 'p' (B != 0; all results too), and its TAILCALL sites
** (B != 0, not vararg, nothing to close), whose callee, as the
** frame L->ci running a closure of 'p' sees it now through an upvalue or
** a global (regsource) or as a method (selfsource), is a closure of a pure leaf: at most
** JIT_MAXINLINE of them in *out (malloc'ed; NULL and 0 when none).  Only
** a prediction: the code guards the callee's Proto. */
static int predict_inlines(lua_State *L, Proto *p, JitInline **out) {
  Value f;
  const LClosure *cl;
  JitInline *v = NULL;
  int pc, n = 0;
  *out = NULL;
  if (L == NULL || L->ci == NULL || (L->ci->callstatus & CIST_C)) return 0;
  f = *L->ci->func;
  if (!v_isLclosure(f) || v_lcl(f)->p != p) return 0;
  cl = v_lcl(f);
  for (pc = 0; pc < p->sizecode && n < JIT_MAXINLINE; pc++) {
    Instruction in = p->code[pc];
    const Value *c;
    Proto *cp;
    if (GET_OPCODE(in) == OP_TAILCALL) {   /* of a function with a plain frame */
      if (GETARG_B(in) == 0 || GETARG_C(in) != 0 || GETARG_k(in)) continue;
    }
    else if (GET_OPCODE(in) != OP_CALL || GETARG_B(in) == 0) continue;
    c = regsource(NULL, cl, pc, GETARG_A(in), 0);
    if (c == NULL) c = selfsource(G(L), cl, L->ci->func + 1, pc, GETARG_A(in));
    if (c == NULL || !v_isLclosure(*c)) continue;
    cp = v_lcl(*c)->p;
    if (cp == p || !pureleaf(cp)) continue;
    if (v == NULL && (v = (JitInline *)malloc(JIT_MAXINLINE * sizeof *v)) == NULL) return 0;
    v[n].pc = pc;
    v[n].p = cp;
    n++;
  }
  *out = v;
  return n;
}

static void markinl(const JitInline *inl, int n, void (*mark)(void *, Proto *), void *ud) {
  int k;
  for (k = 0; k < n; k++) mark(ud, inl[k].p);
}

/* KEEP-ALIVE (see JitInline): every Proto whose address compiled code
** compares in an inlined call's guard is marked for as long as that code
** exists (units, regions, flushed code: it may still run), and from the
** prediction on (queued, being compiled), since the compile reads it.
** Protos never move, so marking is all it takes. */
void jit_markinlined(global_State *g, void (*mark)(void *ud, Proto *p), void *ud) {
  JitState *J = (JitState *)g->jit;
  const JitUnit *u;
  const JitQueued *q;
  if (J == NULL) return;
  pthread_mutex_lock(&J->lock);
  for (u = J->units; u != NULL; u = u->next) markinl(u->inl, u->ninl, mark, ud);
  for (u = J->regions; u != NULL; u = u->next) markinl(u->inl, u->ninl, mark, ud);
  for (u = J->flushed; u != NULL; u = u->next) markinl(u->inl, u->ninl, mark, ud);
  for (q = J->qhead; q != NULL; q = q->next) markinl(q->inl, q->ninl, mark, ud);
  markinl(J->compinl, J->ncompinl, mark, ud);
  pthread_mutex_unlock(&J->lock);
}

/* The share of code[from..to)'s time that compiled code can make faster,
** counting each C call as JIT_CCALL_COST instructions. */
static double interp_share(global_State *g, const LClosure *cl, int from, int to, int *nc,
                           const Value *base) {
  int c = ccalls(g, cl, from, to, base), n = to - from;
  *nc = c;
  return n > c ? (double)(n - c) / (n - c + (double)c * JIT_CCALL_COST) : 0.0;
}

/* 'p', at the threshold in the frame L->ci, spends its time in C
** functions: it stays interpreted for good (JIT_NOCODE), and if nothing
** else gets compiled LLVM is never loaded. */
static void retire_feedback(JitState *J, Proto *p);
static int library_bound(JitState *J, lua_State *L, Proto *p) {
  Value f = *L->ci->func;
  double share;
  int nc;
  if (!v_isLclosure(f) || v_lcl(f)->p != p) return 0;
  share = interp_share(G(L), v_lcl(f), 0, p->sizecode, &nc, NULL);
  if (share >= JIT_MIN_SHARE) {
    if (J->stats > 2)
      fprintf(stderr, "mvm: JIT: %s:%d (%d instructions): %d C calls, interpreter share %.2f\n",
              p->source ? getstr(p->source) : "?", p->linedefined, p->sizecode, nc, share);
    return 0;
  }
  J->nlibrary++;
  if (J->stats > 1)
    fprintf(stderr, "mvm: JIT: %s:%d (%d instructions): not compiled: library-bound "
            "(%d C calls, interpreter share %.2f)\n",
            p->source ? getstr(p->source) : "?", p->linedefined, p->sizecode, nc, share);
  p->jitcode = JIT_NOCODE;
  p->jitlook = UINT32_MAX;
  /* (and it records no more type feedback: its frames kept recording for
  ** the rest of the run, ~30 instructions per metamethod arithmetic of a
  ** probe's loop, 8% of its instructions) */
  retire_feedback(J, p);
  return 1;
}

/* What compiled code saves at code[pc] of 'cl', in interpreted
** instructions: nothing for a C call or a call of a Lua function that stays
** interpreted (ccallat), for allocation and the runtime's work (CONCAT,
** NEWTABLE, CLOSURE, SETLIST, LEN, VARARG with C == 0: the same helpers
** run either way), 1 for a call of a Lua function that has no code yet (its callee's
** frame is set up as in the interpreter), JIT_LUACALL_GAIN for one that
** has code or is not known (method calls: compiled callers call compiled
** callees inline, with method caches), 1 for any other instruction. */
static double opgain(global_State *g, const Table *strlib, const LClosure *cl, int pc) {
  Instruction in = cl->p->code[pc];
  OpCode op = GET_OPCODE(in);
  switch (op) {
    case OP_CONCAT: case OP_NEWTABLE: case OP_CLOSURE: case OP_SETLIST: case OP_LEN:
      return 0;
    case OP_VARARG:   /* (C > 0: a copy inline, llvmgen.c varargcopy) */
      return GETARG_C(in) > 0;
    case OP_CALL: case OP_TAILCALL: {
      const Value *f;
      if (ccallat(g, strlib, cl, pc, NULL)) return 0;
      f = regsource(strlib, cl, pc, GETARG_A(in), 0);
      return f != NULL && v_isLclosure(*f) && !jit_hascode(v_lcl(*f)->p) ? 1 : JIT_LUACALL_GAIN;
    }
    default:
      return jit_mmsite(cl->p, pc) ? 0 : 1;   /* (as a C call: ccallat) */
  }
}

/* What one call of 'cl' runs that a compile can make faster, in bytecode
** instructions: the expected path through its code (a conditional test
** goes either way with probability 1/2, a loop's body counts once), an
** instruction counting 1, a Lua call JIT_LUACALL_GAIN and a C call 0
** (ccallat: its time is not made faster).  A compile costs LLVM time in proportion to all of the code,
** but a call runs one path through it: a function made of alternatives (a
** generator's if-elseif chain, json.lua:153) gains per call for a fraction
** of its size.  The function's size when out of memory. */
static double pathgain(global_State *g, const LClosure *cl) {
  const Proto *p = cl->p;
  const Table *strlib = stringlib(g);
  int n = p->sizecode, i;
  double *e = (double *)malloc((size_t)(n + 2) * sizeof *e), r;
  if (e == NULL) return n;
  e[n] = e[n + 1] = 0;
  for (i = n - 1; i >= 0; i--) {
    Instruction in = p->code[i];
    OpCode op = GET_OPCODE(in);
    double w = opgain(g, strlib, cl, i);
    if (op == OP_RETURN || op == OP_RETURN0 || op == OP_RETURN1 || op == OP_TAILCALL)
      e[i] = w;
    else if (op == OP_JMP) {   /* (a back-edge: the loop's exit follows it) */
      int t = i + 1 + GETARG_sJ(in);
      e[i] = w + (t > i && t <= n ? e[t] : e[i + 1]);
    }
    else if (op == OP_LFALSESKIP) e[i] = w + e[i + 2];
    else if (testTMode(op)) e[i] = w + 0.5 * (e[i + 1] + e[i + 2]);
    else e[i] = w + e[i + 1];
  }
  r = e[0];
  free(e);
  return r;
}

/* Rent or buy for call-count compiles ("on", at the call threshold): 'p'
** is compiled once its calls so far, each gaining its expected path
** (pathgain) times JIT_CALL_GAIN seconds, lost 'payback' times the
** estimated compile cost, as osr_pays does for loops with a measured
** rate.  Else the next look is at the hotcount where they will have.
** (json.lua's generator and encoder: 112 and 85 instructions of which a
** call runs ~25, compiled after 2200 calls for 45-50 ms of LLVM each,
** gained nothing over their 160000-390000 calls.) */
/* MVM_JIT_STATS=2: 'p' waits for 'need' calls (calls_pay) */
static void notyet(JitState *J, const Proto *p, double need) {
  if (J->stats > 1)
    fprintf(stderr, "mvm: JIT: %s:%d (%d instructions): not compiled yet: pays after "
            "%.0f calls\n", p->source ? getstr(p->source) : "?", p->linedefined,
            p->sizecode, need);
}

/* Did compiled code call the running Lua function itself: is its caller
** running compiled code (or did that code make the call the interpreter
** now runs), at a CALL, TAILCALL or TFORCALL?  A metamethod or '__index'
** function that one of its helpers runs (mvmrt_arith, the table helpers)
** is not: it is called as from C (do_call, a fresh interpreter
** activation), compiled or not, so it is judged as when called from the
** interpreter.  Compiled, the 2-instruction '__add' of a probe that
** compiled code called through mvmrt_arith made each call ~45
** instructions dearer (jit_run's entry) and the loop 1.3x slower. */
static int calledbycode(lua_State *L) {
  const CallInfo *prev = L->ci->previous;
  OpCode op;
  if (prev == NULL || !(prev->callstatus & (CIST_JITACT | CIST_JIT)) || !isLua(prev) ||
      prev->u.l.savedpc <= v_lcl(*prev->func)->p->code)   /* (a finalizer at its entry poll) */
    return 0;
  op = GET_OPCODE(*(prev->u.l.savedpc - 1));
  return op == OP_CALL || op == OP_TAILCALL || op == OP_TFORCALL;
}

static double calls_need(JitState *J, lua_State *L, Proto *p) {
  Value f = *L->ci->func;
  double gain, est, need;
  if (!v_isLclosure(f) || v_lcl(f)->p != p) return 0;
  /* called from compiled code: a compiled caller's call of an interpreted
  ** function costs more than the interpreter's own call (it leaves the
  ** compiled code, and comes back through jit_run); richards.lua ran 16-19 G
  ** instructions where -j off runs 14 G with its task closures so left out */
  if (calledbycode(L)) return 0;
  gain = pathgain(G(L), v_lcl(f)) * J->callgain;
  pthread_mutex_lock(&J->lock);
  est = cost_per_instr(J) * p->sizecode;
  pthread_mutex_unlock(&J->lock);
  need = gain > 0 ? J->payback * est / gain : (double)UINT32_MAX;
  if (J->stats > 2)
    fprintf(stderr, "mvm: JIT: %s:%d (%d instructions): %.1f gaining per call, "
            "compile estimated %.1f ms: pays after %.0f calls (%u)\n",
            p->source ? getstr(p->source) : "?", p->linedefined, p->sizecode,
            gain / J->callgain, est * 1e3, need, p->hotcount);
  return need;
}

/* A function whose expected path is this short (an accessor, a setter,
** a handler, an __index function, a sort comparator), called from
** interpreted code or from C (a metamethod, table.sort), is faster
** interpreted: the interpreter's call of it costs less than entering its
** compiled code (jit_run, the entry switch, prologue and return).  A
** probe's __index function, compiled, made its loop 26% slower, a
** dispatch table's handlers 14%, a sort comparator 9%.  Such a function
** waits, without type feedback and without loading LLVM for it: it is
** looked at again every half threshold of calls (1: p->jitlook is set
** for that), and compiled as soon as compiled code calls it (calls_need)
** or it calls itself. */
static int waits_for_caller(JitState *J, lua_State *L, Proto *p) {
  const CallInfo *prev = L->ci->previous;
  Value f = *L->ci->func;
  double gain;
  if (!v_isLclosure(f) || v_lcl(f)->p != p || J->payback <= 0) return 0;
  if (calledbycode(L) || (prev != NULL && isLua(prev) && *prev->func == f)) return 0;
  if ((gain = pathgain(G(L), v_lcl(f))) > JIT_ENTRY_WORK) return 0;
  if (J->stats > 2)
    fprintf(stderr, "mvm: JIT: %s:%d (%d instructions): %.1f gaining per call, less than "
            "an entry from the interpreter: waits for a compiled caller\n",
            p->source ? getstr(p->source) : "?", p->linedefined, p->sizecode, gain);
  p->jitlook = lookat((double)p->hotcount + J->threshold / 2);
  return 1;
}

/* a hotcount for Proto.jitlook (the next look at a function's calls) */
static uint32_t lookat(double hot) {
  return hot < (double)(UINT32_MAX - 1) ? (uint32_t)hot : UINT32_MAX - 1;
}

/* The hotcount at which 'p''s type feedback starts (feedback_due): half
** the threshold before its compile.  Recording costs 10-15 instructions
** per arithmetic, comparison or table instruction (vm.c FEEDBACK), and a
** small function waits for 13-100 times the threshold (call_threshold,
** calls_pay): richards' and deltablue's methods recorded for all of
** those calls.  The last half threshold of calls sees the types. */
static double feedback_at(JitState *J, double need) {
  return need - J->threshold / 2;
}

/* Start 'p''s feedback if its compile, at hotcount 'need', is near
** (feedback_at); 1 if 'p' has feedback (or will never have any) */
static int feedback_due(JitState *J, lua_State *L, Proto *p, double need) {
  if (p->feedback == NULL && p->jitnospec == 0 && (double)p->hotcount >= feedback_at(J, need))
    start_feedback(L, p);
  return p->feedback != NULL || p->jitnospec != 0;
}

static int calls_pay(JitState *J, lua_State *L, Proto *p) {
  double need = calls_need(J, L, p), next;
  if ((double)p->hotcount >= need) {
    /* (pays: a function without feedback records it for half the
    ** threshold first; out of memory, it is compiled without) */
    if (p->feedback != NULL || p->jitnospec != 0) return 1;
    start_feedback(L, p);
    if (p->feedback == NULL) return 1;
    p->jitlook = p->hotcount + J->threshold / 2;
    return 0;
  }
  notyet(J, p, need);
  next = feedback_due(J, L, p, need) ? need + 1 : feedback_at(J, need);
  p->jitlook = lookat(next);
  return 0;
}

static void prefetch_backend(JitState *J, lua_State *L, Proto *p) {
  if (J == NULL || !inbackground(J) || J->prefetch != 0 ||
      G(L)->jitmode != MVM_JIT_ON || __atomic_load_n(&J->broken, __ATOMIC_ACQUIRE))
    return;
  pthread_mutex_lock(&J->lock);
  if (J->prefetch == 0 && startthread(J)) {
    J->prefetch = 1;
    pthread_cond_signal(&J->wake);
    if (J->stats > 1)
      fprintf(stderr, "mvm: JIT: %s:%d is warm: loading LLVM in the background, at %.1f ms\n",
              p->source ? getstr(p->source) : "?", p->linedefined, (now() - J->start) * 1e3);
  }
  pthread_mutex_unlock(&J->lock);
}

/* the target of the backward jump at 'pc', or -1 */
static int backtarget(const Proto *p, int pc) {
  return op_backtarget(p->code[pc], pc);
}

/* bytecode instructions of the loop whose header is 'hdr': up to its last
** back-edge */
static int loopsize(const Proto *p, const Instruction *hdr) {
  int h = (int)(hdr - p->code), last = h, i;
  for (i = h; i < p->sizecode; i++)
    if (backtarget(p, i) == h) last = i;
  return last - h + 1;
}

/* the local register of frame 'base' that register 'reg' is moved from by
** the last instruction before 'pc' that writes it (a few back), as it is
** now, or NULL */
static const Value *localsource(const Proto *p, int pc, int reg, const Value *base) {
  int i, stop = pc > 12 ? pc - 12 : 0;
  for (i = pc - 1; i >= stop; i--) {
    Instruction in = p->code[i];
    if (!testAMode(GET_OPCODE(in)) || GETARG_A(in) != reg) continue;
    return GET_OPCODE(in) == OP_MOVE && GETARG_B(in) < reg ? base + GETARG_B(in) : NULL;
  }
  return NULL;
}

static const Value *samplefunc(Value t);
static const Value *elemmethod(global_State *g, const Proto *p, int self, const Value *base);

/* The function a CALL at 'pc' with function register 'reg' gets from a
** field of a local variable (a register below the call's own) shortly
** before: a method (SELF of a constant name: `obj:m()`) or a function
** field (GETFIELD: `M.f()`, `obj.f()`), looked up now on the table the
** frame holds (the loop's last iteration's) and through its __index
** tables as the interpreter would (methodof), or an element of a table
** of functions (GETTABLE, GETI: samplefunc), or a method of a list's
** elements (elemmethod).  For calleework only (a
** guess about the loop's callees, where selfsource and regsource, which
** the inlining relies on, predict only what they can trace).  The running
** frame's registers are all values: the collector marks them up to its
** ci->top and clears the stack above. */
static const Value *fieldnow(global_State *g, const Proto *p, int pc, int reg,
                             const Value *base) {
  int i, stop = pc > 12 ? pc - 12 : 0;
  for (i = pc - 1; i >= stop; i--) {
    Instruction in = p->code[i];
    OpCode op = GET_OPCODE(in);
    if (!testAMode(op) || GETARG_A(in) != reg) continue;
    if (GETARG_B(in) >= reg)   /* a method of a list's element: `objs[i]:m()` */
      return op == OP_SELF ? elemmethod(g, p, i, base) : NULL;
    if (op == OP_GETTABLE || op == OP_GETI)   /* a table of functions: t[k](...) */
      return samplefunc(base[GETARG_B(in)]);
    if ((op == OP_SELF ? !GETARG_k(in) : op != OP_GETFIELD) ||
        GETARG_C(in) >= p->sizek || !v_isstring(p->k[GETARG_C(in)]))
      return NULL;
    return methodof(g, base[GETARG_B(in)], v_str(p->k[GETARG_C(in)]));
  }
  return NULL;
}

/* The method the SELF at 'self' (of a constant name) finds on an
** element of a local list, when its receiver register was loaded by a
** GETTABLE or GETI from that list just before (`objs[i]:update(dt)`):
** looked up on a sample element whose fellows share its metatable
** (sampleelem), for fieldnow. */
static const Value *elemmethod(global_State *g, const Proto *p, int self, const Value *base) {
  Instruction s = p->code[self], in;
  int b = GETARG_B(s), i, stop = self > 4 ? self - 4 : 0;
  const Value *e;
  if (!GETARG_k(s) || GETARG_C(s) >= p->sizek || !v_isstring(p->k[GETARG_C(s)])) return NULL;
  for (i = self - 1; i >= stop; i--) {
    in = p->code[i];
    if (!testAMode(GET_OPCODE(in)) || GETARG_A(in) != b) continue;
    if ((GET_OPCODE(in) != OP_GETTABLE && GET_OPCODE(in) != OP_GETI) || GETARG_B(in) >= b ||
        !v_istable(base[GETARG_B(in)]))
      return NULL;
    e = sampleelem(v_tab(base[GETARG_B(in)]));
    return e != NULL ? methodof(g, *e, v_str(p->k[GETARG_C(s)])) : NULL;
  }
  return NULL;
}

/* The first of the first few elements of 't' (array part, then hash
** part) if it is a Lua function and all of them that are not nil are: a
** dispatch table of handlers (`handlers[op](x)`), for fieldnow.  NULL
** otherwise. */
static const Value *samplefunc(Value t) {
  const Value *first = NULL, *s[JIT_SAMPLE];
  int i, n;
  if (!v_istable(t)) return NULL;
  n = sampleslots(v_tab(t), s);
  for (i = 0; i < n; i++) {
    if (v_isnil(*s[i])) continue;
    if (!v_isLclosure(*s[i])) return NULL;
    if (first == NULL) first = s[i];
  }
  return first;
}

/* The interpreted work of one iteration of the loop code[from..to) of the
** running frame L->ci in the Lua functions it calls, in bytecode
** instructions: for each call site whose callee is known now (regsource,
** or a local register the call's function is moved from, as it is now in
** the frame, or a method or function field of a local table: fieldnow),
** an interpreted Lua callee's expected path (pathgain) and the call
** itself as JIT_LUACALL_WORK; a compiled callee's call only.
** The loop's time per back-edge includes its callees': without their
** work a loop calling small Lua functions (a callback in a numeric loop:
** `s = g(s, f(t[i]))`) looked library-bound (share 0.09 against
** JIT_LOOP_SHARE), where its compile inlines them or calls their code;
** so did bench/extra/shapes.lua's loop of method calls (`s:move(1):area()`,
** share 0.16-0.29), interpreted to its end: 0.434 s of the VM thread's
** CPU against 0.401 s with its region compiled at ~40 ms (-j off 0.46).
** A builtin that compiled code evaluates without a call (inlinebuiltin)
** counts as JIT_CCALL_COST: its C call is interpreter time too, gone
** compiled (bench/ffi_calls.lua's math.sqrt loop measured share 0.20,
** and its region came at 181 ms of a 0.42 s run). */
static double calleework(lua_State *L, Proto *p, int from, int to) {
  Value fv = *L->ci->func;
  const Value *base = L->ci->func + 1, *f;
  const Table *strlib = stringlib(G(L));
  double w = 0;
  int pc;
  if (!v_isLclosure(fv) || v_lcl(fv)->p != p) return 0;
  for (pc = from; pc < to; pc++) {
    Instruction in = p->code[pc];
    OpCode op = GET_OPCODE(in);
    if (op != OP_CALL && op != OP_TAILCALL) continue;
    f = regsource(strlib, v_lcl(fv), pc, GETARG_A(in), 0);
    if (f == NULL) f = localsource(p, pc, GETARG_A(in), base);
    if (f == NULL) f = fieldnow(G(L), p, pc, GETARG_A(in), base);
    if (f != NULL && v_islcf(*f) && inlinebuiltin(G(L), in, *f)) {
      w += JIT_CCALL_COST;
      continue;
    }
    /* (a recursive call's work is the loop's own: its calls count as
    ** p's hotcount, which the time per back-edge divides by) */
    if (f == NULL || !v_isLclosure(*f) || v_lcl(*f)->p->jitcode == JIT_NOCODE ||
        v_lcl(*f)->p == p)
      continue;
    w += JIT_LUACALL_WORK;
    if (!jit_hascode(v_lcl(*f)->p)) w += pathgain(G(L), v_lcl(*f));
  }
  return w;
}

/* The static share of the loop at 'hdr' (of 'size' instructions) of the
** running frame L->ci that compiled code can make faster (interp_share:
** its C calls weighed as JIT_CCALL_COST instructions each).  The timing
** in osr_pays sees a loop that spends its time in C, but not one whose
** C calls are cheap enough to look like interpreted instructions
** (gmatch's iterator, next, string.sub) while compiled code would not
** make them any faster (word_count.lua's main chunk). */
static double loopshare(lua_State *L, Proto *p, const Instruction *hdr, int size) {
  Value f = *L->ci->func;
  int nc, from = (int)(hdr - p->code);
  if (!v_isLclosure(f) || v_lcl(f)->p != p) return 1.0;
  return interp_share(G(L), v_lcl(f), from, from + size, &nc, L->ci->func + 1);
}

/* Is the loop at 'hdr' (its OSR sample h) about to be compiled bound by
** metamethod calls?  Its static share (cshare) was taken at its first
** test, before the type feedback that shows its metamethod sites
** (jit_mmsite, counted as C calls: ccallat); with them it may fall below
** JIT_MIN_SHARE, as a function's would (library_bound).  bench/extra2's
** vecops.lua, whose vector loop makes a dozen metamethod calls an
** iteration (share 0.05 with them), ran 4-8% slower compiled. */
static int mmbound(lua_State *L, JitState *J, Proto *p, const Instruction *hdr, unsigned h) {
  double cs;
  if (p->feedback == NULL) return 0;
  cs = loopshare(L, p, hdr, J->osr[h].size);
  if (cs >= J->osr[h].cshare || cs >= JIT_MIN_SHARE) return 0;
  if (J->stats > 1 && !J->osr[h].mmbound++)   /* (said once for the loop) */
    fprintf(stderr, "mvm: JIT: OSR %s:%d pc %d: not compiled: metamethod-bound (interpreter "
            "share %.2f)\n", p->source ? getstr(p->source) : "?", p->linedefined,
            (int)(hdr - p->code), cs);
  return 1;
}

/* Does the loop at 'hdr' (of 'size' instructions) spend its time in the
** interpreter alone?  No calls, nothing that allocates (a table's
** growth, a string, a closure) or varargs: arithmetic, moves, jumps,
** reads of upvalues and tables, stores to existing fields.  Its measured
** share (osr_pays: the time per back-edge, a wall-clock sample, against
** JIT_INTERP_COST per instruction) is then held to JIT_PURE_SHARE, not
** JIT_LOOP_SHARE: on a slower or busier machine an arithmetic loop with
** a modulo measured 0.18-0.30 (2.5 ns an instruction) and stayed
** interpreted (tests/jit_osr_policy.sh, "arith", failed in 2 of 4 runs);
** a loop of reads that miss the caches (4M-entry table, random indices)
** measures 0.00-0.09, and compiled code does not make it faster. */
static int pureloop(const Instruction *hdr, int size) {
  const Instruction *i;
  for (i = hdr; i < hdr + size; i++)
    switch (GET_OPCODE(*i)) {
      case OP_CALL: case OP_TAILCALL: case OP_TFORCALL: case OP_CONCAT: case OP_NEWTABLE:
      case OP_CLOSURE: case OP_VARARG: case OP_SETTABLE: case OP_SETI: case OP_SETLIST:
      case OP_SELF: case OP_TBC: case OP_CLOSE:
        return 0;
      default: break;
    }
  return 1;
}

/* Is an OSR compile of 'p' for the loop at 'hdr' a region
** (JitState.regions)?  For a function that runs once, whose start and
** other loops would be compiled for nothing: a main chunk (linedefined 0,
** also a chunk made by load), or a function called once so far whose
** loop's region is at most half of it (a program's `main()`, a `run(n)`
** that holds the benchmark's loops).  bench/osr.lua's body moved into a
** function called once compiled all of its 442 instructions in one
** 372 ms compile that arrived at 455 ms (-j on 0.88 s, the main chunk
** 0.47 s, -j off 1.25-1.40 s).  A function whose loop is most of it
** (spectral_norm.lua's Av) is compiled whole as before: its code serves
** its later calls too.  Called again, a function is judged by its calls
** as any (jit_osr runs p's own code when it has some, a region
** otherwise). */
static int regionok(const Proto *p, const Instruction *hdr) {
  int lo, hi;
  if (p->linedefined == 0) return 1;
  if (p->ncalls > 1) return 0;
  osrregion(p, hdr, &lo, &hi);
  return 2 * (hi - lo + 1) <= p->sizecode;
}


/* The OSR region of the loop whose header is 'hdr': from the header to
** its last back-edge, widened to every loop overlapping it (the loops
** around it, a goto loop crossing it): when an inner loop gets hot first,
** the loops around it run compiled too, instead of entering the region
** at every inner loop again (an entry only every JIT_OSR_EVERY back-edges). */
static void osrregion(const Proto *p, const Instruction *hdr, int *lo, int *hi) {
  int l = (int)(hdr - p->code), h = l + loopsize(p, hdr) - 1, changed = 1, i;
  while (changed) {
    changed = 0;
    for (i = 0; i < p->sizecode; i++) {
      int t = backtarget(p, i);
      if (t < 0 || t > h || i < l || (t >= l && i <= h)) continue;
      if (t < l) l = t;
      if (i > h) h = i;
      changed = 1;
    }
  }
  *lo = l; *hi = h;
}

/* The bytecode instructions an OSR compile for the loop at 'hdr' takes:
** its region in a main chunk (the estimate of osr.lua's first loop was 181
** ms for its 452-instruction chunk, its region of 27 took 11 ms, and every
** loop ran interpreted until it had lost 36 ms), all of 'p' elsewhere. */
static double compilesize(const Proto *p, const Instruction *hdr) {
  int lo, hi;
  if (!regionok(p, hdr)) return compileunits(p, 0, p->sizecode - 1);
  osrregion(p, hdr, &lo, &hi);
  return compileunits(p, lo, hi);
}

/* the slot of a loop or proto in JitState's OSR caches: Fibonacci hashing
** (loops of one proto are often a power of two instructions apart) */
static unsigned osrhash(const void *key) {
  return (unsigned)(((uint64_t)(uintptr_t)key * 0x9E3779B97F4A7C15ULL) >> (64 - JIT_OSR_BITS));
}

/* Is it time to compile 'p' to run the loop at 'hdr'?  A loop whose
** iterations take much longer than interpreting its bytecode spends its
** time in library functions, allocation and the collector, which compiled
** code runs just the same (tables.lua: appends, ipairs, pairs, concat,
** table.insert); only the interpreter's share of the time can get faster.
** The share is sampled: the time per back-edge of 'p' since the loop's
** last test against the loop's size times JIT_INTERP_COST.  Rent or
** buy: between two OSR tests of 'p', the interpreted loops lost that time
** times the share times JIT_GAIN (what compiled code would have saved);
** 'p' is compiled once the loss so far reaches 'payback' times its
** estimated compile cost.  A long interpreter-bound loop compiles soon,
** a main chunk made of short or library-bound loops never pays (its
** compile is 100-350 ms of LLVM), and what waiting loses is bounded by
** 'payback' times the compile cost.  0 at a loop's first test.  Only for
** OSR: a function that is called often is compiled by the threshold at
** its calls, as before. */
/* Will the loop at 'hdr' be over before its code could arrive?  Known
** for integer for loops: the count of the outermost loop around 'hdr'
** (R[A+1] of its FORLOOP, the iterations left) times the time one of its
** iterations takes, as measured since the loop's first test
** (JitState.osr[].ocount, ocpu: osr_pays records them) in the VM thread's
** CPU time (on a loaded machine a sample in wall time also spans the time
** the thread was not running: a loop about to end looked long).  For an
** inner loop that is an integer for loop and the only loop the outer one
** runs, the rest of its own count and its largest count seen (osr[].imax)
** for each outer iteration left, at the time per back-edge since its
** first test (osr[].ohot); for other inner loops the outer loop's own
** iterations, once one of them is over.
** Against 'est' for the compile and JIT_LOAD_EST for LLVM when it is not
** loaded yet (a margin of 1.5 cost osr.lua three of its seven regions and
** gained nothing once the time is CPU time).  tables.lua's and coroutines.lua's loops were compiled when
** they were most of the way through, and their code was never entered
** (3 compiles, 0 OSR entries): LLVM was loaded and ran beside the VM for
** nothing, 3% of their run.  Later, tables.lua's nested records loop (4
** rounds of 250000, ~4.5 ms each) was compiled in its first or second
** round (its compile, estimated at 11.8 ms, took 15-19) and never entered.
** JIT_LOAD_EST is what loading LLVM costs the program, not only the ~15 ms
** until it is ready: its load and the compile beside the VM thread slow
** that thread (its page faults above all; -j on ran tables.lua ~8% behind
** -j off with LLVM loaded in 9 of 12 runs for the records loop, whose
** rest came out at 55-60 ms against 24 + 15).  At 30 ms: loaded in 0 of
** 12, 3.8% behind (0.138 against 0.133 s, 21 runs), the rest of bench/
** level (9 runs each; osr.lua compiles 5 regions of 6, in the same time). */
#define JIT_LOAD_EST 0.030
/* the outermost FORLOOP or TFORLOOP around, or -1 */
static int outerloop(const Proto *p, int h, int last) {
  int i, o = -1, oh = h;
  for (i = last; i < p->sizecode; i++) {
    int t = backtarget(p, i);
    if (t >= 0 && t <= oh) { o = i; oh = t; }
  }
  return o >= 0 && (GET_OPCODE(p->code[o]) == OP_FORLOOP ||
                    GET_OPCODE(p->code[o]) == OP_TFORLOOP) ? o : -1;
}
/* The iterations left of the loop ending at 'forloop' (a FORLOOP or a
** TFORLOOP) in the running frame, or -1 when not known.  An integer for
** loop's count is in its registers.  A generic for over ipairs is at
** index R[A+2] of the table R[A+1]: when the array part's last slot is
** empty, ipairs stops inside it, so its size less the index is an upper
** bound of what is left (tables.lua's `for _, v in ipairs(arr)` over a
** million elements was compiled in every run, its code arriving after
** the loop had ended, once ipairs no longer counted as a C call:
** ccallat); one over next (pairs) has at most the table's slots after
** the key's place left (tab_nextleft); otherwise (ipairs whose elements
** go on in the hash part, another iterator) it is not known. */
static int64_t loopcount(lua_State *L, const Proto *p, int forloop) {
  const Value *r = L->ci->func + 1 + GETARG_A(p->code[forloop]);
  const Table *t;
  int64_t i;
  if (GET_OPCODE(p->code[forloop]) == OP_FORLOOP)
    return v_isimmint(r[1]) && v_getimmint(r[1]) >= 0 ? v_getimmint(r[1]) : -1;
  /* over next (pairs): the slots after the key's, at least the count left
  ** (tables.lua's pairs loop, which has ~10 ms left at its first test,
  ** was compiled near its end, loading LLVM for it) */
  if (v_islcf(r[0]) && v_lcf(r[0]) == G(L)->nextaux && v_istable(r[1]))
    return tab_nextleft(L, v_tab(r[1]), r[2]);
  if (!v_islcf(r[0]) || v_lcf(r[0]) != G(L)->ipairsaux || !v_istable(r[1]) ||
      !v_isimmint(r[2]))
    return -1;
  t = v_tab(r[1]);
  i = v_getimmint(r[2]);
  if (t->asize == 0 || !v_isnil(t->array[t->asize - 1]) || i < 0 || i >= (int64_t)t->asize)
    return -1;
  return (int64_t)t->asize - i;
}
/* Does the loop ending at 'o' run no loop but the one ending at 'last'?
** (Then each of its iterations is one run of that loop and a few
** instructions.) */
static int onlyinner(const Proto *p, int o, int last) {
  int i;
  for (i = backtarget(p, o); i < o; i++)
    if (i != last && backtarget(p, i) >= 0) return 0;
  return 1;
}
/* the count left of the loop at 'hdr' of 'size' instructions when it is an
** integer for loop or a generic for over ipairs or pairs (loopcount), else -1 */
static int64_t owncount(lua_State *L, const Proto *p, const Instruction *hdr, int size) {
  int last = (int)(hdr - p->code) + size - 1;
  if ((GET_OPCODE(p->code[last]) != OP_FORLOOP && GET_OPCODE(p->code[last]) != OP_TFORLOOP) ||
      backtarget(p, last) != (int)(hdr - p->code))
    return -1;
  return loopcount(L, p, last);
}
/* An inner integer for loop's count per outer iteration, as the OSR
** tests see it (JitState.osr[h]: its growth for ends_first).  A test
** sees the count left; the largest one seen in an outer iteration is
** about its whole count (tests come every JIT_OSR_EVERY * (JIT_OSR_SKIP
** + 1) back-edges at most), except in the iteration of the first test,
** which was seen from its middle: tables.lua's records loop (4 rounds of
** 250000) looked like it grew by 150000 a round when that partial count
** was the baseline, and was compiled for nothing again. */
static void innergrowth(lua_State *L, JitState *J, const Proto *p, unsigned h, int64_t ci) {
  __typeof__(J->osr[0]) *e = &J->osr[h];
  int64_t c = loopcount(L, p, e->oloop);
  if (c != e->olast) {   /* a new outer iteration: the last one is over */
    if (e->nchg > 0 && e->icur >= 0) {
      if (e->ifirst < 0) { e->ifirst = e->icur; e->cfirst = e->olast; }
      e->ilast = e->icur; e->clast = e->olast;
    }
    if (e->nchg < 2) e->nchg++;
    e->icur = -1;
    e->olast = c;
  }
  if (ci > e->icur) e->icur = ci;
}

static int ends_first(lua_State *L, JitState *J, const Proto *p, const Instruction *hdr,
                      double per, double est, unsigned slot) {
  int h = (int)(hdr - p->code), last = h + J->osr[slot].size - 1, o = J->osr[slot].oloop;
  int64_t c = o >= 0 ? loopcount(L, p, o) : -1, ci = owncount(L, p, hdr, J->osr[slot].size);
  int64_t ocount = J->osr[slot].ocount, imax = J->osr[slot].imax > ci ? J->osr[slot].imax : ci;
  uint32_t dh = p->hotcount - J->osr[slot].ohot;
  double cpu = cputime() - J->osr[slot].ocpu, rest = -1;
  double rate = dh > 0 ? cpu / dh : per;   /* (per back-edge) */
  if (c < 0) return 0;
  if (o == last && ci >= 0)   /* its own */
    rest = ocount > c ? (double)c * cpu / (double)(ocount - c) : (double)c * rate;
  else {
    /* an inner for loop's count may grow with the outer loop's (bigint's
    ** carry loop over a growing array of limbs: its time per outer
    ** iteration grows linearly, and an extrapolation of the time so far
    ** stayed below the compile's estimate until most of the work was
    ** done, so the loop ran interpreted to its end) */
    const __typeof__(J->osr[0]) *e = &J->osr[slot];
    double g = ci >= 0 && e->ifirst >= 0 && e->cfirst > e->clast && e->ilast > e->ifirst
               ? (double)(e->ilast - e->ifirst) / (double)(e->cfirst - e->clast) : 0;
    double inner = ci >= 0 ? ((double)ci + (double)c * ((double)imax + g * (double)c / 2)) * rate
                           : -1;
    if (ci >= 0 && onlyinner(p, o, last)) rest = inner;
    else if (ocount > c) {
      rest = (double)(c + 1) * cpu / (double)(ocount - c);
      if (inner > rest) rest = inner;
    }
  }
  if (rest < 0) return 0;   /* (not known) */
  if (__atomic_load_n(&J->bs, __ATOMIC_RELAXED) == NULL) est += JIT_LOAD_EST;   /* (a hint) */
  if (rest >= est) return 0;
  if (J->stats > 2)
    fprintf(stderr, "mvm: JIT: OSR %s:%d pc %d: not compiled: the loop ends in %.1f ms, "
            "before its code (%.1f ms)\n", p->source ? getstr(p->source) : "?", p->linedefined,
            h, rest * 1e3, est * 1e3);
  return 1;
}

static void retire_feedback(JitState *J, Proto *p);
/* A main chunk's feedback is for the loop near its compile (osr_pays
** starts it): when the chunk's frame tests another loop outside that
** loop's region (the loop ended, or was not compiled), it stops recording
** (retire_feedback), and starts again for the next loop to be compiled.
** 'start': the feedback starts now for the loop at 'hdr'. */
static void fbloop(lua_State *L, JitState *J, Proto *p, const Instruction *hdr, unsigned hp,
                   int start) {
  int pc = (int)(hdr - p->code);
  if (!regionok(p, hdr)) {   /* (a function's feedback serves its whole compile) */
    if (start) start_feedback(L, p);
    return;
  }
  if (start) {
    if (p->feedback == NULL) start_feedback(L, p);
    if (J->osrp[hp].fblo < 0 && p->feedback != NULL)
      osrregion(p, hdr, &J->osrp[hp].fblo, &J->osrp[hp].fbhi);
  }
  else if (J->osrp[hp].fblo >= 0 && (pc < J->osrp[hp].fblo || pc > J->osrp[hp].fbhi)) {
    retire_feedback(J, p);
    if (p->feedback == NULL) J->osrp[hp].fblo = -1;
  }
}

static int osr_pays(lua_State *L, JitState *J, Proto *p, const Instruction *hdr) {
  unsigned h = osrhash(hdr), hp = osrhash(p);
  double t, per, share, cost, est, dt, inc;
  uint32_t dh;
  int span, shareok, spare, region = regionok(p, hdr);
  t = now();
  if (J->osrp[hp].p != p) {
    J->osrp[hp].p = p; J->osrp[hp].tlast = t; J->osrp[hp].lost = 0;
    J->osrp[hp].span = 1; J->osrp[hp].fblo = -1;
  }
  fbloop(L, J, p, hdr, hp, 0);
  /* time in 'p' since its last test (JIT_OSR_EVERY back-edges ago, times
  ** the tests skipped), unless it was left meanwhile */
  span = J->osrp[hp].span;
  J->osrp[hp].span = 1;
  dt = t - J->osrp[hp].tlast;
  J->osrp[hp].tlast = t;
  if (dt > JIT_OSR_MAXGAP * span) dt = 0;
  if (J->osr[h].p != p || J->osr[h].pc != hdr || p->hotcount < J->osr[h].hot) {
    J->osr[h].p = p; J->osr[h].pc = hdr; J->osr[h].t = t; J->osr[h].hot = p->hotcount;
    J->osr[h].size = loopsize(p, hdr);
    J->osr[h].cshare = loopshare(L, p, hdr, J->osr[h].size);
    J->osr[h].pure = pureloop(hdr, J->osr[h].size);
    J->osr[h].work = J->osr[h].size + calleework(L, p, (int)(hdr - p->code),
                                                 (int)(hdr - p->code) + J->osr[h].size);
    J->osr[h].csize = compilesize(p, hdr);
    J->osr[h].ran = J->osr[h].saved = 0;
    J->osr[h].oloop = outerloop(p, (int)(hdr - p->code), (int)(hdr - p->code) + J->osr[h].size - 1);
    J->osr[h].ocount = J->osr[h].oloop >= 0 ? loopcount(L, p, J->osr[h].oloop) : -1;
    J->osr[h].ocpu = cputime();
    J->osr[h].ohot = p->hotcount;
    J->osr[h].imax = J->osr[h].icur = owncount(L, p, hdr, J->osr[h].size);
    J->osr[h].olast = J->osr[h].ocount;
    J->osr[h].ifirst = J->osr[h].ilast = -1;
    J->osr[h].nchg = 0;
    J->osr[h].mmbound = 0;
    return 0;
  }
  /* the share over the back-edges since this loop's last test */
  dh = p->hotcount - J->osr[h].hot;
  per = (t - J->osr[h].t) / (dh ? dh : 1);
  if (J->osr[h].imax >= 0) {
    int64_t ci = owncount(L, p, hdr, J->osr[h].size);
    if (ci > J->osr[h].imax) J->osr[h].imax = ci;
    if (J->osr[h].ocount >= 0) innergrowth(L, J, p, h, ci);
  }
  J->osr[h].t = t; J->osr[h].hot = p->hotcount;
  share = per > 0 ? J->osr[h].work * JIT_INTERP_COST / per : 1;
  if (share > 1) share = 1;
  share *= J->osr[h].cshare;
  inc = dt * share * JIT_GAIN;
  J->osrp[hp].lost += inc;
  J->osr[h].ran += dt;
  J->osr[h].saved += inc;
  /* the compiles so far, with the prior as JIT_PRIOR_WEIGHT units of
  ** them, in units of LLVM work (compileunits: a table access or a loop
  ** costs LLVM several plain instructions, and each compile a fixed part) */
  pthread_mutex_lock(&J->lock);
  cost = cost_per_unit(J);
  spare = sparecpu(J);
  pthread_mutex_unlock(&J->lock);
  est = cost * J->osr[h].csize;
  /* (a region is compiled for its loop: a main chunk whose earlier
  ** loops paid compiles the next hot one at once, but not before that
  ** loop ran JIT_REGION_MINRUN itself, and not while the loop's share of
  ** interpreted time over its run so far is below JIT_LOOP_SHARE: the
  ** library-bound loops of strings.lua (shares 0.00-0.10), tables.lua and
  ** coroutines.lua were compiled for nothing once a region's estimate was
  ** its own size) */
  /* (with ffi in use, the C calls a loop spends its time in may be ffi
  ** calls, which compiled code makes directly: ffi_calls.lua's loops ran
  ** interpreted, 0.36 -> 0.67 s) */
  shareok = !region || G(L)->ffijit != NULL ||
            J->osr[h].saved >= (J->osr[h].pure ? JIT_PURE_SHARE : JIT_LOOP_SHARE) *
                               JIT_GAIN * J->osr[h].ran;
  if (J->osrp[hp].lost < J->payback * est || !shareok ||
      (region && J->osr[h].ran < JIT_REGION_MINRUN)) {
    /* skip tests while at this rate the loss stays below half the way to
    ** the payback: at most JIT_OSR_SKIP (a compile comes at most that
    ** many tests late).  The interpreter skips them (p->jitedges: the
    ** clock and the estimate cost ~200 instructions a test, 4% of
    ** tables.lua's run time when every test was made). */
    double rest = J->payback * est - J->osrp[hp].lost;
    int skip = inc > 0 ? (rest / inc > 2.0 * JIT_OSR_SKIP ? JIT_OSR_SKIP : (int)(rest / inc / 2))
                       : JIT_OSR_SKIP;
    if (rest <= 0) {   /* paid: the loop has not run JIT_REGION_MINRUN yet
                       ** or is library-bound so far (its share moves
                       ** slowly: the widest spacing of tests) */
      double wait = (JIT_REGION_MINRUN - J->osr[h].ran) / (dt > 0 ? dt : JIT_OSR_MAXGAP);
      skip = !shareok || wait > 2.0 * JIT_OSR_SKIP ? JIT_OSR_SKIP : wait > 0 ? (int)(wait / 2) : 0;
      rest = 0;
    }
    /* The type feedback starts when at this rate the payback is
    ** JIT_FB_TESTS tests away: recording costs a few % of the loop's
    ** time, and a loop that is half-way may never get there (tables.lua's
    ** main chunk recorded for the second half of its run: +1.2%
    ** instructions).  LLVM is loaded in the background once the payback
    ** is JIT_PREFETCH_LEAD seconds away at this rate: mandelbrot.lua's
    ** main chunk gets there within ~25 ms, and its compile finds LLVM
    ** ready; tables.lua's loops get half-way to their payback, ~35 ms
    ** from it, and then end (loading LLVM at half-way cost tables.lua 15-20
    ** ms of CPU for nothing: 3-5% of its run, more when no CPU is idle). */
    if (!shareok) ;   /* (neither feedback nor LLVM for a library-bound loop) */
    else if (region &&
             (rest <= inc * JIT_FB_TESTS || (inc > 0 && rest / inc * dt < JIT_PREFETCH_LEAD)) &&
             ends_first(L, J, p, hdr, per, est, h))
      ;   /* (nor for a main chunk's loop that will end before its code could
          ** arrive: tables.lua loaded LLVM for its first loop, which then
          ** ended, and its records loop's compile was estimated without the
          ** load and came too late; -j on was 6-9% behind -j off in wall
          ** time, the VM thread's CPU time the same.  A function's compile
          ** serves its other loops and calls: sieve.lua's first loop ends
          ** first, and LLVM loaded for it is ready for the second's compile,
          ** which came 6 ms later without it) */
    else if (rest <= inc * JIT_FB_TESTS) fbloop(L, J, p, hdr, hp, 1);
    else if (inc > 0 && rest / inc * dt < JIT_PREFETCH_LEAD) prefetch_backend(J, L, p);
    p->jitedges = skip;
    J->osrp[hp].span = skip + 1;
    return 0;
  }
  /* A function's code also serves its later calls, which its first
  ** call cannot see coming: spectral_norm.lua's Av and Atv run one loop
  ** of ~25 ms per call, 10 calls each, and ends_first kept their first
  ** calls' loops interpreted (compile estimated 40 ms with LLVM's load);
  ** their compiles then came from the second calls' counts, and each
  ** second call ran interpreted too while its code was compiled.  With a
  ** CPU of its own the compile thread's work on a function called once
  ** costs the program no time; without one, or with compiles in the VM's
  ** thread (inbackground), it is the program's time. */
  if ((region || !spare) && ends_first(L, J, p, hdr, per, est, h)) {
    osrskip(J, p);
    return 0;
  }
  if (p->feedback == NULL && p->jitnospec == 0) {
    /* the rate jumped: the compile waits for one test's feedback */
    fbloop(L, J, p, hdr, hp, 1);
    if (p->feedback != NULL) return 0;
  }
  if (mmbound(L, J, p, hdr, h)) {
    osrskip(J, p);
    return 0;
  }
  if (J->stats > 2)
    fprintf(stderr, "mvm: JIT: OSR %s:%d pc %d: loop of %d, %.1f ns per back-edge, "
            "interpreter share %.2f (static %.2f); %.1f ms lost, compile estimated %.1f ms\n",
            p->source ? getstr(p->source) : "?", p->linedefined, (int)(hdr - p->code),
            J->osr[h].size, per * 1e9, share, J->osr[h].cshare,
            J->osrp[hp].lost * 1e3, est * 1e3);
  return 1;
}

/* A loop that switches coroutines at about every iteration (a generator's
** body that yields, a consumer that resumes one) spends its time in the
** switches, and compiled code of a generator would only run from an OSR
** entry to the next yield: after a resume, a frame that called the
** yielding function goes on interpreted (jit_unwoundframes).  It cannot
** pay for its compile, and its back-edges must not make p hot either, or
** p would be compiled at its next call (a generator body's proto, called
** once per coroutine).  Is the loop at 'hdr' such a loop?  At least one
** lua_resume (jit_mark) per 'work' back-edges since its last test; -1 at
** its first test (no sample yet).  (Also asked for calls, with hdr =
** p->code: calllook.) */
static int switching(JitState *J, Proto *p, const Instruction *hdr, uint32_t work) {
  unsigned h = osrhash(hdr);
  /* the calls' samples have their own half of the cache: a loop's OSR
  ** tests must not overwrite a function's sample between its two looks */
  if (work == JIT_SWITCH_CALLS) h += JIT_OSR_SAMPLES;
  unsigned long dr;
  uint32_t dh;
  if (J->sw[h].p != p || J->sw[h].pc != hdr || p->hotcount < J->sw[h].hot) {
    J->sw[h].p = p; J->sw[h].pc = hdr;
    J->sw[h].hot = p->hotcount; J->sw[h].res = J->g->nresumes;
    return -1;
  }
  dr = J->g->nresumes - J->sw[h].res;
  dh = p->hotcount - J->sw[h].hot;
  J->sw[h].hot = p->hotcount; J->sw[h].res = J->g->nresumes;
  return dr > 0 && dr >= dh / work;
}

/* A main chunk records type feedback from when its hot loop nears its
** compile (osr_pays) for the region that loop gets; once that region's
** code runs, the chunk's interpreted frame (the code before and after the
** loop) stops recording: recording costs the interpreter ~7 instructions
** per arithmetic or comparison, and osr.lua's later loops paid it all the
** way to their own compiles, which start it again (start_feedback).  Not
** while another region of 'p' is compiling or queued (it reads the
** feedback).  The buffer is kept to close (JitState.oldfb). */
#define JIT_OLDFB_MAX 256   /* (then the chunks go on recording: memory is bounded) */
static void retire_feedback(JitState *J, Proto *p) {
  struct JitOldFb *o;
  JitQueued *q;
  if (p->feedback == NULL || J->noldfb >= JIT_OLDFB_MAX) return;
  pthread_mutex_lock(&J->lock);
  for (q = J->qhead; q != NULL && q->p != p; q = q->next) ;
  if (q == NULL && J->compiling != p && (o = (struct JitOldFb *)malloc(sizeof *o)) != NULL) {
    o->b = p->feedback; o->n = (size_t)p->sizecode;
    o->next = J->oldfb; J->oldfb = o;
    J->noldfb++;
    p->feedback = NULL;
  }
  pthread_mutex_unlock(&J->lock);
}

/* the region of 'p' compiled for the loop at 'pc' (JitState.regions):
** the jit_run that follows enters it */
static int enterregion(JitState *J, Proto *p, const Instruction *pc) {
  int i = (int)(pc - p->code);
  JitUnit *u;
  for (u = __atomic_load_n(&J->regions, __ATOMIC_ACQUIRE); u != NULL; u = u->next)
    if (u->p == p && i >= u->lo && i <= u->hi) {
      J->osrentry = u->entry;
      J->nosr++;
      return 1;
    }
  return 0;
}

int jit_osr(lua_State *L, Proto *p) {
  JitState *J = (JitState *)G(L)->jit;
  const Instruction *hdr = L->ci->u.l.savedpc;
  int region;
  /* p's own code, when it has some, runs everything; else a region */
  if (J != NULL && J->regions != NULL && !jit_hascode(p) && enterregion(J, p, hdr)) {
    retire_feedback(J, p);
    return 1;
  }
  if (p->jitcode == NULL && G(L)->jitmode == MVM_JIT_ON && J != NULL && J->payback > 0) {
    /* (a program that never resumed a coroutine does not switch) */
    if (G(L)->nresumes > 0 && switching(J, p, L->ci->u.l.savedpc, JIT_SWITCH_LOOP) > 0) {
      p->hotcount = 0;   /* its hotness starts over */
      /* and the next test is further away */
      p->jitedges = JIT_SWITCH_SPACING - 1;
      return 0;
    }
    if (p->hotcount >= J->threshold && !osr_pays(L, J, p, L->ci->u.l.savedpc))
      return 0;   /* interpreted meanwhile (and the sample goes on) */
  }
  region = regionok(p, hdr);
  if (p->jitcode == NULL) maybecompile(L, p, 1, region ? hdr : NULL);
  J = (JitState *)G(L)->jit;
  if (region && J != NULL && !jit_hascode(p)) {   /* a region compiled right away? */
    if (J->regions == NULL || !enterregion(J, p, hdr)) return 0;
    retire_feedback(J, p);
    return 1;
  }
  if (!jit_hascode(p)) return 0;
  J->nosr++;
  return 1;
}

/* move p's regions (all if p is NULL) to the list '*to'; under J->lock */
static void dropregions(JitState *J, Proto *p, JitUnit **to) {
  JitUnit **pu = &J->regions;
  while (*pu != NULL) {
    JitUnit *u = *pu;
    if (p != NULL && u->p != p) { pu = &u->next; continue; }
    *pu = u->next;
    u->next = *to;
    *to = u;
  }
}

/* 'p's compiled code keeps failing its speculative type guards (a value
** loaded from a table that was a number when compiled is not, a resume
** point sees other types): rather than bouncing between compiled code and
** the interpreter, the code is unhooked (kept mapped until close: it may
** be running below us, as with jit.flush) and 'p' is compiled again at
** its next call with wider types: the kinds of numbers the interpreter
** saw become "any number", then no speculation at all (llvmgen.c: the
** types it proves only).  At most twice per function. */
static void despecialise(JitState *J, Proto *p) {
  JitUnit **pu;
  pthread_mutex_lock(&J->lock);   /* the unit list and jitcode: see install() */
  dropregions(J, p, &J->flushed);
  for (pu = &J->units; *pu != NULL; pu = &(*pu)->next) {
    if ((*pu)->p == p) {
      JitUnit *u = *pu;
      *pu = u->next;
      u->next = J->flushed;
      J->flushed = u;
      break;
    }
  }
  J->ndespec++;
  if (J->stats > 1)
    fprintf(stderr, "mvm: JIT: %s:%d: %u failed speculations: recompiled with wider types\n",
            p->source ? getstr(p->source) : "?", p->linedefined, (unsigned)p->jitexits);
  if (p->jitcode != JIT_QUEUED) p->jitcode = NULL;   /* (a region's compile: see install) */
  p->jitlook = 0;
  /* narrow types (feedback) widen to "a number", then no speculation;
  ** code that keeps failing without speculation (integers beyond the
  ** immediates: llvmgen.c fitguard) is left to the interpreter */
  if (p->jitnospec == 2 && p->jitcode != JIT_QUEUED) {
    p->jitcode = JIT_NOCODE;
    p->jitlook = UINT32_MAX;
  }
  p->jitnospec = (uint8_t)(p->jitnospec == 0 && p->feedback != NULL ? 1 : 2);
  p->jitexits = 0;
  pthread_mutex_unlock(&J->lock);
}

void jit_exited(lua_State *L, Proto *p) {
  JitState *J = (JitState *)G(L)->jit;
  J->nexits++;
  if (l_unlikely(p->jitexits > JIT_SPEC_EXITS)) despecialise(J, p);
}

/* The calling thread's C stack, [cs_base, cs_hi), and above the reserve
** (JIT_CSRESERVE) taken off its low end, from cs_lo: the window of direct
** calls (jit.h), found once per thread; empty when pthread_getattr_np
** does not know.  cs_id names the thread for JitState.csid: 0 until its
** bounds are found, then a number no other thread of the process had
** (cs_ids; a thread that reuses a dead one's stack and TLS gets a new
** one, and so looks its bounds up again) */
static __thread uintptr_t cs_base, cs_lo, cs_hi;
static __thread uint64_t cs_id;
static uint64_t cs_ids;
static void cstackbounds(void) {
  pthread_attr_t a;
  void *addr = NULL;
  size_t size = 0, reserve;
  cs_base = cs_lo = cs_hi = 1;
  cs_id = __atomic_add_fetch(&cs_ids, 1, __ATOMIC_RELAXED);
  if (pthread_getattr_np(pthread_self(), &a) != 0) return;
  if (pthread_attr_getstack(&a, &addr, &size) != 0) size = 0;
  pthread_attr_destroy(&a);
  if (size < 64 * 1024) return;
  reserve = size / 2 < JIT_CSRESERVE ? size / 2 : JIT_CSRESERVE;
  cs_base = (uintptr_t)addr;
  cs_lo = cs_base + reserve;
  cs_hi = (uintptr_t)addr + size;
}

/* Set J's window of direct calls for the calling thread: its stack's,
** or none (counted direct calls, jit.h) when the stack pointer lies
** outside it (the host runs the VM on a stack of its own making).  Done
** again only when the thread changes (csid): a thread that moves a VM
** between its own stack and a fiber's keeps the window it entered with
** first, which is safe either way (outside the window, no direct calls;
** an empty one, counted ones).  Out of line: jit_run's frame stays small
** (an inline pthread_attr_t made every entry ~20 instructions dearer,
** and the test of the bounds at every entry 16). */
static __attribute__((noinline)) void stackwindow_slow(JitState *J) {
  uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
  if (cs_id == 0) cstackbounds();
  J->csid = cs_id;
  if (sp - cs_base < cs_hi - cs_base) {
    J->cslo = cs_lo;
    J->csspan = cs_hi - cs_lo;
  }
  else J->cslo = J->csspan = 0;
}
static inline void stackwindow(JitState *J) {
  if (l_unlikely(J->csid != cs_id)) stackwindow_slow(J);
}

int jit_run(lua_State *L, CallInfo *ci, Proto *p) {
  JitState *J = (JitState *)G(L)->jit;
  lua_State *saved = J->curL;
  /* an OSR entry into a region (jit_osr), else p's code */
  JitFunction f = (JitFunction)(J->osrentry != NULL ? J->osrentry : p->jitcode);
  int r;
  J->osrentry = NULL;
  /* the safepoint slow path finds the running thread here; compiled code
  ** stores it again after each of its calls (a callee may have switched
  ** threads and left through longjmp without restoring it) */
  J->curL = L;
  stackwindow(J);
  G(L)->jitran = J;   /* (jit_mark and co. have work from now on) */
  if (J->nactive < JIT_ACTMAX) J->act[J->nactive] = ci;
  J->nactive++;
  ci->callstatus |= CIST_JITACT;   /* its anchor is live while the code runs */
  r = f(L, ci, ci);
  ci->callstatus &= (unsigned short)~CIST_JITACT;
  J->nactive--;
  J->curL = saved;
  if (r == JIT_EXITED) jit_exited(L, p);
  return r;
}

static void release_list(JitState *J, JitUnit *u, int clear) {
  while (u != NULL) {
    JitUnit *next = u->next;
    if (clear) u->p->jitcode = NULL;
    backend->release(J->bs, u->handle);
    free(u->inl);
    free(u);
    u = next;
  }
}

void jit_freeproto(lua_State *L, Proto *p) {
  JitState *J = (JitState *)G(L)->jit;
  JitUnit **pu, *u = NULL;
  JitQueued **pq;
  if (J == NULL || J->orphaned) return;   /* (the thread has LLVM: the code stays) */
  if (__atomic_load_n(&J->regions, __ATOMIC_ACQUIRE) != NULL) {
    JitUnit *dead = NULL;
    pthread_mutex_lock(&J->lock);
    dropregions(J, p, &dead);
    pthread_mutex_unlock(&J->lock);
    if (dead != NULL) {
      pthread_mutex_lock(&J->belock);
      release_list(J, dead, 0);
      pthread_mutex_unlock(&J->belock);
    }
  }
  if (p->jitcode == NULL || p->jitcode == JIT_NOCODE) return;
  pthread_mutex_lock(&J->lock);
  for (pq = &J->qhead; *pq != NULL; pq = &(*pq)->next)
    if ((*pq)->p == p) {   /* queued: the thread will not see it */
      JitQueued *q = *pq;
      *pq = q->next;
      free(q->inl);
      if (J->qtail == q) {   /* recompute the tail */
        JitQueued *t = J->qhead;
        while (t != NULL && t->next != NULL) t = t->next;
        J->qtail = t;
      }
      free(q);
      break;
    }
  while (J->compiling == p)   /* the thread reads it: wait for the result */
    pthread_cond_wait(&J->done, &J->lock);
  /* an unreachable proto cannot be running: its code can go now */
  for (pu = &J->units; *pu != NULL; pu = &(*pu)->next)
    if ((*pu)->p == p) {
      u = *pu;
      *pu = u->next;
      break;
    }
  p->jitcode = NULL;
  pthread_mutex_unlock(&J->lock);
  if (u != NULL) {
    pthread_mutex_lock(&J->belock);
    backend->release(J->bs, u->handle);
    pthread_mutex_unlock(&J->belock);
    free(u->inl);
    free(u);
  }
}

void jit_flush(lua_State *L) {
  JitState *J = (JitState *)G(L)->jit;
  JitUnit *u;
  if (J == NULL) return;
  /* compiled code may be running below us: unhook it from the protos but
  ** keep it mapped (with its stack maps) until the VM closes; what the
  ** compile thread finishes later is installed as usual */
  pthread_mutex_lock(&J->lock);
  while ((u = J->units) != NULL) {
    J->units = u->next;
    u->p->jitcode = NULL;
    u->p->hotcount = 0;
    u->p->jitlook = 0;
    u->next = J->flushed;
    J->flushed = u;
  }
  for (u = J->regions; u != NULL; u = u->next) u->p->hotcount = 0;
  dropregions(J, NULL, &J->flushed);
  pthread_mutex_unlock(&J->lock);
}

void jit_stopthread(lua_State *L) {
  JitState *J = (JitState *)G(L)->jit;
  JitQueued *q;
  if (J == NULL || !J->hasthread) return;
  pthread_mutex_lock(&J->lock);
  J->background = 0;        /* later compiles (finalizers) run right away */
  while ((q = J->qhead) != NULL) {   /* queued: back to "not tried" */
    J->qhead = q->next;
    q->p->jitcode = NULL;
    free(q->inl);
    free(q);
  }
  J->qtail = NULL;
  J->stop = 1;
  pthread_cond_signal(&J->wake);
  /* (building the IR reads the proto: that much is waited for) */
  while (J->forexit && J->compiling != NULL && !J->inllvm)
    pthread_cond_wait(&J->done, &J->lock);
  if (J->forexit && J->inllvm) {   /* leave it behind (JitState.orphaned) */
    J->orphaned = 1;
    __atomic_store_n(&J->broken, 1, __ATOMIC_RELEASE);   /* no compiles from here on */
    if (J->leftflag != NULL) *J->leftflag = 1;
    pthread_mutex_unlock(&J->lock);
    pthread_detach(J->thread);
    J->hasthread = 0;
    return;
  }
  pthread_mutex_unlock(&J->lock);
  J->closewait = now();
  pthread_join(J->thread, NULL);   /* after the compile in progress */
  J->closewait = now() - J->closewait;
  J->hasthread = 0;
}

void jit_forexit(lua_State *L, int *left) {
  JitState *J = (JitState *)G(L)->jit;
  if (J == NULL) return;
  pthread_mutex_lock(&J->lock);
  J->forexit = 1;
  J->leftflag = left;
  pthread_mutex_unlock(&J->lock);
}

void jit_close(lua_State *L) {
  global_State *g = G(L);
  JitState *J = (JitState *)g->jit;
  if (J == NULL) return;
  jit_stopthread(L);
  if (J->stats) print_stats(J);
  if (J->orphaned) {   /* the thread still uses J and the backend */
    g->jit = NULL;
    g->jitran = NULL;
    return;
  }
  if (J->bs != NULL) {
    /* protos are freed before us (gc_freeall): only dropped code is left */
    release_list(J, J->units, 0);
    release_list(J, J->flushed, 0);
    release_list(J, J->regions, 0);
    backend->freestate(J->bs);
  }
  sm_regfree(&J->stackmaps);
  while (J->oldfb != NULL) {
    struct JitOldFb *o = J->oldfb;
    J->oldfb = o->next;
    mvm_freevector(L, o->b, o->n, uint8_t);
    free(o);
  }
  if (J->vminstr >= 0) close(J->vminstr);
  pthread_mutex_destroy(&J->lock);
  pthread_mutex_destroy(&J->belock);
  pthread_cond_destroy(&J->wake);
  pthread_cond_destroy(&J->done);
  free(J->ctimes);
  free(J);
  g->jit = NULL;
  g->jitran = NULL;
}

LUA_API void mvm_jitstats(lua_State *L, mvm_JITStats *st) {
  JitState *J = (JitState *)G(L)->jit;
  memset(st, 0, sizeof *st);
  if (J == NULL) return;
  pthread_mutex_lock(&J->lock);
  st->functions_compiled = J->ncompiled;
  st->compile_failures = J->nunsupported + J->nfailed;
  st->stackmaps = J->stackmaps.n;
  st->side_exits = J->nexits;
  st->loops_compiled = J->nosr;
  st->code_bytes = J->codebytes;
  st->compile_ms = J->compile_seconds * 1e3;
  pthread_mutex_unlock(&J->lock);
}

LUA_API void mvm_jitflush(lua_State *L) {
  jit_flush(L);
}

/* A compiled frame's anchor has no record: the anchor was recorded by
** something other than a helper called from compiled code, or code was
** released while running.  Either way the frame's references cannot be
** found, and continuing would corrupt the heap. */
static l_noret walkfatal(lua_State *L, CallInfo *ci, const char *what) {
  Proto *p = v_lcl(*ci->func)->p;
  fprintf(stderr, "mvm: internal error: walking the compiled frame of %s:%d "
          "(return address %p, sp %p): %s\n", p->source ? getstr(p->source) : "?",
          p->linedefined, jit_anchorra(ci), (void *)ci->u.l.jitsp, what);
  abort();
}

void jit_walkframes(lua_State *L, SMVisitor visit, void *ud) {
  JitState *J = (JitState *)G(L)->jit;
  CallInfo *ci;
  if (J == NULL) return;
  for (ci = L->ci; ci != NULL; ci = ci->previous) {
    const SMRecord *r;
    SMWalkStats st = {0, 0, 0};
    const char *err;
    if (!(ci->callstatus & CIST_JITACT)) continue;
    /* a suspended or dead coroutine has no C stack (jit_unwound); checked
    ** under MVM_GC_STRESS (a C hook could, in theory, allocate between its
    ** lua_yield and its return, with the frames still running) */
    if (J->stresspoll && L->status != LUA_OK)
      walkfatal(L, ci, "frame of a suspended coroutine marked running");
    r = sm_lookup(&J->stackmaps, (uintptr_t)jit_anchorra(ci));
    if (r == NULL) walkfatal(L, ci, "no stack-map record at the anchored return address");
    if (sm_walkrecord(r, (uintptr_t)ci->u.l.jitsp, visit, ud, &st, &err) != 0)
      walkfatal(L, ci, err);
    J->nwalked++;
    J->nslots += st.nbases;
    J->nmoved += st.nmoved + st.nderived;
  }
}

/* Is 'pc' (a frame's savedpc) an entry point of p's compiled code after
** a call?  As llvmgen.c's entrypoints(): after a TFORCALL, a CALL with
** fixed results, or a CALL with all results whose next instruction takes
** them (B == 0).  Entering compiled code anywhere else would be counted
** as a failed guard (JIT_EXITED). */
static int aftercall(const Proto *p, const Instruction *pc) {
  Instruction i;
  if (pc <= p->code) return 0;   /* (savedpc is never past the code) */
  i = pc[-1];
  if (GET_OPCODE(i) == OP_TFORCALL) return 1;
  if (GET_OPCODE(i) != OP_CALL) return 0;
  if (GETARG_C(i) != 0) return 1;
  switch (GET_OPCODE(*pc)) {
    case OP_CALL: case OP_SETLIST: case OP_RETURN: case OP_TAILCALL:
      return GETARG_B(*pc) == 0;
    default:
      return 0;
  }
}

/* Frames from L->ci down to 'low' (all if NULL) may run compiled code whose
** C frames a longjmp discarded (jit_unwound).  Such a frame stopped in a
** helper call (all of its state in the VM stack, savedpc after the
** instruction): the interpreter resumes it (unroll), and re-enters its
** compiled code after the call when that is an entry point (CIST_JIT, as
** after JIT_CALLED).  That costs a jit_run and the entry switch per
** resume, more than it saves in a generator that yields every few
** instructions; in -j on such generators are not compiled (jit_osr:
** switching), and the ones that are do real work between yields. */
void jit_unwoundframes(lua_State *L, const CallInfo *low) {
  CallInfo *ci;
  for (ci = L->ci; ci != NULL; ci = ci->previous) {
    unsigned short st = ci->callstatus;
    if (st & CIST_JITACT) {
      st &= (unsigned short)~CIST_JITACT;
      if (aftercall(v_lcl(*ci->func)->p, ci->u.l.savedpc))
        st |= CIST_JIT;
      ci->callstatus = st;
    }
    if (ci == low) break;   /* the lowest that can be active (jit.h) */
  }
}

const SMRegistry *jit_stackmaps(global_State *g) {
  return g->jit ? &((JitState *)g->jit)->stackmaps : NULL;
}

/* the ffi module (stdlib/ffi_call.c) publishes how compiled code may call
** its C functions directly (jit/llvmffi.c) */
void jit_setffi(lua_State *L, JitFFI *jf) {
  G(L)->ffijit = jf;
}
