/* The engine state as plain tables: checkpoints (mq_save / mq_load, format
 * of docs/misere.md "Checkpoints") and the tables that `save` writes into a
 * result file (mq_state_get / mq_from_state).  Both ways in go through
 * mq_from_state, which checks every value against its domain. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/misere/misere.h"
#include "lib/misere/mqint.h"
#include "lib/util/atomicfile.h"
#include "lib/util/xalloc.h"

void mq_state_get(const MqEngine *e, MqState *s)
{
    const MqPret *q = e->q;
    memset(s, 0, sizeof *s);
    s->nh = q->nh;
    s->n = q->n;
    s->nl = q->nl;
    s->hl = xmalloc(q->nh * sizeof *s->hl);
    memcpy(s->hl, q->hl, q->nh * sizeof *s->hl);
    s->act = xmalloc(((size_t)q->nl * q->n + 1) * sizeof *s->act);
    for (uint32_t l = 0; l < q->nl; l++)
        memcpy(s->act + (size_t)l * q->n, q->act[l], q->n * sizeof *s->act);
    s->p = xmalloc(q->n);
    for (uint32_t x = 0; x < q->n; x++)
        s->p[x] = mq_bit(q->p, x);
    s->pred = xmalloc(q->n * sizeof *s->pred);
    s->predh = xmalloc(q->n * sizeof *s->predh);
    memcpy(s->pred, q->pred, q->n * sizeof *s->pred);
    memcpy(s->predh, q->predh, q->n * sizeof *s->predh);
    s->nexp = e->nexp;
    s->exp_heap = xmalloc((e->nexp + 1) * sizeof *s->exp_heap);
    s->exp_size = xmalloc((e->nexp + 1) * sizeof *s->exp_size);
    memcpy(s->exp_heap, e->exp_heap, e->nexp * sizeof *s->exp_heap);
    memcpy(s->exp_size, e->exp_size, e->nexp * sizeof *s->exp_size);
}

void mq_state_free(MqState *s)
{
    free(s->hl);
    free(s->act);
    free(s->p);
    free(s->pred);
    free(s->predh);
    free(s->exp_heap);
    free(s->exp_size);
    memset(s, 0, sizeof *s);
}

static MqEngine *state_bad(CgtError *err, const char *why)
{
    cgt_error_set(err, CGT_ERR_DOMAIN, "inconsistent quotient tables: %s", why);
    return NULL;
}

MqEngine *mq_from_state(const MqState *s, const HeapGame *game, const MqLimits *lim,
                        CgtError *err)
{
    if (s->nh == 0 || s->nh > (1u << 24) || s->n == 0 || s->n > (1u << 30) || s->nl > s->nh)
        return state_bad(err, "sizes out of range");
    for (uint32_t h = 0; h < s->nh; h++)
        if (s->hl[h] < -1 || s->hl[h] >= (int32_t)s->nl)
            return state_bad(err, "a heap letter out of range");
    for (size_t i = 0; i < (size_t)s->nl * s->n; i++)
        if (s->act[i] >= s->n)
            return state_bad(err, "an action entry out of range");
    for (uint32_t x = 0; x < s->n; x++)
        if (s->p[x] > 1 || s->pred[x] >= s->n || s->predh[x] >= s->nh)
            return state_bad(err, "a P flag or least-game entry out of range");
    /* the least-game tree must be consistent and lead back to the identity */
    for (uint32_t x = 1; x < s->n; x++) {
        int32_t l = s->hl[s->predh[x]];
        if (l < 0 || s->act[(size_t)l * s->n + s->pred[x]] != x)
            return state_bad(err, "the least-game tree does not match the actions");
        uint32_t y = x, steps = 0;
        while (y != 0 && steps++ < s->n)
            y = s->pred[y];
        if (y != 0)
            return state_bad(err, "the least-game tree has a cycle");
    }
    for (uint32_t i = 0; i < s->nexp; i++)
        if (s->exp_heap[i] >= s->nh || s->exp_size[i] > s->n)
            return state_bad(err, "an expansion out of range");
    MqPret *q = xcalloc(1, sizeof *q);
    q->nh = s->nh;
    q->n = s->n;
    q->nl = s->nl;
    q->hl = xmalloc(s->nh * sizeof *q->hl);
    memcpy(q->hl, s->hl, s->nh * sizeof *q->hl);
    q->act = xcalloc(s->nl + 1, sizeof *q->act);
    for (uint32_t l = 0; l < s->nl; l++) {
        q->act[l] = xmalloc(s->n * sizeof **q->act);
        memcpy(q->act[l], s->act + (size_t)l * s->n, s->n * sizeof **q->act);
    }
    q->p = xcalloc((s->n + 63) / 64 + 1, 8);
    for (uint32_t x = 0; x < s->n; x++)
        if (s->p[x])
            q->p[x >> 6] |= (uint64_t)1 << (x & 63);
    q->pred = xmalloc(s->n * sizeof *q->pred);
    q->predh = xmalloc(s->n * sizeof *q->predh);
    memcpy(q->pred, s->pred, s->n * sizeof *q->pred);
    memcpy(q->predh, s->predh, s->n * sizeof *q->predh);
    MqEngine *e = mq_new(game, lim);
    mq_engine_set_pret(e, q);
    for (uint32_t i = 0; i < s->nexp; i++)
        mq_engine_add_expansion(e, s->exp_heap[i], s->exp_size[i]);
    if (mqopts_extend(&e->opts, game, s->nh, err) != CGT_OK) {
        mq_free(e);
        return NULL;
    }
    return e;
}

/* ---- checkpoints ---- */

/* Format version 2 (docs/misere.md): the text below, sealed by
 * util/atomicfile's CRC-64 line.  Version 1 (no seal) is refused. */
CgtStatus mq_save(const MqEngine *e, const char *path, CgtError *err)
{
    AtomicFile af;
    if (af_open(&af, path, "checkpoint", true, err) != CGT_OK)
        return CGT_ERR_IO;
    const MqPret *q = e->q;
    af_printf(&af, "cgt-misere-checkpoint 2\ngame %s\nheaps %u\nelements %u\nletters %u\n",
              e->name, q->nh, q->n, q->nl);
    af_printf(&af, "hl");
    for (uint32_t h = 0; h < q->nh; h++)
        af_printf(&af, " %d", q->hl[h]);
    for (uint32_t l = 0; l < q->nl; l++) {
        af_printf(&af, "\nact");
        for (uint32_t x = 0; x < q->n; x++)
            af_printf(&af, " %u", q->act[l][x]);
    }
    af_printf(&af, "\np");
    for (uint32_t x = 0; x < q->n; x++)
        af_printf(&af, " %d", mq_bit(q->p, x) ? 1 : 0);
    af_printf(&af, "\npred");
    for (uint32_t x = 0; x < q->n; x++)
        af_printf(&af, " %u %u", q->pred[x], q->predh[x]);
    af_printf(&af, "\nexpansions %u", e->nexp);
    for (uint32_t i = 0; i < e->nexp; i++)
        af_printf(&af, " %u %u", e->exp_heap[i], e->exp_size[i]);
    af_printf(&af, "\nend\n");
    return af_commit(&af, err);
}

static bool rd_word(FILE *f, const char *w)
{
    char buf[64];
    return fscanf(f, "%63s", buf) == 1 && strcmp(buf, w) == 0;
}

static bool rd_u(FILE *f, uint32_t *v, uint32_t bound)
{
    unsigned long x;
    if (fscanf(f, "%lu", &x) != 1 || x >= bound)
        return false;
    *v = (uint32_t)x;
    return true;
}

MqEngine *mq_load(const char *path, const HeapGame *game, const MqLimits *lim, bool *absent,
                  CgtError *err)
{
    SealedFile sf;
    if (absent)
        *absent = false;
    if (sf_open(&sf, path, "checkpoint", false, err) != CGT_OK)
        return NULL;
    if (sf.absent) {
        if (absent) {
            *absent = true;
            return NULL;
        }
        cgt_error_set(err, CGT_ERR_IO, "cannot read checkpoint '%s': no such file", path);
        return NULL;
    }
    FILE *f = sf.f;
    char name[512];
    int version = 0;
    MqState s;
    memset(&s, 0, sizeof s);
    MqEngine *e = NULL;
    if (!rd_word(f, "cgt-misere-checkpoint") || fscanf(f, "%d", &version) != 1)
        goto bad;
    if (version != 2) {
        sf_close(&sf);
        cgt_error_set(err, CGT_ERR_IO, "checkpoint '%s' has format version %d, expected 2", path,
                      version);
        cgt_error_hint(err, "the file is left untouched; move it away to start afresh");
        return NULL;
    }
    if (!rd_word(f, "game") || fscanf(f, " %511[^\n]", name) != 1)
        goto bad;
    if (strcmp(name, game->name ? game->name : "") != 0) {
        sf_close(&sf);
        cgt_error_set(err, CGT_ERR_DOMAIN, "checkpoint '%s' is for game %s, not %s", path, name,
                      game->name ? game->name : "(unnamed)");
        return NULL;
    }
    uint32_t nh, n, nl, v;
    if (!rd_word(f, "heaps") || !rd_u(f, &nh, 1u << 24) || nh == 0 || !rd_word(f, "elements") ||
        !rd_u(f, &n, 1u << 30) || n == 0 || !rd_word(f, "letters") || !rd_u(f, &nl, nh + 1))
        goto bad;
    /* every table entry takes at least two bytes (" 0"): sizes larger than
     * the file are refused before anything is allocated */
    if ((uint64_t)n * (2 * (uint64_t)nl + 6) + 2 * (uint64_t)nh > 2 * sf.len + 64)
        goto bad;
    s.nh = nh;
    s.n = n;
    s.nl = nl;
    s.hl = xmalloc(nh * sizeof *s.hl);
    s.act = xmalloc(((size_t)nl * n + 1) * sizeof *s.act);
    s.p = xmalloc(n);
    s.pred = xmalloc(n * sizeof *s.pred);
    s.predh = xmalloc(n * sizeof *s.predh);
    if (!rd_word(f, "hl"))
        goto bad;
    for (uint32_t h = 0; h < nh; h++) {
        int x;
        if (fscanf(f, "%d", &x) != 1 || x < -1 || x >= (int)nl)
            goto bad;
        s.hl[h] = x;
    }
    for (uint32_t l = 0; l < nl; l++) {
        if (!rd_word(f, "act"))
            goto bad;
        for (uint32_t x = 0; x < n; x++)
            if (!rd_u(f, &s.act[(size_t)l * n + x], n))
                goto bad;
    }
    if (!rd_word(f, "p"))
        goto bad;
    for (uint32_t x = 0; x < n; x++) {
        if (!rd_u(f, &v, 2))
            goto bad;
        s.p[x] = (uint8_t)v;
    }
    if (!rd_word(f, "pred"))
        goto bad;
    for (uint32_t x = 0; x < n; x++)
        if (!rd_u(f, &s.pred[x], n) || !rd_u(f, &s.predh[x], nh))
            goto bad;
    if (!rd_word(f, "expansions") || !rd_u(f, &s.nexp, 1u << 24))
        goto bad;
    if ((uint64_t)s.nexp * 4 > sf_remaining(&sf) + 4)
        goto bad;
    s.exp_heap = xmalloc((s.nexp + 1) * sizeof *s.exp_heap);
    s.exp_size = xmalloc((s.nexp + 1) * sizeof *s.exp_size);
    for (uint32_t i = 0; i < s.nexp; i++)
        if (!rd_u(f, &s.exp_heap[i], nh) || !rd_u(f, &s.exp_size[i], n + 1))
            goto bad;
    if (!rd_word(f, "end") || fgetc(f) != '\n' || sf_remaining(&sf) != 0)
        goto bad;
    sf_close(&sf);
    {
        CgtError e2;
        cgt_error_clear(&e2);
        e = mq_from_state(&s, game, lim, &e2);
        mq_state_free(&s);
        if (!e && e2.status == CGT_ERR_DOMAIN) {
            cgt_error_set(err, CGT_ERR_IO, "malformed checkpoint '%s'", path);
            cgt_error_hint(err, "the file is left untouched; move it away to start afresh");
        } else if (!e) {
            *err = e2;
        }
    }
    return e;
bad:
    sf_close(&sf);
    mq_state_free(&s);
    cgt_error_set(err, CGT_ERR_IO, "malformed checkpoint '%s'", path);
    cgt_error_hint(err, "the file is left untouched; move it away to start afresh");
    return NULL;
}
