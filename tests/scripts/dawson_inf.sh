#!/bin/sh
#@ tier: slow
# Dawson's claims through the infinite quotient: with
# `quotient 33` the extension of 0.137 stops at the proved infinite Q(33)
# and rows n <= 33 come from Q(32) and the proved description; they must
# agree row by row with the direct memoised search (quotient 0).  About
# 100 s of CPU.
set -u
CGT=${CGT:-build/cgt}
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-dawson-inf.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
# n = 32 refutes claim 2 (Plambeck's note, 2005), so the statement ends as
# a failed check: exit 1 with "claim failed: 1 of 9" (docs/errors.md).
$CGT -e 'dawson 28..36 quotient 33;' >"$T/dinf.out" 2>"$T/dinf.err"
rc=$?
[ "$rc" -eq 1 ] && grep -q 'claim failed: 1 of 9 values of n refute' "$T/dinf.err" ||
    { cat "$T/dinf.err"; echo "expected exit 1 for the one refuted claim, got $rc"; exit 1; }
grep -q '^ *32  N\*     N     REFUTED (claim 2): losing pawns 5, 11, 22, 28$' "$T/dinf.out" ||
    { echo "n = 32 refutation missing"; exit 1; }
grep -q '^  outcomes from the quotient Q(32) and the proved description of the infinite Q(33) where they reach, by search beyond$' "$T/dinf.out" ||
    { cat "$T/dinf.out"; echo "the infinite quotient was not used"; exit 1; }
$CGT --format=json -e 'dawson 33..33 quotient 33;' | grep -q '"method":"quotient"' ||
    { echo "n = 33 not answered from the description"; exit 1; }
grep -E '^ +[0-9]+  [PN]' "$T/dinf.out" >"$T/dinf.q"
$CGT -e 'dawson 28..36 quotient 0;' 2>/dev/null | grep -E '^ +[0-9]+  [PN]' >"$T/dinf.s" || exit 1
[ "$(wc -l <"$T/dinf.q")" -eq 9 ] || { echo "expected 9 rows"; exit 1; }
diff "$T/dinf.q" "$T/dinf.s" || { echo "description and search disagree"; exit 1; }
echo ok
