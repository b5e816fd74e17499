#!/bin/sh
# plot: every SVG renders with rsvg-convert (librsvg, from
# Debian) and its structure is checked with Python's XML parser: one circle
# per heap at the coordinates the frame's data ranges give, the Grundy
# values of 0.16 against a brute-force mex written here, the rare values
# in the minority class of their mask; |Q(n)| and |P(n)| of 0.07 at heaps
# worked out by hand (Q(0) = {1}, P(0) empty; heap 2's one option is the
# empty game, so Q(2) = {1, a}, P(2) = {a}) and at the end equal to the
# quotient's; the m,n,k board's cells and replies.
set -u
SCRIPTS=$(cd "$(dirname "$0")" && pwd)
export SCRIPTS
CGT=${CGT:-build/cgt}
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-plot.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
fail() { echo "FAIL: $*"; exit 1; }
case $CGT in /*) ;; *) CGT=$(pwd)/$CGT ;; esac
command -v rsvg-convert >/dev/null 2>&1 || fail "rsvg-convert is missing (sh scripts/deps.sh)"
cd "$T" || exit 1
cat >p.cgt <<'CGT'
game g = octal 0.16;
x = grundy(g, 0..400);
plot g to "g.svg";
plot [3, 0, 2, 7] to "l.svg";
game d = octal 0.07;
quotient q = d to 16;
plot q to "q.svg";
r = quotient(d, 16);
plot r to "qr.svg";
m = {m: 3, n: 2, k: 3, result: "breaker",
     replies: [{move: "A1", reply: "B2"}, {move: "B1", reply: null}, {move: "C2", reply: "A1"}]};
plot m to "m.svg";
print q;
CGT
"$CGT" p.cgt >p.out 2>&1 || fail "plotting: $(cat p.out)"
for f in g l q qr m; do
    rsvg-convert -o "$f.png" "$f.svg" 2>rsvg.err || fail "rsvg-convert $f.svg: $(cat rsvg.err)"
    [ -s "$f.png" ] || fail "$f.png is empty"
done
python3 - <<'PY' || fail "checks above"
import os, re, sys, xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
err = []
sys.path.insert(0, os.environ["SCRIPTS"])
from octal_brute import grundy_octal
def frame(root):
    f = root.find(".//%srect[@class='frame']" % NS)
    return {k: float(f.get(k)) for k in ("x", "y", "width", "height")}, \
           {k: float(f.get("data-" + k)) for k in ("xmin", "xmax", "ymin", "ymax")}, f.get("data-yscale")
def place(fr, d, x, y, ylog=False):
    import math
    if ylog:
        y = math.log2(y)
    px = fr["x"] + (x - d["xmin"]) / (d["xmax"] - d["xmin"]) * fr["width"]
    py = fr["y"] + fr["height"] - (y - d["ymin"]) / (d["ymax"] - d["ymin"]) * fr["height"]
    return px, py
# Grundy scatter of 0.16
G = grundy_octal("0.16", 401)
root = ET.parse("g.svg").getroot()
fr, d, _ = frame(root)
pts = root.findall(".//%scircle[@data-n]" % NS)
if len(pts) != 401:
    err.append("g.svg has %d points, expected 401" % len(pts))
bad = 0
for c in pts:
    n, v = int(c.get("data-n")), int(c.get("data-g"))
    px, py = place(fr, d, n, v)
    if v != G[n] or abs(float(c.get("cx")) - px) > 0.01 or abs(float(c.get("cy")) - py) > 0.01:
        bad += 1
if bad:
    err.append("g.svg: %d points off their value or place" % bad)
mask = int(root.find(".//%sg[@class='points']" % NS).get("data-mask"))
rare = [c for c in pts if c.get("class") == "rare"]
if mask == 0 or not rare or len(rare) * 10 > 400:
    err.append("g.svg: mask %d with %d rare values" % (mask, len(rare)))
par = {bin(int(c.get("data-g")) & mask).count("1") & 1 for c in rare}
if len(par) != 1:
    err.append("g.svg: rare values in both classes")
others = [c for c in pts if c.get("class") == "common" and c.get("data-n") != "0"]
if any(bin(int(c.get("data-g")) & mask).count("1") & 1 in par for c in others):
    err.append("g.svg: a common value in the rare class")
# a short list: no rare marking, four points
root = ET.parse("l.svg").getroot()
lp = root.findall(".//%scircle[@data-n]" % NS)
if [int(c.get("data-g")) for c in lp] != [3, 0, 2, 7] or any(c.get("class") == "rare" for c in lp):
    err.append("l.svg")
# quotient growth
root = ET.parse("q.svg").getroot()
fr, d, scale = frame(root)
Q = {int(c.get("data-n")): int(c.get("data-v")) for c in root.findall(".//%scircle[@class='q']" % NS)}
P = {int(c.get("data-n")): int(c.get("data-v")) for c in root.findall(".//%scircle[@class='p']" % NS)}
if len(Q) != 17 or Q[0] != 1 or Q[2] != 2 or P.get(0, 0) != 0 or P[2] != 1:
    err.append("q.svg: Q %s P %s" % (Q, P))
if any(Q[h] > Q[h + 1] for h in range(16)):
    err.append("q.svg: |Q(n)| decreases")
for c in root.findall(".//%scircle[@class='q']" % NS):
    px, py = place(fr, d, int(c.get("data-n")), int(c.get("data-v")), scale == "log2")
    if abs(float(c.get("cx")) - px) > 0.01 or abs(float(c.get("cy")) - py) > 0.01:
        err.append("q.svg: point off its place")
        break
text = open("p.out").read()
m = re.search(r"Q\(16\) of 0.07: \|Q\| = (\d+), \|P\| = (\d+)", text)
if not m or int(m.group(1)) != Q[16] or int(m.group(2)) != P[16]:
    err.append("q.svg ends at %s/%s, print q says %s" % (Q[16], P[16], m and m.groups()))
if open("qr.svg").read() != open("q.svg").read():
    err.append("the quotient record is not plotted as its quotient")
# m,n,k board
root = ET.parse("m.svg").getroot()
cells = root.findall(".//%srect[@class='cell']" % NS)
if sorted(c.get("data-name") for c in cells) != sorted(a + b for a in "ABC" for b in "12"):
    err.append("m.svg cells")
rep = {t.get("data-move"): t.get("data-reply") for t in root.findall(".//%stext[@class='reply']" % NS)}
if rep != {"A1": "B2", "B1": "", "C2": "A1"}:
    err.append("m.svg replies %s" % rep)
cell = {c.get("data-name"): c for c in cells}
for t in root.findall(".//%stext[@class='reply']" % NS):
    c = cell[t.get("data-move")]
    x, y = float(c.get("x")), float(c.get("y"))
    if not (x < float(t.get("x")) < x + float(c.get("width")) and y < float(t.get("y")) < y + float(c.get("height"))):
        err.append("m.svg: reply of %s outside its cell" % t.get("data-move"))
for e in err:
    print("FAIL:", e)
raise SystemExit(1 if err else 0)
PY
printf 'plot [1, 2] to "x.png";\n' >e1.cgt
"$CGT" e1.cgt >e1.out 2>&1; [ $? = 1 ] && grep -q "FILE.svg" e1.out || fail "$(cat e1.out)"
printf 'plot "abc" to "x.svg";\n' >e2.cgt
"$CGT" e2.cgt >e2.out 2>&1; [ $? = 1 ] && grep -q "cannot plot a string" e2.out || fail "$(cat e2.out)"
echo ok
