/* Independent oracle for the genus of positions of octal games (shares no
 * code with cgt).  Usage: genus_brute 0.DIGITS < positions, one position
 * per line as heap sizes separated by spaces; prints the genus of each line
 * in cgt's compressed notation (docs/games.md §4).
 *
 * It follows the definition (ONAG ch. 12) rather than a recursion on γ:
 * g is the normal-play Grundy value of the position P, and γk is the misère
 * nim value of the sum P + k copies of *2, found by searching that sum
 * itself.  A sum is P plus a heaps *2 and b heaps *1; its moves are a move
 * in P, *2 -> *1, *2 -> 0 and *1 -> 0; its misère nim value is 1 when it
 * has no move and the mex of its options' values otherwise.  For each P the
 * values of all (a, b) with a + b < K are kept.  Octal digit d_k (Winning
 * Ways ch. 4): bit 1 = remove k tokens leaving nothing (k = the whole heap),
 * bit 2 = leave one heap, bit 4 = leave two heaps.
 *
 * Notation: j is the least index with γi = γ(i+2) for all j <= i < K-2;
 * the γ are printed up to γ(j+1), separated by commas when one of them is
 * 10 or more; "unsettled" when j > K-5 (cgt, which keeps 16 terms, says the
 * same past j = 11). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAXH = 48, MAXD = 16, K = 10 };
enum { NAB = K * (K + 1) / 2 }; /* pairs (a, b) with a + b < K */

static int dig[MAXD], ndig;

typedef struct Node {
    uint8_t c[MAXH]; /* c[h] = number of heaps of size h (h >= 1) */
    uint16_t g;
    uint16_t v[NAB]; /* misère nim value of P + a*2 + b*1 at ab(a, b) */
} Node;

static Node *nodes;
static size_t nnodes, capnodes;
static uint32_t *slots; /* node index + 1, 0 = empty */
static size_t nslots;

static int ab(int a, int b)
{
    int s = a + b;
    return s * (s + 1) / 2 + b;
}

static uint64_t key_hash(const uint8_t *c)
{
    uint64_t h = 14695981039346656037ULL;
    for (int i = 0; i < MAXH; i++)
        h = (h ^ c[i]) * 1099511628211ULL;
    return h ^ (h >> 29);
}

static void *grab(size_t n)
{
    void *p = calloc(n, 1);
    if (!p) {
        fprintf(stderr, "genus_brute: out of memory\n");
        exit(2);
    }
    return p;
}

static uint32_t *slot_of(const uint8_t *c)
{
    size_t i = key_hash(c) & (nslots - 1);
    while (slots[i] && memcmp(nodes[slots[i] - 1].c, c, MAXH) != 0)
        i = (i + 1) & (nslots - 1);
    return &slots[i];
}

static void rehash(void)
{
    free(slots);
    nslots *= 2;
    slots = grab(nslots * sizeof *slots);
    for (size_t n = 0; n < nnodes; n++)
        *slot_of(nodes[n].c) = (uint32_t)n + 1;
}

/* Sets bit x of the set s (values past the set's size cannot be the mex). */
static void mark(uint8_t *s, size_t size, unsigned x)
{
    if (x < size)
        s[x] = 1;
}

static unsigned least_absent(const uint8_t *s)
{
    unsigned m = 0;
    while (s[m])
        m++;
    return m;
}

static size_t solve(uint8_t *c);

/* Node indices of the options of c (moves in P), appended to *out. */
static size_t options(uint8_t *c, size_t **out)
{
    size_t n = 0, cap = 16;
    size_t *o = grab(cap * sizeof *o);
    for (int h = 1; h < MAXH; h++) {
        if (!c[h])
            continue;
        for (int k = 1; k <= ndig && k <= h; k++) {
            int d = dig[k], r = h - k;
            /* the parts the move leaves: none, one heap r, or x and r - x */
            int leaves[MAXH][2], nl = 0;
            if ((d & 1) && r == 0) {
                leaves[nl][0] = 0;
                leaves[nl++][1] = 0;
            }
            if ((d & 2) && r > 0) {
                leaves[nl][0] = r;
                leaves[nl++][1] = 0;
            }
            for (int x = 1; (d & 4) && 2 * x <= r; x++) {
                leaves[nl][0] = x;
                leaves[nl++][1] = r - x;
            }
            for (int t = 0; t < nl; t++) {
                c[h]--;
                c[leaves[t][0]]++;
                c[leaves[t][1]]++;
                c[0] = 0;
                size_t id = solve(c);
                c[leaves[t][0]]--;
                c[leaves[t][1]]--;
                c[0] = 0;
                c[h]++;
                if (n == cap) {
                    cap *= 2;
                    o = realloc(o, cap * sizeof *o);
                    if (!o) {
                        fprintf(stderr, "genus_brute: out of memory\n");
                        exit(2);
                    }
                }
                o[n++] = id;
            }
        }
    }
    *out = o;
    return n;
}

/* Index of the node of position c, computed if new. */
static size_t solve(uint8_t *c)
{
    uint32_t *s = slot_of(c);
    if (*s)
        return *s - 1;
    size_t *opt;
    size_t no = options(c, &opt);
    Node nd;
    memcpy(nd.c, c, MAXH);
    size_t size = no + 2 * K + 2;
    uint8_t *set = grab(size + 1);
    for (size_t i = 0; i < no; i++)
        mark(set, size, nodes[opt[i]].g);
    nd.g = (uint16_t)least_absent(set);
    /* (a - 1, b + 1) has the same sum: the larger b first */
    for (int sum = 0; sum < K; sum++)
        for (int b = sum; b >= 0; b--) {
            int a = sum - b;
            memset(set, 0, size + 1);
            for (size_t i = 0; i < no; i++)
                mark(set, size, nodes[opt[i]].v[ab(a, b)]);
            if (a > 0) {
                mark(set, size, nd.v[ab(a - 1, b + 1)]); /* a *2 becomes *1 */
                mark(set, size, nd.v[ab(a - 1, b)]);     /* a *2 is removed */
            }
            if (b > 0)
                mark(set, size, nd.v[ab(a, b - 1)]); /* a *1 is removed */
            int moves = no > 0 || a > 0 || b > 0;
            nd.v[ab(a, b)] = (uint16_t)(moves ? least_absent(set) : 1);
        }
    free(set);
    free(opt);
    if (nnodes == capnodes) {
        capnodes = capnodes ? 2 * capnodes : 4096;
        nodes = realloc(nodes, capnodes * sizeof *nodes);
        if (!nodes) {
            fprintf(stderr, "genus_brute: out of memory\n");
            exit(2);
        }
    }
    nodes[nnodes++] = nd;
    /* the recursion may have rehashed: look the slot up again */
    *slot_of(c) = (uint32_t)nnodes;
    if (2 * nnodes > nslots)
        rehash();
    return nnodes - 1;
}

static void print_genus(const Node *n)
{
    unsigned gam[K];
    for (int k = 0; k < K; k++)
        gam[k] = n->v[ab(k, 0)];
    int j = K - 2;
    while (j > 0 && gam[j - 1] == gam[j + 1])
        j--;
    if (j > K - 5) {
        puts("unsettled");
        return;
    }
    int wide = 0;
    for (int k = 0; k <= j + 1; k++)
        if (gam[k] >= 10)
            wide = 1;
    printf("%u^", n->g);
    for (int k = 0; k <= j + 1; k++)
        printf(wide && k > 0 ? ",%u" : "%u", gam[k]);
    putchar('\n');
}

int main(int argc, char **argv)
{
    if (argc != 2 || strncmp(argv[1], "0.", 2) != 0) {
        fprintf(stderr, "usage: genus_brute 0.DIGITS < positions\n");
        return 2;
    }
    for (const char *s = argv[1] + 2; *s; s++) {
        if (*s < '0' || *s > '7' || ndig + 1 >= MAXD) {
            fprintf(stderr, "genus_brute: up to %d octal digits\n", MAXD - 1);
            return 2;
        }
        dig[++ndig] = *s - '0';
    }
    nslots = 1 << 12;
    slots = grab(nslots * sizeof *slots);
    char line[8192];
    while (fgets(line, sizeof line, stdin)) {
        uint8_t c[MAXH] = {0};
        char *p = line, *e;
        for (;;) {
            long h = strtol(p, &e, 10);
            if (e == p)
                break;
            if (h < 0 || h >= MAXH || c[h] == 255) {
                fprintf(stderr, "genus_brute: heaps are 0..%d\n", MAXH - 1);
                return 2;
            }
            if (h > 0)
                c[h]++;
            p = e;
        }
        size_t id = solve(c); /* before reading nodes, which solve may move */
        print_genus(&nodes[id]);
        fflush(stdout);
    }
    free(nodes);
    free(slots);
    return 0;
}
