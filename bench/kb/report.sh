#!/bin/sh
# Summarise the raw outputs of bench/kb/compare.sh (directory $1): per family
# the agreement of rule counts and orders, median and worst CPU times and the
# ratios to the targets (cgt <= 2x Singular; cgt nc >= 10x faster than GAP).
# Line formats: cgt "fam id gens rules order sec"; Singular "fam id gens rules
# vdim total-us reps"; GAP "fam id gens rules - total-ms reps first-ms".
O=${1:-/tmp/kbcmp}
STATS='
function sortn(a, n,   i, j, t) {
    for (i = 2; i <= n; i++) {
        t = a[i]
        for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]
        a[j + 1] = t
    }
}
function med(a, n) { sortn(a, n); return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
function mx(a, n,   i, m) { m = a[1]; for (i = 2; i <= n; i++) if (a[i] > m) m = a[i]; return m }
function mn(a, n,   i, m) { m = a[1]; for (i = 2; i <= n; i++) if (a[i] < m) m = a[i]; return m }
'
comm() { # family
    f=$1
    [ -s "$O/cgt_$f.txt" ] && [ -s "$O/sing_$f.txt" ] || return 0
    awk "$STATS"'
    NR == FNR { r[$2] = $4; o[$2] = $5; t[$2] = $6; g[$2] = $3; next }
    ($2 in r) {
        n++; s = $6 / $7 / 1e6; c = t[$2]
        okr = (r[$2] == $4); oko = (o[$2] == $5 || (o[$2] == ">3e6" && $5 > 3000000) ||
                                   (o[$2] == "inf" && $5 == -1))
        if (!okr || !oko) { bad++; printf "  MISMATCH id %s: cgt %s rules order %s, Singular %s rules vdim %s\n",
            $2, r[$2], o[$2], $4, $5 }
        ct[n] = c; st[n] = s; ra[n] = c / s; ct2[n] = c; st2[n] = s
        if (c / s > wr) { wr = c / s; wid = $2 }
        if (c > wc) { wc = c; wcid = $2; wcs = s }
        if (s > ws) { ws = s; wsid = $2; wsc = c }
        if ($4 > mr) mr = $4
    }
    END {
        printf "%-6s %3d instances, rules+order agree: %d/%d, most rules %d\n",
            FAM, n, n - bad, n, mr
        printf "  median CPU: cgt %.6f s, Singular %.6f s; median ratio cgt/Singular %.3f\n",
            med(ct, n), med(st, n), med(ra, n)
        printf "  worst ratio %.3f (id %s); target <= 2: %s\n",
            wr, wid, (wr <= 2 ? "met on every instance" : "NOT met on every instance")
        printf "  slowest cgt: id %s %.6f s (Singular %.6f s); slowest Singular: id %s %.6f s (cgt %.6f s)\n",
            wcid, wc, wcs, wsid, ws, wsc
    }' FAM=$f "$O/cgt_$f.txt" "$O/sing_$f.txt"
}
nc() { # family
    f=$1
    [ -s "$O/cgtnc_$f.txt" ] && [ -s "$O/gap_$f.txt" ] || return 0
    awk "$STATS"'
    NR == FNR { r[$2] = $4; t[$2] = $6; next }
    ($2 in r) {
        if ($4 == "timeout") { to++; tol = tol " " $2; next }
        n++; gs = $6 / $7 / 1000; c = t[$2]
        if (r[$2] != $4) { bad++; printf "  MISMATCH id %s: cgt %s rules, GAP %s rules\n",
            $2, r[$2], $4 }
        ct[n] = c; gt[n] = gs; sp[n] = gs / c
        if (n == 1 || gs / c < ws) { ws = gs / c; wid = $2 }
        if (gs > wg) { wg = gs; wgid = $2; wgc = c }
        if (c > wc) { wc = c; wcid = $2; wcg = gs }
    }
    END {
        printf "%-6s %3d instances completed by GAP, %d timeouts (>120 s)%s; rules agree: %d/%d\n",
            FAM, n, to, to ? " ids" tol : "", n - bad, n
        if (!n) exit
        printf "  median CPU: cgt %.6f s, GAP %.6f s; median speed-up GAP/cgt %.1f\n",
            med(ct, n), med(gt, n), med(sp, n)
        printf "  smallest speed-up %.1f (id %s); target >= 10: %s\n",
            ws, wid, (ws >= 10 ? "met on every instance" : "NOT met on every instance")
        printf "  slowest GAP: id %s %.3f s (cgt %.6f s); slowest cgt: id %s %.6f s (GAP %.3f s)\n",
            wgid, wg, wgc, wcid, wc, wcg
    }' FAM=$f "$O/cgtnc_$f.txt" "$O/gap_$f.txt"
}
echo "== commutative: cgt kb_complete vs Singular std (dp, redSB, char 32003)"
comm small
comm big
echo "== string rewriting with commutation relations: cgt nckb vs GAP KnuthBendixRewritingSystem"
nc small
nc nc8
