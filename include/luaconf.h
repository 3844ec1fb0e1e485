/*
** luaconf.h -- configuration of the mvm implementation of the Lua 5.4 C API.
** The values here must match a stock 64-bit Lua 5.4 build, because C modules
** compiled against the stock headers are loaded unchanged (binary
** compatibility): lua_Integer is 'long long', lua_Number is 'double',
** LUAI_MAXSTACK is one million, LUA_IDSIZE is 60, LUAL_BUFFERSIZE is 1024.
*/
#ifndef luaconf_h
#define luaconf_h

#include <limits.h>
#include <stddef.h>

#define LUAI_IS32INT	((UINT_MAX >> 30) >= 3)

#define LUA_INT_LONGLONG	3
#define LUA_FLOAT_DOUBLE	2
#define LUA_INT_TYPE	LUA_INT_LONGLONG
#define LUA_FLOAT_TYPE	LUA_FLOAT_DOUBLE

#define LUA_PATH_SEP            ";"
#define LUA_PATH_MARK           "?"
#define LUA_EXEC_DIR            "!"
#define LUA_DIRSEP	"/"

#define LUA_ROOT	"/usr/local/"
#define LUA_LDIR	LUA_ROOT "share/lua/5.4/"
#define LUA_CDIR	LUA_ROOT "lib/lua/5.4/"
#define LUA_PATH_DEFAULT  \
		LUA_LDIR"?.lua;"  LUA_LDIR"?/init.lua;" \
		LUA_CDIR"?.lua;"  LUA_CDIR"?/init.lua;" \
		"/usr/share/lua/5.4/?.lua;" "/usr/share/lua/5.4/?/init.lua;" \
		"./?.lua;" "./?/init.lua"
#define LUA_CPATH_DEFAULT \
		LUA_CDIR"?.so;" \
		"/usr/lib/x86_64-linux-gnu/lua/5.4/?.so;" \
		"/usr/lib/lua/5.4/?.so;" \
		LUA_CDIR"loadall.so;" "./?.so"   /* as Debian's lua5.4 */

#if defined(__GNUC__)
#define LUA_API		extern __attribute__((visibility("default")))
#else
#define LUA_API		extern
#endif
#define LUALIB_API	LUA_API
#define LUAMOD_API	LUA_API

#define LUAI_FUNC	__attribute__((visibility("hidden"))) extern
#define LUAI_DDEC(dec)	LUAI_FUNC dec
#define LUAI_DDEF	/* empty */

#define LUA_NUMBER	double
#define l_floatatt(n)		(DBL_##n)
#define LUAI_UACNUMBER	double
#define LUA_NUMBER_FRMLEN	""
#define LUA_NUMBER_FMT		"%.14g"
#define l_mathop(op)		op
#define lua_str2number(s,p)	strtod((s), (p))

#define LUA_INTEGER		long long
#define LUA_INTEGER_FRMLEN	"ll"
#define LUAI_UACINT		LUA_INTEGER
#define LUA_INTEGER_FMT		"%" LUA_INTEGER_FRMLEN "d"
#define LUA_MAXINTEGER		LLONG_MAX
#define LUA_MININTEGER		LLONG_MIN
#define LUA_UNSIGNED		unsigned long long

#define lua_number2str(s,sz,n)  \
	l_sprintf((s), sz, LUA_NUMBER_FMT, (LUAI_UACNUMBER)(n))
#define lua_integer2str(s,sz,n)  \
	l_sprintf((s), sz, LUA_INTEGER_FMT, (LUAI_UACINT)(n))
#define l_sprintf(s,sz,f,i)	snprintf(s,sz,f,i)

#define lua_numbertointeger(n,p) \
  ((n) >= (LUA_NUMBER)(LUA_MININTEGER) && \
   (n) < -(LUA_NUMBER)(LUA_MININTEGER) && \
      (*(p) = (LUA_INTEGER)(n), 1))

#define lua_getlocaledecpoint()		'.'

#define LUA_KCONTEXT	ptrdiff_t

#define LUAI_MAXSTACK		1000000
#define LUA_EXTRASPACE		(sizeof(void *))
#define LUA_IDSIZE	60
#define LUAL_BUFFERSIZE   ((int)(16 * sizeof(void*) * sizeof(lua_Number)))

#define LUAI_MAXALIGN  lua_Number n; double u; void *s; lua_Integer i; long l

#define lua_assert(c)		((void)0)

#define LUA_COMPAT_MATHLIB	/* nothing: 5.4 defaults */
#undef LUA_COMPAT_MATHLIB

#endif
