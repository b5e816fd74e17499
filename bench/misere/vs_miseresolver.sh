#!/bin/sh
# The 22 games compared with MisereSolver: each `quotient q = G to N`
# through cgt with --stats (construction and certificate CPU, whole-process
# CPU and peak RSS), beside reference figures for MisereSolver (CGSuite's
# Java solver, solver-thread CPU, measured on a machine like ours and
# supplied with the project's targets; MisereSolver itself is not run here:
# "-" where no figure was given), with the ratios and the targets (total CPU
# at most 1/10 of the reference, under 0.05 s where the reference is under
# 0.5 s; RSS at most the reference's; certificate at most twice the
# construction). Results: docs/performance.md.
# Usage: bench/misere/vs_miseresolver.sh [BUILD-DIR]; REPS=N runs (median; default 3).
B=${1:-build}
REPS=${REPS:-3}
# game heap reference-CPU-s reference-RSS-MB (MisereSolver's reference figures)
rows="0.07 33 14.9 154
0.35 16 34.0 168
4.7 37 44.4 149
0.57 68 46.2 149
0.145 120 23.9 159
0.145 60 1.22 131
0.54 97 48.8 173
0.54 50 1.08 128
0.56 120 0.10 46
0.45 26 1.30 132
0.137 32 - -
0.4 34 - -
0.26 56 - -
0.6 16 - -
0.36 21 - -
0.64 14 - -
0.127 13 - -
0.16 17 - -
0.106 19 - -
0.74 14 - -
0.77 120 - -
0.44 120 - -"
echo "MisereSolver table: cgt construction / certificate / total CPU (median of $REPS, s), peak RSS;"
echo "reference = MisereSolver's reference figures (not run here)"
printf '| %-10s | %5s | %5s | %7s | %7s | %7s | %8s | %8s | %7s | %7s | %s |\n' game "|Q|" "|P|" constr cert total "ref CPU" "speed-up" "RSS MB" "ref MB" targets
echo "$rows" | while read -r g n ref refm; do
    outs=""
    for r in $(seq "$REPS"); do
        o=$("$B/cgt" --stats -e "game g = octal $g; quotient q = g to $n; print certified(q);" 2>&1)
        c=$(echo "$o" | sed -n 's/.*construction \([0-9.]*\) s CPU.*certificate \([0-9.]*\) s CPU.*/\1 \2/p')
        t=$(echo "$o" | sed -n 's/.*total: \([0-9.]*\) s CPU.*peak RSS \([0-9]*\) KB.*/\1 \2/p')
        q=$(echo "$o" | sed -n 's/.*|Q| = \([0-9]*\); construction.*/\1/p')
        ok=$(echo "$o" | grep -c '^true$')
        outs="$outs$c $t $q $ok
"
    done
    # median by total CPU
    m=$(printf '%s' "$outs" | sort -k3 -n | sed -n "$(( (REPS + 1) / 2 ))p")
    set -- $m
    con=$1 cer=$2 tot=$3 rss=$4 qq=$5 ok=$6
    pp=$("$B/cgt" -e "game g = octal $g; quotient q = g to $n certify off; print q;" 2>/dev/null |
        sed -n 's/.*|P| = \([0-9]*\).*/\1/p')
    awk -v g="$g@$n" -v q="$qq" -v p="$pp" -v con="$con" -v cer="$cer" -v tot="$tot" \
        -v rss="$rss" -v ref="$ref" -v refm="$refm" -v ok="$ok" 'BEGIN {
        mb = rss / 1024; t = "";
        if (ok != 1) t = t " NOT-CERTIFIED";
        if (cer > 2 * con && cer > 0.01) t = t " cert>2*constr";
        if (ref != "-") {
            sp = tot > 0 ? sprintf("%.0fx", ref / tot) : ">1000x";
            lim = ref < 0.5 ? 0.05 : ref / 10;
            if (tot > lim) t = t sprintf(" CPU>%.2fs", lim);
            if (mb > refm) t = t " RSS>ref";
        } else sp = "-";
        if (t == "") t = "met";
        printf "| %-10s | %5s | %5s | %7.3f | %7.3f | %7.3f | %8s | %8s | %7.1f | %7s | %s |\n",
            g, q, p, con, cer, tot, ref, sp, mb, refm, t }'
done
