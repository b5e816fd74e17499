#!/bin/sh
#@ tier: slow
#@ timeout: 1800
# Two periods of the survey of unsolved codes (docs/games.md §6):
# 0.104 (period 11770282, preperiod 197769598) and 0.054 (period 10015179,
# preperiod 193235616), both on T. Czajka's list of unsolved codes.  cgt's
# `period` must prove them, and the independent pair tests/oracle/
# octal_values (its own sparse mex, no cgt code) | tests/oracle/bfile_period
# (the periodicity theorem's conditions and the least period, checked on
# the oracle's values) must accept the same claim.  About 6 minutes of CPU
# and 0.9 GB.
set -u
CGT=${CGT:-build/cgt}
BUILD=${BUILD:-build}
O=$BUILD/oracle
fail() { echo "FAIL: $*"; exit 1; }
# code, oracle mask (hex; only its speed depends on it), parity, last
# digit position T, period, preperiod, values for the oracle
for row in "0.104 17 parity 3 11770282 197769598 419079763" \
    "0.054 3d - 3 10015179 193235616 406501593"; do
    set -- $row
    c=$1 m=$2 par=$3 t=$4 p=$5 s=$6 n=$7
    [ "$par" = - ] && par=
    out=$($CGT -e "game g = octal $c; period g limit 500000000;") || fail "$c: cgt: $out"
    echo "$out" | grep -q "^$c: period $p, preperiod $s, proved at heap" ||
        fail "$c: cgt says: $out"
    # shellcheck disable=SC2086
    chk=$("$O/octal_values" "$c" "$n" "$m" $par 2>/dev/null | "$O/bfile_period" "$t" "$p" "$s") ||
        fail "$c: the oracle refuses the period: $chk"
    echo "$chk" | grep -q '^ok: ' || fail "$c: $chk"
done
echo ok
