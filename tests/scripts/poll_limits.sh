#!/bin/sh
# Long operations poll for the limits and Ctrl-C: each case below starts
# work that does not end by itself (a range of 10^12, a list that holds
# itself 2^40 times, an endless loop over an explicit game whose first
# step alone takes minutes) and stops it by --timeout, a `timeout` block or one
# SIGINT.  Before, a comprehension whose filter dropped the items, ==, has,
# str, format, print, write and save of shared lists, and the canonical
# form of an explicit game never polled, and *100000 (the documented
# largest nim heap) took n^2/2 option entries.
set -u
CGT=${CGT:-build/cgt}
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-poll-limits.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
fail() { echo "FAIL: $*"; exit 1; }
. tests/scripts/stop_lib

# the whole run's --timeout: exit 4 with the time-limit message (a run
# that does not poll ends by its CPU limit instead: exit 152)
limit_run() { # what code [option]
    cpu_limit 30 $CGT --timeout=1 ${3:-} -e "$2" >/dev/null 2>"$T/e"; rc=$?
    [ $rc -eq 4 ] || fail "$1: exit $rc after --timeout=1, expected 4 ($(head -c 300 "$T/e"))"
    grep -q "time limit of 1 s reached" "$T/e" || fail "$1: $(head -c 300 "$T/e")"
}

# one SIGINT once the statement runs (the statement before it printed
# "go"): exit 130; a run that ignores it ends by its CPU limit (exit 152)
sigint_run() { # what code
    rm -f "$T/o" "$T/e" # a file of the last run would show its "go"
    (cpu_exec 30 $CGT -e "print \"go\"; $2") >"$T/o" 2>"$T/e" &
    pid=$!
    wait_for "$T/o" '^go$' $pid || fail "$1: did not start: $(head -c 300 "$T/e")"
    kill -INT $pid
    wait $pid; rc=$?
    [ $rc -eq 130 ] || fail "$1: exit $rc after SIGINT, expected 130 (152: the SIGINT was ignored)"
}

# a comprehension whose filter drops every item
comp='l = [x for x in 0..10^12 if false];'
limit_run "comprehension" "$comp"
sigint_run "comprehension" "$comp"
out=$(cpu_limit 30 $CGT -e "try { timeout 0.3 { $comp } } catch (e) { print e.category; }")
[ "$out" = limit ] || fail "comprehension in a timeout block: '$out'"

# a list that holds itself: 2^40 leaves in 41 cells.  Comparing r with t
# takes hours; the text forms stop at their caps (1 GiB, 512 MB for save)
# after seconds, so they run in an endless loop that catches the cap.
mk='r = [0]; t = [0]; i = 0; while i < 40 { r = [r, r]; t = [t, t]; i += 1; }'
again() { printf 'while true { try { %s } catch (e) { } }' "$1"; }
cat >"$T/shared.cgt" <<EOF
$mk
try { timeout 0.2 { x = r == t; } } catch (e) { print "==", e.category; }
try { timeout 0.2 { x = r != t; } } catch (e) { print "!=", e.category; }
try { timeout 0.2 { x = has([r], t); } } catch (e) { print "has", e.category; }
try { timeout 0.2 { $(again 'x = str(r);') } } catch (e) { print "str", e.category; }
try { timeout 0.2 { $(again 'x = format("{}", r);') } } catch (e) { print "format", e.category; }
try { timeout 0.2 { $(again 'print r;') } } catch (e) { print "print", e.category; }
try { timeout 0.2 { $(again "save r \"$T/r.json\";") } } catch (e) { print "save", e.category; }
try { timeout 0.2 { $(again "write r to \"$T/r.out.json\";") } } catch (e) { print "write", e.category; }
try { timeout 0.2 { $(again "write [{a: r}] to \"$T/r.csv\";") } } catch (e) { print "write csv", e.category; }
print r == r, len(r), r[0] == r[1];
EOF
cpu_limit 60 $CGT "$T/shared.cgt" >"$T/out" 2>"$T/e" || fail "shared values: $(head -c 300 "$T/e")"
cat >"$T/want" <<'EOF'
== limit
!= limit
has limit
str limit
format limit
print limit
save limit
write limit
write csv limit
true 2 true
EOF
cmp -s "$T/out" "$T/want" || fail "shared values: $(cat "$T/out")"
for f in r.json r.out.json r.csv; do
    [ ! -e "$T/$f" ] || fail "a stopped save or write left $f"
done
limit_run "== of shared lists" "$mk print r == t;"
sigint_run "str of a shared list" "$mk $(again 'x = str(r);')"
limit_run "JSON output of a shared list" "$mk $(again 'print r;')" --format=json

# explicit games: *100000 is small and quick (before: 5 * 10^9 option
# entries); the canonical form of *3000 + *2 takes minutes and polls
# throughout (the loop makes the work endless)
lim=400000
[ -n "${SANITIZED:-}" ] && lim=unlimited # ASan reserves terabytes of address space
out=$( (ulimit -v $lim; cpu_exec 20 $CGT --timeout-cpu=10 -e \
    'x = *100000; print positions(x), birthday(x), options(x)[99999] == *99999, x;') 2>&1)
[ "$out" = "100001 100000 true *100000" ] || fail "*100000: $out"
# (building the sum takes about 0.4 s and polls anyway: the limits are
# CPU time, reached in the canonical form)
sum='x = *3000 + *2;'
ig='while true { y = canonical(x); }'
cpu_limit 60 $CGT --timeout-cpu=1 -e "$sum $ig" >/dev/null 2>"$T/e"; rc=$?
[ $rc -eq 4 ] || fail "canonical form: exit $rc after --timeout-cpu=1, expected 4 ($(head -c 300 "$T/e"))"
grep -q "CPU time limit of 1 s reached" "$T/e" || fail "canonical form: $(head -c 300 "$T/e")"
out=$(cpu_limit 60 $CGT -e "$sum try { timeout 0.5 { $ig } } catch (e) { print e.category; } print canonical(*3 + *2) == *3 + *2;")
[ "$out" = "limit
true" ] || fail "explicit games in a timeout block: '$out'"
# a nim heap is saved as {"nim": k}: *100000 in about 1.6 MB
out=$(cpu_limit 20 $CGT -e "x = {*100000, {*7}}; save x \"$T/g.json\"; y = load(\"$T/g.json\"); print y, positions(y) == positions(x);") ||
    fail "save *100000: $out"
[ "$out" = "{{*7}, *100000} true" ] || fail "save and load of *100000: $out"
[ "$(wc -c <"$T/g.json")" -lt 3000000 ] || fail "*100000 saved in $(wc -c <"$T/g.json") bytes"

# kb stopped by a timeout block: the statement printed the system so far
# and e.partial holds it
out=$(cpu_limit 30 $CGT -e 'monoid B = < a, b | a b a = b a b >;
try { timeout 0.3 { kb B; } } catch (e) { print "caught", e.category, type(e.partial), e.partial.nrules > 0; }' |
    grep caught)
[ "$out" = "caught limit record true" ] || fail "kb partial: '$out'"
echo ok
