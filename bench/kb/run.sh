#!/bin/sh
# Build and run the Knuth-Bendix benchmark (bench/kb/bench_kb.c) against a
# built core library.  Usage: sh bench/kb/run.sh [BUILD-DIR] [MODE]
# MODE: (none) = small table with nc at <= 8 generators, big, ncbig.
set -e
B=${1:-build}
make -s BUILD="$B" core >/dev/null
cc -std=c11 -D_DEFAULT_SOURCE -O2 -Isrc -I. bench/kb/bench_kb.c "$B/libcore.a" \
    -o "$B/bench_kb" -lgmp -lm -pthread
"$B/bench_kb" ${2:-nc}
