/*
** cli.h -- pieces shared by the mvm command (cli/mvm.c) and its REPL
** (cli/repl.c).  The command uses only the public API (lua.h, lauxlib.h,
** lualib.h, mvm.h), like any other host would.
*/
#ifndef mvm_cli_h
#define mvm_cli_h

#include <signal.h>

#include "lua.h"

#define CLI_PROGNAME  "mvm"

/* program name used as the prefix of error messages; NULL in the REPL,
** whose errors are printed bare (like lua.c) */
extern const char *cli_progname;

/* print "progname: msg" (or just "msg") on stderr */
void cli_message(const char *msg);
/* print the error at the top of the stack (if 'status' is not OK), pop it;
** returns 'status' */
int cli_report(lua_State *L, int status);
/* call the function below 'narg' arguments with a traceback message
** handler and Ctrl-C turned into a VM interrupt */
int cli_docall(lua_State *L, int narg, int nres);
/* set by the REPL's SIGINT handler (Ctrl-C while no statement runs); a
** request still pending when cli_docall starts interrupts that call */
extern volatile sig_atomic_t cli_sigint_pending;
/* the banner printed by -v and at REPL start */
void cli_print_version(void);

/* the interactive loop (cli/repl.c) */
void cli_repl(lua_State *L);

#endif
