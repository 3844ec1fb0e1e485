#!/usr/bin/env bash
# jit_prefetch.sh -- with background compiles ("-j on"), code half-way to
# its compile (where type feedback starts) has the compile thread load
# LLVM before the first compile is queued (jit.c prefetch_backend): a
# function called 600 times (threshold 1000) announces it under
# MVM_JIT_STATS=2; MVM_JIT_PREFETCH=0 turns it off; a warm function whose
# calls go to C library functions (which the threshold would decline)
# does not load LLVM (nor does one shorter than an entry into compiled
# code: jit.c waits_for_caller, tests/jit_call_policy.sh "tiny"); nor does
# a synchronous compile mode
# (MVM_JIT_BACKGROUND=0).  The compile thread puts a small module through
# LLVM when it starts the session (llvmjit.c warmup; MVM_JIT_STATS=3
# says so) unless a compile waits already, not a synchronous compile
# mode; MVM_JIT_WARMUP=0 turns it off.
#   jit_prefetch.sh MVM
set -u
MVM=$1
. "$(dirname "${BASH_SOURCE[0]}")/jit_lib.sh"
export MVM_JIT_STATS=2
unset MVM_JIT_THRESHOLD MVM_JIT_BUDGET MVM_JIT_PAYBACK MVM_JIT_BACKGROUND MVM_JIT_PREFETCH
cat >"$TMP/warm.lua" <<'LUA'
local function f(x) local y = x * 3 local z = y - 2 * x return z + 1 end
local s = 0
for _ = 1, 600 do s = f(s) end
print(s)
LUA
cat >"$TMP/library.lua" <<'LUA'
local find, sub = string.find, string.sub
local function f(s) return sub(s, find(s, "b", 1, true)) end
local n = 0
for _ = 1, 600 do n = n + #f("abc") end
print(n)
LUA
WARM='warm.lua:1 is warm: loading LLVM in the background'
out=$("$MVM" -j on "$TMP/warm.lua" 2>&1 </dev/null) || fail "warm: status" "$out"
has '^600$' "warm: output"
has "$WARM" "warm: no prefetch"
has '^mvm: JIT: 0 compiled' "warm: something compiled"
out=$(MVM_JIT_PREFETCH=0 "$MVM" -j on "$TMP/warm.lua" 2>&1 </dev/null) || fail "prefetch 0: status" "$out"
lacks 'is warm' "prefetch 0: prefetched"
out=$(MVM_JIT_BACKGROUND=0 "$MVM" -j on "$TMP/warm.lua" 2>&1 </dev/null) || fail "background 0: status" "$out"
lacks 'is warm\|loading LLVM' "background 0: LLVM loaded"
out=$("$MVM" -j on "$TMP/library.lua" 2>&1 </dev/null) || fail "library: status" "$out"
lacks 'is warm' "library: prefetched"
out=$("$MVM" -j off "$TMP/warm.lua" 2>&1 </dev/null) || fail "off: status" "$out"
lacks 'is warm\|loading LLVM' "off: LLVM loaded"
cat >"$TMP/hot.lua" <<'LUA'
local function f(x) return x + 1 end
local s = 0
for _ = 1, 3000000 do s = f(s) end
print(s)
LUA
# without the prefetch, LLVM is loaded for the first compile, which then
# waits: the warm-up would only delay it, and is not done (with the
# prefetch, whether a compile is queued before LLVM is ready is a race)
out=$(MVM_JIT_PREFETCH=0 MVM_JIT_STATS=3 "$MVM" -j on "$TMP/hot.lua" 2>&1 </dev/null) || fail "warm-up: status" "$out"
has '^3000000$' "warm-up: output"
if printf '%s\n' "$out" | grep -q '^mvm: JIT: [1-9][0-9]* compiled'; then
  has '^mvm: JIT: no warm-up compile: a compile waits' "warm-up: done with a compile waiting"
  lacks '^mvm: JIT: warm-up compile done' "warm-up: done with a compile waiting (2)"
else
  echo "(nothing compiled in time: warm-up not checked)"
fi
# warm code, then 0.3 s in a C function's loop (library-bound: nothing
# compiles): LLVM is loaded with no compile waiting, and warmed up
cat >"$TMP/idle.lua" <<'LUA'
local function f(x) local y = x * 3 local z = y - 2 * x return z + 1 end
local s = 0
for _ = 1, 600 do s = f(s) end
local clock = os.clock
local t = clock()
while clock() - t < 0.3 do end
print(s)
LUA
out=$(MVM_JIT_STATS=3 "$MVM" -j on "$TMP/idle.lua" 2>&1 </dev/null) || fail "warm-up idle: status" "$out"
has '^600$' "warm-up idle: output"
has '^mvm: JIT: warm-up compile done' "warm-up idle: not done with nothing waiting"
out=$(MVM_JIT_WARMUP=0 MVM_JIT_STATS=3 "$MVM" -j on "$TMP/hot.lua" 2>&1 </dev/null) || fail "warm-up 0: status" "$out"
has '^3000000$' "warm-up 0: output"
lacks 'warm-up' "warm-up 0: warmed up"
out=$(MVM_JIT_BACKGROUND=0 MVM_JIT_STATS=3 "$MVM" -j on "$TMP/hot.lua" 2>&1 </dev/null) || fail "warm-up sync: status" "$out"
lacks 'warm-up' "warm-up sync: warmed up"
out=$(MVM_JIT_STATS=3 "$MVM" -j eager "$TMP/hot.lua" 2>&1 </dev/null) || fail "warm-up eager: status" "$out"
lacks 'warm-up' "warm-up eager: warmed up"
[ $FAIL = 0 ] && echo "ok"
exit $FAIL
