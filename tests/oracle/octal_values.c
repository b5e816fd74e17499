/* octal_values: the first N Grundy values of an octal game, written as an
 * OEIS b-file ("n G(n)" lines, n = 0..N-1) on standard output, for
 * comparison with `write g to "F" as bfile` of cgt (tests/scripts/
 * octal_values.sh).  Shares no code with cgt.
 *
 * Usage: octal_values {0|4}.DIGITS N MASK [parity]   (MASK in hex; 0: the
 * plain mex over every option for every heap, O(N^2), for checking this
 * program).  A leading 4 (4.DIGITS, Czajka's codes such as 4.007) adds
 * the move that takes no token and splits a heap into two non-empty heaps:
 * split amount 0 (Winning Ways ch. 4, "taking no tokens").
 *
 * Method: G(n) is the mex of the option values (Sprague-Grundy; Winning
 * Ways ch. 4).  Heaps below 2000 take the plain mex over every option; from
 * there on the option set is restricted by a parity argument that is exact
 * for every mask (MASK and "parity" only change the speed):
 *   class c(a) = parity(G(a) & MASK) ^ (p & a & 1), p = 1 with "parity".
 * For a split of r into a + b, v = G(a) ^ G(b) has parity(v & MASK) =
 * c(a) ^ c(b) ^ (p & r & 1).  With p = 1 every split of a heap must remove
 * amounts of one parity (checked), so r & 1 is the same for all its
 * splits.  Call C the values with parity(v & MASK) = 1 ^ (p & r & 1): a
 * pair gives a value in C only when exactly one of its parts lies in the
 * class R (any fixed class; R = p & k & 1 for a split amount k, the choice
 * that makes most heaps' values fall in C).  So marking every pair with a
 * part in R, plus the moves that leave fewer than two heaps, finds every
 * option value in C; mc, the least value of C not found, is not an option,
 * so G(n) <= mc.  The values below mc outside C are then looked for among
 * all pairs (a, r - a), a = 1, 2, ..., each a for every remainder r, and
 * the search stops when all of them are found (G(n) = mc) or the pairs run
 * out (G(n) = the least one not found).  Values must stay below 4096.
 * Exit 2 on a usage error, 3 when a value reaches 4096. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VMAX 4096 /* values below this; a nim-sum of two stays below it */

static int par(unsigned x)
{
    int p = 0;
    while (x) {
        p ^= 1;
        x &= x - 1;
    }
    return p;
}

int main(int argc, char **argv)
{
    if ((argc != 4 && argc != 5) ||
        (strncmp(argv[1], "0.", 2) != 0 && strncmp(argv[1], "4.", 2) != 0) ||
        (argc == 5 && strcmp(argv[4], "parity") != 0))
        return fprintf(stderr, "usage: octal_values {0|4}.DIGITS N MASK [parity]\n"), 2;
    const char *d = argv[1] + 2;
    int t = (int)strlen(d);
    long N = atol(argv[2]);
    unsigned mask = (unsigned)strtoul(argv[3], NULL, 16);
    int pe = argc == 5;
    if (t < 1 || t > 20 || N < 1 || N > 1000000000L || mask >= VMAX)
        return fprintf(stderr, "octal_values: bad code, N or MASK\n"), 2;
    int dig[21] = {0};
    for (int k = 1; k <= t; k++) {
        if (d[k - 1] < '0' || d[k - 1] > '7')
            return fprintf(stderr, "octal_values: digits 0-7 only\n"), 2;
        dig[k] = d[k - 1] - '0';
    }
    int split[22], ns = 0;
    if (argv[1][0] == '4')
        split[ns++] = 0;
    for (int k = 1; k <= t; k++)
        if (dig[k] & 4)
            split[ns++] = k;
    if (pe && mask == 0)
        return fprintf(stderr, "octal_values: parity needs a mask\n"), 2;
    if (pe)
        for (int i = 1; i < ns; i++)
            if ((split[i] - split[0]) & 1)
                return fprintf(stderr, "octal_values: parity needs split amounts of one parity\n"), 2;
    int rcls = ns ? pe & split[0] & 1 : 0;
    unsigned short *g = malloc((size_t)N * sizeof *g);
    long *rare = malloc(1024 * sizeof *rare), nrare = 0, rcap = 1024;
    unsigned char seen[VMAX + 1];
    if (!g || !rare)
        return fprintf(stderr, "octal_values: out of memory\n"), 2;
    for (long n = 0; n < N; n++) {
        memset(seen, 0, sizeof seen);
        /* moves that leave no heap or one heap */
        for (int k = 1; k <= t && k <= n; k++) {
            if ((dig[k] & 1) && n == k)
                seen[0] = 1;
            if ((dig[k] & 2) && n > k)
                seen[g[n - k]] = 1;
        }
        unsigned v;
        if (n < 2000 || mask == 0) {
            for (int i = 0; i < ns; i++)
                for (long a = 1; 2 * a <= n - split[i]; a++)
                    seen[g[a] ^ g[n - split[i] - a]] = 1;
            v = 0;
            while (seen[v])
                v++;
        } else {
            /* every pair with a part in R */
            for (int i = 0; i < ns; i++) {
                long r = n - split[i];
                for (long j = 0; j < nrare && rare[j] < r; j++)
                    seen[g[rare[j]] ^ g[r - rare[j]]] = 1;
            }
            int cc = ns ? 1 ^ (pe & (int)((n - split[0]) & 1)) : 1;
            unsigned mc = 0;
            while (mc < VMAX && (seen[mc] || par(mc & mask) != cc))
                mc++;
            long missing = 0;
            for (unsigned x = 0; x < mc; x++)
                missing += !seen[x];
            for (long a = 1; ns && 2 * a <= n - split[0] && missing; a++)
                for (int i = 0; i < ns; i++) {
                    long r = n - split[i];
                    if (2 * a > r)
                        continue;
                    unsigned x = g[a] ^ g[r - a];
                    if (x < mc && !seen[x]) {
                        seen[x] = 1;
                        missing--;
                    }
                }
            v = 0;
            while (v < mc && seen[v])
                v++;
        }
        if (v >= VMAX)
            return fprintf(stderr, "octal_values: G(%ld) >= %d\n", n, VMAX), 3;
        g[n] = (unsigned short)v;
        if (n >= 1 && (par(v & mask) ^ (pe & (int)(n & 1))) == rcls) {
            if (nrare == rcap) {
                rcap *= 2;
                rare = realloc(rare, (size_t)rcap * sizeof *rare);
                if (!rare)
                    return fprintf(stderr, "octal_values: out of memory\n"), 2;
            }
            rare[nrare++] = n;
        }
    }
    for (long n = 0; n < N; n++)
        printf("%ld %u\n", n, g[n]);
    fprintf(stderr, "octal_values %s: %ld values, %ld in class R\n", argv[1], N, nrare);
    free(g);
    free(rare);
    return 0;
}
