/*
** repl.c -- the interactive loop of the mvm command.
**
** Each input line is first tried as an expression ("return " .. line), whose
** values are printed; otherwise as a statement, reading continuation lines
** while the parser stops at end of input.  Line editing and history come from
** libedit when the build found it (MVM_HAVE_LIBEDIT) and stdin is a terminal;
** otherwise lines are read with fgets.
**
** Ctrl-C while a statement runs interrupts it (cli_docall); Ctrl-C at the
** prompt throws away the line being typed.  Ctrl-D on an empty line exits.
*/
#include <errno.h>
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

#ifdef MVM_HAVE_LIBEDIT
#include <editline/readline.h>
#endif

#define PROMPT1  "> "
#define PROMPT2  ">> "
#define MAXLINE  512   /* fgets chunk; longer lines are read in pieces */

/* set by the prompt-time SIGINT handler */
static volatile sig_atomic_t prompt_interrupted = 0;

static void on_sigint_prompt(int sig) {
  (void)sig;
  prompt_interrupted = 1;
}

/* installs the prompt handler WITHOUT SA_RESTART, so that a blocked read
** returns EINTR and the reader can notice the Ctrl-C */
static void catch_prompt_sigint(struct sigaction *old) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigint_prompt;
  sa.sa_flags = 0;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, old);
}

/* ------------------------------------------------------------------ */
/* reading one line                                                   */
/* ------------------------------------------------------------------ */

/* Result of read_line: a malloc'ed line without its newline, or NULL at end
** of input.  *cancelled is set when Ctrl-C threw the line away. */

#ifdef MVM_HAVE_LIBEDIT
static int use_libedit = 0;
static int edit_discard = 0;   /* the line ended by Ctrl-C must be dropped */

/* libedit's character source: a plain read() that turns Ctrl-C into the end
** of the current line (which read_line then discards) */
static int edit_getc(FILE *f) {
  unsigned char c;
  for (;;) {
    ssize_t n = read(fileno(f), &c, 1);
    if (n == 1)
      return c;
    if (n < 0 && errno == EINTR) {
      if (prompt_interrupted) {
        prompt_interrupted = 0;
        edit_discard = 1;
        return '\n';
      }
      continue;
    }
    return EOF;
  }
}
#endif

static char *read_line(const char *prompt, int *cancelled) {
  *cancelled = 0;
#ifdef MVM_HAVE_LIBEDIT
  if (use_libedit) {
    char *line;
    edit_discard = 0;
    prompt_interrupted = 0;
    line = readline(prompt);
    if (edit_discard) {
      free(line);
      *cancelled = 1;
      return NULL;
    }
    return line;
  }
#endif
  {
    /* plain stdio: the line may come in several fgets pieces */
    char buf[MAXLINE];
    size_t len = 0, cap = 0;
    char *line = NULL;
    fputs(prompt, stdout);
    fflush(stdout);
    prompt_interrupted = 0;
    for (;;) {
      if (fgets(buf, sizeof buf, stdin) == NULL) {
        if (ferror(stdin) && errno == EINTR) {
          clearerr(stdin);
          if (prompt_interrupted) {    /* Ctrl-C: drop the line */
            prompt_interrupted = 0;
            fputc('\n', stdout);
            free(line);
            *cancelled = 1;
            return NULL;
          }
          continue;
        }
        if (line != NULL)
          return line;                 /* last line without newline */
        return NULL;
      }
      {
        size_t n = strlen(buf);
        int complete = (n > 0 && buf[n - 1] == '\n');
        if (complete)
          buf[--n] = '\0';
        if (len + n + 1 > cap) {
          char *nl;
          cap = (len + n + 1) * 2;
          nl = (char *)realloc(line, cap);
          if (nl == NULL) {
            free(line);
            return NULL;
          }
          line = nl;
        }
        memcpy(line + len, buf, n + 1);
        len += n;
        if (complete)
          return line;
      }
    }
  }
}

static void save_history(const char *line) {
#ifdef MVM_HAVE_LIBEDIT
  if (use_libedit && line[0] != '\0')
    add_history(line);
#else
  (void)line;
#endif
}

/* ------------------------------------------------------------------ */
/* assembling a chunk                                                 */
/* ------------------------------------------------------------------ */

/* prompt: global _PROMPT/_PROMPT2 when set, else the default */
static const char *get_prompt(lua_State *L, int firstline) {
  const char *p;
  lua_getglobal(L, firstline ? "_PROMPT" : "_PROMPT2");
  p = lua_tostring(L, -1);
  if (p == NULL)
    p = firstline ? PROMPT1 : PROMPT2;
  return p;   /* the string stays on the stack (caller pops it) */
}

/*
** Read a line and push it.  Returns 1 with the line pushed, 0 at end of
** input (nothing pushed), or -1 when Ctrl-C cancelled the input (nothing
** pushed).  A first line "=expr" is taken as "return expr" (Lua 5.1 style).
*/
static int pushline(lua_State *L, int firstline) {
  int cancelled;
  const char *prompt = get_prompt(L, firstline);
  char *line = read_line(prompt, &cancelled);
  lua_pop(L, 1);   /* the prompt */
  if (line == NULL)
    return cancelled ? -1 : 0;
  if (firstline && line[0] == '=')
    lua_pushfstring(L, "return %s", line + 1);
  else
    lua_pushstring(L, line);
  free(line);
  return 1;
}

/* is the error at the top a syntax error at end of input?  (then more input
** could complete the statement) */
static int incomplete(lua_State *L, int status) {
  if (status == LUA_ERRSYNTAX) {
    size_t len;
    const char *msg = lua_tolstring(L, -1, &len);
    static const char eofmark[] = "<eof>";
    size_t ml = sizeof eofmark - 1;
    if (msg != NULL && len >= ml && strcmp(msg + len - ml, eofmark) == 0) {
      lua_pop(L, 1);
      return 1;
    }
  }
  return 0;
}

/* try the line at the top as an expression; on success the compiled chunk
** replaces nothing but is pushed above the line */
static int try_expression(lua_State *L) {
  const char *line = lua_tostring(L, -1);
  const char *retline = lua_pushfstring(L, "return %s;", line);
  int status = luaL_loadbuffer(L, retline, strlen(retline), "=stdin");
  lua_remove(L, -2);   /* the "return" text */
  if (status != LUA_OK)
    lua_pop(L, 1);     /* its error */
  return status;
}

/* compile the line at the top as statements, reading more lines while
** they are incomplete; leaves the chunk (or error) above the text */
static int read_statement(lua_State *L) {
  for (;;) {
    size_t len;
    const char *code = lua_tolstring(L, 1, &len);
    int status = luaL_loadbuffer(L, code, len, "=stdin");
    int more;
    if (!incomplete(L, status))
      return status;
    more = pushline(L, 0);
    if (more <= 0)
      return more < 0 ? -1 : status == LUA_OK ? LUA_OK : LUA_ERRSYNTAX;
    /* join with a newline and try again */
    lua_pushliteral(L, "\n");
    lua_insert(L, -2);
    lua_concat(L, 3);
  }
}

/*
** Read and compile one chunk.  Returns its status with the function (or
** error message) alone on the stack, -1 at end of input, or -2 if Ctrl-C
** cancelled it.
*/
static int loadline(lua_State *L) {
  int status, r;
  lua_settop(L, 0);
  r = pushline(L, 1);
  if (r == 0)
    return -1;
  if (r < 0)
    return -2;
  if ((status = try_expression(L)) != LUA_OK) {
    status = read_statement(L);
    if (status == -1) {         /* cancelled inside a continuation */
      lua_settop(L, 0);
      return -2;
    }
    if (status == LUA_ERRSYNTAX && lua_gettop(L) == 1) {
      /* end of input inside an unfinished statement: report it like lua */
      lua_pushliteral(L, "unexpected end of input");
    }
  }
  save_history(lua_tostring(L, 1));
  lua_remove(L, 1);   /* the text */
  return status;
}

/* print the values on the stack with the global 'print' */
static void print_results(lua_State *L) {
  int n = lua_gettop(L);
  if (n > 0) {
    luaL_checkstack(L, LUA_MINSTACK, "too many results to print");
    lua_getglobal(L, "print");
    lua_insert(L, 1);
    if (lua_pcall(L, n, 0, 0) != LUA_OK)
      cli_message(lua_pushfstring(L, "error calling 'print' (%s)", lua_tostring(L, -1)));
  }
}

void cli_repl(lua_State *L) {
  const char *oldname = cli_progname;
  struct sigaction oldsig;
  int status;
  cli_progname = NULL;   /* errors are printed without the program name */
#ifdef MVM_HAVE_LIBEDIT
  use_libedit = isatty(STDIN_FILENO);
  if (use_libedit) {
    rl_catch_signals = 0;          /* we handle SIGINT ourselves */
    rl_getc_function = edit_getc;
    using_history();
  }
#endif
  catch_prompt_sigint(&oldsig);
  while ((status = loadline(L)) != -1) {
    if (status == -2)
      continue;                    /* Ctrl-C at the prompt */
    if (status == LUA_OK)
      status = cli_docall(L, 0, LUA_MULTRET);
    if (status == LUA_OK)
      print_results(L);
    else
      cli_report(L, status);
  }
  sigaction(SIGINT, &oldsig, NULL);
  lua_settop(L, 0);
  fputc('\n', stdout);
  fflush(stdout);
  cli_progname = oldname;
}
