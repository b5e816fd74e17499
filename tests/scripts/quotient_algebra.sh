#!/bin/sh
# The quotient as a monoid (docs/misere.md, "The quotient as a monoid"),
# against oracles written here in Python that share no code with cgt and
# read only the multiplication tables cgt exports (`multable q` under
# --format=json, which the presentations module builds by Knuth-Bendix
# completion of the quotient's presentation, not from the quotient's own
# tables that isomorphic() reads):
# - isomorphic(A, B): every map returned is checked entry by entry (a
#   bijection, f(xy) = f(x)f(y) for every pair, P onto P), in both
#   directions; for the small pairs a brute force over all images of the
#   generators decides isomorphism on its own and must agree, so the
#   negative answers (pairs of equal order and equal |P|) are proved too;
#   Q(25) of 0.07 and Q(24) of 0.137 (docs/misere.md) are isomorphic;
# - the statement `isomorphic A B;` prints the function's value: the
#   verdict, then every entry of the map that was checked above;
# - structure q / idempotents q: the idempotents, the group of units and
#   every maximal subgroup's order against a brute force over the table;
# - == : the same computation twice, a saved and loaded copy, other
#   generator names compare equal; another bound or game does not.
set -u
CGT=${CGT:-build/cgt}
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-qalg.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
fail() { echo "FAIL: $*"; exit 1; }
here=$(pwd)
case $CGT in /*) ;; *) CGT=$here/$CGT ;; esac
cd "$T" || exit 1

# pairs: name, game, heap; then the pairs compared
cat >iso.cgt <<'CGT'
game dk = octal 0.07; game dc = octal 0.137; game kay = octal 0.77;
game g26 = octal 0.26; game g75 = octal 0.75; game g17 = octal 0.17;
quotient a25 = dk to 25; quotient b24 = dc to 24;
quotient a10 = dk to 10; quotient k6 = kay to 6; quotient t12 = g26 to 12;
quotient s8 = g75 to 8; quotient t10 = g26 to 10; quotient u10 = g17 to 10;
for q in [a25, b24, a10, k6, t12, s8, t10, u10] { print q; multable q; }
for p in [[a25, b24], [a10, k6], [a10, t12], [k6, t12], [s8, t10], [a10, u10]] {
    print isomorphic(p[0], p[1]);
    print isomorphic(p[1], p[0]);
}
CGT
"$CGT" --format=json iso.cgt >iso.json 2>iso.err || fail "isomorphic script: $(head -3 iso.err)"

python3 - iso.json <<'PY' || exit 1
import itertools, json, sys

lines = [json.loads(l) for l in open(sys.argv[1])]
quots = []
for i in range(8):
    q, mt = lines[2 * i], lines[2 * i + 1]
    assert q["kind"] == "quotient" and mt["kind"] == "multable"
    quots.append((q, mt))
maps = [l.get("value", l) for l in lines[16:]]

def parse(word, gens):
    """Exponent list of a printed word: names side by side, ^k powers."""
    if word == "1":
        return []
    out, i = [], 0
    while i < len(word):
        g = max((g for g in gens if word.startswith(g, i)), key=len)
        i += len(g)
        k = 1
        if i < len(word) and word[i] == "^":
            j = i + 1
            while j < len(word) and word[j].isdigit():
                j += 1
            k = int(word[i + 1:j])
            i = j
        out += [g] * k
    return out

class Mon:
    def __init__(self, q, mt):
        self.name = "Q(%d) of %s" % (q["heap"], q["game"])
        self.names = mt["elements"]
        self.tab = mt["table"]
        self.n = len(self.names)
        self.gens = q["generators"]
        self.gen_el = {g: self.names.index(g) for g in self.gens}
        self.one = self.names.index("1")
        assert self.n == q["order"], self.name
        self.p = {self.ev(w) for w in q["p_portion"]}
        assert len(self.p) == q["pcount"]
    def ev(self, word):
        x = self.one
        for g in parse(word, self.gens):
            x = self.tab[x][self.gen_el[g]]
        return x
    def mul(self, a, b):
        return self.tab[a][b]

mons = [Mon(q, mt) for q, mt in quots]

def is_iso(A, B, f):
    """f: list, element index of A -> element index of B."""
    if sorted(f) != list(range(B.n)) or A.n != B.n:
        return False
    for x in range(A.n):
        if (x in A.p) != (f[x] in B.p):
            return False
        for y in range(A.n):
            if f[A.mul(x, y)] != B.mul(f[x], f[y]):
                return False
    return True

def brute(A, B):
    """Any isomorphism at all, by trying every image of every generator of
    A; the map is then forced on every element (words in the generators)."""
    if A.n != B.n:
        return None
    words = [parse(A.names[x], A.gens) for x in range(A.n)]
    for imgs in itertools.product(range(B.n), repeat=len(A.gens)):
        im = dict(zip(A.gens, imgs))
        f = []
        for w in words:
            y = B.one
            for g in w:
                y = B.mul(y, im[g])
            f.append(y)
        if is_iso(A, B, f):
            return f
    return None

pairs = [(0, 1), (2, 3), (2, 4), (3, 4), (5, 6), (2, 7)]
expect = [True, False, False, False, True, True]
ok = True
for k, (i, j) in enumerate(pairs):
    for d, (a, b) in enumerate([(i, j), (j, i)]):
        A, B, m = mons[a], mons[b], maps[2 * k + d]
        if m is False:
            got = None
        else:
            f = [None] * A.n
            for w, v in m.items():
                f[A.ev(w)] = B.ev(v)
            if None in f or not is_iso(A, B, f):
                print("FAIL: the map from %s to %s is not an isomorphism" % (A.name, B.name))
                ok = False
            got = f
        if (got is not None) != expect[k]:
            print("FAIL: isomorphic(%s, %s) = %s, expected %s" % (A.name, B.name, got is not None, expect[k]))
            ok = False
        if A.n <= 12:
            bf = brute(A, B)
            if (bf is not None) != (got is not None):
                print("FAIL: %s vs %s: brute force says %s" % (A.name, B.name, bf is not None))
                ok = False
sys.exit(0 if ok else 1)
PY

# idempotents, units and maximal subgroups against a brute force
cat >st.cgt <<'CGT'
game dk = octal 0.07; game dc = octal 0.137;
for q in [quotient(dk, 25).q, quotient(dk, 33).q, quotient(dc, 20).q] {
    multable q; structure q; idempotents q;
}
CGT
"$CGT" --format=json st.cgt >st.json 2>st.err || fail "structure script: $(head -3 st.err)"
python3 - st.json <<'PY' || exit 1
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
ok = True
for k in range(0, len(lines), 3):
    mt, st, idp = lines[k], lines[k + 1], lines[k + 2]
    names, tab = mt["elements"], mt["table"]
    n = len(names)
    one = names.index("1")
    ids = [e for e in range(n) if tab[e][e] == e]
    def group(e):
        # H_e: x with xe = x that has an inverse y (xy = e) inside eM
        return [x for x in range(n) if tab[x][e] == x and
                any(tab[x][y] == e and tab[y][e] == y for y in range(n))]
    units = [x for x in range(n) if any(tab[x][y] == one for y in range(n))]
    want = [(names[e], len(group(e))) for e in ids]
    got = [(g["idempotent"], g["order"]) for g in st["idempotents"]]
    got2 = [(g["idempotent"], g["order"]) for g in idp["groups"]]
    if sorted(want) != sorted(got) or sorted(want) != sorted(got2):
        print("FAIL: %s: idempotents %s, brute force %s" % (st["of"], got, want))
        ok = False
    if st["units_order"] != len(units) or st["order"] != n:
        print("FAIL: %s: units %d, brute force %d" % (st["of"], st["units_order"], len(units)))
        ok = False
    # the kernel: the idempotent below every other
    ker = [e for e in ids if all(tab[e][f] == e for f in ids)]
    if [names[e] for e in ker] != [st["kernel"]]:
        print("FAIL: %s: kernel %s, brute force %s" % (st["of"], st["kernel"], ker))
        ok = False
sys.exit(0 if ok else 1)
PY

# the statement form: the verdict and the map the function returned
cat >stmt.cgt <<'CGT'
game dk = octal 0.07; game dc = octal 0.137; game kay = octal 0.77;
quotient a25 = dk to 25; quotient b24 = dc to 24;
quotient a10 = dk to 10; quotient k6 = kay to 6;
isomorphic a25 b24;
isomorphic a10 k6;
CGT
"$CGT" stmt.cgt >stmt.out 2>stmt.err || fail "isomorphic statement: $(head -3 stmt.err)"
python3 - stmt.out iso.json <<'PY' || exit 1
import json, sys
out = open(sys.argv[1]).read().splitlines()
lines = [json.loads(l) for l in open(sys.argv[2])]
want = lines[16].get("value", lines[16])
head = "Q(25) of 0.07 and Q(24) of 0.137 are isomorphic (144 elements):"
if out[0] != head or len(out) != 146:
    sys.exit("FAIL: isomorphic statement: %r, %d lines" % (out[0], len(out)))
got = dict((w.strip() for w in l.split(" -> ")) for l in out[1:145])
if got != want:
    sys.exit("FAIL: isomorphic a25 b24; prints another map than isomorphic(a25, b24)")
if out[145] != "Q(10) of 0.07 and Q(6) of 0.77 are not isomorphic":
    sys.exit("FAIL: isomorphic a10 k6; printed %r" % out[145])
PY

# equality of quotient values
cat >eq.cgt <<'CGT'
game dk = octal 0.07; game d2 = octal 0.07; game kay = octal 0.77;
quotient q = dk to 20;
quotient again = dk to 20;
quotient other_names = dk to 20 names "x z w v";
quotient other_game = d2 to 20;
save q "q.json";
r = load("q.json");
quotient more = dk to 21;
quotient k20 = kay to 20;
print q == again, q == r, r == q, q == other_names, q == other_game, [q] == [r];
print q == more, q != more, q == k20, q == 20, quotient(dk, 20).q == q;
CGT
"$CGT" eq.cgt >eq.out 2>eq.err || fail "equality script: $(head -3 eq.err)"
printf 'true true true true true true\nfalse true false false true\n' >eq.want
cmp -s eq.out eq.want || fail "equality: got $(cat eq.out)"
echo ok
