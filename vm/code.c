/*
** code.c -- bytecode generation for the Lua 5.4 instruction set.
**
** Expressions are described by ExpDesc values (parse.h) that stay symbolic
** (constants, variables, pending jumps) until an instruction needs them in a
** register.  Jump lists are threaded through the sJ fields of the pending
** JMP instructions themselves (NO_JUMP ends a list).
**
** GC notes: the Proto being filled is in the non-moving old space and is
** reachable from the closure anchored by mvm_parse, so 'fs->f' never goes
** stale.  Its arrays are grown with mvm_reallocvector (never collects) and
** every new slot is initialised at once (nil constants), because the
** collector may traverse a half-built proto.  Constants are deduplicated
** through the scanner table (key: the constant, value: its index).
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "code.h"
#include "do.h"
#include "string.h"
#include "table.h"
#include "vm.h"
#include "../gc/gc.h"

#define hasjumps(e)  ((e)->t != (e)->f)
#define MAXINDEXRK   MAXARG_B
#define MAXSHORTLEN  40   /* strings usable as GETFIELD/SETFIELD keys */

l_noret code_semerror(LexState *ls, const char *msg) {
  ls->t.token = 0;             /* no "near <token>" part */
  lex_syntaxerror(ls, msg);
}

static l_noret limiterror(FuncState *fs, int limit, const char *what) {
  lua_State *L = fs->ls->L;
  int line = fs->f->linedefined;
  const char *where = (line == 0) ? "main function"
                    : str_pushfstring(L, "function at line %d", line);
  lex_syntaxerror(fs->ls, str_pushfstring(L, "too many %s (limit is %d) in %s",
                                          what, limit, where));
}

/* new capacity for an array that must hold at least n+1 entries */
static int newcap(FuncState *fs, int n, int size, int limit, const char *what) {
  int ns;
  if (n + 1 > limit) limiterror(fs, limit, what);
  ns = size < 4 ? 8 : size * 2;
  if (ns > limit) ns = limit;
  if (ns <= n) ns = n + 1;
  return ns;
}

/* ------------------------------------------------------------------ */
/* emitting instructions                                                */
/* ------------------------------------------------------------------ */

int code_emit(FuncState *fs, Instruction i) {
  Proto *f = fs->f;
  lua_State *L = fs->ls->L;
  if (fs->pc >= f->sizecode) {
    int ns = newcap(fs, fs->pc, f->sizecode, INT32_MAX / 8, "opcodes");
    f->code = mvm_reallocvector(L, f->code, f->sizecode, ns, Instruction);
    f->sizecode = ns;
    f->lineinfo = mvm_reallocvector(L, f->lineinfo, f->sizelineinfo, ns, int);
    f->sizelineinfo = ns;
  }
  f->code[fs->pc] = i;
  f->lineinfo[fs->pc] = fs->ls->lastline;
  return fs->pc++;
}

int code_ABCk(FuncState *fs, OpCode o, int a, int b, int c, int k) {
  return code_emit(fs, CREATE_ABCk(o, a, b, c, k));
}

int code_ABx(FuncState *fs, OpCode o, int a, unsigned int bx) {
  return code_emit(fs, CREATE_ABx(o, a, bx));
}

int code_AsBx(FuncState *fs, OpCode o, int a, int sbx) {
  return code_emit(fs, CREATE_ABx(o, a, (unsigned int)(sbx + OFFSET_sBx)));
}

static int code_sJ(FuncState *fs, OpCode o, int sj, int k) {
  return code_emit(fs, CREATE_sJ(o, sj, k));
}

static int code_extraarg(FuncState *fs, int a) {
  return code_emit(fs, CREATE_Ax(OP_EXTRAARG, a));
}

/* load constant 'k' into 'reg' */
static int code_k(FuncState *fs, int reg, int k) {
  if (k <= MAXARG_Bx) return code_ABx(fs, OP_LOADK, reg, (unsigned)k);
  else {
    int p = code_ABx(fs, OP_LOADKX, reg, 0);
    code_extraarg(fs, k);
    return p;
  }
}

void code_fixline(FuncState *fs, int line) {
  fs->f->lineinfo[fs->pc - 1] = line;
}

/* previous instruction, or NULL when the current position is a jump target */
static Instruction *previnstr(FuncState *fs) {
  if (fs->pc > fs->lasttarget) return &fs->f->code[fs->pc - 1];
  return NULL;
}

void code_nil(FuncState *fs, int from, int n) {
  int last = from + n - 1;
  Instruction *prev = previnstr(fs);
  if (prev && GET_OPCODE(*prev) == OP_LOADNIL) {   /* try to merge */
    int pfrom = GETARG_A(*prev);
    int plast = pfrom + GETARG_B(*prev);
    if ((pfrom <= from && from <= plast + 1) ||
        (from <= pfrom && pfrom <= last + 1)) {
      if (pfrom < from) from = pfrom;
      if (plast > last) last = plast;
      SETARG_A(*prev, from);
      SETARG_B(*prev, last - from);
      return;
    }
  }
  code_ABC(fs, OP_LOADNIL, from, n - 1, 0);
}

/* ------------------------------------------------------------------ */
/* jumps                                                                */
/* ------------------------------------------------------------------ */

static int getjump(FuncState *fs, int pc) {
  int off = GETARG_sJ(fs->f->code[pc]);
  return off == NO_JUMP ? NO_JUMP : pc + 1 + off;
}

static void fixjump(FuncState *fs, int pc, int dest) {
  Instruction *jmp = &fs->f->code[pc];
  int off = dest - (pc + 1);
  if (!(-OFFSET_sJ <= off && off <= MAXARG_sJ - OFFSET_sJ))
    lex_syntaxerror(fs->ls, "control structure too long");
  SETARG_sJ(*jmp, off);
}

void code_concat(FuncState *fs, int *l1, int l2) {
  if (l2 == NO_JUMP) return;
  if (*l1 == NO_JUMP) *l1 = l2;
  else {
    int list = *l1, next;
    while ((next = getjump(fs, list)) != NO_JUMP) list = next;
    fixjump(fs, list, l2);
  }
}

int code_jump(FuncState *fs) {
  return code_sJ(fs, OP_JMP, NO_JUMP, 0);
}

void code_ret(FuncState *fs, int first, int nret) {
  OpCode op = nret == 0 ? OP_RETURN0 : nret == 1 ? OP_RETURN1 : OP_RETURN;
  code_ABC(fs, op, first, nret + 1, 0);
}

static int condjump(FuncState *fs, OpCode op, int a, int b, int c, int k) {
  code_ABCk(fs, op, a, b, c, k);
  return code_jump(fs);
}

int code_getlabel(FuncState *fs) {
  fs->lasttarget = fs->pc;
  return fs->pc;
}

/* the instruction controlling a jump (its test), or the jump itself */
static Instruction *jumpcontrol(FuncState *fs, int pc) {
  Instruction *pi = &fs->f->code[pc];
  if (pc >= 1 && testTMode(GET_OPCODE(*(pi - 1)))) return pi - 1;
  return pi;
}

/* Make a TESTSET in a jump list store into 'reg', or turn it into a TEST
** when no value is wanted.  Returns 0 if the jump is not a TESTSET. */
static int patchtestreg(FuncState *fs, int node, int reg) {
  Instruction *i = jumpcontrol(fs, node);
  if (GET_OPCODE(*i) != OP_TESTSET) return 0;
  if (reg != NO_REG && reg != GETARG_B(*i)) SETARG_A(*i, reg);
  else *i = CREATE_ABCk(OP_TEST, GETARG_B(*i), 0, 0, GETARG_k(*i));
  return 1;
}

static void removevalues(FuncState *fs, int list) {
  for (; list != NO_JUMP; list = getjump(fs, list))
    patchtestreg(fs, list, NO_REG);
}

static void patchlistaux(FuncState *fs, int list, int vtarget, int reg,
                         int dtarget) {
  while (list != NO_JUMP) {
    int next = getjump(fs, list);
    if (patchtestreg(fs, list, reg)) fixjump(fs, list, vtarget);
    else fixjump(fs, list, dtarget);
    list = next;
  }
}

void code_patchlist(FuncState *fs, int list, int target) {
  patchlistaux(fs, list, target, NO_REG, target);
}

void code_patchtohere(FuncState *fs, int list) {
  code_patchlist(fs, list, code_getlabel(fs));
}

/* ------------------------------------------------------------------ */
/* registers                                                            */
/* ------------------------------------------------------------------ */

void code_checkstack(FuncState *fs, int n) {
  int top = fs->freereg + n;
  if (top > fs->f->maxstacksize) {
    if (top >= MAXREGS)
      lex_syntaxerror(fs->ls, "function or expression needs too many registers");
    fs->f->maxstacksize = (uint8_t)top;
  }
}

void code_reserveregs(FuncState *fs, int n) {
  code_checkstack(fs, n);
  fs->freereg += n;
}

static void freereg(FuncState *fs, int reg) {
  if (reg >= parse_nvarstack(fs)) fs->freereg--;
}

static void freeregs(FuncState *fs, int r1, int r2) {
  if (r1 > r2) { freereg(fs, r1); freereg(fs, r2); }
  else { freereg(fs, r2); freereg(fs, r1); }
}

static void freeexp(FuncState *fs, ExpDesc *e) {
  if (e->k == EK_NONRELOC) freereg(fs, e->u.info);
}

static void freeexps(FuncState *fs, ExpDesc *e1, ExpDesc *e2) {
  int r1 = (e1->k == EK_NONRELOC) ? e1->u.info : -1;
  int r2 = (e2->k == EK_NONRELOC) ? e2->u.info : -1;
  freeregs(fs, r1, r2);
}

/* ------------------------------------------------------------------ */
/* constants                                                            */
/* ------------------------------------------------------------------ */

static Table *scantab(FuncState *fs) {
  return v_tab(*restorestack(fs->ls->L, fs->ls->tabslot));
}

/* index recorded for a key in the scanner table, if it belongs to this
** function (-1 otherwise); the caller checks the value in k[] matches */
static int kcached(FuncState *fs, const Value *slot) {
  if (!isabstkey(slot) && v_isimmint(*slot)) {
    int64_t idx = v_getimmint(*slot);
    if (idx >= 0 && idx < fs->nk) return (int)idx;
  }
  return -1;
}

static int kappend(FuncState *fs, Value v) {
  Proto *f = fs->f;
  lua_State *L = fs->ls->L;
  int idx = fs->nk;
  if (idx >= f->sizek) {
    int old = f->sizek;
    int ns = newcap(fs, idx, f->sizek, MAXARG_Ax, "constants");
    f->k = mvm_reallocvector(L, f->k, f->sizek, ns, Value);
    for (int i = old; i < ns; i++) f->k[i] = MVM_NIL;  /* NOBARRIER: not a reference */
    f->sizek = ns;
  }
  gc_write(G(L), (GCObject *)f, &f->k[idx], v);
  fs->nk++;
  return idx;
}

static void kremember(FuncState *fs, Value key, int idx) {
  /* may allocate (a boxed copy of a large integer key): nothing is held */
  tab_set(fs->ls->L, scantab(fs), key, v_immint(idx));
}

static int stringK(FuncState *fs, TString *s) {
  Value v = v_ref(s);
  int idx = kcached(fs, tab_getstr(scantab(fs), s));
  if (idx >= 0 && fs->f->k[idx] == v) return idx;
  idx = kappend(fs, v);
  kremember(fs, v, idx);
  return idx;
}

static int intK(FuncState *fs, int64_t n) {
  Value v;
  int idx = kcached(fs, tab_getint(scantab(fs), n));
  if (idx >= 0) {
    Value kv = fs->f->k[idx];
    if (v_isinteger(kv) && v_getint(kv) == n) return idx;
  }
  v = vm_int(fs->ls->L, n);          /* may box (allocate): stored at once */
  idx = kappend(fs, v);
  kremember(fs, fs->f->k[idx], idx);
  return idx;
}

static int flt2int(double d, int64_t *p) {
  if (d >= -9223372036854775808.0 && d < 9223372036854775808.0) {
    int64_t i = (int64_t)d;
    if ((double)i == d) { *p = i; return 1; }
  }
  return 0;
}

/* A float with an integral value would share the integer's key in the
** table: use a nearby non-integral key instead, r*(1+2^-52) (2^-52 for 0),
** as Lua 5.4 does.  Keys may still clash (huge floats stay integral, or a
** real constant has that value); the bit comparison then fails and a
** duplicate constant is added, which is harmless. */
static int numberK(FuncState *fs, double d) {
  Value v = v_float(d);
  Value key = v;
  int64_t ik;
  int idx;
  if (flt2int(d, &ik)) {
    const double q = ldexp(1.0, -52);
    key = v_float(ik == 0 ? q : d + d * q);
  }
  idx = kcached(fs, tab_get(scantab(fs), key));
  if (idx >= 0 && fs->f->k[idx] == v) return idx;
  idx = kappend(fs, v);
  kremember(fs, key, idx);
  return idx;
}

static int simpleK(FuncState *fs, Value key, Value v) {
  int idx = kcached(fs, tab_get(scantab(fs), key));
  if (idx >= 0 && fs->f->k[idx] == v) return idx;
  idx = kappend(fs, v);
  kremember(fs, key, idx);
  return idx;
}

static int boolK(FuncState *fs, int b) {
  return simpleK(fs, v_bool(b), v_bool(b));
}

static int nilK(FuncState *fs) {
  return simpleK(fs, v_lud(NULL), MVM_NIL);   /* nil cannot be a key */
}

static int fitsBx(int64_t i) {
  return -OFFSET_sBx <= i && i <= MAXARG_Bx - OFFSET_sBx;
}

static int fitsC(int64_t i) {
  return (uint64_t)i + OFFSET_sC <= (uint64_t)MAXARG_C;
}

void code_int(FuncState *fs, int reg, int64_t i) {
  if (fitsBx(i)) code_AsBx(fs, OP_LOADI, reg, (int)i);
  else code_k(fs, reg, intK(fs, i));
}

static void code_float(FuncState *fs, int reg, double d) {
  int64_t i;
  if (flt2int(d, &i) && fitsBx(i)) code_AsBx(fs, OP_LOADF, reg, (int)i);
  else code_k(fs, reg, numberK(fs, d));
}

/* ------------------------------------------------------------------ */
/* constant expressions                                                 */
/* ------------------------------------------------------------------ */

static void const2exp(const ExpDesc *kv, ExpDesc *e) {
  e->k = kv->k;
  e->u = kv->u;
}

/* numeric constant without jumps? */
static int isnumeral(const ExpDesc *e) {
  return !hasjumps(e) && (e->k == EK_KINT || e->k == EK_KFLT);
}

int code_exp2const(FuncState *fs, const ExpDesc *e, ExpDesc *kv) {
  if (hasjumps(e)) return 0;
  switch (e->k) {
    case EK_FALSE: case EK_TRUE: case EK_NIL: case EK_KSTR:
    case EK_KINT: case EK_KFLT:
      *kv = *e;
      return 1;
    case EK_CONST:
      *kv = parse_vardesc(fs, e->u.info)->kval;
      return 1;
    default:
      return 0;
  }
}

static void str2K(FuncState *fs, ExpDesc *e) {
  e->u.info = stringK(fs, e->u.strval);
  e->k = EK_K;
}

/* ------------------------------------------------------------------ */
/* discharging expressions                                              */
/* ------------------------------------------------------------------ */

void code_setreturns(FuncState *fs, ExpDesc *e, int nresults) {
  Instruction *pc = &code_getinstr(fs, e);
  SETARG_C(*pc, nresults + 1);
  if (e->k == EK_VARARG) {
    SETARG_A(*pc, fs->freereg);
    code_reserveregs(fs, 1);
  }
}

void code_setoneret(FuncState *fs, ExpDesc *e) {
  if (e->k == EK_CALL) {
    e->k = EK_NONRELOC;
    e->u.info = GETARG_A(code_getinstr(fs, e));
  }
  else if (e->k == EK_VARARG) {
    SETARG_C(code_getinstr(fs, e), 2);
    e->k = EK_RELOC;
  }
}

void code_dischargevars(FuncState *fs, ExpDesc *e) {
  switch (e->k) {
    case EK_CONST:
      const2exp(&parse_vardesc(fs, e->u.info)->kval, e);
      break;
    case EK_LOCAL:
      e->u.info = e->u.var.ridx;
      e->k = EK_NONRELOC;
      break;
    case EK_UPVAL:
      e->u.info = code_ABC(fs, OP_GETUPVAL, 0, e->u.info, 0);
      e->k = EK_RELOC;
      break;
    case EK_INDEXUP:
      e->u.info = code_ABC(fs, OP_GETTABUP, 0, e->u.ind.t, e->u.ind.idx);
      e->k = EK_RELOC;
      break;
    case EK_INDEXI:
      freereg(fs, e->u.ind.t);
      e->u.info = code_ABC(fs, OP_GETI, 0, e->u.ind.t, e->u.ind.idx);
      e->k = EK_RELOC;
      break;
    case EK_INDEXSTR:
      freereg(fs, e->u.ind.t);
      e->u.info = code_ABC(fs, OP_GETFIELD, 0, e->u.ind.t, e->u.ind.idx);
      e->k = EK_RELOC;
      break;
    case EK_INDEXED:
      freeregs(fs, e->u.ind.t, e->u.ind.idx);
      e->u.info = code_ABC(fs, OP_GETTABLE, 0, e->u.ind.t, e->u.ind.idx);
      e->k = EK_RELOC;
      break;
    case EK_VARARG: case EK_CALL:
      code_setoneret(fs, e);
      break;
    default:
      break;
  }
}

static void discharge2reg(FuncState *fs, ExpDesc *e, int reg) {
  code_dischargevars(fs, e);
  switch (e->k) {
    case EK_NIL: code_nil(fs, reg, 1); break;
    case EK_FALSE: code_ABC(fs, OP_LOADFALSE, reg, 0, 0); break;
    case EK_TRUE: code_ABC(fs, OP_LOADTRUE, reg, 0, 0); break;
    case EK_KSTR: str2K(fs, e); /* FALLTHROUGH */
    case EK_K: code_k(fs, reg, e->u.info); break;
    case EK_KFLT: code_float(fs, reg, e->u.nval); break;
    case EK_KINT: code_int(fs, reg, e->u.ival); break;
    case EK_RELOC:
      SETARG_A(code_getinstr(fs, e), reg);
      break;
    case EK_NONRELOC:
      if (reg != e->u.info) code_ABC(fs, OP_MOVE, reg, e->u.info, 0);
      break;
    default:
      return;   /* EK_JMP: nothing to do yet */
  }
  e->u.info = reg;
  e->k = EK_NONRELOC;
}

static void discharge2anyreg(FuncState *fs, ExpDesc *e) {
  if (e->k != EK_NONRELOC) {
    code_reserveregs(fs, 1);
    discharge2reg(fs, e, fs->freereg - 1);
  }
}

static int loadbool(FuncState *fs, int a, OpCode op) {
  code_getlabel(fs);             /* the instruction is a jump target */
  return code_ABC(fs, op, a, 0, 0);
}

/* does some jump in the list need an explicit value (not a TESTSET)? */
static int needvalue(FuncState *fs, int list) {
  for (; list != NO_JUMP; list = getjump(fs, list))
    if (GET_OPCODE(*jumpcontrol(fs, list)) != OP_TESTSET) return 1;
  return 0;
}

static void exp2reg(FuncState *fs, ExpDesc *e, int reg) {
  discharge2reg(fs, e, reg);
  if (e->k == EK_JMP) code_concat(fs, &e->t, e->u.info);
  if (hasjumps(e)) {
    int final, pf = NO_JUMP, pt = NO_JUMP;
    if (needvalue(fs, e->t) || needvalue(fs, e->f)) {
      int fj = (e->k == EK_JMP) ? NO_JUMP : code_jump(fs);
      pf = loadbool(fs, reg, OP_LFALSESKIP);
      pt = loadbool(fs, reg, OP_LOADTRUE);
      code_patchtohere(fs, fj);
    }
    final = code_getlabel(fs);
    patchlistaux(fs, e->f, final, reg, pf);
    patchlistaux(fs, e->t, final, reg, pt);
  }
  e->f = e->t = NO_JUMP;
  e->u.info = reg;
  e->k = EK_NONRELOC;
}

void code_exp2nextreg(FuncState *fs, ExpDesc *e) {
  code_dischargevars(fs, e);
  freeexp(fs, e);
  code_reserveregs(fs, 1);
  exp2reg(fs, e, fs->freereg - 1);
}

int code_exp2anyreg(FuncState *fs, ExpDesc *e) {
  code_dischargevars(fs, e);
  if (e->k == EK_NONRELOC) {
    if (!hasjumps(e)) return e->u.info;
    if (e->u.info >= parse_nvarstack(fs)) {   /* a temporary: reuse it */
      exp2reg(fs, e, e->u.info);
      return e->u.info;
    }
    /* a local with jumps: needs a fresh register */
  }
  code_exp2nextreg(fs, e);
  return e->u.info;
}

void code_exp2anyregup(FuncState *fs, ExpDesc *e) {
  if (e->k != EK_UPVAL || hasjumps(e)) code_exp2anyreg(fs, e);
}

void code_exp2val(FuncState *fs, ExpDesc *e) {
  if (hasjumps(e)) code_exp2anyreg(fs, e);
  else code_dischargevars(fs, e);
}

/* try to make 'e' a K operand (index fitting in an RK field) */
static int exp2K(FuncState *fs, ExpDesc *e) {
  if (!hasjumps(e)) {
    int info;
    switch (e->k) {
      case EK_TRUE: info = boolK(fs, 1); break;
      case EK_FALSE: info = boolK(fs, 0); break;
      case EK_NIL: info = nilK(fs); break;
      case EK_KINT: info = intK(fs, e->u.ival); break;
      case EK_KFLT: info = numberK(fs, e->u.nval); break;
      case EK_KSTR: info = stringK(fs, e->u.strval); break;
      case EK_K: info = e->u.info; break;
      default: return 0;
    }
    if (info <= MAXINDEXRK) {
      e->k = EK_K;
      e->u.info = info;
      return 1;
    }
  }
  return 0;
}

static int exp2RK(FuncState *fs, ExpDesc *e) {
  if (exp2K(fs, e)) return 1;
  code_exp2anyreg(fs, e);
  return 0;
}

static void codeABRK(FuncState *fs, OpCode o, int a, int b, ExpDesc *ec) {
  int k = exp2RK(fs, ec);
  code_ABCk(fs, o, a, b, ec->u.info, k);
}

void code_storevar(FuncState *fs, ExpDesc *var, ExpDesc *ex) {
  switch (var->k) {
    case EK_LOCAL:
      freeexp(fs, ex);
      exp2reg(fs, ex, var->u.var.ridx);
      return;
    case EK_UPVAL: {
      int e = code_exp2anyreg(fs, ex);
      code_ABC(fs, OP_SETUPVAL, e, var->u.info, 0);
      break;
    }
    case EK_INDEXUP:
      codeABRK(fs, OP_SETTABUP, var->u.ind.t, var->u.ind.idx, ex);
      break;
    case EK_INDEXI:
      codeABRK(fs, OP_SETI, var->u.ind.t, var->u.ind.idx, ex);
      break;
    case EK_INDEXSTR:
      codeABRK(fs, OP_SETFIELD, var->u.ind.t, var->u.ind.idx, ex);
      break;
    case EK_INDEXED:
      codeABRK(fs, OP_SETTABLE, var->u.ind.t, var->u.ind.idx, ex);
      break;
    default:
      break;
  }
  freeexp(fs, ex);
}

void code_self(FuncState *fs, ExpDesc *e, ExpDesc *key) {
  int ereg;
  code_exp2anyreg(fs, e);
  ereg = e->u.info;
  freeexp(fs, e);
  e->u.info = fs->freereg;          /* function and 'self' go here */
  e->k = EK_NONRELOC;
  code_reserveregs(fs, 2);
  codeABRK(fs, OP_SELF, e->u.info, ereg, key);
  freeexp(fs, key);
}

/* ------------------------------------------------------------------ */
/* conditionals                                                         */
/* ------------------------------------------------------------------ */

static void negatecond(FuncState *fs, ExpDesc *e) {
  Instruction *pc = jumpcontrol(fs, e->u.info);
  SETARG_k(*pc, GETARG_k(*pc) ^ 1);
}

static int jumponcond(FuncState *fs, ExpDesc *e, int cond) {
  if (e->k == EK_RELOC) {
    Instruction ie = code_getinstr(fs, e);
    if (GET_OPCODE(ie) == OP_NOT) {       /* test the operand instead */
      fs->pc--;                           /* drop the NOT */
      return condjump(fs, OP_TEST, GETARG_B(ie), 0, 0, !cond);
    }
  }
  discharge2anyreg(fs, e);
  freeexp(fs, e);
  return condjump(fs, OP_TESTSET, NO_REG, e->u.info, 0, cond);
}

void code_goiftrue(FuncState *fs, ExpDesc *e) {
  int pc;
  code_dischargevars(fs, e);
  switch (e->k) {
    case EK_JMP:
      negatecond(fs, e);
      pc = e->u.info;
      break;
    case EK_K: case EK_KFLT: case EK_KINT: case EK_KSTR: case EK_TRUE:
      pc = NO_JUMP;                      /* always true */
      break;
    default:
      pc = jumponcond(fs, e, 0);
      break;
  }
  code_concat(fs, &e->f, pc);
  code_patchtohere(fs, e->t);
  e->t = NO_JUMP;
}

void code_goiffalse(FuncState *fs, ExpDesc *e) {
  int pc;
  code_dischargevars(fs, e);
  switch (e->k) {
    case EK_JMP: pc = e->u.info; break;
    case EK_NIL: case EK_FALSE: pc = NO_JUMP; break;
    default: pc = jumponcond(fs, e, 1); break;
  }
  code_concat(fs, &e->t, pc);
  code_patchtohere(fs, e->f);
  e->f = NO_JUMP;
}

static void codenot(FuncState *fs, ExpDesc *e) {
  switch (e->k) {
    case EK_NIL: case EK_FALSE:
      e->k = EK_TRUE;
      break;
    case EK_K: case EK_KFLT: case EK_KINT: case EK_KSTR: case EK_TRUE:
      e->k = EK_FALSE;
      break;
    case EK_JMP:
      negatecond(fs, e);
      break;
    case EK_RELOC: case EK_NONRELOC:
      discharge2anyreg(fs, e);
      freeexp(fs, e);
      e->u.info = code_ABC(fs, OP_NOT, 0, e->u.info, 0);
      e->k = EK_RELOC;
      break;
    default:
      break;
  }
  { int t = e->f; e->f = e->t; e->t = t; }
  removevalues(fs, e->f);
  removevalues(fs, e->t);
}

/* ------------------------------------------------------------------ */
/* indexing                                                             */
/* ------------------------------------------------------------------ */

static int isKstr(FuncState *fs, ExpDesc *e) {
  if (e->k == EK_K && !hasjumps(e) && e->u.info <= MAXARG_B) {
    Value v = fs->f->k[e->u.info];
    return v_isstring(v) && v_str(v)->len <= MAXSHORTLEN;
  }
  return 0;
}

static int isKint(ExpDesc *e) {
  return e->k == EK_KINT && !hasjumps(e);
}

static int isCint(ExpDesc *e) {
  return isKint(e) && (uint64_t)e->u.ival <= (uint64_t)MAXARG_C;
}

static int isSCint(ExpDesc *e) {
  return isKint(e) && fitsC(e->u.ival);
}

/* numeral fitting an sC/sB immediate? (floats with integral values too) */
static int isSCnumber(ExpDesc *e, int *pi, int *isfloat) {
  int64_t i;
  if (e->k == EK_KINT) i = e->u.ival;
  else if (e->k == EK_KFLT && flt2int(e->u.nval, &i)) *isfloat = 1;
  else return 0;
  if (!hasjumps(e) && fitsC(i)) {
    *pi = (int)i + OFFSET_sC;
    return 1;
  }
  return 0;
}

void code_indexed(FuncState *fs, ExpDesc *t, ExpDesc *k) {
  if (k->k == EK_KSTR) str2K(fs, k);
  if (t->k == EK_UPVAL && !isKstr(fs, k))
    code_exp2anyreg(fs, t);              /* upvalue must go to a register */
  if (t->k == EK_UPVAL) {
    int up = t->u.info;
    t->u.ind.t = (uint8_t)up;
    t->u.ind.idx = (short)k->u.info;
    t->k = EK_INDEXUP;
  }
  else {
    t->u.ind.t = (uint8_t)((t->k == EK_LOCAL) ? t->u.var.ridx : t->u.info);
    if (isKstr(fs, k)) {
      t->u.ind.idx = (short)k->u.info;
      t->k = EK_INDEXSTR;
    }
    else if (isCint(k)) {
      t->u.ind.idx = (short)k->u.ival;
      t->k = EK_INDEXI;
    }
    else {
      t->u.ind.idx = (short)code_exp2anyreg(fs, k);
      t->k = EK_INDEXED;
    }
  }
}

/* ------------------------------------------------------------------ */
/* constant folding                                                     */
/* ------------------------------------------------------------------ */

static int num2int(const ExpDesc *e, int64_t *p) {
  if (e->k == EK_KINT) { *p = e->u.ival; return 1; }
  return flt2int(e->u.nval, p);
}

static double num2flt(const ExpDesc *e) {
  return e->k == EK_KINT ? (double)e->u.ival : e->u.nval;
}

static int64_t shiftleft(int64_t x, int64_t y) {
  if (y < 0) {
    if (y <= -64) return 0;
    return (int64_t)((uint64_t)x >> (unsigned)(-y));
  }
  if (y >= 64) return 0;
  return (int64_t)((uint64_t)x << (unsigned)y);
}

/* fold 'op' (LUA_OP*) over numerals e1, e2 into e1; 0 when not folded */
static int constfold(FuncState *fs, int op, ExpDesc *e1, const ExpDesc *e2) {
  int64_t i1, i2;
  if (!isnumeral(e1) || !isnumeral(e2)) return 0;
  switch (op) {   /* operations that must not be folded */
    case LUA_OPBAND: case LUA_OPBOR: case LUA_OPBXOR:
    case LUA_OPSHL: case LUA_OPSHR: case LUA_OPBNOT:
      if (!num2int(e1, &i1) || !num2int(e2, &i2)) return 0;
      break;
    case LUA_OPDIV: case LUA_OPIDIV: case LUA_OPMOD:
      if (num2flt(e2) == 0) return 0;     /* division by 0 */
      break;
    default:
      break;
  }
  switch (op) {
    case LUA_OPBAND: case LUA_OPBOR: case LUA_OPBXOR:
    case LUA_OPSHL: case LUA_OPSHR: case LUA_OPBNOT: {
      int64_t r;
      uint64_t a = (uint64_t)i1, b = (uint64_t)i2;
      switch (op) {
        case LUA_OPBAND: r = (int64_t)(a & b); break;
        case LUA_OPBOR: r = (int64_t)(a | b); break;
        case LUA_OPBXOR: r = (int64_t)(a ^ b); break;
        case LUA_OPSHL: r = shiftleft(i1, i2); break;
        case LUA_OPSHR: r = shiftleft(i1, (int64_t)(0u - b)); break;
        default: r = (int64_t)~a; break;
      }
      e1->k = EK_KINT;
      e1->u.ival = r;
      return 1;
    }
    default:
      break;
  }
  if (e1->k == EK_KINT && e2->k == EK_KINT && op != LUA_OPDIV && op != LUA_OPPOW) {
    uint64_t a = (uint64_t)e1->u.ival, b = (uint64_t)e2->u.ival;
    int64_t x = e1->u.ival, y = e2->u.ival, r;
    switch (op) {
      case LUA_OPADD: r = (int64_t)(a + b); break;
      case LUA_OPSUB: r = (int64_t)(a - b); break;
      case LUA_OPMUL: r = (int64_t)(a * b); break;
      case LUA_OPUNM: r = (int64_t)(0u - a); break;
      case LUA_OPMOD:
        if (y == -1) r = 0;
        else {
          r = x % y;
          if (r != 0 && (r ^ y) < 0) r += y;
        }
        break;
      case LUA_OPIDIV:
        if (y == -1) r = (int64_t)(0u - a);
        else {
          r = x / y;
          if ((x % y != 0) && ((x ^ y) < 0)) r -= 1;
        }
        break;
      default: return 0;
    }
    e1->u.ival = r;
    return 1;
  }
  else {
    double a = num2flt(e1), b = num2flt(e2), r;
    switch (op) {
      case LUA_OPADD: r = a + b; break;
      case LUA_OPSUB: r = a - b; break;
      case LUA_OPMUL: r = a * b; break;
      case LUA_OPDIV: r = a / b; break;
      case LUA_OPPOW: r = (b == 2) ? a * a : pow(a, b); break;
      case LUA_OPIDIV: r = floor(a / b); break;
      case LUA_OPUNM: r = -a; break;
      case LUA_OPMOD:
        r = fmod(a, b);
        if ((r > 0) ? b < 0 : (r < 0 && b > 0)) r += b;
        break;
      default: return 0;
    }
    if (r != r || r == 0) return 0;       /* never fold to NaN or +-0.0 */
    e1->k = EK_KFLT;
    e1->u.nval = r;
    return 1;
  }
}

/* ------------------------------------------------------------------ */
/* operators                                                            */
/* ------------------------------------------------------------------ */

static void codeunexpval(FuncState *fs, OpCode op, ExpDesc *e, int line) {
  int r = code_exp2anyreg(fs, e);
  freeexp(fs, e);
  e->u.info = code_ABC(fs, op, 0, r, 0);
  e->k = EK_RELOC;
  code_fixline(fs, line);
}

static void finishbinexpval(FuncState *fs, ExpDesc *e1, ExpDesc *e2, OpCode op,
                            int v2, int flip, int line, OpCode mmop, TMS ev) {
  int v1 = code_exp2anyreg(fs, e1);
  int pc = code_ABCk(fs, op, 0, v1, v2, 0);
  freeexps(fs, e1, e2);
  e1->u.info = pc;
  e1->k = EK_RELOC;
  code_fixline(fs, line);
  code_ABCk(fs, mmop, v1, v2, (int)ev, flip);
  code_fixline(fs, line);
}

static void codebinexpval(FuncState *fs, BinOpr opr, ExpDesc *e1, ExpDesc *e2,
                          int line) {
  OpCode op = (OpCode)((int)opr - OPR_ADD + OP_ADD);
  int v2 = code_exp2anyreg(fs, e2);
  finishbinexpval(fs, e1, e2, op, v2, 0, line, OP_MMBIN,
                  (TMS)((int)opr - OPR_ADD + TM_ADD));
}

static void codebini(FuncState *fs, OpCode op, ExpDesc *e1, ExpDesc *e2,
                     int flip, int line, TMS ev) {
  int v2 = (int)e2->u.ival + OFFSET_sC;
  finishbinexpval(fs, e1, e2, op, v2, flip, line, OP_MMBINI, ev);
}

static void codebinK(FuncState *fs, BinOpr opr, ExpDesc *e1, ExpDesc *e2,
                     int flip, int line) {
  TMS ev = (TMS)((int)opr - OPR_ADD + TM_ADD);
  OpCode op = (OpCode)((int)opr - OPR_ADD + OP_ADDK);
  finishbinexpval(fs, e1, e2, op, e2->u.info, flip, line, OP_MMBINK, ev);
}

/* 'e1 op I' coded as 'e1 op2 -I' (SUB as ADDI, SHL as SHRI) */
static int finishbinexpneg(FuncState *fs, ExpDesc *e1, ExpDesc *e2, OpCode op,
                           int line, TMS ev) {
  int64_t i2;
  if (!isKint(e2)) return 0;
  i2 = e2->u.ival;
  if (!(fitsC(i2) && fitsC(-i2))) return 0;
  finishbinexpval(fs, e1, e2, op, (int)(-i2) + OFFSET_sC, 0, line, OP_MMBINI, ev);
  SETARG_B(fs->f->code[fs->pc - 1], (int)i2 + OFFSET_sC);  /* MMBINI gets I */
  return 1;
}

static void swapexps(ExpDesc *e1, ExpDesc *e2) {
  ExpDesc t = *e1; *e1 = *e2; *e2 = t;
}

static void codebinNoK(FuncState *fs, BinOpr opr, ExpDesc *e1, ExpDesc *e2,
                       int flip, int line) {
  if (flip) swapexps(e1, e2);       /* back to the original order */
  codebinexpval(fs, opr, e1, e2, line);
}

static void codearith(FuncState *fs, BinOpr opr, ExpDesc *e1, ExpDesc *e2,
                      int flip, int line) {
  if (isnumeral(e2) && exp2K(fs, e2)) codebinK(fs, opr, e1, e2, flip, line);
  else codebinNoK(fs, opr, e1, e2, flip, line);
}

static void codecommutative(FuncState *fs, BinOpr op, ExpDesc *e1, ExpDesc *e2,
                            int line) {
  int flip = 0;
  if (isnumeral(e1)) { swapexps(e1, e2); flip = 1; }
  if (op == OPR_ADD && isSCint(e2)) codebini(fs, OP_ADDI, e1, e2, flip, line, TM_ADD);
  else codearith(fs, op, e1, e2, flip, line);
}

static void codebitwise(FuncState *fs, BinOpr opr, ExpDesc *e1, ExpDesc *e2,
                        int line) {
  int flip = 0;
  if (e1->k == EK_KINT) { swapexps(e1, e2); flip = 1; }
  if (e2->k == EK_KINT && exp2K(fs, e2)) codebinK(fs, opr, e1, e2, flip, line);
  else codebinNoK(fs, opr, e1, e2, flip, line);
}

/* e1 < e2 / e1 <= e2 (GT/GE were swapped into these) */
static void codeorder(FuncState *fs, BinOpr opr, ExpDesc *e1, ExpDesc *e2) {
  int r1, r2, im, isfloat = 0;
  OpCode op;
  if (isSCnumber(e2, &im, &isfloat)) {
    r1 = code_exp2anyreg(fs, e1);
    r2 = im;
    op = (opr == OPR_LT) ? OP_LTI : OP_LEI;
  }
  else if (isSCnumber(e1, &im, &isfloat)) {   /* I < r  ==  r > I */
    r1 = code_exp2anyreg(fs, e2);
    r2 = im;
    op = (opr == OPR_LT) ? OP_GTI : OP_GEI;
  }
  else {
    r1 = code_exp2anyreg(fs, e1);
    r2 = code_exp2anyreg(fs, e2);
    op = (opr == OPR_LT) ? OP_LT : OP_LE;
  }
  freeexps(fs, e1, e2);
  e1->u.info = condjump(fs, op, r1, r2, isfloat, 1);
  e1->k = EK_JMP;
}

static void codeeq(FuncState *fs, BinOpr opr, ExpDesc *e1, ExpDesc *e2) {
  int r1, r2, im, isfloat = 0;
  OpCode op;
  if (e1->k != EK_NONRELOC) swapexps(e1, e2);  /* e1 was a constant */
  r1 = code_exp2anyreg(fs, e1);
  if (isSCnumber(e2, &im, &isfloat)) { op = OP_EQI; r2 = im; }
  else if (exp2RK(fs, e2)) { op = OP_EQK; r2 = e2->u.info; }
  else { op = OP_EQ; r2 = code_exp2anyreg(fs, e2); }
  freeexps(fs, e1, e2);
  e1->u.info = condjump(fs, op, r1, r2, isfloat, opr == OPR_EQ);
  e1->k = EK_JMP;
}

void code_prefix(FuncState *fs, UnOpr opr, ExpDesc *e, int line) {
  static const ExpDesc zero = {EK_KINT, {0}, NO_JUMP, NO_JUMP};
  code_dischargevars(fs, e);
  switch (opr) {
    case OPR_MINUS:
      if (constfold(fs, LUA_OPUNM, e, &zero)) break;
      codeunexpval(fs, OP_UNM, e, line);
      break;
    case OPR_BNOT:
      if (constfold(fs, LUA_OPBNOT, e, &zero)) break;
      codeunexpval(fs, OP_BNOT, e, line);
      break;
    case OPR_LEN:
      codeunexpval(fs, OP_LEN, e, line);
      break;
    case OPR_NOT:
      codenot(fs, e);
      break;
    default:
      break;
  }
}

void code_infix(FuncState *fs, BinOpr op, ExpDesc *v) {
  code_dischargevars(fs, v);
  switch (op) {
    case OPR_AND: code_goiftrue(fs, v); break;
    case OPR_OR: code_goiffalse(fs, v); break;
    case OPR_CONCAT: code_exp2nextreg(fs, v); break;  /* operands consecutive */
    case OPR_ADD: case OPR_SUB: case OPR_MUL: case OPR_DIV: case OPR_IDIV:
    case OPR_MOD: case OPR_POW: case OPR_BAND: case OPR_BOR: case OPR_BXOR:
    case OPR_SHL: case OPR_SHR:
      if (!isnumeral(v)) code_exp2anyreg(fs, v);  /* numerals may fold */
      break;
    case OPR_EQ: case OPR_NE:
      if (!isnumeral(v)) exp2RK(fs, v);
      break;
    case OPR_LT: case OPR_LE: case OPR_GT: case OPR_GE: {
      int im, isf;
      if (!isSCnumber(v, &im, &isf)) code_exp2anyreg(fs, v);
      break;
    }
    default:
      break;
  }
}

static void codeconcat(FuncState *fs, ExpDesc *e1, ExpDesc *e2, int line) {
  Instruction *ie2 = previnstr(fs);
  if (ie2 && GET_OPCODE(*ie2) == OP_CONCAT) {   /* extend 'e2's CONCAT */
    int n = GETARG_B(*ie2);
    freeexp(fs, e2);
    SETARG_A(*ie2, e1->u.info);
    SETARG_B(*ie2, n + 1);
  }
  else {
    code_ABC(fs, OP_CONCAT, e1->u.info, 2, 0);
    freeexp(fs, e2);
    code_fixline(fs, line);
  }
}

void code_posfix(FuncState *fs, BinOpr opr, ExpDesc *e1, ExpDesc *e2, int line) {
  code_dischargevars(fs, e2);
  if (opr <= OPR_SHR && constfold(fs, (int)opr - OPR_ADD + LUA_OPADD, e1, e2))
    return;
  switch (opr) {
    case OPR_AND:
      code_concat(fs, &e2->f, e1->f);
      *e1 = *e2;
      break;
    case OPR_OR:
      code_concat(fs, &e2->t, e1->t);
      *e1 = *e2;
      break;
    case OPR_CONCAT:
      code_exp2nextreg(fs, e2);
      codeconcat(fs, e1, e2, line);
      break;
    case OPR_ADD: case OPR_MUL:
      codecommutative(fs, opr, e1, e2, line);
      break;
    case OPR_SUB:
      if (finishbinexpneg(fs, e1, e2, OP_ADDI, line, TM_SUB)) break;
      /* FALLTHROUGH */
    case OPR_DIV: case OPR_IDIV: case OPR_MOD: case OPR_POW:
      codearith(fs, opr, e1, e2, 0, line);
      break;
    case OPR_BAND: case OPR_BOR: case OPR_BXOR:
      codebitwise(fs, opr, e1, e2, line);
      break;
    case OPR_SHL:
      if (isSCint(e1)) {
        swapexps(e1, e2);
        codebini(fs, OP_SHLI, e1, e2, 1, line, TM_SHL);   /* I << r */
      }
      else if (finishbinexpneg(fs, e1, e2, OP_SHRI, line, TM_SHL)) {
        /* r << I coded as r >> -I */
      }
      else codebinexpval(fs, opr, e1, e2, line);
      break;
    case OPR_SHR:
      if (isSCint(e2)) codebini(fs, OP_SHRI, e1, e2, 0, line, TM_SHR);
      else codebinexpval(fs, opr, e1, e2, line);
      break;
    case OPR_EQ: case OPR_NE:
      codeeq(fs, opr, e1, e2);
      break;
    case OPR_GT: case OPR_GE:
      swapexps(e1, e2);
      opr = (opr == OPR_GT) ? OPR_LT : OPR_LE;
      /* FALLTHROUGH */
    case OPR_LT: case OPR_LE:
      codeorder(fs, opr, e1, e2);
      break;
    default:
      break;
  }
}

/* ------------------------------------------------------------------ */
/* tables and the final pass                                            */
/* ------------------------------------------------------------------ */

static int ceillog2(unsigned int x) {
  int l = 0;
  x--;
  while (x >= 256) { l += 8; x >>= 8; }
  while (x > 0) { l++; x >>= 1; }
  return l;
}

void code_settablesize(FuncState *fs, int pc, int ra, int asize, int hsize) {
  Instruction *inst = &fs->f->code[pc];
  int rb = (hsize != 0) ? ceillog2((unsigned)hsize) + 1 : 0;
  int extra = asize / (MAXARG_C + 1);
  int rc = asize % (MAXARG_C + 1);
  inst[0] = CREATE_ABCk(OP_NEWTABLE, ra, rb, rc, extra > 0);
  inst[1] = CREATE_Ax(OP_EXTRAARG, extra);
}

void code_setlist(FuncState *fs, int base, int nelems, int tostore) {
  if (tostore == LUA_MULTRET) tostore = 0;
  if (nelems <= MAXARG_C)
    code_ABC(fs, OP_SETLIST, base, tostore, nelems);
  else {
    int extra = nelems / (MAXARG_C + 1);
    code_ABCk(fs, OP_SETLIST, base, tostore, nelems % (MAXARG_C + 1), 1);
    code_extraarg(fs, extra);
  }
  fs->freereg = (uint8_t)(base + 1);
}

/* follow chains of jumps to their final destination */
static int finaltarget(Instruction *code, int i) {
  for (int n = 0; n < 100; n++) {
    Instruction pc = code[i];
    if (GET_OPCODE(pc) != OP_JMP) break;
    i += GETARG_sJ(pc) + 1;
  }
  return i;
}

void code_finish(FuncState *fs) {
  Proto *p = fs->f;
  for (int i = 0; i < fs->pc; i++) {
    Instruction *pc = &p->code[i];
    switch (GET_OPCODE(*pc)) {
      case OP_RETURN0: case OP_RETURN1:
        if (!(fs->needclose || p->is_vararg)) break;
        SET_OPCODE(*pc, OP_RETURN);
        /* FALLTHROUGH */
      case OP_RETURN: case OP_TAILCALL:
        if (fs->needclose) SETARG_k(*pc, 1);
        if (p->is_vararg) SETARG_C(*pc, p->numparams + 1);
        break;
      case OP_JMP:
        fixjump(fs, i, finaltarget(p->code, i));
        break;
      default:
        break;
    }
  }
}
