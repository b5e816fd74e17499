#!/bin/sh
# Survey of the octal games T. Czajka lists as unsolved (tczajka/octal-games,
# UnsolvedGames.md: Officers 0.6, 0.04, 0.06, 0.14, ..., 4.406; Grundy's
# game is not an octal code and is left out): each is pushed to a budget of
# N values (`period`, which stops early only when a period is proved) and
# one Markdown row is printed per code: largest value, rare heaps, last rare
# heap, whether a period is proved, user+sys CPU.  docs/games.md §6 states
# the results; docs/dev/games-notes.md keeps the tables with their dates
# and commands.
# Usage: [X=DRIVER] [CPU=S] [THREADS=T] sh bench/grundy/unsolved.sh [BUILD] [N] [CODES...]
#   (default build/, N = 2^18; run it under nice: the full list at 2^32
#   values is far beyond one machine-day).  CPU=S is a budget of S seconds
#   of CPU per code: a code that has neither reached N values nor proved a
#   period by then stops there, and its row gives the values it reached and
#   "no (CPU budget)" in the period column.  The budget counts the CPU of
#   every thread: THREADS=T computes each code on T threads (`threads T`;
#   the same values, docs/games.md §2 "Two threads"), so give it about T
#   times the seconds of one thread.  CKPT=DIR keeps each code's table in
#   DIR/CODE.ckpt (driver option ckpt=FILE: resumed when it exists, saved
#   as the values grow by half and when the run stops, also on SIGTERM, SIGINT
#   or SIGHUP) and each sitting's CPU seconds in DIR/CODE.cpu, so that a
#   code goes on where the last sitting stopped; the CPU column is then the
#   sum over the sittings, and CPU=S the budget of this sitting.  Stop a
#   sitting by signalling the driver alone (pkill -TERM -x grundy_bench, or
#   the name given in X): a signal to /usr/bin/time as well loses the
#   sitting's CPU figure, which the driver's last "saved ... at S s of CPU"
#   line on stderr still gives.
set -e
B=${1:-build}
N=${2:-262144}
[ $# -ge 2 ] && shift 2 || shift $#
CODES=${*:-"0.6 0.04 0.06 0.14 0.36 0.64 0.74 0.76 0.004 0.005 0.006 0.014 0.015 0.016
0.024 0.026 0.034 0.054 0.064 0.104 0.106 0.114 0.125 0.126 0.135 0.136 0.142 0.143
0.146 0.161 0.162 0.163 0.164 0.166 0.167 0.172 0.174 0.204 0.205 0.206 0.207 0.224
0.244 0.245 0.264 0.314 0.324 0.334 0.336 0.342 0.344 0.346 0.362 0.364 0.366 0.371
0.374 0.404 0.414 0.416 0.444 0.454 0.564 0.604 0.606 0.744 0.764 0.774 0.776 4.004
4.007 4.026 4.044 4.045 4.064 4.324 4.327 4.344 4.364 4.367 4.404 4.406"}
# X=PATH: an already built driver (two runs side by side, one per core,
# would otherwise both write $B/grundy_bench at the start)
if [ -z "${X:-}" ]; then
    X="$B/grundy_bench"
    cc -std=c11 -O2 -Isrc -I. -o "$X" bench/games/grundy_bench.c "$B/libcore.a" -lgmp -lm -pthread
fi
echo "| code | values | largest | rare | last rare | period | CPU |"
echo "|---|---|---|---|---|---|---|"
tf="$B/unsolved-time.$$"
for c in $CODES; do
    out=$(/usr/bin/time -f '%U %S' -o "$tf" "$X" period "$c" "$N" ${CPU:+cpu=$CPU} \
        ${THREADS:+threads=$THREADS} ${CKPT:+ckpt=$CKPT/$c.ckpt}) || out="failed"
    set -- $(tail -n 1 "$tf" 2>/dev/null)
    [ $# -ge 2 ] || set -- 0 0
    prev=0
    if [ -n "${CKPT:-}" ]; then
        echo "$1 $2" >> "$CKPT/$c.cpu"
        prev=$(awk '{ t += $1 + $2 } END { printf "%.2f", t - '"$1"' - '"$2"' }' "$CKPT/$c.cpu")
    fi
    echo "$out" | awk -v c="$c" -v u="$1" -v s="$2" -v prev="$prev" '{
        for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
        p = f["status"] == 1 ? "proved " f["period"] " (preperiod " f["preperiod"] ")" : "no"
        if (f["stopped"] == "cpu") p = "no (CPU budget)"
        if (f["stopped"] == "signal") p = "no (stopped)"
        printf "| %s | %s | %s | %s | %s | %s | %.2f s |\n", c, f["n"], f["max"], f["rare"],
               f["last_rare"], p, prev + u + s }'
done
rm -f "$tf"
