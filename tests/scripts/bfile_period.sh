#!/bin/sh
#@ timeout: 60
# tests/oracle/bfile_period (the independent check of a period claimed for
# an octal game, read from a b-file of tests/oracle/octal_values) on
# Dawson's Kayles 0.07 (period 34, preperiod 53: Winning Ways; the
# periodicity theorem needs 2*53 + 2*34 + 2 = 176 values): it must accept
# the true claim and refuse every wrong one, each for its own reason, so
# that survey_periods_slow.sh's acceptance means something.
set -u
BUILD=${BUILD:-build}
O=$BUILD/oracle
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-bfile-period.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
fail() { echo "FAIL: $*"; exit 1; }
"$O/octal_values" 0.07 2000 0 >"$T/dk.b" 2>/dev/null || fail "octal_values 0.07"
check() { # want T P S [lines]: the first word of bfile_period's answer
    want=$1
    shift
    if [ $# -gt 3 ]; then head -n "$4" "$T/dk.b"; else cat "$T/dk.b"; fi |
        "$O/bfile_period" "$1" "$2" "$3" >"$T/out"
    rc=$?
    case $want in
    ok) [ $rc = 0 ] && grep -q '^ok: ' "$T/out" || fail "$*: $(cat "$T/out") (exit $rc)" ;;
    *) [ $rc = 1 ] && grep -q "$want" "$T/out" || fail "$*: $(cat "$T/out") (exit $rc)" ;;
    esac
}
check ok 2 34 53
check 'G(53) != G(70)' 2 17 53                     # not a period
check 'G(52) != G(86)' 2 34 52                     # preperiod too small
check 'the preperiod is smaller' 2 34 54           # preperiod too large
check 'P/2 = 34 is a period too' 2 68 53           # a multiple of the period
check 'the theorem needs 176' 2 34 53 150          # too few values
printf '0 0\n2 1\n' | "$O/bfile_period" 2 1 0 >/dev/null 2>&1
[ $? = 2 ] || fail "a missing line was not an input error"
echo ok
