/*
** lex.c -- the scanner of the Lua 5.4 front end, and chunk ids.
**
** GC anchoring: lex_setinput pushes two values that live until the parser
** pops them: the scanner table (every string handed to the parser is stored
** there as a key, so it cannot die during compilation) and a full userdata
** whose payload is the token buffer (userdata live in the non-moving old
** space, so 'buf' stays valid; growing replaces the userdata in its slot).
*/
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lex.h"
#include "compile.h"
#include "do.h"
#include "string.h"
#include "table.h"
#include "vm.h"
#include "../gc/gc.h"

#define LEX_MAXBUF  ((size_t)1 << 30)   /* "lexical element too long" */

/* token spellings, indexed by token - LEX_FIRSTRES */
static const char *const tokname[] = {
  "and", "break", "do", "else", "elseif", "end", "false", "for", "function",
  "goto", "if", "in", "local", "nil", "not", "or", "repeat", "return", "then",
  "true", "until", "while",
  "//", "..", "...", "==", ">=", "<=", "~=", "<<", ">>", "::",
  "<eof>", "<number>", "<integer>", "<name>", "<string>"
};

/* ------------------------------------------------------------------ */
/* chunk ids                                                            */
/* ------------------------------------------------------------------ */

void mvm_chunkid(char *out, const char *source, size_t srclen) {
  const size_t room = LUA_IDSIZE;            /* bytes available, NUL included */
  if (source[0] == '=') {                    /* literal: rest, cut to fit */
    size_t n = srclen - 1;
    if (n > room - 1) n = room - 1;
    memcpy(out, source + 1, n);
    out[n] = '\0';
  }
  else if (source[0] == '@') {               /* file name: keep its tail */
    if (srclen <= room) {
      memcpy(out, source + 1, srclen - 1);
      out[srclen - 1] = '\0';
    }
    else {
      size_t keep = room - 3 - 1;            /* "..." + tail + NUL */
      memcpy(out, "...", 3);
      memcpy(out + 3, source + srclen - keep, keep);
      out[3 + keep] = '\0';
    }
  }
  else {                                     /* [string "first line..."] */
    const char *nl = strchr(source, '\n');
    size_t maxsrc = room - (sizeof("[string \"...\"]") - 1) - 1;
    size_t pos = 0;
    memcpy(out, "[string \"", 9); pos = 9;
    if (srclen < maxsrc && nl == NULL) {
      memcpy(out + pos, source, srclen); pos += srclen;
    }
    else {
      size_t n = (nl != NULL) ? (size_t)(nl - source) : srclen;
      if (n > maxsrc) n = maxsrc;
      memcpy(out + pos, source, n); pos += n;
      memcpy(out + pos, "...", 3); pos += 3;
    }
    memcpy(out + pos, "\"]", 3);
  }
}

/* ------------------------------------------------------------------ */
/* errors                                                               */
/* ------------------------------------------------------------------ */

static void addchar(LexState *ls, int c);

const char *lex_token2str(LexState *ls, int token) {
  if (token < LEX_FIRSTRES) {
    if (isprint(token)) return str_pushfstring(ls->L, "'%c'", token);
    return str_pushfstring(ls->L, "'<\\%d>'", token);
  }
  else {
    const char *s = tokname[token - LEX_FIRSTRES];
    if (token < TK_EOS) return str_pushfstring(ls->L, "'%s'", s);
    return s;
  }
}

static const char *tokentext(LexState *ls, int token) {
  switch (token) {
    case TK_NAME: case TK_STRING: case TK_FLT: case TK_INT:
      addchar(ls, '\0');
      return str_pushfstring(ls->L, "'%s'", ls->buf);
    default:
      return lex_token2str(ls, token);
  }
}

l_noret lex_error(LexState *ls, const char *msg, int token) {
  char id[LUA_IDSIZE];
  mvm_chunkid(id, getstr(ls->source), ls->source->len);
  msg = str_pushfstring(ls->L, "%s:%d: %s", id, ls->linenumber, msg);
  if (token) str_pushfstring(ls->L, "%s near %s", msg, tokentext(ls, token));
  do_throw(ls->L, LUA_ERRSYNTAX);
}

l_noret lex_syntaxerror(LexState *ls, const char *msg) {
  lex_error(ls, msg, ls->t.token);
}

/* ------------------------------------------------------------------ */
/* buffer and strings                                                   */
/* ------------------------------------------------------------------ */

static void growbuf(LexState *ls) {
  lua_State *L = ls->L;
  size_t nsize;
  Udata *u;
  if (ls->bufsize >= LEX_MAXBUF / 2) {
    ls->buflen = 0;                   /* message must not show the element */
    lex_error(ls, "lexical element too long", 0);
  }
  nsize = ls->bufsize * 2;
  u = udata_new(L, nsize, 0);         /* old space: payload never moves */
  memcpy(getudatamem(u), ls->buf, ls->buflen);
  *restorestack(L, ls->bufslot) = v_ref(u);  /* stack slot: no barrier */
  ls->buf = getudatamem(u);
  ls->bufsize = nsize;
}

static void addchar(LexState *ls, int c) {
  if (ls->buflen + 1 > ls->bufsize) growbuf(ls);
  ls->buf[ls->buflen++] = (char)c;
}

TString *lex_newstring(LexState *ls, const char *s, size_t l) {
  lua_State *L = ls->L;
  TString *ts = str_new(L, s, l);      /* may collect: table re-read below */
  Table *t = v_tab(*restorestack(L, ls->tabslot));
  const Value *slot = tab_getstr(t, ts);
  if (isabstkey(slot))
    tab_set(L, t, v_ref(ts), MVM_TRUE);   /* anchor; tab_set never collects */
  return ts;
}

/* ------------------------------------------------------------------ */
/* characters                                                           */
/* ------------------------------------------------------------------ */

#define nextc(ls)      ((ls)->current = zgetc((ls)->z))
#define isnl(ls)       ((ls)->current == '\n' || (ls)->current == '\r')
#define keepnext(ls)   (addchar(ls, (ls)->current), nextc(ls))

static int l_isalpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static int l_isdigit(int c) { return c >= '0' && c <= '9'; }
static int l_isalnum(int c) { return l_isalpha(c) || l_isdigit(c); }
static int l_isxdigit(int c) {
  return l_isdigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
static int l_isspace(int c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
static int hexval(int c) { return l_isdigit(c) ? c - '0' : (c | 0x20) - 'a' + 10; }

/* skip a line break: \n, \r, \n\r or \r\n count as one */
static void newline(LexState *ls) {
  int old = ls->current;
  nextc(ls);
  if (isnl(ls) && ls->current != old) nextc(ls);
  if (++ls->linenumber >= INT32_MAX)
    lex_error(ls, "chunk has too many lines", 0);
}

/* consume current char if it is one of the two in 'set' (keeping it) */
static int accept2(LexState *ls, const char *set) {
  if (ls->current == set[0] || ls->current == set[1]) {
    keepnext(ls);
    return 1;
  }
  return 0;
}

/* ------------------------------------------------------------------ */
/* numerals                                                             */
/* ------------------------------------------------------------------ */

static const char *skipspaces(const char *s) {
  while (l_isspace((unsigned char)*s)) s++;
  return s;
}

/* integer conversion: hex wraps around, decimal overflow fails */
static int str2int(const char *s, int64_t *res) {
  uint64_t a = 0;
  int any = 0, neg = 0;
  s = skipspaces(s);
  if (*s == '-') { s++; neg = 1; }
  else if (*s == '+') s++;
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    for (s += 2; l_isxdigit((unsigned char)*s); s++) {
      a = a * 16 + (uint64_t)hexval((unsigned char)*s);
      any = 1;
    }
  }
  else {
    const uint64_t lim = (uint64_t)INT64_MAX / 10;
    const int limd = (int)((uint64_t)INT64_MAX % 10);
    for (; l_isdigit((unsigned char)*s); s++) {
      int d = *s - '0';
      if (a >= lim && (a > lim || d > limd + neg)) return 0;  /* overflow */
      a = a * 10 + (uint64_t)d;
      any = 1;
    }
  }
  s = skipspaces(s);
  if (!any || *s != '\0') return 0;
  *res = (int64_t)(neg ? 0u - a : a);
  return 1;
}

static int str2flt(const char *s, double *res) {
  char *end;
  if (strpbrk(s, "nN")) return 0;          /* reject 'inf' and 'nan' */
  *res = strtod(s, &end);
  if (end == s) return 0;
  end = (char *)skipspaces(end);
  return *end == '\0';
}

int lex_str2number(const char *s, int64_t *ip, double *dp) {
  if (str2int(s, ip)) return 1;
  if (str2flt(s, dp)) return 2;
  return 0;
}

static int readnumeral(LexState *ls, SemInfo *si) {
  const char *expo = "Ee";
  int first = ls->current;
  int64_t i; double d;
  keepnext(ls);
  if (first == '0' && accept2(ls, "xX")) expo = "Pp";
  for (;;) {
    if (accept2(ls, expo)) accept2(ls, "-+");       /* exponent and sign */
    else if (l_isxdigit(ls->current) || ls->current == '.') keepnext(ls);
    else break;
  }
  if (l_isalpha(ls->current)) keepnext(ls);         /* force an error */
  addchar(ls, '\0');
  switch (lex_str2number(ls->buf, &i, &d)) {
    case 1: si->i = i; return TK_INT;
    case 2: si->r = d; return TK_FLT;
    default: ls->buflen--; lex_error(ls, "malformed number", TK_FLT);
  }
}

/* ------------------------------------------------------------------ */
/* long brackets                                                        */
/* ------------------------------------------------------------------ */

/* At '[' or ']': read '=' signs.  Returns level+2 for a well-formed bracket,
** 1 for a lone bracket, 0 for '[=' without a second '['. */
static size_t bracketlevel(LexState *ls) {
  size_t n = 0;
  int b = ls->current;
  keepnext(ls);
  while (ls->current == '=') { keepnext(ls); n++; }
  if (ls->current == b) return n + 2;
  return n == 0 ? 1 : 0;
}

static void readlongstring(LexState *ls, SemInfo *si, size_t sep) {
  int line = ls->linenumber;
  keepnext(ls);                              /* second '[' */
  if (isnl(ls)) newline(ls);                 /* skip first newline */
  for (;;) {
    switch (ls->current) {
      case EOZ:
        lex_error(ls, str_pushfstring(ls->L, "unfinished long %s (starting at line %d)",
                                      si ? "string" : "comment", line), TK_EOS);
      case ']':
        if (bracketlevel(ls) == sep) {
          keepnext(ls);                      /* second ']' */
          goto done;
        }
        break;
      case '\n': case '\r':
        addchar(ls, '\n');
        newline(ls);
        if (!si) ls->buflen = 0;             /* comments: don't accumulate */
        break;
      default:
        if (si) keepnext(ls);
        else nextc(ls);
    }
  }
done:
  if (si)
    si->ts = lex_newstring(ls, ls->buf + sep, ls->buflen - 2 * sep);
}

/* ------------------------------------------------------------------ */
/* short strings                                                        */
/* ------------------------------------------------------------------ */

static void esccheck(LexState *ls, int ok, const char *msg) {
  if (!ok) {
    if (ls->current != EOZ) keepnext(ls);    /* show the offending char */
    lex_error(ls, msg, TK_STRING);
  }
}

static int gethex(LexState *ls) {
  keepnext(ls);
  esccheck(ls, l_isxdigit(ls->current), "hexadecimal digit expected");
  return hexval(ls->current);
}

static int readhexesc(LexState *ls) {
  int r = gethex(ls);
  r = r * 16 + gethex(ls);
  ls->buflen -= 2;                           /* drop 'x' and first digit */
  return r;
}

static unsigned long readutf8esc(LexState *ls) {
  unsigned long r;
  int kept = 4;                              /* '\', 'u', '{', first digit */
  keepnext(ls);                              /* 'u' */
  esccheck(ls, ls->current == '{', "missing '{'");
  r = (unsigned long)gethex(ls);
  for (;;) {
    keepnext(ls);
    if (!l_isxdigit(ls->current)) break;
    kept++;
    esccheck(ls, r <= (0x7FFFFFFFu >> 4), "UTF-8 value too large");
    r = r * 16 + (unsigned long)hexval(ls->current);
  }
  esccheck(ls, ls->current == '}', "missing '}'");
  nextc(ls);
  ls->buflen -= kept;
  return r;
}

/* append the (extended, up to 6 bytes) UTF-8 encoding of x */
static void addutf8(LexState *ls, unsigned long x) {
  char tmp[8];
  int n = 1;                                 /* bytes, filled from the end */
  if (x < 0x80) { addchar(ls, (int)x); return; }
  {
    unsigned int mfb = 0x3f;                 /* max that fits in first byte */
    do {
      tmp[8 - (n++)] = (char)(0x80 | (x & 0x3f));
      x >>= 6;
      mfb >>= 1;
    } while (x > mfb);
    tmp[8 - n] = (char)((~mfb << 1) | x);
  }
  for (int i = 8 - n; i < 8; i++) addchar(ls, (unsigned char)tmp[i]);
}

static int readdecesc(LexState *ls) {
  int r = 0, i;
  for (i = 0; i < 3 && l_isdigit(ls->current); i++) {
    r = r * 10 + ls->current - '0';
    keepnext(ls);
  }
  esccheck(ls, r <= 255, "decimal escape too large");
  ls->buflen -= i;
  return r;
}

static void readstring(LexState *ls, int delim, SemInfo *si) {
  keepnext(ls);                              /* opening quote */
  while (ls->current != delim) {
    switch (ls->current) {
      case EOZ:
        lex_error(ls, "unfinished string", TK_EOS);
      case '\n': case '\r':
        lex_error(ls, "unfinished string", TK_STRING);
      case '\\': {
        int c;
        keepnext(ls);                        /* keep '\' for messages */
        switch (ls->current) {
          case 'a': c = '\a'; goto simple;
          case 'b': c = '\b'; goto simple;
          case 'f': c = '\f'; goto simple;
          case 'n': c = '\n'; goto simple;
          case 'r': c = '\r'; goto simple;
          case 't': c = '\t'; goto simple;
          case 'v': c = '\v'; goto simple;
          case 'x': c = readhexesc(ls); goto simple;
          case 'u':
            addutf8(ls, readutf8esc(ls));
            continue;                        /* (the '\' was dropped) */
          case '\n': case '\r':
            newline(ls);
            c = '\n';
            goto store;
          case '\\': case '"': case '\'':
            c = ls->current; goto simple;
          case EOZ:
            continue;                        /* error on next iteration */
          case 'z': {
            ls->buflen--;                    /* drop '\' */
            nextc(ls);
            while (l_isspace(ls->current)) {
              if (isnl(ls)) newline(ls);
              else nextc(ls);
            }
            continue;
          }
          default:
            esccheck(ls, l_isdigit(ls->current), "invalid escape sequence");
            c = readdecesc(ls);
            goto store;
        }
      simple:
        nextc(ls);
      store:
        ls->buflen--;                        /* drop '\' */
        addchar(ls, c);
        break;
      }
      default:
        keepnext(ls);
    }
  }
  keepnext(ls);                              /* closing quote */
  si->ts = lex_newstring(ls, ls->buf + 1, ls->buflen - 2);
}

/* ------------------------------------------------------------------ */
/* reserved words                                                       */
/* ------------------------------------------------------------------ */

static int reservedword(const char *s, size_t l) {
  if (l < 2 || l > 8 || s[0] < 'a' || s[0] > 'w') return 0;
  for (int i = 0; i < LEX_NRESERVED; i++) {
    const char *w = tokname[i];
    if (w[0] == s[0] && strlen(w) == l && memcmp(w, s, l) == 0)
      return LEX_FIRSTRES + i;
  }
  return 0;
}

/* ------------------------------------------------------------------ */
/* the scanner proper                                                   */
/* ------------------------------------------------------------------ */

static int scan(LexState *ls, SemInfo *si) {
  ls->buflen = 0;
  for (;;) {
    switch (ls->current) {
      case '\n': case '\r':
        newline(ls);
        break;
      case ' ': case '\f': case '\t': case '\v':
        nextc(ls);
        break;
      case '-':
        nextc(ls);
        if (ls->current != '-') return '-';
        nextc(ls);                            /* a comment */
        if (ls->current == '[') {
          size_t sep = bracketlevel(ls);
          ls->buflen = 0;
          if (sep >= 2) {
            readlongstring(ls, NULL, sep);
            ls->buflen = 0;
            break;
          }
        }
        while (!isnl(ls) && ls->current != EOZ) nextc(ls);
        break;
      case '[': {
        size_t sep = bracketlevel(ls);
        if (sep >= 2) {
          readlongstring(ls, si, sep);
          return TK_STRING;
        }
        if (sep == 0)
          lex_error(ls, "invalid long string delimiter", TK_STRING);
        return '[';
      }
      case '=':
        nextc(ls);
        if (ls->current == '=') { nextc(ls); return TK_EQ; }
        return '=';
      case '<':
        nextc(ls);
        if (ls->current == '=') { nextc(ls); return TK_LE; }
        if (ls->current == '<') { nextc(ls); return TK_SHL; }
        return '<';
      case '>':
        nextc(ls);
        if (ls->current == '=') { nextc(ls); return TK_GE; }
        if (ls->current == '>') { nextc(ls); return TK_SHR; }
        return '>';
      case '/':
        nextc(ls);
        if (ls->current == '/') { nextc(ls); return TK_IDIV; }
        return '/';
      case '~':
        nextc(ls);
        if (ls->current == '=') { nextc(ls); return TK_NE; }
        return '~';
      case ':':
        nextc(ls);
        if (ls->current == ':') { nextc(ls); return TK_DBCOLON; }
        return ':';
      case '"': case '\'':
        readstring(ls, ls->current, si);
        return TK_STRING;
      case '.':
        keepnext(ls);
        if (ls->current == '.') {
          keepnext(ls);
          if (ls->current == '.') { keepnext(ls); return TK_DOTS; }
          return TK_CONCAT;
        }
        if (!l_isdigit(ls->current)) return '.';
        return readnumeral(ls, si);
      case '0': case '1': case '2': case '3': case '4':
      case '5': case '6': case '7': case '8': case '9':
        return readnumeral(ls, si);
      case EOZ:
        return TK_EOS;
      default:
        if (l_isalpha(ls->current)) {
          int r;
          do { keepnext(ls); } while (l_isalnum(ls->current));
          r = reservedword(ls->buf, ls->buflen);
          if (r) return r;
          si->ts = lex_newstring(ls, ls->buf, ls->buflen);
          return TK_NAME;
        }
        else {
          int c = ls->current;
          nextc(ls);
          return c;
        }
    }
  }
}

void lex_next(LexState *ls) {
  ls->lastline = ls->linenumber;
  if (ls->lookahead.token != TK_EOS) {
    ls->t = ls->lookahead;
    ls->lookahead.token = TK_EOS;
  }
  else
    ls->t.token = scan(ls, &ls->t.seminfo);
}

int lex_lookahead(LexState *ls) {
  ls->lookahead.token = scan(ls, &ls->lookahead.seminfo);
  return ls->lookahead.token;
}

void lex_setinput(lua_State *L, LexState *ls, ZIO *z, TString *source,
                  int firstchar) {
  Udata *u;
  Table *t;
  memset(ls, 0, sizeof *ls);
  ls->L = L;
  ls->z = z;
  ls->source = source;
  ls->current = firstchar;
  ls->linenumber = 1;
  ls->lastline = 1;
  ls->t.token = 0;
  ls->lookahead.token = TK_EOS;
  checkstack(L, 2);
  t = tab_new(L);
  *L->top = v_ref(t);                        /* stack slot: no barrier */
  ls->tabslot = savestack(L, L->top);
  L->top++;
  u = udata_new(L, 64, 0);
  *L->top = v_ref(u);
  ls->bufslot = savestack(L, L->top);
  L->top++;
  ls->buf = getudatamem(u);
  ls->bufsize = 64;
  /* the source must stay alive too (the protos also refer to it) */
  lex_newstring(ls, getstr(source), source->len);
  ls->envn = lex_newstring(ls, "_ENV", 4);
}
