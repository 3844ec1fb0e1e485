// lua.hpp -- the Lua 5.4 C API (as implemented by mvm) for C++ hosts.
// The headers declare plain C functions; C++ code includes this file so
// that they get C linkage.
extern "C" {
#include "lua.h"
#include "lualib.h"
#include "lauxlib.h"
#include "mvm.h"
}
