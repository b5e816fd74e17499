/* Independent checker for m,n,k proof files (format in docs/mnk.md).  It
 * shares no code with src/lib/mnk/: it rebuilds the k-lines, recomputes every
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

#include "mnk_check/common.h"

int M, N, K, C, NL;
int lcell[MAXL][MAXC];


int fail(int lineno, const char *why)
{
    printf("FAIL: line %d: %s\n", lineno, why);
    exit(1);
}

/* The seal (docs/mnk.md "Proof files"): cgt ends a proof with the line
 * "crc64 HEX", the CRC-64/XZ (ECMA-182 polynomial, reflected, initial value
 * and final xor all ones) of every byte before it.  The checker computes it
 * with its own code over every byte it reads; a proof without the line
 * (written before seals) is checked all the same, with a warning. */
static uint64_t crc_tab[256];
uint64_t crc_run = ~(uint64_t)0;

static void crc_init(void)
{
    for (int i = 0; i < 256; i++) {
        uint64_t c = (uint64_t)i;
        for (int j = 0; j < 8; j++)
            c = c & 1 ? c >> 1 ^ 0xc96c5795d7870f42ULL : c >> 1;
        crc_tab[i] = c;
    }
}

void crc_feed(uint64_t *crc, const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        *crc = crc_tab[(*crc ^ (unsigned char)p[i]) & 255] ^ *crc >> 8;
}

/* After the end line: the optional seal line, then nothing.  Returns 1 if
 * sealed (and the CRC matches), 0 if unsealed; fails otherwise. */
int seal_check(int lineno, const char *line)
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

void seal_report(int sealed)
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

void expect_header(int lineno, const char *claim, char rootmove, const char *rootpos)
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
void print_root(char rootmove, const char *rootpos)
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

/* The image of cell (row r, column c) under symmetry s: bit 0 mirrors the
 * columns, bit 1 the rows, bit 2 then swaps the coordinates (squares only). */
int sym_cell(int s, int r, int c)
{
    int x = s & 1 ? M - 1 - c : c, y = s & 2 ? N - 1 - r : r;
    if (s & 4) {
        int t = x;
        x = y;
        y = t;
    }
    return y * M + x;
}

void build_lines(void)
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
