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
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
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

/*
** Ctrl-C outside a running statement only sets cli_sigint_pending (cli.h).
** While a line is being read it cancels that line; once a line is complete
** and until the statement starts, cli_docall turns it into an interrupt of
** that statement (the user hit Ctrl-C right after Return).  Reading a new
** line starts by clearing it: a Ctrl-C while results were being printed is
** forgotten.
*/
static void on_sigint_prompt(int sig) {
  (void)sig;
  cli_sigint_pending = 1;
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

/* edit_getc reads through its own descriptor of the terminal, opened with
** O_NONBLOCK (see below); -1 until cli_repl opens it */
static int edit_fd = -1;

/*
** libedit's character source: read one byte, turning Ctrl-C into the end
** of the current line (which read_line then discards).
**
** Two races are closed here:
** - SIGINT is blocked except inside pselect(), which unblocks it atomically
**   while waiting: a Ctrl-C that lands while libedit is busy between two
**   characters stays pending until the flag test below has been passed and
**   is delivered inside pselect (EINTR); it cannot slip in between the test
**   and a blocking wait.
** - Ctrl-C also makes the kernel flush the terminal's input queue, possibly
**   just after pselect() reported it readable.  A blocking read() would then
**   sleep, with SIGINT blocked, until the next key.  So the read is
**   non-blocking: EAGAIN goes back to the flag test.  The O_NONBLOCK is on a
**   descriptor of our own: setting it on fd 0 would change the open file
**   description shared with stdout and with the parent shell.
*/
static int edit_getc(FILE *f) {
  int fd = edit_fd >= 0 ? edit_fd : fileno(f), result = EOF;
  sigset_t intr, old;
  sigemptyset(&intr);
  sigaddset(&intr, SIGINT);
  sigprocmask(SIG_BLOCK, &intr, &old);
  for (;;) {
    fd_set rd;
    unsigned char c;
    ssize_t n;
    if (cli_sigint_pending) {
      cli_sigint_pending = 0;
      edit_discard = 1;
      result = '\n';
      break;
    }
    FD_ZERO(&rd);
    FD_SET(fd, &rd);
    if (pselect(fd + 1, &rd, NULL, NULL, NULL, &old) < 0) {
      if (errno == EINTR)
        continue;            /* Ctrl-C (tested above) or another signal */
      break;
    }
    n = read(fd, &c, 1);
    if (n == 1) {
      result = c;
      break;
    }
    if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
      continue;              /* input flushed by Ctrl-C since pselect */
    break;                   /* end of input or a read error */
  }
  sigprocmask(SIG_SETMASK, &old, NULL);
  return result;
}

/*
** Called by readline() before it draws the prompt: switch the terminal to
** libedit's editing mode (no canonical input, no echo) NOW.  Left to itself,
** libedit writes the prompt first and changes the mode only when it reads
** the first character; whatever is typed in between -- right after the
** prompt appeared -- goes through the kernel's canonical line discipline:
** it is echoed twice, and a Ctrl-D there is stored as an end-of-file mark
** that turns into a NUL byte when canonical mode is switched off, so the
** REPL never sees it.  With the mode set first, the prompt on the screen
** means "ready": anything typed after it is read in editing mode.
** readline() restores the terminal mode before it returns.
*/
static int edit_prep_terminal(void) {
  rl_prep_terminal(0);
  return 0;
}
#endif

static char *read_line(const char *prompt, int *cancelled) {
  *cancelled = 0;
#ifdef MVM_HAVE_LIBEDIT
  if (use_libedit) {
    char *line;
    edit_discard = 0;
    cli_sigint_pending = 0;
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
    cli_sigint_pending = 0;
    fputs(prompt, stdout);
    fflush(stdout);
    for (;;) {
      if (fgets(buf, sizeof buf, stdin) == NULL) {
        if (ferror(stdin) && errno == EINTR) {
          clearerr(stdin);
          if (cli_sigint_pending) {    /* Ctrl-C: drop the line */
            cli_sigint_pending = 0;
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
        if (complete) {
          /* fgets cannot close the gap between the flag test and its
          ** read(): a Ctrl-C that fell into it was not seen while the line
          ** was typed and must not interrupt the statement it ends */
          cli_sigint_pending = 0;
          return line;
        }
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
    const char *tty = ttyname(STDIN_FILENO);
    if (edit_fd < 0 && tty != NULL)
      edit_fd = open(tty, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    rl_catch_signals = 0;          /* we handle SIGINT ourselves */
    rl_getc_function = edit_getc;
    rl_pre_input_hook = edit_prep_terminal;
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
#ifdef MVM_HAVE_LIBEDIT
  if (edit_fd >= 0) {
    close(edit_fd);
    edit_fd = -1;
  }
#endif
  lua_settop(L, 0);
  fputc('\n', stdout);
  fflush(stdout);
  cli_progname = oldname;
}
