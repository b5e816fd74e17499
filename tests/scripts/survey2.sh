#!/bin/sh
# examples/survey2.cgt (a survey by item assignment, a sort key, read_csv
# and a labelled plot), checked with Python and no cgt code:
# - the orders of Dawson's Kayles 0.07: |Q(n)| = 12 for n = 10..13 and 24
#   from 14 on (Plambeck's note on Dawson's Kayles; MisereSolver agrees);
# - heap n of Dawson's Chess 0.137 is heap n + 1 of 0.07, and heap 1 of
#   0.07 has no move, so |Q(n)| of 0.137 is |Q(n + 1)| of 0.07;
# - |Q(1)| is 2 when heap 1 has a move (it is *1) and 1 when it has none,
#   read off the code's first digit;
# - every game of the CSV is in the table once, ordered by |Q(16)| from the
#   largest, ties in the CSV's order (the sort is stable);
# - the SVG has the title and axis labels asked for, one series of 16
#   points per game, and its last points are the table's orders.
set -u
CGT=${CGT:-build/cgt}
case $CGT in /*) ;; *) CGT=$(pwd)/$CGT ;; esac
ROOT=$(pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-survey2.XXXXXX") || exit 1
trap 'exit 1' INT TERM HUP
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
ln -s "$ROOT/examples" "$T/examples"
cd "$T" || exit 1
"$CGT" examples/survey2.cgt >out.txt 2>err.txt || fail "exit $?: $(cat err.txt)"
python3 - "$ROOT/examples/data/survey2_codes.csv" <<'PY' || exit 1
import csv, sys
import xml.etree.ElementTree as ET

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

codes = list(csv.DictReader(open(sys.argv[1], newline="")))
table = list(csv.DictReader(open("survey2.csv", newline="")))
ns = "{http://www.w3.org/2000/svg}"
svg = ET.parse("survey2.svg").getroot()
series = {}
for g in svg.iter(ns + "g"):
    if g.get("class") == "series":
        pts = [(int(c.get("data-x")), int(c.get("data-y")))
               for c in g.iter(ns + "circle")]
        series[g.get("data-name")] = dict(pts)
texts = [t.text for t in svg.iter(ns + "text")]
for want in ("Misere quotient orders", "heap n", "|Q(n)|"):
    if want not in texts:
        fail("no text %r in the SVG" % want)
if sorted(series) != sorted(c["code"] for c in codes):
    fail("series %s, codes %s" % (sorted(series), [c["code"] for c in codes]))
for code, pts in series.items():
    if sorted(pts) != list(range(1, 17)):
        fail("%s: points at %s" % (code, sorted(pts)))
    first = code.split(".")[1][0]
    if pts[1] != (2 if int(first, 8) & 1 else 1):
        fail("%s: |Q(1)| = %d" % (code, pts[1]))
dk = series["0.07"]
for n in range(10, 17):
    want = 12 if n <= 13 else 24
    if dk[n] != want:
        fail("0.07: |Q(%d)| = %d, published %d" % (n, dk[n], want))
for n in range(1, 16):
    if series["0.137"][n] != dk[n + 1]:
        fail("0.137 at %d: %d, 0.07 at %d: %d" % (n, series["0.137"][n], n + 1, dk[n + 1]))
order = {c["code"]: i for i, c in enumerate(codes)}
want = sorted(codes, key=lambda c: (-series[c["code"]][16], order[c["code"]]))
if [r["code"] for r in table] != [c["code"] for c in want]:
    fail("table order %s, want %s" % ([r["code"] for r in table], [c["code"] for c in want]))
for r in table:
    if int(r["order"]) != series[r["code"]][16]:
        fail("%s: table %s, plot %d" % (r["code"], r["order"], series[r["code"]][16]))
    if r["name"] != next(c["name"] for c in codes if c["code"] == r["code"]):
        fail("%s: name %r" % (r["code"], r["name"]))
lines = open("out.txt").read().splitlines()
if len(lines) != len(codes) + 1 or lines[-1] != "plotted %d games" % len(codes):
    fail("output: %s" % lines)
PY
echo ok
