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

/* mnk(M, N, K): the record of a solved game (docs/language.md, "Results as
 * records"). */
static Value *mnk_record(const MnkReport *rep, const MnkOptions *o, const char *verdict,
                         const char *vroot)
{
    char cb[16], cb2[16];
    /* cgt has no fractions, so the time is a string and whole ms */
    Value *r = val_map();
    val_map_set_int(r, "m", rep->m);
    val_map_set_int(r, "n", rep->n);
    val_map_set_int(r, "k", rep->k);
    val_map_set_str(r, "variant", mnk_variant_name(rep->variant));
    char tm[2] = {rep->to_move, 0};
    val_map_set_str(r, "to_move", tm);
    val_map_set_str(r, "result", mnk_result_name(rep->result));
    val_map_set_str(r, "method", mnk_method_name(rep->method));
    val_map_set_int(r, "nodes", (int64_t)rep->nodes);
    val_map_set_int(r, "tt_hits", (int64_t)rep->tt_hits);
    char secs[32];
    snprintf(secs, sizeof secs, "%.3f", rep->seconds);
    val_map_set_str(r, "seconds", secs);
    val_map_set_int(r, "ms", (int64_t)(rep->seconds * 1000.0 + 0.5));
    val_map_set(r, "win_move", rep->win_move < 0
                                   ? val_null()
                                   : val_str(mnk_cell_name(rep->m, rep->win_move, cb)));
    Value *rl = val_list();
    for (int i = 0; i < rep->nmoves; i++) {
        Value *mv = val_map();
        val_map_set_str(mv, "move", mnk_cell_name(rep->m, rep->moves[i].cell, cb));
        val_map_set(mv, "reply", rep->moves[i].reply < 0
                                     ? val_null()
                                     : val_str(mnk_cell_name(rep->m, rep->moves[i].reply, cb2)));
        val_list_push(rl, mv);
    }
    val_map_set(r, "replies", rl);
    val_map_set(r, "proof", o->proof_path ? val_str(o->proof_path) : val_null());
    val_map_set(r, "proof_sha256", o->proof_path ? val_str(rep->proof_sha256) : val_null());
    val_map_set(r, "check", verdict ? val_str(verdict) : val_null());
    val_map_set(r, "check_root", vroot ? val_str(vroot) : val_null());
    return r;
}

/* `mnk M N K;`: the result line(s), as text or JSON. */
static void mnk_emit(Call *c, const MnkReport *rep, const MnkOptions *o, const char *verdict,
                     const char *vroot, const char *vseal)
{
    char cb[16], cb2[16];
    StrBuf b;
    sb_init(&b);
    if (c->I->format == FMT_JSON) {
        JsonWriter w;
        rt_json_begin(&w, &b, "mnk");
        jw_kv_int(&w, "m", rep->m);
        jw_kv_int(&w, "n", rep->n);
        jw_kv_int(&w, "k", rep->k);
        jw_kv_str(&w, "variant", mnk_variant_name(rep->variant));
        char tm[2] = {rep->to_move, 0};
        jw_kv_str(&w, "to_move", tm);
        if (o->rows) {
            jw_key(&w, "board");
            jw_arr_begin(&w);
            for (int i = 0; i < o->nrows; i++) {
                char *r = board_row(o->rows[i]);
                jw_str(&w, r);
                free(r);
            }
            jw_arr_end(&w);
        }
        jw_kv_str(&w, "result", mnk_result_name(rep->result));
        jw_kv_str(&w, "method", mnk_method_name(rep->method));
        jw_key(&w, "nodes");
        jw_uint(&w, rep->nodes);
        jw_key(&w, "tt_hits");
        jw_uint(&w, rep->tt_hits);
        jw_key(&w, "seconds");
        jw_double(&w, rep->seconds);
        jw_kv_int(&w, "root_potential", rep->root_potential);
        jw_key(&w, "max_after");
        if (rep->max_after < 0)
            jw_null(&w);
        else
            jw_int(&w, rep->max_after);
        jw_key(&w, "win_move");
        if (rep->win_move < 0)
            jw_null(&w);
        else
            jw_str(&w, mnk_cell_name(rep->m, rep->win_move, cb));
        jw_key(&w, "pairing");
        jw_arr_begin(&w);
        for (int i = 0; rep->method == MNK_BY_PAIRING && i < rep->npairs; i++) {
            jw_arr_begin(&w);
            jw_str(&w, mnk_cell_name(rep->m, rep->pairs[i][0], cb));
            jw_str(&w, mnk_cell_name(rep->m, rep->pairs[i][1], cb));
            jw_arr_end(&w);
        }
        jw_arr_end(&w);
        jw_key(&w, "replies");
        jw_arr_begin(&w);
        for (int i = 0; i < rep->nmoves; i++) {
            jw_obj_begin(&w);
            jw_kv_str(&w, "move", mnk_cell_name(rep->m, rep->moves[i].cell, cb));
            jw_key(&w, "reply");
            if (rep->moves[i].reply < 0)
                jw_null(&w);
            else
                jw_str(&w, mnk_cell_name(rep->m, rep->moves[i].reply, cb));
            jw_obj_end(&w);
        }
        jw_arr_end(&w);
        jw_key(&w, "proof");
        if (o->proof_path)
            jw_str(&w, o->proof_path);
        else
            jw_null(&w);
        jw_key(&w, "proof_sha256");
        if (o->proof_path)
            jw_str(&w, rep->proof_sha256);
        else
            jw_null(&w);
        jw_key(&w, "check");
        if (verdict)
            jw_str(&w, verdict);
        else
            jw_null(&w);
        jw_key(&w, "check_root");
        if (vroot)
            jw_str(&w, vroot);
        else
            jw_null(&w);
        rt_json_end(&w);
    } else {
        sb_printf(&b, "mnk %d,%d,%d %s, %c to move: %s (%s)\n", rep->m, rep->n, rep->k,
                  mnk_variant_name(rep->variant), rep->to_move, result_phrase(rep->result),
                  mnk_method_name(rep->method));
        if (o->rows) {
            /* the start position as it was read, so the user sees what was solved */
            sb_puts(&b, "board (top row first):\n");
            for (int i = 0; i < o->nrows; i++) {
                char *r = board_row(o->rows[i]);
                sb_printf(&b, "  %s\n", r);
                free(r);
            }
        }
        if (rep->method == MNK_BY_POTENTIAL) {
            if (rep->max_after >= 0)
                sb_printf(&b, "potential: %ld, max after one Maker move: %ld (2^k = %lu)\n",
                          rep->root_potential, rep->max_after, 1ul << rep->k);
            else
                sb_printf(&b, "potential: %ld (2^k = %lu)\n", rep->root_potential,
                          1ul << rep->k);
        }
        if (rep->win_move >= 0)
            sb_printf(&b, "winning move: %s\n", mnk_cell_name(rep->m, rep->win_move, cb));
        if (rep->method == MNK_BY_PAIRING) {
            char *pb = mnk_pairing_board(rep, o->rows);
            sb_puts(&b, "pairing:\n");
            for (char *line = pb; line && *line;) {
                char *e = strchr(line, '\n');
                size_t len = e ? (size_t)(e - line) : strlen(line);
                sb_printf(&b, "  %.*s\n", (int)len, line);
                line += len + (e ? 1 : 0);
            }
            free(pb);
        }
        if (rep->nmoves > 0) {
            sb_puts(&b, "replies:\n");
            for (int i = 0; i < rep->nmoves; i++) {
                if (rep->moves[i].reply < 0)
                    sb_printf(&b, "  %s -> potential\n",
                              mnk_cell_name(rep->m, rep->moves[i].cell, cb));
                else
                    sb_printf(&b, "  %s -> %s\n", mnk_cell_name(rep->m, rep->moves[i].cell, cb),
                              mnk_cell_name(rep->m, rep->moves[i].reply, cb2));
            }
        }
        if (o->proof_path)
            sb_printf(&b, "proof: %s (%llu lines, sha256 %s)\n", o->proof_path,
                      (unsigned long long)rep->proof_lines, rep->proof_sha256);
        if (verdict)
            sb_printf(&b, "check: %s\n", verdict);
        if (vroot)
            sb_printf(&b, "check: %s\n", vroot);
        /* the checker's third line: the proof's seal (docs/mnk.md "Seal") */
        if (vseal && strncmp(vseal, "seal: ", 6) == 0)
            sb_printf(&b, "check: %s\n", vseal);
    }
    rt_emit(c->I, &b);
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
        goto out;
    }
    if (!c->stmt) {
        if (run->status == MNK_RUN_DONE)
            res = mnk_record(&run->rep, &o, run->verdict, run->check_root);
    } else {
        mnk_emit(c, &run->rep, &o, run->verdict, run->check_root, run->check_seal);
        res = val_null();
    }
    if (run->status == MNK_RUN_UNSAVED) {
        /* solved and printed, but the final checkpoint save failed */
        rt_error_from(c->I, call_opt_loc(c, "checkpoint"), &run->err);
        if (res)
            val_unref(res);
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
