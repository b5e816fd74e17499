#!/bin/sh
# Long runs of the misère construction side by side with MisereSolver
# (CGSuite's Java solver, org.cgsuite.core.misere.solver): per game, the CPU
# time each needs to reach the same heap, their ratio, and the furthest heap
# each completes in each CPU budget. cgt runs BUILD/mqbench (the
# construction heap by heap, no certificate, as MisereSolver has none);
# for the periodic games to heap 3000, the whole `quotient` statement,
# certificate included (`--stats` total CPU).
#
# MisereSolver: with MISERESOLVER set to a command, it is run here:
# "$MISERESOLVER CODE N [BUDGET]" must run MisereSolver's next() heap by
# heap to heap N (stopping once BUDGET seconds of the solver thread's CPU
# are used) and print one line per heap completed,
#     heap H |Q|=ORDER |P|=PCOUNT cpu=SECONDS
# with the solver thread's CPU so far (docs/performance.md describes the
# driver used); a heap completed past the budget is not counted. MS_CAP
# (default 600) caps each of its runs to a heap.
# Without MISERESOLVER the figures measured on this machine kind and stored
# in bench/results/miseresolver.txt are printed, labelled "stored".
# Results: docs/performance.md ("Long runs").
# Usage: bench/misere/longrun.sh [BUILD-DIR]; BUDGETS="60 600" (default 60).
set -e
B=${1:-build}
BUDGETS=${BUDGETS:-60}
MS_CAP=${MS_CAP:-600}
STORED=bench/results/miseresolver.txt
cc -O2 -std=c11 -D_DEFAULT_SOURCE -Isrc -I. -o "$B/mqbench" bench/misere/mqbench.c "$B/libcore.a" -lgmp -lm
if [ -n "$MISERESOLVER" ]; then src="measured now ($MISERESOLVER)"; else src="stored ($STORED)"; fi
echo "long runs: $(uname -m), $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //'), $(nproc) cores," \
    "$(date -u +%Y-%m-%dT%H:%MZ); cgt: $B/mqbench CODE N [reach=BUDGET]; MisereSolver figures: $src"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ms_at GAME HEAP: MisereSolver's CPU s to HEAP, or ">CAP" (not reached).
ms_at() {
    if [ -n "$MISERESOLVER" ]; then
        $MISERESOLVER "$1" "$2" "$MS_CAP" > "$tmp/ms" 2>&1 || true
        awk -v n="$2" -v cap="$MS_CAP" '$1 == "heap" && $2 == n { split($5, c, "="); t = c[2] }
            END { print (t == "" ? ">" cap : t) }' "$tmp/ms"
    else
        awk -v g="$1" -v n="$2" '$1 == "at" && $2 == g && $3 == n { print $4; f = 1 }
            END { if (!f) print "-" }' "$STORED"
    fi
}
# ms_reach GAME BUDGET: MisereSolver's furthest heap in BUDGET s, and |Q| there.
ms_reach() {
    if [ -n "$MISERESOLVER" ]; then
        $MISERESOLVER "$1" 100000 "$2" > "$tmp/ms" 2>&1 || true
        awk -v b="$2" '$1 == "heap" { split($5, c, "="); if (c[2] + 0 > b + 0) next; h = $2; split($3, q, "="); o = q[2] }
            END { print (h == "" ? "- -" : h " " o) }' "$tmp/ms"
    else
        awk -v g="$1" -v b="$2" '$1 == "reach" && $2 == g && $3 == b { print $4, $5; f = 1 }
            END { if (!f) print "- -" }' "$STORED"
    fi
}

echo
echo "CPU s to the same heap (cgt: construction; MisereSolver: solver thread)"
printf '| %-6s | %4s | %9s | %14s | %8s |\n' game heap "cgt CPU s" "MS CPU s" "MS / cgt"
for row in 0.07:33 0.57:68 0.26:56 0.26:68 4.7:37 4.7:41 0.145:120 0.145:188 0.54:97 0.54:139 \
    0.77:3000 0.44:3000 0.56:3000; do
    g=${row%:*} n=${row#*:}
    if [ "$n" = 3000 ]; then # periodic games: the whole statement, certificate included
        at=$("$B/cgt" --stats -e "game g = octal $g; quotient q = g to $n;" 2>&1 |
            sed -n 's/.*total: \([0-9.]*\) s CPU.*/\1/p')
    else
        at=$("$B/mqbench" "$g" "$n" "reach=$MS_CAP" | awk -v n="$n" '$1 == "heap" && $2 == n { print $5 }')
    fi
    ms=$(ms_at "$g" "$n")
    awk -v g="$g" -v n="$n" -v at="$at" -v ms="$ms" 'BEGIN {
        r = (at != "" && ms ~ /^[0-9.]+$/ && at > 0) ? sprintf("%.0fx", ms / at) : "-";
        if (ms ~ /^>/ && at != "" && at > 0) r = sprintf("> %.0fx", substr(ms, 2) / at);
        if (at == "") at = ">" ENVIRON["MS_CAP"];
        printf "| %-6s | %4s | %9s | %14s | %8s |\n", g, n, at, ms, r }'
done

for budget in $BUDGETS; do
    echo
    echo "furthest heap in $budget s of CPU (|Q| there)"
    printf '| %-6s | %14s | %14s |\n' game "cgt" "MisereSolver"
    for g in 0.57 0.26 4.7 0.145 0.54; do
        last=$("$B/mqbench" "$g" 100000 "reach=$budget" |
            awk '$1 == "heap" { h = $2; q = substr($3, 5) } END { print h, q }')
        set -- $last
        ms=$(ms_reach "$g" "$budget")
        set -- "$1" "$2" $ms
        printf '| %-6s | %14s | %14s |\n' "$g" "$1 ($2)" "$3 ($4)"
    done
done
