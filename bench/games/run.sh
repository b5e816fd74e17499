#!/bin/sh
# Benchmarks of games/grundy (docs/games.md and the "Heap games" section of
# docs/performance.md record the results, in user CPU seconds).
# Usage: sh bench/games/run.sh [BUILD]   (default build/; needs BUILD/libcore.a)
# QUICK=1 skips the runs over a few seconds (0.14 to 10^7, 0.354, 0.376).
# LONG=1 adds 0.6 (Officers) to 10^8 values through BUILD/cgt with a
# checkpoint file (several minutes of CPU, 400 MB file under ${TMPDIR:-/tmp}).
set -e
B=${1:-${BUILD:-build}}
cc -std=c11 -O2 -I. -o "$B/grundy_bench" bench/games/grundy_bench.c "$B/libcore.a" -lgmp -lm
X="$B/grundy_bench"
# user CPU time and peak memory of one run, when GNU time is there
T() {
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f '    %U s user, %M KB max RSS' "$@"
    else
        "$@"
    fi
}
for c in 0.07 0.77 0.137 0.4 0.51 0.16 0.127 0.56; do
    T "$X" period "$c" 10000000
done
T "$X" values 0.106 10000000
T "$X" values 0.6 1000000
if [ -z "$QUICK" ]; then
    T "$X" values 0.14 10000000
    T "$X" period 0.354 100000000
    T "$X" period 0.376 100000000
fi
if [ -n "$LONG" ]; then
    ck="${TMPDIR:-/tmp}/cgt-bench-0.6.ckpt"
    rm -f "$ck" "$ck.tmp"
    T "$B/cgt" -e "game o = octal 0.6; grundy o 99999999 checkpoint \"$ck\";"
    rm -f "$ck"
fi
