#!/usr/bin/env bash
# exports_test.sh BINARY... -- every function the stock Lua 5.4 headers
# declare (LUA_API/LUALIB_API/LUAMOD_API in /usr/include/lua5.4, or mvm's
# include/ when those are missing) and every mvm_* function of mvm.h must be
# in the dynamic symbol table of each BINARY (the mvm command, libmvm.so),
# so that stock C modules loaded with require resolve against it.  No
# function but lua_*, luaL_*, luaopen_* and mvm_* may be exported.
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
hdrs=/usr/include/lua5.4
[ -f $hdrs/lua.h ] || hdrs=$src/include
api() {   # names declared with an API macro in the given headers
  cat "$@" | tr '\n' ' ' | grep -oE '(LUA_API|LUALIB_API|LUAMOD_API)[^;]*;' |
    grep -oE '\(\s*(lua_|luaL_|luaopen_|mvm_)\w+\s*\)' | tr -d '() ' | sort -u
}
want=$( { api $hdrs/lua.h $hdrs/lauxlib.h $hdrs/lualib.h; api "$src/include/mvm.h"; } | sort -u)
status=0
for bin in "$@"; do
  have=$(nm -D --defined-only "$bin" | awk '$2 ~ /^[TtWDdBbRr]$/ {print $3}' | sort -u)
  missing=$(comm -23 <(echo "$want") <(echo "$have"))
  # functions only: an executable also "defines" variables it copied from
  # shared libraries (stdin, libedit's rl_*), which is not an export
  extra=$(nm -D --defined-only "$bin" | awk '$2 ~ /^[TtWi]$/ {print $3}' |
          grep -vE '^(lua_|luaL_|luaopen_|mvm_)' | grep -vE '^(_init|_fini|_start|main|data_start|__data_start)$')
  n=$(echo "$want" | wc -l)
  if [ -n "$missing" ]; then
    echo "$bin: missing exports:" $missing; status=1
  fi
  if [ -n "$extra" ]; then
    echo "$bin: unexpected exports:" $extra; status=1
  fi
  [ -z "$missing" ] && echo "$bin: all $n API functions exported"
done
exit $status
