#!/bin/sh
# kb on a presentation whose shortlex completion never ends (the braid
# relation aba = bab: rules ba^n ba -> aba^2 b^(n-1) for every n), stopped
# by a CPU-time limit (only the limit can stop it), says that its rules
# form a family that grows without end and that more time will not help,
# instead of asking for more time; a completion that finishes is unchanged.
set -u
CGT=${CGT:-build/cgt}
. tests/scripts/stop_lib
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-kb-family.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
fail() { echo "FAIL: $*"; exit 1; }
cpu_limit 60 "$CGT" -e 'monoid B = < a, b | a b a = b a b >; timeout 1 { r = kb(B); }' \
    >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 4 ] || fail "exit $rc: $(cat "$T/err")"
grep -q "^hint: [0-9]* rules, ba^2ba to ba^[0-9]*ba, each one letter longer than the last, form a family that grows without end: shortlex completion of B will most likely never finish, and more time will not help" "$T/err" ||
    fail "no family hint: $(cat "$T/err")"
grep -q "gives it more time" "$T/err" && fail "still asks for more time: $(cat "$T/err")"
cpu_limit 60 "$CGT" -e 'monoid M = < x, z | x^2 = 1, z^3 = z >; kb M;' >"$T/out" 2>"$T/err" ||
    fail "a finite monoid: $(cat "$T/err")"
grep -q "confluent" "$T/out" || fail "$(cat "$T/out")"
echo ok
