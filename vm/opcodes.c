/*
** opcodes.c -- properties of the opcodes, generated from the one list.
*/
#include "opcodes.h"

const char *const mvm_opnames[NUM_OPCODES + 1] = {
#define MVM_OPNAME(name, mode, a, t, it, ot, mm) #name,
  MVM_OPCODES(MVM_OPNAME)
#undef MVM_OPNAME
  NULL
};

const uint8_t mvm_opmodes[NUM_OPCODES] = {
#define MVM_OPMODE(name, mode, a, t, it, ot, mm) \
  (uint8_t)((mode) | ((a) << 3) | ((t) << 4) | ((it) << 5) | ((ot) << 6) | ((mm) << 7)),
  MVM_OPCODES(MVM_OPMODE)
#undef MVM_OPMODE
};
