#!/bin/sh
# Misère-quotient benchmarks (docs/misere.md records the results).
# Usage: bench/misere/run.sh [BUILD-DIR]   (default build; needs BUILD/libcore.a)
set -e
B=${1:-build}
cc -O2 -std=c11 -D_DEFAULT_SOURCE -I. -o "$B/mqbench" bench/misere/mqbench.c "$B/libcore.a" -lgmp -lm
for args in "0.07 33 cert" "0.77 120 cert" "0.77 300 periodic" "0.31 200 periodic" \
            "0.137 32 cert" "0.35 14 cert" "0.64 14 cert"; do
    echo "== mqbench $args"
    "$B/mqbench" $args
done
