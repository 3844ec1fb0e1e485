/*
** state.c -- creation and destruction of VM instances and threads.
**
** The main thread and the global_State live together in one block obtained
** from the host allocator (they must exist before the collector does, and
** they outlive every heap object).  Other threads are heap objects (LX,
** non-moving old space) created by lua_newthread; the collector frees their
** stacks through state_freethread.
*/
#include <string.h>
#include "jit.h"
#include <time.h>

#include "lua.h"
#include "state.h"
#include "stateint.h"
#include "gc.h"
#include "do.h"
#include "func.h"
#include "string.h"
#include "table.h"
#include "meta.h"

/* the host block: main thread object followed by the global state */
typedef struct MainBlock {
  LX lx;
  global_State g;
} MainBlock;

#define mainblock_of(L)  ((MainBlock *)((char *)(L) - offsetof(MainBlock, lx.l)))

/* A little randomness for the string hash seed: the address of a stack
** variable (ASLR) mixed with the clock and the block's address. */
#ifdef MVM_SEED
/* a fixed hash seed, for measurements that must be reproducible (table
** layouts, hence lookup costs, follow the seed) */
static uint32_t make_seed(void *blk) { (void)blk; return (uint32_t)(MVM_SEED); }
#else
static uint32_t make_seed(void *blk) {
  int onstack = 0;
  uintptr_t h = (uintptr_t)&onstack ^ (uintptr_t)blk;
  h ^= (uintptr_t)time(NULL) * 2654435761u;
  h ^= (uintptr_t)clock();
  return (uint32_t)(h ^ (h >> 32));
}
#endif

void state_preinit(lua_State *L1, global_State *g) {
  L1->g = g;
  L1->becount = 0;
  L1->stack = NULL;
  L1->stack_last = NULL;
  L1->top = NULL;
  L1->tbclist = NULL;
  L1->ci = NULL;
  L1->nci = 0;
  L1->twups = L1;          /* "not in the list of threads with open upvalues" */
  L1->errorJmp = NULL;
  L1->hook = NULL;
  L1->hookmask = 0;
  L1->basehookcount = 0;
  L1->hookcount = 0;
  L1->allowhook = 1;
  L1->openupval = NULL;
  L1->status = LUA_OK;
  L1->errfunc = 0;
  L1->oldpc = 0;
  L1->nCcalls = 0;
  L1->basecalls = UINT32_MAX;
  L1->divmod.qa = L1->divmod.ra = 0;   /* word 0: never an operand */
  L1->divmod.qb = L1->divmod.rb = 0;
}

void state_initstack(lua_State *L1, lua_State *L) {
  int i;
  CallInfo *ci;
  Value *st = mvm_newvector(L, BASIC_STACK_SIZE + EXTRA_STACK, Value);
  for (i = 0; i < BASIC_STACK_SIZE + EXTRA_STACK; i++)
    st[i] = MVM_NIL;       /* every slot always holds a valid value */
  L1->stack = st;
  L1->tbclist = st;
  L1->top = st;
  L1->stack_last = st + BASIC_STACK_SIZE;
  /* the base frame: a pseudo C call whose "function" is slot 0 */
  ci = &L1->base_ci;
  ci->next = ci->previous = NULL;
  ci->callstatus = CIST_C;
  ci->func = L1->top;
  ci->u.c.k = NULL;
  ci->u.c.old_errfunc = 0;
  ci->u.c.ctx = 0;
  ci->nresults = 0;
  ci->u2.nres = 0;
  L1->top++;               /* slot 0 stays nil */
  ci->top = L1->top + LUA_MINSTACK;
  L1->ci = ci;
}

/* release a thread's CallInfo list and stack */
static void free_stack(lua_State *L, lua_State *L1) {
  if (L1->stack == NULL) return;   /* never completed */
  L1->ci = &L1->base_ci;
  do_freeCI(L1);
  mvm_freevector(L, L1->stack, stacksize(L1) + EXTRA_STACK, Value);
  L1->stack = L1->stack_last = L1->top = L1->tbclist = NULL;
  L1->nci = 0;
}

void state_freethread(lua_State *L, lua_State *L1) {
  /* a dead thread can still have open upvalues if it died with them: the
  ** collector has already closed/unlinked them (func_closeupval at sweep),
  ** but be defensive */
  if (L1->stack != NULL && L1->openupval != NULL)
    func_closeupval(L1, L1->stack);
  free_stack(L, L1);
}

/* the registry: [1] = main thread, [2] = globals table */
static void init_registry(lua_State *L, global_State *g) {
  Table *reg = tab_new(L);
  Table *glb;
  g->l_registry = v_ref(reg);            /* a root from now on */
  tab_resize(L, reg, LUA_RIDX_LAST, 0);
  glb = tab_new(L);                      /* may move the registry: re-read */
  reg = v_tab(g->l_registry);
  tab_setint(L, reg, LUA_RIDX_GLOBALS, v_ref(glb));
  tab_setint(L, reg, LUA_RIDX_MAINTHREAD, v_threadval(L));
}

/* everything that may fail runs here, protected */
static void open_state(lua_State *L, void *ud) {
  global_State *g = G(L);
  (void)ud;
  gc_init(L);
  gc_setrunning(g, 0);            /* no collection while half-built */
  state_initstack(L, L);
  str_init(L);                    /* intern table and memerrmsg */
  init_registry(L, g);
  meta_init(L);                   /* metamethod event names */
  gc_setrunning(g, 1);
}

/* free whatever exists of a (possibly partial) state and the host block */
/* lua_close's work; 'exiting' (mvm_closeforexit: the process ends right
** after) stops once the program has seen everything it can see (pending
** to-be-closed variables, finalizers, the JIT's statistics): freeing the
** heap object by object took 3 ms of tables.lua's 0.107 s (a minor
** collection promoting the nursery, then every object), which the end of
** the process does at once */
static void close_state(lua_State *L, int exiting) {
  global_State *g = G(L);
  MainBlock *mb = mainblock_of(L);
  lua_Alloc fr = g->frealloc;
  void *ud = g->ud;
  /* no compile in the background from here on: the compile thread reads
  ** protos and their constants, which are about to be freed */
  jit_stopthread(L);
  if (g->gc != NULL) {
    if (L->stack != NULL && g->memerrmsg != NULL && v_istable(g->l_registry)) {
      /* fully built: unwind and close every pending to-be-closed variable */
      L->ci = &L->base_ci;
      L->errfunc = 0;
      do_closeprotected(L, savestack(L, L->stack + 1), LUA_OK);
      L->top = L->stack + 1;
    }
    /* run every pending finalizer and free all heap objects, the intern
    ** table, the root chain and the collector's own state */
    if (exiting) gc_finalizeall(L);
    else gc_freeall(L);
  }
  /* after the protos (and their code) are gone (when exiting, the units
  ** of live protos are released: nothing runs them any more) */
  jit_close(L);
  if (exiting) return;
  /* the main thread is not a heap object: free its parts here (without the
  ** collector, mvm_mem* go straight to the host allocator) */
  free_stack(L, L);
  (*fr)(ud, mb, sizeof(MainBlock), 0);
}

LUA_API lua_State *lua_newstate(lua_Alloc f, void *ud) {
  MainBlock *mb = (MainBlock *)(*f)(ud, NULL, LUA_TTHREAD, sizeof(MainBlock));
  lua_State *L;
  global_State *g;
  int i;
  if (mb == NULL) return NULL;
  memset(mb, 0, sizeof(MainBlock));
  L = &mb->lx.l;
  g = &mb->g;
  /* the main thread's header: a thread that the collector never frees */
  mb->lx.tt = MVM_TTHREAD;
  mb->lx.hash = 0x9E3779B9u;
  state_preinit(L, g);
  g->frealloc = f;
  g->ud = ud;
  g->gc = NULL;
  g->strt.slot = NULL; g->strt.base = 0; g->strt.nuse = 0; g->strt.size = 0;
  g->l_registry = MVM_NIL;
  g->seed = make_seed(mb);
  g->idhash = g->seed | 1;
  for (i = 0; i < TM_N; i++) g->tmname[i] = NULL;
  for (i = 0; i < 256; i++) g->strone[i] = NULL;
  for (i = 0; i < LUA_NUMTYPES; i++) g->mt[i] = NULL;
  for (i = 0; i < LUA_NUMTYPES; i++) g->tname[i] = NULL;
  g->memerrmsg = NULL;
  g->panic = NULL;
  g->mainthread = L;
  g->warnf = NULL;
  g->ud_warn = NULL;
  g->roots = NULL;
  g->nroots = g->sizeroots = 0;
  g->interrupt = 0;
  g->jit = NULL;
  g->jitran = NULL;
  g->nresumes = 0;
  g->nexthint = 0;
  g->ipairsaux = g->nextaux = NULL;
  g->watchepoch = 0;
  g->ffijit = NULL;
  g->jitmode = 0;
  g->gcpause = 200;
  g->gcstepmul = 100;
  g->gcstepdebt = 0;
  if (do_rawrunprotected(L, open_state, NULL) != LUA_OK) {
    close_state(L, 0);
    return NULL;
  }
  return L;
}

LUA_API void lua_close(lua_State *L) {
  L = G(L)->mainthread;   /* only the main thread can be closed */
  close_state(L, 0);
}

LUA_API int mvm_closeforexit(lua_State *L) {
  int left = 0;
  jit_forexit(L, &left);
  close_state(G(L)->mainthread, 1);
  return left;
}

LUA_API lua_State *lua_newthread(lua_State *L) {
  global_State *g = G(L);
  GCObject *o;
  lua_State *L1;
  gc_check(L);
  o = gc_newold(L, MVM_TTHREAD, sizeof(LX));
  L1 = gco2thread(o);
  /* anchor it on L's stack before anything else can allocate */
  *L->top = v_ref(o);
  L->top++;
  state_preinit(L1, g);
  L1->hookmask = L->hookmask;
  L1->basehookcount = L->basehookcount;
  L1->hook = L->hook;
  L1->hookcount = L1->basehookcount;
  memcpy(lua_getextraspace(L1), lua_getextraspace(g->mainthread), LUA_EXTRASPACE);
  state_initstack(L1, L);
  gc_linkthread(L, L1);
  return L1;
}
