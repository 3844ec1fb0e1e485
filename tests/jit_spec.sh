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
exit $FAIL
