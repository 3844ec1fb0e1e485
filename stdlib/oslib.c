/*
** oslib.c -- the os library.  Public C API only.
*/
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <time.h>
#include <unistd.h>
#include <string.h>

#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"
#include "jit.h"


static int os_execute(lua_State *L) {
  const char *cmd = luaL_optstring(L, 1, NULL);
  errno = 0;
  int stat = system(cmd);
  if (cmd != NULL)
    return luaL_execresult(L, stat);
  lua_pushboolean(L, stat);   /* is a shell available? */
  return 1;
}

static int os_remove(lua_State *L) {
  const char *fname = luaL_checkstring(L, 1);
  errno = 0;
  return luaL_fileresult(L, remove(fname) == 0, fname);
}

static int os_rename(lua_State *L) {
  const char *from = luaL_checkstring(L, 1);
  const char *to = luaL_checkstring(L, 2);
  errno = 0;
  return luaL_fileresult(L, rename(from, to) == 0, NULL);
}

static int os_tmpname(lua_State *L) {
  char name[32];
  strcpy(name, "/tmp/lua_XXXXXX");
  int fd = mkstemp(name);
  if (fd == -1)
    return luaL_error(L, "unable to generate a unique filename");
  close(fd);
  lua_pushstring(L, name);
  return 1;
}

static int os_getenv(lua_State *L) {
  lua_pushstring(L, getenv(luaL_checkstring(L, 1)));   /* NULL -> nil */
  return 1;
}

static int os_clock(lua_State *L) {
  lua_pushnumber(L, (lua_Number)clock() / (lua_Number)CLOCKS_PER_SEC);
  return 1;
}

/* ------------------------------------------------------------ time/date */

static time_t check_time(lua_State *L, int arg) {
  lua_Integer t = luaL_checkinteger(L, arg);
  luaL_argcheck(L, (time_t)t == t, arg, "time out-of-bounds");
  return (time_t)t;
}

static void set_int_field(lua_State *L, const char *key, int value, int delta) {
  lua_pushinteger(L, (lua_Integer)value + delta);
  lua_setfield(L, -2, key);
}

/* fill the table on top with the broken-down time */
static void set_date_fields(lua_State *L, const struct tm *tm) {
  set_int_field(L, "year", tm->tm_year, 1900);
  set_int_field(L, "month", tm->tm_mon, 1);
  set_int_field(L, "day", tm->tm_mday, 0);
  set_int_field(L, "hour", tm->tm_hour, 0);
  set_int_field(L, "min", tm->tm_min, 0);
  set_int_field(L, "sec", tm->tm_sec, 0);
  set_int_field(L, "yday", tm->tm_yday, 1);
  set_int_field(L, "wday", tm->tm_wday, 1);
  if (tm->tm_isdst >= 0) {   /* unknown DST stays absent */
    lua_pushboolean(L, tm->tm_isdst);
    lua_setfield(L, -2, "isdst");
  }
}

/* integer field of the date table at the top, minus 'delta'; 'dflt' < 0
** means the field is required */
static int get_date_field(lua_State *L, const char *key, int dflt, int delta) {
  int isnum;
  int t = lua_getfield(L, -1, key);
  lua_Integer v = lua_tointegerx(L, -1, &isnum);
  if (!isnum) {
    if (t != LUA_TNIL)
      return luaL_error(L, "field '%s' is not an integer", key);
    if (dflt < 0)
      return luaL_error(L, "field '%s' missing in date table", key);
    v = dflt;
  }
  else {
    int fits = (v >= 0) ? (v - delta <= INT_MAX) : (INT_MIN + delta <= v);
    if (!fits)
      return luaL_error(L, "field '%s' is out-of-bound", key);
    v -= delta;
  }
  lua_pop(L, 1);
  return (int)v;
}

static int get_bool_field(lua_State *L, const char *key) {
  int res = (lua_getfield(L, -1, key) == LUA_TNIL) ? -1 : lua_toboolean(L, -1);
  lua_pop(L, 1);
  return res;
}

static int os_time(lua_State *L) {
  time_t t;
  if (lua_isnoneornil(L, 1))
    t = time(NULL);
  else {
    struct tm tm;
    memset(&tm, 0, sizeof(tm));
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    tm.tm_year = get_date_field(L, "year", -1, 1900);
    tm.tm_mon = get_date_field(L, "month", -1, 1);
    tm.tm_mday = get_date_field(L, "day", -1, 0);
    tm.tm_hour = get_date_field(L, "hour", 12, 0);
    tm.tm_min = get_date_field(L, "min", 0, 0);
    tm.tm_sec = get_date_field(L, "sec", 0, 0);
    tm.tm_isdst = get_bool_field(L, "isdst");
    t = mktime(&tm);
    set_date_fields(L, &tm);   /* write back the normalised values */
  }
  if (t == (time_t)-1)
    return luaL_error(L, "time result cannot be represented in this installation");
  lua_pushinteger(L, (lua_Integer)t);
  return 1;
}

static int os_difftime(lua_State *L) {
  time_t t1 = check_time(L, 1);
  time_t t2 = check_time(L, 2);
  lua_pushnumber(L, (lua_Number)difftime(t1, t2));
  return 1;
}

/* Valid strftime conversions (C99): single letters, then the E and O
** modified forms.  Returns the length of the conversion at 's' or 0. */
static size_t conversion_length(const char *s, size_t avail) {
  static const char singles[] = "aAbBcCdDeFgGhHIjmMnprRStTuUVwWxXyYzZ%";
  static const char *const pairs[] = {
    "Ec", "EC", "Ex", "EX", "Ey", "EY",
    "Od", "Oe", "OH", "OI", "Om", "OM", "OS", "Ou", "OU", "OV", "Ow",
    "OW", "Oy", NULL
  };
  if (avail >= 1 && s[0] != '\0' && strchr(singles, s[0]) != NULL)
    return 1;
  if (avail >= 2)
    for (int i = 0; pairs[i] != NULL; i++)
      if (s[0] == pairs[i][0] && s[1] == pairs[i][1])
        return 2;
  return 0;
}

#define DATE_PIECE_MAX 250

static int os_date(lua_State *L) {
  size_t flen;
  const char *fmt = luaL_optlstring(L, 1, "%c", &flen);
  time_t t = luaL_opt(L, check_time, 2, time(NULL));
  const char *end = fmt + flen;
  struct tm tmbuf, *tm;
  if (*fmt == '!') {   /* UTC */
    tm = gmtime_r(&t, &tmbuf);
    fmt++;
  }
  else
    tm = localtime_r(&t, &tmbuf);
  if (tm == NULL)
    return luaL_error(L, "date result cannot be represented in this installation");
  if (strcmp(fmt, "*t") == 0) {
    lua_createtable(L, 0, 9);
    set_date_fields(L, tm);
    return 1;
  }
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  while (fmt < end) {
    if (*fmt != '%') {
      luaL_addchar(&b, *fmt++);
      continue;
    }
    fmt++;
    size_t clen = conversion_length(fmt, (size_t)(end - fmt));
    if (clen == 0)
      return luaL_argerror(L, 1,
          lua_pushfstring(L, "invalid conversion specifier '%%%s'", fmt));
    char spec[4] = {'%', 0, 0, 0};
    memcpy(spec + 1, fmt, clen);
    fmt += clen;
    char *out = luaL_prepbuffsize(&b, DATE_PIECE_MAX);
    luaL_addsize(&b, strftime(out, DATE_PIECE_MAX, spec, tm));
  }
  luaL_pushresult(&b);
  return 1;
}

/* ------------------------------------------------------------------ misc */

static int os_setlocale(lua_State *L) {
  static const int cats[] =
    {LC_ALL, LC_COLLATE, LC_CTYPE, LC_MONETARY, LC_NUMERIC, LC_TIME};
  static const char *const names[] =
    {"all", "collate", "ctype", "monetary", "numeric", "time", NULL};
  const char *loc = luaL_optstring(L, 1, NULL);
  int which = luaL_checkoption(L, 2, "all", names);
  lua_pushstring(L, setlocale(cats[which], loc));
  return 1;
}

static int os_exit(lua_State *L) {
  int status;
  if (lua_isboolean(L, 1))
    status = lua_toboolean(L, 1) ? EXIT_SUCCESS : EXIT_FAILURE;
  else
    status = (int)luaL_optinteger(L, 1, EXIT_SUCCESS);
  if (lua_toboolean(L, 2))
    lua_close(L);   /* run finalizers and to-be-closed handlers */
  else              /* a compile in the background ends first: LLVM's static */
    jit_stopthread(L);   /* destructors run in exit() */
  exit(status);     /* flushes C streams */
  return 0;
}

static const luaL_Reg os_funcs[] = {
  {"clock", os_clock},
  {"date", os_date},
  {"difftime", os_difftime},
  {"execute", os_execute},
  {"exit", os_exit},
  {"getenv", os_getenv},
  {"remove", os_remove},
  {"rename", os_rename},
  {"setlocale", os_setlocale},
  {"time", os_time},
  {"tmpname", os_tmpname},
  {NULL, NULL}
};

LUAMOD_API int luaopen_os(lua_State *L) {
  luaL_newlib(L, os_funcs);
  return 1;
}
