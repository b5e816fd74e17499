/* octal_period: Grundy values of an octal game by the plain mex recursion
 * and its period by the periodicity theorem (Guy and Smith 1956; Winning
 * Ways ch. 4, "the periodicity theorem": with t the index of the last
 * non-zero digit and moves leaving at most two heaps, G(n + p) = G(n) for
 * all n with r <= n < 2r + p + t implies it for all n >= r).  Shares no
 * code with cgt.  Usage: octal_period CODE MAXN [values] (digits 0-7 after
 * "0." or "4."; d0 = 4 splits a heap into two non-empty heaps without
 * taking a token: the k = 0 case of the theorem's proof, so t is still the
 * index of the last non-zero digit after the point).
 * Prints "period P preperiod R" (least p, then least r) when the theorem
 * proves a period within G(0..MAXN-1), "nomoves" for a code with no move,
 * else "unknown MAXN".  With a third argument "values", a second line
 * lists G(0..MAXN-1) separated by spaces.  Exit 2 on a usage error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 4 || (strncmp(argv[1], "0.", 2) != 0 && strncmp(argv[1], "4.", 2) != 0) ||
        (argc == 4 && strcmp(argv[3], "values") != 0))
        return fprintf(stderr, "usage: octal_period 0.DIGITS|4.DIGITS MAXN [values]\n"), 2;
    int split0 = argv[1][0] == '4';
    int values = argc == 4;
    const char *d = argv[1] + 2;
    int t = (int)strlen(d);
    long N = atol(argv[2]);
    if (t < 1 || t > 20 || N < 4 || N > 1000000)
        return fprintf(stderr, "octal_period: bad code or MAXN\n"), 2;
    int dig[21] = {0};
    for (int k = 1; k <= t; k++) {
        if (d[k - 1] < '0' || d[k - 1] > '7')
            return fprintf(stderr, "octal_period: digits 0-7 only\n"), 2;
        dig[k] = d[k - 1] - '0';
    }
    while (t > 0 && dig[t] == 0)
        t--;
    if (t == 0 && !split0)
        return puts("nomoves"), 0;
    unsigned *g = calloc((size_t)N, sizeof *g);
    unsigned char *seen = calloc(4096, 1);
    if (!g || !seen)
        return 2;
    for (long n = 0; n < N; n++) {
        memset(seen, 0, 4096);
        if (split0)
            for (long a = 1; a <= n / 2; a++)
                seen[g[a] ^ g[n - a]] = 1;
        for (int k = 1; k <= t && k <= n; k++) {
            long r = n - k;
            if ((dig[k] & 1) && r == 0)
                seen[0] = 1;
            if ((dig[k] & 2) && r >= 1)
                seen[g[r]] = 1;
            if ((dig[k] & 4) && r >= 2)
                for (long a = 1; a <= r / 2; a++)
                    seen[g[a] ^ g[r - a]] = 1;
        }
        unsigned m = 0;
        while (m < 4095 && seen[m])
            m++;
        g[n] = m;
    }
    for (long p = 1; p < N; p++) {
        /* the least r from which the computed tail repeats with period p */
        long r = N - p;
        while (r > 0 && g[r - 1] == g[r - 1 + p])
            r--;
        if (2 * r + p + t <= N) {
            printf("period %ld preperiod %ld\n", p, r);
            break;
        }
        if (p == N - 1)
            printf("unknown %ld\n", N);
    }
    for (long n = 0; values && n < N; n++)
        printf("%u%c", g[n], n + 1 < N ? ' ' : '\n');
    free(seen);
    free(g);
    return 0;
}
