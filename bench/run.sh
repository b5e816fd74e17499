#!/bin/sh
# make bench: every module's benchmark against build/libcore.a, output to
# stdout and bench/results-latest.txt.  docs/performance.md records the
# figures with the machine and this command.  QUICK=1 skips the runs that
# take minutes (0.354 and 0.376 periods, 0.14 to 10^7, 7,7,5).
set -e
B=${BUILD:-build}
out=bench/results-latest.txt
{
    echo "# make bench on $(uname -m), $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ)"
    grep -m1 'model name' /proc/cpuinfo 2>/dev/null || true
    for m in games misere kb mnk gp; do
        echo
        echo "## $m"
        BUILD=$B sh bench/$m/run.sh "$B" 2>&1
    done
} | tee "$out"
