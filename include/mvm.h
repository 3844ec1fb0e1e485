/*
** mvm.h -- mvm's extensions to the Lua 5.4 C API.
**
** Everything in lua.h / lauxlib.h / lualib.h behaves as in stock Lua 5.4
** (and is binary compatible with it: C modules built against Debian's
** liblua5.4-dev headers load unchanged).  This header adds what a host of
** mvm may want beyond that:
**
**   version       mvm_version
**   memory        mvm_setheaplimit, mvm_getheaplimit, mvm_gcstats
**   interrupts    mvm_interrupt, mvm_clearinterrupt
**   JIT           mvm_jitmode, mvm_jitmodename, mvm_jitstats, mvm_jitflush
**
** Unless said otherwise a function takes any thread of a VM and acts on the
** whole VM (its global state), and -- like the rest of the API -- must be
** called from the thread that is running that VM, never concurrently with
** it.  The exceptions are mvm_interrupt and mvm_clearinterrupt, which may be
** called at any moment from any thread or from a signal handler.
**
** Separate VMs (separate luaL_newstate calls) share no mutable state: any
** number of them may run in parallel, one OS thread each.
**
** Link with -lmvm (pkg-config --cflags --libs mvm, or find_package(mvm) and
** the imported target mvm::mvm in CMake).
*/
#ifndef mvm_h
#define mvm_h

#include <stddef.h>
#include "lua.h"

/* Version of these headers.  mvm_version() tells the version of the library
** actually loaded, which may be newer. */
#define MVM_VERSION_MAJOR  0
#define MVM_VERSION_MINOR  1
#define MVM_VERSION_PATCH  0
#define MVM_VERSION        "0.1"
#define MVM_RELEASE        "0.1.0"
#define MVM_VERSION_NUM    (MVM_VERSION_MAJOR * 10000 + MVM_VERSION_MINOR * 100 \
                            + MVM_VERSION_PATCH)


/* ------------------------------------------------------------- version */

/*
** Return the release string of the running library ("0.1.0") and, when
** 'num' is not NULL, store its MVM_VERSION_NUM-style number in *num.  Does
** not need a lua_State.  A host compiled against these headers can compare
** it with MVM_VERSION_NUM to detect a mismatched library.
*/
LUA_API const char *(mvm_version) (int *num);


/* -------------------------------------------------------------- memory */

/*
** Set the heap limit of the VM to 'bytes' (0 = no limit) and return the
** previous limit.  The limit covers everything the collector accounts for:
** objects plus their out-of-line parts (table arrays, stacks, buffers).
** An allocation that would pass it first triggers an emergency full
** collection; if that does not make room, the allocation fails with the Lua
** error "not enough memory" (status LUA_ERRMEM), which pcall can catch.  The
** VM stays usable afterwards.  Setting a limit below the current use does
** not free anything; it only makes further growth fail.  The environment
** variable MVM_HEAP_LIMIT (bytes, or with a k/m/g suffix) sets the initial
** limit of every new state.
*/
LUA_API size_t (mvm_setheaplimit) (lua_State *L, size_t bytes);

/* Return the current heap limit of the VM in bytes (0 = no limit). */
LUA_API size_t (mvm_getheaplimit) (lua_State *L);

/* Collector statistics, filled by mvm_gcstats.  Counters are cumulative
** over the life of the VM.  New fields are only ever appended. */
typedef struct mvm_GCStats {
  size_t heap_bytes;        /* bytes in use now (same as collectgarbage"count"*1024) */
  size_t heap_limit;        /* current limit (0 = none) */
  size_t minor_collections; /* young-generation collections (0 while the
                               collector is non-generational) */
  size_t major_collections; /* full collections */
  size_t bytes_allocated;   /* total bytes ever allocated */
  size_t bytes_promoted;    /* bytes moved from the young to the old space */
  double max_pause_ms;      /* longest single collection pause */
  double total_pause_ms;    /* time spent in all collections */
} mvm_GCStats;

/* Fill '*st' with the collector statistics of the VM.  Never allocates,
** never collects. */
LUA_API void (mvm_gcstats) (lua_State *L, mvm_GCStats *st);


/* ---------------------------------------------------------- interrupts */

/*
** Request an interrupt of the VM that 'L' belongs to.  The next time the
** interpreter or compiled code reaches a safe point (every call and every
** loop back-edge), it raises the Lua error "interrupted" (status
** LUA_ERRRUN) in the running thread; a pcall can catch it, and the VM stays
** usable.  Async-signal-safe and callable from any OS thread: it only
** stores a flag (it does not lock, allocate or touch the Lua stack).
** Requests do not queue: several calls before the next check raise one
** error.  A request made while no Lua code runs stays pending and hits the
** next Lua code run in that VM (see mvm_clearinterrupt).  Long-running C
** functions (including library functions such as string.rep) are not
** interrupted in the middle; the error comes when they return to Lua code.
*/
LUA_API void (mvm_interrupt) (lua_State *L);

/*
** Withdraw a pending interrupt request (one not yet turned into an error).
** Hosts call it before starting new work so that a late request aimed at
** earlier work does not hit the new one.  Async-signal-safe.
*/
LUA_API void (mvm_clearinterrupt) (lua_State *L);


/* ----------------------------------------------------------------- JIT */

/* JIT modes for mvm_jitmode */
#define MVM_JIT_QUERY  (-1)  /* only report the current mode */
#define MVM_JIT_OFF    0     /* interpret everything */
#define MVM_JIT_ON     1     /* compile functions and loops once they are hot */
#define MVM_JIT_EAGER  2     /* compile every function on its first call */

/*
** Set the JIT mode of the VM that 'L' belongs to and return the previous
** mode.  'mode' is one of MVM_JIT_OFF, MVM_JIT_ON, MVM_JIT_EAGER, or
** MVM_JIT_QUERY (-1) to leave the mode unchanged and just return it.  Any
** other value is ignored and -1 is returned.  Code that is already compiled
** keeps running; the mode decides what gets compiled from now on.  The Lua
** library 'jit' (jit.on/jit.off/jit.status) drives the same setting.
*/
LUA_API int (mvm_jitmode) (lua_State *L, int mode);

/*
** Parse a JIT mode name: "off", "on" or "eager" (also "0", "1", "2").
** Returns the MVM_JIT_* value, or -1 if 'name' is not a mode name.
** Does not need a lua_State (the command line parses -j before the VM exists).
*/
LUA_API int (mvm_jitmodename) (const char *name);

/* JIT statistics, filled by mvm_jitstats.  New fields are only appended. */
typedef struct mvm_JITStats {
  size_t functions_compiled;  /* functions compiled to native code */
  size_t loops_compiled;      /* entries into compiled code at a loop header from an interpreted back-edge (OSR) */
  size_t compile_failures;    /* compile attempts that stayed interpreted */
  size_t side_exits;          /* exits from compiled code back to the interpreter (guards, unsupported paths) */
  size_t code_bytes;          /* bytes of native code currently held */
  double compile_ms;          /* time spent compiling */
  size_t stackmaps;           /* stack-map records registered for live code */
} mvm_JITStats;

/*
** Fill '*st' with the JIT statistics of the VM that 'L' belongs to.  All
** zero until something was compiled.  Never allocates.
*/
LUA_API void (mvm_jitstats) (lua_State *L, mvm_JITStats *st);

/*
** Forget all compiled code of the VM: functions go back to the
** interpreter (and may be compiled again when hot).
*/
LUA_API void (mvm_jitflush) (lua_State *L);

/*
** lua_close(L) for a host that ends the process right after it: a compile
** in progress in the background (LLVM takes tens of milliseconds for one)
** is left running instead of waited for.  Everything lua_close does for
** the program still happens (pending to-be-closed variables, finalizers),
** but the heap's memory is not given back piece by piece: the end of the
** process frees it (so the allocator passed to lua_newstate does not see
** those frees; L must not be used afterwards).
** Returns 1 when a compile was left running: the host must then end the
** process with _exit() (after fflush(NULL)), not exit() or a return from
** main, since LLVM's static destructors must not run under that compile;
** 0 otherwise (nothing left behind: end the process as usual).
*/
LUA_API int (mvm_closeforexit) (lua_State *L);


/* ---------------------------------------------------------- coroutines */

/*
** coroutine.resume's transfer in one step: move the top 'narg' values of L
** to the coroutine 'co', resume it (lua_resume(co, L, ...)) and move the
** values it yielded or returned to the top of L.  Returns how many (>= 0),
** or -1 with an error object on the top of L (the 'narg' values popped):
** "cannot resume non-suspended coroutine" (co is running or normal),
** "cannot resume dead coroutine", "too many arguments to resume", "too
** many results to resume" (co's status is then unchanged), or the error
** that co raised (lua_status(co) is then the error status; co keeps its
** frames for tracebacks).
*/
LUA_API int (mvm_resume) (lua_State *L, lua_State *co, int narg);

/*
** coroutine.yield as a lua_CFunction: lua_yield(L, lua_gettop(L)).  The
** interpreter knows it: called from a Lua function that runs directly under
** lua_resume (no C function in between), it yields by returning to
** lua_resume instead of unwinding the C stack with longjmp.
*/
LUA_API int (mvm_yield) (lua_State *L);

#endif
