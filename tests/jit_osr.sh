#!/usr/bin/env bash
# jit_osr.sh -- on-stack replacement under "-j on": run MVM on the corpus
# scripts tests/lua/jit_osr*.lua with a low hotness threshold and no
# compile-time budget, so that their long-running loops are compiled while
# they run and entered at a loop header; the output must equal NAME.expected
# (from lua5.4) and MVM_JIT_STATS must report OSR entries.
#   jit_osr.sh MVM [stress]      (stress: also MVM_GC_STRESS=1)
set -u
MVM=$1
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$HERE/lua" || exit 2
[ "${2:-}" = stress ] && export MVM_GC_STRESS=1
# compiles in the VM's thread, so that the loops surely run compiled
export MVM_JIT_THRESHOLD=100 MVM_JIT_BUDGET=1000000 MVM_JIT_PAYBACK=0 MVM_JIT_STATS=1 MVM_JIT_BACKGROUND=0
. "$HERE/jit_lib.sh"
for script in jit_osr*.lua; do
  name=${script%.lua}
  jit_run "$name" "" -j on
  statcheck "$name" "OSR entries" "-ge 1"
done
# a main chunk's hot loops compile as OSR regions, one per loop (jit.c)
n=$(MVM_JIT_STATS=2 "$MVM" -j on jit_osr_region.lua 2>&1 >/dev/null </dev/null |
    grep -c 'jit_osr_region.lua:0 (.*) region [0-9]*-[0-9]*: compiled')
if [ "$n" -lt 8 ]; then
  echo "FAIL jit_osr_region: $n region compiles of the main chunk (expected at least 8)"
  FAIL=1
else
  echo "ok jit_osr_region: $n region compiles"
fi
exit $FAIL
