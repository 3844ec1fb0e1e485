# jit_lib.sh -- sourced by the JIT's test scripts (jit_osr.sh, jit_spec.sh,
# jit_osr_policy.sh, jit_call_policy.sh, jit_prefetch.sh): a temporary
# directory, a FAIL flag with fail(), one checked run of a corpus script
# under MVM with its output compared with NAME.expected, and a check of a
# count in the statistics.
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
FAIL=0

# fail WHAT [OUTPUT]: report a failed check (and the output it looked at)
fail() { echo "FAIL $1"; [ $# -gt 1 ] && printf '%s\n' "$2"; FAIL=1; }

# has PATTERN WHAT / lacks PATTERN WHAT: the caller's $out has (lacks) a
# line matching the grep PATTERN, else fail WHAT with $out
has() { printf '%s\n' "$out" | grep -q "$1" || fail "$2" "$out"; }
lacks() { ! printf '%s\n' "$out" | grep -q "$1" || fail "$2" "$out"; }

# jit_run NAME LABEL ARGS...: run "$MVM ARGS... NAME.lua" from tests/lua;
# stdout, then stderr without the "mvm: JIT: " statistics lines, must
# equal NAME.expected and the status must be 0.  The statistics stay in
# $TMP/err for the caller's own checks.
jit_run() {
  local name=$1 label=$2 status
  shift 2
  "$MVM" "$@" "$name.lua" >"$TMP/out" 2>"$TMP/err" </dev/null
  status=$?
  grep -v '^mvm: JIT: ' "$TMP/err" >>"$TMP/out"
  if [ $status != 0 ] || ! cmp -s "$TMP/out" "$name.expected"; then
    echo "FAIL $name$label (status $status):"
    diff -u "$name.expected" "$TMP/out" | head -40
    FAIL=1
    return 1
  fi
  return 0
}

# statcount WHAT: the count MVM_JIT_STATS printed before WHAT ("side
# exits", "OSR entries", "compiled", "functions recompiled") in $TMP/err
statcount() {
  sed -n "s/.* \([0-9][0-9]*\) $1.*/\1/p" "$TMP/err" | head -n 1
}

# statcheck LABEL WHAT TEST: that count (statcount) passes the test TEST
# ("-ge 1", "-lt 1000"...), else fail
statcheck() {
  local n
  n=$(statcount "$2")
  if [ -n "$n" ] && [ "$n" $3 ]; then
    echo "ok $1: $n $2"
  else
    echo "FAIL $1: expected $2 $3:"; cat "$TMP/err"
    FAIL=1
  fi
}
