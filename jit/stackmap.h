/*
** stackmap.h -- LLVM stack maps (format version 3) and the per-VM registry
** of the stack maps of compiled code.
**
** LLVM's code generator writes a ".llvm_stackmaps" section for every object
** that contains gc.statepoint / stackmap / patchpoint calls.  The JIT's
** memory manager captures that section (jit/llvmjit.c), sm_parse() decodes
** it here into records keyed by RETURN ADDRESS (function address +
** instruction offset), and sm_register() adds them to the VM's registry,
** where the collector's stack walker looks a compiled frame's return
** address up to find the slots holding references.
**
** Section layout (all little-endian, as produced by LLVM 19):
**   header     u8 version (3), u8 0, u16 0
**              u32 NumFunctions, u32 NumConstants, u32 NumRecords
**   functions  NumFunctions x { u64 address, u64 stack size, u64 record count }
**   constants  NumConstants x u64
**   records    NumRecords x {
**                u64 patchpoint id, u32 instruction offset, u16 flags,
**                u16 NumLocations,
**                NumLocations x { u8 kind, u8 0, u16 size, u16 dwarf reg,
**                                 u16 0, i32 offset-or-small-constant }
**                padding to 8 bytes,
**                u16 padding, u16 NumLiveOuts,
**                NumLiveOuts x { u16 dwarf reg, u8 0, u8 size },
**                padding to 8 bytes }
** Records belong to the functions in order: the first 'record count' records
** to the first function, and so on.
**
** Statepoint records: locations 0..2 are constants (calling convention,
** flags, number of deopt locations N); then N deopt locations; then pairs
** (base, derived) of gc pointers.  A derived pointer is relocated by the
** displacement of its base.
**
** The parser never trusts the section: every read is bounds-checked and a
** malformed section is rejected as a whole.
*/
#ifndef mvm_stackmap_h
#define mvm_stackmap_h

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include "luaconf.h"

/* location kinds, as numbered by LLVM */
#define SM_REGISTER       1   /* value in register 'reg' */
#define SM_DIRECT         2   /* value is the address reg + offset (a frame slot's address) */
#define SM_INDIRECT       3   /* value is stored in memory at [reg + offset] */
#define SM_CONSTANT       4   /* value is 'offset' itself (sign-extended) */
#define SM_CONSTANTINDEX  5   /* value is constants[offset] (resolved into 'constant') */

typedef struct SMLocation {
  uint8_t kind;
  uint16_t size;       /* bytes */
  uint16_t reg;        /* DWARF register number */
  int32_t offset;      /* Direct/Indirect offset; Constant: the value */
  int64_t constant;    /* Constant and ConstantIndex: the (resolved) value */
} SMLocation;

typedef struct SMLiveOut {
  uint16_t reg;
  uint8_t size;
} SMLiveOut;

typedef struct SMRecord {
  uintptr_t retaddr;    /* function address + instruction offset: the key */
  uintptr_t funcaddr;
  uint64_t stacksize;   /* the function's fixed frame size (UINT64_MAX: unknown) */
  uint64_t id;          /* patchpoint id (0xABCDEF00 for default statepoints) */
  uint32_t offset;      /* instruction offset from funcaddr */
  uint16_t flags;
  uint16_t nlocs, nliveouts;
  SMLocation *locs;
  SMLiveOut *liveouts;
  /* statepoint view (is_statepoint != 0): locs[0..2] constants */
  uint8_t is_statepoint;
  int32_t cc, spflags, ndeopt;
  int npairs;           /* (base, derived) pairs starting at locs[3 + ndeopt] */
  uint32_t stresshits;  /* MVM_GC_STRESS: polls through this record (jitrt.c) */
} SMRecord;

#define sm_deopt(r, i)    (&(r)->locs[3 + (i)])
#define sm_base(r, i)     (&(r)->locs[3 + (r)->ndeopt + 2 * (i)])
#define sm_derived(r, i)  (&(r)->locs[3 + (r)->ndeopt + 2 * (i) + 1])

typedef struct SMFunction {
  uintptr_t addr;
  uint64_t stacksize;
  uint64_t nrecords;
} SMFunction;

/* One parsed section.  Owns its arrays (one malloc'd block). */
typedef struct StackMap {
  uint8_t version;
  uint32_t nfuncs, nconsts, nrecords;
  SMFunction *funcs;
  uint64_t *consts;
  SMRecord *records;
  void *mem_;           /* the single allocation behind the arrays */
} StackMap;

/* Parse a section.  Returns NULL on a malformed or unsupported section
** (writing a reason to *err when err != NULL) or when out of memory. */
LUAI_FUNC StackMap *sm_parse(const void *section, size_t size, const char **err);
LUAI_FUNC void sm_free(StackMap *sm);

/* ---- the registry: all registered records, sorted by return address ---- */
/* The registry is shared by the VM's thread (the collector's walk, the
** safepoint slow path) and the background compile thread (jit.c), which
** registers the stack maps of code it finishes: every operation takes
** 'lock'.  A record returned by sm_lookup stays valid until its section is
** unregistered, which only happens when its code is released. */
typedef struct SMRegistry {
  SMRecord **recs;      /* sorted by retaddr */
  size_t n, cap;
  StackMap **maps;      /* registered sections */
  size_t nmaps, capmaps;
  pthread_mutex_t lock;
} SMRegistry;

LUAI_FUNC void sm_reginit(SMRegistry *reg);
/* frees the registry's arrays and every still-registered section */
LUAI_FUNC void sm_regfree(SMRegistry *reg);
/* Add every record of 'sm' (the registry takes ownership).  Returns 0 on
** success, -1 when out of memory (then 'sm' is not registered). */
LUAI_FUNC int sm_register(SMRegistry *reg, StackMap *sm);
/* Remove the records of 'sm' and free it.  Returns 0, or -1 if 'sm' was
** not registered. */
LUAI_FUNC int sm_unregister(SMRegistry *reg, StackMap *sm);
/* The record whose return address is exactly 'retaddr', or NULL. */
LUAI_FUNC const SMRecord *sm_lookup(const SMRegistry *reg, uintptr_t retaddr);

/* ---- walking one compiled frame ----
** A compiled frame stopped at the statepoint of record 'r' is described by
** 'sp', the value of RSP at the call (the caller's stack pointer: the
** return address was pushed just below it).  x86-64 only: the callee,
** a runtime helper built with frame pointers, pushed the caller's RBP at
** sp - 16, so RBP-based locations are found through that word.
** Location -> slot address:
**   Indirect [reg + off]  reg RSP (DWARF 7): sp + off;
**                         reg RBP (DWARF 6): *(sp - 16) + off;
**   Direct    reg + off   (a gc-live alloca holding the pointer): same;
**   Constant, ConstantIndex: nothing to visit (null or a constant word);
**   Register, other base registers, sizes other than 8: an error (LLVM 19
**   spills every gc pointer across a statepoint to the frame).
** The slots hold NaN-boxed words (vm/value.h): each distinct BASE slot
** holding a reference is passed to 'visit' once, which may rewrite it (a
** moving collection); every derived slot of that base that is not itself
** a base slot is then moved by the same displacement
** (derived_new = base_new + (derived_old - base_old)), once. */
#define SM_DWARF_RBP  6
#define SM_DWARF_RSP  7
typedef void (*SMVisitor)(void *ud, uint64_t *slot);
typedef struct SMWalkStats {
  size_t nbases;        /* distinct base slots holding references (visited) */
  size_t nmoved;        /* of those, rewritten by the visitor */
  size_t nderived;      /* derived slots moved with their base */
} SMWalkStats;
/* address of the slot of location 'loc' (NULL when the location holds a
** constant); sets *err and returns NULL on an unsupported location */
LUAI_FUNC uint64_t *sm_slotaddr(const SMLocation *loc, uintptr_t sp, const char **err);
/* visit the gc pointers of statepoint record 'r' in the frame at 'sp';
** returns 0, or -1 with *err set (unsupported location: nothing visited) */
LUAI_FUNC int sm_walkrecord(const SMRecord *r, uintptr_t sp, SMVisitor visit,
                            void *ud, SMWalkStats *st, const char **err);

#endif
