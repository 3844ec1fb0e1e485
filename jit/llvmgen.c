/*
** llvmgen.c -- bytecode -> LLVM IR for the first compiled subset.
**
** Shape of the generated code (see jit.h for the calling convention):
**   - every Lua register stays in the VM stack; each instruction loads its
**     operands from base[r] and stores its result to base[r], so at every
**     call and every exit the interpreter's view of the frame is complete.
**     LLVM keeps values in machine registers between calls as it likes.
**   - 'base' (ci->func + 1, a raw addrspace(0) pointer into the VM stack) is
**     kept in an alloca and re-read from ci->func after every call, because
**     the stack may have been reallocated (DESIGN: never keep a raw pointer
**     into a VM stack across a call).
**   - every Lua value is a 'ptr addrspace(1)'.  ptrtoint is used only for
**     tag tests and integer payloads; inttoptr only ever builds
**     non-reference words (integer immediates, floats, nil/booleans).
**     References are only ever loaded from memory, never rebuilt from bits.
**   - type guards: when an operand is not what the fast path handles, the
**     code stores ci->u.l.savedpc = the instruction and returns JIT_EXITED;
**     the interpreter re-executes that instruction with its full semantics
**     (boxing, floats, metamethods, errors).  Nothing has been written for
**     the failing instruction at that point.
**   - the function has gc "statepoint-example" and "frame-pointer"="all";
**     the module defines gc.safepoint_poll, which loads the VM's poll flag
**     (G(L)->interrupt) and calls mvmrt_poll only when it is set.
**
** Supported: MOVE LOADI LOADF LOADK LOADFALSE LOADTRUE LOADNIL GETUPVAL
** ADD SUB MUL ADDI ADDK SUBK MULK (integer constants) MMBIN* (unreachable)
** EQ LT LE EQI LTI LEI GTI GEI (followed by JMP) JMP FORPREP FORLOOP
** CALL (fixed arguments and results) RETURN (fixed, no close) RETURN0
** RETURN1.  Anything else: JIT_UNSUPPORTED, decided before any IR is built.
*/
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include "llvmjit.h"
#include "opcodes.h"

typedef struct Gen {
  LLVMContextRef C;
  LLVMModuleRef M;
  LLVMBuilderRef B;
  LLVMValueRef fn, L, ci, basevar;
  LLVMTypeRef i1, i8, i32, i64, i128, p0, p1, vd;
  LLVMTypeRef ty_call, ty_ret;
  LLVMValueRef f_call, f_ret;
  LLVMBasicBlockRef *bb, *exits;
  Proto *p;
  JitState *J;
} Gen;

/* ---------------------------------------------------------------------
** Small IR builders
** --------------------------------------------------------------------- */

#define B_ (g->B)

static LLVMValueRef ci64(Gen *g, uint64_t v) { return LLVMConstInt(g->i64, v, 0); }
static LLVMValueRef ci32(Gen *g, int v) { return LLVMConstInt(g->i32, (unsigned long long)(long long)v, 1); }

/* a non-reference constant word as a Value */
static LLVMValueRef cword(Gen *g, Value w) {
  return LLVMConstIntToPtr(ci64(g, w), g->p1);
}

/* a raw (addrspace 0) pointer to host memory that never moves */
static LLVMValueRef craw(Gen *g, const void *addr) {
  return LLVMConstIntToPtr(ci64(g, (uint64_t)(uintptr_t)addr), g->p0);
}

static LLVMValueRef byteptr(Gen *g, LLVMValueRef base, size_t off) {
  LLVMValueRef idx = ci64(g, off);
  return LLVMBuildGEP2(B_, g->i8, base, &idx, 1, "");
}

static void reload_base(Gen *g) {
  LLVMValueRef func = LLVMBuildLoad2(B_, g->p0, byteptr(g, g->ci, offsetof(CallInfo, func)), "func");
  LLVMBuildStore(B_, byteptr(g, func, sizeof(Value)), g->basevar);
}

static LLVMValueRef regptr(Gen *g, int r) {
  LLVMValueRef base = LLVMBuildLoad2(B_, g->p0, g->basevar, "base");
  LLVMValueRef idx = ci64(g, (uint64_t)r);
  return LLVMBuildGEP2(B_, g->i64, base, &idx, 1, "");
}

static LLVMValueRef getreg(Gen *g, int r) {
  return LLVMBuildLoad2(B_, g->p1, regptr(g, r), "");
}

/* NOBARRIER: stores into the VM stack, a root scanned in full */
static void setreg(Gen *g, int r, LLVMValueRef v) {
  LLVMBuildStore(B_, v, regptr(g, r));
}

static void set_savedpc(Gen *g, int pc) {
  LLVMBuildStore(B_, craw(g, g->p->code + pc),
                 byteptr(g, g->ci, offsetof(CallInfo, u.l.savedpc)));
}

/* tag test and payload: the only uses of ptrtoint */
static LLVMValueRef bits(Gen *g, LLVMValueRef v) {
  return LLVMBuildPtrToInt(B_, v, g->i64, "");
}
static LLVMValueRef isint(Gen *g, LLVMValueRef b) {
  return LLVMBuildICmp(B_, LLVMIntUGE, b, ci64(g, MVM_TAG_INT), "isint");
}
static LLVMValueRef sext48(Gen *g, LLVMValueRef x) {
  return LLVMBuildAShr(B_, LLVMBuildShl(B_, x, ci64(g, 16), ""), ci64(g, 16), "");
}
static LLVMValueRef fits48(Gen *g, LLVMValueRef r) {
  return LLVMBuildICmp(B_, LLVMIntEQ, sext48(g, r), r, "fits");
}
/* an integer immediate from a payload known to fit */
static LLVMValueRef mkint(Gen *g, LLVMValueRef r) {
  LLVMValueRef w = LLVMBuildOr(B_, LLVMBuildAnd(B_, r, ci64(g, MVM_PAYLOAD), ""),
                               ci64(g, MVM_TAG_INT), "");
  return LLVMBuildIntToPtr(B_, w, g->p1, "");
}

/* block that leaves to the interpreter at instruction 'pc' */
static LLVMBasicBlockRef exitblock(Gen *g, int pc) {
  if (g->exits[pc] == NULL) {
    LLVMBasicBlockRef cur = LLVMGetInsertBlock(B_);
    LLVMBasicBlockRef e = LLVMAppendBasicBlockInContext(g->C, g->fn, "exit");
    LLVMPositionBuilderAtEnd(B_, e);
    set_savedpc(g, pc);
    LLVMBuildRet(B_, ci32(g, JIT_EXITED));
    LLVMPositionBuilderAtEnd(B_, cur);
    g->exits[pc] = e;
  }
  return g->exits[pc];
}

/* continue only if 'cond' holds, else exit at 'pc' */
static void guard(Gen *g, LLVMValueRef cond, int pc) {
  LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(g->C, g->fn, "ok");
  LLVMBuildCondBr(B_, cond, ok, exitblock(g, pc));
  LLVMPositionBuilderAtEnd(B_, ok);
}

/* payload of an operand that must be an integer immediate */
static LLVMValueRef intoperand(Gen *g, LLVMValueRef v, int pc) {
  LLVMValueRef b = bits(g, v);
  guard(g, isint(g, b), pc);
  return sext48(g, b);
}

static void br(Gen *g, int target) {
  LLVMBuildBr(B_, g->bb[target]);
}

/* ---------------------------------------------------------------------
** Instructions
** --------------------------------------------------------------------- */

/* R[A] := x op y on integer immediates; result must fit an immediate */
static void arith(Gen *g, int pc, OpCode op, LLVMValueRef x, LLVMValueRef y) {
  Instruction i = g->p->code[pc];
  LLVMValueRef r;
  if (op == OP_MUL) {
    /* 48 x 48 bits: exact in 128 bits, then check it fits 48 */
    LLVMValueRef wide = LLVMBuildMul(B_, LLVMBuildSExt(B_, x, g->i128, ""),
                                     LLVMBuildSExt(B_, y, g->i128, ""), "");
    r = LLVMBuildTrunc(B_, wide, g->i64, "");
    guard(g, LLVMBuildICmp(B_, LLVMIntEQ, LLVMBuildSExt(B_, sext48(g, r), g->i128, ""),
                           wide, ""), pc);
  }
  else {
    /* 48 +/- 48 bits cannot overflow 64 */
    r = op == OP_ADD ? LLVMBuildAdd(B_, x, y, "") : LLVMBuildSub(B_, x, y, "");
    guard(g, fits48(g, r), pc);
  }
  setreg(g, GETARG_A(i), mkint(g, r));
  br(g, pc + 2);   /* skip the MMBIN* */
}

/* a test (EQ/LT/.../GEI) followed by its JMP */
static void condjump(Gen *g, int pc, LLVMValueRef cond) {
  Instruction i = g->p->code[pc];
  Instruction j = g->p->code[pc + 1];
  int target = pc + 2 + GETARG_sJ(j);
  /* "if (cond ~= k) then pc++": skip the jump when cond differs from k */
  if (GETARG_k(i))
    LLVMBuildCondBr(B_, cond, g->bb[target], g->bb[pc + 2]);
  else
    LLVMBuildCondBr(B_, cond, g->bb[pc + 2], g->bb[target]);
}

static void forprep(Gen *g, int pc) {
  Instruction i = g->p->code[pc];
  int a = GETARG_A(i);
  LLVMValueRef vinit = getreg(g, a);
  LLVMValueRef init = intoperand(g, vinit, pc);
  LLVMValueRef limit = intoperand(g, getreg(g, a + 1), pc);
  LLVMValueRef step = intoperand(g, getreg(g, a + 2), pc);
  LLVMValueRef pos, skip, count, up, down, zero = ci64(g, 0);
  LLVMBasicBlockRef skipb = LLVMAppendBasicBlockInContext(g->C, g->fn, "forskip");
  LLVMBasicBlockRef runb = LLVMAppendBasicBlockInContext(g->C, g->fn, "forrun");
  /* step 0: the interpreter raises the error */
  guard(g, LLVMBuildICmp(B_, LLVMIntNE, step, zero, ""), pc);
  pos = LLVMBuildICmp(B_, LLVMIntSGT, step, zero, "");
  skip = LLVMBuildSelect(B_, pos, LLVMBuildICmp(B_, LLVMIntSGT, init, limit, ""),
                         LLVMBuildICmp(B_, LLVMIntSLT, init, limit, ""), "skip");
  LLVMBuildCondBr(B_, skip, skipb, runb);
  LLVMPositionBuilderAtEnd(B_, skipb);
  setreg(g, a + 3, vinit);
  br(g, pc + 1 + GETARG_Bx(i) + 1);
  LLVMPositionBuilderAtEnd(B_, runb);
  /* all three fit 48 bits: the differences and quotients are exact */
  up = LLVMBuildUDiv(B_, LLVMBuildSub(B_, limit, init, ""), step, "");
  down = LLVMBuildUDiv(B_, LLVMBuildSub(B_, init, limit, ""), LLVMBuildNeg(B_, step, ""), "");
  count = LLVMBuildSelect(B_, pos, up, down, "count");
  guard(g, LLVMBuildICmp(B_, LLVMIntULE, count, ci64(g, MVM_IMM_MAX), ""), pc);
  setreg(g, a + 1, mkint(g, count));
  setreg(g, a + 3, vinit);
  br(g, pc + 1);
}

static void forloop(Gen *g, int pc) {
  Instruction i = g->p->code[pc];
  int a = GETARG_A(i);
  LLVMValueRef idx = intoperand(g, getreg(g, a), pc);
  LLVMValueRef count = intoperand(g, getreg(g, a + 1), pc);
  LLVMValueRef step = intoperand(g, getreg(g, a + 2), pc);
  LLVMValueRef nidx, nv;
  LLVMBasicBlockRef again = LLVMAppendBasicBlockInContext(g->C, g->fn, "foragain");
  LLVMBasicBlockRef notpos = LLVMAppendBasicBlockInContext(g->C, g->fn, "fordone");
  LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntSGT, count, ci64(g, 0), ""), again, notpos);
  /* count < 0 (a huge unsigned count): the interpreter's slow path */
  LLVMPositionBuilderAtEnd(B_, notpos);
  LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntEQ, count, ci64(g, 0), ""),
                  g->bb[pc + 1], exitblock(g, pc));
  LLVMPositionBuilderAtEnd(B_, again);
  nidx = LLVMBuildAdd(B_, idx, step, "");
  guard(g, fits48(g, nidx), pc);
  setreg(g, a + 1, mkint(g, LLVMBuildSub(B_, count, ci64(g, 1), "")));
  nv = mkint(g, nidx);
  setreg(g, a, nv);
  setreg(g, a + 3, nv);
  set_savedpc(g, pc + 1);   /* back-edge: the poll may raise "interrupted" */
  br(g, pc + 1 - GETARG_Bx(i));
}

static void emit(Gen *g, int pc) {
  Proto *p = g->p;
  Instruction i = p->code[pc];
  OpCode op = GET_OPCODE(i);
  int a = GETARG_A(i);
  switch (op) {
    case OP_MOVE: setreg(g, a, getreg(g, GETARG_B(i))); br(g, pc + 1); break;
    case OP_LOADI: setreg(g, a, cword(g, v_immint(GETARG_sBx(i)))); br(g, pc + 1); break;
    case OP_LOADF: setreg(g, a, cword(g, v_float((double)GETARG_sBx(i)))); br(g, pc + 1); break;
    case OP_LOADFALSE: setreg(g, a, cword(g, MVM_FALSE)); br(g, pc + 1); break;
    case OP_LOADTRUE: setreg(g, a, cword(g, MVM_TRUE)); br(g, pc + 1); break;
    case OP_LOADNIL: {
      int b = GETARG_B(i), r;
      for (r = a; r <= a + b; r++) setreg(g, r, cword(g, MVM_NIL));
      br(g, pc + 1);
      break;
    }
    case OP_LOADK: {
      Value k = p->k[GETARG_Bx(i)];
      if (v_isimmint(k) || v_isfloat(k) || !v_isref(k))
        setreg(g, a, cword(g, k));     /* not a reference: a constant word */
      else                             /* a reference: load it from the constant array */
        setreg(g, a, LLVMBuildLoad2(B_, g->p1, craw(g, &p->k[GETARG_Bx(i)]), ""));
      br(g, pc + 1);
      break;
    }
    case OP_GETUPVAL: {
      /* closure = *ci->func; uv = closure->upvals[B]; R[A] = *uv->v.  No
      ** call in between: the derived pointers never cross a safepoint. */
      LLVMValueRef func = LLVMBuildLoad2(B_, g->p0, byteptr(g, g->ci, offsetof(CallInfo, func)), "");
      LLVMValueRef cl = LLVMBuildLoad2(B_, g->p1, func, "cl");
      LLVMValueRef idx = ci64(g, offsetof(LClosure, upvals) + sizeof(UpVal *) * GETARG_B(i));
      LLVMValueRef uvp = LLVMBuildGEP2(B_, g->i8, cl, &idx, 1, "");
      LLVMValueRef uv = LLVMBuildLoad2(B_, g->p1, uvp, "uv");
      LLVMValueRef vidx = ci64(g, offsetof(UpVal, v));
      LLVMValueRef vp = LLVMBuildLoad2(B_, g->p0, LLVMBuildGEP2(B_, g->i8, uv, &vidx, 1, ""), "");
      setreg(g, a, LLVMBuildLoad2(B_, g->p1, vp, ""));
      br(g, pc + 1);
      break;
    }
    case OP_ADD: case OP_SUB: case OP_MUL: {
      LLVMValueRef x = intoperand(g, getreg(g, GETARG_B(i)), pc);
      LLVMValueRef y = intoperand(g, getreg(g, GETARG_C(i)), pc);
      arith(g, pc, op, x, y);
      break;
    }
    case OP_ADDI: {
      LLVMValueRef x = intoperand(g, getreg(g, GETARG_B(i)), pc);
      arith(g, pc, OP_ADD, x, ci64(g, (uint64_t)(int64_t)GETARG_sC(i)));
      break;
    }
    case OP_ADDK: case OP_SUBK: case OP_MULK: {
      LLVMValueRef x = intoperand(g, getreg(g, GETARG_B(i)), pc);
      LLVMValueRef y = ci64(g, (uint64_t)v_getimmint(p->k[GETARG_C(i)]));
      arith(g, pc, op == OP_ADDK ? OP_ADD : op == OP_SUBK ? OP_SUB : OP_MUL, x, y);
      break;
    }
    case OP_MMBIN: case OP_MMBINI: case OP_MMBINK:
      /* only reached when the arithmetic before failed, which exits */
      LLVMBuildBr(B_, exitblock(g, pc));
      break;
    case OP_EQ: case OP_LT: case OP_LE: {
      LLVMValueRef x = intoperand(g, getreg(g, a), pc);
      LLVMValueRef y = intoperand(g, getreg(g, GETARG_B(i)), pc);
      LLVMIntPredicate pr = op == OP_EQ ? LLVMIntEQ : op == OP_LT ? LLVMIntSLT : LLVMIntSLE;
      condjump(g, pc, LLVMBuildICmp(B_, pr, x, y, ""));
      break;
    }
    case OP_EQI: case OP_LTI: case OP_LEI: case OP_GTI: case OP_GEI: {
      LLVMValueRef x = intoperand(g, getreg(g, a), pc);
      LLVMValueRef y = ci64(g, (uint64_t)(int64_t)GETARG_sB(i));
      LLVMIntPredicate pr = op == OP_EQI ? LLVMIntEQ : op == OP_LTI ? LLVMIntSLT :
                            op == OP_LEI ? LLVMIntSLE : op == OP_GTI ? LLVMIntSGT : LLVMIntSGE;
      condjump(g, pc, LLVMBuildICmp(B_, pr, x, y, ""));
      break;
    }
    case OP_JMP: {
      int target = pc + 1 + GETARG_sJ(i);
      if (target <= pc) set_savedpc(g, pc + 1);   /* back-edge (poll) */
      br(g, target);
      break;
    }
    case OP_FORPREP: forprep(g, pc); break;
    case OP_FORLOOP: forloop(g, pc); break;
    case OP_CALL: {
      LLVMValueRef args[5], r;
      LLVMBasicBlockRef luacall = LLVMAppendBasicBlockInContext(g->C, g->fn, "luacall");
      LLVMBasicBlockRef cdone = LLVMAppendBasicBlockInContext(g->C, g->fn, "cdone");
      set_savedpc(g, pc + 1);   /* also the resume point (see the entry) */
      args[0] = g->L; args[1] = g->ci; args[2] = ci32(g, a);
      args[3] = ci32(g, GETARG_B(i)); args[4] = ci32(g, GETARG_C(i) - 1);
      r = LLVMBuildCall2(B_, g->ty_call, g->f_call, args, 5, "");
      LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntNE, r, ci32(g, 0), ""), luacall, cdone);
      LLVMPositionBuilderAtEnd(B_, luacall);
      LLVMBuildRet(B_, ci32(g, JIT_CALLED));
      LLVMPositionBuilderAtEnd(B_, cdone);
      reload_base(g);   /* the stack may have moved */
      br(g, pc + 1);
      break;
    }
    case OP_RETURN0: case OP_RETURN1: case OP_RETURN: {
      LLVMValueRef args[4];
      int n = op == OP_RETURN0 ? 0 : op == OP_RETURN1 ? 1 : GETARG_B(i) - 1;
      set_savedpc(g, pc + 1);
      args[0] = g->L; args[1] = g->ci; args[2] = ci32(g, a); args[3] = ci32(g, n);
      LLVMBuildCall2(B_, g->ty_ret, g->f_ret, args, 4, "");
      LLVMBuildRet(B_, ci32(g, JIT_RETURNED));
      break;
    }
    default:   /* excluded by unsupported() */
      LLVMBuildBr(B_, exitblock(g, pc));
      break;
  }
}

/* gc.safepoint_poll: place-safepoints inlines it at function entries and
** loop back-edges.  Fast path: one load of the poll flag. */
static void build_poll(Gen *g) {
  LLVMTypeRef fty = LLVMFunctionType(g->vd, NULL, 0, 0);
  LLVMValueRef poll = LLVMAddFunction(g->M, "gc.safepoint_poll", fty);
  LLVMTypeRef sty = LLVMFunctionType(g->vd, &g->p0, 1, 0);
  LLVMValueRef slow = LLVMAddFunction(g->M, "mvmrt_poll", sty);
  LLVMTypeRef flagty = LLVMIntTypeInContext(g->C, 8 * sizeof(sig_atomic_t));
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(g->C, poll, "entry");
  LLVMBasicBlockRef sb = LLVMAppendBasicBlockInContext(g->C, poll, "slow");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->C, poll, "done");
  LLVMValueRef flag, arg;
  LLVMPositionBuilderAtEnd(B_, entry);
  flag = LLVMBuildLoad2(B_, flagty, craw(g, (const void *)&g->J->g->interrupt), "flag");
  LLVMSetVolatile(flag, 1);
  LLVMBuildCondBr(B_, LLVMBuildICmp(B_, LLVMIntNE, flag, LLVMConstInt(flagty, 0, 0), ""), sb, done);
  LLVMPositionBuilderAtEnd(B_, sb);
  arg = craw(g, g->J);
  LLVMBuildCall2(B_, sty, slow, &arg, 1, "");
  LLVMBuildBr(B_, done);
  LLVMPositionBuilderAtEnd(B_, done);
  LLVMBuildRetVoid(B_);
}

LLVMModuleRef llvmgen_module(LLVMContextRef ctx, JitState *J, Proto *p,
                             const char *name, const char *const *opnames,
                             int *status, const char **why) {
  Gen gs, *g = &gs;
  LLVMTypeRef params[5], fty;
  LLVMBasicBlockRef entry;
  int pc;
  const char *no = J->unsupported(p);
  if (no != NULL) {
    *status = JIT_UNSUPPORTED;
    *why = no;
    return NULL;
  }
  memset(g, 0, sizeof *g);
  g->C = ctx; g->p = p; g->J = J;
  g->M = LLVMModuleCreateWithNameInContext(name, ctx);
  g->B = LLVMCreateBuilderInContext(ctx);
  g->i1 = LLVMInt1TypeInContext(ctx);
  g->i8 = LLVMInt8TypeInContext(ctx);
  g->i32 = LLVMInt32TypeInContext(ctx);
  g->i64 = LLVMInt64TypeInContext(ctx);
  g->i128 = LLVMIntTypeInContext(ctx, 128);
  g->p0 = LLVMPointerTypeInContext(ctx, 0);
  g->p1 = LLVMPointerTypeInContext(ctx, 1);
  g->vd = LLVMVoidTypeInContext(ctx);
  /* helpers (defined as absolute symbols by the session) */
  params[0] = g->p0; params[1] = g->p0; params[2] = g->i32; params[3] = g->i32; params[4] = g->i32;
  g->ty_call = LLVMFunctionType(g->i32, params, 5, 0);
  g->f_call = LLVMAddFunction(g->M, "mvmrt_precall", g->ty_call);
  g->ty_ret = LLVMFunctionType(g->vd, params, 4, 0);
  g->f_ret = LLVMAddFunction(g->M, "mvmrt_return", g->ty_ret);
  build_poll(g);
  /* the function */
  fty = LLVMFunctionType(g->i32, params, 2, 0);
  g->fn = LLVMAddFunction(g->M, name, fty);
  LLVMSetGC(g->fn, "statepoint-example");
  LLVMAddAttributeAtIndex(g->fn, LLVMAttributeFunctionIndex,
                          LLVMCreateStringAttribute(ctx, "frame-pointer", 13, "all", 3));
  g->L = LLVMGetParam(g->fn, 0);
  g->ci = LLVMGetParam(g->fn, 1);
  LLVMSetValueName2(g->L, "L", 1);
  LLVMSetValueName2(g->ci, "ci", 2);
  g->bb = (LLVMBasicBlockRef *)calloc((size_t)p->sizecode + 1, sizeof *g->bb);
  g->exits = (LLVMBasicBlockRef *)calloc((size_t)p->sizecode + 1, sizeof *g->exits);
  if (g->bb == NULL || g->exits == NULL) {
    free(g->bb); free(g->exits);
    LLVMDisposeBuilder(g->B);
    LLVMDisposeModule(g->M);
    *status = JIT_ERROR; *why = "out of memory";
    return NULL;
  }
  entry = LLVMAppendBasicBlockInContext(ctx, g->fn, "entry");
  for (pc = 0; pc < p->sizecode; pc++) {
    char nm[32];
    snprintf(nm, sizeof nm, "pc%d.%s", pc, opnames[GET_OPCODE(p->code[pc])]);
    g->bb[pc] = LLVMAppendBasicBlockInContext(ctx, g->fn, nm);
  }
  /* falling off the end cannot happen (the code ends with a RETURN), but
  ** keep the IR well formed */
  g->bb[p->sizecode] = LLVMAppendBasicBlockInContext(ctx, g->fn, "end");
  LLVMPositionBuilderAtEnd(g->B, g->bb[p->sizecode]);
  LLVMBuildUnreachable(g->B);
  LLVMPositionBuilderAtEnd(g->B, entry);
  g->basevar = LLVMBuildAlloca(g->B, g->p0, "basevar");   /* addrspace(0): a raw stack pointer */
  reload_base(g);
  {
    /* dispatch on ci->u.l.savedpc: the start, or the instruction after a
    ** CALL (re-entry after a Lua callee returned); anything else goes
    ** back to the interpreter, which continues at savedpc */
    LLVMValueRef spc = LLVMBuildLoad2(g->B, g->p0, byteptr(g, g->ci, offsetof(CallInfo, u.l.savedpc)), "savedpc");
    LLVMValueRef off = LLVMBuildSub(g->B, LLVMBuildPtrToInt(g->B, spc, g->i64, ""),
                                    ci64(g, (uint64_t)(uintptr_t)p->code), "");
    LLVMBasicBlockRef other = LLVMAppendBasicBlockInContext(ctx, g->fn, "notentry");
    LLVMValueRef sw;
    int ncalls = 0;
    for (pc = 0; pc < p->sizecode; pc++)
      if (GET_OPCODE(p->code[pc]) == OP_CALL) ncalls++;
    sw = LLVMBuildSwitch(g->B, off, other, (unsigned)ncalls + 1);
    LLVMAddCase(sw, ci64(g, 0), g->bb[0]);
    for (pc = 0; pc < p->sizecode; pc++)
      if (GET_OPCODE(p->code[pc]) == OP_CALL)
        LLVMAddCase(sw, ci64(g, (uint64_t)(pc + 1) * sizeof(Instruction)), g->bb[pc + 1]);
    LLVMPositionBuilderAtEnd(g->B, other);
    LLVMBuildRet(g->B, ci32(g, JIT_EXITED));
  }
  for (pc = 0; pc < p->sizecode; pc++) {
    LLVMPositionBuilderAtEnd(g->B, g->bb[pc]);
    emit(g, pc);
  }
  free(g->bb); free(g->exits);
  LLVMDisposeBuilder(g->B);
  *status = JIT_OK;
  return g->M;
}
