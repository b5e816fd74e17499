#!/bin/sh
# One thread against T threads (issue 18 item 2) on the Grundy engine's
# parallel stretches (games/grundy_par.c, docs/games.md §2 "Two threads"):
# `grundy_bench values CODE N threads=t` for t = 1 and each T, one after the
# other, one Markdown row each: wall, user+sys CPU, peak RSS, the value
# hash (must be the same in every row), and per worker thread its CPU
# seconds (spins included) and the wall seconds it waited for the others;
# the load average before the run.  On a loaded machine the wall time of
# the threaded rows suffers most (each heap hands over to the other
# thread): read the per-thread columns.  docs/performance.md keeps the
# results with their date and command.
# Usage: sh bench/grundy/threads.sh [BUILD] [CODE] [N] [T...]
#   (default build/, 0.6, 10^6, T = 2)
set -e
B=${1:-build}
C=${2:-0.6}
N=${3:-1000000}
[ $# -ge 3 ] && shift 3 || shift $#
TS=${*:-2}
X="$B/grundy_bench"
cc -std=c11 -O2 -I. -o "$X" bench/games/grundy_bench.c "$B/libcore.a" -lgmp -lm -pthread
tf="$B/threads-time.$$"
echo "| code | N | threads | wall | user+sys | peak RSS | hash | thread CPU | thread waits | load before |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for t in 1 $TS; do
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    out=$(/usr/bin/time -f '%e %U %S %M' -o "$tf" "$X" values "$C" "$N" threads=$t)
    set -- $(tail -n 1 "$tf")
    echo "$out" | awk -v c="$C" -v n="$N" -v t="$t" -v w="$1" -v u="$2" -v s="$3" -v m="$4" \
        -v l="$load" '{
        h = "-"; cpu = "-"; wt = "-";
        for (i = 1; i <= NF; i++) {
            if ($i ~ /^hash=/) h = substr($i, 6);
            if ($i ~ /^cpu=/) cpu = substr($i, 5);
            if ($i ~ /^waited=/) wt = substr($i, 8);
        }
        printf "| %s | %s | %s | %.1f s | %.1f s | %.0f MB | %s | %s | %s | %s |\n",
            c, n, t, w, u + s, m / 1024, h, cpu, wt, l }'
done
rm -f "$tf"
