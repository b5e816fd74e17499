#!/usr/bin/env python3
"""Share of each phase of a misere-quotient run in a perf profile.

Usage: perf record -F 300 --call-graph dwarf,16384 -o P.data BUILD/cgt -e '...'
       perf script -i P.data | python3 bench/misere/perf_phases.py

Each sample is put in the first phase whose function is on its stack:
the infinite-quotient decision (try_top, src/lib/misere/mqinf.c) split
into its certificate, witness search, fit and attempt (states and
window), then the construction's recalibration and its least N- and
P-failure searches (src/lib/misere/mqcore.c), else "other" (the finite
certificate, start-up).  Prints the percentage of samples per phase and
the leaf functions that take most of it (docs/performance.md,
"Infinite decision").
"""
import collections
import sys


def phase(stack):
    s = set(stack)
    if "try_top" in s:
        if "mqinf_certify" in s:
            return "decision: certificate"
        if "mqinf_find_witness" in s or "witness_ok" in s:
            return "decision: witness"
        if "fit" in s:
            return "decision: fit"
        if "attempt" in s:
            return "decision: states and window"
        return "decision: other"
    if "recalibrate" in s:
        return "construction: recalibration"
    if "least_nfail" in s or "mq_least_nfail" in s:
        return "construction: least N-failure"
    if "least_pfail" in s:
        return "construction: least P-failure"
    return "other"


def main():
    samples, cur = [], None
    for line in sys.stdin:
        if line and not line[0].isspace():
            if cur is not None:
                samples.append(cur)
            cur = []
        elif line.strip() and cur is not None:
            parts = line.split()
            if len(parts) >= 2:
                cur.append(parts[1].split("+")[0])
    if cur:
        samples.append(cur)
    if not samples:
        sys.exit("no samples on stdin (perf script output expected)")
    n = len(samples)
    count = collections.Counter()
    leaves = collections.defaultdict(collections.Counter)
    for st in samples:
        ph = phase(st)
        count[ph] += 1
        leaves[ph][st[0] if st else "?"] += 1
    for ph, v in count.most_common():
        top = ", ".join("%s %.1f%%" % (k, 100.0 * x / n) for k, x in leaves[ph].most_common(3))
        print("%5.1f%%  %-32s (%s)" % (100.0 * v / n, ph, top))


main()
