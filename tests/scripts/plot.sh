#!/bin/sh
# plot: every SVG renders with rsvg-convert (librsvg, from
# Debian) and its structure is checked with Python's XML parser: one circle
# per heap at the coordinates the frame's data ranges give, the Grundy
# values of 0.16 against a brute-force mex written here, the rare values
# in the minority class of their mask; |Q(n)| and |P(n)| of 0.07 at heaps
# worked out by hand (Q(0) = {1}, P(0) empty; heap 2's one option is the
# empty game, so Q(2) = {1, a}, P(2) = {a}) and at the end equal to the
# quotient's; the m,n,k board's cells and replies, and a Maker win's
# winning move; data (a list, [x, y] pairs, a record of series with a
# legend, log scales, titles and axis labels) at the places the frame's
# ranges give; and, on the rendered PNG, no text running off an edge.
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
w = mnk(4, 4, 3);
plot w to "mw.svg";
d = {"|Q(n)|": [1, 2, 4, 12, 20], "|P(n)|": [1, 1, 1, 3, 5]};
plot d to "d.svg" title "misere quotient sizes" xlabel "heap n" ylabel "size" lines log y;
plot [[3, -7], [1000, 2], [-20, 2^70]] to "xy.svg";
plot [[1, 10], [10, 1000], [100, 100000], [7, 3]] to "lg.svg" log xy title "a title long enough that at fifteen points it would run past both edges of the picture, so it is set smaller";
print q;
CGT
"$CGT" p.cgt >p.out 2>&1 || fail "plotting: $(cat p.out)"
for f in g l q qr m mw d xy lg; do
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
# data: each point at the place the frame's ranges and scales give
import math
def data_points(name):
    root = ET.parse(name).getroot()
    f = root.find(".//%srect[@class='frame']" % NS)
    fr = {k: float(f.get(k)) for k in ("x", "y", "width", "height")}
    d = {k: float(f.get("data-" + k)) for k in ("xmin", "xmax", "ymin", "ymax")}
    sc = (f.get("data-xscale"), f.get("data-yscale"))
    series = {}
    for g in root.findall(".//%sg[@class='series']" % NS):
        pts = [(int(c.get("data-x")), int(c.get("data-y"))) for c in g.findall("%scircle" % NS)]
        series[g.get("data-name")] = pts
        for c, (x, y) in zip(g.findall("%scircle" % NS), pts):
            tx = math.log10(x) if sc[0] == "log10" else float(x)
            ty = math.log10(y) if sc[1] == "log10" else float(y)
            px = fr["x"] + ((tx - d["xmin"]) / (d["xmax"] - d["xmin"]) * fr["width"] if d["xmax"] > d["xmin"] else fr["width"] / 2)
            py = fr["y"] + fr["height"] - ((ty - d["ymin"]) / (d["ymax"] - d["ymin"]) * fr["height"] if d["ymax"] > d["ymin"] else fr["height"] / 2)
            if abs(float(c.get("cx")) - px) > 0.01 or abs(float(c.get("cy")) - py) > 0.01:
                err.append("%s: point %s off its place" % (name, (x, y)))
    texts = {t.get("class"): "".join(t.itertext()) for t in root.findall(".//%stext[@class]" % NS)}
    legend = [t.get("data-name") for t in root.findall(".//%sg[@class='legend']/%stext" % (NS, NS))]
    return series, sc, texts, legend
# a plain list is data, not Grundy values: no Grundy title or G(n) axis
series, sc, texts, legend = data_points("l.svg")
if series != {"": [(0, 3), (1, 0), (2, 2), (3, 7)]} or "title" in texts or "G(n)" in texts.get("ylabel", ""):
    err.append("l.svg: %s %s" % (series, texts))
series, sc, texts, legend = data_points("d.svg")
if series != {"|Q(n)|": list(enumerate([1, 2, 4, 12, 20])), "|P(n)|": list(enumerate([1, 1, 1, 3, 5]))}:
    err.append("d.svg series %s" % series)
if sc != ("linear", "log10") or legend != ["|Q(n)|", "|P(n)|"]:
    err.append("d.svg scales %s legend %s" % (sc, legend))
if (texts.get("title"), texts.get("xlabel"), texts.get("ylabel")) != ("misere quotient sizes", "heap n", "size"):
    err.append("d.svg texts %s" % texts)
if len(ET.parse("d.svg").getroot().findall(".//%spolyline[@class='line']" % NS)) != 2:
    err.append("d.svg: no line per series")
series, sc, texts, legend = data_points("xy.svg")
if series != {"": [(3, -7), (1000, 2), (-20, 2**70)]} or sc != ("linear", "linear"):
    err.append("xy.svg %s %s" % (series, sc))
series, sc, texts, legend = data_points("lg.svg")
if sc != ("log10", "log10") or len(series[""]) != 4:
    err.append("lg.svg %s %s" % (series, sc))
# a Maker win is its winning move, not an empty board of Breaker's replies
root = ET.parse("mw.svg").getroot()
title = "".join(root.find(".//%stext[@class='title']" % NS).itertext())
win = root.find(".//%srect[@class='win']" % NS)
if "Breaker" in title or "Maker wins" not in title or win is None or win.get("data-move") != "B2" \
        or root.findall(".//%stext[@class='reply']" % NS):
    err.append("mw.svg: title %r" % title)
# every text fits inside the picture: each SVG is rendered again on a
# canvas larger by M pixels on every side (its viewBox widened; outside the
# picture's white background the canvas is transparent), and no pixel
# outside the picture may have ink
import struct, subprocess, zlib
def png_rgba(name):
    data = open(name, "rb").read()
    pos, idat = 8, b""
    while pos < len(data):
        n, typ = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if typ == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            if (depth, ctype) != (8, 6):
                raise SystemExit("%s: not 8-bit RGBA" % name)
        elif typ == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride, bpp, prev, rows = zlib.decompress(idat), w * 4, 4, bytearray(w * 4), []
    for r in range(h):
        ft, line = raw[r * (stride + 1)], bytearray(raw[r * (stride + 1) + 1:(r + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, cc = prev[i], prev[i - bpp] if i >= bpp else 0
            if ft == 1: line[i] = (line[i] + a) & 255
            elif ft == 2: line[i] = (line[i] + b) & 255
            elif ft == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif ft == 4:
                p = a + b - cc
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - cc)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else cc)) & 255
        rows.append(line)
        prev = line
    return w, h, rows
M = 60
def ink_outside(name):
    text = open(name + ".svg").read()
    m = re.search(r'width="(\d+)" height="(\d+)" viewBox="0 0 \d+ \d+"', text)
    w, h = int(m.group(1)), int(m.group(2))
    text = text.replace(m.group(0), 'width="%d" height="%d" viewBox="%d %d %d %d"'
                        % (w + 2 * M, h + 2 * M, -M, -M, w + 2 * M, h + 2 * M), 1)
    open(name + ".big.svg", "w").write(text)
    subprocess.run(["rsvg-convert", "-o", name + ".big.png", name + ".big.svg"], check=True)
    W, H, rows = png_rgba(name + ".big.png")
    out = 0
    for y, line in enumerate(rows):
        for x in range(W):
            if line[4 * x + 3] and not (M <= x < M + w and M <= y < M + h):
                out += 1
    return out
for f in ("g", "l", "q", "m", "mw", "d", "xy", "lg"):
    n = ink_outside(f)
    if n:
        err.append("%s.svg: %d pixels drawn outside the picture (text running off)" % (f, n))
for e in err:
    print("FAIL:", e)
raise SystemExit(1 if err else 0)
PY
printf 'plot [1, 2] to "x.png";\n' >e1.cgt
"$CGT" e1.cgt >e1.out 2>&1; [ $? = 1 ] && grep -q "FILE.svg" e1.out || fail "$(cat e1.out)"
printf 'plot "abc" to "x.svg";\n' >e2.cgt
"$CGT" e2.cgt >e2.out 2>&1; [ $? = 1 ] && grep -q "cannot plot a string" e2.out || fail "$(cat e2.out)"
printf 'plot [3, 0, 2] to "x.svg" log y;\n' >e3.cgt
"$CGT" e3.cgt >e3.out 2>&1; [ $? = 1 ] && grep -q "point 1 has y = 0, which a log scale cannot show" e3.out || fail "$(cat e3.out)"
printf 'plot [[1, 2], 3] to "x.svg";\n' >e4.cgt
"$CGT" e4.cgt >e4.out 2>&1; [ $? = 1 ] && grep -q "element 1 of the list is not an \[x, y\] pair" e4.out || fail "$(cat e4.out)"
printf 'm = {m: 3, n: 3, k: 3, result: "draw", replies: []};\nplot m to "x.svg";\n' >e5.cgt
"$CGT" e5.cgt >e5.out 2>&1; [ $? = 1 ] && grep -q "nothing to draw" e5.out || fail "$(cat e5.out)"
echo ok
