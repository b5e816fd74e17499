#!/bin/sh
# One writer per checkpoint (docs/errors.md, rule 8): while a run holds a
# checkpoint path, a second run given the same path is refused at its start
# (io error, exit 1, naming the first run's process), whichever
# checkpointing statement it is (grundy, period, quotient, mnk); the first
# run goes on and its file is intact; the lock file goes when the run ends,
# and one left by `kill -9` holds no lock.  The first run is stopped by
# SIGINT after it reported a known point of progress (-v prints "heap N of
# M" lines), never by a clock racing bounded work: it has far more work
# left than the point waited for.
set -u
CGT=${CGT:-build/cgt}
case $CGT in /*) ;; *) CGT=$PWD/$CGT ;; esac
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-checkpoint-lock.XXXXXX") || exit 1
pids=""
trap 'for p in $pids; do kill -9 "$p" 2>/dev/null; done; rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
. tests/scripts/stop_lib
cd "$T" || exit 1
: >a || exit 1
fail() { echo "FAIL: $*"; exit 1; }

# the value count of a Grundy checkpoint (its header line "count N")
count() { sed -n 's/^count \([0-9][0-9]*\)$/\1/p' "$1" | head -n 1; }

# below 2^25, the default period limit of 0.6: the run fills the table
(cpu_exec 600 $CGT -v -e 'game g = octal 0.6; grundy g 0..30000000 checkpoint "s.ck";') >/dev/null 2>a &
pa=$!
pids="$pa"
wait_heap a 200000 $pa || fail "no progress: $(tail -n 3 a)"
for stmt in 'game g = octal 0.6; grundy g 0..100 checkpoint "s.ck";' \
            'game g = octal 0.6; period g checkpoint "s.ck";' \
            'game d = octal 0.07; quotient q = d to 10 checkpoint "s.ck";' \
            'mnk 4 4 4 checkpoint "s.ck";'; do
    $CGT -e "$stmt" >out 2>b
    rc=$?
    [ $rc -eq 1 ] || fail "a second run exit $rc, expected 1 (io): $stmt: $(cat b)"
    grep -q "error: checkpoint 's.ck' is in use by another run of cgt (process $pa)" b ||
        fail "message: $(cat b)"
    [ -s out ] && fail "the refused run printed: $(cat out)"
done
# the script's `try` sees an io error
$CGT -e 'try { mnk 4 4 4 checkpoint "s.ck"; } catch (e) { print e.category; }' >out 2>&1
[ "$(cat out)" = io ] || fail "category: $(cat out)"
kill -0 $pa 2>/dev/null || fail "the first run ended"
kill -INT $pa
wait $pa
rc=$?
[ $rc -eq 130 ] || fail "the first run exit $rc: $(tail -n 3 a)"
grep -q "cannot write checkpoint" a && fail "the first run could not save: $(cat a)"
[ "$(count s.ck)" -ge 200000 ] || fail "the first run's checkpoint holds $(count s.ck) values"
[ -e s.ck.lock ] && fail "the lock file is left behind"
ls ./*.tmp 2>/dev/null && fail "temporary files left"
# once the first run has ended the path is free again, and its file loads
$CGT -e 'game g = octal 0.6; grundy g 0..10 checkpoint "s.ck";' >out 2>b ||
    fail "the path after the first run: $(cat b)"
# a lock file left by a run killed with -9 holds no lock
rm -f a # the last run's progress lines would match at once
(cpu_exec 600 $CGT -v -e 'game g = octal 0.6; grundy g 0..30000000 checkpoint "k.ck";') >/dev/null 2>a &
p=$!
pids="$p"
wait_heap a 100000 $p || fail "no progress: $(tail -n 3 a)"
kill -9 $p
wait $p 2>/dev/null
[ -e k.ck.lock ] || fail "kill -9 removed the lock file?"
$CGT -e 'game g = octal 0.6; grundy g 0..10 checkpoint "k.ck";' >out 2>b ||
    fail "a stale lock file refused the path: $(cat b)"
[ -e k.ck.lock ] && fail "the stale lock file was not removed"

pids=""
echo ok
