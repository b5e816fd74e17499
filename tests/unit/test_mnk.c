/* Unit tests for src/lib/mnk: published values (Hsu et al., "Solving
 * 7,7,5-game and 8,8,5-game", TCS 815 (2020); docs/mnk.md), the paper's
 * potential numbers, a naive minimax written here (no
 * code shared with src/lib/mnk/) on small boards and random middle games, proof
 * files verified by the standalone checker build/oracle/mnk_check, errors,
 * limits, checkpoints and relevance zones (search with and without zones
 * against the minimax, zone-derived replies checked by the minimax).
 * CGT_SLOW adds 7,7,5 with its proof checked. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/mnk/mnk.h"
#include "lib/mnk/mnk_run.h"
#include "unit.h"
#include "lib/util/poll.h"
#include "lib/util/rng.h"

/* ----------------------------------------------------- naive minimax oracle */

static int nm_m, nm_n, nm_k, nm_strong;
static char nm_b[64];
static uint64_t *nm_key;
static signed char *nm_val;
static size_t nm_cap, nm_used;

static int nm_line(char who)
{
    static const int d[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
    for (int y = 0; y < nm_n; y++)
        for (int x = 0; x < nm_m; x++)
            for (int i = 0; i < 4; i++) {
                int j;
                for (j = 0; j < nm_k; j++) {
                    int yy = y + d[i][1] * j, xx = x + d[i][0] * j;
                    if (yy < 0 || yy >= nm_n || xx >= nm_m || nm_b[yy * nm_m + xx] != who)
                        break;
                }
                if (j == nm_k)
                    return 1;
            }
    return 0;
}

static void nm_grow(void)
{
    uint64_t *ok = nm_key;
    signed char *ov = nm_val;
    size_t oc = nm_cap;
    nm_cap *= 2;
    nm_key = calloc(nm_cap, sizeof *nm_key);
    nm_val = calloc(nm_cap, 1);
    for (size_t i = 0; i < oc; i++) {
        if (!ok[i])
            continue;
        size_t h = (size_t)(ok[i] * 0x9e3779b97f4a7c15ULL >> 20) & (nm_cap - 1);
        while (nm_key[h])
            h = (h + 1) & (nm_cap - 1);
        nm_key[h] = ok[i];
        nm_val[h] = ov[i];
    }
    free(ok);
    free(ov);
}

/* +1: X (Maker) wins, -1: O wins (Breaker in Maker-Breaker), 0: draw. */
static int nm_value(int xturn)
{
    if (nm_line('X'))
        return 1;
    if (nm_strong && nm_line('O'))
        return -1;
    uint64_t key = (uint64_t)xturn + 1;
    int free_cells = 0;
    for (int i = 0; i < nm_m * nm_n; i++) {
        key = key * 3 + (nm_b[i] == 'X' ? 1 : nm_b[i] == 'O' ? 2 : 0);
        free_cells += nm_b[i] == '.';
    }
    if (!free_cells)
        return nm_strong ? 0 : -1;
    size_t h = (size_t)(key * 0x9e3779b97f4a7c15ULL >> 20) & (nm_cap - 1);
    while (nm_key[h]) {
        if (nm_key[h] == key)
            return nm_val[h];
        h = (h + 1) & (nm_cap - 1);
    }
    int best = xturn ? -1 : 1;
    for (int i = 0; i < nm_m * nm_n; i++) {
        if (nm_b[i] != '.')
            continue;
        nm_b[i] = xturn ? 'X' : 'O';
        int v = nm_value(!xturn);
        nm_b[i] = '.';
        if (xturn ? v > best : v < best)
            best = v;
        if (best == (xturn ? 1 : -1))
            break;
    }
    if (2 * ++nm_used > nm_cap)
        nm_grow();
    h = (size_t)(key * 0x9e3779b97f4a7c15ULL >> 20) & (nm_cap - 1);
    while (nm_key[h])
        h = (h + 1) & (nm_cap - 1);
    nm_key[h] = key;
    nm_val[h] = (signed char)best;
    return best;
}

/* rows: top row first, as for mnk_solve. */
static int naive(int m, int n, int k, int strong, const char *const *rows, int xturn)
{
    nm_m = m;
    nm_n = n;
    nm_k = k;
    nm_strong = strong;
    nm_cap = 1u << 10;
    nm_used = 0;
    nm_key = calloc(nm_cap, sizeof *nm_key);
    nm_val = calloc(nm_cap, 1);
    for (int i = 0; i < m * n; i++)
        nm_b[i] = '.';
    if (rows)
        for (int r = 0; r < n; r++)
            for (int c = 0; c < m; c++)
                nm_b[(n - 1 - r) * m + c] = rows[r][c];
    int v = nm_value(xturn);
    free(nm_key);
    free(nm_val);
    return v;
}

/* ------------------------------------------------------------------ helpers */

static MnkResult solve(int m, int n, int k, MnkVariant var, const char *const *rows, char tm,
                       MnkReport *rep)
{
    MnkOptions o;
    mnk_options_init(&o);
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

static char checker[1024];

static int run_checker(const char *path)
{
    char cmd[2300];
    snprintf(cmd, sizeof cmd, "%s %s > /dev/null", checker, path);
    return system(cmd);
}

static void prove_and_check_v(int m, int n, int k, MnkVariant var, const char *const *rows,
                              char tm, MnkResult expect)
{
    char path[512], name[64];
    snprintf(name, sizeof name, "%d%d%d.proof", m, n, k);
    unit_tmp_path(path, sizeof path, name);
    MnkOptions o;
    mnk_options_init(&o);
    o.variant = var;
    o.rows = rows;
    o.nrows = rows ? n : 0;
    o.to_move = tm;
    o.proof_path = path;
    MnkReport rep;
    CgtError e;
    cgt_error_clear(&e);
    CHECK_EQ_INT(mnk_solve(m, n, k, &o, &rep, &e), CGT_OK);
    CHECK_EQ_INT(rep.result, expect);
    CHECK(rep.proof_lines > 0 || rep.method == MNK_BY_POTENTIAL);
    int rc = run_checker(path);
    CHECK_EQ_INT(rc, 0);
    if (rc)
        fprintf(stderr, "  proof of %d,%d,%d rejected (%s)\n", m, n, k, path);
    else
        remove(path);
}

static void prove_and_check(int m, int n, int k, const char *const *rows, char tm,
                            MnkResult expect)
{
    prove_and_check_v(m, n, k, MNK_MAKER_BREAKER, rows, tm, expect);
}

/* -------------------------------------------------------------------- tests */

static void test_published_mb(void)
{
    /* Hsu et al.: Maker-Breaker values. */
    static const int maker[][3] = {{3, 3, 3}, {4, 3, 3}, {4, 4, 3}, {5, 5, 4}};
    static const int breaker[][3] = {{4, 4, 4}, {5, 4, 4}, {5, 5, 5}, {6, 6, 5}};
    MnkReport r;
    for (int i = 0; i < 4; i++)
        CHECK_EQ_INT(solve(maker[i][0], maker[i][1], maker[i][2], MNK_MAKER_BREAKER, NULL, 0, &r),
                     MNK_RESULT_MAKER);
    for (int i = 0; i < 4; i++)
        CHECK_EQ_INT(solve(breaker[i][0], breaker[i][1], breaker[i][2], MNK_MAKER_BREAKER, NULL,
                           0, &r),
                     MNK_RESULT_BREAKER);
    /* Hsu et al. sec. 2.3: 4,4,4 and 5,5,5 fall to Property 1 at the root. */
    solve(4, 4, 4, MNK_MAKER_BREAKER, NULL, 0, &r);
    CHECK_EQ_INT(r.method, MNK_BY_POTENTIAL);
    CHECK_EQ_INT(r.max_after, 13);
    CHECK_EQ_INT(r.nmoves, 16);
    for (int i = 0; i < r.nmoves; i++)
        CHECK_EQ_INT(r.moves[i].reply, -1);
    solve(5, 5, 5, MNK_MAKER_BREAKER, NULL, 0, &r);
    CHECK_EQ_INT(r.method, MNK_BY_POTENTIAL);
    CHECK_EQ_INT(r.max_after, 16);
}

static void test_potential(void)
{
    /* Fig. 2(a): Maker on C3 of 5,5,5 gives 16; Fig. 2(b): 13 is the max on 4,4,4. */
    static const char *const c3[] = {".....", ".....", "..X..", ".....", "....."};
    long p = 0;
    CgtError e;
    cgt_error_clear(&e);
    CHECK_EQ_INT(mnk_potential(5, 5, 5, c3, 5, &p, &e), CGT_OK);
    CHECK_EQ_INT(p, 16);
    long best = 0;
    for (int cell = 0; cell < 16; cell++) {
        char rows[4][5];
        const char *rp[4];
        for (int r = 0; r < 4; r++) {
            memcpy(rows[r], "....", 5);
            rp[r] = rows[r];
        }
        rows[cell / 4][cell % 4] = 'X';
        mnk_potential(4, 4, 4, rp, 4, &p, &e);
        if (p > best)
            best = p;
    }
    CHECK_EQ_INT(best, 13);
    CHECK_EQ_INT(mnk_potential(4, 4, 4, NULL, 0, &p, &e), CGT_OK);
    CHECK_EQ_INT(p, 10);
}

static void test_published_strong(void)
{
    static const struct {
        int m, n, k;
        MnkResult r;
    } cases[] = {{3, 3, 3, MNK_RESULT_DRAW},  {4, 3, 3, MNK_RESULT_FIRST},
                 {4, 4, 3, MNK_RESULT_FIRST}, {4, 4, 4, MNK_RESULT_DRAW},
                 {5, 4, 4, MNK_RESULT_DRAW},  {5, 5, 4, MNK_RESULT_DRAW},
                 {6, 5, 4, MNK_RESULT_FIRST}};
    MnkReport r;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK_EQ_INT(solve(cases[i].m, cases[i].n, cases[i].k, MNK_STRONG, NULL, 0, &r),
                     cases[i].r);
}

static void test_naive_small(void)
{
    /* Whole small games against the naive minimax. */
    static const int g[][3] = {{3, 3, 3}, {4, 3, 3}, {3, 4, 3}, {4, 3, 4}, {2, 2, 2},
                               {3, 3, 2}, {3, 2, 3}, {1, 4, 4}, {6, 2, 3}, {2, 5, 2}};
    MnkReport r;
    for (size_t i = 0; i < sizeof g / sizeof g[0]; i++) {
        int m = g[i][0], n = g[i][1], k = g[i][2];
        int v = naive(m, n, k, 0, NULL, 1);
        CHECK_EQ_INT(solve(m, n, k, MNK_MAKER_BREAKER, NULL, 0, &r),
                     v > 0 ? MNK_RESULT_MAKER : MNK_RESULT_BREAKER);
        v = naive(m, n, k, 1, NULL, 1);
        CHECK_EQ_INT(solve(m, n, k, MNK_STRONG, NULL, 0, &r),
                     v > 0 ? MNK_RESULT_FIRST : v < 0 ? MNK_RESULT_SECOND : MNK_RESULT_DRAW);
    }
}

/* A random m x n board (rows top first, as the solver reads them) with
 * `stones` marks placed alternately X, O, ...; also loaded into the naive
 * solver's board.  False when a player already has a line of k. */
static bool random_board(Rng *rng, int m, int n, int k, int stones, char rows[8][9],
                         const char *rp[8])
{
    for (int r = 0; r < n; r++) {
        memset(rows[r], '.', (size_t)m);
        rows[r][m] = '\0';
        rp[r] = rows[r];
    }
    for (int s = 0; s < stones; s++) {
        int c;
        do
            c = (int)rng_below(rng, (uint64_t)(m * n));
        while (rows[c / m][c % m] != '.');
        rows[c / m][c % m] = s % 2 ? 'O' : 'X';
    }
    nm_m = m;
    nm_n = n;
    nm_k = k;
    for (int i = 0; i < m * n; i++)
        nm_b[i] = rows[n - 1 - i / m][i % m];
    return !nm_line('X') && !nm_line('O');
}

/* Random middle games: place stones at random (no finished line), compare
 * both variants and both players to move with the naive minimax. */
static void test_naive_random(int count)
{
    static const int g[][4] = {{5, 5, 4, 14}, {6, 5, 4, 19}, {5, 4, 4, 9}, {6, 6, 5, 25},
                               {4, 4, 3, 6}, {7, 5, 5, 24}};
    Rng rng;
    rng_seed(&rng, 2026);
    int mism = 0;
    for (int t = 0; t < count; t++) {
        const int *gg = g[t % 6];
        int m = gg[0], n = gg[1], k = gg[2], stones = gg[3] + (int)rng_below(&rng, 3);
        char rows[8][9];
        const char *rp[8];
        if (!random_board(&rng, m, n, k, stones, rows, rp))
            continue;
        for (int xturn = 0; xturn < 2; xturn++) {
            MnkReport r;
            int v = naive(m, n, k, 0, rp, xturn);
            MnkResult want = v > 0 ? MNK_RESULT_MAKER : MNK_RESULT_BREAKER;
            if (solve(m, n, k, MNK_MAKER_BREAKER, rp, xturn ? 'X' : 'O', &r) != want)
                mism++;
            v = naive(m, n, k, 1, rp, xturn);
            want = v > 0 ? MNK_RESULT_FIRST : v < 0 ? MNK_RESULT_SECOND : MNK_RESULT_DRAW;
            if (solve(m, n, k, MNK_STRONG, rp, xturn ? 'X' : 'O', &r) != want) {
                mism++;
                fprintf(stderr, "  strong mismatch %d,%d,%d %c to move:\n", m, n, k,
                        xturn ? 'X' : 'O');
                for (int i = 0; i < n; i++)
                    fprintf(stderr, "    %s\n", rows[i]);
            }
        }
    }
    CHECK_EQ_INT(mism, 0);
}

/* Relevance zones (src/lib/mnk/mnk.c): on random Maker-to-move middle games the
 * search with zones, the search without them (no_zones) and the naive
 * minimax agree, and when Breaker wins, every reply of the first-move table
 * (many of them taken from a zone, not searched) is checked by the naive
 * minimax: after Maker's move and that reply Breaker still wins. */
static void test_zones(int count)
{
    static const int g[][4] = {{5, 5, 4, 12}, {6, 5, 4, 17}, {4, 4, 4, 5}, {6, 6, 5, 24},
                               {7, 5, 5, 23}};
    Rng rng;
    rng_seed(&rng, 551);
    int mism = 0, replies = 0, tested = 0;
    for (int t = 0; t < count; t++) {
        const int *gg = g[t % 5];
        int m = gg[0], n = gg[1], k = gg[2], stones = 2 * (gg[3] / 2 + (int)rng_below(&rng, 2));
        char rows[8][9];
        const char *rp[8];
        if (!random_board(&rng, m, n, k, stones, rows, rp))
            continue;
        tested++;
        MnkOptions o;
        mnk_options_init(&o);
        o.rows = rp;
        o.nrows = n;
        o.to_move = 'X';
        MnkReport rz, rn;
        CgtError e;
        cgt_error_clear(&e);
        CHECK_EQ_INT(mnk_solve(m, n, k, &o, &rz, &e), CGT_OK);
        o.no_zones = true;
        CHECK_EQ_INT(mnk_solve(m, n, k, &o, &rn, &e), CGT_OK);
        MnkResult want = naive(m, n, k, 0, rp, 1) > 0 ? MNK_RESULT_MAKER : MNK_RESULT_BREAKER;
        /* Breaker to move: Maker-win zones prune Breaker's replies */
        MnkResult wantb = naive(m, n, k, 0, rp, 0) > 0 ? MNK_RESULT_MAKER : MNK_RESULT_BREAKER;
        MnkReport rb;
        o.to_move = 'O';
        o.no_zones = false;
        CHECK_EQ_INT(mnk_solve(m, n, k, &o, &rb, &e), CGT_OK);
        if (rb.result != wantb)
            mism++;
        if (rz.result != want || rn.result != want) {
            mism++;
            fprintf(stderr, "  zone mismatch %d,%d,%d:\n", m, n, k);
            for (int i = 0; i < n; i++)
                fprintf(stderr, "    %s\n", rows[i]);
            continue;
        }
        for (int i = 0; i < rz.nmoves; i++) {
            int v = rz.moves[i].cell, b = rz.moves[i].reply;
            int vr = n - 1 - v / m, vc = v % m;
            rows[vr][vc] = 'X';
            int val;
            if (b >= 0) {
                int br = n - 1 - b / m, bc = b % m;
                CHECK(rows[br][bc] == '.');
                rows[br][bc] = 'O';
                val = naive(m, n, k, 0, rp, 1);
                rows[br][bc] = '.';
            } else {
                val = naive(m, n, k, 0, rp, 0);
            }
            rows[vr][vc] = '.';
            replies++;
            if (val > 0) {
                mism++;
                fprintf(stderr, "  %d,%d,%d: reply %d to Maker's %d loses\n", m, n, k, b, v);
            }
        }
    }
    CHECK_EQ_INT(mism, 0);
    CHECK(tested > count / 2);
    CHECK(replies > 0);
}

/* Root pairings (Hsu et al. Fig. 1): whenever the solver reports one, check
 * it directly: disjoint empty cells, every line without an O holds both
 * cells of a pair, and the lettered board shows each letter twice. */
static int pairing_valid(const MnkReport *r, const char *const *rows)
{
    int m = r->m, n = r->n, k = r->k;
    char b[64];
    for (int i = 0; i < m * n; i++)
        b[i] = rows[n - 1 - i / m][i % m];
    int owner[64];
    for (int i = 0; i < 64; i++)
        owner[i] = -1;
    for (int p = 0; p < r->npairs; p++)
        for (int j = 0; j < 2; j++) {
            int c = r->pairs[p][j];
            if (c < 0 || c >= m * n || b[c] != '.' || owner[c] >= 0)
                return 0;
            owner[c] = p;
        }
    static const int d[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
    for (int y = 0; y < n; y++)
        for (int x = 0; x < m; x++)
            for (int i = 0; i < 4; i++) {
                int cells[16], j, blocked = 0;
                for (j = 0; j < k; j++) {
                    int yy = y + d[i][1] * j, xx = x + d[i][0] * j;
                    if (yy < 0 || yy >= n || xx >= m)
                        break;
                    cells[j] = yy * m + xx;
                    blocked |= b[cells[j]] == 'O';
                }
                if (j < k || blocked)
                    continue;
                int ok = 0;
                for (int a = 0; a < k; a++)
                    for (int c = a + 1; c < k; c++)
                        if (owner[cells[a]] >= 0 && owner[cells[a]] == owner[cells[c]])
                            ok = 1;
                if (!ok)
                    return 0;
            }
    char *board = mnk_pairing_board(r, rows);
    int good = (int)strlen(board) == (m + 1) * n;
    for (int p = 0; p < r->npairs; p++) {
        char letter = "abcdefghijklmnopqrstuvwxyz"[p % 26];
        if (p >= 26)
            letter = (char)('A' + p - 26);
        good &= (int)(strchr(board, letter) != NULL);
    }
    free(board);
    return good;
}

static void test_pairing_board(void)
{
    int seen = 0, bad = 0;
    static const int xs[] = {0, 7, 14};
    for (int g = 0; g < 2; g++) {
        int m = g ? 6 : 5, n = m, k = 5;
        for (int xi = 0; xi < 3; xi++)
            for (int oc = 0; oc < m * n; oc++) {
                if (oc == xs[xi])
                    continue;
                char rows[6][7];
                const char *rp[6];
                for (int r = 0; r < n; r++) {
                    memset(rows[r], '.', (size_t)m);
                    rows[r][m] = '\0';
                    rp[r] = rows[r];
                }
                rows[n - 1 - xs[xi] / m][xs[xi] % m] = 'X';
                rows[n - 1 - oc / m][oc % m] = 'O';
                MnkReport r;
                solve(m, n, k, MNK_MAKER_BREAKER, rp, 'X', &r);
                if (r.method == MNK_BY_PAIRING) {
                    seen++;
                    bad += !pairing_valid(&r, rp);
                    CHECK_EQ_INT(r.result, MNK_RESULT_BREAKER);
                }
            }
    }
    CHECK(seen > 0);
    CHECK_EQ_INT(bad, 0);
}

static void test_errors(void)
{
    MnkOptions o;
    mnk_options_init(&o);
    MnkReport r;
    CgtError e;
    cgt_error_clear(&e);
    CHECK_EQ_INT(mnk_solve(17, 16, 5, &o, &r, &e), CGT_ERR_DOMAIN);
    CHECK(strstr(e.msg, "272 cells") != NULL);
    CHECK_EQ_INT(mnk_solve(0, 3, 3, &o, &r, &e), CGT_ERR_DOMAIN);
    CHECK_EQ_INT(mnk_solve(1, 40, 33, &o, &r, &e), CGT_ERR_DOMAIN);
    /* no k-line fits: Breaker wins at once; k = 1: Maker wins at once */
    CHECK_EQ_INT(mnk_solve(3, 3, 4, &o, &r, &e), CGT_OK);
    CHECK_EQ_INT(r.result, MNK_RESULT_BREAKER);
    CHECK_EQ_INT(mnk_solve(8, 8, 1, &o, &r, &e), CGT_OK);
    CHECK_EQ_INT(r.result, MNK_RESULT_MAKER);
    o.variant = MNK_STRONG;
    CHECK_EQ_INT(mnk_solve(8, 8, 1, &o, &r, &e), CGT_OK);
    CHECK_EQ_INT(r.result, MNK_RESULT_FIRST);
    static const char *const both[] = {"XXX", "OOO", "..."};
    o.rows = both;
    o.nrows = 3;
    CHECK_EQ_INT(mnk_solve(3, 3, 3, &o, &r, &e), CGT_ERR_DOMAIN);
    char never[512];
    unit_tmp_path(never, sizeof never, "never-written.proof");
    o.proof_path = never;
    o.rows = NULL;
    o.to_move = 'O';
    CHECK_EQ_INT(mnk_solve(3, 3, 3, &o, &r, &e), CGT_ERR_DOMAIN);
    mnk_options_init(&o);
    static const char *const bad[] = {"...", ".Z.", "..."};
    o.rows = bad;
    o.nrows = 3;
    CHECK_EQ_INT(mnk_solve(3, 3, 3, &o, &r, &e), CGT_ERR_DOMAIN);
    o.nrows = 2;
    CHECK_EQ_INT(mnk_solve(3, 3, 3, &o, &r, &e), CGT_ERR_DOMAIN);
    mnk_options_init(&o);
    o.node_limit = 100;
    CHECK_EQ_INT(mnk_solve(7, 7, 5, &o, &r, &e), CGT_ERR_LIMIT);
    CHECK(strstr(e.msg, "node limit") != NULL);
    mnk_options_init(&o);
    o.threads = 99;
    CHECK_EQ_INT(mnk_solve(3, 3, 3, &o, &r, &e), CGT_ERR_DOMAIN);
}

/* Two and three threads share the search (src/lib/mnk/mnk_par.c): the results
 * must not change. */
static void test_threads(void)
{
    static const int g[][3] = {{5, 5, 4}, {7, 6, 5}, {5, 4, 4}, {4, 4, 3}, {6, 6, 5}};
    for (size_t i = 0; i < sizeof g / sizeof g[0]; i++) {
        MnkOptions o;
        mnk_options_init(&o);
        MnkReport one, two;
        CgtError e;
        cgt_error_clear(&e);
        CHECK_EQ_INT(mnk_solve(g[i][0], g[i][1], g[i][2], &o, &one, &e), CGT_OK);
        for (o.threads = 2; o.threads <= 3; o.threads++) {
            CHECK_EQ_INT(mnk_solve(g[i][0], g[i][1], g[i][2], &o, &two, &e), CGT_OK);
            CHECK_EQ_INT(one.result, two.result);
            CHECK_EQ_INT(one.win_move >= 0, two.win_move >= 0);
        }
    }
    MnkOptions o;
    mnk_options_init(&o);
    o.threads = 2;
    o.node_limit = 300;
    MnkReport r;
    CgtError e;
    cgt_error_clear(&e);
    CHECK_EQ_INT(mnk_solve(7, 7, 5, &o, &r, &e), CGT_ERR_LIMIT);
    CHECK(strstr(e.msg, "node limit") != NULL);
    /* The shared table's arrays are replaced while the other workers read
     * it without a lock (with a table of 0.1 MB, on 3 workers, the cheap
     * entries are dropped again and again): the same result and every
     * root move answered. */
    for (int t = 2; t <= 3; t++) {
        mnk_options_init(&o);
        o.threads = t;
        o.table_mb = t == 3 ? 0.1 : 0; /* 4096 slots: entries dropped at 2048 */
        CHECK_EQ_INT(mnk_solve(7, 7, 5, &o, &r, &e), CGT_OK);
        CHECK_EQ_INT(r.result, MNK_RESULT_BREAKER);
        CHECK_EQ_INT(r.nmoves, 49);
        int answered = 0;
        for (int i = 0; i < r.nmoves; i++)
            answered += r.moves[i].reply >= 0;
        CHECK_EQ_INT(answered, 49);
        CHECK(t == 2 || r.tt_entries <= 2048);
    }
    /* Maker wins on threads: the worker that finds the win stops the
     * others, and the winning move it reports (which may differ from one
     * thread's) wins: one thread proves Maker wins after it, O to move */
    static const char *const mid[] = {"O......", ".......", ".......", "...X...", "...X...",
                                      ".......", "......O"};
    for (int t = 1; t <= 3; t++) {
        mnk_options_init(&o);
        o.threads = t;
        o.rows = mid;
        o.nrows = 7;
        CHECK_EQ_INT(mnk_solve(7, 7, 5, &o, &r, &e), CGT_OK);
        CHECK_EQ_INT(r.result, MNK_RESULT_MAKER);
        CHECK(r.win_move >= 0 && r.win_move < 49);
        int row = 6 - r.win_move / 7, col = r.win_move % 7;
        char after[7][8];
        const char *ap[7];
        for (int i = 0; i < 7; i++) {
            memcpy(after[i], mid[i], 8);
            ap[i] = after[i];
        }
        CHECK(after[row][col] == '.');
        after[row][col] = 'X';
        MnkOptions o1;
        mnk_options_init(&o1);
        o1.rows = ap;
        o1.nrows = 7;
        MnkReport r1;
        CHECK_EQ_INT(mnk_solve(7, 7, 5, &o1, &r1, &e), CGT_OK);
        CHECK_EQ_INT(r1.to_move, 'O');
        CHECK_EQ_INT(r1.result, MNK_RESULT_MAKER);
    }
}

static void test_checkpoint(void)
{
    char path[512];
    unit_tmp_path(path, sizeof path, "mnk.ckpt");
    remove(path);
    MnkOptions o;
    mnk_options_init(&o);
    o.checkpoint = path;
    o.node_limit = 2000;
    MnkReport r;
    CgtError e;
    cgt_error_clear(&e);
    /* stopped by the node limit: the table (with zones) is saved, and the
     * resumed run starts from it and needs fewer new nodes than a fresh one */
    CHECK_EQ_INT(mnk_solve(8, 6, 5, &o, &r, &e), CGT_ERR_LIMIT);
    CHECK(access(path, R_OK) == 0);
    o.node_limit = 0;
    CHECK_EQ_INT(mnk_solve(8, 6, 5, &o, &r, &e), CGT_OK);
    MnkReport fresh;
    solve(8, 6, 5, MNK_MAKER_BREAKER, NULL, 0, &fresh);
    CHECK_EQ_INT(r.result, fresh.result);
    CHECK_EQ_INT(r.result, MNK_RESULT_BREAKER);
    CHECK(r.nodes < fresh.nodes);
    /* a version 1 file (no zones) is still read */
    FILE *f = fopen(path, "w");
    fputs("cgt-mnk-tt 1\ngame 8 6 5\nentries 1\n0123456789abcdef 1\nend\n", f);
    fclose(f);
    CHECK_EQ_INT(mnk_solve(8, 6, 5, &o, &r, &e), CGT_OK);
    CHECK_EQ_INT(r.result, MNK_RESULT_BREAKER);
    /* a checkpoint of another game is refused */
    CHECK_EQ_INT(mnk_solve(6, 6, 5, &o, &r, &e), CGT_ERR_IO);
    remove(path);
    f = fopen(path, "w");
    fputs("garbage\n", f);
    fclose(f);
    CHECK_EQ_INT(mnk_solve(5, 5, 4, &o, &r, &e), CGT_ERR_IO);
    remove(path);
}

/* A table size limit (table_mb) drops cheap results when full: same
 * results, and the proof written after such a search is still
 * accepted by the checker. */
static void test_table_limit(void)
{
    char path[512];
    unit_tmp_path(path, sizeof path, "lim.proof");
    MnkOptions o;
    mnk_options_init(&o);
    o.table_mb = 0.02; /* 1024 slots */
    o.proof_path = path;
    MnkReport r, fresh;
    CgtError e;
    cgt_error_clear(&e);
    CHECK_EQ_INT(mnk_solve(8, 6, 5, &o, &r, &e), CGT_OK);
    CHECK_EQ_INT(r.result, MNK_RESULT_BREAKER);
    CHECK(r.tt_entries <= 512);
    CHECK_EQ_INT(run_checker(path), 0);
    remove(path);
    o.proof_path = NULL;
    CHECK_EQ_INT(mnk_solve(8, 6, 5, &o, &r, &e), CGT_OK);
    solve(8, 6, 5, MNK_MAKER_BREAKER, NULL, 0, &fresh);
    CHECK(r.tt_entries <= 512);
    CHECK(fresh.tt_entries > 512); /* so entries were dropped */
    o.variant = MNK_STRONG;
    CHECK_EQ_INT(mnk_solve(6, 5, 4, &o, &r, &e), CGT_OK);
    CHECK_EQ_INT(r.result, MNK_RESULT_FIRST);
    /* the proof writer's map of written positions bounded to 256 slots per
     * generation: generations are dropped (a position met again after that
     * is written again) and the proof is still accepted */
    MnkOptions p;
    mnk_options_init(&p);
    p.proof_path = path;
    CHECK_EQ_INT(mnk_solve(7, 6, 5, &p, &fresh, &e), CGT_OK);
    CHECK_EQ_INT(fresh.proof_map_rotations, 0);
    CHECK_EQ_INT(strlen(fresh.proof_sha256), 64);
    p.proof_map_mb = 0.001;
    CHECK_EQ_INT(mnk_solve(7, 6, 5, &p, &r, &e), CGT_OK);
    CHECK(r.proof_map_rotations > 0);
    CHECK(r.proof_lines >= fresh.proof_lines);
    CHECK_EQ_INT(run_checker(path), 0);
    remove(path);
}

/* Proofs of random middle games (both players to move), Breaker wins and
 * Maker wins alike, all accepted by the independent checker: the
 * version-2 writer's zones are only trusted through it. */
static void test_random_proofs(int count)
{
    static const int g[][4] = {{6, 6, 5, 10}, {7, 5, 5, 10}, {6, 5, 4, 8}, {7, 7, 5, 8}};
    Rng rng;
    rng_seed(&rng, 4242);
    char path[512];
    unit_tmp_path(path, sizeof path, "rnd.proof");
    int breaker = 0;
    for (int t = 0; t < count; t++) {
        const int *gg = g[t % 4];
        int m = gg[0], n = gg[1], k = gg[2], stones = 2 * (gg[3] / 2 + (int)rng_below(&rng, 3));
        char rows[8][9];
        const char *rp[8];
        if (!random_board(&rng, m, n, k, stones, rows, rp))
            continue;
        for (int tm = 0; tm < 2; tm++) {
            MnkOptions o;
            mnk_options_init(&o);
            o.rows = rp;
            o.nrows = n;
            o.to_move = tm ? 'O' : 'X';
            o.proof_path = path;
            MnkReport r;
            CgtError e;
            cgt_error_clear(&e);
            CHECK_EQ_INT(mnk_solve(m, n, k, &o, &r, &e), CGT_OK);
            breaker += r.result == MNK_RESULT_BREAKER;
            int rc = run_checker(path);
            CHECK_EQ_INT(rc, 0);
            if (rc) {
                fprintf(stderr, "  proof rejected (%s), %d,%d,%d %c to move:\n", path, m, n, k,
                        o.to_move);
                for (int i = 0; i < n; i++)
                    fprintf(stderr, "    %s\n", rows[i]);
                return;
            }
        }
    }
    CHECK(breaker > 0);
    remove(path);
}

static void test_proofs(int slow)
{
    prove_and_check(3, 3, 3, NULL, 0, MNK_RESULT_MAKER);
    prove_and_check(4, 4, 3, NULL, 0, MNK_RESULT_MAKER);
    prove_and_check(5, 4, 4, NULL, 0, MNK_RESULT_BREAKER);
    prove_and_check(4, 4, 4, NULL, 0, MNK_RESULT_BREAKER);
    prove_and_check(6, 6, 5, NULL, 0, MNK_RESULT_BREAKER);
    prove_and_check(5, 5, 4, NULL, 0, MNK_RESULT_MAKER);
    static const char *const mid[] = {".....", ".X...", "..O..", ".....", "....."};
    prove_and_check(5, 5, 4, mid, 'X', MNK_RESULT_MAKER);
    prove_and_check(5, 4, 4, (const char *const[]){".....", "..X..", ".....", "....."}, 'O',
                    MNK_RESULT_BREAKER);
    /* strong game: strong-win (first player) and strong-hold (draw) claims */
    prove_and_check_v(3, 3, 3, MNK_STRONG, NULL, 0, MNK_RESULT_DRAW);
    prove_and_check_v(4, 3, 3, MNK_STRONG, NULL, 0, MNK_RESULT_FIRST);
    prove_and_check_v(4, 4, 3, MNK_STRONG, NULL, 0, MNK_RESULT_FIRST);
    prove_and_check_v(5, 4, 4, MNK_STRONG, NULL, 0, MNK_RESULT_DRAW);
    prove_and_check_v(5, 5, 4, MNK_STRONG, NULL, 0, MNK_RESULT_DRAW);
    static const char *const smid[] = {".....", ".....", "..X..", ".O...", "....."};
    prove_and_check_v(5, 5, 4, MNK_STRONG, smid, 'X', MNK_RESULT_DRAW);
    if (slow)
        prove_and_check_v(6, 5, 4, MNK_STRONG, NULL, 0, MNK_RESULT_FIRST);
    /* a damaged proof is rejected: drop one node line of 5,4,4 */
    char path[512], path2[530];
    unit_tmp_path(path, sizeof path, "bad.proof");
    snprintf(path2, sizeof path2, "%s.cut", path);
    MnkOptions o;
    mnk_options_init(&o);
    o.proof_path = path;
    MnkReport r;
    CgtError e;
    cgt_error_clear(&e);
    CHECK_EQ_INT(mnk_solve(5, 4, 4, &o, &r, &e), CGT_OK);
    FILE *in = fopen(path, "r"), *out = fopen(path2, "w");
    char line[4096];
    int n = 0, dropped = 0;
    while (fgets(line, sizeof line, in)) {
        if (++n > 5 && !dropped && line[0] == 'M') {
            dropped = 1;
            continue;
        }
        fputs(line, out);
    }
    fclose(in);
    fclose(out);
    CHECK(dropped);
    CHECK(run_checker(path2) != 0);
    remove(path);
    remove(path2);
    if (slow) {
        prove_and_check(7, 7, 5, NULL, 0, MNK_RESULT_BREAKER);
        MnkReport r7;
        CHECK_EQ_INT(solve(7, 7, 5, MNK_MAKER_BREAKER, NULL, 0, &r7), MNK_RESULT_BREAKER);
    }
}

/* Per-job proofs merged into one (src/lib/mnk/mnk_merge.c, the path of the
 * distributed mode): every class of first moves solved on its own with
 * Breaker to move, the proofs merged, and the merged proof of the empty
 * board accepted by the checker, which is told the root (--root X empty).
 * The classes are checked against a count by hand (6x6: 6, 7x7: 10, 8x7:
 * 16).  A missing class or a damaged job proof is refused. */
static void test_merge(int slow)
{
    int rep[MNK_MAX_CELLS];
    CHECK_EQ_INT(mnk_root_classes(6, 6, rep), 6);
    CHECK_EQ_INT(mnk_root_classes(7, 7, rep), 10);
    CHECK_EQ_INT(mnk_root_classes(8, 7, rep), 16);
    CHECK_EQ_INT(mnk_root_classes(3, 3, rep), 3);
    static const int games[][3] = {{6, 6, 5}, {5, 4, 4}, {7, 7, 5}};
    for (int gi = 0; gi < (slow ? 3 : 2); gi++) {
        int m = games[gi][0], n = games[gi][1], k = games[gi][2];
        int nc = mnk_root_classes(m, n, rep);
        MnkJob jobs[MNK_MAX_CELLS];
        char paths[MNK_MAX_CELLS][512], out[512];
        for (int j = 0; j < nc; j++) {
            char name[64];
            snprintf(name, sizeof name, "job%d.proof", j);
            unit_tmp_path(paths[j], sizeof paths[j], name);
            char rows[8][9];
            const char *rp[8];
            for (int r = 0; r < n; r++) {
                for (int c = 0; c < m; c++)
                    rows[r][c] = (n - 1 - r) * m + c == rep[j] ? 'X' : '.';
                rows[r][m] = '\0';
                rp[r] = rows[r];
            }
            MnkOptions o;
            mnk_options_init(&o);
            o.rows = rp;
            o.nrows = n;
            o.proof_path = paths[j];
            MnkReport r;
            CgtError e;
            cgt_error_clear(&e);
            CHECK_EQ_INT(mnk_solve(m, n, k, &o, &r, &e), CGT_OK);
            CHECK_EQ_INT(r.result, MNK_RESULT_BREAKER);
            jobs[j] = (MnkJob){rep[j], paths[j], false};
        }
        unit_tmp_path(out, sizeof out, "merged.proof");
        uint64_t nodes = 0;
        CgtError e;
        cgt_error_clear(&e);
        CHECK_EQ_INT(mnk_merge_proofs(m, n, k, jobs, nc, out, &nodes, &e), CGT_OK);
        CHECK(nodes > 0);
        char cmd[2400];
        snprintf(cmd, sizeof cmd, "%s --game %d %d %d --claim breaker --root X empty %s "
                 ">/dev/null", checker, m, n, k, out);
        CHECK_EQ_INT(system(cmd), 0);
        /* consume: the same file, each job proof removed once merged */
        {
            MnkJob cj[MNK_MAX_CELLS];
            char cpaths[MNK_MAX_CELLS][512], out2[530];
            for (int j = 0; j < nc; j++) {
                char name[64];
                snprintf(name, sizeof name, "job%d.copy", j);
                unit_tmp_path(cpaths[j], sizeof cpaths[j], name);
                snprintf(cmd, sizeof cmd, "cp %s %s", paths[j], cpaths[j]);
                CHECK_EQ_INT(system(cmd), 0);
                cj[j] = (MnkJob){rep[j], cpaths[j], true};
            }
            snprintf(out2, sizeof out2, "%s.2", out);
            uint64_t nodes2 = 0;
            CHECK_EQ_INT(mnk_merge_proofs(m, n, k, cj, nc, out2, &nodes2, &e), CGT_OK);
            CHECK_EQ_INT(nodes2, nodes);
            snprintf(cmd, sizeof cmd, "cmp -s %s %s", out, out2);
            CHECK_EQ_INT(system(cmd), 0);
            for (int j = 0; j < nc; j++)
                CHECK(access(cpaths[j], F_OK) != 0);
            remove(out2);
        }
        /* without the last class the root node cannot be built */
        CHECK_EQ_INT(mnk_merge_proofs(m, n, k, jobs, nc - 1, out, &nodes, &e), CGT_ERR_DOMAIN);
        /* a job's proof of another first move is refused */
        MnkJob swapped = {jobs[0].move, jobs[1].proof, false};
        CHECK_EQ_INT(mnk_merge_proofs(m, n, k, &swapped, 1, out, &nodes, &e), CGT_ERR_IO);
        /* a job proof with one byte changed is refused (its seal) */
        FILE *g = fopen(paths[0], "r+");
        CHECK(g != NULL);
        if (g) {
            fseek(g, 20, SEEK_SET);
            int ch = fgetc(g);
            fseek(g, 20, SEEK_SET);
            fputc(ch == '.' ? 'X' : '.', g);
            fclose(g);
            CHECK_EQ_INT(mnk_merge_proofs(m, n, k, jobs, nc, out, &nodes, &e), CGT_ERR_IO);
            CHECK(strstr(e.msg, "checksum") != NULL || strstr(e.msg, "damaged") != NULL);
            g = fopen(paths[0], "r+");
            if (g) {
                fseek(g, 20, SEEK_SET);
                fputc(ch, g);
                fclose(g);
            }
        }
        /* a job proof cut short is refused */
        FILE *f = fopen(paths[0], "r+");
        CHECK(f != NULL);
        if (f) {
            fseek(f, 0, SEEK_END);
            long len = ftell(f);
            fclose(f);
            CHECK_EQ_INT(truncate(paths[0], len - 4), 0);
        }
        CHECK_EQ_INT(mnk_merge_proofs(m, n, k, jobs, nc, out, &nodes, &e), CGT_ERR_IO);
        for (int j = 0; j < nc; j++)
            remove(paths[j]);
        remove(out);
    }
}

/* ---------------------------------- the driver of `mnk` (src/lib/mnk/mnk_run.h) */

/* A private directory for the driver's files (unit_tmp_dir, unit.h). */
static const char *run_path(const char *name, char *buf, size_t cap)
{
    unit_tmp_path(buf, cap, name);
    return buf;
}

/* The SHA-256 of a file by coreutils' sha256sum (no code shared with
 * src/lib/util/sha256.c), or "" when it cannot be run. */
static void sha256sum_of(const char *path, char hex[65])
{
    hex[0] = '\0';
    char cmd[400];
    snprintf(cmd, sizeof cmd, "sha256sum '%.300s' 2>/dev/null", path);
    FILE *p = popen(cmd, "r");
    if (!p)
        return;
    if (fscanf(p, "%64s", hex) != 1)
        hex[0] = '\0';
    pclose(p);
}

/* The legality checks of the statement's start position. */
static void test_run_checks(void)
{
    CgtError e;
    cgt_error_clear(&e);
    CHECK_EQ_INT(mnk_check_sides(3, 3, 4, &e), CGT_ERR_DOMAIN);
    CHECK_EQ_STR(e.msg, "k = 4 is larger than both sides of the 3x3 board");
    CHECK(e.hint[0] != '\0');
    CHECK_EQ_INT(mnk_check_sides(5, 2, 4, &e), CGT_OK);
    static const char *const two_x[] = {"XX.", "...", "..."};
    static const char *const one_x[] = {"x..", "...", "..."};
    static const char *const x_o[] = {"X..", ".O.", "..."};
    MnkRunAt at = MNK_AT_RUN;
    CHECK_EQ_INT(mnk_check_position(two_x, 3, 0, &at, &e), CGT_ERR_DOMAIN);
    CHECK_EQ_INT(at, MNK_AT_BOARD);
    CHECK_EQ_STR(e.msg, "impossible position: X has 2 marks and O has 0");
    at = MNK_AT_RUN;
    CHECK_EQ_INT(mnk_check_position(one_x, 3, 'X', &at, &e), CGT_ERR_DOMAIN);
    CHECK_EQ_INT(at, MNK_AT_TO_MOVE);
    CHECK_EQ_STR(e.msg, "impossible position: with 1 X and 0 O marks it is O's turn");
    CHECK_EQ_INT(mnk_check_position(one_x, 3, 'O', &at, &e), CGT_OK);
    CHECK_EQ_INT(mnk_check_position(one_x, 3, 0, &at, &e), CGT_OK);
    CHECK_EQ_INT(mnk_check_position(x_o, 3, 'X', &at, &e), CGT_OK);
    CHECK_EQ_INT(mnk_check_position(x_o, 3, 'O', &at, &e), CGT_ERR_DOMAIN);
}

/* Published values through the driver ([HW]: 4,4,4 a Breaker win closed by
 * Property 1 at the root, 5,5,4 a Maker win); proofs of 3,3,3, of a 4,4,3
 * middle game with O to move and of a strong 4,3,3 checked by the independent checker
 * with the root the driver hands it, the result against the naive
 * minimax, the SHA-256 against sha256sum; a checker that rejects or
 * cannot be run fails the run with the proof kept. */
static void test_run_published(void)
{
    MnkOptions o;
    MnkRun *r = calloc(1, sizeof *r);
    mnk_options_init(&o);
    mnk_run(4, 4, 4, &o, NULL, r);
    CHECK_EQ_INT(r->status, MNK_RUN_DONE);
    CHECK_EQ_INT(r->rep.result, MNK_RESULT_BREAKER);
    CHECK_EQ_INT(r->rep.method, MNK_BY_POTENTIAL);
    CHECK(!r->checked && r->verdict == NULL && r->rep.proof_sha256[0] == '\0');
    mnk_run_free(r);
    mnk_run(5, 5, 4, &o, NULL, r);
    CHECK_EQ_INT(r->status, MNK_RUN_DONE);
    CHECK_EQ_INT(r->rep.result, MNK_RESULT_MAKER);
    mnk_run_free(r);

    char pf[300], sum[65];
    run_path("run.proof", pf, sizeof pf);
    o.proof_path = pf;
    mnk_run(3, 3, 3, &o, checker, r);
    CHECK_EQ_INT(r->status, MNK_RUN_DONE);
    CHECK_EQ_INT(r->rep.result, naive(3, 3, 3, 0, NULL, 1) > 0 ? MNK_RESULT_MAKER
                                                                : MNK_RESULT_BREAKER);
    CHECK(r->checked && r->check_status == 0);
    CHECK(r->verdict && strncmp(r->verdict, "ok", 2) == 0);
    CHECK(r->check_root && strstr(r->check_root, "the empty 3x3 board") != NULL);
    CHECK(r->check_seal && strncmp(r->check_seal, "seal: ", 6) == 0);
    sha256sum_of(pf, sum);
    CHECK(sum[0] != '\0');
    CHECK_EQ_STR(r->rep.proof_sha256, sum);
    mnk_run_free(r);

    /* a middle game with O to move: the checker is given this root */
    static const char *const mid[] = {"X..X", ".O..", "..X.", "O..."};
    o.rows = mid;
    o.nrows = 4;
    o.to_move = 'O';
    mnk_run(4, 4, 3, &o, checker, r);
    CHECK_EQ_INT(r->status, MNK_RUN_DONE);
    CHECK_EQ_INT(r->rep.result, naive(4, 4, 3, 0, mid, 0) > 0 ? MNK_RESULT_MAKER
                                                               : MNK_RESULT_BREAKER);
    CHECK(r->check_status == 0 && r->check_root && strstr(r->check_root, "O to move") != NULL);
    mnk_run_free(r);
    o.rows = NULL;
    o.nrows = 0;
    o.to_move = 0;
    o.variant = MNK_STRONG;
    mnk_run(4, 3, 3, &o, checker, r);
    CHECK_EQ_INT(r->status, MNK_RUN_DONE);
    CHECK_EQ_INT(r->rep.result, MNK_RESULT_FIRST);
    CHECK_EQ_INT(r->check_status, 0);
    mnk_run_free(r);
    o.variant = MNK_MAKER_BREAKER;

    mnk_run(3, 3, 3, &o, "/bin/false", r);
    CHECK_EQ_INT(r->status, MNK_RUN_FAILED);
    CHECK_EQ_INT(r->at, MNK_AT_VERIFY);
    CHECK_EQ_INT(r->err.status, CGT_ERR_INTERNAL);
    CHECK_EQ_STR(r->err.msg, "the independent checker rejected the proof: (no output)");
    CHECK(strncmp(r->err.hint, "the proof is kept in ", 21) == 0 && access(pf, R_OK) == 0);
    mnk_run_free(r);
    char missing[300];
    run_path("no-such-checker", missing, sizeof missing);
    mnk_run(3, 3, 3, &o, missing, r);
    CHECK_EQ_INT(r->status, MNK_RUN_FAILED);
    CHECK_EQ_INT(r->at, MNK_AT_VERIFY);
    CHECK_EQ_INT(r->err.status, CGT_ERR_IO);
    CHECK_EQ_INT(r->check_status, -1);
    mnk_run_free(r);
    remove(pf);
    free(r);
}

/* A node limit stops the run (CGT_ERR_LIMIT) after saving the table; the
 * run resumed from that checkpoint gives the straight run's result with
 * fewer nodes.  A checkpoint of another game is refused. */
static void test_run_resume(void)
{
    char ck[300];
    run_path("run.ckpt", ck, sizeof ck);
    MnkOptions o;
    mnk_options_init(&o);
    MnkRun *r = calloc(1, sizeof *r), *s = calloc(1, sizeof *s);
    mnk_run(8, 6, 5, &o, NULL, s);
    CHECK_EQ_INT(s->status, MNK_RUN_DONE);
    CHECK_EQ_INT(s->rep.result, MNK_RESULT_BREAKER);
    o.checkpoint = ck;
    o.node_limit = 2000;
    mnk_run(8, 6, 5, &o, NULL, r);
    CHECK_EQ_INT(r->status, MNK_RUN_FAILED);
    CHECK_EQ_INT(r->err.status, CGT_ERR_LIMIT);
    CHECK(access(ck, R_OK) == 0);
    mnk_run_free(r);
    o.node_limit = 0;
    mnk_run(8, 6, 5, &o, NULL, r);
    CHECK_EQ_INT(r->status, MNK_RUN_DONE);
    CHECK_EQ_INT(r->rep.result, s->rep.result);
    CHECK(r->rep.nodes < s->rep.nodes);
    mnk_run_free(r);
    mnk_run(6, 6, 5, &o, NULL, r);
    CHECK_EQ_INT(r->status, MNK_RUN_FAILED);
    CHECK_EQ_INT(r->err.status, CGT_ERR_IO);
    mnk_run_free(r);
    mnk_run_free(s);
    remove(ck);
    free(r);
    free(s);
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
    STEP(test_published_mb());
    STEP(test_potential());
    STEP(test_published_strong());
    STEP(test_naive_small());
    STEP(test_naive_random(slow ? 300 : 18));
    STEP(test_zones(slow ? 400 : 20));
    STEP(test_pairing_board());
    STEP(test_errors());
    STEP(test_threads());
    STEP(test_checkpoint());
    STEP(test_table_limit());
    CHECK(access(checker, X_OK) == 0);
    STEP(test_proofs(slow));
    STEP(test_random_proofs(slow ? 60 : 16));
    STEP(test_merge(slow));
    STEP(test_run_checks());
    STEP(test_run_published());
    STEP(test_run_resume());
    UNIT_MAIN_END();
}
