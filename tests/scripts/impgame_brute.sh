#!/bin/sh
# Misère equality of explicit games (`G == H`, decided on canonical forms)
# against the independent brute force tests/oracle/ig_brute.c (no shared
# code): for random pairs of games born by day 4, equal canonical forms
# must give equal misère outcomes of G + X for every X in the oracle's test
# set, and different forms must be told apart by some X.  Also the genus of
# explicit heaps against `genus` through the ruleset path.
set -u
CGT=${CGT:-build/cgt}
B=${BUILD:-build}
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-ig.XXXXXX")
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
fail() { echo "FAIL: $*"; exit 1; }

pairs=400
[ -n "${CGT_SLOW:-}" ] && pairs=3000
for seed in 1 2 3; do
    $B/oracle/ig_brute $seed $pairs "$T/s.cgt" "$T/want" 2>"$T/log" || fail "ig_brute $seed"
    $CGT "$T/s.cgt" >"$T/got" || fail "cgt on the pairs of seed $seed"
    n=$(wc -l <"$T/got")
    [ "$n" -eq "$pairs" ] || fail "seed $seed: $n results for $pairs pairs"
    eq=$(grep -c true "$T/want")
    [ "$eq" -gt 20 ] || fail "seed $seed: only $eq equal pairs: the test is too weak"
    if ! cmp -s "$T/want" "$T/got"; then
        line=$(paste "$T/want" "$T/got" | awk '$1 != $2 { print NR; exit }')
        fail "seed $seed pair $line: oracle $(sed -n "${line}p" "$T/want"), cgt $(sed -n "${line}p" "$T/got"): $(sed -n "${line}p" "$T/s.cgt")"
    fi
done

# genus of explicit heaps (canonical forms) = genus of the ruleset path
for code in 0.07 0.77 0.137 4.7; do
    {
        echo "game g = octal $code;"
        echo "for n in 0..16 { h = g(n); print genus(h); }"
    } >"$T/g.cgt"
    $CGT "$T/g.cgt" >"$T/ex" || fail "explicit genus of $code"
    $CGT -e "game g = octal $code; genus g 0..16;" | sed -n 's/^ *[0-9]*: //p' >"$T/rs"
    cmp -s "$T/ex" "$T/rs" || fail "genus of $code: explicit $(tr '\n' ' ' <"$T/ex") ruleset $(tr '\n' ' ' <"$T/rs")"
done
# outcomes of explicit sums of expanded heaps = the ruleset path's search
for pos in "4 4" "10 3" "12 7 2" "9 9 1" "17 5" "20 6 3"; do
    set -- $pos
    e="dk($1)"; l="$1"; shift
    for h in "$@"; do e="$e + dk($h)"; l="$l, $h"; done
    a=$($CGT -e "game dk = octal 0.07; o = outcome($e); print o.normal, o.misere;")
    b=$($CGT -e "game dk = octal 0.07; o = outcome(dk, [$l]); print o.normal, o.misere;")
    [ "$a" = "$b" ] || fail "outcome of $e: explicit $a, ruleset $b"
done
exit 0
