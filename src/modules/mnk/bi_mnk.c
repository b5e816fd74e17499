/* The `mnk` statement (docs/mnk.md): Maker-Breaker and strong m,n,k-games.
 * With `verify`, the proof written is handed to the independent checker
 * (tests/oracle/mnk_check, a separate program that shares no code with cgt)
 * together with the game, claim and root position it must be about. */
#include <limits.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/mnk/mnk.h"
#include "modules/mnk/module.h"
#include "lib/util/poll.h"
#include "lib/util/sha256.h"
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

extern char **environ;

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

/* The root in the proof's cell-index order (row 1 first), or "empty". */
static char *root_cells(int m, int n, const char *const *rows)
{
    char *s = xmalloc((size_t)m * (size_t)n + 1);
    bool empty = true;
    for (int i = 0; i < m * n; i++) {
        char ch = rows ? rows[n - 1 - i / m][i % m] : '.';
        s[i] = ch == 'x' || ch == 'X' ? 'X' : ch == 'o' || ch == 'O' ? 'O' : '.';
        empty &= s[i] == '.';
    }
    s[m * n] = '\0';
    if (empty)
        strcpy(s, "empty");
    return s;
}

/* Runs the checker on the proof; its output (verdict and root lines) goes to
 * *out.  Returns its exit status (0 = accepted), or -1 if it could not run. */
static int run_checker(const char *checker, const MnkReport *rep, const char *const *rows,
                       const char *path, StrBuf *out)
{
    char sm[16], sn[16], sk[16], mv[2] = {rep->to_move, 0};
    snprintf(sm, sizeof sm, "%d", rep->m);
    snprintf(sn, sizeof sn, "%d", rep->n);
    snprintf(sk, sizeof sk, "%d", rep->k);
    const char *claim = rep->variant == MNK_MAKER_BREAKER
                            ? mnk_result_name(rep->result)
                            : rep->result == MNK_RESULT_FIRST ? "strong-win" : "strong-hold";
    char *pos = root_cells(rep->m, rep->n, rows);
    char o_game[] = "--game", o_claim[] = "--claim", o_root[] = "--root";
    char *argv[] = {(char *)checker, o_game, sm, sn, sk, o_claim, (char *)claim,
                    o_root, mv, pos, (char *)path, NULL};
    int fd[2];
    if (pipe(fd) != 0) {
        free(pos);
        return -1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
    posix_spawn_file_actions_addclose(&fa, fd[0]);
    pid_t pid;
    int rc = posix_spawn(&pid, checker, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fd[1]);
    free(pos);
    if (rc != 0) {
        close(fd[0]);
        return -1;
    }
    char buf[4096];
    ssize_t got;
    while ((got = read(fd[0], buf, sizeof buf)) > 0)
        sb_printf(out, "%.*s", (int)got, buf);
    close(fd[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        ;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The SHA-256 of the proof, on a thread of its own while the checker reads
 * the same file (for 8,8,5 each is minutes of one core). */
typedef struct ShaJob {
    const char *path;
    char *hex;
    int rc;
} ShaJob;

static void *sha_run(void *arg)
{
    ShaJob *j = arg;
    j->rc = sha256_file_hex(j->path, j->hex);
    return NULL;
}

/* Line i (0-based) of s without its newline, into a new string (NULL if none). */
static char *nth_line(const char *s, int i)
{
    for (; i > 0 && s; i--)
        if ((s = strchr(s, '\n')))
            s++;
    if (!s || !*s)
        return NULL;
    size_t len = strcspn(s, "\n");
    char *r = xmalloc(len + 1);
    memcpy(r, s, len);
    r[len] = '\0';
    return r;
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

static Value *mnk_stmt(Call *c)
{
    int64_t m, n, k;
    if (!call_int(c, c->args[0], c->arg_locs[0], "m (columns)", 1, 64, &m) ||
        !call_int(c, c->args[1], c->arg_locs[1], "n (rows)", 1, 64, &n) ||
        !call_int(c, c->args[2], c->arg_locs[2], "k", 1, 64, &k))
        return NULL;
    if (k > m && k > n) {
        rt_error(c->I, DIAG_DOMAIN, c->arg_locs[2],
                 "k = %lld is larger than both sides of the %lldx%lld board", (long long)k,
                 (long long)m, (long long)n);
        rt_hint(c->I, "no line of k cells fits, so Maker can never win");
        return NULL;
    }
    MnkOptions o;
    mnk_options_init(&o);
    {
        /* tests/scripts/mnk_verify.sh: a stop while the proof is written */
        const char *sa = getenv("CGT_TEST_STOP_AFTER_PARTS");
        o.stop_after_parts = sa ? atoi(sa) : 0;
    }
    if (call_opt(c, "strong"))
        o.variant = MNK_STRONG;
    Value *v;
    const char **rows = NULL;
    Value *bv = call_opt(c, "board");
    if (bv) {
        rows = xcalloc(bv->u.list.len ? bv->u.list.len : 1, sizeof *rows);
        for (size_t i = 0; i < bv->u.list.len; i++) {
            if (bv->u.list.items[i]->kind != VAL_STR) {
                free(rows);
                return rt_error(c->I, DIAG_DOMAIN, call_opt_loc(c, "board"),
                                "a board is a list of row strings such as [\"..X\", \".O.\"]");
            }
            rows[i] = bv->u.list.items[i]->u.str.s;
        }
        o.rows = rows;
        o.nrows = (int)bv->u.list.len;
        /* X moves first and the players alternate, so #X - #O is 0 (X to
         * move) or 1 (O to move); anything else cannot arise in play */
        long nx = 0, no = 0;
        for (int i = 0; i < o.nrows; i++)
            for (const char *p = rows[i]; *p; p++) {
                nx += *p == 'X' || *p == 'x';
                no += *p == 'O' || *p == 'o';
            }
        if (nx - no != 0 && nx - no != 1) {
            free(rows);
            rt_error(c->I, DIAG_DOMAIN, call_opt_loc(c, "board"),
                     "impossible position: X has %ld marks and O has %ld", nx, no);
            rt_hint(c->I, "X moves first and the players alternate, so X has as many marks "
                          "as O or one more");
            return NULL;
        }
        const char want = nx == no ? 'X' : 'O';
        Value *tv = call_opt(c, "to_move");
        if (tv && tv->kind == VAL_STR && tv->u.str.len == 1 && tv->u.str.s[0] != want &&
            (tv->u.str.s[0] == 'X' || tv->u.str.s[0] == 'O')) {
            free(rows);
            rt_error(c->I, DIAG_DOMAIN, call_opt_loc(c, "to_move"),
                     "impossible position: with %ld X and %ld O marks it is %c's turn", nx, no,
                     want);
            return NULL;
        }
    }
    if ((v = call_opt(c, "to_move"))) {
        if (strcmp(v->u.str.s, "X") && strcmp(v->u.str.s, "O")) {
            free(rows);
            return rt_error(c->I, DIAG_DOMAIN, call_opt_loc(c, "to_move"),
                            "to_move is \"X\" (Maker, first player) or \"O\"");
        }
        o.to_move = v->u.str.s[0];
    }
    int64_t x;
    if ((v = call_opt(c, "nodes"))) {
        if (!call_int(c, v, call_opt_loc(c, "nodes"), "the node limit", 1, INT64_MAX, &x)) {
            free(rows);
            return NULL;
        }
        o.node_limit = (uint64_t)x;
    }
    if ((v = call_opt(c, "time"))) {
        if (!call_int(c, v, call_opt_loc(c, "time"), "the time limit", 1, 10000000, &x)) {
            free(rows);
            return NULL;
        }
        o.time_limit = (double)x;
    }
    if ((v = call_opt(c, "threads"))) {
        if (!call_int(c, v, call_opt_loc(c, "threads"), "threads", 1, 8, &x)) {
            free(rows);
            return NULL;
        }
        o.threads = (int)x;
    }
    if ((v = call_opt(c, "proof")))
        o.proof_path = v->u.str.s;
    if ((v = call_opt(c, "checkpoint")))
        o.checkpoint = v->u.str.s;
    if ((v = call_opt(c, "checkpoint_every"))) {
        if (!call_int(c, v, call_opt_loc(c, "checkpoint_every"), "checkpoint_every", 1,
                      1000000, &x)) {
            free(rows);
            return NULL;
        }
        o.checkpoint_every = (double)x;
    }
    if ((v = call_opt(c, "table_mb"))) {
        if (!call_int(c, v, call_opt_loc(c, "table_mb"), "table_mb", 1, 1000000, &x)) {
            free(rows);
            return NULL;
        }
        o.table_mb = (double)x;
    }
    if ((v = call_opt(c, "proof_map_mb"))) {
        if (!call_int(c, v, call_opt_loc(c, "proof_map_mb"), "proof_map_mb", 1, 1000000, &x)) {
            free(rows);
            return NULL;
        }
        o.proof_map_mb = (double)x;
    }
    bool check = call_opt(c, "verify") != NULL;
    char checker[PATH_MAX];
    if (check && !o.proof_path) {
        free(rows);
        return rt_error(c->I, DIAG_USAGE, call_opt_loc(c, "verify"),
                        "verify checks the proof file: give proof \"FILE\" too");
    }
    if (check && !find_checker(checker, sizeof checker)) {
        free(rows);
        rt_error(c->I, DIAG_IO, call_opt_loc(c, "verify"),
                 "the proof checker mnk_check was not found");
        rt_hint(c->I, "build it (make) or set CGT_MNK_CHECK to its path");
        return NULL;
    }
    MnkReport *rep = xcalloc(1, sizeof *rep);
    CgtError err;
    cgt_error_clear(&err);
    o.sha_later = o.proof_path != NULL;
    CgtStatus st = mnk_solve((int)m, (int)n, (int)k, &o, rep, &err);
    bool unsaved = st != CGT_OK && rep->unsaved; /* solved, but the final save failed */
    if (st != CGT_OK && !unsaved) {
        free(rows);
        free(rep);
        return rt_error_from(c->I, c->loc, &err);
    }
    /* the checker runs first, so that its verdict is part of the result (also
     * when the final checkpoint save failed or was refused: the proof is
     * complete);
     * the SHA-256 is computed beside it */
    StrBuf chk;
    sb_init(&chk);
    int crc = 0;
    ShaJob sj = {o.proof_path, rep->proof_sha256, 0};
    if (o.proof_path) {
        pthread_t tid;
        bool th = check && pthread_create(&tid, NULL, sha_run, &sj) == 0;
        if (check) {
            cgt_progress_force("mnk", "checking the proof %s with %s", o.proof_path, checker);
            crc = run_checker(checker, rep, o.rows, o.proof_path, &chk);
        }
        if (th)
            pthread_join(tid, NULL);
        else
            sha_run(&sj);
    }
    if (sj.rc != 0) {
        sb_free(&chk);
        free(rows);
        free(rep);
        return rt_error(c->I, DIAG_IO, c->loc, "mnk proof '%s' written but cannot be read back",
                        o.proof_path);
    }
    char *verdict = check ? nth_line(chk.s ? chk.s : "", 0) : NULL;
    char *vroot = check ? nth_line(chk.s ? chk.s : "", 1) : NULL;
    if (check && crc != 0) {
        rt_error(c->I, crc < 0 ? DIAG_IO : DIAG_INTERNAL, call_opt_loc(c, "verify"),
                 crc < 0 ? "the proof checker %s could not be run"
                         : "the independent checker rejected the proof: %s",
                 crc < 0 ? checker : verdict ? verdict : "(no output)");
        rt_hint(c->I, "the proof is kept in %s (sha256 %s)", o.proof_path, rep->proof_sha256);
        free(verdict);
        free(vroot);
        sb_free(&chk);
        free(rows);
        free(rep);
        return NULL;
    }
    char cb[16], cb2[16];
    if (!c->stmt) {
        /* mnk(M, N, K): the record (docs/language.md, "Results as records");
           cgt has no fractions, so the time is a string and whole ms */
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
        val_map_set(r, "proof", o.proof_path ? val_str(o.proof_path) : val_null());
        val_map_set(r, "proof_sha256", o.proof_path ? val_str(rep->proof_sha256) : val_null());
        val_map_set(r, "check", verdict ? val_str(verdict) : val_null());
        val_map_set(r, "check_root", vroot ? val_str(vroot) : val_null());
        free(verdict);
        free(vroot);
        sb_free(&chk);
        free(rows);
        free(rep);
        if (unsaved) {
            val_unref(r);
            return rt_error_from(c->I, call_opt_loc(c, "checkpoint"), &err);
        }
        return r;
    }
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
        if (o.rows) {
            jw_key(&w, "board");
            jw_arr_begin(&w);
            for (int i = 0; i < o.nrows; i++) {
                char *r = board_row(o.rows[i]);
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
        if (o.proof_path)
            jw_str(&w, o.proof_path);
        else
            jw_null(&w);
        jw_key(&w, "proof_sha256");
        if (o.proof_path)
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
        if (o.rows) {
            /* the start position as it was read, so the user sees what was solved */
            sb_puts(&b, "board (top row first):\n");
            for (int i = 0; i < o.nrows; i++) {
                char *r = board_row(o.rows[i]);
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
            char *pb = mnk_pairing_board(rep, o.rows);
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
        if (o.proof_path)
            sb_printf(&b, "proof: %s (%llu lines, sha256 %s)\n", o.proof_path,
                      (unsigned long long)rep->proof_lines, rep->proof_sha256);
        if (verdict)
            sb_printf(&b, "check: %s\n", verdict);
        if (vroot)
            sb_printf(&b, "check: %s\n", vroot);
        /* the checker's third line: the proof's seal (docs/mnk.md "Seal") */
        char *vseal = check ? nth_line(chk.s ? chk.s : "", 2) : NULL;
        if (vseal && strncmp(vseal, "seal: ", 6) == 0)
            sb_printf(&b, "check: %s\n", vseal);
        free(vseal);
    }
    free(verdict);
    free(vroot);
    sb_free(&chk);
    free(rows);
    free(rep);
    rt_emit(c->I, &b);
    if (unsaved)
        return rt_error_from(c->I, call_opt_loc(c, "checkpoint"), &err);
    return val_null();
}

Value *bi_mnk(Call *c)
{
    return call_with_checkpoint_lock(c, mnk_stmt);
}
