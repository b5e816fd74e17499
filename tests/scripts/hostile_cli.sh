#!/bin/sh
# Issue 14, command line and interpreter under hostile input: a directory
# as the script (F20), --timeout=nan/inf/1e300 (F27), loop-free recursion
# that must stop on --timeout and on the first Ctrl-C (F15).
set -u
CGT=${CGT:-build/cgt}
T=${TMP:-/tmp}
fail() { echo "FAIL: $*"; exit 1; }

# F20: a directory is not an empty script
mkdir -p "$T/adir"
$CGT "$T/adir" >/dev/null 2>"$T/e"; [ $? -eq 1 ] || fail "directory script exit"
grep -q "cannot read $T/adir: Is a directory" "$T/e" || fail "directory script text: $(cat "$T/e")"
$CGT - <"$T/adir" >/dev/null 2>"$T/e"; [ $? -eq 1 ] || fail "directory stdin exit"
grep -q "cannot read standard input: Is a directory" "$T/e" || fail "directory stdin text"

# F27: a timeout that is not a finite number of seconds is a usage error
for t in nan inf -inf 1e300 -1 1e10; do
    timeout -s KILL 10 $CGT --timeout=$t -e 'while true { }' >/dev/null 2>"$T/e"
    rc=$?
    [ $rc -eq 2 ] || fail "--timeout=$t: exit $rc, expected 2"
    grep -q "bad --timeout value '$t'" "$T/e" || fail "--timeout=$t text"
done
out=$($CGT --timeout=1e9 -e 'print 1') || fail "--timeout=1e9 must be accepted"
[ "$out" = 1 ] || fail "--timeout=1e9 output"

# F15: recursion without loops polls (before: killed by the outer timeout)
printf 'fn f(n) { if n == 0 { return 0; } return f(n - 1) + f(n - 1); }\nprint f(60);\n' \
    >"$T/rec.cgt"
timeout -s KILL 30 $CGT --timeout=1 "$T/rec.cgt" >/dev/null 2>"$T/e"; rc=$?
[ $rc -eq 4 ] || fail "recursion --timeout: exit $rc, expected 4"
grep -q "time limit of 1 s reached" "$T/e" || fail "recursion --timeout text"
$CGT "$T/rec.cgt" >/dev/null 2>"$T/e" &
pid=$!
sleep 1
kill -INT $pid
i=0
while kill -0 $pid 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
kill -0 $pid 2>/dev/null && { kill -KILL $pid; fail "recursion ignores the first SIGINT"; }
wait $pid; rc=$?
[ $rc -eq 130 ] || fail "recursion SIGINT: exit $rc, expected 130"
grep -q "interrupted" "$T/e" || fail "recursion SIGINT text: $(head -3 "$T/e")"
exit 0
