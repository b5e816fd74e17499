#!/bin/sh
# Benchmarks of games/grundy (docs/games.md records the results).
# Usage: sh bench/games/run.sh [BUILD]   (default build/; needs BUILD/libcore.a)
# Set QUICK=1 to skip the long runs (0.354, 0.376, 0.14 to 10^7).
set -e
B=${1:-${BUILD:-build}}
cc -std=c11 -O2 -I. -o "$B/grundy_bench" bench/games/grundy_bench.c "$B/libcore.a" -lgmp -lm
X="$B/grundy_bench"
for c in 0.07 0.77 0.137 0.4 0.51 0.16 0.127 0.56; do
    "$X" period "$c" 10000000
done
"$X" values 0.106 10000000
"$X" values 0.6 1000000
if [ -z "$QUICK" ]; then
    "$X" values 0.14 10000000
    "$X" period 0.354 100000000
    "$X" period 0.376 100000000
fi
