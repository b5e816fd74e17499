#!/bin/sh
# The 22 games compared with MisereSolver: each `quotient q = G to N`
# through cgt with --stats (construction and certificate CPU, whole-process
# CPU and peak RSS), beside MisereSolver (CGSuite's Java solver), with the
# ratios and the targets (total CPU at most 1/10 of MisereSolver's, under
# 0.05 s where MisereSolver's is under 0.5 s; RSS at most MisereSolver's;
# certificate at most twice the construction). Results: docs/performance.md.
# MisereSolver's figures: with MISERESOLVER set to a command (the interface
# of bench/misere/longrun.sh: "$MISERESOLVER CODE N" prints
# "heap H |Q|=ORDER |P|=PCOUNT cpu=SECONDS" per heap, solver-thread CPU),
# it is run here, once per row, its whole process under /usr/bin/time for
# the peak RSS, and its |Q| and |P| are checked against cgt's; without it,
# the solver-thread CPU measured on this machine kind (stored in `rows`
# below) is printed, labelled as stored. Either way the reference figures
# supplied with the project's targets are printed beside it ("supplied";
# "-" where none was given), with their RSS when MisereSolver is not run.
# Usage: bench/misere/vs_miseresolver.sh [BUILD-DIR]; REPS=N runs (median; default 3).
B=${1:-build}
REPS=${REPS:-3}
# game, heap, MisereSolver's solver-thread CPU s measured on this machine
# kind (7 December 2026, docs/performance.md "MisereSolver side by side"),
# the reference CPU s and RSS MB supplied with the targets ("-": none)
rows="0.07 33 11.02 14.9 154
0.35 16 22.40 34.0 168
4.7 37 32.72 44.4 149
0.57 68 35.89 46.2 149
0.145 120 13.89 23.9 159
0.145 60 0.934 1.22 131
0.54 97 30.46 48.8 173
0.54 50 0.783 1.08 128
0.56 120 0.058 0.10 46
0.45 26 1.032 1.30 132
0.137 32 10.97 - -
0.4 34 12.32 - -
0.26 56 19.58 - -
0.6 16 0.209 - -
0.36 21 0.257 - -
0.64 14 10.92 - -
0.127 13 0.576 - -
0.16 17 0.907 - -
0.106 19 0.213 - -
0.74 14 0.110 - -
0.77 120 0.088 - -
0.44 120 0.099 - -"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "MisereSolver table: cgt construction / certificate / total CPU (median of $REPS, s), peak RSS;"
if [ -n "$MISERESOLVER" ]; then
    echo "MS CPU = MisereSolver measured now (solver-thread CPU; ref MB its whole-process peak RSS): $MISERESOLVER"
else
    echo "MS CPU = MisereSolver's solver-thread CPU measured on this machine kind (stored, not run now);"
    echo "supplied = the reference figures supplied with the targets; ref MB = supplied RSS"
fi
printf '| %-10s | %5s | %5s | %7s | %7s | %7s | %8s | %8s | %8s | %7s | %7s | %s |\n' game "|Q|" "|P|" constr cert total "MS CPU" "speed-up" supplied "RSS MB" "ref MB" targets
echo "$rows" | while read -r g n ref sup refm; do
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
    msq=""
    if [ -n "$MISERESOLVER" ]; then
        /usr/bin/time -f '%M' -o "$tmp/rss" $MISERESOLVER "$g" "$n" > "$tmp/ms" 2>&1 || true
        set -- $(awk -v n="$n" '$1 == "heap" && $2 == n { split($3, q, "="); split($4, p, "=");
            split($5, c, "="); print c[2], q[2], p[2] }' "$tmp/ms")
        ref=${1:--} msq="${2:-?} ${3:-?}"
        refm=$(awk '{ printf "%.0f", $1 / 1024 }' "$tmp/rss" 2>/dev/null)
        [ -n "$refm" ] || refm=-
    fi
    awk -v g="$g@$n" -v q="$qq" -v p="$pp" -v con="$con" -v cer="$cer" -v tot="$tot" \
        -v rss="$rss" -v ref="$ref" -v sup="$sup" -v refm="$refm" -v ok="$ok" -v msq="$msq" 'BEGIN {
        mb = rss / 1024; t = "";
        if (ok != 1) t = t " NOT-CERTIFIED";
        if (msq != "" && msq != q " " p) t = t " MisereSolver-differs(" msq ")";
        if (cer > 2 * con && cer > 0.01) t = t " cert>2*constr";
        if (ref != "-") {
            sp = tot > 0 ? sprintf("%.0fx", ref / tot) : ">1000x";
            lim = ref < 0.5 ? 0.05 : ref / 10;
            if (tot > lim) t = t sprintf(" CPU>%.2fs", lim);
            if (refm != "-" && mb > refm) t = t " RSS>ref";
        } else sp = "-";
        if (t == "") t = "met";
        printf "| %-10s | %5s | %5s | %7.3f | %7.3f | %7.3f | %8s | %8s | %8s | %7.1f | %7s | %s |\n",
            g, q, p, con, cer, tot, ref, sp, sup, mb, refm, t }'
done
