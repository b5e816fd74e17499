/* Independent m,n,k proof checker, version 1 of the format (docs/mnk.md
 * "Proof files"): nodes looked up by position.  See tests/oracle/mnk_check.c. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

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
int check_v1(FILE *f)
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

