/*
** parse.h -- data shared by the parser (vm/parse.c) and the code generator
** (vm/code.c): expression descriptors, variable and label descriptors, the
** per-function compilation state.
*/
#ifndef mvm_parse_h
#define mvm_parse_h

#include "lex.h"
#include "opcodes.h"

/* Expression kinds.  The order of the "variable" kinds matters (ranges are
** tested below). */
typedef enum {
  EK_VOID,      /* empty expression list / no value */
  EK_NIL, EK_TRUE, EK_FALSE,
  EK_K,         /* constant; u.info = index in k[] */
  EK_KFLT,      /* u.nval */
  EK_KINT,      /* u.ival */
  EK_KSTR,      /* u.strval */
  EK_NONRELOC,  /* value in a fixed register u.info */
  EK_LOCAL,     /* local variable: u.var.ridx register, u.var.vidx index */
  EK_UPVAL,     /* upvalue u.info */
  EK_CONST,     /* compile-time constant: u.info = absolute index in actvar */
  EK_INDEXED,   /* t[k]: u.ind.t register, u.ind.idx register */
  EK_INDEXUP,   /* upvalue[K]: u.ind.t upvalue, u.ind.idx constant (string) */
  EK_INDEXI,    /* t[i]: u.ind.idx integer immediate */
  EK_INDEXSTR,  /* t["s"]: u.ind.idx constant (short string) */
  EK_JMP,       /* test/comparison; u.info = pc of its jump */
  EK_RELOC,     /* result can go to any register; u.info = instruction pc */
  EK_CALL,      /* u.info = pc of the CALL */
  EK_VARARG     /* u.info = pc of the VARARG */
} ExpKind;

#define ek_isvar(k)      (EK_LOCAL <= (k) && (k) <= EK_INDEXSTR)
#define ek_isindexed(k)  (EK_INDEXED <= (k) && (k) <= EK_INDEXSTR)
#define ek_multret(k)    ((k) == EK_CALL || (k) == EK_VARARG)

typedef struct ExpDesc {
  ExpKind k;
  union {
    int64_t ival;
    double nval;
    TString *strval;
    int info;
    struct { short idx; uint8_t t; } ind;
    struct { uint8_t ridx; unsigned short vidx; } var;
  } u;
  int t, f;         /* jump lists: exit when true / when false */
} ExpDesc;

/* kinds of variables (also Upvaldesc.kind) */
#define VK_REG     0   /* regular */
#define VK_CONST   1   /* <const> */
#define VK_CLOSE   2   /* <close> */
#define VK_CTC     3   /* compile-time constant */

typedef struct VarDesc {
  uint8_t kind;
  uint8_t ridx;      /* register */
  short pidx;        /* index in f->locvars */
  TString *name;     /* anchored in the scanner table */
  ExpDesc kval;      /* value of a compile-time constant */
} VarDesc;

typedef struct LabelDesc {
  TString *name;
  int pc;            /* label position / pending jump */
  int line;
  uint8_t nactvar;   /* active locals at that point */
  uint8_t close;     /* goto that escapes upvalues */
} LabelDesc;

/* growable arrays kept in userdata anchored on the Lua stack */
typedef struct DynArr {
  void *arr;
  int n, size;
  ptrdiff_t slot;
} DynArr;

typedef struct Dyndata {
  DynArr actvar;     /* VarDesc: all active locals of all open functions */
  DynArr gt;         /* LabelDesc: pending gotos */
  DynArr label;      /* LabelDesc: active labels */
} Dyndata;

struct BlockCnt;

typedef struct FuncState {
  Proto *f;
  struct FuncState *prev;
  LexState *ls;
  struct BlockCnt *bl;
  int pc;             /* next instruction */
  int lasttarget;     /* pc of last jump target */
  int nk;             /* constants */
  int np;             /* nested prototypes */
  int firstlocal;     /* index of first local in dyd->actvar */
  int firstlabel;     /* index of first label in dyd->label */
  short ndebugvars;   /* entries used in f->locvars */
  uint8_t nactvar;    /* active local variables */
  uint8_t nups;       /* upvalues */
  uint8_t freereg;    /* first free register */
  uint8_t needclose;  /* returns must close upvalues/tbc */
} FuncState;

#define NO_JUMP  (-1)
#define NO_REG   MAXARG_A

/* parse.c services used by code.c */
LUAI_FUNC int parse_nvarstack(FuncState *fs);
LUAI_FUNC VarDesc *parse_vardesc(FuncState *fs, int absidx);

#endif
