/*
** strlib.c -- the Lua 5.4 'string' library for mvm.
**
** Written only against the public C API (lua.h, lauxlib.h, lualib.h): the
** library never looks inside Values, so it is independent of the object
** layout and of the collector (exceptions: gmatch's iterator reads its
** state from its upvalue directly, gmatch_state, and string.byte reads
** its usual arguments from the stack, sl_byte1, as string.sub does).
** Pointers into Lua strings are kept only while the string itself is
** anchored on the stack (or as a closure upvalue), which is enough because
** strings never move.
**
** Behaviour (results and error messages) follows the reference Lua 5.4
** implementation installed as /usr/bin/lua5.4.
*/

#include <ctype.h>
#include <float.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"
#include <stdint.h>
#include "state.h"
#include "vm.h"
#include "gc.h"
/* stable identity of movable objects (vm/api.c) */
LUAI_FUNC int api_objid(lua_State *L, int idx, unsigned int *id);
/* printf's %e %f %g of a float without printf, or -1 (vm/number.c) */
LUAI_FUNC int vm_fmtfloat(char *buff, double x, int prec, int conv, int dp);
/* what "%lld" writes, and a '\0' (vm/number.c) */
LUAI_FUNC int vm_int2buff(int64_t n, char *buff);

#define UC(c)	((unsigned char)(c))

/* is c (not '\0') one of the few bytes of 'set'?  (strspn and strchr cost
** a library call and its setup per byte of a format spec) */
static int sl_inset(int c, const char *set) {
  for (; *set != '\0'; set++)
    if (*set == c)
      return 1;
  return 0;
}

/* is c one of PAT_SPECIALS? */
static int pm_special(int c) {
  switch (c) {
    case '^': case '$': case '*': case '+': case '?':
    case '.': case '(': case '[': case '%': case '-':
      return 1;
    default:
      return 0;
  }
}

/* largest size accepted for results built by rep/pack: must fit in an int */
#define SL_MAXSIZE \
  (sizeof(size_t) < sizeof(int) ? (~(size_t)0) : (size_t)INT_MAX)

/* ======================================================================
** Position helpers
** ====================================================================== */

/*
** Translate a (possibly negative) start position into the range [1, inf).
** 0 and positions before the beginning map to 1.
*/
static size_t sl_startpos(lua_Integer pos, size_t len) {
  if (pos > 0)
    return (size_t)pos;
  if (pos == 0)
    return 1;
  if (pos < -(lua_Integer)len)
    return 1;
  return len + (size_t)pos + 1;
}

/*
** Optional end position at stack slot 'arg' (default 'def'), clipped into
** [0, len].
*/
static size_t sl_endpos(lua_State *L, int arg, lua_Integer def, size_t len) {
  lua_Integer pos = luaL_optinteger(L, arg, def);
  if (pos > (lua_Integer)len)
    return len;
  if (pos >= 0)
    return (size_t)pos;
  if (pos < -(lua_Integer)len)
    return 0;
  return len + (size_t)pos + 1;
}

/* ======================================================================
** Simple functions
** ====================================================================== */

static int sl_len(lua_State *L) {
  size_t l;
  luaL_checklstring(L, 1, &l);
  lua_pushinteger(L, (lua_Integer)l);
  return 1;
}

/* string.sub(s, i [, j]) with a string and immediate integers i >= 1,
** j >= 0, read from the stack directly (as sl_byte1) */
static inline int sl_sub1(lua_State *L) {
  const Value *base = L->ci->func + 1;
  size_t from, len;
  if (!vm_subrange(base, L->top - base, &from, &len)) return 0;
  lua_pushlstring(L, getstr(v_str(base[0])) + from, len);
  return 1;
}

/* string.sub's general path, out of line (as sl_byten) */
static __attribute__((noinline)) int sl_subn(lua_State *L) {
  size_t l;
  const char *s = luaL_checklstring(L, 1, &l);
  size_t from = sl_startpos(luaL_checkinteger(L, 2), l);
  size_t to = sl_endpos(L, 3, -1, l);
  if (from <= to)
    lua_pushlstring(L, s + from - 1, to - from + 1);
  else
    lua_pushliteral(L, "");
  return 1;
}

static int sl_sub(lua_State *L) {
  return sl_sub1(L) ? 1 : sl_subn(L);
}

/* string.sub, known to OP_CALL (vm/vm.c), which makes the common (s, i
** [, j]) calls for one result without a C frame.  A constant in memory:
** the test of every other C call is one compare with it (a compare with
** the function's address needed an lea first) */
LUAI_DDEF const lua_CFunction mvm_strsub[1] = { sl_sub };

static int sl_reverse(lua_State *L) {
  size_t l, i;
  luaL_Buffer b;
  const char *s = luaL_checklstring(L, 1, &l);
  char *out = luaL_buffinitsize(L, &b, l);
  for (i = 0; i < l; i++)
    out[i] = s[l - 1 - i];
  luaL_pushresultsize(&b, l);
  return 1;
}

/* shared body of lower/upper: map every byte through 'conv' */
/* string.lower/upper: each byte through the locale's conversion.  With
** glibc, the table toupper()/tolower() read (the current locale's, fetched
** once a call: nothing in the loop can change the locale), so the loop
** calls nothing (the call per byte was ~30% of a `s:upper()` loop's
** cycles); 'map' is NULL elsewhere. */
static int sl_mapchars(lua_State *L, int (*conv)(int), const int32_t *map) {
  size_t l, i;
  luaL_Buffer b;
  const char *s = luaL_checklstring(L, 1, &l);
  char *out = luaL_buffinitsize(L, &b, l);
  if (map != NULL) {
    for (i = 0; i < l; i++)
      out[i] = (char)map[UC(s[i])];
  }
  else {
    for (i = 0; i < l; i++)
      out[i] = (char)conv(UC(s[i]));
  }
  luaL_pushresultsize(&b, l);
  return 1;
}

#ifdef __GLIBC__
static int sl_lower(lua_State *L) { return sl_mapchars(L, tolower, *__ctype_tolower_loc()); }
static int sl_upper(lua_State *L) { return sl_mapchars(L, toupper, *__ctype_toupper_loc()); }
#else
static int sl_lower(lua_State *L) { return sl_mapchars(L, tolower, NULL); }
static int sl_upper(lua_State *L) { return sl_mapchars(L, toupper, NULL); }
#endif

static int sl_rep(lua_State *L) {
  size_t l, lsep;
  const char *s = luaL_checklstring(L, 1, &l);
  lua_Integer n = luaL_checkinteger(L, 2);
  const char *sep = luaL_optlstring(L, 3, "", &lsep);
  if (n <= 0 || l + lsep == 0) {
    lua_pushliteral(L, "");
  }
  else if (l + lsep < l || l + lsep > SL_MAXSIZE / (size_t)n) {
    return luaL_error(L, "resulting string too large");
  }
  else {
    size_t total = (size_t)n * l + (size_t)(n - 1) * lsep;
    luaL_Buffer b;
    char *p = luaL_buffinitsize(L, &b, total);
    for (; n > 1; n--) {
      memcpy(p, s, l);
      p += l;
      if (lsep > 0) {
        memcpy(p, sep, lsep);
        p += lsep;
      }
    }
    memcpy(p, s, l);
    luaL_pushresultsize(&b, total);
  }
  return 1;
}

/* string.byte(s, i) with a string and an immediate integer 1 <= i <= #s,
** the common call, read from the stack directly: the general path's
** argument conversions and position arithmetic were ~40 instructions */
static inline int sl_byte1(lua_State *L) {
  const Value *base = L->ci->func + 1;
  if (L->top - base == 2 && v_isstring(base[0]) && v_isimmint(base[1])) {
    const TString *ts = v_str(base[0]);
    uint64_t i = (uint64_t)v_getimmint(base[1]) - 1u;
    if (i < ts->len) {
      *L->top++ = v_immint(UC(getstr(ts)[i]));   /* NOBARRIER: stack */
      return 1;
    }
  }
  return 0;
}

/* string.byte's general path, out of line: sl_byte's common case then
** saves no callee-saved register (their pushes and pops were ~16 of its
** instructions) */
static __attribute__((noinline)) int sl_byten(lua_State *L) {
  size_t l;
  const char *s = luaL_checklstring(L, 1, &l);
  lua_Integer first = luaL_optinteger(L, 2, 1);
  size_t from = sl_startpos(first, l);
  size_t to = sl_endpos(L, 3, first, l);
  int n, i;
  if (from > to)
    return 0;
  if (to - from >= (size_t)INT_MAX)
    return luaL_error(L, "string slice too long");
  n = (int)(to - from) + 1;
  if (n > LUA_MINSTACK)   /* a C function starts with LUA_MINSTACK free slots */
    luaL_checkstack(L, n, "string slice too long");
  for (i = 0; i < n; i++)
    lua_pushinteger(L, UC(s[from + i - 1]));
  return n;
}

static int sl_byte(lua_State *L) {
  return sl_byte1(L) ? 1 : sl_byten(L);
}

/* The function compiled code runs inline where it finds it called with
** one or two arguments for one result (jit/llvmgen.c bytecall compares
** the callee with this value): JitState.strbuiltins. */
LUAI_DDEF const lua_CFunction mvm_strbuiltins[1] = { sl_byte };

/* string.char's general path, out of line (as sl_byten) */
static __attribute__((noinline)) int sl_charn(lua_State *L) {
  int n = lua_gettop(L);
  int i;
  luaL_Buffer b;
  char *p = luaL_buffinitsize(L, &b, (size_t)n);
  for (i = 1; i <= n; i++) {
    lua_Unsigned c = (lua_Unsigned)luaL_checkinteger(L, i);
    luaL_argcheck(L, c <= (lua_Unsigned)UCHAR_MAX, i, "value out of range");
    p[i - 1] = (char)UC(c);
  }
  luaL_pushresultsize(&b, (size_t)n);
  return 1;
}

/* string.char of up to 16 immediate integers in 0..255, read from the
** stack: the bytes gathered in two words and stored as words (str_new's
** loads then find each in one store), without the luaL_Buffer and the
** per-argument luaL_checkinteger */
static int sl_char(lua_State *L) {
  const Value *base = L->ci->func + 1;
  ptrdiff_t n = L->top - base, i;
  uint64_t w[2] = {0, 0};
  char buf[16];
  if (n > 16) return sl_charn(L);
  for (i = 0; i < n; i++) {
    Value v = base[i];
    if (!v_isimmint(v) || (uint64_t)v_getimmint(v) > UCHAR_MAX) return sl_charn(L);
    w[i >> 3] |= (uint64_t)v_getimmint(v) << (8 * (i & 7));
  }
  memcpy(buf, w, 16);
  lua_pushlstring(L, buf, (size_t)n);
  return 1;
}

/* ---------------------------------------------------------------------- */
/* string.dump */

typedef struct DumpState {
  int started;  /* buffer initialised? (done lazily, see sl_dump) */
  luaL_Buffer B;
} DumpState;

static int sl_dumpwriter(lua_State *L, const void *p, size_t sz, void *ud) {
  DumpState *ds = (DumpState *)ud;
  if (!ds->started) {
    /* the buffer is created only now, once lua_dump has taken the function
       from the top of the stack, so that its slot ends up above it */
    ds->started = 1;
    luaL_buffinit(L, &ds->B);
  }
  luaL_addlstring(&ds->B, (const char *)p, sz);
  return 0;
}

static int sl_dump(lua_State *L) {
  DumpState ds;
  int strip = lua_toboolean(L, 2);
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_settop(L, 1);  /* the function must be on top for lua_dump */
  ds.started = 0;
  if (lua_dump(L, sl_dumpwriter, &ds, strip) != 0)
    return luaL_error(L, "unable to dump given function");
  if (!ds.started) {  /* nothing was written (should not happen) */
    ds.started = 1;
    luaL_buffinit(L, &ds.B);
  }
  luaL_pushresult(&ds.B);
  return 1;
}

/* ======================================================================
** Arithmetic metamethods: strings are converted to numbers here (5.4 moved
** the string coercion of arithmetic out of the core into the string
** metatable).
** ====================================================================== */

/* push the numeric value of stack slot 'i'; returns 0 if not convertible */
static int sl_tonum(lua_State *L, int i) {
  size_t len;
  const char *s;
  if (lua_type(L, i) == LUA_TNUMBER) {
    lua_pushvalue(L, i);
    return 1;
  }
  s = lua_tolstring(L, i, &len);
  /* the whole string (no embedded zeros) must be a numeral */
  return s != NULL && lua_stringtonumber(L, s) == len + 1;
}

/*
** Conversion failed: give the second operand's own metamethod a chance
** (when it is not a string), otherwise raise the 5.4 error message.
*/
static void sl_othermeta(lua_State *L, const char *event) {
  lua_settop(L, 2);
  if (lua_type(L, 2) == LUA_TSTRING || !luaL_getmetafield(L, 2, event)) {
    luaL_error(L, "attempt to %s a '%s' with a '%s'", event + 2,
               luaL_typename(L, -2), luaL_typename(L, -1));
    return;
  }
  lua_insert(L, -3);  /* metamethod below both operands */
  lua_call(L, 2, 1);
}

static int sl_arith(lua_State *L, int op, const char *event) {
  if (sl_tonum(L, 1) && sl_tonum(L, 2))
    lua_arith(L, op);
  else
    sl_othermeta(L, event);
  return 1;
}

static int sl_mm_add(lua_State *L) { return sl_arith(L, LUA_OPADD, "__add"); }
static int sl_mm_sub(lua_State *L) { return sl_arith(L, LUA_OPSUB, "__sub"); }
static int sl_mm_mul(lua_State *L) { return sl_arith(L, LUA_OPMUL, "__mul"); }
static int sl_mm_mod(lua_State *L) { return sl_arith(L, LUA_OPMOD, "__mod"); }
static int sl_mm_pow(lua_State *L) { return sl_arith(L, LUA_OPPOW, "__pow"); }
static int sl_mm_div(lua_State *L) { return sl_arith(L, LUA_OPDIV, "__div"); }
static int sl_mm_idiv(lua_State *L) { return sl_arith(L, LUA_OPIDIV, "__idiv"); }
static int sl_mm_unm(lua_State *L) { return sl_arith(L, LUA_OPUNM, "__unm"); }

/* ======================================================================
** Pattern matching
** ====================================================================== */

#define PAT_ESC		'%'
#define PAT_SPECIALS	"^$*+?.([%-"
#define PAT_MAXCAPTURES	32
#define PAT_MAXDEPTH	200	/* C recursion limit of the matcher */

/* special values of Capture.len */
#define CAPLEN_OPEN	(-1)	/* capture still open */
#define CAPLEN_POS	(-2)	/* position capture '()' */

typedef struct Capture {
  const char *init;
  ptrdiff_t len;
} Capture;

struct PatPrep;

typedef struct Matcher {
  const char *src;	/* subject start */
  const char *src_end;	/* subject end */
  const char *pat_end;	/* pattern end */
  struct PatPrep *prep;	/* the pattern prepared (pm_prep), or NULL */
  const char *pat0;	/* the pattern string's start (PatPrep offsets) */
  lua_State *L;
  int depth;		/* remaining recursion budget */
  int nlevel;		/* number of captures (open or closed) */
#ifdef __GLIBC__
  const unsigned short *ctab;	/* the locale's ctype table (pm_setctab) */
#endif
  Capture cap[PAT_MAXCAPTURES];
} Matcher;

/* Class runs read the locale's ctype table from the Matcher (glibc: the
** table isalpha() & co read), so pm_classspan calls nothing and saves no
** registers.  It is read again wherever Lua code may have run since (a
** gsub replacement function or a finalizer may call os.setlocale): at the
** start of each find, each gmatch step and each gsub iteration. */
#ifdef __GLIBC__
#define pm_setctab(m)  ((m)->ctab = *__ctype_b_loc())
#define PM_CTAB(m)     , (m)->ctab
#else
#define pm_setctab(m)  ((void)0)
#define PM_CTAB(m)
#endif

static const char *pm_match(Matcher *m, const char *s, const char *p);

static int pm_closeable(Matcher *m) {
  int l;
  for (l = m->nlevel - 1; l >= 0; l--)
    if (m->cap[l].len == CAPLEN_OPEN)
      return l;
  return luaL_error(m->L, "invalid pattern capture");
}

/* validate back reference '%c' (c is a digit char); returns capture index */
static int pm_backref(Matcher *m, int c) {
  int l = c - '1';
  if (l < 0 || l >= m->nlevel || m->cap[l].len == CAPLEN_OPEN)
    return luaL_error(m->L, "invalid capture index %%%d", l + 1);
  return l;
}

/* the end of the set at 'p' ('['), NULL when it has no ']' before
** 'pe', the pattern's end (which holds a '\0', as every string's end) */
static const char *pm_setend(const char *p, const char *pe) {
  char c;
  if (*++p == '^')
    p++;
  /* the first char of a set is never its end, so '[]]' is a set of ']' */
  do {
    if (p == pe)
      return NULL;
    c = *p++;
    if (c == PAT_ESC && p < pe)
      p++;
  } while (*p != ']');
  return p + 1;
}

static const char *pm_cachedend(Matcher *m, const char *p);

/* end of the single-character class starting at 'p' */
static const char *pm_classend(Matcher *m, const char *p) {
  if (*p == PAT_ESC) {
    if (p + 1 == m->pat_end)
      luaL_error(m->L, "malformed pattern (ends with '%%')");
    return p + 2;
  }
  if (*p == '[') {
    const char *e = (m->prep != NULL) ? pm_cachedend(m, p) : NULL;
    if (e == NULL && (e = pm_setend(p, m->pat_end)) == NULL)
      luaL_error(m->L, "malformed pattern (missing ']')");
    return e;
  }
  return p + 1;
}

/* does byte 'c' belong to class letter 'cl' (%a, %d, ..., or literal)?
** The class letters are ASCII: tolower() and isupper() of 'cl' are
** written out (they were calls per subject byte), which changes nothing
** in any locale for the letters that name classes. */
static inline int pm_classmatch(int c, int cl) {
  int r, upper = (unsigned)(cl - 'A') <= 'Z' - 'A';
  switch (upper ? cl | 0x20 : cl) {
    case 'a': r = isalpha(c); break;
    case 'c': r = iscntrl(c); break;
    case 'd': r = isdigit(c); break;
    case 'g': r = isgraph(c); break;
    case 'l': r = islower(c); break;
    case 'p': r = ispunct(c); break;
    case 's': r = isspace(c); break;
    case 'u': r = isupper(c); break;
    case 'w': r = isalnum(c); break;
    case 'x': r = isxdigit(c); break;
    case 'z': r = (c == 0); break;  /* deprecated, still accepted by 5.4 */
    default: return cl == c;  /* escaped literal */
  }
  if (upper)
    r = !r;  /* upper-case letter: complement */
  return r != 0;
}

/* Class letters name ctype tests: a run of bytes from 'q' on whose test
** result equals 'want' has one loop per class, so the compiler keeps the
** class choice (and the locale's ctype table) out of the per-byte loop;
** pm_classmatch per byte dispatched on the letter at every byte. */
#define PM_SPAN(test) \
  while (q < e && ((test(UC(*q)) != 0) == want)) q++; \
  return q
#define PM_ISZERO(c)  ((c) == 0)

#ifdef __GLIBC__
/* (a loop per direction: comparing each byte's test with 'want' was two
** more instructions a byte) */
#define PM_CTSPAN(bit) \
  if (want) { while (q < e && (ct[UC(*q)] & (bit)) != 0) q++; } \
  else { while (q < e && (ct[UC(*q)] & (bit)) == 0) q++; } \
  return q
#endif

/* the first byte from 'q' (up to 'e') where pm_classmatch(c, cl) != want */
#ifdef __GLIBC__
static const char *pm_classspan(const char *q, const char *e, int cl, int want,
                                const unsigned short *ct) {
  int upper = (unsigned)(cl - 'A') <= 'Z' - 'A';
  int lit = want;   /* a literal compares with the letter itself */
  if (upper)
    want = !want;   /* upper-case letter: complement */
  switch (upper ? cl | 0x20 : cl) {
    case 'a': PM_CTSPAN(_ISalpha);
    case 'c': PM_CTSPAN(_IScntrl);
    case 'd': PM_CTSPAN(_ISdigit);
    case 'g': PM_CTSPAN(_ISgraph);
    case 'l': PM_CTSPAN(_ISlower);
    case 'p': PM_CTSPAN(_ISpunct);
    case 's': PM_CTSPAN(_ISspace);
    case 'u': PM_CTSPAN(_ISupper);
    case 'w': PM_CTSPAN(_ISalnum);
    case 'x': PM_CTSPAN(_ISxdigit);
    case 'z': PM_SPAN(PM_ISZERO);
    default:
      while (q < e && (UC(*q) == cl) == lit) q++;
      return q;
  }
}
#else
static const char *pm_classspan(const char *q, const char *e, int cl, int want) {
  int upper = (unsigned)(cl - 'A') <= 'Z' - 'A';
  int lit = want;   /* a literal compares with the letter itself */
  if (upper)
    want = !want;   /* upper-case letter: complement */
  switch (upper ? cl | 0x20 : cl) {
    case 'a': PM_SPAN(isalpha);
    case 'c': PM_SPAN(iscntrl);
    case 'd': PM_SPAN(isdigit);
    case 'g': PM_SPAN(isgraph);
    case 'l': PM_SPAN(islower);
    case 'p': PM_SPAN(ispunct);
    case 's': PM_SPAN(isspace);
    case 'u': PM_SPAN(isupper);
    case 'w': PM_SPAN(isalnum);
    case 'x': PM_SPAN(isxdigit);
    case 'z': PM_SPAN(PM_ISZERO);
    default:
      while (q < e && (UC(*q) == cl) == lit) q++;
      return q;
  }
}
#endif

/* 'p' points at '[', 'close' at the matching ']' */
static int pm_setmatch(int c, const char *p, const char *close) {
  int found = 1;
  if (p[1] == '^') {
    found = 0;
    p++;
  }
  while (++p < close) {
    if (*p == PAT_ESC) {
      p++;
      if (pm_classmatch(c, UC(*p)))
        return found;
    }
    else if (p[1] == '-' && p + 2 < close) {
      if (UC(p[0]) <= c && c <= UC(p[2]))
        return found;
      p += 2;
    }
    else if (UC(*p) == c) {
      return found;
    }
  }
  return !found;
}

#ifndef __GLIBC__
/* a set tabulated for all 256 bytes (pm_setspan) */
typedef struct SetMap {
  unsigned char in[256];
} SetMap;

/* SetMap of the set [p, close], p at '[': the same items as pm_setmatch */
static void pm_setmap(SetMap *sm, const char *p, const char *close) {
  int neg = 0, c;
  memset(sm->in, 0, sizeof sm->in);
  if (p[1] == '^') {
    neg = 1;
    p++;
  }
  while (++p < close) {
    if (*p == PAT_ESC) {
      int cl = UC(*++p);
      for (c = 0; c < 256; c++)
        sm->in[c] |= (unsigned char)pm_classmatch(c, cl);
    }
    else if (p[1] == '-' && p + 2 < close) {
      for (c = UC(p[0]); c <= UC(p[2]); c++)
        sm->in[c] = 1;
      p += 2;
    }
    else {
      sm->in[UC(*p)] = 1;
    }
  }
  if (neg)
    for (c = 0; c < 256; c++)
      sm->in[c] ^= 1;
}

/* Bytes a set scan reads with pm_setmatch before it tabulates the set:
** tabulating costs about as much as reading a few hundred bytes, so
** short scans (the usual ones) never pay it and long ones pay it once. */
#define PM_SETMAPAFTER  48

/* pm_setspan's long scans, through the table (kept out of line: the
** table's stack frame would burden every short scan) */
static __attribute__((noinline)) const char *pm_setspanmap(const char *s,
    const char *e, const char *p, const char *close, int want) {
  SetMap sm;
  pm_setmap(&sm, p, close);
  while (s < e && sm.in[UC(*s)] == want) s++;
  return s;
}
#endif

#ifdef __GLIBC__
/* A set compiled for scans (glibc): its literal bytes, ranges and %z as
** 256 bits, its classes as masks of the locale's ctype table, the table
** isalpha() & co read (glibc's class masks are single bits), so one load
** answers for every class of the set.  Building it costs a few
** instructions per item (less than one pm_setmatch of a set with a
** class) where SetMap costs 256 steps per class, so every scan builds it
** and short subjects no longer parse the set (and dispatch on each class
** letter) for every byte. */
typedef struct SetBits {
  uint64_t bits[4];
  const unsigned short *ctab;
  unsigned pos;   /* classes: c is in when ctab[c] has one of these bits */
  unsigned neg;   /* complemented classes: c is in when ctab[c] lacks one */
} SetBits;

/* the ctype bit of class letter 'cl' (lower case), 0 if it is none */
static unsigned pm_ctypebit(int cl) {
  switch (cl) {
    case 'a': return _ISalpha;
    case 'c': return _IScntrl;
    case 'd': return _ISdigit;
    case 'g': return _ISgraph;
    case 'l': return _ISlower;
    case 'p': return _ISpunct;
    case 's': return _ISspace;
    case 'u': return _ISupper;
    case 'w': return _ISalnum;
    case 'x': return _ISxdigit;
    default: return 0;
  }
}

#define SB_SET(sb, c)  ((sb)->bits[(c) >> 6] |= (uint64_t)1 << ((c) & 63))

/* SetBits of the set [p, close], p at '[' (the items of pm_setmatch);
** returns 1 for a complemented set ('[^...]') */
static int pm_setbits(SetBits *sb, const char *p, const char *close) {
  int neg = 0, c;
  sb->bits[0] = sb->bits[1] = sb->bits[2] = sb->bits[3] = 0;
  sb->ctab = *__ctype_b_loc();
  sb->pos = sb->neg = 0;
  if (p[1] == '^') {
    neg = 1;
    p++;
  }
  while (++p < close) {
    if (*p == PAT_ESC) {
      int cl = UC(*++p), upper = (unsigned)(cl - 'A') <= 'Z' - 'A';
      int lc = upper ? cl | 0x20 : cl;
      unsigned bit = pm_ctypebit(lc);
      if (bit != 0) {
        if (upper) sb->neg |= bit;
        else sb->pos |= bit;
      }
      else if (lc == 'z' && upper) {   /* %Z: every byte but '\0' */
        sb->bits[0] |= ~(uint64_t)1;
        sb->bits[1] = sb->bits[2] = sb->bits[3] = ~(uint64_t)0;
      }
      else if (lc == 'z')
        sb->bits[0] |= 1;
      else
        SB_SET(sb, cl);   /* escaped literal (pm_classmatch's default) */
    }
    else if (p[1] == '-' && p + 2 < close) {
      for (c = UC(p[0]); c <= UC(p[2]); c++)
        SB_SET(sb, c);
      p += 2;
    }
    else
      SB_SET(sb, UC(*p));
  }
  return neg;
}

/* is byte c in the set?  (a complemented set's answer is inverted) */
static inline int pm_bitsin(const SetBits *sb, int c) {
  unsigned ct = sb->ctab[c];
  return (int)((sb->bits[c >> 6] >> (c & 63)) & 1) |
         ((ct & sb->pos) != 0) | ((ct & sb->neg) != sb->neg);
}

/* the first byte from 's' (up to 'e') where the set [p, close] gives
** other than 'want' (0 or 1).  (Reading a first byte with pm_setmatch
** before building the SetBits cost json 1%.)  Out of line: inlined, its
** registers made pm_skipto save six for every class skip. */
static __attribute__((noinline)) const char *pm_setspan(const char *s,
    const char *e, const char *p, const char *close, int want) {
  SetBits sb;
  if (s == e)
    return s;
  want ^= pm_setbits(&sb, p, close);
  if ((sb.pos | sb.neg) == 0) {   /* no class: the bits alone answer */
    while (s < e && (int)((sb.bits[UC(*s) >> 6] >> (UC(*s) & 63)) & 1) == want) s++;
    return s;
  }
  while (s < e && pm_bitsin(&sb, UC(*s)) == want) s++;
  return s;
}
#else
/* the first byte from 's' (up to 'e') where the set [p, close] gives
** other than 'want' (0 or 1) */
static const char *pm_setspan(const char *s, const char *e, const char *p,
                              const char *close, int want) {
  const char *lim = (e - s > PM_SETMAPAFTER) ? s + PM_SETMAPAFTER : e;
  while (s < lim && pm_setmatch(UC(*s), p, close) == want) s++;
  if (s < lim || s == e)
    return s;
  return pm_setspanmap(s, e, p, close, want);
}
#endif

/* ---------------------------------------------------------------------- */
/* Prepared patterns.  What a pattern's text alone decides -- its sets
** (ends, and SetBits on glibc) and its first class (pm_firstclass,
** pm_quickkind) -- is kept in a small direct-mapped cache per
** global_State (global_State.patcache, a full userdata anchored in the
** registry) keyed by the pattern's TString, so that repeated calls with
** one pattern parse it once.  Strings never move and only a collection
** frees one, and every collection advances gc_epoch: an entry filled in
** the current epoch names the live string at its key's address; an older
** entry is stale and its key is never dereferenced.  Errors are raised
** as before, at every call: the set scan raises nothing (a malformed set
** and whatever follows it are left unprepared, so pm_classend parses
** them and raises where it did), and the first class is stored only
** after pm_firstclass returned.  Lua code (a gsub replacement, a
** finalizer at an allocation) may refill a slot: a Matcher's 'prep' is
** checked against its key after any such point (pm_keepprep). */
#define PC_SLOTS	64	/* entries, a power of 2 */
#define PC_SETS		4	/* sets prepared per pattern */
#define PC_MAXLEN	4096	/* longer patterns are not cached */

typedef struct PatSet {
  int off, end;		/* offsets of its '[' and past its ']' */
#ifdef __GLIBC__
  int neg;		/* a complemented set */
  SetBits sb;		/* its items; sb.ctab: the locale's table at the fill */
  uint64_t in[4];	/* its members (neg applied) under sb.ctab */
#endif
} PatSet;

typedef struct PatPrep {
  const TString *key;	/* NULL: never filled */
  size_t epoch;		/* gc_epoch at the fill */
  int first;		/* fcoff, feoff and quick are known */
  int fcoff, feoff;	/* pm_firstclass of the whole string (feoff < 0: NULL) */
  int quick;		/* pm_quickkind of the same */
  int nsets;
  PatSet sets[PC_SETS];
} PatPrep;

typedef struct PatCache {
  const size_t *epoch;	/* gc_epoch */
  PatPrep slot[PC_SLOTS];
} PatCache;

/* the prepared set at 'p' (a '['), or NULL */
static inline const PatSet *pm_cachedset(const Matcher *m, const char *p) {
  const PatPrep *pp = m->prep;
  int i, off;
  if (pp == NULL)
    return NULL;
  off = (int)(p - m->pat0);
  for (i = 0; i < pp->nsets; i++)
    if (pp->sets[i].off == off)
      return &pp->sets[i];
  return NULL;
}

static const char *pm_cachedend(Matcher *m, const char *p) {
  const PatSet *ps = pm_cachedset(m, p);
  return (ps != NULL) ? m->pat0 + ps->end : NULL;
}

#ifdef __GLIBC__
#define PS_IN(ps, c)  ((int)(((ps)->in[(c) >> 6] >> ((c) & 63)) & 1))

/* is byte c in the prepared set?  (pm_setmatch's answer; the member bits
** answer unless the locale changed since the fill) */
static inline int pm_psin(const PatSet *ps, const unsigned short *ct, int c) {
  unsigned t;
  if (l_likely(ct == ps->sb.ctab))
    return PS_IN(ps, c);
  t = ct[c];
  return ((int)((ps->sb.bits[c >> 6] >> (c & 63)) & 1) |
          ((t & ps->sb.pos) != 0) | ((t & ps->sb.neg) != ps->sb.neg)) ^ ps->neg;
}

/* the member bits of a set whose items are in ps->sb, under sb.ctab */
static void pm_psfill(PatSet *ps) {
  int c;
  if ((ps->sb.pos | ps->sb.neg) == 0) {   /* no class: the bits alone */
    for (c = 0; c < 4; c++)
      ps->in[c] = ps->neg ? ~ps->sb.bits[c] : ps->sb.bits[c];
    return;
  }
  memset(ps->in, 0, sizeof ps->in);
  for (c = 0; c < 256; c++)
    if (pm_bitsin(&ps->sb, c) ^ ps->neg)
      ps->in[c >> 6] |= (uint64_t)1 << (c & 63);
}

/* pm_setspan with the set prepared */
static const char *pm_psspan(const char *s, const char *e, const PatSet *ps,
                             const unsigned short *ct, int want) {
  if (l_likely(ct == ps->sb.ctab)) {
    while (s < e && PS_IN(ps, UC(*s)) == want) s++;
    return s;
  }
  if ((ps->sb.pos | ps->sb.neg) == 0) {   /* no class: the bits alone */
    int w = want ^ ps->neg;
    while (s < e && (int)((ps->sb.bits[UC(*s) >> 6] >> (UC(*s) & 63)) & 1) == w) s++;
    return s;
  }
  while (s < e && pm_psin(ps, ct, UC(*s)) == want) s++;
  return s;
}
#endif

/* record the sets of pattern [p, pe): item by item as pm_match reads
** them ('%' and the byte after it, "%bxy"), up to the first malformed one */
static void pm_prepsets(PatPrep *pp, const char *p, const char *pe) {
  const char *q = p;
  pp->nsets = 0;
  while (q < pe && pp->nsets < PC_SETS) {
    if (*q == '[') {
      const char *e = pm_setend(q, pe);
      PatSet *ps;
      if (e == NULL)
        return;
      ps = &pp->sets[pp->nsets++];
      ps->off = (int)(q - p);
      ps->end = (int)(e - p);
#ifdef __GLIBC__
      ps->neg = pm_setbits(&ps->sb, q, e - 1);
      pm_psfill(ps);
#endif
      q = e;
    }
    else if (*q == PAT_ESC)
      q += (q[1] == 'b') ? 4 : 2;   /* q[1] may be the final '\0' */
    else
      q++;
  }
}

/* (re)fill entry 'pp' for pattern 'ts', or NULL for a long pattern */
static PatPrep *pm_prepfill(PatCache *pc, PatPrep *pp, const TString *ts) {
  if (ts->len > PC_MAXLEN)
    return NULL;
  pp->key = ts;   /* NOBARRIER: a raw key the collector never reads; weak (the epoch) */
  pp->epoch = *pc->epoch;
  pp->first = 0;
  pm_prepsets(pp, getstr(ts), getstr(ts) + ts->len);
  return pp;
}

/* the registry key of the PatCache userdata */
static const char sl_patcachekey = 0;

/* the pattern cache of this global_State, made at the first match (a
** full userdata never moves; the registry keeps it as long as the state
** lives).  Not in luaopen_string: its 19 KB in the old space shift the
** collections of programs that never match a pattern. */
static __attribute__((noinline)) void sl_newpatcache(lua_State *L) {
  PatCache *pc;
  if (G(L)->patcache != NULL)
    return;
  pc = (PatCache *)lua_newuserdatauv(L, sizeof(PatCache), 0);
  memset(pc, 0, sizeof(PatCache));
  pc->epoch = gc_epoch(G(L));
  lua_rawsetp(L, LUA_REGISTRYINDEX, &sl_patcachekey);
  G(L)->patcache = pc;   /* NOBARRIER: not a heap object; the registry holds the block */
}

#define PC_SLOT(pc, ts) \
  (&(pc)->slot[(((uintptr_t)(ts) >> 4) ^ ((uintptr_t)(ts) >> 11)) & (PC_SLOTS - 1)])

/* pm_prep's miss: the entry filled, and the cache made first if this is
** the state's first match */
static __attribute__((noinline)) PatPrep *pm_prepmiss(lua_State *L,
                                                      const TString *ts) {
  PatCache *pc;
  if (G(L)->patcache == NULL)
    sl_newpatcache(L);
  pc = (PatCache *)G(L)->patcache;
  return pm_prepfill(pc, PC_SLOT(pc, ts), ts);
}

/* the cache entry of pattern 'ts', filled now if it was not (NULL for a
** long pattern).  Raises nothing and allocates nothing, except at the
** state's first match, which makes the cache: callers then hold no
** pointer into the stack and no open luaL_Buffer. */
static inline PatPrep *pm_prep(lua_State *L, const TString *ts) {
  PatCache *pc = (PatCache *)G(L)->patcache;
  if (l_likely(pc != NULL)) {
    PatPrep *pp = PC_SLOT(pc, ts);
    if (pp->key == ts && pp->epoch == *pc->epoch)
      return pp;
  }
  return pm_prepmiss(L, ts);
}

/* attach the preparation of 'ts' (whose text starts the pattern) */
static inline void pm_useprep(Matcher *m, lua_State *L, const TString *ts) {
  m->prep = pm_prep(L, ts);
  m->pat0 = getstr(ts);
}

/* after Lua code may have run: the slot may hold another pattern now */
#define pm_keepprep(m, L, ts) \
  do { if ((m)->prep != NULL && (m)->prep->key != (ts)) pm_useprep(m, L, ts); } while (0)

/* pm_setmatch, with the set's preparation when there is one */
static int pm_setin(const Matcher *m, int c, const char *p, const char *close) {
#ifdef __GLIBC__
  const PatSet *ps = pm_cachedset(m, p);
  if (ps != NULL)
    return pm_psin(ps, m->ctab, c);
#else
  (void)m;
#endif
  return pm_setmatch(c, p, close);
}

/* does the char at 's' match the single class [p, ep)? */
static int pm_single(Matcher *m, const char *s, const char *p,
                     const char *ep) {
  int c;
  if (s >= m->src_end)
    return 0;
  c = UC(*s);
  switch (*p) {
    case '.': return 1;
    case PAT_ESC: return pm_classmatch(c, UC(p[1]));
    case '[': return pm_setin(m, c, p, ep - 1);
    default: return UC(*p) == c;
  }
}

static const char *pm_balance(Matcher *m, const char *s, const char *p) {
  int open, close, depth;
  if (p >= m->pat_end - 1)
    luaL_error(m->L, "malformed pattern (missing arguments to '%%b')");
  if (s >= m->src_end || *s != *p)
    return NULL;
  open = *p;
  close = p[1];
  depth = 1;
  while (++s < m->src_end) {
    if (*s == close) {
      if (--depth == 0)
        return s + 1;
    }
    else if (*s == open) {
      depth++;
    }
  }
  return NULL;
}

/* pm_setspan, with the set's preparation when there is one (out of line
** as pm_setspan: pm_skipto and pm_run stay small) */
static __attribute__((noinline)) const char *pm_setspanm(Matcher *m, const char *s, const char *e,
                               const char *p, const char *close, int want) {
#ifdef __GLIBC__
  const PatSet *ps = pm_cachedset(m, p);
  if (ps != NULL)
    return pm_psspan(s, e, ps, m->ctab, want);
#endif
  (void)m;
  return pm_setspan(s, e, p, close, want);
}

/* how many bytes from 's' on match the single class [p, ep): pm_single
** with the class kind chosen once for the whole run */
static ptrdiff_t pm_run(Matcher *m, const char *s, const char *p, const char *ep) {
  const char *q = s, *e = m->src_end;
  int cl;
  switch (*p) {
    case '.': return e - s;
    case PAT_ESC:
      q = pm_classspan(q, e, UC(p[1]), 1 PM_CTAB(m));
      break;
    case '[':
      q = pm_setspanm(m, q, e, p, ep - 1, 1);
      break;
    default:
      cl = UC(*p);
      while (q < e && UC(*q) == cl) q++;
      break;
  }
  return q - s;
}

/* The byte that the pattern from 'q' on must match first, or -1: a plain
** byte or an escaped non-alphanumeric one, after any ')' (closing a
** capture consumes nothing), with no '*', '?' or '-' after it.  The
** repetitions below try their continuation only where the subject has
** that byte: a try elsewhere fails at it.  Only when the depth budget
** leaves room for the ')' levels and each ')' closes an open capture, so
** that a skipped try could not have raised an error either. */
static int pm_nextbyte(Matcher *m, const char *q) {
  const char *e = m->pat_end;
  int c, n = 0;
  int open = 0, l;
  while (q < e && *q == ')') {
    q++;
    n++;
  }
  if (q >= e || m->depth <= n + 2)
    return -1;
  for (l = 0; l < m->nlevel && open < n; l++)
    open += m->cap[l].len == CAPLEN_OPEN;
  if (open < n)   /* a ')' without its '(': the try raises the error */
    return -1;
  if (*q == PAT_ESC) {
    if (q + 1 >= e || isalnum(UC(q[1])))
      return -1;
    c = UC(q[1]);
    q += 2;
  }
  else {
    if (pm_special(*q))
      return -1;
    c = UC(*q);
    q++;
  }
  if (q < e && (*q == '*' || *q == '?' || *q == '-'))
    return -1;
  return c;
}

/* greedy repetition: longest run first, then back off */
static const char *pm_greedyn(Matcher *m, const char *s, ptrdiff_t n,
                              const char *ep);

static const char *pm_greedy(Matcher *m, const char *s, const char *p,
                             const char *ep) {
  return pm_greedyn(m, s, pm_run(m, s, p, ep), ep);
}

/* pm_greedy with the run from 's' known: 'n' bytes */
static const char *pm_greedyn(Matcher *m, const char *s, ptrdiff_t n,
                              const char *ep) {
  int c = pm_nextbyte(m, ep + 1);
  for (; n >= 0; n--) {
    const char *r;
    if (c >= 0 && (s + n == m->src_end || UC(s[n]) != c))
      continue;
    r = pm_match(m, s + n, ep + 1);
    if (r != NULL)
      return r;
  }
  return NULL;
}

/* lazy repetition: shortest run first */
static const char *pm_lazy(Matcher *m, const char *s, const char *p,
                           const char *ep) {
  int c = pm_nextbyte(m, ep + 1);
  for (;;) {
    if (c >= 0) {   /* on to the next position holding that byte */
      if (*p == '.') {   /* every byte matches '.' */
        s = (const char *)memchr(s, c, (size_t)(m->src_end - s));
        if (s == NULL)
          return NULL;
      }
      else {
        while (s < m->src_end && UC(*s) != c && pm_single(m, s, p, ep))
          s++;
        if (s == m->src_end || UC(*s) != c)
          return NULL;
      }
    }
    {
      const char *r = pm_match(m, s, ep + 1);
      if (r != NULL)
        return r;
    }
    if (!pm_single(m, s, p, ep))
      return NULL;
    s++;
  }
}

static const char *pm_opencap(Matcher *m, const char *s, const char *p,
                              ptrdiff_t kind) {
  const char *r;
  int l = m->nlevel;
  if (l >= PAT_MAXCAPTURES)
    luaL_error(m->L, "too many captures");
  m->cap[l].init = s;
  m->cap[l].len = kind;
  m->nlevel = l + 1;
  r = pm_match(m, s, p);
  if (r == NULL)
    m->nlevel--;  /* undo */
  return r;
}

static const char *pm_closecap(Matcher *m, const char *s, const char *p) {
  int l = pm_closeable(m);
  const char *r;
  m->cap[l].len = s - m->cap[l].init;
  r = pm_match(m, s, p);
  if (r == NULL)
    m->cap[l].len = CAPLEN_OPEN;  /* undo */
  return r;
}

static const char *pm_samecap(Matcher *m, const char *s, int c) {
  int l = pm_backref(m, c);
  size_t len = (size_t)m->cap[l].len;
  if ((size_t)(m->src_end - s) >= len &&
      memcmp(m->cap[l].init, s, len) == 0)
    return s + len;
  return NULL;
}

/*
** Match pattern 'p' against subject position 's'; returns the end of the
** match or NULL.  Simple continuations loop instead of recursing; each
** activation consumes one unit of the depth budget.
*/
static const char *pm_match(Matcher *m, const char *s, const char *p) {
  if (m->depth-- == 0)
    luaL_error(m->L, "pattern too complex");
  while (p != m->pat_end) {
    const char *ep;
    ptrdiff_t n;
#ifdef __GLIBC__
    const PatSet *ps;
#endif
    switch (*p) {
      case '(':
        if (p[1] == ')')
          s = pm_opencap(m, s, p + 2, CAPLEN_POS);
        else
          s = pm_opencap(m, s, p + 1, CAPLEN_OPEN);
        goto out;
      case ')':
        s = pm_closecap(m, s, p + 1);
        goto out;
      case '$':
        if (p + 1 == m->pat_end) {  /* anchor only at the very end */
          if (s != m->src_end)
            s = NULL;
          goto out;
        }
        break;  /* otherwise an ordinary char */
      case PAT_ESC:
        if (p[1] == 'b') {
          s = pm_balance(m, s, p + 2);
          if (s == NULL)
            goto out;
          p += 4;
          continue;
        }
        if (p[1] == 'f') {
          int before, at;
          p += 2;
          if (*p != '[')
            luaL_error(m->L, "missing '[' after '%%f' in pattern");
          ep = pm_classend(m, p);
          before = (s == m->src) ? '\0' : UC(s[-1]);
          at = (s < m->src_end) ? UC(*s) : '\0';
          if (!pm_setin(m, before, p, ep - 1) && pm_setin(m, at, p, ep - 1)) {
            p = ep;
            continue;
          }
          s = NULL;
          goto out;
        }
        if (isdigit(UC(p[1]))) {
          s = pm_samecap(m, s, UC(p[1]));
          if (s == NULL)
            goto out;
          p += 2;
          continue;
        }
        break;  /* a class like %a */
      default:
        break;
    }
    /* single char class, possibly followed by a repetition suffix; a
    ** plain byte (the common item) ends right after itself */
#ifdef __GLIBC__
    if (*p == '[' && (ps = pm_cachedset(m, p)) != NULL) {
      /* a prepared set: its end and its bits are known */
      ep = m->pat0 + ps->end;
      if (*ep == '*' || *ep == '+') {
        n = pm_psspan(s, m->src_end, ps, m->ctab, 1) - s;
        goto run;
      }
      if (s < m->src_end && pm_psin(ps, m->ctab, UC(*s)))
        goto single;
      goto nosingle;
    }
#endif
    ep = (*p == PAT_ESC || *p == '[') ? pm_classend(m, p) : p + 1;
    if ((*ep == '*' || *ep == '+') && *p != '[') {
      /* the run of the class from s decides both the first byte (the
      ** zero-repetition case) and the greedy tries: one scan instead of
      ** pm_single and then pm_run.  (Not for a set: its run builds a
      ** SetBits, which costs more than pm_single when the run is empty,
      ** the usual case of json's "^[ \n\r\t]*") */
      n = pm_run(m, s, p, ep);
#ifdef __GLIBC__
    run:
#endif
      if (n == 0) {
        if (*ep == '*') {   /* zero repetitions */
          p = ep + 1;
          continue;
        }
        s = NULL;
        goto out;
      }
      s = (*ep == '*') ? pm_greedyn(m, s, n, ep) : pm_greedyn(m, s + 1, n - 1, ep);
      goto out;
    }
    if (!pm_single(m, s, p, ep)) {
#ifdef __GLIBC__
    nosingle:
#endif
      if (*ep == '*' || *ep == '?' || *ep == '-') {  /* zero repetitions ok */
        p = ep + 1;
        continue;
      }
      s = NULL;
      goto out;
    }
#ifdef __GLIBC__
  single:
#endif
    switch (*ep) {
      case '?': {
        const char *r = pm_match(m, s + 1, ep + 1);
        if (r != NULL) {
          s = r;
          goto out;
        }
        p = ep + 1;
        continue;
      }
      case '+':
        s = pm_greedy(m, s + 1, p, ep);
        goto out;
      case '*':
        s = pm_greedy(m, s, p, ep);
        goto out;
      case '-':
        s = pm_lazy(m, s, p, ep);
        goto out;
      default:
        s++;
        p = ep;
        continue;
    }
  }
out:
  m->depth++;
  return s;
}

/*
** Fetch capture 'i' of a match spanning [s, e).  Whole match when there
** are no captures and i == 0.  A position capture pushes its integer and
** returns CAPLEN_POS; otherwise *cap/return give the substring.
*/
static ptrdiff_t pm_getcap(Matcher *m, int i, const char *s, const char *e,
                           const char **cap) {
  ptrdiff_t len;
  if (i >= m->nlevel) {
    if (i != 0)
      luaL_error(m->L, "invalid capture index %%%d", i + 1);
    *cap = s;
    return e - s;
  }
  len = m->cap[i].len;
  *cap = m->cap[i].init;
  if (len == CAPLEN_OPEN)
    luaL_error(m->L, "unfinished capture");
  else if (len == CAPLEN_POS)
    lua_pushinteger(m->L, (lua_Integer)(m->cap[i].init - m->src) + 1);
  return len;
}

static void pm_pushcap(Matcher *m, int i, const char *s, const char *e) {
  const char *cap;
  ptrdiff_t len = pm_getcap(m, i, s, e, &cap);
  if (len != CAPLEN_POS)
    lua_pushlstring(m->L, cap, (size_t)len);
}

/* push all captures (or the whole match when s != NULL and no captures) */
static int pm_pushcaps(Matcher *m, const char *s, const char *e) {
  int n = (m->nlevel == 0 && s != NULL) ? 1 : m->nlevel;
  int i;
  /* a C function starts with LUA_MINSTACK free slots; the callers have
  ** pushed at most 2 values of their own before this */
  if (n > LUA_MINSTACK - 2)
    luaL_checkstack(m->L, n, "too many captures");
  for (i = 0; i < n; i++)
    pm_pushcap(m, i, s, e);
  return n;
}

static void pm_init(Matcher *m, lua_State *L, const char *s, size_t ls,
                    const char *p, size_t lp) {
  m->L = L;
  m->src = s;
  m->src_end = s + ls;
  m->pat_end = p + lp;
  m->depth = PAT_MAXDEPTH;
  m->nlevel = 0;
  m->prep = NULL;
  m->pat0 = p;
}

/* reset per-attempt state */
static void pm_reset(Matcher *m) {
  m->nlevel = 0;
  m->depth = PAT_MAXDEPTH;
}

/* When pattern 'p' starts with a single character class that must match
** once (no '*', '?' or '-' after it), the end of that class, else NULL: a
** match can then only start where that class matches, and the search
** loops skip the other positions without a match attempt each.  Called
** where the first attempt would run: a malformed first class raises the
** same error at the same time.  Captures opening before that class consume
** nothing, so a few leading '(' and '()' are looked through; *cp is set to
** the class's start. */
static const char *pm_firstclass(Matcher *m, const char *p, const char **cp) {
  const char *ep;
  int n;
  for (n = 0; n < 8 && p < m->pat_end && *p == '('; n++)
    p += (p[1] == ')') ? 2 : 1;   /* the pattern is '\0'-terminated */
  *cp = p;
  if (p == m->pat_end || *p == '(' || *p == ')' ||
      (*p == '$' && p + 1 == m->pat_end))
    return NULL;
  if (*p == PAT_ESC && p + 1 < m->pat_end && p[1] == 'f') {
    /* a leading frontier: matches start only where it holds (pm_skipto) */
    if (p + 2 == m->pat_end || p[2] != '[')
      return NULL;   /* pm_match raises the error */
    return pm_classend(m, p + 2);
  }
  if (*p == PAT_ESC && p + 1 < m->pat_end &&
      (p[1] == 'b' || isdigit(UC(p[1]))))
    return NULL;
  ep = pm_classend(m, p);
  if (ep < m->pat_end && (*ep == '*' || *ep == '?' || *ep == '-'))
    return NULL;
  return ep;
}

/* the first position from 's' on where the frontier %f[set] holds (a
** byte in the set after one that is not), else the subject's end, where
** pm_match decides ('\0' is the byte past the end); [p, ep) is the set */
static const char *pm_frontier(Matcher *m, const char *s, const char *p, const char *ep) {
  const char *e = m->src_end;
  if (s >= e)
    return s;
  if (pm_setin(m, s == m->src ? 0 : UC(s[-1]), p, ep - 1))
    s = pm_setspanm(m, s, e, p, ep - 1, 1);   /* the rest of a run of members */
  return (s == e) ? s : pm_setspanm(m, s, e, p, ep - 1, 0);
}

/* the first position from 's' on (up to the subject's end) where the
** class [p, ep) matches; for a leading frontier (p at "%f"), where it
** holds */
static const char *pm_skipto(Matcher *m, const char *s, const char *p, const char *ep) {
  if (*p == PAT_ESC) {
    if (p[1] == 'f') return pm_frontier(m, s, p + 2, ep);
    return pm_classspan(s, m->src_end, UC(p[1]), 0 PM_CTAB(m));
  }
  if (*p == '[') return pm_setspanm(m, s, m->src_end, p, ep - 1, 0);
  while (s < m->src_end && !pm_single(m, s, p, ep)) s++;
  return s;
}

/* A pattern that is one class, alone or followed by '+' (no captures,
** not anchored), has its match where pm_skipto stopped found without
** pm_match: 'fc'/'fe' from pm_firstclass.  Returns 1 for a lone class (a
** one-byte match), 2 for a class with '+' (its run), 0 for others. */
static int pm_quickkind(Matcher *m, const char *p, const char *fc, const char *fe) {
  if (fe == NULL || fc != p || (*p == PAT_ESC && p[1] == 'f'))
    return 0;
  if (fe == m->pat_end)
    return 1;
  return (*fe == '+' && fe + 1 == m->pat_end) ? 2 : 0;
}

/* the end of the match of a pm_quickkind pattern at 's' (where pm_skipto
** stopped: the class matches there unless 's' is the subject's end) */
static const char *pm_quickmatch(Matcher *m, const char *s, const char *fc,
                                 const char *fe, int kind) {
  if (s >= m->src_end)
    return NULL;
  return (kind == 1) ? s + 1 : s + 1 + pm_run(m, s + 1, fc, fe);
}

/* An anchored pattern that is one class ('.', a %-letter class or a
** prepared set), alone or followed by '*' or '+' (json's "^[ \n\r\t]*"):
** its match at 's' is the class's run, found without pm_match.  Returns 0
** for other patterns (pm_match then decides, raising its errors), else 1
** with *res the match's end or NULL (no match). */
static int pm_anchorquick(Matcher *m, const char *s, const char *p,
                          const char **res) {
  const char *ep, *pe = m->pat_end;
  ptrdiff_t n;
  if (p == pe) return 0;
  if (*p == '[') {
    const PatSet *ps = pm_cachedset(m, p);   /* well formed when prepared */
    if (ps == NULL) return 0;
    ep = m->pat0 + ps->end;
#ifdef __GLIBC__
    if ((*ep == '*' || *ep == '+') && ep + 1 == pe) {   /* its bits at hand */
      n = pm_psspan(s, m->src_end, ps, m->ctab, 1) - s;
      *res = (*ep == '+' && n == 0) ? NULL : s + n;
      return 1;
    }
#endif
  }
  else if (*p == PAT_ESC) {
    if (p + 1 >= pe || !isalpha(UC(p[1])) || p[1] == 'b' || p[1] == 'f')
      return 0;
    ep = p + 2;
  }
  else if (*p == '.')
    ep = p + 1;
  else
    return 0;
  if (ep == pe) {
    *res = pm_single(m, s, p, ep) ? s + 1 : NULL;
    return 1;
  }
  if ((*ep != '*' && *ep != '+') || ep + 1 != pe) return 0;
  n = pm_run(m, s, p, ep);
  *res = (*ep == '+' && n == 0) ? NULL : s + n;
  return 1;
}

/* pm_firstclass and pm_quickkind (*quick) of pattern 'p', from the
** preparation when it has them, else computed (raising as before) and
** stored there; only when 'p' starts the prepared string */
static __attribute__((noinline)) const char *pm_firstfill(Matcher *m,
    PatPrep *pp, const char *p, const char **fc, int *quick);

static inline const char *pm_first(Matcher *m, const char *p, const char **fc,
                                   int *quick) {
  PatPrep *pp = (p == m->pat0) ? m->prep : NULL;
  if (pp != NULL && pp->first) {
    *fc = p + pp->fcoff;
    *quick = pp->quick;
    return (pp->feoff < 0) ? NULL : p + pp->feoff;
  }
  return pm_firstfill(m, pp, p, fc, quick);
}

/* pm_first's miss: computed, then stored in 'pp' (if not NULL) */
static __attribute__((noinline)) const char *pm_firstfill(Matcher *m,
    PatPrep *pp, const char *p, const char **fc, int *quick) {
  const char *fe = pm_firstclass(m, p, fc);
  *quick = pm_quickkind(m, p, *fc, fe);
  if (pp != NULL) {
    pp->fcoff = (int)(*fc - p);
    pp->feoff = (fe == NULL) ? -1 : (int)(fe - p);
    pp->quick = *quick;
    pp->first = 1;
  }
  return fe;
}

/* true when pattern has no magic characters (also across embedded zeros) */
static int pm_isplain(const char *p, size_t lp) {
  size_t i;
  for (i = 0; i < lp; i++)
    if (pm_special(p[i]))
      return 0;
  return 1;
}

/* naive substring search (memmem is not standard) */
static const char *sl_memfind(const char *s, size_t ls, const char *p,
                              size_t lp) {
  const char *end;
  if (lp == 0)
    return s;
  if (lp > ls)
    return NULL;
  end = s + (ls - lp);
  for (; s <= end; s++) {
    const char *hit = (const char *)memchr(s, p[0], (size_t)(end - s) + 1);
    if (hit == NULL)
      return NULL;
    if (memcmp(hit + 1, p + 1, lp - 1) == 0)
      return hit;
    s = hit;
  }
  return NULL;
}

static int sl_findaux(lua_State *L, int isfind) {
  size_t ls, lp, init;
  const char *s, *p;
  const TString *pts;
  int plain = 0;
  /* (s, p [, init]) with two strings and an immediate init, the usual
  ** call, read from the stack directly (as sl_sub1): the checks and
  ** conversions of the general path were ~60 instructions a call */
  const Value *base = L->ci->func + 1;
  ptrdiff_t nargs = L->top - base;
  if ((nargs == 2 || (nargs == 3 && v_isimmint(base[2]))) &&
      v_isstring(base[0]) && v_isstring(base[1])) {
    s = getstr(v_str(base[0]));
    ls = v_str(base[0])->len;
    pts = v_str(base[1]);
    p = getstr(pts);
    lp = pts->len;
    init = sl_startpos(nargs == 3 ? v_getimmint(base[2]) : 1, ls) - 1;
  }
  else {
    s = luaL_checklstring(L, 1, &ls);
    p = luaL_checklstring(L, 2, &lp);
    pts = v_str(L->ci->func[2]);   /* a string now: converted in place */
    init = sl_startpos(luaL_optinteger(L, 3, 1), ls) - 1;
    plain = isfind && lua_toboolean(L, 4);
  }
  if (init > ls) {  /* starts after the end: nothing can match */
    luaL_pushfail(L);
    return 1;
  }
  if (isfind && (plain || pm_isplain(p, lp))) {
    const char *hit = sl_memfind(s + init, ls - init, p, lp);
    if (hit != NULL) {
      lua_pushinteger(L, (lua_Integer)(hit - s) + 1);
      lua_pushinteger(L, (lua_Integer)(hit - s + lp));
      return 2;
    }
  }
  else {
    Matcher m;
    const char *s1 = s + init;
    int anchored = (*p == '^');
    if (anchored) {
      p++;
      lp--;
    }
    const char *fe, *fc = p;
    int quick;
    pm_init(&m, L, s, ls, p, lp);
    pm_useprep(&m, L, pts);
    pm_setctab(&m);
    if (anchored && pm_anchorquick(&m, s1, p, &fe)) {
      if (fe == NULL) {
        luaL_pushfail(L);
        return 1;
      }
      if (isfind) {
        lua_pushinteger(L, (lua_Integer)(s1 - s) + 1);
        lua_pushinteger(L, (lua_Integer)(fe - s));
        return 2;
      }
      return pm_pushcaps(&m, s1, fe);
    }
    quick = 0;
    fe = anchored ? NULL : pm_first(&m, p, &fc, &quick);
    do {
      const char *e;
      if (fe != NULL) s1 = pm_skipto(&m, s1, fc, fe);
      pm_reset(&m);
      e = quick ? pm_quickmatch(&m, s1, fc, fe, quick) : pm_match(&m, s1, p);
      if (e != NULL) {
        if (isfind) {
          lua_pushinteger(L, (lua_Integer)(s1 - s) + 1);
          lua_pushinteger(L, (lua_Integer)(e - s));
          return pm_pushcaps(&m, NULL, NULL) + 2;
        }
        return pm_pushcaps(&m, s1, e);
      }
    } while (s1++ < m.src_end && !anchored);
  }
  luaL_pushfail(L);
  return 1;
}

static int sl_find(lua_State *L) { return sl_findaux(L, 1); }
static int sl_match(lua_State *L) { return sl_findaux(L, 0); }

/* ---------------------------------------------------------------------- */
/* gmatch: iterator state lives in a userdata upvalue */

typedef struct GmatchState {
  const char *next;	/* where the next attempt starts */
  const char *pat;
  const char *lastend;	/* end of the previous match (no repeat there) */
  const char *fe;	/* pm_firstclass of 'pat', once 'scanned' */
  const char *fc;	/* the start of that class */
  int scanned;		/* 1: scanned; 2: and the preparation has sets */
  int quick;		/* pm_quickkind of 'pat', once 'scanned' */
  const TString *pts;	/* the pattern string ('pat' is its text) */
  Matcher m;
} GmatchState;

/* the iterator's state: the memory of the full userdata (no user values,
** never moves) that sl_gmatch made upvalue 3 of the running C closure;
** lua_touserdata's index translation and type dispatch were ~20
** instructions of each step */
static inline GmatchState *gmatch_state(lua_State *L) {
  Value v = v_ccl(*L->ci->func)->upvalue[2];
  /* debug.setupvalue can replace it (stock Lua would crash): an error */
  if (l_unlikely(!v_isudata(v) || v_udata(v)->len != sizeof(GmatchState)))
    luaL_error(L, "gmatch iterator: its state was replaced");
  return (GmatchState *)(void *)((char *)v_udata(v) + udatamemoffset(0));
}

static int sl_gmatch_step(lua_State *L) {
  GmatchState *g = gmatch_state(L);
  const char *s, *fe;
  g->m.L = L;  /* the iterator may run in another coroutine */
  /* the cache slot may hold another pattern since the last step: 'prep'
  ** is attached anew at each step, or NULL */
  if (g->scanned != 1) {
    if (g->scanned == 2)
      pm_useprep(&g->m, L, g->pts);
    else if (g->next <= g->m.src_end) {
      pm_useprep(&g->m, L, g->pts);
      g->fe = pm_first(&g->m, g->pat, &g->fc, &g->quick);
      g->scanned = (g->m.prep != NULL && g->m.prep->nsets > 0) ? 2 : 1;
      if (g->scanned == 1)
        g->m.prep = NULL;
    }
  }
  pm_setctab(&g->m);   /* (after pm_useprep, which may run a finalizer) */
  fe = g->fe;
  for (s = g->next; s <= g->m.src_end; s++) {
    const char *e;
    if (fe != NULL) s = pm_skipto(&g->m, s, g->fc, fe);
    pm_reset(&g->m);
    e = g->quick ? pm_quickmatch(&g->m, s, g->fc, fe, g->quick)
                 : pm_match(&g->m, s, g->pat);
    if (e != NULL && e != g->lastend) {
      g->next = g->lastend = e;
      return pm_pushcaps(&g->m, s, e);
    }
  }
  return 0;
}

static int sl_gmatch(lua_State *L) {
  size_t ls, lp;
  const char *s = luaL_checklstring(L, 1, &ls);
  const char *p = luaL_checklstring(L, 2, &lp);
  size_t init = sl_startpos(luaL_optinteger(L, 3, 1), ls) - 1;
  GmatchState *g;
  lua_settop(L, 2);  /* subject and pattern become upvalues (anchored) */
  g = (GmatchState *)lua_newuserdatauv(L, sizeof(GmatchState), 0);
  if (init > ls)
    init = ls + 1;  /* past the end; keeps the pointer arithmetic sane */
  pm_init(&g->m, L, s, ls, p, lp);
  g->next = s + init;
  g->pat = p;
  g->pts = v_str(L->ci->func[2]);   /* a string now: converted in place */
  g->lastend = NULL;
  g->fe = NULL;
  g->scanned = 0;
  g->quick = 0;
  lua_pushcclosure(L, sl_gmatch_step, 3);
  return 1;
}

/* ---------------------------------------------------------------------- */
/* gsub */

/* append replacement string (stack slot 3) with %0-%9 and %% expanded */
static void sl_addrepl(Matcher *m, luaL_Buffer *b, const char *s,
                       const char *e) {
  lua_State *L = m->L;
  size_t l;
  const char *r = lua_tolstring(L, 3, &l);
  const char *pct;
  while ((pct = (const char *)memchr(r, PAT_ESC, l)) != NULL) {
    char c;
    luaL_addlstring(b, r, (size_t)(pct - r));
    c = pct[1];  /* may be the terminating '\0' */
    if (c == PAT_ESC) {
      luaL_addchar(b, c);
    }
    else if (c == '0') {
      luaL_addlstring(b, s, (size_t)(e - s));
    }
    else if (isdigit(UC(c))) {
      const char *cap;
      ptrdiff_t len = pm_getcap(m, c - '1', s, e, &cap);
      if (len == CAPLEN_POS)
        luaL_addvalue(b);  /* the pushed position integer */
      else
        luaL_addlstring(b, cap, (size_t)len);
    }
    else {
      luaL_error(L, "invalid use of '%c' in replacement string", PAT_ESC);
    }
    l -= (size_t)(pct + 2 - r);
    r = pct + 2;
  }
  luaL_addlstring(b, r, l);
}

/* append the replacement of match [s, e); returns whether it changed */
static int sl_addvalue(Matcher *m, luaL_Buffer *b, const char *s,
                       const char *e, int rtype) {
  lua_State *L = m->L;
  if (rtype == LUA_TFUNCTION) {
    int n;
    lua_pushvalue(L, 3);
    n = pm_pushcaps(m, s, e);
    lua_call(L, n, 1);
  }
  else if (rtype == LUA_TTABLE) {
    pm_pushcap(m, 0, s, e);
    lua_gettable(L, 3);
  }
  else {  /* string or number */
    sl_addrepl(m, b, s, e);
    return 1;
  }
  if (!lua_toboolean(L, -1)) {  /* nil/false: keep the original text */
    lua_pop(L, 1);
    luaL_addlstring(b, s, (size_t)(e - s));
    return 0;
  }
  if (!lua_isstring(L, -1))
    return luaL_error(L, "invalid replacement value (a %s)",
                      luaL_typename(L, -1));
  luaL_addvalue(b);
  return 1;
}

static int sl_gsub(lua_State *L) {
  size_t srcl, lp;
  const char *src, *p;
  const TString *pts;
  const char *lastend = NULL, *pend;
  int rtype;
  lua_Integer maxn;
  int anchored;
  /* (s, p, repl) with two strings: read from the stack (as sl_findaux) */
  const Value *base = L->ci->func + 1;
  if (L->top - base == 3 && v_isstring(base[0]) && v_isstring(base[1])) {
    src = getstr(v_str(base[0]));
    srcl = v_str(base[0])->len;
    pts = v_str(base[1]);
    p = getstr(pts);
    lp = pts->len;
    rtype = lua_type(L, 3);
    maxn = (lua_Integer)srcl + 1;
  }
  else {
    src = luaL_checklstring(L, 1, &srcl);
    p = luaL_checklstring(L, 2, &lp);
    pts = v_str(L->ci->func[2]);   /* a string now: converted in place */
    rtype = lua_type(L, 3);
    maxn = luaL_optinteger(L, 4, (lua_Integer)srcl + 1);
  }
  anchored = (*p == '^');
  lua_Integer count = 0;
  int changed = 0;
  const char *fe = NULL, *fc = NULL, *repl = NULL;
  size_t lrepl = 0;
  int quick;
  Matcher m;
  luaL_Buffer b;
  luaL_argexpected(L, rtype == LUA_TNUMBER || rtype == LUA_TSTRING ||
                   rtype == LUA_TFUNCTION || rtype == LUA_TTABLE, 3,
                   "string/function/table");
  if (anchored) {
    p++;
    lp--;
  }
  pm_init(&m, L, src, srcl, p, lp);
  pm_useprep(&m, L, pts);
  luaL_buffinit(L, &b);
  pend = src;
  quick = 0;
  if (count < maxn && !anchored) fe = pm_first(&m, p, &fc, &quick);
  if (rtype == LUA_TSTRING) {   /* a replacement without '%' is copied as is */
    repl = lua_tolstring(L, 3, &lrepl);
    if (memchr(repl, PAT_ESC, lrepl) != NULL)
      repl = NULL;
  }
  /* The subject's text from 'pend' to 'src' (positions where no match
  ** starts) is copied only before a match's replacement and at the end of
  ** a changed result: a subject without matches is never copied, and a
  ** run of unmatched bytes is one copy (the subject, argument 1, stays
  ** anchored and strings never move) */
  while (count < maxn) {
    const char *e;
    pm_setctab(&m);
    pm_keepprep(&m, L, pts);   /* Lua code may have run (see PatPrep) */
    if (fe != NULL) {   /* skip the positions where no match starts */
      src = pm_skipto(&m, src, fc, fe);
      pm_keepprep(&m, L, pts);
    }
    pm_reset(&m);
    e = quick ? pm_quickmatch(&m, src, fc, fe, quick) : pm_match(&m, src, p);
    if (e != NULL && e != lastend) {
      count++;
      luaL_addlstring(&b, pend, (size_t)(src - pend));
      if (repl != NULL) {
        luaL_addlstring(&b, repl, lrepl);
        changed = 1;
      }
      else
        changed = sl_addvalue(&m, &b, src, e, rtype) | changed;
      src = lastend = pend = e;
    }
    else if (src < m.src_end) {
      src++;
    }
    else {
      break;
    }
    if (anchored)
      break;
  }
  if (!changed) {
    lua_pushvalue(L, 1);  /* result is the subject itself */
  }
  else {
    luaL_addlstring(&b, pend, (size_t)(m.src_end - pend));
    luaL_pushresult(&b);
  }
  lua_pushinteger(L, count);
  return 2;
}

/* ======================================================================
** string.format
** ====================================================================== */

/* flags accepted per conversion */
#define FF_FLOAT	"-+ #0"
#define FF_HEX		"-#0"
#define FF_INT		"-+ 0"
#define FF_UNS		"-0"
#define FF_CHAR		"-"

#define FMT_MAXSPEC	32	/* room for one '%...' specification */
#define FMT_MAXITEM	120	/* max output of one non-%f item */
#define FMT_MAXITEMF	(110 + DBL_MAX_10_EXP)	/* max output of %f etc. */

static void sl_addquoted(luaL_Buffer *b, const char *s, size_t len) {
  size_t i;
  luaL_addchar(b, '"');
  for (i = 0; i < len; i++) {
    unsigned char c = UC(s[i]);
    if (c == '"' || c == '\\' || c == '\n') {
      luaL_addchar(b, '\\');
      luaL_addchar(b, (char)c);
    }
    else if (iscntrl(c)) {
      char tmp[8];
      /* full three digits only when a digit follows (else ambiguous) */
      int next = (i + 1 < len) ? UC(s[i + 1]) : 0;
      snprintf(tmp, sizeof(tmp), isdigit(next) ? "\\%03d" : "\\%d", (int)c);
      luaL_addstring(b, tmp);
    }
    else {
      luaL_addchar(b, (char)c);
    }
  }
  luaL_addchar(b, '"');
}

/* float in a form that reads back exactly */
static int sl_quotefloat(char *buff, lua_Number x) {
  int n;
  if (x == (lua_Number)HUGE_VAL)
    return snprintf(buff, FMT_MAXITEM, "1e9999");
  if (x == -(lua_Number)HUGE_VAL)
    return snprintf(buff, FMT_MAXITEM, "-1e9999");
  if (x != x)
    return snprintf(buff, FMT_MAXITEM, "(0/0)");
  n = snprintf(buff, FMT_MAXITEM, "%a", x);
  if (memchr(buff, '.', (size_t)n) == NULL) {  /* locale radix -> '.' */
    char *dp = (char *)memchr(buff, localeconv()->decimal_point[0], (size_t)n);
    if (dp != NULL)
      *dp = '.';
  }
  return n;
}

static void sl_addliteral(lua_State *L, luaL_Buffer *b, int arg) {
  switch (lua_type(L, arg)) {
    case LUA_TSTRING: {
      size_t len;
      const char *s = lua_tolstring(L, arg, &len);
      sl_addquoted(b, s, len);
      break;
    }
    case LUA_TNUMBER: {
      char *buff = luaL_prepbuffsize(b, FMT_MAXITEM);
      int n;
      if (!lua_isinteger(L, arg)) {
        n = sl_quotefloat(buff, lua_tonumber(L, arg));
      }
      else {
        lua_Integer i = lua_tointeger(L, arg);
        /* mininteger has no decimal literal (it would read as a float) */
        n = snprintf(buff, FMT_MAXITEM,
                     i == LUA_MININTEGER ? "0x%llx" : "%lld", (long long)i);
      }
      luaL_addsize(b, (size_t)n);
      break;
    }
    case LUA_TNIL:
    case LUA_TBOOLEAN:
      luaL_tolstring(L, arg, NULL);
      luaL_addvalue(b);
      break;
    default:
      luaL_argerror(L, arg, "value has no literal form");
  }
}

/* skip at most two digits */
static const char *sl_skip2digits(const char *s) {
  if (isdigit(UC(*s))) {
    s++;
    if (isdigit(UC(*s)))
      s++;
  }
  return s;
}

/*
** Validate spec 'form' ("%...c"): only 'flags', a width of up to two digits
** and (if 'withprec') a precision of up to two digits may precede the letter.
*/
static void sl_checkspec(lua_State *L, const char *form, const char *flags,
                         int withprec) {
  const char *p = form + 1;
  while (*p != '\0' && sl_inset(*p, flags))
    p++;
  if (*p != '0') {  /* a width never starts with '0' */
    p = sl_skip2digits(p);
    if (*p == '.' && withprec)
      p = sl_skip2digits(p + 1);
  }
  if (!isalpha(UC(*p)))
    luaL_error(L, "invalid conversion specification: '%s'", form);
}

/*
** Copy the spec starting after '%' into 'form' (with its '%'); returns a
** pointer to the conversion letter in the format string.
*/
static const char *sl_getspec(lua_State *L, const char *f, char *form) {
  size_t len = 0;
  for (;; len++) {   /* the bytes of FF_FLOAT "123456789." */
    switch (f[len]) {
      case '-': case '+': case ' ': case '#': case '.':
      case '0': case '1': case '2': case '3': case '4':
      case '5': case '6': case '7': case '8': case '9':
        continue;
    }
    break;
  }
  len++;
  if (len >= FMT_MAXSPEC - 10)
    luaL_error(L, "invalid format (too long)");
  form[0] = '%';
  memcpy(form + 1, f, len);
  form[len + 1] = '\0';
  return f + len - 1;
}

/* insert a length modifier before the conversion letter */
static void sl_addlenmod(char *form, const char *mod) {
  size_t l = strlen(form);
  size_t lm = strlen(mod);
  char conv = form[l - 1];
  memcpy(form + l - 1, mod, lm);
  form[l - 1 + lm] = conv;
  form[l + lm] = '\0';
}

/* the text [t, t + n) padded to the width of 'form' ("%[-0][width]c",
** checked by sl_checkspec) with spaces, or zeros after a leading '-' when
** the '0' flag is given: what printf does for the integer digits and
** strings ('0' is not a flag for %s) */
static int sl_pad(char *buff, const char *form, const char *t, size_t n) {
  const char *p = form + 1;
  int left = 0, zero = 0, width = 0, pad;
  char *o = buff;
  for (;; p++) {
    if (*p == '-') left = 1;
    else if (*p == '0') zero = 1;
    else break;
  }
  while (isdigit(UC(*p)))
    width = width * 10 + (*p++ - '0');
  pad = (width > (int)n) ? width - (int)n : 0;
  if (left) {
    memcpy(o, t, n);
    memset(o + n, ' ', (size_t)pad);
  }
  else if (zero) {
    size_t sign = (n > 0 && t[0] == '-');
    memcpy(o, t, sign);
    memset(o + sign, '0', (size_t)pad);
    memcpy(o + sign + pad, t + sign, n - sign);
  }
  else {
    memset(o, ' ', (size_t)pad);
    memcpy(o + pad, t, n);
  }
  return (int)n + pad;
}

/* "%[-0][width]<conv>" of an integer, conv one of d i o x X (no
** precision and no '+', ' ' or '#' flags; sl_checkspec passed), as printf
** writes it, without printf; -1 for other forms */
static int sl_plainint(char *buff, const char *form, lua_Integer n) {
  static const char lower[] = "0123456789abcdef", upper[] = "0123456789ABCDEF";
  char tmp[32];
  int k = 32;
  const char *p = form + 1;
  lua_Unsigned u = (lua_Unsigned)n;
  while (*p == '-' || *p == '0' || isdigit(UC(*p)))
    p++;
  if (p[1] != '\0')
    return -1;
  switch (*p) {
    case 'd': case 'i':
      if (n < 0)
        u = 0u - u;
      do { tmp[--k] = (char)('0' + u % 10); u /= 10; } while (u != 0);
      if (n < 0)
        tmp[--k] = '-';
      break;
    case 'x': case 'X': {
      const char *dg = (*p == 'x') ? lower : upper;
      do { tmp[--k] = dg[u & 15]; u >>= 4; } while (u != 0);
      break;
    }
    case 'o':
      do { tmp[--k] = (char)('0' + (u & 7)); u >>= 3; } while (u != 0);
      break;
    default:
      return -1;
  }
  return sl_pad(buff, form, tmp + k, (size_t)(32 - k));
}

/* "%[-][width][.<prec>]<conv>" of a float (no other flags), as printf
** writes it, without printf (vm_fmtfloat, then space padding); -1 for
** other forms and values it does not take */
static int sl_plainfloat(char *buff, const char *form, lua_Number x) {
  int prec = 6, width = 0, left = 0, n, pad;
  const char *p = form + 1;
  if (*p == '-') {   /* a width and '-' pad with spaces ("%8.3f", "%-6.2f") */
    left = 1;
    p++;
  }
  if (*p == '0')   /* the '0' flag pads with zeros (not inf/nan): printf */
    return -1;
  while (isdigit(UC(*p)))   /* (sl_checkspec: at most 2 digits) */
    width = width * 10 + (*p++ - '0');
  if (*p == '.') {
    prec = 0;
    while (isdigit(UC(*++p)))
      prec = prec * 10 + (*p - '0');
  }
  if (p[1] != '\0' || !isalpha(UC(*p)))
    return -1;
  n = vm_fmtfloat(buff, (double)x, prec, *p, localeconv()->decimal_point[0]);
  if (n < 0 || width <= n)
    return n;
  pad = width - n;   /* the buffer has FMT_MAXITEMF bytes: room for both */
  if (left)
    memset(buff + n, ' ', (size_t)pad);
  else {
    memmove(buff + pad, buff, (size_t)n);
    memset(buff, ' ', (size_t)pad);
  }
  return width;
}

static int sl_format(lua_State *L) {
  int top = lua_gettop(L);
  int arg = 1;
  size_t flen;
  const char *f = luaL_checklstring(L, 1, &flen);
  const char *fend = f + flen;
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  while (f < fend) {
    char form[FMT_MAXSPEC];
    int maxitem = FMT_MAXITEM;
    char *buff;
    int nb = 0;
    const char *flags;
    if (*f != '%') {
      luaL_addchar(&b, *f++);
      continue;
    }
    f++;
    if (*f == '%') {
      luaL_addchar(&b, *f++);
      continue;
    }
    buff = luaL_prepbuffsize(&b, (size_t)maxitem);
    if (++arg > top)
      return luaL_argerror(L, arg, "no value");
    f = sl_getspec(L, f, form);
    switch (*f++) {
      case 'c':
        sl_checkspec(L, form, FF_CHAR, 0);
        nb = snprintf(buff, (size_t)maxitem, form,
                      (int)luaL_checkinteger(L, arg));
        break;
      case 'd': case 'i':
        flags = FF_INT;
        goto intconv;
      case 'u':
        flags = FF_UNS;
        goto intconv;
      case 'o': case 'x': case 'X':
        flags = FF_HEX;
      intconv: {
        lua_Integer n = luaL_checkinteger(L, arg);
        if (form[2] == '\0' && (form[1] == 'd' || form[1] == 'i')) {
          nb = vm_int2buff(n, buff);   /* a bare %d: no flags, width, precision */
          break;
        }
        sl_checkspec(L, form, flags, 1);
        nb = sl_plainint(buff, form, n);
        if (nb < 0) {
          sl_addlenmod(form, "ll");
          nb = snprintf(buff, (size_t)maxitem, form, (long long)n);
        }
        break;
      }
      case 'a': case 'A':
        sl_checkspec(L, form, FF_FLOAT, 1);
        nb = snprintf(buff, (size_t)maxitem, form,
                      (double)luaL_checknumber(L, arg));
        break;
      case 'e': case 'E': case 'f': case 'g': case 'G': {  /* no %F in 5.4 */
        lua_Number x = luaL_checknumber(L, arg);
        sl_checkspec(L, form, FF_FLOAT, 1);
        maxitem = FMT_MAXITEMF;
        buff = luaL_prepbuffsize(&b, (size_t)maxitem);
        nb = sl_plainfloat(buff, form, x);
        if (nb < 0)
          nb = snprintf(buff, (size_t)maxitem, form, (double)x);
        break;
      }
      case 'p': {
        /* tables and functions move (a young one at each of its first two
        ** minors): print the stable identity that tostring shows
        ** (stdlib/auxlib.c), not the current address */
        const void *ptr = lua_topointer(L, arg);
        unsigned int id;
        int tt = api_objid(L, arg, &id);
        if (tt != 0)
          ptr = (const void *)(uintptr_t)(((uint64_t)(0x5500u + (unsigned)tt * 0x11u) << 32) | id);
        sl_checkspec(L, form, FF_CHAR, 0);
        if (ptr == NULL) {  /* print "(null)" portably */
          form[strlen(form) - 1] = 's';
          nb = snprintf(buff, (size_t)maxitem, form, "(null)");
        }
        else {
          nb = snprintf(buff, (size_t)maxitem, form, ptr);
        }
        break;
      }
      case 'q':
        if (form[2] != '\0')
          return luaL_error(L, "specifier '%%q' cannot have modifiers");
        sl_addliteral(L, &b, arg);
        break;
      case 's': {
        size_t l;
        const char *s;
        Value v = L->ci->func[arg];
        if (form[2] == '\0' && v_isnumber(v) && G(L)->mt[LUA_TNUMBER] == NULL) {
          /* plain %s of a number without metatable (no __tostring or
          ** __name to ask): luaL_tolstring's text written in place,
          ** without the intermediate string (maxitem > MAXNUMBER2STR) */
          nb = vm_num2buff(v, buff);
          break;
        }
        s = luaL_tolstring(L, arg, &l);
        if (form[2] == '\0') {  /* plain %s: whole string, zeros included */
          luaL_addvalue(&b);
        }
        else {
          luaL_argcheck(L, l == strlen(s), arg, "string contains zeros");
          sl_checkspec(L, form, FF_CHAR, 1);
          if (strchr(form, '.') == NULL && l >= 100) {
            luaL_addvalue(&b);  /* too long to pad: a width is at most 99 */
          }
          else if (strchr(form, '.') == NULL) {   /* a width, maybe '-' */
            nb = sl_pad(buff, form, s, l);
            lua_pop(L, 1);
          }
          else {
            nb = snprintf(buff, (size_t)maxitem, form, s);
            lua_pop(L, 1);
          }
        }
        break;
      }
      default:
        return luaL_error(L, "invalid conversion '%s' to 'format'", form);
    }
    if (nb < 0)
      nb = 0;
    else if (nb >= maxitem)
      nb = maxitem - 1;
    luaL_addsize(&b, (size_t)nb);
  }
  luaL_pushresult(&b);
  return 1;
}

/* ======================================================================
** pack / packsize / unpack
** ====================================================================== */

#define PK_MAXINTSIZE	16
#define PK_NB		CHAR_BIT
#define PK_MC		((1 << PK_NB) - 1)
#define PK_SZINT	((int)sizeof(lua_Integer))
#define PK_PADBYTE	0x00

static const union {
  int dummy;
  char little;
} pk_native = {1};

typedef struct PackHeader {
  lua_State *L;
  int little;
  int maxalign;
} PackHeader;

typedef enum PackOpt {
  PO_INT,	/* signed integer */
  PO_UINT,	/* unsigned integer */
  PO_FLOAT,	/* C float */
  PO_NUMBER,	/* lua_Number */
  PO_DOUBLE,	/* C double */
  PO_CHAR,	/* fixed-size string */
  PO_STRING,	/* length-prefixed string */
  PO_ZSTR,	/* zero-terminated string */
  PO_PAD,	/* one padding byte */
  PO_ALIGN,	/* alignment padding ('X') */
  PO_NOP	/* no data (endianness, spaces, '!') */
} PackOpt;

static int pk_isdigit(int c) { return '0' <= c && c <= '9'; }

static int pk_readnum(const char **fmt, int def) {
  int a = 0;
  if (!pk_isdigit(**fmt))
    return def;
  do {
    a = a * 10 + (*((*fmt)++) - '0');
  } while (pk_isdigit(**fmt) && a <= ((int)SL_MAXSIZE - 9) / 10);
  return a;
}

static int pk_readsize(PackHeader *h, const char **fmt, int def) {
  int sz = pk_readnum(fmt, def);
  if (sz > PK_MAXINTSIZE || sz <= 0)
    return luaL_error(h->L, "integral size (%d) out of limits [1,%d]", sz,
                      PK_MAXINTSIZE);
  return sz;
}

static PackOpt pk_option(PackHeader *h, const char **fmt, int *size) {
  /* natural alignment of the most demanding type */
  struct alignprobe { char c; union { LUAI_MAXALIGN; } u; };
  int opt = *((*fmt)++);
  *size = 0;
  switch (opt) {
    case 'b': *size = (int)sizeof(char); return PO_INT;
    case 'B': *size = (int)sizeof(char); return PO_UINT;
    case 'h': *size = (int)sizeof(short); return PO_INT;
    case 'H': *size = (int)sizeof(short); return PO_UINT;
    case 'l': *size = (int)sizeof(long); return PO_INT;
    case 'L': *size = (int)sizeof(long); return PO_UINT;
    case 'j': *size = (int)sizeof(lua_Integer); return PO_INT;
    case 'J': *size = (int)sizeof(lua_Integer); return PO_UINT;
    case 'T': *size = (int)sizeof(size_t); return PO_UINT;
    case 'f': *size = (int)sizeof(float); return PO_FLOAT;
    case 'n': *size = (int)sizeof(lua_Number); return PO_NUMBER;
    case 'd': *size = (int)sizeof(double); return PO_DOUBLE;
    case 'i': *size = pk_readsize(h, fmt, (int)sizeof(int)); return PO_INT;
    case 'I': *size = pk_readsize(h, fmt, (int)sizeof(int)); return PO_UINT;
    case 's': *size = pk_readsize(h, fmt, (int)sizeof(size_t));
      return PO_STRING;
    case 'c':
      *size = pk_readnum(fmt, -1);
      if (*size == -1)
        luaL_error(h->L, "missing size for format option 'c'");
      return PO_CHAR;
    case 'z': return PO_ZSTR;
    case 'x': *size = 1; return PO_PAD;
    case 'X': return PO_ALIGN;
    case ' ': break;
    case '<': h->little = 1; break;
    case '>': h->little = 0; break;
    case '=': h->little = pk_native.little; break;
    case '!':
      h->maxalign = pk_readsize(h, fmt,
                                (int)offsetof(struct alignprobe, u));
      break;
    default:
      luaL_error(h->L, "invalid format option '%c'", opt);
  }
  return PO_NOP;
}

/*
** Read the next option; also computes the padding needed before it
** ('*pad') given the current offset 'total'.
*/
static PackOpt pk_next(PackHeader *h, size_t total, const char **fmt,
                       int *size, int *pad) {
  PackOpt opt = pk_option(h, fmt, size);
  int align = *size;
  if (opt == PO_ALIGN) {  /* alignment comes from the following option */
    if (**fmt == '\0' || pk_option(h, fmt, &align) == PO_CHAR || align == 0)
      luaL_argerror(h->L, 1, "invalid next option for option 'X'");
  }
  if (align <= 1 || opt == PO_CHAR) {
    *pad = 0;
  }
  else {
    if (align > h->maxalign)
      align = h->maxalign;
    if ((align & (align - 1)) != 0)
      luaL_argerror(h->L, 1, "format asks for alignment not power of 2");
    *pad = (align - (int)(total & (size_t)(align - 1))) & (align - 1);
  }
  return opt;
}

static void pk_init(lua_State *L, PackHeader *h) {
  h->L = L;
  h->little = pk_native.little;
  h->maxalign = 1;
}

/* append integer 'v' as 'size' bytes; 'neg' asks for sign extension */
static void pk_putint(luaL_Buffer *b, lua_Unsigned v, int little, int size,
                      int neg) {
  char *out = luaL_prepbuffsize(b, (size_t)size);
  int i;
  for (i = 0; i < size; i++) {
    unsigned char byte;
    if (i < PK_SZINT)
      byte = (unsigned char)((v >> (i * PK_NB)) & PK_MC);
    else
      byte = neg ? (unsigned char)PK_MC : 0;
    out[little ? i : size - 1 - i] = (char)byte;
  }
  luaL_addsize(b, (size_t)size);
}

/* copy 'size' bytes, reversing them when 'little' is not native order */
static void pk_copy(char *dst, const char *src, int size, int little) {
  if (little == pk_native.little) {
    memcpy(dst, src, (size_t)size);
  }
  else {
    int i;
    for (i = 0; i < size; i++)
      dst[i] = src[size - 1 - i];
  }
}

static int sl_pack(lua_State *L) {
  luaL_Buffer b;
  PackHeader h;
  const char *fmt = luaL_checkstring(L, 1);
  int arg = 1;
  size_t total = 0;
  pk_init(L, &h);
  lua_pushnil(L);  /* separates the arguments from the buffer */
  luaL_buffinit(L, &b);
  while (*fmt != '\0') {
    int size, pad;
    PackOpt opt = pk_next(&h, total, &fmt, &size, &pad);
    total += (size_t)pad + (size_t)size;
    while (pad-- > 0)
      luaL_addchar(&b, PK_PADBYTE);
    arg++;
    switch (opt) {
      case PO_INT: {
        lua_Integer n = luaL_checkinteger(L, arg);
        if (size < PK_SZINT) {
          lua_Integer lim = (lua_Integer)1 << ((size * PK_NB) - 1);
          luaL_argcheck(L, -lim <= n && n < lim, arg, "integer overflow");
        }
        pk_putint(&b, (lua_Unsigned)n, h.little, size, n < 0);
        break;
      }
      case PO_UINT: {
        lua_Integer n = luaL_checkinteger(L, arg);
        if (size < PK_SZINT)
          luaL_argcheck(L,
                        (lua_Unsigned)n < ((lua_Unsigned)1 << (size * PK_NB)),
                        arg, "unsigned overflow");
        pk_putint(&b, (lua_Unsigned)n, h.little, size, 0);
        break;
      }
      case PO_FLOAT: {
        float x = (float)luaL_checknumber(L, arg);
        char *out = luaL_prepbuffsize(&b, sizeof(x));
        pk_copy(out, (const char *)&x, (int)sizeof(x), h.little);
        luaL_addsize(&b, (size_t)size);
        break;
      }
      case PO_NUMBER: {
        lua_Number x = luaL_checknumber(L, arg);
        char *out = luaL_prepbuffsize(&b, sizeof(x));
        pk_copy(out, (const char *)&x, (int)sizeof(x), h.little);
        luaL_addsize(&b, (size_t)size);
        break;
      }
      case PO_DOUBLE: {
        double x = (double)luaL_checknumber(L, arg);
        char *out = luaL_prepbuffsize(&b, sizeof(x));
        pk_copy(out, (const char *)&x, (int)sizeof(x), h.little);
        luaL_addsize(&b, (size_t)size);
        break;
      }
      case PO_CHAR: {
        size_t len;
        const char *s = luaL_checklstring(L, arg, &len);
        luaL_argcheck(L, len <= (size_t)size, arg,
                      "string longer than given size");
        luaL_addlstring(&b, s, len);
        for (; len < (size_t)size; len++)
          luaL_addchar(&b, PK_PADBYTE);
        break;
      }
      case PO_STRING: {
        size_t len;
        const char *s = luaL_checklstring(L, arg, &len);
        luaL_argcheck(L, size >= (int)sizeof(size_t) ||
                      len < ((size_t)1 << (size * PK_NB)),
                      arg, "string length does not fit in given size");
        pk_putint(&b, (lua_Unsigned)len, h.little, size, 0);
        luaL_addlstring(&b, s, len);
        total += len;
        break;
      }
      case PO_ZSTR: {
        size_t len;
        const char *s = luaL_checklstring(L, arg, &len);
        luaL_argcheck(L, strlen(s) == len, arg, "string contains zeros");
        luaL_addlstring(&b, s, len);
        luaL_addchar(&b, '\0');
        total += len + 1;
        break;
      }
      case PO_PAD:
        luaL_addchar(&b, PK_PADBYTE);
        arg--;
        break;
      case PO_ALIGN:
      case PO_NOP:
        arg--;  /* consumed no argument */
        break;
    }
  }
  luaL_pushresult(&b);
  return 1;
}

static int sl_packsize(lua_State *L) {
  PackHeader h;
  const char *fmt = luaL_checkstring(L, 1);
  size_t total = 0;
  pk_init(L, &h);
  while (*fmt != '\0') {
    int size, pad;
    PackOpt opt = pk_next(&h, total, &fmt, &size, &pad);
    luaL_argcheck(L, opt != PO_STRING && opt != PO_ZSTR, 1,
                  "variable-length format");
    size += pad;
    luaL_argcheck(L, total <= SL_MAXSIZE - (size_t)size, 1,
                  "format result too large");
    total += (size_t)size;
  }
  lua_pushinteger(L, (lua_Integer)total);
  return 1;
}

/* read a 'size'-byte integer; bytes beyond lua_Integer must be extension */
static lua_Integer pk_getint(lua_State *L, const char *p, int little,
                             int size, int issigned) {
  lua_Unsigned v = 0;
  int used = (size <= PK_SZINT) ? size : PK_SZINT;
  int i;
  for (i = used - 1; i >= 0; i--) {
    v <<= PK_NB;
    v |= (lua_Unsigned)UC(p[little ? i : size - 1 - i]);
  }
  if (size < PK_SZINT) {
    if (issigned) {
      lua_Unsigned sign = (lua_Unsigned)1 << (size * PK_NB - 1);
      v = (v ^ sign) - sign;  /* sign-extend */
    }
  }
  else if (size > PK_SZINT) {
    int ext = (!issigned || (lua_Integer)v >= 0) ? 0 : PK_MC;
    for (i = used; i < size; i++) {
      if (UC(p[little ? i : size - 1 - i]) != ext)
        luaL_error(L, "%d-byte integer does not fit into Lua Integer", size);
    }
  }
  return (lua_Integer)v;
}

static int sl_unpack(lua_State *L) {
  PackHeader h;
  const char *fmt = luaL_checkstring(L, 1);
  size_t ld;
  const char *data = luaL_checklstring(L, 2, &ld);
  size_t pos = sl_startpos(luaL_optinteger(L, 3, 1), ld) - 1;
  int n = 0;
  luaL_argcheck(L, pos <= ld, 3, "initial position out of string");
  pk_init(L, &h);
  while (*fmt != '\0') {
    int size, pad;
    PackOpt opt = pk_next(&h, pos, &fmt, &size, &pad);
    luaL_argcheck(L, (size_t)pad + (size_t)size <= ld - pos, 2,
                  "data string too short");
    pos += (size_t)pad;
    luaL_checkstack(L, 2, "too many results");
    n++;
    switch (opt) {
      case PO_INT:
      case PO_UINT:
        lua_pushinteger(L, pk_getint(L, data + pos, h.little, size,
                                     opt == PO_INT));
        break;
      case PO_FLOAT: {
        float x;
        pk_copy((char *)&x, data + pos, (int)sizeof(x), h.little);
        lua_pushnumber(L, (lua_Number)x);
        break;
      }
      case PO_NUMBER: {
        lua_Number x;
        pk_copy((char *)&x, data + pos, (int)sizeof(x), h.little);
        lua_pushnumber(L, x);
        break;
      }
      case PO_DOUBLE: {
        double x;
        pk_copy((char *)&x, data + pos, (int)sizeof(x), h.little);
        lua_pushnumber(L, (lua_Number)x);
        break;
      }
      case PO_CHAR:
        lua_pushlstring(L, data + pos, (size_t)size);
        break;
      case PO_STRING: {
        size_t len = (size_t)pk_getint(L, data + pos, h.little, size, 0);
        luaL_argcheck(L, len <= ld - pos - (size_t)size, 2,
                      "data string too short");
        lua_pushlstring(L, data + pos + size, len);
        pos += len;
        break;
      }
      case PO_ZSTR: {
        size_t len = strlen(data + pos);
        luaL_argcheck(L, pos + len < ld, 2,
                      "unfinished string for format 'z'");
        lua_pushlstring(L, data + pos, len);
        pos += len + 1;
        break;
      }
      case PO_ALIGN:
      case PO_PAD:
      case PO_NOP:
        n--;  /* produced no value */
        break;
    }
    pos += (size_t)size;
  }
  lua_pushinteger(L, (lua_Integer)pos + 1);  /* next position */
  return n + 1;
}

/* ======================================================================
** Registration
** ====================================================================== */

static const luaL_Reg sl_funcs[] = {
  {"byte", sl_byte},
  {"char", sl_char},
  {"dump", sl_dump},
  {"find", sl_find},
  {"format", sl_format},
  {"gmatch", sl_gmatch},
  {"gsub", sl_gsub},
  {"len", sl_len},
  {"lower", sl_lower},
  {"match", sl_match},
  {"rep", sl_rep},
  {"reverse", sl_reverse},
  {"sub", sl_sub},
  {"upper", sl_upper},
  {"pack", sl_pack},
  {"packsize", sl_packsize},
  {"unpack", sl_unpack},
  {NULL, NULL}
};

static const luaL_Reg sl_meta[] = {
  {"__add", sl_mm_add},
  {"__sub", sl_mm_sub},
  {"__mul", sl_mm_mul},
  {"__mod", sl_mm_mod},
  {"__pow", sl_mm_pow},
  {"__div", sl_mm_div},
  {"__idiv", sl_mm_idiv},
  {"__unm", sl_mm_unm},
  {NULL, NULL}
};

/* expects the library table on top; installs the shared string metatable */
static void sl_setmeta(lua_State *L) {
  luaL_newlibtable(L, sl_meta);
  luaL_setfuncs(L, sl_meta, 0);
  lua_pushvalue(L, -2);
  lua_setfield(L, -2, "__index");  /* meta.__index = string library */
  lua_pushliteral(L, "");  /* any string will do */
  lua_pushvalue(L, -2);
  lua_setmetatable(L, -2);
  lua_pop(L, 2);  /* dummy string and metatable */
}

LUAMOD_API int luaopen_string(lua_State *L) {
  luaL_newlib(L, sl_funcs);
  sl_setmeta(L);
  return 1;
}
