/*
 * mq_infcheck: independent checker of proofs that a misère quotient is
 * infinite (format `cgt-misere-infinite 1`, docs/misere.md), written from the
 * format's specification alone; it shares no code with cgt (own parser, own
 * CRC-64/XZ, own option generator, own pair closure).
 *
 *   mq_infcheck [-p P] FILE     verify the proof (FILE may be -); stop with
 *                               exit 2 past P pairs (default 2e7) or 20 P
 *                               option entries; -L K1,K2,.. then prints the
 *                               verified L(psi(K1+K2+..), a, b), a <= A, b <= B
 *   mq_infcheck -b T [-r R] FILE
 *       brute force: compare L(psi(X), a, b) of the file with a separate
 *       memoised misère outcome search on every position with at most T
 *       tokens and on R random positions with many heaps (default R = 200)
 *
 * Exit 0 verified / 1 rejected (`rejected: rule N: detail`) or a brute-force
 * disagreement / 2 usage or I/O error.
 *
 * The argument (spec "Lemma"): a position is X + H^a + G^b.  The file's
 * automaton gives psi(X); the checker builds every reachable pair (psi(X),
 * options of X) by adding one heap at a time (rule 6) and checks the misère
 * recursion at every (a, b) of a finite region (rule 7).  Outside the region
 * the points read by a check are moved by red() exactly as the check itself
 * is moved (diagonal step, then the b- or a-period), so by induction on the
 * rank 2*tokens - heaps (which every move lowers) the labels are the misère
 * outcomes.  The witness then separates the powers H^a.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die_rule(int rule, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), noreturn));
static void die_rule(int rule, const char *fmt, ...)
{
    va_list ap;
    printf("rejected: rule %d: ", rule);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    exit(1);
}

static void die_io(const char *what)
{
    fprintf(stderr, "mq_infcheck: %s\n", what);
    exit(2);
}

static void *xalloc(size_t n)
{
    void *p = calloc(n ? n : 1, 1);
    if (!p) die_io("out of memory");
    return p;
}

static void *xgrow(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p) die_io("out of memory");
    return p;
}

/* ---- CRC-64/XZ: ECMA-182 polynomial, reflected, init and xorout ~0 ---- */
static uint64_t crc64(const unsigned char *p, size_t n)
{
    static uint64_t tab[256];
    if (!tab[1]) {
        for (int i = 0; i < 256; i++) {
            uint64_t c = (uint64_t)i;
            for (int k = 0; k < 8; k++)
                c = (c & 1) ? (c >> 1) ^ 0xC96C5795D7870F42ULL : c >> 1;
            tab[i] = c;
        }
    }
    uint64_t c = ~0ULL;
    for (size_t i = 0; i < n; i++) c = tab[(c ^ p[i]) & 0xff] ^ (c >> 8);
    return ~c;
}

/* ---- the proof ---- */
typedef struct {
    int n;     /* heaps in the option */
    int *h;    /* heap sizes, in the file's order */
} Opt;

static char gkind[16], gcode[256];
static int N, H, G, S, TA, TB, A1, B1, E, AMIN, NW;
static int t_, b0, pb, a0, pa;
static int *nopt;        /* nopt[K], K = 1..N */
static Opt **opts;       /* opts[K][i] */
static int **act;        /* act[K][s] for K != H, G */
static unsigned char *lab; /* lab[(s*(TA+1)+a)*(TB+1)+b] = 1 for P */
static int *wit;         /* witness heaps */
static int ua, ub;       /* most heaps H (G) in one option */

/* ---- line reader over the whole file ---- */
static char *buf;
static size_t blen, bpos;
static int lineno;
static char **tok;
static int ntok, tokcap;

/* the next line (copied, so the buffer keeps its bytes for the CRC) split
 * into tokens at single spaces; 0 at end of file */
static char *line;
static size_t linecap;

static int next_line(size_t *start)
{
    if (bpos >= blen) return 0;
    *start = bpos;
    const char *s = buf + bpos, *nl = memchr(s, '\n', blen - bpos);
    lineno++;
    if (!nl) die_rule(1, "line %d: no LF line end", lineno);
    size_t n = (size_t)(nl - s);
    if (n + 1 > linecap) {
        linecap = 2 * n + 64;
        line = xgrow(line, linecap);
    }
    memcpy(line, s, n);
    line[n] = 0;
    if (memchr(line, 0, n)) die_rule(1, "line %d: NUL byte", lineno);
    bpos = (size_t)(nl - buf) + 1;
    ntok = 0;
    if (!n) die_rule(1, "line %d: empty line", lineno);
    for (char *p = line;;) {
        if (ntok == tokcap) {
            tokcap = 2 * tokcap + 64;
            tok = xgrow(tok, sizeof(char *) * (size_t)tokcap);
        }
        tok[ntok++] = p;
        char *sp = strchr(p, ' ');
        if (!sp) break;
        *sp = 0;
        p = sp + 1;
        if (!*p || *p == ' ') die_rule(1, "line %d: tokens must be separated by single spaces", lineno);
    }
    return 1;
}

static long num(const char *s, long lo, long hi, const char *what)
{
    const char *p = s;
    int neg = 0;
    if (*p == '-' && lo < 0) neg = 1, p++;
    if (!*p) die_rule(1, "line %d: %s: '%s' is not a number", lineno, what, s);
    long v = 0;
    for (; *p; p++) {
        if (*p < '0' || *p > '9' || v > 100000000L)
            die_rule(1, "line %d: %s: '%s' is not a number in range", lineno, what, s);
        v = v * 10 + (*p - '0');
    }
    if (neg) v = -v;
    if (v < lo || v > hi) die_rule(1, "line %d: %s = %ld out of range [%ld, %ld]", lineno, what, v, lo, hi);
    return v;
}

static size_t st; /* start of the last line read */

static void expect(const char *kw, int ntoks)
{
    if (!next_line(&st)) die_rule(1, "missing line '%s'", kw);
    if (strcmp(tok[0], kw) != 0) die_rule(1, "line %d: expected '%s', found '%s'", lineno, kw, tok[0]);
    if (ntoks >= 0 && ntok != ntoks) die_rule(1, "line %d: '%s' takes %d fields", lineno, kw, ntoks - 1);
}

static void parse(void)
{
    if (!next_line(&st) || ntok != 2 || strcmp(tok[0], "cgt-misere-infinite") || strcmp(tok[1], "1"))
        die_rule(1, "line 1: header must be 'cgt-misere-infinite 1'");
    expect("game", 3);
    if (strcmp(tok[1], "octal") && strcmp(tok[1], "hex") && strcmp(tok[1], "ruleset"))
        die_rule(1, "line %d: game kind must be octal, hex or ruleset", lineno);
    if (strlen(tok[2]) >= sizeof gcode) die_rule(1, "line %d: game code too long", lineno);
    strcpy(gkind, tok[1]);
    strcpy(gcode, tok[2]);
    expect("heaps", 2);
    N = (int)num(tok[1], 1, 4096, "heaps");
    expect("top", 2);
    H = (int)num(tok[1], 1, N, "top");
    expect("partner", 2);
    G = (int)num(tok[1], 1, N, "partner");
    if (G == H) die_rule(1, "line %d: partner equals top", lineno);
    nopt = xalloc(sizeof(int) * (size_t)(N + 1));
    opts = xalloc(sizeof(Opt *) * (size_t)(N + 1));
    for (int i = 1; i <= N; i++) nopt[i] = -1;
    for (int i = 1; i <= N; i++) {
        expect("options", -1);
        if (ntok < 3) die_rule(1, "line %d: options K M ...", lineno);
        int K = (int)num(tok[1], 1, N, "options heap");
        if (nopt[K] >= 0) die_rule(1, "line %d: options of heap %d given twice", lineno, K);
        int M = (int)num(tok[2], 0, 1 << 20, "option count");
        nopt[K] = M;
        opts[K] = xalloc(sizeof(Opt) * (size_t)(M ? M : 1));
        int j = 3;
        for (int m = 0; m < M; m++) {
            if (m > 0) {
                if (j >= ntok || strcmp(tok[j], ";")) die_rule(1, "line %d: ';' expected between options", lineno);
                j++;
            }
            int e = j;
            while (e < ntok && strcmp(tok[e], ";")) e++;
            if (e == j) die_rule(1, "line %d: empty option (write '-')", lineno);
            Opt *o = &opts[K][m];
            if (e == j + 1 && !strcmp(tok[j], "-")) {
                o->n = 0;
            } else {
                o->n = e - j;
                o->h = xalloc(sizeof(int) * (size_t)o->n);
                for (int q = 0; q < o->n; q++) o->h[q] = (int)num(tok[j + q], 1, N, "option heap");
            }
            j = e;
        }
        if (j != ntok) die_rule(1, "line %d: heap %d has more than %d options", lineno, K, M);
    }
    expect("states", 2);
    S = (int)num(tok[1], 1, 1 << 24, "states");
    act = xalloc(sizeof(int *) * (size_t)(N + 1));
    for (int i = 1; i <= N - 2; i++) {
        expect("act", S + 2);
        int K = (int)num(tok[1], 1, N, "act heap");
        if (K == H || K == G) die_rule(1, "line %d: act line for heap %d (top or partner)", lineno, K);
        if (act[K]) die_rule(1, "line %d: act line for heap %d given twice", lineno, K);
        act[K] = xalloc(sizeof(int) * (size_t)S);
        for (int s = 0; s < S; s++) act[K][s] = (int)num(tok[2 + s], 0, S - 1, "act value");
    }
    expect("reduce", 6);
    t_ = (int)num(tok[1], 0, 1 << 16, "t");
    b0 = (int)num(tok[2], t_, 1 << 16, "b0 (>= t)");
    pb = (int)num(tok[3], 1, 1 << 16, "pb");
    a0 = (int)num(tok[4], t_ + 1, 1 << 16, "a0 (>= t+1)");
    pa = (int)num(tok[5], 1, 1 << 16, "pa");
    expect("table", 3);
    TA = (int)num(tok[1], 0, 1 << 16, "TA");
    TB = (int)num(tok[2], 0, 1 << 16, "TB");
    if ((double)S * (TA + 1) * (TB + 1) > 1e9) die_rule(1, "line %d: table too large", lineno);
    size_t cells = (size_t)S * (size_t)(TA + 1) * (size_t)(TB + 1);
    lab = xalloc(cells);
    unsigned char *seen = xalloc((size_t)S * (size_t)(TA + 1));
    for (long i = 0; i < (long)S * (TA + 1); i++) {
        expect("lab", 4);
        int s = (int)num(tok[1], 0, S - 1, "lab state");
        int a = (int)num(tok[2], 0, TA, "lab a");
        if (seen[(size_t)s * (size_t)(TA + 1) + (size_t)a]++) die_rule(1, "line %d: lab %d %d given twice", lineno, s, a);
        if ((int)strlen(tok[3]) != TB + 1) die_rule(1, "line %d: label string must have %d characters", lineno, TB + 1);
        for (int b = 0; b <= TB; b++) {
            char c = tok[3][b];
            if (c != 'P' && c != 'N') die_rule(1, "line %d: label '%c' is not P or N", lineno, c);
            lab[((size_t)s * (size_t)(TA + 1) + (size_t)a) * (size_t)(TB + 1) + (size_t)b] = c == 'P';
        }
    }
    free(seen);
    expect("check", 3);
    A1 = (int)num(tok[1], 0, 1 << 16, "A1");
    B1 = (int)num(tok[2], 0, 1 << 16, "B1");
    if ((double)(A1 + 1) * (B1 + 1) > 1e6) die_rule(1, "line %d: region too large", lineno);
    expect("witness", -1);
    if (ntok < 3) die_rule(1, "line %d: witness e a_min heaps...", lineno);
    E = (int)num(tok[1], -(1 << 16), 1 << 16, "e");
    AMIN = (int)num(tok[2], 0, 1 << 16, "a_min");
    if (AMIN + E < 0) die_rule(1, "line %d: a_min + e < 0", lineno);
    NW = ntok - 3;
    wit = xalloc(sizeof(int) * (size_t)(NW + 1));
    for (int i = 0; i < NW; i++) {
        wit[i] = (int)num(tok[3 + i], 1, N, "witness heap");
        if (wit[i] == H || wit[i] == G) die_rule(1, "line %d: witness heap %d is top or partner", lineno, wit[i]);
    }
    expect("crc64", 2);
    size_t crcstart = st;
    if (strlen(tok[1]) != 16) die_rule(1, "line %d: crc64 takes 16 hex digits", lineno);
    uint64_t want = 0;
    for (int i = 0; i < 16; i++) {
        char c = tok[1][i];
        int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (v < 0) die_rule(1, "line %d: crc64 takes 16 hex digits", lineno);
        want = want << 4 | (uint64_t)v;
    }
    expect("end", 1);
    if (bpos != blen) die_rule(1, "line %d: text after 'end'", lineno);
    uint64_t got = crc64((const unsigned char *)buf, crcstart);
    if (got != want) die_rule(1, "crc64 is %016llx, file says %016llx", (unsigned long long)got, (unsigned long long)want);
}

/* ---- rule 2: the options of every heap, from the octal/hex code ---- */
static int cmp_int(const void *x, const void *y)
{
    int a = *(const int *)x, b = *(const int *)y;
    return (a > b) - (a < b);
}

/* options compared as sorted heap lists: shorter first, then lexicographic */
static int cmp_opt(const void *x, const void *y)
{
    const Opt *p = x, *q = y;
    if (p->n != q->n) return p->n < q->n ? -1 : 1;
    for (int i = 0; i < p->n; i++)
        if (p->h[i] != q->h[i]) return p->h[i] < q->h[i] ? -1 : 1;
    return 0;
}

static int digit(const char *code, int j, int hex)
{
    /* code is "d0.d1d2..."; digits past the end are 0 */
    if (j == 0) return code[0] - '0';
    size_t len = strlen(code);
    if ((size_t)j + 1 >= len) return 0;
    char c = code[j + 1];
    if (c >= '0' && c <= '9') return c - '0';
    if (hex && c >= 'A' && c <= 'F') return c - 'A' + 10;
    if (hex && c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

static Opt *gen;
static int ngen, capgen;

static void push_gen(int n, int x, int y, int z)
{
    if (ngen == capgen) {
        capgen = 2 * capgen + 16;
        gen = xgrow(gen, sizeof(Opt) * (size_t)capgen);
    }
    int v[3] = { x, y, z };
    gen[ngen].n = n;
    gen[ngen].h = xalloc(sizeof(int) * 3);
    memcpy(gen[ngen].h, v, sizeof v);
    ngen++;
}

/* every option of a heap K: take j tokens (j = 0 only to split) and leave
 * 0, 1, 2 or 3 nonempty heaps as the bits 1, 2, 4, 8 of digit d_j allow */
static void gen_options(int K, int hex, int maxj)
{
    ngen = 0;
    for (int j = 0; j <= K && j <= maxj; j++) {
        int d = digit(gcode, j, hex), r = K - j;
        if (j > 0 && (d & 1) && r == 0) push_gen(0, 0, 0, 0);
        if (j > 0 && (d & 2) && r >= 1) push_gen(1, r, 0, 0);
        if (d & 4)
            for (int x = 1; 2 * x <= r; x++) push_gen(2, x, r - x, 0);
        if (d & 8)
            for (int x = 1; 3 * x <= r; x++)
                for (int y = x; x + 2 * y <= r; y++) push_gen(3, x, y, r - x - y);
    }
}

static void rule2(void)
{
    if (!strcmp(gkind, "ruleset")) return;
    int hex = !strcmp(gkind, "hex");
    size_t len = strlen(gcode);
    if (len < 3 || gcode[1] != '.') die_rule(2, "game code '%s' is not of the form d.ddd", gcode);
    int d0 = digit(gcode, 0, hex);
    if (d0 < 0 || d0 > (hex ? 15 : 7) || (d0 & 3))
        die_rule(2, "first digit of '%s' must be 0, 4 (or 8, 12 in hex)", gcode);
    for (int j = 1; (size_t)j + 1 < len; j++) {
        int d = digit(gcode, j, hex);
        if (d < 0 || d > (hex ? 15 : 7)) die_rule(2, "bad digit in game code '%s'", gcode);
    }
    int maxj = (int)len - 2;
    for (int K = 1; K <= N; K++) {
        gen_options(K, hex, maxj);
        Opt *fo = xalloc(sizeof(Opt) * (size_t)(nopt[K] + 1));
        for (int i = 0; i < nopt[K]; i++) {
            fo[i].n = opts[K][i].n;
            fo[i].h = xalloc(sizeof(int) * (size_t)(fo[i].n + 1));
            if (fo[i].n) {
                memcpy(fo[i].h, opts[K][i].h, sizeof(int) * (size_t)fo[i].n);
                qsort(fo[i].h, (size_t)fo[i].n, sizeof(int), cmp_int);
            }
        }
        if (nopt[K]) qsort(fo, (size_t)nopt[K], sizeof(Opt), cmp_opt);
        if (ngen) qsort(gen, (size_t)ngen, sizeof(Opt), cmp_opt);
        int i = 0;
        while (i < ngen && i < nopt[K] && !cmp_opt(&fo[i], &gen[i])) i++;
        if (i < ngen || i < nopt[K]) {
            char ex[64] = "";
            const Opt *d = i < ngen && (i >= nopt[K] || cmp_opt(&gen[i], &fo[i]) < 0) ? &gen[i] : &fo[i];
            for (int q = 0; q < d->n && strlen(ex) < 40; q++)
                snprintf(ex + strlen(ex), sizeof ex - strlen(ex), "%s%d", q ? " " : "", d->h[q]);
            die_rule(2, "heap %d: option '%s' is %s (the file lists %d options, %s %s gives %d)", K,
                     d->n ? ex : "-", d != &fo[i] ? "missing in the file" : i > 0 && !cmp_opt(&fo[i], &fo[i - 1]) ? "listed twice"
                     : "not a move of the game",
                     nopt[K], gkind, gcode, ngen);
        }
        for (int q = 0; q < nopt[K]; q++) free(fo[q].h);
        free(fo);
        for (int q = 0; q < ngen; q++) free(gen[q].h);
    }
    free(gen);
}

/* ---- rule 3: every move lowers the rank 2*tokens - heaps (see NOTE in the
 * spec: splitting without taking keeps the tokens but adds a heap) ---- */
static void rule3(void)
{
    for (int K = 1; K <= N; K++)
        for (int i = 0; i < nopt[K]; i++) {
            long r = 0;
            int ch = 0, cg = 0;
            for (int q = 0; q < opts[K][i].n; q++) {
                int y = opts[K][i].h[q];
                r += 2L * y - 1;
                ch += y == H;
                cg += y == G;
            }
            if (r >= 2L * K - 1) die_rule(3, "option %d of heap %d does not lower the rank 2*tokens - heaps", i + 1, K);
            if (ch > ua) ua = ch;
            if (cg > ub) ub = cg;
        }
}

/* ---- the reduction and the labels ---- */
static void red(long a, long b, long *ra, long *rb)
{
    if (a > t_ && b > t_) {
        long m = (a < b ? a : b) - t_;
        a -= m;
        b -= m;
    }
    if (a <= t_) {
        if (b >= b0 + pb) b = b0 + (b - b0) % pb;
    } else if (a >= a0 + pa) {
        a = a0 + (a - a0) % pa;
    }
    *ra = a;
    *rb = b;
}

static int labat(int s, long a, long b)
{
    return lab[((size_t)s * (size_t)(TA + 1) + (size_t)a) * (size_t)(TB + 1) + (size_t)b];
}

/* L(s, a, b); -1 when red(a, b) is outside the table */
static int L(int s, long a, long b)
{
    long ra, rb;
    red(a, b, &ra, &rb);
    if (ra > TA || rb > TB) return -1;
    return labat(s, ra, rb);
}

static void rule4(void)
{
    for (int s = 0; s < S; s++)
        for (long a = 0; a <= TA; a++)
            for (long b = 0; b <= TB; b++) {
                long ra, rb;
                red(a, b, &ra, &rb);
                if (labat(s, a, b) != labat(s, ra, rb))
                    die_rule(4, "lab(%d,%ld,%ld) differs from lab(%d,red = %ld,%ld)", s, a, b, s, ra, rb);
            }
    /* the read points of rule 7 lie in [0, A1+ua] x [0, B1+ub]; red of any
     * point of that box is in the table iff the table covers red's image
     * of the box, checked point by point */
    for (long a = 0; a <= A1 + ua; a++)
        for (long b = 0; b <= B1 + ub; b++) {
            long ra, rb;
            red(a, b, &ra, &rb);
            if (ra > TA || rb > TB) die_rule(4, "read point (%ld,%ld) reduces to (%ld,%ld), outside the table", a, b, ra, rb);
        }
}

static void rule5(void)
{
    if (A1 < t_ + 1) die_rule(5, "A1 = %d < t+1 = %d", A1, t_ + 1);
    if (B1 < t_ + 1) die_rule(5, "B1 = %d < t+1 = %d", B1, t_ + 1);
    if (B1 < b0 + pb + ua + 2) die_rule(5, "B1 = %d < b0+pb+ua+2 = %d", B1, b0 + pb + ua + 2);
    if (A1 < a0 + pa + ub + 2) die_rule(5, "A1 = %d < a0+pa+ub+2 = %d", A1, a0 + pa + ub + 2);
}

static int fold(int s, const Opt *y)
{
    for (int q = 0; q < y->n; q++)
        if (y->h[q] != H && y->h[q] != G) s = act[y->h[q]][s];
    return s;
}

static int count(const Opt *y, int k)
{
    int c = 0;
    for (int q = 0; q < y->n; q++) c += y->h[q] == k;
    return c;
}

/* ---- rules 6 and 7: the pair closure and the misère check on the region.
 * Region point (a, b) is bit a*(B1+1)+b of a row of RW words. ---- */
static int R, RW, C;                /* region bits, words, codes per state */
static uint64_t *pm;                /* pm[code]: where L(s', a+ch, b+cg) = P */
static uint64_t *hg;                /* hg[s]: P options by moves on H or G */
static unsigned char *hgdone;
static uint64_t *movemask0;         /* has_move when O is empty */
static uint64_t *anyp, *mv;         /* scratch rows of check_pair */

static uint64_t *row(uint64_t *base, size_t i) { return base + i * (size_t)RW; }
static void setbit(uint64_t *w, int r) { w[r >> 6] |= 1ULL << (r & 63); }

static void build_masks(void)
{
    R = (A1 + 1) * (B1 + 1);
    RW = (R + 63) / 64;
    C = (ua + 1) * (ub + 1);
    if ((double)S * C * RW > 4e8) die_io("region masks too large for this checker");
    pm = xalloc(sizeof(uint64_t) * (size_t)S * (size_t)C * (size_t)RW);
    for (int s = 0; s < S; s++)
        for (int ch = 0; ch <= ua; ch++)
            for (int cg = 0; cg <= ub; cg++) {
                uint64_t *w = row(pm, (size_t)s * (size_t)C + (size_t)(ch * (ub + 1) + cg));
                for (int a = 0; a <= A1; a++)
                    for (int b = 0; b <= B1; b++)
                        if (L(s, a + ch, b + cg) == 1) setbit(w, a * (B1 + 1) + b);
            }
    hg = xalloc(sizeof(uint64_t) * (size_t)S * (size_t)RW);
    hgdone = xalloc((size_t)S);
    movemask0 = xalloc(sizeof(uint64_t) * (size_t)RW);
    anyp = xalloc(sizeof(uint64_t) * (size_t)RW);
    mv = xalloc(sizeof(uint64_t) * (size_t)RW);
    for (int a = 0; a <= A1; a++)
        for (int b = 0; b <= B1; b++)
            if ((a >= 1 && nopt[H] > 0) || (b >= 1 && nopt[G] > 0)) setbit(movemask0, a * (B1 + 1) + b);
}

/* the options that move on a heap H (a >= 1) or G (b >= 1) and are P */
static const uint64_t *hgmask(int s)
{
    uint64_t *w = row(hg, (size_t)s);
    if (hgdone[s]) return w;
    hgdone[s] = 1;
    for (int side = 0; side < 2; side++) {
        int K = side ? G : H;
        for (int i = 0; i < nopt[K]; i++) {
            const Opt *y = &opts[K][i];
            int f = fold(s, y), ch = count(y, H), cg = count(y, G);
            for (int a = side ? 0 : 1; a <= A1; a++)
                for (int b = side ? 1 : 0; b <= B1; b++)
                    if (L(f, a - !side + ch, b - side + cg) == 1) setbit(w, a * (B1 + 1) + b);
        }
    }
    return w;
}

static uint32_t *ar;          /* the option sets, one after another */
static size_t arlen, arcap;
static int *pst;              /* pair i: state, start in ar, size */
static size_t *poff;
static uint32_t *plen;
static size_t np, pcap;
static size_t maxpairs = 20000000, maxcodes = 400000000; /* about 2 GB */
static uint32_t *ht;          /* hash set of pairs: index + 1, 0 = free */
static size_t hcap;

static uint64_t hash_pair(int s, const uint32_t *o, uint32_t n)
{
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ (uint64_t)s;
    for (uint32_t i = 0; i < n; i++) h = (h ^ o[i]) * 0x100000001B3ULL, h ^= h >> 29;
    return h * 0xBF58476D1CE4E5B9ULL;
}

static void insert_pair(int s, const uint32_t *o, uint32_t n)
{
    if (2 * (np + 1) > hcap) {
        size_t nc = hcap ? 2 * hcap : 1024;
        uint32_t *nt = xalloc(sizeof(uint32_t) * nc);
        for (size_t i = 0; i < hcap; i++)
            if (ht[i]) {
                size_t j = hash_pair(pst[ht[i] - 1], ar ? ar + poff[ht[i] - 1] : NULL, plen[ht[i] - 1]) & (nc - 1);
                while (nt[j]) j = (j + 1) & (nc - 1);
                nt[j] = ht[i];
            }
        free(ht);
        ht = nt;
        hcap = nc;
    }
    size_t j = hash_pair(s, o, n) & (hcap - 1);
    for (; ht[j]; j = (j + 1) & (hcap - 1)) {
        size_t k = ht[j] - 1;
        if (pst[k] == s && plen[k] == n && (!n || !memcmp(ar + poff[k], o, sizeof(uint32_t) * n))) return;
    }
    if (np >= maxpairs || arlen + n > maxcodes) {
        fprintf(stderr, "mq_infcheck: more than %zu pairs or %zu option entries (limit; -p raises it):"
                " not verified\n", maxpairs, maxcodes);
        exit(2);
    }
    if (np == pcap) {
        pcap = 2 * pcap + 1024;
        pst = xgrow(pst, sizeof(int) * pcap);
        poff = xgrow(poff, sizeof(size_t) * pcap);
        plen = xgrow(plen, sizeof(uint32_t) * pcap);
    }
    if (arlen + n > arcap) {
        arcap = 2 * arcap + n + 4096;
        ar = xgrow(ar, sizeof(uint32_t) * arcap);
    }
    if (n) memcpy(ar + arlen, o, sizeof(uint32_t) * n);
    pst[np] = s;
    poff[np] = arlen;
    plen[np] = n;
    arlen += n;
    ht[j] = (uint32_t)(np + 1);
    np++;
}

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}

static void check_pair(size_t i)
{
    int s = pst[i];
    const uint32_t *o = ar ? ar + poff[i] : NULL; /* ar is NULL until a pair has options */
    const uint64_t *h = hgmask(s), *lm = row(pm, (size_t)s * (size_t)C);
    for (int w = 0; w < RW; w++) anyp[w] = h[w], mv[w] = plen[i] ? ~0ULL : movemask0[w];
    for (uint32_t k = 0; k < plen[i]; k++) {
        const uint64_t *q = row(pm, o[k]);
        for (int w = 0; w < RW; w++) anyp[w] |= q[w];
    }
    for (int w = 0; w < RW; w++) {
        uint64_t want = mv[w] & ~anyp[w], diff = (want ^ lm[w]);
        if (w == RW - 1 && R % 64) diff &= (1ULL << (R % 64)) - 1;
        if (diff) {
            int r = w * 64 + __builtin_ctzll(diff), a = r / (B1 + 1), b = r % (B1 + 1);
            die_rule(7, "pair %zu (state %d, %u options) at a=%d b=%d: label %c, the misère recursion gives %c",
                     i, s, plen[i], a, b, (lm[w] >> (r & 63) & 1) ? 'P' : 'N', (want >> (r & 63) & 1) ? 'P' : 'N');
        }
    }
}

static void closure(void)
{
    uint32_t *sl = xalloc(sizeof(uint32_t) * ((size_t)S * (size_t)C + 1));
    size_t bw = ((size_t)S * (size_t)C + 63) / 64;
    uint64_t *bs = xalloc(sizeof(uint64_t) * bw);
    insert_pair(0, NULL, 0);
    for (size_t i = 0; i < np; i++) {
        check_pair(i);
        for (int K = 1; K <= N; K++) {
            if (K == H || K == G) continue;
            int s = pst[i];
            const uint32_t *o = ar ? ar + poff[i] : NULL;
            uint32_t n = 0;
            for (uint32_t k = 0; k < plen[i]; k++) {
                uint32_t c = o[k], sp = c / (uint32_t)C, e = (uint32_t)act[K][sp] * (uint32_t)C + c % (uint32_t)C;
                if (!(bs[e >> 6] >> (e & 63) & 1)) bs[e >> 6] |= 1ULL << (e & 63), sl[n++] = e;
            }
            for (int m = 0; m < nopt[K]; m++) {
                const Opt *y = &opts[K][m];
                uint32_t e = (uint32_t)fold(s, y) * (uint32_t)C + (uint32_t)(count(y, H) * (ub + 1) + count(y, G));
                if (!(bs[e >> 6] >> (e & 63) & 1)) bs[e >> 6] |= 1ULL << (e & 63), sl[n++] = e;
            }
            if ((size_t)n * 16 < bw) {
                if (n) qsort(sl, n, sizeof(uint32_t), cmp_u32);
                for (uint32_t k = 0; k < n; k++) bs[sl[k] >> 6] = 0;
            } else {
                uint32_t k = 0;
                for (size_t w = 0; w < bw; w++)
                    for (uint64_t x = bs[w]; x; x &= x - 1) sl[k++] = (uint32_t)(w * 64 + (size_t)__builtin_ctzll(x));
                memset(bs, 0, sizeof(uint64_t) * bw);
            }
            insert_pair(act[K][s], sl, n);
        }
    }
    free(sl);
    free(bs);
}

/* ---- rule 8: the witness.  With c = a + e, P1 = (a, c), P2 = (a + d, c).
 * For a >= A* = max(t+1, t+1-e) both points have both coordinates > t, so
 * red subtracts along the diagonal: red(P1) depends on e only and red(P2) on
 * d and e only; every a >= A* behaves as a = A*.  For a fixed a, red(P2) is
 * periodic in d with period pa once d >= a0 - t + e (when c > t: P2 goes to
 * (d - e + t, t), in the a-branch) or d >= a0 - a (when c <= t: no diagonal
 * step, a-branch).  So a in [a_min, max(a_min, A*)] and d in [1, D + pa]
 * with D = max(1, a0 - t + e, a0 - a_min) cover every pair a < a'. ---- */
static int sW;

static void rule8(void)
{
    sW = 0;
    for (int i = 0; i < NW; i++) sW = act[wit[i]][sW];
    long as = t_ + 1, as2 = t_ + 1 - E, D = 1;
    if (as2 > as) as = as2;
    if (as < AMIN) as = AMIN;
    if (a0 - t_ + E > D) D = a0 - t_ + E;
    if (a0 - AMIN > D) D = a0 - AMIN;
    for (long a = AMIN; a <= as; a++)
        for (long d = 1; d <= D + pa; d++) {
            int x = L(sW, a, a + E), y = L(sW, a + d, a + E);
            if (x < 0 || y < 0) die_rule(8, "witness point (%ld,%ld) or (%ld,%ld) reduces outside the table", a, a + E, a + d, a + E);
            if (x == y)
                die_rule(8, "the context does not separate %d^%ld and %d^%ld (both %c at %d^%ld);"
                         " rules 1-7 hold (%d states, %zu pairs)", H, a, H, a + d, x ? 'P' : 'N', G, a + E, S, np);
        }
}

/* ---- brute force (-b): misère outcomes by a memoised search over sorted
 * multisets of heaps; heaps without options are dropped (they change neither
 * the moves nor the end of play) ---- */
typedef uint16_t hp;
static hp *mk;                /* memo keys, one after another */
static size_t mklen, mkcap, *moff, mn, mcap, *mht, mhcap;
static unsigned char *mres;
static uint32_t *mlen;

static uint64_t hash_pos(const hp *p, int n)
{
    uint64_t h = 0xCBF29CE484222325ULL;
    for (int i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001B3ULL;
    return h ^ (h >> 31);
}

static long memo_find(const hp *p, int n, size_t *slot)
{
    size_t j = hash_pos(p, n) & (mhcap - 1);
    for (; mht[j]; j = (j + 1) & (mhcap - 1)) {
        size_t k = mht[j] - 1;
        if (mlen[k] == (uint32_t)n && (!n || !memcmp(mk + moff[k], p, sizeof(hp) * (size_t)n))) return (long)k;
    }
    *slot = j;
    return -1;
}

static void memo_add(const hp *p, int n, int res)
{
    size_t slot;
    if (2 * (mn + 1) > mhcap) {
        size_t nc = mhcap ? 2 * mhcap : 1 << 16;
        size_t *nt = xalloc(sizeof(size_t) * nc);
        for (size_t i = 0; i < mhcap; i++)
            if (mht[i]) {
                size_t j = hash_pos(mk + moff[mht[i] - 1], (int)mlen[mht[i] - 1]) & (nc - 1);
                while (nt[j]) j = (j + 1) & (nc - 1);
                nt[j] = mht[i];
            }
        free(mht);
        mht = nt;
        mhcap = nc;
    }
    memo_find(p, n, &slot);
    if (mn == mcap) {
        mcap = 2 * mcap + 4096;
        moff = xgrow(moff, sizeof(size_t) * mcap);
        mlen = xgrow(mlen, sizeof(uint32_t) * mcap);
        mres = xgrow(mres, mcap);
    }
    if (mklen + (size_t)n > mkcap) {
        mkcap = 2 * mkcap + (size_t)n + 4096;
        mk = xgrow(mk, sizeof(hp) * mkcap);
    }
    if (n) memcpy(mk + mklen, p, sizeof(hp) * (size_t)n);
    moff[mn] = mklen;
    mlen[mn] = (uint32_t)n;
    mres[mn] = (unsigned char)res;
    mklen += (size_t)n;
    mht[slot] = mn + 1;
    mn++;
}

/* 1 if the position p[0..n) (sorted, live heaps only) is a misère P-position */
static int outcome(const hp *p, int n)
{
    size_t slot;
    if (mhcap) {
        long k = memo_find(p, n, &slot);
        if (k >= 0) return mres[k];
    }
    int has_move = 0, res = 0;
    hp *q = xalloc(sizeof(hp) * (size_t)(n + 4));
    for (int i = 0; i < n && !res; i++) {
        if (i > 0 && p[i] == p[i - 1]) continue;
        for (int m = 0; m < nopt[p[i]]; m++) {
            const Opt *y = &opts[p[i]][m];
            int qn = 0;
            for (int j = 0; j < n; j++)
                if (j != i) q[qn++] = p[j];
            for (int j = 0; j < y->n; j++)
                if (nopt[y->h[j]] > 0) {
                    int k = qn++;
                    while (k > 0 && q[k - 1] > y->h[j]) q[k] = q[k - 1], k--;
                    q[k] = (hp)y->h[j];
                }
            has_move = 1;
            if (outcome(q, qn)) { res = 1; break; }
        }
    }
    free(q);
    int r = has_move && !res;
    memo_add(p, n, r);
    return r;
}

static int cmp_hp(const void *x, const void *y)
{
    hp a = *(const hp *)x, b = *(const hp *)y;
    return (a > b) - (a < b);
}

static uint64_t rng = 0x2545F4914F6CDD1DULL;
static uint64_t rnd(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}

static long tested, disagree;

/* compare the file's label with the search on the position pos[0..n) */
static void compare(const int *pos, int n)
{
    int *x = xalloc(sizeof(int) * (size_t)(n + 1)), nx = 0, a = 0, b = 0;
    hp *live = xalloc(sizeof(hp) * (size_t)(n + 1));
    int nl = 0;
    for (int i = 0; i < n; i++) {
        if (pos[i] == H) a++;
        else if (pos[i] == G) b++;
        else x[nx++] = pos[i];
        if (nopt[pos[i]] > 0) live[nl++] = (hp)pos[i];
    }
    for (int i = nx - 1; i > 0; i--) { /* psi in a random order of X */
        int j = (int)(rnd() % (uint64_t)(i + 1)), tmp = x[i];
        x[i] = x[j], x[j] = tmp;
    }
    int s = 0;
    for (int i = 0; i < nx; i++) s = act[x[i]][s];
    if (nl) qsort(live, (size_t)nl, sizeof(hp), cmp_hp);
    int want = outcome(live, nl), got = L(s, a, b);
    tested++;
    if (want != got) {
        if (disagree < 10) {
            printf("disagree:");
            for (int i = 0; i < n; i++) printf(" %d", pos[i]);
            printf(" (a=%d b=%d state %d): file %c, search %c\n", a, b, s, got == 1 ? 'P' : 'N', want ? 'P' : 'N');
        }
        disagree++;
    }
    free(x);
    free(live);
}

static int epos[1 << 12];

/* every multiset of heaps <= maxh with at most rest more tokens */
static void enumerate(int n, int maxh, int rest)
{
    compare(epos, n);
    for (int h = maxh < rest ? maxh : rest; h >= 1; h--) {
        if (n == (int)(sizeof epos / sizeof *epos)) return;
        epos[n] = h;
        enumerate(n + 1, h, rest - h);
    }
}

static int brute(long T, long nrand, long maxtok)
{
    if (N > 65535) die_io("brute force needs heaps <= 65535");
    enumerate(0, N, (int)T);
    long ex = tested;
    int *pos = xalloc(sizeof(int) * (size_t)(maxtok + 1));
    for (long r = 0; r < nrand; r++) {
        int n = 0, tokens = 0, want = 2 + (int)(rnd() % 14);
        while (n < want) {
            uint64_t x = rnd(); /* a quarter each top and partner */
            int h = x % 4 == 0 ? H : x % 4 == 1 ? G : 1 + (int)(x / 4 % (uint64_t)N);
            if (tokens + h > maxtok) break;
            pos[n++] = h, tokens += h;
        }
        compare(pos, n);
    }
    free(pos);
    printf("brute: %ld positions with at most %ld tokens and %ld random ones (at most %ld tokens) tested,"
           " %ld disagreeing (%zu positions searched)\n", ex, T, tested - ex, maxtok, disagree, mn);
    return disagree ? 1 : 0;
}

/* ---- main ---- */
static void usage(void)
{
    fprintf(stderr, "usage: mq_infcheck [-p MAXPAIRS] [-L K,K,.. [-A A] [-B B]] FILE\n       mq_infcheck -b T [-r R] [-m TOKENS] FILE\n");
    exit(2);
}

int main(int argc, char **argv)
{
    long T = -1, nrand = 200, maxtok = -1, LA = 12, LB = 12;
    const char *ctx = NULL;
    int i = 1;
    for (; i < argc - 1; i += 2) {
        char *end;
        long v = strtol(argv[i + 1], &end, 10);
        if ((*end || v < 0) && strcmp(argv[i], "-L")) usage();
        if (!strcmp(argv[i], "-b")) T = v;
        else if (!strcmp(argv[i], "-r")) nrand = v;
        else if (!strcmp(argv[i], "-m")) maxtok = v;
        else if (!strcmp(argv[i], "-A")) LA = v;
        else if (!strcmp(argv[i], "-B")) LB = v;
        else if (!strcmp(argv[i], "-L")) ctx = argv[i + 1];
        else if (!strcmp(argv[i], "-p")) maxpairs = (size_t)v, maxcodes = 20 * (size_t)v;
        else usage();
    }
    if (i != argc - 1) usage();
    FILE *f = strcmp(argv[i], "-") ? fopen(argv[i], "rb") : stdin;
    if (!f) die_io("cannot open the proof file");
    size_t cap = 1 << 16;
    buf = xalloc(cap);
    for (size_t r; (r = fread(buf + blen, 1, cap - blen, f)) > 0;) {
        blen += r;
        if (blen == cap) buf = xgrow(buf, cap *= 2);
    }
    if (ferror(f)) die_io("cannot read the proof file");
    if (f != stdin) fclose(f);
    parse();
    rule2();
    rule3();
    rule4();
    rule5();
    if (T >= 0) return brute(T, nrand, maxtok >= 0 ? maxtok : T + T / 2);
    build_masks();
    closure();
    rule8();
    int trusted = !strcmp(gkind, "ruleset");
    printf("ok: misère %s%s%s, heaps <= %d: outcome of X + %d^a + %d^b = L(psi(X), a, b) for all X, a, b"
           " (%d states, %zu pairs, region a<=%d b<=%d)%s; the powers %d^a, a >= %d, are pairwise distinct"
           " (context ", strcmp(gkind, "octal") ? gkind : "", strcmp(gkind, "octal") ? " " : "", gcode, N, H, G, S, np, A1, B1,
           trusted ? " [options trusted from the file]" : "", H, AMIN);
    for (int k = 0; k < NW; k++) printf("%d + ", wit[k]);
    printf("%d^(a%+d)): the misère quotient Q(%d) is infinite.\n", G, E, N);
    if (ctx) { /* the verified labels of one context X: rows a, columns b */
        int sx = 0;
        for (const char *p = ctx; *p;) {
            char *end;
            long k = strtol(p, &end, 10);
            if (end == p || k < 1 || k > N || k == H || k == G) die_io("-L: heaps 1..N other than top and partner, comma-separated");
            sx = act[k][sx];
            p = *end == ',' ? end + 1 : end;
            if (*end && *end != ',') die_io("-L: heaps 1..N other than top and partner, comma-separated");
        }
        for (long a = 0; a <= LA; a++) {
            printf("L(%s) a=%ld ", ctx, a);
            for (long b = 0; b <= LB; b++) putchar(L(sx, a, b) ? 'P' : 'N');
            putchar('\n');
        }
    }
    return 0;
}
