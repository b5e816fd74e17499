#!/bin/sh
# Long runs of the misère construction beside MisereSolver (CGSuite's Java
# solver): per game, cgt's CPU time at the heap of MisereSolver's reference
# figure, that figure and the ratio, then the furthest heap cgt completes
# in each CPU budget with |Q| and the peak RSS there.  The MisereSolver
# figures are the reference figures of bench/misere/vs_miseresolver.sh
# (solver-thread CPU on a machine of this kind, supplied with the
# project's targets; MisereSolver is not run here): in B seconds it
# reaches at least the heap of a figure below B.  Results:
# docs/performance.md ("Long runs").
# Usage: bench/misere/longrun.sh [BUILD-DIR]; BUDGETS="60 600" (default
# 60; each budget is one run per game, one after the other).
set -e
B=${1:-build}
BUDGETS=${BUDGETS:-60}
cc -O2 -std=c11 -D_DEFAULT_SOURCE -Isrc -I. -o "$B/mqbench" bench/misere/mqbench.c "$B/libcore.a" -lgmp -lm
echo "long runs: $(uname -m), $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //'), $(nproc) cores," \
    "$(date -u +%Y-%m-%dT%H:%MZ); command: $B/mqbench CODE 1000 reach=BUDGET"
# game, heap of the reference figure, MisereSolver's CPU s there
rows="0.145 120 23.9
0.54 97 48.8
0.57 68 46.2
4.7 37 44.4
0.26 56 -"
for budget in $BUDGETS; do
    echo
    printf '| %-6s | %4s | %9s | %12s | %9s | %13s | %5s | %7s |\n' game heap "cgt CPU s" \
        "MS CPU s" "cgt / MS" "heap in ${budget} s" "|Q|" "peak MB"
    echo "$rows" | while read -r g n ref; do
        out=$("$B/mqbench" "$g" 1000 "reach=$budget")
        at=$(echo "$out" | awk -v n="$n" '$1 == "heap" && $2 == n { print $5 }')
        last=$(echo "$out" | awk '$1 == "heap" { h = $2; q = substr($3, 5); m = $8 } END { print h, q, m }')
        set -- $last
        awk -v g="$g" -v n="$n" -v at="$at" -v ref="$ref" -v h="$1" -v q="$2" -v m="$3" 'BEGIN {
            r = (at != "" && ref != "-" && ref > 0) ? sprintf("%.3f", at / ref) : "-";
            if (at == "") at = "-";
            printf "| %-6s | %4s | %9s | %12s | %9s | %13s | %5s | %7s |\n", g, n, at, ref, r, h, q, m }'
    done
done
