#!/bin/sh
# A limit that passes at a statement's boundary (docs/language.md "Errors:
# try, catch and timeout"): a statement that completed prints its whole
# result and is not reported as stopped, even when the limit passes while
# it returns; the next statement does not start; a statement stopped inside
# its work prints no result as if complete, only what it labels as partial.
# The limit is made to pass at an exact point by the test hooks of
# docs/testing.md (CGT_TEST_LIMIT_AFTER: after the N-th completed
# statement; CGT_TEST_LIMIT_AT_POLL: at the N-th poll of a long
# computation), so the verdict does not depend on the machine's speed.
# Before, the evaluator checked the limits after each statement: a period
# search that ended as --timeout passed printed its whole result, then
# "time limit reached", and exited 4.
set -u
CGT=${CGT:-build/cgt}
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-boundary.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
fail() { echo "FAIL: $*"; exit 1; }

# run HOOK=N CODE [OPTION]: stdout in $T/o, stderr in $T/e, exit in $rc
run() {
    env "$1" $CGT ${3:---timeout=100} -e "$2" >"$T/o" 2>"$T/e"
    rc=$?
}

# 0.56: period 144, preperiod 326640 (Gangolli and Plambeck), a search of
# 653,569 values
per='game s = octal 0.56; period s limit 700000;'
full="0.56: period 144, preperiod 326640, proved at heap 653569 by the periodicity theorem
  last exceptional value at heap 326639 (291858 exceptional heaps)"

# 1. the limit passes as the last statement returns: its result, exit 0
run CGT_TEST_LIMIT_AFTER=2 "$per"
[ $rc -eq 0 ] || fail "1: exit $rc after a completed statement: $(cat "$T/e")"
[ "$(cat "$T/o")" = "$full" ] || fail "1: output: $(cat "$T/o")"
[ -s "$T/e" ] && fail "1: a completed statement reported: $(cat "$T/e")"
# the same with only --timeout-cpu
run CGT_TEST_LIMIT_AFTER=2 "$per" --timeout-cpu=100
[ $rc -eq 0 ] && [ "$(cat "$T/o")" = "$full" ] && [ ! -s "$T/e" ] ||
    fail "1: --timeout-cpu: exit $rc: $(cat "$T/e")"

# 2. a statement follows: it does not start, the run stops with exit 4 at it
run CGT_TEST_LIMIT_AFTER=2 "$per
print \"after\";"
[ $rc -eq 4 ] || fail "2: exit $rc, expected 4: $(cat "$T/e")"
[ "$(cat "$T/o")" = "$full" ] || fail "2: output: $(cat "$T/o")"
grep -q '^<expr>:2:1: error: script stopped: time limit of 100 s reached' "$T/e" ||
    fail "2: the error must name the statement that did not start: $(cat "$T/e")"
run CGT_TEST_LIMIT_AFTER=2 "$per
print \"after\";" --timeout-cpu=100
[ $rc -eq 4 ] && grep -q "error: script stopped: CPU time limit of 100 s reached" "$T/e" ||
    fail "2: --timeout-cpu: exit $rc: $(cat "$T/e")"

# 3. loops: the limit passing in the last iteration leaves the loop
# complete; in an earlier one the next iteration does not start
for n in 3 4; do # after `print 3`, after the loop itself
    run CGT_TEST_LIMIT_AFTER=$n 'for i in 1..3 { print i; }'
    [ $rc -eq 0 ] && [ "$(cat "$T/o")" = "1
2
3" ] && [ ! -s "$T/e" ] || fail "3: a completed loop (N=$n): exit $rc: $(cat "$T/o" "$T/e")"
done
run CGT_TEST_LIMIT_AFTER=2 'for i in 1..3 { print i; }'
[ $rc -eq 4 ] && [ "$(cat "$T/o")" = "1
2" ] || fail "3: a stopped loop: exit $rc: $(cat "$T/o" "$T/e")"
run CGT_TEST_LIMIT_AFTER=2 'i = 0; while i < 2 { i += 1; } print i;'
# statements: i = 0 (1), i += 1 (2): the second iteration does not start
[ $rc -eq 4 ] && [ ! -s "$T/o" ] || fail "3: while: exit $rc: $(cat "$T/o" "$T/e")"
run CGT_TEST_LIMIT_AFTER=3 'i = 0; while i < 2 { i += 1; } print i;'
[ $rc -eq 4 ] && [ ! -s "$T/o" ] || fail "3: while (N=3): exit $rc: $(cat "$T/o" "$T/e")"
run CGT_TEST_LIMIT_AFTER=4 'i = 0; while i < 2 { i += 1; } print i;'
[ $rc -eq 4 ] && [ ! -s "$T/o" ] || fail "3: while (N=4): exit $rc: $(cat "$T/o" "$T/e")"
run CGT_TEST_LIMIT_AFTER=5 'i = 0; while i < 2 { i += 1; } print i;'
[ $rc -eq 0 ] && [ "$(cat "$T/o")" = 2 ] || fail "3: while (N=5): exit $rc: $(cat "$T/o" "$T/e")"
# a function's statements count; its caller's statement completes
run CGT_TEST_LIMIT_AFTER=3 'fn f(x) { y = x + 1; return y; } print f(1);'
[ $rc -eq 0 ] && [ "$(cat "$T/o")" = 2 ] || fail "3: fn: exit $rc: $(cat "$T/o" "$T/e")"
run CGT_TEST_LIMIT_AFTER=2 'fn f(x) { y = x + 1; return y; } print f(1);'
[ $rc -eq 4 ] && [ ! -s "$T/o" ] || fail "3: fn stopped: exit $rc: $(cat "$T/o" "$T/e")"

# 4. the run's limit is not caught by try, also at a boundary
run CGT_TEST_LIMIT_AFTER=1 'try { x = 1; y = 2; } catch (e) { print "caught"; } print "after";'
[ $rc -eq 4 ] && [ ! -s "$T/o" ] || fail "4: try: exit $rc: $(cat "$T/o" "$T/e")"

# 5. stopped inside its work: no result as if complete; a quotient names
# its partial result
run CGT_TEST_LIMIT_AT_POLL=200000 "$per"
[ $rc -eq 4 ] || fail "5: period: exit $rc: $(cat "$T/e")"
[ -s "$T/o" ] && fail "5: a stopped period search printed: $(cat "$T/o")"
grep -q "error: grundy computation stopped: time limit of 100 s reached" "$T/e" ||
    fail "5: period: $(cat "$T/e")"
run CGT_TEST_LIMIT_AT_POLL=500 'game d = octal 0.07; quotient q = d to 20; print order(q);'
[ $rc -eq 4 ] || fail "5: quotient: exit $rc: $(cat "$T/e")"
[ -s "$T/o" ] && fail "5: a stopped quotient printed: $(cat "$T/o")"
grep -q "error: misere quotient stopped: time limit of 100 s reached" "$T/e" &&
    grep -Eq "hint: q holds the partial result Q\(([0-9]|1[0-9])\)$" "$T/e" ||
    fail "5: quotient: $(cat "$T/e")"
# (without the hook the same statement completes)
$CGT -e 'game d = octal 0.07; quotient q = d to 20; print order(q);' >"$T/o" 2>"$T/e" &&
    [ -s "$T/o" ] && [ ! -s "$T/e" ] || fail "5: Q(20) of 0.07: $(cat "$T/o" "$T/e")"

# 6. the hooks take counts
for v in abc -1 1x ""; do
    CGT_TEST_LIMIT_AFTER=$v $CGT -e 'print 1' >"$T/o" 2>"$T/e"
    rc=$?
    [ $rc -eq 2 ] && grep -q "bad CGT_TEST_LIMIT_AFTER value '$v' (a count)" "$T/e" ||
        fail "6: CGT_TEST_LIMIT_AFTER='$v': exit $rc: $(cat "$T/e")"
done
echo ok
