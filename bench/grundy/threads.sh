#!/bin/sh
# One thread against T threads on the Grundy engine's
# parallel stretches (src/lib/grundy/grundy_par.c, docs/games.md §2 "Two threads"):
# `grundy_bench values CODE N threads=t` for t = 1 and each T, one after the
# other, one Markdown row each: wall, user+sys CPU, peak RSS, the value
# hash (must be the same in every row), and per worker thread its CPU
# seconds (spins included) and the wall seconds it waited for the others;
# the load average and the round trip of one cache line between two
# threads (bench/grundy/pingpong.c, nanoseconds) before the run.  On a
# loaded machine the wall time of the threaded rows suffers most: read the
# per-thread columns.  The threaded rows also pay the round trip for every
# line the threads share, and on a virtual machine it changes with the
# host's placement of the two processors (50-65 ns or 320-360 ns on the
# project's machines).  docs/performance.md keeps the
# results with their date and command.
# Usage: [FROM=F] [ROUNDS=R] sh bench/grundy/threads.sh [BUILD] [CODE] [N] [T...]
#   (default build/, 0.6, 10^6, T = 2)
# FROM=F: the heaps below F are computed on one thread first and only the
# rest is timed (the steady state of a long run: up to Officers' last new
# largest values the stretches stay short); the wall column is then the
# driver's time of that part, and the CPU and RSS columns still cover the
# whole process.  ROUNDS=R repeats the runs R times in turn (the machine's
# speed drifts: compare within a round) and ends with the median wall per
# thread count and the speed-up of the medians.
set -e
B=${1:-build}
C=${2:-0.6}
N=${3:-1000000}
[ $# -ge 3 ] && shift 3 || shift $#
TS=${*:-2}
FROM=${FROM:-0}
ROUNDS=${ROUNDS:-1}
X="$B/grundy_bench"
cc -std=c11 -O2 -Isrc -I. -o "$X" bench/games/grundy_bench.c "$B/libcore.a" -lgmp -lm -pthread
cc -std=c11 -O2 -o "$B/pingpong" bench/grundy/pingpong.c -pthread
tf="$B/threads-time.$$"
walls="$B/threads-walls.$$"
: >"$walls"
echo "| code | from | N | threads | wall | user+sys | peak RSS | hash | thread CPU | thread waits | load before | ping-pong before |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
r=0
while [ "$r" -lt "$ROUNDS" ]; do
    r=$((r + 1))
    for t in 1 $TS; do
        load=$(cut -d' ' -f1-3 /proc/loadavg)
        pp=$("$B/pingpong" 500000)
        out=$(/usr/bin/time -f '%e %U %S %M' -o "$tf" "$X" values "$C" "$N" threads=$t from=$FROM)
        set -- $(tail -n 1 "$tf")
        echo "$out" | awk -v c="$C" -v f="$FROM" -v n="$N" -v t="$t" -v w="$1" -v u="$2" \
            -v s="$3" -v m="$4" -v l="$load" -v pp="$pp" -v wf="$walls" '{
            h = "-"; cpu = "-"; wt = "-";
            for (i = 1; i <= NF; i++) {
                if ($i ~ /^hash=/) h = substr($i, 6);
                if ($i ~ /^cpu=/) cpu = substr($i, 5);
                if ($i ~ /^waited=/) wt = substr($i, 8);
                if (f > 0 && $i ~ /^time=/) { w = substr($i, 6); sub(/s$/, "", w) }
            }
            print t, w >> wf
            printf "| %s | %s | %s | %s | %.2f s | %.1f s | %.0f MB | %s | %s | %s | %s | %s ns |\n",
                c, f, n, t, w, u + s, m / 1024, h, cpu, wt, l, pp }'
    done
done
if [ "$ROUNDS" -gt 1 ]; then
    echo
    sort -k1,1n -k2,2g "$walls" | awk '
        { w[$1, ++k[$1]] = $2; if (!($1 in seen)) { seen[$1] = 1; order[++nt] = $1 } }
        END {
            for (i = 1; i <= nt; i++) {
                t = order[i]; c = k[t]
                med[t] = c % 2 ? w[t, (c + 1) / 2] : (w[t, c / 2] + w[t, c / 2 + 1]) / 2
                printf "threads %s: median wall %.2f s of %d runs (%.2f-%.2f s)", t, med[t], c,
                    w[t, 1], w[t, c]
                if (t != 1 && med[1] > 0) printf ", speed-up of the medians %.2fx", med[1] / med[t]
                printf "\n"
            }
        }'
fi
rm -f "$tf" "$walls"
