#!/bin/sh
# Command-line behaviour: usage errors (exit 2), io errors (exit 1), -e,
# stdin, --check, SIGINT (exit 130), --version/--help.
set -u
CGT=${CGT:-build/cgt}
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-cli.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
fail() { echo "FAIL: $*"; exit 1; }
. tests/scripts/stop_lib

out=$($CGT -e 'print 2^200') || fail "-e exit"
[ "$out" = 1606938044258990275541962092341162602522202993782792835301376 ] || fail "-e value: $out"
# -e may be repeated: every CODE runs, in order, in one interpreter (not
# only the last one)
out=$($CGT -e 'print 1' -e 'print 2') || fail "-e twice exit"
[ "$out" = "$(printf '1\n2')" ] || fail "-e twice: $out"
out=$($CGT -e 'x = 6' -e 'print x * 7') || fail "-e shared variables exit"
[ "$out" = 42 ] || fail "-e shared variables: $out"

$CGT --bogus >/dev/null 2>"$T/e"; [ $? -eq 2 ] || fail "unknown option exit"
grep -q "cgt: error: unknown option '--bogus'" "$T/e" || fail "unknown option text"
$CGT --format=xml -e 'print 1' >/dev/null 2>&1; [ $? -eq 2 ] || fail "bad format exit"
$CGT --timeout=abc -e 'print 1' >/dev/null 2>&1; [ $? -eq 2 ] || fail "bad timeout exit"

$CGT /nonexistent/x.cgt >/dev/null 2>"$T/e"; [ $? -eq 1 ] || fail "missing file exit"
grep -q "cannot open /nonexistent/x.cgt" "$T/e" || fail "missing file text"

out=$(printf 'x = 6;\nprint x * 7;\n' | $CGT -) || fail "stdin exit"
[ "$out" = 42 ] || fail "stdin value: $out"
out=$(printf 'print 5;' | $CGT) || fail "non-tty stdin exit"
[ "$out" = 5 ] || fail "non-tty stdin value"

printf 'print 1;\nprint (;\n' >"$T/bad.cgt"
$CGT --check "$T/bad.cgt" >/dev/null 2>&1; [ $? -eq 3 ] || fail "--check syntax exit"
printf 'print 1;\n' >"$T/good.cgt"
out=$($CGT --check "$T/good.cgt") || fail "--check good exit"
[ -z "$out" ] || fail "--check must not run the script"

# a syntax error in a later file stops earlier files from running
out=$($CGT "$T/good.cgt" "$T/bad.cgt" 2>/dev/null); [ $? -eq 3 ] || fail "multi-file exit"
[ -z "$out" ] || fail "multi-file: nothing may run"

# Ctrl-C: exit 130 with a message; sent once the endless loop runs (the
# statement before it has printed "go"); a run that ignores it ends by its
# CPU limit (exit 152)
rm -f "$T/o"
(cpu_exec 60 $CGT -e 'print "go"; while true { }') >"$T/o" 2>"$T/e" &
pid=$!
wait_for "$T/o" '^go$' $pid || fail "SIGINT: the script did not start: $(cat "$T/e")"
kill -INT $pid
wait $pid; rc=$?
[ $rc -eq 130 ] || fail "SIGINT exit $rc"
grep -q "error: script interrupted" "$T/e" || fail "SIGINT message: $(cat "$T/e")"

$CGT --version | grep -q '^cgt [0-9]' || fail "--version"
$CGT --help | grep -q 'usage: cgt' || fail "--help"
echo ok
