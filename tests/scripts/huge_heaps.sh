#!/bin/sh
# The heap-size rule (docs/games.md §7 "Heap sizes"): a game with
# a proved period answers Grundy values of any GMP heap, one heap, lists
# (nim-sums) and ranges, and the normal-play outcome of sums of huge heaps.
# Oracle: tests/oracle/octal_period (plain mex values and the periodicity
# theorem, no cgt code) gives G(0..N-1) and the period P from the preperiod
# R; then G(n + K*P) must equal the plain G(n) for every R <= n < N, with
# K = 10^25 (n + K*P is far past the table bound, so cgt answers from its
# own period: a wrong period, preperiod or reduction shows).  Each code is
# checked once with the period proved on demand (no `period` statement) and
# once after `period`.
set -u
CGT=${CGT:-build/cgt}
BUILD=${BUILD:-build}
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-huge-heaps.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
fail() { echo "FAIL: $*"; exit 1; }
N=1500
for code in 0.07 0.137 0.15 0.4 0.51 0.77; do
    $BUILD/oracle/octal_period $code $N values >"$T/o.txt" || fail "oracle $code"
    set -- $(head -n 1 "$T/o.txt")
    [ "$1" = period ] || fail "oracle found no period for $code in $N heaps"
    P=$2 R=$4
    vals=$(sed -n 2p "$T/o.txt" | tr ' ' ',')
    for first in "" "period g;"; do
        cat >"$T/t.cgt" <<CGT
game g = octal $code;
$first
v = [$vals];
K = 10^25;
P = $P;
bad = 0;
for n in $R..($N - 1) {
    if (grundy(g, n + K * P) != v[n]) { bad += 1; print "G", n + K * P, grundy(g, n + K * P), v[n]; }
}
# lists are nim-sums; outcome's normal play is P exactly when it is 0
for n in $R..($R + 40) {
    m = $N - 1 - n + $R;
    x = v[n] xor v[m];
    if (grundy(g, [n + K * P, m + 3 * K * P]) != x) { bad += 1; print "list", n, m; }
    o = outcome(g, [n + K * P, m + 3 * K * P]);
    want = "N";
    if (x == 0) { want = "P"; }
    if (o.normal != want or o.misere != null) { bad += 1; print "outcome", n, m, o; }
}
# a range of 64-bit heaps past the table bound
B = $R + 10^16 * P;
r = grundy(g, B..(B + 99));
for i in 0..99 { if (r[i] != v[$R + i]) { bad += 1; print "range", i; } }
print "bad", bad;
CGT
        out=$("$CGT" "$T/t.cgt" 2>&1) || fail "$code ($first): $out"
        [ "$(printf '%s\n' "$out" | tail -n 1)" = "bad 0" ] ||
            fail "$code ($first): $(printf '%s\n' "$out" | tail -n 5)"
    done
done
exit 0
