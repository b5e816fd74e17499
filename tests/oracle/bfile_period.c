/* bfile_period: checks a claimed period of an octal game's Grundy values
 * read as an OEIS b-file ("n G(n)" lines, n = 0, 1, 2, ...) on standard
 * input, as tests/oracle/octal_values writes them.  Shares no code with
 * cgt.
 *
 * Usage: bfile_period T P S   (T: the code's last digit position, the most
 * tokens one move takes; P: the period; S: the preperiod)
 *
 * It accepts (exit 0, "ok" and the facts on standard output) when, over the
 * N values read:
 *   1. G(n + P) = G(n) for every S <= n < N - P;
 *   2. N >= 2S + 2P + T, so that 1. covers S <= n < 2S + P + T: by the
 *      periodicity theorem for octal games whose moves leave at most two
 *      heaps (Guy and Smith 1956; Winning Ways ch. 4, "the periodicity
 *      theorem"), the values are then periodic with period P from S on;
 *   3. S = 0 or G(S - 1) != G(S - 1 + P): no smaller preperiod for P;
 *   4. for every prime q dividing P, some S <= n < S + P has G(n + P/q) !=
 *      G(n): no proper divisor of P is a period of the periodic part (and
 *      every period of it is a multiple of the least one, which divides P).
 * Otherwise it says which condition fails (exit 1); exit 2 on a usage or
 * input error.  Values are kept as 16-bit numbers (N up to 2^32). */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL: ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    return 1;
}

/* Read one unsigned decimal number and the character after it; -1 at the
 * end of the input. */
static int read_num(unsigned long long *x, int *after)
{
    int c = getchar_unlocked();
    while (c == ' ' || c == '\n' || c == '\r' || c == '\t')
        c = getchar_unlocked();
    if (c == EOF)
        return -1;
    if (c < '0' || c > '9')
        return 0;
    unsigned long long v = 0;
    while (c >= '0' && c <= '9') {
        v = v * 10 + (unsigned)(c - '0');
        c = getchar_unlocked();
    }
    *x = v;
    *after = c;
    return 1;
}

/* The four conditions on G(0..N-1); 0 when they hold. */
static int check(const uint16_t *g, size_t N, unsigned long long T, unsigned long long P,
                 unsigned long long S)
{
    if (N < 2 * S + 2 * P + T)
        return fail("%zu values, the theorem needs %llu", N, 2 * S + 2 * P + T);
    for (unsigned long long n = S; n + P < N; n++)
        if (g[n + P] != g[n])
            return fail("G(%llu) != G(%llu)", n, n + P);
    if (S > 0 && g[S - 1] == g[S - 1 + P])
        return fail("G(%llu) = G(%llu): the preperiod is smaller", S - 1, S - 1 + P);
    unsigned long long m = P;
    for (unsigned long long q = 2; q * q <= m || m > 1; q++) {
        if (q * q > m)
            q = m; /* m is prime */
        if (m % q)
            continue;
        while (m % q == 0)
            m /= q;
        unsigned long long d = P / q, n = S;
        while (n < S + P && g[n + d] == g[n])
            n++;
        if (n == S + P)
            return fail("P/%llu = %llu is a period too", q, d);
    }
    printf("ok: %zu values, period %llu from %llu on (the theorem needs %llu values); no "
           "proper divisor of the period is one\n",
           N, P, S, 2 * S + 2 * P + T);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 4)
        return fprintf(stderr, "usage: bfile_period T P S < bfile\n"), 2;
    unsigned long long T = strtoull(argv[1], NULL, 10), P = strtoull(argv[2], NULL, 10),
                       S = strtoull(argv[3], NULL, 10);
    if (P == 0)
        return fprintf(stderr, "bfile_period: P must be positive\n"), 2;
    size_t cap = (size_t)1 << 20, N = 0;
    uint16_t *g = malloc(cap * sizeof *g);
    if (!g)
        return fprintf(stderr, "bfile_period: out of memory\n"), 2;
    for (;;) {
        unsigned long long n, v;
        int after, r = read_num(&n, &after);
        if (r < 0)
            break;
        if (r == 0 || read_num(&v, &after) != 1 || n != N || v > UINT16_MAX) {
            free(g);
            return fprintf(stderr, "bfile_period: bad line for n = %zu\n", N), 2;
        }
        if (N == cap) {
            cap *= 2;
            uint16_t *ng = realloc(g, cap * sizeof *g);
            if (!ng) {
                free(g);
                return fprintf(stderr, "bfile_period: out of memory at %zu values\n", N), 2;
            }
            g = ng;
        }
        g[N++] = (uint16_t)v;
    }
    int rc = check(g, N, T, P, S);
    free(g);
    return rc;
}

