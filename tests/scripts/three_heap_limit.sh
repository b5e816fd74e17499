#!/bin/sh
# Codes whose moves leave three heaps (hex digits >= 8, e.g. 0.4C) cost
# about n^2/12 triples per heap: `period` and `table` stop at a default
# limit scaled with that cost (the largest N with N^3/36 <= 2^33, computed
# here independently), progress names the heap, the limit and the time
# left, and `table` says when it starts such a search.  (A limit of 2^25
# heaps, as for two-heap codes, would mean years of CPU for 0.4C; so the
# default search never ends in a test, and only the CPU limit stops it.)
set -u
CGT=${CGT:-build/cgt}
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-three-heap-limit.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
fail() { echo "FAIL: $*"; exit 1; }
. tests/scripts/stop_lib
lim=$(awk 'BEGIN { n = 1; while ((n + 1) ^ 3 / 36 <= 2 ^ 33) n++; print n }')

cpu_limit 60 $CGT -v --timeout-cpu=2 -e 'game g = hex 0.4C; period g;' >/dev/null 2>"$T/e"; rc=$?
[ $rc -eq 4 ] || fail "period 0.4C under a 2 s CPU limit: exit $rc, expected 4"
grep -q "0.4C: heap [0-9]* of $lim, max value [0-9]*, about [0-9]* s left" "$T/e" ||
    fail "progress of 0.4C names no heap of $lim with an estimate: $(tail -n 3 "$T/e")"

cpu_limit 60 $CGT -v --timeout-cpu=1 -e 'game g = hex 0.4C; table g;' >/dev/null 2>"$T/e"; rc=$?
[ $rc -eq 4 ] || fail "table 0.4C under a 1 s CPU limit: exit $rc, expected 4"
grep -q "\[table\] 0.4C: searching for a period up to heap $lim" "$T/e" ||
    fail "table does not say it starts a long search: $(head -n 2 "$T/e")"

# an explicit limit is kept, and a two-heap code keeps 2^25 (no announcement)
out=$($CGT -e 'game g = hex 0.4C; period g limit 200;') || fail "period 0.4C limit 200"
echo "$out" | grep -q "observed in 200 values" || fail "limit 200: $out"
$CGT -v -e 'game s = octal 0.07; table s rows 1;' >/dev/null 2>"$T/e" || fail "table 0.07"
grep -q "searching" "$T/e" && fail "table 0.07 announced a long search"
exit 0
