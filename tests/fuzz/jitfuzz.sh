#!/usr/bin/env bash
# jitfuzz.sh MVM FIRST LAST -- differential fuzzing of the JIT: for every
# seed, jitfuzz_gen.lua prints a random program (the same one on every
# machine), which must print the same under -j eager, -j on (threshold 2,
# every compile allowed) and, for every fourth seed, -j eager under GC
# stress as under -j off; and as under lua5.4 when it is installed.  A
# failing seed's program is copied next to the temporary directory (the
# path is printed); the same program comes back with
#   mvm tests/fuzz/jitfuzz_gen.lua SEED > p.lua && mvm -j eager p.lua
set -u
MVM=$1; FIRST=$2; LAST=$3
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
LUA=$(command -v lua5.4 || true)
failed=0
for s in $(seq "$FIRST" "$LAST"); do
  p=$TMP/p$s.lua
  "$MVM" -j off "$HERE/jitfuzz_gen.lua" "$s" >"$p" || { echo "seed $s: the generator failed"; failed=1; continue; }
  ref=$(timeout 60 "$MVM" -j off "$p" 2>&1 | sed 's/^[^:]*mvm: //')
  check() {   # check LABEL OUTPUT
    if [ "$2" != "$ref" ]; then
      echo "seed $s: $1 differs from -j off"
      cp "$p" "${TMPDIR:-/tmp}/jitfuzz-failed-$s.lua" 2>/dev/null &&
        echo "  program: ${TMPDIR:-/tmp}/jitfuzz-failed-$s.lua"
      failed=1
    fi
  }
  check "-j eager" "$(timeout 60 "$MVM" -j eager "$p" 2>&1 | sed 's/^[^:]*mvm: //')"
  check "-j on" "$(MVM_JIT_THRESHOLD=2 MVM_JIT_PAYBACK=0 timeout 60 "$MVM" -j on "$p" 2>&1 | sed 's/^[^:]*mvm: //')"
  if [ $((s % 4)) = 0 ]; then
    check "GC stress -j eager" "$(MVM_GC_STRESS=1 timeout 120 "$MVM" -j eager "$p" 2>&1 | sed 's/^[^:]*mvm: //')"
  fi
  if [ -n "$LUA" ]; then
    check "lua5.4" "$(timeout 60 "$LUA" "$p" 2>&1 | sed 's/^[^:]*lua5.4: //')"
  fi
done
[ $failed = 0 ] && echo "jitfuzz: seeds $FIRST-$LAST agree"
exit $failed
