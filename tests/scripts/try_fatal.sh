#!/bin/sh
# try/catch does not catch what ends the run (docs/language.md
# "Errors"): Ctrl-C (exit 130), --timeout and --timeout-cpu
# (exit 4), also inside a timeout block; the catch block never runs.
set -u
CGT=${CGT:-build/cgt}
T=${TMP:-/tmp}
fail() { echo "FAIL: $*"; exit 1; }

# Ctrl-C in a try, in a user loop and in a long builtin
for body in 'while true { }' 'game g = octal 0.14; period g;' \
            'game g = octal 0.14; timeout 100 { period g; }'; do
    $CGT -e "try { $body } catch (e) { print \"caught\", e.category; } print \"after\";" \
        >"$T/o" 2>"$T/e" &
    pid=$!
    sleep 0.5
    kill -INT $pid
    wait $pid; rc=$?
    [ $rc -eq 130 ] || fail "SIGINT in try ($body): exit $rc"
    [ -s "$T/o" ] && fail "SIGINT was caught ($body): $(cat "$T/o")"
    grep -q "interrupted" "$T/e" || fail "SIGINT message ($body): $(cat "$T/e")"
done

# the whole run's limits
for opt in --timeout=0.4 --timeout-cpu=0.4; do
    $CGT "$opt" -e 'try { game g = octal 0.14; timeout 50 { period g; } } catch (e) { print "caught"; } print "after";' \
        >"$T/o" 2>"$T/e"; rc=$?
    [ $rc -eq 4 ] || fail "$opt in try: exit $rc"
    [ -s "$T/o" ] && fail "$opt was caught: $(cat "$T/o")"
    grep -q "time limit of 0.4 s reached" "$T/e" || fail "$opt message: $(cat "$T/e")"
done

# a block deadline inside a run limit: the block's comes first and is caught
out=$($CGT --timeout-cpu=30 -e 'try { game g = octal 0.14; timeout 0.3 { period g; } } catch (e) { print e.category; } print "after";') \
    || fail "block timeout under --timeout-cpu: exit $?"
[ "$out" = "limit
after" ] || fail "block timeout under --timeout-cpu: $out"
exit 0
