#!/usr/bin/env bash
# run_corpus.sh -- run one script of the Lua test corpus (tests/lua).
#
#   run_corpus.sh off|eager|stress|on MVM NAME   compare with NAME.expected
#   run_corpus.sh diff MVM NAME LUA           compare with a fresh run of LUA
#   run_corpus.sh generate LUA NAME...        (re)write NAME.expected/.status
#
# A script runs from inside tests/lua as "mvm -j MODE NAME.lua"; its output
# is what it wrote to stdout followed by what it wrote to stderr (kept apart
# so that stdio buffering cannot reorder them).  It must equal NAME.expected
# byte for byte, and the exit status must equal the number in NAME.status
# (0 when there is no such file).  "stress" is -j eager with MVM_GC_STRESS=1;
# "on" is -j on with a tiny hotness threshold and no compile-time budget, so
# functions and loops tier up while they run, compiled in the background.
#
# Markers on the FIRST line of a script, e.g. "-- mvm-test: skip-stress":
#   skip-stress       not run in stress mode (only for scripts that are far
#                     too slow under it)
#   no-differential   output intentionally differs from lua5.4 (mvm-specific)
# A skipped test exits with status 77 (ctest shows it as skipped).
#
# Expected output is generated with the reference interpreter; its program
# name in error messages ("lua5.4: ...") is rewritten to "mvm: ".
set -u

MODE=$1
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$HERE/lua" || exit 2

# run PROGRAM ARGS... on a script: sets OUTPUT (file) and STATUS
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
runit() {
  "$@" >"$TMP/stdout" 2>"$TMP/stderr" </dev/null
  STATUS=$?
  cat "$TMP/stdout" "$TMP/stderr" >"$TMP/output"
}
# rewrite the reference interpreter's program name
normalize() {
  local prog
  prog=$(basename "$1")
  sed -e "s/^${prog}: /mvm: /" "$TMP/stderr" >"$TMP/stderr.n"
  cat "$TMP/stdout" "$TMP/stderr.n" >"$TMP/output"
}
marker() { head -n 1 "$1.lua" | grep -q "mvm-test:.*$2"; }

case $MODE in
  generate)
    LUA=$2; shift 2
    for name in "$@"; do
      name=${name%.lua}
      runit "$LUA" "$name.lua"
      normalize "$LUA"
      cp "$TMP/output" "$name.expected"
      if [ "$STATUS" != 0 ]; then echo "$STATUS" >"$name.status"; else rm -f "$name.status"; fi
      echo "$name: status $STATUS, $(wc -c <"$name.expected") bytes"
    done
    exit 0 ;;
  off|eager|stress|on)
    MVM=$2; NAME=${3%.lua}
    JIT=$MODE
    [ "$MODE" = on ] && export MVM_JIT_THRESHOLD=2 MVM_JIT_BUDGET=1000000 MVM_JIT_PAYBACK=0
    if [ "$MODE" = stress ]; then
      JIT=eager
      if marker "$NAME" skip-stress; then echo "skipped: $NAME is marked skip-stress"; exit 77; fi
      export MVM_GC_STRESS=1
    fi
    if [ ! -f "$NAME.expected" ]; then
      echo "missing $NAME.expected: generate it with"
      echo "  tests/run_corpus.sh generate lua5.4 $NAME"
      exit 1
    fi
    runit "$MVM" -j "$JIT" "$NAME.lua"
    WANT_STATUS=0
    [ -f "$NAME.status" ] && WANT_STATUS=$(tr -d ' \n' <"$NAME.status")
    FAIL=0
    if ! cmp -s "$NAME.expected" "$TMP/output"; then
      echo "output of '$MVM -j $JIT $NAME.lua' differs from $NAME.expected:"
      diff -u "$NAME.expected" "$TMP/output" --label "$NAME.expected" --label "mvm output" | head -200
      FAIL=1
    fi
    if [ "$STATUS" != "$WANT_STATUS" ]; then
      echo "exit status $STATUS, expected $WANT_STATUS"
      FAIL=1
    fi
    [ $FAIL = 0 ] && echo "ok: $NAME ($MODE)"
    exit $FAIL ;;
  diff)
    MVM=$2; NAME=${3%.lua}; LUA=$4
    if marker "$NAME" no-differential; then echo "skipped: $NAME is marked no-differential"; exit 77; fi
    runit "$LUA" "$NAME.lua"
    normalize "$LUA"
    mv "$TMP/output" "$TMP/reference"
    REF_STATUS=$STATUS
    runit "$MVM" -j off "$NAME.lua"
    FAIL=0
    if ! cmp -s "$TMP/reference" "$TMP/output"; then
      echo "output of mvm and $LUA differ for $NAME.lua:"
      diff -u "$TMP/reference" "$TMP/output" --label "$LUA" --label mvm | head -200
      FAIL=1
    fi
    if [ "$STATUS" != "$REF_STATUS" ]; then
      echo "exit status: mvm $STATUS, $LUA $REF_STATUS"
      FAIL=1
    fi
    [ $FAIL = 0 ] && echo "ok: $NAME (same as $LUA)"
    exit $FAIL ;;
  *)
    echo "usage: run_corpus.sh off|eager|stress MVM NAME | diff MVM NAME LUA | generate LUA NAME..." >&2
    exit 2 ;;
esac
