#!/bin/sh
# Compare cgt's Knuth-Bendix completion with Singular (std, commutative) and
# GAP (KnuthBendixRewritingSystem, string rewriting) on the fixed-seed
# families of bench/kb/bench_kb.c; all times are CPU seconds measured inside
# each system (start-up excluded).  Singular and GAP are for benchmarking only.
# Usage: sh bench/kb/compare.sh [BUILD-DIR] [OUT-DIR] [STAGE...]
#   STAGE: cgt cgtnc singular gap report (default: all five).
#   String rewriting (cgt nckb and GAP): family small ids 1..$NC_SMALL_N
#   (default 20: 6-12 generators; 41 adds 14-20 generators, where cgt's
#   id 42 needs minutes) and nc8 (8 generators); each GAP run is capped
#   with `timeout 120` (wall clock) and reported as a timeout.
set -e
B=${1:-build}
O=${2:-/tmp/kbcmp}
if [ $# -ge 2 ]; then shift 2; else shift $#; fi
STAGES=${*:-cgt cgtnc singular gap report}
mkdir -p "$O"
make -s BUILD="$B" core >/dev/null
cc -std=c11 -D_DEFAULT_SOURCE -O2 -Isrc -I. bench/kb/bench_kb.c "$B/libcore.a" \
    -o "$B/bench_kb" -lgmp -lm -pthread
K="$B/bench_kb"
NC_SMALL_N=${NC_SMALL_N:-20}
GAPIDS_small=$(seq 1 "$NC_SMALL_N")
GAPIDS_nc8=$(seq 1 30)

for st in $STAGES; do
case $st in
cgt)
    for f in small big; do "$K" cpu $f >"$O/cgt_$f.txt"; done
    ;;
cgtnc)
    "$K" nccpu nc8 >"$O/cgtnc_nc8.txt"
    "$K" nccpu small "$NC_SMALL_N" >"$O/cgtnc_small.txt"
    ;;
singular)
    for f in small big; do
        "$K" singular $f >"$O/$f.sng"
        Singular -q "$O/$f.sng" >"$O/sing_$f.txt"
    done
    ;;
gap)
    for f in small nc8; do
        : >"$O/gap_$f.txt"
        eval ids=\$GAPIDS_$f
        for k in $ids; do
            "$K" gap $f "$k" >"$O/gap_${f}_$k.g"
            if ! timeout 120 gap -q -b "$O/gap_${f}_$k.g" >>"$O/gap_$f.txt" 2>"$O/gap.err"; then
                echo "$f $k - timeout - 120000 1 -" >>"$O/gap_$f.txt"
            fi
        done
    done
    ;;
report)
    sh bench/kb/report.sh "$O"
    ;;
esac
done
