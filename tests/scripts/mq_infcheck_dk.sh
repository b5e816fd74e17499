#!/bin/sh
# The proof that Q(34) of 0.07 (Dawson's Kayles) is infinite, as cgt's
# engine writes it (tests/data/mq-0.07-34.proof.gz, 1456 states), through
# the independent checker tests/oracle/mq_infcheck.c: it must be accepted,
# the theorem of docs/misere.md must be read off its verified labels, its
# labels must agree with a separate brute-force search, and one-change
# mutations must be rejected by the rule they break (resealed with xz's
# CRC-64 so that the deeper rule is reached).  About 10 s of CPU; the slow
# tier (mq_infcheck_slow.sh) runs more mutations and a larger search.
set -u
B=${BUILD:-build}
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-mq-infcheck-dk.XXXXXX") || exit 1
trap 'exit 1' INT TERM HUP
CHK=$B/oracle/mq_infcheck
fail() { echo "FAIL: $*"; exit 1; }
[ -x "$CHK" ] || fail "no $CHK"
command -v xz >/dev/null 2>&1 || fail "xz(1) is needed to seal the test files"
trap 'rm -rf "$T"' EXIT
gzip -dc tests/data/mq-0.07-34.proof.gz >"$T/base" || fail "cannot unpack the proof"
. tests/scripts/mq_lib

# Accepted, in the theorem's words; the pair count is the checker's own
# closure (the file holds no pairs).
"$CHK" -L 25 -A 12 -B 16 "$T/base" >"$T/out" || fail "the 0.07 proof is rejected: $(cat "$T/out")"
grep -q '^ok: misère 0.07, heaps <= 34: outcome of X + 34^a + 30^b = L(psi(X), a, b) for all X, a, b (1456 states, 172438 pairs, region a<=12 b<=7); the powers 34^a, a >= 0, are pairwise distinct (context 21 + 25 + 30^(a+0)): the misère quotient Q(34) is infinite.$' "$T/out" ||
    fail "verdict: $(head -n 1 "$T/out")"
# The theorem: for a >= 2, 25 + 34^a + 30^b is P exactly when b >= a and
# b - a is even; and 25 + 34 is P.
awk '/^L\(25\) a=/ { a = substr($2, 3) + 0; s = $3
        for (b = 0; b < length(s); b++) {
            want = (b >= a && (b - a) % 2 == 0) ? "P" : "N"
            if (a >= 2 && substr(s, b + 1, 1) != want) { print "a=" a " b=" b; bad = 1 }
        }
        if (a == 1 && substr(s, 1, 1) != "P") { print "25 + 34 is not P"; bad = 1 }
        rows++ }
     END { exit bad || rows != 13 }' "$T/out" || fail "the heap-25 table is not the theorem"

# The labels agree with a brute-force search (every position of at most 40
# tokens; random ones of at most 60, a quarter of their heaps 34 or 30).
"$CHK" -b 40 -r 300 -m 60 "$T/base" >"$T/out" || fail "brute force: $(cat "$T/out")"
grep -q ' 0 disagreeing' "$T/out" || fail "brute force: $(cat "$T/out")"

# Rule 1.
awk '$1 == "crc64" { c = substr($2, 16); $2 = substr($2, 1, 15) (c == "0" ? "1" : "0") } { print }' \
    "$T/base" >"$T/crc"
cmp -s "$T/base" "$T/crc" && fail "crc mutation changed nothing"
rejects "$T/crc" 1 crc
head -n 1000 "$T/base" >"$T/trunc"
rejects "$T/trunc" 1 truncated
mutate noact '/^act 17 /d' 1
mutate nolab '/^lab 700 5 /d' 1
mutate noopt '/^options 20 /d' 1
# Rule 2: heap 20 of 0.07 has 18, 1+17, ..., 9+9; replace 9+9 by 8+10 twice.
mutate opt20 '/^options 20 /s/ ; 9 9$/ ; 8 10/' 2
# Rules 4 and 7: flipped labels.  (0,0,0) is the empty position and (0,0,3)
# is 30+30+30, both fixed points of red (rule 7); (700,5,3) and (500,3,3)
# are not (rule 4); (900,7,1) is a fixed point read by the recursion.
flip l000 0 0 0 7
flip l003 0 0 3 7
flip l700 700 5 3 4
flip l500 500 3 3 4
flip l900 900 7 1 7
# Rule 7: actions changed.
setact a25 25 0 1 7
setact a2 2 0 5 7
setact a12 12 500 499 7
setact a1 1 7 8 7
# Reduction parameters (reduce 2 3 2 7 2, table 8 4, check 12 7) shifted
# by one: each breaks rule 4 or 5.  (t = 3 and a0 = 6 give valid weaker
# proofs and are accepted: see mq_infcheck_slow.sh.)
mutate t- 's/^reduce 2 3 2 7 2$/reduce 1 3 2 7 2/' 4
mutate b0- 's/^reduce 2 3 2 7 2$/reduce 2 2 2 7 2/' 4
mutate b0+ 's/^reduce 2 3 2 7 2$/reduce 2 4 2 7 2/' 4
mutate pb- 's/^reduce 2 3 2 7 2$/reduce 2 3 1 7 2/' 4
mutate pb+ 's/^reduce 2 3 2 7 2$/reduce 2 3 3 7 2/' 4
mutate a0+ 's/^reduce 2 3 2 7 2$/reduce 2 3 2 8 2/' 4
mutate pa- 's/^reduce 2 3 2 7 2$/reduce 2 3 2 7 1/' 4
mutate pa+ 's/^reduce 2 3 2 7 2$/reduce 2 3 2 7 3/' 4
mutate A1- 's/^check 12 7$/check 11 7/' 5
mutate B1- 's/^check 12 7$/check 12 6/' 5
# Rule 8: the witness changed (rules 1-7 hold, so the full closure runs).
mutate e+ 's/^witness 0 0 21 25$/witness 1 0 21 25/' 8
echo ok
