/*
** jitsubset.c -- which functions the compiler (jit/llvmgen.c) handles.
** In the core, so that a function outside the subset is turned down
** without loading LLVM at all; the backend calls it through JitState.
** Keep in step with emit() in llvmgen.c.
*/
#include "jit.h"
#include "opcodes.h"

/* Larger functions stay interpreted: LLVM's time grows faster than the
** size (a 450-instruction main chunk takes ~1 s, mostly code generation),
** and the biggest functions are generated straight-line main chunks that
** run once (tests/lua/conf_fold.lua: 23000 instructions). */
#define JIT_MAXCODE  1000

/* NULL if 'p' is inside the subset, else a reason */
const char *jit_unsupported(Proto *p) {
  int pc;
  if (p->sizecode > JIT_MAXCODE) return "function too large";
  for (pc = 0; pc < p->sizecode; pc++) {
    Instruction i = p->code[pc];
    OpCode op = GET_OPCODE(i);
    switch (op) {
      case OP_MOVE: case OP_LOADI: case OP_LOADF: case OP_LOADK: case OP_LOADKX:
      case OP_LOADFALSE: case OP_LFALSESKIP: case OP_LOADTRUE: case OP_LOADNIL:
      case OP_GETUPVAL: case OP_SETUPVAL:
      case OP_GETTABUP: case OP_GETTABLE: case OP_GETI: case OP_GETFIELD:
      case OP_SETTABUP: case OP_SETTABLE: case OP_SETI: case OP_SETFIELD:
      case OP_NEWTABLE: case OP_SELF: case OP_EXTRAARG:
      case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_MOD:
      case OP_IDIV: case OP_POW: case OP_ADDI:
      case OP_ADDK: case OP_SUBK: case OP_MULK: case OP_DIVK: case OP_MODK:
      case OP_IDIVK: case OP_POWK: case OP_UNM: case OP_NOT:
      case OP_BAND: case OP_BOR: case OP_BXOR: case OP_SHL: case OP_SHR:
      case OP_BANDK: case OP_BORK: case OP_BXORK: case OP_SHRI: case OP_SHLI: case OP_BNOT:
      case OP_MMBIN: case OP_MMBINI: case OP_MMBINK:
      case OP_LEN: case OP_CONCAT: case OP_CLOSURE:
      case OP_JMP: case OP_FORPREP: case OP_FORLOOP:
      case OP_TFORPREP: case OP_TFORLOOP:
      case OP_TAILCALL:   /* a helper */
      case OP_RETURN0: case OP_RETURN1:
      case OP_VARARGPREP: case OP_VARARG:   /* helpers */
        break;
      case OP_EQ: case OP_LT: case OP_LE: case OP_EQK: case OP_EQI:
      case OP_LTI: case OP_LEI: case OP_GTI: case OP_GEI: case OP_TEST: case OP_TESTSET:
        if (pc + 1 >= p->sizecode || GET_OPCODE(p->code[pc + 1]) != OP_JMP)
          return "test not followed by a jump";
        break;
      case OP_CALL:      /* B == 0, C == 0: arguments/results up to L->top
                         ** (llvmgen.c's takes_top) */
      case OP_CLOSE:
        break;
      case OP_TFORCALL:
        if (GETARG_C(i) == 0) return "generic for with variable results";
        break;
      case OP_SETLIST:
        break;
      case OP_RETURN:
        /* k (upvalues to close) and C != 0 (a vararg function's frame to
        ** move back): a helper */
        break;
      default:
        return mvm_opnames[op];
    }
  }
  return NULL;
}
