/*
** mvm.h -- mvm's extensions to the Lua 5.4 C API.
**
** Everything in lua.h / lauxlib.h / lualib.h behaves as in stock Lua 5.4.
** This header adds what a host of mvm may want beyond that: JIT control and
** an asynchronous interrupt.  All functions take any thread of a VM and act
** on the whole VM (its global state).
*/
#ifndef mvm_h
#define mvm_h

#include "lua.h"

#define MVM_VERSION_MAJOR  0
#define MVM_VERSION_MINOR  1
#define MVM_VERSION_PATCH  0
#define MVM_VERSION        "0.1"
#define MVM_RELEASE        "0.1.0"
#define MVM_VERSION_NUM    (MVM_VERSION_MAJOR * 10000 + MVM_VERSION_MINOR * 100 \
                            + MVM_VERSION_PATCH)

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
** keeps running; the mode decides what gets compiled from now on.
*/
LUA_API int (mvm_jitmode) (lua_State *L, int mode);

/*
** Parse a JIT mode name: "off", "on" or "eager" (also "0", "1", "2").
** Returns the MVM_JIT_* value, or -1 if 'name' is not a mode name.
** Does not need a lua_State (the command line parses -j before the VM exists).
*/
LUA_API int (mvm_jitmodename) (const char *name);

/* JIT statistics of a VM (mvm_jitstats) */
typedef struct mvm_JitStats {
  unsigned long compiled;      /* functions compiled to native code */
  unsigned long failed;        /* compile attempts that stayed interpreted */
  unsigned long stackmaps;     /* stack-map records registered (live code) */
  double compile_ms;           /* time spent compiling */
} mvm_JitStats;

/*
** Fill '*st' with the JIT statistics of the VM that 'L' belongs to.  All
** zero until something was compiled.
*/
LUA_API void (mvm_jitstats) (lua_State *L, mvm_JitStats *st);

/*
** Forget all compiled code of the VM: functions go back to the
** interpreter (and may be compiled again when hot).
*/
LUA_API void (mvm_jitflush) (lua_State *L);

/*
** Request an interrupt of the VM that 'L' belongs to.  The next time the
** interpreter or compiled code reaches a safe point (calls, loop back-edges),
** it raises the Lua error "interrupted" in the running thread, which a pcall
** can catch.  Async-signal-safe and callable from any thread: it only stores
** a flag.  Requests do not queue: several calls before the next check raise
** one error.
*/
LUA_API void (mvm_interrupt) (lua_State *L);

/*
** Withdraw a pending interrupt request (one not yet turned into an error).
** Hosts call it before starting new work so that a late request aimed at
** earlier work does not hit the new one.  Async-signal-safe.
*/
LUA_API void (mvm_clearinterrupt) (lua_State *L);

#endif
