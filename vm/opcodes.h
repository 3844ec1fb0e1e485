/*
** opcodes.h -- the bytecode: instruction format and the one list of opcodes.
**
** The instruction set is register-based with 32-bit instructions.  Its shape
** and the meaning of every opcode deliberately follow the Lua 5.4 instruction
** set (same names, same operands, same semantics), because it is well
** understood and the JIT translates it opcode by opcode (see
** docs/decisions/0001-bytecode.md).  The code here is mvm's own.
**
**   31      24 23      16 15 14     7 6     0
**  +----------+----------+--+--------+-------+
**  |    C     |    B     |k |   A    |  op   |   iABC
**  |        Bx (17 bits)    |   A    |  op   |   iABx   (sBx = Bx - OFFSET_sBx)
**  |           Ax (25 bits)          |  op   |   iAx
**  |           sJ (25 bits, signed)  |  op   |   isJ    (sJ = raw - OFFSET_sJ)
**  +-------------------------------------------+
**
** Notation below: R[x] register, K[x] constant, U[x] upvalue, KS = K[x] is a
** string, RK(C) = k ? K[C] : R[C], sC = C - OFFSET_sC (signed 8-bit immediate),
** pc is the address of the NEXT instruction.  "MMBIN follows" means: the
** instruction jumps over the next one (an MMBIN*) when its fast path succeeds;
** otherwise execution falls into the MMBIN which calls the metamethod.
*/
#ifndef mvm_opcodes_h
#define mvm_opcodes_h

#include "object.h"

#define SIZE_OP  7
#define SIZE_A   8
#define SIZE_B   8
#define SIZE_C   8
#define SIZE_Bx  (SIZE_C + SIZE_B + 1)
#define SIZE_Ax  (SIZE_Bx + SIZE_A)
#define SIZE_sJ  (SIZE_Bx + SIZE_A)

#define POS_OP 0
#define POS_A  (POS_OP + SIZE_OP)
#define POS_k  (POS_A + SIZE_A)
#define POS_B  (POS_k + 1)
#define POS_C  (POS_B + SIZE_B)
#define POS_Bx POS_k
#define POS_Ax POS_A
#define POS_sJ POS_A

#define MAXARG_A   ((1 << SIZE_A) - 1)
#define MAXARG_B   ((1 << SIZE_B) - 1)
#define MAXARG_C   ((1 << SIZE_C) - 1)
#define MAXARG_Bx  ((1 << SIZE_Bx) - 1)
#define MAXARG_Ax  ((1 << SIZE_Ax) - 1)
#define MAXARG_sJ  ((1 << SIZE_sJ) - 1)
#define OFFSET_sBx (MAXARG_Bx >> 1)
#define OFFSET_sJ  (MAXARG_sJ >> 1)
#define OFFSET_sC  (MAXARG_C >> 1)

#define MASK1(n,p)  ((~((~(Instruction)0) << (n))) << (p))
#define MASK0(n,p)  (~MASK1(n,p))

#define GET_OPCODE(i)  ((OpCode)(((i) >> POS_OP) & MASK1(SIZE_OP,0)))
#define getarg(i,pos,size)  ((int)(((i) >> (pos)) & MASK1(size,0)))
#define setarg(i,v,pos,size) ((i) = (((i) & MASK0(size,pos)) | \
                                     ((((Instruction)(v)) << (pos)) & MASK1(size,pos))))
#define SET_OPCODE(i,o) setarg(i,o,POS_OP,SIZE_OP)

#define GETARG_A(i)   getarg(i, POS_A, SIZE_A)
#define GETARG_B(i)   getarg(i, POS_B, SIZE_B)
#define GETARG_C(i)   getarg(i, POS_C, SIZE_C)
#define GETARG_k(i)   getarg(i, POS_k, 1)
#define GETARG_sB(i)  (GETARG_B(i) - OFFSET_sC)
#define GETARG_sC(i)  (GETARG_C(i) - OFFSET_sC)
#define GETARG_Bx(i)  getarg(i, POS_Bx, SIZE_Bx)
#define GETARG_sBx(i) (getarg(i, POS_Bx, SIZE_Bx) - OFFSET_sBx)
#define GETARG_Ax(i)  getarg(i, POS_Ax, SIZE_Ax)
#define GETARG_sJ(i)  (getarg(i, POS_sJ, SIZE_sJ) - OFFSET_sJ)
#define SETARG_A(i,v)   setarg(i, v, POS_A, SIZE_A)
#define SETARG_B(i,v)   setarg(i, v, POS_B, SIZE_B)
#define SETARG_C(i,v)   setarg(i, v, POS_C, SIZE_C)
#define SETARG_k(i,v)   setarg(i, v, POS_k, 1)
#define SETARG_Bx(i,v)  setarg(i, v, POS_Bx, SIZE_Bx)
#define SETARG_sBx(i,b) SETARG_Bx((i), (unsigned int)((b) + OFFSET_sBx))
#define SETARG_Ax(i,v)  setarg(i, v, POS_Ax, SIZE_Ax)
#define SETARG_sJ(i,j)  setarg(i, (unsigned int)((j) + OFFSET_sJ), POS_sJ, SIZE_sJ)

#define CREATE_ABCk(o,a,b,c,k) ((((Instruction)(o)) << POS_OP) | (((Instruction)(a)) << POS_A) | \
    (((Instruction)(b)) << POS_B) | (((Instruction)(c)) << POS_C) | (((Instruction)(k)) << POS_k))
#define CREATE_ABx(o,a,bc) ((((Instruction)(o)) << POS_OP) | (((Instruction)(a)) << POS_A) | \
    (((Instruction)(bc)) << POS_Bx))
#define CREATE_Ax(o,a)  ((((Instruction)(o)) << POS_OP) | (((Instruction)(a)) << POS_Ax))
#define CREATE_sJ(o,j,k) ((((Instruction)(o)) << POS_OP) | \
    (((Instruction)((j) + OFFSET_sJ)) << POS_sJ) | (((Instruction)(k)) << POS_k))

/* Largest register index + 1 a function may use. */
#define MAXREGS 255
/* Number of list items to accumulate before a SETLIST instruction. */
#define LFIELDS_PER_FLUSH 50

/* format tags for the list below */
enum OpMode { iABC, iABx, iAsBx, iAx, isJ };

/*
** X(name, mode, sets_A, is_test, uses_top_in, sets_top_out, is_mm)
** The one list of opcodes.  Semantics as in Lua 5.4:
*/
#define MVM_OPCODES(X) \
  X(MOVE,      iABC,  1,0,0,0,0)  /* R[A] := R[B] */ \
  X(LOADI,     iAsBx, 1,0,0,0,0)  /* R[A] := sBx (integer) */ \
  X(LOADF,     iAsBx, 1,0,0,0,0)  /* R[A] := (lua_Number)sBx */ \
  X(LOADK,     iABx,  1,0,0,0,0)  /* R[A] := K[Bx] */ \
  X(LOADKX,    iABx,  1,0,0,0,0)  /* R[A] := K[extra arg] */ \
  X(LOADFALSE, iABC,  1,0,0,0,0)  /* R[A] := false */ \
  X(LFALSESKIP,iABC,  1,0,0,0,0)  /* R[A] := false; pc++ */ \
  X(LOADTRUE,  iABC,  1,0,0,0,0)  /* R[A] := true */ \
  X(LOADNIL,   iABC,  1,0,0,0,0)  /* R[A], ..., R[A+B] := nil */ \
  X(GETUPVAL,  iABC,  1,0,0,0,0)  /* R[A] := U[B] */ \
  X(SETUPVAL,  iABC,  0,0,0,0,0)  /* U[B] := R[A] */ \
  X(GETTABUP,  iABC,  1,0,0,0,0)  /* R[A] := U[B][K[C]:shortstring] */ \
  X(GETTABLE,  iABC,  1,0,0,0,0)  /* R[A] := R[B][R[C]] */ \
  X(GETI,      iABC,  1,0,0,0,0)  /* R[A] := R[B][C] */ \
  X(GETFIELD,  iABC,  1,0,0,0,0)  /* R[A] := R[B][K[C]:string] */ \
  X(SETTABUP,  iABC,  0,0,0,0,0)  /* U[A][K[B]:string] := RK(C) */ \
  X(SETTABLE,  iABC,  0,0,0,0,0)  /* R[A][R[B]] := RK(C) */ \
  X(SETI,      iABC,  0,0,0,0,0)  /* R[A][B] := RK(C) */ \
  X(SETFIELD,  iABC,  0,0,0,0,0)  /* R[A][K[B]:string] := RK(C) */ \
  X(NEWTABLE,  iABC,  1,0,0,0,0)  /* R[A] := {}; B = log2(hash size)+1, C (+EXTRAARG if k) = array size */ \
  X(SELF,      iABC,  1,0,0,0,0)  /* R[A+1] := R[B]; R[A] := R[B][RK(C):string] */ \
  X(ADDI,      iABC,  1,0,0,0,0)  /* R[A] := R[B] + sC; MMBINI follows */ \
  X(ADDK,      iABC,  1,0,0,0,0)  /* R[A] := R[B] + K[C]:number; MMBINK follows */ \
  X(SUBK,      iABC,  1,0,0,0,0)  /* R[A] := R[B] - K[C]:number */ \
  X(MULK,      iABC,  1,0,0,0,0)  /* R[A] := R[B] * K[C]:number */ \
  X(MODK,      iABC,  1,0,0,0,0)  /* R[A] := R[B] % K[C]:number */ \
  X(POWK,      iABC,  1,0,0,0,0)  /* R[A] := R[B] ^ K[C]:number */ \
  X(DIVK,      iABC,  1,0,0,0,0)  /* R[A] := R[B] / K[C]:number */ \
  X(IDIVK,     iABC,  1,0,0,0,0)  /* R[A] := R[B] // K[C]:number */ \
  X(BANDK,     iABC,  1,0,0,0,0)  /* R[A] := R[B] & K[C]:integer */ \
  X(BORK,      iABC,  1,0,0,0,0)  /* R[A] := R[B] | K[C]:integer */ \
  X(BXORK,     iABC,  1,0,0,0,0)  /* R[A] := R[B] ~ K[C]:integer */ \
  X(SHRI,      iABC,  1,0,0,0,0)  /* R[A] := R[B] >> sC */ \
  X(SHLI,      iABC,  1,0,0,0,0)  /* R[A] := sC << R[B] */ \
  X(ADD,       iABC,  1,0,0,0,0)  /* R[A] := R[B] + R[C]; MMBIN follows */ \
  X(SUB,       iABC,  1,0,0,0,0)  /* R[A] := R[B] - R[C] */ \
  X(MUL,       iABC,  1,0,0,0,0)  /* R[A] := R[B] * R[C] */ \
  X(MOD,       iABC,  1,0,0,0,0)  /* R[A] := R[B] % R[C] */ \
  X(POW,       iABC,  1,0,0,0,0)  /* R[A] := R[B] ^ R[C] */ \
  X(DIV,       iABC,  1,0,0,0,0)  /* R[A] := R[B] / R[C] */ \
  X(IDIV,      iABC,  1,0,0,0,0)  /* R[A] := R[B] // R[C] */ \
  X(BAND,      iABC,  1,0,0,0,0)  /* R[A] := R[B] & R[C] */ \
  X(BOR,       iABC,  1,0,0,0,0)  /* R[A] := R[B] | R[C] */ \
  X(BXOR,      iABC,  1,0,0,0,0)  /* R[A] := R[B] ~ R[C] */ \
  X(SHL,       iABC,  1,0,0,0,0)  /* R[A] := R[B] << R[C] */ \
  X(SHR,       iABC,  1,0,0,0,0)  /* R[A] := R[B] >> R[C] */ \
  X(MMBIN,     iABC,  0,0,0,0,1)  /* call C metamethod over R[A] and R[B]; result to the previous instruction's A */ \
  X(MMBINI,    iABC,  0,0,0,0,1)  /* call C metamethod over R[A] and sB (k: flip operands) */ \
  X(MMBINK,    iABC,  0,0,0,0,1)  /* call C metamethod over R[A] and K[B] (k: flip operands) */ \
  X(UNM,       iABC,  1,0,0,0,0)  /* R[A] := -R[B] */ \
  X(BNOT,      iABC,  1,0,0,0,0)  /* R[A] := ~R[B] */ \
  X(NOT,       iABC,  1,0,0,0,0)  /* R[A] := not R[B] */ \
  X(LEN,       iABC,  1,0,0,0,0)  /* R[A] := #R[B] (length operator) */ \
  X(CONCAT,    iABC,  1,0,0,0,0)  /* R[A] := R[A].. ... ..R[A + B - 1] */ \
  X(CLOSE,     iABC,  0,0,0,0,0)  /* close all upvalues >= R[A] */ \
  X(TBC,       iABC,  0,0,0,0,0)  /* mark variable A "to be closed" */ \
  X(JMP,       isJ,   0,0,0,0,0)  /* pc += sJ */ \
  X(EQ,        iABC,  0,1,0,0,0)  /* if ((R[A] == R[B]) ~= k) then pc++ */ \
  X(LT,        iABC,  0,1,0,0,0)  /* if ((R[A] <  R[B]) ~= k) then pc++ */ \
  X(LE,        iABC,  0,1,0,0,0)  /* if ((R[A] <= R[B]) ~= k) then pc++ */ \
  X(EQK,       iABC,  0,1,0,0,0)  /* if ((R[A] == K[B]) ~= k) then pc++ */ \
  X(EQI,       iABC,  0,1,0,0,0)  /* if ((R[A] == sB) ~= k) then pc++ (C: isfloat) */ \
  X(LTI,       iABC,  0,1,0,0,0)  /* if ((R[A] < sB) ~= k) then pc++ */ \
  X(LEI,       iABC,  0,1,0,0,0)  /* if ((R[A] <= sB) ~= k) then pc++ */ \
  X(GTI,       iABC,  0,1,0,0,0)  /* if ((R[A] > sB) ~= k) then pc++ */ \
  X(GEI,       iABC,  0,1,0,0,0)  /* if ((R[A] >= sB) ~= k) then pc++ */ \
  X(TEST,      iABC,  0,1,0,0,0)  /* if (not R[A] == k) then pc++ */ \
  X(TESTSET,   iABC,  1,1,0,0,0)  /* if (not R[B] == k) then pc++ else R[A] := R[B] */ \
  X(CALL,      iABC,  1,0,1,1,0)  /* R[A], ... ,R[A+C-2] := R[A](R[A+1], ... ,R[A+B-1]) */ \
  X(TAILCALL,  iABC,  1,0,1,1,0)  /* return R[A](R[A+1], ... ,R[A+B-1]) (k: close upvalues; C>0: vararg, C-1 = nparams) */ \
  X(RETURN,    iABC,  0,0,1,0,0)  /* return R[A], ... ,R[A+B-2] (k, C as TAILCALL) */ \
  X(RETURN0,   iABC,  0,0,0,0,0)  /* return */ \
  X(RETURN1,   iABC,  0,0,0,0,0)  /* return R[A] */ \
  X(FORLOOP,   iABx,  1,0,0,0,0)  /* update counters; if loop continues then pc-=Bx; */ \
  X(FORPREP,   iABx,  1,0,0,0,0)  /* <check values and prepare counters>; if not to run then pc+=Bx+1; */ \
  X(TFORPREP,  iABx,  0,0,0,0,0)  /* create upvalue for R[A + 3]; pc+=Bx */ \
  X(TFORCALL,  iABC,  0,0,0,0,0)  /* R[A+4], ... ,R[A+3+C] := R[A](R[A+1], R[A+2]); */ \
  X(TFORLOOP,  iABx,  1,0,0,0,0)  /* if R[A+4] ~= nil then { R[A+2]=R[A+4]; pc -= Bx } */ \
  X(SETLIST,   iABC,  0,0,1,0,0)  /* R[A][C+i] := R[A+i], 1 <= i <= B (B=0: up to top; k: C += EXTRAARG*(MAXARG_C+1)) */ \
  X(CLOSURE,   iABx,  1,0,0,0,0)  /* R[A] := closure(KPROTO[Bx]) */ \
  X(VARARG,    iABC,  1,0,0,1,0)  /* R[A], R[A+1], ..., R[A+C-2] = vararg */ \
  X(VARARGPREP,iABC,  0,0,1,0,0)  /* (adjust vararg parameters; A = number of fixed params) */ \
  X(EXTRAARG,  iAx,   0,0,0,0,0)  /* extra (larger) argument for previous opcode */

typedef enum {
#define MVM_OPENUM(name, mode, a, t, it, ot, mm) OP_##name,
  MVM_OPCODES(MVM_OPENUM)
#undef MVM_OPENUM
  NUM_OPCODES
} OpCode;

/* per-opcode properties (vm/opcodes.c) */
LUAI_FUNC const char *const mvm_opnames[NUM_OPCODES + 1];
LUAI_FUNC const uint8_t mvm_opmodes[NUM_OPCODES];
/* bits of mvm_opmodes: 0-2 OpMode, 3 sets A, 4 test (next is a jump), 5 uses top (IT), 6 sets top (OT), 7 metamethod */
#define getOpMode(m)  ((enum OpMode)(mvm_opmodes[m] & 7))
#define testAMode(m)  (mvm_opmodes[m] & (1 << 3))
#define testTMode(m)  (mvm_opmodes[m] & (1 << 4))
#define testITMode(m) (mvm_opmodes[m] & (1 << 5))
#define testOTMode(m) (mvm_opmodes[m] & (1 << 6))
#define testMMMode(m) (mvm_opmodes[m] & (1 << 7))

/* "out top" (set top for next instruction) */
#define isOT(i) ((testOTMode(GET_OPCODE(i)) && GETARG_C(i) == 0) || GET_OPCODE(i) == OP_TAILCALL)
/* "in top" (uses top from previous instruction) */
#define isIT(i) (testITMode(GET_OPCODE(i)) && GETARG_B(i) == 0)

/* the target of instruction 'i' at 'pc' when it jumps backwards (a loop's
** back-edge: FORLOOP, TFORLOOP, a JMP with a negative offset), else -1 */
static inline int op_backtarget(Instruction i, int pc) {
  OpCode op = GET_OPCODE(i);
  if (op == OP_FORLOOP || op == OP_TFORLOOP) return pc + 1 - GETARG_Bx(i);
  if (op == OP_JMP && GETARG_sJ(i) < 0) return pc + 1 + GETARG_sJ(i);
  return -1;
}

#endif
