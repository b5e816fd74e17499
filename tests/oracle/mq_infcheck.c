/*
 * mq_infcheck: independent checker of proofs that a misère quotient is
 * infinite (formats `cgt-misere-infinite 1` and `2`, docs/misere.md; the
 * version line picks the format), written from the formats' specification
 * alone; it shares no code with cgt (own parser, own CRC-64/XZ, own option
 * generator, own pair closure).
 *
 *   mq_infcheck [-p P] FILE     verify the proof (FILE may be -); stop with
 *                               exit 2 past P pairs (default 2e7) or 20 P
 *                               option entries; -L K1,K2,.. then prints the
 *                               verified L(psi(K1+K2+..), a, b), a <= A, b <= B
 *   mq_infcheck -b T [-r R] FILE
 *       brute force: compare L(psi(X), a, b) of the file with a separate
 *       memoised misère outcome search on every position with at most T
 *       tokens and on R random positions with many heaps (default R = 200)
 *   mq_infcheck -T FILE
 *       print the format-2 file that says the same as the format-1 FILE
 *       (docs/misere.md, Lemma 2: "Lemma 1 is the case k = 2")
 *
 * Format 2 (k growing coordinates, Lemma 2) is checked by the same steps:
 * rules 1-8 of "Proof file in k coordinates"; -L is format 1 only.  Exit 2
 * (not verified) also past this checker's sizes: more than 2^20 heaps or
 * 2^30 states, a region of more than 2^24 points (points times k likewise),
 * more than 2^26 (state, count vector) codes, region masks past 2 GB, more
 * than 10^8 witness points, or the pair limit of -p.  A table is never
 * larger than the file, whose lab lines hold one byte per cell.
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

/* The lines both formats share.  Each reads the tokens of a line the
 * caller has already matched; `heapnum` is the format's number reader for
 * a heap size in 1..N (format 2 refuses leading zeros, format 1 not). */
typedef long (*HeapNum)(const char *s, long lo, long hi, const char *what);

/* "game KIND CODE" */
static void read_game(void)
{
    if (strcmp(tok[1], "octal") && strcmp(tok[1], "hex") && strcmp(tok[1], "ruleset"))
        die_rule(1, "line %d: game kind must be octal, hex or ruleset", lineno);
    if (strlen(tok[2]) >= sizeof gcode) die_rule(1, "line %d: game code too long", lineno);
    strcpy(gkind, tok[1]);
    strcpy(gcode, tok[2]);
}

/* The M options of heap K from "options K M o_1 ; o_2 ; ...", each a list
 * of heaps or '-' for the empty position. */
static void read_options(int K, long M, HeapNum heapnum)
{
    nopt[K] = (int)M;
    opts[K] = xalloc(sizeof(Opt) * (size_t)(M ? M : 1));
    int j = 3;
    for (long m = 0; m < M; m++) {
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
            for (int q = 0; q < o->n; q++) o->h[q] = (int)heapnum(tok[j + q], 1, N, "option heap");
        }
        j = e;
    }
    if (j != ntok) die_rule(1, "line %d: heap %d has more than %ld options", lineno, K, M);
}

/* The seal "crc64 X" (its line starts at byte `at`) and "end": X is the
 * CRC-64 of every byte before the crc64 line, in 16 hex digits (format 2:
 * lowercase only), and nothing follows "end". */
static void read_seal(size_t at, int lower_only)
{
    const char *digits = lower_only ? "16 lowercase hex digits" : "16 hex digits";
    if (strlen(tok[1]) != 16) die_rule(1, "line %d: crc64 takes %s", lineno, digits);
    uint64_t want = 0;
    for (int i = 0; i < 16; i++) {
        char c = tok[1][i];
        int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : !lower_only && c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (v < 0) die_rule(1, "line %d: crc64 takes %s", lineno, digits);
        want = want << 4 | (uint64_t)v;
    }
    if (!next_line(&st)) die_rule(1, "missing line 'end'");
    if (strcmp(tok[0], "end") != 0) die_rule(1, "line %d: expected 'end', found '%s'", lineno, tok[0]);
    if (ntok != 1) die_rule(1, "line %d: 'end' takes 0 fields", lineno);
    if (bpos != blen) die_rule(1, "line %d: text after 'end'", lineno);
    uint64_t got = crc64((const unsigned char *)buf, at);
    if (got != want) die_rule(1, "crc64 is %016llx, file says %016llx", (unsigned long long)got, (unsigned long long)want);
}

static void parse(void)
{
    if (!next_line(&st) || ntok != 2 || strcmp(tok[0], "cgt-misere-infinite") || strcmp(tok[1], "1"))
        die_rule(1, "line 1: header must be 'cgt-misere-infinite 1' or 'cgt-misere-infinite 2'");
    expect("game", 3);
    read_game();
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
        read_options(K, num(tok[2], 0, 1 << 20, "option count"), num);
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
    read_seal(st, 0);
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

/* format 2, used by the brute force too (defined with format 2 below) */
static int version = 1;    /* of the file being checked */
static int K2;             /* k */
static int *gof;           /* gof[h]: the group 1..k of heap h, 0 if none */
static int *gm, **gh;      /* m_i and the heaps of group i */
static void compare2(const int *pos, int n);

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
    if (version == 2) {
        compare2(pos, n);
        return;
    }
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
            if (version == 2) { /* half of them growing heaps */
                int g = 1 + (int)(x / 4 % (uint64_t)K2);
                h = x % 2 ? gh[g][x / 64 % (uint64_t)gm[g]] : 1 + (int)(x / 4 % (uint64_t)N);
            }
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

/* ==== format `cgt-misere-infinite 2`: k growing coordinates (docs/misere.md,
 * "Proof file in k coordinates", and Lemma 2 there).  The reader, the CRC,
 * the option generator (rule 2) and the pair store of format 1 are shared;
 * everything that depends on the coordinates is below. ==== */
#define V2_MAXHEAPS (1L << 20)    /* heaps N this checker holds */
#define V2_MAXREGION (1L << 24)   /* points of the region R */
#define V2_MAXCODES (1LL << 26)   /* states * count vectors (codes of O) */
#define V2_MAXSTATES (1LL << 30)  /* states S */
#define V2_MAXWIT 100000000LL     /* (a, d) points of rule 8 */
#define V2_MAXMASK 250000000LL    /* 64-bit words of region masks (2 GB) */

static int64_t *u2;                  /* u_i (rule 3) */
static int *bkind, *bmate;           /* per coordinate: 1 period, 2 pair (i), 3 pair (j) */
static int64_t *bc, *bp;             /* period block (i; c, p), stored at i */
static int64_t *bt, *bq, *bb0, *bpb, *ba0, *bpa; /* pair block, stored at i */
static int64_t *Tb, *Ar;             /* table box bounds T_i, region A_i */
static unsigned char *lab2;          /* lab2[s * |T| + index of x] = 1 for P */
static int64_t tcells;               /* |T| */
static int64_t WI, WE, WAMIN;        /* witness i (1-based), e, a_min */
static int64_t *fc;                  /* counts f */
static int NW2, *ctx2;               /* context heaps */
/* scratch, global so that a rejection (exit inside a loop) leaves no leak:
 * two vectors of k + 1 coordinates, the closure's option list and bit set */
static int64_t *vA, *vB;
static uint32_t *sl2;
static uint64_t *bs2;

static void die_cap(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die_cap(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "mq_infcheck: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, ": larger than this checker holds; not verified\n");
    exit(2);
}

/* a number of format 2: decimal, no sign, no leading zero, no '+'; one '-'
 * only where lo < 0 (the offset e); every number fits in 32 bits */
static int64_t num2(const char *s, int64_t lo, int64_t hi, const char *what)
{
    const char *p = s;
    int neg = 0;
    if (*p == '-' && lo < 0) neg = 1, p++;
    if (!*p || (p[0] == '0' && (p[1] || neg)))
        die_rule(1, "line %d: %s: '%s' is not a decimal number without leading zeros", lineno, what, s);
    int64_t v = 0;
    for (; *p; p++) {
        if (*p < '0' || *p > '9') die_rule(1, "line %d: %s: '%s' is not a number", lineno, what, s);
        v = v * 10 + (*p - '0');
        if (v > (neg ? 2147483648LL : 4294967295LL))
            die_rule(1, "line %d: %s: '%s' does not fit in 32 bits", lineno, what, s);
    }
    if (neg) v = -v;
    if (!neg && lo < 0 && v > 2147483647LL) die_rule(1, "line %d: %s: '%s' does not fit in 32 bits", lineno, what, s);
    if (v < lo || v > hi)
        die_rule(1, "line %d: %s = %lld out of range [%lld, %lld]", lineno, what, (long long)v, (long long)lo,
                 (long long)hi);
    return v;
}

/* num2 as a HeapNum (heap sizes are at most V2_MAXHEAPS) */
static long num2l(const char *s, long lo, long hi, const char *what)
{
    return (long)num2(s, lo, hi, what);
}

/* a * b, saturated at 2^62 (sizes are compared with limits far below) */
static int64_t smul(int64_t a, int64_t b)
{
    const int64_t big = (int64_t)1 << 62;
    if (a == 0 || b == 0) return 0;
    if (a > big / b) return big;
    return a * b;
}

static int held; /* the current line is kept for the next expect2 */

static void expect2(const char *kw, int64_t ntoks)
{
    if (held) held = 0;
    else if (!next_line(&st)) die_rule(1, "missing line '%s'", kw);
    if (strcmp(tok[0], kw) != 0) die_rule(1, "line %d: expected '%s', found '%s'", lineno, kw, tok[0]);
    if (ntoks >= 0 && ntok != ntoks)
        die_rule(1, "line %d: '%s' takes %lld fields here", lineno, kw, (long long)(ntoks - 1));
}

static void parse2(void)
{
    expect2("game", 3);
    read_game();
    expect2("heaps", 2);
    int64_t n = num2(tok[1], 1, 4294967295LL, "heaps");
    if (n > V2_MAXHEAPS) die_cap("heaps %lld", (long long)n);
    N = (int)n;
    expect2("grow", 2);
    /* k disjoint non-empty groups of heaps 1..N: k <= N */
    K2 = (int)num2(tok[1], 2, N, "grow k (2 <= k <= heaps)");
    gof = xalloc(sizeof(int) * (size_t)(N + 1));
    gm = xalloc(sizeof(int) * (size_t)(K2 + 1));
    gh = xalloc(sizeof(int *) * (size_t)(K2 + 1));
    for (int i = 1; i <= K2; i++) {
        expect2("group", -1);
        if (ntok < 4) die_rule(1, "line %d: group i m h_1 ... h_m", lineno);
        if (num2(tok[1], 1, K2, "group index") != i) die_rule(1, "line %d: group %d expected", lineno, i);
        int m = (int)num2(tok[2], 1, N, "group size m");
        if (ntok != m + 3) die_rule(1, "line %d: group %d lists %d heaps, not m = %d", lineno, i, ntok - 3, m);
        gm[i] = m;
        gh[i] = xalloc(sizeof(int) * (size_t)m);
        for (int q = 0; q < m; q++) {
            int h = (int)num2(tok[3 + q], 1, N, "group heap");
            if (q > 0 && h <= gh[i][q - 1]) die_rule(1, "line %d: group heaps must be ascending", lineno);
            if (gof[h]) die_rule(1, "line %d: heap %d is in groups %d and %d", lineno, h, gof[h], i);
            gof[h] = i;
            gh[i][q] = h;
        }
    }
    nopt = xalloc(sizeof(int) * (size_t)(N + 1));
    opts = xalloc(sizeof(Opt *) * (size_t)(N + 1));
    for (int K = 1; K <= N; K++) {
        expect2("options", -1);
        if (ntok < 3) die_rule(1, "line %d: options K M ...", lineno);
        if (num2(tok[1], 1, N, "options heap") != K)
            die_rule(1, "line %d: options of heap %d expected (one line per heap, ascending)", lineno, K);
        int64_t M = num2(tok[2], 0, 4294967295LL, "option count");
        if (M > ntok) die_rule(1, "line %d: heap %d: %lld options on a line of %d fields", lineno, K, (long long)M, ntok);
        read_options(K, (long)M, num2l);
    }
    expect2("states", 2);
    int64_t s64 = num2(tok[1], 1, 4294967295LL, "states");
    act = xalloc(sizeof(int *) * (size_t)(N + 1));
    for (int K = 1; K <= N; K++) {
        if (gof[K]) continue;
        expect2("act", s64 + 2); /* S is bounded by the line's length from here on */
        if (num2(tok[1], 1, N, "act heap") != K)
            die_rule(1, "line %d: act line of heap %d expected (every heap in no group, ascending)", lineno, K);
        act[K] = xalloc(sizeof(int) * (size_t)s64);
        for (int64_t s = 0; s < s64; s++) act[K][s] = (int)num2(tok[2 + s], 0, s64 - 1, "act value");
    }
    int64_t ks = K2 + 1;
    bkind = xalloc(sizeof(int) * (size_t)ks);
    bmate = xalloc(sizeof(int) * (size_t)ks);
    bc = xalloc(sizeof(int64_t) * (size_t)ks), bp = xalloc(sizeof(int64_t) * (size_t)ks);
    bt = xalloc(sizeof(int64_t) * (size_t)ks), bb0 = xalloc(sizeof(int64_t) * (size_t)ks);
    bpb = xalloc(sizeof(int64_t) * (size_t)ks), ba0 = xalloc(sizeof(int64_t) * (size_t)ks);
    bpa = xalloc(sizeof(int64_t) * (size_t)ks), bq = xalloc(sizeof(int64_t) * (size_t)ks);
    Tb = xalloc(sizeof(int64_t) * (size_t)ks), Ar = xalloc(sizeof(int64_t) * (size_t)ks);
    fc = xalloc(sizeof(int64_t) * (size_t)ks);
    int last = 0;
    for (;;) {
        if (!next_line(&st)) die_rule(1, "missing line 'table'");
        if (strcmp(tok[0], "block")) {
            held = 1;
            break;
        }
        if (ntok < 2 || (strcmp(tok[1], "period") && strcmp(tok[1], "pair")))
            die_rule(1, "line %d: 'block period i c p' or 'block pair i j t q b0 pb a0 pa'", lineno);
        int pair = !strcmp(tok[1], "pair");
        if (ntok != (pair ? 10 : 5)) die_rule(1, "line %d: 'block %s' takes %d fields", lineno, tok[1], pair ? 8 : 3);
        int i = (int)num2(tok[2], 1, K2, "block coordinate");
        if (i <= last) die_rule(1, "line %d: blocks must be sorted by their first coordinate", lineno);
        last = i;
        if (bkind[i]) die_rule(1, "line %d: coordinate %d is in two blocks", lineno, i);
        if (!pair) {
            bkind[i] = 1;
            bc[i] = num2(tok[3], 0, 4294967295LL, "c");
            bp[i] = num2(tok[4], 1, 4294967295LL, "p");
            Tb[i] = bc[i] + bp[i] - 1;
            continue;
        }
        int j = (int)num2(tok[3], 1, K2, "block coordinate j");
        if (j == i) die_rule(1, "line %d: a pair block needs i != j", lineno);
        if (bkind[j]) die_rule(1, "line %d: coordinate %d is in two blocks", lineno, j);
        bkind[i] = 2, bkind[j] = 3, bmate[i] = j, bmate[j] = i;
        bt[i] = num2(tok[4], 0, 4294967295LL, "t");
        bq[i] = num2(tok[5], 1, 4294967295LL, "q");
        bb0[i] = num2(tok[6], bt[i] + bq[i] - 1, 4294967295LL, "b0 (>= t+q-1)");
        bpb[i] = num2(tok[7], 1, 4294967295LL, "pb");
        ba0[i] = num2(tok[8], bt[i] + bq[i], 4294967295LL, "a0 (>= t+q)");
        bpa[i] = num2(tok[9], 1, 4294967295LL, "pa");
        Tb[i] = ba0[i] + bpa[i] - 1;
        Tb[j] = bb0[i] + bpb[i] - 1;
    }
    for (int i = 1; i <= K2; i++)
        if (!bkind[i]) die_rule(1, "line %d: coordinate %d is in no block", lineno, i);
    expect2("table", K2 + 1);
    for (int i = 1; i <= K2; i++) {
        int64_t v = num2(tok[i], 0, 4294967295LL, "table bound");
        if (v != Tb[i])
            die_rule(4, "line %d: table bound T_%d = %lld, the blocks give %lld", lineno, i, (long long)v,
                     (long long)Tb[i]);
    }
    /* every lab line holds T_k + 1 labels, so a file shorter than S * |T|
     * bytes cannot hold them: this bounds the table by the file's size */
    tcells = 1;
    for (int i = 1; i <= K2; i++) tcells = smul(tcells, Tb[i] + 1);
    if (smul(tcells, s64) > (int64_t)blen)
        die_rule(1, "the table of %lld states x %lld cells needs more labels than the file holds", (long long)s64,
                 (long long)tcells);
    if (s64 > V2_MAXSTATES) die_cap("%lld states", (long long)s64);
    S = (int)s64;
    lab2 = xalloc((size_t)(S * tcells));
    vA = xalloc(sizeof(int64_t) * (size_t)ks), vB = xalloc(sizeof(int64_t) * (size_t)ks);
    int64_t *x = vA;
    int64_t rows = tcells / (Tb[K2] + 1);
    for (int s = 0; s < S; s++)
        for (int64_t r = 0; r < rows; r++) {
            expect2("lab", K2 + 2);
            for (int64_t q = r, i = K2 - 1; i >= 1; i--) x[i] = q % (Tb[i] + 1), q /= Tb[i] + 1;
            int ok = num2(tok[1], 0, 4294967295LL, "lab state") == s;
            for (int i = 1; i < K2 && ok; i++) ok = num2(tok[1 + i], 0, 4294967295LL, "lab coordinate") == x[i];
            if (!ok) {
                char w[160];
                int o = snprintf(w, sizeof w, "lab %d", s);
                for (int i = 1; i < K2 && o < 120; i++) o += snprintf(w + o, sizeof w - (size_t)o, " %lld", (long long)x[i]);
                die_rule(1, "line %d: '%s ...' expected (lab lines in lexicographic order, each once)", lineno, w);
            }
            const char *str = tok[K2 + 1];
            if ((int64_t)strlen(str) != Tb[K2] + 1)
                die_rule(1, "line %d: label string must have %lld characters", lineno, (long long)(Tb[K2] + 1));
            unsigned char *dst = lab2 + (size_t)s * (size_t)tcells + (size_t)(r * (Tb[K2] + 1));
            for (int64_t b = 0; b <= Tb[K2]; b++) {
                if (str[b] != 'P' && str[b] != 'N') die_rule(1, "line %d: label '%c' is not P or N", lineno, str[b]);
                dst[b] = str[b] == 'P';
            }
        }
    expect2("check", K2 + 1);
    int64_t region = 1;
    for (int i = 1; i <= K2; i++) {
        Ar[i] = num2(tok[i], 0, 4294967295LL, "region bound");
        region = smul(region, Ar[i] + 1);
    }
    if (region > V2_MAXREGION) die_cap("a region of %lld points", (long long)region);
    expect2("witness", 4);
    WI = num2(tok[1], 1, K2, "witness coordinate");
    if (bkind[WI] != 2) die_rule(1, "line %d: witness coordinate %lld is not the first of a pair block", lineno, (long long)WI);
    WE = num2(tok[2], -2147483648LL, 2147483647LL, "e");
    WAMIN = num2(tok[3], 0, 4294967295LL, "a_min");
    if (WAMIN + WE < 0) die_rule(1, "line %d: a_min + e < 0", lineno);
    expect2("counts", K2 + 1);
    for (int i = 1; i <= K2; i++) fc[i] = num2(tok[i], 0, 4294967295LL, "count");
    if (fc[WI] || fc[bmate[WI]])
        die_rule(1, "line %d: f_%lld and f_%d must be 0 (the witness's block)", lineno, (long long)WI, bmate[WI]);
    expect2("context", -1);
    NW2 = ntok - 1;
    ctx2 = xalloc(sizeof(int) * (size_t)(NW2 + 1));
    for (int i = 0; i < NW2; i++) {
        ctx2[i] = (int)num2(tok[1 + i], 1, N, "context heap");
        if (gof[ctx2[i]]) die_rule(1, "line %d: context heap %d is in group %d", lineno, ctx2[i], gof[ctx2[i]]);
    }
    expect2("crc64", 2);
    read_seal(st, 1);
}

/* ---- rule 3 of format 2: the rank, and u_i ---- */
static void rule3_2(void)
{
    u2 = xalloc(sizeof(int64_t) * (size_t)(K2 + 1));
    int64_t *c = vA;
    for (int K = 1; K <= N; K++)
        for (int i = 0; i < nopt[K]; i++) {
            int64_t r = 0;
            memset(c, 0, sizeof(int64_t) * (size_t)(K2 + 1));
            for (int q = 0; q < opts[K][i].n; q++) {
                int y = opts[K][i].h[q];
                r += 2 * (int64_t)y - 1;
                c[gof[y]]++;
            }
            if (r >= 2 * (int64_t)K - 1)
                die_rule(3, "option %d of heap %d does not lower the rank 2*tokens - heaps", i + 1, K);
            for (int l = 1; l <= K2; l++)
                if (c[l] > u2[l]) u2[l] = c[l];
        }
}

/* ---- the reduction of format 2 (docs/misere.md, "Proof file in k
 * coordinates", Reduction): each block acts on its own coordinates ---- */
static void red2(const int64_t *x, int64_t *y)
{
    for (int i = 1; i <= K2; i++) y[i] = x[i];
    for (int i = 1; i <= K2; i++) {
        if (bkind[i] == 1) {
            if (y[i] >= bc[i] + bp[i]) y[i] = bc[i] + (y[i] - bc[i]) % bp[i];
        } else if (bkind[i] == 2) {
            int j = bmate[i];
            int64_t a = y[i], b = y[j], t = bt[i], q = bq[i];
            /* steps (q, q) down the diagonal while both are >= t+q */
            if (a >= t + q && b >= t + q) {
                int64_t m = q * (((a < b ? a : b) - t) / q);
                a -= m, b -= m;
            }
            if (a < t + q) {
                if (b >= bb0[i] + bpb[i]) b = bb0[i] + (b - bb0[i]) % bpb[i];
            } else if (a >= ba0[i] + bpa[i]) {
                a = ba0[i] + (a - ba0[i]) % bpa[i];
            }
            y[i] = a, y[j] = b;
        }
    }
}

static int64_t tindex(const int64_t *y)
{
    int64_t q = 0;
    for (int i = 1; i <= K2; i++) q = q * (Tb[i] + 1) + y[i];
    return q;
}

static int64_t *rbuf; /* scratch of L2 */

/* L(s, x) = lab(s, red(x)); red's image lies in the table box T */
static int L2(int s, const int64_t *x)
{
    red2(x, rbuf);
    for (int i = 1; i <= K2; i++)
        if (rbuf[i] < 0 || rbuf[i] > Tb[i]) die_io("internal error: red outside the table box");
    return lab2[(size_t)s * (size_t)tcells + (size_t)tindex(rbuf)];
}

/* rule 4: condition D1, lab = lab o red on the table box (the bounds were
 * compared with the blocks' while reading the table line) */
static void rule4_2(void)
{
    int64_t *x = vA, *y = vB;
    for (int64_t q = 0; q < tcells; q++) {
        for (int64_t r = q, i = K2; i >= 1; i--) x[i] = r % (Tb[i] + 1), r /= Tb[i] + 1;
        red2(x, y);
        int64_t qr = tindex(y);
        if (qr == q) continue;
        for (int s = 0; s < S; s++)
            if (lab2[(size_t)s * (size_t)tcells + (size_t)q] != lab2[(size_t)s * (size_t)tcells + (size_t)qr]) {
                char w[200], v[200];
                int o = 0, p = 0;
                for (int i = 1; i <= K2 && o < 160; i++) {
                    o += snprintf(w + o, sizeof w - (size_t)o, "%s%lld", i > 1 ? "," : "", (long long)x[i]);
                    p += snprintf(v + p, sizeof v - (size_t)p, "%s%lld", i > 1 ? "," : "", (long long)y[i]);
                }
                die_rule(4, "lab(%d; %s) differs from lab(%d; red = %s)", s, w, s, v);
            }
    }
}

/* rule 5: condition D2 */
static void rule5_2(void)
{
    for (int i = 1; i <= K2; i++) {
        if (bkind[i] == 1) {
            if (Ar[i] < bc[i] + bp[i]) die_rule(5, "A_%d = %lld < c+p = %lld", i, (long long)Ar[i], (long long)(bc[i] + bp[i]));
            if (Ar[i] < bp[i] + gm[i] - 1)
                die_rule(5, "A_%d = %lld < p+m_%d-1 = %lld", i, (long long)Ar[i], i, (long long)(bp[i] + gm[i] - 1));
        } else if (bkind[i] == 2) {
            int j = bmate[i];
            int64_t t = bt[i], q = bq[i];
            if (Ar[i] < t + q) die_rule(5, "A_%d = %lld < t+q = %lld", i, (long long)Ar[i], (long long)(t + q));
            if (Ar[j] < t + q) die_rule(5, "A_%d = %lld < t+q = %lld", j, (long long)Ar[j], (long long)(t + q));
            if (Ar[j] < bb0[i] + bpb[i] + q + u2[i] + 1)
                die_rule(5, "A_%d = %lld < b0+pb+q+u_%d+1 = %lld", j, (long long)Ar[j], i,
                         (long long)(bb0[i] + bpb[i] + q + u2[i] + 1));
            if (Ar[i] < ba0[i] + bpa[i] + q + u2[j] + 1)
                die_rule(5, "A_%d = %lld < a0+pa+q+u_%d+1 = %lld", i, (long long)Ar[i], j,
                         (long long)(ba0[i] + bpa[i] + q + u2[j] + 1));
            if (Ar[j] < bpb[i] + gm[j] - 1)
                die_rule(5, "A_%d = %lld < pb+m_%d-1 = %lld", j, (long long)Ar[j], j, (long long)(bpb[i] + gm[j] - 1));
            if (Ar[i] < bpa[i] + gm[i] - 1)
                die_rule(5, "A_%d = %lld < pa+m_%d-1 = %lld", i, (long long)Ar[i], i, (long long)(bpa[i] + gm[i] - 1));
            if (t + 1 < gm[i]) die_rule(5, "t+1 = %lld < m_%d = %d", (long long)(t + 1), i, gm[i]);
            if (t + 1 < gm[j]) die_rule(5, "t+1 = %lld < m_%d = %d", (long long)(t + 1), j, gm[j]);
        }
    }
}

static int fold2(int s, const Opt *y)
{
    for (int q = 0; q < y->n; q++)
        if (!gof[y->h[q]]) s = act[y->h[q]][s];
    return s;
}

/* ---- rules 6 and 7 of format 2.  A count vector c with c_l <= u_l has
 * the code cidx(c) (mixed radix u_l + 1); an element (s', c) of O is
 * s' * C2 + cidx(c).  Region point x is bit ridx(x) of a row of RW2 words
 * (mixed radix A_l + 1, the last coordinate fastest). ---- */
static int64_t C2, R2;
static int RW2;
static uint64_t **pm2;         /* pm2[code]: bits x where L(s', x + c) = P (made on demand) */
static uint64_t **sm;          /* per state: 4 rows, see state_masks */
static int64_t maskwords;
static int64_t *xs;            /* the points of R, K2 coordinates each */
static uint64_t *mv2;          /* no O: some coordinate x_i >= 1 whose heaps all have options */
static uint64_t *anyp2;

static uint64_t *newrow(void)
{
    maskwords += RW2;
    if (maskwords > V2_MAXMASK) die_cap("region masks of %lld words", (long long)maskwords);
    return xalloc(sizeof(uint64_t) * (size_t)RW2);
}

static const uint64_t *pmrow(uint32_t code)
{
    if (pm2[code]) return pm2[code];
    uint64_t *w = pm2[code] = newrow();
    int s = (int)(code / (uint64_t)C2);
    int64_t cc = (int64_t)(code % (uint64_t)C2), *c = vA, *y = vB;
    for (int l = K2; l >= 1; l--) c[l] = cc % (u2[l] + 1), cc /= u2[l] + 1;
    for (int64_t r = 0; r < R2; r++) {
        for (int l = 1; l <= K2; l++) y[l] = xs[r * K2 + l - 1] + c[l];
        if (L2(s, y)) w[r >> 6] |= 1ULL << (r & 63);
    }
    return w;
}

static uint32_t cidx(const Opt *y)
{
    int64_t *c = rbuf + K2 + 1, q = 0; /* second half of the scratch */
    for (int l = 1; l <= K2; l++) c[l] = 0;
    for (int k = 0; k < y->n; k++) c[gof[y->h[k]]]++;
    for (int l = 1; l <= K2; l++) q = q * (u2[l] + 1) + c[l];
    return (uint32_t)q;
}

/* Per state s, over x in R, the moves in the growing heaps (condition D3):
 * hp(h) says some option Y of h gives L(fold_Y(s), x - e_i + cnt(Y)) = P,
 * for h in G_i with x_i >= 1.  The check must hold for every presence F
 * possible with x; every such F holds a heap of G_i for each x_i >= 1 and
 * nothing else, and every single heap of G_i (x_i >= 1) is some F_i, so:
 *  row 0 (NOHP): no such h has hp, so no F offers a P option;
 *  row 1 (NF):   some i with x_i >= 1 has hp for every h in G_i, so every F
 *                offers a P option;
 *  row 2 (NM):   every i with x_i >= 1 has no h without hp that has options,
 *                so, with O empty, no F has a move while offering no P
 *                option.
 * With O non-empty the position always has a move: label P is right for
 * every F iff no option of O is P and NOHP; label N iff some option of O is
 * P or NF.  With O empty: P iff mv2 (every F has a move) and NOHP; N iff NF
 * or NM (every F either offers a P option or has no move). */
static const uint64_t *state_masks(int s)
{
    if (sm[s]) return sm[s];
    maskwords += 3 * (int64_t)RW2;
    if (maskwords > V2_MAXMASK) die_cap("region masks of %lld words", (long long)maskwords);
    uint64_t *w = xalloc(sizeof(uint64_t) * 3 * (size_t)RW2);
    int64_t *y = vA;
    sm[s] = w;
    for (int64_t r = 0; r < R2; r++) {
        const int64_t *x = xs + r * K2; /* x[0..K2): coordinates 1..K2 */
        int nohp = 1, nf = 0, nm = 1;
        for (int i = 1; i <= K2; i++) {
            if (x[i - 1] < 1) continue;
            int allhp = 1;
            for (int q = 0; q < gm[i]; q++) {
                int h = gh[i][q], hpv = 0;
                for (int m = 0; m < nopt[h] && !hpv; m++) {
                    const Opt *o = &opts[h][m];
                    for (int l = 1; l <= K2; l++) y[l] = x[l - 1];
                    y[i]--;
                    for (int k = 0; k < o->n; k++)
                        if (gof[o->h[k]]) y[gof[o->h[k]]]++;
                    hpv = L2(fold2(s, o), y);
                }
                if (hpv) nohp = 0;
                else allhp = 0;
                if (!hpv && nopt[h] > 0) nm = 0;
            }
            if (allhp) nf = 1;
        }
        uint64_t bit = 1ULL << (r & 63);
        if (nohp) w[r >> 6] |= bit;
        if (nf) w[RW2 + (r >> 6)] |= bit;
        if (nm) w[2 * RW2 + (r >> 6)] |= bit;
    }
    return w;
}

static void check_pair2(size_t i)
{
    int s = pst[i];
    const uint32_t *o = ar ? ar + poff[i] : NULL;
    const uint64_t *w = state_masks(s), *lm = pmrow((uint32_t)s * (uint32_t)C2);
    int haso = plen[i] > 0;
    for (int q = 0; q < RW2; q++) anyp2[q] = 0;
    for (uint32_t k = 0; k < plen[i]; k++) {
        const uint64_t *p = pmrow(o[k]);
        for (int q = 0; q < RW2; q++) anyp2[q] |= p[q];
    }
    for (int q = 0; q < RW2; q++) {
        uint64_t okp, okn;
        if (haso) okp = ~anyp2[q] & w[q], okn = anyp2[q] | w[RW2 + q];
        else okp = mv2[q] & w[q], okn = w[RW2 + q] | w[2 * RW2 + q];
        uint64_t bad = (lm[q] & ~okp) | (~lm[q] & ~okn);
        if (q == RW2 - 1 && R2 % 64) bad &= (1ULL << (R2 % 64)) - 1;
        if (bad) {
            int64_t r = (int64_t)q * 64 + __builtin_ctzll(bad);
            char pt[200];
            int n = 0;
            for (int l = 1; l <= K2 && n < 160; l++)
                n += snprintf(pt + n, sizeof pt - (size_t)n, "%s%lld", l > 1 ? "," : "", (long long)xs[r * K2 + l - 1]);
            int isp = lm[q] >> (r & 63) & 1;
            die_rule(7, "pair %zu (state %d, %u options) at x = (%s): label %c, but the misère recursion gives %c"
                        " for some presence of the growing heaps", i, s, plen[i], pt, isp ? 'P' : 'N', isp ? 'N' : 'P');
        }
    }
}

static void closure2(void)
{
    C2 = 1;
    for (int l = 1; l <= K2; l++) C2 = smul(C2, u2[l] + 1);
    if (smul(C2, S) > V2_MAXCODES) die_cap("%d states x %lld count vectors", S, (long long)C2);
    R2 = 1;
    for (int l = 1; l <= K2; l++) R2 *= Ar[l] + 1;
    RW2 = (int)((R2 + 63) / 64);
    if (smul(R2, K2) > V2_MAXREGION) die_cap("a region of %lld points in %d coordinates", (long long)R2, K2);
    xs = xalloc(sizeof(int64_t) * (size_t)(R2 * K2));
    for (int64_t r = 0; r < R2; r++)
        for (int64_t q = r, l = K2; l >= 1; l--) xs[r * K2 + l - 1] = q % (Ar[l] + 1), q /= Ar[l] + 1;
    pm2 = xalloc(sizeof(uint64_t *) * (size_t)(C2 * S));
    sm = xalloc(sizeof(uint64_t *) * (size_t)S);
    mv2 = newrow();
    anyp2 = newrow();
    for (int64_t r = 0; r < R2; r++)
        for (int i = 1; i <= K2; i++) {
            if (xs[r * K2 + i - 1] < 1) continue;
            int all = 1;
            for (int q = 0; q < gm[i]; q++) all &= nopt[gh[i][q]] > 0;
            if (all) mv2[r >> 6] |= 1ULL << (r & 63);
        }
    size_t ncode = (size_t)(C2 * S);
    size_t bw = (ncode + 63) / 64;
    sl2 = xalloc(sizeof(uint32_t) * (ncode + 1));
    bs2 = xalloc(sizeof(uint64_t) * bw);
    uint32_t *sl = sl2;
    uint64_t *bs = bs2;
    insert_pair(0, NULL, 0);
    for (size_t i = 0; i < np; i++) {
        check_pair2(i);
        for (int K = 1; K <= N; K++) {
            if (gof[K]) continue;
            int s = pst[i];
            const uint32_t *o = ar ? ar + poff[i] : NULL;
            uint32_t n = 0;
            for (uint32_t k = 0; k < plen[i]; k++) {
                uint32_t c = o[k], sp = c / (uint32_t)C2, e = (uint32_t)act[K][sp] * (uint32_t)C2 + c % (uint32_t)C2;
                if (!(bs[e >> 6] >> (e & 63) & 1)) bs[e >> 6] |= 1ULL << (e & 63), sl[n++] = e;
            }
            for (int m = 0; m < nopt[K]; m++) {
                const Opt *y = &opts[K][m];
                uint32_t e = (uint32_t)fold2(s, y) * (uint32_t)C2 + cidx(y);
                if (!(bs[e >> 6] >> (e & 63) & 1)) bs[e >> 6] |= 1ULL << (e & 63), sl[n++] = e;
            }
            if ((size_t)n * 16 < bw) {
                if (n) qsort(sl, n, sizeof(uint32_t), cmp_u32);
                for (uint32_t k = 0; k < n; k++) bs[sl[k] >> 6] = 0;
            } else {
                uint32_t k = 0;
                for (size_t q = 0; q < bw; q++)
                    for (uint64_t x = bs[q]; x; x &= x - 1) sl[k++] = (uint32_t)(q * 64 + (size_t)__builtin_ctzll(x));
                memset(bs, 0, sizeof(uint64_t) * bw);
            }
            insert_pair(act[K][s], sl, n);
        }
    }
    free(sl2);
    free(bs2);
    sl2 = NULL, bs2 = NULL;
}

/* ---- rule 8 of format 2: the witness over the range of the rule:
 * a_min <= a <= max(a_min, A*) + q - 1, 1 <= d <= D + pa,
 * A* = max(t+q, t+q-e), D = max(1, a0 - t + e, a0 - a_min) ---- */
static int sW2;

static void rule8_2(void)
{
    int i = (int)WI, j = bmate[i];
    int64_t t = bt[i], qd = bq[i], e = WE, amin = WAMIN, as = t + qd, D = 1;
    if (t + qd - e > as) as = t + qd - e;
    if (amin > as) as = amin;
    as += qd - 1;
    if (ba0[i] - t + e > D) D = ba0[i] - t + e;
    if (ba0[i] - amin > D) D = ba0[i] - amin;
    if (smul(as - amin + 1, D + bpa[i]) > V2_MAXWIT)
        die_cap("a witness range of %lld x %lld points", (long long)(as - amin + 1), (long long)(D + bpa[i]));
    sW2 = 0;
    for (int q = 0; q < NW2; q++) sW2 = act[ctx2[q]][sW2];
    int64_t *p1 = vA, *p2 = vB;
    for (int l = 1; l <= K2; l++) p1[l] = p2[l] = fc[l];
    for (int64_t a = amin; a <= as; a++)
        for (int64_t d = 1; d <= D + bpa[i]; d++) {
            p1[i] = a, p1[j] = a + e;
            p2[i] = a + d, p2[j] = a + e;
            int x = L2(sW2, p1), y = L2(sW2, p2);
            if (x == y)
                die_rule(8, "the context does not separate %d^%lld and %d^%lld (both %c with %d^%lld);"
                            " rules 1-7 hold (%d states, %zu pairs)", gh[i][0], (long long)a, gh[i][0],
                         (long long)(a + d), x ? 'P' : 'N', gh[j][0], (long long)(a + e), S, np);
        }
}

static void run2(void)
{
    parse2();
    rbuf = xalloc(sizeof(int64_t) * 2 * (size_t)(K2 + 1));
    rule2();
    rule3_2();
    rule4_2();
    rule5_2();
}

static void verdict2(void)
{
    int trusted = !strcmp(gkind, "ruleset");
    int i = (int)WI, j = bmate[i];
    printf("ok: misère %s%s%s, heaps <= %d, %d growing coordinates (groups", strcmp(gkind, "octal") ? gkind : "",
           strcmp(gkind, "octal") ? " " : "", gcode, N, K2);
    for (int l = 1; l <= K2; l++) {
        printf(" {");
        for (int q = 0; q < gm[l]; q++) printf("%s%d", q ? "," : "", gh[l][q]);
        printf("}");
    }
    printf("): outcome of X + Z = L(psi(X), counts of Z) for all X and all Z of growing heaps (%d states, %zu pairs,"
           " region", S, np);
    for (int l = 1; l <= K2; l++) printf("%s%lld", l > 1 ? "x" : " ", (long long)Ar[l] + 1);
    printf(")%s; the powers %d^a, a >= %lld, are pairwise distinct (context ", trusted ? " [options trusted from the file]" : "",
           gh[i][0], (long long)WAMIN);
    for (int q = 0; q < NW2; q++) printf("%d + ", ctx2[q]);
    for (int l = 1; l <= K2; l++)
        if (fc[l]) printf("%d^%lld + ", gh[l][0], (long long)fc[l]);
    printf("%d^(a%+lld)): the misère quotient Q(%d) is infinite.\n", gh[j][0], (long long)WE, N);
}

/* ---- -T: the format-2 file that says the same as a format-1 file
 * (docs/misere.md, Lemma 2, "Lemma 1 is the case k = 2"): group 1 = {top},
 * group 2 = {partner}, one pair block.  Format 2 fixes the order of the
 * options, act and lab lines and the table box (the bounds of the block);
 * format 1's rule 4 makes every cell outside that box equal to a cell
 * inside, so the translation keeps the labels of the box. ---- */
static char *ob;
static size_t olen, ocap;

static void out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void out(const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(ob + olen, ocap - olen, fmt, ap);
        va_end(ap);
        if (n < 0) die_io("cannot format the translation");
        if (olen + (size_t)n < ocap) {
            olen += (size_t)n;
            return;
        }
        ocap = 2 * ocap + (size_t)n + 4096;
        ob = xgrow(ob, ocap);
    }
}

static void translate1(void)
{
    int ta = a0 + pa - 1, tb = b0 + pb - 1;
    if (TA < ta || TB < tb) die_rule(4, "table %d %d does not cover red's image %d %d", TA, TB, ta, tb);
    ocap = 1 << 16;
    ob = xalloc(ocap);
    out("cgt-misere-infinite 2\ngame %s %s\nheaps %d\ngrow 2\ngroup 1 1 %d\ngroup 2 1 %d\n", gkind, gcode, N, H, G);
    for (int K = 1; K <= N; K++) {
        out("options %d %d", K, nopt[K]);
        for (int m = 0; m < nopt[K]; m++) {
            out("%s", m ? " ;" : "");
            if (!opts[K][m].n) out(" -");
            for (int q = 0; q < opts[K][m].n; q++) out(" %d", opts[K][m].h[q]);
        }
        out("\n");
    }
    out("states %d\n", S);
    for (int K = 1; K <= N; K++) {
        if (K == H || K == G) continue;
        out("act %d", K);
        for (int s = 0; s < S; s++) out(" %d", act[K][s]);
        out("\n");
    }
    out("block pair 1 2 %d 1 %d %d %d %d\ntable %d %d\n", t_, b0, pb, a0, pa, ta, tb);
    for (int s = 0; s < S; s++)
        for (int a = 0; a <= ta; a++) {
            out("lab %d %d ", s, a);
            for (int b = 0; b <= tb; b++) out("%c", labat(s, a, b) ? 'P' : 'N');
            out("\n");
        }
    out("check %d %d\nwitness 1 %d %d\ncounts 0 0\ncontext", A1, B1, E, AMIN);
    for (int i = 0; i < NW; i++) out(" %d", wit[i]);
    out("\n");
    uint64_t c = crc64((const unsigned char *)ob, olen);
    out("crc64 %016llx\nend\n", (unsigned long long)c);
    if (fwrite(ob, 1, olen, stdout) != olen) die_io("cannot write the translation");
    free(ob);
}

/* brute force of format 2: the file's L(psi(X), x) against the search */
static void compare2(const int *pos, int n)
{
    int64_t *x = xalloc(sizeof(int64_t) * (size_t)(K2 + 1));
    int *X = xalloc(sizeof(int) * (size_t)(n + 1)), nx = 0, nl = 0;
    hp *live = xalloc(sizeof(hp) * (size_t)(n + 1));
    for (int i = 0; i < n; i++) {
        if (gof[pos[i]]) x[gof[pos[i]]]++;
        else X[nx++] = pos[i];
        if (nopt[pos[i]] > 0) live[nl++] = (hp)pos[i];
    }
    for (int i = nx - 1; i > 0; i--) {
        int j = (int)(rnd() % (uint64_t)(i + 1)), tmp = X[i];
        X[i] = X[j], X[j] = tmp;
    }
    int s = 0;
    for (int i = 0; i < nx; i++) s = act[X[i]][s];
    if (nl) qsort(live, (size_t)nl, sizeof(hp), cmp_hp);
    int want = outcome(live, nl), got = L2(s, x);
    tested++;
    if (want != got) {
        if (disagree < 10) {
            printf("disagree:");
            for (int i = 0; i < n; i++) printf(" %d", pos[i]);
            printf(" (state %d): file %c, search %c\n", s, got ? 'P' : 'N', want ? 'P' : 'N');
        }
        disagree++;
    }
    free(x);
    free(X);
    free(live);
}

/* ---- main ---- */
static void usage(void)
{
    fprintf(stderr, "usage: mq_infcheck [-p MAXPAIRS] [-L K,K,.. [-A A] [-B B]] FILE\n       mq_infcheck -b T [-r R] [-m TOKENS] FILE\n"
                    "       mq_infcheck -T FILE   (format 1 in, the same proof in format 2 out)\n");
    exit(2);
}

int main(int argc, char **argv)
{
    long T = -1, nrand = 200, maxtok = -1, LA = 12, LB = 12;
    const char *ctx = NULL;
    int i = 1, tr = argc > 1 && !strcmp(argv[1], "-T");
    for (i += tr; i < argc - 1 && !tr; i += 2) {
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
    if (blen >= 22 && !memcmp(buf, "cgt-misere-infinite 2\n", 22)) {
        /* format 2 (docs/misere.md, "Proof file in k coordinates") */
        if (tr || ctx) usage();
        version = 2;
        next_line(&st);
        run2();
        if (T >= 0) return brute(T, nrand, maxtok >= 0 ? maxtok : T + T / 2);
        closure2();
        rule8_2();
        verdict2();
        return 0;
    }
    parse();
    if (tr) {
        translate1();
        return 0;
    }
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
