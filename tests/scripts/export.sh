#!/bin/sh
# write ... as latex|markdown|csv|bfile|json: the
# structure of each format, checked by Python's csv and json modules and by
# parsing the tables; the values against independent oracles: Grundy values
# of 0.07 by a brute-force mex written here (period 34, preperiod 53 as in
# Winning Ways ch. 4 and docs/games.md), and the misere outcome of single
# heaps by tests/oracle/mq_brute.  LaTeX is checked by structure only
# (balanced braces and $, begin/end pairs, cells per tabular row): no TeX
# installation is required by the build.
set -u
SCRIPTS=$(cd "$(dirname "$0")" && pwd)
export SCRIPTS
CGT=${CGT:-build/cgt}
BUILD=${BUILD:-build}
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-export.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
fail() { echo "FAIL: $*"; exit 1; }
here=$(pwd)
case $CGT in /*) ;; *) CGT=$here/$CGT ;; esac
BRUTE=$here/$BUILD/oracle/mq_brute
cd "$T" || exit 1

cat >w.cgt <<'CGT'
game g = octal 0.07;
period g;
write g to "g.tex";
write g to "g.md";
write g to "g.b" as bfile;
write g to "g.csv";
quotient q = g to 12;
write q to "q.tex";
write q to "q.md";
write q to "q.csv";
qr = quotient(g, 12);
write qr to "qr.tex";
semigroup S = < x, z | x^2 = 1, z^3 = z > with P = {x, z^2};
write S to "S.tex";
quotient qn = g to 12 names "xa yb zc";
write qn to "qn.tex";
rows = [{code: "0.07", period: 34, note: "Dawson's \"Kayles\", a,b"},
        {code: "0.137", period: 34, extra: true}, {code: "4.7", note: "line\nbreak"}];
write rows to "r.csv";
write rows to "r.md";
write rows to "r.tex";
write rows to "r.json";
write [[1, 2], [3]] to "l.csv";
write ["0^120", "1^031", "0^1431"] to "gen.tex";
write [1, 1, 2, 3, 5, 8, 13] to "fib.txt" as bfile offset 1;
big = 2^100;
write big to "big.json";
CGT
"$CGT" w.cgt >w.out 2>&1 || fail "writing: $(cat w.out)"

python3 - "$BRUTE" <<'PY' || fail "checks above"
import csv, json, os, re, subprocess, sys
brute = sys.argv[1]
sys.path.insert(0, os.environ["SCRIPTS"])
from octal_brute import grundy_octal
G = grundy_octal("0.07", 400)
p, r = 34, 53
assert all(G[n] == G[n + p] for n in range(r, 300)) and G[r - 1] != G[r - 1 + p]
# exceptional: G(n) differs from the periodic value G(n + j p), n + j p >= r
exc = [n for n in range(r) if G[n] != G[n + p * -(-(r - n) // p)]]
err = []
# b-file and CSV of the game: every computed value
b = [l.split() for l in open("g.b").read().splitlines()]
if not b or any(len(x) != 2 or int(x[0]) != i or int(x[1]) != G[i] for i, x in enumerate(b[:300])):
    err.append("g.b does not hold n G(n)")
c = list(csv.reader(open("g.csv", newline="")))
if c[0] != ["n", "G(n)"] or any(int(x[1]) != G[int(x[0])] for x in c[1:300]):
    err.append("g.csv")
if not open("g.csv", "rb").read().endswith(b"\r\n"):
    err.append("g.csv lines do not end in CRLF (RFC 4180)")
# LaTeX periodic table: rows of the period, bold = exceptional
tex = open("g.tex").read()
if "\\begin{tabular}{r|*{34}{c}}" not in tex or "\\end{tabular}" not in tex:
    err.append("g.tex tabular")
rows = [l for l in tex.splitlines() if re.match(r"^\d+ &", l)]
seen, bold = {}, []
for l in rows:
    cells = [x.strip() for x in l.rstrip("\\ ").split("&")]
    base = int(cells[0])
    if base % 34:
        err.append("row label %d not a multiple of the period" % base)
    for j, x in enumerate(cells[1:]):
        if not x:
            continue
        m = re.fullmatch(r"\\textbf\{(\d+)\}|(\d+)", x)
        v = int(m.group(1) or m.group(2))
        seen[base + j] = v
        if m.group(1):
            bold.append(base + j)
if any(seen[n] != G[n] for n in seen) or len(seen) < 53 + 34:
    err.append("g.tex values differ from the brute force")
if bold != exc:
    err.append("g.tex bold %s, exceptional %s" % (bold, exc))
md = open("g.md").read().splitlines()
tab = [l for l in md if l.startswith("|")]
if len({l.count("|") for l in tab}) != 1 or not re.fullmatch(r"\|(---:\|)+", tab[1]):
    err.append("g.md is not one table")
mdb = [int(x) for x in re.findall(r"\*\*(\d+)\*\*", "\n".join(tab[2:]))]
if mdb != [G[n] for n in exc]:
    err.append("g.md bold values")
# quotient: CSV heap, phi, P; the P column against the brute-force oracle
q = list(csv.reader(open("q.csv", newline="")))
if q[0] != ["heap", "phi", "p_position"] or len(q) != 14:
    err.append("q.csv header/rows")
out = subprocess.run([brute, "0.07"], input="".join("%d\n" % h if h else "\n" for h in range(13)),
                     capture_output=True, text=True).stdout.split()
if [x[2] == "true" for x in q[1:]] != [o == "P" for o in out]:
    err.append("q.csv P column differs from mq_brute: %s vs %s" % ([x[2] for x in q[1:]], out))
qt = open("q.tex").read()
for part in ["\\langle a, b, c \\mid", "\\rangle", "\\mathcal{P} = \\{", "a^{2}", "b^{2}",
             "\\begin{tabular}{r|*{10}{c}}", "\\begin{tabular}{c|*{12}{c}}"]:
    if part not in qt:
        err.append("q.tex lacks " + part)
mul = [l for l in qt.split("multiplication table")[1].splitlines()
       if l.startswith("$") and not l.startswith("$\\cdot$")]
if len(mul) != 12 or any(l.count("&") != 12 for l in mul):
    err.append("q.tex multiplication table is not 12 x 12")
if "^" in re.sub(r"\^\{[^}]*\}", "", qt.replace("\\textasciicircum{}", "")):
    err.append("q.tex has a superscript without braces")
if open("qr.tex").read() != qt:
    err.append("the record of quotient(g, 12) is not written as its quotient")
# words in LaTeX: one-letter names side by side (ac), longer ones with a
# thin space between factors (xa\,zc), powers as real superscripts
if "\\mathcal{P} = \\{a, b^{2}, ac\\}" not in qt:
    err.append("q.tex P-portion")
if "\\mathcal{P} = \\{xa, yb^{2}, xa\\,zc\\}" not in open("qn.tex").read():
    err.append("qn.tex P-portion: " + open("qn.tex").read()[:300])
qm = open("q.md").read()
if "P-portion: `{a, b^2, ac}`" not in qm or "| · |" not in qm:
    err.append("q.md")
st = open("S.tex").read()
if "S = \\langle x, z \\mid x^{2} = 1, z^{3} = z \\rangle" not in st or "\\mathcal{P} = \\{x, z^{2}\\}" not in st:
    err.append("S.tex: " + st)
# records: RFC 4180 round trip through Python's csv module
rc = list(csv.reader(open("r.csv", newline="")))
want = [["code", "period", "note", "extra"], ["0.07", "34", 'Dawson\'s "Kayles", a,b', ""],
        ["0.137", "34", "", "true"], ["4.7", "", "line\nbreak", ""]]
if rc != want:
    err.append("r.csv: %r" % rc)
rm = [l for l in open("r.md").read().splitlines()]
if rm[0] != "| code | period | note | extra |" or rm[1] != "|---|---|---|---|" or len(rm) != 5:
    err.append("r.md: %r" % rm)
if "line break" not in rm[4]:
    err.append("r.md newline inside a cell")
rt = open("r.tex").read()
if "\\begin{tabular}{llll}" not in rt or "Dawson's \"Kayles\", a,b" not in rt:
    err.append("r.tex: " + rt)
j = json.load(open("r.json"))
if j[0]["period"] != 34 or j[2]["note"] != "line\nbreak":
    err.append("r.json")
if list(csv.reader(open("l.csv", newline=""))) != [["1", "2"], ["3", ""]]:
    err.append("l.csv")
gt = open("gen.tex").read()
for g in ["$0^{120}$", "$1^{031}$", "$0^{1431}$"]:
    if g not in gt:
        err.append("gen.tex lacks " + g)
if open("fib.txt").read() != "1 1\n2 1\n3 2\n4 3\n5 5\n6 8\n7 13\n":
    err.append("fib.txt b-file")
if json.load(open("big.json")) != str(2 ** 100):  # as --format=json: beyond 2^53 a string
    err.append("big.json")
# every LaTeX file: braces and $ balanced, begin/end paired, each tabular
# row with as many cells as the column specification declares
def latex_ok(name):
    t = open(name).read()
    body = re.sub(r"\\[{}$%&_#]", "", t)
    body = "\n".join(l for l in body.splitlines() if not l.startswith("%"))
    depth = 0
    for ch in body:
        depth += ch == "{"
        depth -= ch == "}"
        if depth < 0:
            return "a } without {"
    if depth:
        return "unbalanced braces"
    if any(l.count("$") % 2 for l in body.splitlines()):
        return "unbalanced $"
    if body.count("\\begin{") != body.count("\\end{"):
        return "begin/end"
    for m in re.finditer(r"\\begin\{tabular\}\{([^\n]*)\}\n(.*?)\\end\{tabular\}", body, re.S):
        spec = m.group(1)
        k = re.match(r"(\w)\|\*\{(\d+)\}\{c\}$", spec)
        ncol = 1 + int(k.group(2)) if k else len(spec.replace("|", ""))
        for row in m.group(2).splitlines():
            if row.count("&") != ncol - 1:
                return "row with %d cells, %d declared: %s" % (row.count("&") + 1, ncol, row[:60])
    return None
for f in ["g.tex", "q.tex", "S.tex", "r.tex", "gen.tex"]:
    why = latex_ok(f)
    if why:
        err.append("%s: %s" % (f, why))
for e in err:
    print("FAIL:", e)
sys.exit(1 if err else 0)
PY

# errors
printf 'write 1 to "x.txt";\n' >e1.cgt
"$CGT" e1.cgt >e1.out 2>&1; [ $? = 1 ] && grep -q "no known extension" e1.out || fail "$(cat e1.out)"
printf 'write 1 to "x.tex" as pdf;\n' >e2.cgt
"$CGT" e2.cgt >e2.out 2>&1; [ $? = 1 ] && grep -q "unknown format 'pdf'" e2.out || fail "$(cat e2.out)"
printf 'game g = octal 0.07;\nwrite g to "x.tex";\n' >e3.cgt
"$CGT" e3.cgt >e3.out 2>&1; [ $? = 1 ] && grep -q "no Grundy values of 0.07" e3.out || fail "$(cat e3.out)"
printf 'write "text" to "x.csv";\n' >e4.cgt
"$CGT" e4.cgt >e4.out 2>&1; [ $? = 1 ] && grep -q "cannot write a string as csv" e4.out || fail "$(cat e4.out)"
echo ok
