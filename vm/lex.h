/*
** lex.h -- the scanner of the Lua 5.4 front end (vm/lex.c).
**
** Tokens are single characters (their own code) or the values below.  The
** scanner owns a few GC anchors on the Lua stack (see LexState): every string
** it creates is stored as a key of the "scanner table" so that it stays alive
** for the whole compilation; numerals are kept as raw int64/double (never as
** boxed Values, which could move or die).
*/
#ifndef mvm_lex_h
#define mvm_lex_h

#include "state.h"
#include "zio.h"

#define LEX_FIRSTRES 257

enum LexToken {
  /* reserved words (keep in alphabetical order: lex.c's table follows it) */
  TK_AND = LEX_FIRSTRES, TK_BREAK, TK_DO, TK_ELSE, TK_ELSEIF, TK_END,
  TK_FALSE, TK_FOR, TK_FUNCTION, TK_GOTO, TK_IF, TK_IN, TK_LOCAL, TK_NIL,
  TK_NOT, TK_OR, TK_REPEAT, TK_RETURN, TK_THEN, TK_TRUE, TK_UNTIL, TK_WHILE,
  /* multi-character symbols */
  TK_IDIV, TK_CONCAT, TK_DOTS, TK_EQ, TK_GE, TK_LE, TK_NE, TK_SHL, TK_SHR,
  TK_DBCOLON,
  /* tokens with a value */
  TK_EOS, TK_FLT, TK_INT, TK_NAME, TK_STRING
};

#define LEX_NRESERVED ((int)(TK_WHILE - LEX_FIRSTRES + 1))

typedef union {
  double r;
  int64_t i;
  TString *ts;
} SemInfo;

typedef struct Token {
  int token;
  SemInfo seminfo;
} Token;

struct FuncState;
struct Dyndata;

typedef struct LexState {
  int current;            /* current character (or EOZ) */
  int linenumber;         /* line of 'current' */
  int lastline;           /* line of the last consumed token */
  Token t;                /* current token */
  Token lookahead;        /* TK_EOS when there is none */
  struct FuncState *fs;   /* function being compiled */
  lua_State *L;
  ZIO *z;
  /* token buffer: payload of a full userdata anchored on the stack (old
  ** space, never moves); grown by replacing the userdata */
  char *buf;
  size_t buflen, bufsize;
  ptrdiff_t bufslot;      /* savestack() of the buffer's userdata */
  ptrdiff_t tabslot;      /* savestack() of the scanner table */
  struct Dyndata *dyd;    /* parser's dynamic structures */
  TString *source;        /* chunk name */
  TString *envn;          /* "_ENV" */
  int depth;              /* nesting of recursive syntactic constructs */
} LexState;

/* Set up the scanner.  Pushes the scanner table and the token buffer on the
** stack (2 slots).  MAY ALLOCATE. */
LUAI_FUNC void lex_setinput(lua_State *L, LexState *ls, ZIO *z, TString *source,
                            int firstchar);
/* create (and anchor) a string for the parser. MAY ALLOCATE */
LUAI_FUNC TString *lex_newstring(LexState *ls, const char *s, size_t l);
LUAI_FUNC void lex_next(LexState *ls);
LUAI_FUNC int lex_lookahead(LexState *ls);
/* "source:line: msg near 'token'" (token 0: no "near" part); throws LUA_ERRSYNTAX */
LUAI_FUNC l_noret lex_error(LexState *ls, const char *msg, int token);
LUAI_FUNC l_noret lex_syntaxerror(LexState *ls, const char *msg);
/* printable form of a token (pushed on the stack as a string) */
LUAI_FUNC const char *lex_token2str(LexState *ls, int token);
/* numeral text -> raw number, Lua 5.4 rules.  Returns 1 int, 2 float, 0 error */
LUAI_FUNC int lex_str2number(const char *s, int64_t *ip, double *dp);

#endif
