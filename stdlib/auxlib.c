/*
** auxlib.c -- the auxiliary library (lauxlib.h), written only against the
** public C API.  Messages and formats follow Lua 5.4's lauxlib so that
** scripts and C modules see the same text.
*/
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua.h"
#include "lauxlib.h"
#include "string.h"   /* vm/string.h: str_copyshort */

/* ------------------------------------------------------------------------
** tracebacks and function names
** ---------------------------------------------------------------------- */

#define TB_LEVELS1  10   /* frames shown before the "..." */
#define TB_LEVELS2  11   /* frames shown after it */

/* Search table at the top for a value raw-equal to objidx, up to 'level'
** nested tables deep; on success push its dotted name. */
static int findfield(lua_State *L, int objidx, int level) {
  if (level == 0 || !lua_istable(L, -1)) return 0;
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    if (lua_type(L, -2) == LUA_TSTRING) {
      if (lua_rawequal(L, objidx, -1)) {
        lua_pop(L, 1);            /* leave the key */
        return 1;
      }
      else if (findfield(L, objidx, level - 1)) {
        /* stack: outer key, inner table, inner name */
        lua_pushliteral(L, ".");
        lua_replace(L, -3);       /* replace the inner table by "." */
        lua_concat(L, 3);         /* outer key .. "." .. inner name */
        return 1;
      }
    }
    lua_pop(L, 1);
  }
  return 0;
}

/* Push the name under which the function of 'ar' is reachable from
** package.loaded ("print", "string.format"), if any. */
static int pushglobalfuncname(lua_State *L, lua_Debug *ar) {
  int top = lua_gettop(L);
  lua_getinfo(L, "f", ar);
  lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  luaL_checkstack(L, 6, "not enough stack");
  if (findfield(L, top + 1, 2)) {
    const char *name = lua_tostring(L, -1);
    if (strncmp(name, LUA_GNAME ".", 3) == 0) {   /* "_G.print" -> "print" */
      lua_pushstring(L, name + 3);
      lua_remove(L, -2);
    }
    lua_copy(L, -1, top + 1);
    lua_settop(L, top + 1);
    return 1;
  }
  lua_settop(L, top);
  return 0;
}

static void pushfuncname(lua_State *L, lua_Debug *ar) {
  if (pushglobalfuncname(L, ar)) {
    lua_pushfstring(L, "function '%s'", lua_tostring(L, -1));
    lua_remove(L, -2);
  }
  else if (*ar->namewhat != '\0')
    lua_pushfstring(L, "%s '%s'", ar->namewhat, ar->name);
  else if (*ar->what == 'm')
    lua_pushliteral(L, "main chunk");
  else if (*ar->what != 'C')
    lua_pushfstring(L, "function <%s:%d>", ar->short_src, ar->linedefined);
  else
    lua_pushliteral(L, "?");
}

/* deepest valid level of L's stack (binary search over lua_getstack) */
static int lastlevel(lua_State *L) {
  lua_Debug ar;
  int lo = 1, hi = 1;
  while (lua_getstack(L, hi, &ar)) {
    lo = hi;
    hi *= 2;
  }
  while (lo < hi) {
    int m = (lo + hi) / 2;
    if (lua_getstack(L, m, &ar)) lo = m + 1;
    else hi = m;
  }
  return hi - 1;
}

LUALIB_API void luaL_traceback(lua_State *L, lua_State *L1, const char *msg, int level) {
  luaL_Buffer b;
  lua_Debug ar;
  int last = lastlevel(L1);
  int limit2show = (last - level > TB_LEVELS1 + TB_LEVELS2) ? TB_LEVELS1 : -1;
  luaL_buffinit(L, &b);
  if (msg) {
    luaL_addstring(&b, msg);
    luaL_addchar(&b, '\n');
  }
  luaL_addstring(&b, "stack traceback:");
  while (lua_getstack(L1, level++, &ar)) {
    if (limit2show-- == 0) {
      int n = last - level - TB_LEVELS2 + 1;   /* levels to skip */
      lua_pushfstring(L, "\n\t...\t(skipping %d levels)", n);
      luaL_addvalue(&b);
      level += n;
    }
    else {
      lua_getinfo(L1, "Slnt", &ar);
      if (ar.currentline <= 0)
        lua_pushfstring(L, "\n\t%s: in ", ar.short_src);
      else
        lua_pushfstring(L, "\n\t%s:%d: in ", ar.short_src, ar.currentline);
      luaL_addvalue(&b);
      pushfuncname(L, &ar);
      luaL_addvalue(&b);
      if (ar.istailcall)
        luaL_addstring(&b, "\n\t(...tail calls...)");
    }
  }
  luaL_pushresult(&b);
}

/* ------------------------------------------------------------------------
** errors
** ---------------------------------------------------------------------- */

LUALIB_API int luaL_argerror(lua_State *L, int arg, const char *extramsg) {
  lua_Debug ar;
  if (!lua_getstack(L, 0, &ar))   /* no stack frame? */
    return luaL_error(L, "bad argument #%d (%s)", arg, extramsg);
  lua_getinfo(L, "n", &ar);
  if (strcmp(ar.namewhat, "method") == 0) {
    arg--;                        /* do not count 'self' */
    if (arg == 0)
      return luaL_error(L, "calling '%s' on bad self (%s)", ar.name, extramsg);
  }
  if (ar.name == NULL)
    ar.name = pushglobalfuncname(L, &ar) ? lua_tostring(L, -1) : "?";
  return luaL_error(L, "bad argument #%d to '%s' (%s)", arg, ar.name, extramsg);
}

LUALIB_API int luaL_typeerror(lua_State *L, int arg, const char *tname) {
  const char *msg;
  const char *typearg;
  if (luaL_getmetafield(L, arg, "__name") == LUA_TSTRING)
    typearg = lua_tostring(L, -1);
  else if (lua_type(L, arg) == LUA_TLIGHTUSERDATA)
    typearg = "light userdata";
  else
    typearg = luaL_typename(L, arg);
  msg = lua_pushfstring(L, "%s expected, got %s", tname, typearg);
  return luaL_argerror(L, arg, msg);
}

static void tag_error(lua_State *L, int arg, int tag) {
  luaL_typeerror(L, arg, lua_typename(L, tag));
}

LUALIB_API void luaL_where(lua_State *L, int level) {
  lua_Debug ar;
  if (lua_getstack(L, level, &ar)) {
    lua_getinfo(L, "Sl", &ar);
    if (ar.currentline > 0) {
      lua_pushfstring(L, "%s:%d: ", ar.short_src, ar.currentline);
      return;
    }
  }
  lua_pushfstring(L, "");
}

LUALIB_API int luaL_error(lua_State *L, const char *fmt, ...) {
  va_list argp;
  va_start(argp, fmt);
  luaL_where(L, 1);
  lua_pushvfstring(L, fmt, argp);
  va_end(argp);
  lua_concat(L, 2);
  return lua_error(L);
}

LUALIB_API int luaL_fileresult(lua_State *L, int stat, const char *fname) {
  int en = errno;   /* calls to Lua API may change this value */
  if (stat) {
    lua_pushboolean(L, 1);
    return 1;
  }
  else {
    const char *msg;
    luaL_pushfail(L);
    msg = (en != 0) ? strerror(en) : "(no extra info)";
    if (fname)
      lua_pushfstring(L, "%s: %s", fname, msg);
    else
      lua_pushstring(L, msg);
    lua_pushinteger(L, en);
    return 3;
  }
}

#include <sys/wait.h>

LUALIB_API int luaL_execresult(lua_State *L, int stat) {
  if (stat != 0 && errno != 0)    /* error with an 'errno'? */
    return luaL_fileresult(L, 0, NULL);
  else {
    const char *what = "exit";
    if (WIFEXITED(stat)) stat = WEXITSTATUS(stat);
    else if (WIFSIGNALED(stat)) { stat = WTERMSIG(stat); what = "signal"; }
    if (*what == 'e' && stat == 0)
      lua_pushboolean(L, 1);
    else
      luaL_pushfail(L);
    lua_pushstring(L, what);
    lua_pushinteger(L, stat);
    return 3;
  }
}

/* ------------------------------------------------------------------------
** userdata types and metatables
** ---------------------------------------------------------------------- */

LUALIB_API int luaL_newmetatable(lua_State *L, const char *tname) {
  if (luaL_getmetatable(L, tname) != LUA_TNIL)
    return 0;                     /* already there: leave it on the stack */
  lua_pop(L, 1);
  lua_createtable(L, 0, 2);
  lua_pushstring(L, tname);
  lua_setfield(L, -2, "__name");  /* metatable.__name = tname */
  lua_pushvalue(L, -1);
  lua_setfield(L, LUA_REGISTRYINDEX, tname);
  return 1;
}

LUALIB_API void luaL_setmetatable(lua_State *L, const char *tname) {
  luaL_getmetatable(L, tname);
  lua_setmetatable(L, -2);
}

LUALIB_API void *luaL_testudata(lua_State *L, int ud, const char *tname) {
  void *p = lua_touserdata(L, ud);
  if (p != NULL) {
    if (lua_getmetatable(L, ud)) {
      luaL_getmetatable(L, tname);
      if (!lua_rawequal(L, -1, -2))
        p = NULL;
      lua_pop(L, 2);
      return p;
    }
  }
  return NULL;
}

LUALIB_API void *luaL_checkudata(lua_State *L, int ud, const char *tname) {
  void *p = luaL_testudata(L, ud, tname);
  luaL_argexpected(L, p != NULL, ud, tname);
  return p;
}

/* ------------------------------------------------------------------------
** argument checks
** ---------------------------------------------------------------------- */

LUALIB_API int luaL_checkoption(lua_State *L, int arg, const char *def,
                                const char *const lst[]) {
  const char *name = def ? luaL_optstring(L, arg, def) : luaL_checkstring(L, arg);
  int i;
  for (i = 0; lst[i]; i++)
    if (strcmp(lst[i], name) == 0)
      return i;
  return luaL_argerror(L, arg, lua_pushfstring(L, "invalid option '%s'", name));
}

LUALIB_API void luaL_checkstack(lua_State *L, int space, const char *msg) {
  if (luai_unlikely(!lua_checkstack(L, space))) {
    if (msg)
      luaL_error(L, "stack overflow (%s)", msg);
    else
      luaL_error(L, "stack overflow");
  }
}

LUALIB_API void luaL_checktype(lua_State *L, int arg, int t) {
  if (luai_unlikely(lua_type(L, arg) != t))
    tag_error(L, arg, t);
}

LUALIB_API void luaL_checkany(lua_State *L, int arg) {
  if (luai_unlikely(lua_type(L, arg) == LUA_TNONE))
    luaL_argerror(L, arg, "value expected");
}

static void notstring_error(lua_State *L, int arg) {
  tag_error(L, arg, LUA_TSTRING);
}

/* lua_tolstring and the type test in one call (vm/api.c) */
LUAI_FUNC const char *api_checklstring(lua_State *L, int idx, size_t *len,
                                       void (*err)(lua_State *L, int arg));

LUALIB_API const char *luaL_checklstring(lua_State *L, int arg, size_t *len) {
  return api_checklstring(L, arg, len, notstring_error);
}

LUALIB_API const char *luaL_optlstring(lua_State *L, int arg, const char *def, size_t *len) {
  if (lua_isnoneornil(L, arg)) {
    if (len)
      *len = (def ? strlen(def) : 0);
    return def;
  }
  return luaL_checklstring(L, arg, len);
}

LUALIB_API lua_Number luaL_checknumber(lua_State *L, int arg) {
  int isnum;
  lua_Number d = lua_tonumberx(L, arg, &isnum);
  if (luai_unlikely(!isnum))
    tag_error(L, arg, LUA_TNUMBER);
  return d;
}

LUALIB_API lua_Number luaL_optnumber(lua_State *L, int arg, lua_Number def) {
  return luaL_opt(L, luaL_checknumber, arg, def);
}

static void interror(lua_State *L, int arg) {
  if (lua_isnumber(L, arg))
    luaL_argerror(L, arg, "number has no integer representation");
  else
    tag_error(L, arg, LUA_TNUMBER);
}

/* none/nil test and conversion in one call (vm/api.c) */
LUAI_FUNC lua_Integer api_optinteger(lua_State *L, int idx, lua_Integer def,
                                     void (*err)(lua_State *L, int arg));
LUAI_FUNC lua_Integer api_checkinteger(lua_State *L, int idx,
                                       void (*err)(lua_State *L, int arg));

LUALIB_API lua_Integer luaL_checkinteger(lua_State *L, int arg) {
  return api_checkinteger(L, arg, interror);
}

LUALIB_API lua_Integer luaL_optinteger(lua_State *L, int arg, lua_Integer def) {
  return api_optinteger(L, arg, def, interror);
}

/* ------------------------------------------------------------------------
** string buffers
**
** A buffer starts in B->init (on the C stack) with a light userdata
** placeholder pushed on the Lua stack.  When it outgrows that, the
** placeholder is replaced by a "box" userdata owning a block from the
** state's allocator; the box's __gc frees the block, so memory is
** reclaimed even when an error unwinds past the buffer.
** ---------------------------------------------------------------------- */

typedef struct UBox {
  void *box;
  size_t bsize;
} UBox;

static void *resizebox(lua_State *L, int idx, size_t newsize) {
  void *ud;
  lua_Alloc allocf = lua_getallocf(L, &ud);
  UBox *box = (UBox *)lua_touserdata(L, idx);
  void *temp = allocf(ud, box->box, box->bsize, newsize);
  if (luai_unlikely(temp == NULL && newsize > 0)) {
    lua_pushliteral(L, "not enough memory");
    lua_error(L);
  }
  box->box = temp;
  box->bsize = newsize;
  return temp;
}

static int boxgc(lua_State *L) {
  resizebox(L, 1, 0);
  return 0;
}

static const luaL_Reg boxmt[] = {
  {"__gc", boxgc},
  {"__close", boxgc},
  {NULL, NULL}
};

static void newbox(lua_State *L) {
  UBox *box = (UBox *)lua_newuserdatauv(L, sizeof(UBox), 0);
  box->box = NULL;
  box->bsize = 0;
  if (luaL_newmetatable(L, "_UBOX*"))
    luaL_setfuncs(L, boxmt, 0);
  lua_setmetatable(L, -2);
}

#define buffonstack(B)  ((B)->b != (B)->init.b)

/* the box (or placeholder) must be where the protocol says it is */
#define checkbufferlevel(B, idx) \
  ((void)((B)), (void)(idx))

static size_t newbuffsize(luaL_Buffer *B, size_t sz) {
  size_t newsize = (B->size / 2) * 3;   /* grow by 1.5x */
  if (luai_unlikely((size_t)~0 - sz < B->n))
    return luaL_error(B->L, "buffer too large");
  if (newsize < B->n + sz)
    newsize = B->n + sz;
  return newsize;
}

/* prepbuffsize when the buffer must grow, out of line: the callers' common
** case (room left) needs no stack frame */
static __attribute__((noinline)) char *growbuff(luaL_Buffer *B, size_t sz, int boxidx) {
  {
    lua_State *L = B->L;
    char *newbuff;
    size_t newsize = newbuffsize(B, sz);
    if (buffonstack(B))
      newbuff = (char *)resizebox(L, boxidx, newsize);
    else {
      lua_remove(L, boxidx);      /* the placeholder */
      newbox(L);
      lua_insert(L, boxidx);
      newbuff = (char *)resizebox(L, boxidx, newsize);
      memcpy(newbuff, B->b, B->n * sizeof(char));
    }
    B->b = newbuff;
    B->size = newsize;
    return newbuff + B->n;
  }
}

/* make room for sz more bytes; the box/placeholder is at boxidx */
static char *prepbuffsize(luaL_Buffer *B, size_t sz, int boxidx) {
  checkbufferlevel(B, boxidx);
  if (B->size - B->n >= sz)
    return B->b + B->n;
  return growbuff(B, sz, boxidx);
}

LUALIB_API char *luaL_prepbuffsize(luaL_Buffer *B, size_t sz) {
  return prepbuffsize(B, sz, -1);
}

LUALIB_API void luaL_addlstring(luaL_Buffer *B, const char *s, size_t l) {
  char *b;
  if (l == 0)
    return;
  /* (short pieces, gsub's and format's usual ones, without a memcpy call) */
  b = prepbuffsize(B, l, -1);
  luaL_addsize(B, l);
  str_copyshort(b, s, l);
}

LUALIB_API void luaL_addstring(luaL_Buffer *B, const char *s) {
  luaL_addlstring(B, s, strlen(s));
}

LUAI_FUNC void api_replaceunder(lua_State *L);   /* vm/api.c */

LUALIB_API void luaL_pushresult(luaL_Buffer *B) {
  lua_State *L = B->L;
  checkbufferlevel(B, -1);
  lua_pushlstring(L, B->b, B->n);
  if (buffonstack(B)) {
    resizebox(L, -2, 0);          /* release the block now */
    B->b = B->init.b;
    B->size = LUAL_BUFFERSIZE;
  }
  api_replaceunder(L);            /* over the box or placeholder (as
                                  ** lua_replace(L, -2), without its index
                                  ** decoding) */
}

LUALIB_API void luaL_pushresultsize(luaL_Buffer *B, size_t sz) {
  luaL_addsize(B, sz);
  luaL_pushresult(B);
}

/* the value to add is on the top, above the box/placeholder */
LUALIB_API void luaL_addvalue(luaL_Buffer *B) {
  lua_State *L = B->L;
  size_t len;
  const char *s = lua_tolstring(L, -1, &len);
  char *b = prepbuffsize(B, len, -2);
  str_copyshort(b, s, len);
  luaL_addsize(B, len);
  lua_pop(L, 1);
}

LUALIB_API void luaL_buffinit(lua_State *L, luaL_Buffer *B) {
  B->L = L;
  B->b = B->init.b;
  B->n = 0;
  B->size = LUAL_BUFFERSIZE;
  lua_pushlightuserdata(L, (void *)B);   /* placeholder */
}

LUALIB_API char *luaL_buffinitsize(lua_State *L, luaL_Buffer *B, size_t sz) {
  luaL_buffinit(L, B);
  return prepbuffsize(B, sz, -1);
}

/* ------------------------------------------------------------------------
** references
** ---------------------------------------------------------------------- */

/* t[FREELIST] heads the list of free references (stock 5.4 layout) */
#define FREELIST  (LUA_RIDX_LAST + 1)

LUALIB_API int luaL_ref(lua_State *L, int t) {
  int ref;
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return LUA_REFNIL;
  }
  t = lua_absindex(L, t);
  if (lua_rawgeti(L, t, FREELIST) == LUA_TNIL) {   /* first use */
    ref = 0;
    lua_pushinteger(L, 0);
    lua_rawseti(L, t, FREELIST);
  }
  else
    ref = (int)lua_tointeger(L, -1);
  lua_pop(L, 1);
  if (ref != 0) {                 /* reuse a free reference */
    lua_rawgeti(L, t, ref);
    lua_rawseti(L, t, FREELIST);  /* t[FREELIST] = t[ref] */
  }
  else
    ref = (int)lua_rawlen(L, t) + 1;
  lua_rawseti(L, t, ref);
  return ref;
}

LUALIB_API void luaL_unref(lua_State *L, int t, int ref) {
  if (ref >= 0) {
    t = lua_absindex(L, t);
    lua_rawgeti(L, t, FREELIST);
    lua_rawseti(L, t, ref);       /* t[ref] = t[FREELIST] */
    lua_pushinteger(L, ref);
    lua_rawseti(L, t, FREELIST);  /* t[FREELIST] = ref */
  }
}

/* ------------------------------------------------------------------------
** loading chunks
** ---------------------------------------------------------------------- */

typedef struct LoadF {
  int n;              /* pre-read characters still to hand out */
  FILE *f;
  char buff[BUFSIZ];
} LoadF;

static const char *getF(lua_State *L, void *ud, size_t *size) {
  LoadF *lf = (LoadF *)ud;
  (void)L;
  if (lf->n > 0) {
    *size = (size_t)lf->n;
    lf->n = 0;
  }
  else {
    if (feof(lf->f)) return NULL;
    *size = fread(lf->buff, 1, sizeof(lf->buff), lf->f);
  }
  return lf->buff;
}

static int errfile(lua_State *L, const char *what, int fnameindex) {
  const char *serr = strerror(errno);
  const char *filename = lua_tostring(L, fnameindex) + 1;
  lua_pushfstring(L, "cannot %s %s: %s", what, filename, serr);
  lua_remove(L, fnameindex);
  return LUA_ERRFILE;
}

/* skip an optional UTF-8 BOM; returns the first char after it */
static int skipBOM(FILE *f) {
  int c = getc(f);
  if (c == 0xEF && getc(f) == 0xBB && getc(f) == 0xBF)
    return getc(f);
  return c;
}

/* Skip a first line starting with '#' (Unix exec. file).  Returns 1 when a
** comment was skipped; *cp is the first char of the chunk proper. */
static int skipcomment(FILE *f, int *cp) {
  int c = *cp = skipBOM(f);
  if (c == '#') {
    do {
      c = getc(f);
    } while (c != EOF && c != '\n');
    *cp = getc(f);
    return 1;
  }
  return 0;
}

LUALIB_API int luaL_loadfilex(lua_State *L, const char *filename, const char *mode) {
  LoadF lf;
  int status, readstatus;
  int c;
  int fnameindex = lua_gettop(L) + 1;
  if (filename == NULL) {
    lua_pushliteral(L, "=stdin");
    lf.f = stdin;
  }
  else {
    lua_pushfstring(L, "@%s", filename);
    errno = 0;
    lf.f = fopen(filename, "r");
    if (lf.f == NULL) return errfile(L, "open", fnameindex);
  }
  lf.n = 0;
  if (skipcomment(lf.f, &c))
    lf.buff[lf.n++] = '\n';       /* keep line numbers right */
  if (c == LUA_SIGNATURE[0]) {    /* binary chunk */
    lf.n = 0;
    if (filename) {
      errno = 0;
      lf.f = freopen(filename, "rb", lf.f);
      if (lf.f == NULL) return errfile(L, "reopen", fnameindex);
      skipcomment(lf.f, &c);
    }
  }
  if (c != EOF)
    lf.buff[lf.n++] = (char)c;
  errno = 0;
  status = lua_load(L, getF, &lf, lua_tostring(L, -1), mode);
  readstatus = ferror(lf.f);
  if (filename) fclose(lf.f);
  if (readstatus) {
    lua_settop(L, fnameindex);    /* drop the results of lua_load */
    return errfile(L, "read", fnameindex);
  }
  lua_remove(L, fnameindex);
  return status;
}

typedef struct LoadS {
  const char *s;
  size_t size;
} LoadS;

static const char *getS(lua_State *L, void *ud, size_t *size) {
  LoadS *ls = (LoadS *)ud;
  (void)L;
  if (ls->size == 0) return NULL;
  *size = ls->size;
  ls->size = 0;
  return ls->s;
}

LUALIB_API int luaL_loadbufferx(lua_State *L, const char *buff, size_t size,
                                const char *name, const char *mode) {
  LoadS ls;
  ls.s = buff;
  ls.size = size;
  return lua_load(L, getS, &ls, name, mode);
}

LUALIB_API int luaL_loadstring(lua_State *L, const char *s) {
  return luaL_loadbuffer(L, s, strlen(s), s);
}

/* ------------------------------------------------------------------------
** metafields, tostring, length
** ---------------------------------------------------------------------- */

LUAI_FUNC int api_getmetafield(lua_State *L, int obj, const char *event);

LUALIB_API int luaL_getmetafield(lua_State *L, int obj, const char *event) {
  return api_getmetafield(L, obj, event);   /* (vm/api.c: no name created) */
}

LUALIB_API int luaL_callmeta(lua_State *L, int obj, const char *event) {
  obj = lua_absindex(L, obj);
  if (luaL_getmetafield(L, obj, event) == LUA_TNIL)
    return 0;
  lua_pushvalue(L, obj);
  lua_call(L, 1, 1);
  return 1;
}

LUALIB_API lua_Integer luaL_len(lua_State *L, int idx) {
  lua_Integer l;
  int isnum;
  lua_len(L, idx);
  l = lua_tointegerx(L, -1, &isnum);
  if (!isnum)
    luaL_error(L, "object length is not an integer");
  lua_pop(L, 1);
  return l;
}

/*
** Identity text for "table: 0x...": tables and functions may be moved by the
** collector, so their text cannot be their address.  For those objects it is
** built from the object's stable identity hash and its type (vm/api.c,
** api_objid), formatted like an address so that it reads like stock Lua's; it
** is the same for the object's whole life.  Objects that never move
** (userdata, threads) and light values print their real address.
*/
LUAI_FUNC int api_objid(lua_State *L, int idx, unsigned int *id);

static void pushidentity(lua_State *L, int idx, const char *kind) {
  char buff[64];
  unsigned int id;
  int tt = api_objid(L, idx, &id);
  const void *p;
  if (tt != 0)
    snprintf(buff, sizeof buff, "%s: 0x%04x%08x", kind, 0x5500u + (unsigned)tt * 0x11u, id);
  else if ((p = lua_topointer(L, idx)) != NULL)
    snprintf(buff, sizeof buff, "%s: %p", kind, p);
  else
    snprintf(buff, sizeof buff, "%s: (null)", kind);
  lua_pushstring(L, buff);
}

/* vm/api.c (hidden): a number's text while numbers have no metatable */
LUAI_FUNC const char *api_tolstringnum(lua_State *L, int idx, size_t *len);

LUALIB_API const char *luaL_tolstring(lua_State *L, int idx, size_t *len) {
  const char *s = api_tolstringnum(L, idx, len);
  if (s != NULL) return s;
  idx = lua_absindex(L, idx);
  if (luaL_callmeta(L, idx, "__tostring")) {
    if (!lua_isstring(L, -1))
      luaL_error(L, "'__tostring' must return a string");
  }
  else {
    switch (lua_type(L, idx)) {
      case LUA_TNUMBER:
        /* a copy converted in place: lua_tolstring writes what "%I" and
        ** "%f" of lua_pushfstring write (vm_num2buff), without printf */
        lua_pushvalue(L, idx);
        lua_tolstring(L, -1, NULL);
        break;
      case LUA_TSTRING:
        lua_pushvalue(L, idx);
        break;
      case LUA_TBOOLEAN:
        lua_pushstring(L, lua_toboolean(L, idx) ? "true" : "false");
        break;
      case LUA_TNIL:
        lua_pushliteral(L, "nil");
        break;
      default: {
        int tt = luaL_getmetafield(L, idx, "__name");
        const char *kind = (tt == LUA_TSTRING) ? lua_tostring(L, -1)
                                               : luaL_typename(L, idx);
        pushidentity(L, idx, kind);
        if (tt != LUA_TNIL)
          lua_remove(L, -2);      /* the '__name' */
        break;
      }
    }
  }
  return lua_tolstring(L, -1, len);
}

/* ------------------------------------------------------------------------
** libraries, modules, misc
** ---------------------------------------------------------------------- */

LUALIB_API void luaL_setfuncs(lua_State *L, const luaL_Reg *l, int nup) {
  luaL_checkstack(L, nup, "too many upvalues");
  for (; l->name != NULL; l++) {
    if (l->func == NULL)          /* placeholder */
      lua_pushboolean(L, 0);
    else {
      int i;
      for (i = 0; i < nup; i++)   /* copy the upvalues to the top */
        lua_pushvalue(L, -nup);
      lua_pushcclosure(L, l->func, nup);
    }
    lua_setfield(L, -(nup + 2), l->name);
  }
  lua_pop(L, nup);
}

LUALIB_API int luaL_getsubtable(lua_State *L, int idx, const char *fname) {
  if (lua_getfield(L, idx, fname) == LUA_TTABLE)
    return 1;
  else {
    lua_pop(L, 1);
    idx = lua_absindex(L, idx);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setfield(L, idx, fname);
    return 0;
  }
}

LUALIB_API void luaL_requiref(lua_State *L, const char *modname,
                              lua_CFunction openf, int glb) {
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  lua_getfield(L, -1, modname);   /* LOADED[modname] */
  if (!lua_toboolean(L, -1)) {
    lua_pop(L, 1);
    lua_pushcfunction(L, openf);
    lua_pushstring(L, modname);
    lua_call(L, 1, 1);
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, modname); /* LOADED[modname] = module */
  }
  lua_remove(L, -2);              /* LOADED */
  if (glb) {
    lua_pushvalue(L, -1);
    lua_setglobal(L, modname);
  }
}

LUALIB_API void luaL_addgsub(luaL_Buffer *b, const char *s,
                             const char *p, const char *r) {
  const char *wild;
  size_t l = strlen(p);
  while ((wild = strstr(s, p)) != NULL) {
    luaL_addlstring(b, s, (size_t)(wild - s));
    luaL_addstring(b, r);
    s = wild + l;
  }
  luaL_addstring(b, s);
}

LUALIB_API const char *luaL_gsub(lua_State *L, const char *s,
                                 const char *p, const char *r) {
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  luaL_addgsub(&b, s, p, r);
  luaL_pushresult(&b);
  return lua_tostring(L, -1);
}

LUALIB_API void luaL_checkversion_(lua_State *L, lua_Number ver, size_t sz) {
  lua_Number v = lua_version(L);
  if (sz != LUAL_NUMSIZES)
    luaL_error(L, "core and library have incompatible numeric types");
  else if (v != ver)
    luaL_error(L, "version mismatch: app. needs %f, Lua core provides %f",
               (LUAI_UACNUMBER)ver, (LUAI_UACNUMBER)v);
}

/* ------------------------------------------------------------------------
** luaL_newstate: default allocator, panic function and warnings
** ---------------------------------------------------------------------- */

static void *l_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  (void)ud; (void)osize;
  if (nsize == 0) {
    free(ptr);
    return NULL;
  }
  return realloc(ptr, nsize);
}

static int panic(lua_State *L) {
  const char *msg = lua_tostring(L, -1);
  if (msg == NULL) msg = "error object is not a string";
  lua_writestringerror("PANIC: unprotected error in call to Lua API (%s)\n", msg);
  return 0;
}

/*
** Warnings: off by default; a message "@on"/"@off" (a control message) turns
** them on or off.  Three warning functions form a small state machine:
** warnfoff (ignoring), warnfon (at the start of a message), warnfcont (in
** the middle of a multi-part message).
*/
static void warnfoff(void *ud, const char *message, int tocont);
static void warnfon(void *ud, const char *message, int tocont);
static void warnfcont(void *ud, const char *message, int tocont);

static int checkcontrol(lua_State *L, const char *message, int tocont) {
  if (tocont || *(message++) != '@')   /* not a control message */
    return 0;
  if (strcmp(message, "off") == 0)
    lua_setwarnf(L, warnfoff, L);
  else if (strcmp(message, "on") == 0)
    lua_setwarnf(L, warnfon, L);
  return 1;                            /* unknown controls are ignored */
}

static void warnfoff(void *ud, const char *message, int tocont) {
  checkcontrol((lua_State *)ud, message, tocont);
}

static void warnfcont(void *ud, const char *message, int tocont) {
  lua_State *L = (lua_State *)ud;
  lua_writestringerror("%s", message);
  if (tocont)
    lua_setwarnf(L, warnfcont, L);
  else {
    lua_writestringerror("%s", "\n");
    lua_setwarnf(L, warnfon, L);
  }
}

static void warnfon(void *ud, const char *message, int tocont) {
  if (checkcontrol((lua_State *)ud, message, tocont))
    return;
  lua_writestringerror("%s", "Lua warning: ");
  warnfcont(ud, message, tocont);
}

LUALIB_API lua_State *luaL_newstate(void) {
  lua_State *L = lua_newstate(l_alloc, NULL);
  if (L) {
    lua_atpanic(L, &panic);
    lua_setwarnf(L, warnfoff, L);
  }
  return L;
}
