#!/bin/sh
# `canonical table dk 1..20` against Figure 4 of Plambeck's Dawson's Chess
# note ("Dawson's Chess (0.137) and Dawson's Kayles (0.07)", 2005), transcribed below by
# hand: heap, the note's name of the form, its options.  Rows are compared
# as sets of option names (order and spacing free); the note's g$NNNN
# numbers are CGSuite's and ours are our own, so every g$ name counts as
# "some other form".
set -u
CGT=${CGT:-build/cgt}
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-fig4.XXXXXX")
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
fail() { echo "FAIL: $*"; exit 1; }

cat >"$T/note" <<'ROWS'
1 n[0]
2 n[1] n[0]
3 n[1] n[0]
4 n[2] n[0] n[1]
5 n[0]
6 n[3] n[0] n[1] n[2]
7 n[1] n[0]
8 n[1] n[0]
9 n[0]
10 a4[1,2] a[4] n[1] n[2]
11 n[3] n[0] n[1] n[2]
12 h[12] a[5] a4[1,2] n[0]
13 n[2] n[0] n[1]
14 h[14] h[12] h[17] a[4] n[1] n[3]
15 n[0]
16 h[16] h[14] h[19] g$494 n[0] n[2]
17 h[17] a[5] a4[1,2] n[0] n[3]
18 n[2] n[0] n[1]
19 h[19] h[12] h[17] a[4] n[1]
20 n[3] n[0] n[1] n[2]
ROWS

norm() { # one row per line: heap name sorted-options, g$N -> g$
    sed 's/g\$[0-9]*/g$/g' | while read -r h name rest; do
        opts=$(printf '%s\n' $rest | sort | tr '\n' ' ')
        echo "$h $name $opts"
    done
}

$CGT -e 'game dk = octal 0.07; canonical table dk 1..20;' >"$T/out" || fail "canonical table"
sed -n 's/^  h\[\([0-9]*\)\] *\([^ ]*\) *= {\(.*\)}$/\1 \2 \3/p' "$T/out" | sed 's/, / /g' | norm >"$T/got"
norm <"$T/note" >"$T/want"
[ "$(wc -l <"$T/got")" -eq 20 ] || fail "expected 20 rows, got: $(cat "$T/out")"
d=$(diff "$T/want" "$T/got") || fail "Figure 4 differs:
$d"

# the equations stated under the figure
r=$($CGT -e 'game dk = octal 0.07;
print dk(17) == dk(10) + *1, dk(19) == dk(12) + *1,
      genus(dk(10)) == genus(dk(19)), genus(dk(12)) == genus(dk(17));')
[ "$r" = "true true true true" ] || fail "equations under Figure 4: $r"
exit 0
