#!/usr/bin/env bash
# cli_test.sh MVM CASE -- one test of the mvm command-line interface.
# Each case is a function below; ctest registers every case as cli.CASE.
# Run all cases by hand with:  tests/cli/cli_test.sh build/mvm all
set -u

MVM=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
CASE=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
# the tests control these themselves
unset LUA_INIT LUA_INIT_5_4 LUA_PATH LUA_PATH_5_4 LUA_CPATH LUA_CPATH_5_4 MVM_JIT

FAILED=0
OUT= ERR= RC=

# run CMD...: sets OUT, ERR (contents) and RC
run() {
  "$@" >"$WORK/.out" 2>"$WORK/.err" </dev/null
  RC=$?
  OUT=$(cat "$WORK/.out")
  ERR=$(cat "$WORK/.err")
}
# run_in INPUT CMD...: same with INPUT on stdin
run_in() {
  local input=$1; shift
  printf '%s' "$input" | "$@" >"$WORK/.out" 2>"$WORK/.err"
  RC=$?
  OUT=$(cat "$WORK/.out")
  ERR=$(cat "$WORK/.err")
}
bad() {
  echo "FAIL: $*"
  echo "  status: $RC"
  echo "  stdout: $(printf '%s' "$OUT" | head -20)"
  echo "  stderr: $(printf '%s' "$ERR" | head -20)"
  FAILED=1
}
want_status() { [ "$RC" = "$1" ] || bad "expected exit status $1"; }
want_out()    { [ "$OUT" = "$1" ] || bad "expected stdout '$1'"; }
want_err()    { [ "$ERR" = "$1" ] || bad "expected stderr '$1'"; }
want_err_line1() { [ "$(printf '%s\n' "$ERR" | head -1)" = "$1" ] || bad "expected first stderr line '$1'"; }
want_out_has() { case "$OUT" in *"$1"*) ;; *) bad "stdout lacks '$1'";; esac; }
want_err_has() { case "$ERR" in *"$1"*) ;; *) bad "stderr lacks '$1'";; esac; }

# ---------------------------------------------------------------- cases

case_e() {
  run "$MVM" -e 'print(1 + 1)'
  want_status 0; want_out 2; want_err ""
  run "$MVM" '-eprint("joined")'
  want_status 0; want_out joined
  run "$MVM" -e 'x = 20' -e 'print(x + 1)'
  want_out 21
}

case_version() {
  run "$MVM" -v
  want_status 0; want_out_has "mvm 0.1"; want_out_has "Lua 5.4"
  run "$MVM" -v -e 'print("after")'
  want_status 0; want_out_has "after"
}

case_help() {
  run "$MVM" -h
  want_status 0; want_out_has "usage: mvm [options] [script [args]]"
  run "$MVM" --help
  want_status 0; want_out_has "-j mode"
}

case_badoption() {
  run "$MVM" -x
  want_status 1; want_err_line1 "mvm: unrecognized option '-x'"
  want_err_has "usage: mvm [options] [script [args]]"
  run "$MVM" -e
  want_status 1; want_err_line1 "mvm: '-e' needs argument"
  run "$MVM" -l
  want_status 1; want_err_line1 "mvm: '-l' needs argument"
  run "$MVM" -vx
  want_status 1; want_err_line1 "mvm: unrecognized option '-vx'"
  # an option that takes an argument followed by another option
  run "$MVM" -i -e
  want_status 1; want_err_line1 "mvm: '-e' needs argument"
  run "$MVM" -e 'print(1)' -l
  want_status 1; want_out ""; want_err_line1 "mvm: '-l' needs argument"
  run "$MVM" -e -v
  want_status 1; want_err_line1 "mvm: '-e' needs argument"
  # -j is mvm's own: a bad mode is reported like a bad option (lua5.4 says
  # "unrecognized option '-j'", with the same status 1)
  run "$MVM" -j bogus -e 'print(1)'
  want_status 1; want_out ""
  want_err_line1 "mvm: bad JIT mode 'bogus' (expected off, on or eager)"
  want_err_has "usage: mvm [options] [script [args]]"
  run "$MVM" -jbogus
  want_status 1; want_err_line1 "mvm: bad JIT mode 'bogus' (expected off, on or eager)"
}

case_library() {
  printf 'return { answer = 42 }\n' > mymod.lua
  printf 'return { name = "v2" }\n' > 'mod-v2.lua'
  run "$MVM" -l mymod -e 'print(mymod.answer)'
  want_status 0; want_out 42
  run "$MVM" -l m=mymod -e 'print(m.answer, mymod)'
  want_status 0; want_out "$(printf '42\tnil')"
  run "$MVM" -lmymod -e 'print(mymod.answer)'
  want_status 0; want_out 42
  # "-l mod-v2" stores into global 'mod' (the suffix after '-' is dropped)
  run "$MVM" -l mod-v2 -e 'print(mod.name)'
  want_status 0; want_out v2
  run "$MVM" -l nosuchmodule
  want_status 1; want_err_has "module 'nosuchmodule' not found"
}

case_noenv() {
  LUA_INIT='print("init ran")' run "$MVM" -e 'print("main")'
  want_out "$(printf 'init ran\nmain')"
  LUA_INIT='print("init ran")' run "$MVM" -E -e 'print("main")'
  want_status 0; want_out main
  LUA_PATH='/nonexistent/?.lua' run "$MVM" -E -e 'print(package.path:find("/nonexistent/", 1, true))'
  want_status 0; want_out nil
  LUA_PATH='/nonexistent/?.lua' run "$MVM" -e 'print(package.path)'
  want_out '/nonexistent/?.lua'
}

case_warnings() {
  run "$MVM" -e 'warn("hidden")'
  want_status 0; want_err ""
  run "$MVM" -W -e 'warn("shown")'
  want_status 0; want_err "Lua warning: shown"
}

case_args() {
  printf 'print(#arg, ...)\nfor i = -3, #arg do print(i, arg[i]) end\n' > args.lua
  run "$MVM" -e 'x=1' args.lua a 'b c'
  want_status 0
  want_out "$(printf '2\ta\tb c\n-3\t%s\n-2\t-e\n-1\tx=1\n0\targs.lua\n1\ta\n2\tb c' "$MVM")"
  # no script: the program name is arg[0] and the options follow it
  run "$MVM" -e 'print(arg[-1], arg[1], arg[2] ~= nil, arg[0] == os.getenv("X0"))'
  want_out "$(printf 'nil\t-e\ttrue\tfalse')"
  # options after the script belong to the script
  run "$MVM" args.lua -e x
  want_out_has "$(printf '2\t-e\tx')"
  # "--" ends the options
  run "$MVM" -- args.lua -v
  want_status 0; want_out_has "$(printf '1\t-v')"
}

case_stdin() {
  run_in 'print("from stdin", ...)' "$MVM"
  want_status 0; want_out "from stdin"
  run_in 'print("dash", ...)' "$MVM" - x y
  want_status 0; want_out "$(printf 'dash\tx\ty')"
  run_in 'error("bad stdin")' "$MVM" -
  want_status 1; want_err_line1 "mvm: stdin:1: bad stdin"
}

case_missing() {
  run "$MVM" nosuch.lua
  want_status 1; want_out ""
  want_err "mvm: cannot open nosuch.lua: No such file or directory"
  run "$MVM" -e 'print("before")' nosuch.lua
  want_status 1; want_out before
}

# scripts that are not Lua source: messages and statuses as lua5.4's
case_badinput() {
  mkdir adir
  run "$MVM" adir
  want_status 1; want_out ""; want_err "mvm: cannot read adir: Is a directory"
  # a binary chunk is recognised by its first byte (ESC "Lua")
  printf '\033LuaXYZ garbage' > wrongversion.luac
  run "$MVM" wrongversion.luac
  want_status 1; want_err "mvm: wrongversion.luac: bad binary format (version mismatch)"
  printf '\033Lua' > truncated.luac
  run "$MVM" truncated.luac
  want_status 1; want_err "mvm: truncated.luac: bad binary format (truncated chunk)"
  # stock Lua 5.4 bytecode (same version byte, another format): not loadable
  if command -v lua5.4 >/dev/null; then
    lua5.4 -e 'io.write(string.dump(load("return 1")))' > stock.luac
    run "$MVM" stock.luac
    want_status 1; want_err "mvm: stock.luac: bad binary format (format mismatch)"
  fi
  printf '\033Lua' > stdin.luac
  run_in "$(cat stdin.luac)" "$MVM" -
  want_status 1; want_err "mvm: stdin: bad binary format (truncated chunk)"
  # our own string.dump output loads back
  run "$MVM" -e 'local f = assert(io.open("ok.luac", "wb"))
                 f:write(string.dump(load("print(\"from binary\", ...)"))) f:close()'
  run "$MVM" ok.luac x
  want_status 0; want_out "$(printf 'from binary\tx')"
  # empty scripts and scripts that are only a "#" first line do nothing
  : > empty.lua
  run "$MVM" empty.lua
  want_status 0; want_out ""; want_err ""
  printf '#!/usr/bin/env mvm\n' > shebang.lua
  run "$MVM" shebang.lua
  want_status 0; want_out ""; want_err ""
  printf '#!/usr/bin/env mvm' > shebang-nonl.lua
  run "$MVM" shebang-nonl.lua
  want_status 0; want_out ""; want_err ""
  printf '#!/usr/bin/env mvm\nprint(...)\n' > shebang-code.lua
  run "$MVM" shebang-code.lua a
  want_status 0; want_out a
  # the line after "#" keeps its number in messages
  printf '#!/usr/bin/env mvm\nerror("line two")\n' > shebang-error.lua
  run "$MVM" shebang-error.lua
  want_status 1; want_err_line1 "mvm: shebang-error.lua:2: line two"
  run_in '' "$MVM" -
  want_status 0; want_out ""; want_err ""
  # a NUL byte is not Lua (the message stops at the NUL, as lua5.4's does)
  printf 'print(1)\000print(2)\n' > nul.lua
  run "$MVM" nul.lua
  want_status 1; want_out ""; want_err "mvm: nul.lua:1: unexpected symbol"
}

# like lua.c, mvm switches the collector to generational mode at start-up,
# so the first collectgarbage("incremental") reports "generational"
case_gcmode() {
  cat > gc.lua <<'LUA'
print(collectgarbage("incremental"))
print(collectgarbage("incremental"))
print(collectgarbage("generational"))
print(collectgarbage("generational"))
print(collectgarbage("incremental", 100, 200, 10))
print(collectgarbage("isrunning"))
LUA
  run "$MVM" gc.lua
  want_status 0
  want_out "$(printf 'generational\nincremental\nincremental\ngenerational\ngenerational\ntrue')"
  run "$MVM" -e 'print(collectgarbage("generational"))'
  want_out generational
  # LUA_INIT runs after the switch, too
  LUA_INIT='print(collectgarbage("incremental"))' run "$MVM" -e ''
  want_out generational
  run_in 'print(collectgarbage("incremental"))' "$MVM" -
  want_out generational
}

case_syntax() {
  printf 'x = = 1\n' > bad.lua
  run "$MVM" bad.lua
  want_status 1; want_out ""
  want_err "mvm: bad.lua:1: unexpected symbol near '='"
  run "$MVM" -e 'x = = 1'
  want_status 1; want_err "mvm: (command line):1: unexpected symbol near '='"
}

case_error() {
  printf 'local function f()\n  error("boom")\nend\nf()\n' > boom.lua
  run "$MVM" boom.lua
  want_status 1
  want_err_line1 "mvm: boom.lua:2: boom"
  want_err_has "stack traceback:"
  want_err_has "boom.lua:4: in main chunk"
  run "$MVM" -e 'error({})'
  want_status 1; want_err_line1 "mvm: (error object is a table value)"
  run "$MVM" -e 'error(setmetatable({}, {__tostring = function() return "custom" end}))'
  want_status 1; want_err "mvm: custom"
  run "$MVM" -e 'error()'
  want_status 1; want_err_line1 "mvm: (error object is a nil value)"
  run "$MVM" -e 'error(42)'
  want_status 1; want_err_line1 "mvm: 42"
}

case_luainit() {
  LUA_INIT='x = 42' run "$MVM" -e 'print(x)'
  want_out 42
  LUA_INIT='x = 1' LUA_INIT_5_4='x = 54' run "$MVM" -e 'print(x)'
  want_out 54
  printf 'y = "from file"\n' > init.lua
  LUA_INIT='@init.lua' run "$MVM" -e 'print(y)'
  want_out "from file"
  LUA_INIT='error("init failed")' run "$MVM" -e 'print("not reached")'
  want_status 1; want_out ""; want_err_line1 "mvm: LUA_INIT:1: init failed"
}

case_exit() {
  run "$MVM" -e 'os.exit(3)'
  want_status 3
  run "$MVM" -e 'os.exit(true)'
  want_status 0
  run "$MVM" -e 'os.exit(false)'
  want_status 1
  run "$MVM" -e 'io.write("flushed") os.exit(0, true)'
  want_status 0; want_out flushed
  run "$MVM" -e 'print("done")'
  want_status 0
  # at the end of the script (mvm_closeforexit): finalizers in order, a
  # to-be-closed variable of the main chunk, an unclosed file flushed by
  # its finalizer, with the JIT off and on
  for j in off on; do
    run "$MVM" -j $j -e 'local f = io.open("unclosed.txt", "w") f:write("kept")
      setmetatable({}, {__gc = function() print("gc 1") end})
      setmetatable({}, {__gc = function() print("gc 2") end})
      local t <close> = setmetatable({}, {__close = function() print("closed") end})
      print("end")'
    want_status 0; want_out "end
closed
gc 2
gc 1"
    [ "$(cat unclosed.txt 2>/dev/null)" = kept ] || bad "-j $j: unclosed file not flushed at exit"
    rm -f unclosed.txt
  done
}

case_jit() {
  run "$MVM" -j off -e 'print("off")'
  want_status 0; want_out off
  run "$MVM" -joff -e 'print("joined")'
  want_status 0; want_out joined
  run "$MVM" -j eager -e 'local function f(x) return x + 1 end print(f(1))'
  want_status 0; want_out 2
  run "$MVM" -j bogus -e 'print(1)'
  want_status 1; want_err_has "bad JIT mode 'bogus'"
  run "$MVM" -j
  want_status 1; want_err_line1 "mvm: '-j' needs argument"
  MVM_JIT=eager run "$MVM" -e 'print("env")'
  want_status 0; want_out env
  MVM_JIT=nonsense run "$MVM" -e 'print("env")'
  want_status 0; want_out env; want_err_has "MVM_JIT"
}

# interrupt_when_ready CMD...: run CMD in the background, wait until it has
# written "ready" on stdout -- so it is past start-up and inside its loop --
# then send SIGINT and collect its status (RC), stdout and stderr
interrupt_when_ready() {
  # fresh files: a "ready" left by the previous run must not count
  rm -f "$WORK/.out" "$WORK/.err"
  "$@" >"$WORK/.out" 2>"$WORK/.err" </dev/null &
  local pid=$! i
  for i in $(seq 200); do
    grep -q ready "$WORK/.out" 2>/dev/null && break
    kill -0 $pid 2>/dev/null || break
    sleep 0.05
  done
  kill -INT $pid 2>/dev/null
  # the VM raises the error at its next loop back-edge or call: at once
  for i in $(seq 100); do kill -0 $pid 2>/dev/null || break; sleep 0.05; done
  if kill -0 $pid 2>/dev/null; then
    kill -KILL $pid; wait $pid
    RC=killed OUT= ERR=
    bad "still running 5 s after SIGINT"
    return
  fi
  wait $pid; RC=$?
  OUT=$(cat "$WORK/.out"); ERR=$(cat "$WORK/.err")
}

case_interrupt() {
  # Ctrl-C (SIGINT) while a script loops: the error "interrupted", raised at
  # the loop, reported like any runtime error; exit status 1 like lua5.4
  # (which prints "lua5.4: interrupted!")
  interrupt_when_ready "$MVM" -e 'print("ready") io.stdout:flush() while true do end'
  want_status 1; want_out ready
  want_err_line1 "mvm: (command line):1: interrupted"
  want_err_has "stack traceback:"
  # "ready" is written inside the function on the loop's line: wherever the
  # VM notices the signal after that (the flush returning, a back-edge),
  # it is in spin at line 2, however late the signal arrives
  printf 'local function spin()\n  print("ready") io.stdout:flush() while true do end\nend\nspin()\n' > spin.lua
  interrupt_when_ready "$MVM" spin.lua
  want_status 1
  want_err_line1 "mvm: spin.lua:2: interrupted"
  want_err_has "spin.lua:2: in local 'spin'"
  want_err_has "spin.lua:4: in main chunk"
  # numeric for, generic for, and a loop of calls
  interrupt_when_ready "$MVM" -e 'print("ready") io.stdout:flush()
    for i = 1, math.huge do end'
  want_status 1; want_err_line1 "mvm: (command line):2: interrupted"
  interrupt_when_ready "$MVM" -e 'print("ready") io.stdout:flush()
    local function f() end
    while true do f() end'
  want_status 1; want_err_has "interrupted"
  # an interrupt is an ordinary error: pcall catches it and the script goes on
  # ("ready" inside the protected function: a signal noticed at the call
  # of pcall itself would not be caught)
  interrupt_when_ready "$MVM" -e '
    print(pcall(function() print("ready") io.stdout:flush() while true do end end)) print("after")'
  want_status 0
  want_out "$(printf 'ready\nfalse\t(command line):2: interrupted\nafter')"
}

# ---------------------------------------------------------------- main

ALL="e version help badoption library noenv warnings args stdin missing badinput
     syntax error luainit exit jit gcmode interrupt"
if [ "$CASE" = all ]; then
  for c in $ALL; do
    FAILED=0
    ( "case_$c" ; exit $FAILED ) && echo "ok   $c" || echo "FAIL $c"
  done
  exit 0
fi
if ! declare -F "case_$CASE" >/dev/null; then
  echo "unknown case '$CASE'"; exit 2
fi
"case_$CASE"
[ $FAILED = 0 ] && echo "ok: $CASE"
exit $FAILED
