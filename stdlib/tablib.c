/*
** tablib.c -- the table library.  Public C API only (and api_tabmove, a
** raw fast path for insert/remove, below, and concat_raw, which reads
** tables without metatables directly).  Every element access
** goes through lua_geti/lua_seti and lengths through luaL_len, so __index,
** __newindex and __len are honoured as in Lua 5.4.
*/
#include <limits.h>
#include <stddef.h>
#include <time.h>
#include <string.h>

#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"
#include "state.h"
#include "gc.h"
#include "string.h"
#include "table.h"
#include "vm.h"

/* vm/api.c (hidden, declared in vm/stateint.h; the one internal call of
** this library): raw move of t[src..src+n-1] to t[dst..] inside the array
** part of a table without a metatable; 0 (nothing done) when that does not
** apply.  Declared here so the library keeps to the public headers. */
LUAI_FUNC int api_tabmove(lua_State *L, int idx, lua_Integer dst,
                          lua_Integer src, lua_Integer n);

/* what a "table-like" argument must support */
#define NEED_READ   1
#define NEED_WRITE  2
#define NEED_LEN    4
#define NEED_RW     (NEED_READ | NEED_WRITE)

/* does the metatable on top of the stack have field 'name'?  pushes it */
static int meta_has(lua_State *L, const char *name) {
  lua_pushstring(L, name);
  return lua_rawget(L, -2) != LUA_TNIL;   /* metatable is just below */
}

/* A non-table argument is accepted when its metatable provides every
** metamethod the operation needs; otherwise the usual type error. */
static void check_tablike(lua_State *L, int arg, int need) {
  if (lua_type(L, arg) == LUA_TTABLE)
    return;
  int pushed = 1;
  if (lua_getmetatable(L, arg)) {
    int ok = 1;
    if (ok && (need & NEED_READ)) {
      ok = meta_has(L, "__index"); pushed++;
      if (ok) { lua_pop(L, 1); pushed--; }
    }
    if (ok && (need & NEED_WRITE)) {
      ok = meta_has(L, "__newindex"); pushed++;
      if (ok) { lua_pop(L, 1); pushed--; }
    }
    if (ok && (need & NEED_LEN)) {
      ok = meta_has(L, "__len"); pushed++;
      if (ok) { lua_pop(L, 1); pushed--; }
    }
    lua_pop(L, pushed);
    if (ok)
      return;
  }
  luaL_checktype(L, arg, LUA_TTABLE);   /* raises the error */
}

static lua_Integer length_of(lua_State *L, int arg, int need) {
  check_tablike(L, arg, need | NEED_LEN);
  /* a table without a metatable has no __len: its raw length, without
  ** luaL_len's push, conversion and pop */
  if (lua_type(L, arg) == LUA_TTABLE) {
    if (!lua_getmetatable(L, arg))
      return (lua_Integer)lua_rawlen(L, arg);
    lua_pop(L, 1);   /* the metatable */
  }
  return luaL_len(L, arg);
}

/* ------------------------------------------------------- insert/remove */

/* vm/api.c (hidden, declared in vm/stateint.h): the append and the pop
** of a table without metatable, read from the stack; -1 otherwise */
LUAI_FUNC int api_tabpush(lua_State *L);
LUAI_FUNC int api_tabpop(lua_State *L);

/* the general paths out of line: the common cases then save no
** callee-saved register */
static __attribute__((noinline)) int tab_insertn(lua_State *L) {
  lua_Integer size = length_of(L, 1, NEED_RW);
  lua_Integer last = (lua_Integer)((lua_Unsigned)size + 1u);  /* first empty */
  lua_Integer pos;
  switch (lua_gettop(L)) {
    case 2:
      pos = last;   /* append */
      break;
    case 3: {
      pos = luaL_checkinteger(L, 2);
      /* valid positions are 1 .. last (unsigned trick catches pos <= 0) */
      luaL_argcheck(L, (lua_Unsigned)pos - 1u < (lua_Unsigned)last, 2,
                    "position out of bounds");
      /* shift up: t[pos..last-1] -> t[pos+1..last] (raw block move when
      ** t has no metatable and 'last' is in the array part) */
      if (last > pos && api_tabmove(L, 1, pos + 1, pos, last - pos)) break;
      for (lua_Integer i = last; i > pos; i--) {
        lua_geti(L, 1, i - 1);
        lua_seti(L, 1, i);
      }
      break;
    }
    default:
      return luaL_error(L, "wrong number of arguments to 'insert'");
  }
  lua_seti(L, 1, pos);   /* the value is on top */
  return 0;
}

static int tab_insert(lua_State *L) {
  int n = api_tabpush(L);
  return n >= 0 ? n : tab_insertn(L);
}

static __attribute__((noinline)) int tab_removen(lua_State *L) {
  lua_Integer size = length_of(L, 1, NEED_RW);
  lua_Integer pos = luaL_optinteger(L, 2, size);
  if (pos != size)   /* removing at 'size' (even 0) is always allowed */
    luaL_argcheck(L, (lua_Unsigned)pos - 1u <= (lua_Unsigned)size, 1,
                  "position out of bounds");
  lua_geti(L, 1, pos);   /* the result */
  /* shift down t[pos+1..size] -> t[pos..size-1]: as a block when possible */
  if (pos < size && api_tabmove(L, 1, pos, pos + 1, size - pos)) pos = size;
  for (; pos < size; pos++) {   /* shift down */
    lua_geti(L, 1, pos + 1);
    lua_seti(L, 1, pos);
  }
  lua_pushnil(L);
  lua_seti(L, 1, pos);
  return 1;
}

static int tab_remove(lua_State *L) {
  int n = api_tabpop(L);
  return n >= 0 ? n : tab_removen(L);
}

/* table.move(a1, f, e, t [, a2]) */
static int tab_move(lua_State *L) {
  lua_Integer f = luaL_checkinteger(L, 2);
  lua_Integer e = luaL_checkinteger(L, 3);
  lua_Integer t = luaL_checkinteger(L, 4);
  int dst = !lua_isnoneornil(L, 5) ? 5 : 1;
  check_tablike(L, 1, NEED_READ);
  check_tablike(L, dst, NEED_WRITE);
  if (e >= f) {
    luaL_argcheck(L, f > 0 || e < LUA_MAXINTEGER + f, 3,
                  "too many elements to move");
    lua_Integer n = e - f + 1;   /* cannot overflow after the check */
    luaL_argcheck(L, t <= LUA_MAXINTEGER - n + 1, 4,
                  "destination wrap around");
    int overlap_up = !(t > e || t <= f ||
                       (dst != 1 && !lua_compare(L, 1, dst, LUA_OPEQ)));
    if (!overlap_up) {
      for (lua_Integer i = 0; i < n; i++) {
        lua_geti(L, 1, f + i);
        lua_seti(L, dst, t + i);
      }
    }
    else {   /* destination overlaps above the source: copy backwards */
      for (lua_Integer i = n - 1; i >= 0; i--) {
        lua_geti(L, 1, f + i);
        lua_seti(L, dst, t + i);
      }
    }
  }
  lua_pushvalue(L, dst);
  return 1;
}

/* ---------------------------------------------------------------- concat */

static void concat_piece(lua_State *L, luaL_Buffer *b, lua_Integer i) {
  if (lua_geti(L, 1, i) != LUA_TSTRING && !lua_isstring(L, -1))
    luaL_error(L, "invalid value (%s) at index %I in table for 'concat'",
               luaL_typename(L, -1), (LUAI_UACINT)i);
  luaL_addvalue(b);
}

/* The raw case of table.concat: a table without a metatable (lua_geti and
** luaL_len then see what raw reads see), a string separator (or none/nil)
** and immediate integer bounds (or none/nil).  The pieces are read from
** the table in place and the result is built once: on the C stack when it
** is short, else in one string object filled in place (str_newbuf).
** Returns 0, having changed nothing, when the case does not apply or a
** piece is neither a string nor a number: the general loop then runs and
** raises its error.  Numbers are written as tostring writes them (what
** lua_tolstring on the piece would give), without making strings of them. */
#define CONCAT_SHORT 256

/* the bytes of piece v (a number's text goes to nb); NULL if v is neither */
static inline const char *concat_text(Value v, char *nb, size_t *len) {
  if (l_likely(v_isstring(v))) {
    *len = v_str(v)->len;
    return getstr(v_str(v));
  }
  if (!v_isnumber(v)) return NULL;
  *len = (size_t)vm_num2buff(v, nb);
  return nb;
}

/* t[k], raw; t may have moved since the last allocation: callers re-read */
static inline Value concat_get(Table *h, lua_Integer k) {
  if ((lua_Unsigned)k - 1u < h->asize) return h->array[k - 1];
  return *tab_getint(h, k);
}

/* the long case: lengths first, then one string object filled in place */
static int concat_long(lua_State *L, lua_Integer i, lua_Integer last,
                       const char *sep, size_t seplen) {
  Table *h = v_tab(L->ci->func[1]);
  char nb[MAXNUMBER2STR];
  size_t total = 0, len;
  TString *ts;
  char *out;
  for (lua_Integer k = i; ; k++) {
    if (concat_text(concat_get(h, k), nb, &len) == NULL) return 0;
    total += len;
    if (k == last) break;
    total += seplen;
    if (total > (size_t)-1 / 4) return 0;  /* the general loop reports it */
  }
  ts = str_newbuf(L, total);              /* MAY ALLOCATE: tables move */
  *L->top++ = v_ref(ts);                  /* anchored (not a Lua string yet) */
  h = v_tab(L->ci->func[1]);
  out = getstr(ts);
  for (lua_Integer k = i; ; k++) {
    const char *s = concat_text(concat_get(h, k), nb, &len);
    str_copyshort(out, s, len);   /* (short pieces without a memcpy call) */
    out += len;
    if (k == last) break;
    str_copyshort(out, sep, seplen);
    out += seplen;
  }
  L->top[-1] = v_ref(str_intern(L, ts));
  gc_check(L);
  return 1;
}

static int concat_raw(lua_State *L) {
  Value *base = L->ci->func + 1;
  ptrdiff_t nargs = L->top - base;
  const char *sep = "";
  size_t seplen = 0, n = 0, len;
  lua_Integer i = 1, last;
  char buf[CONCAT_SHORT], nb[MAXNUMBER2STR];
  Table *h;
  if (nargs < 1 || !v_istable(base[0])) return 0;
  h = v_tab(base[0]);
  if (h->metatable != NULL) return 0;
  if (nargs >= 2 && !v_isnil(base[1])) {
    if (!v_isstring(base[1])) return 0;
    sep = getstr(v_str(base[1]));
    seplen = v_str(base[1])->len;
  }
  if (nargs >= 3 && !v_isnil(base[2])) {
    if (!v_isimmint(base[2])) return 0;
    i = v_getimmint(base[2]);
  }
  if (nargs >= 4 && !v_isnil(base[3])) {
    if (!v_isimmint(base[3])) return 0;
    last = v_getimmint(base[3]);
  }
  else
    last = (lua_Integer)tab_len(h);
  if (i > last) {
    lua_pushliteral(L, "");
    return 1;
  }
  if (i == last) {   /* one piece: a string is its own result */
    Value v = concat_get(h, i);
    if (v_isstring(v)) {
      *L->top++ = v;
      return 1;
    }
  }
  for (lua_Integer k = i; ; k++) {
    const char *s = concat_text(concat_get(h, k), nb, &len);
    if (s == NULL) return 0;
    if (len + seplen > CONCAT_SHORT - n)
      return concat_long(L, i, last, sep, seplen);
    str_copyshort(buf + n, s, len);
    n += len;
    if (k == last) break;
    str_copyshort(buf + n, sep, seplen);
    n += seplen;
  }
  lua_pushlstring(L, buf, n);
  return 1;
}

static int tab_concat(lua_State *L) {
  if (concat_raw(L)) return 1;
  lua_Integer len = length_of(L, 1, NEED_READ);
  size_t seplen;
  const char *sep = luaL_optlstring(L, 2, "", &seplen);
  lua_Integer i = luaL_optinteger(L, 3, 1);
  lua_Integer last = luaL_optinteger(L, 4, len);
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  for (; i < last; i++) {
    concat_piece(L, &b, i);
    luaL_addlstring(&b, sep, seplen);
  }
  if (i == last)   /* also false when the range was empty */
    concat_piece(L, &b, i);
  luaL_pushresult(&b);
  return 1;
}

/* ---------------------------------------------------------- pack/unpack */

LUAI_FUNC void api_tabpack(lua_State *L);
static int tab_pack(lua_State *L) {
  api_tabpack(L);   /* (first to last: stores in order keep the length hint tight) */
  return 1;
}

LUAI_FUNC int api_tabunpack(lua_State *L);

/* the general path, out of line (as tab_insertn) */
static __attribute__((noinline)) int tab_unpackn(lua_State *L) {
  lua_Integer i = luaL_optinteger(L, 2, 1);
  lua_Integer e = luaL_opt(L, luaL_checkinteger, 3, luaL_len(L, 1));
  if (i > e)
    return 0;
  lua_Unsigned count = (lua_Unsigned)e - (lua_Unsigned)i;   /* minus one */
  if (count >= (lua_Unsigned)INT_MAX || !lua_checkstack(L, (int)(count + 1)))
    return luaL_error(L, "too many results to unpack");
  for (; i < e; i++)
    lua_geti(L, 1, i);
  lua_geti(L, 1, e);   /* separate: 'e' may be maxinteger */
  return (int)(count + 1);
}

static int tab_unpack(lua_State *L) {
  int n = api_tabunpack(L);
  return n >= 0 ? n : tab_unpackn(L);
}

/* ------------------------------------------------------------------ sort
** Quicksort over positions [lo, hi] of the table at index 1, comparator at
** index 2 (nil = '<').  Median-of-three pivot parked at hi-1, Hoare-style
** partition; a scan that runs past its sentinel means the comparator is
** not a strict weak order.  The smaller side is sorted by recursion and
** the larger by iteration, so recursion depth is O(log n); when a split is
** badly unbalanced the next pivots are taken at pseudo-random offsets. */

typedef unsigned int Pos;

/* is the value at stack index a (relative) less than the one at b? */
static int sort_less(lua_State *L, int a, int b) {
  if (lua_isnil(L, 2))
    return lua_compare(L, a, b, LUA_OPLT);
  lua_pushvalue(L, 2);
  lua_pushvalue(L, a - 1);   /* indices shift by the pushed function */
  lua_pushvalue(L, b - 2);
  lua_call(L, 2, 1);
  int res = lua_toboolean(L, -1);
  lua_pop(L, 1);
  return res;
}

/* pops two values: top goes to position i, the one below to position j */
static void store_pair(lua_State *L, Pos i, Pos j) {
  lua_seti(L, 1, i);
  lua_seti(L, 1, j);
}

static void sort_error(lua_State *L) {
  luaL_error(L, "invalid order function for sorting");
}

/* Partition [lo, hi] around the pivot P held at stack top and stored at
** position hi-1.  On return P is at its final place, which is returned;
** elements before are not greater, elements after are not smaller. */
static Pos sort_partition(lua_State *L, Pos lo, Pos hi) {
  Pos i = lo, j = hi - 1;
  for (;;) {
    /* advance i over elements smaller than P */
    for (;;) {
      lua_geti(L, 1, ++i);
      if (!sort_less(L, -1, -2)) break;
      if (i == hi - 1) sort_error(L);   /* passed the pivot itself */
      lua_pop(L, 1);
    }
    /* retreat j over elements greater than P */
    for (;;) {
      lua_geti(L, 1, --j);
      if (!sort_less(L, -3, -1)) break;
      if (j < i) sort_error(L);   /* passed an element known >= P */
      lua_pop(L, 1);
    }
    /* stack: P, a[i], a[j] */
    if (j < i) {
      lua_pop(L, 1);        /* a[j] not needed */
      lua_geti(L, 1, hi - 1);   /* P back into the hole at i */
      store_pair(L, i, hi - 1);  /* a[i] = P, a[hi-1] = old a[i] */
      return i;
    }
    store_pair(L, i, j);   /* a[i] = old a[j], a[j] = old a[i] */
  }
}

static Pos pick_middle(Pos lo, Pos hi, unsigned int salt) {
  if (salt == 0 || hi - lo < 100)
    return lo + (hi - lo) / 2;
  Pos quarter = (hi - lo) / 4;   /* stay within the middle half */
  return lo + quarter + salt % (quarter * 2);
}

static unsigned int sort_salt(void) {
  clock_t c = clock();
  time_t t = time(NULL);
  unsigned int acc = 0;
  unsigned char buf[sizeof(c) + sizeof(t)];
  memcpy(buf, &c, sizeof(c));
  memcpy(buf + sizeof(c), &t, sizeof(t));
  for (size_t k = 0; k < sizeof(buf); k++)
    acc = acc * 31u + buf[k];
  return acc | 1u;
}

static void sort_range(lua_State *L, Pos lo, Pos hi, unsigned int salt) {
  while (lo < hi) {
    /* order the ends */
    lua_geti(L, 1, lo);
    lua_geti(L, 1, hi);
    if (sort_less(L, -1, -2))   /* a[hi] < a[lo] */
      store_pair(L, lo, hi);
    else
      lua_pop(L, 2);
    if (hi - lo == 1)
      return;
    /* median of three into the middle */
    Pos m = pick_middle(lo, hi, salt);
    lua_geti(L, 1, m);
    lua_geti(L, 1, lo);
    if (sort_less(L, -2, -1))   /* a[m] < a[lo] */
      store_pair(L, m, lo);
    else {
      lua_pop(L, 1);
      lua_geti(L, 1, hi);
      if (sort_less(L, -1, -2))   /* a[hi] < a[m] */
        store_pair(L, m, hi);
      else
        lua_pop(L, 2);
    }
    if (hi - lo == 2)
      return;
    /* park the pivot at hi-1, keep a copy on the stack */
    lua_geti(L, 1, m);
    lua_pushvalue(L, -1);
    lua_geti(L, 1, hi - 1);
    store_pair(L, m, hi - 1);
    Pos p = sort_partition(L, lo, hi);
    lua_pop(L, 1);   /* the pivot copy */
    Pos small;
    if (p - lo < hi - p) {
      sort_range(L, lo, p - 1, salt);
      small = p - lo;
      lo = p + 1;
    }
    else {
      sort_range(L, p + 1, hi, salt);
      small = hi - p;
      hi = p - 1;
    }
    if ((hi - lo) / 128 > small)   /* very unbalanced: randomize pivots */
      salt = sort_salt();
  }
}

/* The raw case of table.sort: no comparator, a table without a metatable
** whose positions 1..n are all in the array part and hold only strings or
** only immediate numbers.  '<' on those calls no metamethod and allocates
** nothing, so the values are compared and swapped in place; the steps are
** those of sort_range/sort_partition, comparison for comparison and swap
** for swap, so the result (the order of equal elements included) and the
** errors are the general path's. */
#define RAWLT(L, x, y)  vm_lessthan(L, &(x), &(y))
#define RAWSWAP(a, i, j)  do { Value t_ = a[i]; a[i] = a[j]; a[j] = t_; } while (0)

static Pos rawsort_partition(lua_State *L, Value *a, Pos lo, Pos hi) {
  Value P = a[hi - 1];
  Pos i = lo, j = hi - 1;
  for (;;) {
    while (RAWLT(L, a[++i], P))
      if (i == hi - 1) sort_error(L);
    while (RAWLT(L, P, a[--j]))
      if (j < i) sort_error(L);
    if (j < i) {
      RAWSWAP(a, i, hi - 1);
      return i;
    }
    RAWSWAP(a, i, j);
  }
}

/* a[1..n] is the array part (a is the array minus one) */
static void rawsort_range(lua_State *L, Value *a, Pos lo, Pos hi,
                          unsigned int salt) {
  while (lo < hi) {
    if (RAWLT(L, a[hi], a[lo]))
      RAWSWAP(a, lo, hi);
    if (hi - lo == 1)
      return;
    Pos m = pick_middle(lo, hi, salt);
    if (RAWLT(L, a[m], a[lo]))
      RAWSWAP(a, m, lo);
    else if (RAWLT(L, a[hi], a[m]))
      RAWSWAP(a, m, hi);
    if (hi - lo == 2)
      return;
    RAWSWAP(a, m, hi - 1);
    Pos p = rawsort_partition(L, a, lo, hi);
    Pos small;
    if (p - lo < hi - p) {
      rawsort_range(L, a, lo, p - 1, salt);
      small = p - lo;
      lo = p + 1;
    }
    else {
      rawsort_range(L, a, p + 1, hi, salt);
      small = hi - p;
      hi = p - 1;
    }
    if ((hi - lo) / 128 > small)
      salt = sort_salt();
  }
}

/* 1 when it sorted t (argument 1, n > 1 elements), 0 when it did nothing */
static int rawsort(lua_State *L, lua_Integer n) {
  Value *base = L->ci->func + 1;
  Table *h;
  Value *arr;
  int strs;
  if (L->top - base > 1 && !v_isnil(base[1])) return 0;
  if (!v_istable(base[0])) return 0;
  h = v_tab(base[0]);
  if (h->metatable != NULL || (lua_Unsigned)n > h->asize) return 0;
  arr = h->array;
  strs = v_isstring(arr[0]);
  for (lua_Integer k = 0; k < n; k++) {
    Value v = arr[k];
    if (strs ? !v_isstring(v) : !(v_isimmint(v) || v_isfloat(v))) return 0;
  }
  /* the swaps only permute the array's values, all strings (old objects)
  ** or immediates; its cards are marked anyway, before (an error may stop
  ** the sort half way) */
  gc_cardmarkrange(G(L), (GCObject *)h, arr, (size_t)n * sizeof(Value));
  rawsort_range(L, arr - 1, 1, (Pos)n, 0);
  return 1;
}

static int tab_sort(lua_State *L) {
  lua_Integer n = length_of(L, 1, NEED_RW);
  if (n > 1) {
    luaL_argcheck(L, n < INT_MAX, 1, "array too big");
    if (!lua_isnoneornil(L, 2))
      luaL_checktype(L, 2, LUA_TFUNCTION);
    else if (rawsort(L, n))
      return 0;
    lua_settop(L, 2);
    sort_range(L, 1, (Pos)n, 0);
  }
  return 0;
}

static const luaL_Reg tab_funcs[] = {
  {"concat", tab_concat},
  {"insert", tab_insert},
  {"pack", tab_pack},
  {"unpack", tab_unpack},
  {"remove", tab_remove},
  {"move", tab_move},
  {"sort", tab_sort},
  {NULL, NULL}
};

LUAMOD_API int luaopen_table(lua_State *L) {
  luaL_newlib(L, tab_funcs);
  return 1;
}
