/* The option lists the construction keeps for every heap (MqOpts of
 * src/lib/misere/mqint.h), packed into runs: each recalibration and each
 * verification reads the options of every heap so far, so all of them are
 * kept, but a take-and-break heap's options are a few runs with
 * periodic steps (remove t tokens, leave a and n - t - a, the t
 * interleaved), which take a few words where the list took 16 bytes an
 * option (72 MB by heap 3000 of Kayles). */
#include <stdlib.h>
#include <string.h>

#include "lib/misere/mqint.h"
#include "lib/util/xalloc.h"

static const uint32_t *opt_parts(const HeapOptions *o, size_t i)
{
    return o->parts + o->start[i];
}

static uint32_t opt_k(const HeapOptions *o, size_t i)
{
    return (uint32_t)(o->start[i + 1] - o->start[i]);
}

/* Options i, i+1, ... that a run of period p started at i covers: its
 * steps are those from option i to i+1, ..., i+p-1 to i+p (all with k
 * parts), then repeat; that is, every option j > i+p is option j-p plus
 * D = option i+p - option i. */
static size_t run_length(const HeapOptions *o, size_t i, uint32_t k, uint32_t p)
{
    if (i + p >= o->count)
        return 1;
    for (size_t j = i + 1; j <= i + p; j++)
        if (opt_k(o, j) != k)
            return 1;
    uint32_t D[MQ_RUN_MAXK];
    const uint32_t *parts = o->parts;
    const size_t *start = o->start;
    for (uint32_t q = 0; q < k; q++)
        D[q] = parts[start[i + p] + q] - parts[start[i] + q];
    size_t j = i + p + 1;
    /* the options of the run are k parts apart in parts[] */
    size_t at = start[j], back = start[j - p];
    while (j < o->count && start[j + 1] - at == k) {
        bool same = true;
        for (uint32_t q = 0; q < k && same; q++)
            same = parts[at + q] - parts[back + q] == D[q];
        if (!same)
            break;
        j++;
        at += k;
        back += k;
    }
    return j - i;
}

/* Packs the options of o (in their order) into runs: from each option,
 * the longest run of a period up to MQ_RUN_MAXP (the least period among
 * equals; a period that covers the rest of the list ends the trials). */
static void pack(MqHeapOpts *dst, const HeapOptions *o)
{
    size_t cap = 16, nw = 0;
    uint32_t *w = xmalloc(cap * sizeof *w);
    size_t i = 0;
    while (i < o->count) {
        uint32_t k = opt_k(o, i), p = 0;
        size_t len = 1;
        if (k <= MQ_RUN_MAXK)
            for (uint32_t t = 1; t <= MQ_RUN_MAXP && i + len < o->count; t++) {
                size_t l = run_length(o, i, k, t);
                if (l > len && l > t) {
                    len = l;
                    p = t;
                }
            }
        if (len == 1)
            p = 0;
        size_t need = 3 + (size_t)k * (1 + p);
        if (nw + need > cap) {
            while (nw + need > cap)
                cap *= 2;
            w = xrealloc(w, cap * sizeof *w);
        }
        const uint32_t *first = opt_parts(o, i);
        w[nw++] = (uint32_t)len;
        w[nw++] = k;
        w[nw++] = p;
        for (uint32_t q = 0; q < k; q++)
            w[nw++] = first[q];
        for (uint32_t s = 0; s < p; s++) {
            const uint32_t *a = opt_parts(o, i + s), *b = opt_parts(o, i + s + 1);
            for (uint32_t q = 0; q < k; q++)
                w[nw++] = b[q] - a[q];
        }
        i += len;
    }
    dst->count = o->count;
    dst->nw = nw;
    if (nw) {
        dst->w = xrealloc(w, nw * sizeof *w);
    } else {
        free(w);
        dst->w = NULL;
    }
}

CgtStatus mqopts_extend(MqOpts *o, const HeapGame *g, uint32_t nh, CgtError *err)
{
    if (nh <= o->nh)
        return CGT_OK;
    /* the array holds a power of two of lists (or exactly one, see
       mq_new): heap by heap, it is not copied once per heap */
    uint32_t cap = 1, want = 1;
    while (cap < o->nh)
        cap *= 2;
    while (want < nh)
        want *= 2;
    if (o->nh == 0 || want > cap)
        o->o = xrealloc(o->o, (size_t)want * sizeof *o->o);
    if (!o->has_tmp) {
        heapopts_init(&o->tmp);
        o->has_tmp = true;
    }
    for (uint32_t h = o->nh; h < nh; h++) {
        memset(&o->o[h], 0, sizeof o->o[h]);
        o->nh = h + 1;
        heapopts_clear(&o->tmp);
        CgtStatus st = g->options(g->ctx, h, &o->tmp, err);
        if (st != CGT_OK)
            return st;
        const HeapOptions *t = &o->tmp;
        for (size_t i = 0; i < t->start[t->count]; i++)
            if (t->parts[i] >= h)
                return cgt_error_set(err, CGT_ERR_INTERNAL,
                                     "heap %u has an option with a part %u not below it", h,
                                     t->parts[i]);
        pack(&o->o[h], t);
    }
    return CGT_OK;
}

void mqopts_free(MqOpts *o)
{
    for (uint32_t h = 0; h < o->nh; h++)
        free(o->o[h].w);
    free(o->o);
    if (o->has_tmp)
        heapopts_free(&o->tmp);
    memset(o, 0, sizeof *o);
}
