#!/usr/bin/env python3
"""Exhaustive answers for the problems of examples/ga.cgt, sharing nothing
with cgt: every placement of eight queens one per column (the 92
solutions), every packing of the knapsack, and every position of four
different heaps of 1..12 tokens of Dawson's Kayles (octal 0.07) with its
misere outcome by a plain game-tree search and its normal-play outcome by
the Sprague-Grundy theorem (Grundy values by mex).

Usage: ga_oracle.py FILE, FILE being the output of examples/ga.cgt; prints
one line per problem and exits 1 on the first answer that is not optimal."""
import sys
from functools import lru_cache
from itertools import combinations, permutations, product


def queens_solutions():
    sols = set()
    for p in permutations(range(8)):
        if all(abs(p[i] - p[j]) != j - i for i in range(8) for j in range(i + 1, 8)):
            sols.add("".join(str(r + 1) for r in p))
    return sols


W = [12, 7, 11, 8, 9, 14, 6, 10, 5, 13, 4, 15]
V = [24, 13, 23, 15, 16, 30, 11, 19, 8, 26, 6, 29]


def packing(bits):
    w = sum(x for x, b in zip(W, bits) if b)
    v = sum(x for x, b in zip(V, bits) if b)
    return w, v


def knapsack_optimum():
    return max(packing(s)[1] for s in product([0, 1], repeat=12) if packing(s)[0] <= 50)


def live(heaps):
    """Heaps of 0 or 1 token have no move: dropped."""
    return tuple(sorted(h for h in heaps if h >= 2))


@lru_cache(maxsize=None)
def misere_next_wins(pos):
    """Octal 0.07: take two adjacent tokens of a heap, leaving 0, 1 or 2
    heaps.  In misere play the player with no move wins."""
    moves = []
    for i, h in enumerate(pos):
        rest = pos[:i] + pos[i + 1:]
        for a in range(0, (h - 2) // 2 + 1):
            moves.append(live(rest + (a, h - 2 - a)))
    if not moves:
        return True
    return any(not misere_next_wins(m) for m in moves)


@lru_cache(maxsize=None)
def grundy(n):
    if n < 2:
        return 0
    seen = {grundy(a) ^ grundy(n - 2 - a) for a in range(0, n - 1)}
    m = 0
    while m in seen:
        m += 1
    return m


def gap(heaps):
    """misere P and normal N"""
    ns = 0
    for h in heaps:
        ns ^= grundy(h)
    return not misere_next_wins(live(heaps)) and ns != 0


def main():
    lines = {}
    for line in open(sys.argv[1]):
        word = line.split(":")[0]
        lines[word] = line.split()
    ok = True
    sols = queens_solutions()
    q = lines["queens"]
    good = len(sols) == 92 and q[1] in sols and q[2] == "0"
    print("queens: 92 solutions; %s is %s" % (q[1], "one" if good else "NOT one"))
    ok &= good
    best = lines["best"][1].strip('"')
    good = best == "1" * 40 and lines["fitness"][1] == "40,"
    print("onemax: %s" % ("optimal" if good else "NOT optimal"))
    ok &= good
    k = lines["knapsack"]
    opt = knapsack_optimum()
    w, v = packing([int(c) for c in k[1]])
    good = opt == 103 and w <= 50 and v == opt and int(k[2]) == opt
    print("knapsack: optimum %d; %s weighs %d and is worth %d" % (opt, k[1], w, v))
    ok &= good
    d = lines["dawson"]
    heaps = tuple(int(x.strip("[],")) for x in d[1:5])
    least = min(sum(c) for c in combinations(range(1, 13), 4) if gap(c))
    good = len(set(heaps)) == 4 and gap(heaps) and sum(heaps) == least == int(d[5])
    print("dawson: fewest tokens %d; %s %s" % (least, list(heaps), "has them" if good else "does NOT"))
    ok &= good
    sys.exit(0 if ok else 1)


main()
