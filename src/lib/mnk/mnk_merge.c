/* m,n,k: a proof of the empty board assembled from per-job proofs (the
 * distributed mode writes one proof per class of first moves).  Each job
 * proof is a version-2 proof with root O: Maker's first move made, Breaker to
 * move, its top a B node "B POS b@ID" (docs/mnk.md "Proof files").  The
 * merged proof holds every job's R and M nodes with their node numbers
 * shifted by the nodes before them, then one root M node answering each
 * first move u = s(v) (s a board symmetry, v a job's move) with s(b) and the
 * job's node: the checker's Covered() looks the child up under every
 * symmetry.  The merge is not trusted: its output is checked like any other
 * proof.  Replaces the two awk scripts used by hand for 8,8,5. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/mnk/mnk_int.h"
#include "lib/util/atomicfile.h"
#include "lib/util/xalloc.h"

int mnk_root_classes(int m, int n, int *rep)
{
    int nsym = m == n ? 8 : 4, cnt = 0;
    for (int c = 0; c < m * n; c++) {
        int least = c;
        for (int s = 1; s < nsym; s++)
            if (mnk_sym_cell(m, n, s, c) < least)
                least = mnk_sym_cell(m, n, s, c);
        if (least == c)
            rep[cnt++] = c;
    }
    return cnt;
}

typedef struct JobTop {
    int reply;   /* Breaker's answer, -1 for "*" (Property 1) */
    uint64_t id; /* its node in the merged numbering (0: every line holds an O) */
} JobTop;

/* Next line of f without its newline into *buf; false at the end. */
static bool get_line(FILE *f, char **buf, size_t *cap)
{
    ssize_t len = getline(buf, cap, f);
    if (len < 0)
        return false;
    if (len > 0 && (*buf)[len - 1] == '\n')
        (*buf)[len - 1] = '\0';
    return true;
}

/* The decimal digits of v at o; returns the end. */
static char *put_u64(char *o, unsigned long long v)
{
    char d[24];
    int n = 0;
    do
        d[n++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    while (n)
        *o++ = d[--n];
    return o;
}

bool mnk_job_proof_head(FILE *f, int m, int n, int k, int move)
{
    char *buf = NULL, head[64];
    size_t cap = 0;
    int cells = m * n;
    bool ok = get_line(f, &buf, &cap) && strcmp(buf, "mnk-proof 2") == 0;
    snprintf(head, sizeof head, "game %d %d %d", m, n, k);
    ok = ok && get_line(f, &buf, &cap) && strcmp(buf, head) == 0;
    ok = ok && get_line(f, &buf, &cap) && strcmp(buf, "claim breaker") == 0;
    ok = ok && get_line(f, &buf, &cap) && strncmp(buf, "root O ", 7) == 0 &&
         (int)strlen(buf + 7) == cells;
    for (int c = 0; ok && c < cells; c++)
        ok = buf[7 + c] == (c == move ? 'X' : '.');
    free(buf);
    return ok;
}

/* Copies one job's nodes to out with every child number shifted by off. */
static CgtStatus merge_job(int m, int n, int k, const MnkJob *job, uint64_t off, AtomicFile *out,
                           uint64_t *count, JobTop *top, CgtError *err)
{
    /* the job proof's seal is verified first: a torn or damaged one is
     * refused (every proof cgt writes is sealed) */
    SealedFile sf;
    if (sf_open(&sf, job->proof, "job proof", false, err) != CGT_OK)
        return CGT_ERR_IO;
    if (sf.absent)
        return cgt_error_set(err, CGT_ERR_IO, "cannot read the job proof '%s'", job->proof);
    FILE *f = sf.f;
    char *buf = NULL, *ob = NULL;
    size_t cap = 0, ocap = 0;
    int cells = m * n;
    CgtStatus st = CGT_OK;
    uint64_t nodes = 0, bnode = 0;
    bool ok = mnk_job_proof_head(f, m, n, k, job->move);
    if (!ok) {
        st = cgt_error_set(err, CGT_ERR_IO, "job proof '%s' is not a version-2 Breaker proof of "
                           "the %d,%d,%d-game after the first move %d", job->proof, m, n, k,
                           job->move);
        goto done;
    }
    top->reply = -2;
    while ((ok = get_line(f, &buf, &cap)) && strncmp(buf, "top ", 4) != 0) {
        if (top->reply != -2) {
            ok = false; /* the B node must be the last node */
            break;
        }
        nodes++;
        if (buf[0] == 'B' && buf[1] == ' ' && (int)strlen(buf) > 3 + cells) {
            const char *r = buf + 3 + cells;
            unsigned long long id = 0;
            int b = -1;
            if (strcmp(r, "*") == 0)
                top->reply = -1;
            else if (sscanf(r, "%d@%llu", &b, &id) == 2 && b >= 0 && b < cells && id < nodes)
                top->reply = b, top->id = id ? id + off : 0;
            else
                ok = false;
            bnode = nodes;
            if (!ok)
                break;
            continue;
        }
        if ((buf[0] != 'R' && buf[0] != 'M') || buf[1] != ' ' || (int)strlen(buf) < 2 + cells) {
            ok = false;
            break;
        }
        /* the position, then tokens: ">ID" (R), "b@ID:cells" (M), others as
         * they are; the line is built in ob and written at once (8,8,5's
         * proof has about 4 * 10^8 lines) */
        size_t blen = strlen(buf);
        if (blen * 2 + 64 > ocap) {
            ocap = blen * 2 + 64;
            ob = xrealloc(ob, ocap);
        }
        char *o = ob;
        memcpy(o, buf, 2 + (size_t)cells);
        o += 2 + cells;
        for (char *t = buf + 2 + cells; *t;) {
            while (*t == ' ')
                *o++ = *t++;
            size_t len = strcspn(t, " ");
            char *at = t[0] == '>' ? t : memchr(t, '@', len);
            char *end = NULL;
            unsigned long long id = 0;
            if (at && at[1] >= '0' && at[1] <= '9')
                id = strtoull(at + 1, &end, 10);
            if (at == t && end == t + len) {
                *o++ = '>';
                o = put_u64(o, id ? id + off : 0);
            } else if (at && at != t && end && *end == ':' && end <= t + len) {
                memcpy(o, t, (size_t)(at - t) + 1);
                o += at - t + 1;
                o = put_u64(o, id ? id + off : 0);
                memcpy(o, end, (size_t)(t + len - end));
                o += t + len - end;
            } else {
                memcpy(o, t, len);
                o += len;
            }
            t += len;
        }
        *o++ = '\n';
        af_write(out, ob, (size_t)(o - ob));
    }
    unsigned long long t = 0;
    if (!ok || top->reply == -2 || sscanf(buf + 4, "%llu", &t) != 1 || t != bnode ||
        !get_line(f, &buf, &cap) || strcmp(buf, "end") != 0) {
        st = cgt_error_set(err, CGT_ERR_IO, "job proof '%s' is damaged or not a root-O proof "
                           "ending in its B node", job->proof);
        goto done;
    }
    *count = nodes - 1; /* the B node is not copied */
done:
    free(buf);
    free(ob);
    sf_close(&sf);
    return st;
}

CgtStatus mnk_merge_proofs(int m, int n, int k, const MnkJob *jobs, int njobs, const char *out,
                           uint64_t *nodes, CgtError *err)
{
    int cells = m * n, nsym = m == n ? 8 : 4;
    if (m < 1 || n < 1 || cells > MNK_MAX_CELLS)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "mnk merge: bad board %dx%d", m, n);
    AtomicFile af;
    if (af_open(&af, out, "proof file", true, err) != CGT_OK)
        return CGT_ERR_IO;
    af_printf(&af, "mnk-proof 2\ngame %d %d %d\nclaim breaker\nroot X ", m, n, k);
    for (int c = 0; c < cells; c++)
        af_write(&af, ".", 1);
    af_write(&af, "\n", 1);
    JobTop *top = xcalloc((size_t)njobs + 1, sizeof *top);
    uint64_t off = 0;
    CgtStatus st = CGT_OK;
    for (int j = 0; j < njobs && st == CGT_OK; j++) {
        uint64_t cnt = 0;
        st = merge_job(m, n, k, &jobs[j], off, &af, &cnt, &top[j], err);
        off += cnt;
        if (st == CGT_OK && jobs[j].consume) {
            /* its nodes must be on the disk before the part goes */
            if (fflush(af.f) != 0 || fsync(fileno(af.f)) != 0)
                st = cgt_error_set(err, CGT_ERR_IO, "cannot write the proof file '%s': %s",
                                   out, strerror(errno));
            else
                remove(jobs[j].proof);
        }
    }
    /* the root M node: every first move u is the image s(v) of a job's move */
    if (st == CGT_OK)
        af_printf(&af, "M ");
    for (int c = 0; c < cells && st == CGT_OK; c++)
        af_write(&af, ".", 1);
    for (int u = 0; u < cells && st == CGT_OK; u++) {
        int j = 0, s = 0;
        for (j = 0; j < njobs; j++) {
            for (s = 0; s < nsym && mnk_sym_cell(m, n, s, jobs[j].move) != u; s++)
                ;
            if (s < nsym)
                break;
        }
        if (j == njobs) {
            st = cgt_error_set(err, CGT_ERR_DOMAIN, "mnk merge: no job covers the first move "
                               "%d", u);
            break;
        }
        if (top[j].reply < 0)
            af_printf(&af, " *:%d", u);
        else
            af_printf(&af, " %d@%llu:%d", mnk_sym_cell(m, n, s, top[j].reply),
                      (unsigned long long)top[j].id, u);
    }
    free(top);
    if (st != CGT_OK) {
        af_abort(&af);
        return st;
    }
    af_printf(&af, "\ntop %llu\nend\n", (unsigned long long)off + 1);
    if (af_commit(&af, err) != CGT_OK)
        return CGT_ERR_IO;
    *nodes = off + 1;
    return CGT_OK;
}
