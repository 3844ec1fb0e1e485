/*
** jitbackend.h -- the interface between the VM core (libmvm, no LLVM) and
** the JIT backend libmvmjit.so (the only code that links LLVM).
**
** The core dlopen()s libmvmjit.so on the first compile and calls its one
** exported function, mvm_jit_backend(), handing over a MvmJitHost: the
** stack-map registry functions and the addresses of the runtime helpers
** that compiled code calls.  Everything else in the core is hidden
** (-fvisibility=hidden), so the backend reaches the VM only through this
** table and through the struct layouts of the internal headers, which both
** sides are compiled with (MVM_JIT_ABI is bumped whenever either changes).
*/
#ifndef mvm_jitbackend_h
#define mvm_jitbackend_h

#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>

#include "state.h"
#include "stackmap.h"

#define MVM_JIT_ABI  29

struct JitState;
struct JitInline;

/* MVM_JIT_STATS=4 (both sides): a counter of the calling thread's
** user-mode instructions (perf_event_open; read() gives a long long), or
** -1 where perf events are not available.  Counts are reproducible on a
** loaded machine where times are not. */
static inline int jit_instrcounter(void) {
  struct perf_event_attr a;
  memset(&a, 0, sizeof a);
  a.type = PERF_TYPE_HARDWARE;
  a.size = sizeof a;
  a.config = PERF_COUNT_HW_INSTRUCTIONS;
  a.exclude_kernel = 1;
  a.exclude_hv = 1;
  return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
}

/* a runtime helper callable from compiled code */
typedef struct JitHelper {
  const char *name;     /* symbol name in compiled code ("mvmrt_*") */
  void *addr;
} JitHelper;

typedef struct MvmJitHost {
  int abi;
  size_t sizeof_proto, sizeof_callinfo, sizeof_state;   /* layout sanity check */
  StackMap *(*sm_parse)(const void *section, size_t size, const char **err);
  void (*sm_free)(StackMap *sm);
  int (*sm_register)(SMRegistry *reg, StackMap *sm);
  int (*sm_unregister)(SMRegistry *reg, StackMap *sm);
  const JitHelper *helpers;
  int nhelpers;
  const char *const *opnames;
} MvmJitHost;

/* result of a compile attempt */
#define JIT_OK           0
#define JIT_UNSUPPORTED  1   /* bytecode outside what the compiler handles */
#define JIT_ERROR        2   /* LLVM failed (message in *why) */

typedef struct MvmJitBackend {
  int abi;
  /* per-VM backend state (LLJIT etc.), NULL + *err on failure */
  void *(*newstate)(struct JitState *J, const MvmJitHost *host, const char **err);
  void (*freestate)(void *bs);
  /* compile 'p'; on JIT_OK sets *entry (the compiled function) and *handle
  ** (to release the code and its stack maps).  lo >= 0: only the region of
  ** instructions lo..hi (an OSR region, jit.c): the rest exits; 'inl':
  ** 'ninl' CALL sites whose predicted callee may be evaluated inline */
  int (*compile)(void *bs, lua_State *L, Proto *p, int lo, int hi,
                 const struct JitInline *inl, int ninl, void **entry,
                 void **handle, const char **why);
  void (*release)(void *bs, void *handle);
} MvmJitBackend;

/* the one symbol libmvmjit.so exports */
typedef const MvmJitBackend *(*mvm_jit_backend_fn)(void);
#define MVM_JIT_BACKEND_SYM "mvm_jit_backend"

#endif
