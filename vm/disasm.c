/*
** disasm.c -- bytecode listing in the style of 'luac -l -l' (debugging aid).
*/
#include <stdio.h>
#include <inttypes.h>
#include <string.h>

#include "compile.h"
#include "opcodes.h"

static void printvalue(FILE *out, Value v) {
  if (v_isnil(v)) fprintf(out, "nil");
  else if (v_isbool(v)) fprintf(out, v == MVM_TRUE ? "true" : "false");
  else if (v_isfloat(v)) {
    char buf[64];
    snprintf(buf, sizeof buf, "%.14g", v_getfloat(v));
    fprintf(out, "%s", buf);
    if (buf[strspn(buf, "-0123456789")] == '\0') fprintf(out, ".0");
  }
  else if (v_isinteger(v)) fprintf(out, "%" PRId64, v_getint(v));
  else if (v_isstring(v)) {
    TString *ts = v_str(v);
    fputc('"', out);
    for (size_t i = 0; i < ts->len; i++) {
      unsigned char c = (unsigned char)ts->data[i];
      switch (c) {
        case '"': fprintf(out, "\\\""); break;
        case '\\': fprintf(out, "\\\\"); break;
        case '\n': fprintf(out, "\\n"); break;
        case '\r': fprintf(out, "\\r"); break;
        case '\t': fprintf(out, "\\t"); break;
        case '\a': fprintf(out, "\\a"); break;
        case '\b': fprintf(out, "\\b"); break;
        case '\f': fprintf(out, "\\f"); break;
        case '\v': fprintf(out, "\\v"); break;
        default:
          if (c < 32 || c >= 127) fprintf(out, "\\%03d", c);
          else fputc(c, out);
      }
    }
    fputc('"', out);
  }
  else fprintf(out, "?");
}

static void printk(FILE *out, const Proto *f, int i) {
  if (i >= 0 && i < f->sizek) printvalue(out, f->k[i]);
  else fprintf(out, "?k%d", i);
}

static const char *upname(const Proto *f, int i) {
  if (i >= 0 && i < f->sizeupvalues && f->upvalues[i].name)
    return getstr(f->upvalues[i].name);
  return "-";
}


static const char *evname(int e) {
  static const char *const names[] = {
    "__index", "__newindex", "__gc", "__mode", "__len", "__eq", "__add", "__sub",
    "__mul", "__mod", "__pow", "__div", "__idiv", "__band", "__bor", "__bxor",
    "__shl", "__shr", "__unm", "__bnot", "__lt", "__le", "__concat", "__call",
    "__close"
  };
  return (e >= 0 && e < (int)(sizeof(names) / sizeof(names[0]))) ? names[e] : "?";
}

/* operands in the layout of 'luac -l' (so listings can be diffed) */
static void printoperands(FILE *out, const Proto *f, int pc, Instruction i) {
  OpCode o = GET_OPCODE(i);
  int a = GETARG_A(i), b = GETARG_B(i), c = GETARG_C(i), k = GETARG_k(i);
  int sb = GETARG_sB(i), sc = GETARG_sC(i), bx = GETARG_Bx(i), sbx = GETARG_sBx(i);
  const char *isk = k ? "k" : "";
  int extra = (pc + 1 < f->sizecode && GET_OPCODE(f->code[pc + 1]) == OP_EXTRAARG)
              ? GETARG_Ax(f->code[pc + 1]) : 0;
#define CMT fprintf(out, "\t; ")
  switch (o) {
    case OP_MOVE: fprintf(out, "%d %d", a, b); break;
    case OP_LOADI: case OP_LOADF: fprintf(out, "%d %d", a, sbx); break;
    case OP_LOADK: fprintf(out, "%d %d", a, bx); CMT; printk(out, f, bx); break;
    case OP_LOADKX: fprintf(out, "%d", a); CMT; printk(out, f, extra); break;
    case OP_LOADFALSE: case OP_LFALSESKIP: case OP_LOADTRUE:
      fprintf(out, "%d", a); break;
    case OP_LOADNIL: fprintf(out, "%d %d", a, b); CMT; fprintf(out, "%d out", b + 1); break;
    case OP_GETUPVAL: case OP_SETUPVAL:
      fprintf(out, "%d %d", a, b); CMT; fprintf(out, "%s", upname(f, b)); break;
    case OP_GETTABUP:
      fprintf(out, "%d %d %d", a, b, c); CMT; fprintf(out, "%s ", upname(f, b));
      printk(out, f, c); break;
    case OP_GETTABLE: case OP_GETI: fprintf(out, "%d %d %d", a, b, c); break;
    case OP_GETFIELD: fprintf(out, "%d %d %d", a, b, c); CMT; printk(out, f, c); break;
    case OP_SETTABUP:
      fprintf(out, "%d %d %d%s", a, b, c, isk); CMT; fprintf(out, "%s ", upname(f, a));
      printk(out, f, b);
      if (k) { fprintf(out, " "); printk(out, f, c); }
      break;
    case OP_SETTABLE: case OP_SETI: case OP_SELF:
      fprintf(out, "%d %d %d%s", a, b, c, isk);
      if (k) { CMT; printk(out, f, c); }
      break;
    case OP_SETFIELD:
      fprintf(out, "%d %d %d%s", a, b, c, isk); CMT; printk(out, f, b);
      if (k) { fprintf(out, " "); printk(out, f, c); }
      break;
    case OP_NEWTABLE:
      fprintf(out, "%d %d %d", a, b, c); CMT;
      fprintf(out, "%d", c + extra * (MAXARG_C + 1)); break;
    case OP_ADDI: case OP_SHRI: case OP_SHLI: fprintf(out, "%d %d %d", a, b, sc); break;
    case OP_ADDK: case OP_SUBK: case OP_MULK: case OP_MODK: case OP_POWK:
    case OP_DIVK: case OP_IDIVK: case OP_BANDK: case OP_BORK: case OP_BXORK:
      fprintf(out, "%d %d %d", a, b, c); CMT; printk(out, f, c); break;
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_MOD: case OP_POW: case OP_DIV:
    case OP_IDIV: case OP_BAND: case OP_BOR: case OP_BXOR: case OP_SHL: case OP_SHR:
      fprintf(out, "%d %d %d", a, b, c); break;
    case OP_MMBIN: fprintf(out, "%d %d %d", a, b, c); CMT; fprintf(out, "%s", evname(c)); break;
    case OP_MMBINI:
      fprintf(out, "%d %d %d %d", a, sb, c, k); CMT; fprintf(out, "%s", evname(c));
      if (k) fprintf(out, " flip");
      break;
    case OP_MMBINK:
      fprintf(out, "%d %d %d %d", a, b, c, k); CMT; fprintf(out, "%s ", evname(c));
      printk(out, f, b);
      if (k) fprintf(out, " flip");
      break;
    case OP_UNM: case OP_BNOT: case OP_NOT: case OP_LEN: case OP_CONCAT:
      fprintf(out, "%d %d", a, b); break;
    case OP_CLOSE: case OP_TBC: case OP_RETURN1: case OP_VARARGPREP:
      fprintf(out, "%d", a); break;
    case OP_JMP:
      fprintf(out, "%d", GETARG_sJ(i)); CMT; fprintf(out, "to %d", GETARG_sJ(i) + pc + 2); break;
    case OP_EQ: case OP_LT: case OP_LE: fprintf(out, "%d %d %d", a, b, k); break;
    case OP_EQK: fprintf(out, "%d %d %d", a, b, k); CMT; printk(out, f, b); break;
    case OP_EQI: case OP_LTI: case OP_LEI: case OP_GTI: case OP_GEI:
      fprintf(out, "%d %d %d", a, sb, k); break;
    case OP_TEST: fprintf(out, "%d %d", a, k); break;
    case OP_TESTSET: fprintf(out, "%d %d %d", a, b, k); break;
    case OP_CALL:
      fprintf(out, "%d %d %d", a, b, c); CMT;
      if (b == 0) fprintf(out, "all in "); else fprintf(out, "%d in ", b - 1);
      if (c == 0) fprintf(out, "all out"); else fprintf(out, "%d out", c - 1);
      break;
    case OP_TAILCALL:
      fprintf(out, "%d %d %d%s", a, b, c, isk); CMT; fprintf(out, "%d in", b - 1); break;
    case OP_RETURN:
      fprintf(out, "%d %d %d%s", a, b, c, isk); CMT;
      if (b == 0) fprintf(out, "all out"); else fprintf(out, "%d out", b - 1);
      break;
    case OP_RETURN0: break;
    case OP_FORLOOP: case OP_TFORLOOP:
      fprintf(out, "%d %d", a, bx); CMT; fprintf(out, "to %d", pc - bx + 2); break;
    case OP_FORPREP:
      fprintf(out, "%d %d", a, bx); CMT; fprintf(out, "exit to %d", pc + bx + 3); break;
    case OP_TFORPREP:
      fprintf(out, "%d %d", a, bx); CMT; fprintf(out, "to %d", pc + bx + 2); break;
    case OP_TFORCALL: fprintf(out, "%d %d", a, c); break;
    case OP_SETLIST:
      fprintf(out, "%d %d %d", a, b, c);
      if (k) { CMT; fprintf(out, "%d", c + extra * (MAXARG_C + 1)); }
      break;
    case OP_CLOSURE:
      fprintf(out, "%d %d", a, bx); CMT;
      fprintf(out, "%p", (void *)(bx < f->sizep ? f->p[bx] : NULL)); break;
    case OP_VARARG:
      fprintf(out, "%d %d", a, c); CMT;
      if (c == 0) fprintf(out, "all out"); else fprintf(out, "%d out", c - 1);
      break;
    case OP_EXTRAARG: fprintf(out, "%d", GETARG_Ax(i)); break;
    default: fprintf(out, "%d %d %d", a, b, c); break;
  }
#undef CMT
}

static void printcode(FILE *out, const Proto *f) {
  for (int pc = 0; pc < f->sizecode; pc++) {
    Instruction i = f->code[pc];
    OpCode o = GET_OPCODE(i);
    int line = (f->lineinfo && pc < f->sizelineinfo) ? f->lineinfo[pc] : -1;
    fprintf(out, "\t%d\t", pc + 1);
    if (line >= 0) fprintf(out, "[%d]\t", line); else fprintf(out, "[-]\t");
    fprintf(out, "%-9s\t", mvm_opnames[o]);
    printoperands(out, f, pc, i);
    fputc('\n', out);
  }
}

static void printfunction(FILE *out, const Proto *f, int recursive) {
  const char *src = f->source ? getstr(f->source) : "=?";
  if (*src == '@' || *src == '=') src++;
  else if (*src == '\x1b') src = "(bstring)";
  else src = "(string)";
  fprintf(out, "\n%s <%s:%d,%d> (%d instruction%s at %p)\n",
          f->linedefined == 0 ? "main" : "function", src,
          f->linedefined, f->lastlinedefined, f->sizecode,
          f->sizecode == 1 ? "" : "s", (const void *)f);
  fprintf(out, "%d%s param%s, %d slots, %d upvalue%s, %d local%s, %d constant%s, %d function%s\n",
          f->numparams, f->is_vararg ? "+" : "", f->numparams == 1 ? "" : "s",
          f->maxstacksize,
          f->sizeupvalues, f->sizeupvalues == 1 ? "" : "s",
          f->sizelocvars, f->sizelocvars == 1 ? "" : "s",
          f->sizek, f->sizek == 1 ? "" : "s",
          f->sizep, f->sizep == 1 ? "" : "s");
  printcode(out, f);
  fprintf(out, "constants (%d) for %p:\n", f->sizek, (const void *)f);
  for (int i = 0; i < f->sizek; i++) {
    Value v = f->k[i];
    const char *t = v_isnil(v) ? "N" : v_isbool(v) ? "B" : v_isfloat(v) ? "F"
                  : v_isinteger(v) ? "I" : v_isstring(v) ? "S" : "?";
    fprintf(out, "\t%d\t%s\t", i, t);
    printvalue(out, v);
    fputc('\n', out);
  }
  fprintf(out, "locals (%d) for %p:\n", f->sizelocvars, (const void *)f);
  for (int i = 0; i < f->sizelocvars; i++)
    fprintf(out, "\t%d\t%s\t%d\t%d\n", i,
            f->locvars[i].varname ? getstr(f->locvars[i].varname) : "?",
            f->locvars[i].startpc + 1, f->locvars[i].endpc + 1);
  fprintf(out, "upvalues (%d) for %p:\n", f->sizeupvalues, (const void *)f);
  for (int i = 0; i < f->sizeupvalues; i++)
    fprintf(out, "\t%d\t%s\t%d\t%d\n", i, upname(f, i),
            f->upvalues[i].instack, f->upvalues[i].idx);
  if (recursive)
    for (int i = 0; i < f->sizep; i++) printfunction(out, f->p[i], recursive);
}

void mvm_disasm(const Proto *f, int recursive, void *file) {
  printfunction(file ? (FILE *)file : stdout, f, recursive);
}
