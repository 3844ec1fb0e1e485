/*
** state.h -- threads (lua_State), call frames (CallInfo), the per-VM global
** state, and metamethod event names.
**
** A thread is a heap object laid out as LX: the GC header, LUA_EXTRASPACE
** bytes (lua_getextraspace), then the lua_State the C API hands out.  Threads
** live in the non-moving old space, so a lua_State* stays valid while the
** thread is reachable.  A Value referring to a thread holds the LX address.
**
** The stack is an out-of-line array of Values that may be reallocated when it
** grows (vm/do.c corrects every pointer into it: CallInfo func/top, open
** upvalues, tbclist, L->top).  Never keep a raw pointer into a stack across a
** call that may grow it; keep an index (savestack/restorestack).
*/
#ifndef mvm_state_h
#define mvm_state_h

#include <setjmp.h>
#include <signal.h>
#include "object.h"

/* metamethod events: order matters (fast-access cache bits for INDEX..EQ,
** arithmetic events in the order of the LUA_OP* codes from ADD on) */
typedef enum {
  TM_INDEX, TM_NEWINDEX, TM_GC, TM_MODE, TM_LEN, TM_EQ,
  TM_ADD, TM_SUB, TM_MUL, TM_MOD, TM_POW, TM_DIV, TM_IDIV,
  TM_BAND, TM_BOR, TM_BXOR, TM_SHL, TM_SHR,
  TM_UNM, TM_BNOT, TM_LT, TM_LE, TM_CONCAT, TM_CALL, TM_CLOSE,
  TM_N
} TMS;

/* entries of global_State.icache, a power of 2 */
#define VM_ICACHE_SIZE  256
typedef struct VMMethodEntry {
  const Table *mt; const TString *key; const Value *slot; size_t stamp;
} VMMethodEntry;

/* bits in CallInfo.callstatus */
#define CIST_OAH        (1<<0)  /* original value of 'allowhook' */
#define CIST_C          (1<<1)  /* call is running a C function */
#define CIST_FRESH      (1<<2)  /* call is on a fresh "luaV_execute" frame */
#define CIST_HOOKED     (1<<3)  /* call is running a debug hook */
#define CIST_YPCALL     (1<<4)  /* doing a yieldable protected call */
#define CIST_TAIL       (1<<5)  /* call was tail called */
#define CIST_HOOKYIELD  (1<<6)  /* last hook called yielded */
#define CIST_FIN        (1<<7)  /* function "called" a finalizer */
#define CIST_TRAN       (1<<8)  /* 'ci' has transfer information */
#define CIST_CLSRET     (1<<9)  /* function is closing tbc variables */
#define CIST_JIT        (1<<10) /* compiled code made a call (JIT_CALLED): re-enter it when the callee returns */
/* bits 11-13: status saved while recovering a yieldable pcall (vm/do.c) */
#define CIST_RECST      11
#define CIST_LEQ        (1<<14) /* using __lt for __le (5.3 compatibility, vm/meta.c) */
/* The frame's compiled code is on the C stack (set and cleared by jit_run;
** cleared for a whole coroutine when a longjmp unwinds its C stack, see
** lua_resume).  Only then is u.l.jitsp meaningful to the
** collector's walk of compiled frames (jit_walkframes). */
#define CIST_JITACT     (1<<15)

typedef struct CallInfo {
  Value *func;                 /* function index in the stack */
  Value *top;                  /* top for this function */
  struct CallInfo *previous, *next;
  union {
    struct {                   /* only for Lua functions */
      const Instruction *savedpc;
      volatile int trap;       /* hooks or stack reallocation: reload cached state */
      int nextraargs;          /* # of extra arguments in vararg functions */
      /* anchor of the compiled code running this frame (CIST_JITACT):
      ** where it called its latest runtime helper or compiled callee,
      ** recorded by the helper at entry (jit/jitrt.c, JIT_ANCHOR) or by
      ** the code at the call: its stack pointer at the call (the base of
      ** the stack-map record's locations; the return address, the
      ** record's key, is the word below it: jit_anchorra) */
      char *jitsp;
    } l;
    struct {                   /* only for C functions */
      lua_KFunction k;
      ptrdiff_t old_errfunc;
      lua_KContext ctx;
    } c;
  } u;
  union {
    int funcidx;   /* called-function index (protected calls) */
    int nyield;    /* number of values yielded */
    int nres;      /* number of values returned */
    struct { unsigned short ftransfer, ntransfer; } transferinfo;
  } u2;
  short nresults;  /* expected number of results from this function */
  unsigned short callstatus;
} CallInfo;

#define isLua(ci)  (!((ci)->callstatus & CIST_C))

struct lua_longjmp;   /* vm/do.c */

struct lua_State {
  uint8_t status;
  uint8_t allowhook;
  unsigned short nci;          /* number of items in 'ci' list */
  /* Interpreted loop back-edges of this thread until the interpreter's
  ** next look at the interrupt flag, the trap and the JIT's hotness and
  ** OSR policy (vm.c BACKEDGE): a decrement and a sign test per
  ** back-edge, the same in every JIT mode.  mvm_interrupt and lua_sethook
  ** make it negative, so that the request is seen at the thread's next
  ** back-edge (another thread, or a request lost to a decrement racing
  ** with it from another OS thread, sees it at its next expiry). */
  int32_t becount;
  Value *top;                  /* first free slot in the stack */
  struct global_State *g;
  CallInfo *ci;                /* call info for current function */
  Value *stack_last;           /* end of stack (last element + 1), EXTRA_STACK below the real end */
  Value *stack;
  UpVal *openupval;            /* list of open upvalues in this stack */
  Value *tbclist;              /* list of to-be-closed variables */
  struct lua_State *twups;     /* list of threads with open upvalues */
  struct lua_longjmp *errorJmp;
  CallInfo base_ci;            /* CallInfo for first level (C calling Lua) */
  volatile lua_Hook hook;
  ptrdiff_t errfunc;           /* current error handling function (stack index) */
  uint32_t nCcalls;            /* number of nested (non-yieldable | C) calls */
  int oldpc;
  int basehookcount;
  int hookcount;
  volatile int hookmask;
  struct lua_State *gcnext;    /* all threads of the VM (collector's list) */
  /* nCcalls of the interpreter activation that lua_resume runs (the
  ** coroutine's base level: no C frame between it and lua_resume);
  ** UINT32_MAX when the thread is not running under lua_resume.  There
  ** the interpreter yields by returning (vm.c OP_CALL, mvm_yield). */
  uint32_t basecalls;
  /* the interpreter's last % and // of immediates (vm.c imm_mod,
  ** imm_idiv): operand words and the partner's result shifted left by 16;
  ** plain words, never references (the collector ignores them) */
  struct DivModCache { Value qa, qb; int64_t q; Value ra, rb; int64_t r; } divmod;
};

/* a thread object: header, extra space, then the state */
typedef struct LX {
  GCHeader;
  uint8_t extra_[LUA_EXTRASPACE];
  struct lua_State l;
} LX;

#define thread2gco(L)  ((GCObject *)((char *)(L) - offsetof(LX, l)))
#define gco2thread(o)  (&((LX *)(o))->l)
#undef v_thread
#define v_thread(v)    gco2thread(v_gc(v))
static inline Value v_threadval(struct lua_State *L) { return v_ref(thread2gco(L)); }

/* extra slots above stack_last for metamethod calls and error handling */
#define EXTRA_STACK  5
#define BASIC_STACK_SIZE (2 * LUA_MINSTACK)
#define stacksize(th)  ((int)((th)->stack_last - (th)->stack))

/* C-stack / nesting limit ("C stack overflow" / "stack overflow") */
#define LUAI_MAXCCALLS 200

struct GCState;    /* gc/: private to the collector */
/* the intern table (vm/string.c): 'size' slots, a power of two; a
** slot: the string's hash (low 32 bits, 0 = empty) and its offset from
** 'base' in 16-byte units (high 32 bits): vm/string.c */
struct StringTable { uint64_t *slot; uintptr_t base; int nuse; int size; };

typedef struct global_State {
  lua_Alloc frealloc;          /* host allocator (lua_newstate) */
  void *ud;
  struct GCState *gc;          /* collector state (gc/heap.c) */
  struct StringTable strt;     /* intern table (weak; vm/string.c) */
  Value l_registry;            /* the registry table */
  uint32_t seed;               /* randomized seed for hashes */
  uint32_t idhash;             /* next identity hash (gc/) */
  TString *tmname[TM_N];       /* metamethod event names "__index"... */
  TString *strone[256];        /* the interned 1-byte strings, a weak cache
                               ** (vm/string.c str_one; str_remove clears) */
  struct Table *mt[LUA_NUMTYPES];  /* metatables for basic types */
  TString *tname[LUA_NUMTYPES];    /* "nil", "boolean"...: type()'s results */
  TString *memerrmsg;          /* "not enough memory", preallocated */
  lua_CFunction panic;
  struct lua_State *mainthread;
  lua_WarnFunction warnf;
  void *ud_warn;
  /* C root chain: addresses of Value slots held by C code (gc.h) */
  Value **roots;
  int nroots, sizeroots;
  void *jit;                   /* JIT state (jit/), NULL until first compile */
  void *jitran;                /* the JIT state once compiled code has run, else NULL */
  unsigned long nresumes;      /* lua_resume calls (read by the JIT policy) */
  void *ffijit;                /* the ffi module's JitFFI (jit/jitffi.h), or NULL */
  /* lua_gc's incremental-mode knobs, remembered only to answer as 5.4 does
  ** (the collector has no such knobs): pause and step multiplier as stored
  ** by SETPAUSE/SETSTEPMUL/INC, and the KB of explicit STEP work not yet
  ** amounting to a cycle (vm/api.c) */
  int gcpause, gcstepmul, gcstepdebt;
  /* 'interrupt' is set asynchronously (host interrupt, signal) and checked
  ** at safe points (calls, compiled code's polls, and in the interpreter
  ** at the expiry of lua_State.becount) */
  volatile sig_atomic_t interrupt;
  int jitmode;                 /* 0 off, 1 on, 2 eager */
  /* node index + 1 of the hash entry tab_next returned last (0: none): a
  ** guess, checked against the key 'next' continues from, that spares the
  ** lookup of that key in the traversal of a hash part */
  unsigned nexthint;
  /* ipairs' iterator and next (stdlib/baselib.c, api_setiters), whose
  ** steps TFORCALL makes inline on tables; NULL until registered */
  lua_CFunction ipairsaux, nextaux;
  /* TAB_WATCHED bits cleared (vm/table.h tab_unwatch) and collections
  ** (gc/collect.c gc_collectminor: tables move): the method caches (below;
  ** jit/jit.h JitMethodCache) hold while it is unchanged */
  size_t watchepoch;
  /* The interpreter's method cache (vm.c index_table): where a receiver
  ** with metatable 'mt' that lacks 'key' finds it along its chain of
  ** '__index' tables.  An entry holds while 'stamp' equals watchepoch +
  ** 1 (the rules of jit.h JitMethodCache: the walk that
  ** filled it marked every table it went through TAB_WATCHED, and no
  ** collection has moved or freed one since); a zeroed entry's NULL mt
  ** matches no receiver.  Direct-mapped on mt and the key's hash. */
  VMMethodEntry icache[VM_ICACHE_SIZE];
  /* the string library's cache of prepared patterns (stdlib/strlib.c
  ** PatCache: a full userdata anchored in the registry), NULL until
  ** luaopen_string; its entries are valid for one gc_epoch only */
  void *patcache;
  /* "__tostring" (a root; vm/meta.c meta_init): luaL_tolstring's test of
  ** the string metatable (vm/api.c tolstring_str) */
  TString *tostringname;
} global_State;

#define G(L)  ((L)->g)

/* helpers for stack indices that survive reallocation */
#define savestack(L,p)     ((char *)(p) - (char *)(L)->stack)
#define restorestack(L,n)  ((Value *)((char *)(L)->stack + (n)))

#endif
