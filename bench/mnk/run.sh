#!/bin/sh
# Times the m,n,k solver on the cases of docs/mnk.md.  Run from the repo root
# after `make BUILD=build-mnk core`.
set -e
B=${1:-${BUILD:-build-mnk}}
cc -std=c11 -O2 -Isrc -I. bench/mnk/mnk_bench.c $B/libcore.a -lgmp -lm -pthread -o $B/mnk_bench
$B/mnk_bench 3 3 3 4 3 3 4 4 3 5 5 4 4 4 4 5 4 4 5 5 5 6 6 5 7 7 5
$B/mnk_bench -s 3 3 3 4 3 3 4 4 3 4 4 4 5 4 4 5 5 4 6 5 4
sh bench/mnk/threads.sh "$B"
