#!/bin/sh
# The genus engine (src/lib/heap/genus.c, which `genus` and `ptypes` use)
# against the independent oracle tests/oracle/genus_brute.c (no shared
# code; it searches P + k*2 by the definition, ONAG ch. 12, instead of the
# engine's recursion on γ): every heap 0..40 and 150 positions of 2 to 5
# heaps of total at most 40, drawn by a fixed generator, of 0.07, 0.77,
# 0.137 and 0.16 (0.07 and 0.16 have heaps with no move, which the engine
# drops from its positions).
set -u
CGT=${CGT:-build/cgt}
B=${BUILD:-build}
O=$B/oracle/genus_brute
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-genus.XXXXXX")
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
fail() { echo "FAIL: $*"; exit 1; }
[ -x "$O" ] || fail "no $O (make all builds it)"

seq 0 40 >"$T/pos"
awk 'BEGIN {
    x = 12345
    for (i = 0; i < 150; i++) {
        x = (x * 16807) % 2147483647; k = 2 + x % 4
        left = 40; line = ""
        for (j = 0; j < k; j++) {
            x = (x * 16807) % 2147483647; h = x % (left < 20 ? left + 1 : 21)
            left -= h; line = line (j ? " " : "") h
        }
        print line
    }
}' >>"$T/pos"
for code in 0.07 0.77 0.137 0.16; do
    "$O" $code <"$T/pos" >"$T/want" || fail "oracle $code"
    {
        echo "game g = octal $code;"
        sed 's/ /, /g; s/.*/print genus(g, [&]).genus;/' "$T/pos"
    } >"$T/s.cgt"
    $CGT "$T/s.cgt" >"$T/got" || fail "cgt on the positions of $code"
    if ! cmp -s "$T/want" "$T/got"; then
        line=$(paste "$T/want" "$T/got" | awk '$1 != $2 { print NR; exit }')
        fail "$code [$(sed -n "${line}p" "$T/pos")]: oracle $(sed -n "${line}p" "$T/want"), cgt $(sed -n "${line}p" "$T/got")"
    fi
done
n=$(wc -l <"$T/pos")
echo "genus of $n positions of 4 codes agrees with tests/oracle/genus_brute"
