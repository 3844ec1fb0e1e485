#!/usr/bin/env bash
# jit_tools.sh -- the JIT's tool support and statistics, on the corpus
# script jit_osr_nested.lua under -j eager:
#   - MVM_JIT_FAILTEST=LINE: LLVM fails on the function defined at LINE;
#     the output stays right, MVM_JIT_STATS warns and counts 1 failure
#   - MVM_JIT_STATS=1 reports the compile time distribution and share
#   - MVM_JIT_PERF=1 writes /tmp/perf-PID.map with a line per function
#   - gdb (if installed) names compiled frames in a backtrace
#   - MVM_JIT_DUMP=1 prints the IR before and after the statepoint
#     rewriting and the machine code, helper calls named
#   - the machine code of a function with direct self calls includes its
#     body, in front of the entry point
#   - addresses reach code generation behind freezes (llvmjit.c unhoist,
#     MVM_JIT_HOIST=1 turns it off), in IR that passes the verifier
#     (MVM_JIT_VERIFY=1): a statepoint's immediates stay constants
#   - code generation leaves AVX-512 out (MVM_JIT_STATS=3 says so);
#     MVM_JIT_AVX512=1 uses it where the CPU has it, same output
#   - MVM_JIT_STATS=5 prints cost samples; the compile thread is named
#   - functions without a loop skip gvn (llvmjit.c JIT_PIPELINE_NOLOOP)
set -u
MVM=$1
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$HERE/lua" || exit 2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
FAIL=0
fail() { echo "FAIL: $*"; FAIL=1; }
NAME=jit_osr_nested

# 1. an LLVM failure on one function (deep, line 24)
MVM_JIT_FAILTEST=24 MVM_JIT_STATS=1 "$MVM" -j eager $NAME.lua >"$TMP/out" 2>"$TMP/err" </dev/null
cmp -s "$TMP/out" $NAME.expected || fail "output differs with MVM_JIT_FAILTEST"
grep -q "warning: compiling @$NAME.lua:24 failed (.*); it stays interpreted" "$TMP/err" ||
  fail "no warning for the failed function"
grep -q " 1 failed," "$TMP/err" || fail "failure not counted"
grep -q "compile time per function: median [0-9.]* ms, max [0-9.]* ms" "$TMP/err" ||
  fail "no compile time distribution"
grep -q "compiling took [0-9.]*% of" "$TMP/err" || fail "no compile time share"
[ $FAIL = 0 ] || cat "$TMP/err"

# 2. the perf map (the perf listener's jit-PID.dump goes to JITDUMPDIR)
JITDUMPDIR=$TMP MVM_JIT_PERF=1 "$MVM" -j eager $NAME.lua >"$TMP/out2" 2>"$TMP/err2" </dev/null &
pid=$!
wait $pid
map=/tmp/perf-$pid.map
cmp -s "$TMP/out2" $NAME.expected || fail "output differs with MVM_JIT_PERF"
if [ -f "$map" ]; then
  grep -Eq "^[0-9a-f]+ [0-9a-f]+ lua:$NAME.lua:24$" "$map" || { fail "no map line for line 24"; cat "$map"; }
  n=$(grep -Ec "^[0-9a-f]+ [1-9a-f][0-9a-f]* lua:$NAME.lua:[0-9]+$" "$map")
  [ "$n" -ge 5 ] || { fail "only $n map lines"; cat "$map"; }
  rm -f "$map"
else
  fail "no $map"
fi
# 3. the GDB JIT interface: a backtrace from a helper shows the compiled
#    Lua functions by name (only where gdb is installed)
if command -v gdb >/dev/null 2>&1; then
  printf '%s\n' 'local function f(n) local s = "" for i = 1, n do s = s .. "x" end return #s end' \
    'print(f(10))' >"$TMP/bt.lua"
  timeout 120 gdb -q -batch -ex "break mvmrt_concat" -ex run -ex bt -ex kill \
    --args "$MVM" -j eager "$TMP/bt.lua" >"$TMP/gdb" 2>&1 </dev/null
  grep -q "in mvmf_[0-9]*_bt_lua_1 " "$TMP/gdb" || { fail "no compiled frame in gdb's backtrace"; cat "$TMP/gdb"; }
else
  echo "(no gdb: GDB JIT interface not checked)"
fi
# 4. the dump: both IR stages and the machine code of every function
MVM_JIT_DUMP=1 "$MVM" -j eager $NAME.lua >"$TMP/out4" 2>"$TMP/err4" </dev/null
cmp -s "$TMP/out4" $NAME.expected || fail "output differs with MVM_JIT_DUMP"
nb=$(grep -c '^;; ---- mvm JIT: before statepoint rewriting' "$TMP/err4")
na=$(grep -c '^;; ---- mvm JIT: after statepoint rewriting' "$TMP/err4")
nm=$(grep -c '^;; ---- mvm JIT: machine code of mvmf_[0-9]*_'$NAME'_lua_[0-9]* ----$' "$TMP/err4")
[ "$nb" -ge 5 ] && [ "$na" = "$nb" ] && [ "$nm" = "$nb" ] ||
  fail "dump sections: $nb before, $na after, $nm machine code"
grep -q 'gc "statepoint-example"' "$TMP/err4" || fail "no statepoint function in the IR dump"
grep -Eq '^ *[0-9a-f]+:'$'\t''ret' "$TMP/err4" || fail "no return instruction in the machine code"
grep -Eq 'call.*mvmrt_|mvmrt_[a-z]+, %' "$TMP/err4" || fail "no runtime helper named in the machine code"
# 4b. a function with direct self calls has its preserve_none body in
#     front of the entry: the dump shows the whole section, the entry marked
MVM_JIT_DUMP=1 "$MVM" -j eager jit_selfcall.lua >"$TMP/out4" 2>"$TMP/err4" </dev/null
cmp -s "$TMP/out4" jit_selfcall.expected || fail "jit_selfcall: output differs with MVM_JIT_DUMP"
nbody=$(awk '/^;; ---- mvm JIT: machine code of/ { n = 0; next }
             /^ *[0-9a-f]+:\t/ { n++ }
             /^;; mvmf_.* \(entry\)$/ { if (n > 20) b++ }
             END { print b + 0 }' "$TMP/err4")
[ "$nbody" -ge 1 ] || fail "no self-call body dumped in front of its entry"
# 5. unhoisted addresses: verified IR, the same output, freezes in the IR
#    code generation gets (and none with MVM_JIT_HOIST=1)
for s in $NAME jit_spec_resume; do
  MVM_JIT_VERIFY=1 MVM_JIT_STATS=1 MVM_JIT_DUMP=1 "$MVM" -j eager $s.lua >"$TMP/out4" 2>"$TMP/err4" </dev/null
  cmp -s "$TMP/out4" $s.expected || fail "$s: output differs with MVM_JIT_VERIFY"
  grep -q " 0 failed," "$TMP/err4" || { fail "$s: a compile failed the verifier"; grep -m3 "failed\|invalid" "$TMP/err4"; }
  n=$(sed -n '/after statepoint rewriting/,$p' "$TMP/err4" | grep -c "= freeze i64 ")
  [ "$n" -ge 3 ] || fail "$s: $n freezes after the rewriting"
  MVM_JIT_HOIST=1 MVM_JIT_DUMP=1 "$MVM" -j eager $s.lua >"$TMP/out4" 2>"$TMP/err4" </dev/null
  cmp -s "$TMP/out4" $s.expected || fail "$s: output differs with MVM_JIT_HOIST"
  grep -q "= freeze i64 " "$TMP/err4" && fail "$s: freezes with MVM_JIT_HOIST=1"
done
# 6. AVX-512 left out of code generation unless MVM_JIT_AVX512=1 (and the
#    CPU has it); the output is the same either way
MVM_JIT_STATS=3 "$MVM" -j eager $NAME.lua >"$TMP/out6" 2>"$TMP/err6" </dev/null
cmp -s "$TMP/out6" $NAME.expected || fail "output differs (AVX-512 unused)"
grep -q "^mvm: JIT: target CPU [^ ]*, AVX-512 unused$" "$TMP/err6" || fail "AVX-512 not reported unused"
want=unused
grep -qw avx512f /proc/cpuinfo 2>/dev/null && want=used
MVM_JIT_AVX512=1 MVM_JIT_STATS=3 "$MVM" -j eager $NAME.lua >"$TMP/out6" 2>"$TMP/err6" </dev/null
cmp -s "$TMP/out6" $NAME.expected || fail "output differs with MVM_JIT_AVX512=1"
grep -q "^mvm: JIT: target CPU [^ ]*, AVX-512 $want$" "$TMP/err6" || fail "MVM_JIT_AVX512=1: AVX-512 not $want"
# 7. instructions compiled code cannot reach get no code (llvmgen.c
#    reachable()): no compile is given up for a branch to one, the output
#    is the same; MVM_JIT_STATS=3 prints each compile's IR size
MVM_JIT_STATS=3 MVM_JIT_BACKGROUND=0 "$MVM" -j eager jit_deadcode.lua >"$TMP/out7" 2>"$TMP/err7" </dev/null
cmp -s "$TMP/out7" jit_deadcode.expected || fail "jit_deadcode: output differs"
grep -q " 0 failed," "$TMP/err7" || { fail "jit_deadcode: a compile failed"; grep -m3 "unreachable\|failed" "$TMP/err7"; }
grep -q "^mvm: JIT IR: mvmf_[^ ]* [0-9]*/[0-9]* generated, [0-9]*/[0-9]* optimised, [0-9]*/[0-9]* to code generation$" "$TMP/err7" ||
  fail "no IR size line with MVM_JIT_STATS=3"
# 8. MVM_JIT_STATS=5 prints a cost sample per compile (its time, calls
#    inlined, and one count per opcode: the samples jit.c compileunits'
#    weights were fitted to); the compile thread is named mvm-jit (read
#    from /proc while it runs, by the script's own shell: its parent;
#    with the corpus's "on" settings, so that the policy compiles f at
#    once, in the background, on a loaded machine too)
MVM_JIT_STATS=5 "$MVM" -j eager $NAME.lua >"$TMP/out8" 2>"$TMP/err8" </dev/null
cmp -s "$TMP/out8" $NAME.expected || fail "output differs with MVM_JIT_STATS=5"
nops=$(grep -c . <(sed -n 's/.*X(\([A-Z0-9]*\),.*/\1/p' "$HERE/../vm/opcodes.h"))
grep -m1 "^mvm: JIT cost: " "$TMP/err8" | awk -v n="$nops" '{ ok = NF == 5 + n } END { exit !ok }' ||
  fail "MVM_JIT_STATS=5: no cost line with $nops opcode counts"
if [ -d /proc/self/task ]; then
  MVM_JIT_THRESHOLD=2 MVM_JIT_BUDGET=1000000 MVM_JIT_PAYBACK=0 MVM_JIT_BACKGROUND=1 \
  "$MVM" -j on -e 'local function f(x) return x + 1 end; local s = 0; for i = 1, 3000000 do s = f(s) end
    local p = io.popen("cat /proc/$PPID/task/*/comm"); io.write(p:read("a")); p:close()' \
    >"$TMP/out9" 2>&1 </dev/null
  grep -qx "mvm-jit" "$TMP/out9" || fail "no thread named mvm-jit: $(tr '\n' ' ' <"$TMP/out9")"
fi
# 9. the pass pipeline (llvmjit.c): code with a loop gets gvn, code
#    without one early-cse over MemorySSA instead (MVM_JIT_PASSLOG=1:
#    LLVM's pass log)
MVM_JIT_PASSLOG=1 MVM_JIT_BACKGROUND=0 "$MVM" -j eager -e '
  local function get(t) return t.x end
  local function sum(t) local s = 0 for i = 1, #t do s = s + t[i] end return s end
  local o = { x = 1, 2, 3 }
  print(get(o), sum(o))' >"$TMP/out10" 2>"$TMP/err10" </dev/null
[ "$(cat "$TMP/out10")" = "$(printf '1\t5')" ] || fail "pipeline test: output $(cat "$TMP/out10")"
grep -q "GVNPass on mvmf_[0-9]*_.*_3 " "$TMP/err10" || fail "no gvn for the function with a loop"
grep -q "EarlyCSEPass on mvmf_[0-9]*_.*_2 " "$TMP/err10" || fail "no early-cse for the function without a loop"
! grep -q "GVNPass on mvmf_[0-9]*_.*_2 " "$TMP/err10" || fail "gvn for the function without a loop"

[ $FAIL = 0 ] && echo "ok"
exit $FAIL
