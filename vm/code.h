/*
** code.h -- the bytecode generator (vm/code.c): turns expression
** descriptors into Lua 5.4 instructions, manages registers, constants and
** jump lists, folds constant arithmetic.
*/
#ifndef mvm_code_h
#define mvm_code_h

#include "parse.h"

/* binary operators; arithmetic ones in the order of LUA_OP* and OP_ADD.. */
typedef enum {
  OPR_ADD, OPR_SUB, OPR_MUL, OPR_MOD, OPR_POW, OPR_DIV, OPR_IDIV,
  OPR_BAND, OPR_BOR, OPR_BXOR, OPR_SHL, OPR_SHR,
  OPR_CONCAT,
  OPR_EQ, OPR_LT, OPR_LE, OPR_NE, OPR_GT, OPR_GE,
  OPR_AND, OPR_OR,
  OPR_NOBINOPR
} BinOpr;

typedef enum { OPR_MINUS, OPR_BNOT, OPR_NOT, OPR_LEN, OPR_NOUNOPR } UnOpr;

#define code_getinstr(fs,e)  ((fs)->f->code[(e)->u.info])
#define code_setmultret(fs,e) code_setreturns(fs, e, LUA_MULTRET)
#define code_jumpto(fs,t)    code_patchlist(fs, code_jump(fs), t)

LUAI_FUNC int code_emit(FuncState *fs, Instruction i);
LUAI_FUNC int code_ABCk(FuncState *fs, OpCode o, int a, int b, int c, int k);
#define code_ABC(fs,o,a,b,c)  code_ABCk(fs, o, a, b, c, 0)
LUAI_FUNC int code_ABx(FuncState *fs, OpCode o, int a, unsigned int bx);
LUAI_FUNC int code_AsBx(FuncState *fs, OpCode o, int a, int sbx);
LUAI_FUNC void code_fixline(FuncState *fs, int line);
LUAI_FUNC void code_nil(FuncState *fs, int from, int n);
LUAI_FUNC void code_reserveregs(FuncState *fs, int n);
LUAI_FUNC void code_checkstack(FuncState *fs, int n);
LUAI_FUNC void code_int(FuncState *fs, int reg, int64_t i);
LUAI_FUNC void code_dischargevars(FuncState *fs, ExpDesc *e);
LUAI_FUNC int code_exp2anyreg(FuncState *fs, ExpDesc *e);
LUAI_FUNC void code_exp2anyregup(FuncState *fs, ExpDesc *e);
LUAI_FUNC void code_exp2nextreg(FuncState *fs, ExpDesc *e);
LUAI_FUNC void code_exp2val(FuncState *fs, ExpDesc *e);
LUAI_FUNC int code_exp2const(FuncState *fs, const ExpDesc *e, ExpDesc *kv);
LUAI_FUNC void code_self(FuncState *fs, ExpDesc *e, ExpDesc *key);
LUAI_FUNC void code_indexed(FuncState *fs, ExpDesc *t, ExpDesc *k);
LUAI_FUNC void code_goiftrue(FuncState *fs, ExpDesc *e);
LUAI_FUNC void code_goiffalse(FuncState *fs, ExpDesc *e);
LUAI_FUNC void code_storevar(FuncState *fs, ExpDesc *var, ExpDesc *e);
LUAI_FUNC void code_setreturns(FuncState *fs, ExpDesc *e, int nresults);
LUAI_FUNC void code_setoneret(FuncState *fs, ExpDesc *e);
LUAI_FUNC int code_jump(FuncState *fs);
LUAI_FUNC void code_ret(FuncState *fs, int first, int nret);
LUAI_FUNC void code_patchlist(FuncState *fs, int list, int target);
LUAI_FUNC void code_patchtohere(FuncState *fs, int list);
LUAI_FUNC void code_concat(FuncState *fs, int *l1, int l2);
LUAI_FUNC int code_getlabel(FuncState *fs);
LUAI_FUNC void code_prefix(FuncState *fs, UnOpr op, ExpDesc *v, int line);
LUAI_FUNC void code_infix(FuncState *fs, BinOpr op, ExpDesc *v);
LUAI_FUNC void code_posfix(FuncState *fs, BinOpr op, ExpDesc *v1, ExpDesc *v2, int line);
LUAI_FUNC void code_settablesize(FuncState *fs, int pc, int ra, int asize, int hsize);
LUAI_FUNC void code_setlist(FuncState *fs, int base, int nelems, int tostore);
LUAI_FUNC void code_finish(FuncState *fs);
LUAI_FUNC l_noret code_semerror(LexState *ls, const char *msg);

#endif
