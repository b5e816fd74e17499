#!/bin/sh
# Command line and interpreter under hostile input (docs/testing.md): a directory
# as the script (F20), --timeout=nan/inf/1e300 (F27), loop-free recursion
# that must stop on --timeout and on the first Ctrl-C (F15).
set -u
CGT=${CGT:-build/cgt}
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-hostile-cli.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
fail() { echo "FAIL: $*"; exit 1; }
. tests/scripts/stop_lib

# F20: a directory is not an empty script
mkdir -p "$T/adir"
$CGT "$T/adir" >/dev/null 2>"$T/e"; [ $? -eq 1 ] || fail "directory script exit"
grep -q "cannot read $T/adir: Is a directory" "$T/e" || fail "directory script text: $(cat "$T/e")"
$CGT - <"$T/adir" >/dev/null 2>"$T/e"; [ $? -eq 1 ] || fail "directory stdin exit"
grep -q "cannot read standard input: Is a directory" "$T/e" || fail "directory stdin text"

# F27: a timeout that is not a finite number of seconds is a usage error
for t in nan inf -inf 1e300 -1 1e10; do
    cpu_limit 10 $CGT --timeout=$t -e 'while true { }' >/dev/null 2>"$T/e"
    rc=$?
    [ $rc -eq 2 ] || fail "--timeout=$t: exit $rc, expected 2"
    grep -q "bad --timeout value '$t'" "$T/e" || fail "--timeout=$t text"
done
out=$($CGT --timeout=1e9 -e 'print 1') || fail "--timeout=1e9 must be accepted"
[ "$out" = 1 ] || fail "--timeout=1e9 output"

# F15: recursion without loops polls (before: killed by the outer limit).
# f(60) makes 2^61 calls: only the limit or the signal stops it; the
# SIGINT is sent once the statement before it has printed "go"; a run that
# ignores either ends by its CPU limit (exit 152)
printf 'fn f(n) { if n == 0 { return 0; } return f(n - 1) + f(n - 1); }\nprint "go";\nprint f(60);\n' \
    >"$T/rec.cgt"
cpu_limit 30 $CGT --timeout=1 "$T/rec.cgt" >/dev/null 2>"$T/e"; rc=$?
[ $rc -eq 4 ] || fail "recursion --timeout: exit $rc, expected 4"
grep -q "time limit of 1 s reached" "$T/e" || fail "recursion --timeout text"
rm -f "$T/o"
(cpu_exec 30 $CGT "$T/rec.cgt") >"$T/o" 2>"$T/e" &
pid=$!
wait_for "$T/o" '^go$' $pid || fail "recursion: the script did not start: $(cat "$T/e")"
kill -INT $pid
wait $pid; rc=$?
[ $rc -eq 130 ] || fail "recursion SIGINT: exit $rc, expected 130 (152: the first SIGINT was ignored)"
grep -q "interrupted" "$T/e" || fail "recursion SIGINT text: $(head -3 "$T/e")"

# F14: flat chains of 850,000 operators (and, or, indexing) overflowed the
# interpreter's stack; F31: 5000 nested `if` or 100,000 parentheses gave
# "memory exhausted".  Now a syntax error naming the depth limit, or (for
# parentheses, which add no tree level) the right answer.
gen() { # count prefix unit suffix -> a line "prefix unit x count suffix"
    awk -v n="$1" -v p="$2" -v u="$3" -v s="$4" 'BEGIN { printf "%s", p;
        for (i = 0; i < n; i++) printf "%s", u; print s }'
}
deep() { # name: the script in $T/deep.cgt must be refused as too deep
    cpu_limit 60 $CGT "$T/deep.cgt" >/dev/null 2>"$T/e"; rc=$?
    [ $rc -eq 3 ] || fail "$1: exit $rc, expected 3"
    grep -q "nested too deeply: more than 10000 levels" "$T/e" || fail "$1 text: $(head -c 300 "$T/e")"
    [ "$(wc -c <"$T/e")" -lt 2000 ] || fail "$1: the diagnostic must not echo the whole line"
}
gen 850000 "print " "1+" "1;" >"$T/deep.cgt"; deep "850000 additions"
gen 400000 "print " "true and " "true;" >"$T/deep.cgt"; deep "and chain"
gen 400000 "print " "false or " "true;" >"$T/deep.cgt"; deep "or chain"
{ echo "l = [0];"; gen 1000000 "print l" "[0]" ";"; } >"$T/deep.cgt"; deep "index chain"
gen 200000 "print " "-" "1;" >"$T/deep.cgt"; deep "unary chain"
gen 200000 "print " "2^" "1;" >"$T/deep.cgt"; deep "right-associative chain"
{ gen 5000 "" "if true { " "print 1;"; gen 5000 "" " }" ""; } >"$T/deep.cgt"; deep "5000 nested if"
{ gen 100000 "print " "(" "1"; gen 100000 "" ")" ";"; } >"$T/deep.cgt"
out=$(cpu_limit 60 $CGT "$T/deep.cgt" 2>"$T/e") || fail "100000 parentheses: $(head -c 300 "$T/e")"
[ "$out" = 1 ] || fail "100000 parentheses value"
gen 4000 "print " "1+" "1;" >"$T/deep.cgt"
out=$(cpu_limit 60 $CGT "$T/deep.cgt") || fail "a chain of 4000 additions must run"
[ "$out" = 4001 ] || fail "4000 additions value: $out"
# recursion over deep expressions: bounded by the stack budget, not a crash
{ gen 9000 "fn f(n) { if n == 0 { return 0; } return f(n - 1)" "+0" "; }"; echo "print f(1900);"; } \
    >"$T/deep.cgt"
cpu_limit 120 $CGT "$T/deep.cgt" >/dev/null 2>"$T/e"; rc=$?
[ $rc -eq 4 ] || fail "deep recursion over deep expressions: exit $rc, expected 4"
grep -q "evaluation nested too deeply" "$T/e" || fail "stack budget text: $(head -c 300 "$T/e")"

# F09: elements of an infinite non-commutative monoid reached its count cap
# only after 3.7 GB; the letters are capped too (64 MB of words)
lim=1000000
[ -n "${SANITIZED:-}" ] && lim=unlimited # ASan reserves terabytes of address space
out=$( (ulimit -v $lim; cpu_exec 60 $CGT -e 'monoid M = < a, b | a b = b a >; elements M;') 2>&1 >/dev/null); rc=$?
[ $rc -eq 4 ] || fail "elements of an infinite monoid: exit $rc, expected 4: $out"
echo "$out" | grep -q "letters (the monoid may be infinite)" || fail "elements limit text: $out"
# F09: a Grundy table that cannot be allocated is a limit error, not
# "fatal: out of memory" (address-space limits do not apply under ASan);
# the table keeps one byte per value for 0.07, so 4*10^9 heaps (4 GB) are
# asked for under a 2 GB limit.  A range past the default
# period limit is answered from the proved period (34 for 0.07), so the
# allocation that fails is the list of values (4 bytes each)
if [ -z "${SANITIZED:-}" ]; then
    out=$( (ulimit -v 2000000; cpu_exec 60 $CGT -e 'game g = octal 0.07; grundy g 0..3999999999') 2>&1 >/dev/null); rc=$?
    [ $rc -eq 4 ] || fail "huge Grundy table: exit $rc, expected 4: $out"
    echo "$out" | grep -q "out of memory for a list of 4000000000 Grundy values (15258 MB)" || fail "grundy limit text: $out"
fi
exit 0
