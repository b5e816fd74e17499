/* Checkpoints of the misère engine (format of docs/misere.md
 * "Checkpoints").  A checkpoint holds only the data a quotient is made of
 * (generator actions, heap images, P-portion); resuming rebuilds the
 * Quotient from it (quotient_from_claim), runs the certificate over it and
 * only then rebuilds the engine from the certified Quotient, so a resumed
 * run starts from a certified Q(n) whatever the file holds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/misere/misere.h"
#include "lib/misere/mqint.h"
#include "lib/misere/mqquot.h"
#include "lib/util/atomicfile.h"
#include "lib/util/xalloc.h"

/* The engine holding the certified quotient Q: elements numbered in the
 * order of their least games (the numbering the engine's own trials
 * produce), one letter per distinct heap image. */
static MqEngine *engine_of(const Quotient *Q, const HeapGame *game, const MqLimits *lim,
                           CgtError *err)
{
    uint32_t n = quotient_size(Q), nh = quotient_max_heap(Q) + 1;
    const uint32_t *lorder = mqquot_least_order(Q), *qpredh;
    const uint32_t *qpred = mqquot_pred(Q, &qpredh);
    const int32_t *hl;
    const uint32_t *hflat;
    uint32_t nl = mqquot_letters(Q, &hl, &hflat);
    uint32_t *rank = xmalloc(n * sizeof *rank);
    for (uint32_t i = 0; i < n; i++)
        rank[lorder[i]] = i;
    MqPret *q = xcalloc(1, sizeof *q);
    q->n = n;
    q->nh = nh;
    q->nl = nl;
    q->hl = xmalloc(nh * sizeof *q->hl);
    memcpy(q->hl, hl, nh * sizeof *q->hl);
    q->act = xcalloc(nl + 1, sizeof *q->act);
    for (uint32_t l = 0; l < nl; l++) {
        q->act[l] = xmalloc(n * sizeof **q->act);
        for (uint32_t i = 0; i < n; i++)
            q->act[l][i] = rank[hflat[(size_t)l * n + lorder[i]]];
    }
    q->p = xcalloc((n + 63) / 64 + 1, 8);
    q->pred = xmalloc(n * sizeof *q->pred);
    q->predh = xmalloc(n * sizeof *q->predh);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t x = lorder[i];
        if (quotient_is_p(Q, x))
            q->p[i >> 6] |= (uint64_t)1 << (i & 63);
        q->pred[i] = rank[qpred[x]];
        q->predh[i] = qpredh[x];
    }
    free(rank);
    MqEngine *e = mq_new(game, lim);
    mq_engine_set_pret(e, q);
    const uint32_t *eh, *es;
    size_t ne = quotient_expansions(Q, &eh, &es);
    for (size_t i = 0; i < ne; i++)
        mq_engine_add_expansion(e, eh[i], es[i]);
    if (mqopts_extend(&e->opts, game, nh, err) != CGT_OK) {
        mq_free(e);
        return NULL;
    }
    return e;
}

/* Format version 3: the text below, sealed by atomicfile's CRC-64 line.
 * Version 2 (whole engine tables) is still read; version 1 is refused. */
CgtStatus mq_save(const MqEngine *e, const char *path, CgtError *err)
{
    AtomicFile af;
    if (af_open(&af, path, "checkpoint", true, err) != CGT_OK)
        return CGT_ERR_IO;
    MqClaim c;
    mqquot_claim_of_pret(e->q, &c);
    af_printf(&af, "cgt-misere-checkpoint 3\ngame %s\nheaps %u\nelements %u\ngenerators %d\n",
              e->name, c.n + 1, c.size, c.ngens);
    for (int g = 0; g < c.ngens; g++) {
        af_printf(&af, "act");
        for (uint32_t x = 0; x < c.size; x++)
            af_printf(&af, " %u", c.act[(size_t)g * c.size + x]);
        af_printf(&af, "\n");
    }
    af_printf(&af, "phi");
    for (uint32_t h = 0; h <= c.n; h++)
        af_printf(&af, " %u", c.phi[h]);
    af_printf(&af, "\np %zu", c.np);
    for (size_t i = 0; i < c.np; i++)
        af_printf(&af, " %u", c.p[i]);
    af_printf(&af, "\nend\n");
    mqquot_claim_free(&c);
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

static MqEngine *malformed(SealedFile *sf, const char *path, CgtError *err)
{
    sf_close(sf);
    cgt_error_set(err, CGT_ERR_IO, "malformed checkpoint '%s'", path);
    cgt_error_hint(err, "the file is left untouched; move it away to start afresh");
    return NULL;
}

/* Version 3 after the header: generators, their actions, phi, P. */
static bool read_v3(FILE *f, uint32_t nh, uint32_t n, uint64_t len, MqClaim *c, uint32_t **buf)
{
    uint32_t k, v, np;
    if (!rd_word(f, "generators") || !rd_u(f, &k, nh + 1) || (uint64_t)k * n > len)
        return false;
    uint32_t *act = buf[0] = xmalloc(((size_t)k * n + 1) * sizeof *act);
    for (uint32_t g = 0; g < k; g++) {
        if (!rd_word(f, "act"))
            return false;
        for (uint32_t x = 0; x < n; x++)
            if (!rd_u(f, &act[(size_t)g * n + x], n))
                return false;
    }
    uint32_t *phi = buf[1] = xmalloc(nh * sizeof *phi);
    if (!rd_word(f, "phi"))
        return false;
    for (uint32_t h = 0; h < nh; h++)
        if (!rd_u(f, &phi[h], n))
            return false;
    if (!rd_word(f, "p") || !rd_u(f, &np, n + 1))
        return false;
    uint32_t *p = buf[2] = xmalloc((np + 1) * sizeof *p);
    for (uint32_t i = 0; i < np; i++)
        if (!rd_u(f, &v, n) || (i && v <= p[i - 1]))
            return false;
        else
            p[i] = v;
    *c = (MqClaim){.size = n, .ngens = (int)k, .act = act, .p = p, .np = np, .phi = phi,
                   .n = nh - 1};
    return true;
}

/* Version 2 after the header: the engine's letter tables, P flags, its
 * least-game tree and expansions.  Only the data of the quotient is taken
 * (every letter's action, phi, P); the rest is derived again. */
static bool read_v2(FILE *f, uint32_t nh, uint32_t n, uint64_t len, MqClaim *c, uint32_t **buf)
{
    uint32_t nl, v;
    if (!rd_word(f, "letters") || !rd_u(f, &nl, nh + 1) || (uint64_t)nl * n > len ||
        !rd_word(f, "hl"))
        return false;
    int32_t *hl = xmalloc(nh * sizeof *hl);
    bool ok = true;
    for (uint32_t h = 0; h < nh && ok; h++) {
        int x;
        ok = fscanf(f, "%d", &x) == 1 && x >= -1 && x < (int)nl;
        hl[h] = ok ? x : -1;
    }
    uint32_t *act = buf[0] = xmalloc(((size_t)nl * n + 1) * sizeof *act);
    for (uint32_t l = 0; l < nl && ok; l++) {
        ok = rd_word(f, "act");
        for (uint32_t x = 0; x < n && ok; x++)
            ok = rd_u(f, &act[(size_t)l * n + x], n);
    }
    uint32_t *p = buf[2] = xmalloc((n + 1) * sizeof *p), np = 0;
    ok = ok && rd_word(f, "p");
    for (uint32_t x = 0; x < n && ok; x++) {
        ok = rd_u(f, &v, 2);
        if (ok && v)
            p[np++] = x;
    }
    ok = ok && rd_word(f, "pred");
    for (uint32_t x = 0; x < 2 * n && ok; x++)
        ok = rd_u(f, &v, x % 2 ? nh : n);
    uint32_t ne = 0;
    ok = ok && rd_word(f, "expansions") && rd_u(f, &ne, 1u << 24);
    for (uint32_t i = 0; i < 2 * ne && ok; i++)
        ok = rd_u(f, &v, i % 2 ? n + 1 : nh);
    uint32_t *phi = buf[1] = xmalloc(nh * sizeof *phi);
    for (uint32_t h = 0; h < nh && ok; h++)
        phi[h] = hl[h] < 0 ? 0 : act[(size_t)hl[h] * n];
    free(hl);
    *c = (MqClaim){.size = n, .ngens = (int)nl, .act = act, .p = p, .np = np, .phi = phi,
                   .n = nh - 1};
    return ok;
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
    if (!rd_word(f, "cgt-misere-checkpoint") || fscanf(f, "%d", &version) != 1)
        return malformed(&sf, path, err);
    if (version != 2 && version != 3) {
        sf_close(&sf);
        cgt_error_set(err, CGT_ERR_IO, "checkpoint '%s' has format version %d, expected 3", path,
                      version);
        cgt_error_hint(err, "the file is left untouched; move it away to start afresh");
        return NULL;
    }
    if (!rd_word(f, "game") || fscanf(f, " %511[^\n]", name) != 1)
        return malformed(&sf, path, err);
    if (strcmp(name, game->name ? game->name : "") != 0) {
        sf_close(&sf);
        cgt_error_set(err, CGT_ERR_DOMAIN, "checkpoint '%s' is for game %s, not %s", path, name,
                      game->name ? game->name : "(unnamed)");
        return NULL;
    }
    uint32_t nh, n;
    if (!rd_word(f, "heaps") || !rd_u(f, &nh, 1u << 24) || nh == 0 || !rd_word(f, "elements") ||
        !rd_u(f, &n, 1u << 30) || n == 0)
        return malformed(&sf, path, err);
    /* every table entry takes at least two bytes (" 0"): a table larger
     * than the file is refused before it is allocated */
    if ((uint64_t)n + nh > sf.len)
        return malformed(&sf, path, err);
    MqClaim c;
    uint32_t *buf[3] = {NULL, NULL, NULL};
    bool ok = version == 3 ? read_v3(f, nh, n, sf.len, &c, buf) : read_v2(f, nh, n, sf.len, &c, buf);
    ok = ok && rd_word(f, "end") && fgetc(f) == '\n' && sf_remaining(&sf) == 0;
    if (!ok) {
        for (int i = 0; i < 3; i++)
            free(buf[i]);
        return malformed(&sf, path, err);
    }
    sf_close(&sf);
    CgtError e2;
    cgt_error_clear(&e2);
    Quotient *Q = quotient_from_claim(&c, NULL, 0, &e2);
    MqEngine *e = NULL;
    MqCertInfo info;
    if (!Q) {
        cgt_error_set(err, CGT_ERR_IO, "checkpoint '%s' does not hold a quotient: %s", path,
                      e2.msg);
        cgt_error_hint(err, "the file is left untouched; move it away to start afresh");
    } else if (mq_certify(Q, game, 0, &info, &e2) != CGT_OK) {
        cgt_error_set(err, e2.status, "the quotient in checkpoint '%s' could not be certified: %s",
                      path, e2.msg);
    } else if (!(info.labelling_ok && info.reduced_ok && info.generated_ok)) {
        cgt_error_set(err, CGT_ERR_IO,
                      "checkpoint '%s' does not hold the misere quotient of %s on heaps 0..%u: "
                      "the file was altered",
                      path, name, nh - 1);
        cgt_error_hint(err, "the file is left untouched; move it away to start afresh");
    } else {
        e = engine_of(Q, game, lim, err);
    }
    quotient_free(Q);
    for (int i = 0; i < 3; i++)
        free(buf[i]);
    return e;
}
