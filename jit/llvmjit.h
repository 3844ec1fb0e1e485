/*
** llvmjit.h -- internals of the JIT backend (libmvmjit.so): the per-VM ORC
** session (llvmjit.c) and the bytecode -> LLVM IR generator (llvmgen.c).
*/
#ifndef mvm_llvmjit_h
#define mvm_llvmjit_h

#include <llvm-c/Core.h>
#include "jit.h"
#include "jitbackend.h"

/* LLVM's CallingConv::PreserveNone: the convention of the bodies of
** self-recursive functions (llvmgen.c selfconv) */
#define JIT_CALLCONV  21

/* A function attribute llvmgen.c sets on compiled functions whose entry
** safepoint poll only repeats a test every caller made (self-recursive
** bodies, functions without loops): llvmjit.c noentrypoll removes it */
#define JIT_NOENTRYPOLL  "mvm-noentrypoll"

/* Build the IR of 'p' into a new module in 'ctx': a function named 'name'
** with the signature of JitFunction, plus the module's gc.safepoint_poll.
** Returns NULL with JIT_UNSUPPORTED/JIT_ERROR in *status.  lo >= 0: code
** for instructions lo..hi only, entered only at their entry points; every
** way out of them leaves to the interpreter (an OSR region, jit.c).
** 'inl': CALL sites whose predicted callee may be evaluated inline. */
LUAI_FUNC LLVMModuleRef llvmgen_module(LLVMContextRef ctx, JitState *J, lua_State *L, Proto *p,
                                       int lo, int hi, const JitInline *inl, int ninl,
                                       const char *name, const char *const *opnames,
                                       int *status, const char **why);

/* 1 when the code of 'p''s instructions lo..hi (all of 'p' when lo < 0)
** or of an inlined callee jumps backwards (llvmjit.c picks the pipeline) */
LUAI_FUNC int llvmgen_hasloop(const Proto *p, int lo, int hi, const JitInline *inl, int ninl);

/* 0 when an alloca of a gc pointer (a Lua register sroa did not promote)
** is left in 'm' after optimisation: the function must not be used */
LUAI_FUNC int llvmgen_check_promoted(LLVMModuleRef m);

#endif
