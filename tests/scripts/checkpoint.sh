#!/bin/sh
# Checkpoints: a long run stopped by a limit keeps its work in the
# checkpoint file, and running the same statement again resumes and gives
# the same result as an uninterrupted run.  Each run is stopped at a known
# point of its work by the test hook CGT_TEST_LIMIT_AT_POLL (docs/testing.md:
# the time limit passes at the N-th poll, and the Grundy loop polls once
# per heap), never by a clock racing it: before, --timeout=0.05 was to stop
# a period search that a fast machine finishes in 0.04 s.
set -u
CGT=${CGT:-build/cgt}
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-checkpoint.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
fail() { echo "FAIL: $*"; exit 1; }
# stop_at N CODE: run CODE with the limit passing at the N-th poll
stop_at() { CGT_TEST_LIMIT_AT_POLL=$1 $CGT --timeout=1000 -e "$2" >/dev/null 2>"$T/e"; }
# the value count of a Grundy checkpoint (its header line "count N")
count() { sed -n 's/^count \([0-9][0-9]*\)$/\1/p' "$1" | head -n 1; }

# Grundy table of 0.14 (no known period) to heap 400,000, stopped at about
# heap 150,000
stop_at 150000 "game s = octal 0.14; grundy s 400000 checkpoint \"$T/g.ck\";"
rc=$?
[ $rc -eq 4 ] || fail "grundy: expected the limit (exit 4), got $rc: $(cat "$T/e")"
grep -q "time limit of 1000 s reached" "$T/e" || fail "grundy: message: $(cat "$T/e")"
n=$(count "$T/g.ck")
[ -n "$n" ] && [ "$n" -gt 100000 ] && [ "$n" -lt 400000 ] ||
    fail "grundy: the checkpoint holds '$n' values, not those of the stopped run"
grep -q "the $n values computed are saved in $T/g.ck" "$T/e" || fail "grundy: no resume hint: $(cat "$T/e")"
a=$($CGT -e "game s = octal 0.14; grundy s 400000 checkpoint \"$T/g.ck\";") || fail "resume"
b=$($CGT -e "game s = octal 0.14; grundy s 400000;") || fail "fresh run"
# the resumed result says which values it read (docs/games.md "Checkpoints")
echo "$a" | grep -q "^  from checkpoint '$T/g.ck': G([0-9]*\.\.[0-9]*) read, not recomputed$" ||
    fail "grundy: the resumed result does not name the values read: '$a'"
[ "$(echo "$a" | grep -v '^  from checkpoint')" = "$b" ] || fail "grundy: resumed '$a' != fresh '$b'"

# period search of 0.56 (period 144, preperiod 326,640, published: Gangolli
# and Plambeck; the theorem closes at 2*326640 + 2*144 + 2 - 1 = 653,569),
# stopped at about heap 200,000 and resumed from its checkpoint
stop_at 200000 "game s = octal 0.56; period s limit 700000 checkpoint \"$T/p.ck\";"
rc=$?
[ $rc -eq 4 ] || fail "period: expected the limit (exit 4), got $rc: $(cat "$T/e")"
n=$(count "$T/p.ck")
[ -n "$n" ] && [ "$n" -gt 150000 ] && [ "$n" -lt 653569 ] ||
    fail "period: the checkpoint holds '$n' values, not those of the stopped run"
a=$($CGT -e "game s = octal 0.56; period s limit 700000 checkpoint \"$T/p.ck\";") ||
    fail "period resume"
[ "$(echo "$a" | head -n 1)" = "0.56: period 144, preperiod 326640, proved at heap 653569 by \
the periodicity theorem" ] || fail "period: resumed run gave '$a'"
b=$($CGT -e "game s = octal 0.56; period s limit 700000;") || fail "period fresh run"
echo "$a" | grep -q "^  from checkpoint '$T/p.ck': G([0-9]*\.\.[0-9]*) read, not recomputed$" ||
    fail "period: the resumed result does not name the values read: '$a'"
[ "$(echo "$a" | grep -v '^  from checkpoint')" = "$b" ] || fail "period: resumed '$a' != fresh '$b'"
# the table of 0.14 is refused for 0.56, and left as it was
cp "$T/g.ck" "$T/g2.ck"
$CGT -e "game s = octal 0.56; period s limit 700000 checkpoint \"$T/g.ck\";" >/dev/null 2>&1 &&
    fail "a checkpoint of 0.14 was accepted for 0.56"
cmp -s "$T/g.ck" "$T/g2.ck" || fail "a refused checkpoint was changed"

# misere quotient of 0.07, stopped on the way to heap 34 (whose quotient is
# infinite) after some twenty heaps, then resumed to heap 33
stop_at 3000 "game d = octal 0.07; quotient q = d to 34 checkpoint \"$T/q.ck\";"
rc=$?
[ $rc -eq 4 ] || fail "quotient: expected the limit (exit 4), got $rc: $(cat "$T/e")"
h=$(sed -n 's/^heaps \([0-9][0-9]*\)$/\1/p' "$T/q.ck" | head -n 1)
[ -n "$h" ] && [ "$h" -gt 10 ] && [ "$h" -lt 33 ] ||
    fail "quotient: the checkpoint holds heaps '$h': $(cat "$T/e")"
grep -q "hint: the checkpoint $T/q.ck holds heaps 0..$((h - 1)); run again to resume from heap $h" "$T/e" ||
    fail "quotient: message: $(cat "$T/e")"
a=$($CGT -e "game d = octal 0.07; quotient q = d to 33 checkpoint \"$T/q.ck\";
             print order(q), pcount(q), certified(q);") || fail "quotient resume"
[ "$a" = "638 109 true" ] || fail "quotient: resumed run gave '$a'"
# a checkpoint of another game is refused
$CGT -e "game k = octal 0.77; quotient q = k to 34 checkpoint \"$T/q.ck\";" >/dev/null 2>&1 &&
    fail "a checkpoint of 0.07 was accepted for 0.77"
echo ok
