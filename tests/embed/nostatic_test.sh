#!/usr/bin/env bash
# nostatic_test.sh LIBMVM.a -- separate VMs may run in parallel threads only
# if the core has no writable static or global data: no object of vm/, gc/
# or stdlib/ may have a non-empty .data or .bss section (read-only tables
# live in .rodata / .data.rel.ro).  Per-VM state belongs in global_State.
# Deliberately process-wide state that is thread-safe (a pthread_once flag,
# an atomic) goes in an object listed in ALLOW, with the reason:
# jit.c: the dlopen'ed LLVM backend and its host table, loaded once per
#         process under a mutex and read-only afterwards
ALLOW='^(jit\.c\.o)$'
set -u
bad=$(objdump -h "$1" | awk -v allow="$ALLOW" '
  /file format/ { obj = $1; sub(":$", "", obj) }
  ($2 == ".data" || $2 == ".bss" || $2 ~ /^\.(data|bss)\./) && $2 !~ /rel\.ro/ && $3 !~ /^0+$/ {
    if (obj !~ allow) print obj " " $2 " (0x" $3 " bytes)" }')
if [ -n "$bad" ]; then
  echo "writable static data in the core (shared between VMs):"
  echo "$bad"
  exit 1
fi
echo "no writable static data in $(objdump -h "$1" | grep -c 'file format') objects"
