#!/bin/sh
# The GP run library and speed measurements of docs/gp.md.  Run from the
# repository root after `make BUILD=build-gp core`; results: bench/gp/results.txt.
set -e
B=${1:-${BUILD:-build-gp}}
cc -std=c11 -O2 -Isrc -I. bench/gp/gp_bench.c $B/libcore.a -lgmp -lm -pthread -o $B/gp_bench
echo "== ga2, 1 heap, sizes 1..8"; $B/gp_bench -g ga2 -k 1 -s 1..8
echo "== ga2, 2 heaps, sizes 1..8"; $B/gp_bench -g ga2 -k 2 -s 1..8
echo "== ga2, 3 heaps, sizes 1..6"; $B/gp_bench -g ga2 -k 3 -s 1..6
echo "== ga2, 4 heaps, sizes 1..4"; $B/gp_bench -g ga2 -k 4 -s 1..4 -S 0..4
echo "== ga2, 1..3 heaps with the count n, sizes 1..6"; $B/gp_bench -g ga2 -k 1..3 -s 1..6 -n
echo "== ga1, 1 heap, sizes 1..20"; $B/gp_bench -g ga1 -k 1 -s 1..20 -S 0..4
echo "== ga1: the paper's formula after 21 generations"
$B/gp_bench -g ga1 -k 1 -s 1..20 -x 0 \
    -c "ADD(ADD(SUB(MOD(PLUS1(h1),PLUS1(MOD(PLUS1(h1),3))),MOD(SUB(h1,1),4)),MOD(PLUS1(h1),3)),4)"
echo "== kayles, 1 heap, sizes 1..24"; $B/gp_bench -g kayles -k 1 -s 1..24 -S 0..4
echo "== gplearn-like tournament selection, 2 heaps"; $B/gp_bench -g ga2 -k 2 -s 1..8 -T
echo "== all 14 functions, 2 heaps"; $B/gp_bench -g ga2 -k 2 -s 1..8 -f all
echo "== speed: full 1000 x 20 runs (no early stop) on 64 rows"
for t in 1 2; do
    echo "-- lexicase, $t thread(s)"; $B/gp_bench -g ga2 -k 2 -s 1..8 -F -t $t -S 0..4 | tail -1
    echo "-- tournament, $t thread(s)"; $B/gp_bench -g ga2 -k 2 -s 1..8 -F -T -t $t -S 0..4 | tail -1
done
