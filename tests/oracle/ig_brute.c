/* ig_brute: an independent check of misère equality of explicit impartial
 * games (shares no code with cgt).
 *
 * Games are plain trees: a node lists its children.  The misère outcome of
 * a sum (a multiset of trees) is found by straight recursion: the player to
 * move wins when no move is left, otherwise when some move reaches a
 * losing position (memoised on the sorted multiset).  Two games G and H are
 * called equal here when G + X and H + X have the same outcome for every X
 * in a fixed test set: 0 and every sum of one or two games taken from the
 * 16 trees born by day 3, the 32 trees whose options are among 0, *1, *2,
 * *3 and {*2}, and the pool of day-4 games below (31 125 games with 0).  An outcome difference is a proof that two games differ; the
 * test demands that cgt agrees on every pair.
 *
 * `ig_brute SEED N SCRIPT EXPECTED` draws N random pairs of games born by
 * day 4 (from a pool of random subsets of the day-3 trees, so that many
 * pairs are equal), writes `print G == H;` for each into SCRIPT (in cgt's
 * game syntax: braces and 0) and the verdict true/false into EXPECTED. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 4096
#define POOL 200
#define MAXKIDS 64

static int nkids[MAXN];
static int kids[MAXN][MAXKIDS];
static int nnodes;

static int node(const int *k, int n)
{
    if (nnodes >= MAXN || n > MAXKIDS) {
        fprintf(stderr, "ig_brute: too many nodes\n");
        exit(2);
    }
    nkids[nnodes] = n;
    if (n)
        memcpy(kids[nnodes], k, (size_t)n * sizeof *k);
    return nnodes++;
}

static void print_tree(FILE *f, int g)
{
    if (nkids[g] == 0) {
        fputc('0', f);
        return;
    }
    fputc('{', f);
    for (int i = 0; i < nkids[g]; i++) {
        if (i)
            fputs(", ", f);
        print_tree(f, kids[g][i]);
    }
    fputc('}', f);
}

/* ---- outcome of a multiset of trees (at most 4 parts) ---- */

#define MAXPARTS 4
typedef struct {
    int n;
    int p[MAXPARTS];
} Pos;

typedef struct {
    uint64_t key; /* 0 = empty */
    int win;
} Slot;

static Slot *table;
static size_t tcap = (size_t)1 << 23;

static uint64_t pos_key(const Pos *x)
{
    uint64_t k = 0;
    for (int i = 0; i < x->n; i++)
        k = k * 4099 + (uint64_t)x->p[i] + 1;
    return k * 8 + (uint64_t)x->n;
}

static void pos_sort(Pos *x)
{
    for (int i = 1; i < x->n; i++)
        for (int j = i; j > 0 && x->p[j - 1] > x->p[j]; j--) {
            int t = x->p[j];
            x->p[j] = x->p[j - 1];
            x->p[j - 1] = t;
        }
}

/* true when the player to move wins G (misère) */
static int wins(Pos x)
{
    /* drop empty parts */
    int m = 0;
    for (int i = 0; i < x.n; i++)
        if (nkids[x.p[i]])
            x.p[m++] = x.p[i];
    x.n = m;
    if (x.n == 0)
        return 1; /* no move: the player to move has won (misère) */
    pos_sort(&x);
    uint64_t k = pos_key(&x);
    size_t h = (size_t)((k * 0x9E3779B97F4A7C15ULL) >> 20) & (tcap - 1);
    while (table[h].key && table[h].key != k)
        h = (h + 1) & (tcap - 1);
    if (table[h].key == k)
        return table[h].win;
    int w = 0;
    for (int i = 0; i < x.n && !w; i++)
        for (int j = 0; j < nkids[x.p[i]] && !w; j++) {
            Pos y = x;
            y.p[i] = kids[x.p[i]][j];
            if (!wins(y))
                w = 1;
        }
    while (table[h].key && table[h].key != k)
        h = (h + 1) & (tcap - 1);
    table[h].key = k;
    table[h].win = w;
    return w;
}

static uint64_t rng = 88172645463325252ULL;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: ig_brute SEED N SCRIPT EXPECTED\n");
        return 2;
    }
    rng ^= strtoull(argv[1], NULL, 10) * 0x9E3779B97F4A7C15ULL;
    int npairs = atoi(argv[2]);
    FILE *sc = fopen(argv[3], "w"), *ex = fopen(argv[4], "w");
    if (!sc || !ex) {
        perror("ig_brute");
        return 2;
    }
    table = calloc(tcap, sizeof *table);
    /* day 1, 2, 3 as every subset of the previous day's trees */
    int day[4][16], nday[4];
    day[0][0] = node(NULL, 0);
    nday[0] = 1;
    for (int d = 1; d <= 3; d++) {
        int prev[16], np = 0;
        for (int i = 0; i < nday[d - 1]; i++)
            prev[np++] = day[d - 1][i];
        nday[d] = 0;
        for (int mask = 0; mask < (1 << np); mask++) {
            int k[16], n = 0;
            for (int i = 0; i < np; i++)
                if (mask >> i & 1)
                    k[n++] = prev[i];
            day[d][nday[d]++] = node(k, n);
        }
    }
    int n3 = nday[3];
    /* a pool of day-4 games: random subsets of the day-3 trees (small
       option sets are more likely, so that many pool games are equal) */
    int pool[POOL];
    for (int i = 0; i < POOL; i++) {
        int k[16], n = 0;
        int want = (int)(next() % 5);
        for (int j = 0; j < want; j++) {
            int c = day[3][next() % (uint64_t)n3];
            int dup = 0;
            for (int t = 0; t < n; t++)
                dup |= k[t] == c;
            if (!dup)
                k[n++] = c;
        }
        pool[i] = node(k, n);
    }
    /* the test set X: 0 and every sum of one or two games from the day-3
       trees and the pool (a distinguishing game often needs the games'
       own options' relatives, which the pool supplies) */
    int base[16 + 32 + POOL], nb = 0;
    for (int a = 0; a < n3; a++)
        base[nb++] = day[3][a];
    /* the 32 games whose options are among 0, *1, *2, *3 and {*2} (the
       five values born by day 3, ONAG ch. 12), as trees: a pool of random
       day-4 games alone missed some distinctions (seed 1, pair 2141 of
       3000: {*2, {*2}} and {*2, *3, {*2}} differ only in such sums) */
    {
        int z = day[0][0], k1[3];
        k1[0] = z;
        int one = node(k1, 1);
        k1[1] = one;
        int two = node(k1, 2);
        k1[2] = two;
        int three = node(k1, 3);
        int s2 = node(&two, 1);
        int five[5] = {z, one, two, three, s2};
        for (int mask = 0; mask < 32; mask++) {
            int k[5], n = 0;
            for (int i = 0; i < 5; i++)
                if (mask >> i & 1)
                    k[n++] = five[i];
            base[nb++] = node(k, n);
        }
    }
    for (int i = 0; i < POOL; i++)
        base[nb++] = pool[i];
    int nx = 1 + nb + nb * (nb + 1) / 2;
    Pos *xs = malloc((size_t)nx * sizeof *xs);
    nx = 0;
    xs[nx++] = (Pos){0, {0}};
    for (int a = 0; a < nb; a++) {
        xs[nx++] = (Pos){1, {base[a]}};
        for (int b = a; b < nb; b++)
            xs[nx++] = (Pos){2, {base[a], base[b]}};
    }
    /* outcome vectors of the pool */
    unsigned char *vec = malloc((size_t)POOL * (size_t)nx);
    for (int i = 0; i < POOL; i++)
        for (int j = 0; j < nx; j++) {
            Pos y = xs[j];
            y.p[y.n++] = pool[i];
            vec[(size_t)i * (size_t)nx + (size_t)j] = (unsigned char)wins(y);
        }
    int neq = 0;
    for (int t = 0; t < npairs; t++) {
        int a = (int)(next() % POOL), b = (int)(next() % POOL);
        int eq = memcmp(vec + (size_t)a * (size_t)nx, vec + (size_t)b * (size_t)nx, (size_t)nx) == 0;
        neq += eq;
        fputs("print ", sc);
        print_tree(sc, pool[a]);
        fputs(" == ", sc);
        print_tree(sc, pool[b]);
        fputs(";\n", sc);
        fputs(eq ? "true\n" : "false\n", ex);
    }
    fclose(sc);
    fclose(ex);
    fprintf(stderr, "ig_brute: %d pairs, %d equal, %d test games\n", npairs, neq, nx);
    free(table);
    free(vec);
    free(xs);
    return 0;
}
