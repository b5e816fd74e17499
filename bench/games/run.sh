#!/bin/sh
# Benchmarks of games/grundy (docs/games.md and the "Heap games" section of
# docs/performance.md record the results, in user CPU seconds).
# Usage: sh bench/games/run.sh [BUILD]   (default build/; needs BUILD/libcore.a)
# QUICK=1 skips the runs over a few seconds (0.14 to 10^7, 0.354, 0.376).
# TZ=DIR RG=FILE add the table measured side by side with the two
# peer solvers (bench/games/peers.sh).
# LONG=1 adds the periods of 0.1777 and 0.454 (about 100 s of CPU and
# 460 MB each) and 0.6 (Officers) to 10^8 values through BUILD/cgt with a
# checkpoint file (several minutes of CPU, 400 MB file under ${TMPDIR:-/tmp}).
set -e
B=${1:-${BUILD:-build}}
cc -std=c11 -O2 -Isrc -I. -o "$B/grundy_bench" bench/games/grundy_bench.c "$B/libcore.a" -lgmp -lm
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
# The peers' table: cgt's user+sys CPU beside the reference figures supplied
# with the project's targets for T. Czajka's octal-games (tz) and T.
# Rogalski's octal (rg), measured on this machine kind (not re-measured
# here; docs/performance.md); the last column
# is cgt / fastest peer (the goal is at most 0.33).  QUICK=1 runs only the
# rows under a few seconds.
row() { # label tz rg (seconds, - = none; >600 = not finished) then the command
    label=$1 tz=$2 rg=$3
    shift 3
    tf="$B/bench-time.$$"
    if /usr/bin/time -f '%U %S %M' -o "$tf" "$@" >/dev/null 2>&1; then
        set -- $(tail -n 1 "$tf")
        awk -v l="$label" -v tz="$tz" -v rg="$rg" -v u="$1" -v s="$2" -v m="$3" 'BEGIN {
            c = u + s; best = 0
            if (tz ~ /^[0-9.]+$/) best = tz
            if (rg ~ /^[0-9.]+$/ && (best == 0 || rg < best)) best = rg
            r = best > 0 ? sprintf("%.2f", c / best) : "-"
            printf "| %s | %s | %s | %.2f s, %d MB | %s |\n", l, tz, rg, c, m / 1024, r }'
    else
        echo "| $label | $tz | $rg | failed | - |"
    fi
    rm -f "$tf"
}
if [ -x /usr/bin/time ]; then
    echo
    echo "peers' table (tz, rg: reference figures; cgt: this run, user+sys CPU, peak RSS)"
    echo "| run | tz | rg | cgt | cgt / fastest |"
    echo "|---|---|---|---|---|"
    row "period 0.56" 0.54 0.28 "$X" period 0.56 10000000
    row "period 0.16" 0.30 0.23 "$X" period 0.16 10000000
    row "0.106 to 10^7" 2.4 - "$X" values 0.106 10000000
    row "0.6 to 10^6" 9.5 15.9 "$X" values 0.6 1000000
    if [ -z "$QUICK" ]; then
        row "period 0.354" 57.1 22.0 "$X" period 0.354 100000000
        row "period 0.376" ">600" 88.4 "$X" period 0.376 100000000
        row "0.6 to 10^7" 92 - "$X" values 0.6 10000000
        row "0.14 to 10^7" 77 - "$X" values 0.14 10000000
    fi
fi
# The same rows measured side by side with the two peers, when they were
# built on this machine (outside the repository; docs/performance.md says
# how): TZ=DIR and RG=FILE as bench/games/peers.sh reads them.
if [ -n "${TZ:-}${RG:-}" ]; then
    echo
    sh bench/games/peers.sh "$B"
fi
if [ -n "$LONG" ]; then
    # the target: under 2 minutes of CPU and 1 GB each (docs/games.md §6)
    T "$X" period 0.1777 500000000
    T "$X" period 0.454 500000000
    ck="${TMPDIR:-/tmp}/cgt-bench-0.6.ckpt"
    rm -f "$ck" "$ck.tmp"
    T "$B/cgt" -e "game o = octal 0.6; grundy o 99999999 checkpoint \"$ck\";"
    rm -f "$ck"
fi
