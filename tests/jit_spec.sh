#!/usr/bin/env bash
# jit_spec.sh -- speculation under "-j on" (jit/llvmgen.c "Speculation"):
# run MVM on the corpus scripts tests/lua/jit_spec*.lua with a low hotness
# threshold and no compile-time budget, so that functions are compiled
# after the interpreter has recorded type feedback (narrow guards: integer
# or float); the output must equal NAME.expected (from lua5.4), and
# jit_spec_recompile must make MVM_JIT_STATS report recompiles with wider
# types; jit_fieldexit*.lua (table reads that leave compiled code) must
# report side exits; jit_spec_overflow (integers beyond the immediates)
# fewer than 1000 of them.
#   jit_spec.sh MVM [stress]      (stress: also MVM_GC_STRESS=1)
set -u
MVM=$1
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$HERE/lua" || exit 2
[ "${2:-}" = stress ] && export MVM_GC_STRESS=1
# compiles in the VM's thread: the recompiles must happen while the script runs
export MVM_JIT_BUDGET=1000000 MVM_JIT_PAYBACK=0 MVM_JIT_STATS=1 MVM_JIT_BACKGROUND=0
. "$HERE/jit_lib.sh"
for th in 4 40; do
  for script in jit_spec*.lua jit_fieldexit*.lua; do
    name=${script%.lua}
    MVM_JIT_THRESHOLD=$th jit_run "$name" ", threshold $th" -j on
    if [ "$name" = jit_spec_recompile ]; then
      statcheck "$name, threshold $th" "functions recompiled" "-ge 2"
    elif [ "$name" = jit_spec_overflow ]; then
      # integers beyond the immediates: counted exits, so each function
      # leaves at most ~3 x JIT_SPEC_EXITS times (recompiled twice, then
      # interpreted); uncounted, it was ~6000 times
      statcheck "$name, threshold $th" "side exits" "-lt 1000"
    elif [ "${name#jit_fieldexit}" != "$name" ]; then
      statcheck "$name, threshold $th" "side exits" "-ge 1"
    else
      echo "ok $name, threshold $th"
    fi
  done
done

# stores inside loops leave on a miss (llvmgen.c setexit): the loop's
# SETFIELD has no helper call, a store filling a new table keeps it, and
# a store that keeps missing (new keys in full hash parts) has its
# function compiled again with its helpers
ir() {   # ir LINE: the IR of jit_fieldexit_store.lua's function at LINE
  MVM_JIT_STATS=0 MVM_JIT_DUMP=1 "$MVM" -j eager jit_fieldexit_store.lua 2>&1 |
    awk '/after statepoint rewriting/ { f = 1 } /machine code/ { f = 0 } f' |
    awk "/^define .*jit_fieldexit_store_lua_$1[(]/ { f = 1 } /^}/ { f = 0 } f"
}
out=$(ir 48)
has "ret i32" "setexit: poke's IR dumped"
lacks "@mvmrt_setfield" "setexit: no store helper in poke's loop"
out=$(ir 102)
has "@mvmrt_setfield" "setexit: the constructor stores in build keep their helper"
out=$(MVM_JIT_THRESHOLD=4 MVM_JIT_STATS=2 "$MVM" -j on jit_fieldexit_store.lua 2>&1)
has "jit_fieldexit_store.lua:69: [0-9]* failed speculations: recompiled with wider types" \
  "setexit: a store that keeps missing recompiles its function"
[ $FAIL = 0 ] && echo "ok setexit"

# known tables (llvmgen.c tabknown, forchecks): a loop whose FORPREP
# checks a table that a conditional access wants leaves there while it
# gets nil, until the function is compiled again wider; results are the
# interpreter's (jit_spec_knowntab.expected, above)
out=$(MVM_JIT_THRESHOLD=4 MVM_JIT_STATS=2 "$MVM" -j on jit_spec_knowntab.lua 2>&1)
has "jit_spec_knowntab.lua:126: [0-9]* failed speculations: recompiled with wider types" \
  "forchecks: the check before a loop leaves on a non-table"
[ $FAIL = 0 ] && echo "ok knowntab"
exit $FAIL
