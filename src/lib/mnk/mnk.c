/* m,n,k-game solver (Hsu et al., TCS 815 (2020), docs/mnk.md): the public API of
 * src/lib/mnk/mnk.h, board parsing, the root of the Maker-Breaker and strong
 * searches and the root workers (threads).  The search itself, pairings,
 * geometry and table, proofs and checkpoints are in the other games/mnk_*.c
 * files (list in src/lib/mnk/mnk_int.h).  All state lives in a Solver object made
 * and freed inside mnk_solve. */
#include "lib/mnk/mnk_int.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/util/atomicfile.h"
#include "lib/util/hash.h"
#include "lib/util/poll.h"
#include "lib/util/rng.h"
#include "lib/util/sha256.h"
#include "lib/util/xalloc.h"

/* ------------------------------------------------------------------ public */

#ifndef MNK_WIDE
void mnk_options_init(MnkOptions *o)
{
    memset(o, 0, sizeof *o);
    o->variant = MNK_MAKER_BREAKER;
    o->threads = 1;
    o->checkpoint_every = MNK_CHECKPOINT_EVERY;
}

/* The smallest instance that holds an m x n board: 64 bits (this one),
 * 128 (MNK_WIDE=1) or 256 (MNK_WIDE=2); errors go to this one. */
static int board_bits(int m, int n)
{
    long c = m >= 1 && n >= 1 ? (long)m * n : 0;
    return c <= MNK_CELLS || c > MNK_MAX_BOARD ? 64 : c <= 128 ? 128 : 256;
}

typedef struct Wide4Call {
    int m, n, k;
    const MnkOptions *opt;
    MnkReport *rep;
    CgtError *err;
    CgtStatus st;
} Wide4Call;

static void *wide4_run(void *arg)
{
    Wide4Call *c = arg;
    c->st = mnkx_solve_inst(c->m, c->n, c->k, c->opt, c->rep, c->err);
    return NULL;
}

CgtStatus mnk_solve(int m, int n, int k, const MnkOptions *opt, MnkReport *rep, CgtError *err)
{
    int bits = board_bits(m, n);
    if (bits == 64)
        return mnk_solve_inst(m, n, k, opt, rep, err);
    if (bits == 128)
        return mnkw_solve_inst(m, n, k, opt, rep, err);
    Wide4Call c = {m, n, k, opt, rep, err, CGT_OK};
    pthread_attr_t attr;
    pthread_t tid;
    bool ok = pthread_attr_init(&attr) == 0;
    ok = ok && pthread_attr_setstacksize(&attr, MNK_WIDE4_STACK) == 0 &&
         pthread_create(&tid, &attr, wide4_run, &c) == 0;
    pthread_attr_destroy(&attr);
    if (!ok) {
        memset(rep, 0, sizeof *rep);
        return cgt_error_set(err, CGT_ERR_INTERNAL, "mnk could not start the search thread "
                             "of a %dx%d board", m, n);
    }
    pthread_join(tid, NULL);
    return c.st;
}

CgtStatus mnk_potential(int m, int n, int k, const char *const *rows, int nrows, long *out,
                        CgtError *err)
{
    int bits = board_bits(m, n);
    return bits == 128   ? mnkw_potential_inst(m, n, k, rows, nrows, out, err)
           : bits == 256 ? mnkx_potential_inst(m, n, k, rows, nrows, out, err)
                         : mnk_potential_inst(m, n, k, rows, nrows, out, err);
}
#endif

static CgtStatus parse_board(int m, int n, int k, const char *const *rows, int nrows,
                             Bits *x, Bits *o, CgtError *err)
{
    if (m < 1 || n < 1 || k < 1)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "mnk needs m, n, k >= 1 (got %d, %d, %d)",
                             m, n, k);
    if (k > MNK_MAX_K) {
        cgt_error_set(err, CGT_ERR_DOMAIN, "mnk k = %d is larger than the limit of %d", k,
                      MNK_MAX_K);
        cgt_error_hint(err, "potentials 2^k are kept in 64-bit integers");
        return CGT_ERR_DOMAIN;
    }
    if ((long)m * n > MNK_MAX_BOARD) {
        cgt_error_set(err, CGT_ERR_DOMAIN, "mnk board %dx%d has %ld cells, more than the "
                      "limit of %d", m, n, (long)m * n, MNK_MAX_BOARD);
        cgt_error_hint(err, "boards of up to %d cells (16x16) are searched",
                       MNK_MAX_BOARD);
        return CGT_ERR_DOMAIN;
    }
    *x = *o = BITS0;
    if (!rows)
        return CGT_OK;
    if (nrows != n)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "mnk board has %d rows, expected n = %d",
                             nrows, n);
    for (int i = 0; i < n; i++) {
        if ((int)strlen(rows[i]) != m)
            return cgt_error_set(err, CGT_ERR_DOMAIN, "mnk board row %d has %d cells, "
                                 "expected m = %d", i + 1, (int)strlen(rows[i]), m);
        int r = n - 1 - i;
        for (int c = 0; c < m; c++) {
            char ch = rows[i][c];
            Bits bit = BIT((r * m + c));
            if (ch == 'X' || ch == 'x')
                *x |= bit;
            else if (ch == 'O' || ch == 'o')
                *o |= bit;
            else if (ch != '.') {
                cgt_error_set(err, CGT_ERR_DOMAIN, "mnk board row %d has '%c'", i + 1, ch);
                cgt_error_hint(err, "use '.' for empty, 'X' for Maker, 'O' for Breaker");
                return CGT_ERR_DOMAIN;
            }
        }
    }
    return CGT_OK;
}

CgtStatus mnk_potential_inst(int m, int n, int k, const char *const *rows, int nrows,
                             long *out, CgtError *err)
{
    Bits x, o;
    CgtStatus st = parse_board(m, n, k, rows, nrows, &x, &o, err);
    if (st != CGT_OK)
        return st;
    Geo g;
    mnk_geo_init(&g, m, n, k);
    Eval e;
    mnk_evaluate(&g, x, o, false, &e);
    *out = e.pot;
    mnk_geo_free(&g);
    return CGT_OK;
}

static void solver_finish(Solver *s, MnkReport *rep)
{
    rep->nodes = s->nodes;
    rep->tt_hits = s->hits;
    rep->tt_entries = s->tt->used;
    rep->seconds = cgt_now() - s->t0;
}

/* Root of the Maker-Breaker game: result, method, pairing and first-move table. */
static void solve_mb_root(Solver *s, Bits x, Bits o, bool maker_to_move, int threads,
                          MnkReport *rep)
{
    const Geo *g = &s->g;
    Eval e;
    mnk_evaluate(g, x, o, false, &e);
    if (e.complete) {
        rep->result = MNK_RESULT_MAKER;
        rep->method = MNK_BY_TERMINAL;
        return;
    }
    if (!maker_to_move) {
        int reply = -1;
        bool b = mnk_mb_breaker_node(s, x, o, &reply, NULL);
        rep->result = b ? MNK_RESULT_BREAKER : MNK_RESULT_MAKER;
        rep->method = e.pot < (1L << g->k) ? MNK_BY_POTENTIAL
                      : bits_pc(e.threats) >= 2 ? MNK_BY_TERMINAL : MNK_BY_SEARCH;
        rep->win_move = b ? reply : -1;
        return;
    }
    if (!bits_any(e.live_cells)) {
        rep->result = MNK_RESULT_BREAKER;
        rep->method = MNK_BY_TERMINAL;
        return;
    }
    if (bits_any(e.threats)) {
        rep->result = MNK_RESULT_MAKER;
        rep->method = MNK_BY_TERMINAL;
        rep->win_move = bits_ctz(e.threats);
        return;
    }
    PairSearch ps;
    int rootreply[MNK_CELLS];
    for (int c = 0; c < MNK_CELLS; c++)
        rootreply[c] = -1;
    rep->max_after = -1;
    long maxw = mnk_max_weight(&e);
    rep->max_after = e.pot + maxw;
    int move = -1;
    bool bw;
    if (e.pot + maxw < (1L << g->k)) {
        bw = true;
        rep->method = MNK_BY_POTENTIAL;
    } else if (mnk_find_pairing(g, x, o, &ps, PAIR_DEEP)) {
        bw = true;
        rep->method = MNK_BY_PAIRING;
        rep->npairs = ps.npairs;
        memcpy(rep->pairs, ps.pairs, sizeof(int) * 2 * (size_t)ps.npairs);
    } else {
        bw = mnk_root_search(s, x, o, threads, &move, rootreply);
        rep->method = MNK_BY_SEARCH;
    }
    if (s->st != CGT_OK)
        return;
    rep->result = bw ? MNK_RESULT_BREAKER : MNK_RESULT_MAKER;
    rep->win_move = bw ? -1 : move;
    if (!bw)
        return;
    for (Bits b = g->full & ~x & ~o; bits_any(b); b = bits_drop(b)) {
        int v = bits_ctz(b);
        MnkMove *mm = &rep->moves[rep->nmoves++];
        mm->cell = v;
        mm->reply = -1;
        Eval e2;
        mnk_evaluate(g, x | BIT(v), o, false, &e2);
        if (e2.pot < (1L << g->k))
            continue;
        int partner = -1;
        for (int i = 0; i < rep->npairs; i++)
            if (rep->pairs[i][0] == v || rep->pairs[i][1] == v)
                partner = rep->pairs[i][0] ^ rep->pairs[i][1] ^ v;
        if (partner >= 0) {
            mm->reply = partner;
            continue;
        }
        /* a reply proven in the root's reduced position holds in the root
         * position too (Theorem 1: Breaker answers inside V_pair by pairs) */
        if (rootreply[v] >= 0) {
            mm->reply = rootreply[v];
            continue;
        }
        mnk_mb_breaker_node(s, x | BIT(v), o, &mm->reply, NULL);
        if (s->st != CGT_OK)
            return;
    }
}

static void solve_strong_root(Solver *s, Bits x, Bits o, bool x_to_move,
                              MnkReport *rep)
{
    rep->method = MNK_BY_SEARCH;
    rep->win_move = -1;
    Bits thr;
    bool cx, co;
    mnk_threats_of(&s->g, x, o, &thr, &cx);
    mnk_threats_of(&s->g, o, x, &thr, &co);
    if (cx && co) {
        s->st = cgt_error_set(s->err, CGT_ERR_DOMAIN, "mnk start position has a completed "
                              "line for both players");
        return;
    }
    if (cx || co) {
        rep->method = MNK_BY_TERMINAL;
        rep->result = cx ? MNK_RESULT_FIRST : MNK_RESULT_SECOND;
        return;
    }
    Bits mover = x_to_move ? x : o, other = x_to_move ? o : x;
    int move = -1;
    if (mnk_strong_att(s, mover, other, &move)) {
        rep->result = x_to_move ? MNK_RESULT_FIRST : MNK_RESULT_SECOND;
        rep->win_move = move;
        return;
    }
    if (s->st != CGT_OK)
        return;
    /* From the empty board the second player cannot win (strategy
     * stealing, Hsu et al. sec. 1); from other positions search it. */
    if (!bits_any(x | o)) {
        rep->result = MNK_RESULT_DRAW;
        return;
    }
    bool w = mnk_strong_def(s, other, mover);
    rep->result = !w ? MNK_RESULT_DRAW : x_to_move ? MNK_RESULT_SECOND : MNK_RESULT_FIRST;
}

CgtStatus mnk_solve_inst(int m, int n, int k, const MnkOptions *opt, MnkReport *rep,
                         CgtError *err)
{
    memset(rep, 0, sizeof *rep);
    rep->win_move = -1;
    rep->max_after = -1;
    Bits x, o;
    CgtStatus st = parse_board(m, n, k, opt->rows, opt->nrows, &x, &o, err);
    if (st != CGT_OK)
        return st;
    if (opt->threads < 0 || opt->threads > MNK_MAX_THREADS)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "mnk threads must be 1 to %d (got %d)",
                             MNK_MAX_THREADS, opt->threads);
    if (opt->to_move && opt->to_move != 'X' && opt->to_move != 'O')
        return cgt_error_set(err, CGT_ERR_DOMAIN, "mnk player to move must be X or O");
    bool x_to_move = opt->to_move ? opt->to_move == 'X'
                                  : bits_pc(x) <= bits_pc(o);
    if (opt->proof_path && opt->variant == MNK_STRONG && !x_to_move)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "mnk strong-game proofs need X to move");
    rep->m = m;
    rep->n = n;
    rep->k = k;
    rep->variant = opt->variant;
    rep->to_move = x_to_move ? 'X' : 'O';
    Solver s;
    memset(&s, 0, sizeof s);
    Tt table;
    s.tt = &table;
    mnk_geo_init(&s.g, m, n, k);
    mnk_tt_init(s.tt);
    if (opt->table_mb > 0) {
        /* 18 bytes per slot on boards of 64 cells: key, zone, value, work */
        double slots = opt->table_mb * 1048576.0 / (10.0 + (double)sizeof(Bits));
        size_t cap = 1u << 10;
        while ((double)cap * 2 <= slots)
            cap *= 2;
        s.tt->max_cap = cap;
        if (cap < s.tt->cap) {
            mnk_tt_free(s.tt);
            mnk_tt_alloc(s.tt, cap);
        }
    }
    s.err = err;
    s.node_limit = opt->node_limit;
    s.time_limit = opt->time_limit;
    s.ckpt = opt->checkpoint;
    s.ckpt_every = opt->checkpoint_every;
    s.t0 = cgt_now();
    s.is_main = true;
    s.zones = !opt->no_zones;
    {
        /* 24 bytes per slot on boards of 64 cells (key, node number, zone),
         * two generations */
        double mb = opt->proof_map_mb > 0 ? opt->proof_map_mb : MNK_PROOF_MAP_MB;
        size_t cap = 1u << 8;
        while ((double)cap * 2 * (16.0 + (double)sizeof(Bits)) <= mb * 1048576.0)
            cap *= 2;
        s.proof_map_cap = cap;
    }
    s.next_ckpt = s.t0 + s.ckpt_every;
    bool ckpt_ok = false; /* the file was read (or is absent) and can be replaced */
    if (s.ckpt) {
        s.st = mnk_load_checkpoint(&s);
        if (s.st == CGT_OK && af_probe(s.ckpt, "checkpoint", err) != CGT_OK)
            s.st = CGT_ERR_IO;
        ckpt_ok = s.st == CGT_OK;
        rep->ckpt_read = ckpt_ok ? s.ckpt_on_disk : 0;
    }
    Eval e;
    mnk_evaluate(&s.g, x, o, false, &e);
    rep->root_potential = e.pot;
    if (s.st == CGT_OK) {
        if (opt->variant == MNK_MAKER_BREAKER)
            solve_mb_root(&s, x, o, x_to_move, opt->threads > 1 ? opt->threads : 1, rep);
        else
            solve_strong_root(&s, x, o, x_to_move, rep);
    }
#ifndef MNK_WIDE
    /* threads and the empty board, Maker to move: one job proof per class
     * of first moves, written by the threads and merged (mnk_pproof.c) */
    if (s.st == CGT_OK && opt->proof_path && opt->threads > 1 &&
        opt->variant == MNK_MAKER_BREAKER && x_to_move && !bits_any(x | o) &&
        rep->result == MNK_RESULT_BREAKER && rep->method == MNK_BY_SEARCH)
        s.st = mnk_write_proof_par(&s, opt->proof_path, opt->threads, opt->stop_after_parts,
                                   &rep->proof_lines);
    else
#endif
    if (s.st == CGT_OK && opt->proof_path)
        s.st = mnk_write_proof(&s, opt->proof_path, x, o, x_to_move,
                               rep->result == MNK_RESULT_BREAKER,
                               opt->variant == MNK_MAKER_BREAKER ? 'M'
                               : rep->result == MNK_RESULT_FIRST ? 'A' : 'H',
                               &rep->proof_lines);
    if (s.st == CGT_ERR_INTERNAL && rep->ckpt_read > 0 && opt->proof_path) {
        /* the proof writer found a position proven in the table that it
           cannot prove: with positions read from a checkpoint (taken as
           proven, not searched again) the file is the likely cause, and a
           damaged file must not pass for a bug of cgt (docs/errors.md) */
        char what[sizeof err->msg];
        snprintf(what, sizeof what, "%s", err->msg);
        cgt_error_set(err, CGT_ERR_IO, "%s, after the search took %llu positions of "
                      "checkpoint '%s' as proven: the file is damaged or was altered", what,
                      (unsigned long long)rep->ckpt_read, s.ckpt);
        cgt_error_hint(err, "move the checkpoint away to search afresh");
        s.st = CGT_ERR_IO;
    }
    rep->proof_map_rotations = s.proof_rotations;
    if (s.st == CGT_OK && opt->proof_path && !opt->sha_later &&
        sha256_file_hex(opt->proof_path, rep->proof_sha256) != 0)
        s.st = cgt_error_set(err, CGT_ERR_IO, "mnk proof '%s' written but cannot be read back",
                             opt->proof_path);
    if (ckpt_ok && (s.st == CGT_OK || s.st == CGT_ERR_LIMIT || s.st == CGT_ERR_INTERRUPTED)) {
        CgtError e2;
        cgt_error_clear(&e2);
        Solver *sp = &s;
        CgtError *keep = sp->err;
        sp->err = &e2;
        CgtStatus sst = mnk_save_checkpoint(sp);
        if (sst == CGT_OK && sp->ckpt_skipped) {
            sst = cgt_error_set(&e2, CGT_ERR_IO, "checkpoint '%s' not replaced: the table now "
                                "holds fewer proven positions than the file's %zu",
                                s.ckpt, s.ckpt_on_disk);
            cgt_error_hint(&e2, "entries were dropped to stay within table_mb; raise it");
        }
        if (sst != CGT_OK && s.st == CGT_OK) {
            /* the result is complete: keep it, and report why it was not saved */
            *err = e2;
            s.st = CGT_ERR_IO;
            rep->unsaved = true;
        }
        sp->err = keep;
    }
    solver_finish(&s, rep);
    mnk_tt_free(s.tt);
    mnk_geo_free(&s.g);
    return s.st;
}

#ifndef MNK_WIDE
char *mnk_cell_name(int m, int cell, char *buf)
{
    int row = (cell / m + 1) % 100; /* at most MNK_MAX_BOARD cells */
    snprintf(buf, 8, "%c%d", 'A' + cell % m, row);
    return buf;
}

char *mnk_pairing_board(const MnkReport *rep, const char *const *rows)
{
    int m = rep->m, n = rep->n;
    char *s = xmalloc((size_t)(m + 1) * (size_t)n + 1);
    for (int i = 0; i < n; i++) {
        for (int c = 0; c < m; c++)
            s[i * (m + 1) + c] = rows ? (char)(rows[i][c] == 'x' ? 'X' : rows[i][c] == 'o'
                                                                     ? 'O' : rows[i][c])
                                      : '.';
        s[i * (m + 1) + m] = '\n';
    }
    s[(m + 1) * n] = '\0';
    static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    for (int p = 0; p < rep->npairs; p++)
        for (int j = 0; j < 2; j++) {
            int cell = rep->pairs[p][j];
            int r = n - 1 - cell / m, c = cell % m;
            s[r * (m + 1) + c] = letters[p % 52];
        }
    return s;
}

const char *mnk_result_name(MnkResult r)
{
    static const char *const names[] = {"maker", "breaker", "first", "second", "draw"};
    return names[r];
}

const char *mnk_method_name(MnkMethod m)
{
    static const char *const names[] = {"terminal", "potential", "pairing", "search"};
    return names[m];
}

const char *mnk_variant_name(MnkVariant v)
{
    return v == MNK_STRONG ? "strong" : "maker-breaker";
}
#endif
