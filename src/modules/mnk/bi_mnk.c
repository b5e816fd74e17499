/* The `mnk` statement (docs/mnk.md): Maker-Breaker and strong m,n,k-games.
 * It reads the options, finds the independent checker for `verify`, runs
 * the driver (src/lib/mnk/mnk_run.h: solve, proof hash, checker) and wraps
 * its result as a record, a JSON line or text. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/mnk/mnk.h"
#include "lib/mnk/mnk_run.h"
#include "modules/mnk/module.h"
#include "lib/util/xalloc.h"

static const char *result_phrase(MnkResult r)
{
    const char *n = mnk_result_name(r);
    if (strcmp(n, "maker") == 0)
        return "maker wins";
    if (strcmp(n, "breaker") == 0)
        return "breaker wins";
    if (strcmp(n, "first") == 0)
        return "first player wins";
    if (strcmp(n, "second") == 0)
        return "second player wins";
    return "draw";
}

/* The checker program: $CGT_MNK_CHECK, else oracle/mnk_check next to the
 * running cgt (the build tree), else ../libexec/cgt/mnk_check (installed). */
static bool find_checker(char *out, size_t cap)
{
    const char *env = getenv("CGT_MNK_CHECK");
    if (env && *env) {
        snprintf(out, cap, "%s", env);
        return access(out, X_OK) == 0;
    }
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0)
        return false;
    exe[len] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return false;
    *slash = '\0';
    if (snprintf(out, cap, "%s/oracle/mnk_check", exe) < (int)cap && access(out, X_OK) == 0)
        return true;
    return snprintf(out, cap, "%s/../libexec/cgt/mnk_check", exe) < (int)cap &&
           access(out, X_OK) == 0;
}

/* A board row as cgt read it: marks in upper case (x and o are accepted). */
static char *board_row(const char *row)
{
    char *r = xstrdup(row);
    for (char *p = r; *p; p++)
        if (*p == 'x' || *p == 'o')
            *p = (char)(*p - 'a' + 'A');
    return r;
}

static Value *cell(const MnkReport *rep, int c)
{
    char cb[16];
    return c < 0 ? val_null() : val_str(mnk_cell_name(rep->m, c, cb));
}

/* The record of a solved game (docs/language.md, "Results as records"),
 * for `mnk M N K;` and mnk(M, N, K) alike. */
/* What a search stopped by a limit or an interrupt leaves (e.partial, and
 * the "partial" of the error under --format=json): the game, the work done
 * and why it stopped; no result. */
static Value *mnk_stopped_record(int m, int n, int k, const MnkOptions *o, const MnkReport *rep,
                                 const CgtError *err)
{
    Value *r = val_result("mnk_stopped");
    val_map_set_int(r, "m", m);
    val_map_set_int(r, "n", n);
    val_map_set_int(r, "k", k);
    val_map_set_str(r, "variant", mnk_variant_name(o->variant));
    val_map_set_int(r, "nodes", (int64_t)rep->nodes);
    val_map_set_int(r, "proven", (int64_t)rep->tt_entries);
    val_map_set_int(r, "ms", (int64_t)(rep->seconds * 1000.0 + 0.5));
    val_map_set_str(r, "stopped", err->msg);
    return r;
}

static Value *mnk_record(const MnkReport *rep, const MnkOptions *o, const MnkRun *run)
{
    Value *r = val_result("mnk");
    val_map_set_int(r, "m", rep->m);
    val_map_set_int(r, "n", rep->n);
    val_map_set_int(r, "k", rep->k);
    val_map_set_str(r, "variant", mnk_variant_name(rep->variant));
    char tm[2] = {rep->to_move, 0};
    val_map_set_str(r, "to_move", tm);
    Value *board = val_null();
    if (o->rows) {
        val_unref(board);
        board = val_list();
        for (int i = 0; i < o->nrows; i++)
            val_list_push(board, val_str_own(board_row(o->rows[i])));
    }
    val_map_set(r, "board", board);
    val_map_set_str(r, "result", mnk_result_name(rep->result));
    val_map_set_str(r, "method", mnk_method_name(rep->method));
    val_map_set_int(r, "nodes", (int64_t)rep->nodes);
    val_map_set_int(r, "tt_hits", (int64_t)rep->tt_hits);
    /* cgt has no fractions, so the time is a string and whole ms */
    char secs[32];
    snprintf(secs, sizeof secs, "%.3f", rep->seconds);
    val_map_set_str(r, "seconds", secs);
    val_map_set_int(r, "ms", (int64_t)(rep->seconds * 1000.0 + 0.5));
    val_map_set_int(r, "root_potential", rep->root_potential);
    val_map_set_opt_int(r, "max_after", rep->max_after >= 0, rep->max_after);
    val_map_set(r, "win_move", cell(rep, rep->win_move));
    Value *pl = val_list();
    for (int i = 0; rep->method == MNK_BY_PAIRING && i < rep->npairs; i++) {
        Value *pair = val_list();
        val_list_push(pair, cell(rep, rep->pairs[i][0]));
        val_list_push(pair, cell(rep, rep->pairs[i][1]));
        val_list_push(pl, pair);
    }
    val_map_set(r, "pairing", pl);
    val_map_set(r, "pairing_board", rep->method == MNK_BY_PAIRING
                                        ? val_str_own(mnk_pairing_board(rep, o->rows))
                                        : val_null());
    Value *rl = val_list();
    for (int i = 0; i < rep->nmoves; i++) {
        Value *mv = val_map();
        val_map_set(mv, "move", cell(rep, rep->moves[i].cell));
        val_map_set(mv, "reply", cell(rep, rep->moves[i].reply));
        val_list_push(rl, mv);
    }
    val_map_set(r, "replies", rl);
    val_map_set(r, "proof", o->proof_path ? val_str(o->proof_path) : val_null());
    val_map_set_opt_int(r, "proof_lines", o->proof_path != NULL, (int64_t)rep->proof_lines);
    val_map_set(r, "proof_sha256", o->proof_path ? val_str(rep->proof_sha256) : val_null());
    val_map_set(r, "check", run->verdict ? val_str(run->verdict) : val_null());
    val_map_set(r, "check_root", run->check_root ? val_str(run->check_root) : val_null());
    /* the checker's third line: the proof's seal (docs/mnk.md "Seal") */
    val_map_set(r, "check_seal",
                run->check_seal && strncmp(run->check_seal, "seal: ", 6) == 0
                    ? val_str(run->check_seal)
                    : val_null());
    /* a search resumed from a checkpoint took its positions as proven
       without searching them again: the result says so (docs/mnk.md) */
    Value *fc = val_null();
    if (rep->ckpt_read > 0 && rep->method == MNK_BY_SEARCH) {
        val_unref(fc);
        fc = val_map();
        val_map_set_str(fc, "file", o->checkpoint);
        val_map_set_int(fc, "positions", (int64_t)rep->ckpt_read);
    }
    val_map_set(r, "from_checkpoint", fc);
    return r;
}

static const char *str_or_null(const Value *r, const char *key)
{
    const Value *v = val_map_get(r, key);
    return v && v->kind == VAL_STR ? v->u.str.s : NULL;
}

/* The text of an mnk record. */
void mnk_stopped_text(const Call *c, const Value *r, StrBuf *b)
{
    (void)c;
    sb_printf(b, "mnk %lld,%lld,%lld %s: no result yet, %lld nodes searched, %lld positions "
                 "proven\n",
              (long long)val_field_int(r, "m"), (long long)val_field_int(r, "n"),
              (long long)val_field_int(r, "k"), val_field_str(r, "variant"),
              (long long)val_field_int(r, "nodes"), (long long)val_field_int(r, "proven"));
}

void mnk_text(const Call *c, const Value *r, StrBuf *b)
{
    (void)c;
    const char *res = val_field_str(r, "result");
    MnkResult rr = MNK_RESULT_DRAW;
    for (int x = 0; x <= MNK_RESULT_DRAW; x++)
        if (strcmp(mnk_result_name((MnkResult)x), res) == 0)
            rr = (MnkResult)x;
    sb_printf(b, "mnk %lld,%lld,%lld %s, %s to move: %s (%s)\n", (long long)val_field_int(r, "m"),
              (long long)val_field_int(r, "n"), (long long)val_field_int(r, "k"),
              val_field_str(r, "variant"), val_field_str(r, "to_move"), result_phrase(rr),
              val_field_str(r, "method"));
    const Value *board = val_map_get(r, "board");
    if (board && board->kind == VAL_LIST) {
        /* the start position as it was read, so the user sees what was solved */
        sb_puts(b, "board (top row first):\n");
        for (size_t i = 0; i < board->u.list.len; i++)
            sb_printf(b, "  %s\n", board->u.list.items[i]->u.str.s);
    }
    if (strcmp(val_field_str(r, "method"), mnk_method_name(MNK_BY_POTENTIAL)) == 0) {
        long k = (long)val_field_int(r, "k");
        const Value *ma = val_map_get(r, "max_after");
        if (ma && ma->kind == VAL_INT)
            sb_printf(b, "potential: %lld, max after one Maker move: %lld (2^k = %lu)\n",
                      (long long)val_field_int(r, "root_potential"),
                      (long long)val_field_int(r, "max_after"), 1ul << k);
        else
            sb_printf(b, "potential: %lld (2^k = %lu)\n",
                      (long long)val_field_int(r, "root_potential"), 1ul << k);
    }
    if (str_or_null(r, "win_move"))
        sb_printf(b, "winning move: %s\n", str_or_null(r, "win_move"));
    const char *pb = str_or_null(r, "pairing_board");
    if (pb) {
        sb_puts(b, "pairing:\n");
        for (const char *line = pb; *line;) {
            const char *e = strchr(line, '\n');
            size_t len = e ? (size_t)(e - line) : strlen(line);
            sb_printf(b, "  %.*s\n", (int)len, line);
            line += len + (e ? 1 : 0);
        }
    }
    const Value *rl = val_map_get(r, "replies");
    if (rl && rl->kind == VAL_LIST && rl->u.list.len > 0) {
        sb_puts(b, "replies:\n");
        for (size_t i = 0; i < rl->u.list.len; i++) {
            const Value *mv = rl->u.list.items[i];
            const char *reply = str_or_null(mv, "reply");
            sb_printf(b, "  %s -> %s\n", val_field_str(mv, "move"), reply ? reply : "potential");
        }
    }
    const Value *fc = val_map_get(r, "from_checkpoint");
    if (fc && fc->kind == VAL_MAP)
        sb_printf(b, "from checkpoint '%s': %lld proven positions read, not searched again\n",
                  val_field_str(fc, "file"), (long long)val_field_int(fc, "positions"));
    if (str_or_null(r, "proof"))
        sb_printf(b, "proof: %s (%lld lines, sha256 %s)\n", str_or_null(r, "proof"),
                  (long long)val_field_int(r, "proof_lines"), val_field_str(r, "proof_sha256"));
    static const char *const checks[] = {"check", "check_root", "check_seal"};
    for (int i = 0; i < 3; i++)
        if (str_or_null(r, checks[i]))
            sb_printf(b, "check: %s\n", str_or_null(r, checks[i]));
}

static Value *mnk_stmt(Call *c)
{
    int64_t m, n, k;
    if (!call_int(c, c->args[0], c->arg_locs[0], "m (columns)", 1, 64, &m) ||
        !call_int(c, c->args[1], c->arg_locs[1], "n (rows)", 1, 64, &n) ||
        !call_int(c, c->args[2], c->arg_locs[2], "k", 1, 64, &k))
        return NULL;
    CgtError err;
    cgt_error_clear(&err);
    if (mnk_check_sides((int)m, (int)n, (int)k, &err) != CGT_OK)
        return rt_error_from(c->I, c->arg_locs[2], &err);
    MnkOptions o;
    mnk_options_init(&o);
    {
        /* tests/scripts/mnk_verify.sh: a stop while the proof is written */
        const char *sa = getenv("CGT_TEST_STOP_AFTER_PARTS");
        o.stop_after_parts = sa ? atoi(sa) : 0;
    }
    if (call_opt(c, "strong"))
        o.variant = MNK_STRONG;
    Value *v, *res = NULL;
    MnkRun *run = NULL;
    const char **rows = NULL;
    Value *bv = call_opt(c, "board");
    if (bv) {
        rows = xcalloc(bv->u.list.len ? bv->u.list.len : 1, sizeof *rows);
        for (size_t i = 0; i < bv->u.list.len; i++) {
            if (bv->u.list.items[i]->kind != VAL_STR) {
                rt_error(c->I, DIAG_DOMAIN, call_opt_loc(c, "board"),
                         "a board is a list of row strings such as [\"..X\", \".O.\"]");
                goto out;
            }
            rows[i] = bv->u.list.items[i]->u.str.s;
        }
        o.rows = rows;
        o.nrows = (int)bv->u.list.len;
        Value *tv = call_opt(c, "to_move");
        char tm = tv && tv->kind == VAL_STR && tv->u.str.len == 1 ? tv->u.str.s[0] : 0;
        MnkRunAt at = MNK_AT_BOARD;
        if (mnk_check_position(o.rows, o.nrows, tm, &at, &err) != CGT_OK) {
            rt_error_from(c->I, call_opt_loc(c, at == MNK_AT_BOARD ? "board" : "to_move"), &err);
            goto out;
        }
    }
    if ((v = call_opt(c, "to_move"))) {
        if (strcmp(v->u.str.s, "X") && strcmp(v->u.str.s, "O")) {
            rt_error(c->I, DIAG_DOMAIN, call_opt_loc(c, "to_move"),
                     "to_move is \"X\" (Maker, first player) or \"O\"");
            goto out;
        }
        o.to_move = v->u.str.s[0];
    }
    int64_t x;
    if ((v = call_opt(c, "nodes"))) {
        if (!call_int(c, v, call_opt_loc(c, "nodes"), "the node limit", 1, INT64_MAX, &x))
            goto out;
        o.node_limit = (uint64_t)x;
    }
    if ((v = call_opt(c, "time"))) {
        if (!call_int(c, v, call_opt_loc(c, "time"), "the time limit", 1, 10000000, &x))
            goto out;
        o.time_limit = (double)x;
    }
    if ((v = call_opt(c, "threads"))) {
        if (!call_int(c, v, call_opt_loc(c, "threads"), "threads", 1, 8, &x))
            goto out;
        o.threads = (int)x;
    }
    if ((v = call_opt(c, "proof")))
        o.proof_path = v->u.str.s;
    if ((v = call_opt(c, "checkpoint")))
        o.checkpoint = v->u.str.s;
    if ((v = call_opt(c, "checkpoint_every"))) {
        if (!call_int(c, v, call_opt_loc(c, "checkpoint_every"), "checkpoint_every", 1,
                      1000000, &x))
            goto out;
        o.checkpoint_every = (double)x;
    }
    if ((v = call_opt(c, "table_mb"))) {
        if (!call_int(c, v, call_opt_loc(c, "table_mb"), "table_mb", 1, 1000000, &x))
            goto out;
        o.table_mb = (double)x;
    }
    if ((v = call_opt(c, "proof_map_mb"))) {
        if (!call_int(c, v, call_opt_loc(c, "proof_map_mb"), "proof_map_mb", 1, 1000000, &x))
            goto out;
        o.proof_map_mb = (double)x;
    }
    bool check = call_opt(c, "verify") != NULL;
    char checker[PATH_MAX];
    if (check && !o.proof_path) {
        rt_error(c->I, DIAG_USAGE, call_opt_loc(c, "verify"),
                 "verify checks the proof file: give proof \"FILE\" too");
        goto out;
    }
    if (check && !find_checker(checker, sizeof checker)) {
        rt_error(c->I, DIAG_IO, call_opt_loc(c, "verify"),
                 "the proof checker mnk_check was not found");
        rt_hint(c->I, "build it (make) or set CGT_MNK_CHECK to its path");
        goto out;
    }
    run = xcalloc(1, sizeof *run);
    mnk_run((int)m, (int)n, (int)k, &o, check ? checker : NULL, run);
    if (run->status == MNK_RUN_FAILED) {
        rt_error_from(c->I, run->at == MNK_AT_VERIFY ? call_opt_loc(c, "verify") : c->loc,
                      &run->err);
        if (run->at == MNK_AT_RUN &&
            (run->err.status == CGT_ERR_LIMIT || run->err.status == CGT_ERR_INTERRUPTED))
            rt_set_partial(c->I, mnk_stopped_record((int)m, (int)n, (int)k, &o, &run->rep,
                                                    &run->err));
        goto out;
    }
    res = mnk_record(&run->rep, &o, run);
    if (run->status == MNK_RUN_UNSAVED) {
        /* solved, but the final checkpoint save failed: the result is
           e.partial, and the statement prints it before the error */
        rt_error_from(c->I, call_opt_loc(c, "checkpoint"), &run->err);
            rt_set_partial(c->I, res);
        res = NULL;
    }
out:
    if (run)
        mnk_run_free(run);
    free(run);
    free(rows);
    return res;
}

Value *bi_mnk(Call *c)
{
    return call_with_checkpoint_lock(c, mnk_stmt);
}
