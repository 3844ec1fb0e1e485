/*
** loadlib.c -- the package library and 'require'.  Public C API only.
** C libraries are opened with dlopen and kept open for the life of the
** state: their handles are listed in a registry table (key: &CLIBS_KEY)
** whose __gc closes them in reverse order.
*/
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"


#define PATH_VAR      "LUA_PATH"
#define CPATH_VAR     "LUA_CPATH"
#define OPEN_PREFIX   "luaopen_"
#define OPEN_SEP      "_"      /* replaces '.' in open-function names */
#define IGNORE_MARK   "-"      /* prefix up to this mark is ignored */

/* error kinds of find_cfunction */
#define ERR_LIB   1
#define ERR_FUNC  2

static const char CLIBS_KEY = 0;   /* its address is the registry key */

/* ------------------------------------------------------------- dynamic libs */

static void *open_lib(lua_State *L, const char *path, int global) {
  void *lib = dlopen(path, RTLD_NOW | (global ? RTLD_GLOBAL : RTLD_LOCAL));
  if (lib == NULL)
    lua_pushstring(L, dlerror());
  return lib;
}

static lua_CFunction lib_symbol(lua_State *L, void *lib, const char *sym) {
  lua_CFunction f;
  void *p = dlsym(lib, sym);
  memcpy(&f, &p, sizeof(f));   /* object pointer -> function pointer */
  if (f == NULL)
    lua_pushstring(L, dlerror());
  return f;
}

static void *known_lib(lua_State *L, const char *path) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &CLIBS_KEY);
  lua_getfield(L, -1, path);
  void *lib = lua_touserdata(L, -1);
  lua_pop(L, 2);
  return lib;
}

static void remember_lib(lua_State *L, const char *path, void *lib) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &CLIBS_KEY);
  lua_pushlightuserdata(L, lib);
  lua_pushvalue(L, -1);
  lua_setfield(L, -3, path);   /* by name, to find it again */
  lua_rawseti(L, -2, luaL_len(L, -2) + 1);   /* in order, to close it */
  lua_pop(L, 1);
}

static int clibs_gc(lua_State *L) {
  for (lua_Integer n = luaL_len(L, 1); n >= 1; n--) {
    lua_rawgeti(L, 1, n);
    dlclose(lua_touserdata(L, -1));
    lua_pop(L, 1);
  }
  return 0;
}

/* Load library 'path' (once) and push its function 'sym'; sym "*" only
** loads the library, with its symbols made global.  Returns 0 with the
** function (or true) pushed, or ERR_LIB/ERR_FUNC with a message pushed. */
static int find_cfunction(lua_State *L, const char *path, const char *sym) {
  void *lib = known_lib(L, path);
  if (lib == NULL) {
    lib = open_lib(L, path, *sym == '*');
    if (lib == NULL)
      return ERR_LIB;
    remember_lib(L, path, lib);
  }
  if (*sym == '*') {
    lua_pushboolean(L, 1);
    return 0;
  }
  lua_CFunction f = lib_symbol(L, lib, sym);
  if (f == NULL)
    return ERR_FUNC;
  lua_pushcfunction(L, f);
  return 0;
}

static int pk_loadlib(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  const char *init = luaL_checkstring(L, 2);
  int st = find_cfunction(L, path, init);
  if (st == 0)
    return 1;
  luaL_pushfail(L);
  lua_insert(L, -2);
  lua_pushstring(L, st == ERR_LIB ? "open" : "init");
  return 3;
}

/* ---------------------------------------------------------------- searching */

static int can_read(const char *fname) {
  FILE *f = fopen(fname, "r");
  if (f == NULL)
    return 0;
  fclose(f);
  return 1;
}

/* "no file 'a'\n\tno file 'b'..." for every template in 'path' */
static void push_not_found(lua_State *L, const char *path) {
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  luaL_addstring(&b, "no file '");
  luaL_addgsub(&b, path, LUA_PATH_SEP, "'\n\tno file '");
  luaL_addstring(&b, "'");
  luaL_pushresult(&b);
}

/* Try each template of 'path' with '?' replaced by 'name' (in which 'sep'
** became 'dirsep').  Pushes and returns the first readable file name, or
** pushes the error message and returns NULL. */
static const char *search_path(lua_State *L, const char *name,
                               const char *path, const char *sep,
                               const char *dirsep) {
  if (*sep != '\0' && strchr(name, *sep) != NULL)
    name = luaL_gsub(L, name, sep, dirsep);
  /* expand all templates at once, then walk them */
  const char *expanded = luaL_gsub(L, path, LUA_PATH_MARK, name);
  int expidx = lua_gettop(L);
  const char *p = expanded;
  for (;;) {
    const char *semi = strchr(p, *LUA_PATH_SEP);
    size_t len = semi ? (size_t)(semi - p) : strlen(p);
    if (len > 0) {   /* empty templates are skipped */
      lua_pushlstring(L, p, len);
      if (can_read(lua_tostring(L, -1))) {
        lua_remove(L, expidx);
        return lua_tostring(L, -1);
      }
      lua_pop(L, 1);
    }
    if (semi == NULL)
      break;
    p = semi + 1;
  }
  push_not_found(L, expanded);
  lua_remove(L, expidx);
  return NULL;
}

static int pk_searchpath(lua_State *L) {
  const char *f = search_path(L, luaL_checkstring(L, 1),
                              luaL_checkstring(L, 2),
                              luaL_optstring(L, 3, "."),
                              luaL_optstring(L, 4, LUA_DIRSEP));
  if (f != NULL)
    return 1;
  luaL_pushfail(L);
  lua_insert(L, -2);
  return 2;
}

/* search package[field] (package is upvalue 1 of the searchers) */
static const char *find_module_file(lua_State *L, const char *name,
                                    const char *field) {
  lua_getfield(L, lua_upvalueindex(1), field);
  const char *path = lua_tostring(L, -1);
  if (path == NULL)
    luaL_error(L, "'package.%s' must be a string", field);
  return search_path(L, name, path, ".", LUA_DIRSEP);
}

/* after loading 'fname': loader and file name, or a descriptive error */
static int loaded_or_error(lua_State *L, int ok, const char *fname) {
  if (ok) {
    lua_pushstring(L, fname);   /* second argument to the loader */
    return 2;
  }
  return luaL_error(L, "error loading module '%s' from file '%s':\n\t%s",
                    lua_tostring(L, 1), fname, lua_tostring(L, -1));
}

static int searcher_lua(lua_State *L) {
  const char *name = luaL_checkstring(L, 1);
  const char *fname = find_module_file(L, name, "path");
  if (fname == NULL)
    return 1;   /* message */
  return loaded_or_error(L, luaL_loadfile(L, fname) == LUA_OK, fname);
}

/* Find the open function of module 'modname' in 'fname': for "a.b-c.d"
** first "luaopen_a_b" (the part before the mark), then "luaopen_c_d". */
static int load_cmodule(lua_State *L, const char *fname, const char *modname) {
  modname = luaL_gsub(L, modname, ".", OPEN_SEP);
  const char *mark = strchr(modname, *IGNORE_MARK);
  if (mark != NULL) {
    lua_pushlstring(L, modname, (size_t)(mark - modname));
    const char *fn = lua_pushfstring(L, OPEN_PREFIX "%s", lua_tostring(L, -1));
    int st = find_cfunction(L, fname, fn);
    if (st != ERR_FUNC)
      return st;
    modname = mark + 1;
  }
  const char *fn = lua_pushfstring(L, OPEN_PREFIX "%s", modname);
  return find_cfunction(L, fname, fn);
}

static int searcher_c(lua_State *L) {
  const char *name = luaL_checkstring(L, 1);
  const char *fname = find_module_file(L, name, "cpath");
  if (fname == NULL)
    return 1;
  return loaded_or_error(L, load_cmodule(L, fname, name) == 0, fname);
}

/* "a.b.c" may live in library "a" as luaopen_a_b_c */
static int searcher_croot(lua_State *L) {
  const char *name = luaL_checkstring(L, 1);
  const char *dot = strchr(name, '.');
  if (dot == NULL)
    return 0;
  lua_pushlstring(L, name, (size_t)(dot - name));
  const char *fname = find_module_file(L, lua_tostring(L, -1), "cpath");
  if (fname == NULL)
    return 1;
  int st = load_cmodule(L, fname, name);
  if (st != 0) {
    if (st != ERR_FUNC)
      return loaded_or_error(L, 0, fname);
    lua_pushfstring(L, "no module '%s' in file '%s'", name, fname);
    return 1;
  }
  lua_pushstring(L, fname);
  return 2;
}

static int searcher_preload(lua_State *L) {
  const char *name = luaL_checkstring(L, 1);
  lua_getfield(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
  if (lua_getfield(L, -1, name) == LUA_TNIL) {
    lua_pushfstring(L, "no field package.preload['%s']", name);
    return 1;
  }
  lua_pushliteral(L, ":preload:");
  return 2;
}

/* Run the searchers until one returns a loader; leaves loader and its
** extra value on the stack, or raises the collected messages. */
static void find_loader(lua_State *L, const char *name) {
  luaL_Buffer msg;
  if (lua_getfield(L, lua_upvalueindex(1), "searchers") != LUA_TTABLE)
    luaL_error(L, "'package.searchers' must be a table");
  int searchers = lua_gettop(L);
  luaL_buffinit(L, &msg);
  for (lua_Integer i = 1; ; i++) {
    luaL_addstring(&msg, "\n\t");   /* speculative separator */
    if (lua_rawgeti(L, searchers, i) == LUA_TNIL) {   /* no more searchers */
      lua_pop(L, 1);
      luaL_buffsub(&msg, 2);
      luaL_pushresult(&msg);
      luaL_error(L, "module '%s' not found:%s", name, lua_tostring(L, -1));
    }
    lua_pushstring(L, name);
    lua_call(L, 1, 2);
    if (lua_isfunction(L, -2))
      return;   /* found a loader */
    if (lua_isstring(L, -2)) {   /* a reason why not */
      lua_pop(L, 1);
      luaL_addvalue(&msg);
    }
    else {   /* nothing to say */
      lua_pop(L, 2);
      luaL_buffsub(&msg, 2);
    }
  }
}

static int pk_require(lua_State *L) {
  const char *name = luaL_checkstring(L, 1);
  lua_settop(L, 1);
  lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);   /* index 2 */
  lua_getfield(L, 2, name);
  if (lua_toboolean(L, -1))
    return 1;   /* already loaded */
  lua_pop(L, 1);
  find_loader(L, name);
  lua_rotate(L, -2, 1);   /* extra value below the loader */
  lua_pushvalue(L, 1);
  lua_pushvalue(L, -3);
  lua_call(L, 2, 1);      /* loader(name, extra) */
  if (!lua_isnil(L, -1))
    lua_setfield(L, 2, name);
  else
    lua_pop(L, 1);
  if (lua_getfield(L, 2, name) == LUA_TNIL) {   /* no value: use true */
    lua_pushboolean(L, 1);
    lua_copy(L, -1, -2);
    lua_setfield(L, 2, name);
  }
  lua_rotate(L, -2, 1);   /* module value, then extra */
  return 2;
}

/* ------------------------------------------------------------------ setup */

static int env_disabled(lua_State *L) {
  lua_getfield(L, LUA_REGISTRYINDEX, "LUA_NOENV");
  int b = lua_toboolean(L, -1);
  lua_pop(L, 1);
  return b;
}

/* package[field] from $VAR_5_4 or $VAR, ";;" standing for the default */
static void init_path(lua_State *L, const char *field, const char *var,
                      const char *dflt) {
  const char *vname = lua_pushfstring(L, "%s%s", var, LUA_VERSUFFIX);
  const char *path = getenv(vname);
  if (path == NULL)
    path = getenv(var);
  const char *mark;
  if (path == NULL || env_disabled(L))
    lua_pushstring(L, dflt);
  else if ((mark = strstr(path, LUA_PATH_SEP LUA_PATH_SEP)) == NULL)
    lua_pushstring(L, path);
  else {
    size_t len = strlen(path);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    if (mark > path) {   /* prefix before ";;" */
      luaL_addlstring(&b, path, (size_t)(mark - path));
      luaL_addchar(&b, *LUA_PATH_SEP);
    }
    luaL_addstring(&b, dflt);
    if (mark < path + len - 2) {   /* suffix after ";;" */
      luaL_addchar(&b, *LUA_PATH_SEP);
      luaL_addlstring(&b, mark + 2, (size_t)((path + len - 2) - mark));
    }
    luaL_pushresult(&b);
  }
  lua_setfield(L, -3, field);
  lua_pop(L, 1);   /* vname */
}

static const luaL_Reg pk_funcs[] = {
  {"loadlib", pk_loadlib},
  {"searchpath", pk_searchpath},
  {NULL, NULL}
};

LUAMOD_API int luaopen_package(lua_State *L) {
  /* the C-library registry, closed when the state closes */
  lua_newtable(L);
  lua_createtable(L, 0, 1);
  lua_pushcfunction(L, clibs_gc);
  lua_setfield(L, -2, "__gc");
  lua_setmetatable(L, -2);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &CLIBS_KEY);

  luaL_newlib(L, pk_funcs);

  static const lua_CFunction searchers[] =
    {searcher_preload, searcher_lua, searcher_c, searcher_croot};
  lua_createtable(L, 4, 0);
  for (int i = 0; i < 4; i++) {
    lua_pushvalue(L, -2);   /* package table as upvalue */
    lua_pushcclosure(L, searchers[i], 1);
    lua_rawseti(L, -2, i + 1);
  }
  lua_setfield(L, -2, "searchers");

  init_path(L, "path", PATH_VAR, LUA_PATH_DEFAULT);
  init_path(L, "cpath", CPATH_VAR, LUA_CPATH_DEFAULT);
  lua_pushliteral(L, LUA_DIRSEP "\n" LUA_PATH_SEP "\n" LUA_PATH_MARK "\n"
                     LUA_EXEC_DIR "\n" IGNORE_MARK "\n");
  lua_setfield(L, -2, "config");
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  lua_setfield(L, -2, "loaded");
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
  lua_setfield(L, -2, "preload");

  /* global 'require' with the package table as upvalue */
  lua_pushglobaltable(L);
  lua_pushvalue(L, -2);
  lua_pushcclosure(L, pk_require, 1);
  lua_setfield(L, -2, "require");
  lua_pop(L, 1);
  return 1;
}
