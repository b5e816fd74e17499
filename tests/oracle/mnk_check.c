/* Independent checker for m,n,k proof files (format in docs/mnk.md).  It
 * shares no code with games/: it rebuilds the k-lines, recomputes every
 * potential from scratch and checks each node of the proof DAG locally; as
 * every child has more marks than its parent, local checks plus "every
 * referenced child is a node" prove the root.
 * Claims: breaker / maker (Maker-Breaker), strong-win / strong-hold (strong
 * game, X to move: X can / cannot force a line first).
 * Version 2 (claim breaker; children by number, checked in one streaming
 * pass, see check_v2) is read from "-" = standard input too.
 * Usage: mnk_check [--game M N K] [--claim CLAIM] [--root X|O POSITION] FILE
 * (prints "ok ..." and the root line "root: ..." and exits 0, or "FAIL: line
 * N: ..." and 1; usage error 2).  The options make the checker refuse a
 * proof of another game, claim or root position than the one the caller
 * means (POSITION in cell-index order as in the file, or "empty").
 * Progress on stderr (version 2) when the environment has
 * MNK_CHECK_PROGRESS. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXC 256 /* cells: boards up to 16x16 */
#define MAXL 1024 /* at most 4 lines start at a cell */

static int M, N, K, C, NL;
static int lcell[MAXL][MAXC];

typedef struct {
    char type;
    char *pos;
    char *rest;
    int lineno;
} Node;

static Node *nodes;
static int nnodes, capnodes;
static int *htab;
static int hcap;

static int fail(int lineno, const char *why)
{
    printf("FAIL: line %d: %s\n", lineno, why);
    exit(1);
}

/* The seal (docs/mnk.md "Proof files"): cgt ends a proof with the line
 * "crc64 HEX", the CRC-64/XZ (ECMA-182 polynomial, reflected, initial value
 * and final xor all ones) of every byte before it.  The checker computes it
 * with its own code over every byte it reads; a proof without the line
 * (written before seals) is checked all the same, with a warning. */
static uint64_t crc_tab[256], crc_run = ~(uint64_t)0;

static void crc_init(void)
{
    for (int i = 0; i < 256; i++) {
        uint64_t c = (uint64_t)i;
        for (int j = 0; j < 8; j++)
            c = c & 1 ? c >> 1 ^ 0xc96c5795d7870f42ULL : c >> 1;
        crc_tab[i] = c;
    }
}

static void crc_feed(uint64_t *crc, const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        *crc = crc_tab[(*crc ^ (unsigned char)p[i]) & 255] ^ *crc >> 8;
}

/* After the end line: the optional seal line, then nothing.  Returns 1 if
 * sealed (and the CRC matches), 0 if unsealed; fails otherwise. */
static int seal_check(int lineno, const char *line)
{
    if (!line)
        return 0;
    unsigned long long want = 0;
    int used = 0;
    if (sscanf(line, "crc64 %16llx%n", &want, &used) != 1 || used != 22 ||
        (line[22] != '\n' && line[22] != '\0') || (line[22] && line[23]))
        fail(lineno, "text after the end line");
    if ((~crc_run) != (uint64_t)want)
        fail(lineno, "the proof file is damaged: its CRC-64 seal does not match its "
                     "contents (a byte was changed, added or lost)");
    return 1;
}

static void seal_report(int sealed)
{
    if (sealed)
        printf("seal: crc64 %016llx verified\n", (unsigned long long)~crc_run);
    else
        fprintf(stderr, "mnk_check: warning: the proof has no CRC-64 seal (written before "
                        "seals, or cut after its end line): its nodes were checked, its "
                        "integrity as a file was not\n");
}

/* For a regular file, the seal is checked before the proof: a damaged file
 * is refused with that reason rather than with whatever rule the changed
 * byte happens to break. */
static void seal_precheck(FILE *f)
{
    char buf[1 << 16], last[64] = "";
    uint64_t crc = ~(uint64_t)0, before = crc;
    size_t n, lastlen = 0;
    int at_start = 1;
    /* CRC of everything before the last line, and the last line */
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        for (size_t i = 0; i < n; i++) {
            if (at_start) {
                before = crc;
                lastlen = 0;
                at_start = 0;
            }
            if (lastlen < sizeof last - 1)
                last[lastlen++] = buf[i];
            crc_feed(&crc, buf + i, 1);
            if (buf[i] == '\n')
                at_start = 1;
        }
    last[lastlen] = '\0';
    unsigned long long want = 0;
    int used = 0;
    if (!ferror(f) && lastlen == 23 && sscanf(last, "crc64 %16llx%n", &want, &used) == 1 &&
        used == 22 && last[22] == '\n' && ~before != (uint64_t)want) {
        printf("FAIL: the proof file is damaged: its CRC-64 seal does not match its contents "
               "(a byte was changed, added or lost)\n");
        exit(1);
    }
    rewind(f);
}

/* What the caller claims the proof is about (command-line options); a
 * proof of anything else is refused, however valid it is in itself. */
static int want_m, want_n, want_k;
static const char *want_claim, *want_pos;
static char want_move;

static void expect_header(int lineno, const char *claim, char rootmove, const char *rootpos)
{
    static char why[200];
    if (want_m && (want_m != M || want_n != N || want_k != K)) {
        snprintf(why, sizeof why, "the proof is for the %d,%d,%d-game, not the claimed "
                 "%d,%d,%d-game", M, N, K, want_m, want_n, want_k);
        fail(lineno, why);
    }
    if (want_claim && strcmp(want_claim, claim) != 0) {
        snprintf(why, sizeof why, "the proof claims %.20s, not the claimed %.20s", claim,
                 want_claim);
        fail(lineno, why);
    }
    if (want_move && want_move != rootmove)
        fail(lineno, "the root's player to move is not the claimed one");
    if (want_pos) {
        int empty = strcmp(want_pos, "empty") == 0, same = (int)strlen(rootpos) == C;
        for (int i = 0; same && i < C; i++)
            same = rootpos[i] == (empty ? '.' : want_pos[i]);
        if (!same || (!empty && (int)strlen(want_pos) != C))
            fail(lineno, "the root position is not the claimed position");
    }
}

/* The root the proof was verified for, as the last line of the output. */
static void print_root(char rootmove, const char *rootpos)
{
    int empty = 1;
    for (int i = 0; i < C; i++)
        empty &= rootpos[i] == '.';
    if (empty)
        printf("root: the empty %dx%d board, %c (%s) to move\n", M, N, rootmove,
               rootmove == 'X' ? "Maker, first player" : "Breaker");
    else
        printf("root: %c to move, position %s (cell-index order)\n", rootmove, rootpos);
}

static void build_lines(void)
{
    int d[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
    NL = 0;
    for (int r = 0; r < N; r++)
        for (int c = 0; c < M; c++)
            for (int di = 0; di < 4; di++) {
                if (K == 1 && di > 0)
                    continue;
                int ok = 1;
                for (int i = 0; i < K; i++) {
                    int rr = r + d[di][1] * i, cc = c + d[di][0] * i;
                    if (rr < 0 || rr >= N || cc < 0 || cc >= M)
                        ok = 0;
                }
                if (!ok)
                    continue;
                if (NL >= MAXL)
                    fail(0, "too many lines");
                for (int i = 0; i < K; i++)
                    lcell[NL][i] = (r + d[di][1] * i) * M + c + d[di][0] * i;
                NL++;
            }
}

static int has_o(const char *p, int l)
{
    for (int i = 0; i < K; i++)
        if (p[lcell[l][i]] == 'O')
            return 1;
    return 0;
}

static int count_x(const char *p, int l)
{
    int n = 0;
    for (int i = 0; i < K; i++)
        n += p[lcell[l][i]] == 'X';
    return n;
}

static int complete(const char *p)
{
    for (int l = 0; l < NL; l++)
        if (count_x(p, l) == K)
            return 1;
    return 0;
}

static int complete_o(const char *p)
{
    for (int l = 0; l < NL; l++) {
        int n = 0;
        for (int i = 0; i < K; i++)
            n += p[lcell[l][i]] == 'O';
        if (n == K)
            return 1;
    }
    return 0;
}

static int board_full(const char *p)
{
    return strchr(p, '.') == NULL;
}

static long potential(const char *p)
{
    long s = 0;
    for (int l = 0; l < NL; l++)
        if (!has_o(p, l))
            s += 1L << count_x(p, l);
    return s;
}

static int all_lines_dead(const char *p)
{
    for (int l = 0; l < NL; l++)
        if (!has_o(p, l))
            return 0;
    return 1;
}

static unsigned long hstr(const char *s, char t)
{
    unsigned long h = 1469598103934665603UL ^ (unsigned char)t;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211UL;
    return h;
}

static int find_exact(const char *pos, char t)
{
    unsigned long h = hstr(pos, t) % (unsigned long)hcap;
    while (htab[h] >= 0) {
        Node *nd = &nodes[htab[h]];
        if (nd->type == t && strcmp(nd->pos, pos) == 0)
            return htab[h];
        h = (h + 1) % (unsigned long)hcap;
    }
    return -1;
}

/* The image of cell (row r, column c) under symmetry s: bit 0 mirrors the
 * columns, bit 1 the rows, bit 2 then swaps the coordinates (squares only). */
static int sym_cell(int s, int r, int c)
{
    int x = s & 1 ? M - 1 - c : c, y = s & 2 ? N - 1 - r : r;
    if (s & 4) {
        int t = x;
        x = y;
        y = t;
    }
    return y * M + x;
}

/* A position is found when it or one of its images under the board's
 * symmetries (4 for a rectangle, 8 for a square) is a node. */
static int find(const char *pos, char t)
{
    char img[MAXC + 1];
    int nsym = M == N ? 8 : 4;
    for (int s = 0; s < nsym; s++) {
        for (int r = 0; r < N; r++)
            for (int c = 0; c < M; c++)
                img[sym_cell(s, r, c)] = pos[r * M + c];
        img[C] = '\0';
        int i = find_exact(img, t);
        if (i >= 0)
            return i;
    }
    return -1;
}

static void insert(int idx)
{
    unsigned long h = hstr(nodes[idx].pos, nodes[idx].type) % (unsigned long)hcap;
    while (htab[h] >= 0) {
        Node *o = &nodes[htab[h]];
        if (o->type == nodes[idx].type && strcmp(o->pos, nodes[idx].pos) == 0)
            fail(nodes[idx].lineno, "position listed twice");
        h = (h + 1) % (unsigned long)hcap;
    }
    htab[h] = idx;
}

/* Breaker-win claim: a Maker-to-move position is covered. */
static int breaker_covered(const char *p)
{
    if (complete(p))
        return 0;
    if (all_lines_dead(p))
        return 1;
    return find(p, 'R') >= 0 || find(p, 'M') >= 0;
}

static int cell_arg(const char *s, int lineno)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || v < 0 || v >= C)
        fail(lineno, "bad cell number");
    return (int)v;
}

static void check_R(Node *nd)
{
    char q[MAXC + 1];
    strcpy(q, nd->pos);
    if (complete(q))
        fail(nd->lineno, "R: Maker has already completed a line");
    int partner[MAXC], used[MAXC] = {0};
    for (int i = 0; i < C; i++)
        partner[i] = -1;
    char *save, *tok, *rest = strdup(nd->rest);
    for (tok = strtok_r(rest, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save)) {
        char *dash = strchr(tok, '-');
        int a = cell_arg(tok, nd->lineno), b = -1;
        if (dash)
            b = cell_arg(dash + 1, nd->lineno);
        if (used[a] || (b >= 0 && (used[b] || b == a)))
            fail(nd->lineno, "R: cell used twice");
        if (q[a] != '.' || (b >= 0 && q[b] != '.'))
            fail(nd->lineno, "R: cell not empty");
        used[a] = 1;
        if (b >= 0) {
            used[b] = 1;
            partner[a] = b;
            partner[b] = a;
        }
    }
    free(rest);
    /* Theorem 1 condition: every live line meeting V_pair holds a whole pair. */
    for (int l = 0; l < NL; l++) {
        if (has_o(q, l))
            continue;
        int meets = 0, haspair = 0;
        for (int i = 0; i < K; i++) {
            int c = lcell[l][i];
            if (used[c])
                meets = 1;
            if (partner[c] >= 0)
                for (int j = 0; j < K; j++)
                    if (lcell[l][j] == partner[c])
                        haspair = 1;
        }
        if (meets && !haspair)
            fail(nd->lineno, "R: a live line meets the pairing set without holding a pair");
    }
    for (int c = 0; c < C; c++)
        if (used[c])
            q[c] = 'O';
    if (!breaker_covered(q))
        fail(nd->lineno, "R: reduced position is not in the proof");
}

static void check_M(Node *nd)
{
    char q[MAXC + 1];
    if (complete(nd->pos))
        fail(nd->lineno, "M: Maker has already completed a line");
    int seen[MAXC] = {0};
    char *save, *tok, *rest = strdup(nd->rest);
    for (tok = strtok_r(rest, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save)) {
        char *colon = strchr(tok, ':');
        if (!colon)
            fail(nd->lineno, "M: expected MOVE:REPLY");
        int v = cell_arg(tok, nd->lineno);
        if (nd->pos[v] != '.' || seen[v])
            fail(nd->lineno, "M: Maker move on a marked cell or listed twice");
        seen[v] = 1;
        strcpy(q, nd->pos);
        q[v] = 'X';
        if (complete(q))
            fail(nd->lineno, "M: a Maker move completes a line");
        if (colon[1] == '*') {
            if (potential(q) >= 1L << K)
                fail(nd->lineno, "M: potential after the Maker move is not below 2^k");
            continue;
        }
        int b = cell_arg(colon + 1, nd->lineno);
        if (q[b] != '.')
            fail(nd->lineno, "M: Breaker reply on a marked cell");
        q[b] = 'O';
        if (!breaker_covered(q))
            fail(nd->lineno, "M: position after a reply is not in the proof");
    }
    free(rest);
    for (int c = 0; c < C; c++)
        if (nd->pos[c] == '.' && !seen[c])
            fail(nd->lineno, "M: a Maker move is not covered");
}

static void check_B(Node *nd)
{
    char q[MAXC + 1];
    strcpy(q, nd->pos);
    if (complete(q))
        fail(nd->lineno, "B: Maker has already completed a line");
    const char *r = nd->rest;
    while (*r == ' ')
        r++;
    if (*r == '*') {
        if (potential(q) >= 1L << K)
            fail(nd->lineno, "B: potential is not below 2^k");
        return;
    }
    int b = cell_arg(r, nd->lineno);
    if (q[b] != '.')
        fail(nd->lineno, "B: Breaker move on a marked cell");
    q[b] = 'O';
    if (!breaker_covered(q))
        fail(nd->lineno, "B: position after Breaker's move is not in the proof");
}

static void check_W(Node *nd)
{
    char q[MAXC + 1];
    strcpy(q, nd->pos);
    if (complete(q))
        return;
    int v = cell_arg(nd->rest, nd->lineno);
    if (q[v] != '.')
        fail(nd->lineno, "W: Maker move on a marked cell");
    q[v] = 'X';
    if (complete(q))
        return;
    int any = 0;
    for (int b = 0; b < C; b++) {
        if (q[b] != '.')
            continue;
        any = 1;
        q[b] = 'O';
        if (find(q, 'W') < 0)
            fail(nd->lineno, "W: a Breaker reply leads to a position not in the proof");
        q[b] = '.';
    }
    if (!any)
        fail(nd->lineno, "W: board full without a Maker line");
}

/* Strong game, claim strong-win: X to move completes a line before O. */
static void check_A(Node *nd)
{
    char q[MAXC + 1];
    strcpy(q, nd->pos);
    if (complete(q) || complete_o(q))
        fail(nd->lineno, "A: a line is already complete");
    int v = cell_arg(nd->rest, nd->lineno);
    if (q[v] != '.')
        fail(nd->lineno, "A: move on a marked cell");
    q[v] = 'X';
    if (complete(q))
        return;
    int any = 0;
    for (int b = 0; b < C; b++) {
        if (q[b] != '.')
            continue;
        any = 1;
        q[b] = 'O';
        if (complete_o(q))
            fail(nd->lineno, "A: an O reply completes an O line first");
        if (find(q, 'A') < 0)
            fail(nd->lineno, "A: an O reply leads to a position not in the proof");
        q[b] = '.';
    }
    if (!any)
        fail(nd->lineno, "A: board full without an X line");
}

/* Strong game, claim strong-hold: X to move cannot force a line first.  A
 * position is covered when O has a line, the board is full, it is an H
 * node, or it is a Maker-Breaker Breaker win (R/M nodes, X as Maker). */
static int hold_covered(const char *p)
{
    if (complete(p))
        return 0;
    if (complete_o(p) || board_full(p))
        return 1;
    return find(p, 'H') >= 0 || breaker_covered(p);
}

static void check_H(Node *nd)
{
    char q[MAXC + 1];
    if (complete(nd->pos) || complete_o(nd->pos))
        fail(nd->lineno, "H: a line is already complete");
    int seen[MAXC] = {0};
    char *save, *tok, *rest = strdup(nd->rest);
    for (tok = strtok_r(rest, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save)) {
        char *colon = strchr(tok, ':');
        if (!colon)
            fail(nd->lineno, "H: expected MOVE:REPLY");
        int v = cell_arg(tok, nd->lineno);
        if (nd->pos[v] != '.' || seen[v])
            fail(nd->lineno, "H: X move on a marked cell or listed twice");
        seen[v] = 1;
        strcpy(q, nd->pos);
        q[v] = 'X';
        if (complete(q))
            fail(nd->lineno, "H: an X move completes a line");
        if (colon[1] == '*') {
            if (!board_full(q))
                fail(nd->lineno, "H: '*' but the board is not full");
            continue;
        }
        int b = cell_arg(colon + 1, nd->lineno);
        if (q[b] != '.')
            fail(nd->lineno, "H: O reply on a marked cell");
        q[b] = 'O';
        if (!hold_covered(q))
            fail(nd->lineno, "H: position after a reply is not in the proof");
    }
    free(rest);
    for (int c = 0; c < C; c++)
        if (nd->pos[c] == '.' && !seen[c])
            fail(nd->lineno, "H: an X move is not covered");
}

static void check_D(Node *nd)
{
    char q[MAXC + 1];
    strcpy(q, nd->pos);
    if (complete(q))
        return;
    int any = 0;
    for (int b = 0; b < C; b++) {
        if (q[b] != '.')
            continue;
        any = 1;
        q[b] = 'O';
        if (find(q, 'W') < 0)
            fail(nd->lineno, "D: a Breaker move leads to a position not in the proof");
        q[b] = '.';
    }
    if (!any)
        fail(nd->lineno, "D: board full without a Maker line");
}

/* Version 1: reads the whole proof (the first line already read), then
 * checks every node. */
static int check_v1(FILE *f)
{
    static char buf[1 << 16];
    char claim[16] = "", rootmove = 0, rootpos[MAXC + 2] = "";
    int lineno = 0, ended = 0;
    if (!fgets(buf, sizeof buf, f) || (crc_feed(&crc_run, buf, strlen(buf)), 0) ||
        sscanf(buf, "game %d %d %d", &M, &N, &K) != 3 || M < 1 ||
        N < 1 || K < 1 || K > 32 || M * N > MAXC)
        fail(2, "bad game line");
    C = M * N;
    if (!fgets(buf, sizeof buf, f) || (crc_feed(&crc_run, buf, strlen(buf)), 0) ||
        sscanf(buf, "claim %15s", claim) != 1 ||
        (strcmp(claim, "breaker") && strcmp(claim, "maker") && strcmp(claim, "strong-win") &&
         strcmp(claim, "strong-hold")))
        fail(3, "bad claim line");
    int mode = strcmp(claim, "breaker") == 0 ? 'b' : strcmp(claim, "maker") == 0 ? 'm'
               : strcmp(claim, "strong-win") == 0 ? 'w' : 'h';
    if (!fgets(buf, sizeof buf, f) || (crc_feed(&crc_run, buf, strlen(buf)), 0) ||
        sscanf(buf, "root %c %257s", &rootmove, rootpos) != 2 ||
        (int)strlen(rootpos) != C || (rootmove != 'X' && rootmove != 'O'))
        fail(4, "bad root line");
    expect_header(4, claim, rootmove, rootpos);
    lineno = 4;
    build_lines();
    while (fgets(buf, sizeof buf, f)) {
        lineno++;
        crc_feed(&crc_run, buf, strlen(buf));
        if (strcmp(buf, "end\n") == 0) {
            ended = 1;
            break;
        }
        char t = buf[0];
        if (!strchr("RMBWDAH", t) || buf[1] != ' ' || strlen(buf) < (size_t)C + 2)
            fail(lineno, "bad node line");
        for (int i = 0; i < C; i++)
            if (!strchr(".XO", buf[2 + i]))
                fail(lineno, "bad position");
        if (nnodes == capnodes) {
            capnodes = capnodes ? 2 * capnodes : 1024;
            nodes = realloc(nodes, (size_t)capnodes * sizeof *nodes);
        }
        Node *nd = &nodes[nnodes++];
        nd->type = t;
        nd->pos = strndup(buf + 2, (size_t)C);
        nd->rest = strdup(buf + 2 + C);
        nd->lineno = lineno;
    }
    if (!ended)
        fail(lineno, "missing end line (truncated proof)");
    int sealed = seal_check(lineno + 1, fgets(buf, sizeof buf, f));
    if (sealed && fgets(buf, sizeof buf, f))
        fail(lineno + 2, "text after the seal line");
    fclose(f);
    hcap = 4 * nnodes + 16;
    htab = malloc((size_t)hcap * sizeof *htab);
    for (int i = 0; i < hcap; i++)
        htab[i] = -1;
    for (int i = 0; i < nnodes; i++)
        insert(i);
    const char *allowed = mode == 'b' ? "RMB" : mode == 'm' ? "WD" : mode == 'w' ? "A" : "HRM";
    if ((mode == 'w' || mode == 'h') && rootmove != 'X')
        fail(4, "strong-game proofs have X to move at the root");
    for (int i = 0; i < nnodes; i++) {
        Node *nd = &nodes[i];
        if (!strchr(allowed, nd->type))
            fail(nd->lineno, "node type does not match the claim");
        switch (nd->type) {
        case 'R': check_R(nd); break;
        case 'M': check_M(nd); break;
        case 'B': check_B(nd); break;
        case 'W': check_W(nd); break;
        case 'A': check_A(nd); break;
        case 'H': check_H(nd); break;
        default: check_D(nd); break;
        }
    }
    int root_ok;
    if (mode == 'b')
        root_ok = rootmove == 'X' ? breaker_covered(rootpos) : find(rootpos, 'B') >= 0;
    else if (mode == 'm')
        root_ok = rootmove == 'X' ? find(rootpos, 'W') >= 0 || complete(rootpos)
                                  : find(rootpos, 'D') >= 0 || complete(rootpos);
    else if (mode == 'w')
        root_ok = find(rootpos, 'A') >= 0;
    else
        root_ok = hold_covered(rootpos);
    if (!root_ok)
        fail(4, "the root position is not proven");
    printf("ok: claim %s verified for the %d,%d,%d-game from the root; %d nodes\n", claim, M,
           N, K, nnodes);
    print_root(rootmove, rootpos);
    seal_report(sealed);
    for (int i = 0; i < nnodes; i++) {
        free(nodes[i].pos);
        free(nodes[i].rest);
    }
    free(nodes);
    free(htab);
    return 0;
}

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
static int check_v2(FILE *f)
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

static void usage(void)
{
    fprintf(stderr, "usage: mnk_check [--game M N K] [--claim CLAIM] [--root X|O POSITION] "
                    "PROOF-FILE   (- for standard input; POSITION may be \"empty\")\n");
    exit(2);
}

int main(int argc, char **argv)
{
    int a = 1;
    while (a < argc - 1 && strncmp(argv[a], "--", 2) == 0) {
        if (strcmp(argv[a], "--game") == 0 && a + 4 < argc) {
            want_m = atoi(argv[a + 1]);
            want_n = atoi(argv[a + 2]);
            want_k = atoi(argv[a + 3]);
            if (want_m < 1 || want_n < 1 || want_k < 1)
                usage();
            a += 4;
        } else if (strcmp(argv[a], "--claim") == 0 && a + 2 < argc) {
            want_claim = argv[a + 1];
            a += 2;
        } else if (strcmp(argv[a], "--root") == 0 && a + 3 < argc &&
                   (strcmp(argv[a + 1], "X") == 0 || strcmp(argv[a + 1], "O") == 0)) {
            want_move = argv[a + 1][0];
            want_pos = argv[a + 2];
            a += 3;
        } else {
            usage();
        }
    }
    if (a != argc - 1)
        usage();
    FILE *f = strcmp(argv[a], "-") == 0 ? stdin : fopen(argv[a], "r");
    if (!f) {
        printf("FAIL: cannot open %s\n", argv[a]);
        return 1;
    }
    setvbuf(f, NULL, _IOFBF, 1 << 20); /* a pipe's default buffer is 4 KB */
    crc_init();
    if (f != stdin)
        seal_precheck(f);
    char *buf = NULL;
    size_t cap = 0;
    int ver = 0;
    ssize_t n0 = getline(&buf, &cap, f);
    if (n0 > 0)
        crc_feed(&crc_run, buf, (size_t)n0);
    if (n0 < 0 || sscanf(buf, "mnk-proof %d", &ver) != 1 ||
        (ver != 1 && ver != 2))
        fail(1, "not a version 1 or 2 mnk proof");
    free(buf);
    return ver == 1 ? check_v1(f) : check_v2(f);
}
