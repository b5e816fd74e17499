#!/bin/sh
#@ tier: slow
# The two longer periods the survey of issue 18 item 5 found (docs/games.md
# §6), of codes T. Czajka's UnsolvedGames.md lists without data: 4.064,
# period 16132, preperiod 94272, and 4.406, period 44, preperiod 294097.
# cgt's `period` against tests/oracle/octal_period (plain mex values and
# the periodicity theorem, no cgt code), which must reach the same proof
# by itself within 2 * preperiod + period + 3 heaps (204679 and 588241:
# about 4 minutes of O(n^2) loops in all); split_periods.sh does the same
# for the shorter periods in the quick tier.
set -u
CGT=${CGT:-build/cgt}
BUILD=${BUILD:-build}
T=$(mktemp -d "${TMP:-/tmp}/split.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
while read -r code per pre n; do
    printf 'game g = octal %s;\nperiod g;\n' "$code" >"$T/t.cgt"
    "$CGT" "$T/t.cgt" >"$T/c.txt" 2>&1 || fail "cgt $code: $(cat "$T/c.txt")"
    got=$(sed -n '1s/.*: period \([0-9]*\), preperiod \([0-9]*\), proved .*/\1 \2/p' "$T/c.txt")
    [ "$got" = "$per $pre" ] || fail "cgt $code: $(cat "$T/c.txt")"
    want=$("$BUILD/oracle/octal_period" "$code" "$n" |
        sed -n 's/^period \([0-9]*\) preperiod \([0-9]*\)$/\1 \2/p')
    [ "$want" = "$got" ] || fail "oracle $code: '$want', cgt: $got"
done <<EOT
4.064 16132 94272 205000
4.406 44 294097 589000
EOT
echo "split_periods_slow: ok"
