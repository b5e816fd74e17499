#!/bin/sh
# `ptypes` shows each P-type's line as soon as its genus is known, and a
# stopped `ptypes` leaves the types done as a labelled partial result
# (docs/misere.md, "Genus of the P-types"), checked on Q(33) of 0.07
# against its 109 rows in tests/data/ptypes-0.07-33.out:
#  - text, Ctrl-C: the line of the first type is on stdout while the run
#    goes on (the script waits for it, then sends SIGINT); the run ends
#    with exit 130, its stdout the head line, the first k rows and the line
#    "(stopped: k of the 109 types done)", the hint naming k;
#  - JSON, Ctrl-C (sent at the -v progress line of the first type): one
#    error object whose partial is the ptypes record, partial true, its
#    types the first rows;
#  - the run's time limit, passed at a fixed poll inside the statement
#    (CGT_TEST_LIMIT_AT_POLL, docs/testing.md): exit 4 and the same form.
# No stop races a clock: each waits for a line, or passes at a count of
# work; a run that never gets there ends by its CPU limit and fails.
set -u
CGT=${CGT:-build/cgt}
. tests/scripts/stop_lib
REF=$PWD/tests/data/ptypes-0.07-33.out
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-ptypes-stream.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
fail() { echo "FAIL: $*"; exit 1; }
S='game dk = octal 0.07; quotient q = dk to 33; ptypes q;'

# check_text FILE: the head line, k rows of the reference in order, the
# stop line for k; prints k
check_text() {
    [ "$(head -n 1 "$1")" = "$(head -n 1 "$REF")" ] || fail "head line: $(head -n 1 "$1")"
    n=$(wc -l <"$1")
    k=$((n - 2))
    [ $k -ge 0 ] && [ $k -lt 109 ] || fail "$n lines of output"
    [ "$(tail -n 1 "$1")" = "  (stopped: $k of the 109 types done)" ] ||
        fail "last line: $(tail -n 1 "$1")"
    head -n $((k + 1)) "$1" | cmp -s - "$(head_ref $((k + 1)))" ||
        fail "the rows differ from the first $k of $REF"
    echo $k
}
head_ref() { head -n "$1" "$REF" >"$T/ref_head"; echo "$T/ref_head"; }

# text, Ctrl-C once the first row is out
rm -f "$T/out" "$T/err"
(cpu_exec 120 "$CGT" -e "$S" >"$T/out" 2>"$T/err") &
pid=$!
wait_for "$T/out" '^  a +genus 1\^031$' $pid || fail "no row for type a before the run ended"
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] || fail "exit $rc after SIGINT, 130 expected ($(tail -n 3 "$T/err"))"
k=$(check_text "$T/out") || { echo "$k"; exit 1; }
[ "$k" -ge 1 ] || fail "no row before the stop"
grep -q "interrupted" "$T/err" || fail "no 'interrupted' in: $(cat "$T/err")"
grep -q "^hint: the partial result holds the $k P-types done of 109$" "$T/err" ||
    fail "hint: $(grep hint "$T/err")"

# JSON, Ctrl-C at the progress line of the first type
rm -f "$T/jout" "$T/jerr"
(cpu_exec 120 "$CGT" -v --format=json -e "$S" >"$T/jout" 2>"$T/jerr") &
pid=$!
wait_for "$T/jerr" 'type 1 of 109 \(a\): 1\^031' $pid || fail "no progress line for type a"
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] || fail "JSON: exit $rc after SIGINT, 130 expected"
python3 - "$T/jout" "$REF" <<'PY' || fail "JSON partial result: $(head -c 300 "$T/jout")"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
assert len(lines) == 1, "one object expected, got %d" % len(lines)
e = lines[0]
assert e["kind"] == "error" and e["category"] == "interrupted" and e["exit"] == 130, e
p = e["partial"]
assert p["kind"] == "ptypes" and p["partial"] is True and p["pcount"] == 109, p
assert list(p) == ["kind", "game", "heap", "pcount", "types", "partial"], list(p)
ref = [l.split() for l in open(sys.argv[2]).read().splitlines()[1:]]
got = [[t["type"], "genus", t["genus"]] for t in p["types"]]
assert len(got) < 109 and got == ref[:len(got)], got
PY

# the run's time limit at a fixed poll inside ptypes (building the
# quotients with nim heaps adjoined)
CGT_TEST_LIMIT_AT_POLL=8000000 cpu_limit 120 "$CGT" --timeout-cpu=100000 -e "$S" >"$T/lout" 2>"$T/lerr"
rc=$?
[ $rc -eq 4 ] || fail "time limit: exit $rc, 4 expected ($(tail -n 3 "$T/lerr"))"
grep -q "^P-position types" "$T/lout" ||
    fail "the limit passed outside ptypes (the poll count 8000000 must land in it): $(head -n 1 "$T/lerr")"
k=$(check_text "$T/lout") || { echo "$k"; exit 1; }
grep -q "CPU time limit of 100000 s reached" "$T/lerr" || fail "time limit: $(head -n 1 "$T/lerr")"
grep -q "^hint: the partial result holds the $k P-types done of 109$" "$T/lerr" ||
    fail "time limit hint: $(grep hint "$T/lerr")"
echo "ptypes rows streamed; Ctrl-C (text, JSON) and the time limit leave the types done, labelled"
