/*
** ffi_cdecl.c -- the C declaration parser behind ffi.cdef and type strings.
**
** The source is first split into a token array (kept in a userdata, so an
** error raised half-way frees it), then parsed by recursive descent.  C's
** inside-out declarators are handled by parsing suffixes ('[n]', '(params)')
** after a parenthesised inner declarator first and then re-entering the
** inner declarator with the derived type: "int (*f[2])(void)" becomes
** array of 2 of pointer to function.  Errors read like LuaJIT's:
** "<what> expected near '<token>'".
*/
#include <ctype.h>
#include <stdio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ffi_int.h"

enum { TK_EOF, TK_ID, TK_NUM, TK_STR, TK_OP };

typedef struct Tok {
  int kind;
  const char *s;     /* points into the source string (kept on the stack) */
  int len;
  int64_t num;
} Tok;

typedef struct P {
  lua_State *L;
  FFIState *S;
  Tok *t;
  int n, pos;
  int typestr;       /* parsing a type string: no implicit tags */
} P;

typedef struct Spec {
  int type;
  int istypedef, isextern, isstatic;
} Spec;

/* ---------------------------------------------------------------- lexer */

static const char *const ops2[] = {"<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "->", NULL};

static void lex(lua_State *L, P *p, const char *src) {
  size_t len = strlen(src), cap = len + 2;   /* never more tokens than chars+1 */
  p->t = lua_newuserdatauv(L, sizeof(Tok) * cap, 0);
  p->n = 0;
  const char *s = src;
  for (;;) {
    while (isspace((unsigned char)*s)) s++;
    if (s[0] == '/' && s[1] == '*') {
      const char *e = strstr(s + 2, "*/");
      s = e ? e + 2 : s + strlen(s);
      continue;
    }
    if ((s[0] == '/' && s[1] == '/') || s[0] == '#') {   /* comment, preprocessor line */
      while (*s && *s != '\n') s++;
      continue;
    }
    Tok *t = &p->t[p->n++];
    t->s = s;
    t->num = 0;
    if (*s == '\0') { t->kind = TK_EOF; t->len = 0; break; }
    if (isalpha((unsigned char)*s) || *s == '_' || *s == '$') {
      while (isalnum((unsigned char)*s) || *s == '_' || *s == '$') s++;
      t->kind = TK_ID;
    } else if (isdigit((unsigned char)*s)) {
      char *end;
      errno = 0;
      t->num = (int64_t)strtoull(s, &end, 0);
      s = end;
      while (isalnum((unsigned char)*s) || *s == '.') s++;   /* suffixes */
      t->kind = TK_NUM;
    } else if (*s == '"') {
      for (s++; *s && *s != '"'; s++) if (*s == '\\' && s[1]) s++;
      if (*s) s++;
      t->kind = TK_STR;
    } else if (*s == '\'') {
      s++;
      if (*s == '\\') {
        s++;
        switch (*s) {
          case 'n': t->num = '\n'; break;
          case 't': t->num = '\t'; break;
          case 'r': t->num = '\r'; break;
          case '0': t->num = 0; break;
          default: t->num = (unsigned char)*s;
        }
      } else t->num = (unsigned char)*s;
      if (*s) s++;
      if (*s == '\'') s++;
      t->kind = TK_NUM;
    } else if (strncmp(s, "...", 3) == 0) {
      s += 3;
      t->kind = TK_OP;
    } else {
      t->kind = TK_OP;
      int two = 0;
      for (int i = 0; ops2[i]; i++)
        if (s[0] == ops2[i][0] && s[1] == ops2[i][1]) two = 1;
      s += two ? 2 : 1;
    }
    t->len = (int)(s - t->s);
  }
}

static Tok *cur(P *p) { return &p->t[p->pos]; }
static Tok *peekn(P *p, int k) {
  int i = p->pos + k;
  return &p->t[i < p->n ? i : p->n - 1];
}
static int is(Tok *t, const char *s) {
  return (int)strlen(s) == t->len && memcmp(t->s, s, t->len) == 0;
}
static int test(P *p, const char *s) {
  if (cur(p)->kind != TK_EOF && cur(p)->kind != TK_STR && is(cur(p), s)) { p->pos++; return 1; }
  return 0;
}

static void perror_near(P *p, const char *what) {
  Tok *t = cur(p);
  if (t->kind == TK_EOF)
    luaL_error(p->L, "%s near '<eof>'", what);
  char tok[48];
  snprintf(tok, sizeof tok, "%.*s", t->len > 40 ? 40 : t->len, t->s);
  luaL_error(p->L, "%s near '%s'", what, tok);
}

static void expect(P *p, const char *s) {
  if (!test(p, s)) {
    char msg[32];
    snprintf(msg, sizeof msg, "'%s' expected", s);
    perror_near(p, msg);
  }
}

/* the current identifier as a C string, in a stack buffer of the caller */
static void tokname(Tok *t, char *buf, size_t size) {
  size_t n = (size_t)t->len < size - 1 ? (size_t)t->len : size - 1;
  memcpy(buf, t->s, n);
  buf[n] = '\0';
}

static void skip_balanced(P *p) {   /* at '(' or '[': skip to after the match */
  int depth = 0;
  do {
    Tok *t = cur(p);
    if (t->kind == TK_EOF) perror_near(p, "')' expected");
    if (t->kind == TK_OP && (is(t, "(") || is(t, "["))) depth++;
    else if (t->kind == TK_OP && (is(t, ")") || is(t, "]"))) depth--;
    p->pos++;
  } while (depth > 0);
}

/* __attribute__((...)), __asm__("..."), __declspec(...): ignored */
static int skip_attr(P *p) {
  Tok *t = cur(p);
  if (t->kind == TK_ID && (is(t, "__attribute__") || is(t, "__attribute") ||
      is(t, "__asm__") || is(t, "__asm") || is(t, "asm") || is(t, "__declspec"))) {
    p->pos++;
    if (cur(p)->kind == TK_OP && is(cur(p), "(")) skip_balanced(p);
    return 1;
  }
  return 0;
}

/* ---------------------------------------------------------------- constants */

static int parse_specs(P *p, Spec *sp, int required);
static int parse_declarator(P *p, int base, char *name, size_t namesize);
static int64_t expr(P *p, int prec);

static int iskeyword(Tok *t) {
  static const char *const kw[] = {"void", "bool", "_Bool", "char", "short", "int", "long",
    "float", "double", "signed", "__signed__", "unsigned", "struct", "union", "enum",
    "const", "volatile", "__const", "__volatile__", NULL};
  if (t->kind != TK_ID) return 0;
  for (int i = 0; kw[i]; i++) if (is(t, kw[i])) return 1;
  return 0;
}

static int istypename(P *p, Tok *t) {
  if (t->kind != TK_ID) return 0;
  if (iskeyword(t)) return 1;
  char buf[128];
  tokname(t, buf, sizeof buf);
  CName *n = name_find(p->S, buf);
  return n != NULL && n->kind == N_TYPEDEF;
}

static int parse_typename(P *p) {   /* specifiers + abstract declarator */
  Spec sp;
  parse_specs(p, &sp, 1);
  return parse_declarator(p, sp.type, NULL, 0);
}

static int64_t primary(P *p) {
  Tok *t = cur(p);
  if (t->kind == TK_NUM) { p->pos++; return t->num; }
  if (t->kind == TK_OP) {
    if (test(p, "(")) {
      int64_t v = expr(p, 0);
      expect(p, ")");
      return v;
    }
    if (test(p, "-")) return -primary(p);
    if (test(p, "+")) return primary(p);
    if (test(p, "~")) return ~primary(p);
    if (test(p, "!")) return !primary(p);
  }
  if (t->kind == TK_ID) {
    if (is(t, "sizeof") || is(t, "__alignof__") || is(t, "alignof") || is(t, "_Alignof")) {
      int align = !is(t, "sizeof");
      p->pos++;
      expect(p, "(");
      int id = parse_typename(p);
      expect(p, ")");
      CType *ct = ctype(p->S, id);
      return (int64_t)(align ? ct->align : ct->size);
    }
    char buf[128];
    tokname(t, buf, sizeof buf);
    CName *n = name_find(p->S, buf);
    if (n != NULL && n->kind == N_CONST) { p->pos++; return n->value; }
  }
  perror_near(p, "constant expression expected");
  return 0;
}

static int binprec(Tok *t) {
  static const struct { const char *op; int prec; } tab[] = {
    {"||", 1}, {"&&", 2}, {"|", 3}, {"^", 4}, {"&", 5}, {"==", 6}, {"!=", 6},
    {"<", 7}, {">", 7}, {"<=", 7}, {">=", 7}, {"<<", 8}, {">>", 8},
    {"+", 9}, {"-", 9}, {"*", 10}, {"/", 10}, {"%", 10}, {NULL, 0}};
  if (t->kind != TK_OP) return 0;
  for (int i = 0; tab[i].op; i++) if (is(t, tab[i].op)) return tab[i].prec;
  return 0;
}

/* precedence climbing over C's integer operators */
static int64_t expr(P *p, int prec) {
  int64_t a = primary(p);
  for (;;) {
    Tok *t = cur(p);
    int bp = binprec(t);
    if (bp <= prec) break;
    p->pos++;
    int64_t b = expr(p, bp);
    char op0 = t->s[0], op1 = t->len > 1 ? t->s[1] : 0;
    switch (op0) {
      case '|': a = op1 ? (a || b) : (a | b); break;
      case '&': a = op1 ? (a && b) : (a & b); break;
      case '^': a ^= b; break;
      case '=': a = a == b; break;
      case '!': a = a != b; break;
      case '<': a = op1 == '<' ? (int64_t)((uint64_t)a << (b & 63)) : op1 ? a <= b : a < b; break;
      case '>': a = op1 == '>' ? a >> (b & 63) : op1 ? a >= b : a > b; break;
      case '+': a = (int64_t)((uint64_t)a + (uint64_t)b); break;
      case '-': a = (int64_t)((uint64_t)a - (uint64_t)b); break;
      case '*': a = (int64_t)((uint64_t)a * (uint64_t)b); break;
      case '/': case '%':
        if (b == 0) luaL_error(p->L, "division by zero in constant expression");
        a = op0 == '/' ? a / b : a % b;
        break;
    }
  }
  return a;
}

/* ---------------------------------------------------------------- aggregates */

static void add_field(FFIState *S, int id, const char *name, int type, int bitwidth) {
  CType *ct = ctype(S, id);
  CField *nf = realloc(ct->fields, sizeof(CField) * (ct->nfield + 1));
  if (nf == NULL) abort();
  ct->fields = nf;
  CField *f = &nf[ct->nfield++];
  memset(f, 0, sizeof *f);
  if (name != NULL && *name) {
    f->name = malloc(strlen(name) + 1);
    if (f->name == NULL) abort();
    strcpy(f->name, name);
  }
  f->type = type;
  f->bitwidth = bitwidth;
}

/* the tag's type: an existing one, or a new incomplete one */
static int tag_type(P *p, int kind, const char *name, int defining) {
  char key[160];
  const char *kw = kind == CT_STRUCT ? "struct" : kind == CT_UNION ? "union" : "enum";
  snprintf(key, sizeof key, "%s %s", kw, name);
  CName *n = name_find(p->S, key);
  if (n != NULL) {
    CType *ct = ctype(p->S, n->type);
    if (defining && (ct->flags & CTF_COMPLETE))
      luaL_error(p->L, "attempt to redefine '%s'", name);
    return n->type;
  }
  if (!defining && p->typestr)
    luaL_error(p->L, "undeclared or implicit tag '%s'", name);
  int id = ct_new(p->S, kind);
  CType *ct = ctype(p->S, id);
  ct->name = malloc(strlen(name) + 1);
  if (ct->name == NULL) abort();
  strcpy(ct->name, name);
  if (kind == CT_ENUM) { ct->size = ct->align = 4; ct->base = T_INT; }
  name_set(p->S, key, N_TAG, id, 0);
  return id;
}

static int parse_struct(P *p, int kind) {
  char name[128] = "";
  while (skip_attr(p)) {}
  if (cur(p)->kind == TK_ID) { tokname(cur(p), name, sizeof name); p->pos++; }
  while (skip_attr(p)) {}
  if (!(cur(p)->kind == TK_OP && is(cur(p), "{"))) {
    if (!*name) perror_near(p, "'<identifier>' expected");
    return tag_type(p, kind, name, 0);
  }
  p->pos++;
  int id = *name ? tag_type(p, kind, name, 1) : ct_new(p->S, kind);
  CType *ct = ctype(p->S, id);
  if (ct->nfield) {   /* a previous definition failed half-way: start over */
    for (int i = 0; i < ct->nfield; i++) free(ct->fields[i].name);
    ct->nfield = 0;
  }
  while (!test(p, "}")) {
    Spec sp;
    parse_specs(p, &sp, 1);
    if (test(p, ";")) {   /* anonymous struct/union member */
      int k = ctype(p->S, sp.type)->kind;
      if (k == CT_STRUCT || k == CT_UNION) add_field(p->S, id, NULL, sp.type, -1);
      continue;
    }
    do {
      char fname[128] = "";
      int ft = sp.type;
      if (!(cur(p)->kind == TK_OP && is(cur(p), ":")))
        ft = parse_declarator(p, sp.type, fname, sizeof fname);
      int width = -1;
      if (test(p, ":")) {
        int64_t w = expr(p, 0);
        CType *b = ctype(p->S, ft);
        if (w < 0 || (b->kind != CT_INT && b->kind != CT_BOOL && b->kind != CT_ENUM) ||
            (size_t)w > b->size * 8)
          luaL_error(p->L, "invalid bit field '%s'", fname);
        width = (int)w;
      } else if (!*fname) {
        perror_near(p, "'<identifier>' expected");
      }
      CType *f = ctype(p->S, ft);
      if (!(f->flags & CTF_COMPLETE) && !(f->kind == CT_ARRAY && (f->flags & CTF_FLEX)))
        luaL_error(p->L, "incomplete type for field '%s'", fname);
      while (skip_attr(p)) {}
      add_field(p->S, id, fname, ft, width);
    } while (test(p, ","));
    expect(p, ";");
  }
  while (skip_attr(p)) {}
  ct_layout(p->S, id);
  return id;
}

static int parse_enum(P *p) {
  char name[128] = "";
  while (skip_attr(p)) {}
  if (cur(p)->kind == TK_ID) { tokname(cur(p), name, sizeof name); p->pos++; }
  if (!(cur(p)->kind == TK_OP && is(cur(p), "{"))) {
    if (!*name) perror_near(p, "'<identifier>' expected");
    return tag_type(p, CT_ENUM, name, 0);
  }
  p->pos++;
  int id;
  if (*name) id = tag_type(p, CT_ENUM, name, 1);
  else {
    id = ct_new(p->S, CT_ENUM);
    ctype(p->S, id)->size = ctype(p->S, id)->align = 4;
    ctype(p->S, id)->base = T_INT;
  }
  int64_t v = 0;
  int isunsigned = 0;
  while (!test(p, "}")) {
    if (cur(p)->kind != TK_ID) perror_near(p, "'<identifier>' expected");
    char cname[128];
    tokname(cur(p), cname, sizeof cname);
    p->pos++;
    if (test(p, "=")) v = expr(p, 0);
    if (v > 0x7fffffff) isunsigned = 1;
    name_set(p->S, cname, N_CONST, id, v);
    v++;
    if (!test(p, ",")) { expect(p, "}"); break; }
  }
  CType *ct = ctype(p->S, id);
  ct->flags |= CTF_COMPLETE | (isunsigned ? CTF_UNSIGNED : 0);
  ct->base = isunsigned ? T_UINT : T_INT;
  return id;
}

/* ---------------------------------------------------------------- specifiers */

static int parse_specs(P *p, Spec *sp, int required) {
  int type = 0, isconst = 0, nlong = 0, nshort = 0, nsigned = 0, nunsigned = 0;
  int nint = 0, nchar = 0, nvoid = 0, nbool = 0, nfloat = 0, ndouble = 0, any = 0;
  memset(sp, 0, sizeof *sp);
  for (;;) {
    Tok *t = cur(p);
    if (skip_attr(p)) { any = 1; continue; }
    if (t->kind != TK_ID) break;
#define KW(s) is(t, s)
    if (KW("const") || KW("__const") || KW("__const__")) isconst = 1;
    else if (KW("volatile") || KW("__volatile__") || KW("__volatile") || KW("restrict") ||
             KW("__restrict") || KW("__restrict__") || KW("inline") || KW("__inline") ||
             KW("__inline__") || KW("__extension__") || KW("register") || KW("auto") ||
             KW("_Noreturn") || KW("__cdecl")) {}
    else if (KW("typedef")) sp->istypedef = 1;
    else if (KW("extern")) sp->isextern = 1;
    else if (KW("static")) sp->isstatic = 1;
    else if (KW("void")) nvoid++;
    else if (KW("_Bool") || KW("bool")) nbool++;
    else if (KW("char")) nchar++;
    else if (KW("short")) nshort++;
    else if (KW("int")) nint++;
    else if (KW("long")) nlong++;
    else if (KW("float")) nfloat++;
    else if (KW("double")) ndouble++;
    else if (KW("signed") || KW("__signed__") || KW("__signed")) nsigned++;
    else if (KW("unsigned")) nunsigned++;
    else if (KW("struct") || KW("union") || KW("enum")) {
      if (type) perror_near(p, "invalid type specifier");
      int k = KW("struct") ? CT_STRUCT : KW("union") ? CT_UNION : CT_ENUM;
      p->pos++;
      type = k == CT_ENUM ? parse_enum(p) : parse_struct(p, k);
      any = 1;
      continue;
    } else {
      int basic = nvoid + nbool + nchar + nshort + nint + nlong + nfloat + ndouble +
                  nsigned + nunsigned;
      if (type || basic) break;   /* an identifier after a type: the declarator */
      char buf[128];
      tokname(t, buf, sizeof buf);
      CName *n = name_find(p->S, buf);
      if (n == NULL || n->kind != N_TYPEDEF) break;
      type = n->type;
    }
#undef KW
    any = 1;
    p->pos++;
  }
  int basic = nvoid + nbool + nchar + nshort + nint + nlong + nfloat + ndouble +
              nsigned + nunsigned;
  if ((type && basic) || nvoid + nbool + nchar + nfloat + ndouble > 1 || nshort > 1 ||
      nint > 1 || nlong > 2 || (nshort && nlong) ||
      ((nshort || nlong) && (nvoid || nbool || nchar || nfloat)) ||
      ((nsigned || nunsigned) && (nvoid || nbool || nfloat || ndouble)) ||
      (nint && (nvoid || nbool || nchar || nfloat || ndouble)))
    perror_near(p, "invalid type specifier");
  if (!type) {
    int u = nunsigned > 0;
    if (nunsigned && nsigned) perror_near(p, "invalid type specifier");
    if (nvoid) type = T_VOID;
    else if (nbool) type = T_BOOL;
    else if (nfloat) type = T_FLOAT;
    else if (ndouble) type = nlong ? T_LDOUBLE : T_DOUBLE;
    else if (nchar) type = u ? T_UCHAR : nsigned ? T_SCHAR : T_CHAR;
    else if (nshort) type = u ? T_USHORT : T_SHORT;
    else if (nlong >= 2) type = u ? T_ULLONG : T_LLONG;
    else if (nlong == 1) type = u ? T_ULONG : T_LONG;
    else if (nint || nsigned || nunsigned) type = u ? T_UINT : T_INT;
  }
  if (!type) {
    if (required || any) perror_near(p, "declaration specifier expected");
    return 0;
  }
  if (isconst) type = ct_const(p->S, type);
  sp->type = type;
  return 1;
}

/* ---------------------------------------------------------------- declarators */

static int parse_params(P *p, int ret) {   /* after '(' */
  int id = ct_new(p->S, CT_FUNC);
  CType *ct = ctype(p->S, id);
  ct->base = ret;
  if (test(p, ")")) return id;
  if (cur(p)->kind == TK_ID && is(cur(p), "void") &&
      peekn(p, 1)->kind == TK_OP && is(peekn(p, 1), ")")) {
    p->pos += 2;
    return id;
  }
  for (;;) {
    if (test(p, "...")) { ctype(p->S, id)->flags |= CTF_VARARG; expect(p, ")"); break; }
    Spec sp;
    parse_specs(p, &sp, 1);
    char pname[128] = "";
    int t = parse_declarator(p, sp.type, pname, sizeof pname);
    CType *pt = ctype(p->S, t);
    if (pt->kind == CT_ARRAY) t = ct_ptr(p->S, pt->base);      /* decay */
    else if (pt->kind == CT_FUNC) t = ct_ptr(p->S, t);
    else if (pt->kind == CT_VOID) perror_near(p, "invalid parameter type");
    add_field(p->S, id, pname, t, -1);
    if (test(p, ")")) break;
    expect(p, ",");
  }
  return id;
}

static int parse_suffixes(P *p, int base) {
  if (test(p, "[")) {
    int flags = 0;
    size_t n = 0;
    if (test(p, "?")) flags = CTF_VLA;
    else if (cur(p)->kind == TK_OP && is(cur(p), "]")) flags = CTF_FLEX;
    else {
      int64_t v = expr(p, 0);
      if (v < 0) luaL_error(p->L, "negative array size");
      n = (size_t)v;
    }
    expect(p, "]");
    int elem = parse_suffixes(p, base);
    CType *e = ctype(p->S, elem);
    if (e->kind == CT_FUNC || e->kind == CT_VOID || !(e->flags & CTF_COMPLETE))
      perror_near(p, "invalid array element type");
    return ct_array(p->S, elem, n, flags);
  }
  if (test(p, "(")) {
    int f = parse_params(p, base);
    while (skip_attr(p)) {}
    return f;
  }
  return base;
}

/* is the '(' at the cursor the start of a nested declarator (not params)? */
static int nested_declarator(P *p) {
  Tok *t = cur(p), *u = peekn(p, 1);
  if (!(t->kind == TK_OP && is(t, "("))) return 0;
  if (u->kind == TK_OP) return is(u, "*") || is(u, "(") || is(u, "^") || is(u, "[");
  if (u->kind == TK_ID) {
    if (is(u, "__attribute__") || is(u, "__cdecl") || is(u, "__stdcall")) return 1;
    return !istypename(p, u);
  }
  return 0;
}

/* declarator: pointers, optional name (name == NULL: abstract only), suffixes */
static int parse_declarator(P *p, int base, char *name, size_t namesize) {
  while (test(p, "*") || test(p, "^")) {
    base = ct_ptr(p->S, base);
    for (;;) {
      Tok *t = cur(p);
      if (t->kind == TK_ID && (is(t, "const") || is(t, "__const")))
        { base = ct_const(p->S, base); p->pos++; }
      else if (t->kind == TK_ID && (is(t, "volatile") || is(t, "restrict") ||
               is(t, "__restrict") || is(t, "__restrict__") || is(t, "__volatile__")))
        p->pos++;
      else if (!skip_attr(p)) break;
    }
  }
  if (nested_declarator(p)) {
    int start = ++p->pos;
    p->pos--;
    skip_balanced(p);
    base = parse_suffixes(p, base);
    int end = p->pos;
    p->pos = start;
    while (skip_attr(p) || test(p, "__cdecl") || test(p, "__stdcall")) {}
    base = parse_declarator(p, base, name, namesize);
    expect(p, ")");
    p->pos = end;
    return base;
  }
  /* the declared name (it may shadow a typedef name: typedef ... size_t) */
  if (cur(p)->kind == TK_ID && !iskeyword(cur(p))) {
    if (name == NULL) perror_near(p, "unexpected identifier");
    tokname(cur(p), name, namesize);
    p->pos++;
  }
  return parse_suffixes(p, base);
}

/* ---------------------------------------------------------------- entry points */

static void init_parser(lua_State *L, P *p, FFIState *S, const char *src) {
  memset(p, 0, sizeof *p);
  p->L = L;
  p->S = S;
  lex(L, p, src);   /* pushes the token buffer */
}

void cdecl_parse(lua_State *L, FFIState *S, const char *src) {
  P p;
  init_parser(L, &p, S, src);
  while (cur(&p)->kind != TK_EOF) {
    if (test(&p, ";")) continue;
    Spec sp;
    parse_specs(&p, &sp, 1);
    if (test(&p, ";")) continue;   /* struct/union/enum declaration alone */
    do {
      char name[128] = "";
      int t = parse_declarator(&p, sp.type, name, sizeof name);
      while (skip_attr(&p)) {}
      if (!*name) perror_near(&p, "'<identifier>' expected");
      CType *ct = ctype(S, t);
      if (sp.istypedef) {
        name_set(S, name, N_TYPEDEF, t, 0);
      } else if (ct->kind == CT_FUNC) {
        name_set(S, name, N_FUNC, t, 0);
      } else if (test(&p, "=")) {   /* static const int X = 1; */
        int64_t v = expr(&p, 0);
        name_set(S, name, N_CONST, t, v);
      } else {
        name_set(S, name, N_VAR, t, 0);
      }
    } while (test(&p, ","));
    expect(&p, ";");
  }
  lua_pop(L, 1);
}

int cdecl_type(lua_State *L, FFIState *S, const char *src) {
  P p;
  init_parser(L, &p, S, src);
  p.typestr = 1;
  Spec sp;
  parse_specs(&p, &sp, 1);
  int t = parse_declarator(&p, sp.type, NULL, 0);
  if (cur(&p)->kind != TK_EOF) perror_near(&p, "unexpected symbol");
  lua_pop(L, 1);
  return t;
}
