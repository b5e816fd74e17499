#!/bin/sh
# Wall time of 8,7,5 Maker-Breaker on 1 and 2 threads (the target is a
# 2-thread wall time at most 1/1.7 of the 1-thread one).  Prints the
# node counts, CPU (user+sys), wall and the load average before each run:
# on a shared machine the wall ratio means little unless the load is below
# the number of cores.  So it also prints the critical path of the threaded
# run, the largest CPU time of one worker thread (what its wall time would
# be on idle cores; src/lib/mnk/mnk_par.c reports it), and the ratio of the
# 1-thread CPU time to it, and the ratio to the CPU in all over 2 (see the
# end).  QUICK=1 measures 7,7,5 instead (under a second).
set -e
B=${1:-${BUILD:-build}}
game=${MNK_GAME:-8 7 5}
[ -n "${QUICK:-}" ] && game="7 7 5"
for t in 1 2; do
    load=$(cut -d' ' -f1 /proc/loadavg)
    /usr/bin/time -f "%U %S %e %M" -o "$B/mnk_threads.time" \
        "$B/cgt" --format=json -v -e "mnk $game threads $t;" >"$B/mnk_threads.out" \
        2>"$B/mnk_threads.err"
    nodes=$(sed -n 's/.*"nodes":\([0-9]*\).*/\1/p' "$B/mnk_threads.out")
    res=$(sed -n 's/.*"result":"\([a-z]*\)".*/\1/p' "$B/mnk_threads.out")
    read -r u s w m <"$B/mnk_threads.time"
    echo "mnk $game threads $t: $res, $nodes nodes, CPU $u+$s s, wall $w s, $m KB (load before: $load)"
    eval "wall$t=$w"
    eval "cpu$t=\$(awk -v u=$u -v s=$s 'BEGIN { print u + s }')"
done
crit=$(sed -n 's/.*critical path \([0-9.]*\) s CPU.*/\1/p' "$B/mnk_threads.err" | tail -n 1)
per=$(sed -n 's/.* \([0-9.]*\) s CPU per worker.*/\1/p' "$B/mnk_threads.err" | tail -n 1)
spread=$(sed -n 's/.*the workers ended within \([0-9.]*\) s wall.*/\1/p' "$B/mnk_threads.err" | tail -n 1)
grep 'worker [0-9]*:' "$B/mnk_threads.err" | sed 's/^\[mnk\] /  /'
# shellcheck disable=SC2154
awk -v a="$wall1" -v b="$wall2" 'BEGIN { printf "wall 1 thread / 2 threads: %.2f (target >= 1.7)\n", a / b }'
# shellcheck disable=SC2154
awk -v a="$cpu1" -v c="$crit" 'BEGIN { printf "CPU 1 thread / critical path of 2 threads (%s s): %.2f (the wall ratio on 2 idle cores)\n", c, a / c }'
# The workers end within a few ms of each other (a worker without a root
# move of its own joins one being searched), so a difference of their CPU
# times is one of their shares of the cores under load: then the CPU in all
# over 2 is the wall time on 2 idle cores, the better estimate.
# shellcheck disable=SC2154
awk -v a="$cpu1" -v c="$per" -v w="$spread" 'BEGIN { printf "CPU 1 thread / (CPU of 2 threads / 2) (%s s): %.2f (the workers ended within %s s wall)\n", c, a / c, w }'
