/* The driver of the `mnk` statement (src/lib/mnk/mnk_run.h, docs/mnk.md
 * "The driver"): legality of the start, the solve, and the proof handed
 * to the independent checker together with the game, claim and root
 * position it must be about, while the proof's SHA-256 is computed on a
 * thread of its own (for 8,8,5 each is minutes of one core). */
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/mnk/mnk_run.h"
#include "lib/util/poll.h"
#include "lib/util/sha256.h"
#include "lib/util/xalloc.h"

extern char **environ;

CgtStatus mnk_check_sides(int m, int n, int k, CgtError *err)
{
    if (k > m && k > n) {
        cgt_error_set(err, CGT_ERR_DOMAIN, "k = %d is larger than both sides of the %dx%d board",
                      k, m, n);
        cgt_error_hint(err, "no line of k cells fits, so Maker can never win");
        return CGT_ERR_DOMAIN;
    }
    return CGT_OK;
}

CgtStatus mnk_check_position(const char *const *rows, int nrows, char to_move, MnkRunAt *at,
                             CgtError *err)
{
    long nx = 0, no = 0;
    for (int i = 0; i < nrows; i++)
        for (const char *p = rows[i]; *p; p++) {
            nx += *p == 'X' || *p == 'x';
            no += *p == 'O' || *p == 'o';
        }
    if (nx - no != 0 && nx - no != 1) {
        *at = MNK_AT_BOARD;
        cgt_error_set(err, CGT_ERR_DOMAIN, "impossible position: X has %ld marks and O has %ld",
                      nx, no);
        cgt_error_hint(err, "X moves first and the players alternate, so X has as many marks as "
                            "O or one more");
        return CGT_ERR_DOMAIN;
    }
    const char want = nx == no ? 'X' : 'O';
    if ((to_move == 'X' || to_move == 'O') && to_move != want) {
        *at = MNK_AT_TO_MOVE;
        return cgt_error_set(err, CGT_ERR_DOMAIN,
                             "impossible position: with %ld X and %ld O marks it is %c's turn",
                             nx, no, want);
    }
    return CGT_OK;
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
 * *out (owned, NUL-terminated).  Returns its exit status (0 = accepted), or
 * -1 if it could not run. */
static int run_checker(const char *checker, const MnkReport *rep, const char *const *rows,
                       const char *path, char **out)
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
    size_t len = 0, cap = 4096;
    char *buf = xmalloc(cap);
    ssize_t got;
    while ((got = read(fd[0], buf + len, cap - len - 1)) > 0) {
        len += (size_t)got;
        if (cap - len < 1024) {
            cap *= 2;
            buf = xrealloc(buf, cap);
        }
    }
    buf[len] = '\0';
    *out = buf;
    close(fd[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        ;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

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

void mnk_run_free(MnkRun *r)
{
    free(r->verdict);
    free(r->check_root);
    free(r->check_seal);
    r->verdict = r->check_root = r->check_seal = NULL;
}

void mnk_run(int m, int n, int k, const MnkOptions *o, const char *checker, MnkRun *r)
{
    memset(r, 0, sizeof *r);
    r->status = MNK_RUN_FAILED;
    r->at = MNK_AT_RUN;
    cgt_error_clear(&r->err);
    MnkOptions so = *o;
    so.sha_later = o->proof_path != NULL;
    CgtStatus st = mnk_solve(m, n, k, &so, &r->rep, &r->err);
    bool unsaved = st != CGT_OK && r->rep.unsaved; /* solved, but the final save failed */
    if (st != CGT_OK && !unsaved)
        return;
    /* the checker runs first, so that its verdict is part of the result
     * (also when the final checkpoint save failed: the proof is complete) */
    CgtError save_err = r->err;
    char *out = NULL;
    ShaJob sj = {o->proof_path, r->rep.proof_sha256, 0};
    bool check = checker && o->proof_path;
    if (o->proof_path) {
        pthread_t tid;
        bool th = check && pthread_create(&tid, NULL, sha_run, &sj) == 0;
        if (check) {
            cgt_progress_force("mnk", "checking the proof %s with %s", o->proof_path, checker);
            r->check_status = run_checker(checker, &r->rep, o->rows, o->proof_path, &out);
            r->checked = true;
        }
        if (th)
            pthread_join(tid, NULL);
        else
            sha_run(&sj);
    }
    if (sj.rc != 0) {
        cgt_error_set(&r->err, CGT_ERR_IO, "mnk proof '%s' written but cannot be read back",
                      o->proof_path);
        free(out);
        return;
    }
    if (check) {
        r->verdict = nth_line(out ? out : "", 0);
        r->check_root = nth_line(out ? out : "", 1);
        r->check_seal = nth_line(out ? out : "", 2);
    }
    free(out);
    if (check && r->check_status != 0) {
        r->at = MNK_AT_VERIFY;
        /* a search resumed from a checkpoint took the file's positions as
           proven: a proof from an altered file is the file's fault, not a
           bug of cgt (docs/errors.md) */
        bool resumed = r->rep.ckpt_read > 0 && r->rep.method == MNK_BY_SEARCH;
        if (r->check_status < 0)
            cgt_error_set(&r->err, CGT_ERR_IO, "the proof checker %s could not be run", checker);
        else
            cgt_error_set(&r->err, resumed ? CGT_ERR_IO : CGT_ERR_INTERNAL,
                          "the independent checker rejected the proof: %s",
                          r->verdict ? r->verdict : "(no output)");
        if (r->check_status > 0 && resumed)
            cgt_error_hint(&r->err, "the search took %llu positions of checkpoint '%s' as "
                           "proven: the file is damaged or was altered; the proof is kept in %s",
                           (unsigned long long)r->rep.ckpt_read, o->checkpoint, o->proof_path);
        else
            cgt_error_hint(&r->err, "the proof is kept in %s (sha256 %s)", o->proof_path,
                           r->rep.proof_sha256);
        return;
    }
    if (unsaved) {
        r->status = MNK_RUN_UNSAVED;
        r->at = MNK_AT_CHECKPOINT;
        r->err = save_err;
        return;
    }
    cgt_error_clear(&r->err);
    r->status = MNK_RUN_DONE;
}
