#!/bin/sh
#@ tier: slow
# Infinite quotients carried past their heap (docs/misere.md, "Beyond the
# first infinite heap"): `quotient q = G to N+2` for 0.07 (infinite from
# 34), 0.137 (33) and 0.4 (35) must describe Q(N+1), say that heap N+2 is
# not covered and why, and write the proof in format 2.  Then
#  - the independent checker tests/oracle/mq_infcheck accepts each proof,
#    and its own brute force (-b, -r) agrees with every label it reaches;
#  - `outcome` on positions with the new heap N+1 (with up to three more
#    heaps, with one of the two growing heaps, and random many-heap positions)
#    agrees with the brute-force search tests/oracle/mq_brute (no code
#    shared with cgt);
#  - heaps above N+1 are refused;
#  - Ctrl-C while heap 35 of 0.07 is being carried keeps Q(34) and its
#    proof (BEYOND_SKIP_STOP=1 skips this part).
# BEYOND_GAMES="CODE N G SEED X R GROW,..." runs a part.  About a minute of
# CPU and 250 MB per game.
set -u
BUILD=${BUILD:-build}
CGT=${CGT:-build/cgt}
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-beyond.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
BRUTE=$BUILD/oracle/mq_brute
CHECK=$BUILD/oracle/mq_infcheck
[ -x "$BRUTE" ] || { echo "missing $BRUTE (make all)"; exit 1; }
[ -x "$CHECK" ] || { echo "missing $CHECK (make all)"; exit 1; }
fail() { echo "$*"; exit 1; }
# game, infinite heap, partner, seed, token budgets of the brute force
# beside the new heap (fixed part, random part), and 1 to add positions
# with a growing heap beside the new one (0.4 has many more options: the
# brute force of 36 + 35 does not end in minutes; mq_infcheck -b covers
# its growing heaps instead)
GAMES=${BEYOND_GAMES:-"0.07 34 30 1 24 22 1,0.137 33 29 2 24 22 1,0.4 35 31 3 16 14 0"}
IFS0=$IFS
IFS=,
for spec in $GAMES; do
    IFS=$IFS0
    set -- $spec
    code=$1 n=$2 g=$3 seed=$4 xmax=$5 rmax=$6 grow=$7
    m=$((n + 1))
    proof="$T/$code-$m.proof"
    rm -f "$proof"
    awk -v n="$n" -v m="$m" -v g="$g" -v seed="$seed" -v xm="$xmax" -v rm="$rmax" -v gr="$grow" '
    BEGIN {
        for (x = 0; x <= xm; x++) for (y = 0; y <= x; y++) for (z = 0; z <= y; z++)
            if (x + y + z <= xm) print m, x, y, z;
        for (x = 0; x <= 4 && gr; x++) { print m, n, x; print m, g, x; }
        srand(seed);
        for (i = 0; i < 300; i++) {
            s = m; line = m;
            while (s < m + rm) { h = 1 + int(rand() * 6); s += h; line = line " " h; }
            print line;
        }
    }' >"$T/b.pos"
    {
        printf 'game gm = octal %s;\nquotient q = gm to %s proof "%s";\nprint q;\nprint maxheap(q);\n' \
            "$code" "$((n + 2))" "$proof"
        sed 's/ /, /g; s/^/print outcome(q, [/; s/$/]).misere;/' "$T/b.pos"
        # a heap past the description is refused: the script ends there
        printf 'outcome q [%s];\n' "$((m + 1))"
    } >"$T/b.cgt"
    "$CGT" "$T/b.cgt" >"$T/b.out" 2>"$T/b.err"
    rc=$?
    [ "$rc" = 1 ] || { cat "$T/b.err"; fail "$code: cgt exit $rc, not 1 (the refused heap)"; }
    grep -q "covers heaps up to $m" "$T/b.err" || { cat "$T/b.err"; fail "$code: no range hint"; }
    grep -q "^Q($m) of $code is INFINITE$" "$T/b.out" || fail "$code: no INFINITE verdict for Q($m)"
    grep -q "^  infinite from heap $n on (decided there); the description below is carried to heap $m " \
        "$T/b.out" || fail "$code: not carried to heap $m"
    grep -q "^  not described past heap $m: heap $((n + 2)) acts as no state" "$T/b.out" ||
        fail "$code: no reason for heap $((n + 2))"
    grep -q "^  finite part: Q($((n - 1)))" "$T/b.out" || fail "$code: wrong finite part"
    grep -qx "$m" "$T/b.out" || fail "$code: maxheap is not $m"
    head -n 3 "$proof" | tr '\n' ' ' | grep -q "^cgt-misere-infinite 2 game octal $code heaps $m " ||
        fail "$code: proof file is not format 2 for heaps 1..$m"
    "$CHECK" "$proof" >"$T/b.chk" 2>&1 || { cat "$T/b.chk"; fail "$code: checker rejects"; }
    grep -q '^ok' "$T/b.chk" || { cat "$T/b.chk"; fail "$code: checker said no ok"; }
    "$CHECK" -b "$((m + 8))" -r 300 "$proof" >"$T/b.chk" 2>&1 ||
        { cat "$T/b.chk"; fail "$code: the checker's brute force disagrees"; }
    grep -E '^[PN]$' "$T/b.out" >"$T/b.res"
    "$BRUTE" "$code" <"$T/b.pos" >"$T/b.bf" || fail "$code: brute force failed"
    [ "$(wc -l <"$T/b.pos")" -eq "$(wc -l <"$T/b.res")" ] || fail "$code: missing outcomes"
    cmp -s "$T/b.res" "$T/b.bf" ||
        { paste -d' ' "$T/b.pos" "$T/b.res" "$T/b.bf" | awk '$(NF-1) != $NF' | head;
          fail "$code: description disagrees with brute force"; }
done
IFS=$IFS0
[ -n "${BEYOND_SKIP_STOP:-}" ] && { echo ok; exit 0; }
# Ctrl-C while heap 35 of 0.07 is being carried (sent when -v says the
# first candidate's whole closure is being certified, several seconds of
# work before its end): exit 130, the description of heap 34 kept as the
# partial result, its proof written (format 1: heaps 1..34) and accepted
. tests/scripts/stop_lib
proof="$T/stop.proof"
rm -f "$T/s.err" "$proof"
(cpu_exec 600 $CGT -v -e "game gm = octal 0.07; quotient q = gm to 40 proof \"$proof\";") \
    >/dev/null 2>"$T/s.err" &
pid=$!
wait_for "$T/s.err" 'heap 35 past the infinite heap 34: candidate state [0-9]+ passes' $pid ||
    fail "stop: no progress line: $(tail -n 3 "$T/s.err")"
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] || fail "stop: SIGINT exit $rc: $(tail -n 3 "$T/s.err")"
grep -q "hint: q holds Q(34), infinite, described up to heap 34; its proof is in $proof" "$T/s.err" ||
    fail "stop: the message: $(tail -n 3 "$T/s.err")"
head -n 1 "$proof" | grep -q '^cgt-misere-infinite 1$' || fail "stop: proof not written"
"$CHECK" "$proof" >"$T/s.chk" 2>&1 || { cat "$T/s.chk"; fail "stop: checker rejects"; }
echo ok
