#!/bin/sh
# --stats: every long statement (period, grundy, genus, outcome,
# kb, mnk, gp, quotient) reports its CPU time, wall time and peak memory on
# stderr; stdout is unchanged.
set -u
CGT=${CGT:-build/cgt}
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-stats.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
fail() { echo "FAIL: $*"; exit 1; }
cat >"$T/stats.cgt" <<'CGT'
game g = octal 0.07;
period g;
grundy g 0..20;
genus g 0..3;
outcome g [3, 4];
monoid S = < a, b | a^2 = 1, b^2 = 1 >;
kb S;
mnk 3 3 3;
game b = ga2;
gp b heaps 2 sizes 1..8 population 200 generations 5 seed 1;
quotient q = g to 9;
CGT
$CGT --stats "$T/stats.cgt" >"$T/stats.out" 2>"$T/stats.err" || fail "exit: $(tail -3 "$T/stats.err")"
for s in period grundy genus outcome kb mnk gp; do
    grep -Eq "^\[stats\] $s: [0-9.]+ s CPU, [0-9.]+ s wall, peak RSS [0-9]+ KB$" "$T/stats.err" ||
        fail "no stats line for $s: $(cat "$T/stats.err")"
done
grep -q '^\[stats\] quotient ' "$T/stats.err" || fail "no stats for quotient"
grep -q '^\[stats\] total: ' "$T/stats.err" || fail "no total"
$CGT "$T/stats.cgt" >"$T/nostats.out" 2>/dev/null
cmp -s "$T/stats.out" "$T/nostats.out" || fail "--stats changed stdout"
echo ok
