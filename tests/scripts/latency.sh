#!/bin/sh
#@ tier: slow
# --timeout-cpu and the first Ctrl-C take effect within a fraction of a
# second in every long statement and in user recursion.  Each statement
# below runs far longer than a second of CPU; it must stop with exit 4
# (--timeout-cpu=1) or 130 (SIGINT, sent once the run has used 1 s of CPU).
# The latency is measured in CPU seconds of the run (its --stats total, less
# the limit, or less its CPU time when the signal was sent, read from
# /proc), so that a loaded machine measures what an idle one does; the test
# fails above LAT_MAX CPU seconds (default 1; typical values are below
# 0.1 s).
set -u
CGT=${CGT:-build/cgt}
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-latency.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
. tests/scripts/stop_lib
LAT_MAX=${LAT_MAX:-1}
HZ=$(getconf CLK_TCK)
fail() { echo "FAIL: $*"; exit 1; }
# CPU seconds used so far by the process PID (user + system, all threads)
cpu_of() { sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | awk -v hz="$HZ" '{ print ($12 + $13) / hz }'; }
# the CPU seconds of the run, from the last line of --stats in FILE
stats_cpu() { sed -n 's/^\[stats\] total: \([0-9.]*\) s CPU.*/\1/p' "$1" | tail -n 1; }

check_timeout() { # code [limit, default 1 s of CPU]
    lim=${2:-1}
    cpu_limit 60 $CGT --stats --timeout-cpu="$lim" -e "$1" >/dev/null 2>"$T/lat.err"; rc=$?
    lat=$(echo "$(stats_cpu "$T/lat.err") - $lim" | bc)
    printf 'timeout  %6.2f s CPU  %s\n' "$lat" "$1"
    [ $rc -eq 4 ] || fail "exit $rc (expected 4) for: $1 $(head -c 300 "$T/lat.err")"
    [ "$(echo "$lat > $LAT_MAX" | bc)" = 0 ] || fail "timeout latency $lat s CPU for: $1"
}

check_sigint() { # code
    rm -f "$T/lat.err"
    (cpu_exec 60 $CGT --stats -e "$1") >/dev/null 2>"$T/lat.err" &
    pid=$!
    # a known point: 1 s of CPU used (the statement runs much longer)
    while c=$(cpu_of $pid) && [ -n "$c" ] && [ "$(echo "$c < 1" | bc)" = 1 ]; do sleep 0.05; done
    s=$(cpu_of $pid)
    kill -INT $pid
    wait $pid; rc=$?
    [ -n "$s" ] || fail "the run ended before the signal: $1 $(head -c 300 "$T/lat.err")"
    lat=$(echo "$(stats_cpu "$T/lat.err") - $s" | bc)
    printf 'sigint   %6.2f s CPU  %s\n' "$lat" "$1"
    [ $rc -eq 130 ] || fail "exit $rc (expected 130; 152: the SIGINT was ignored) for: $1"
    [ "$(echo "$lat > $LAT_MAX" | bc)" = 0 ] || fail "SIGINT latency $lat s CPU for: $1"
}

while read -r code; do
    [ -n "$code" ] || continue
    check_timeout "$code"
    check_sigint "$code"
done <<'LIST'
while true { }
fn f(n) { if n == 0 { return 0; } return f(n - 1) + f(n - 1); } print f(60);
for i in 0..1000000000000 { x = i; }
check x >= 0 for x in 0..1000000000000;
l = [x for x in 0..1000000000000 if false];
r = [0]; t = [0]; i = 0; while i < 40 { r = [r, r]; t = [t, t]; i += 1; } print r == t;
while true { x = canonical(*3000 + *2); }
game g = octal 0.07; grundy g 0..400000000
game g = rules { take 1..inf leave {0,1,2,3}; }; grundy g 0..3000
game g = octal 0.777777777; period g limit 100000000
game g = octal 0.07; genus g 0..100000
game g = octal 0.07; outcome g [100, 100, 100, 100, 100]
game d = octal 0.007; quotient q = d to 300
game d = octal 0.4; quotient q = d limit 100000
game d = octal 0.64; quotient q = d to 400 decide off certify off
dawson 1..200
monoid S = < a, b | a b a = b a b >; kb S max_rules 100000000;
game g = octal 0.07; gp g heaps 2..3 sizes 1..30 population 2000 generations 100000 selection tournament
fn f(s) = len([c for c in s if c == "1"]); ga f length 64 alphabet "01" generations 100000000
mnk 8 8 5
LIST
# The infinite-quotient decision of 0.774 at heap 10 tries windows of
# hundreds to thousands of rows from about 1 s of CPU on; its fit once ran
# 5 s without a poll (stopped by --timeout-cpu=5 at 6.7 s).  Limits inside
# those attempts:
for lim in 2 3 4; do
    check_timeout 'game g = octal 0.774; quotient q = g to 20; print q;' $lim
done
exit 0
