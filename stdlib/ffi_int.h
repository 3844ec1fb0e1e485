/*
** ffi_int.h -- private interface of the ffi module (stdlib/ffi*.c).
**
** The module is written against the public C API only.  Its pieces:
**   ffi_ctype.c  the type table (CType), named declarations, layout, printing
**   ffi_cdecl.c  the C declaration parser (ffi.cdef and type strings)
**   ffi_cdata.c  cdata objects, Lua <-> C conversions, cdata metamethods
**   ffi_call.c   calls through libffi (cached ffi_cif) and callbacks
**   ffi.c        the library table and luaopen_ffi
**
** Per-VM state (FFIState) lives in a full userdata kept in the registry; its
** __gc frees the type table, so several VMs can use the module at once.
** Type ids index S->types; CType records never move (they are allocated
** one by one), but S->types itself may be reallocated when a type is added.
*/
#ifndef MVM_FFI_INT_H
#define MVM_FFI_INT_H

#include <stddef.h>
#include <stdint.h>
#include <ffi.h>

#include "lua.h"
#include "lauxlib.h"
#include "jitffi.h"

#define FFI_HIDDEN __attribute__((visibility("hidden")))

/* kinds of C types */
enum {
  CT_VOID, CT_BOOL, CT_INT, CT_FLOAT, CT_ENUM,
  CT_PTR, CT_ARRAY, CT_STRUCT, CT_UNION, CT_FUNC
};

/* CType.flags */
#define CTF_UNSIGNED  0x0001
#define CTF_CONST     0x0002
#define CTF_VLA       0x0004   /* array declared [?] */
#define CTF_VARARG    0x0008   /* function with '...' */
#define CTF_COMPLETE  0x0010   /* struct/union/enum body seen; arrays: size known */
#define CTF_CHAR      0x0020   /* a character type: converts from/to strings */
#define CTF_FLEX      0x0040   /* array declared [] (size unknown) */

typedef struct CField {
  char *name;        /* NULL for an anonymous struct/union member or unnamed param */
  int type;
  size_t offset;     /* bytes; for bit fields, the offset of the storage unit */
  int bitpos;        /* bit fields: first bit inside the unit (little-endian) */
  int bitwidth;      /* -1 when not a bit field */
} CField;

typedef struct CType {
  uint8_t kind;
  uint16_t flags;
  size_t size, align;
  int base;          /* PTR/ARRAY: element; FUNC: result; ENUM: integer type;
                        qualified copies: the unqualified type */
  size_t nelem;      /* ARRAY */
  char *name;        /* builtin name, or struct/union/enum tag (NULL if anonymous) */
  int nfield;
  CField *fields;    /* STRUCT/UNION members; FUNC parameters */
  int ptrto;         /* cached id of 'pointer to this', 0 if none yet */
  int constof;       /* cached id of the const-qualified variant, 0 if none */
  int mtref;         /* ffi.metatype: registry reference or LUA_NOREF */
  ffi_type *fft;     /* libffi description of a struct/union (lazy) */
  ffi_type **fftelems;
  ffi_cif *cif;      /* FUNC: prepared call interface (lazy, non-variadic) */
  ffi_type **argt;
  struct DirectSig *dsig;  /* FUNC: direct-call plan (ffi_call.c), NULL if none */
  int dsigdone;      /* FUNC: dsig has been decided */
} CType;

/* named declarations (ffi.cdef), in one hash table */
enum { N_TYPEDEF, N_TAG, N_CONST, N_FUNC, N_VAR };
typedef struct CName {
  struct CName *next;
  char *key;         /* tags are stored as "struct x", "union x", "enum x" */
  int kind, type;
  int64_t value;     /* N_CONST */
} CName;

/* builtin type ids (fixed, created at start-up) */
enum {
  T_NONE, T_VOID, T_BOOL, T_CHAR, T_SCHAR, T_UCHAR, T_SHORT, T_USHORT,
  T_INT, T_UINT, T_LONG, T_ULONG, T_LLONG, T_ULLONG,
  T_INT8, T_UINT8, T_INT16, T_UINT16, T_INT32, T_UINT32, T_INT64, T_UINT64,
  T_FLOAT, T_DOUBLE, T_LDOUBLE, T_VOIDP, T_CCHAR, T_CCHARP, T_NBUILTIN
};

typedef struct CallFrame {     /* one active ffi call (see ffi_call.c) */
  lua_State *L;
  int errref;                  /* error raised by a callback, or LUA_NOREF */
  struct CallFrame *prev;
} CallFrame;

typedef struct Callback Callback;

typedef struct FFIState {
  CType **types;
  int ntypes, cap;
  CName **names;
  size_t nnames, namecap;
  CallFrame *frame;            /* innermost active call, NULL outside calls */
  lua_State *mainL;
  Callback *callbacks;         /* permanent callbacks (ffi.cast of a function) */
  int err;                     /* errno saved after the last call */
  int tcache;                  /* registry ref: type string -> ctype id */
  uint64_t cbseq;              /* creation counter of callbacks */
  JitFFI jit;                  /* direct calls from compiled code (ffi_call.c) */
} FFIState;

/* cdata: a full userdata (2 user values: 1 keep-alive, 2 finalizer) */
#define CD_REF      0x01       /* p points into another object (user value 1) */
#define CD_CTYPE    0x02       /* a ctype object: the value is the type id */
#define CD_GC       0x04       /* has a finalizer in user value 2 */
typedef struct CData {
  int id;                      /* type */
  uint32_t flags;
  void *p;                     /* the C value (inline payload unless CD_REF) */
  size_t n;                    /* VLA element count */
  size_t pad_;
} CData;                       /* 32 bytes: the payload after it stays 16-aligned */

#define CDATA_MT    "mvm.ffi.cdata"
#define CDATA_GCMT  "mvm.ffi.cdata.gc"
#define FFI_STATE   "mvm.ffi.state"

/* registry keys (light userdata: no string hashing on hot paths) for the
** state and the two cdata metatables */
FFI_HIDDEN extern const char ffi_key_state, ffi_key_mt, ffi_key_gcmt;
FFI_HIDDEN void cd_setmt(lua_State *L, const char *key);

/* ---- ffi_ctype.c */
FFI_HIDDEN FFIState *ffi_state(lua_State *L);
FFI_HIDDEN void ffi_initstate(lua_State *L, FFIState *S);
FFI_HIDDEN void ffi_freestate(FFIState *S);
static inline CType *ctype(FFIState *S, int id) { return S->types[id]; }
FFI_HIDDEN int ct_new(FFIState *S, int kind);
FFI_HIDDEN int ct_ptr(FFIState *S, int base);
FFI_HIDDEN int ct_const(FFIState *S, int base);
FFI_HIDDEN int ct_array(FFIState *S, int base, size_t n, int flags);
FFI_HIDDEN int ct_unqual(FFIState *S, int id);
FFI_HIDDEN int ct_same(FFIState *S, int a, int b);
FFI_HIDDEN void ct_layout(FFIState *S, int id);
FFI_HIDDEN CName *name_find(FFIState *S, const char *key);
FFI_HIDDEN CName *name_set(FFIState *S, const char *key, int kind, int type, int64_t v);
FFI_HIDDEN void ct_repr(FFIState *S, int id, char *buf, size_t size);
FFI_HIDDEN const char *ct_pushname(lua_State *L, FFIState *S, int id);
FFI_HIDDEN CField *ct_field(FFIState *S, int id, const char *name, size_t *off);
FFI_HIDDEN ffi_type *ct_ffitype(FFIState *S, int id);
FFI_HIDDEN int ct_isint64(CType *ct);

/* ---- ffi_cdecl.c */
FFI_HIDDEN void cdecl_parse(lua_State *L, FFIState *S, const char *src);
FFI_HIDDEN int cdecl_type(lua_State *L, FFIState *S, const char *src);

/* ---- ffi_cdata.c */
FFI_HIDDEN CData *cd_test(lua_State *L, int idx);
FFI_HIDDEN CData *cd_new(lua_State *L, FFIState *S, int id, size_t n);
FFI_HIDDEN void cd_newref(lua_State *L, FFIState *S, int id, void *p, int owner);
FFI_HIDDEN void cd_push(lua_State *L, FFIState *S, int id, void *p, int owner);
FFI_HIDDEN void cd_tolua_int64(lua_State *L, FFIState *S, int64_t v, int isunsigned);
enum { CONV_CAST, CONV_ARG, CONV_INIT, CONV_STORE };
FFI_HIDDEN void cd_convert(lua_State *L, FFIState *S, int id, void *dst, int idx,
                           int mode, int argn);
FFI_HIDDEN void cd_init(lua_State *L, FFIState *S, int id, void *dst, size_t n,
                        int first, int last);
FFI_HIDDEN int cd_checktype(lua_State *L, FFIState *S, int idx, size_t *vlan);
FFI_HIDDEN size_t cd_size(FFIState *S, CData *cd);
FFI_HIDDEN void *cd_getptr(lua_State *L, FFIState *S, int idx, int strok);
FFI_HIDDEN void cd_openmeta(lua_State *L, FFIState *S);
FFI_HIDDEN int cd_tonumber(lua_State *L, FFIState *S, int idx);

/* ---- ffi_call.c */
FFI_HIDDEN int ffi_docall(lua_State *L, FFIState *S, CData *cd);
FFI_HIDDEN const char *ffi_callname(lua_State *L);
FFI_HIDDEN void *cb_new(lua_State *L, FFIState *S, int fidx, int ftype, int permanent);
FFI_HIDDEN Callback *cb_find(FFIState *S, void *code);
FFI_HIDDEN void cb_free(FFIState *S, Callback *cb, lua_State *L);
FFI_HIDDEN void cb_set(lua_State *L, Callback *cb, int fidx);
FFI_HIDDEN void cb_freeall(FFIState *S);
FFI_HIDDEN void ffi_jitinit(lua_State *L, FFIState *S);

#endif
