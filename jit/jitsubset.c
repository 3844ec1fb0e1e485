/*
** jitsubset.c -- which functions the compiler (jit/llvmgen.c) handles.
** In the core, so that a function outside the subset is turned down
** without loading LLVM at all; the backend calls it through JitState.
** Keep in step with emit() in llvmgen.c.
*/
#include "jit.h"
#include "opcodes.h"

static int kisimmint(Proto *p, int k) {
  return k < p->sizek && v_isimmint(p->k[k]);
}

/* NULL if 'p' is inside the subset, else a reason */
const char *jit_unsupported(Proto *p) {
  int pc;
  if (p->is_vararg) return "vararg function";
  for (pc = 0; pc < p->sizecode; pc++) {
    Instruction i = p->code[pc];
    OpCode op = GET_OPCODE(i);
    switch (op) {
      case OP_MOVE: case OP_LOADI: case OP_LOADF: case OP_LOADK:
      case OP_LOADFALSE: case OP_LOADTRUE: case OP_LOADNIL: case OP_GETUPVAL:
      case OP_ADD: case OP_SUB: case OP_MUL: case OP_ADDI:
      case OP_MMBIN: case OP_MMBINI: case OP_MMBINK:
      case OP_JMP: case OP_FORPREP: case OP_FORLOOP:
      case OP_RETURN0: case OP_RETURN1:
        break;
      case OP_ADDK: case OP_SUBK: case OP_MULK:
        if (!kisimmint(p, GETARG_C(i))) return "arithmetic with a non-integer constant";
        break;
      case OP_EQ: case OP_LT: case OP_LE: case OP_EQI:
      case OP_LTI: case OP_LEI: case OP_GTI: case OP_GEI:
        if (pc + 1 >= p->sizecode || GET_OPCODE(p->code[pc + 1]) != OP_JMP)
          return "test not followed by a jump";
        break;
      case OP_CALL:
        if (GETARG_B(i) == 0 || GETARG_C(i) == 0) return "call with variable arguments or results";
        break;
      case OP_RETURN:
        if (GETARG_B(i) == 0 || GETARG_k(i) || GETARG_C(i) != 0) return "return of variable results";
        break;
      default:
        return mvm_opnames[op];
    }
  }
  return NULL;
}

