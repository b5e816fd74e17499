#!/bin/sh
#@ tier: slow
# The theorem that Q(34) of 0.07 is infinite (docs/misere.md): the
# semilinear certificate in bench/misere/h34probe.c must find every one of
# its 2,241,694 row checks consistent, detect each of 8 single flipped
# labels (so the checker can fail), and agree with the two independent
# oracles it carries: brute-force outcome search (positions with a heap 34,
# at most 66 tokens) and the certified Q(33) (no heap 34).  The heap-25
# table is the theorem's content: 25 + 34 is P (also checked here with
# cgt's own outcome search), 25 + 34^a + 30^b for a >= 2 is P exactly when
# b >= a and b - a is even.  About 65 s of CPU and 430 MB.
set -u
BUILD=${BUILD:-build}
CGT=${CGT:-build/cgt}
T=${TMP:-/tmp}
cc -O2 -std=c11 -D_DEFAULT_SOURCE -I. -o "$T/h34probe" bench/misere/h34probe.c \
    "$BUILD/libcore.a" -lgmp -lm || exit 1
"$T/h34probe" 400 60 15 >"$T/h34.out" 2>/dev/null
need() {
    grep -q "$1" "$T/h34.out" || { echo "missing: $1"; tail -n 25 "$T/h34.out"; exit 1; }
}
need '^certificate: [0-9]* pairs, [0-9]* row checks: ALL CONSISTENT$'
need '^reduced labels agree with the trial on the box: yes$'
need '^mutation test: 8 of 8 single flipped labels detected; unflipped: 0 bad rows$'
need '^brute force: [0-9]* positions .*: 0 disagree with L$'
need '^certified Q(33): [0-9]* positions .*: 0 disagree with L$'
# rows a = 0..7 of the heap-25 table, b = 0..6 (* = P)
sed -n '/^L(25, a, b) on the box/,/^ *7 /p' "$T/h34.out" | tail -n 8 >"$T/h34.tab"
printf '%s\n' '  0 .......' '  1 *..*.*.' '  2 ..*.*.*' '  3 ...*.*.' '  4 ....*.*' \
    '  5 .....*.' '  6 ......*' '  7 .......' >"$T/h34.exp"
diff "$T/h34.exp" "$T/h34.tab" || { echo "heap-25 table differs"; exit 1; }
$CGT -e 'game dk = octal 0.07; outcome dk [25, 34];' | grep -q 'misere P$' ||
    { echo "25 + 34 should be a misere P-position"; exit 1; }
echo ok
