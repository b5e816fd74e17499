#!/bin/sh
#@ tier: slow
#@ timeout: 600
# The slow tier of the proof checker tests/oracle/mq_infcheck.c on the
# 0.07 proof (tests/data/mq-0.07-34.proof.gz; the fast tier is
# mq_infcheck_dk.sh): a brute-force search over every position of at most 68
# tokens (so 34 + 34 and 34 + 30 with context) and random ones, more
# mutations that need the full closure, two parameter shifts that give valid
# weaker proofs, and a closure of 3^12 pairs whose size is known by hand.
# Also the engine's proofs for 0.137 (heap 33) and 0.4 (heap 35).  About
# 2 minutes of CPU.
set -u
B=${BUILD:-build}
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-mq-infcheck-slow.XXXXXX") || exit 1
trap 'exit 1' INT TERM HUP
CHK=$B/oracle/mq_infcheck
fail() { echo "FAIL: $*"; exit 1; }
[ -x "$CHK" ] || fail "no $CHK"
trap 'rm -rf "$T"' EXIT
gzip -dc tests/data/mq-0.07-34.proof.gz >"$T/base" || fail "cannot unpack the proof"
. tests/scripts/mq_lib

"$CHK" -b 68 -r 3000 -m 76 "$T/base" >"$T/out" || fail "brute force: $(cat "$T/out")"
grep -q ' 0 disagreeing' "$T/out" || fail "brute force: $(cat "$T/out")"

# Witness mutations: 21 + 30^a alone does not separate 34^0 from 34^2;
# e = -1, and an extra heap 4 in the context, fail too.
mutate w25 's/^witness 0 0 21 25$/witness 0 0 21/' 8
mutate w21 's/^witness 0 0 21 25$/witness 0 0 25/' 8
mutate e- 's/^witness 0 0 21 25$/witness -1 1 21 25/' 8
mutate wadd 's/^witness 0 0 21 25$/witness 0 0 21 25 4/' 8
# a label of the last state, a fixed point of red: found at the last pairs
flip l1455 1455 0 0 7
# t = 3 (a weaker diagonal: from 3 instead of 2) and a0 = 6 (the a-period
# already holds from 6) still satisfy rules 4-8: both are valid proofs of
# the same theorem and must be accepted.
for r in "3 3 2 7 2" "2 3 2 6 2"; do
    sed "s/^reduce 2 3 2 7 2\$/reduce $r/" "$T/base" >"$T/weak"; seal "$T/weak"
    "$CHK" "$T/weak" | grep -q 'Q(34) is infinite' || fail "reduce $r: $("$CHK" "$T/weak")"
done

# The proofs for 0.137 at heap 33 and 0.4 at heap 35 (engine files, the
# same 1456-state structure shifted): accepted, the heap-24 (heap-26) table
# is the 0.07 theorem's, and the labels agree with the search up to 60 tokens.
for g in "0.137 33 29 20 24" "0.4 35 31 22 26"; do
    set -- $g
    gzip -dc "tests/data/mq-$1-$2.proof.gz" >"$T/p" || fail "cannot unpack $1"
    "$CHK" -L "$5" -A 10 -B 14 "$T/p" >"$T/out" || fail "$1 rejected: $(cat "$T/out")"
    grep -q "^ok: misère $1, heaps <= $2: .* (1456 states, 172438 pairs, region a<=12 b<=7); the powers $2^a, a >= 0, are pairwise distinct (context $4 + $5 + $3^(a+0)): the misère quotient Q($2) is infinite.\$" "$T/out" ||
        fail "$1 verdict: $(head -n 1 "$T/out")"
    awk '/^L\(/ { a = substr($2, 3) + 0; s = $3
            for (b = 0; b < length(s); b++)
                if (a >= 2 && substr(s, b + 1, 1) != ((b >= a && (b - a) % 2 == 0) ? "P" : "N")) bad = 1
            rows++ }
         END { exit bad || rows != 11 }' "$T/out" || fail "$1: the heap-$5 table is not the theorem's"
    "$CHK" -b 60 -r 1000 -m 72 "$T/p" >"$T/out" || fail "$1 brute force: $(cat "$T/out")"
    grep -q ' 0 disagreeing' "$T/out" || fail "$1 brute force: $(cat "$T/out")"
done

# hex 0.F, heaps <= 14, top 13, partner 11: 12 other sizes, 3^12 pairs
# (see mq_infcheck.sh for the argument and the generator).
sed -n "/^cat >\"\$T\/gen.awk\" <<'AWK'\$/,/^AWK\$/p" tests/scripts/mq_infcheck.sh | sed '1d;$d' >"$T/gen.awk"
awk -v N=14 -v H=13 -v G=11 -f "$T/gen.awk" >"$T/f14"; seal "$T/f14"
"$CHK" "$T/f14" | grep -q '(4096 states, 531441 pairs)' || fail "0.F 14: $("$CHK" "$T/f14")"
echo ok
