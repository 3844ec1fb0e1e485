/* string.h -- interned strings and userdata creation (vm/string.c). */
#ifndef mvm_string_h
#define mvm_string_h
#include <stdarg.h>
#include "state.h"

#define MEMERRMSG  "not enough memory"
#define str_literal(L, s)  str_new(L, "" s, sizeof(s) - 1)
#define eqstr(a,b)  ((a) == (b))    /* all strings are interned */

/* __builtin_memcpy(d, s, l) for the short strings most creations and concatenations
** copy, with overlapping whole-word moves instead of a library call; the
** moves stay inside both (str_create, vm_concat) */
static inline void str_copyshort(char *d, const char *s, size_t l) {
  uint64_t x, y;
  uint32_t u, v;
  if (l >= 8) {
    if (l > 16) { __builtin_memcpy(d, s, l); return; }
    __builtin_memcpy(&x, s, 8); __builtin_memcpy(&y, s + l - 8, 8);
    __builtin_memcpy(d, &x, 8); __builtin_memcpy(d + l - 8, &y, 8);
  }
  else if (l >= 4) {
    __builtin_memcpy(&u, s, 4); __builtin_memcpy(&v, s + l - 4, 4);
    __builtin_memcpy(d, &u, 4); __builtin_memcpy(d + l - 4, &v, 4);
  }
  else if (l > 0) {
    d[0] = s[0]; d[l / 2] = s[l / 2]; d[l - 1] = s[l - 1];
  }
}

LUAI_FUNC void str_init(lua_State *L);                   /* intern table, memerrmsg */
LUAI_FUNC uint32_t str_hash(const char *s, size_t l, uint32_t seed);
LUAI_FUNC TString *str_new(lua_State *L, const char *s, size_t l);   /* MAY ALLOCATE */
LUAI_FUNC TString *str_newz(lua_State *L, const char *s);            /* MAY ALLOCATE */
/* the interned string with content s[0..l), or NULL: allocates nothing */
LUAI_FUNC TString *str_lookup(global_State *g, const char *s, size_t l);
/* Building a string in place (long concatenations): str_newbuf returns a
** string object of length l that is NOT interned yet; the caller anchors it
** (stack), writes its l bytes, then str_intern returns the interned string
** with that content: either this object, now in the table, or an equal
** older one (this object then dies unreferenced).  Nothing may use the
** object as a Lua string before str_intern. */
LUAI_FUNC TString *str_newbuf(lua_State *L, size_t l);              /* MAY ALLOCATE */
LUAI_FUNC TString *str_intern(lua_State *L, TString *ts);
LUAI_FUNC void str_resize(lua_State *L, int newsize);
/* bytes of an intern table of n slots (a hash and a string offset each) */
#define str_tablebytes(n)  ((size_t)(n) * sizeof(uint64_t))
/* an intern-table slot word: the string's hash (low 32 bits, 0 = empty)
** and its offset from 'base' in 16-byte units (high 32 bits) */
#define str_wordhash(w)  ((uint32_t)(w))
#define str_wordstr(tb, w)  ((TString *)((tb)->base + (uintptr_t)((w) >> 32) * 16))
/* the hash and the string of slot i (NULL when empty) */
#define str_slothash(tb, i)  str_wordhash((tb)->slot[i])
#define str_slotstr(tb, i)  ((tb)->slot[i] == 0 ? (TString *)NULL : str_wordstr(tb, (tb)->slot[i]))
/* collector: unlink a dead string from the intern table */
LUAI_FUNC void str_remove(lua_State *L, TString *ts);
LUAI_FUNC Udata *udata_new(lua_State *L, size_t s, int nuvalue);     /* MAY ALLOCATE */
/* lua_pushfstring's formatter: pushes the result on L's stack (%s %d %I %f %p %c %U %%) */
LUAI_FUNC const char *str_pushvfstring(lua_State *L, const char *fmt, va_list argp);
LUAI_FUNC const char *str_pushfstring(lua_State *L, const char *fmt, ...);
#endif
