/*
** test_otherllvm.c -- a host that has another LLVM loaded before mvm's JIT
** starts (a process whose graphics driver brought in Mesa's llvmpipe, or a
** host that uses LLVM itself) compiles Lua code with mvm's own LLVM 19 and
** keeps a working LLVM of its own.  With LLVM linked into libmvmjit.so and
** its symbols kept inside (CMakeLists.txt MVM_LLVM_STATIC), neither binds
** to the other's functions whatever that LLVM's build; Debian versions its
** libLLVM symbols (LLVM_15, LLVM_19.1, ...), so on Debian a backend linked
** with libLLVM.so (-DMVM_LLVM_STATIC=OFF) passes too.  The other LLVM is
** the first of libLLVM-18 .. -14 found; without one the test still checks
** the JIT from a plain host and says so.
*/
#include <dlfcn.h>
#include <stdlib.h>
#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"
#include "mvm.h"
#include "embedtest.h"

typedef void *(*ctxcreate_fn)(void);
typedef void (*ctxdispose_fn)(void *);
typedef void *(*modcreate_fn)(const char *, void *);
typedef void (*moddispose_fn)(void *);

/* the host's own use of its LLVM: a context and a module, made and freed;
** 1 when its functions were found and ran */
static int use_host_llvm(void *h) {
  ctxcreate_fn cc = (ctxcreate_fn)dlsym(h, "LLVMContextCreate");
  ctxdispose_fn cd = (ctxdispose_fn)dlsym(h, "LLVMContextDispose");
  modcreate_fn mc = (modcreate_fn)dlsym(h, "LLVMModuleCreateWithNameInContext");
  moddispose_fn md = (moddispose_fn)dlsym(h, "LLVMDisposeModule");
  void *ctx, *mod;
  if (cc == NULL || cd == NULL || mc == NULL || md == NULL) return 0;
  ctx = cc();
  mod = mc("host", ctx);
  md(mod);
  cd(ctx);
  return ctx != NULL && mod != NULL;
}

int main(void) {
  static const char *const others[] = {
    "libLLVM-18.so.1", "libLLVM-17.so.1", "libLLVM-16.so.1", "libLLVM-15.so.1",
    "libLLVM-14.so.1", NULL
  };
  void *h = NULL;
  const char *which = NULL;
  int i;
  lua_State *L;
  mvm_JITStats st;
  for (i = 0; others[i] != NULL && h == NULL; i++)
    if ((h = dlopen(others[i], RTLD_NOW | RTLD_GLOBAL)) != NULL) which = others[i];
  if (h != NULL) {
    printf("host LLVM: %s\n", which);
    CHECK(use_host_llvm(h));
  }
  else
    printf("no other LLVM installed: the JIT is checked from a plain host only\n");

  L = luaL_newstate();
  luaL_openlibs(L);
  mvm_jitmode(L, MVM_JIT_EAGER);
  CHECK(mvm_jitmode(L, MVM_JIT_QUERY) == MVM_JIT_EAGER);
  DOSTRING(L,
    "local function f(n) local s = 0; for i = 1, n do s = s + i % 7 end; return s end\n"
    "local t = {}\n"
    "for k = 1, 20 do t[k] = f(1000 * k) end\n"
    "assert(t[20] == f(20000) and t[1] == 3003, 'wrong sum ' .. tostring(t[1]))\n"
    "R = t[20]");
  lua_getglobal(L, "R");
  CHECK(lua_tointeger(L, -1) == 59998);   /* (lua5.4 agrees) */
  lua_pop(L, 1);
  mvm_jitstats(L, &st);
  CHECK(st.functions_compiled >= 1);   /* compiled with mvm's own LLVM */
  CHECK(st.compile_failures == 0);
  lua_close(L);

  if (h != NULL) {   /* and the host's LLVM still works */
    CHECK(use_host_llvm(h));
    dlclose(h);
  }
  return REPORT();
}
