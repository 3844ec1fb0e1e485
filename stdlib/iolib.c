/*
** iolib.c -- the io library.  Public C API only.
** File handles are luaL_Stream userdata with metatable LUA_FILEHANDLE; a
** handle is closed when its 'closef' is NULL.  The default input/output
** files live in the registry under IO_INPUT / IO_OUTPUT.
*/
#define _GNU_SOURCE   /* popen, fseeko */
#include <ctype.h>
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <sys/types.h>
#include <string.h>

#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"


#define IO_PREFIX   "_IO_"
#define IO_INPUT    (IO_PREFIX "input")
#define IO_OUTPUT   (IO_PREFIX "output")

/* longest numeral accepted by read("n") */
#define MAX_NUMERAL 200
/* most formats io.lines may record */
#define MAX_LINE_FORMATS 250

typedef luaL_Stream Stream;

#define is_closed(p)  ((p)->closef == NULL)

static Stream *check_stream(lua_State *L) {
  return (Stream *)luaL_checkudata(L, 1, LUA_FILEHANDLE);
}

/* the open FILE behind argument 1 */
static FILE *check_file(lua_State *L) {
  Stream *p = check_stream(L);
  if (is_closed(p))
    luaL_error(L, "attempt to use a closed file");
  return p->f;
}

/* a handle not yet attached to a FILE (safe to collect in that state) */
static Stream *new_handle(lua_State *L) {
  Stream *p = (Stream *)lua_newuserdatauv(L, sizeof(Stream), 0);
  p->f = NULL;
  p->closef = NULL;
  luaL_setmetatable(L, LUA_FILEHANDLE);
  return p;
}

/* close through the handle's own closing function */
static int close_handle(lua_State *L) {
  Stream *p = check_stream(L);
  lua_CFunction closer = p->closef;
  p->closef = NULL;   /* mark closed first */
  return closer(L);
}

static int close_fopen(lua_State *L) {
  Stream *p = check_stream(L);
  errno = 0;
  int ok = (fclose(p->f) == 0);
  return luaL_fileresult(L, ok, NULL);
}

static int close_popen(lua_State *L) {
  Stream *p = check_stream(L);
  errno = 0;
  return luaL_execresult(L, pclose(p->f));
}

/* standard streams refuse to close and stay usable */
static int close_std(lua_State *L) {
  Stream *p = check_stream(L);
  p->closef = close_std;
  luaL_pushfail(L);
  lua_pushliteral(L, "cannot close standard file");
  return 2;
}

static Stream *new_file(lua_State *L) {
  Stream *p = new_handle(L);
  p->closef = close_fopen;
  return p;
}

/* open or raise an error (io.lines, io.input/io.output with a name) */
static void open_or_raise(lua_State *L, const char *fname, const char *mode) {
  Stream *p = new_file(L);
  p->f = fopen(fname, mode);
  if (p->f == NULL)
    luaL_error(L, "cannot open file '%s' (%s)", fname, strerror(errno));
}

/* [rwa]+?b* */
static int mode_ok(const char *m) {
  if (*m == '\0' || strchr("rwa", *m) == NULL)
    return 0;
  m++;
  if (*m == '+') m++;
  return strspn(m, "b") == strlen(m);
}

/* ------------------------------------------------------- io.* functions */

static int io_type(lua_State *L) {
  luaL_checkany(L, 1);
  Stream *p = (Stream *)luaL_testudata(L, 1, LUA_FILEHANDLE);
  if (p == NULL)
    luaL_pushfail(L);
  else
    lua_pushstring(L, is_closed(p) ? "closed file" : "file");
  return 1;
}

static int f_tostring(lua_State *L) {
  Stream *p = check_stream(L);
  if (is_closed(p))
    lua_pushliteral(L, "file (closed)");
  else
    lua_pushfstring(L, "file (%p)", (void *)p->f);
  return 1;
}

static int io_open(lua_State *L) {
  const char *fname = luaL_checkstring(L, 1);
  const char *mode = luaL_optstring(L, 2, "r");
  Stream *p = new_file(L);
  luaL_argcheck(L, mode_ok(mode), 2, "invalid mode");
  errno = 0;
  p->f = fopen(fname, mode);
  return (p->f == NULL) ? luaL_fileresult(L, 0, fname) : 1;
}

static int io_popen(lua_State *L) {
  const char *cmd = luaL_checkstring(L, 1);
  const char *mode = luaL_optstring(L, 2, "r");
  Stream *p = new_handle(L);
  luaL_argcheck(L, (mode[0] == 'r' || mode[0] == 'w') && mode[1] == '\0',
                2, "invalid mode");
  errno = 0;
  fflush(NULL);   /* child must not see our pending output twice */
  p->f = popen(cmd, mode);
  p->closef = close_popen;
  return (p->f == NULL) ? luaL_fileresult(L, 0, cmd) : 1;
}

static int io_tmpfile(lua_State *L) {
  Stream *p = new_file(L);
  errno = 0;
  p->f = tmpfile();
  return (p->f == NULL) ? luaL_fileresult(L, 0, NULL) : 1;
}

/* the FILE of a default stream; pushes its handle */
static FILE *default_file(lua_State *L, const char *key) {
  lua_getfield(L, LUA_REGISTRYINDEX, key);
  Stream *p = (Stream *)lua_touserdata(L, -1);
  if (p == NULL || is_closed(p))
    luaL_error(L, "default %s file is closed", key + sizeof(IO_PREFIX) - 1);
  return p->f;
}

static int set_default(lua_State *L, const char *key, const char *mode) {
  if (!lua_isnoneornil(L, 1)) {
    const char *fname = lua_tostring(L, 1);
    if (fname != NULL)
      open_or_raise(L, fname, mode);
    else {
      check_file(L);   /* must be an open handle */
      lua_pushvalue(L, 1);
    }
    lua_setfield(L, LUA_REGISTRYINDEX, key);
  }
  lua_getfield(L, LUA_REGISTRYINDEX, key);
  return 1;
}

static int io_input(lua_State *L) { return set_default(L, IO_INPUT, "r"); }
static int io_output(lua_State *L) { return set_default(L, IO_OUTPUT, "w"); }

static int f_close(lua_State *L) {
  check_file(L);
  return close_handle(L);
}

static int io_close(lua_State *L) {
  if (lua_isnone(L, 1))
    lua_getfield(L, LUA_REGISTRYINDEX, IO_OUTPUT);
  return f_close(L);
}

/* __gc and __close: close quietly if still open */
static int f_gc(lua_State *L) {
  Stream *p = check_stream(L);
  if (!is_closed(p) && p->f != NULL)
    close_handle(L);
  return 0;
}

/* --------------------------------------------------------------- reading */

/* State of read("n"): the numeral seen so far plus one lookahead char. */
typedef struct NumReader {
  FILE *f;
  int c;        /* lookahead */
  int n;        /* chars stored */
  char buf[MAX_NUMERAL + 1];
} NumReader;

/* store the lookahead and read the next char; fails when too long */
static int nr_take(NumReader *r) {
  if (r->n >= MAX_NUMERAL) {
    r->buf[0] = '\0';   /* make the numeral invalid */
    return 0;
  }
  r->buf[r->n++] = (char)r->c;
  r->c = getc(r->f);
  return 1;
}

/* take the lookahead if it is one of the two chars in 'set' */
static int nr_accept(NumReader *r, const char *set) {
  if (r->c == set[0] || r->c == set[1])
    return nr_take(r);
  return 0;
}

static int nr_digits(NumReader *r, int hex) {
  int count = 0;
  while ((hex ? isxdigit(r->c) : isdigit(r->c)) && nr_take(r))
    count++;
  return count;
}

/* Read the longest prefix that can start a numeral (Lua lexical rules),
** then convert it with lua_stringtonumber. */
static int read_number(lua_State *L, FILE *f) {
  NumReader r;
  int count = 0, hex = 0;
  char point[3] = {lua_getlocaledecpoint(), '.', '\0'};
  r.f = f;
  r.n = 0;
  do { r.c = getc(f); } while (isspace(r.c));
  nr_accept(&r, "-+");
  if (nr_accept(&r, "00")) {
    if (nr_accept(&r, "xX")) hex = 1;
    else count = 1;   /* the '0' is a digit */
  }
  count += nr_digits(&r, hex);
  if (nr_accept(&r, point))
    count += nr_digits(&r, hex);
  if (count > 0 && nr_accept(&r, hex ? "pP" : "eE")) {
    nr_accept(&r, "-+");
    nr_digits(&r, 0);
  }
  ungetc(r.c, f);
  r.buf[r.n] = '\0';
  if (lua_stringtonumber(L, r.buf))
    return 1;
  luaL_pushfail(L);
  return 0;
}

static int at_eof(lua_State *L, FILE *f) {
  int c = getc(f);
  ungetc(c, f);
  lua_pushliteral(L, "");
  return c != EOF;
}

static int read_line(lua_State *L, FILE *f, int chop) {
  luaL_Buffer b;
  int c = EOF;
  luaL_buffinit(L, &b);
  do {
    char *p = luaL_prepbuffer(&b);
    int i = 0;
    while (i < LUAL_BUFFERSIZE && (c = getc(f)) != EOF && c != '\n')
      p[i++] = (char)c;
    luaL_addsize(&b, i);
  } while (c != EOF && c != '\n');
  if (!chop && c == '\n')
    luaL_addchar(&b, (char)c);
  luaL_pushresult(&b);
  return (c == '\n' || lua_rawlen(L, -1) > 0);
}

static void read_all(lua_State *L, FILE *f) {
  luaL_Buffer b;
  size_t got;
  luaL_buffinit(L, &b);
  do {
    char *p = luaL_prepbuffer(&b);
    got = fread(p, 1, LUAL_BUFFERSIZE, f);
    luaL_addsize(&b, got);
  } while (got == LUAL_BUFFERSIZE);
  luaL_pushresult(&b);
}

static int read_chars(lua_State *L, FILE *f, size_t n) {
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  char *p = luaL_prepbuffsize(&b, n);
  size_t got = fread(p, 1, n, f);
  luaL_addsize(&b, got);
  luaL_pushresult(&b);
  return got > 0;
}

/* Read according to the formats at stack positions first..top.  Returns
** the number of results; a failed format yields fail and stops. */
static int read_formats(lua_State *L, FILE *f, int first) {
  int nargs = lua_gettop(L) - 1;
  int ok, n;
  clearerr(f);
  errno = 0;
  if (nargs == 0) {   /* default: one line */
    ok = read_line(L, f, 1);
    n = first + 1;
  }
  else {
    luaL_checkstack(L, nargs + LUA_MINSTACK, "too many arguments");
    ok = 1;
    for (n = first; nargs-- && ok; n++) {
      if (lua_type(L, n) == LUA_TNUMBER) {
        size_t count = (size_t)luaL_checkinteger(L, n);
        ok = (count == 0) ? at_eof(L, f) : read_chars(L, f, count);
      }
      else {
        const char *fmt = luaL_checkstring(L, n);
        if (*fmt == '*') fmt++;   /* 5.3 style "*l" */
        switch (*fmt) {
          case 'n': ok = read_number(L, f); break;
          case 'l': ok = read_line(L, f, 1); break;
          case 'L': ok = read_line(L, f, 0); break;
          case 'a': read_all(L, f); ok = 1; break;
          default: return luaL_argerror(L, n, "invalid format");
        }
      }
    }
  }
  if (ferror(f))
    return luaL_fileresult(L, 0, NULL);
  if (!ok) {
    lua_pop(L, 1);   /* the partial result */
    luaL_pushfail(L);
  }
  return n - first;
}

static int io_read(lua_State *L) {
  return read_formats(L, default_file(L, IO_INPUT), 1);
}

static int f_read(lua_State *L) {
  return read_formats(L, check_file(L), 2);
}

/* iterator made by lines(): upvalues are the handle, the format count,
** whether to close at the end, then the formats */
static int lines_step(lua_State *L) {
  Stream *p = (Stream *)lua_touserdata(L, lua_upvalueindex(1));
  int n = (int)lua_tointeger(L, lua_upvalueindex(2));
  if (is_closed(p))
    return luaL_error(L, "file is already closed");
  lua_settop(L, 1);
  luaL_checkstack(L, n, "too many arguments");
  for (int i = 1; i <= n; i++)
    lua_pushvalue(L, lua_upvalueindex(3 + i));
  n = read_formats(L, p->f, 2);
  if (lua_toboolean(L, -n))
    return n;
  if (n > 1)   /* fail plus an error message */
    return luaL_error(L, "%s", lua_tostring(L, -n + 1));
  if (lua_toboolean(L, lua_upvalueindex(3))) {   /* end: close the file */
    lua_settop(L, 0);
    lua_pushvalue(L, lua_upvalueindex(1));
    close_handle(L);
  }
  return 0;
}

/* stack: handle at 1, formats from 2 */
static void push_lines_iter(lua_State *L, int toclose) {
  int n = lua_gettop(L) - 1;
  luaL_argcheck(L, n <= MAX_LINE_FORMATS, MAX_LINE_FORMATS + 2,
                "too many arguments");
  lua_pushvalue(L, 1);
  lua_pushinteger(L, n);
  lua_pushboolean(L, toclose);
  lua_rotate(L, 2, 3);   /* handle, count, toclose before the formats */
  lua_pushcclosure(L, lines_step, 3 + n);
}

static int f_lines(lua_State *L) {
  check_file(L);
  push_lines_iter(L, 0);
  return 1;
}

static int io_lines(lua_State *L) {
  int toclose;
  if (lua_isnone(L, 1))
    lua_pushnil(L);
  if (lua_isnil(L, 1)) {   /* default input */
    lua_getfield(L, LUA_REGISTRYINDEX, IO_INPUT);
    lua_replace(L, 1);
    check_file(L);
    toclose = 0;
  }
  else {
    const char *fname = luaL_checkstring(L, 1);
    open_or_raise(L, fname, "r");
    lua_replace(L, 1);
    toclose = 1;
  }
  push_lines_iter(L, toclose);
  if (toclose) {   /* generic-for state plus the closing value */
    lua_pushnil(L);
    lua_pushnil(L);
    lua_pushvalue(L, 1);
    return 4;
  }
  return 1;
}

/* --------------------------------------------------------------- writing */

/* writes arguments arg..top-1; the handle to return sits at the top */
static int write_values(lua_State *L, FILE *f, int arg) {
  int nargs = lua_gettop(L) - arg;
  int ok = 1;
  errno = 0;
  for (; nargs--; arg++) {
    if (lua_type(L, arg) == LUA_TNUMBER) {
      int len = lua_isinteger(L, arg)
          ? fprintf(f, LUA_INTEGER_FMT, (LUAI_UACINT)lua_tointeger(L, arg))
          : fprintf(f, LUA_NUMBER_FMT, (LUAI_UACNUMBER)lua_tonumber(L, arg));
      ok = ok && len > 0;
    }
    else {
      size_t len;
      const char *s = luaL_checklstring(L, arg, &len);
      ok = ok && fwrite(s, 1, len, f) == len;
    }
  }
  if (ok)
    return 1;
  return luaL_fileresult(L, ok, NULL);
}

static int io_write(lua_State *L) {
  return write_values(L, default_file(L, IO_OUTPUT), 1);
}

static int f_write(lua_State *L) {
  FILE *f = check_file(L);
  lua_pushvalue(L, 1);   /* result */
  return write_values(L, f, 2);
}

/* ------------------------------------------------------ seek/buffer/flush */

static int f_seek(lua_State *L) {
  static const int whence_codes[] = {SEEK_SET, SEEK_CUR, SEEK_END};
  static const char *const whence_names[] = {"set", "cur", "end", NULL};
  FILE *f = check_file(L);
  int w = luaL_checkoption(L, 2, "cur", whence_names);
  lua_Integer offset = luaL_optinteger(L, 3, 0);
  off_t off = (off_t)offset;
  luaL_argcheck(L, (lua_Integer)off == offset, 3, "not an integer in proper range");
  errno = 0;
  if (fseeko(f, off, whence_codes[w]) != 0)
    return luaL_fileresult(L, 0, NULL);
  lua_pushinteger(L, (lua_Integer)ftello(f));
  return 1;
}

static int f_setvbuf(lua_State *L) {
  static const int mode_codes[] = {_IONBF, _IOFBF, _IOLBF};
  static const char *const mode_names[] = {"no", "full", "line", NULL};
  FILE *f = check_file(L);
  int m = luaL_checkoption(L, 2, NULL, mode_names);
  lua_Integer size = luaL_optinteger(L, 3, LUAL_BUFFERSIZE);
  errno = 0;
  int res = setvbuf(f, NULL, mode_codes[m], (size_t)size);
  return luaL_fileresult(L, res == 0, NULL);
}

static int io_flush(lua_State *L) {
  FILE *f = default_file(L, IO_OUTPUT);
  errno = 0;
  return luaL_fileresult(L, fflush(f) == 0, NULL);
}

static int f_flush(lua_State *L) {
  FILE *f = check_file(L);
  errno = 0;
  return luaL_fileresult(L, fflush(f) == 0, NULL);
}

/* ------------------------------------------------------------ registration */

static const luaL_Reg io_funcs[] = {
  {"close", io_close},
  {"flush", io_flush},
  {"input", io_input},
  {"lines", io_lines},
  {"open", io_open},
  {"output", io_output},
  {"popen", io_popen},
  {"read", io_read},
  {"tmpfile", io_tmpfile},
  {"type", io_type},
  {"write", io_write},
  {NULL, NULL}
};

static const luaL_Reg file_methods[] = {
  {"read", f_read},
  {"write", f_write},
  {"lines", f_lines},
  {"flush", f_flush},
  {"seek", f_seek},
  {"close", f_close},
  {"setvbuf", f_setvbuf},
  {NULL, NULL}
};

static const luaL_Reg file_meta[] = {
  {"__gc", f_gc},
  {"__close", f_gc},
  {"__tostring", f_tostring},
  {NULL, NULL}
};

static void make_file_metatable(lua_State *L) {
  luaL_newmetatable(L, LUA_FILEHANDLE);
  luaL_setfuncs(L, file_meta, 0);
  luaL_newlibtable(L, file_methods);
  luaL_setfuncs(L, file_methods, 0);
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1);
}

/* io.stdin & co: never really closed */
static void add_std_file(lua_State *L, FILE *f, const char *regkey,
                         const char *name) {
  Stream *p = new_handle(L);
  p->f = f;
  p->closef = close_std;
  if (regkey != NULL) {
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, regkey);
  }
  lua_setfield(L, -2, name);
}

LUAMOD_API int luaopen_io(lua_State *L) {
  luaL_newlib(L, io_funcs);
  make_file_metatable(L);
  add_std_file(L, stdin, IO_INPUT, "stdin");
  add_std_file(L, stdout, IO_OUTPUT, "stdout");
  add_std_file(L, stderr, NULL, "stderr");
  return 1;
}
