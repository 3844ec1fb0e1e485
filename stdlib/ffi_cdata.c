/*
** ffi_cdata.c -- cdata objects and conversions.
**
** A cdata is a full userdata: a CData header, then the C value inline
** (16-byte aligned).  Userdata never move (mvm allocates them in the
** non-moving old space), so the address of the payload may be handed to C
** for as long as the cdata is reachable.  A "reference" cdata (CD_REF)
** designates an aggregate inside other memory: reading s.inner or a[i] of
** struct type yields one; its user value 1 keeps the owner alive.
**
** C -> Lua (cd_push): bool -> boolean, integers up to 32 bits and enums ->
** Lua integers, 64-bit integers -> boxed int64_t/uint64_t cdata, float and
** double -> Lua floats, pointers -> pointer cdata, aggregates -> references.
** Lua -> C (cd_convert) follows LuaJIT: nil -> NULL, strings -> const char *
** (or copied into char arrays), functions -> callbacks, tables initialize
** arrays and structs, cdata convert by type with pointer compatibility
** checks except in casts.
*/
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ffi_int.h"

CData *cd_test(lua_State *L, int idx) {
  if (lua_type(L, idx) != LUA_TUSERDATA || !lua_getmetatable(L, idx)) return NULL;
  lua_rawgetp(L, LUA_REGISTRYINDEX, &ffi_key_mt);
  int ok = lua_rawequal(L, -1, -2);
  if (!ok) {
    lua_pop(L, 1);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &ffi_key_gcmt);
    ok = lua_rawequal(L, -1, -2);
  }
  lua_pop(L, 2);
  return ok ? lua_touserdata(L, idx) : NULL;
}

/* set the metatable of the userdata on top: key is &ffi_key_mt or &ffi_key_gcmt */
void cd_setmt(lua_State *L, const char *key) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, key);
  lua_setmetatable(L, -2);
}

static CData *cd_check(lua_State *L, int idx) {
  CData *cd = cd_test(L, idx);
  if (cd == NULL) luaL_typeerror(L, idx, "cdata");
  return cd;
}

/* metatable set by ffi.metatype on the (unqualified) type, or NULL */
static int mt_push(lua_State *L, FFIState *S, int id, const char *event) {
  CType *ct = ctype(S, ct_unqual(S, id));
  if (ct->kind == CT_PTR) ct = ctype(S, ct_unqual(S, ct->base));
  if (ct->mtref == LUA_NOREF) return 0;
  lua_rawgeti(L, LUA_REGISTRYINDEX, ct->mtref);
  if (event == NULL) return 1;
  lua_getfield(L, -1, event);
  lua_remove(L, -2);
  if (lua_isnil(L, -1)) { lua_pop(L, 1); return 0; }
  return 1;
}

static CData *cd_alloc(lua_State *L, FFIState *S, int id, size_t size, size_t n) {
  CData *cd = lua_newuserdatauv(L, sizeof(CData) + size, 2);
  cd->id = id;
  cd->flags = 0;
  cd->p = cd + 1;
  cd->n = n;
  memset(cd->p, 0, size);
  /* a metatype's __gc: the object needs the finalizing metatable */
  CType *ct = ctype(S, ct_unqual(S, id));
  if (ct->mtref != LUA_NOREF && ct->kind != CT_PTR && mt_push(L, S, id, "__gc")) {
    lua_setiuservalue(L, -2, 2);
    cd->flags |= CD_GC;
    cd_setmt(L, &ffi_key_gcmt);
  } else {
    cd_setmt(L, &ffi_key_mt);
  }
  return cd;
}

CData *cd_new(lua_State *L, FFIState *S, int id, size_t n) {
  CType *ct = ctype(S, id);
  size_t size = ct->size;
  if (ct->kind == CT_ARRAY && (ct->flags & (CTF_VLA | CTF_FLEX)))
    size = n * ctype(S, ct->base)->size;
  /* a function cdata's payload is the function's address (ffi_docall reads
  ** *(void **)cd->p), but a function type has size 0: reserve the pointer.
  ** (The first collector's malloc slack hid the 8-byte overrun; the packed
  ** nursery of the moving collector does not.) */
  if (ct->kind == CT_FUNC) size = sizeof(void *);
  return cd_alloc(L, S, id, size, n);
}

size_t cd_size(FFIState *S, CData *cd) {
  CType *ct = ctype(S, cd->id);
  if (ct->kind == CT_ARRAY && (ct->flags & (CTF_VLA | CTF_FLEX)))
    return cd->n * ctype(S, ct->base)->size;
  return ct->size;
}

void cd_newref(lua_State *L, FFIState *S, int id, void *p, int owner) {
  if (owner < 0) owner = lua_gettop(L) + owner + 1;
  CData *cd = lua_newuserdatauv(L, sizeof(CData), 2);
  cd->id = id;
  cd->flags = CD_REF;
  cd->p = p;
  cd->n = 0;
  cd_setmt(L, &ffi_key_mt);
  if (owner) {
    lua_pushvalue(L, owner);
    lua_setiuservalue(L, -2, 1);
  }
}

void cd_tolua_int64(lua_State *L, FFIState *S, int64_t v, int isunsigned) {
  CData *cd = cd_alloc(L, S, isunsigned ? T_UINT64 : T_INT64, 8, 0);
  *(int64_t *)cd->p = v;
}

static int64_t load_int(const void *p, CType *ct) {
  int u = ct->flags & CTF_UNSIGNED;
  switch (ct->size) {
    case 1: return u ? (int64_t)*(const uint8_t *)p : *(const int8_t *)p;
    case 2: return u ? (int64_t)*(const uint16_t *)p : *(const int16_t *)p;
    case 4: return u ? (int64_t)*(const uint32_t *)p : *(const int32_t *)p;
    default: return *(const int64_t *)p;
  }
}

static void store_int(void *p, size_t size, int64_t v) {
  switch (size) {
    case 1: *(uint8_t *)p = (uint8_t)v; break;
    case 2: *(uint16_t *)p = (uint16_t)v; break;
    case 4: *(uint32_t *)p = (uint32_t)v; break;
    default: *(int64_t *)p = v; break;
  }
}

static double load_float(const void *p, CType *ct) {
  if (ct->size == 4) return *(const float *)p;
  if (ct->size == 8) return *(const double *)p;
  return (double)*(const long double *)p;
}

static void store_float(void *p, CType *ct, double d) {
  if (ct->size == 4) *(float *)p = (float)d;
  else if (ct->size == 8) *(double *)p = d;
  else *(long double *)p = d;
}

/* push the C value of type id at p; aggregates become references kept alive
** by the value at stack index owner (0: none) */
void cd_push(lua_State *L, FFIState *S, int id, void *p, int owner) {
  CType *ct = ctype(S, id);
  switch (ct->kind) {
    case CT_VOID: lua_pushnil(L); return;
    case CT_BOOL: lua_pushboolean(L, *(uint8_t *)p != 0); return;
    case CT_INT: case CT_ENUM:
      if (ct->size == 8) cd_tolua_int64(L, S, *(int64_t *)p, ct->flags & CTF_UNSIGNED);
      else lua_pushinteger(L, load_int(p, ct));
      return;
    case CT_FLOAT: lua_pushnumber(L, load_float(p, ct)); return;
    case CT_PTR: {
      CData *cd = cd_alloc(L, S, ct_unqual(S, id), sizeof(void *), 0);
      *(void **)cd->p = *(void **)p;
      return;
    }
    default:
      cd_newref(L, S, id, p, owner);
      return;
  }
}

/* ---------------------------------------------------------------- conversions */

static const char *valuename(lua_State *L, FFIState *S, int idx) {
  CData *cd = cd_test(L, idx);
  if (cd != NULL && !(cd->flags & CD_CTYPE)) return ct_pushname(L, S, cd->id);
  return lua_pushstring(L, luaL_typename(L, idx));
}

static void conv_error(lua_State *L, FFIState *S, int id, int idx, int argn) {
  const char *from = valuename(L, S, idx);
  const char *to = ct_pushname(L, S, id);
  if (argn > 0)
    luaL_error(L, "bad argument #%d to '%s' (cannot convert '%s' to '%s')", argn,
               ffi_callname(L), from, to);
  luaL_error(L, "cannot convert '%s' to '%s'", from, to);
}

static int64_t dbl2int(double d) {
  if (d != d) return 0;
  if (d >= 9223372036854775808.0) return (int64_t)(uint64_t)d;
  if (d < -9223372036854775808.0) return INT64_MIN;
  return (int64_t)d;
}

/* the numeric value of a cdata scalar: 1 integer (in *i), 2 float (in *d), 0 none */
static int cd_numval(FFIState *S, CData *cd, int64_t *i, double *d) {
  CType *ct = ctype(S, cd->id);
  switch (ct->kind) {
    case CT_BOOL: *i = *(uint8_t *)cd->p != 0; return 1;
    case CT_INT: case CT_ENUM: *i = load_int(cd->p, ct); return 1;
    case CT_FLOAT: *d = load_float(cd->p, ct); return 2;
    default: return 0;
  }
}

/* may a pointer to 'from' be used as a pointer to 'to' without a cast? */
static int ptr_compatible(FFIState *S, int to, int from) {
  CType *t = ctype(S, to), *f = ctype(S, from);
  if (t->kind == CT_VOID || f->kind == CT_VOID) return 1;
  if (ct_same(S, to, from)) return 1;
  /* char types are interchangeable (signedness differs in C's view only) */
  if ((t->flags & CTF_CHAR) && (f->flags & CTF_CHAR)) return 1;
  if (t->kind == CT_INT && f->kind == CT_INT && t->size == f->size) return 1;
  return 0;
}

/* address designated by a cdata used where a pointer is wanted; sets *elem to
** the pointed-to type; returns 0 when the cdata is no pointer-like value */
static int cd_address(FFIState *S, CData *cd, void **addr, int *elem) {
  CType *ct = ctype(S, cd->id);
  switch (ct->kind) {
    case CT_PTR: *addr = *(void **)cd->p; *elem = ct->base; return 1;
    case CT_ARRAY: *addr = cd->p; *elem = ct->base; return 1;
    case CT_STRUCT: case CT_UNION: *addr = cd->p; *elem = cd->id; return 1;
    case CT_FUNC: *addr = *(void **)cd->p; *elem = cd->id; return 1;
    default: return 0;
  }
}

void cd_convert(lua_State *L, FFIState *S, int id, void *dst, int idx, int mode, int argn) {
  CType *ct = ctype(S, id);
  idx = lua_absindex(L, idx);
  int t = lua_type(L, idx);
  CData *cd = (t == LUA_TUSERDATA) ? cd_test(L, idx) : NULL;
  if (cd != NULL && (cd->flags & CD_CTYPE)) conv_error(L, S, id, idx, argn);
  switch (ct->kind) {
    case CT_BOOL: case CT_INT: case CT_ENUM: {
      int64_t i = 0;
      double d = 0;
      if (t == LUA_TNUMBER) {
        if (lua_isinteger(L, idx)) i = lua_tointeger(L, idx);
        else i = dbl2int(lua_tonumber(L, idx));
        if (ct->kind == CT_BOOL && !lua_isinteger(L, idx)) i = lua_tonumber(L, idx) != 0;
      } else if (t == LUA_TBOOLEAN && (ct->kind == CT_BOOL || mode == CONV_CAST)) {
        i = lua_toboolean(L, idx);
      } else if (t == LUA_TSTRING && ct->kind == CT_ENUM) {
        CName *n = name_find(S, lua_tostring(L, idx));
        if (n == NULL || n->kind != N_CONST || ct_unqual(S, n->type) != ct_unqual(S, id))
          luaL_error(L, "invalid enum value '%s' for '%s'", lua_tostring(L, idx),
                     ct_pushname(L, S, id));
        i = n->value;
      } else if (cd != NULL) {
        int k = cd_numval(S, cd, &i, &d);
        if (k == 2) i = dbl2int(d);
        if (k == 0) {
          void *a; int e;
          if (mode == CONV_CAST && cd_address(S, cd, &a, &e)) i = (int64_t)(intptr_t)a;
          else conv_error(L, S, id, idx, argn);
        }
        if (ct->kind == CT_BOOL && k == 2) i = d != 0;
      } else {
        conv_error(L, S, id, idx, argn);
      }
      if (ct->kind == CT_BOOL) *(uint8_t *)dst = i != 0;
      else store_int(dst, ct->size, i);
      return;
    }
    case CT_FLOAT: {
      double d = 0;
      int64_t i = 0;
      if (t == LUA_TNUMBER) d = lua_tonumber(L, idx);
      else if (cd != NULL) {
        int k = cd_numval(S, cd, &i, &d);
        if (k == 1) d = (ctype(S, cd->id)->flags & CTF_UNSIGNED) ? (double)(uint64_t)i : (double)i;
        if (k == 0) conv_error(L, S, id, idx, argn);
      } else conv_error(L, S, id, idx, argn);
      store_float(dst, ct, d);
      return;
    }
    case CT_PTR: {
      void *a = NULL;
      int base = ct->base;
      CType *bt = ctype(S, base);
      switch (t) {
        case LUA_TNIL: break;
        case LUA_TLIGHTUSERDATA: a = lua_touserdata(L, idx); break;
        case LUA_TSTRING:
          if (!(bt->flags & CTF_CHAR) && bt->kind != CT_VOID && mode != CONV_CAST)
            conv_error(L, S, id, idx, argn);
          a = (void *)lua_tostring(L, idx);
          break;
        case LUA_TNUMBER:
          if (mode != CONV_CAST) conv_error(L, S, id, idx, argn);
          a = (void *)(intptr_t)(lua_isinteger(L, idx) ? lua_tointeger(L, idx)
                                 : dbl2int(lua_tonumber(L, idx)));
          break;
        case LUA_TFUNCTION:
          if (bt->kind != CT_FUNC) conv_error(L, S, id, idx, argn);
          a = cb_new(L, S, idx, ct_unqual(S, base), mode != CONV_ARG);
          break;
        case LUA_TUSERDATA:
          if (cd == NULL) { a = lua_touserdata(L, idx); break; }
          {
            int elem;
            if (cd_address(S, cd, &a, &elem)) {
              if (mode != CONV_CAST && !ptr_compatible(S, base, elem) &&
                  !(ctype(S, cd->id)->kind == CT_FUNC && bt->kind == CT_FUNC))
                conv_error(L, S, id, idx, argn);
            } else if (mode == CONV_CAST) {
              int64_t i = 0; double d = 0;
              if (cd_numval(S, cd, &i, &d) == 2) i = dbl2int(d);
              a = (void *)(intptr_t)i;
            } else conv_error(L, S, id, idx, argn);
          }
          break;
        default: conv_error(L, S, id, idx, argn);
      }
      *(void **)dst = a;
      return;
    }
    case CT_ARRAY: case CT_STRUCT: case CT_UNION:
      if (mode == CONV_CAST || mode == CONV_ARG) {
        if (cd != NULL && ct_same(S, cd->id, id)) { memcpy(dst, cd->p, ct->size); return; }
        conv_error(L, S, id, idx, argn);
      }
      if (cd != NULL) {
        if (!ct_same(S, cd->id, id)) conv_error(L, S, id, idx, argn);
        memcpy(dst, cd->p, ct->size);
        return;
      }
      if (t == LUA_TTABLE || (t == LUA_TSTRING && ct->kind == CT_ARRAY)) {
        memset(dst, 0, ct->size);
        cd_init(L, S, id, dst, ct->nelem, idx, idx);
        return;
      }
      conv_error(L, S, id, idx, argn);
      return;
    default:
      conv_error(L, S, id, idx, argn);
  }
}

/* store into a bit field: read-modify-write of its storage unit */
static void bitfield_store(lua_State *L, FFIState *S, CField *f, char *base, int idx) {
  CType *ft = ctype(S, f->type);
  int64_t v;
  cd_convert(L, S, f->type, &v, idx, CONV_STORE, 0);
  v = ft->kind == CT_BOOL ? (*(uint8_t *)&v != 0) : load_int(&v, ft);
  uint64_t unit = (uint64_t)load_int(base + f->offset, ft);
  uint64_t mask = (f->bitwidth >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << f->bitwidth) - 1)) << f->bitpos;
  unit = (unit & ~mask) | (((uint64_t)v << f->bitpos) & mask);
  store_int(base + f->offset, ft->size, (int64_t)unit);
}

static void bitfield_push(lua_State *L, FFIState *S, CField *f, char *base) {
  CType *ft = ctype(S, f->type);
  uint64_t unit = (uint64_t)load_int(base + f->offset, ft);
  if (ft->size < 8) unit &= (((uint64_t)1 << (ft->size * 8)) - 1);
  uint64_t v = unit >> f->bitpos;
  if (f->bitwidth < 64) v &= ((uint64_t)1 << f->bitwidth) - 1;
  if (ft->kind == CT_BOOL) { lua_pushboolean(L, v != 0); return; }
  int64_t sv = (int64_t)v;
  if (!(ft->flags & CTF_UNSIGNED) && f->bitwidth < 64 && (v >> (f->bitwidth - 1)) & 1)
    sv = (int64_t)(v | (~(uint64_t)0 << f->bitwidth));   /* sign-extend */
  if (ft->size == 8) cd_tolua_int64(L, S, sv, ft->flags & CTF_UNSIGNED);
  else lua_pushinteger(L, sv);
}

/* initialize dst (zeroed) of type id from stack values first..last */
void cd_init(lua_State *L, FFIState *S, int id, void *dst, size_t n, int first, int last) {
  CType *ct = ctype(S, id);
  int nargs = last - first + 1;
  if (nargs <= 0) return;
  if (ct->kind == CT_ARRAY) {
    CType *et = ctype(S, ct->base);
    size_t count = (ct->flags & (CTF_VLA | CTF_FLEX)) ? n : ct->nelem, esize = et->size;
    char *d = dst;
    if (nargs == 1 && lua_type(L, first) == LUA_TSTRING && (et->flags & CTF_CHAR)) {
      size_t len;
      const char *s = lua_tolstring(L, first, &len);
      if (len + 1 > count && len > count) len = count;
      memcpy(d, s, len);
      if (len < count) d[len] = 0;
      return;
    }
    if (nargs == 1 && lua_type(L, first) == LUA_TTABLE) {
      lua_rawgeti(L, first, 0);
      int start = lua_isnil(L, -1) ? 1 : 0;
      lua_pop(L, 1);
      for (size_t i = 0; i < count; i++) {
        if (lua_rawgeti(L, first, (lua_Integer)(i + start)) == LUA_TNIL) { lua_pop(L, 1); break; }
        cd_convert(L, S, ct->base, d + i * esize, lua_gettop(L), CONV_INIT, 0);
        lua_pop(L, 1);
      }
      return;
    }
    CData *cd = nargs == 1 ? cd_test(L, first) : NULL;
    if (cd != NULL && ct_same(S, cd->id, id)) { memcpy(dst, cd->p, count * esize); return; }
    if (nargs == 1) {   /* one scalar initializes every element */
      for (size_t i = 0; i < count; i++)
        cd_convert(L, S, ct->base, d + i * esize, first, CONV_INIT, 0);
      return;
    }
    if ((size_t)nargs > count)
      luaL_error(L, "too many initializers for '%s'", ct_pushname(L, S, id));
    for (int i = 0; i < nargs; i++)
      cd_convert(L, S, ct->base, d + i * esize, first + i, CONV_INIT, 0);
    return;
  }
  if (ct->kind == CT_STRUCT || ct->kind == CT_UNION) {
    CData *cd = nargs == 1 ? cd_test(L, first) : NULL;
    if (cd != NULL && ct_same(S, cd->id, id)) { memcpy(dst, cd->p, ct->size); return; }
    int nf = ct->kind == CT_UNION ? (ct->nfield > 0) : ct->nfield;
    if (nargs == 1 && lua_type(L, first) == LUA_TTABLE) {
      lua_rawgeti(L, first, 1);
      int positional = !lua_isnil(L, -1);
      lua_pop(L, 1);
      for (int i = 0, pos = 1; i < ct->nfield; i++) {
        CField *f = &ct->fields[i];
        if (positional) {
          if (i >= nf) break;
          lua_rawgeti(L, first, pos++);
        } else if (f->name != NULL) {
          lua_getfield(L, first, f->name);
        } else {   /* anonymous member: its fields come from the same table */
          cd_init(L, S, f->type, (char *)dst + f->offset, 0, first, first);
          continue;
        }
        if (!lua_isnil(L, -1)) {
          if (f->bitwidth >= 0) bitfield_store(L, S, f, dst, lua_gettop(L));
          else cd_convert(L, S, f->type, (char *)dst + f->offset, lua_gettop(L), CONV_INIT, 0);
        }
        lua_pop(L, 1);
      }
      return;
    }
    if (nargs > nf)
      luaL_error(L, "too many initializers for '%s'", ct_pushname(L, S, id));
    for (int i = 0; i < nargs; i++) {
      CField *f = &ct->fields[i];
      if (f->bitwidth >= 0) bitfield_store(L, S, f, dst, first + i);
      else cd_convert(L, S, f->type, (char *)dst + f->offset, first + i, CONV_INIT, 0);
    }
    return;
  }
  if (nargs > 1) luaL_error(L, "too many initializers for '%s'", ct_pushname(L, S, id));
  cd_convert(L, S, id, dst, first, CONV_INIT, 0);
}

/* a type argument: a type string, a ctype or a cdata (its type) */
int cd_checktype(lua_State *L, FFIState *S, int idx, size_t *vlan) {
  if (lua_type(L, idx) == LUA_TSTRING) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, S->tcache);
    lua_pushvalue(L, idx);
    if (lua_rawget(L, -2) == LUA_TNUMBER) {
      int id = (int)lua_tointeger(L, -1);
      lua_pop(L, 2);
      return id;
    }
    lua_pop(L, 1);
    int id = cdecl_type(L, S, lua_tostring(L, idx));
    lua_pushvalue(L, idx);
    lua_pushinteger(L, id);
    lua_rawset(L, -3);
    lua_pop(L, 1);
    return id;
  }
  CData *cd = cd_test(L, idx);
  if (cd != NULL) {
    if (cd->flags & CD_CTYPE) return (int)*(lua_Integer *)cd->p;
    if (vlan) *vlan = cd->n;
    return cd->id;
  }
  return luaL_argerror(L, idx, lua_pushfstring(L, "C type expected, got %s", luaL_typename(L, idx)));
}

/* a pointer from a cdata/string/userdata argument (ffi.string, copy, fill) */
void *cd_getptr(lua_State *L, FFIState *S, int idx, int strok) {
  int t = lua_type(L, idx);
  if (t == LUA_TSTRING && strok) return (void *)lua_tostring(L, idx);
  if (t == LUA_TLIGHTUSERDATA) return lua_touserdata(L, idx);
  if (t == LUA_TNIL) return NULL;
  if (t == LUA_TUSERDATA) {
    CData *cd = cd_test(L, idx);
    if (cd == NULL) return lua_touserdata(L, idx);
    void *a; int e;
    if (!(cd->flags & CD_CTYPE) && cd_address(S, cd, &a, &e)) return a;
  }
  luaL_argerror(L, idx, lua_pushfstring(L, "cannot convert '%s' to 'const void *'",
                                         valuename(L, S, idx)));
  return NULL;
}

/* tonumber(cdata): numbers and enums; nil for the rest */
int cd_tonumber(lua_State *L, FFIState *S, int idx) {
  CData *cd = cd_test(L, idx);
  int64_t i; double d;
  if (cd == NULL || (cd->flags & CD_CTYPE)) return 0;
  switch (cd_numval(S, cd, &i, &d)) {
    case 1:
      if ((ctype(S, cd->id)->flags & CTF_UNSIGNED) && ctype(S, cd->id)->size == 8 && i < 0)
        lua_pushnumber(L, (double)(uint64_t)i);
      else lua_pushinteger(L, i);
      return 1;
    case 2: lua_pushnumber(L, d); return 1;
    default: lua_pushnil(L); return 1;
  }
}

/* ---------------------------------------------------------------- indexing */

/* the element index of a key, if it is one */
static int key_index(lua_State *L, FFIState *S, int idx, int64_t *i) {
  if (lua_type(L, idx) == LUA_TNUMBER) {
    if (lua_isinteger(L, idx)) *i = lua_tointeger(L, idx);
    else *i = dbl2int(lua_tonumber(L, idx));
    return 1;
  }
  CData *cd = lua_type(L, idx) == LUA_TUSERDATA ? cd_test(L, idx) : NULL;
  double d;
  if (cd != NULL && !(cd->flags & CD_CTYPE)) {
    int k = cd_numval(S, cd, i, &d);
    if (k == 2) *i = dbl2int(d);
    return k != 0;
  }
  return 0;
}

/* Locate the C object designated by cdata[key]: sets *type and returns its
** address; for bit fields sets *bf.  Returns NULL if the key designates
** nothing (the caller tries the metatype). */
static char *cd_locate(lua_State *L, FFIState *S, CData *cd, int kidx, int *type,
                       CField **bf) {
  CType *ct = ctype(S, cd->id);
  char *base;
  int agg;
  int64_t i;
  *bf = NULL;
  if (cd->flags & CD_CTYPE) return NULL;
  if (ct->kind == CT_PTR) {
    base = *(char **)cd->p;
    agg = ct->base;
  } else if (ct->kind == CT_ARRAY) {
    base = cd->p;
    agg = ct->base;
    if (key_index(L, S, kidx, &i)) {
      *type = ct->base;
      return base + i * (int64_t)ctype(S, ct->base)->size;
    }
    return NULL;
  } else {
    base = cd->p;
    agg = cd->id;
  }
  if (ct->kind == CT_PTR && key_index(L, S, kidx, &i)) {
    if (base == NULL) luaL_error(L, "attempt to index a NULL pointer");
    *type = ct->base;
    return base + i * (int64_t)ctype(S, ct->base)->size;
  }
  if (lua_type(L, kidx) == LUA_TSTRING) {
    CType *at = ctype(S, agg);
    if (at->kind != CT_STRUCT && at->kind != CT_UNION) return NULL;
    size_t off;
    CField *f = ct_field(S, agg, lua_tostring(L, kidx), &off);
    if (f == NULL) return NULL;
    if (base == NULL) luaL_error(L, "attempt to index a NULL pointer");
    *type = f->type;
    if (f->bitwidth >= 0) { *bf = f; return base + off - f->offset; }
    return base + off;
  }
  return NULL;
}

static int cb_method(lua_State *L);

/* the error for key 2 that names no member or element of cdata 'cd' of type
** 'ct' (a pointer is reported by the aggregate it points to) */
static int index_error(lua_State *L, FFIState *S, CData *cd, CType *ct) {
  int agg = ct->kind == CT_PTR ? ct->base : cd->id;
  if (lua_type(L, 2) == LUA_TSTRING)
    return luaL_error(L, "'%s' has no member named '%s'", ct_pushname(L, S, agg),
                      lua_tostring(L, 2));
  return luaL_error(L, "'%s' cannot be indexed with '%s'", ct_pushname(L, S, cd->id),
                    luaL_typename(L, 2));
}

static int cd_index(lua_State *L) {
  FFIState *S = ffi_state(L);
  CData *cd = cd_check(L, 1);
  int type;
  CField *bf;
  char *p = cd_locate(L, S, cd, 2, &type, &bf);
  if (p != NULL) {
    if (bf) bitfield_push(L, S, bf, p);
    else cd_push(L, S, type, p, 1);
    return 1;
  }
  if (mt_push(L, S, cd->id, "__index")) {
    if (lua_isfunction(L, -1)) {
      lua_pushvalue(L, 1);
      lua_pushvalue(L, 2);
      lua_call(L, 2, 1);
    } else {
      lua_pushvalue(L, 2);
      lua_gettable(L, -2);
    }
    return 1;
  }
  CType *ct = ctype(S, cd->id);
  if (ct->kind == CT_PTR && ctype(S, ct->base)->kind == CT_FUNC &&
      lua_type(L, 2) == LUA_TSTRING &&
      (strcmp(lua_tostring(L, 2), "free") == 0 || strcmp(lua_tostring(L, 2), "set") == 0)) {
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, cb_method, 1);
    return 1;
  }
  if (cd->flags & CD_CTYPE) ct = ctype(S, (int)*(lua_Integer *)cd->p);
  return index_error(L, S, cd, ct);
}

static int cd_newindex(lua_State *L) {
  FFIState *S = ffi_state(L);
  CData *cd = cd_check(L, 1);
  int type;
  CField *bf;
  char *p = cd_locate(L, S, cd, 2, &type, &bf);
  if (p != NULL) {
    CType *t = ctype(S, type);
    if (t->flags & CTF_CONST) return luaL_error(L, "attempt to write to constant location");
    if (bf) bitfield_store(L, S, bf, p, 3);
    else cd_convert(L, S, type, p, 3, CONV_STORE, 0);
    return 0;
  }
  if (mt_push(L, S, cd->id, "__newindex")) {
    if (lua_isfunction(L, -1)) {
      lua_pushvalue(L, 1);
      lua_pushvalue(L, 2);
      lua_pushvalue(L, 3);
      lua_call(L, 3, 0);
    } else {
      lua_pushvalue(L, 2);
      lua_pushvalue(L, 3);
      lua_settable(L, -3);
    }
    return 0;
  }
  return index_error(L, S, cd, ctype(S, cd->id));
}

/* cb:free() and cb:set(func) on callback pointers */
static int cb_method(lua_State *L) {
  FFIState *S = ffi_state(L);
  CData *cd = cd_check(L, 1);
  const char *m = lua_tostring(L, lua_upvalueindex(1));
  Callback *cb = cb_find(S, *(void **)cd->p);
  if (cb == NULL) return luaL_error(L, "bad callback");
  if (strcmp(m, "free") == 0) {
    cb_free(S, cb, L);
    *(void **)cd->p = NULL;
  } else {
    luaL_checktype(L, 2, LUA_TFUNCTION);
    cb_set(L, cb, 2);
  }
  return 0;
}

/* ---------------------------------------------------------------- arithmetic */

enum { NK_NONE, NK_INT, NK_UINT, NK_FLOAT, NK_PTR };

/* classify an operand: Lua number or numeric/pointer cdata */
static int operand(lua_State *L, FFIState *S, int idx, int64_t *i, double *d,
                   void **ptr, int *elem) {
  if (lua_type(L, idx) == LUA_TNUMBER) {
    if (lua_isinteger(L, idx)) { *i = lua_tointeger(L, idx); return NK_INT; }
    *d = lua_tonumber(L, idx);
    return NK_FLOAT;
  }
  CData *cd = lua_type(L, idx) == LUA_TUSERDATA ? cd_test(L, idx) : NULL;
  if (cd == NULL || (cd->flags & CD_CTYPE)) return NK_NONE;
  CType *ct = ctype(S, cd->id);
  if (ct->kind == CT_PTR || ct->kind == CT_ARRAY) {
    cd_address(S, cd, ptr, elem);
    return NK_PTR;
  }
  int k = cd_numval(S, cd, i, d);
  if (k == 1) return (ct->size == 8 && (ct->flags & CTF_UNSIGNED)) ? NK_UINT : NK_INT;
  if (k == 2) return NK_FLOAT;
  return NK_NONE;
}

static int try_meta(lua_State *L, FFIState *S, const char *event, int nargs) {
  for (int k = 1; k <= 2 && k <= nargs; k++) {
    CData *cd = lua_type(L, k) == LUA_TUSERDATA ? cd_test(L, k) : NULL;
    if (cd != NULL && !(cd->flags & CD_CTYPE) && mt_push(L, S, cd->id, event)) {
      lua_pushvalue(L, 1);
      lua_pushvalue(L, 2);
      lua_call(L, 2, 1);
      return 1;
    }
  }
  return 0;
}

static int arith_error(lua_State *L, FFIState *S, const char *op) {
  const char *a = valuename(L, S, 1), *b = valuename(L, S, 2);
  return luaL_error(L, "attempt to perform arithmetic on a '%s' and a '%s' (%s)", a, b, op);
}

static int cd_arith(lua_State *L, int op) {
  static const char *const events[] = {"__add", "__sub", "__mul", "__div", "__mod", "__pow",
                                 "__unm", "__idiv", "__band", "__bor", "__bxor",
                                 "__shl", "__shr", "__bnot"};
  FFIState *S = ffi_state(L);
  int64_t a = 0, b = 0;
  double da = 0, db = 0;
  void *pa = NULL, *pb = NULL;
  int ea = 0, eb = 0;
  if (try_meta(L, S, events[op], 2)) return 1;
  int ka = operand(L, S, 1, &a, &da, &pa, &ea);
  int kb = operand(L, S, 2, &b, &db, &pb, &eb);
  if (ka == NK_NONE || kb == NK_NONE) return arith_error(L, S, events[op] + 2);
  if (ka == NK_PTR || kb == NK_PTR) {   /* pointer arithmetic */
    if (op == 0 || op == 1) {
      if (ka == NK_PTR && kb == NK_PTR && op == 1) {
        size_t es = ctype(S, ea)->size;
        lua_pushinteger(L, ((char *)pa - (char *)pb) / (ptrdiff_t)(es ? es : 1));
        return 1;
      }
      if (kb == NK_PTR && op == 0) {   /* n + p */
        int64_t t = a; a = b; b = t; (void)a;
        double td = da; da = db; db = td;
        void *tp = pa; pa = pb; pb = tp;
        int te = ea; ea = eb; eb = te;
        int tk = ka; ka = kb; kb = tk;
      }
      if (ka == NK_PTR && kb != NK_PTR) {
        if (kb == NK_FLOAT) b = dbl2int(db);
        if (op == 1) b = -b;
        size_t es = ctype(S, ea)->size;
        CData *r = cd_alloc(L, S, ct_ptr(S, ea), sizeof(void *), 0);
        *(char **)r->p = (char *)pa + b * (int64_t)es;
        return 1;
      }
    }
    return arith_error(L, S, events[op] + 2);
  }
  if (ka == NK_FLOAT || kb == NK_FLOAT) {
    /* a float cdata: arithmetic on doubles, result a Lua number */
    CData *ca = cd_test(L, 1), *cb = cd_test(L, 2);
    int floatcd = (ca && ka == NK_FLOAT) || (cb && kb == NK_FLOAT);
    if (floatcd) {
      if (ka != NK_FLOAT) da = ka == NK_UINT ? (double)(uint64_t)a : (double)a;
      if (kb != NK_FLOAT) db = kb == NK_UINT ? (double)(uint64_t)b : (double)b;
      double r;
      switch (op) {
        case 0: r = da + db; break;
        case 1: r = da - db; break;
        case 2: r = da * db; break;
        case 3: r = da / db; break;
        case 4: r = da - floor(da / db) * db; break;
        case 5: r = pow(da, db); break;
        case 6: r = -da; break;
        case 7: r = floor(da / db); break;
        default: return arith_error(L, S, events[op] + 2);
      }
      lua_pushnumber(L, r);
      return 1;
    }
    if (ka == NK_FLOAT) a = dbl2int(da);
    if (kb == NK_FLOAT) b = dbl2int(db);
  }
  int uns = ka == NK_UINT || kb == NK_UINT;
  uint64_t ua = (uint64_t)a, ub = (uint64_t)b, r = 0;
  switch (op) {
    case 0: r = ua + ub; break;
    case 1: r = ua - ub; break;
    case 2: r = ua * ub; break;
    case 3: case 7: case 4:
      if (b == 0) return luaL_error(L, "attempt to perform 'n%%0' on 64-bit integers");
      if (uns) r = op == 4 ? ua % ub : ua / ub;
      else if (b == -1) r = op == 4 ? 0 : (uint64_t)0 - ua;
      else r = (uint64_t)(op == 4 ? a % b : a / b);
      break;
    case 5: {   /* integer power by squaring */
      r = 1;
      if (!uns && b < 0) r = (a == 1) ? 1 : (a == -1) ? ((b & 1) ? ua : 1) : 0;
      else for (uint64_t e = ub, x = ua; e; e >>= 1, x *= x) if (e & 1) r *= x;
      break;
    }
    case 6: r = (uint64_t)0 - ua; break;
    case 8: r = ua & ub; break;
    case 9: r = ua | ub; break;
    case 10: r = ua ^ ub; break;
    case 11: r = ub >= 64 ? 0 : ua << ub; break;
    case 12: r = ub >= 64 ? 0 : ua >> ub; break;
    case 13: r = ~ua; break;
  }
  cd_tolua_int64(L, S, (int64_t)r, uns);
  return 1;
}

static int cd_add(lua_State *L) { return cd_arith(L, 0); }
static int cd_sub(lua_State *L) { return cd_arith(L, 1); }
static int cd_mul(lua_State *L) { return cd_arith(L, 2); }
static int cd_div(lua_State *L) { return cd_arith(L, 3); }
static int cd_mod(lua_State *L) { return cd_arith(L, 4); }
static int cd_pow(lua_State *L) { return cd_arith(L, 5); }
static int cd_unm(lua_State *L) { return cd_arith(L, 6); }
static int cd_idiv(lua_State *L) { return cd_arith(L, 7); }
static int cd_band(lua_State *L) { return cd_arith(L, 8); }
static int cd_bor(lua_State *L) { return cd_arith(L, 9); }
static int cd_bxor(lua_State *L) { return cd_arith(L, 10); }
static int cd_shl(lua_State *L) { return cd_arith(L, 11); }
static int cd_shr(lua_State *L) { return cd_arith(L, 12); }
static int cd_bnot(lua_State *L) { return cd_arith(L, 13); }

/* comparisons: 0 eq, 1 lt, 2 le */
static int cd_compare(lua_State *L, int op) {
  static const char *const events[] = {"__eq", "__lt", "__le"};
  FFIState *S = ffi_state(L);
  if (try_meta(L, S, events[op], 2)) {
    lua_pushboolean(L, lua_toboolean(L, -1));
    return 1;
  }
  int64_t a = 0, b = 0;
  double da = 0, db = 0;
  void *pa = NULL, *pb = NULL;
  int ea, eb;
  int ka = operand(L, S, 1, &a, &da, &pa, &ea);
  int kb = operand(L, S, 2, &b, &db, &pb, &eb);
  int r;
  if (ka == NK_PTR || kb == NK_PTR) {
    if (ka != kb) {
      if (op == 0) { lua_pushboolean(L, 0); return 1; }
      return luaL_error(L, "attempt to compare '%s' with '%s'", valuename(L, S, 1),
                        valuename(L, S, 2));
    }
    r = op == 0 ? pa == pb : op == 1 ? (uintptr_t)pa < (uintptr_t)pb
                                     : (uintptr_t)pa <= (uintptr_t)pb;
  } else if (ka == NK_NONE || kb == NK_NONE) {
    if (op == 0) {   /* other cdata (structs, functions, ctypes): by address */
      CData *x = cd_test(L, 1), *y = cd_test(L, 2);
      if (x && y && (x->flags & CD_CTYPE) && (y->flags & CD_CTYPE))
        r = ct_same(S, (int)*(lua_Integer *)x->p, (int)*(lua_Integer *)y->p);
      else
        r = x && y && !(x->flags & CD_CTYPE) && !(y->flags & CD_CTYPE) && x->p == y->p;
      lua_pushboolean(L, r);
      return 1;
    }
    return luaL_error(L, "attempt to compare '%s' with '%s'", valuename(L, S, 1),
                      valuename(L, S, 2));
  } else if (ka == NK_FLOAT || kb == NK_FLOAT) {
    if (ka != NK_FLOAT) da = ka == NK_UINT ? (double)(uint64_t)a : (double)a;
    if (kb != NK_FLOAT) db = kb == NK_UINT ? (double)(uint64_t)b : (double)b;
    r = op == 0 ? da == db : op == 1 ? da < db : da <= db;
  } else if (ka == NK_UINT || kb == NK_UINT) {
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
    r = op == 0 ? ua == ub : op == 1 ? ua < ub : ua <= ub;
  } else {
    r = op == 0 ? a == b : op == 1 ? a < b : a <= b;
  }
  lua_pushboolean(L, r);
  return 1;
}

static int cd_eq(lua_State *L) { return cd_compare(L, 0); }
static int cd_lt(lua_State *L) { return cd_compare(L, 1); }
static int cd_le(lua_State *L) { return cd_compare(L, 2); }

static int cd_tostring(lua_State *L) {
  FFIState *S = ffi_state(L);
  CData *cd = cd_check(L, 1);
  if (cd->flags & CD_CTYPE) {
    lua_pushfstring(L, "ctype<%s>", ct_pushname(L, S, (int)*(lua_Integer *)cd->p));
    return 1;
  }
  if (mt_push(L, S, cd->id, "__tostring")) {
    lua_pushvalue(L, 1);
    lua_call(L, 1, 1);
    return 1;
  }
  CType *ct = ctype(S, cd->id);
  if (ct_isint64(ct)) {
    char buf[40];
    if (ct->flags & CTF_UNSIGNED) snprintf(buf, sizeof buf, "%" PRIu64 "ULL", *(uint64_t *)cd->p);
    else snprintf(buf, sizeof buf, "%" PRId64 "LL", *(int64_t *)cd->p);
    lua_pushstring(L, buf);
    return 1;
  }
  void *addr = cd->p;
  if (ct->kind == CT_PTR || ct->kind == CT_FUNC) addr = *(void **)cd->p;
  const char *tn = ct_pushname(L, S, cd->id);
  if (addr == NULL) lua_pushfstring(L, "cdata<%s>: NULL", tn);
  else lua_pushfstring(L, "cdata<%s>: %p", tn, addr);
  return 1;
}

/* __call, with upvalues (state, metatable, gc metatable) so that the hot
** path of every FFI call needs no registry lookup */
static int cd_call(lua_State *L) {
  FFIState *S = lua_touserdata(L, lua_upvalueindex(1));
  CData *cd = NULL;
  if (lua_getmetatable(L, 1)) {
    if (lua_rawequal(L, -1, lua_upvalueindex(2)) || lua_rawequal(L, -1, lua_upvalueindex(3)))
      cd = lua_touserdata(L, 1);
    lua_pop(L, 1);
  }
  if (cd == NULL) luaL_typeerror(L, 1, "cdata");
  if (cd->flags & CD_CTYPE) {   /* ctype(...) == ffi.new(ctype, ...) */
    int id = (int)*(lua_Integer *)cd->p;
    CType *ct = ctype(S, id);
    size_t n = 0;
    int first = 2;
    if (ct->kind == CT_ARRAY && (ct->flags & CTF_VLA)) {
      lua_Integer k = luaL_checkinteger(L, 2);
      if (k < 0) return luaL_argerror(L, 2, "negative size");
      n = (size_t)k;
      first = 3;
    }
    int top = lua_gettop(L);
    CData *nd = cd_new(L, S, id, n);
    cd_init(L, S, id, nd->p, n, first, top);
    return 1;
  }
  CType *ct = ctype(S, cd->id);
  if (ct->kind == CT_FUNC || (ct->kind == CT_PTR && ctype(S, ct->base)->kind == CT_FUNC))
    return ffi_docall(L, S, cd);
  if (mt_push(L, S, cd->id, "__call")) {
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
  }
  return luaL_error(L, "'%s' is not callable", ct_pushname(L, S, cd->id));
}

static int cd_len(lua_State *L) {
  FFIState *S = ffi_state(L);
  CData *cd = cd_check(L, 1);
  if (mt_push(L, S, cd->id, "__len")) {
    lua_pushvalue(L, 1);
    lua_call(L, 1, 1);
    return 1;
  }
  return luaL_error(L, "attempt to get length of a '%s' value", ct_pushname(L, S, cd->id));
}

static int cd_concat(lua_State *L) {
  FFIState *S = ffi_state(L);
  if (try_meta(L, S, "__concat", 2)) return 1;
  return luaL_error(L, "attempt to concatenate a '%s' and a '%s'", valuename(L, S, 1),
                    valuename(L, S, 2));
}

/* finalizer of cdata with ffi.gc or a metatype __gc: user value 2 */
static int cd_gc(lua_State *L) {
  CData *cd = cd_test(L, 1);
  if (cd == NULL || !(cd->flags & CD_GC)) return 0;
  cd->flags &= ~CD_GC;
  if (lua_getiuservalue(L, 1, 2) != LUA_TNIL) {
    lua_pushvalue(L, 1);
    lua_call(L, 1, 0);
  }
  return 0;
}

static const luaL_Reg cd_meta[] = {
  {"__index", cd_index}, {"__newindex", cd_newindex},
  {"__add", cd_add}, {"__sub", cd_sub}, {"__mul", cd_mul}, {"__div", cd_div},
  {"__mod", cd_mod}, {"__pow", cd_pow}, {"__unm", cd_unm}, {"__idiv", cd_idiv},
  {"__band", cd_band}, {"__bor", cd_bor}, {"__bxor", cd_bxor}, {"__shl", cd_shl},
  {"__shr", cd_shr}, {"__bnot", cd_bnot},
  {"__eq", cd_eq}, {"__lt", cd_lt}, {"__le", cd_le},
  {"__tostring", cd_tostring}, {"__len", cd_len}, {"__concat", cd_concat},
  {NULL, NULL}
};

void cd_openmeta(lua_State *L, FFIState *S) {
  luaL_newmetatable(L, CDATA_MT);
  luaL_setfuncs(L, cd_meta, 0);
  lua_pushliteral(L, "cdata");
  lua_setfield(L, -2, "__name");
  lua_pushliteral(L, "ffi");
  lua_setfield(L, -2, "__metatable");
  lua_rawsetp(L, LUA_REGISTRYINDEX, &ffi_key_mt);
  luaL_newmetatable(L, CDATA_GCMT);   /* the same, plus __gc */
  luaL_setfuncs(L, cd_meta, 0);
  lua_pushliteral(L, "cdata");
  lua_setfield(L, -2, "__name");
  lua_pushliteral(L, "ffi");
  lua_setfield(L, -2, "__metatable");
  lua_pushcfunction(L, cd_gc);
  lua_setfield(L, -2, "__gc");
  lua_rawsetp(L, LUA_REGISTRYINDEX, &ffi_key_gcmt);
  /* __call of both: one closure over (S, mt, gcmt) */
  lua_rawgetp(L, LUA_REGISTRYINDEX, &ffi_key_mt);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &ffi_key_gcmt);
  lua_pushlightuserdata(L, S);   /* a full userdata: never moves */
  lua_pushvalue(L, -3);
  lua_pushvalue(L, -3);
  lua_pushcclosure(L, cd_call, 3);
  lua_pushvalue(L, -1);
  lua_setfield(L, -3, "__call");
  lua_setfield(L, -3, "__call");
  lua_pop(L, 2);
}
