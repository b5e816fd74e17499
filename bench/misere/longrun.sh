#!/bin/sh
# Long runs of the misère construction side by side with MisereSolver
# (CGSuite's Java solver, org.cgsuite.core.misere.solver): per game, the CPU
# time each needs to reach the same heap, their ratio, and the furthest heap
# each completes in 60 s and in 600 s of CPU. cgt runs BUILD/mqbench (the
# construction heap by heap, no certificate, as MisereSolver has none);
# for the periodic games to heap 3000, the whole `quotient` statement,
# certificate included (`--stats` total CPU).
#
# cgt's furthest heaps come from one run per game with a CPU budget of
# 60 s (LONG=1: 600 s, about 50 minutes for the five games; QUICK=1: 2 s),
# read at each budget from the CPU printed with every heap; a column whose
# budget is past the run's says "not run (LONG=1)" (or "(QUICK=1)").
#
# MisereSolver: with MISERESOLVER set to a command, it is run here:
# "$MISERESOLVER CODE N [BUDGET]" must run MisereSolver's next() heap by
# heap to heap N (stopping once BUDGET seconds of the solver thread's CPU
# are used) and print one line per heap completed,
#     heap H |Q|=ORDER |P|=PCOUNT cpu=SECONDS
# with the solver thread's CPU so far (docs/performance.md describes the
# driver used); a heap completed past the budget is not counted. MS_CAP
# (default 600) caps each of its runs to a heap; its furthest heaps come
# from one run with the same budget as cgt's.
# Without MISERESOLVER the figures measured on this machine kind and stored
# in bench/results/miseresolver.txt are printed, labelled "stored"; a
# figure the file does not hold is printed as "not measured".
# Results: docs/performance.md ("Long runs").
# Usage: bench/misere/longrun.sh [BUILD-DIR]; LONG=1, QUICK=1 as above.
set -e
B=${1:-build}
MS_CAP=${MS_CAP:-600}
STORED=bench/results/miseresolver.txt
if [ -n "$QUICK" ]; then RUN=2; elif [ -n "$LONG" ]; then RUN=600; else RUN=60; fi
COLS="60 600"
case " $COLS " in *" $RUN "*) ;; *) COLS="$RUN $COLS" ;; esac
cc -O2 -std=c11 -D_DEFAULT_SOURCE -Isrc -I. -o "$B/mqbench" bench/misere/mqbench.c "$B/libcore.a" -lgmp -lm
if [ -n "$MISERESOLVER" ]; then src="measured now ($MISERESOLVER)"; else src="stored ($STORED)"; fi
echo "long runs: $(uname -m), $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //'), $(nproc) cores," \
    "$(date -u +%Y-%m-%dT%H:%MZ); cgt: $B/mqbench CODE N [reach=$RUN]; MisereSolver figures: $src"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ms_at GAME HEAP: MisereSolver's CPU s to HEAP, ">CAP" (not reached within
# a run capped at CAP s), or "not measured".
ms_at() {
    if [ -n "$MISERESOLVER" ]; then
        $MISERESOLVER "$1" "$2" "$MS_CAP" > "$tmp/ms" 2>&1 || true
        awk -v n="$2" -v cap="$MS_CAP" '$1 == "heap" && $2 == n { split($5, c, "="); t = c[2] }
            END { print (t == "" ? ">" cap : t) }' "$tmp/ms"
    else
        awk -v g="$1" -v n="$2" '$1 == "at" && $2 == g && $3 == n { print $4; f = 1 }
            END { if (!f) print "not measured" }' "$STORED"
    fi
}
# furthest FILE BUDGET: the last heap of a run's lines "heap H |Q|=.. ... cpu .."
# completed within BUDGET s, and |Q| there ("- -" if none).
furthest() {
    awk -v b="$2" '$1 == "heap" {
            t = ""; for (i = 3; i <= NF; i++) { if ($i ~ /^cpu=/) t = substr($i, 5); else if ($i == "cpu") t = $(i + 1) }
            if (t + 0 > b + 0) next; h = $2; split($3, q, "="); o = q[2] }
        END { print (h == "" ? "- -" : h " " o) }' "$1"
}

echo
echo "CPU s to the same heap (cgt: construction, and for heap 3000 the whole statement; MisereSolver: solver thread)"
printf '| %-6s | %4s | %5s | %9s | %14s | %8s |\n' game heap "|Q|" "cgt CPU s" "MS CPU s" "MS / cgt"
echo "|---|---|---|---|---|---|"
for row in 0.07:33 0.57:68 0.26:56 0.26:68 4.7:37 4.7:41 0.145:120 0.145:188 0.54:97 0.54:139 \
    0.77:3000 0.44:3000 0.56:3000; do
    g=${row%:*} n=${row#*:}
    if [ "$n" = 3000 ]; then # periodic games: the whole statement, certificate included
        set -- $("$B/cgt" --stats -e "game g = octal $g; quotient q = g to $n;" 2>&1 |
            sed -n 's/.*|Q| = \([0-9]*\);.*/\1/p; s/.*total: \([0-9.]*\) s CPU.*/\1/p' | tr '\n' ' ')
        q=${1:-} at=${2:-}
    else
        set -- $("$B/mqbench" "$g" "$n" "reach=$MS_CAP" |
            awk -v n="$n" '$1 == "heap" && $2 == n { print substr($3, 5), $5 }')
        q=${1:-} at=${2:-}
    fi
    ms=$(ms_at "$g" "$n")
    awk -v g="$g" -v n="$n" -v q="$q" -v at="$at" -v ms="$ms" 'BEGIN {
        r = (at != "" && ms ~ /^[0-9.]+$/ && at > 0) ? sprintf("%.0fx", ms / at) : "-";
        if (ms ~ /^>/ && at != "" && at > 0) r = sprintf("> %.0fx", substr(ms, 2) / at);
        if (at == "") at = ">" ENVIRON["MS_CAP"];
        printf "| %-6s | %4s | %5s | %9s | %14s | %8s |\n", g, n, q, at, ms, r }'
done

echo
echo "furthest heap in a CPU budget (|Q| there); cgt: one run of $RUN s per game"
hdr="| game "
for b in $COLS; do hdr="$hdr | cgt in $b s | MS in $b s"; done
echo "$hdr |"
echo "|---|$(for b in $COLS; do printf -- '---|---|'; done)"
for g in 0.57 0.26 4.7 0.145 0.54; do
    "$B/mqbench" "$g" 100000 "reach=$RUN" > "$tmp/cgt"
    if [ -n "$MISERESOLVER" ]; then
        $MISERESOLVER "$g" 100000 "$RUN" > "$tmp/msrun" 2>&1 || true
    fi
    line="| $g"
    for b in $COLS; do
        if [ "$b" -le 60 ]; then skip="not run (QUICK=1)"; else skip="not run (LONG=1)"; fi
        if [ "$b" -le "$RUN" ]; then
            set -- $(furthest "$tmp/cgt" "$b")
            c="$1 ($2)"
        else
            c=$skip
        fi
        if [ -n "$MISERESOLVER" ] && [ "$b" -le "$RUN" ]; then
            set -- $(furthest "$tmp/msrun" "$b")
            m="$1 ($2)"
        elif [ -n "$MISERESOLVER" ]; then
            m=$skip
        else
            m=$(awk -v g="$g" -v b="$b" '$1 == "reach" && $2 == g && $3 == b { print $4 " (" $5 ")"; f = 1 }
                END { if (!f) print "not measured" }' "$STORED")
        fi
        line="$line | $c | $m"
    done
    echo "$line |"
done
if [ -z "$MISERESOLVER" ]; then
    # stored runs of MisereSolver with other budgets
    awk -v cols=" $COLS " '$1 == "reach" && index(cols, " " $3 " ") == 0 {
        printf "stored: MisereSolver on %s in %s s: heap %s (|Q| = %s)\n", $2, $3, $4, $5 }' "$STORED"
fi
