#!/usr/bin/env bash
# install_test.sh BUILD_DIR -- `cmake --install` the build into a temporary
# prefix, check the installed files, then use the installed tree the way a
# host would: build examples/host.c with `pkg-config --cflags --libs mvm`,
# a C++ file through lua.hpp, and the CMake project tests/embed/consumer
# with find_package(mvm); run them all.
set -eu
build=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mvm-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
fail() { echo "FAIL: $*"; exit 1; }

cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" || { cat "$tmp/install.log"; fail "cmake --install"; }
libdir=$(dirname "$(find "$prefix" -name mvm.pc | head -1)")/..
[ -d "$libdir" ] || fail "no mvm.pc installed"
libdir=$(cd "$libdir" && pwd)

# files
for h in lua.h luaconf.h lualib.h lauxlib.h lua.hpp mvm.h; do
  [ -f "$prefix/include/mvm/$h" ] || fail "header $h not installed"
done
[ -x "$prefix/bin/mvm" ] || fail "mvm not installed"
[ -f "$prefix/share/man/man1/mvm.1" ] || fail "man page not installed"
[ -f "$libdir/libmvm.a" ] || fail "libmvm.a not installed"
[ -f "$libdir/cmake/mvm/mvmConfig.cmake" ] || fail "CMake package not installed"
so=$(readlink -f "$libdir/libmvm.so") || fail "libmvm.so not installed"
soname=$(objdump -p "$so" | awk '/SONAME/ {print $2}')
[ -n "$soname" ] && [ -e "$libdir/$soname" ] || fail "SONAME '$soname' missing"
echo "installed: $(basename "$so") (SONAME $soname)"

# the installed command works
out=$("$prefix/bin/mvm" -e 'print(_VERSION)')
[ "$out" = "Lua 5.4" ] || fail "installed mvm printed '$out'"

# pkg-config
export PKG_CONFIG_PATH=$libdir/pkgconfig
pkg-config --exists mvm || fail "pkg-config does not find mvm"
echo "pkg-config: $(pkg-config --modversion mvm): $(pkg-config --cflags --libs mvm)"
cc -Wall -Wextra -o "$tmp/host" "$src/examples/host.c" $(pkg-config --cflags --libs mvm) ||
  fail "examples/host.c does not build with pkg-config"
export LD_LIBRARY_PATH=$libdir
cat > "$tmp/script.lua" <<'LUA'
local who = ...
print(host.greet(who), host.mvm_version)
LUA
out=$("$tmp/host" "$tmp/script.lua" world)
[ "$out" = "hello, world from C	0.1.0" ] || fail "host printed '$out'"
ldd "$tmp/host" | grep -q "$libdir/$soname" || fail "host does not use the installed $soname"
# heap limit: a script that allocates without bound fails cleanly
printf 'local t = {} for i = 1, 1e9 do t[i] = {} end\n' > "$tmp/hog.lua"
if "$tmp/host" -m 3000000 "$tmp/hog.lua" 2>"$tmp/hog.err"; then fail "heap limit not enforced"; fi
grep -q "not enough memory" "$tmp/hog.err" || fail "heap limit: $(cat "$tmp/hog.err")"
# SIGINT interrupts an endless script through mvm_interrupt
printf 'print("looping") io.stdout:flush() while true do end\n' > "$tmp/loop.lua"
"$tmp/host" "$tmp/loop.lua" >"$tmp/loop.out" 2>"$tmp/loop.err" &
pid=$!
for i in $(seq 50); do grep -q looping "$tmp/loop.out" && break; sleep 0.1; done
sleep 0.1
kill -INT $pid
st=0; wait $pid || st=$?
[ $st = 1 ] || fail "interrupted host exited with $st"
grep -q "interrupted" "$tmp/loop.err" || fail "SIGINT: $(cat "$tmp/loop.err")"
echo "examples/host.c: runs, heap limit and SIGINT interrupt work"

# static linking through pkg-config
cc -o "$tmp/host_static" "$src/examples/host.c" $(pkg-config --cflags mvm) \
   "$libdir/libmvm.a" $(pkg-config --libs-only-l --static mvm | sed 's/-lmvm//') ||
  fail "static build"
out=$(env -u LD_LIBRARY_PATH "$tmp/host_static" "$tmp/script.lua" static)
[ "$out" = "hello, static from C	0.1.0" ] || fail "static host printed '$out'"

# C++ through lua.hpp
if command -v c++ >/dev/null; then
  cat > "$tmp/cxx.cpp" <<'CPP'
#include "lua.hpp"
#include <cstdio>
int main() {
  lua_State *L = luaL_newstate();
  luaL_openlibs(L);
  luaL_dostring(L, "return 'c++ ok'");
  std::printf("%s %d\n", lua_tostring(L, -1), mvm_getheaplimit(L) == 0);
  lua_close(L);
  return 0;
}
CPP
  c++ -o "$tmp/cxx" "$tmp/cxx.cpp" $(pkg-config --cflags --libs mvm) || fail "C++ build"
  out=$("$tmp/cxx")
  [ "$out" = "c++ ok 1" ] || fail "C++ host printed '$out'"
  echo "lua.hpp: C++ host works"
fi

# CMake consumer with find_package(mvm)
unset MVM_HEAP_LIMIT
cmake -S "$src/tests/embed/consumer" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$prefix" \
      >"$tmp/consumer.log" 2>&1 || { cat "$tmp/consumer.log"; fail "consumer configure"; }
cmake --build "$tmp/consumer" >>"$tmp/consumer.log" 2>&1 || { cat "$tmp/consumer.log"; fail "consumer build"; }
out=$("$tmp/consumer/consumer")
[ "$out" = "consumer: Lua 5.4 42 mvm 0.1.0" ] || fail "consumer printed '$out'"
out=$(env -u LD_LIBRARY_PATH "$tmp/consumer/consumer_static")
[ "$out" = "consumer: Lua 5.4 42 mvm 0.1.0" ] || fail "static consumer printed '$out'"
echo "find_package(mvm): mvm::mvm and mvm::mvm_static work"
echo "install test passed"
