/* Independent m,n,k proof checker, version 2 of the format.  See
 * tests/oracle/mnk_check.c. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

/* ---- Version 2 (claim breaker only; docs/mnk.md "Proof files", summed
 * up here).  Node lines are numbered 1, 2, ... in file order and refer to
 * their children by number, children first, so one streaming pass suffices:
 * per node only its position is kept, as two cell masks.  A Maker-to-move
 * position Q is Covered by ID when
 *   ID = 0:  Q has no complete Maker line and every line holds an O, or
 *   ID >= 1: node ID is an earlier R or M node with position D and for some
 *            board symmetry s, X(s(Q)) is a subset of X(D) and O(s(Q)) a
 *            superset of O(D).
 * The second case is monotonicity: Maker-Breaker positions are ordered by
 * "Maker's marks grow, Breaker's shrink"; D is a Breaker win with Maker to
 * move (by induction on the node number, as every reference points
 * strictly backwards), and Breaker wins Q by D's strategy, treating Q's
 * missing X cells as Maker's and ignoring Q's extra O cells (an extra mark
 * never hurts its owner).  Nodes:
 *   R POS T1 T2 ... >ID   Theorem 1 of Hsu et al. (partial pairing): every
 *                         live line meeting V holds a whole pair; then
 *                         Covered(POS + O on V, ID).
 *   M POS G1 G2 ...       every empty cell is a Maker move in exactly one
 *                         group: b@ID:v,..  (reply b, Covered(POS+Xv+Ob, ID)),
 *                         *:v,..  (P(POS+Xv) < 2^k, Property 1 /
 *                         Erdos-Selfridge with Breaker to move), <w:v,..
 *                         (Theorem 2: every live line through v holds w, w a
 *                         move of an earlier group).
 *   B POS b@ID | B POS *  Breaker to move; only as the top of a root-O proof.
 *   top ID, end.
 */

/* Cell sets of up to MAXC = 256 cells: MAXW 64-bit words, word i holding
 * cells 64 i .. 64 i + 63 (the checker's own representation; boards of at
 * most 64 cells use the first word only). */
#define MAXW (MAXC / 64)
typedef struct {
    uint64_t w[MAXW];
} Set;

static Set s_bit(int c)
{
    Set r = {{0}};
    r.w[c >> 6] = (uint64_t)1 << (c & 63);
    return r;
}

static int s_has(Set a, int c)
{
    return (int)(a.w[c >> 6] >> (c & 63) & 1);
}

static Set s_or(Set a, Set b)
{
    for (int i = 0; i < MAXW; i++)
        a.w[i] |= b.w[i];
    return a;
}

static Set s_and(Set a, Set b)
{
    for (int i = 0; i < MAXW; i++)
        a.w[i] &= b.w[i];
    return a;
}

/* a without the cells of b */
static Set s_minus(Set a, Set b)
{
    for (int i = 0; i < MAXW; i++)
        a.w[i] &= ~b.w[i];
    return a;
}

static int s_any(Set a)
{
    uint64_t t = 0;
    for (int i = 0; i < MAXW; i++)
        t |= a.w[i];
    return t != 0;
}

static int s_eq(Set a, Set b)
{
    uint64_t t = 0;
    for (int i = 0; i < MAXW; i++)
        t |= a.w[i] ^ b.w[i];
    return t == 0;
}

/* a is a subset of b */
static int s_sub(Set a, Set b)
{
    return !s_any(s_minus(a, b));
}

static int s_count(Set a)
{
    int n = 0;
    for (int i = 0; i < MAXW; i++)
        n += __builtin_popcountll(a.w[i]);
    return n;
}

typedef struct {
    Set x, o;
} Pos2;

typedef struct {
    int c, nsym, nw;
    int nl;
    Set full;                       /* all c cells */
    Set line[MAXL];                 /* each k-line as a cell set */
    int nthrough[MAXC];
    Set through[MAXC][4 * 32];      /* the lines through a cell (k <= 32) */
    uint16_t perm[8][MAXC];         /* image of each cell under symmetry s */
    Set (*tab)[MAXC / 8][256];      /* tab[s][j][v]: image of byte j of a set under s */
    uint64_t pot_limit;             /* 2^k */
    uint64_t *node;                 /* node number i: X words then O words at
                                     * node[2 nw (i - 1)] (nw words per set) */
    size_t nnode, cap;
    size_t bnode;                   /* number of the B node, 0 if none */
    uint64_t lineno;                /* current line of the file */
    int hint;                       /* symmetry that covered last */
} V2;

static void fail2(const V2 *z, const char *why)
{
    printf("FAIL: line %llu: %s\n", (unsigned long long)z->lineno, why);
    exit(1);
}

static Set map2(const V2 *z, int s, Set m)
{
    Set r = {{0}};
    for (int j = 0; j < (z->c + 7) / 8; j++) {
        unsigned v = (unsigned)(m.w[j / 8] >> (8 * (j % 8)) & 255);
        if (v)
            r = s_or(r, z->tab[s][j][v]);
    }
    return r;
}

static Pos2 node_pos(const V2 *z, size_t id)
{
    Pos2 p = {{{0}}, {{0}}};
    const uint64_t *w = z->node + 2 * (size_t)z->nw * (id - 1);
    for (int i = 0; i < z->nw; i++) {
        p.x.w[i] = w[i];
        p.o.w[i] = w[z->nw + i];
    }
    return p;
}

/* Lines as sets (the same lines as build_lines), and the symmetries of
 * sym_cell as cell permutations. */
static void v2_setup(V2 *z)
{
    build_lines();
    z->c = C;
    z->nw = (C + 63) / 64;
    z->nl = NL;
    for (int c = 0; c < C; c++)
        z->full = s_or(z->full, s_bit(c));
    z->pot_limit = (uint64_t)1 << K;
    for (int l = 0; l < NL; l++) {
        z->line[l] = (Set){{0}};
        for (int i = 0; i < K; i++)
            z->line[l] = s_or(z->line[l], s_bit(lcell[l][i]));
        for (int i = 0; i < K; i++) {
            int c = lcell[l][i];
            z->through[c][z->nthrough[c]++] = z->line[l];
        }
    }
    z->nsym = M == N ? 8 : 4;
    z->tab = calloc((size_t)z->nsym, sizeof *z->tab);
    if (!z->tab)
        fail2(z, "out of memory");
    for (int s = 0; s < z->nsym; s++) {
        for (int r = 0; r < N; r++)
            for (int c = 0; c < M; c++)
                z->perm[s][r * M + c] = (uint16_t)sym_cell(s, r, c);
        for (int j = 0; j < (C + 7) / 8; j++)
            for (int v = 0; v < 256; v++) {
                Set img = {{0}};
                for (int b = 0; b < 8; b++)
                    if ((v >> b & 1) && 8 * j + b < C)
                        img = s_or(img, s_bit(z->perm[s][8 * j + b]));
                z->tab[s][j][v] = img;
            }
    }
}

static int complete2(const V2 *z, Set x)
{
    for (int l = 0; l < z->nl; l++)
        if (s_sub(z->line[l], x))
            return 1;
    return 0;
}

/* Whether adding an X on empty cell v completes a line (only lines through
 * v can become complete). */
static int completes_with(const V2 *z, Set x, int v)
{
    for (int i = 0; i < z->nthrough[v]; i++)
        if (s_eq(s_minus(z->through[v][i], x), s_bit(v)))
            return 1;
    return 0;
}

/* P = sum over live lines (no O) of 2^(X on the line). */
static uint64_t potential2(const V2 *z, Pos2 p)
{
    uint64_t s = 0;
    for (int l = 0; l < z->nl; l++)
        if (!s_any(s_and(z->line[l], p.o)))
            s += (uint64_t)1 << s_count(s_and(z->line[l], p.x));
    return s;
}

/* Covered(Q, id), given the images qx[s], qo[s] of Q under every symmetry
 * s (qx[0], qo[0]: Q itself).  Every node read so far is earlier than the
 * line being checked. */
static int covered2(V2 *z, const Set *qx, const Set *qo, uint64_t id)
{
    if (id == 0) {
        if (complete2(z, qx[0]))
            return 0;
        for (int l = 0; l < z->nl; l++)
            if (!s_any(s_and(z->line[l], qo[0])))
                return 0;
        return 1;
    }
    if (id > z->nnode)
        fail2(z, "child ID is not an earlier node (forward reference or too large)");
    if (id == z->bnode)
        fail2(z, "child ID is the B node (must be an R or M node)");
    Pos2 d = node_pos(z, id);
    for (int t = -1; t < z->nsym; t++) {
        int s = t < 0 ? z->hint : t;
        if (s_sub(qx[s], d.x) && s_sub(d.o, qo[s])) {
            z->hint = s;
            return 1;
        }
    }
    return 0;
}

static int covered_pos(V2 *z, Pos2 q, uint64_t id)
{
    Set qx[8], qo[8];
    for (int s = 0; s < z->nsym; s++) {
        qx[s] = map2(z, s, q.x);
        qo[s] = map2(z, s, q.o);
    }
    return covered2(z, qx, qo, id);
}

/* Parsing.  All numbers are plain decimal digits. */
static int parse_cell(V2 *z, const char **sp)
{
    const char *s = *sp;
    int v = 0;
    if (*s < '0' || *s > '9')
        fail2(z, "expected a cell number");
    while (*s >= '0' && *s <= '9') {
        v = v * 10 + (*s++ - '0');
        if (v >= z->c)
            fail2(z, "cell number out of range");
    }
    *sp = s;
    return v;
}

static uint64_t parse_id(V2 *z, const char **sp)
{
    const char *s = *sp;
    uint64_t v = 0;
    if (*s < '0' || *s > '9')
        fail2(z, "expected a node number");
    while (*s >= '0' && *s <= '9') {
        unsigned d = (unsigned)(*s++ - '0');
        if (v > (UINT64_MAX - d) / 10)
            fail2(z, "node number too large");
        v = v * 10 + d;
    }
    *sp = s;
    return v;
}

/* POS after "T ": c characters .XO, then a space or the end of the line. */
static Pos2 parse_pos(V2 *z, const char **sp)
{
    Pos2 p = {{{0}}, {{0}}};
    const char *s = *sp;
    for (int i = 0; i < z->c; i++, s++) {
        if (*s == 'X')
            p.x = s_or(p.x, s_bit(i));
        else if (*s == 'O')
            p.o = s_or(p.o, s_bit(i));
        else if (*s != '.')
            fail2(z, "bad position");
    }
    if (*s != ' ' && *s != '\0')
        fail2(z, "bad position");
    *sp = s;
    return p;
}

/* Next token: skips spaces; returns 0 at the end of the line. */
static int next_token(const char **sp)
{
    while (**sp == ' ')
        (*sp)++;
    return **sp != '\0';
}

static void token_end(V2 *z, const char *s)
{
    if (*s != ' ' && *s != '\0')
        fail2(z, "bad token");
}

static void check_R2(V2 *z, Pos2 p, const char *s)
{
    Set used = {{0}}, pair[MAXC / 2];
    int npair = 0;
    Set empty = s_minus(z->full, s_or(p.x, p.o));
    for (;;) {
        if (!next_token(&s))
            fail2(z, "R: missing >ID");
        if (*s == '>')
            break;
        int a = parse_cell(z, &s), b = -1;
        if (*s == '-') {
            s++;
            b = parse_cell(z, &s);
        }
        token_end(z, s);
        if (s_has(used, a) || (b >= 0 && (s_has(used, b) || b == a)))
            fail2(z, "R: cell listed twice");
        if (!s_has(empty, a) || (b >= 0 && !s_has(empty, b)))
            fail2(z, "R: cell not empty");
        used = s_or(used, s_bit(a));
        if (b >= 0) {
            used = s_or(used, s_bit(b));
            pair[npair++] = s_or(s_bit(a), s_bit(b));
        }
    }
    s++;
    uint64_t id = parse_id(z, &s);
    token_end(z, s);
    if (next_token(&s))
        fail2(z, "R: text after >ID");
    /* Theorem 1: every live line meeting V holds both cells of a pair. */
    for (int l = 0; l < z->nl; l++) {
        Set lm = z->line[l];
        if (s_any(s_and(lm, p.o)) || !s_any(s_and(lm, used)))
            continue;
        int haspair = 0;
        for (int i = 0; i < npair && !haspair; i++)
            haspair = s_sub(pair[i], lm);
        if (!haspair)
            fail2(z, "R: a live line meets the listed cells without holding a pair");
    }
    Pos2 q = {p.x, s_or(p.o, used)};
    if (!covered_pos(z, q, id))
        fail2(z, "R: the reduced position is not covered by its ID");
}

static void check_M2(V2 *z, Pos2 p, const char *s)
{
    Set empty = s_minus(z->full, s_or(p.x, p.o));
    Set moved = {{0}};
    Set px[8], po[8];
    if (!s_any(empty))
        fail2(z, "M: no empty cell");
    for (int t = 0; t < z->nsym; t++) {
        px[t] = map2(z, t, p.x);
        po[t] = map2(z, t, p.o);
    }
    uint64_t pot = 0;
    Set qx[8], qo[8];
    int have_pot = 0;
    while (next_token(&s)) {
        int kind = *s, b = -1, w = -1;
        uint64_t id = 0;
        Set before = moved;
        if (kind == '*') {
            s++;
        } else if (kind == '<') {
            s++;
            w = parse_cell(z, &s);
            if (!s_has(before, w))
                fail2(z, "M: dominating cell is not a move of an earlier group");
        } else {
            kind = '@';
            b = parse_cell(z, &s);
            if (*s++ != '@')
                fail2(z, "M: bad group (expected b@ID:, *: or <w:)");
            id = parse_id(z, &s);
            if (!s_has(empty, b))
                fail2(z, "M: Breaker reply on a non-empty cell");
            for (int t = 0; t < z->nsym; t++)
                qo[t] = s_or(po[t], s_bit(z->perm[t][b]));
        }
        if (*s++ != ':')
            fail2(z, "M: bad group (expected ':')");
        for (;;) {
            int v = parse_cell(z, &s);
            if (!s_has(empty, v))
                fail2(z, "M: Maker move on a non-empty cell");
            if (s_has(moved, v))
                fail2(z, "M: Maker move listed twice");
            moved = s_or(moved, s_bit(v));
            if (kind == '@') {
                if (v == b)
                    fail2(z, "M: Breaker reply equals the Maker move");
                if (completes_with(z, p.x, v))
                    fail2(z, "M: a Maker move completes a line");
                /* images of POS + X v + O b under every symmetry */
                for (int t = 0; t < z->nsym; t++)
                    qx[t] = s_or(px[t], s_bit(z->perm[t][v]));
                if (!covered2(z, qx, qo, id))
                    fail2(z, "M: position after a move and its reply is not covered by its ID");
            } else if (kind == '*') {
                if (completes_with(z, p.x, v))
                    fail2(z, "M: a Maker move completes a line");
                if (!have_pot) {
                    pot = potential2(z, p);
                    have_pot = 1;
                }
                /* P(POS + X v): each live line through v doubles its term */
                uint64_t q = pot;
                for (int i = 0; i < z->nthrough[v]; i++) {
                    Set lm = z->through[v][i];
                    if (!s_any(s_and(lm, p.o)))
                        q += (uint64_t)1 << s_count(s_and(lm, p.x));
                }
                if (q >= z->pot_limit)
                    fail2(z, "M: potential after a '*' move is not below 2^k");
            } else {
                if (v == w)
                    fail2(z, "M: dominated move equals its dominating cell");
                for (int i = 0; i < z->nthrough[v]; i++) {
                    Set lm = z->through[v][i];
                    if (!s_any(s_and(lm, p.o)) && !s_has(lm, w))
                        fail2(z, "M: a live line through a dominated move misses the "
                                 "dominating cell");
                }
            }
            if (*s != ',')
                break;
            s++;
        }
        token_end(z, s);
    }
    if (!s_eq(moved, empty))
        fail2(z, "M: an empty cell is not listed as a Maker move");
}

static void check_B2(V2 *z, Pos2 p, const char *s)
{
    if (!next_token(&s))
        fail2(z, "B: missing b@ID or *");
    if (*s == '*') {
        s++;
        token_end(z, s);
        if (next_token(&s))
            fail2(z, "B: text after *");
        if (potential2(z, p) >= z->pot_limit)
            fail2(z, "B: potential is not below 2^k");
        return;
    }
    int b = parse_cell(z, &s);
    if (*s++ != '@')
        fail2(z, "B: expected b@ID");
    uint64_t id = parse_id(z, &s);
    token_end(z, s);
    if (next_token(&s))
        fail2(z, "B: text after b@ID");
    if (s_has(s_or(p.x, p.o), b))
        fail2(z, "B: Breaker move on a non-empty cell");
    Pos2 q = {p.x, s_or(p.o, s_bit(b))};
    if (!covered_pos(z, q, id))
        fail2(z, "B: position after Breaker's move is not covered by its ID");
}

/* Reads the next line without its newline; returns NULL at the end of file. */
static char *next_line(V2 *z, FILE *f, char **buf, size_t *cap)
{
    ssize_t n = getline(buf, cap, f);
    if (n < 0)
        return NULL;
    z->lineno++;
    size_t len = (size_t)n;
    crc_feed(&crc_run, *buf, len);
    if (len > 0 && (*buf)[len - 1] == '\n')
        (*buf)[--len] = '\0';
    if (strlen(*buf) != len)
        fail2(z, "NUL byte in the line");
    return *buf;
}

/* Version 2: the first line already read. */
int check_v2(FILE *f)
{
    V2 *z = calloc(1, sizeof *z);
    char *buf = NULL, *ln;
    size_t cap = 0;
    int used = 0;
    char rootmove = 0;
    if (!z) {
        printf("FAIL: out of memory\n");
        return 1;
    }
    z->lineno = 1;
    ln = next_line(z, f, &buf, &cap);
    if (!ln || sscanf(ln, "game %d %d %d%n", &M, &N, &K, &used) != 3 || ln[used] ||
        M < 1 || N < 1 || K < 1 || K > 32 || M * N > MAXC)
        fail2(z, "bad game line");
    C = M * N;
    ln = next_line(z, f, &buf, &cap);
    if (!ln || strcmp(ln, "claim breaker") != 0)
        fail2(z, "bad claim line (version 2 is for claim breaker only)");
    v2_setup(z);
    ln = next_line(z, f, &buf, &cap);
    if (!ln || strncmp(ln, "root ", 5) != 0 || (ln[5] != 'X' && ln[5] != 'O') || ln[6] != ' ')
        fail2(z, "bad root line");
    rootmove = ln[5];
    const char *s = ln + 7;
    char rootstr[MAXC + 1];
    snprintf(rootstr, sizeof rootstr, "%s", s);
    Pos2 root = parse_pos(z, &s);
    if (*s)
        fail2(z, "bad root line");
    expect_header((int)z->lineno, "breaker", rootmove, rootstr);
    int progress = getenv("MNK_CHECK_PROGRESS") != NULL;
    for (;;) {
        ln = next_line(z, f, &buf, &cap);
        if (!ln)
            fail2(z, "missing top and end lines (truncated proof)");
        if (strncmp(ln, "top ", 4) == 0)
            break;
        if (strcmp(ln, "end") == 0)
            fail2(z, "end before the top line");
        char t = ln[0];
        if ((t != 'R' && t != 'M' && t != 'B') || ln[1] != ' ')
            fail2(z, "bad node line");
        s = ln + 2;
        Pos2 p = parse_pos(z, &s);
        if (complete2(z, p.x))
            fail2(z, "POS has a complete Maker line");
        if (t == 'R') {
            check_R2(z, p, s);
        } else if (t == 'M') {
            check_M2(z, p, s);
        } else {
            if (rootmove != 'O')
                fail2(z, "B node in a root-X proof");
            if (z->bnode)
                fail2(z, "second B node (B is only valid as the top node)");
            check_B2(z, p, s);
            z->bnode = z->nnode + 1;
        }
        if (z->nnode == z->cap) {
            z->cap = z->cap ? 2 * z->cap : 1 << 16;
            uint64_t *nn = realloc(z->node, z->cap * 2 * (size_t)z->nw * sizeof *nn);
            if (!nn)
                fail2(z, "out of memory");
            z->node = nn;
        }
        uint64_t *nw = z->node + 2 * (size_t)z->nw * z->nnode++;
        for (int i = 0; i < z->nw; i++) {
            nw[i] = p.x.w[i];
            nw[z->nw + i] = p.o.w[i];
        }
        if (progress && z->nnode % 1000000 == 0)
            fprintf(stderr, "mnk_check: %zu nodes\n", z->nnode);
    }
    s = ln + 4;
    uint64_t top = parse_id(z, &s);
    if (*s)
        fail2(z, "bad top line");
    if (top > z->nnode)
        fail2(z, "top ID is larger than the number of nodes");
    if (rootmove == 'X') {
        if (!covered_pos(z, root, top))
            fail2(z, "the root position is not covered by the top ID");
    } else {
        if (top == 0 || top != z->bnode)
            fail2(z, "root O: the top ID is not the B node");
        Pos2 d = node_pos(z, top);
        int same = 0;
        for (int t = 0; t < z->nsym && !same; t++)
            same = s_eq(map2(z, t, root.x), d.x) && s_eq(map2(z, t, root.o), d.o);
        if (!same)
            fail2(z, "root O: the B node's position is not the root position");
    }
    ln = next_line(z, f, &buf, &cap);
    if (!ln || strcmp(ln, "end") != 0)
        fail2(z, "missing end line after top (truncated proof)");
    uint64_t before_seal = crc_run;
    ln = next_line(z, f, &buf, &cap);
    int sealed = 0;
    if (ln) {
        crc_run = before_seal;
        sealed = seal_check((int)z->lineno, ln);
        if (next_line(z, f, &buf, &cap))
            fail2(z, "text after the seal line");
    }
    if (ferror(f))
        fail2(z, "read error");
    printf("ok: claim breaker verified for the %d,%d,%d-game from the root (format 2); "
           "%zu nodes\n", M, N, K, z->nnode);
    print_root(rootmove, rootstr);
    seal_report(sealed);
    free(buf);
    free(z->node);
    free(z->tab);
    free(z);
    return 0;
}

