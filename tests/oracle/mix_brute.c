/* mix_brute: misère outcomes of positions made of heaps of several kinds
 * at once (shares no code with cgt).  A heap is a node with a list of
 * options, each option the multiset of heaps it leaves; a position is a
 * multiset of heaps, and its misère outcome is found by plain memoised
 * recursion: the player to move wins when no move is left, otherwise
 * exactly when some move reaches a losing position.
 *
 *   mix_brute heaps T CODE:N [CODE:N ...]
 *     heaps 1..N of each octal game CODE (digits d1 d2 ... after "0.";
 *     digit d_k: bit 1 = take k leaving nothing, bit 2 = leaving one
 *     heap, bit 4 = leaving two), or CODE = nim (take any number);
 *     every position with at most T tokens, as a list of lists of heaps
 *     (one per game, cgt's syntax), then P or N.
 *   mix_brute games T GAME [GAME ...]
 *     the closure of the games (written 0, *, *n, {G, ...}, G + H): every
 *     multiset of at most T games of the closure other than 0, as a list
 *     of games in braces (cgt's syntax), then P or N. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAXHEAP = 4096, MAXOPT = 4096, MAXLEN = 64 };

/* heap h: nopt[h] options; option j leaves olen[h][j] heaps oh[h][j][..] */
static int nheap;
static int nopt[MAXHEAP];
static int (*olen)[MAXOPT];
static int (*oh)[MAXOPT][3];
static int tok[MAXHEAP], part[MAXHEAP], size[MAXHEAP];

static void add_opt(int h, const int *l, int n)
{
    if (nopt[h] >= MAXOPT) {
        fprintf(stderr, "mix_brute: too many options\n");
        exit(2);
    }
    olen[h][nopt[h]] = n;
    for (int i = 0; i < n; i++)
        oh[h][nopt[h]][i] = l[i];
    nopt[h]++;
}

/* ---- memo over sorted positions ---- */
typedef struct Ent {
    int len;
    short h[MAXLEN];
    signed char v;
} Ent;
static Ent *memo;
static size_t mcap = (size_t)1 << 20, mused;

static uint64_t hpos(const short *p, int n)
{
    uint64_t x = 1469598103934665603ULL ^ (uint64_t)n;
    for (int i = 0; i < n; i++)
        x = (x ^ (uint64_t)(uint16_t)p[i]) * 1099511628211ULL;
    return x ^ (x >> 29);
}

static int cmps(const void *a, const void *b)
{
    return *(const short *)a - *(const short *)b;
}

static int is_p(const short *p, int n);

static int lookup(const short *p, int n, size_t *slot)
{
    size_t i = hpos(p, n) & (mcap - 1);
    while (memo[i].v >= 0) {
        if (memo[i].len == n && memcmp(memo[i].h, p, (size_t)n * sizeof *p) == 0) {
            *slot = i;
            return memo[i].v;
        }
        i = (i + 1) & (mcap - 1);
    }
    *slot = i;
    return -1;
}

static void grow(void)
{
    Ent *old = memo;
    size_t oc = mcap;
    mcap *= 2;
    memo = malloc(mcap * sizeof *memo);
    if (!memo) {
        fprintf(stderr, "mix_brute: out of memory\n");
        exit(2);
    }
    for (size_t i = 0; i < mcap; i++)
        memo[i].v = -1;
    for (size_t i = 0; i < oc; i++)
        if (old[i].v >= 0) {
            size_t s;
            lookup(old[i].h, old[i].len, &s);
            memo[s] = old[i];
        }
    free(old);
}

static int is_p(const short *p, int n)
{
    size_t slot;
    int v = lookup(p, n, &slot);
    if (v >= 0)
        return v;
    int moved = 0, win = 0;
    short q[MAXLEN];
    for (int i = 0; i < n && !win; i++) {
        if (i && p[i] == p[i - 1])
            continue;
        int h = p[i];
        for (int j = 0; j < nopt[h] && !win; j++) {
            int m = 0;
            for (int k = 0; k < n; k++)
                if (k != i)
                    q[m++] = p[k];
            if (m + olen[h][j] > MAXLEN) {
                fprintf(stderr, "mix_brute: position too long\n");
                exit(2);
            }
            for (int k = 0; k < olen[h][j]; k++)
                q[m++] = (short)oh[h][j][k];
            qsort(q, (size_t)m, sizeof *q, cmps);
            moved = 1;
            if (is_p(q, m))
                win = 1;
        }
    }
    v = moved && !win;
    if (2 * (mused + 1) > mcap) {
        grow();
        lookup(p, n, &slot);
    }
    memo[slot].len = n;
    memcpy(memo[slot].h, p, (size_t)n * sizeof *p);
    memo[slot].v = (signed char)v;
    mused++;
    return v;
}

/* ---- heap games ---- */
static int first[64];

static void octal(int pi, const char *code, int n)
{
    int nim = strcmp(code, "nim") == 0, dig[64], nd = 0;
    if (!nim) {
        if (strncmp(code, "0.", 2) != 0) {
            fprintf(stderr, "mix_brute: bad code %s\n", code);
            exit(2);
        }
        for (const char *s = code + 2; *s && nd < 63; s++)
            dig[++nd] = *s - '0';
    }
    first[pi] = nheap;
    for (int h = 1; h <= n; h++) {
        int id = nheap++;
        tok[id] = h;
        part[id] = pi;
        size[id] = h;
        for (int k = 1; k <= h; k++) {
            int d = nim ? 3 : (k <= nd ? dig[k] : 0), r = h - k, l[2];
            if ((d & 1) && r == 0)
                add_opt(id, l, 0);
            if ((d & 2) && r > 0) {
                l[0] = first[pi] + r - 1;
                add_opt(id, l, 1);
            }
            if (d & 4)
                for (int a = 1; 2 * a <= r - 0 && a < r; a++) {
                    l[0] = first[pi] + a - 1;
                    l[1] = first[pi] + r - a - 1;
                    add_opt(id, l, 2);
                }
        }
    }
}

/* ---- explicit games: trees interned by their sorted option sets ---- */
static int gkids[MAXHEAP][MAXOPT > 256 ? 256 : MAXOPT], gn[MAXHEAP], ng;

static int cmpi(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

static int intern(int *k, int n)
{
    if (n > 1)
        qsort(k, (size_t)n, sizeof *k, cmpi);
    int m = 0;
    for (int i = 0; i < n; i++)
        if (!m || k[m - 1] != k[i])
            k[m++] = k[i];
    for (int g = 0; g < ng; g++)
        if (gn[g] == m && (m == 0 || memcmp(gkids[g], k, (size_t)m * sizeof *k) == 0))
            return g;
    if (ng >= MAXHEAP || m > 256) {
        fprintf(stderr, "mix_brute: game too large\n");
        exit(2);
    }
    gn[ng] = m;
    if (m)
        memcpy(gkids[ng], k, (size_t)m * sizeof *k);
    return ng++;
}

static int sum(int a, int b)
{
    int k[256], n = 0;
    if (gn[a] + gn[b] > 256) {
        fprintf(stderr, "mix_brute: sum too large\n");
        exit(2);
    }
    for (int i = 0; i < gn[a]; i++)
        k[n++] = sum(gkids[a][i], b);
    for (int i = 0; i < gn[b]; i++)
        k[n++] = sum(a, gkids[b][i]);
    return intern(k, n);
}

static const char *sp;

static int parse_sum(void);

static int parse_one(void)
{
    while (*sp == ' ')
        sp++;
    if (*sp == '0') {
        sp++;
        return intern(NULL, 0);
    }
    if (*sp == '*') {
        sp++;
        int n = 1;
        if (*sp >= '0' && *sp <= '9')
            n = (int)strtol(sp, (char **)&sp, 10);
        if (n > 255) {
            fprintf(stderr, "mix_brute: nim heap too large\n");
            exit(2);
        }
        /* *n = {*0, ..., *(n-1)} */
        int nim[256];
        for (int i = 0; i <= n; i++) {
            int k[256];
            memcpy(k, nim, (size_t)i * sizeof *k);
            nim[i] = intern(k, i);
        }
        return nim[n];
    }
    if (*sp == '{') {
        sp++;
        int k[256], n = 0;
        while (*sp == ' ')
            sp++;
        if (*sp == '}') {
            sp++;
            return intern(k, 0);
        }
        for (;;) {
            k[n++] = parse_sum();
            while (*sp == ' ')
                sp++;
            if (*sp == ',') {
                sp++;
                continue;
            }
            if (*sp == '}') {
                sp++;
                return intern(k, n);
            }
            fprintf(stderr, "mix_brute: bad game near %s\n", sp);
            exit(2);
        }
    }
    fprintf(stderr, "mix_brute: bad game near %s\n", sp);
    exit(2);
}

static int parse_sum(void)
{
    int g = parse_one();
    for (;;) {
        while (*sp == ' ')
            sp++;
        if (*sp != '+')
            return g;
        sp++;
        g = sum(g, parse_one());
    }
}

static void print_game(int g)
{
    if (gn[g] == 0) {
        putchar('0');
        return;
    }
    putchar('{');
    for (int i = 0; i < gn[g]; i++) {
        if (i)
            printf(", ");
        print_game(gkids[g][i]);
    }
    putchar('}');
}

/* ---- enumeration ---- */
static short cur[MAXLEN];
static int nparts, gmode, heapof[MAXHEAP];

static void emit(int n)
{
    int v = is_p(cur, n);
    putchar('[');
    if (gmode) {
        for (int i = 0; i < n; i++) {
            if (i)
                printf(", ");
            print_game(heapof[cur[i]]);
        }
    } else {
        for (int p = 0; p < nparts; p++) {
            printf("%s[", p ? ", " : "");
            int any = 0;
            for (int i = 0; i < n; i++)
                if (part[cur[i]] == p) {
                    printf("%s%d", any ? ", " : "", size[cur[i]]);
                    any = 1;
                }
            putchar(']');
        }
    }
    printf("] %c\n", v ? 'P' : 'N');
}

static void walk(int n, int from, int left)
{
    emit(n);
    if (n == MAXLEN)
        return;
    for (int h = from; h < nheap; h++)
        if (tok[h] <= left) {
            cur[n] = (short)h;
            walk(n + 1, h, left - tok[h]);
        }
}

int main(int argc, char **argv)
{
    if (argc < 4 || (strcmp(argv[1], "heaps") != 0 && strcmp(argv[1], "games") != 0)) {
        fprintf(stderr, "usage: mix_brute heaps T CODE:N ... | mix_brute games T GAME ...\n");
        return 2;
    }
    olen = calloc(MAXHEAP, sizeof *olen);
    oh = calloc(MAXHEAP, sizeof *oh);
    memo = malloc(mcap * sizeof *memo);
    if (!olen || !oh || !memo)
        return 2;
    for (size_t i = 0; i < mcap; i++)
        memo[i].v = -1;
    int T = atoi(argv[2]);
    gmode = strcmp(argv[1], "games") == 0;
    if (!gmode) {
        nparts = argc - 3;
        for (int i = 3; i < argc; i++) {
            char code[64];
            const char *colon = strchr(argv[i], ':');
            if (!colon || colon - argv[i] >= 63)
                return 2;
            memcpy(code, argv[i], (size_t)(colon - argv[i]));
            code[colon - argv[i]] = 0;
            octal(i - 3, code, atoi(colon + 1));
        }
    } else {
        int roots[256], nr = 0;
        for (int i = 3; i < argc && nr < 256; i++) {
            sp = argv[i];
            roots[nr++] = parse_sum();
        }
        /* the closure: every follower of a root; heaps are its games but 0 */
        char *in = calloc(MAXHEAP, 1);
        int stack[MAXHEAP * 4], top = 0;
        for (int i = 0; i < nr; i++)
            stack[top++] = roots[i];
        while (top) {
            int g = stack[--top];
            if (in[g])
                continue;
            in[g] = 1;
            for (int i = 0; i < gn[g]; i++)
                stack[top++] = gkids[g][i];
        }
        int id[MAXHEAP];
        for (int g = 0; g < ng; g++)
            if (in[g] && gn[g] > 0) {
                id[g] = nheap;
                heapof[nheap] = g;
                tok[nheap] = 1;
                nheap++;
            }
        for (int h = 0; h < nheap; h++) {
            int g = heapof[h];
            for (int i = 0; i < gn[g]; i++) {
                int c = gkids[g][i], l[1];
                if (gn[c] == 0) {
                    add_opt(h, l, 0);
                } else {
                    l[0] = id[c];
                    add_opt(h, l, 1);
                }
            }
        }
        free(in);
    }
    walk(0, 0, T);
    return 0;
}
