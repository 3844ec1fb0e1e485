/*
** ffi_ctype.c -- the ffi type table: builtin types, derived types (pointers,
** arrays, qualified copies), struct/union layout with natural alignment and
** bit fields (System V rules, little-endian), the table of named
** declarations, printing types in C syntax and libffi type descriptions.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ffi_int.h"

static void *xmalloc(size_t n) {
  void *p = calloc(1, n ? n : 1);
  if (p == NULL) abort();   /* the type table cannot be left half-updated */
  return p;
}

static char *xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *p = xmalloc(n);
  memcpy(p, s, n);
  return p;
}

/* ---------------------------------------------------------------- types */

int ct_new(FFIState *S, int kind) {
  if (S->ntypes == S->cap) {
    int ncap = S->cap ? S->cap * 2 : 64;
    CType **nt = realloc(S->types, sizeof(CType *) * ncap);
    if (nt == NULL) abort();
    S->types = nt;
    S->cap = ncap;
  }
  CType *ct = xmalloc(sizeof(CType));
  ct->kind = (uint8_t)kind;
  ct->align = 1;
  ct->mtref = LUA_NOREF;
  S->types[S->ntypes] = ct;
  return S->ntypes++;
}

static int ct_builtin(FFIState *S, int kind, size_t size, int flags, const char *name) {
  int id = ct_new(S, kind);
  CType *ct = ctype(S, id);
  ct->size = size;
  ct->align = size ? size : 1;
  ct->flags = (uint16_t)(flags | CTF_COMPLETE);
  ct->name = xstrdup(name);
  return id;
}

int ct_ptr(FFIState *S, int base) {
  CType *b = ctype(S, base);
  if (b->ptrto) return b->ptrto;
  int id = ct_new(S, CT_PTR);
  CType *ct = ctype(S, id);
  ct->size = ct->align = sizeof(void *);
  ct->base = base;
  ct->flags = CTF_COMPLETE;
  ctype(S, base)->ptrto = id;
  return id;
}

/* the const-qualified variant: a shallow copy sharing fields and name */
int ct_const(FFIState *S, int base) {
  CType *b = ctype(S, base);
  if (b->flags & CTF_CONST) return base;
  if (b->constof) return b->constof;
  int id = ct_new(S, b->kind);
  CType *ct = ctype(S, id);
  b = ctype(S, base);
  *ct = *b;
  ct->flags |= CTF_CONST;
  ct->ptrto = 0;
  ct->constof = base;   /* back link: the unqualified type */
  ct->fft = NULL; ct->fftelems = NULL; ct->cif = NULL; ct->argt = NULL;
  ct->dsig = NULL; ct->dsigdone = 0;
  ct->mtref = LUA_NOREF;
  b->constof = id;
  return id;
}

int ct_unqual(FFIState *S, int id) {
  CType *ct = ctype(S, id);
  return (ct->flags & CTF_CONST) ? ct->constof : id;
}

int ct_array(FFIState *S, int base, size_t n, int flags) {
  int id = ct_new(S, CT_ARRAY);
  CType *ct = ctype(S, id), *b = ctype(S, base);
  ct->base = base;
  ct->nelem = n;
  ct->align = b->align;
  ct->flags = (uint16_t)flags;
  if (!(flags & (CTF_VLA | CTF_FLEX))) {
    ct->size = n * b->size;
    ct->flags |= CTF_COMPLETE;
  }
  return id;
}

int ct_isint64(CType *ct) {
  return ct->kind == CT_INT && ct->size == 8;
}

/* type identity, ignoring top-level qualifiers; structs by declaration */
int ct_same(FFIState *S, int a, int b) {
  a = ct_unqual(S, a); b = ct_unqual(S, b);
  if (a == b) return 1;
  CType *x = ctype(S, a), *y = ctype(S, b);
  if (x->kind != y->kind) return 0;
  switch (x->kind) {
    case CT_VOID: case CT_BOOL: return 1;
    case CT_INT: case CT_FLOAT:
      return x->size == y->size &&
             (x->flags & CTF_UNSIGNED) == (y->flags & CTF_UNSIGNED);
    case CT_PTR: return ct_same(S, x->base, y->base);
    case CT_ARRAY:
      return x->nelem == y->nelem && ((x->flags ^ y->flags) & CTF_VLA) == 0 &&
             ct_same(S, x->base, y->base);
    case CT_FUNC:
      if (x->nfield != y->nfield || !ct_same(S, x->base, y->base)) return 0;
      for (int i = 0; i < x->nfield; i++)
        if (!ct_same(S, x->fields[i].type, y->fields[i].type)) return 0;
      return 1;
    default: return 0;   /* distinct struct/union/enum declarations */
  }
}

static size_t alignup(size_t n, size_t a) { return (n + a - 1) / a * a; }

/* Lay out a struct or union whose fields are set (System V x86-64/AArch64:
** natural alignment; a bit field shares the storage unit of its declared
** type with earlier bits unless it would straddle a unit boundary; a zero
** width bit field closes the unit). */
void ct_layout(FFIState *S, int id) {
  CType *ct = ctype(S, id);
  size_t bits = 0, align = 1, maxsize = 0;
  for (int i = 0; i < ct->nfield; i++) {
    CField *f = &ct->fields[i];
    CType *ft = ctype(S, f->type);
    size_t fa = ft->align, fs = ft->size;
    if (ct->kind == CT_UNION) bits = 0;
    if (f->bitwidth >= 0) {
      size_t unit = fs * 8;
      if (f->bitwidth == 0) {
        bits = alignup(bits, unit);
        f->offset = bits / 8;
        f->bitpos = 0;
        continue;
      }
      if (bits / unit != (bits + f->bitwidth - 1) / unit)
        bits = alignup(bits, unit);
      f->offset = bits / unit * fs;
      f->bitpos = (int)(bits - f->offset * 8);
      bits += f->bitwidth;
    } else {
      bits = alignup(bits, fa * 8);
      f->offset = bits / 8;
      f->bitpos = 0;
      bits += fs * 8;
    }
    if (fa > align) align = fa;
    if (bits > maxsize) maxsize = bits;
  }
  size_t bytes = (maxsize + 7) / 8;
  ct->align = align;
  ct->size = alignup(bytes, align);
  ct->flags |= CTF_COMPLETE;
  if (ct->constof) {   /* a const variant made while incomplete: refresh it */
    CType *c = ctype(S, ct->constof);
    c->size = ct->size; c->align = ct->align;
    c->nfield = ct->nfield; c->fields = ct->fields;
    c->flags = ct->flags | CTF_CONST;
  }
}

/* find a member by name, looking through anonymous members; *off receives
** its offset from the start of the aggregate */
CField *ct_field(FFIState *S, int id, const char *name, size_t *off) {
  CType *ct = ctype(S, id);
  if (ct->kind != CT_STRUCT && ct->kind != CT_UNION) return NULL;
  for (int i = 0; i < ct->nfield; i++) {
    CField *f = &ct->fields[i];
    if (f->name != NULL) {
      if (strcmp(f->name, name) == 0) { *off = f->offset; return f; }
    } else {
      size_t sub;
      CField *g = ct_field(S, f->type, name, &sub);
      if (g != NULL) { *off = f->offset + sub; return g; }
    }
  }
  return NULL;
}

/* ---------------------------------------------------------------- names */

static uint32_t hashstr(const char *s) {
  uint32_t h = 2166136261u;
  for (; *s; s++) h = (h ^ (uint8_t)*s) * 16777619u;
  return h;
}

CName *name_find(FFIState *S, const char *key) {
  if (S->namecap == 0) return NULL;
  for (CName *n = S->names[hashstr(key) & (S->namecap - 1)]; n; n = n->next)
    if (strcmp(n->key, key) == 0) return n;
  return NULL;
}

CName *name_set(FFIState *S, const char *key, int kind, int type, int64_t v) {
  CName *n = name_find(S, key);
  if (n == NULL) {
    if (S->nnames >= S->namecap) {     /* grow: rehash into twice the buckets */
      size_t ncap = S->namecap ? S->namecap * 2 : 256;
      CName **nb = xmalloc(sizeof(CName *) * ncap);
      for (size_t i = 0; i < S->namecap; i++)
        for (CName *m = S->names[i], *next; m; m = next) {
          next = m->next;
          uint32_t h = hashstr(m->key) & (ncap - 1);
          m->next = nb[h];
          nb[h] = m;
        }
      free(S->names);
      S->names = nb;
      S->namecap = ncap;
    }
    n = xmalloc(sizeof(CName));
    n->key = xstrdup(key);
    uint32_t h = hashstr(key) & (S->namecap - 1);
    n->next = S->names[h];
    S->names[h] = n;
    S->nnames++;
  }
  n->kind = kind;
  n->type = type;
  n->value = v;
  return n;
}

/* ---------------------------------------------------------------- printing */

/* Append the declaration of type id around the declarator text 'inner'
** (C's inside-out syntax): "int *", "int [3]", "int (*)(int)". */
static void repr(FFIState *S, int id, const char *inner, char *out, size_t size) {
  CType *ct = ctype(S, id);
  char buf[512];
  switch (ct->kind) {
    case CT_PTR: {
      CType *b = ctype(S, ct->base);
      const char *q = (ct->flags & CTF_CONST) ? " const" : "";
      const char *sp = (*q && *inner) ? " " : "";
      if (b->kind == CT_ARRAY || b->kind == CT_FUNC)
        snprintf(buf, sizeof buf, "(*%s%s%s)", q, sp, inner);
      else
        snprintf(buf, sizeof buf, "*%s%s%s", q, sp, inner);
      repr(S, ct->base, buf, out, size);
      return;
    }
    case CT_ARRAY:
      if (ct->flags & CTF_VLA) snprintf(buf, sizeof buf, "%s[?]", inner);
      else if (ct->flags & CTF_FLEX) snprintf(buf, sizeof buf, "%s[]", inner);
      else snprintf(buf, sizeof buf, "%s[%zu]", inner, ct->nelem);
      repr(S, ct->base, buf, out, size);
      return;
    case CT_FUNC: {
      size_t n = (size_t)snprintf(buf, sizeof buf, "%s(", inner);
      for (int i = 0; i < ct->nfield && n < sizeof buf; i++) {
        char pb[256];
        repr(S, ct->fields[i].type, "", pb, sizeof pb);
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", i ? ", " : "", pb);
      }
      if (n < sizeof buf && (ct->flags & CTF_VARARG))
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s...", ct->nfield ? ", " : "");
      if (n < sizeof buf) snprintf(buf + n, sizeof buf - n, ")");
      repr(S, ct->base, buf, out, size);
      return;
    }
    default: {
      const char *q = (ct->flags & CTF_CONST) ? "const " : "";
      const char *kw = ct->kind == CT_STRUCT ? "struct " : ct->kind == CT_UNION ? "union "
                     : ct->kind == CT_ENUM ? "enum " : "";
      char nm[64];
      const char *name = ct->name;
      if (name == NULL) {    /* anonymous aggregate: name it by its id */
        snprintf(nm, sizeof nm, "%d", ct_unqual(S, id));
        name = nm;
      }
      snprintf(out, size, "%s%s%s%s%s", q, kw, name, *inner ? " " : "", inner);
      return;
    }
  }
}

void ct_repr(FFIState *S, int id, char *buf, size_t size) {
  repr(S, id, "", buf, size);
}

const char *ct_pushname(lua_State *L, FFIState *S, int id) {
  char buf[512];
  ct_repr(S, id, buf, sizeof buf);
  return lua_pushstring(L, buf);
}

/* ---------------------------------------------------------------- libffi */

static ffi_type *int_ffitype(size_t size, int isunsigned) {
  switch (size) {
    case 1: return isunsigned ? &ffi_type_uint8 : &ffi_type_sint8;
    case 2: return isunsigned ? &ffi_type_uint16 : &ffi_type_sint16;
    case 4: return isunsigned ? &ffi_type_uint32 : &ffi_type_sint32;
    default: return isunsigned ? &ffi_type_uint64 : &ffi_type_sint64;
  }
}

/* append the libffi elements describing type id (arrays are flattened) */
static void add_elems(FFIState *S, int id, ffi_type ***v, size_t *n, size_t *cap) {
  CType *ct = ctype(S, id);
  size_t count = 1;
  if (ct->kind == CT_ARRAY) {
    count = ct->nelem;
    id = ct->base;
    while (ctype(S, id)->kind == CT_ARRAY) {
      count *= ctype(S, id)->nelem;
      id = ctype(S, id)->base;
    }
  }
  ffi_type *t = ct_ffitype(S, id);
  for (size_t i = 0; i < count; i++) {
    if (*n + 2 > *cap) {
      *cap = *cap * 2 + 8;
      *v = realloc(*v, sizeof(ffi_type *) * *cap);
      if (*v == NULL) abort();
    }
    (*v)[(*n)++] = t;
  }
}

/* The libffi type of a C type, for arguments and results.  Structs list
** their members; unions and structs with bit fields are described by
** integer pieces of their alignment (or by their widest member when all
** members are floating point), which matches the System V classification
** in the common cases. */
ffi_type *ct_ffitype(FFIState *S, int id) {
  CType *ct = ctype(S, id);
  switch (ct->kind) {
    case CT_VOID: return &ffi_type_void;
    case CT_BOOL: return &ffi_type_uint8;
    case CT_INT: case CT_ENUM:
      return int_ffitype(ct->size, ct->flags & CTF_UNSIGNED);
    case CT_FLOAT:
      return ct->size == 4 ? &ffi_type_float
           : ct->size == 8 ? &ffi_type_double : &ffi_type_longdouble;
    case CT_PTR: case CT_FUNC: case CT_ARRAY: return &ffi_type_pointer;
    default: break;
  }
  if (ct->fft) return ct->fft;
  ffi_type **elems = NULL;
  size_t n = 0, cap = 0;
  int simple = ct->kind == CT_STRUCT, allfloat = 1, widest = -1;
  for (int i = 0; i < ct->nfield; i++) {
    CField *f = &ct->fields[i];
    CType *ft = ctype(S, f->type);
    if (f->bitwidth >= 0) simple = 0;
    if (ft->kind != CT_FLOAT) allfloat = 0;
    if (widest < 0 || ft->size > ctype(S, ct->fields[widest].type)->size) widest = i;
  }
  if (simple) {
    for (int i = 0; i < ct->nfield; i++) add_elems(S, ct->fields[i].type, &elems, &n, &cap);
  } else if (allfloat && widest >= 0) {
    add_elems(S, ct->fields[widest].type, &elems, &n, &cap);
  } else {
    ffi_type *piece = int_ffitype(ct->align, 1);
    elems = xmalloc(sizeof(ffi_type *) * (ct->size / ct->align + 2));
    for (size_t i = 0; i < ct->size / ct->align; i++) elems[n++] = piece;
  }
  if (elems == NULL) elems = xmalloc(sizeof(ffi_type *) * 2);
  if (n == 0) elems[n++] = &ffi_type_uint8;   /* libffi rejects empty structs */
  elems[n] = NULL;
  ffi_type *t = xmalloc(sizeof(ffi_type));
  t->type = FFI_TYPE_STRUCT;
  t->elements = elems;
  ct->fft = t;
  ct->fftelems = elems;
  return t;
}

/* ---------------------------------------------------------------- state */

void ffi_initstate(lua_State *L, FFIState *S) {
  memset(S, 0, sizeof *S);
  ct_new(S, CT_VOID);                          /* T_NONE: id 0 is never valid */
  ct_builtin(S, CT_VOID, 0, 0, "void");
  ct_builtin(S, CT_BOOL, 1, CTF_UNSIGNED, "bool");
  ct_builtin(S, CT_INT, 1, CTF_CHAR, "char");
  ct_builtin(S, CT_INT, 1, CTF_CHAR, "signed char");
  ct_builtin(S, CT_INT, 1, CTF_CHAR | CTF_UNSIGNED, "unsigned char");
  ct_builtin(S, CT_INT, 2, 0, "short");
  ct_builtin(S, CT_INT, 2, CTF_UNSIGNED, "unsigned short");
  ct_builtin(S, CT_INT, 4, 0, "int");
  ct_builtin(S, CT_INT, 4, CTF_UNSIGNED, "unsigned int");
  ct_builtin(S, CT_INT, sizeof(long), 0, "long");
  ct_builtin(S, CT_INT, sizeof(long), CTF_UNSIGNED, "unsigned long");
  ct_builtin(S, CT_INT, 8, 0, "long long");
  ct_builtin(S, CT_INT, 8, CTF_UNSIGNED, "unsigned long long");
  ct_builtin(S, CT_INT, 1, CTF_CHAR, "int8_t");
  ct_builtin(S, CT_INT, 1, CTF_CHAR | CTF_UNSIGNED, "uint8_t");
  ct_builtin(S, CT_INT, 2, 0, "int16_t");
  ct_builtin(S, CT_INT, 2, CTF_UNSIGNED, "uint16_t");
  ct_builtin(S, CT_INT, 4, 0, "int32_t");
  ct_builtin(S, CT_INT, 4, CTF_UNSIGNED, "uint32_t");
  ct_builtin(S, CT_INT, 8, 0, "int64_t");
  ct_builtin(S, CT_INT, 8, CTF_UNSIGNED, "uint64_t");
  ct_builtin(S, CT_FLOAT, 4, 0, "float");
  ct_builtin(S, CT_FLOAT, 8, 0, "double");
  ct_builtin(S, CT_FLOAT, sizeof(long double), 0, "long double");
  ct_ptr(S, T_VOID);                            /* T_VOIDP */
  ct_const(S, T_CHAR);                          /* T_CCHAR */
  ct_ptr(S, T_CCHAR);                           /* T_CCHARP */
  static const struct { const char *name; int id; } td[] = {
    {"int8_t", T_INT8}, {"uint8_t", T_UINT8}, {"int16_t", T_INT16},
    {"uint16_t", T_UINT16}, {"int32_t", T_INT32}, {"uint32_t", T_UINT32},
    {"int64_t", T_INT64}, {"uint64_t", T_UINT64},
    {"intptr_t", T_INT64}, {"uintptr_t", T_UINT64}, {"ptrdiff_t", T_INT64},
    {"size_t", T_UINT64}, {"ssize_t", T_INT64}, {"_Bool", T_BOOL},
    {"wchar_t", T_INT32}, {"va_list", T_VOIDP}, {"__builtin_va_list", T_VOIDP},
    {"__gnuc_va_list", T_VOIDP}, {"off_t", T_INT64}, {"time_t", T_INT64},
  };
  for (size_t i = 0; i < sizeof td / sizeof td[0]; i++)
    name_set(S, td[i].name, N_TYPEDEF, td[i].id, 0);
  lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_MAINTHREAD);
  S->mainL = lua_tothread(L, -1);
  lua_pop(L, 1);
  lua_newtable(L);
  S->tcache = luaL_ref(L, LUA_REGISTRYINDEX);
}

void ffi_freestate(FFIState *S) {
  cb_freeall(S);
  for (int i = 0; i < S->ntypes; i++) {
    CType *ct = S->types[i];
    int copy = (ct->flags & CTF_CONST) && ct->constof;   /* shares with original */
    if (!copy) {
      free(ct->name);
      for (int j = 0; j < ct->nfield; j++) free(ct->fields[j].name);
      free(ct->fields);
    }
    if (ct->fft) { free(ct->fftelems); free(ct->fft); }
    free(ct->cif);
    free(ct->argt);
    free(ct->dsig);
    free(ct);
  }
  free(S->types);
  for (size_t i = 0; i < S->namecap; i++)
    for (CName *n = S->names[i], *next; n; n = next) {
      next = n->next;
      free(n->key);
      free(n);
    }
  free(S->names);
  memset(S, 0, sizeof *S);
}

const char ffi_key_state = 's', ffi_key_mt = 'm', ffi_key_gcmt = 'g';

FFIState *ffi_state(lua_State *L) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &ffi_key_state);
  FFIState *S = lua_touserdata(L, -1);
  lua_pop(L, 1);
  return S;
}
