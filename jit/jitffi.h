/*
** jitffi.h -- what compiled code needs to call an ffi C function directly.
**
** Shared by the ffi module (stdlib/ffi_call.c, which fills it in), the core
** (jit_setffi: one pointer in global_State) and the backend
** (jit/llvmffi.c).  Deliberately free of internal headers: the ffi module
** uses the public C API only.
**
** The ffi module of a VM publishes one JitFFI, embedded in its state (a
** full userdata, which never moves) and valid until the state is closed.
** At compile time the backend observes a callee (an upvalue loaded just
** before a CALL); if it is a cdata (its metatable is the cdata metatable,
** user value 1 of the state's userdata) 'describe' says whether its C
** function can be called directly and how.  The compiled call is guarded at
** run time by the same metatable test, the cdata's type id and flags, and
** the function address, so it is exactly the call that was observed.
*/
#ifndef mvm_jitffi_h
#define mvm_jitffi_h

#include <stddef.h>
#include <stdint.h>
#include "lua.h"

/* kinds of a parameter or result */
enum { JFK_NONE, JFK_VOID, JFK_INT, JFK_BOOL, JFK_PTR, JFK_F32, JFK_F64 };

#define JITFFI_MAXARGS 16

/* layout of the cdata payload (stdlib/ffi_int.h CData, checked there) */
#define JITFFI_CD_ID     0    /* int: type id */
#define JITFFI_CD_FLAGS  4    /* uint32_t: CD_* flags; 0 for a plain value */
#define JITFFI_CD_P      8    /* void *: the C value (the function address) */
#define JITFFI_CD_NUV    2    /* user values of every cdata */

typedef struct JitFFISig {
  void *fn;                   /* the C function */
  int ctid;                   /* the callee's type id */
  int nargs;
  uint8_t rkind, rsize, runsigned;
  uint8_t akind[JITFFI_MAXARGS];
  uint8_t asize[JITFFI_MAXARGS];
  uint8_t aunsigned[JITFFI_MAXARGS];
  uint8_t astring[JITFFI_MAXARGS];   /* JFK_PTR: a Lua string may be passed */
} JitFFISig;

typedef struct JitFFI {
  /* the memory of the ffi state's full userdata; its user value 1 is the
  ** cdata metatable (a Value the collector updates when the table moves) */
  const void *stateud;
  /* compile time: 1 and *out when the cdata payload 'cd' is a C function
  ** that compiled code may call directly */
  int (*describe)(struct JitFFI *jf, const void *cd, JitFFISig *out);
  /* run time, around the direct call: 'frame' is framesize bytes of the
  ** compiled function's stack frame.  enter makes callbacks run on L and
  ** sets errno = ffi.errno(); leave saves errno and re-raises an error a
  ** callback raised (may raise) */
  void (*enter)(struct JitFFI *jf, lua_State *L, void *frame);
  void (*leave)(struct JitFFI *jf, lua_State *L, void *frame);
  size_t framesize;
} JitFFI;

/* core: publish the ffi module's JitFFI of L's VM (NULL to withdraw) */
void jit_setffi(lua_State *L, JitFFI *jf);

#endif
