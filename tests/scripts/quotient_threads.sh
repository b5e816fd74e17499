#!/bin/sh
#@ timeout: 300
# Two threads for the misère quotient (docs/misere.md "Two threads"): the
# quotient built with `threads 1` and the one built on 2 and 3 threads
# (`threads T`, `cgt --threads=T`, CGT_THREADS=T) are saved with `save`
# and compared byte for byte, with every recalibration policy, and the
# engine's counters of --stats (fast hits, slow tests, expansions,
# recalibrations, failures) must be equal too: the pieces run on several
# threads are judged in the order one thread takes them.  A threaded run
# stopped by a limit at a known poll (CGT_TEST_LIMIT_AT_POLL) or by SIGINT
# after a known point of its progress keeps its partial result and says
# so.  SLOW=1 (the slow tier, tests/scripts/quotient_threads_slow.sh) runs
# larger heaps.
set -u
CGT=${CGT:-build/cgt}
case $CGT in /*) ;; *) CGT=$PWD/$CGT ;; esac
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-quotient-threads.XXXXXX") || exit 1
pids=""
trap 'for p in $pids; do kill -9 "$p" 2>/dev/null; done; rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
. tests/scripts/stop_lib
cd "$T" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

# the counters of the --stats line of a quotient
counters() { sed -n 's/.*\(fast hits .*\)$/\1/p' "$1"; }

# same CODE N RECAL: Q(N) of CODE with 1, 2 and 3 threads, saved and compared
same() {
    prog="game g = octal $1; quotient q = g to $2 recal $3; save q \"q.json\";"
    cpu_limit 600 $CGT --stats -e "game g = octal $1; quotient q = g to $2 recal $3 threads 1; save q \"q1.json\";" \
        >out1 2>err1 || fail "$1 to $2 ($3), one thread: $(tail -n 3 err1)"
    cpu_limit 600 $CGT --stats -e "game g = octal $1; quotient q = g to $2 recal $3 threads 2; save q \"q2.json\";" \
        >out2 2>err2 || fail "$1 to $2 ($3), threads 2: $(tail -n 3 err2)"
    (CGT_THREADS=3 cpu_exec 600 $CGT --stats -e "$prog") >out3 2>err3 ||
        fail "$1 to $2 ($3), CGT_THREADS=3: $(tail -n 3 err3)"
    mv q.json q3.json
    cpu_limit 600 $CGT --threads=2 -e "$prog" >out4 2>err4 ||
        fail "$1 to $2 ($3), --threads=2: $(tail -n 3 err4)"
    mv q.json q4.json
    for k in 2 3 4; do
        cmp -s q1.json q$k.json || fail "$1 to $2 ($3): the quotient of run $k differs from one thread's"
    done
    c1=$(counters err1)
    [ -n "$c1" ] || fail "$1 to $2: no counters in --stats: $(cat err1)"
    for k in 2 3; do
        [ "$(counters err$k)" = "$c1" ] ||
            fail "$1 to $2 ($3): counters of run $k '$(counters err$k)', one thread '$c1'"
    done
    rm -f q1.json q2.json q3.json q4.json
}

if [ -n "${SLOW:-}" ]; then
    for gn in "0.57 100" "0.26 80" "4.7 50" "0.145 200" "0.54 150"; do
        same $gn first
    done
    same 0.57 70 smallest
    same 0.26 60 lift
else
    for gn in "0.57 60" "0.26 40" "4.7 30" "0.145 100" "0.54 80" "0.07 33"; do
        same $gn first
    done
    for p in smallest jump lift; do
        same 0.57 45 $p
        same 0.07 30 $p
    done
fi

# ---- a limit at a known poll: the partial result, exit 4 ----
CGT_TEST_LIMIT_AT_POLL=20000 cpu_limit 600 $CGT --threads=2 -e \
    'game g = octal 0.57; quotient q = g to 100;' >out 2>err
rc=$?
[ $rc -eq 4 ] || fail "limit: exit $rc: $(cat err)"
grep -q "misere quotient stopped" err || fail "limit: message: $(cat err)"
grep -q "q holds the partial result Q(" err || fail "limit: no partial result: $(cat err)"

# ---- SIGINT after a known point: heap 34 of 0.07 never closes (Q(34) is
# infinite; `decide off` keeps the construction recalibrating) ----
rm -f e
(cpu_exec 600 $CGT -v -e 'game d = octal 0.07; quotient q = d to 34 decide off threads 2;') \
    >/dev/null 2>e &
p=$!
pids="$p"
wait_for e '^\[quotient\] heap 34: recalibrat' $p || fail "SIGINT: no progress: $(tail -n 3 e)"
kill -INT $p
wait $p
rc=$?
pids=""
[ $rc -eq 130 ] || fail "SIGINT: exit $rc: $(tail -n 3 e)"
grep -q "misere quotient interrupted" e || fail "SIGINT: message: $(tail -n 3 e)"
grep -q "q holds the partial result Q(33)" e || fail "SIGINT: partial result: $(tail -n 3 e)"
echo ok
