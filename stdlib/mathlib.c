/*
** mathlib.c -- the math library.  Public C API only, but for floor and
** ceil's one-number case (vm/api.c api_roundstep).
** The generator is xoshiro256** seeded exactly as Lua 5.4.4 does, so a
** fixed seed yields the same sequence as the reference interpreter.
*/
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"

#define PI  3.141592653589793238462643383279502884

/* push a float as an integer when it has an exact integer value in range */
static void push_intish(lua_State *L, lua_Number d) {
  lua_Integer n;
  if (lua_numbertointeger(d, &n))
    lua_pushinteger(L, n);
  else
    lua_pushnumber(L, d);
}

static int m_abs(lua_State *L) {
  if (lua_isinteger(L, 1)) {
    lua_Integer n = lua_tointeger(L, 1);
    if (n < 0) n = (lua_Integer)(0u - (lua_Unsigned)n);   /* wraps at min */
    lua_pushinteger(L, n);
  }
  else
    lua_pushnumber(L, fabs(luaL_checknumber(L, 1)));
  return 1;
}

static int m_sin(lua_State *L) { lua_pushnumber(L, sin(luaL_checknumber(L, 1))); return 1; }
static int m_cos(lua_State *L) { lua_pushnumber(L, cos(luaL_checknumber(L, 1))); return 1; }
static int m_tan(lua_State *L) { lua_pushnumber(L, tan(luaL_checknumber(L, 1))); return 1; }
static int m_asin(lua_State *L) { lua_pushnumber(L, asin(luaL_checknumber(L, 1))); return 1; }
static int m_acos(lua_State *L) { lua_pushnumber(L, acos(luaL_checknumber(L, 1))); return 1; }
static int m_sqrt(lua_State *L) { lua_pushnumber(L, sqrt(luaL_checknumber(L, 1))); return 1; }
static int m_exp(lua_State *L) { lua_pushnumber(L, exp(luaL_checknumber(L, 1))); return 1; }

static int m_atan(lua_State *L) {
  lua_Number y = luaL_checknumber(L, 1);
  lua_Number x = luaL_optnumber(L, 2, 1);
  lua_pushnumber(L, atan2(y, x));
  return 1;
}

static int m_tointeger(lua_State *L) {
  int ok;
  lua_Integer n = lua_tointegerx(L, 1, &ok);
  if (ok)
    lua_pushinteger(L, n);
  else {
    luaL_checkany(L, 1);
    luaL_pushfail(L);
  }
  return 1;
}

/* (vm/api.c: the one-number case read from the stack) */
LUAI_FUNC int api_roundstep(lua_State *L, int up);

static int m_floor(lua_State *L) {
  if (api_roundstep(L, 0) >= 0)
    return 1;
  if (lua_isinteger(L, 1))
    lua_settop(L, 1);   /* already integral */
  else
    push_intish(L, floor(luaL_checknumber(L, 1)));
  return 1;
}

/* The functions compiled code runs inline when it finds them called
** (jit/llvmgen.c builtincall compares the callee with these values), in
** the order of JIT_BUILTIN_* (jit/jit.h). */
LUAI_DDEF const lua_CFunction mvm_mathbuiltins[3] = { m_sqrt, m_floor, m_abs };

static int m_ceil(lua_State *L) {
  if (api_roundstep(L, 1) >= 0)
    return 1;
  if (lua_isinteger(L, 1))
    lua_settop(L, 1);
  else
    push_intish(L, ceil(luaL_checknumber(L, 1)));
  return 1;
}

static int m_fmod(lua_State *L) {
  if (lua_isinteger(L, 1) && lua_isinteger(L, 2)) {
    lua_Integer d = lua_tointeger(L, 2);
    if ((lua_Unsigned)d + 1u <= 1u) {   /* d is 0 or -1 */
      luaL_argcheck(L, d != 0, 2, "zero");
      lua_pushinteger(L, 0);   /* x % -1 == 0; avoids minint / -1 trap */
    }
    else
      lua_pushinteger(L, lua_tointeger(L, 1) % d);   /* C truncation */
  }
  else
    lua_pushnumber(L, fmod(luaL_checknumber(L, 1), luaL_checknumber(L, 2)));
  return 1;
}

static int m_modf(lua_State *L) {
  if (lua_isinteger(L, 1)) {
    lua_settop(L, 1);
    lua_pushnumber(L, 0);   /* no fractional part */
  }
  else {
    lua_Number x = luaL_checknumber(L, 1);
    lua_Number ip = (x < 0) ? ceil(x) : floor(x);   /* toward zero */
    push_intish(L, ip);
    lua_pushnumber(L, (x == ip) ? 0.0 : (x - ip));   /* inf - inf guard */
  }
  return 2;
}

static int m_log(lua_State *L) {
  lua_Number x = luaL_checknumber(L, 1);
  lua_Number r;
  if (lua_isnoneornil(L, 2))
    r = log(x);
  else {
    lua_Number base = luaL_checknumber(L, 2);
    if (base == 2.0) r = log2(x);
    else if (base == 10.0) r = log10(x);
    else r = log(x) / log(base);
  }
  lua_pushnumber(L, r);
  return 1;
}

static int m_deg(lua_State *L) {
  lua_pushnumber(L, luaL_checknumber(L, 1) * (180.0 / PI));
  return 1;
}

static int m_rad(lua_State *L) {
  lua_pushnumber(L, luaL_checknumber(L, 1) * (PI / 180.0));
  return 1;
}

static int m_ult(lua_State *L) {
  lua_Integer a = luaL_checkinteger(L, 1);
  lua_Integer b = luaL_checkinteger(L, 2);
  lua_pushboolean(L, (lua_Unsigned)a < (lua_Unsigned)b);
  return 1;
}

static int m_type(lua_State *L) {
  if (lua_type(L, 1) == LUA_TNUMBER)
    lua_pushstring(L, lua_isinteger(L, 1) ? "integer" : "float");
  else {
    luaL_checkany(L, 1);
    luaL_pushfail(L);
  }
  return 1;
}

/* min/max compare with '<' (so mixed int/float work exactly) */
static int m_min(lua_State *L) {
  int n = lua_gettop(L);
  int best = 1;
  luaL_argcheck(L, n >= 1, 1, "value expected");
  for (int i = 2; i <= n; i++)
    if (lua_compare(L, i, best, LUA_OPLT))
      best = i;
  lua_pushvalue(L, best);
  return 1;
}

static int m_max(lua_State *L) {
  int n = lua_gettop(L);
  int best = 1;
  luaL_argcheck(L, n >= 1, 1, "value expected");
  for (int i = 2; i <= n; i++)
    if (lua_compare(L, best, i, LUA_OPLT))
      best = i;
  lua_pushvalue(L, best);
  return 1;
}

/* ---------------------------------------------------------- xoshiro256** */

typedef struct RandState { uint64_t s[4]; } RandState;

static uint64_t rotl64(uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}

static uint64_t rand_next(RandState *r) {
  uint64_t *s = r->s;
  uint64_t out = rotl64(s[1] * 5, 7) * 9;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl64(s[3], 45);
  return out;
}

/* the top 53 bits as a float in [0, 1) */
static lua_Number rand_float(uint64_t x) {
  return (lua_Number)(x >> 11) * 0x1.0p-53;
}

/* Map a random 64-bit value into [0, n]: mask to the smallest 2^b-1 that
** covers n, drawing again while the masked value is above n. */
static lua_Unsigned rand_project(lua_Unsigned x, lua_Unsigned n, RandState *r) {
  if ((n & (n + 1)) == 0)   /* n + 1 is a power of two (or n is max) */
    return x & n;
  lua_Unsigned mask = n;
  mask |= mask >> 1; mask |= mask >> 2; mask |= mask >> 4;
  mask |= mask >> 8; mask |= mask >> 16; mask |= mask >> 32;
  while ((x &= mask) > n)
    x = rand_next(r);
  return x;
}

static int m_random(lua_State *L) {
  RandState *r = (RandState *)lua_touserdata(L, lua_upvalueindex(1));
  uint64_t x = rand_next(r);
  lua_Integer lo, hi;
  switch (lua_gettop(L)) {
    case 0:
      lua_pushnumber(L, rand_float(x));
      return 1;
    case 1:
      lo = 1;
      hi = luaL_checkinteger(L, 1);
      if (hi == 0) {   /* the whole 64-bit range */
        lua_pushinteger(L, (lua_Integer)x);
        return 1;
      }
      break;
    case 2:
      lo = luaL_checkinteger(L, 1);
      hi = luaL_checkinteger(L, 2);
      break;
    default:
      return luaL_error(L, "wrong number of arguments");
  }
  luaL_argcheck(L, lo <= hi, 1, "interval is empty");
  lua_Unsigned off = rand_project(x, (lua_Unsigned)hi - (lua_Unsigned)lo, r);
  lua_pushinteger(L, (lua_Integer)(off + (lua_Unsigned)lo));
  return 1;
}

static void rand_seed(lua_State *L, RandState *r, lua_Unsigned a, lua_Unsigned b) {
  r->s[0] = a;
  r->s[1] = 0xff;   /* never an all-zero state */
  r->s[2] = b;
  r->s[3] = 0;
  for (int i = 0; i < 16; i++)   /* mix the seed in */
    rand_next(r);
  lua_pushinteger(L, (lua_Integer)a);
  lua_pushinteger(L, (lua_Integer)b);
}

static void rand_seed_fresh(lua_State *L, RandState *r) {
  lua_Unsigned a = (lua_Unsigned)time(NULL);
  lua_Unsigned b = (lua_Unsigned)(size_t)L ^ ((lua_Unsigned)clock() << 32);
  rand_seed(L, r, a, b);
}

static int m_randomseed(lua_State *L) {
  RandState *r = (RandState *)lua_touserdata(L, lua_upvalueindex(1));
  if (lua_isnone(L, 1))
    rand_seed_fresh(L, r);
  else {
    lua_Integer a = luaL_checkinteger(L, 1);
    lua_Integer b = luaL_optinteger(L, 2, 0);
    rand_seed(L, r, (lua_Unsigned)a, (lua_Unsigned)b);
  }
  return 2;
}

static const luaL_Reg rand_funcs[] = {
  {"random", m_random},
  {"randomseed", m_randomseed},
  {NULL, NULL}
};

static void open_random(lua_State *L) {
  RandState *r = (RandState *)lua_newuserdatauv(L, sizeof(RandState), 0);
  rand_seed_fresh(L, r);
  lua_pop(L, 2);   /* the seed values */
  luaL_setfuncs(L, rand_funcs, 1);   /* state is the shared upvalue */
}

/* Deprecated 5.3 functions.  The reference lua5.4 (Debian's build) is
   compiled with LUA_COMPAT_MATHLIB, so scripts may use them and expect them
   to behave as there. */
static int m_cosh(lua_State *L) {
  lua_pushnumber(L, cosh(luaL_checknumber(L, 1)));
  return 1;
}

static int m_sinh(lua_State *L) {
  lua_pushnumber(L, sinh(luaL_checknumber(L, 1)));
  return 1;
}

static int m_tanh(lua_State *L) {
  lua_pushnumber(L, tanh(luaL_checknumber(L, 1)));
  return 1;
}

static int m_pow(lua_State *L) {
  lua_Number x = luaL_checknumber(L, 1);
  lua_Number y = luaL_checknumber(L, 2);
  lua_pushnumber(L, pow(x, y));
  return 1;
}

static int m_frexp(lua_State *L) {
  int e;
  lua_pushnumber(L, frexp(luaL_checknumber(L, 1), &e));
  lua_pushinteger(L, e);
  return 2;
}

static int m_ldexp(lua_State *L) {
  lua_Number x = luaL_checknumber(L, 1);
  int e = (int)luaL_checkinteger(L, 2);
  lua_pushnumber(L, ldexp(x, e));
  return 1;
}

static int m_log10(lua_State *L) {
  lua_pushnumber(L, log10(luaL_checknumber(L, 1)));
  return 1;
}

static const luaL_Reg math_funcs[] = {
  {"abs", m_abs},
  {"ceil", m_ceil},
  {"floor", m_floor},
  {"fmod", m_fmod},
  {"modf", m_modf},
  {"tointeger", m_tointeger},
  {"type", m_type},
  {"ult", m_ult},
  {"min", m_min},
  {"max", m_max},
  {"sqrt", m_sqrt},
  {"exp", m_exp},
  {"log", m_log},
  {"sin", m_sin},
  {"cos", m_cos},
  {"tan", m_tan},
  {"asin", m_asin},
  {"acos", m_acos},
  {"atan", m_atan},
  {"deg", m_deg},
  {"rad", m_rad},
  {"atan2", m_atan},
  {"cosh", m_cosh},
  {"sinh", m_sinh},
  {"tanh", m_tanh},
  {"pow", m_pow},
  {"frexp", m_frexp},
  {"ldexp", m_ldexp},
  {"log10", m_log10},
  {NULL, NULL}
};

LUAMOD_API int luaopen_math(lua_State *L) {
  luaL_newlib(L, math_funcs);
  lua_pushnumber(L, PI);
  lua_setfield(L, -2, "pi");
  lua_pushnumber(L, HUGE_VAL);
  lua_setfield(L, -2, "huge");
  lua_pushinteger(L, LUA_MAXINTEGER);
  lua_setfield(L, -2, "maxinteger");
  lua_pushinteger(L, LUA_MININTEGER);
  lua_setfield(L, -2, "mininteger");
  open_random(L);
  return 1;
}
