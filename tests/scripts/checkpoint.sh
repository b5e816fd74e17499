#!/bin/sh
# Checkpoints: a long run stopped by --timeout keeps its work in the
# checkpoint file, and running the same statement again resumes and gives
# the same result as an uninterrupted run.
set -u
CGT=${CGT:-build/cgt}
T=${TMP:-/tmp}
fail() { echo "FAIL: $*"; exit 1; }

# Grundy table of 0.14 (no known period) to heap 400,000 (about 1 s: the
# 0.05 s timeout must stop it even on a fast machine)
rm -f "$T/g.ck"
$CGT --timeout=0.05 -e "game s = octal 0.14; grundy s 400000 checkpoint \"$T/g.ck\";" \
    >/dev/null 2>"$T/e"
rc=$?
[ $rc -eq 4 ] || fail "grundy: expected the timeout (exit 4), got $rc: $(cat "$T/e")"
grep -q "saved in $T/g.ck" "$T/e" || fail "grundy: no resume hint: $(cat "$T/e")"
[ -s "$T/g.ck" ] || fail "grundy: no checkpoint written"
a=$($CGT -e "game s = octal 0.14; grundy s 400000 checkpoint \"$T/g.ck\";") || fail "resume"
b=$($CGT -e "game s = octal 0.14; grundy s 400000;") || fail "fresh run"
[ "$a" = "$b" ] || fail "grundy: resumed '$a' != fresh '$b'"

# period search of 0.56 (period 144, preperiod 326,640, published: Gangolli
# and Plambeck; the theorem closes at 2*326640 + 2*144 + 2 - 1 = 653,569),
# stopped by the timeout and resumed from its checkpoint
rm -f "$T/p.ck"
$CGT --timeout=0.05 -e "game s = octal 0.56; period s limit 700000 checkpoint \"$T/p.ck\";" \
    >/dev/null 2>"$T/e"
rc=$?
[ $rc -eq 4 ] || fail "period: expected the timeout (exit 4), got $rc: $(cat "$T/e")"
[ -s "$T/p.ck" ] || fail "period: no checkpoint written"
a=$($CGT -e "game s = octal 0.56; period s limit 700000 checkpoint \"$T/p.ck\";") ||
    fail "period resume"
[ "$(echo "$a" | head -n 1)" = "0.56: period 144, preperiod 326640, proved at heap 653569 by \
the periodicity theorem" ] || fail "period: resumed run gave '$a'"
b=$($CGT -e "game s = octal 0.56; period s limit 700000;") || fail "period fresh run"
[ "$a" = "$b" ] || fail "period: resumed '$a' != fresh '$b'"
# the table of 0.14 is refused for 0.56, and left as it was
cp "$T/g.ck" "$T/g2.ck"
$CGT -e "game s = octal 0.56; period s limit 700000 checkpoint \"$T/g.ck\";" >/dev/null 2>&1 &&
    fail "a checkpoint of 0.14 was accepted for 0.56"
cmp -s "$T/g.ck" "$T/g2.ck" || fail "a refused checkpoint was changed"

# misere quotient of 0.07, stopped on the way to heap 34 (whose quotient is
# infinite, so the timeout always stops it however fast the machine), then
# resumed to heap 33
rm -f "$T/q.ck"
$CGT --timeout=0.3 -e "game d = octal 0.07; quotient q = d to 34 checkpoint \"$T/q.ck\";" \
    >/dev/null 2>"$T/e"
rc=$?
[ $rc -eq 4 ] || fail "quotient: expected the timeout (exit 4), got $rc: $(cat "$T/e")"
[ -s "$T/q.ck" ] || fail "quotient: no checkpoint written"
a=$($CGT -e "game d = octal 0.07; quotient q = d to 33 checkpoint \"$T/q.ck\";
             print order(q), pcount(q), certified(q);") || fail "quotient resume"
[ "$a" = "638 109 true" ] || fail "quotient: resumed run gave '$a'"
# a checkpoint of another game is refused
$CGT -e "game k = octal 0.77; quotient q = k to 34 checkpoint \"$T/q.ck\";" >/dev/null 2>&1 &&
    fail "a checkpoint of 0.07 was accepted for 0.77"
echo ok
