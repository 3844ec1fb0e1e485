/*
** debug.c -- debug information and runtime errors.
**
** Runtime errors name the offending variable the way Lua 5.4 does ("global
** 'x'", "field 'y'", "upvalue 'z'"...).  The name is recovered by symbolic
** execution of the bytecode: find the last instruction before the current pc
** that wrote the register, and describe what it loaded.  The same analysis
** of the calling instruction gives function names for lua_getinfo('n').
*/
#include <string.h>
#include <stdarg.h>

#include "lua.h"
#include "state.h"
#include "debug.h"
#include "opcodes.h"
#include "gc.h"
#include "do.h"
#include "func.h"
#include "string.h"
#include "table.h"
#include "meta.h"
#include "vm.h"
#include "compile.h"
#include "stateint.h"

#define LUA_ENV  "_ENV"

static int currentpc(CallInfo *ci) {
  return pcRel(ci->u.l.savedpc, ci_func(ci)->p);
}

int dbg_getfuncline(const Proto *f, int pc) {
  if (f->lineinfo == NULL || pc < 0 || pc >= f->sizelineinfo)
    return -1;
  return f->lineinfo[pc];
}

static int getcurrentline(CallInfo *ci) {
  return dbg_getfuncline(ci_func(ci)->p, currentpc(ci));
}

/* ------------------------------------------------------------------------
** hooks
** ---------------------------------------------------------------------- */

/* make every active Lua frame re-check its state (and so see the hook) */
static void settraps(CallInfo *ci) {
  for (; ci != NULL; ci = ci->previous)
    if (isLua(ci)) ci->u.l.trap = 1;
}

LUA_API void lua_sethook(lua_State *L, lua_Hook func, int mask, int count) {
  if (func == NULL || mask == 0) {   /* turning hooks off */
    mask = 0;
    func = NULL;
  }
  L->hook = func;
  L->basehookcount = count;
  L->hookcount = count;
  L->hookmask = mask;
  if (mask) {
    settraps(L->ci);
    /* a running interpreter reloads its trap at its next loop back-edge
    ** (vm.c BACKEDGE; lua_sethook may come from a signal handler) */
    __atomic_store_n(&L->becount, -1, __ATOMIC_RELEASE);
  }
}

LUA_API lua_Hook lua_gethook(lua_State *L) { return L->hook; }
LUA_API int lua_gethookmask(lua_State *L) { return L->hookmask; }
LUA_API int lua_gethookcount(lua_State *L) { return L->basehookcount; }

/* Called by the interpreter before executing the instruction at 'pc' when
** the frame's trap is set.  Runs count and line hooks.  Returns 0 when the
** trap can be turned off. */
int dbg_traceexec(lua_State *L, const Instruction *pc) {
  CallInfo *ci = L->ci;
  int mask = L->hookmask;
  const Proto *p = ci_func(ci)->p;
  int counthook;
  if (!(mask & (LUA_MASKLINE | LUA_MASKCOUNT))) {
    ci->u.l.trap = 0;        /* nothing to trace here */
    return 0;
  }
  pc++;                      /* savedpc convention: next instruction */
  ci->u.l.savedpc = pc;
  counthook = (--L->hookcount == 0 && (mask & LUA_MASKCOUNT));
  if (counthook)
    L->hookcount = L->basehookcount;
  else if (!(mask & LUA_MASKLINE))
    return 1;                /* only counting, and the count is not over */
  if (ci->callstatus & CIST_HOOKYIELD) {   /* hook yielded last time here */
    ci->callstatus &= ~CIST_HOOKYIELD;
    return 1;                /* do not run it again for this instruction */
  }
  if (!isIT(*(ci->u.l.savedpc - 1)))
    L->top = ci->top;        /* top is not in use by the instruction */
  if (counthook)
    do_hook(L, LUA_HOOKCOUNT, -1, 0, 0);
  if (mask & LUA_MASKLINE) {
    int oldpc = (L->oldpc >= 0 && L->oldpc < p->sizecode) ? L->oldpc : 0;
    int npci = pcRel(pc, p);
    /* a new line, a jump backwards (loop) or function entry */
    if (npci <= oldpc ||
        dbg_getfuncline(p, oldpc) != dbg_getfuncline(p, npci)) {
      int newline = dbg_getfuncline(p, npci);
      do_hook(L, LUA_HOOKLINE, newline, 0, 0);
    }
    L->oldpc = npci;
  }
  if (L->status == LUA_YIELD) {   /* the hook yielded */
    if (counthook) L->hookcount = 1;      /* undo the decrement */
    ci->u.l.savedpc--;                    /* resume re-executes this one */
    ci->callstatus |= CIST_HOOKYIELD;
    do_throw(L, LUA_YIELD);
  }
  return 1;
}

/* ------------------------------------------------------------------------
** stack levels and local variables
** ---------------------------------------------------------------------- */

LUA_API int lua_getstack(lua_State *L, int level, lua_Debug *ar) {
  CallInfo *ci;
  if (level < 0) return 0;
  for (ci = L->ci; level > 0 && ci != &L->base_ci; ci = ci->previous)
    level--;
  if (level == 0 && ci != &L->base_ci) {
    ar->i_ci = ci;
    return 1;
  }
  return 0;
}

static const char *upvalname(const Proto *p, int uv) {
  TString *s;
  if (uv < 0 || uv >= p->sizeupvalues) return "?";
  s = p->upvalues[uv].name;
  return (s == NULL) ? "?" : getstr(s);
}

/* extra arguments of a vararg function live just below its frame */
static const char *findvararg(CallInfo *ci, int n, Value **pos) {
  if (v_isLclosure(*ci->func) && ci_func(ci)->p->is_vararg) {
    int nextra = ci->u.l.nextraargs;
    if (n >= -nextra) {      /* n is negative */
      *pos = ci->func - nextra - (n + 1);
      return "(vararg)";
    }
  }
  return NULL;
}

static const char *findlocal(lua_State *L, CallInfo *ci, int n, Value **pos) {
  Value *base = ci->func + 1;
  const char *name = NULL;
  if (isLua(ci)) {
    if (n < 0) return findvararg(ci, n, pos);
    name = func_getlocalname(ci_func(ci)->p, n, currentpc(ci));
  }
  if (name == NULL) {        /* no declared name: a live temporary? */
    Value *limit = (ci == L->ci) ? L->top : ci->next->func;
    if (limit - base >= n && n > 0)
      name = isLua(ci) ? "(temporary)" : "(C temporary)";
    else
      return NULL;
  }
  if (pos) *pos = base + (n - 1);
  return name;
}

LUA_API const char *lua_getlocal(lua_State *L, const lua_Debug *ar, int n) {
  const char *name;
  if (ar == NULL) {          /* parameters of a function on the top */
    Value f = L->top[-1];
    if (!v_isLclosure(f)) return NULL;
    return func_getlocalname(v_lcl(f)->p, n, 0);
  }
  else {
    Value *pos = NULL;
    name = findlocal(L, ar->i_ci, n, &pos);
    if (name) {
      *L->top = *pos;
      L->top++;
    }
    return name;
  }
}

LUA_API const char *lua_setlocal(lua_State *L, const lua_Debug *ar, int n) {
  Value *pos = NULL;
  const char *name = findlocal(L, ar->i_ci, n, &pos);
  if (name) {
    *pos = L->top[-1];       /* NOBARRIER: stack slot */
    L->top--;
    /* compiled code running that frame reads its registers back from the
    ** stack after a call only when the trap is set (jit/llvmgen.c) */
    if (isLua(ar->i_ci)) ar->i_ci->u.l.trap = 1;
  }
  return name;
}

/* ------------------------------------------------------------------------
** symbolic execution: who last wrote a register?
** ---------------------------------------------------------------------- */

/* Index of the last instruction before 'lastpc' that changed register 'reg',
** or -1 when unknown (e.g. the write is inside a conditional). */
static int findsetreg(const Proto *p, int lastpc, int reg) {
  int pc;
  int setreg = -1;
  int jmptarget = 0;         /* code before this is maybe-skipped */
  if (lastpc >= 0 && lastpc < p->sizecode && testMMMode(GET_OPCODE(p->code[lastpc])))
    lastpc--;                /* the instruction before an MMBIN did not complete */
  for (pc = 0; pc < lastpc; pc++) {
    Instruction i = p->code[pc];
    OpCode op = GET_OPCODE(i);
    int a = GETARG_A(i);
    int change;
    switch (op) {
      case OP_LOADNIL: change = (a <= reg && reg <= a + GETARG_B(i)); break;
      case OP_TFORCALL: change = (reg >= a + 2); break;
      case OP_CALL: case OP_TAILCALL: change = (reg >= a); break;
      case OP_JMP: {
        int dest = pc + 1 + GETARG_sJ(i);
        if (dest <= lastpc && dest > jmptarget) jmptarget = dest;
        change = 0;
        break;
      }
      default: change = (testAMode(op) && reg == a); break;
    }
    if (change)
      setreg = (pc < jmptarget) ? -1 : pc;
  }
  return setreg;
}

static const char *getobjname(const Proto *p, int lastpc, int reg, const char **name);

/* name of constant k if it is a string */
static void kname(const Proto *p, int k, const char **name) {
  Value kv = (k >= 0 && k < p->sizek) ? p->k[k] : MVM_NIL;
  *name = v_isstring(kv) ? getstr(v_str(kv)) : "?";
}

/* name of register c only if it holds a constant string */
static void rname(const Proto *p, int pc, int c, const char **name) {
  const char *what = getobjname(p, pc, c, name);
  if (!(what && *what == 'c')) *name = "?";
}

static void rkname(const Proto *p, int pc, Instruction i, const char **name) {
  int c = GETARG_C(i);
  if (GETARG_k(i)) kname(p, c, name);
  else rname(p, pc, c, name);
}

/* "global" if the indexed table is _ENV, else "field" */
static const char *gxf(const Proto *p, int pc, Instruction i, int isup) {
  int t = GETARG_B(i);
  const char *name = NULL;
  if (isup) name = upvalname(p, t);
  else getobjname(p, pc, t, &name);
  return (name && strcmp(name, LUA_ENV) == 0) ? "global" : "field";
}

static const char *getobjname(const Proto *p, int lastpc, int reg, const char **name) {
  int pc;
  *name = func_getlocalname(p, reg + 1, lastpc);
  if (*name) return "local";
  pc = findsetreg(p, lastpc, reg);
  if (pc != -1) {
    Instruction i = p->code[pc];
    OpCode op = GET_OPCODE(i);
    switch (op) {
      case OP_MOVE: {
        int b = GETARG_B(i);
        if (b < GETARG_A(i)) return getobjname(p, pc, b, name);
        break;
      }
      case OP_GETTABUP:
        kname(p, GETARG_C(i), name);
        return gxf(p, pc, i, 1);
      case OP_GETTABLE:
        rname(p, pc, GETARG_C(i), name);
        return gxf(p, pc, i, 0);
      case OP_GETI:
        *name = "integer index";
        return "field";
      case OP_GETFIELD:
        kname(p, GETARG_C(i), name);
        return gxf(p, pc, i, 0);
      case OP_GETUPVAL:
        *name = upvalname(p, GETARG_B(i));
        return "upvalue";
      case OP_LOADK:
      case OP_LOADKX: {
        int b = (op == OP_LOADK) ? GETARG_Bx(i) : GETARG_Ax(p->code[pc + 1]);
        if (b < p->sizek && v_isstring(p->k[b])) {
          *name = getstr(v_str(p->k[b]));
          return "constant";
        }
        break;
      }
      case OP_SELF:
        rkname(p, pc, i, name);
        return "method";
      default: break;
    }
  }
  return NULL;
}

/* name of the function called by the instruction at 'pc' (or of the
** metamethod that instruction triggers) */
static const char *funcnamefromcode(lua_State *L, const Proto *p, int pc, const char **name) {
  TMS tm;
  Instruction i;
  if (pc < 0 || pc >= p->sizecode) return NULL;
  i = p->code[pc];
  switch (GET_OPCODE(i)) {
    case OP_CALL:
    case OP_TAILCALL:
      return getobjname(p, pc, GETARG_A(i), name);
    case OP_TFORCALL:
      *name = "for iterator";
      return "for iterator";
    case OP_SELF: case OP_GETTABUP: case OP_GETTABLE:
    case OP_GETI: case OP_GETFIELD:
      tm = TM_INDEX; break;
    case OP_SETTABUP: case OP_SETTABLE: case OP_SETI: case OP_SETFIELD:
      tm = TM_NEWINDEX; break;
    case OP_MMBIN: case OP_MMBINI: case OP_MMBINK:
      tm = (TMS)GETARG_C(i); break;
    case OP_UNM: tm = TM_UNM; break;
    case OP_BNOT: tm = TM_BNOT; break;
    case OP_LEN: tm = TM_LEN; break;
    case OP_CONCAT: tm = TM_CONCAT; break;
    case OP_EQ: tm = TM_EQ; break;
    case OP_LT: case OP_LTI: case OP_GTI: tm = TM_LT; break;
    case OP_LE: case OP_LEI: case OP_GEI: tm = TM_LE; break;
    case OP_CLOSE: case OP_RETURN: tm = TM_CLOSE; break;
    default: return NULL;
  }
  if ((int)tm < 0 || tm >= TM_N || G(L)->tmname[tm] == NULL) return NULL;
  *name = getstr(G(L)->tmname[tm]) + 2;   /* skip the "__" */
  return "metamethod";
}

/* how the function running in 'ci' is being called by ci itself */
static const char *funcnamefromcall(lua_State *L, CallInfo *ci, const char **name) {
  if (ci->callstatus & CIST_HOOKED) {
    *name = "?";
    return "hook";
  }
  if (ci->callstatus & CIST_FIN) {
    *name = "__gc";
    return "metamethod";
  }
  if (isLua(ci))
    return funcnamefromcode(L, ci_func(ci)->p, currentpc(ci), name);
  return NULL;
}

/* name of the function running at 'ci', from its caller */
static const char *getfuncname(lua_State *L, CallInfo *ci, const char **name) {
  if (ci != NULL && !(ci->callstatus & CIST_TAIL) && ci->previous != NULL)
    return funcnamefromcall(L, ci->previous, name);
  return NULL;
}

/* ------------------------------------------------------------------------
** lua_getinfo
** ---------------------------------------------------------------------- */

static void funcinfo(lua_Debug *ar, Value f) {
  if (!v_isLclosure(f)) {
    ar->source = "=[C]";
    ar->srclen = 4;
    ar->linedefined = -1;
    ar->lastlinedefined = -1;
    ar->what = "C";
  }
  else {
    const Proto *p = v_lcl(f)->p;
    if (p->source) {
      ar->source = getstr(p->source);
      ar->srclen = p->source->len;
    }
    else {
      ar->source = "=?";
      ar->srclen = 2;
    }
    ar->linedefined = p->linedefined;
    ar->lastlinedefined = p->lastlinedefined;
    ar->what = (ar->linedefined == 0) ? "main" : "Lua";
  }
  mvm_chunkid(ar->short_src, ar->source, ar->srclen);
}

/* push a table whose keys are the lines with code in function f */
static void collectvalidlines(lua_State *L, Value f) {
  if (!v_isLclosure(f)) {
    *L->top = MVM_NIL;
    L->top++;
  }
  else {
    const Proto *p = v_lcl(f)->p;       /* protos never move */
    Table *t = tab_new(L);
    int i;
    *L->top = v_ref(t);
    L->top++;
    if (p->lineinfo != NULL) {
      /* the VARARGPREP of a vararg function is not a "line" of its own */
      for (i = p->is_vararg ? 1 : 0; i < p->sizelineinfo; i++)
        tab_setint(L, v_tab(L->top[-1]), p->lineinfo[i], MVM_TRUE);
    }
  }
}

static int auxgetinfo(lua_State *L, const char *what, lua_Debug *ar, Value f, CallInfo *ci) {
  int status = 1;
  for (; *what; what++) {
    switch (*what) {
      case 'S':
        funcinfo(ar, f);
        break;
      case 'l':
        ar->currentline = (ci && isLua(ci)) ? getcurrentline(ci) : -1;
        break;
      case 'u':
        if (v_isLclosure(f)) {
          const Proto *p = v_lcl(f)->p;
          ar->nups = v_lcl(f)->nupvalues;
          ar->isvararg = (char)p->is_vararg;
          ar->nparams = p->numparams;
        }
        else {
          ar->nups = v_isCclosure(f) ? v_ccl(f)->nupvalues : 0;
          ar->isvararg = 1;
          ar->nparams = 0;
        }
        break;
      case 't':
        ar->istailcall = (ci) ? (char)((ci->callstatus & CIST_TAIL) != 0) : 0;
        break;
      case 'n':
        ar->namewhat = getfuncname(L, ci, &ar->name);
        if (ar->namewhat == NULL) {
          ar->namewhat = "";
          ar->name = NULL;
        }
        break;
      case 'r':
        if (ci == NULL || !(ci->callstatus & CIST_TRAN))
          ar->ftransfer = ar->ntransfer = 0;
        else {
          ar->ftransfer = ci->u2.transferinfo.ftransfer;
          ar->ntransfer = ci->u2.transferinfo.ntransfer;
        }
        break;
      case 'L':
      case 'f':
        break;               /* handled by lua_getinfo */
      default:
        status = 0;          /* invalid option */
    }
  }
  return status;
}

LUA_API int lua_getinfo(lua_State *L, const char *what, lua_Debug *ar) {
  int status;
  Value f;
  CallInfo *ci;
  if (*what == '>') {        /* function on the top of the stack */
    ci = NULL;
    f = L->top[-1];
    what++;
    L->top--;
  }
  else {
    ci = ar->i_ci;
    f = *ci->func;
  }
  status = auxgetinfo(L, what, ar, f, ci);
  if (strchr(what, 'f')) {
    *L->top = f;
    L->top++;
  }
  if (strchr(what, 'L'))
    collectvalidlines(L, f);    /* f is not needed after this allocation */
  return status;
}

/* ------------------------------------------------------------------------
** upvalues
** ---------------------------------------------------------------------- */

/* Find upvalue n of function fi: its slot, the object owning the slot (for
** the barrier; NULL when the slot is on a stack) and its name. */
static const char *aux_upvalue(Value fi, int n, Value **val, GCObject **owner) {
  if (v_isCclosure(fi)) {
    CClosure *f = v_ccl(fi);
    if (n < 1 || n > f->nupvalues) return NULL;
    *val = &f->upvalue[n - 1];
    if (owner) *owner = (GCObject *)f;
    return "";
  }
  if (v_isLclosure(fi)) {
    LClosure *f = v_lcl(fi);
    TString *name;
    UpVal *uv;
    if (n < 1 || n > f->nupvalues) return NULL;
    uv = f->upvals[n - 1];
    if (uv == NULL) return NULL;
    *val = uv->v;
    if (owner) *owner = upisopen(uv) ? NULL : (GCObject *)uv;
    name = (n <= f->p->sizeupvalues) ? f->p->upvalues[n - 1].name : NULL;
    return (name == NULL) ? "(no name)" : getstr(name);
  }
  return NULL;               /* light C functions have no upvalues */
}

LUA_API const char *lua_getupvalue(lua_State *L, int funcindex, int n) {
  Value *val = NULL;
  const char *name = aux_upvalue(*api_index2value(L, funcindex), n, &val, NULL);
  if (name) {
    *L->top = *val;
    L->top++;
  }
  return name;
}

LUA_API const char *lua_setupvalue(lua_State *L, int funcindex, int n) {
  Value *val = NULL;
  GCObject *owner = NULL;
  const char *name = aux_upvalue(*api_index2value(L, funcindex), n, &val, &owner);
  if (name) {
    L->top--;
    if (owner) gc_write(G(L), owner, val, *L->top);
    else *val = *L->top;     /* NOBARRIER: open upvalue, a stack slot */
  }
  return name;
}

LUA_API void *lua_upvalueid(lua_State *L, int fidx, int n) {
  Value fi = *api_index2value(L, fidx);
  if (v_isLclosure(fi)) {
    LClosure *f = v_lcl(fi);
    if (n >= 1 && n <= f->nupvalues) return f->upvals[n - 1];
    return NULL;
  }
  if (v_isCclosure(fi)) {
    CClosure *f = v_ccl(fi);
    if (n >= 1 && n <= f->nupvalues) return &f->upvalue[n - 1];
    return NULL;
  }
  return NULL;
}

LUA_API void lua_upvaluejoin(lua_State *L, int fidx1, int n1, int fidx2, int n2) {
  LClosure *f1 = v_lcl(*api_index2value(L, fidx1));
  LClosure *f2 = v_lcl(*api_index2value(L, fidx2));
  UpVal **up1 = &f1->upvals[n1 - 1];
  *up1 = f2->upvals[n2 - 1];
  gc_cardmark(G(L), (GCObject *)f1, up1);
}

/* ------------------------------------------------------------------------
** runtime errors
** ---------------------------------------------------------------------- */

/* Is 'o' the value of one of the running closure's upvalues? */
static const char *getupvalname(CallInfo *ci, const Value *o, const char **name) {
  LClosure *c = ci_func(ci);
  int i;
  for (i = 0; i < c->nupvalues; i++) {
    UpVal *uv = c->upvals[i];
    if (uv != NULL && uv->v == o) {
      *name = upvalname(c->p, i);
      return "upvalue";
    }
  }
  return NULL;
}

/* register number of 'o' in the frame, or -1 */
static int regofslot(CallInfo *ci, const Value *o) {
  Value *base = ci->func + 1;
  if (o >= base && o < ci->top) return (int)(o - base);
  return -1;
}

/* kind and name of the variable holding 'o' in the running Lua function */
static const char *varkind(lua_State *L, const Value *o, const char **name) {
  CallInfo *ci = L->ci;
  const char *kind = NULL;
  *name = NULL;
  if (isLua(ci) && v_isLclosure(*ci->func)) {
    kind = getupvalname(ci, o, name);
    if (!kind) {
      int reg = regofslot(ci, o);
      if (reg >= 0)
        kind = getobjname(ci_func(ci)->p, currentpc(ci), reg, name);
    }
  }
  return kind;
}

const char *dbg_addinfo(lua_State *L, const char *msg, TString *src, int line) {
  char buff[LUA_IDSIZE];
  if (src)
    mvm_chunkid(buff, getstr(src), src->len);
  else {
    buff[0] = '?';
    buff[1] = '\0';
  }
  return str_pushfstring(L, "%s:%d: %s", buff, line, msg);
}

l_noret dbg_errormsg(lua_State *L) {
  if (L->errfunc != 0) {     /* a message handler: call it on the message */
    Value *errfunc = restorestack(L, L->errfunc);
    L->top[0] = L->top[-1];
    L->top[-1] = *errfunc;
    L->top++;                /* EXTRA_STACK guarantees the room */
    do_callnoyield(L, L->top - 2, 1);
  }
  do_throw(L, LUA_ERRRUN);
}

/* the message is on the top: prefix the position of the running Lua
** function, then raise */
static l_noret raise_with_position(lua_State *L) {
  CallInfo *ci = L->ci;
  if (isLua(ci) && v_isLclosure(*ci->func)) {
    const char *msg = getstr(v_str(L->top[-1]));
    dbg_addinfo(L, msg, ci_func(ci)->p->source, getcurrentline(ci));
    L->top[-2] = L->top[-1];   /* replace the bare message */
    L->top--;
  }
  dbg_errormsg(L);
}

l_noret dbg_runerror(lua_State *L, const char *fmt, ...) {
  va_list argp;
  va_start(argp, fmt);
  str_pushvfstring(L, fmt, argp);
  va_end(argp);
  raise_with_position(L);
}

/* "attempt to <op> a <type> value (<kind> '<name>')" */
static l_noret typeerror_named(lua_State *L, const Value *o, const char *op,
                               const char *kind, const char *name) {
  const char *t = meta_objtypename(L, o);
  if (kind)
    str_pushfstring(L, "attempt to %s a %s value (%s '%s')", op, t, kind, name);
  else
    str_pushfstring(L, "attempt to %s a %s value", op, t);
  raise_with_position(L);
}

l_noret dbg_typeerror(lua_State *L, const Value *o, const char *op) {
  const char *name;
  const char *kind = varkind(L, o, &name);
  typeerror_named(L, o, op, kind, name);
}

l_noret dbg_callerror(lua_State *L, const Value *o) {
  CallInfo *ci = L->ci;
  const char *name = NULL;
  /* prefer the name the calling instruction gives (incl. metamethods) */
  const char *kind = funcnamefromcall(L, ci, &name);
  if (kind == NULL) kind = varkind(L, o, &name);
  typeerror_named(L, o, "call", kind, name);
}

l_noret dbg_forerror(lua_State *L, const Value *o, const char *what) {
  dbg_runerror(L, "bad 'for' %s (number expected, got %s)", what,
               meta_objtypename(L, o));
}

l_noret dbg_concaterror(lua_State *L, const Value *p1, const Value *p2) {
  if (v_isstring(*p1) || v_isnumber(*p1)) p1 = p2;   /* blame the other one */
  dbg_typeerror(L, p1, "concatenate");
}

l_noret dbg_opinterror(lua_State *L, const Value *p1, const Value *p2, const char *msg) {
  if (!v_isnumber(*p1)) p2 = p1;   /* blame the first non-number */
  dbg_typeerror(L, p2, msg);
}

l_noret dbg_tointerror(lua_State *L, const Value *p1, const Value *p2) {
  int64_t tmp;
  const char *name, *kind;
  if (!vm_tointegerns(*p1, &tmp, 0)) p2 = p1;   /* blame the first bad one */
  kind = varkind(L, p2, &name);
  if (kind)
    dbg_runerror(L, "number (%s '%s') has no integer representation", kind, name);
  dbg_runerror(L, "number has no integer representation");
}

l_noret dbg_ordererror(lua_State *L, const Value *p1, const Value *p2) {
  const char *t1 = meta_objtypename(L, p1);
  const char *t2 = meta_objtypename(L, p2);
  if (strcmp(t1, t2) == 0)
    dbg_runerror(L, "attempt to compare two %s values", t1);
  dbg_runerror(L, "attempt to compare %s with %s", t1, t2);
}
