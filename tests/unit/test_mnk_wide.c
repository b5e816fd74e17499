/* Unit tests for src/lib/mnk on boards past 64 cells (the 128-bit
 * instance, MNK_WIDE=1, and the 256-bit one, MNK_WIDE=2):
 * random middle games against a plain minimax written here on a char board
 * (no code shared with src/lib/mnk/), node limits, proofs checked by the
 * standalone checker build/oracle/mnk_check (and mutations of one that it
 * must refuse), and a checkpoint of format 4.  CGT_SLOW runs more boards. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/mnk/mnk.h"
#include "unit.h"
#include "lib/util/poll.h"
#include "lib/util/rng.h"

static char checker[1024];

static int solve_threads = 1;

static MnkResult solve(int m, int n, int k, MnkVariant var, const char *const *rows, char tm,
                       MnkReport *rep)
{
    MnkOptions o;
    mnk_options_init(&o);
    o.threads = solve_threads;
    o.variant = var;
    o.rows = rows;
    o.nrows = rows ? n : 0;
    o.to_move = tm;
    CgtError e;
    cgt_error_clear(&e);
    CgtStatus st = mnk_solve(m, n, k, &o, rep, &e);
    CHECK_EQ_INT(st, CGT_OK);
    if (st != CGT_OK)
        fprintf(stderr, "  %d,%d,%d: %s\n", m, n, k, e.msg);
    return rep->result;
}

/* Boards past 64 cells (the 128-bit instance, MNK_WIDE=1, and the
 * 256-bit one, MNK_WIDE=2): random middle games on 9x9, 10x9, 10x10,
 * 11x11, 12x10, 9x8 (k = 4), 15x15, 16x16 and 13x11 with few empty cells,
 * both variants and both players to move, against a plain minimax written
 * here on a char board (no table: the naive oracle above keys positions by
 * a base-3 number that overflows past 40 cells).  Cells are filled in a
 * random order, X and O alternately, skipping a cell that would complete a
 * line, until `empty` cells are left. */
static int wm, wn, wk;
static char wb[256];

static int w_line_at(int cell, char who)
{
    static const int d[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
    int x = cell % wm, y = cell / wm;
    for (int i = 0; i < 4; i++) {
        int run = 1;
        for (int s = -1; s <= 1; s += 2)
            for (int j = 1; j < wk; j++) {
                int xx = x + s * d[i][0] * j, yy = y + s * d[i][1] * j;
                if (xx < 0 || xx >= wm || yy < 0 || yy >= wn || wb[yy * wm + xx] != who)
                    break;
                run++;
            }
        if (run >= wk)
            return 1;
    }
    return 0;
}

static int w_value(int xturn, int strong)
{
    int best = xturn ? -1 : 1, any = 0;
    for (int i = 0; i < wm * wn && best != (xturn ? 1 : -1); i++) {
        if (wb[i] != '.')
            continue;
        any = 1;
        char who = xturn ? 'X' : 'O';
        wb[i] = who;
        int v = w_line_at(i, who) && (xturn || strong) ? (xturn ? 1 : -1)
                                                        : w_value(!xturn, strong);
        wb[i] = '.';
        if (xturn ? v > best : v < best)
            best = v;
    }
    return any ? best : strong ? 0 : -1;
}

/* A random middle game of the m x n board in wb: the marks alternate X, O,
 * X, ... on random cells, no mark completing a line of its owner, until
 * `empty` cells are left.  Returns 0 if the board filled up first. */
static int random_middle(Rng *rng, int m, int n, int k, int empty)
{
    int cells = m * n, order[256], placed = 0;
    wm = m, wn = n, wk = k;
    for (int c = 0; c < cells; c++) {
        order[c] = c;
        wb[c] = '.';
    }
    for (int c = cells - 1; c > 0; c--) {
        int j = (int)rng_below(rng, (uint64_t)c + 1), tmp = order[c];
        order[c] = order[j];
        order[j] = tmp;
    }
    for (int c = 0; c < cells && placed < cells - empty; c++) {
        char who = placed % 2 ? 'O' : 'X';
        wb[order[c]] = who;
        if (w_line_at(order[c], who))
            wb[order[c]] = '.';
        else
            placed++;
    }
    return placed == cells - empty;
}

static void test_wide(int count)
{
    static const int g[][3] = {{9, 9, 5},  {10, 9, 5},  {10, 10, 5}, {11, 11, 5}, {12, 10, 5},
                               {9, 8, 4},  {15, 15, 5}, {16, 16, 5}, {13, 11, 5}};
    int ng = (int)(sizeof g / sizeof g[0]);
    Rng rng;
    rng_seed(&rng, 17);
    int mism = 0, tested = 0;
    for (int t = 0; t < count; t++) {
        int m = g[t % ng][0], n = g[t % ng][1], k = g[t % ng][2];
        if (!random_middle(&rng, m, n, k, 7 + (int)rng_below(&rng, 3)))
            continue;
        char rows[16][17];
        const char *rp[16];
        for (int r = 0; r < n; r++) {
            for (int c = 0; c < m; c++)
                rows[r][c] = wb[(n - 1 - r) * m + c];
            rows[r][m] = '\0';
            rp[r] = rows[r];
        }
        for (int xturn = 0; xturn < 2; xturn++)
            for (int strong = 0; strong < 2; strong++) {
                int v = w_value(xturn, strong);
                MnkResult want = !strong ? (v > 0 ? MNK_RESULT_MAKER : MNK_RESULT_BREAKER)
                                 : v > 0 ? MNK_RESULT_FIRST
                                 : v < 0 ? MNK_RESULT_SECOND : MNK_RESULT_DRAW;
                MnkReport r;
                MnkResult got = solve(m, n, k, strong ? MNK_STRONG : MNK_MAKER_BREAKER, rp,
                                      xturn ? 'X' : 'O', &r);
                tested++;
                if (got != want) {
                    mism++;
                    fprintf(stderr, "  wide mismatch %d,%d,%d %s %c to move: %d, minimax %d\n",
                            m, n, k, strong ? "strong" : "mb", xturn ? 'X' : 'O', got, want);
                }
                /* Maker to move on 2 and 3 threads (src/lib/mnk/mnk_par.c; the wide
                 * table under its mutex): the same result */
                for (solve_threads = 2; !strong && xturn && solve_threads <= 3;
                     solve_threads++) {
                    got = solve(m, n, k, MNK_MAKER_BREAKER, rp, 'X', &r);
                    if (got != want) {
                        mism++;
                        fprintf(stderr, "  wide mismatch %d,%d,%d mb on %d threads: %d, "
                                "minimax %d\n", m, n, k, solve_threads, got, want);
                    }
                }
                solve_threads = 1;
            }
    }
    CHECK_EQ_INT(mism, 0);
    CHECK(tested >= count * 2);
    /* the empty 9x9 board: a node limit gives a labelled partial result, and
     * proofs and checkpoints are refused with a clear error */
    MnkOptions o;
    mnk_options_init(&o);
    o.node_limit = 2000;
    MnkReport r;
    CgtError e;
    cgt_error_clear(&e);
    CHECK_EQ_INT(mnk_solve(9, 9, 5, &o, &r, &e), CGT_ERR_LIMIT);
    CHECK(strstr(e.msg, "node limit") != NULL);
    CHECK(r.nodes >= 2000);
    o.threads = 2;
    CHECK_EQ_INT(mnk_solve(10, 10, 5, &o, &r, &e), CGT_ERR_LIMIT);
    o.threads = 1;
    CHECK_EQ_INT(mnk_solve(17, 16, 5, &o, &r, &e), CGT_ERR_DOMAIN);
    CHECK(strstr(e.msg, "limit of 256") != NULL);
    /* 15x15 (the 256-bit instance, in a thread of its own) and 12x11 (132
     * cells) stop at the node limit with a labelled partial result, one and
     * two threads */
    o.node_limit = 400;
    for (int th = 1; th <= 2; th++) {
        o.threads = th;
        CHECK_EQ_INT(mnk_solve(15, 15, 5, &o, &r, &e), CGT_ERR_LIMIT);
        CHECK(strstr(e.msg, "node limit of 400") != NULL);
        CHECK(r.nodes >= 400);
        CHECK_EQ_INT(mnk_solve(12, 11, 5, &o, &r, &e), CGT_ERR_LIMIT);
    }
    o.threads = 1;
    /* 9,9,5 Maker-Breaker with a potential-closed root: k = 9 on 9x9 */
    o.node_limit = 0;
    CHECK_EQ_INT(mnk_solve(9, 9, 9, &o, &r, &e), CGT_OK);
    CHECK_EQ_INT(r.result, MNK_RESULT_BREAKER);
}

/* Proofs on boards past 64 cells: random Maker-Breaker middle
 * games on 9x8, 11x11 and 15x15 (both players to move; the result against
 * the minimax above), each proof accepted by the independent checker; on
 * one of them the checker refuses the proof for another root, a flipped
 * byte (the seal), and the same flip with the seal line removed (the rule
 * it breaks); and a checkpoint of a wide board resumes. */
static int wide_proof_check(const char *path, const char *opts)
{
    char cmd[2400];
    snprintf(cmd, sizeof cmd, "%s %s %s > /dev/null 2>&1", checker, opts, path);
    return system(cmd);
}

static void test_wide_proofs(int count)
{
    static const int g[][3] = {{9, 8, 5}, {11, 11, 5}, {15, 15, 5}};
    Rng rng;
    rng_seed(&rng, 1717);
    char path[512];
    unit_tmp_path(path, sizeof path, "wide.proof");
    int proved = 0;
    for (int t = 0; t < count; t++) {
        int m = g[t % 3][0], n = g[t % 3][1], k = g[t % 3][2], cells = m * n;
        if (!random_middle(&rng, m, n, k, 8 + (int)rng_below(&rng, 3)))
            continue;
        char rows[16][17], root[257];
        const char *rp[16];
        for (int r = 0; r < n; r++) {
            for (int c = 0; c < m; c++)
                rows[r][c] = wb[(n - 1 - r) * m + c];
            rows[r][m] = '\0';
            rp[r] = rows[r];
        }
        memcpy(root, wb, (size_t)cells);
        root[cells] = '\0';
        for (int xturn = 0; xturn < 2; xturn++) {
            int v = w_value(xturn, 0);
            MnkOptions o;
            mnk_options_init(&o);
            o.rows = rp;
            o.nrows = n;
            o.to_move = xturn ? 'X' : 'O';
            o.proof_path = path;
            MnkReport r;
            CgtError e;
            cgt_error_clear(&e);
            CHECK_EQ_INT(mnk_solve(m, n, k, &o, &r, &e), CGT_OK);
            CHECK_EQ_INT(r.result, v > 0 ? MNK_RESULT_MAKER : MNK_RESULT_BREAKER);
            char opts[400];
            snprintf(opts, sizeof opts, "--game %d %d %d --root %c %s", m, n, k,
                     xturn ? 'X' : 'O', root);
            int rc = wide_proof_check(path, opts);
            CHECK_EQ_INT(rc, 0);
            proved += rc == 0;
        }
    }
    CHECK(proved >= count);
    /* mutations of the proof of a 9x8 middle game (a Breaker win, 0.5 s) */
    static const char *const b98[] = {"X.O.X.O.X", "..OX..X..", ".X..O...O", "O..X.X.O.",
                                      "..O...X..", "X..O..O.X", "..X..O...", "O....X..O"};
    MnkOptions o;
    mnk_options_init(&o);
    o.rows = b98;
    o.nrows = 8;
    o.proof_path = path;
    MnkReport r;
    CgtError e;
    cgt_error_clear(&e);
    char root[73];
    for (int c = 0; c < 72; c++)
        root[c] = b98[7 - c / 9][c % 9];
    root[72] = '\0';
    char opts[400];
    snprintf(opts, sizeof opts, "--game 9 8 5 --claim breaker --root X %s", root);
    /* first after a search on two threads (src/lib/mnk/mnk_par.c, the 128-bit
     * table under its mutex): the checker accepts that proof too */
    for (o.threads = 2; o.threads >= 1; o.threads--) {
        CHECK_EQ_INT(mnk_solve(9, 8, 5, &o, &r, &e), CGT_OK);
        CHECK_EQ_INT(r.result, MNK_RESULT_BREAKER);
        CHECK_EQ_INT(wide_proof_check(path, opts), 0);
    }
    o.threads = 1;
    /* another root: X on a cell that is empty in the real root */
    *strchr(root, '.') = 'X';
    snprintf(opts, sizeof opts, "--root X %s", root);
    CHECK(wide_proof_check(path, opts) != 0);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    if (!f)
        return;
    fseek(f, 0, SEEK_END);
    size_t len = (size_t)ftell(f);
    rewind(f);
    char *text = malloc(len + 1);
    CHECK(text != NULL && fread(text, 1, len, f) == len);
    fclose(f);
    if (!text)
        return;
    text[len] = '\0';
    /* the first Maker move of the first M node marked X in its position:
     * refused by the seal, and without the seal line by the M rule */
    char *pos = strstr(text, "\nM "), *mv = pos ? strchr(pos + 3, ' ') : NULL;
    CHECK(mv != NULL && strchr(mv, ':') != NULL);
    if (mv) {
        pos += 3;
        int cell = atoi(strchr(mv, ':') + 1);
        CHECK(pos[cell] == '.');
        pos[cell] = 'X';
        f = fopen(path, "w");
        if (f) {
            fwrite(text, 1, len, f);
            fclose(f);
        }
        char cmd[2400];
        snprintf(cmd, sizeof cmd, "%s %s 2>&1 | grep -q 'CRC-64 seal does not match'", checker,
                 path);
        CHECK_EQ_INT(system(cmd), 0);
        char *seal = strstr(text, "\ncrc64 ");
        CHECK(seal != NULL);
        if (seal)
            seal[1] = '\0';
        f = fopen(path, "w");
        if (f) {
            fputs(text, f);
            fclose(f);
        }
        snprintf(cmd, sizeof cmd, "%s %s 2>&1 | grep -q 'M: Maker move on a non-empty cell'",
                 checker, path);
        CHECK_EQ_INT(system(cmd), 0);
    }
    free(text);
    remove(path);
    /* a checkpoint of a 15x15 search (format 4) resumes */
    unit_tmp_path(path, sizeof path, "wide.ckpt");
    remove(path);
    mnk_options_init(&o);
    o.checkpoint = path;
    o.node_limit = 300;
    CHECK_EQ_INT(mnk_solve(15, 15, 5, &o, &r, &e), CGT_ERR_LIMIT);
    uint64_t first = r.tt_entries;
    f = fopen(path, "r");
    char head[64] = "";
    CHECK(f != NULL && fgets(head, sizeof head, f) != NULL);
    if (f)
        fclose(f);
    CHECK(strcmp(head, "cgt-mnk-tt 4\n") == 0);
    o.node_limit = 600;
    CHECK_EQ_INT(mnk_solve(15, 15, 5, &o, &r, &e), CGT_ERR_LIMIT);
    CHECK(r.tt_entries > first);
    /* the 64-cell instance refuses it */
    CHECK_EQ_INT(mnk_solve(8, 8, 5, &o, &r, &e), CGT_ERR_IO);
    remove(path);
}

int main(int argc, char **argv)
{
    (void)argc;
    const char *slash = strrchr(argv[0], '/');
    int dl = slash ? (int)(slash - argv[0]) : 1;
    snprintf(checker, sizeof checker, "%.*s/../oracle/mnk_check", dl, slash ? argv[0] : ".");
    int slow = getenv("CGT_SLOW") != NULL;
    double t0 = cgt_now();
/* MNK_TEST_TIMES=1 prints the time after each group (for keeping the tier fast). */
#define STEP(x)                                                                                   \
    do {                                                                                          \
        x;                                                                                        \
        if (getenv("MNK_TEST_TIMES"))                                                             \
            fprintf(stderr, "%-30s %.2f s, %.2f s CPU\n", #x, cgt_now() - t0,                     \
                    (double)clock() / CLOCKS_PER_SEC);                                            \
    } while (0)
    CHECK(access(checker, X_OK) == 0);
    STEP(test_wide(slow ? 120 : 18));
    STEP(test_wide_proofs(slow ? 30 : 3));
    UNIT_MAIN_END();
}
