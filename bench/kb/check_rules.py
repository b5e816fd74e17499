#!/usr/bin/env python3
"""Compare whole rule sets, not only their sizes: cgt's reduced confluent
system (bench_kb rules/ncrules) against Singular's reduced Groebner basis
(lead term -> tail) and GAP's rewriting system Rules(rws).
Usage: check_rules.py BENCH_KB FAMILY ID... [--nc]   (needs Singular / gap)"""
import re
import subprocess
import sys


def cgt_rules(bk, fam, k, nc):
    out = subprocess.run([bk, "ncrules" if nc else "rules", fam, str(k)],
                         capture_output=True, text=True, check=True).stdout
    rules = set()
    for line in out.splitlines():
        lhs, rhs = line.split(" = ")
        rules.add((word(lhs, nc), word(rhs, nc)))
    return rules


def word(text, nc):
    """'a^2 c' -> commutative exponent tuple or non-commutative letter tuple"""
    letters = []
    if text != "1":
        for f in text.split():
            name, _, e = f.partition("^")
            letters += [ord(name) - ord("a")] * int(e or 1)
    if nc:
        return tuple(letters)
    v = [0] * 26
    for x in letters:
        v[x] += 1
    return tuple(v)


def sing_mono(m):
    v = [0] * 26
    if m != "1":
        for f in m.split("*"):
            name, _, e = f.partition("^")
            v[int(name[1:]) - 1] += int(e or 1)
    return tuple(v)


def singular_rules(bk, fam, k):
    script = subprocess.run([bk, "singular", fam], capture_output=True, text=True,
                            check=True).stdout
    blocks = script.split("kill r")
    body = [b for b in blocks if "ring r%d " % k in b][0]
    body = body[body.index("ring r%d " % k):]
    body = body[:body.index("nrep = 0")]
    prog = 'option(redSB);\n' + body + 'G = std(I);\nint i;\nfor (i = 1; i <= size(G); i++) ' \
        '{ print(string(G[i])); }\nquit;\n'
    out = subprocess.run(["Singular", "-q"], input=prog, capture_output=True, text=True,
                         check=True).stdout
    rules = set()
    for line in out.split():
        m = re.fullmatch(r"([^+-]+)([+-])([^+-]+)", line)
        if not m or m.group(2) != "-":
            raise SystemExit("unexpected basis element " + line)
        rules.add((sing_mono(m.group(1)), sing_mono(m.group(3))))
    return rules


def gap_rules(bk, fam, k):
    script = subprocess.run([bk, "gap", fam, str(k)], capture_output=True, text=True,
                            check=True).stdout
    script = script[:script.index("t := Runtime()")]
    script += ("SizeScreen([4096, 24]);;\n"
               "rws := KnuthBendixRewritingSystem(M);; MakeConfluent(rws);;\n"
               "for r in Rules(rws) do Print(LetterRepAssocWord(r[1]), \"|\", "
               "LetterRepAssocWord(r[2]), \"\\n\"); od;\nQUIT;\n")
    out = subprocess.run(["gap", "-q", "-b"], input=script, capture_output=True, text=True,
                         check=True).stdout
    # GAP may still wrap long lines: parse the whole text, not line by line
    text = re.sub(r"\\?\n", "", out).replace(" ", "")
    conv = lambda s: tuple(int(x) - 1 for x in s.split(",") if x)
    return {(conv(a), conv(b)) for a, b in re.findall(r"\[([0-9,]*)\]\|\[([0-9,]*)\]", text)}


def main():
    args = [a for a in sys.argv[1:] if a != "--nc"]
    nc = "--nc" in sys.argv
    bk, fam, ids = args[0], args[1], [int(x) for x in args[2:]]
    bad = 0
    for k in ids:
        ours = cgt_rules(bk, fam, k, nc)
        ref = gap_rules(bk, fam, k) if nc else singular_rules(bk, fam, k)
        same = ours == ref
        bad += not same
        print("%s %d: cgt %d rules, %s %d rules, %s" % (fam, k, len(ours),
              "GAP" if nc else "Singular", len(ref), "identical" if same else "DIFFERENT"))
    sys.exit(1 if bad else 0)


main()
