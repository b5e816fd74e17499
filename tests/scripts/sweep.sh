#!/bin/sh
# The misere-quotient sweep script bench/misere/sweep.py (docs/misere.md,
# "The sweep") on a handful of codes, so that the script cannot rot while
# the full sweep stays out of `make check`.  Expected values:
# - Q(9) of 0.07: |Q| = 6, |P| = 2, and the tame Q(9) of 0.31 and 0.73:
#   6, 2 (Plambeck's Dawson's Chess note, 2005, as in
#   tests/golden/misere/note.cgt);
# - Q(12) of 0.76 infinite: the proof file the sweep keeps is accepted by
#   the independent checker tests/oracle/mq_infcheck, here and in the row;
# - an undecided heap (0.76 under `max_size 200`, the decision's window too
#   small) and a stop by the budget at a known point (CGT_TEST_LIMIT_AT_POLL,
#   docs/testing.md), each labelled with cgt's hint;
# - a bad code gives an `error` row, not a crash;
# - a re-run skips the codes already in the CSV (the cgt runs are counted
#   through a wrapper);
# - every infinite verdict of the committed bench/results/misere-sweep.csv
#   has its proof file in bench/results/misere-sweep.d with the recorded
#   SHA-256, accepted by the checker.
set -u
CGT=${CGT:-build/cgt}
BUILD=${BUILD:-build}
CHECK=$BUILD/oracle/mq_infcheck
ROOT=$(pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-sweep.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
fail() { echo "FAIL: $*"; exit 1; }
[ -x /usr/bin/time ] || { echo "note: /usr/bin/time missing; sweep test skipped"; exit 0; }
# a wrapper that logs each run's code, then runs cgt (CGT may be a command)
cat >"$T/cgt" <<EOF
#!/bin/sh
for a; do
    case \$a in
    *'game g = octal '*) echo "\$a" | sed 's/.*octal \\([^;]*\\);.*/\\1/' >>"$T/runs" ;;
    esac
done
exec $CGT "\$@"
EOF
chmod +x "$T/cgt"
sweep() { python3 "$ROOT/bench/misere/sweep.py" --cgt "$T/cgt" --check "$CHECK" "$@"; }
field() { # CSV CODE COLUMN-NAME
    python3 - "$1" "$2" "$3" <<'PY'
import csv, sys
rows = list(csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#")))
hit = [r for r in rows if r["code"] == sys.argv[2]]
print(hit[0][sys.argv[3]] if len(hit) == 1 else "%d rows" % len(hit))
PY
}
want() { # CSV CODE COLUMN VALUE
    got=$(field "$1" "$2" "$3")
    [ "$got" = "$4" ] || fail "$2 $3: got '$got', want '$4'"
}

A=$T/a.csv
sweep --heap 9 --budget 60 --out "$A" 0.07 0.31 0.8 >"$T/a.log" 2>&1 ||
    { cat "$T/a.log"; fail "first run"; }
head -n 1 "$A" | grep -q '^# misere quotient sweep, started .*, cgt of commit ' || fail "header"
grep -q "^# command: bench/misere/sweep.py --heap 9 --budget 60 " "$A" || fail "command line"
want "$A" 0.07 verdict finite; want "$A" 0.07 heap 9
want "$A" 0.07 order 6; want "$A" 0.07 pcount 2
want "$A" 0.31 verdict finite; want "$A" 0.31 order 6; want "$A" 0.31 pcount 2
want "$A" 0.31 note tame
want "$A" 0.8 verdict error
field "$A" 0.8 note | grep -q 'octal' || fail "0.8: no message"
[ "$(field "$A" 0.07 peak_rss_kb)" -gt 0 ] || fail "no peak RSS"
# resume: only the new code runs, the old rows stay as they were
cp "$A" "$T/a.before"
: >"$T/runs"
sweep --heap 9 --budget 60 --out "$A" 0.07 0.31 0.8 0.73 >"$T/a2.log" 2>&1 || fail "second run"
[ "$(cat "$T/runs")" = 0.73 ] || fail "resume ran: $(cat "$T/runs")"
head -n "$(wc -l <"$T/a.before")" "$A" | cmp -s - "$T/a.before" || fail "old rows changed"
want "$A" 0.73 verdict finite; want "$A" 0.73 order 6; want "$A" 0.73 pcount 2

B=$T/b.csv
sweep --heap 12 --budget 60 --out "$B" --work "$T/proofs" 0.76 >"$T/b.log" 2>&1 ||
    { cat "$T/b.log"; fail "infinite run"; }
want "$B" 0.76 verdict infinite; want "$B" 0.76 heap 12; want "$B" 0.76 partner 7
want "$B" 0.76 reduce "1 2 2 3 2"
field "$B" 0.76 checker | grep -q '^exit 0: ok: .*the misère quotient Q(12) is infinite' ||
    fail "checker verdict not recorded"
"$CHECK" "$T/proofs/0.76.proof" >"$T/chk" 2>&1 || { cat "$T/chk"; fail "checker rejects"; }
[ "$(sha256sum <"$T/proofs/0.76.proof" | cut -d' ' -f1)" = "$(field "$B" 0.76 proof_sha256)" ] ||
    fail "proof hash"

C=$T/c.csv
sweep --heap 12 --budget 60 --extra "max_size 200" --out "$C" 0.76 >"$T/c.log" 2>&1 ||
    fail "undecided run"
want "$C" 0.76 verdict undecided; want "$C" 0.76 heap 12; want "$C" 0.76 exit 4
field "$C" 0.76 note | grep -q 'infinite-quotient decision for heap 12: undecided' ||
    fail "no hint"
grep -q "^# command: .* --extra 'max_size 200' " "$C" || fail "extra options not in the header"

D=$T/d.csv
CGT_TEST_LIMIT_AT_POLL=100000 sweep --heap 20 --budget 60 --out "$D" 0.6 >"$T/d.log" 2>&1 ||
    fail "budget run"
want "$D" 0.6 verdict budget; want "$D" 0.6 heap 17; want "$D" 0.6 exit 4
field "$D" 0.6 note | grep -q 'q holds the partial result Q(16)' || fail "no partial note"

# the committed sweep: every infinite row's proof file is in the tree, has
# the recorded SHA-256 and is accepted by the independent checker
R=bench/results/misere-sweep.csv
python3 - "$R" >"$T/inf" <<'PY' || fail "cannot read $R"
import csv, sys
for r in csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#")):
    if r["verdict"].startswith("infinite"):
        print(r["code"], r["verdict"], r["proof_sha256"])
PY
[ -s "$T/inf" ] || fail "no infinite rows in $R"
while read -r code verdict sha; do
    [ "$verdict" = infinite ] || fail "$code: $verdict"
    f=bench/results/misere-sweep.d/$code.proof
    [ "$(sha256sum <"$f" | cut -d' ' -f1)" = "$sha" ] || fail "$f: hash differs from the CSV"
    "$CHECK" "$f" >"$T/chk" 2>&1 || { cat "$T/chk"; fail "checker rejects $f"; }
done <"$T/inf"
echo ok
