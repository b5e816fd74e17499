#!/bin/sh
# ga (docs/gp.md "Genetic algorithms"): the answers of examples/ga.cgt
# against exhaustive searches in Python (tests/scripts/ga_oracle.py: the 92
# eight-queens solutions, the knapsack optimum, the fewest tokens of a
# Dawson's Kayles position whose misere and normal outcomes differ);
# threads 1 and 2 and --seed give the same search; the record survives
# save and load, `write` makes its history a CSV table and `plot` an SVG
# with one point per generation; a stop at a known poll prints the best so
# far before the limit error; bad fitness values and options are errors.
set -u
CGT=${CGT:-build/cgt}
case $CGT in /*) ;; *) CGT=$(pwd)/$CGT ;; esac
ROOT=$(pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-ga.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
fail() { echo "FAIL: $*"; exit 1; }
cd "$T" || exit 1

"$CGT" "$ROOT/examples/ga.cgt" >ex.out 2>ex.err || fail "examples/ga.cgt: $(cat ex.err)"
python3 "$ROOT/tests/scripts/ga_oracle.py" ex.out || fail "an answer of examples/ga.cgt is not optimal"

cat >q.cgt <<'CGT'
fn clashes(q) {
    n = 0;
    for i in 0..6 { for j in (i + 1)..7 {
        d = q[j] - q[i];
        if d == 0 or d == j - i or d == i - j { n += 1; }
    } }
    return 0 - n;
}
a = ga(clashes, {length: 8, values: 0..7, runs: 3, generations: 30, seed: 5, threads: 1});
b = ga(clashes, {length: 8, values: 0..7, runs: 3, generations: 30, seed: 5, threads: 2});
check a.chromosome == b.chromosome and a.history == b.history and a.run_best == b.run_best;
check a.evaluations == b.evaluations and a.threads == 1 and b.threads == 2;
check len(a.history) == 30 and a.evaluations == 3 * 50 * 30 and len(a.run_best) == 3;
check a.fitness == max(a.run_best) and a.fitness == clashes(a.chromosome);
check a.history[a.generation].best == a.fitness;
check keys(a)[0] == "kind" and a.kind == "ga" and a.function == "clashes";
save a "a.json";
c = load("a.json");
check c == a;
write a to "h.csv";
plot a to "h.svg";
ga clashes length 8 values 0..7 runs 3 generations 30 seed 5;
CGT
"$CGT" q.cgt >q.out 2>q.err || fail "q.cgt: $(cat q.err)"
"$CGT" --seed=5 -e "$(sed 's/seed 5;/seed 9;/' q.cgt | grep -v '^[abc] =\|^check\|^save\|^write\|^plot')" >s.out 2>s.err ||
    fail "--seed: $(cat s.err)"
tail -n 4 q.out >q.tail
cmp -s q.tail s.out || fail "--seed=5 does not override the statement's seed: $(cat s.out)"
python3 - <<'PY' || fail "the CSV or the SVG of the history"
import csv, xml.etree.ElementTree as ET
rows = list(csv.reader(open("h.csv", newline="")))
assert rows[0] == ["generation", "best", "mean"], rows[0]
assert [int(r[0]) for r in rows[1:]] == list(range(30)), rows
svg = ET.parse("h.svg").getroot()
ns = {"s": "http://www.w3.org/2000/svg"}
for cls in ("best", "mean"):
    pts = svg.findall(".//s:circle[@class='%s']" % cls, ns)
    assert [int(p.get("data-generation")) for p in pts] == list(range(30)), cls
best = [float(p.get("data-v")) for p in svg.findall(".//s:circle[@class='best']", ns)]
assert best == [float(r[1]) for r in rows[1:]]
PY
command -v rsvg-convert >/dev/null 2>&1 && { rsvg-convert -o h.png h.svg || fail "rsvg-convert h.svg"; }

# a limit at a known poll: the best so far, then the error (exit 4)
CGT_TEST_LIMIT_AT_POLL=3000 "$CGT" --timeout=100000 -e "$(sed -n '1,8p' q.cgt)
ga clashes length 8 values 0..7 generations 100000 seed 1;" >l.out 2>l.err
rc=$?
[ $rc -eq 4 ] || fail "a stopped ga exits $rc, not 4: $(cat l.err)"
grep -q '^best:     \[' l.out || fail "a stopped ga does not print its best so far: $(cat l.out)"
grep -q 'time limit' l.err || fail "no limit error: $(cat l.err)"

# errors: a fitness that is not an integer, bad options
err() { # expected-exit code expected-message
    "$CGT" -e "$2" >e.out 2>e.err
    rc=$?
    [ $rc -eq "$1" ] || fail "exit $rc, not $1, for: $2 ($(cat e.err))"
    grep -q "$3" e.err || fail "no '$3' for: $2 ($(cat e.err))"
}
err 1 'fn f(s) = "x"; ga f length 3 alphabet "ab";' 'must return an integer'
err 1 'fn f(s) = 1; ga f length 3 alphabet "aba";' "the letter 'a' twice"
err 1 'fn f(s) = 1; ga f alphabet "ab";' 'needs `length N`'
err 1 'fn f(s) = 1; ga f length 3 alphabet "ab" values 0..3;' 'either'
err 1 'fn f(s) = 1; ga f length 3 values 3..3;' 'LO < HI'
err 1 'fn f(s) = 1; ga f length 3 alphabet "ab" mutation 2;' 'mutation'
err 1 'fn f(s) = 1; ga f length 3 alphabet "ab" selection best;' "unknown selection"
err 1 'fn f(s) = 1; ga f length 3 alphabet "ab" elitism 50;' 'elitism'
err 1 'fn f(s) = 1 / 0; ga f length 3 alphabet "ab";' 'division by zero\|zero'
exit 0
