/*
** parse.c -- recursive-descent parser for Lua 5.4, driving vm/code.c.
**
** GC anchoring during a compilation (all on the Lua stack, above the slot
** where the result closure ends up):
**   [closure] [source name] [scanner table] [token buffer udata] [actvar udata]
**   [goto udata] [label udata]
** The closure anchors the main Proto; every nested Proto is stored into its
** parent's p[] as soon as it is created, so all protos are reachable.  All
** strings are anchored in the scanner table (lex_newstring).  The parser's
** dynamic arrays live in userdata payloads (old space, non-moving), so an
** error longjmp-ing out of the parser leaks nothing.
*/
#include <string.h>

#include "code.h"
#include "compile.h"
#include "debug.h"
#include "do.h"
#include "func.h"
#include "string.h"
#include "table.h"
#include "../gc/gc.h"

#define MAXVARS   200
#define MAXUPVAL  255
#define MAXLEVELS LUAI_MAXCCALLS

typedef struct BlockCnt {
  struct BlockCnt *previous;
  int firstlabel;      /* index of first label of this block */
  int firstgoto;       /* index of first pending goto of this block */
  uint8_t nactvar;     /* active locals outside the block */
  uint8_t upval;       /* some variable of the block is an upvalue */
  uint8_t isloop;
  uint8_t insidetbc;   /* inside the scope of a to-be-closed variable */
} BlockCnt;

static void statement(LexState *ls);
static void expr(LexState *ls, ExpDesc *v);

/* ------------------------------------------------------------------ */
/* dynamic arrays in anchored userdata                                  */
/* ------------------------------------------------------------------ */

static void dyn_init(lua_State *L, DynArr *a, size_t elsize, int n) {
  Udata *u = udata_new(L, elsize * (size_t)n, 0);
  *L->top = v_ref(u);                 /* stack slot: no barrier */
  a->slot = savestack(L, L->top);
  L->top++;
  a->arr = getudatamem(u);
  a->n = 0;
  a->size = n;
}

static void *dyn_grow(LexState *ls, DynArr *a, size_t elsize, int limit,
                      const char *what) {
  if (a->n + 1 > a->size) {
    lua_State *L = ls->L;
    int ns = a->size * 2;
    Udata *u;
    if (a->n + 1 > limit) {
      lex_syntaxerror(ls, str_pushfstring(L, "too many %s (limit is %d)", what, limit));
    }
    if (ns > limit) ns = limit;
    u = udata_new(L, elsize * (size_t)ns, 0);   /* old space: never moves */
    memcpy(getudatamem(u), a->arr, elsize * (size_t)a->n);
    *restorestack(L, a->slot) = v_ref(u);
    a->arr = getudatamem(u);
    a->size = ns;
  }
  return (char *)a->arr + elsize * (size_t)(a->n++);
}

#define ACTVAR(ls)  ((VarDesc *)(ls)->dyd->actvar.arr)
#define GOTOS(ls)   ((LabelDesc *)(ls)->dyd->gt.arr)
#define LABELS(ls)  ((LabelDesc *)(ls)->dyd->label.arr)

/* ------------------------------------------------------------------ */
/* error helpers and token checks                                       */
/* ------------------------------------------------------------------ */

static l_noret error_expected(LexState *ls, int token) {
  lex_syntaxerror(ls, str_pushfstring(ls->L, "%s expected", lex_token2str(ls, token)));
}

static l_noret errorlimit(FuncState *fs, int limit, const char *what) {
  lua_State *L = fs->ls->L;
  int line = fs->f->linedefined;
  const char *where = (line == 0) ? "main function"
                    : str_pushfstring(L, "function at line %d", line);
  lex_syntaxerror(fs->ls, str_pushfstring(L, "too many %s (limit is %d) in %s",
                                          what, limit, where));
}

static void checklimit(FuncState *fs, int v, int l, const char *what) {
  if (v > l) errorlimit(fs, l, what);
}

static int testnext(LexState *ls, int c) {
  if (ls->t.token == c) { lex_next(ls); return 1; }
  return 0;
}

static void check(LexState *ls, int c) {
  if (ls->t.token != c) error_expected(ls, c);
}

static void checknext(LexState *ls, int c) {
  check(ls, c);
  lex_next(ls);
}

#define check_condition(ls,c,msg)  { if (!(c)) lex_syntaxerror(ls, msg); }

static void check_match(LexState *ls, int what, int who, int where) {
  if (!testnext(ls, what)) {
    if (where == ls->linenumber) error_expected(ls, what);
    else
      lex_syntaxerror(ls, str_pushfstring(ls->L, "%s expected (to close %s at line %d)",
                      lex_token2str(ls, what), lex_token2str(ls, who), where));
  }
}

static TString *str_checkname(LexState *ls) {
  TString *ts;
  check(ls, TK_NAME);
  ts = ls->t.seminfo.ts;
  lex_next(ls);
  return ts;
}

static void init_exp(ExpDesc *e, ExpKind k, int i) {
  e->f = e->t = NO_JUMP;
  e->k = k;
  e->u.info = i;
}

static void codestring(ExpDesc *e, TString *s) {
  e->f = e->t = NO_JUMP;
  e->k = EK_KSTR;
  e->u.strval = s;
}

static void codename(LexState *ls, ExpDesc *e) {
  codestring(e, str_checkname(ls));
}

static void enterlevel(LexState *ls) {
  if (++ls->depth >= MAXLEVELS) {   /* counted with the C levels, like Lua */
    /* Lua raises this as a runtime error (luaG_runerror), not a syntax
       error: it goes through the message handler in force, so under the
       stand-alone interpreter the message carries a traceback. */
    str_pushfstring(ls->L, "C stack overflow");
    dbg_errormsg(ls->L);
  }
}

#define leavelevel(ls)  ((ls)->depth--)

/* ------------------------------------------------------------------ */
/* variables                                                            */
/* ------------------------------------------------------------------ */

static int registerlocalvar(LexState *ls, FuncState *fs, TString *name) {
  Proto *f = fs->f;
  if (fs->ndebugvars >= f->sizelocvars) {
    int old = f->sizelocvars;
    int ns = old < 4 ? 8 : old * 2;
    if (ns > INT16_MAX) ns = INT16_MAX;
    if (fs->ndebugvars >= ns) errorlimit(fs, INT16_MAX, "local variables");
    f->locvars = mvm_reallocvector(ls->L, f->locvars, old, ns, LocVar);
    for (int i = old; i < ns; i++) f->locvars[i].varname = NULL;
    f->sizelocvars = ns;
  }
  /* NOBARRIER: strings live in the old space and never move; the name is
  ** anchored by the scanner table for the whole compilation */
  f->locvars[fs->ndebugvars].varname = name;
  f->locvars[fs->ndebugvars].startpc = fs->pc;
  f->locvars[fs->ndebugvars].endpc = fs->pc;
  return fs->ndebugvars++;
}

static int new_localvar(LexState *ls, TString *name) {
  FuncState *fs = ls->fs;
  Dyndata *dyd = ls->dyd;
  VarDesc *var;
  checklimit(fs, dyd->actvar.n + 1 - fs->firstlocal, MAXVARS, "local variables");
  var = dyn_grow(ls, &dyd->actvar, sizeof(VarDesc), UINT16_MAX, "local variables");
  memset(var, 0, sizeof *var);
  var->kind = VK_REG;
  var->name = name;
  return dyd->actvar.n - 1 - fs->firstlocal;
}

static void new_localvarliteral(LexState *ls, const char *name) {
  new_localvar(ls, lex_newstring(ls, name, strlen(name)));
}

VarDesc *parse_vardesc(FuncState *fs, int absidx) {
  return &ACTVAR(fs->ls)[absidx];
}

static VarDesc *getlocalvardesc(FuncState *fs, int vidx) {
  return &ACTVAR(fs->ls)[fs->firstlocal + vidx];
}

/* register level (number of registers) of the first 'nvar' locals */
static int reglevel(FuncState *fs, int nvar) {
  while (nvar-- > 0) {
    VarDesc *vd = getlocalvardesc(fs, nvar);
    if (vd->kind != VK_CTC) return vd->ridx + 1;
  }
  return 0;
}

int parse_nvarstack(FuncState *fs) {
  return reglevel(fs, fs->nactvar);
}

static LocVar *localdebuginfo(FuncState *fs, int vidx) {
  VarDesc *vd = getlocalvardesc(fs, vidx);
  if (vd->kind == VK_CTC) return NULL;
  return &fs->f->locvars[vd->pidx];
}

static void init_var(FuncState *fs, ExpDesc *e, int vidx) {
  e->f = e->t = NO_JUMP;
  e->k = EK_LOCAL;
  e->u.var.vidx = (unsigned short)vidx;
  e->u.var.ridx = getlocalvardesc(fs, vidx)->ridx;
}

static void check_readonly(LexState *ls, ExpDesc *e) {
  FuncState *fs = ls->fs;
  TString *name = NULL;
  switch (e->k) {
    case EK_CONST:
      name = ACTVAR(ls)[e->u.info].name;
      break;
    case EK_LOCAL: {
      VarDesc *vd = getlocalvardesc(fs, e->u.var.vidx);
      if (vd->kind != VK_REG) name = vd->name;
      break;
    }
    case EK_UPVAL: {
      Upvaldesc *up = &fs->f->upvalues[e->u.info];
      if (up->kind != VK_REG) name = up->name;
      break;
    }
    default:
      return;
  }
  if (name)
    code_semerror(ls, str_pushfstring(ls->L, "attempt to assign to const variable '%s'",
                                      getstr(name)));
}

/* activate the last 'nvars' declared variables */
static void adjustlocalvars(LexState *ls, int nvars) {
  FuncState *fs = ls->fs;
  int level = parse_nvarstack(fs);
  for (int i = 0; i < nvars; i++) {
    int vidx = fs->nactvar++;
    VarDesc *var = getlocalvardesc(fs, vidx);
    var->ridx = (uint8_t)level++;
    var->pidx = (short)registerlocalvar(ls, fs, var->name);
  }
}

static void removevars(FuncState *fs, int tolevel) {
  fs->ls->dyd->actvar.n -= (fs->nactvar - tolevel);
  while (fs->nactvar > tolevel) {
    LocVar *var = localdebuginfo(fs, --fs->nactvar);
    if (var) var->endpc = fs->pc;
  }
}

static int searchupvalue(FuncState *fs, TString *name) {
  Upvaldesc *up = fs->f->upvalues;
  for (int i = 0; i < fs->nups; i++)
    if (eqstr(up[i].name, name)) return i;
  return -1;
}

static Upvaldesc *allocupvalue(FuncState *fs) {
  Proto *f = fs->f;
  checklimit(fs, fs->nups + 1, MAXUPVAL, "upvalues");
  if (fs->nups >= f->sizeupvalues) {
    int old = f->sizeupvalues;
    int ns = old < 4 ? 4 : old * 2;
    if (ns > MAXUPVAL) ns = MAXUPVAL;
    f->upvalues = mvm_reallocvector(fs->ls->L, f->upvalues, old, ns, Upvaldesc);
    for (int i = old; i < ns; i++) {
      f->upvalues[i].name = NULL;
      f->upvalues[i].instack = 0;
      f->upvalues[i].idx = 0;
      f->upvalues[i].kind = 0;
      f->upvalues[i].selfref = 0;
    }
    f->sizeupvalues = ns;
  }
  return &f->upvalues[fs->nups++];
}

static int newupvalue(FuncState *fs, TString *name, ExpDesc *v) {
  Upvaldesc *up = allocupvalue(fs);
  FuncState *prev = fs->prev;
  if (v->k == EK_LOCAL) {
    up->instack = 1;
    up->idx = v->u.var.ridx;
    up->kind = getlocalvardesc(prev, v->u.var.vidx)->kind;
  }
  else {
    up->instack = 0;
    up->idx = (uint8_t)v->u.info;
    up->kind = prev->f->upvalues[v->u.info].kind;
  }
  up->name = name;    /* NOBARRIER: old-space string, anchored (scanner table) */
  return fs->nups - 1;
}

/* look for an active local named 'n'; returns its kind or -1 */
static int searchvar(FuncState *fs, TString *n, ExpDesc *var) {
  for (int i = (int)fs->nactvar - 1; i >= 0; i--) {
    VarDesc *vd = getlocalvardesc(fs, i);
    if (eqstr(n, vd->name)) {
      if (vd->kind == VK_CTC) init_exp(var, EK_CONST, fs->firstlocal + i);
      else init_var(fs, var, i);
      return var->k;
    }
  }
  return -1;
}

/* the block where local 'level' lives must close its upvalues */
static void markupval(FuncState *fs, int level) {
  BlockCnt *bl = fs->bl;
  while (bl->nactvar > level) bl = bl->previous;
  bl->upval = 1;
  fs->needclose = 1;
}

static void marktobeclosed(FuncState *fs) {
  BlockCnt *bl = fs->bl;
  bl->upval = 1;
  bl->insidetbc = 1;
  fs->needclose = 1;
}

static void singlevaraux(FuncState *fs, TString *n, ExpDesc *var, int base) {
  if (fs == NULL)
    init_exp(var, EK_VOID, 0);         /* global */
  else {
    int v = searchvar(fs, n, var);
    if (v >= 0) {
      if (v == EK_LOCAL && !base) markupval(fs, var->u.var.vidx);
    }
    else {
      int idx = searchupvalue(fs, n);
      if (idx < 0) {
        singlevaraux(fs->prev, n, var, 0);
        if (var->k == EK_LOCAL || var->k == EK_UPVAL)
          idx = newupvalue(fs, n, var);
        else
          return;                      /* global or compile-time constant */
      }
      init_exp(var, EK_UPVAL, idx);
    }
  }
}

static void singlevar(LexState *ls, ExpDesc *var) {
  TString *name = str_checkname(ls);
  FuncState *fs = ls->fs;
  singlevaraux(fs, name, var, 1);
  if (var->k == EK_VOID) {             /* global: _ENV[name] */
    ExpDesc key;
    singlevaraux(fs, ls->envn, var, 1);
    code_exp2anyregup(fs, var);
    codestring(&key, name);
    code_indexed(fs, var, &key);
  }
}

static void adjust_assign(LexState *ls, int nvars, int nexps, ExpDesc *e) {
  FuncState *fs = ls->fs;
  int needed = nvars - nexps;
  if (ek_multret(e->k)) {
    int extra = needed + 1;
    if (extra < 0) extra = 0;
    code_setreturns(fs, e, extra);
  }
  else {
    if (e->k != EK_VOID) code_exp2nextreg(fs, e);
    if (needed > 0) code_nil(fs, fs->freereg, needed);
  }
  if (needed > 0) code_reserveregs(fs, needed);
  else fs->freereg = (uint8_t)(fs->freereg + needed);
}

/* ------------------------------------------------------------------ */
/* labels and gotos                                                     */
/* ------------------------------------------------------------------ */

static l_noret jumpscopeerror(LexState *ls, LabelDesc *gt) {
  const char *varname = getstr(getlocalvardesc(ls->fs, gt->nactvar)->name);
  code_semerror(ls, str_pushfstring(ls->L,
      "<goto %s> at line %d jumps into the scope of local '%s'",
      getstr(gt->name), gt->line, varname));
}

static void solvegoto(LexState *ls, int g, LabelDesc *label) {
  DynArr *gl = &ls->dyd->gt;
  LabelDesc *gt = &GOTOS(ls)[g];
  if (gt->nactvar < label->nactvar) jumpscopeerror(ls, gt);
  code_patchlist(ls->fs, gt->pc, label->pc);
  memmove(gt, gt + 1, sizeof(LabelDesc) * (size_t)(gl->n - g - 1));
  gl->n--;
}

static LabelDesc *findlabel(LexState *ls, TString *name) {
  Dyndata *dyd = ls->dyd;
  for (int i = ls->fs->firstlabel; i < dyd->label.n; i++) {
    LabelDesc *lb = &LABELS(ls)[i];
    if (eqstr(lb->name, name)) return lb;
  }
  return NULL;
}

static int newlabelentry(LexState *ls, DynArr *l, TString *name, int line, int pc) {
  LabelDesc *d = dyn_grow(ls, l, sizeof(LabelDesc), INT16_MAX, "labels/gotos");
  d->name = name;
  d->line = line;
  d->nactvar = ls->fs->nactvar;
  d->close = 0;
  d->pc = pc;
  return l->n - 1;
}

static int newgotoentry(LexState *ls, TString *name, int line, int pc) {
  return newlabelentry(ls, &ls->dyd->gt, name, line, pc);
}

/* resolve pending gotos of the current block to label 'lb' */
static int solvegotos(LexState *ls, LabelDesc *lb) {
  DynArr *gl = &ls->dyd->gt;
  int i = ls->fs->bl->firstgoto;
  int needsclose = 0;
  while (i < gl->n) {
    if (eqstr(GOTOS(ls)[i].name, lb->name)) {
      needsclose |= GOTOS(ls)[i].close;
      solvegoto(ls, i, lb);
    }
    else i++;
  }
  return needsclose;
}

static int createlabel(LexState *ls, TString *name, int line, int last) {
  FuncState *fs = ls->fs;
  DynArr *ll = &ls->dyd->label;
  int l = newlabelentry(ls, ll, name, line, code_getlabel(fs));
  if (last)   /* label is the last statement: locals already out of scope */
    LABELS(ls)[l].nactvar = fs->bl->nactvar;
  if (solvegotos(ls, &LABELS(ls)[l])) {
    code_ABC(fs, OP_CLOSE, parse_nvarstack(fs), 0, 0);
    return 1;
  }
  return 0;
}

/* pending gotos of a closing block now belong to the enclosing one */
static void movegotosout(FuncState *fs, BlockCnt *bl) {
  LexState *ls = fs->ls;
  for (int i = bl->firstgoto; i < ls->dyd->gt.n; i++) {
    LabelDesc *gt = &GOTOS(ls)[i];
    if (reglevel(fs, gt->nactvar) > reglevel(fs, bl->nactvar))
      gt->close |= bl->upval;
    gt->nactvar = bl->nactvar;
  }
}

static void enterblock(FuncState *fs, BlockCnt *bl, uint8_t isloop) {
  bl->isloop = isloop;
  bl->nactvar = fs->nactvar;
  bl->firstlabel = fs->ls->dyd->label.n;
  bl->firstgoto = fs->ls->dyd->gt.n;
  bl->upval = 0;
  bl->insidetbc = (fs->bl != NULL && fs->bl->insidetbc);
  bl->previous = fs->bl;
  fs->bl = bl;
}

static l_noret undefgoto(LexState *ls, LabelDesc *gt) {
  const char *msg;
  if (strcmp(getstr(gt->name), "break") == 0)
    msg = str_pushfstring(ls->L, "break outside loop at line %d", gt->line);
  else
    msg = str_pushfstring(ls->L, "no visible label '%s' for <goto> at line %d",
                          getstr(gt->name), gt->line);
  code_semerror(ls, msg);
}

static void leaveblock(FuncState *fs) {
  BlockCnt *bl = fs->bl;
  LexState *ls = fs->ls;
  int hasclose = 0;
  int stklevel = reglevel(fs, bl->nactvar);
  /* (as in Lua 5.4.4, the oracle: the block's locals stay active while the
  ** break label and the closing instruction are generated) */
  if (bl->isloop)
    hasclose = createlabel(ls, lex_newstring(ls, "break", 5), 0, 0);
  if (!hasclose && bl->previous && bl->upval)
    code_ABC(fs, OP_CLOSE, stklevel, 0, 0);
  removevars(fs, bl->nactvar);
  fs->freereg = (uint8_t)stklevel;
  ls->dyd->label.n = bl->firstlabel;
  fs->bl = bl->previous;
  if (bl->previous)
    movegotosout(fs, bl);
  else if (bl->firstgoto < ls->dyd->gt.n)
    undefgoto(ls, &GOTOS(ls)[bl->firstgoto]);
}

/* ------------------------------------------------------------------ */
/* functions                                                            */
/* ------------------------------------------------------------------ */

static Proto *addprototype(LexState *ls) {
  lua_State *L = ls->L;
  FuncState *fs = ls->fs;
  Proto *f = fs->f;
  Proto *np;
  if (fs->np >= f->sizep) {
    int old = f->sizep;
    int ns = old < 4 ? 4 : old * 2;
    if (fs->np + 1 > MAXARG_Bx) errorlimit(fs, MAXARG_Bx, "functions");
    if (ns > MAXARG_Bx) ns = MAXARG_Bx;
    f->p = mvm_reallocvector(L, f->p, old, ns, Proto *);
    for (int i = old; i < ns; i++) f->p[i] = NULL;
    f->sizep = ns;
  }
  np = func_newproto(L);               /* may collect: 'f' is anchored */
  f->p[fs->np++] = np;
  gc_cardmark(G(L), (GCObject *)f, &f->p[fs->np - 1]);
  return np;
}

static void open_func(LexState *ls, FuncState *fs, BlockCnt *bl) {
  Proto *f = fs->f;
  fs->prev = ls->fs;
  fs->ls = ls;
  ls->fs = fs;
  fs->pc = 0;
  fs->lasttarget = 0;
  fs->freereg = 0;
  fs->nk = 0;
  fs->np = 0;
  fs->nups = 0;
  fs->ndebugvars = 0;
  fs->nactvar = 0;
  fs->needclose = 0;
  fs->firstlocal = ls->dyd->actvar.n;
  fs->firstlabel = ls->dyd->label.n;
  fs->bl = NULL;
  f->source = ls->source;   /* NOBARRIER: old-space string, anchored */
  f->maxstacksize = 2;      /* registers 0/1 are always valid */
  enterblock(fs, bl, 0);
}

/* shrink an array to its used size */
#define shrinkvec(L,b,size,n,t) \
  { (b) = mvm_reallocvector(L, (b), (size), (n), t); (size) = (n); }

static void close_func(LexState *ls) {
  lua_State *L = ls->L;
  FuncState *fs = ls->fs;
  Proto *f = fs->f;
  code_ret(fs, parse_nvarstack(fs), 0);    /* final return */
  leaveblock(fs);
  code_finish(fs);
  shrinkvec(L, f->code, f->sizecode, fs->pc, Instruction);
  shrinkvec(L, f->lineinfo, f->sizelineinfo, fs->pc, int);
  shrinkvec(L, f->k, f->sizek, fs->nk, Value);
  shrinkvec(L, f->p, f->sizep, fs->np, Proto *);
  shrinkvec(L, f->locvars, f->sizelocvars, fs->ndebugvars, LocVar);
  shrinkvec(L, f->upvalues, f->sizeupvalues, fs->nups, Upvaldesc);
  ls->fs = fs->prev;
}

static void setvararg(FuncState *fs, int nparams) {
  fs->f->is_vararg = 1;
  code_ABC(fs, OP_VARARGPREP, nparams, 0, 0);
}

/* ------------------------------------------------------------------ */
/* grammar: blocks                                                      */
/* ------------------------------------------------------------------ */

static int block_follow(LexState *ls, int withuntil) {
  switch (ls->t.token) {
    case TK_ELSE: case TK_ELSEIF: case TK_END: case TK_EOS:
      return 1;
    case TK_UNTIL:
      return withuntil;
    default:
      return 0;
  }
}

static void statlist(LexState *ls) {
  while (!block_follow(ls, 1)) {
    if (ls->t.token == TK_RETURN) {
      statement(ls);
      return;                          /* 'return' ends the block */
    }
    statement(ls);
  }
}

static void fieldsel(LexState *ls, ExpDesc *v) {
  FuncState *fs = ls->fs;
  ExpDesc key;
  code_exp2anyregup(fs, v);
  lex_next(ls);                        /* '.' or ':' */
  codename(ls, &key);
  code_indexed(fs, v, &key);
}

static void yindex(LexState *ls, ExpDesc *v) {
  lex_next(ls);                        /* '[' */
  expr(ls, v);
  code_exp2val(ls->fs, v);
  checknext(ls, ']');
}

/* ------------------------------------------------------------------ */
/* table constructors                                                   */
/* ------------------------------------------------------------------ */

typedef struct ConsControl {
  ExpDesc v;       /* last list item read */
  ExpDesc *t;      /* the table */
  int nh;          /* record fields */
  int na;          /* list items already stored */
  int tostore;     /* list items pending */
} ConsControl;

static void recfield(LexState *ls, ConsControl *cc) {
  FuncState *fs = ls->fs;
  int reg = fs->freereg;
  ExpDesc tab, key, val;
  if (ls->t.token == TK_NAME) {
    checklimit(fs, cc->nh, INT32_MAX, "items in a constructor");
    codename(ls, &key);
  }
  else
    yindex(ls, &key);
  cc->nh++;
  checknext(ls, '=');
  tab = *cc->t;
  code_indexed(fs, &tab, &key);
  expr(ls, &val);
  code_storevar(fs, &tab, &val);
  fs->freereg = (uint8_t)reg;
}

static void closelistfield(FuncState *fs, ConsControl *cc) {
  if (cc->v.k == EK_VOID) return;
  code_exp2nextreg(fs, &cc->v);
  cc->v.k = EK_VOID;
  if (cc->tostore == LFIELDS_PER_FLUSH) {
    code_setlist(fs, cc->t->u.info, cc->na, cc->tostore);
    cc->na += cc->tostore;
    cc->tostore = 0;
  }
}

static void lastlistfield(FuncState *fs, ConsControl *cc) {
  if (cc->tostore == 0) return;
  if (ek_multret(cc->v.k)) {
    code_setmultret(fs, &cc->v);
    code_setlist(fs, cc->t->u.info, cc->na, LUA_MULTRET);
    /* (the last item counts one value in the array size: {f(x), f(y)}
    ** gets an array of 2 at once, not 1 and a resize at the SETLIST) */
  }
  else {
    if (cc->v.k != EK_VOID) code_exp2nextreg(fs, &cc->v);
    code_setlist(fs, cc->t->u.info, cc->na, cc->tostore);
  }
  cc->na += cc->tostore;
}

static void listfield(LexState *ls, ConsControl *cc) {
  expr(ls, &cc->v);
  cc->tostore++;
}

static void field(LexState *ls, ConsControl *cc) {
  switch (ls->t.token) {
    case TK_NAME:
      if (lex_lookahead(ls) != '=') listfield(ls, cc);
      else recfield(ls, cc);
      break;
    case '[':
      recfield(ls, cc);
      break;
    default:
      listfield(ls, cc);
      break;
  }
}

static void constructor(LexState *ls, ExpDesc *t) {
  FuncState *fs = ls->fs;
  int line = ls->linenumber;
  int pc = code_ABC(fs, OP_NEWTABLE, 0, 0, 0);
  ConsControl cc;
  code_emit(fs, 0);                    /* room for EXTRAARG */
  cc.na = cc.nh = cc.tostore = 0;
  cc.t = t;
  init_exp(t, EK_NONRELOC, fs->freereg);
  code_reserveregs(fs, 1);
  init_exp(&cc.v, EK_VOID, 0);
  checknext(ls, '{');
  do {
    if (ls->t.token == '}') break;
    closelistfield(fs, &cc);
    field(ls, &cc);
  } while (testnext(ls, ',') || testnext(ls, ';'));
  check_match(ls, '}', '{', line);
  lastlistfield(fs, &cc);
  code_settablesize(fs, pc, t->u.info, cc.na, cc.nh);
}

/* ------------------------------------------------------------------ */
/* function bodies and calls                                            */
/* ------------------------------------------------------------------ */

static void parlist(LexState *ls) {
  FuncState *fs = ls->fs;
  Proto *f = fs->f;
  int nparams = 0, isvararg = 0;
  if (ls->t.token != ')') {
    do {
      switch (ls->t.token) {
        case TK_NAME:
          new_localvar(ls, str_checkname(ls));
          nparams++;
          break;
        case TK_DOTS:
          lex_next(ls);
          isvararg = 1;
          break;
        default:
          lex_syntaxerror(ls, "<name> or '...' expected");
      }
    } while (!isvararg && testnext(ls, ','));
  }
  adjustlocalvars(ls, nparams);
  f->numparams = fs->nactvar;
  if (isvararg) setvararg(fs, f->numparams);
  code_reserveregs(fs, fs->nactvar);
}

static void codeclosure(LexState *ls, ExpDesc *v) {
  FuncState *fs = ls->fs->prev;
  init_exp(v, EK_RELOC, code_ABx(fs, OP_CLOSURE, 0, (unsigned)(fs->np - 1)));
  code_exp2nextreg(fs, v);
}

static void body(LexState *ls, ExpDesc *e, int ismethod, int line) {
  FuncState nfs;
  BlockCnt bl;
  nfs.f = addprototype(ls);
  nfs.f->linedefined = line;
  open_func(ls, &nfs, &bl);
  checknext(ls, '(');
  if (ismethod) {
    new_localvarliteral(ls, "self");
    adjustlocalvars(ls, 1);
  }
  parlist(ls);
  checknext(ls, ')');
  statlist(ls);
  nfs.f->lastlinedefined = ls->linenumber;
  check_match(ls, TK_END, TK_FUNCTION, line);
  codeclosure(ls, e);
  close_func(ls);
}

static int explist(LexState *ls, ExpDesc *v) {
  int n = 1;
  expr(ls, v);
  while (testnext(ls, ',')) {
    code_exp2nextreg(ls->fs, v);
    expr(ls, v);
    n++;
  }
  return n;
}

static void funcargs(LexState *ls, ExpDesc *f, int line) {
  FuncState *fs = ls->fs;
  ExpDesc args;
  int base, nparams;
  switch (ls->t.token) {
    case '(':
      lex_next(ls);
      if (ls->t.token == ')') args.k = EK_VOID;
      else {
        explist(ls, &args);
        if (ek_multret(args.k)) code_setmultret(fs, &args);
      }
      check_match(ls, ')', '(', line);
      break;
    case '{':
      constructor(ls, &args);
      break;
    case TK_STRING:
      codestring(&args, ls->t.seminfo.ts);
      lex_next(ls);
      break;
    default:
      lex_syntaxerror(ls, "function arguments expected");
  }
  base = f->u.info;
  if (ek_multret(args.k)) nparams = LUA_MULTRET;
  else {
    if (args.k != EK_VOID) code_exp2nextreg(fs, &args);
    nparams = fs->freereg - (base + 1);
  }
  init_exp(f, EK_CALL, code_ABC(fs, OP_CALL, base, nparams + 1, 2));
  code_fixline(fs, line);
  fs->freereg = (uint8_t)(base + 1);   /* call leaves one result by default */
}

/* ------------------------------------------------------------------ */
/* expressions                                                          */
/* ------------------------------------------------------------------ */

static void primaryexp(LexState *ls, ExpDesc *v) {
  switch (ls->t.token) {
    case '(': {
      int line = ls->linenumber;
      lex_next(ls);
      expr(ls, v);
      check_match(ls, ')', '(', line);
      code_dischargevars(ls->fs, v);
      return;
    }
    case TK_NAME:
      singlevar(ls, v);
      return;
    default:
      lex_syntaxerror(ls, "unexpected symbol");
  }
}

static void suffixedexp(LexState *ls, ExpDesc *v) {
  FuncState *fs = ls->fs;
  int line = ls->linenumber;
  primaryexp(ls, v);
  for (;;) {
    switch (ls->t.token) {
      case '.':
        fieldsel(ls, v);
        break;
      case '[': {
        ExpDesc key;
        code_exp2anyregup(fs, v);
        yindex(ls, &key);
        code_indexed(fs, v, &key);
        break;
      }
      case ':': {
        ExpDesc key;
        lex_next(ls);
        codename(ls, &key);
        code_self(fs, v, &key);
        funcargs(ls, v, line);
        break;
      }
      case '(': case TK_STRING: case '{':
        code_exp2nextreg(fs, v);
        funcargs(ls, v, line);
        break;
      default:
        return;
    }
  }
}

static void simpleexp(LexState *ls, ExpDesc *v) {
  switch (ls->t.token) {
    case TK_FLT:
      init_exp(v, EK_KFLT, 0);
      v->u.nval = ls->t.seminfo.r;
      break;
    case TK_INT:
      init_exp(v, EK_KINT, 0);
      v->u.ival = ls->t.seminfo.i;
      break;
    case TK_STRING:
      codestring(v, ls->t.seminfo.ts);
      break;
    case TK_NIL: init_exp(v, EK_NIL, 0); break;
    case TK_TRUE: init_exp(v, EK_TRUE, 0); break;
    case TK_FALSE: init_exp(v, EK_FALSE, 0); break;
    case TK_DOTS: {
      FuncState *fs = ls->fs;
      check_condition(ls, fs->f->is_vararg,
                      "cannot use '...' outside a vararg function");
      init_exp(v, EK_VARARG, code_ABC(fs, OP_VARARG, 0, 0, 1));
      break;
    }
    case '{':
      constructor(ls, v);
      return;
    case TK_FUNCTION:
      lex_next(ls);
      body(ls, v, 0, ls->linenumber);
      return;
    default:
      suffixedexp(ls, v);
      return;
  }
  lex_next(ls);
}

static UnOpr getunopr(int op) {
  switch (op) {
    case TK_NOT: return OPR_NOT;
    case '-': return OPR_MINUS;
    case '~': return OPR_BNOT;
    case '#': return OPR_LEN;
    default: return OPR_NOUNOPR;
  }
}

static BinOpr getbinopr(int op) {
  switch (op) {
    case '+': return OPR_ADD;
    case '-': return OPR_SUB;
    case '*': return OPR_MUL;
    case '%': return OPR_MOD;
    case '^': return OPR_POW;
    case '/': return OPR_DIV;
    case TK_IDIV: return OPR_IDIV;
    case '&': return OPR_BAND;
    case '|': return OPR_BOR;
    case '~': return OPR_BXOR;
    case TK_SHL: return OPR_SHL;
    case TK_SHR: return OPR_SHR;
    case TK_CONCAT: return OPR_CONCAT;
    case TK_NE: return OPR_NE;
    case TK_EQ: return OPR_EQ;
    case '<': return OPR_LT;
    case TK_LE: return OPR_LE;
    case '>': return OPR_GT;
    case TK_GE: return OPR_GE;
    case TK_AND: return OPR_AND;
    case TK_OR: return OPR_OR;
    default: return OPR_NOBINOPR;
  }
}

/* binding power of each binary operator: left and right */
static const struct { uint8_t left, right; } prio[] = {
  {10, 10}, {10, 10},           /* + - */
  {11, 11}, {11, 11},           /* * % */
  {14, 13},                     /* ^ (right associative) */
  {11, 11}, {11, 11},           /* / // */
  {6, 6}, {4, 4}, {5, 5},       /* & | ~ */
  {7, 7}, {7, 7},               /* << >> */
  {9, 8},                       /* .. (right associative) */
  {3, 3}, {3, 3}, {3, 3},       /* == < <= */
  {3, 3}, {3, 3}, {3, 3},       /* ~= > >= */
  {2, 2}, {1, 1}                /* and or */
};

#define UNARY_PRIORITY  12

/* subexpr -> (simpleexp | unop subexpr) { binop subexpr }, for operators
** binding tighter than 'limit'; returns the first operator not consumed */
static BinOpr subexpr(LexState *ls, ExpDesc *v, int limit) {
  BinOpr op;
  UnOpr uop;
  enterlevel(ls);
  uop = getunopr(ls->t.token);
  if (uop != OPR_NOUNOPR) {
    int line = ls->linenumber;
    lex_next(ls);
    subexpr(ls, v, UNARY_PRIORITY);
    code_prefix(ls->fs, uop, v, line);
  }
  else
    simpleexp(ls, v);
  op = getbinopr(ls->t.token);
  while (op != OPR_NOBINOPR && prio[op].left > limit) {
    ExpDesc v2;
    BinOpr nextop;
    int line = ls->linenumber;
    lex_next(ls);
    code_infix(ls->fs, op, v);
    nextop = subexpr(ls, &v2, prio[op].right);
    code_posfix(ls->fs, op, v, &v2, line);
    op = nextop;
  }
  leavelevel(ls);
  return op;
}

static void expr(LexState *ls, ExpDesc *v) {
  subexpr(ls, v, 0);
}

/* ------------------------------------------------------------------ */
/* statements                                                           */
/* ------------------------------------------------------------------ */

static void block(LexState *ls) {
  FuncState *fs = ls->fs;
  BlockCnt bl;
  enterblock(fs, &bl, 0);
  statlist(ls);
  leaveblock(fs);
}

/* chain of variables on the left side of a multiple assignment */
struct LHS {
  struct LHS *prev;
  ExpDesc v;
};

/* A local (or upvalue) assigned in a multiple assignment may also be used as
** table or index of an earlier target; those earlier targets must use a copy
** of its old value. */
static void check_conflict(LexState *ls, struct LHS *lh, ExpDesc *v) {
  FuncState *fs = ls->fs;
  int extra = fs->freereg;
  int conflict = 0;
  for (; lh; lh = lh->prev) {
    if (ek_isindexed(lh->v.k)) {
      if (lh->v.k == EK_INDEXUP) {
        if (v->k == EK_UPVAL && lh->v.u.ind.t == v->u.info) {
          conflict = 1;
          lh->v.k = EK_INDEXSTR;
          lh->v.u.ind.t = (uint8_t)extra;
        }
      }
      else {
        if (v->k == EK_LOCAL && lh->v.u.ind.t == v->u.var.ridx) {
          conflict = 1;
          lh->v.u.ind.t = (uint8_t)extra;
        }
        if (lh->v.k == EK_INDEXED && v->k == EK_LOCAL &&
            lh->v.u.ind.idx == v->u.var.ridx) {
          conflict = 1;
          lh->v.u.ind.idx = (short)extra;
        }
      }
    }
  }
  if (conflict) {
    if (v->k == EK_LOCAL) code_ABC(fs, OP_MOVE, extra, v->u.var.ridx, 0);
    else code_ABC(fs, OP_GETUPVAL, extra, v->u.info, 0);
    code_reserveregs(fs, 1);
  }
}

static void restassign(LexState *ls, struct LHS *lh, int nvars) {
  ExpDesc e;
  check_condition(ls, ek_isvar(lh->v.k), "syntax error");
  check_readonly(ls, &lh->v);
  if (testnext(ls, ',')) {
    struct LHS nv;
    nv.prev = lh;
    suffixedexp(ls, &nv.v);
    if (!ek_isindexed(nv.v.k)) check_conflict(ls, lh, &nv.v);
    enterlevel(ls);
    restassign(ls, &nv, nvars + 1);
    leavelevel(ls);
  }
  else {
    int nexps;
    checknext(ls, '=');
    nexps = explist(ls, &e);
    if (nexps != nvars)
      adjust_assign(ls, nvars, nexps, &e);
    else {
      code_setoneret(ls->fs, &e);
      code_storevar(ls->fs, &lh->v, &e);
      return;
    }
  }
  init_exp(&e, EK_NONRELOC, ls->fs->freereg - 1);   /* value on the stack */
  code_storevar(ls->fs, &lh->v, &e);
}

static int cond(LexState *ls) {
  ExpDesc v;
  expr(ls, &v);
  if (v.k == EK_NIL) v.k = EK_FALSE;
  code_goiftrue(ls->fs, &v);
  return v.f;
}

static void gotostat(LexState *ls) {
  FuncState *fs = ls->fs;
  int line = ls->linenumber;
  TString *name = str_checkname(ls);
  LabelDesc *lb = findlabel(ls, name);
  if (lb == NULL)                       /* forward jump */
    newgotoentry(ls, name, line, code_jump(fs));
  else {                                /* backward jump */
    int lblevel = reglevel(fs, lb->nactvar);
    if (parse_nvarstack(fs) > lblevel)
      code_ABC(fs, OP_CLOSE, lblevel, 0, 0);
    code_patchlist(fs, code_jump(fs), lb->pc);
  }
}

static void breakstat(LexState *ls) {
  int line = ls->linenumber;
  lex_next(ls);
  newgotoentry(ls, lex_newstring(ls, "break", 5), line, code_jump(ls->fs));
}

static void checkrepeated(LexState *ls, TString *name) {
  LabelDesc *lb = findlabel(ls, name);
  if (lb != NULL)
    code_semerror(ls, str_pushfstring(ls->L, "label '%s' already defined on line %d",
                                      getstr(name), lb->line));
}

static void labelstat(LexState *ls, TString *name, int line) {
  checknext(ls, TK_DBCOLON);
  while (ls->t.token == ';' || ls->t.token == TK_DBCOLON)
    statement(ls);                      /* skip other no-op statements */
  checkrepeated(ls, name);
  createlabel(ls, name, line, block_follow(ls, 0));
}

static void whilestat(LexState *ls, int line) {
  FuncState *fs = ls->fs;
  int whileinit, condexit;
  BlockCnt bl;
  lex_next(ls);
  whileinit = code_getlabel(fs);
  condexit = cond(ls);
  enterblock(fs, &bl, 1);
  checknext(ls, TK_DO);
  block(ls);
  code_jumpto(fs, whileinit);
  check_match(ls, TK_END, TK_WHILE, line);
  leaveblock(fs);
  code_patchtohere(fs, condexit);
}

static void repeatstat(LexState *ls, int line) {
  int condexit;
  FuncState *fs = ls->fs;
  int repeat_init = code_getlabel(fs);
  BlockCnt bl1, bl2;
  enterblock(fs, &bl1, 1);             /* loop block */
  enterblock(fs, &bl2, 0);             /* scope block */
  lex_next(ls);
  statlist(ls);
  check_match(ls, TK_UNTIL, TK_REPEAT, line);
  condexit = cond(ls);                 /* inside the scope block */
  leaveblock(fs);
  if (bl2.upval) {                     /* repetition must close upvalues */
    int exit = code_jump(fs);
    code_patchtohere(fs, condexit);
    code_ABC(fs, OP_CLOSE, reglevel(fs, bl2.nactvar), 0, 0);
    condexit = code_jump(fs);
    code_patchtohere(fs, exit);
  }
  code_patchlist(fs, condexit, repeat_init);
  leaveblock(fs);
}

static void exp1(LexState *ls) {
  ExpDesc e;
  expr(ls, &e);
  code_exp2nextreg(ls->fs, &e);
}

static void fixforjump(FuncState *fs, int pc, int dest, int back) {
  Instruction *jmp = &fs->f->code[pc];
  int offset = dest - (pc + 1);
  if (back) offset = -offset;
  if (offset > MAXARG_Bx)
    lex_syntaxerror(fs->ls, "control structure too long");
  SETARG_Bx(*jmp, offset);
}

static void forbody(LexState *ls, int base, int line, int nvars, int isgen) {
  BlockCnt bl;
  FuncState *fs = ls->fs;
  int prep, endfor;
  checknext(ls, TK_DO);
  prep = code_ABx(fs, isgen ? OP_TFORPREP : OP_FORPREP, base, 0);
  enterblock(fs, &bl, 0);
  adjustlocalvars(ls, nvars);
  code_reserveregs(fs, nvars);
  block(ls);
  leaveblock(fs);
  fixforjump(fs, prep, code_getlabel(fs), 0);
  if (isgen) {
    code_ABC(fs, OP_TFORCALL, base, 0, nvars);
    code_fixline(fs, line);
  }
  endfor = code_ABx(fs, isgen ? OP_TFORLOOP : OP_FORLOOP, base, 0);
  fixforjump(fs, endfor, prep + 1, 1);
  code_fixline(fs, line);
}

static void fornum(LexState *ls, TString *varname, int line) {
  FuncState *fs = ls->fs;
  int base = fs->freereg;
  new_localvarliteral(ls, "(for state)");
  new_localvarliteral(ls, "(for state)");
  new_localvarliteral(ls, "(for state)");
  new_localvar(ls, varname);
  checknext(ls, '=');
  exp1(ls);
  checknext(ls, ',');
  exp1(ls);
  if (testnext(ls, ','))
    exp1(ls);
  else {
    code_int(fs, fs->freereg, 1);
    code_reserveregs(fs, 1);
  }
  adjustlocalvars(ls, 3);
  forbody(ls, base, line, 1, 0);
}

static void forlist(LexState *ls, TString *indexname) {
  FuncState *fs = ls->fs;
  ExpDesc e;
  int nvars = 5;   /* generator, state, control, closing, first variable */
  int line;
  int base = fs->freereg;
  new_localvarliteral(ls, "(for state)");
  new_localvarliteral(ls, "(for state)");
  new_localvarliteral(ls, "(for state)");
  new_localvarliteral(ls, "(for state)");
  new_localvar(ls, indexname);
  while (testnext(ls, ',')) {
    new_localvar(ls, str_checkname(ls));
    nvars++;
  }
  checknext(ls, TK_IN);
  line = ls->linenumber;
  adjust_assign(ls, 4, explist(ls, &e), &e);
  adjustlocalvars(ls, 4);
  marktobeclosed(fs);                  /* the closing value */
  code_checkstack(fs, 3);              /* room to call the generator */
  forbody(ls, base, line, nvars - 4, 1);
}

static void forstat(LexState *ls, int line) {
  FuncState *fs = ls->fs;
  TString *varname;
  BlockCnt bl;
  enterblock(fs, &bl, 1);
  lex_next(ls);
  varname = str_checkname(ls);
  switch (ls->t.token) {
    case '=': fornum(ls, varname, line); break;
    case ',': case TK_IN: forlist(ls, varname); break;
    default: lex_syntaxerror(ls, "'=' or 'in' expected");
  }
  check_match(ls, TK_END, TK_FOR, line);
  leaveblock(fs);
}

static void test_then_block(LexState *ls, int *escapelist) {
  BlockCnt bl;
  FuncState *fs = ls->fs;
  ExpDesc v;
  int jf;
  lex_next(ls);                        /* 'if' / 'elseif' */
  expr(ls, &v);
  checknext(ls, TK_THEN);
  if (ls->t.token == TK_BREAK) {       /* 'if c then break': jump when true */
    int line = ls->linenumber;
    code_goiffalse(fs, &v);
    lex_next(ls);
    enterblock(fs, &bl, 0);
    newgotoentry(ls, lex_newstring(ls, "break", 5), line, v.t);
    while (testnext(ls, ';')) {}
    if (block_follow(ls, 0)) {
      leaveblock(fs);
      return;
    }
    jf = code_jump(fs);
  }
  else {
    code_goiftrue(fs, &v);
    enterblock(fs, &bl, 0);
    jf = v.f;
  }
  statlist(ls);
  leaveblock(fs);
  if (ls->t.token == TK_ELSE || ls->t.token == TK_ELSEIF)
    code_concat(fs, escapelist, code_jump(fs));
  code_patchtohere(fs, jf);
}

static void ifstat(LexState *ls, int line) {
  int escapelist = NO_JUMP;
  test_then_block(ls, &escapelist);
  while (ls->t.token == TK_ELSEIF)
    test_then_block(ls, &escapelist);
  if (testnext(ls, TK_ELSE))
    block(ls);
  check_match(ls, TK_END, TK_IF, line);
  code_patchtohere(ls->fs, escapelist);
}

static void localfunc(LexState *ls) {
  ExpDesc b;
  FuncState *fs = ls->fs;
  int fvar = fs->nactvar;
  new_localvar(ls, str_checkname(ls));
  adjustlocalvars(ls, 1);              /* visible inside its own body */
  body(ls, &b, 0, ls->linenumber);
  localdebuginfo(fs, fvar)->startpc = fs->pc;
  {   /* the body's upvalue of the local itself (calls through it are
      ** recursive while f is not assigned: jit/llvmgen.c selfhint) */
    Proto *cp = fs->f->p[fs->np - 1];
    int k, r = getlocalvardesc(fs, fvar)->ridx;
    for (k = 0; k < cp->sizeupvalues; k++)
      if (cp->upvalues[k].instack && cp->upvalues[k].idx == r) cp->upvalues[k].selfref = 1;
  }
}

static int getlocalattribute(LexState *ls) {
  if (testnext(ls, '<')) {
    const char *attr = getstr(str_checkname(ls));
    checknext(ls, '>');
    if (strcmp(attr, "const") == 0) return VK_CONST;
    if (strcmp(attr, "close") == 0) return VK_CLOSE;
    code_semerror(ls, str_pushfstring(ls->L, "unknown attribute '%s'", attr));
  }
  return VK_REG;
}

static void checktoclose(FuncState *fs, int level) {
  if (level != -1) {
    marktobeclosed(fs);
    code_ABC(fs, OP_TBC, reglevel(fs, level), 0, 0);
  }
}

static void localstat(LexState *ls) {
  FuncState *fs = ls->fs;
  int toclose = -1;
  VarDesc *var;
  int vidx, kind;
  int nvars = 0, nexps;
  ExpDesc e;
  do {
    vidx = new_localvar(ls, str_checkname(ls));
    kind = getlocalattribute(ls);
    getlocalvardesc(fs, vidx)->kind = (uint8_t)kind;
    if (kind == VK_CLOSE) {
      if (toclose != -1)
        code_semerror(ls, "multiple to-be-closed variables in local list");
      toclose = fs->nactvar + nvars;
    }
    nvars++;
  } while (testnext(ls, ','));
  if (testnext(ls, '='))
    nexps = explist(ls, &e);
  else {
    e.k = EK_VOID;
    e.t = e.f = NO_JUMP;
    nexps = 0;
  }
  var = getlocalvardesc(fs, vidx);
  if (nvars == nexps && var->kind == VK_CONST &&
      code_exp2const(fs, &e, &var->kval)) {
    var->kind = VK_CTC;                /* no register: folded at each use */
    adjustlocalvars(ls, nvars - 1);
    fs->nactvar++;
  }
  else {
    adjust_assign(ls, nvars, nexps, &e);
    adjustlocalvars(ls, nvars);
  }
  checktoclose(fs, toclose);
}

static int funcname(LexState *ls, ExpDesc *v) {
  int ismethod = 0;
  singlevar(ls, v);
  while (ls->t.token == '.')
    fieldsel(ls, v);
  if (ls->t.token == ':') {
    ismethod = 1;
    fieldsel(ls, v);
  }
  return ismethod;
}

static void funcstat(LexState *ls, int line) {
  int ismethod;
  ExpDesc v, b;
  lex_next(ls);
  ismethod = funcname(ls, &v);
  body(ls, &b, ismethod, line);
  check_readonly(ls, &v);
  code_storevar(ls->fs, &v, &b);
  code_fixline(ls->fs, line);
}

static void exprstat(LexState *ls) {
  FuncState *fs = ls->fs;
  struct LHS v;
  suffixedexp(ls, &v.v);
  if (ls->t.token == '=' || ls->t.token == ',') {
    v.prev = NULL;
    restassign(ls, &v, 1);
  }
  else {
    check_condition(ls, v.v.k == EK_CALL, "syntax error");
    SETARG_C(code_getinstr(fs, &v.v), 1);   /* no results wanted */
  }
}

static void retstat(LexState *ls) {
  FuncState *fs = ls->fs;
  ExpDesc e;
  int nret;
  int first = parse_nvarstack(fs);
  if (block_follow(ls, 1) || ls->t.token == ';')
    nret = 0;
  else {
    nret = explist(ls, &e);
    if (ek_multret(e.k)) {
      code_setmultret(fs, &e);
      if (e.k == EK_CALL && nret == 1 && !fs->bl->insidetbc)
        SET_OPCODE(code_getinstr(fs, &e), OP_TAILCALL);
      nret = LUA_MULTRET;
    }
    else if (nret == 1)
      first = code_exp2anyreg(fs, &e);
    else
      code_exp2nextreg(fs, &e);
  }
  code_ret(fs, first, nret);
  testnext(ls, ';');
}

static void statement(LexState *ls) {
  int line = ls->linenumber;
  enterlevel(ls);
  switch (ls->t.token) {
    case ';':
      lex_next(ls);
      break;
    case TK_IF:
      ifstat(ls, line);
      break;
    case TK_WHILE:
      whilestat(ls, line);
      break;
    case TK_DO:
      lex_next(ls);
      block(ls);
      check_match(ls, TK_END, TK_DO, line);
      break;
    case TK_FOR:
      forstat(ls, line);
      break;
    case TK_REPEAT:
      repeatstat(ls, line);
      break;
    case TK_FUNCTION:
      funcstat(ls, line);
      break;
    case TK_LOCAL:
      lex_next(ls);
      if (testnext(ls, TK_FUNCTION)) localfunc(ls);
      else localstat(ls);
      break;
    case TK_DBCOLON:
      lex_next(ls);
      labelstat(ls, str_checkname(ls), line);
      break;
    case TK_RETURN:
      lex_next(ls);
      retstat(ls);
      break;
    case TK_BREAK:
      breakstat(ls);
      break;
    case TK_GOTO:
      lex_next(ls);
      gotostat(ls);
      break;
    default:
      exprstat(ls);
      break;
  }
  ls->fs->freereg = (uint8_t)parse_nvarstack(ls->fs);
  leavelevel(ls);
}

/* ------------------------------------------------------------------ */
/* entry point                                                          */
/* ------------------------------------------------------------------ */

static void mainfunc(LexState *ls, FuncState *fs) {
  BlockCnt bl;
  Upvaldesc *env;
  open_func(ls, fs, &bl);
  setvararg(fs, 0);                    /* main chunk is vararg */
  env = allocupvalue(fs);
  env->instack = 1;
  env->idx = 0;
  env->kind = VK_REG;
  env->name = ls->envn;                /* NOBARRIER: old-space, anchored */
  lex_next(ls);                        /* first token */
  statlist(ls);
  check(ls, TK_EOS);
  close_func(ls);
}

LClosure *mvm_parse(lua_State *L, ZIO *z, const char *chunkname, int firstchar) {
  LexState ls;
  FuncState fs;
  Dyndata dyd;
  LClosure *cl;
  TString *src;
  Value *base;
  ptrdiff_t clslot;
  if (chunkname == NULL) chunkname = "?";
  checkstack(L, 8 + LUA_MINSTACK);   /* anchors, plus room for error messages */
  cl = func_newLclosure(L, 1);
  *L->top = v_ref(cl);                 /* anchor the closure first */
  clslot = savestack(L, L->top);
  L->top++;
  src = str_newz(L, chunkname);
  *L->top = v_ref(src);                /* keep it while lex_setinput allocates */
  L->top++;
  lex_setinput(L, &ls, z, src, firstchar);
  ls.depth = (int)(L->nCcalls & 0xffff);   /* C levels already in use */
  /* source slot no longer needed (the scanner table anchors it), but keep
  ** the layout simple: it is dropped with the rest at the end */
  ls.dyd = &dyd;
  dyn_init(L, &dyd.actvar, sizeof(VarDesc), 16);
  dyn_init(L, &dyd.gt, sizeof(LabelDesc), 8);
  dyn_init(L, &dyd.label, sizeof(LabelDesc), 8);
  fs.f = func_newproto(L);
  cl = v_lcl(*restorestack(L, clslot));  /* re-read: may have moved */
  cl->p = fs.f;
  gc_cardmark(G(L), (GCObject *)cl, &cl->p);
  mainfunc(&ls, &fs);
  /* drop the compiler's anchors, leaving the closure on top */
  base = restorestack(L, clslot);
  L->top = base + 1;
  return v_lcl(*base);
}
