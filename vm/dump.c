/*
** dump.c -- serialise a function prototype tree (string.dump, lua_dump).
**
** mvm's binary chunk format.  The header follows the shape of Lua 5.4's so
** that tools recognise the file and both implementations reject each
** other's chunks cleanly (different format byte); the body is mvm's own and
** records mvm's Proto exactly (one line number per instruction).
**
**   header:  "\x1bLua"  0x54  MVMC_FORMAT  "\x19\x93\r\n\x1a\n"
**            sizeof(Instruction) sizeof(lua_Integer) sizeof(lua_Number)
**            lua_Integer 0x5678   lua_Number 370.5      (native byte order)
**            byte: number of upvalues of the main function
**   function:
**            string source (absent when stripped or equal to the parent's)
**            uint linedefined, lastlinedefined
**            byte numparams, is_vararg, maxstacksize
**            uint sizecode, then sizecode native Instructions
**            uint sizek, then per constant: tag byte + payload
**            uint sizeupvalues, then per upvalue: instack, idx, kind bytes
**            uint sizep, then each nested function
**            uint sizelineinfo (0 or sizecode), then one uint per instruction
**            uint sizelocvars, then per local: string name, uint startpc, endpc
**            uint #upvalue names, then the names
**   uint   = unsigned LEB128 (7 bits per byte, low first, 0x80 = more)
**   string = uint (length + 1), 0 meaning "no string", then the bytes
*/
#include <string.h>
#include "compile.h"

/* format constants (repeated in vm/undump.c, which must agree) */
#define MVMC_VERSION  0x54
#define MVMC_FORMAT   0x6D            /* 'm': mvm's own body layout */
#define MVMC_DATA     "\x19\x93\r\n\x1a\n"
#define MVMC_INT      0x5678
#define MVMC_NUM      370.5
#define MVMC_MAXSHORTLEN 40
/* constant tags (the values Lua 5.4 uses for the same variants) */
#define MVMC_TNIL     0x00
#define MVMC_TFALSE   0x01
#define MVMC_TTRUE    0x11
#define MVMC_TINT     0x03
#define MVMC_TFLT     0x13
#define MVMC_TSHRSTR  0x04
#define MVMC_TLNGSTR  0x14

typedef struct DumpState {
  lua_State *L;
  lua_Writer writer;
  void *data;
  int strip;
  int status;              /* first non-zero writer result, then no more writes */
  size_t nbuf;
  unsigned char buf[512];  /* small writes are batched here */
} DumpState;

static void flush(DumpState *D) {
  if (D->nbuf > 0 && D->status == 0)
    D->status = D->writer(D->L, D->buf, D->nbuf, D->data);
  D->nbuf = 0;
}

static void dumpblock(DumpState *D, const void *b, size_t size) {
  if (D->status != 0 || size == 0) return;
  if (size > sizeof(D->buf) - D->nbuf) {
    flush(D);
    if (size > sizeof(D->buf)) {   /* big block: hand it to the writer directly */
      if (D->status == 0) D->status = D->writer(D->L, b, size, D->data);
      return;
    }
  }
  memcpy(D->buf + D->nbuf, b, size);
  D->nbuf += size;
}

static void dumpbyte(DumpState *D, int b) {
  unsigned char c = (unsigned char)b;
  dumpblock(D, &c, 1);
}

static void dumpuint(DumpState *D, uint64_t x) {
  unsigned char b[10];
  int n = 0;
  do {
    unsigned char c = (unsigned char)(x & 0x7F);
    x >>= 7;
    if (x != 0) c |= 0x80;
    b[n++] = c;
  } while (x != 0);
  dumpblock(D, b, n);
}

static void dumpint(DumpState *D, int x) { dumpuint(D, (uint32_t)x); }

static void dumpinteger(DumpState *D, lua_Integer i) { dumpblock(D, &i, sizeof(i)); }
static void dumpnumber(DumpState *D, lua_Number n) { dumpblock(D, &n, sizeof(n)); }

static void dumpstring(DumpState *D, const TString *s) {
  if (s == NULL)
    dumpuint(D, 0);
  else {
    dumpuint(D, (uint64_t)s->len + 1);
    dumpblock(D, getstr(s), s->len);
  }
}

static void dumpconstants(DumpState *D, const Proto *f) {
  int i;
  dumpint(D, f->sizek);
  for (i = 0; i < f->sizek; i++) {
    Value v = f->k[i];
    if (v_isstring(v)) {
      TString *s = v_str(v);
      dumpbyte(D, s->len <= MVMC_MAXSHORTLEN ? MVMC_TSHRSTR : MVMC_TLNGSTR);
      dumpstring(D, s);
    }
    else if (v_isinteger(v)) {
      dumpbyte(D, MVMC_TINT);
      dumpinteger(D, v_getint(v));
    }
    else if (v_isfloat(v)) {
      dumpbyte(D, MVMC_TFLT);
      dumpnumber(D, v_getfloat(v));
    }
    else if (v == MVM_FALSE) dumpbyte(D, MVMC_TFALSE);
    else if (v == MVM_TRUE) dumpbyte(D, MVMC_TTRUE);
    else dumpbyte(D, MVMC_TNIL);   /* nil (nothing else can be a constant) */
  }
}

static void dumpfunction(DumpState *D, const Proto *f, const TString *psource) {
  int i, n;
  dumpstring(D, (D->strip || f->source == psource) ? NULL : f->source);
  dumpint(D, f->linedefined);
  dumpint(D, f->lastlinedefined);
  dumpbyte(D, f->numparams);
  dumpbyte(D, f->is_vararg);
  dumpbyte(D, f->maxstacksize);
  dumpint(D, f->sizecode);
  dumpblock(D, f->code, (size_t)f->sizecode * sizeof(Instruction));
  dumpconstants(D, f);
  dumpint(D, f->sizeupvalues);
  for (i = 0; i < f->sizeupvalues; i++) {
    dumpbyte(D, f->upvalues[i].instack);
    dumpbyte(D, f->upvalues[i].idx);
    dumpbyte(D, f->upvalues[i].kind);
  }
  dumpint(D, f->sizep);
  for (i = 0; i < f->sizep; i++)
    dumpfunction(D, f->p[i], f->source);
  /* debug information */
  n = (D->strip || f->sizelineinfo != f->sizecode) ? 0 : f->sizelineinfo;
  dumpint(D, n);
  for (i = 0; i < n; i++)
    dumpint(D, f->lineinfo[i]);
  n = D->strip ? 0 : f->sizelocvars;
  dumpint(D, n);
  for (i = 0; i < n; i++) {
    dumpstring(D, f->locvars[i].varname);
    dumpint(D, f->locvars[i].startpc);
    dumpint(D, f->locvars[i].endpc);
  }
  n = D->strip ? 0 : f->sizeupvalues;
  dumpint(D, n);
  for (i = 0; i < n; i++)
    dumpstring(D, f->upvalues[i].name);
}

static void dumpheader(DumpState *D) {
  dumpblock(D, LUA_SIGNATURE, sizeof(LUA_SIGNATURE) - 1);
  dumpbyte(D, MVMC_VERSION);
  dumpbyte(D, MVMC_FORMAT);
  dumpblock(D, MVMC_DATA, sizeof(MVMC_DATA) - 1);
  dumpbyte(D, sizeof(Instruction));
  dumpbyte(D, sizeof(lua_Integer));
  dumpbyte(D, sizeof(lua_Number));
  dumpinteger(D, MVMC_INT);
  dumpnumber(D, MVMC_NUM);
}

/* Write the chunk for 'f' through 'w'; returns the writer's first error code.
** Does not allocate by itself (the writer may). */
int mvm_dump(lua_State *L, const Proto *f, lua_Writer w, void *data, int strip) {
  DumpState D;
  D.L = L;
  D.writer = w;
  D.data = data;
  D.strip = strip;
  D.status = 0;
  D.nbuf = 0;
  dumpheader(&D);
  dumpbyte(&D, f->sizeupvalues);
  dumpfunction(&D, f, NULL);
  flush(&D);
  return D.status;
}
