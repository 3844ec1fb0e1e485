#!/usr/bin/env bash
# jit_osr_policy.sh -- the OSR policy under "-j on" with its defaults
# (jit.c osr_pays): a big main chunk whose hot loop is interpreter-bound
# (integer arithmetic) is compiled and entered through OSR; the same chunk
# whose hot loop spends its time in a library function (table.sort) is
# not compiled at all; one whose hot loop spends its time in small local
# Lua functions it calls (calleework: their time is interpreter time too)
# is compiled, and so is one calling methods of objects (also of a list's
# elements) or functions of a module table, or a Lua function from a loop
# over ipairs; a loop that
# would end before its code arrives is not (also over ipairs or pairs), but
# one whose inner loop grows is, and so is a function's when the compile
# thread has a CPU to spare; a big function called once gets a region; a
# loop compiled by OSR speculates on the types its chunk saw; a loop of
# table accesses is estimated to cost LLVM more than an arithmetic one.
# Compiles in the VM's thread, so that the counts
# do not depend on the compile thread's progress (but for "fonce", which
# is about the compile thread).
#   jit_osr_policy.sh MVM
set -u
MVM=$1
. "$(dirname "${BASH_SOURCE[0]}")/jit_lib.sh"
export MVM_JIT_STATS=1 MVM_JIT_BACKGROUND=0
unset MVM_JIT_THRESHOLD MVM_JIT_BUDGET MVM_JIT_PAYBACK
# ~400 instructions of straight-line code: a compile of 0.1 s or more
pad() {
  local i
  echo "local pad = 0"
  for i in $(seq 1 130); do echo "pad = pad + $i * (pad % 7)"; done
  echo "assert(pad ~= nil)"
}
{ pad; cat <<'LUA'
local s = 0
for i = 1, 40000000 do s = s + (i % 13) * 3 - (i & 7) end
print(s)
LUA
} >"$TMP/arith.lua"
{ pad; cat <<'LUA'
local t, n = {}, 0
for i = 1, 3000 do t[i] = (i * 7919) % 3001 end
for r = 1, 2500 do
  local u = table.move(t, 1, #t, 1, {})
  table.sort(u)
  n = n + u[1]
end
print(n)
LUA
} >"$TMP/library.lua"
{ pad; cat <<'LUA'
local f = function(x) return x * x % 1000 end
local g = function(a, b) return a + b end
local t, s = {}, 0
for i = 1, 3000 do t[i] = i end
for r = 1, 2000 do
  for i = 1, #t do s = g(s, f(t[i])) end
end
print(s)
LUA
} >"$TMP/callbacks.lua"
# the same with methods found through a class's __index, and with
# functions in a module table (calleework: the callee of a SELF or of a
# GETFIELD is looked up on the local table the frame holds, fieldnow;
# before, such loops looked library-bound: their callees are compiled,
# and the interpreter's calls into them were not counted as their work;
# -j on ran "modfuncs" 20% slower than -j off)
{ pad; cat <<'LUA'
local Point = {} Point.__index = Point
local Moving = setmetatable({}, {__index = Point}) Moving.__index = Moving
function Point:len2() return self.x * self.x + self.y * self.y end
function Moving:shift(d) self.x = self.x + d; return self end
local pts, s = {}, 0
for i = 1, 300 do pts[i] = setmetatable({x = i % 7, y = i % 5}, Moving) end
for r = 1, 15000 do
  for i = 1, #pts do
    local p = pts[i]
    s = s + p:shift(1 - 2 * (r & 1)):len2()
  end
end
print(s)
LUA
} >"$TMP/methods.lua"
# methods of a list's elements, `pts[i]:m()` (elemmethod)
{ pad; cat <<'LUA'
local P = {} P.__index = P
function P:step(d) self.x = self.x + d * self.v; if self.x > 100 then self.x = self.x - 100 end end
local ps = {}
for i = 1, 200 do ps[i] = setmetatable({x = i % 100, v = i % 7 - 3}, P) end
for r = 1, 30000 do
  for i = 1, #ps do ps[i]:step(0.01) end
end
print(ps[1].x)
LUA
} >"$TMP/elems.lua"
{ pad; cat <<'LUA'
local M = {}
function M.sq(x) return x * x % 1000 end
function M.add(a, b) return a + b end
local s = 0
for r = 1, 4000000 do s = M.add(s, M.sq(r)) end
print(s)
LUA
} >"$TMP/modfuncs.lua"
# a generic for over ipairs whose body calls a Lua function: the
# iterator's steps are no C calls (jit.c ccallat; both the interpreter
# and compiled code make them inline), so the loop is not library-bound
{ pad; cat <<'LUA'
local recs, s = {}, 0
for i = 1, 1000 do recs[i] = {id = i, v = i % 17} end
local function score(r) return r.v * 2 + r.id % 3 end
for round = 1, 4000 do
  for _, r in ipairs(recs) do s = s + score(r) end
end
print(s)
LUA
} >"$TMP/ipairs.lua"
# a big function called once (a program's main()) gets an OSR region for
# its hot loop, as a main chunk does, not a compile of all of it
# (jit.c regionok); a small function's loop is compiled with all of it
{ echo "local function main()"; pad; cat <<'LUA'
  local s = 0
  for i = 1, 40000000 do s = s + (i % 13) * 3 - (i & 7) end
  return s
end
print(main())
LUA
} >"$TMP/mainfn.lua"
# a loop that is almost over when it has run long enough to pay for a
# compile: its count says it ends before its code could arrive (ends_first)
{ pad; cat <<'LUA'
local s = 0
for i = 1, 500000 do s = s + (i % 13) * 3 - (i & 7) end
print(s)
LUA
} >"$TMP/short.lua"
# the same for generic for loops of 250000 elements (~10 ms) over a
# table 't' filled by 't[key] = arr[i]' (shortiter: file name, key,
# iterator).  Over ipairs the count left is known from the table's array
# part (jit.c loopcount).  (The chunk's earlier loops have paid for a
# compile by then: a million iterations over ipairs, ~40 ms, does get its
# region since JIT_LOOP_SHARE is 0.2.)  Over pairs it is at most the
# slots after the key's (vm/table.c tab_nextleft); before, the loop ended
# before its region's code came, which was compiled all the same (`-j on`
# 12% behind `-j off` on such a program); a pairs loop that runs long is
# still compiled (plong)
shortiter() {
  { pad; cat <<LUA
local arr, t, s = {}, {}, 0
for i = 1, 1000000 do arr[i] = i % 13 end
for i = 1, 250000 do t[$2] = arr[i] end
for _, v in $3(t) do s = s + v * 3 - (v & 7) end
print(s)
LUA
  } >"$TMP/$1.lua"
}
shortiter ipshort "i" ipairs
shortiter pshort "i * 7919 % 1000003" pairs
cat >"$TMP/plong.lua" <<'LUA'
local h, s = {}, 0
for i = 1, 200000 do h[i * 7919 % 1000003] = i % 13 end
for r = 1, 30 do
  for _, v in pairs(h) do s = s + v * 3 - (v & 7) end
end
print(s)
LUA
# a function's loop that ends before its code could arrive: left
# interpreted when the compile thread has no CPU of its own, compiled for
# the function's later calls when it has one (MVM_JIT_SPARE; compiles in
# the background, and the sleep gives the compile time to finish; a
# payback of 1% decides within the loop's first millisecond, when the
# rest of its ~10 ms is well below the estimate of ~30 ms)
cat >"$TMP/fonce.lua" <<'LUA'
local function work(n)
  local s = 0
  for i = 1, n do s = s + (i % 13) * 3 - (i & 7) end
  return s
end
print(work(400000))
os.execute("sleep 0.4")
LUA
# the running chunk records type feedback from the policy's start of it
# (vm.c BACKEDGE reloads it), so the loop is compiled for the integers it
# saw: the float that comes last fails a guard (a side exit); compiled
# without feedback, every load was "any number" and nothing left
{ pad; cat <<'LUA'
local t, s = {}, 0
for i = 1, 3000 do t[i] = i end
for r = 1, 8000 do
  if r > 7900 then t[1] = 0.5 end
  for i = 1, #t do s = s + t[i] * 3 % 7 end
end
print(s)
LUA
} >"$TMP/typed.lua"
# an inner loop whose count grows with the outer loop's (a carry loop over
# a growing array of limbs, then a loop that appends): the rest of the
# outer loop takes longer per iteration than its iterations so far, and
# the inner loop's growth says so (ends_first); extrapolated from the
# time so far, it "ended first" until most of its work was done
{ pad; cat <<'LUA'
local a, B = {1}, 1000000
for m = 2, 9000 do
  local carry = 0
  for i = 1, #a do
    local v = a[i] * m + carry
    a[i] = v % B
    carry = v // B
  end
  while carry > 0 do a[#a + 1] = carry % B; carry = carry // B end
end
print(#a)
LUA
} >"$TMP/growing.lua"
# The policy decides from wall-clock samples of the loops' time: on a
# busy or slow machine one run in a few decides late (session 17's test
# machine: "typed", "growing" and "estimate" each failed in 1-2 of 6 runs
# at 02efafd).  A check passes if one of three runs passes; a policy that
# never decides so fails all three.
check() {   # name, test ("-ge 1", "-eq 0"), what is counted ("compiled" or "OSR entries")
  local try n
  for try in 1 2 3; do
    "$MVM" -j on "$TMP/$1.lua" >/dev/null 2>"$TMP/err" </dev/null || { echo "FAIL $1: status"; FAIL=1; return; }
    n=$(statcount "${3:-compiled}")
    [ -n "$n" ] && [ "$n" $2 ] && break
  done
  statcheck "$1" "${3:-compiled}" "$2"
}
check arith "-ge 1"
check library "-eq 0"
check short "-eq 0"
check ipshort "-eq 0"
check pshort "-eq 0"
check plong "-ge 1" "OSR entries"
check callbacks "-ge 1"
# (the loop itself entered through OSR: f and g alone get compiled by
# their calls either way)
check callbacks "-ge 1" "OSR entries"
check methods "-ge 1" "OSR entries"
check elems "-ge 1" "OSR entries"
check modfuncs "-ge 1" "OSR entries"
check ipairs "-ge 1" "OSR entries"
check typed "-ge 10" "side exits"
MVM_JIT_BACKGROUND=1 MVM_JIT_PAYBACK=1 MVM_JIT_SPARE=0 check fonce "-eq 0"
MVM_JIT_BACKGROUND=1 MVM_JIT_PAYBACK=1 MVM_JIT_SPARE=1 check fonce "-ge 1"
check growing "-ge 1" "OSR entries"
for try in 1 2 3; do   # (as check: one of three)
  MVM_JIT_STATS=2 "$MVM" -j on "$TMP/mainfn.lua" >/dev/null 2>"$TMP/err" </dev/null
  grep -q 'mainfn.lua:1 ([0-9]* instructions) region [0-9]*-[0-9]*: compiled' "$TMP/err" && break
done
if ! grep -q 'mainfn.lua:1 ([0-9]* instructions) region [0-9]*-[0-9]*: compiled' "$TMP/err"; then
  echo "FAIL mainfn: no region compiled"; cat "$TMP/err"; FAIL=1
else
  echo "ok mainfn: a region compiled"
fi
# the estimate of a loop's compile weighs what LLVM spends on it
# (compileunits): a loop of 4 field reads and writes is estimated above an
# arithmetic loop of more instructions.  The first compile's estimate is
# the prior's alone, so the printed milliseconds are the same in every run.
estimate() {   # the "compile estimated X ms" of the first OSR decision in $1
  MVM_JIT_STATS=3 "$MVM" -j on "$TMP/$1.lua" 2>&1 >/dev/null </dev/null |
    grep -m1 -oE "compile estimated [0-9.]+ ms" | grep -oE "[0-9.]+"
}
{ pad; cat <<'LUA'
local p, s = {x = 0, y = 0}, 0
for i = 1, 30000000 do p.x = p.x + (i & 7); p.y = p.y - (i & 3) end
print(p.x + p.y)
LUA
} >"$TMP/fields.lua"
for try in 1 2 3; do   # (as check: one of three)
  ea=$(estimate arith); ef=$(estimate fields)
  [ -n "$ea" ] && [ -n "$ef" ] && break
done
if [ -z "$ea" ] || [ -z "$ef" ] || ! awk -v a="$ea" -v f="$ef" 'BEGIN { exit !(f > 1.3 * a) }'; then
  echo "FAIL estimate: field loop ${ef:-?} ms, arithmetic loop ${ea:-?} ms"; FAIL=1
else
  echo "ok estimate: field loop $ef ms, arithmetic loop $ea ms"
fi
# bench/tables.lua: short loops, then a records loop of 4 rounds over
# 250000 records whose last rounds were left when LLVM, not loaded yet,
# and a compile would be done.  At JIT_LOAD_EST = 15 ms LLVM was loaded
# for it in 9 of 12 runs, for nothing; now it is not loaded (with the
# compile thread: in at least 1 of 5 runs, not loaded or loaded for code
# that was entered.  On a host busy with other work the wall-clock
# samples move and the ipairs loop at pc 90 may be compiled and entered
# by OSR: LLVM loaded, but not for nothing)
unloaded=0
for try in 1 2 3 4 5; do
  MVM_JIT_STATS=2 MVM_JIT_BACKGROUND=1 "$MVM" -j on "$(dirname "$0")/../bench/tables.lua" \
    >/dev/null 2>"$TMP/err" </dev/null
  if ! grep -q "loading LLVM" "$TMP/err" ||
     grep -qE " [1-9][0-9]* OSR entries" "$TMP/err"; then unloaded=1; break; fi
done
if [ "$unloaded" -lt 1 ]; then
  echo "FAIL tables: LLVM loaded for nothing in 5 of 5 runs"; FAIL=1
else
  echo "ok tables: LLVM not loaded, or its code entered, in run $try of 5"
fi
exit $FAIL
