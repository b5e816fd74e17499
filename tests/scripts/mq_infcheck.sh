#!/bin/sh
# The independent checker of infinite-quotient proofs, tests/oracle/
# mq_infcheck.c (format cgt-misere-infinite 1, docs/misere.md), on small
# hand-written files: each accepted or rejected file below is derived by hand
# in the comments, and each rejection must name the rule that fails.  Files
# are sealed with a CRC-64/XZ computed by xz(1), not by the checker.
set -u
B=${BUILD:-build}
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-mq-infcheck.XXXXXX") || exit 1
trap 'exit 1' INT TERM HUP
CHK=$B/oracle/mq_infcheck
fail() { echo "FAIL: $*"; exit 1; }
[ -x "$CHK" ] || fail "no $CHK"
command -v xz >/dev/null 2>&1 || fail "xz(1) is needed to seal the test files"
trap 'rm -rf "$T"' EXIT

. tests/scripts/mq_lib

# The CRC itself: the catalogue check value of CRC-64/XZ, through xz.
printf 123456789 >"$T/c"
xz -z -c --check=crc64 "$T/c" | xz --robot -lvv - 2>/dev/null | grep -q 995dc9bbdf1939fa ||
    { xz -z -c --check=crc64 "$T/c" >"$T/c.xz" &&
      xz --robot -lvv "$T/c.xz" | grep -q 995dc9bbdf1939fa; } ||
    fail "xz does not give the CRC-64/XZ check value"

# ---- File A: octal 0.3, heaps <= 5, top 3, partner 1 ----
# 0.3: take one token, leaving 0 or 1 heap, so heap K has the one option K-1
# (heap 1: the empty option).  Every move removes one token, so a position
# with T tokens lasts exactly T moves; misère, the player who makes the last
# move loses: P iff T is odd (T = 0: no move, N).  Heaps other than 3 and 1
# are 2, 4, 5; psi(X) = tokens of X mod 2 (act 2 and act 4 fix the state,
# act 5 swaps 0 and 1), and X + 3^a + 1^b has T = psi + a + b mod 2, so
# lab(s, a, b) = P iff s + a + b is odd.  That only depends on a + b, which
# the diagonal step keeps: t = 0, b-period from b0 = 0 with pb = 2, a-period
# from a0 = 1 with pa = 2.  red's image is a = 0, b < 2 and 0 < a < 3, b = 0,
# so the table is a <= 2, b <= 1.  Options holding 3 or 1: heap 4 -> 3 and
# heap 2 -> 1, so ua = ub = 1 and the region needs B1 >= 0+2+1+2 = 5 and
# A1 >= 1+2+1+2 = 6.  Rules 1-7 hold.  The quotient is finite (two
# classes of 3^a), so no witness exists: rule 8 must reject e = 0, a_min = 0
# (3^0 and 3^2 are both N with no context).
cat >"$T/base" <<'P'
cgt-misere-infinite 1
game octal 0.3
heaps 5
top 3
partner 1
options 1 1 -
options 2 1 1
options 3 1 2
options 4 1 3
options 5 1 4
states 2
act 2 0 1
act 4 0 1
act 5 1 0
reduce 0 0 2 1 2
table 2 1
lab 0 0 NP
lab 0 1 PN
lab 0 2 NP
lab 1 0 PN
lab 1 1 NP
lab 1 2 PN
check 6 5
witness 0 0
P
seal "$T/base"
rejects "$T/base" 8 "0.3 has a finite quotient"
out=$("$CHK" "$T/base")
case $out in *"separate 3^0 and 3^2"*) ;; *) fail "rule 8 detail: $out" ;; esac
# the labels agree with a separate brute-force search
"$CHK" -b 24 -r 300 "$T/base" >"$T/out" || fail "brute force on 0.3: $(cat "$T/out")"
grep -q ', 0 disagreeing' "$T/out" || fail "brute force: $(cat "$T/out")"
# stdin
"$CHK" - <"$T/base" | grep -q '^rejected: rule 8:' || fail "reading from stdin"

# Rule 1: format, ranges, every line once, CRC.
sed 's/^crc64 \(.\)/crc64 0/; s/^crc64 00/crc64 11/' "$T/base" >"$T/crc"
rejects "$T/crc" 1 "corrupted crc"
head -n 24 "$T/base" >"$T/trunc"
rejects "$T/trunc" 1 "truncated (no crc, no end)"
head -c 200 "$T/base" >"$T/trunc2"
rejects "$T/trunc2" 1 "truncated mid-line"
mutate version 's/^cgt-misere-infinite 1$/cgt-misere-infinite 2/' 1
mutate noact '/^act 4 /d' 1
mutate twoact 's/^act 4 0 1$/act 2 0 1/' 1
mutate actrange 's/^act 5 1 0$/act 5 2 0/' 1
mutate nolab '/^lab 1 2 /d' 1
mutate labchar 's/^lab 1 2 PN$/lab 1 2 PX/' 1
mutate lablen 's/^lab 1 2 PN$/lab 1 2 PNN/' 1
mutate twospace 's/^heaps 5$/heaps  5/' 1
mutate topeqpartner 's/^partner 1$/partner 3/' 1
mutate t_up 's/^reduce 0 0 2 1 2$/reduce 1 0 2 1 2/' 1
mutate a0_down 's/^reduce 0 0 2 1 2$/reduce 0 0 2 0 2/' 1
mutate pb_zero 's/^reduce 0 0 2 1 2$/reduce 0 0 0 1 2/' 1
mutate witheap 's/^witness 0 0$/witness 0 0 3/' 1
mutate negwit 's/^witness 0 0$/witness -1 0/' 1
cp "$T/base" "$T/after"; printf 'x\n' >>"$T/after"
rejects "$T/after" 1 "text after end"

# Rule 2: the options of 0.3 computed from the code.
mutate optwrong 's/^options 4 1 3$/options 4 1 2/' 2
mutate optmore 's/^options 4 1 3$/options 4 2 3 ; 1 2/' 2
mutate optdup 's/^options 4 1 3$/options 4 2 3 ; 3/' 2
mutate optfewer 's/^options 1 1 -$/options 1 0/' 2
mutate code 's/^game octal 0.3$/game octal 0.7/' 2
mutate code8 's/^game octal 0.3$/game octal 0.38/' 2
mutate code0 's/^game octal 0.3$/game octal 2.3/' 2
# 0.07 (Dawson's Kayles), heaps <= 6, by hand: take two, leaving 0, 1 or 2
# heaps: 1: none; 2: -; 3: 1; 4: 2, 1+1; 5: 3, 1+2; 6: 4, 1+3, 2+2.  The
# options must pass rule 2 (in any order, heaps of an option in any order);
# the file then fails later (its labels are not those of 0.07).
cat >"$T/dk" <<'P'
cgt-misere-infinite 1
game octal 0.07
heaps 6
top 6
partner 5
options 1 0
options 3 1 1
options 2 1 -
options 6 3 2 2 ; 3 1 ; 4
options 4 2 1 1 ; 2
options 5 2 2 1 ; 3
states 1
act 1 0
act 2 0
act 3 0
act 4 0
reduce 0 0 1 1 1
table 1 0
lab 0 0 N
lab 0 1 N
check 5 5
witness 0 0
P
seal "$T/dk"
out=$("$CHK" "$T/dk")
case $out in "rejected: rule "[34567]*) ;; *) fail "0.07 options by hand: $out" ;; esac
sed 's/^options 6 3 2 2 ; 3 1 ; 4$/options 6 3 2 2 ; 3 1 ; 3/' "$T/dk" >"$T/dk2"; seal "$T/dk2"
rejects "$T/dk2" 2 "0.07 heap 6 with 3 for 4"
# hex 0.F, heaps <= 4, by hand: take one, leaving 0, 1, 2 or 3 heaps:
# 1: -; 2: 1; 3: 2, 1+1; 4: 3, 1+2, 1+1+1.  And 4.0 (split only):
# 1: none; 2: 1+1; 3: 1+2; 4: 1+3, 2+2.
for g in "hex 0.F|-|1|2 ; 1 1|3 ; 1 2 ; 1 1 1" "octal 4.0||1 1|1 2|1 3 ; 2 2"; do
    code=${g%%|*}; rest=${g#*|}
    {
        printf 'cgt-misere-infinite 1\ngame %s\nheaps 4\ntop 4\npartner 3\n' "$code"
        k=1
        for o in "${rest%%|*}" "$(echo "$rest" | cut -d'|' -f2)" "$(echo "$rest" | cut -d'|' -f3)" \
                 "$(echo "$rest" | cut -d'|' -f4)"; do
            if [ -z "$o" ]; then printf 'options %d 0\n' $k
            else printf 'options %d %d %s\n' $k $(($(echo "$o" | tr -cd ';' | wc -c) + 1)) "$o"; fi
            k=$((k + 1))
        done
        printf 'states 1\nact 1 0\nact 2 0\nreduce 0 0 1 1 1\ntable 1 0\nlab 0 0 N\nlab 0 1 N\n'
        printf 'check 5 5\nwitness 0 0\n'
    } >"$T/g"
    seal "$T/g"
    out=$("$CHK" "$T/g")
    case $out in "rejected: rule "[34567]*) ;; *) fail "$code options by hand: $out" ;; esac
done

# Rule 3: a ruleset whose options are trusted but must lower 2*tokens-heaps.
mutate loop 's/^game octal 0.3$/game ruleset loop/; s/^options 2 1 1$/options 2 1 1 1 1/' 3
# (1+1 from heap 2 has rank 2 < 3 and is allowed; 1+1+1 is not)
sed 's/^game octal 0.3$/game ruleset split/; s/^options 2 1 1$/options 2 1 1 1/' "$T/base" >"$T/split"
seal "$T/split"
out=$("$CHK" "$T/split")
case $out in "rejected: rule "[4-8]*) ;; *) fail "ruleset 2 -> 1+1: $out" ;; esac

# Rule 4: a label that differs from its reduced point, and tables too small
# for red's image.  (0,2,1) reduces to (0,1,0): flipping it is rule 4.
mutate labred 's/^lab 0 2 NP$/lab 0 2 NN/' 4
mutate b0_up 's/^reduce 0 0 2 1 2$/reduce 0 1 2 1 2/' 4
mutate pb_down 's/^reduce 0 0 2 1 2$/reduce 0 0 1 1 2/' 4
mutate pb_up 's/^reduce 0 0 2 1 2$/reduce 0 0 3 1 2/' 4
mutate a0_up 's/^reduce 0 0 2 1 2$/reduce 0 0 2 2 2/' 4
mutate pa_down 's/^reduce 0 0 2 1 2$/reduce 0 0 2 1 1/' 4
mutate pa_up 's/^reduce 0 0 2 1 2$/reduce 0 0 2 1 3/' 4

# Rule 5: the region must reach b0+pb+ua+2 = 5 and a0+pa+ub+2 = 6.
mutate region_b 's/^check 6 5$/check 6 4/' 5
mutate region_a 's/^check 6 5$/check 5 5/' 5

# Rule 7: labels that are fixed points of red but wrong, and wrong actions.
# (0,0,0) is the empty position, N (flipped with (0,1,1), which reduces to
# it, so that rule 4 holds); (0,2,0) is 3+3 = 6 tokens, N.
mutate empty 's/^lab 0 0 NP$/lab 0 0 PP/; s/^lab 0 1 PN$/lab 0 1 PP/' 7
mutate lab20 's/^lab 0 2 NP$/lab 0 2 PP/' 7
mutate act5 's/^act 5 1 0$/act 5 0 1/' 7
mutate act2 's/^act 2 0 1$/act 2 1 0/' 7
# heap 3's option 2 listed as 1 in a ruleset: the recursion no longer holds
mutate opt3 's/^game octal 0.3$/game ruleset r/; s/^options 3 1 2$/options 3 1 1/' 7
# the brute force must see a wrong label too (the same flip as lab20)
sed 's/^lab 0 2 NP$/lab 0 2 PP/' "$T/base" >"$T/bad"; seal "$T/bad"
"$CHK" -b 12 "$T/bad" >"$T/out"; rc=$?
[ $rc = 1 ] && grep -q '^disagree: ' "$T/out" || fail "brute force misses a wrong label (rc $rc)"

# ---- File B: hex 0.F, a closure of a known size ----
# 0.F takes one token and leaves up to three heaps, so again P iff the token
# count is odd.  The generator below gives each of the k heap sizes other than
# H and G (both odd) a bit: psi(X) = the parities of their counts, 2^k states.
# Options of X + K change bit K and bits below it, and every heap has an
# option, so the options of X determine the set of sizes present in X (the
# highest changed bit of each option); a pair is a set P of present sizes
# with a parity vector inside it: sum over P of 2^|P| = 3^k pairs.
cat >"$T/gen.awk" <<'AWK'
function cnt(x, y, z,   h, g) {
    h = (x == H) + (y == H) + (z == H); g = (x == G) + (y == G) + (z == G)
    if (h > ua) ua = h
    if (g > ub) ub = g
}
# hex 0.F (take one token, leave at most three heaps), heaps <= N, top H,
# partner G (both odd): every move removes one token, so P iff the token
# count is odd.  States: the parity of the count of each other heap size.
BEGIN {
    nt = 0
    for (k = 1; k <= N; k++) if (k != H && k != G) { idx[k] = nt; typ[nt] = k; nt++ }
    S = 2 ^ nt
    print "cgt-misere-infinite 1"; print "game hex 0.F"
    print "heaps " N; print "top " H; print "partner " G
    for (k = 1; k <= N; k++) {
        r = k - 1; m = 0; line = ""
        if (r == 0) { line = " -"; m = 1 }
        else {
            line = " " r; m = 1; cnt(r, 0, 0)
            for (x = 1; 2 * x <= r; x++) { line = line " ; " x " " (r - x); m++; cnt(x, r - x, 0) }
            for (x = 1; 3 * x <= r; x++) for (y = x; x + 2 * y <= r; y++) {
                line = line " ; " x " " y " " (r - x - y); m++; cnt(x, y, r - x - y)
            }
        }
        print "options " k " " m line
    }
    print "states " S
    for (i = 0; i < nt; i++) {
        line = "act " typ[i]
        b = 2 ^ i
        for (s = 0; s < S; s++) line = line " " (int(s / b) % 2 ? s - b : s + b)
        print line
    }
    print "reduce 0 0 2 1 2"; print "table 2 1"
    for (s = 0; s < S; s++) {
        p = 0
        for (i = 0; i < nt; i++) if (int(s / 2 ^ i) % 2 && typ[i] % 2) p = 1 - p
        for (a = 0; a <= 2; a++) {
            str = ""
            for (bb = 0; bb <= 1; bb++) str = str ((p + a + bb) % 2 ? "P" : "N")
            print "lab " s " " a " " str
        }
    }
    print "check " (1 + 2 + ub + 2) " " (2 + ua + 2); print "witness 0 0"
}
AWK
gen0f() { awk -v N="$1" -v H="$2" -v G="$3" -f "$T/gen.awk" >"$T/$4"; seal "$T/$4"; }
gen0f 13 13 11 f13
rejects "$T/f13" 8 "hex 0.F, 13 13 11"
"$CHK" "$T/f13" | grep -q '(2048 states, 177147 pairs)' || fail "0.F: want 3^11 pairs: $("$CHK" "$T/f13")"
gen0f 12 3 5 f12   # options 3+3+3 of heap 10: ua = 3
"$CHK" "$T/f12" | grep -q '(1024 states, 59049 pairs)' || fail "0.F: want 3^10 pairs: $("$CHK" "$T/f12")"
gen0f 10 9 7 f10
"$CHK" -b 36 -r 500 "$T/f10" >"$T/out" || fail "brute force on 0.F: $(cat "$T/out")"
# one act value wrong in the large file (state 2 -> 1 instead of 0, so
# the parity of the count of heap 1 is wrong): rule 7
awk '$1 == "act" && $2 == 2 { $5 = $5 + 1 } { print }' "$T/f12" >"$T/f12b"; seal "$T/f12b"
rejects "$T/f12b" 7 "0.F act 2 changed"

# ---- usage and I/O ----
"$CHK" >/dev/null 2>&1; [ $? = 2 ] || fail "no argument: want exit 2"
"$CHK" "$T/nonexistent" >/dev/null 2>&1; [ $? = 2 ] || fail "missing file: want exit 2"
"$CHK" -x 3 "$T/base" >/dev/null 2>&1; [ $? = 2 ] || fail "bad option: want exit 2"
echo ok
