#!/usr/bin/env python3
"""Markdown summary of a sweep CSV written by bench/misere/sweep.py
(docs/misere.md, "The sweep").

Usage: bench/misere/sweep_table.py [CSV]   (default bench/results/misere-sweep.csv)

Prints the counts by verdict, every infinite verdict, every undecided heap
with what the decision last tried, the codes stopped by the budget (by the
heap they stopped at), and the groups of codes that are the same game on
heaps 1..HEAP (equal option sets heap by heap; Q(n) for n <= HEAP depends
only on those, so each group has one verdict).  The options are generated
from the octal digits here (Winning Ways ch. 4: bit 1 of digit k removes a
whole heap of k, bit 2 removes k and leaves one heap, bit 4 removes k and
leaves two heaps), not read from cgt.
"""
import collections
import csv
import re
import sys


def options(code, n):
    """The options of one heap of n as a frozenset of sorted heap tuples."""
    digits = [int(c) for c in code.split(".", 1)[1]]
    out = set()
    for k, d in enumerate(digits, start=1):
        if k > n:
            break
        r = n - k
        if d & 1 and r == 0:
            out.add(())
        if d & 2 and r > 0:
            out.add((r,))
        if d & 4 and r >= 2:
            for a in range(1, r // 2 + 1):
                out.add((a, r - a))
    return frozenset(out)


def read(path):
    with open(path, newline="") as f:
        comments = []
        lines = []
        for line in f:
            (comments if line.startswith("#") else lines).append(line)
    return comments, list(csv.DictReader(lines))


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "bench/results/misere-sweep.csv"
    comments, rows = read(path)
    heap = 20
    for c in comments:
        m = re.search(r"--heap (\d+)", c)
        if m:
            heap = int(m.group(1))
    byver = collections.Counter(r["verdict"] for r in rows)
    cpu = sum(float(r["cpu_s"]) for r in rows)
    print("Codes done: %d (%s); CPU %.0f s in all." % (
        len(rows), ", ".join("%s %d" % (k, v) for k, v in sorted(byver.items())), cpu))
    print()
    groups = collections.OrderedDict()
    for r in rows:
        if r["verdict"] == "error":
            continue
        key = tuple(options(r["code"], n) for n in range(1, heap + 1))
        groups.setdefault(key, []).append(r["code"])
    multi = [g for g in groups.values() if len(g) > 1]
    print("Distinct games on heaps 1..%d: %d (%d groups of two or more codes)." % (
        heap, len(groups), len(multi)))
    print()
    first = {}
    for g in groups.values():
        for c in g:
            first[c] = g[0]

    inf = [r for r in rows if r["verdict"].startswith("infinite")]
    print("| code | heap | partner | states | reduce t b0 pb a0 pa | witness (e, a_min, W) "
          "| Q(heap-1) | checker | CPU s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in inf:
        same = "" if first.get(r["code"], r["code"]) == r["code"] else \
            " (= %s)" % first[r["code"]]
        ok = "accepted" if r["checker"].startswith("exit 0:") else "**REJECTED**"
        print("| %s%s | %s | %s | %s | %s | %s | %s, %s | %s | %s |" % (
            r["code"], same, r["heap"], r["partner"], r["states"], r["reduce"], r["witness"],
            r["order"], r["pcount"], ok, r["cpu_s"]))
    print()
    und = collections.OrderedDict()
    for r in rows:
        if r["verdict"] != "undecided":
            continue
        m = re.search(r"a least failure: (\d+)", r["note"])
        copies = m.group(1) if m else "?"
        last = r["note"].split("; last attempt: ", 1)[1] if "; last attempt: " in r["note"] else ""
        last = re.sub(r"^copies \d+, ", "", last.split("); proved", 1)[0])
        und.setdefault((r["heap"], r["order"], copies, last), []).append(r)
    print("Undecided, codes with the same heap, |Q(heap-1)|, most copies and last attempt "
          "on one line:")
    print()
    print("| codes | heap | \\|Q(heap-1)\\| | most copies | last attempt | CPU s |")
    print("|---|---|---|---|---|---|")
    for (h, order, copies, last), rs in und.items():
        cpus = sorted(float(r["cpu_s"]) for r in rs)
        cpu = "%.2f" % cpus[0] if len(cpus) == 1 else "%.2f-%.2f" % (cpus[0], cpus[-1])
        print("| %s | %s | %s | %s | %s | %s |" % (", ".join(r["code"] for r in rs), h, order,
                                                  copies, last, cpu))
    print()
    bud = collections.defaultdict(list)
    for r in rows:
        if r["verdict"] == "budget":
            bud[int(r["heap"])].append(r["code"])
    if bud:
        print("Stopped by the budget before the decision tried anything, by the heap not "
              "completed:")
        print()
    for h in sorted(bud):
        print("* heap %d (%d): %s" % (h, len(bud[h]), ", ".join(bud[h])))
    print()
    fin = collections.Counter((r["order"], r["pcount"]) for r in rows if r["verdict"] == "finite")
    if fin:
        print("Finite Q(%d), the commonest (|Q|, |P|): %s" % (heap, ", ".join(
            "(%s, %s) %d" % (o, p, n) for (o, p), n in fin.most_common(8))))
        big = sorted((r for r in rows if r["verdict"] == "finite"),
                     key=lambda r: -int(r["order"]))
        print("Largest finite Q(%d): %s" % (heap, ", ".join(
            "%s (%s, %s)" % (r["code"], r["order"], r["pcount"]) for r in big[:8])))
    other = [r for r in rows if r["verdict"] in ("error", "uncertified")]
    if other:
        print()
        print("Errors and uncertified: %s" % "; ".join(
            "%s %s: %s" % (r["code"], r["verdict"], r["note"][:120]) for r in other))
    if multi:
        print()
        print("Groups of codes that are the same game on heaps 1..%d:" % heap)
        print()
        for g in multi:
            print("* %s" % ", ".join(g))


if __name__ == "__main__":
    main()
