/*
** mvm.c -- the mvm command: a drop-in replacement for the 'lua' 5.4
** stand-alone interpreter (same options, same 'arg' table, same messages and
** exit statuses), plus mvm's -j option.  Written against the public API only.
*/
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"
#include "mvm.h"
#include "cli.h"

const char *cli_progname = CLI_PROGNAME;
volatile sig_atomic_t cli_sigint_pending = 0;

/* ------------------------------------------------------------------ */
/* messages                                                           */
/* ------------------------------------------------------------------ */

void cli_message(const char *msg) {
  if (cli_progname != NULL)
    fprintf(stderr, "%s: ", cli_progname);
  fprintf(stderr, "%s\n", msg);
  fflush(stderr);
}

int cli_report(lua_State *L, int status) {
  if (status != LUA_OK) {
    const char *msg = lua_tostring(L, -1);
    if (msg == NULL)   /* only possible for errors outside cli_docall */
      msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, -1));
    cli_message(msg);
    lua_settop(L, 0);
  }
  return status;
}

void cli_print_version(void) {
  fputs("mvm " MVM_VERSION " (Lua " LUA_VERSION_MAJOR "." LUA_VERSION_MINOR
        " compatible)  Copyright (C) 2025 the mvm authors;"
        " Lua language and API (C) 1994-2023 Lua.org, PUC-Rio\n", stdout);
  fflush(stdout);
}

/* the value of a -j option that is not a mode name (set by collectargs) */
static const char *bad_jitmode = NULL;

static void print_usage(const char *badoption) {
  FILE *out = stdout;
  if (badoption != NULL) {
    out = stderr;
    fprintf(out, "%s: ", CLI_PROGNAME);
    if (bad_jitmode != NULL)
      fprintf(out, "bad JIT mode '%s' (expected off, on or eager)\n", bad_jitmode);
    else if (badoption[1] == 'e' || badoption[1] == 'l' || badoption[1] == 'j')
      fprintf(out, "'%s' needs argument\n", badoption);
    else
      fprintf(out, "unrecognized option '%s'\n", badoption);
  }
  fprintf(out,
    "usage: %s [options] [script [args]]\n"
    "Available options are:\n"
    "  -e stat   execute string 'stat'\n"
    "  -i        enter interactive mode after executing 'script'\n"
    "  -l mod    require library 'mod' into global 'mod'\n"
    "  -l g=mod  require library 'mod' into global 'g'\n"
    "  -v        show version information\n"
    "  -E        ignore environment variables\n"
    "  -W        turn warnings on\n"
    "  -j mode   JIT mode: off (default), on or eager\n"
    "  -h        show this help\n"
    "  --        stop handling options\n"
    "  -         stop handling options and execute stdin\n",
    CLI_PROGNAME);
  fflush(out);
}

/* ------------------------------------------------------------------ */
/* running chunks                                                     */
/* ------------------------------------------------------------------ */

/* The VM a Ctrl-C should interrupt.  The handler only stores flags. */
static lua_State *volatile interrupt_target = NULL;

static void on_sigint_running(int sig) {
  /* a second Ctrl-C before the VM notices kills the process */
  signal(sig, SIG_DFL);
  if (interrupt_target != NULL)
    mvm_interrupt(interrupt_target);
}

/* message handler: adds a traceback to string-like errors */
static int msghandler(lua_State *L) {
  const char *msg = lua_tostring(L, 1);
  if (msg == NULL) {
    /* an error object with __tostring is shown as that string, no traceback */
    if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)
      return 1;
    msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
  }
  luaL_traceback(L, L, msg, 1);
  return 1;
}

int cli_docall(lua_State *L, int narg, int nres) {
  struct sigaction sa, old;
  int status;
  int base = lua_gettop(L) - narg;   /* function index */
  lua_pushcfunction(L, msghandler);
  lua_insert(L, base);
  mvm_clearinterrupt(L);             /* drop a stale request */
  interrupt_target = L;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigint_running;
  sa.sa_flags = SA_RESTART;          /* like signal(): blocking reads resume */
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &old);
  /* a Ctrl-C that came after the REPL read the line but before the handler
  ** above was installed was meant for this call */
  if (cli_sigint_pending) {
    cli_sigint_pending = 0;
    on_sigint_running(SIGINT);
  }
  status = lua_pcall(L, narg, nres, base);
  sigaction(SIGINT, &old, NULL);
  interrupt_target = NULL;
  mvm_clearinterrupt(L);
  lua_remove(L, base);
  return status;
}

static int dochunk(lua_State *L, int status) {
  if (status == LUA_OK)
    status = cli_docall(L, 0, 0);
  return cli_report(L, status);
}

static int dofile(lua_State *L, const char *name) {
  return dochunk(L, luaL_loadfile(L, name));
}

static int dostring(lua_State *L, const char *s, const char *name) {
  return dochunk(L, luaL_loadbuffer(L, s, strlen(s), name));
}

/* -l mod / -l g=mod: global g (default: mod without a "-suffix") = require(mod) */
static int dolibrary(lua_State *L, const char *spec) {
  const char *eq = strchr(spec, '=');
  const char *modname;
  int status;
  if (eq != NULL) {
    lua_pushlstring(L, spec, (size_t)(eq - spec));   /* global name */
    modname = eq + 1;
  } else {
    const char *dash = strchr(spec, '-');            /* version suffix */
    lua_pushlstring(L, spec, dash ? (size_t)(dash - spec) : strlen(spec));
    modname = spec;
  }
  lua_getglobal(L, "require");
  lua_pushstring(L, modname);
  status = cli_docall(L, 1, 1);
  if (status == LUA_OK)
    lua_setglobal(L, lua_tostring(L, -2));
  else
    lua_remove(L, -2);   /* keep only the error message */
  if (status == LUA_OK)
    lua_pop(L, 1);       /* the global name */
  return cli_report(L, status);
}

/* push arg[1..#arg] (the script's arguments) and return how many */
static int pushargs(lua_State *L) {
  int i, n;
  if (lua_getglobal(L, "arg") != LUA_TTABLE)
    luaL_error(L, "'arg' is not a table");
  n = (int)luaL_len(L, -1);
  luaL_checkstack(L, n + 3, "too many arguments to script");
  for (i = 1; i <= n; i++)
    lua_rawgeti(L, -i, i);
  lua_remove(L, -i);   /* the table */
  return n;
}

static int handle_script(lua_State *L, char **argv) {
  const char *fname = argv[0];
  int status;
  /* "-" means stdin, unless it came right after "--" */
  if (strcmp(fname, "-") == 0 && strcmp(argv[-1], "--") != 0)
    fname = NULL;
  status = luaL_loadfile(L, fname);
  if (status == LUA_OK) {
    int n = pushargs(L);
    status = cli_docall(L, n, LUA_MULTRET);
  }
  return cli_report(L, status);
}

/* ------------------------------------------------------------------ */
/* options                                                            */
/* ------------------------------------------------------------------ */

#define OPT_ERROR  1   /* bad option */
#define OPT_I      2   /* -i */
#define OPT_V      4   /* -v */
#define OPT_E      8   /* -e */
#define OPT_NOENV 16   /* -E */
#define OPT_HELP  32   /* -h / --help */

/*
** Scan the options.  Sets *script to the index of the script name (argc if
** there is none), *jitmode to the last -j value (or -1), and returns the
** OPT_* flags.  On a bad option *script is the index of the culprit.
*/
static int collectargs(char **argv, int *script, int *jitmode) {
  int flags = 0;
  int i;
  for (i = 1; argv[i] != NULL; i++) {
    const char *a = argv[i];
    *script = i;
    if (a[0] != '-')
      return flags;                       /* the script name */
    switch (a[1]) {
      case '\0':                          /* "-": script is stdin */
        return flags;
      case '-':
        if (a[2] == '\0') {               /* "--": next argument is the script */
          *script = i + 1;
          return flags;
        }
        if (strcmp(a, "--help") == 0)
          return flags | OPT_HELP;
        return flags | OPT_ERROR;
      case 'h':
        if (a[2] != '\0') return flags | OPT_ERROR;
        return flags | OPT_HELP;
      case 'E':
        if (a[2] != '\0') return flags | OPT_ERROR;
        flags |= OPT_NOENV;
        break;
      case 'W':
        if (a[2] != '\0') return flags | OPT_ERROR;
        break;
      case 'i':
        if (a[2] != '\0') return flags | OPT_ERROR;
        flags |= OPT_I | OPT_V;           /* -i implies -v */
        break;
      case 'v':
        if (a[2] != '\0') return flags | OPT_ERROR;
        flags |= OPT_V;
        break;
      case 'e':
        flags |= OPT_E;
        /* FALLTHROUGH */
      case 'l':
        if (a[2] == '\0') {               /* argument in the next word */
          i++;
          if (argv[i] == NULL || argv[i][0] == '-') {
            *script = i - 1;
            return flags | OPT_ERROR;
          }
        }
        break;
      case 'j': {
        const char *m = a + 2;
        if (*m == '\0') {
          m = argv[++i];
          if (m == NULL) {
            *script = i - 1;
            return flags | OPT_ERROR;
          }
        }
        *jitmode = mvm_jitmodename(m);
        if (*jitmode < 0) {               /* reported like a bad option */
          bad_jitmode = m;
          *script = m == a + 2 ? i : i - 1;
          return flags | OPT_ERROR;
        }
        break;
      }
      default:
        return flags | OPT_ERROR;
    }
  }
  *script = i;                            /* no script */
  return flags;
}

/* run -e, -l and -W in command-line order; 0 on the first failure */
static int runargs(lua_State *L, char **argv, int n) {
  int i;
  for (i = 1; i < n; i++) {
    int opt = argv[i][1];
    const char *extra = argv[i] + 2;
    switch (opt) {
      case 'e':
      case 'l':
      case 'j':
        if (*extra == '\0')
          extra = argv[++i];
        if (opt == 'e' && dostring(L, extra, "=(command line)") != LUA_OK)
          return 0;
        if (opt == 'l' && dolibrary(L, extra) != LUA_OK)
          return 0;
        break;
      case 'W':
        lua_warning(L, "@on", 0);
        break;
    }
  }
  return 1;
}

/* the global 'arg': script at 0, options before it negative, args after */
static void createargtable(lua_State *L, char **argv, int argc, int script) {
  int i;
  if (script == argc)
    script = 0;                 /* no script: the program name goes at 0 */
  lua_createtable(L, argc - script - 1 > 0 ? argc - script - 1 : 0, script + 1);
  for (i = 0; i < argc; i++) {
    lua_pushstring(L, argv[i]);
    lua_rawseti(L, -2, i - script);
  }
  lua_setglobal(L, "arg");
}

static int handle_luainit(lua_State *L) {
  const char *name = "=LUA_INIT_" LUA_VERSION_MAJOR "_" LUA_VERSION_MINOR;
  const char *init = getenv(name + 1);
  if (init == NULL) {
    name = "=LUA_INIT";
    init = getenv(name + 1);
  }
  if (init == NULL)
    return LUA_OK;
  if (init[0] == '@')
    return dofile(L, init + 1);
  return dostring(L, init, name);
}

/* ------------------------------------------------------------------ */
/* main                                                               */
/* ------------------------------------------------------------------ */

/* runs protected: everything that can raise an error */
static int pmain(lua_State *L) {
  int argc = (int)lua_tointeger(L, 1);
  char **argv = (char **)lua_touserdata(L, 2);
  int script = argc, jitmode = -1;
  int flags;
  luaL_checkversion(L);
  flags = collectargs(argv, &script, &jitmode);
  if (flags & OPT_ERROR) {
    print_usage(argv[script]);
    return 0;
  }
  if (flags & OPT_HELP) {
    print_usage(NULL);
    lua_pushboolean(L, 1);
    return 1;
  }
  /* JIT mode: -j wins over MVM_JIT, which wins over the default "off"
  ** (docs/decisions/0006-jit-default-off.md: until the compiler covers calls
  ** and tables it costs start-up memory without paying for itself) */
  if (jitmode < 0) {
    const char *env = getenv("MVM_JIT");
    if (env != NULL && *env != '\0') {
      jitmode = mvm_jitmodename(env);
      if (jitmode < 0)
        fprintf(stderr, "%s: ignoring bad MVM_JIT value '%s' (expected off, on or eager)\n",
                CLI_PROGNAME, env);
    }
  }
  mvm_jitmode(L, jitmode >= 0 ? jitmode : MVM_JIT_OFF);
  if (flags & OPT_V)
    cli_print_version();
  if (flags & OPT_NOENV) {
    /* tells the package library to ignore LUA_PATH / LUA_CPATH */
    lua_pushboolean(L, 1);
    lua_setfield(L, LUA_REGISTRYINDEX, "LUA_NOENV");
  }
  luaL_openlibs(L);
  createargtable(L, argv, argc, script);
  lua_gc(L, LUA_GCGEN, 0, 0);   /* like lua.c: scripts start in generational mode */
  if (!(flags & OPT_NOENV) && handle_luainit(L) != LUA_OK)
    return 0;
  if (!runargs(L, argv, script))
    return 0;
  if (script < argc && handle_script(L, argv + script) != LUA_OK)
    return 0;
  if (flags & OPT_I)
    cli_repl(L);
  else if (script == argc && !(flags & (OPT_E | OPT_V))) {
    if (isatty(STDIN_FILENO)) {
      cli_print_version();
      cli_repl(L);
    } else if (dofile(L, NULL) != LUA_OK) {
      return 0;
    }
  }
  lua_pushboolean(L, 1);
  return 1;
}

int main(int argc, char **argv) {
  int status, ok;
  lua_State *L = luaL_newstate();
  if (L == NULL) {
    cli_message("cannot create state: not enough memory");
    return EXIT_FAILURE;
  }
  lua_pushcfunction(L, pmain);
  lua_pushinteger(L, argc);
  lua_pushlightuserdata(L, argv);
  status = lua_pcall(L, 2, 1, 0);
  ok = lua_toboolean(L, -1);
  cli_report(L, status);
  status = (ok && status == LUA_OK) ? EXIT_SUCCESS : EXIT_FAILURE;
  if (mvm_closeforexit(L)) {   /* a compile left running: see mvm.h */
    fflush(NULL);
    _exit(status);
  }
  return status;
}
