#!/usr/bin/env bash
# jit_exit.sh -- a program that ends while a compile runs in the background
# does not wait for LLVM at exit (mvm_closeforexit, cli/mvm.c): the compile
# thread is left in LLVM (MVM_JIT_STATS says so) and the process ends with
# _exit, after everything lua_close does for the program (finalizers,
# to-be-closed variables) and with its output flushed, with the right
# status; os.exit without closing the state waits for the compile instead
# (exit() runs LLVM's static destructors).
#   jit_exit.sh MVM
set -u
MVM=$1
. "$(dirname "${BASH_SOURCE[0]}")/jit_lib.sh"
unset MVM_JIT_BACKGROUND MVM_JIT_PREFETCH
export MVM_JIT_STATS=1 MVM_JIT_THRESHOLD=2 MVM_JIT_PAYBACK=0 MVM_JIT_BUDGET=100000
# a function large enough for LLVM to take milliseconds, made hot at the
# very end: its compile is queued, then the program ends
{
  echo 'local function big(t, n)'
  echo '  local s = 0'
  for i in $(seq 1 60); do echo "  if n > $i then s = s + (t[$i] or 0) * $i + #tostring(n) end"; done
  echo '  return s'
  echo 'end'
  echo 'setmetatable({}, {__gc = function() io.write("finalized\n") end})'
  echo 'local t = {}'
  echo 'for i = 1, 60 do t[i] = i end'
  echo 'local function g(x) return x + 1 end'
  echo 'local clock, n = os.clock, 0'
  echo '-- LLVM loaded first (a compile done), then the compile of big queued'
  echo 'local t0 = clock()'
  echo 'while select(3, jit.status()).compiled < 1 do'
  echo '  n = g(n)'
  echo '  if clock() - t0 > 20 then break end'
  echo 'end'
  echo 'print(big(t, 61), big(t, 61), big(t, 61))'
  echo 't0 = clock()'
  echo 'while clock() - t0 < 0.005 do n = g(n) end   -- the thread takes it'
  echo 'local c <close> = setmetatable({}, {__close = function() print("closed") end})'
  echo 'io.write("no newline at the end")'
  echo 'if EXITCODE then os.exit(EXITCODE) end'
  echo 'if FAILNOW then error("failing on purpose") end'
} >"$TMP/big.lua"
want=$(printf '73930\t73930\t73930\nno newline at the endclosed\nfinalized')
out=$("$MVM" -j on "$TMP/big.lua" 2>"$TMP/err" </dev/null); st=$?
[ $st = 0 ] || fail "end: status $st" "$(cat "$TMP/err")"
[ "$out" = "$want" ] || fail "end: output" "$out"
# (timing: the compile thread may not have taken the compile before the
# close on a loaded machine, or may be done with it; ten tries)
left=0
for _ in 1 2 3 4 5 6 7 8 9 10; do
  "$MVM" -j on "$TMP/big.lua" >/dev/null 2>"$TMP/err" </dev/null
  grep -q 'left in LLVM at exit' "$TMP/err" && { left=1; break; }
done
[ $left = 1 ] || fail "end: the compile was waited for" "$(cat "$TMP/err")"
out=$("$MVM" -j on -e 'FAILNOW=true' "$TMP/big.lua" 2>"$TMP/err" </dev/null); st=$?
[ $st = 1 ] || fail "error: status $st" "$(cat "$TMP/err")"
grep -q 'failing on purpose' "$TMP/err" || fail "error: message" "$(cat "$TMP/err")"
printf '%s\n' "$out" | grep -q 'finalized' || fail "error: finalizer" "$out"
out=$("$MVM" -j on -e 'EXITCODE=3' "$TMP/big.lua" 2>"$TMP/err" </dev/null); st=$?
[ $st = 3 ] || fail "os.exit: status $st" "$(cat "$TMP/err")"
printf '%s\n' "$out" | grep -q 'no newline at the end$' || fail "os.exit: output" "$out"
grep -q 'left in LLVM' "$TMP/err" && fail "os.exit: thread left behind" "$(cat "$TMP/err")"
[ $FAIL = 0 ] && echo "ok"
exit $FAIL
