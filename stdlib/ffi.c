/*
** ffi.c -- the 'ffi' library (LuaJIT's FFI interface on libffi), reached
** through require("ffi"): luaL_openlibs registers luaopen_ffi in
** package.preload.  See docs/ffi.md for what is supported.
**
** Loading the module also wraps the globals 'tonumber' (converts number
** cdata) and 'type' (answers "cdata" for cdata), as LuaJIT's built-ins do.
*/
#include <dlfcn.h>
#include <errno.h>
#include <string.h>

#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"

#include "ffi_int.h"

#define NS_MT "mvm.ffi.namespace"

typedef struct Namespace {
  void *handle;
  int isC;
} Namespace;

static void push_ctype(lua_State *L, int id) {
  CData *cd = lua_newuserdatauv(L, sizeof(CData) + sizeof(lua_Integer), 2);
  cd->id = id;
  cd->flags = CD_CTYPE;
  cd->p = cd + 1;
  cd->n = 0;
  *(lua_Integer *)cd->p = id;
  cd_setmt(L, &ffi_key_mt);
}

/* ---------------------------------------------------------------- namespaces */

static int ns_index(lua_State *L) {
  FFIState *S = ffi_state(L);
  Namespace *ns = luaL_checkudata(L, 1, NS_MT);
  const char *name = luaL_checkstring(L, 2);
  lua_getiuservalue(L, 1, 1);   /* cache of constants and functions */
  lua_pushvalue(L, 2);
  if (lua_rawget(L, -2) != LUA_TNIL) return 1;
  lua_pop(L, 1);
  CName *n = name_find(S, name);
  if (n == NULL || n->kind == N_TYPEDEF || n->kind == N_TAG)
    return luaL_error(L, "missing declaration for symbol '%s'", name);
  if (n->kind == N_CONST) {
    if (ct_isint64(ctype(S, n->type))) cd_tolua_int64(L, S, n->value, ctype(S, n->type)->flags & CTF_UNSIGNED);
    else lua_pushinteger(L, n->value);
  } else {
    dlerror();
    void *sym = dlsym(ns->handle, name);
    if (sym == NULL) return luaL_error(L, "cannot resolve symbol '%s'", name);
    if (n->kind == N_VAR) {
      cd_push(L, S, n->type, sym, 0);
      return 1;
    }
    CData *cd = cd_new(L, S, n->type, 0);   /* FUNC: the payload is the address */
    *(void **)cd->p = sym;
    lua_pushvalue(L, 2);
    lua_setiuservalue(L, -2, 2);            /* the name, for argument errors */
  }
  lua_pushvalue(L, 2);
  lua_pushvalue(L, -2);
  lua_rawset(L, -4);
  return 1;
}

static int ns_newindex(lua_State *L) {
  FFIState *S = ffi_state(L);
  Namespace *ns = luaL_checkudata(L, 1, NS_MT);
  const char *name = luaL_checkstring(L, 2);
  CName *n = name_find(S, name);
  if (n == NULL || n->kind != N_VAR)
    return luaL_error(L, "missing declaration for symbol '%s'", name);
  void *sym = dlsym(ns->handle, name);
  if (sym == NULL) return luaL_error(L, "cannot resolve symbol '%s'", name);
  if (ctype(S, n->type)->flags & CTF_CONST)
    return luaL_error(L, "attempt to write to constant location");
  cd_convert(L, S, n->type, sym, 3, CONV_STORE, 0);
  return 0;
}

static int ns_gc(lua_State *L) {
  Namespace *ns = luaL_checkudata(L, 1, NS_MT);
  if (ns->handle != NULL && !ns->isC) dlclose(ns->handle);
  ns->handle = NULL;
  return 0;
}

static int ns_tostring(lua_State *L) {
  Namespace *ns = luaL_checkudata(L, 1, NS_MT);
  lua_pushfstring(L, "ffi.namespace: %p", (void *)ns);
  return 1;
}

static void new_namespace(lua_State *L, void *handle, int isC) {
  Namespace *ns = lua_newuserdatauv(L, sizeof(Namespace), 1);
  ns->handle = handle;
  ns->isC = isC;
  lua_newtable(L);
  lua_setiuservalue(L, -2, 1);
  luaL_setmetatable(L, NS_MT);
}

/* ffi.load(name [, global]): "m" -> libm.so, paths and file names as given */
static int f_load(lua_State *L) {
  const char *name = luaL_checkstring(L, 1);
  int global = lua_toboolean(L, 2);
  int flags = RTLD_NOW | (global ? RTLD_GLOBAL : RTLD_LOCAL);
  void *h = NULL;
  const char *err = NULL;
  if (strchr(name, '/') == NULL && strstr(name, ".so") == NULL) {
    const char *lib = lua_pushfstring(L, "lib%s.so", name);
    h = dlopen(lib, flags);
    if (h == NULL) err = lua_pushstring(L, dlerror());
  }
  if (h == NULL) {
    h = dlopen(name, flags);
    if (h == NULL && err == NULL) err = lua_pushstring(L, dlerror());
  }
  if (h == NULL) return luaL_error(L, "cannot load library '%s': %s", name, err);
  new_namespace(L, h, 0);
  return 1;
}

/* ---------------------------------------------------------------- library */

static int f_cdef(lua_State *L) {
  FFIState *S = ffi_state(L);
  const char *src = luaL_checkstring(L, 1);
  /* a new typedef may change what a type string means: drop the cache */
  luaL_unref(L, LUA_REGISTRYINDEX, S->tcache);
  lua_newtable(L);
  S->tcache = luaL_ref(L, LUA_REGISTRYINDEX);
  cdecl_parse(L, S, src);
  return 0;
}

static int f_new(lua_State *L) {
  FFIState *S = ffi_state(L);
  int id = cd_checktype(L, S, 1, NULL);
  CType *ct = ctype(S, id);
  size_t n = 0;
  int first = 2;
  if (ct->kind == CT_ARRAY && (ct->flags & (CTF_VLA | CTF_FLEX))) {
    lua_Integer k = luaL_checkinteger(L, 2);
    if (k < 0) return luaL_argerror(L, 2, "negative size");
    n = (size_t)k;
    first = 3;
  } else if (!(ct->flags & CTF_COMPLETE) || ct->kind == CT_VOID || ct->kind == CT_FUNC) {
    return luaL_error(L, "cannot create cdata of incomplete type '%s'", ct_pushname(L, S, id));
  }
  int top = lua_gettop(L);
  CData *cd = cd_new(L, S, id, n);
  cd_init(L, S, id, cd->p, n, first, top);
  return 1;
}

static int f_typeof(lua_State *L) {
  FFIState *S = ffi_state(L);
  push_ctype(L, cd_checktype(L, S, 1, NULL));
  (void)S;
  return 1;
}

static int f_cast(lua_State *L) {
  FFIState *S = ffi_state(L);
  int id = cd_checktype(L, S, 1, NULL);
  CType *ct = ctype(S, id);
  luaL_checkany(L, 2);
  if (!(ct->flags & CTF_COMPLETE) || ct->kind == CT_VOID || ct->kind == CT_FUNC ||
      ct->kind == CT_ARRAY)
    return luaL_error(L, "invalid C type for cast: '%s'", ct_pushname(L, S, id));
  CData *cd = cd_new(L, S, ct_unqual(S, id), 0);
  cd_convert(L, S, id, cd->p, 2, CONV_CAST, 0);
  return 1;
}

static int f_sizeof(lua_State *L) {
  FFIState *S = ffi_state(L);
  CData *cd = cd_test(L, 1);
  if (cd != NULL && !(cd->flags & CD_CTYPE)) {
    lua_pushinteger(L, (lua_Integer)cd_size(S, cd));
    return 1;
  }
  int id = cd_checktype(L, S, 1, NULL);
  CType *ct = ctype(S, id);
  if (ct->kind == CT_ARRAY && (ct->flags & (CTF_VLA | CTF_FLEX))) {
    if (lua_isnoneornil(L, 2)) { lua_pushnil(L); return 1; }
    lua_pushinteger(L, luaL_checkinteger(L, 2) * (lua_Integer)ctype(S, ct->base)->size);
    return 1;
  }
  if (!(ct->flags & CTF_COMPLETE) || ct->kind == CT_FUNC) { lua_pushnil(L); return 1; }
  lua_pushinteger(L, (lua_Integer)ct->size);
  return 1;
}

static int f_alignof(lua_State *L) {
  FFIState *S = ffi_state(L);
  int id = cd_checktype(L, S, 1, NULL);
  lua_pushinteger(L, (lua_Integer)ctype(S, id)->align);
  return 1;
}

static int f_offsetof(lua_State *L) {
  FFIState *S = ffi_state(L);
  int id = cd_checktype(L, S, 1, NULL);
  const char *name = luaL_checkstring(L, 2);
  size_t off;
  CField *f = ct_field(S, id, name, &off);
  if (f == NULL) return 0;
  lua_pushinteger(L, (lua_Integer)off);
  if (f->bitwidth < 0) return 1;
  lua_pushinteger(L, (lua_Integer)(off - f->offset) * 8 + f->bitpos);
  lua_pushinteger(L, f->bitwidth);
  return 3;
}

static int f_istype(lua_State *L) {
  FFIState *S = ffi_state(L);
  int id = cd_checktype(L, S, 1, NULL);
  CData *cd = cd_test(L, 2);
  lua_pushboolean(L, cd != NULL && !(cd->flags & CD_CTYPE) && ct_same(S, id, cd->id));
  return 1;
}

static int f_string(lua_State *L) {
  FFIState *S = ffi_state(L);
  const char *p = cd_getptr(L, S, 1, 1);
  if (p == NULL) return luaL_argerror(L, 1, "NULL pointer");
  if (!lua_isnoneornil(L, 2)) {
    lua_Integer n = luaL_checkinteger(L, 2);
    if (n < 0) return luaL_argerror(L, 2, "negative length");
    lua_pushlstring(L, p, (size_t)n);
  } else {
    lua_pushstring(L, p);
  }
  return 1;
}

static int f_copy(lua_State *L) {
  FFIState *S = ffi_state(L);
  void *dst = cd_getptr(L, S, 1, 0);
  size_t n;
  const void *src;
  if (lua_isnoneornil(L, 3)) {
    src = luaL_checklstring(L, 2, &n);
    n++;   /* with the terminating NUL */
  } else {
    src = cd_getptr(L, S, 2, 1);
    lua_Integer k = luaL_checkinteger(L, 3);
    if (k < 0) return luaL_argerror(L, 3, "negative length");
    n = (size_t)k;
  }
  if (n > 0 && (dst == NULL || src == NULL)) return luaL_error(L, "attempt to copy through a NULL pointer");
  memmove(dst, src, n);
  return 0;
}

static int f_fill(lua_State *L) {
  FFIState *S = ffi_state(L);
  void *dst = cd_getptr(L, S, 1, 0);
  lua_Integer n = luaL_checkinteger(L, 2);
  int c = (int)luaL_optinteger(L, 3, 0);
  if (n < 0) return luaL_argerror(L, 2, "negative length");
  if (n > 0 && dst == NULL) return luaL_error(L, "attempt to fill through a NULL pointer");
  memset(dst, c, (size_t)n);
  return 0;
}

static int f_errno(lua_State *L) {
  FFIState *S = ffi_state(L);
  lua_pushinteger(L, S->err);
  if (!lua_isnoneornil(L, 1)) {
    S->err = (int)luaL_checkinteger(L, 1);
    errno = S->err;
  }
  return 1;
}

static int f_gc(lua_State *L) {
  CData *cd = cd_test(L, 1);
  if (cd == NULL || (cd->flags & CD_CTYPE)) return luaL_typeerror(L, 1, "cdata");
  lua_settop(L, 2);
  if (lua_isnil(L, 2)) {
    cd->flags &= ~CD_GC;
  } else {
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_pushvalue(L, 2);
    lua_setiuservalue(L, 1, 2);
    if (!(cd->flags & CD_GC)) {
      cd->flags |= CD_GC;
      lua_pushvalue(L, 1);
      cd_setmt(L, &ffi_key_gcmt);   /* registers it for finalization */
      lua_pop(L, 1);
    }
  }
  lua_settop(L, 1);
  return 1;
}

static int f_metatype(lua_State *L) {
  FFIState *S = ffi_state(L);
  int id = ct_unqual(S, cd_checktype(L, S, 1, NULL));
  luaL_checktype(L, 2, LUA_TTABLE);
  CType *ct = ctype(S, id);
  if (ct->kind != CT_STRUCT && ct->kind != CT_UNION)
    return luaL_argerror(L, 1, "struct or union type expected");
  if (ct->mtref != LUA_NOREF) return luaL_error(L, "cannot change a protected metatable");
  lua_pushvalue(L, 2);
  ct->mtref = luaL_ref(L, LUA_REGISTRYINDEX);
  push_ctype(L, id);
  return 1;
}

static int f_abi(lua_State *L) {
  const char *what = luaL_checkstring(L, 1);
  static const char *const yes[] = {"64bit", "le", "fpu", "hardfp", NULL};
  int r = 0;
  for (int i = 0; yes[i]; i++) if (strcmp(what, yes[i]) == 0) r = 1;
  if (sizeof(void *) != 8 && strcmp(what, "64bit") == 0) r = 0;
  if (strcmp(what, "32bit") == 0) r = sizeof(void *) == 4;
  lua_pushboolean(L, r);
  return 1;
}

/* tonumber and type, aware of cdata; the originals are upvalue 1 */
static int g_tonumber(lua_State *L) {
  if (lua_type(L, 1) == LUA_TUSERDATA && cd_test(L, 1) != NULL)
    return cd_tonumber(L, ffi_state(L), 1);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
  return lua_gettop(L);
}

static int g_type(lua_State *L) {
  luaL_checkany(L, 1);
  if (lua_type(L, 1) == LUA_TUSERDATA && cd_test(L, 1) != NULL) {
    lua_pushliteral(L, "cdata");
    return 1;
  }
  lua_pushstring(L, luaL_typename(L, 1));
  return 1;
}

static int state_gc(lua_State *L) {
  FFIState *S = lua_touserdata(L, 1);
  jit_setffi(L, NULL);
  ffi_freestate(S);
  return 0;
}

static const luaL_Reg ffi_funcs[] = {
  {"cdef", f_cdef}, {"load", f_load}, {"new", f_new}, {"typeof", f_typeof},
  {"cast", f_cast}, {"sizeof", f_sizeof}, {"alignof", f_alignof},
  {"offsetof", f_offsetof}, {"istype", f_istype}, {"string", f_string},
  {"copy", f_copy}, {"fill", f_fill}, {"errno", f_errno}, {"gc", f_gc},
  {"metatype", f_metatype}, {"abi", f_abi},
  {NULL, NULL}
};

LUAMOD_API int luaopen_ffi(lua_State *L) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &ffi_key_state) == LUA_TNIL) {
    lua_pop(L, 1);
    FFIState *S = lua_newuserdatauv(L, sizeof(FFIState), 1);
    memset(S, 0, sizeof *S);
    lua_newtable(L);
    lua_pushcfunction(L, state_gc);
    lua_setfield(L, -2, "__gc");
    lua_setmetatable(L, -2);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &ffi_key_state);
    ffi_initstate(L, S);
    cd_openmeta(L, S);
    /* user value 1 of the state: the cdata metatable, which compiled code
    ** compares with a callee's (jit/jitffi.h) */
    lua_rawgetp(L, LUA_REGISTRYINDEX, &ffi_key_state);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &ffi_key_mt);
    lua_setiuservalue(L, -2, 1);
    lua_pop(L, 1);
    ffi_jitinit(L, S);
    luaL_newmetatable(L, NS_MT);
    lua_pushcfunction(L, ns_index); lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, ns_newindex); lua_setfield(L, -2, "__newindex");
    lua_pushcfunction(L, ns_gc); lua_setfield(L, -2, "__gc");
    lua_pushcfunction(L, ns_tostring); lua_setfield(L, -2, "__tostring");
    lua_pop(L, 1);
  } else {
    lua_pop(L, 1);
  }
  FFIState *S = ffi_state(L);
  luaL_newlib(L, ffi_funcs);
  new_namespace(L, RTLD_DEFAULT, 1);
  lua_setfield(L, -2, "C");
  lua_pushliteral(L, "Linux");
  lua_setfield(L, -2, "os");
#if defined(__x86_64__)
  lua_pushliteral(L, "x64");
#elif defined(__aarch64__)
  lua_pushliteral(L, "arm64");
#else
  lua_pushliteral(L, "unknown");
#endif
  lua_setfield(L, -2, "arch");
  CData *null = cd_new(L, S, T_VOIDP, 0);   /* ffi.nullptr == ffi.NULL: (void *)0 */
  (void)null;
  lua_pushvalue(L, -1);
  lua_setfield(L, -3, "nullptr");
  lua_setfield(L, -2, "NULL");
  /* cdata-aware tonumber and type */
  lua_getglobal(L, "tonumber");
  if (lua_tocfunction(L, -1) != g_tonumber) {
    lua_pushcclosure(L, g_tonumber, 1);
    lua_setglobal(L, "tonumber");
  } else lua_pop(L, 1);
  lua_pushcfunction(L, g_type);
  lua_setglobal(L, "type");
  return 1;
}
