#!/bin/sh
#@ timeout: 300
# The independent oracle of the Grundy engine, quick tier: the first 10^5 Grundy values of thirteen
# octal codes, written by cgt as a b-file (`write g to F as bfile` after
# `grundy g [N-1]`), against tests/oracle/octal_values (its own mex loops
# and parity-class restriction, no cgt code): the SHA-256 of the two files
# must agree.  The codes cover both of cgt's seen-set paths (values below
# 64: 0.1777, 0.454, 0.16, 0.127, 0.106; bytes: 0.56, 0.354, 0.376, 0.14),
# heap parity folded into the class (0.127, 0.106) and two-byte values
# (Officers 0.6, G(10344) = 256 is its first value above 255; 0.416,
# G(5399) = 512, the AVX-512 scan's two-table permute from there on; 0.564,
# whose values pass 1023 before heap 20,000, its two two-table permutes)
# and one code with a leading 4 (4.007: a heap may also be split without
# taking a token).
# The oracle's masks (Czajka's rare-value masks where he lists one) only
# change its speed; its restricted search is itself checked against its
# plain mex (mask 0) on 20,000 heaps of seven of the codes.  N=10000000 (the slow
# tier, tests/scripts/octal_values_slow.sh) runs the same check on 10^7;
# THREADS="2 3" runs cgt once per thread count (`threads T`) against the
# same oracle file (tests/scripts/octal_values_threads.sh).
set -u
CGT=${CGT:-build/cgt}
BUILD=${BUILD:-build}
N=${N:-100000}
THREADS=${THREADS:-1}
O=$BUILD/oracle/octal_values
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-octal-values.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
fail() { echo "FAIL: $*"; exit 1; }
[ -x "$O" ] || fail "no $O (make all builds it)"
LIST="0.1777 3d,0.454 3d,0.16 1e,0.127 1 parity,0.106 d parity,0.56 5b,0.354 3f,0.376 fe"
LIST="$LIST,0.14 7c,0.6 1ee,0.416 3f5,0.564 7e6,4.007 2bf"
# the oracle's arguments after N (mask, "parity") for a code of LIST
args_of() { echo "$LIST" | tr ',' '\n' | awk -v c="$1" '$1 == c { $1 = ""; sub(/^ /, ""); print }'; }
for c in 0.1777 0.16 0.127 0.376 0.416 0.564 4.007; do
    m=$(args_of $c)
    [ -n "$m" ] || fail "no mask for $c in LIST"
    "$O" $c 20000 $m >"$T/fast.b" 2>/dev/null || fail "oracle $c $m: exit $?"
    "$O" $c 20000 0 >"$T/plain.b" 2>/dev/null || fail "oracle $c plain: exit $?"
    cmp -s "$T/fast.b" "$T/plain.b" || fail "oracle $c: restricted search and plain mex differ"
done
n1=$((N - 1))
# SURVEY=1: instead, the sixteen codes of the survey of unsolved codes
# (docs/games.md §6; docs/dev/games-notes.md) whose values stay below 1024 for their
# first 2^22 heaps, 0.564, whose values pass 1023, and the six codes with a
# leading 4 that the survey took to 2^32 (4.007, 4.045, 4.367, 4.404, 4.324,
# 4.044; masks from cgt's `period` rows, which only change the oracle's
# speed)
[ -n "${SURVEY:-}" ] && LIST="0.404 15b,0.774 1fa,0.776 179,0.034 1ff,0.142 e3 parity,0.172 1cd,0.14 3c,0.64 1be,0.014 1fe,0.204 1ba parity,0.74 1db,0.364 3ef,0.366 3fe,0.416 3f5,0.744 3ec,0.264 3f9,0.564 7e6"
[ -n "${SURVEY:-}" ] && LIST="$LIST,4.007 2bf,4.045 5f,4.367 7e,4.404 de,4.324 b7,4.044 1fc"
IFS0=$IFS
IFS=,
for cm in $LIST; do
    IFS=$IFS0
    set -- $cm
    c=$1
    shift
    "$O" $c "$N" "$@" >"$T/oracle.b" 2>"$T/oracle.err" || fail "oracle $c: $(cat "$T/oracle.err")"
    ho=$(sha256sum <"$T/oracle.b" | cut -d' ' -f1)
    for t in $THREADS; do
        "$CGT" -e "game g = octal $c; grundy g [$n1] threads $t; write g to \"$T/cgt.b\" as bfile;" \
            >/dev/null 2>"$T/cgt.err" || fail "cgt $c threads $t: $(cat "$T/cgt.err")"
        [ "$(wc -l <"$T/cgt.b")" -eq "$N" ] || fail "$c: cgt wrote $(wc -l <"$T/cgt.b") values, not $N"
        hc=$(sha256sum <"$T/cgt.b" | cut -d' ' -f1)
        if [ "$ho" != "$hc" ]; then
            first=$(cmp "$T/oracle.b" "$T/cgt.b" | head -n 1)
            fail "$c, $N values, threads $t: cgt $hc, oracle $ho ($first)"
        fi
        [ -n "${VERBOSE:-}" ] && echo "$c $N threads $t $hc"
    done
done
exit 0
