"""Proof files of format `cgt-misere-infinite 2` (docs/misere.md, "Proof
file in k coordinates") built from others, for tests/scripts/infcheck_v2.sh.
The output has no crc64/end lines: the test seals it with xz(1).

  tr1 FILE             the format-2 file that says the same as the format-1
                       FILE (docs/misere.md, Lemma 2, "Lemma 1 is the case
                       k = 2"), written here separately from the checker's -T
  addgroup FILE H...   FILE with one more coordinate k+1 counting the heaps
                       H... (all with the same act map f, which leaves the
                       automaton): lab'(s, x, y) = lab(f^y(s), x), a period
                       block (k+1; c, p) where f^(c+p) = f^c, the region
                       bound A = max(c+p, p+m-1); context heaps of the new
                       group become counts of its least heap
  addgroup-forced FILE H...  the same with the act map of the first heap
                       even when the others differ (a wrong proof)
  permute FILE P...    FILE with its coordinates renumbered: new coordinate
                       l is old coordinate P[l] (1-based)

The files it builds are valid proofs whenever FILE is: the labels of
addgroup are the outcomes of X + (the new heaps) + Z by FILE's claim, which
holds for every order of X's heaps, and f^y is eventually periodic.
"""
import sys


def read(path):
    d = {"opt": [], "act": {}, "blocks": [], "lab": {}}
    with open(path) as f:
        for line in f.read().split("\n"):
            t = line.split(" ")
            k = t[0]
            if k == "game":
                d["game"] = line
            elif k == "heaps":
                d["N"] = int(t[1])
            elif k == "grow":
                d["k"] = int(t[1])
                d["groups"] = []
            elif k == "group":
                d["groups"].append([int(x) for x in t[3:]])
            elif k == "options":
                d["opt"].append(line)
            elif k == "states":
                d["S"] = int(t[1])
            elif k == "act":
                d["act"][int(t[1])] = [int(x) for x in t[2:]]
            elif k == "block":
                d["blocks"].append([t[1]] + [int(x) for x in t[2:]])
            elif k == "table":
                d["T"] = [int(x) for x in t[1:]]
            elif k == "lab":
                pre = tuple(int(x) for x in t[1:-1])
                for i, ch in enumerate(t[-1]):
                    d["lab"][pre + (i,)] = ch
            elif k == "check":
                d["A"] = [int(x) for x in t[1:]]
            elif k == "witness":
                d["wit"] = [int(x) for x in t[1:]]
            elif k == "counts":
                d["f"] = [int(x) for x in t[1:]]
            elif k == "context":
                d["ctx"] = [int(x) for x in t[1:]]
    return d


def boxes(T):
    pts = [()]
    for b in T:
        pts = [p + (x,) for p in pts for x in range(b + 1)]
    return pts


def write(d):
    o = ["cgt-misere-infinite 2", d["game"], "heaps %d" % d["N"], "grow %d" % d["k"]]
    for i, g in enumerate(d["groups"]):
        o.append("group %d %d %s" % (i + 1, len(g), " ".join(map(str, g))))
    o += d["opt"]
    o.append("states %d" % d["S"])
    for K in sorted(d["act"]):
        o.append("act %d %s" % (K, " ".join(map(str, d["act"][K]))))
    for b in sorted(d["blocks"], key=lambda b: b[1]):
        o.append("block %s %s" % (b[0], " ".join(map(str, b[1:]))))
    o.append("table " + " ".join(map(str, d["T"])))
    T = d["T"]
    for s in range(d["S"]):
        for p in boxes(T[:-1]):
            row = "".join(d["lab"][(s,) + p + (x,)] for x in range(T[-1] + 1))
            o.append("lab %d %s%s" % (s, "".join("%d " % v for v in p), row))
    o.append("check " + " ".join(map(str, d["A"])))
    o.append("witness " + " ".join(map(str, d["wit"])))
    o.append("counts " + " ".join(map(str, d["f"])))
    o.append("context" + "".join(" %d" % h for h in d["ctx"]))
    sys.stdout.write("\n".join(o) + "\n")


def tr1(path):
    d = {"opt": {}, "act": {}, "lab": {}, "blocks": []}
    with open(path) as f:
        for line in f.read().split("\n"):
            t = line.split(" ")
            if t[0] == "game":
                d["game"] = line
            elif t[0] in ("heaps", "top", "partner", "states"):
                d[t[0]] = int(t[1])
            elif t[0] == "options":
                d["opt"][int(t[1])] = line
            elif t[0] == "act":
                d["act"][int(t[1])] = [int(x) for x in t[2:]]
            elif t[0] == "reduce":
                d["red"] = [int(x) for x in t[1:]]
            elif t[0] == "lab":
                for b, ch in enumerate(t[3]):
                    d["lab"][(int(t[1]), int(t[2]), b)] = ch
            elif t[0] == "check":
                d["A"] = [int(t[1]), int(t[2])]
            elif t[0] == "witness":
                d["wit"] = [1, int(t[1]), int(t[2])]
                d["ctx"] = [int(x) for x in t[3:]]
    t, b0, pb, a0, pa = d["red"]
    w = {"game": d["game"], "N": d["heaps"], "k": 2, "groups": [[d["top"]], [d["partner"]]],
         "opt": [d["opt"][K] for K in range(1, d["heaps"] + 1)], "S": d["states"], "act": d["act"],
         "blocks": [["pair", 1, 2, t, 1, b0, pb, a0, pa]], "T": [a0 + pa - 1, b0 + pb - 1],
         "lab": d["lab"], "A": d["A"], "wit": d["wit"], "f": [0, 0], "ctx": d["ctx"]}
    write(w)


def addgroup(path, heaps, force=False):
    d = read(path)
    f = d["act"][heaps[0]]
    for h in heaps:
        assert force or d["act"][h] == f, "heaps of one group need the same act map"
        del d["act"][h]
    S = d["S"]
    pw = [list(range(S))]
    while True:
        nxt = [f[s] for s in pw[-1]]
        if nxt in pw:
            c = pw.index(nxt)
            p = len(pw) - c
            break
        pw.append(nxt)
    k = d["k"] + 1
    lab = {}
    for (s, *x), _ in list(d["lab"].items()):
        for y in range(c + p):
            lab[(s, *x, y)] = d["lab"][(pw[y][s], *x)]
    d["lab"] = lab
    d["k"] = k
    d["groups"].append(sorted(heaps))
    d["blocks"].append(["period", k, c, p])
    d["T"].append(c + p - 1)
    d["A"].append(max(c + p, p + len(heaps) - 1))
    d["f"].append(sum(1 for h in d["ctx"] if h in heaps))
    d["ctx"] = [h for h in d["ctx"] if h not in heaps]
    write(d)


def permute(path, perm):
    d = read(path)
    k = d["k"]
    new = {old: l + 1 for l, old in enumerate(perm)}  # old coordinate -> new
    d["groups"] = [d["groups"][perm[l] - 1] for l in range(k)]
    bl = []
    for b in d["blocks"]:
        if b[0] == "period":
            bl.append(["period", new[b[1]]] + b[2:])
        else:
            bl.append(["pair", new[b[1]], new[b[2]]] + b[3:])
    d["blocks"] = bl
    d["lab"] = {(s,) + tuple(x[perm[l] - 1] for l in range(k)): v
                for (s, *x), v in d["lab"].items()}
    for key in ("T", "A", "f"):
        d[key] = [d[key][perm[l] - 1] for l in range(k)]
    d["wit"][0] = new[d["wit"][0]]
    write(d)


if __name__ == "__main__":
    cmd, path, args = sys.argv[1], sys.argv[2], [int(x) for x in sys.argv[3:]]
    {"tr1": lambda: tr1(path), "addgroup": lambda: addgroup(path, args),
     "addgroup-forced": lambda: addgroup(path, args, True),
     "permute": lambda: permute(path, args)}[cmd]()
