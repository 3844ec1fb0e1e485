/*
** undump.c -- load a binary chunk written by vm/dump.c (format described
** there).
**
** Robustness: a chunk may be truncated, corrupted or hostile.  The whole
** input is first copied into one buffer (a userdata anchored on the stack,
** so an error never leaks it), then parsed from memory: every count is
** checked against the bytes that remain before anything is allocated for it,
** so bogus sizes cannot cause huge allocations, and nesting depth is bounded
** so a hostile chunk cannot exhaust the C stack.
**
** GC: the main closure is pushed on the stack before anything else is
** allocated and every proto hangs from it; protos and strings never move, so
** raw Proto pointers stay valid.  Arrays are allocated with mvm_mem* (never
** collects) and filled with valid values before the next allocation.
*/
#include <string.h>
#include <limits.h>
#include <stdio.h>
#include "compile.h"
#include "do.h"
#include "func.h"
#include "string.h"
#include "vm.h"
#include "gc.h"

/* format constants (must agree with vm/dump.c) */
#define MVMC_VERSION  0x54
#define MVMC_FORMAT   0x6D
#define MVMC_DATA     "\x19\x93\r\n\x1a\n"
#define MVMC_INT      0x5678
#define MVMC_NUM      370.5
#define MVMC_TNIL     0x00
#define MVMC_TFALSE   0x01
#define MVMC_TTRUE    0x11
#define MVMC_TINT     0x03
#define MVMC_TFLT     0x13
#define MVMC_TSHRSTR  0x04
#define MVMC_TLNGSTR  0x14

/* fewest bytes a serialised function can take (see dumpfunction): source,
** 2 line numbers, 3 bytes, 7 counts */
#define MINFUNCBYTES  13
/* deepest nesting of functions accepted (the parser allows ~LUAI_MAXCCALLS) */
#define MAXFUNCDEPTH  (LUAI_MAXCCALLS + 50)

typedef struct LoadState {
  lua_State *L;
  const unsigned char *p;   /* next unread byte */
  size_t n;                 /* bytes left */
  const char *name;         /* chunk name for messages */
  int depth;                /* nesting of functions being loaded */
} LoadState;

static l_noret error(LoadState *S, const char *why) {
  str_pushfstring(S->L, "%s: bad binary format (%s)", S->name, why);
  do_throw(S->L, LUA_ERRSYNTAX);
}

/* push a value; the stack is grown first (growing never collects) */
static void pushvalue(lua_State *L, Value v) {
  if (L->stack_last - L->top <= 1)
    do_growstack(L, 1, 1);
  *L->top = v;
  L->top++;
}

static void loadblock(LoadState *S, void *b, size_t size) {
  if (size > S->n) error(S, "truncated chunk");
  memcpy(b, S->p, size);
  S->p += size;
  S->n -= size;
}

static int loadbyte(LoadState *S) {
  if (S->n == 0) error(S, "truncated chunk");
  S->n--;
  return *S->p++;
}

static uint64_t loaduint(LoadState *S, uint64_t limit) {
  uint64_t x = 0;
  int shift = 0;
  for (;;) {
    int b = loadbyte(S);
    if (shift >= 63 && (b & 0x7F) > 1) error(S, "integer overflow");
    x |= (uint64_t)(b & 0x7F) << shift;
    if (!(b & 0x80)) break;
    shift += 7;
    if (shift > 63) error(S, "integer overflow");
  }
  if (x > limit) error(S, "integer overflow");
  return x;
}

static int loadint(LoadState *S) { return (int)loaduint(S, INT_MAX); }

/* a count of items that each take at least 'minbytes' bytes of input */
static int loadcount(LoadState *S, size_t minbytes) {
  int n = loadint(S);
  if ((uint64_t)n * minbytes > S->n) error(S, "truncated chunk");
  return n;
}

static lua_Integer loadinteger(LoadState *S) {
  lua_Integer i;
  loadblock(S, &i, sizeof(i));
  return i;
}

static lua_Number loadnumber(LoadState *S) {
  lua_Number x;
  loadblock(S, &x, sizeof(x));
  return x;
}

/* a string or NULL; MAY ALLOCATE (the caller stores it at once) */
static TString *loadstringN(LoadState *S) {
  TString *ts;
  size_t size = (size_t)loaduint(S, (uint64_t)(size_t)-1);
  if (size == 0) return NULL;
  size--;
  if (size > S->n) error(S, "truncated chunk");
  ts = str_new(S->L, (const char *)S->p, size);
  S->p += size;
  S->n -= size;
  return ts;
}

static TString *loadstring(LoadState *S) {
  TString *ts = loadstringN(S);
  if (ts == NULL) error(S, "bad format for constant string");
  return ts;
}

static void loadcode(LoadState *S, Proto *f) {
  int n = loadcount(S, sizeof(Instruction));
  if (n == 0) error(S, "corrupted chunk");   /* every function ends in a return */
  f->code = mvm_newvector(S->L, n, Instruction);
  f->sizecode = n;
  loadblock(S, f->code, (size_t)n * sizeof(Instruction));
}

static void loadconstants(LoadState *S, Proto *f) {
  lua_State *L = S->L;
  int i, n = loadcount(S, 1);
  f->k = mvm_newvector(L, n, Value);
  for (i = 0; i < n; i++)
    f->k[i] = MVM_NIL;   /* NOBARRIER: nil is not a reference */
  f->sizek = n;
  for (i = 0; i < n; i++) {
    int t = loadbyte(S);
    switch (t) {
      case MVMC_TNIL: break;
      case MVMC_TFALSE: f->k[i] = MVM_FALSE; break;  /* NOBARRIER: not a reference */
      case MVMC_TTRUE: f->k[i] = MVM_TRUE; break;    /* NOBARRIER: not a reference */
      case MVMC_TFLT:
        f->k[i] = v_float(loadnumber(S));  /* NOBARRIER: not a reference */
        break;
      case MVMC_TINT: {
        Value v = vm_int(L, loadinteger(S));   /* may box (allocate) */
        gc_writeobj(L, f, &f->k[i], v);
        break;
      }
      case MVMC_TSHRSTR: case MVMC_TLNGSTR: {
        TString *ts = loadstring(S);
        gc_writeobj(L, f, &f->k[i], v_ref(ts));
        break;
      }
      default: error(S, "corrupted chunk");
    }
  }
}

static void loadupvalues(LoadState *S, Proto *f) {
  int i, n = loadcount(S, 3);
  f->upvalues = mvm_newvector(S->L, n, Upvaldesc);
  for (i = 0; i < n; i++)
    f->upvalues[i].name = NULL;
  f->sizeupvalues = n;
  for (i = 0; i < n; i++) {
    f->upvalues[i].instack = (uint8_t)loadbyte(S);
    f->upvalues[i].idx = (uint8_t)loadbyte(S);
    f->upvalues[i].kind = (uint8_t)loadbyte(S);
    f->upvalues[i].selfref = 0;   /* not dumped (a JIT hint) */
  }
}

static void loadfunction(LoadState *S, Proto *f, TString *psource);

static void loadprotos(LoadState *S, Proto *f) {
  lua_State *L = S->L;
  int i, n = loadcount(S, MINFUNCBYTES);
  f->p = mvm_newvector(L, n, Proto *);
  /* create every child first; 'sizep' counts only valid entries, so the
  ** collector never sees an unset slot */
  f->sizep = 0;
  for (i = 0; i < n; i++) {
    Proto *np = func_newproto(L);
    f->p[i] = np;
    gc_cardmark(G(L), (GCObject *)f, &f->p[i]);
    f->sizep = i + 1;
  }
  if (S->depth >= MAXFUNCDEPTH) {
    if (n > 0) error(S, "corrupted chunk");   /* absurdly deep nesting */
  }
  S->depth++;
  for (i = 0; i < n; i++)
    loadfunction(S, f->p[i], f->source);
  S->depth--;
}

static void loaddebug(LoadState *S, Proto *f) {
  lua_State *L = S->L;
  int i, n;
  /* line info: none (stripped) or one line per instruction */
  n = loadcount(S, 1);
  if (n != 0 && n != f->sizecode) error(S, "corrupted chunk");
  f->lineinfo = mvm_newvector(L, n, int);
  f->sizelineinfo = n;
  for (i = 0; i < n; i++)
    f->lineinfo[i] = loadint(S);
  /* local variables; names preset to a valid string until loaded */
  n = loadcount(S, 3);
  f->locvars = mvm_newvector(L, n, LocVar);
  for (i = 0; i < n; i++) {
    f->locvars[i].varname = f->source;
    f->locvars[i].startpc = f->locvars[i].endpc = 0;
  }
  f->sizelocvars = n;
  for (i = 0; i < n; i++) {
    TString *name = loadstringN(S);
    f->locvars[i].varname = name;
    gc_cardmark(G(L), (GCObject *)f, &f->locvars[i].varname);
    f->locvars[i].startpc = loadint(S);
    f->locvars[i].endpc = loadint(S);
  }
  /* upvalue names (absent when stripped) */
  n = loadcount(S, 1);
  if (n > f->sizeupvalues) error(S, "corrupted chunk");
  for (i = 0; i < n; i++)
    f->upvalues[i].name = f->source;
  for (i = 0; i < n; i++) {
    TString *name = loadstringN(S);
    f->upvalues[i].name = name;
    gc_cardmark(G(L), (GCObject *)f, &f->upvalues[i].name);
  }
}

static void loadfunction(LoadState *S, Proto *f, TString *psource) {
  lua_State *L = S->L;
  TString *src = loadstringN(S);
  if (src == NULL) src = psource;
  if (src == NULL) src = str_literal(L, "=?");   /* stripped main function */
  f->source = src;
  gc_cardmark(G(L), (GCObject *)f, &f->source);
  f->linedefined = loadint(S);
  f->lastlinedefined = loadint(S);
  f->numparams = (uint8_t)loadbyte(S);
  f->is_vararg = (uint8_t)loadbyte(S);
  f->maxstacksize = (uint8_t)loadbyte(S);
  if (f->numparams > f->maxstacksize || f->is_vararg > 1)
    error(S, "corrupted chunk");
  loadcode(S, f);
  loadconstants(S, f);
  loadupvalues(S, f);
  loadprotos(S, f);
  loaddebug(S, f);
}

static void checkliteral(LoadState *S, const char *s, const char *msg) {
  char buff[sizeof(MVMC_DATA) + sizeof(LUA_SIGNATURE)];
  size_t len = strlen(s);
  loadblock(S, buff, len);
  if (memcmp(s, buff, len) != 0) error(S, msg);
}

static void checksize(LoadState *S, size_t size, const char *tname) {
  if ((size_t)loadbyte(S) != size) {
    char msg[48];
    snprintf(msg, sizeof msg, "%s size mismatch", tname);
    error(S, msg);
  }
}

static void checkheader(LoadState *S) {
  /* the first byte of the signature was consumed by the caller */
  checkliteral(S, &LUA_SIGNATURE[1], "not a binary chunk");
  int format;
  if (loadbyte(S) != MVMC_VERSION) error(S, "version mismatch");
  format = loadbyte(S);
  /* PUC's official format (0) has the same header layout: check the rest
  ** first, so that a damaged header gets the message lua5.4 would give;
  ** only an intact one is refused for its format. */
  if (format != MVMC_FORMAT && format != 0) error(S, "format mismatch");
  checkliteral(S, MVMC_DATA, "corrupted chunk");
  checksize(S, sizeof(Instruction), "Instruction");
  checksize(S, sizeof(lua_Integer), "lua_Integer");
  checksize(S, sizeof(lua_Number), "lua_Number");
  if (loadinteger(S) != MVMC_INT) error(S, "integer format mismatch");
  if (loadnumber(S) != MVMC_NUM) error(S, "float format mismatch");
  if (format != MVMC_FORMAT) error(S, "format mismatch");
}

/* Copy the rest of the input into a userdata pushed on the stack (so the
** buffer is collected even if loading fails).  Pushes nil for no input. */
static const unsigned char *slurp(lua_State *L, ZIO *z, size_t *plen) {
  char *buf = NULL;
  size_t cap = 0, used = 0;
  pushvalue(L, MVM_NIL);   /* the buffer's slot */
  for (;;) {
    if (z->n == 0) {
      if (zio_fill(z) == EOZ) break;
      z->n++;   /* put back the byte zio_fill consumed */
      z->p--;
    }
    if (z->n > cap - used) {   /* grow: new block, copy, replace the slot */
      size_t ncap = cap ? cap : 256;
      Udata *u;
      while (ncap - used < z->n) {
        if (ncap > ((size_t)-1 >> 2)) {
          str_pushfstring(L, "%s", MEMERRMSG);
          do_throw(L, LUA_ERRMEM);
        }
        ncap *= 2;
      }
      u = udata_new(L, ncap, 0);   /* may collect; old block is anchored */
      if (used > 0) memcpy(getudatamem(u), buf, used);
      L->top[-1] = v_ref(u);
      buf = getudatamem(u);
      cap = ncap;
    }
    memcpy(buf + used, z->p, z->n);
    used += z->n;
    z->p += z->n;
    z->n = 0;
  }
  *plen = used;
  return (const unsigned char *)buf;
}

/* Load a binary chunk whose first byte (LUA_SIGNATURE[0]) was already read;
** leaves the main closure on the stack and returns it.  Errors are thrown as
** LUA_ERRSYNTAX "<name>: bad binary format (<why>)".  MAY ALLOCATE. */
LClosure *mvm_undump(lua_State *L, ZIO *z, const char *name) {
  LoadState S;
  LClosure *cl;
  Proto *p;
  size_t len;
  int nup;
  if (*name == '@' || *name == '=')
    S.name = name + 1;
  else if (*name == LUA_SIGNATURE[0])
    S.name = "binary string";
  else
    S.name = name;
  S.L = L;
  S.depth = 0;
  S.p = slurp(L, z, &len);   /* pushes the buffer */
  S.n = len;
  checkheader(&S);
  nup = loadbyte(&S);
  cl = func_newLclosure(L, nup);
  pushvalue(L, v_ref(cl));
  p = func_newproto(L);                   /* may collect: 'cl' may move */
  cl = v_lcl(L->top[-1]);
  cl->p = p;
  gc_cardmark(G(L), (GCObject *)cl, &cl->p);
  loadfunction(&S, p, NULL);
  if (p->sizeupvalues != nup) error(&S, "corrupted chunk");
  /* replace the buffer by the closure */
  L->top[-2] = L->top[-1];
  L->top--;
  return v_lcl(L->top[-1]);
}
