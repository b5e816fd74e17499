"""Plain-recursion Grundy values of an octal (or hex) game, for the export
and plot tests: a test-side oracle that shares no code with games/.

A digit d at position k (1-based) of the code allows removing k tokens from
a heap when d & 1 leaves no heap, d & 2 leaves one heap, d & 4 leaves two
non-empty heaps (Winning Ways, ch. 4)."""


def grundy_octal(code, n):
    digits = [int(c, 16) for c in code.split(".")[1]]
    g = []
    for h in range(n):
        opts = set()
        for k, d in enumerate(digits, start=1):
            if k > h:
                break
            r = h - k
            if d & 1 and r == 0:
                opts.add(0)
            if d & 2 and r >= 1:
                opts.add(g[r])
            if d & 4 and r >= 2:
                for a in range(1, r // 2 + 1):
                    opts.add(g[a] ^ g[r - a])
        m = 0
        while m in opts:
            m += 1
        g.append(m)
    return g
