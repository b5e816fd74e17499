#!/bin/sh
# Periods of codes with d0 = 4 (a heap may be split in two without taking a
# token; docs/games.md §3): cgt's `period` against tests/oracle/octal_period
# (plain mex values and the periodicity theorem, no cgt code) on every
# 4.xxx code of T. Czajka's table of trivial games (TrivialGames.md, whose
# prefix and period each must also match: 4.3 2/2, 4.005 31/79, 4.024
# 2/60, 4.304 25/21, 4.444 143/24, 4.766 19/20, ...), and on 4.344 and
# 4.364, which his UnsolvedGames.md lists without data and for which the
# survey of unsolved codes (docs/games.md §6) proved periods 51 (preperiod 998) and 62
# (preperiod 11687); the oracle must reach the same proof by itself.
# With --slow (split_periods_slow.sh, slow tier) the same checks on the two
# longer periods of that survey instead: 4.064 (16132, preperiod 94272)
# and 4.406 (44, preperiod 294097), about 5 minutes of the oracle's O(n^2).
set -u
CGT=${CGT:-build/cgt}
BUILD=${BUILD:-build}
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-split-periods.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
fail() { echo "FAIL: $*"; exit 1; }
# code, published prefix and period (- where none is published), heaps the
# oracle computes (past 2 * prefix + period + 3)
if [ "${1:-}" = --slow ]; then
    rows="4.064 - - 205000
4.406 - - 589000"
else
    rows="4.3 2 2 2500
4.12 6 7 2500
4.72 1 3 2500
4.005 31 79 2500
4.024 2 60 2500
4.102 8 10 2500
4.122 6 7 2500
4.304 25 21 2500
4.323 4 4 2500
4.444 143 24 2500
4.722 4 4 2500
4.726 5 16 2500
4.766 19 20 2500
4.344 - - 2500
4.364 - - 25000"
fi
while read -r code pre per n; do
    printf 'game g = octal %s;\nperiod g;\n' "$code" >"$T/t.cgt"
    "$CGT" "$T/t.cgt" >"$T/c.txt" 2>&1 || fail "cgt $code: $(cat "$T/c.txt")"
    got=$(sed -n '1s/.*: period \([0-9]*\), preperiod \([0-9]*\), proved .*/\1 \2/p' "$T/c.txt")
    [ -n "$got" ] || fail "cgt proved no period for $code: $(cat "$T/c.txt")"
    want=$("$BUILD/oracle/octal_period" "$code" "$n" | sed -n 's/^period \([0-9]*\) preperiod \([0-9]*\)$/\1 \2/p')
    [ -n "$want" ] || fail "the oracle proved no period for $code in $n heaps"
    [ "$got" = "$want" ] || fail "$code: cgt period/preperiod $got, oracle $want"
    if [ "$per" != - ]; then
        [ "$got" = "$per $pre" ] || fail "$code: cgt $got, published period $per prefix $pre"
    fi
done <<EOF
$rows
EOF
# the oracle must not claim a proof too early: the comparison can fail
[ "${1:-}" = --slow ] ||
    [ "$("$BUILD/oracle/octal_period" 4.344 1500)" = "unknown 1500" ] ||
        fail "the oracle claims a proof for 4.344 below 2*998+51+3 heaps"
echo "split_periods${1:+ $1}: ok"
