#!/bin/sh
# No computed work is lost by a checkpointing statement:
#  1. `grundy G 0..N checkpoint F` with N past the default period limit
#     (2^25 for 0.6) first searches for a period; that search saves to F
#     when stopped and resumes from F (docs/errors.md rule 6, docs/games.md
#     §7 "Heap sizes");
#  2. a stopped `quotient ... checkpoint` says which heaps its file holds.
# Every run is stopped by SIGINT after it reported a known point of
# progress (-v prints "heap N of M" lines), never by a clock racing bounded
# work: each run has far more work left than the point waited for.
set -u
CGT=${CGT:-build/cgt}
case $CGT in /*) ;; *) CGT=$PWD/$CGT ;; esac
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-checkpoint-stops.XXXXXX") || exit 1
pids=""
trap 'for p in $pids; do kill -9 "$p" 2>/dev/null; done; rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
. tests/scripts/stop_lib
cd "$T" || exit 1
: >e1 && : >e2 && : >e3 && : >e4 || exit 1
fail() { echo "FAIL: $*"; exit 1; }

# the value count of a Grundy checkpoint (its header line "count N")
count() { sed -n 's/^count \([0-9][0-9]*\)$/\1/p' "$1" | head -n 1; }

officers='game g = octal 0.6; grundy g 0..40000000 checkpoint "o.ck";'

# ---- 1. the period search of `grundy ... checkpoint` ----
(cpu_exec 600 $CGT -v -e "$officers") >/dev/null 2>e1 &
p=$!
pids="$p"
wait_heap e1 300000 $p || fail "1: no progress to heap 300000: $(tail -n 3 e1)"
kill -INT $p
wait $p
rc=$?
[ $rc -eq 130 ] || fail "1: SIGINT exit $rc: $(tail -n 3 e1)"
[ -s o.ck ] || fail "1: stopped in the period search, no checkpoint was written"
n1=$(count o.ck)
[ -n "$n1" ] && [ "$n1" -ge 300000 ] && [ "$n1" -lt 33554432 ] ||
    fail "1: the checkpoint holds '$n1' values, not the >= 300000 of the period search"
grep -q "the $n1 values computed are saved in o.ck" e1 || fail "1: message: $(tail -n 3 e1)"
# run again: the search resumes from the file, and the file grows when stopped
(cpu_exec 600 $CGT -v -e "$officers") >/dev/null 2>e2 &
p=$!
pids="$p"
wait_heap e2 $((n1 + 200000)) $p || fail "1: no progress past the checkpoint: $(tail -n 3 e2)"
kill -INT $p
wait $p
rc=$?
[ $rc -eq 130 ] || fail "1: second SIGINT exit $rc"
grep -q "resumed 0.6 from o.ck at $n1 values" e2 ||
    fail "1: the period search did not resume from the checkpoint: $(head -n 3 e2)"
n2=$(count o.ck)
[ "$n2" -ge $((n1 + 200000)) ] || fail "1: the checkpoint was not updated ($n1 -> $n2)"
# the same for one heap past the limit
(cpu_exec 600 $CGT -v -e 'game g = octal 0.6; grundy g 40000000 checkpoint "o.ck";') >/dev/null 2>e3 &
p=$!
pids="$p"
wait_heap e3 $((n2 + 200000)) $p || fail "1: one heap: no progress: $(tail -n 3 e3)"
kill -INT $p
wait $p
grep -q "resumed 0.6 from o.ck at $n2 values" e3 || fail "1: one heap: not resumed: $(head -n 3 e3)"
[ "$(count o.ck)" -ge $((n2 + 200000)) ] || fail "1: one heap: the checkpoint was not updated"

# ---- 2. a stopped quotient names the heaps its checkpoint holds ----
# (the quotient of 0.07 on heaps 0..34 is infinite: the construction of
# heap 34 never ends; its progress lines say "heap 34: ...")
(cpu_exec 600 $CGT -v -e 'game d = octal 0.07; quotient q = d to 34 checkpoint "q.ck";') >/dev/null 2>e4 &
p=$!
pids="$p"
wait_for e4 '^\[quotient\] heap 34: ' $p || fail "2: no progress: $(tail -n 3 e4)"
kill -INT $p
wait $p
rc=$?
[ $rc -eq 130 ] || fail "2: SIGINT exit $rc: $(tail -n 3 e4)"
grep -aq '^heaps 34$' q.ck || fail "2: the checkpoint holds $(grep -a '^heaps' q.ck)"
grep -q "hint: the checkpoint q.ck holds heaps 0..33; run again to resume from heap 34" e4 ||
    fail "2: the stop message: $(tail -n 2 e4)"
pids=""
echo ok
