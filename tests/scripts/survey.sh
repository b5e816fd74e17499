#!/bin/sh
#@ tier: slow
# examples/survey.cgt: it runs all 64 two-digit octal
# codes within its 5-minute budget, goes on past every failure and writes a
# CSV and a Markdown table that agree.  Every period it proves is checked
# against tests/oracle/octal_period (plain mex values and the periodicity
# theorem, no cgt code) where the brute force reaches a proof in 6000
# heaps, and against the published values otherwise: 0.16 period 149459,
# last exceptional value 105350 (Gangolli and Plambeck 1989), 0.56 period
# 144, last exceptional value 326639 (T. Czajka's table of solved octal
# games; docs/games.md).  A code the brute force cannot settle and that has
# no published period must be recorded as unsolved: no period in the 2^20
# values searched, or stopped by its 2 s timeout first (which of the two
# depends on the machine's speed, so both are accepted; the proofs that
# must succeed take under 0.1 s); 0.00 (no move) as a domain error.  The quotients Q(12) are checked by the outcome
# of every position of two heaps a <= b <= 12 against tests/oracle/mq_brute.
set -u
CGT=${CGT:-build/cgt}
BUILD=${BUILD:-build}
here=$(pwd)
case $CGT in /*) ;; *) CGT=$here/$CGT ;; esac
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-survey.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
fail() { echo "FAIL: $*"; exit 1; }
cd "$T" || exit 1
/usr/bin/time -f '%U %S' -o time.txt "$CGT" "$here/examples/survey.cgt" >out.txt 2>err.txt ||
    fail "survey exit $?: $(tail -5 err.txt)"
cpu=$(awk '{printf "%d", $1 + $2}' time.txt)
[ "$cpu" -lt 300 ] || fail "survey took $cpu s of CPU"
[ -s survey.csv ] && [ -s survey.md ] || fail "no survey.csv or survey.md"
for c in $(python3 -c "
import csv
print(' '.join(r['code'] for r in csv.DictReader(open('survey.csv', newline=''))))"); do
    printf '%s %s\n' "$c" "$("$here/$BUILD/oracle/octal_period" "$c" 6000)"
done >oracle.txt
# the quotient check: outcomes of two-heap positions from Q(12) of every code
python3 - <<'PY' >pairs.cgt
import csv
for r in csv.DictReader(open("survey.csv", newline="")):
    if r["order"]:
        print('game g = octal %s;\nq = quotient(g, 12);' % r["code"])
        print('for a in 0..12 { for b in a..12 { print "%s", a, b, outcome(q, [a, b]).misere; } }'
              % r["code"])
PY
"$CGT" pairs.cgt >pairs.txt 2>&1 || fail "pairs: $(tail -3 pairs.txt)"
python3 - "$here/$BUILD/oracle/mq_brute" <<'PY' || fail "checks above"
import csv, re, subprocess, sys
brute = sys.argv[1]
rows = list(csv.DictReader(open("survey.csv", newline="")))
err = []
codes = ["0.%d%d" % (a, b) for a in range(8) for b in range(8)]
if [r["code"] for r in rows] != codes:
    err.append("the CSV does not hold the 64 codes 0.00 .. 0.77 in order")
oracle = {}
for l in open("oracle.txt"):
    c, *rest = l.split()
    oracle[c] = rest
published = {"0.16": (149459, 105351), "0.56": (144, 326640)}
for r in rows:
    c, o = r["code"], oracle[r["code"]]
    got = (r["period"], r["preperiod"], r["proved"])
    if o[0] == "period":
        if got != (o[1], o[3], "true"):
            err.append("%s: survey %s, brute force period %s preperiod %s" % (c, got, o[1], o[3]))
    elif o[0] == "nomoves":
        if r["note"] != "period: domain" or r["period"]:
            err.append("%s: no moves, survey says %s" % (c, r))
    elif c in published:
        if (r["period"], r["preperiod"], r["proved"]) != (str(published[c][0]), str(published[c][1]), "true"):
            err.append("%s: survey %s, published %s" % (c, got, published[c]))
    elif r["note"] not in ("period: none in 2^20 values", "period: limit") or r["period"]:
        err.append("%s: neither proved by the brute force nor published, survey says %s" % (c, r))
    if r["order"] and not (0 < int(r["pcount"]) < int(r["order"])):
        err.append("%s: |P| = %s, |Q| = %s" % (c, r["pcount"], r["order"]))
    if (r["period"] != "") != (r["order"] != "") and r["note"][:9] != "quotient:":
        err.append("%s: period and quotient columns disagree" % c)
# Markdown: the same cells
md = [l for l in open("survey.md").read().splitlines() if l.startswith("|")]
hdr = [x.strip() for x in md[0].strip("|").split("|")]
if hdr != list(rows[0].keys()) or len(md) != 66:
    err.append("survey.md header %s, %d lines" % (hdr, len(md)))
for l, r in zip(md[2:], rows):
    cells = [x.strip() for x in l.strip("|").split("|")]
    if cells != [r[k] for k in hdr]:
        err.append("survey.md row %s differs from the CSV" % cells)
        break
# two-heap outcomes of every Q(12) against the brute force
pos = {}
for l in open("pairs.txt"):
    m = re.match(r"(0\.\d\d) (\d+) (\d+) (.*)$", l)
    if not m:
        err.append("pairs output: " + l)
        break
    pos.setdefault(m.group(1), []).append((int(m.group(2)), int(m.group(3)), m.group(4)))
checked = 0
for c, ps in pos.items():
    inp = "".join(" ".join(str(h) for h in (a, b) if h) + "\n" for a, b, _ in ps)
    out = subprocess.run([brute, c], input=inp, capture_output=True, text=True).stdout.split()
    for (a, b, s), o in zip(ps, out):
        checked += 1
        if (s == "P") != (o == "P"):
            err.append("%s [%d, %d]: cgt %s, brute force %s" % (c, a, b, s, o))
if checked < 40 * 91:
    err.append("only %d two-heap positions checked" % checked)
for e in err[:20]:
    print("FAIL:", e)
print("survey: %d codes, %d brute-force periods, %d positions" %
      (len(rows), sum(1 for v in oracle.values() if v[0] == "period"), checked))
sys.exit(1 if err else 0)
PY
echo "ok ($cpu s CPU)"
