#!/bin/sh
# Misère-quotient benchmarks (docs/misere.md and docs/performance.md record
# the results).  Usage: bench/misere/run.sh [BUILD-DIR]   (default build;
# needs BUILD/libcore.a).  QUICK=1 gives the "furthest heap" runs 2 s of CPU
# each instead of 60 s (the heaps reached are the same on our machine).
set -e
B=${1:-build}
# The 22-game table beside MisereSolver (stored figures measured on this machine
# kind, or run now with MISERESOLVER=COMMAND, and the supplied reference figures).
echo "== MisereSolver table (bench/misere/vs_miseresolver.sh)"
REPS=${REPS:-3} sh bench/misere/vs_miseresolver.sh "$B"
cc -O2 -std=c11 -D_DEFAULT_SOURCE -Isrc -I. -o "$B/mqbench" bench/misere/mqbench.c "$B/libcore.a" -lgmp -lm
for args in "0.07 33 cert" "0.77 120 cert" "0.44 120 cert" "0.75 120 cert" "0.77 300 periodic" \
            "0.31 200 periodic" "0.137 32 cert" "0.35 14 cert" "0.64 14 cert"; do
    echo "== mqbench $args"
    "$B/mqbench" $args
done
# Games whose quotients grow to hundreds or thousands of elements: the
# heap each reaches within a CPU budget, the CPU time at each heap, and the
# certificate of the last completed heap.
if [ -n "$QUICK" ]; then budget=2; else budget=60; fi
for code in 0.6 0.35 0.64 0.16 0.127; do
    echo "== mqbench $code 200 reach=$budget cert"
    "$B/mqbench" "$code" 200 "reach=$budget" cert
done
# The long rows side by side with MisereSolver (its figures measured on this
# machine kind and stored in bench/results/miseresolver.txt, or run now
# with MISERESOLVER=COMMAND, bench/misere/longrun.sh): CPU at the same heap,
# furthest heap in 60 s and in 600 s of CPU (cgt's 600 s only with LONG=1,
# 10 minutes a game; QUICK=1: cgt runs 2 s).
echo "== long runs (bench/misere/longrun.sh)"
sh bench/misere/longrun.sh "$B"
# Heap 34 of 0.07: Q(34) is infinite, decided and proved by the quotient
# statement itself (docs/misere.md, "Infinite quotients"; about 100 s of
# CPU, skipped with QUICK).
if [ -z "$QUICK" ]; then
    echo "== cgt: quotient of 0.07 to 34"
    "$B/cgt" -e 'game dk = octal 0.07; quotient q = dk to 34 proof "'"$B"'/0.07-34.proof"; print q;'
fi
