#!/bin/sh
# The independent checker tests/oracle/mq_infcheck.c on proof files of
# format cgt-misere-infinite 2 (docs/misere.md, "Proof file in k
# coordinates"), which it reads besides format 1.  One file is derived
# by hand (octal 0.3, k = 3); the valid files are built from proofs of
# format 1 by tests/scripts/infcheck_v2.py: the
# translation of Lemma 2 ("Lemma 1 is the case k = 2"), more coordinates
# whose groups hold heaps with the same action (k = 3 and 4, with period
# blocks) and the coordinates renumbered; each must be accepted, and its
# labels must agree with the checker's separate brute-force search.  Then
# one-change mutations, each rejected by the rule it breaks, and random
# token changes, each answered by exit 0, 1 or 2 and never a crash (under
# make check-asan the checker has the sanitizers).  Files are sealed with
# the CRC-64 that xz(1) computes, not with the checker's own.
set -u
B=${BUILD:-build}
CGT=${CGT:-build/cgt}
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-infcheck-v2.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
CHK=$B/oracle/mq_infcheck
PY="python3 tests/scripts/infcheck_v2.py"
fail() { echo "FAIL: $*"; exit 1; }
[ -x "$CHK" ] || fail "no $CHK"
command -v xz >/dev/null 2>&1 || fail "xz(1) is needed to seal the test files"
. tests/scripts/mq_lib
# accepts F PAIRS: exit 0, an ok line with that many pairs
accepts() {
    out=$("$CHK" "$1" 2>&1) || fail "$1 rejected: $out"
    case $out in "ok: "*"states, $2 pairs"*) ;; *) fail "$1: want $2 pairs: $out" ;; esac
}
# brute F: the labels agree with the memoised search
brute() {
    "$CHK" -b 24 -r 300 "$1" >"$T/brute.out" || fail "brute force on $1: $(cat "$T/brute.out")"
    grep -q ', 0 disagreeing' "$T/brute.out" || fail "brute force on $1: $(cat "$T/brute.out")"
}

# ---- valid files ----
# Q(12) of 0.76 as cgt proves it (format 1), translated two ways: by the
# script and by the checker's -T, byte for byte the same file.
"$CGT" -e "game g = octal 0.76; quotient q = g to 12 proof \"$T/p1\";" >/dev/null 2>&1 ||
    fail "cgt did not write the 0.76 proof"
"$CHK" "$T/p1" | grep -q '(22 states, 248 pairs,' || fail "format 1: $("$CHK" "$T/p1")"
$PY tr1 "$T/p1" >"$T/k2" && seal "$T/k2"
"$CHK" -T "$T/p1" >"$T/k2t" || fail "-T failed"
cmp -s "$T/k2" "$T/k2t" || fail "-T and the script translate 0.76 differently"
accepts "$T/k2" 248
brute "$T/k2"
# k = 3: heaps 1 and 6 of 0.76 have the same action, an involution: a
# third coordinate counting them with the period block (3; 0, 2).  The
# witness's context heap 1 becomes the count f_3 = 1.  k = 4: heaps 3 and 8,
# whose action has f^3 = f^1, a block (4; 1, 2).
$PY addgroup "$T/k2" 1 6 >"$T/k3" && seal "$T/k3"
grep -q '^block period 3 0 2$' "$T/k3" && grep -q '^counts 0 0 1$' "$T/k3" || fail "k3 file"
accepts "$T/k3" 692
brute "$T/k3"
$PY addgroup "$T/k3" 3 8 >"$T/k4" && seal "$T/k4"
grep -q '^block period 4 1 2$' "$T/k4" || fail "k4 file"
accepts "$T/k4" 220
brute "$T/k4"
# the coordinates renumbered: the pair block (1, 2) becomes (2, 4), (3, 1)
# (first coordinate above the second) and (4, 2); the closure is the same
for p in "3 1 4 2" "2 4 1 3" "4 2 3 1"; do
    $PY permute "$T/k4" $p >"$T/k4p" && seal "$T/k4p"
    accepts "$T/k4p" 220
done
brute "$T/k4p"
# the engine's proof of Q(34) of 0.07 in format 2 (1456 states)
gzip -dc tests/data/mq-0.07-34.proof.gz >"$T/dk1" || fail "cannot unpack the 0.07 proof"
"$CHK" -T "$T/dk1" >"$T/dk2" || fail "-T on 0.07"
accepts "$T/dk2" 172438
# stdin, usage
"$CHK" - <"$T/k3" | grep -q '^ok: ' || fail "format 2 from stdin"
"$CHK" -T "$T/k3" >/dev/null 2>&1; [ $? = 2 ] || fail "-T on a format-2 file: want exit 2"
"$CHK" -L 1 "$T/k3" >/dev/null 2>&1; [ $? = 2 ] || fail "-L on a format-2 file: want exit 2"

# ---- a file derived by hand: octal 0.3, heaps <= 5, k = 3 ----
# 0.3 takes one token, leaving 0 or 1 heap (heap K has the one option
# K-1), so every move removes one token and a position with T tokens is
# a misère P-position iff T is odd.  Groups {3}, {1} and {2, 4}: heaps 2
# and 4 have even sizes and do not change the parity, so with the state
# s = the parity of the heaps 5, lab(s; x) = P iff s + x_1 + x_2 is odd,
# whatever x_3 is: the period block (3; 0, 1), T_3 = 0; the pair block of
# format-1 file A of mq_infcheck.sh, (1, 2; t 0, b0 0, pb 2, a0 1, pa 2),
# T_1 = 2, T_2 = 1.  Options holding a growing heap: 4 -> 3, 2 -> 1, 3 -> 2,
# 5 -> 4, so u = (1, 1, 1) and D2 asks A_1 >= 1+2+1+2 = 6, A_2 >= 0+2+1+2 =
# 5, A_3 >= max(0+1, 1+2-1) = 2.  The closure: heap 5 (the only heap in no
# group) swaps the state and adds the option (s, e_3) (its option 4 is
# growing): (0, {}), (1, {(0, e_3)}), (0, {(1, e_3)}), then (1, {(0, e_3)})
# again: 3 pairs.  Q is finite (3^a is N or P by the parity of a alone), so
# rule 8 rejects the witness, after rules 1-7 hold.
cat >"$T/hand" <<'P'
cgt-misere-infinite 2
game octal 0.3
heaps 5
grow 3
group 1 1 3
group 2 1 1
group 3 2 2 4
options 1 1 -
options 2 1 1
options 3 1 2
options 4 1 3
options 5 1 4
states 2
act 5 1 0
block pair 1 2 0 1 0 2 1 2
block period 3 0 1
table 2 1 0
lab 0 0 0 N
lab 0 0 1 P
lab 0 1 0 P
lab 0 1 1 N
lab 0 2 0 N
lab 0 2 1 P
lab 1 0 0 P
lab 1 0 1 N
lab 1 1 0 N
lab 1 1 1 P
lab 1 2 0 P
lab 1 2 1 N
check 6 5 2
witness 1 0 0
counts 0 0 0
context
P
seal "$T/hand"
rejects "$T/hand" 8 "0.3 has a finite quotient"
"$CHK" "$T/hand" | grep -q 'rules 1-7 hold (2 states, 3 pairs)' || fail "0.3 by hand: $("$CHK" "$T/hand")"
brute "$T/hand"
# (1; 0, 1, 0), a fixed point of red, flipped: the cell holds every x_3,
# so it is wrong at once for heaps 2, 4 and both (rule 7); A_3 = 1 < p+m_3-1
# = 2 (rule 5)
sed 's/^lab 1 0 1 N$/lab 1 0 1 P/' "$T/hand" >"$T/hand2"; seal "$T/hand2"
rejects "$T/hand2" 7 "0.3 by hand, a label flipped"
sed 's/^check 6 5 2$/check 6 5 1/' "$T/hand" >"$T/hand3"; seal "$T/hand3"
rejects "$T/hand3" 5 "0.3 by hand, A_3 = 1"

# ---- mutations of the k = 3 file, each rejected by its rule ----
cp "$T/k3" "$T/base"
# its lines: block pair 1 2 1 1 2 2 3 2 / block period 3 0 2 / table 4 3 1 /
# check 8 6 3 / witness 1 0 1 / counts 0 0 1 / context
# Rule 1: syntax, order, ranges, every line once, the CRC.
awk '$1 == "crc64" { c = substr($2, 16); $2 = substr($2, 1, 15) (c == "0" ? "1" : "0") } { print }' \
    "$T/base" >"$T/crc"
rejects "$T/crc" 1 crc
tr a-f A-F <"$T/base" >"$T/crcuc"
grep -q '^crc64 [0-9]*[A-F]' "$T/crcuc" && rejects "$T/crcuc" 1 "upper-case crc"
head -n 40 "$T/base" >"$T/trunc"
rejects "$T/trunc" 1 truncated
head -c 1000 "$T/base" >"$T/trunc2"
rejects "$T/trunc2" 1 "truncated mid-line"
cp "$T/base" "$T/after"; printf 'x\n' >>"$T/after"
rejects "$T/after" 1 "text after end"
mutate version 's/^cgt-misere-infinite 2$/cgt-misere-infinite 3/' 1
mutate actdrop '/^act 2 /s/ [0-9]*$//' 1
mutate actline '/^act 5 /d' 1
mutate actgroup 's/^act 5 /act 6 /' 1
mutate actrange '/^act 2 /s/ 21$/ 22/' 1
mutate labdrop '/^lab 5 2 1 /d' 1
mutate labswap '/^lab 5 2 1 /s/^lab 5 2 1 /lab 5 2 2 /' 1
mutate lablen '/^lab 5 2 1 /s/$/N/' 1
mutate labchar '/^lab 5 2 1 /s/ \([PN]*\)$/ X/' 1
mutate optorder '/^options 3 /d; /^options 5 /a\
options 3 3 1 ; 2 ; 1 1' 1
mutate overlap 's/^group 3 2 1 6$/group 3 2 6 12/' 1
mutate unsorted 's/^group 3 2 1 6$/group 3 2 6 1/' 1
mutate groupm 's/^group 3 2 1 6$/group 3 3 1 6/' 1
mutate ctxgroup 's/^context$/context 12/' 1
mutate ctxgroup6 's/^context$/context 6/' 1
mutate blockorder '/^block pair /d; /^block period 3 /a\
block pair 1 2 1 1 2 2 3 2' 1
mutate twoblocks 's/^block period 3 0 2$/block period 2 0 2/' 1
mutate noblock '/^block period 3 /d' 1
mutate pairij 's/^block pair 1 2 /block pair 1 1 /' 1
mutate pzero 's/^block period 3 0 2$/block period 3 0 0/' 1
mutate a0t 's/^block pair 1 2 1 1 2 2 3 2$/block pair 1 2 1 1 2 2 1 2/' 1
mutate b0t 's/^block pair 1 2 1 1 2 2 3 2$/block pair 1 2 3 1 2 2 4 2/' 1
mutate witj 's/^witness 1 0 1$/witness 2 0 1/' 1
mutate witper 's/^witness 1 0 1$/witness 3 0 1/' 1
mutate witneg 's/^witness 1 0 1$/witness 1 -2 1/' 1
mutate fi 's/^counts 0 0 1$/counts 1 0 1/' 1
mutate zero0 's/^witness 1 0 1$/witness 1 0 01/' 1
mutate minus0 's/^witness 1 0 1$/witness 1 -0 1/' 1
mutate plus 's/^witness 1 0 1$/witness 1 +0 1/' 1
mutate big 's/^counts 0 0 1$/counts 0 0 4294967296/' 1
mutate space 's/^context$/context /' 1
mutate grow1 's/^grow 3$/grow 1/' 1
mutate comment 's/^states 22$/states 22 # the automaton/' 1
# Rule 2: an option that 0.76 does not have.
mutate opt '/^options 4 /s/ 1 2$/ 2 2/' 2
# Rule 3: a ruleset whose option does not lower 2*tokens - heaps.
mutate rank 's/^game octal 0.76$/game ruleset r/; /^options 2 /s/^options 2 1 1$/options 2 1 1 1 1/' 3
# Rule 4: the table box must be the blocks' bounds; D1.  A label that
# differs from its reduced point: (s; 2, 2, 0) reduces to (s; 1, 1, 0).
mutate box 's/^table 4 3 1$/table 4 3 2/' 4
flip3() { # NAME S X1 X2 X3 RULE: label (S; X1, X2, X3) flipped
    awk -v S="$2" -v A="$3" -v B="$4" -v C="$5" '$1 == "lab" && $2 == S && $3 == A && $4 == B {
        c = substr($5, C + 1, 1); $5 = substr($5, 1, C) (c == "P" ? "N" : "P") substr($5, C + 2); n++ }
        { print } END { exit n != 1 }' "$T/base" >"$T/$1" || fail "flip3 $1: no label"
    seal "$T/$1"
    rejects "$T/$1" "$6" "$1"
}
flip3 lab220 0 2 2 0 4
flip3 lab221 9 2 2 1 4
# every reduction parameter shifted by one, in each block (t = 2 keeps
# the table box and is a valid weaker proof: accepted)
sed 's/^block pair 1 2 1 1 2 2 3 2$/block pair 1 2 2 1 2 2 3 2/' "$T/base" >"$T/t+"; seal "$T/t+"
accepts "$T/t+" 692
mutate t- 's/^block pair 1 2 1 1 2 2 3 2$/block pair 1 2 0 1 2 2 3 2/' 4
mutate b0+ 's/^block pair 1 2 1 1 2 2 3 2$/block pair 1 2 1 1 3 2 3 2/' 4
mutate b0- 's/^block pair 1 2 1 1 2 2 3 2$/block pair 1 2 1 1 1 2 3 2/' 4
mutate pb+ 's/^block pair 1 2 1 1 2 2 3 2$/block pair 1 2 1 1 2 3 3 2/' 4
mutate pb- 's/^block pair 1 2 1 1 2 2 3 2$/block pair 1 2 1 1 2 1 3 2/' 4
mutate a0+ 's/^block pair 1 2 1 1 2 2 3 2$/block pair 1 2 1 1 2 2 4 2/' 4
mutate a0- 's/^block pair 1 2 1 1 2 2 3 2$/block pair 1 2 1 1 2 2 2 2/' 4
mutate pa+ 's/^block pair 1 2 1 1 2 2 3 2$/block pair 1 2 1 1 2 2 3 3/' 4
mutate pa- 's/^block pair 1 2 1 1 2 2 3 2$/block pair 1 2 1 1 2 2 3 1/' 4
mutate q0 's/^block pair 1 2 1 1 2 2 3 2$/block pair 1 2 1 0 2 2 3 2/' 1
mutate q2 's/^block pair 1 2 1 1 2 2 3 2$/block pair 1 2 1 2 2 2 3 2/' 5
mutate c+ 's/^block period 3 0 2$/block period 3 1 2/' 4
mutate p+ 's/^block period 3 0 2$/block period 3 0 3/' 4
mutate p- 's/^block period 3 0 2$/block period 3 0 1/' 4
# c = 1 of the k = 4 file's block (4; 1, 2) moved down
sed 's/^block period 4 1 2$/block period 4 0 2/' "$T/k4" >"$T/c-"; seal "$T/c-"
rejects "$T/c-" 4 "c-"
# ... and with the table line and the labels made to fit the new bounds
# (every label read at its reduced point under the old parameters), so
# that rules 1 and 4 on the box hold and D1 or the recursion must reject:
# c = 1 and the pair's b0 = 3 are weaker valid proofs and are accepted;
# with p = 1 the box has x_3 = 0 only, D1 holds, and heap 1 alone, a
# P-position, gets the label N of the empty position (rule 7); pb = 1 and
# pa = 1 keep D1 on their smaller boxes and fail the recursion (rule 7)
refit() { # NAME SED RULE|ok
    sed "$2" "$T/base" >"$T/$1.raw"
    python3 - "$T/$1.raw" "$T/base" >"$T/$1" <<'PY' || fail "refit $1"
import sys
sys.path.insert(0, "tests/scripts")
import infcheck_v2 as v
new, old = v.read(sys.argv[1]), v.read(sys.argv[2])
def red(d, x):
    y = list(x)
    for b in d["blocks"]:
        if b[0] == "period":
            i, c, p = b[1] - 1, b[2], b[3]
            if y[i] >= c + p: y[i] = c + (y[i] - c) % p
        else:
            i, j, t, q, b0, pb, a0, pa = b[1] - 1, b[2] - 1, *b[3:]
            a, bb = y[i], y[j]
            if a >= t + q and bb >= t + q: m = q * ((min(a, bb) - t) // q); a -= m; bb -= m
            if a < t + q:
                if bb >= b0 + pb: bb = b0 + (bb - b0) % pb
            elif a >= a0 + pa: a = a0 + (a - a0) % pa
            y[i], y[j] = a, bb
    return tuple(y)
T = [0] * new["k"]
for b in new["blocks"]:
    if b[0] == "period": T[b[1] - 1] = b[2] + b[3] - 1
    else: T[b[1] - 1] = b[7] + b[8] - 1; T[b[2] - 1] = b[5] + b[6] - 1
new["T"] = T
new["lab"] = {(s,) + x: old["lab"][(s,) + red(old, x)] for s in range(new["S"]) for x in v.boxes(T)}
v.write(new)
PY
    seal "$T/$1"
    if [ "$3" = ok ]; then "$CHK" "$T/$1" | grep -q '^ok: ' || fail "refit $1: $("$CHK" "$T/$1")"
    else rejects "$T/$1" "$3" "$1"; fi
}
refit c1 's/^block period 3 0 2$/block period 3 1 2/; s/^check 8 6 3$/check 8 6 4/' ok
refit b03 's/^block pair 1 2 1 1 2 2 3 2$/block pair 1 2 1 1 3 2 3 2/; s/^check 8 6 3$/check 8 7 3/' ok
refit p1 's/^block period 3 0 2$/block period 3 0 1/' 7
refit pb1 's/^block pair 1 2 1 1 2 2 3 2$/block pair 1 2 1 1 2 1 3 2/' 7
refit pa1 's/^block pair 1 2 1 1 2 2 3 2$/block pair 1 2 1 1 2 2 3 1/' 7
# Rule 5: the region (D2): A_1 >= a0+pa+u_2+2 = 8, A_2 >= b0+pb+u_1+2 = 6
# (heap 11 -> 1 + 9 ... no option holds two heaps 12 or two 7s: u = 1),
# A_3 >= max(c+p, p+m_3-1) = 3; t+1 >= m for the pair's groups.
mutate A1 's/^check 8 6 3$/check 7 6 3/' 5
mutate A2 's/^check 8 6 3$/check 8 5 3/' 5
mutate A3 's/^check 8 6 3$/check 8 6 2/' 5
# three heaps in the pair's group 1 with t = 1 (the region made large
# enough for the larger u_1 first); the bounds pb+m_j-1 and pa+m_i-1
# follow from the others and t+1 >= m, so no file breaks them alone
mutate tm 's/^group 1 1 12$/group 1 3 10 11 12/; /^act 10 /d; /^act 11 /d; s/^check 8 6 3$/check 20 20 3/' 5
out=$("$CHK" "$T/tm")
case $out in *"t+1 = 2 < m_1 = 3"*) ;; *) fail "t+1 >= m: $out" ;; esac
# Rule 7: an action changed, and a group whose heaps act differently
# (heaps 1 and 5: labels right for F_3 = {1} are wrong for {5}); the
# brute force sees the second too.
setact act2 2 0 1 7
$PY addgroup-forced "$T/k2" 1 5 >"$T/mixed" && seal "$T/mixed"
rejects "$T/mixed" 7 "group of heaps 1 and 5"
"$CHK" -b 16 "$T/mixed" >"$T/out"; rc=$?
[ $rc = 1 ] && grep -q '^disagree: ' "$T/out" || fail "brute force misses the mixed group (rc $rc)"
flip3 lab000 0 0 0 0 7
flip3 lab001 0 0 0 1 7
# Rule 8: witnesses that do not separate: a_min = 0 (12^0 and 12^1 with
# 1 + 7^0 are both P), no heap 1 (f_3 = 0), e = 1.
mutate amin0 's/^witness 1 0 1$/witness 1 0 0/' 8
mutate f30 's/^counts 0 0 1$/counts 0 0 0/' 8
mutate e1 's/^witness 1 0 1$/witness 1 1 1/' 8
out=$("$CHK" "$T/f30")
case $out in *"does not separate"*"rules 1-7 hold"*) ;; *) fail "rule 8 detail: $out" ;; esac

# ---- hostile input: 150 files with one token changed (resealed), and
# the checker's limits; every answer is exit 0, 1 or 2 ----
awk -v seed=7 'BEGIN { srand(seed) } { line[NR] = $0 } END {
    split("0 1 2 -1 -0 00 3 22 4294967295 4294967296 2147483648 -2147483648 99999999 ; - x P N", v, " ")
    for (f = 0; f < 150; f++) {
        r = 1 + int(rand() * (NR - 2)); n = split(line[r], t, " "); i = 1 + int(rand() * n)
        t[i] = v[1 + int(rand() * 17)]; s = t[1]; for (j = 2; j <= n; j++) s = s " " t[j]
        file = sprintf("%s/h%03d", dir, f)
        for (j = 1; j <= NR; j++) print (j == r ? s : line[j]) > file
        close(file)
    } }' dir="$T" "$T/base"
codes=
for f in "$T"/h[0-9][0-9][0-9]; do
    seal "$f"
    "$CHK" "$f" >"$T/out" 2>&1; rc=$?
    case $rc in 0 | 1 | 2) codes="$codes$rc" ;; *) fail "exit $rc on $f: $(head -c 300 "$T/out")" ;; esac
    grep -q 'runtime error\|AddressSanitizer' "$T/out" && fail "sanitizer report on $f"
done
case $codes in *1*) ;; *) fail "no mutation rejected" ;; esac
# sizes the checker refuses with exit 2: a region of 2^32 points
sed 's/^check 8 6 3$/check 65535 65535 3/' "$T/base" >"$T/huge"; seal "$T/huge"
"$CHK" "$T/huge" >"$T/out" 2>&1; [ $? = 2 ] || fail "huge region: want exit 2: $(cat "$T/out")"
grep -q 'larger than this checker holds' "$T/out" || fail "huge region message: $(cat "$T/out")"
# a table larger than the file's labels: rule 1, nothing allocated
sed 's/^block period 3 0 2$/block period 3 4294967295 2/; s/^table 4 3 1$/table 4 3 4294967296/' \
    "$T/base" >"$T/bigt"; seal "$T/bigt"
rejects "$T/bigt" 1 "table bound past 32 bits"
sed 's/^block period 3 0 2$/block period 3 4000000000 2/; s/^table 4 3 1$/table 4 3 4000000001/' \
    "$T/base" >"$T/bigt2"; seal "$T/bigt2"
rejects "$T/bigt2" 1 "table larger than the file"
echo ok
