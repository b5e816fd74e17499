#!/bin/sh
# try/catch does not catch what ends the run (docs/language.md
# "Errors"): Ctrl-C (exit 130), --timeout and --timeout-cpu
# (exit 4), also inside a timeout block; the catch block never runs.
set -u
CGT=${CGT:-build/cgt}
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-try-fatal.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
fail() { echo "FAIL: $*"; exit 1; }
. tests/scripts/stop_lib

# Ctrl-C in a try, in a user loop and in a long builtin: sent once the
# work runs (the endless loop: after the statement before it printed "go";
# the period searches, which never end (limit 2^40): at their first -v
# progress line); a run that ignores it ends by its CPU limit (exit 152)
for body in 'while true { }' 'game g = octal 0.14; period g limit (2^40);' \
            'game g = octal 0.14; timeout 100 { period g limit (2^40); }'; do
    rm -f "$T/o" "$T/e" # the files of the last run would show its progress
    (cpu_exec 60 $CGT -v -e "print \"go\"; try { $body } catch (e) { print \"caught\", e.category; } print \"after\";") \
        >"$T/o" 2>"$T/e" &
    pid=$!
    case $body in
    while*) wait_for "$T/o" '^go$' $pid ;;
    *) wait_for "$T/e" '^\[grundy\] 0\.14: heap [0-9]+ of ' $pid ;;
    esac || fail "($body) did not start: $(cat "$T/e")"
    kill -INT $pid
    wait $pid; rc=$?
    [ $rc -eq 130 ] || fail "SIGINT in try ($body): exit $rc"
    [ "$(cat "$T/o")" = go ] || fail "SIGINT was caught ($body): $(cat "$T/o")"
    grep -q "interrupted" "$T/e" || fail "SIGINT message ($body): $(cat "$T/e")"
done

# the whole run's limits (a period search that never ends: only the limit
# stops it)
for opt in --timeout=0.4 --timeout-cpu=0.4; do
    cpu_limit 60 $CGT "$opt" -e 'try { game g = octal 0.14; timeout 50 { period g limit (2^40); } } catch (e) { print "caught"; } print "after";' \
        >"$T/o" 2>"$T/e"; rc=$?
    [ $rc -eq 4 ] || fail "$opt in try: exit $rc"
    [ -s "$T/o" ] && fail "$opt was caught: $(cat "$T/o")"
    grep -q "time limit of 0.4 s reached" "$T/e" || fail "$opt message: $(cat "$T/e")"
done

# a block deadline inside a run limit: the block's comes first and is caught
out=$(cpu_limit 60 $CGT --timeout-cpu=30 -e 'try { game g = octal 0.14; timeout 0.3 { period g limit (2^40); } } catch (e) { print e.category; } print "after";') \
    || fail "block timeout under --timeout-cpu: exit $?"
[ "$out" = "limit
after" ] || fail "block timeout under --timeout-cpu: $out"
exit 0
