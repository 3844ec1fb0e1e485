/*
** utf8lib.c -- the Lua 5.4 'utf8' library for mvm.
**
** Written only against the public C API.  Decoding accepts the original
** (pre-2003) UTF-8 forms of up to six bytes, i.e. code points up to
** 0x7FFFFFFF; the strict mode (the default) additionally rejects surrogates
** and code points above 0x10FFFF.  Behaviour follows /usr/bin/lua5.4.
*/

#include <limits.h>
#include <stddef.h>

#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"

typedef unsigned int u8_cp;	/* a code point (32 bits suffice) */

#define U8_MAXUNICODE	0x10FFFFu
#define U8_MAXLAX	0x7FFFFFFFu
#define U8_INVALID	"invalid UTF-8 code"

/* continuation byte 10xxxxxx? */
#define u8_iscont(c)	((((unsigned char)(c)) & 0xC0) == 0x80)

/* pattern matching exactly one UTF-8 sequence (note the embedded zero) */
#define U8_PATTERN	"[\0-\x7F\xC2-\xFD][\x80-\xBF]*"

/* relative string position: negative counts from the end; out-of-range
   negatives become 0 */
static lua_Integer u8_relpos(lua_Integer pos, size_t len) {
  if (pos >= 0)
    return pos;
  if ((size_t)0 - (size_t)pos > len)
    return 0;
  return (lua_Integer)len + pos + 1;
}

/*
** Decode one sequence at 's' (the string is zero-terminated, so reading a
** continuation never runs past the end).  Returns the position after it, or
** NULL if the sequence is invalid (or, when 'strict', not a Unicode scalar).
*/
static const char *u8_decode(const char *s, u8_cp *out, int strict) {
  /* smallest value that needs a sequence of n continuation bytes */
  static const u8_cp minval[] = {
    ~(u8_cp)0, 0x80, 0x800, 0x10000u, 0x200000u, 0x4000000u
  };
  unsigned int lead = (unsigned char)s[0];
  u8_cp cp = 0;
  if (lead < 0x80) {
    cp = lead;
  }
  else {
    int ncont = 0;
    /* each 1 bit after the leading one announces a continuation byte */
    for (; lead & 0x40; lead <<= 1) {
      unsigned int c = (unsigned char)s[++ncont];
      if (!u8_iscont(c))
        return NULL;
      cp = (cp << 6) | (c & 0x3F);
    }
    cp |= ((u8_cp)(lead & 0x7F) << (ncont * 5));  /* payload of the lead */
    if (ncont > 5 || cp > U8_MAXLAX || cp < minval[ncont])
      return NULL;  /* too long, too large, or overlong */
    s += ncont;
  }
  if (strict && (cp > U8_MAXUNICODE || (0xD800u <= cp && cp <= 0xDFFFu)))
    return NULL;
  if (out != NULL)
    *out = cp;
  return s + 1;
}

/* utf8.len(s [, i [, j [, lax]]]) */
static int u8_len(lua_State *L) {
  size_t len;
  const char *s = luaL_checklstring(L, 1, &len);
  lua_Integer i = u8_relpos(luaL_optinteger(L, 2, 1), len);
  lua_Integer j = u8_relpos(luaL_optinteger(L, 3, -1), len);
  int lax = lua_toboolean(L, 4);
  lua_Integer count = 0;
  luaL_argcheck(L, 1 <= i && --i <= (lua_Integer)len, 2,
                "initial position out of bounds");
  luaL_argcheck(L, --j < (lua_Integer)len, 3,
                "final position out of bounds");
  /* i and j are now 0-based */
  while (i <= j) {
    const char *next = u8_decode(s + i, NULL, !lax);
    if (next == NULL) {
      luaL_pushfail(L);
      lua_pushinteger(L, i + 1);  /* position of the bad byte */
      return 2;
    }
    i = next - s;
    count++;
  }
  lua_pushinteger(L, count);
  return 1;
}

/* utf8.codepoint(s [, i [, j [, lax]]]) */
static int u8_codepoint(lua_State *L) {
  size_t len;
  const char *s = luaL_checklstring(L, 1, &len);
  lua_Integer i = u8_relpos(luaL_optinteger(L, 2, 1), len);
  lua_Integer j = u8_relpos(luaL_optinteger(L, 3, i), len);
  int lax = lua_toboolean(L, 4);
  const char *p, *end;
  int n;
  luaL_argcheck(L, i >= 1, 2, "out of bounds");
  luaL_argcheck(L, j <= (lua_Integer)len, 3, "out of bounds");
  if (i > j)
    return 0;
  if (j - i >= INT_MAX)
    return luaL_error(L, "string slice too long");
  /* at most one code point per byte */
  luaL_checkstack(L, (int)(j - i) + 1, "string slice too long");
  n = 0;
  end = s + j;
  for (p = s + i - 1; p < end;) {
    u8_cp cp;
    p = u8_decode(p, &cp, !lax);
    if (p == NULL)
      return luaL_error(L, U8_INVALID);
    lua_pushinteger(L, (lua_Integer)cp);
    n++;
  }
  return n;
}

/* encode 'cp' (<= 0x7FFFFFFF) into the end of 'buf'; returns its length */
#define U8_BUFSZ	8
static int u8_encode(char *buf, unsigned long cp) {
  int n = 1;
  if (cp < 0x80) {
    buf[U8_BUFSZ - 1] = (char)cp;
    return 1;
  }
  {
    unsigned int room = 0x3f;  /* largest payload that fits in the lead */
    do {
      buf[U8_BUFSZ - (n++)] = (char)(0x80 | (cp & 0x3f));
      cp >>= 6;
      room >>= 1;
    } while (cp > room);
    /* lead byte: n-1 continuation bytes -> n high 1 bits, then the rest */
    buf[U8_BUFSZ - n] = (char)((~room << 1) | cp);
  }
  return n;
}

static void u8_pushchar(lua_State *L, int arg) {
  lua_Unsigned cp = (lua_Unsigned)luaL_checkinteger(L, arg);
  char buf[U8_BUFSZ];
  int n;
  luaL_argcheck(L, cp <= U8_MAXLAX, arg, "value out of range");
  n = u8_encode(buf, (unsigned long)cp);
  lua_pushlstring(L, buf + U8_BUFSZ - n, (size_t)n);
}

/* utf8.char(...) */
static int u8_char(lua_State *L) {
  int n = lua_gettop(L);
  if (n == 1) {
    u8_pushchar(L, 1);
  }
  else {
    int i;
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (i = 1; i <= n; i++) {
      u8_pushchar(L, i);
      luaL_addvalue(&b);
    }
    luaL_pushresult(&b);
  }
  return 1;
}

/* utf8.offset(s, n [, i]) */
static int u8_offset(lua_State *L) {
  size_t len;
  const char *s = luaL_checklstring(L, 1, &len);
  lua_Integer n = luaL_checkinteger(L, 2);
  lua_Integer pos = (n >= 0) ? 1 : (lua_Integer)len + 1;
  pos = u8_relpos(luaL_optinteger(L, 3, pos), len);
  luaL_argcheck(L, 1 <= pos && --pos <= (lua_Integer)len, 3,
                "position out of bounds");
  /* pos is 0-based from here on */
  if (n == 0) {
    /* start of the character containing byte 'pos' */
    while (pos > 0 && u8_iscont(s[pos]))
      pos--;
  }
  else {
    if (u8_iscont(s[pos]))
      return luaL_error(L, "initial position is a continuation byte");
    if (n < 0) {
      for (; n < 0 && pos > 0; n++) {
        do {
          pos--;
        } while (pos > 0 && u8_iscont(s[pos]));
      }
    }
    else {
      n--;  /* the character at 'pos' is the first one */
      for (; n > 0 && pos < (lua_Integer)len; n--) {
        do {
          pos++;
        } while (u8_iscont(s[pos]));  /* stops at the final '\0' */
      }
    }
  }
  if (n == 0)
    lua_pushinteger(L, pos + 1);
  else
    luaL_pushfail(L);
  return 1;
}

/*
** Iterator for utf8.codes.  The control value is the 1-based position of
** the previous character (0 at the start); read as a 0-based index it is
** the byte just after that character's lead byte, so skipping continuation
** bytes from there reaches the next character.  (Stray continuation bytes
** are skipped silently, as in Lua 5.4.4.)
*/
static int u8_iterate(lua_State *L, int strict) {
  size_t len;
  const char *s = luaL_checklstring(L, 1, &len);
  lua_Unsigned i = (lua_Unsigned)lua_tointeger(L, 2);
  u8_cp cp;
  if (i < len) {
    while (u8_iscont(s[i]))
      i++;  /* the terminating '\0' stops this */
  }
  if (i >= len)  /* also catches a negative control value */
    return 0;
  if (u8_decode(s + i, &cp, strict) == NULL)
    return luaL_error(L, U8_INVALID);
  lua_pushinteger(L, (lua_Integer)i + 1);
  lua_pushinteger(L, (lua_Integer)cp);
  return 2;
}

static int u8_iter_strict(lua_State *L) { return u8_iterate(L, 1); }
static int u8_iter_lax(lua_State *L) { return u8_iterate(L, 0); }

/* utf8.codes(s [, lax]) */
static int u8_codes(lua_State *L) {
  int lax = lua_toboolean(L, 2);
  luaL_checkstring(L, 1);
  lua_pushcfunction(L, lax ? u8_iter_lax : u8_iter_strict);
  lua_pushvalue(L, 1);
  lua_pushinteger(L, 0);
  return 3;
}

static const luaL_Reg u8_funcs[] = {
  {"offset", u8_offset},
  {"codepoint", u8_codepoint},
  {"char", u8_char},
  {"len", u8_len},
  {"codes", u8_codes},
  {NULL, NULL}
};

LUAMOD_API int luaopen_utf8(lua_State *L) {
  luaL_newlib(L, u8_funcs);
  lua_pushlstring(L, U8_PATTERN, sizeof(U8_PATTERN) - 1);
  lua_setfield(L, -2, "charpattern");
  return 1;
}
