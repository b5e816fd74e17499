/* Heaps of several kinds in one quotient (mqmix.h; docs/misere.md,
 * "Mixed and explicit-set quotients"). */
#include <stdlib.h>
#include <string.h>

#include "lib/misere/mqmix.h"
#include "lib/util/xalloc.h"

typedef struct Part {
    const HeapGame *game;
    uint32_t n, off;
    uint32_t *start, *opts; /* table part */
} Part;

struct MqMix {
    Part *parts;
    size_t k;
    uint32_t top;
    char *name;
    HeapGame hg;
};

/* The part holding heap index x >= 1. */
static const Part *part_of(const MqMix *m, uint32_t x)
{
    size_t lo = 0, hi = m->k;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (m->parts[mid].off < x)
            lo = mid;
        else
            hi = mid;
    }
    return &m->parts[lo];
}

static CgtStatus mix_options(void *ctx, uint32_t x, HeapOptions *out, CgtError *err)
{
    const MqMix *m = ctx;
    heapopts_clear(out);
    if (x == 0 || x > m->top)
        return CGT_OK;
    const Part *p = part_of(m, x);
    uint32_t h = x - p->off;
    if (!p->game) {
        for (uint32_t j = p->start[h - 1]; j < p->start[h]; j++) {
            uint32_t y = p->opts[j] ? p->opts[j] + p->off : 0;
            heapopts_add(out, &y, y ? 1 : 0);
        }
        return CGT_OK;
    }
    HeapOptions o;
    heapopts_init(&o);
    CgtStatus st = p->game->options(p->game->ctx, h, &o, err);
    uint32_t *parts = NULL;
    for (size_t j = 0; j < o.count && st == CGT_OK; j++) {
        size_t c = o.start[j + 1] - o.start[j];
        parts = xrealloc(parts, (c ? c : 1) * sizeof *parts);
        for (size_t i = 0; i < c; i++)
            parts[i] = o.parts[o.start[j] + i] + p->off;
        heapopts_add(out, parts, c);
    }
    free(parts);
    heapopts_free(&o);
    return st;
}

MqMix *mqmix_new(const MqMixPart *parts, size_t k, const char *name)
{
    MqMix *m = xcalloc(1, sizeof *m);
    m->parts = xcalloc(k ? k : 1, sizeof *m->parts);
    m->k = k;
    int max_parts = 1;
    for (size_t i = 0; i < k; i++) {
        Part *p = &m->parts[i];
        p->game = parts[i].game;
        p->n = parts[i].n;
        p->off = m->top;
        m->top += p->n;
        if (p->game) {
            if (p->game->max_parts > max_parts)
                max_parts = p->game->max_parts;
        } else {
            p->start = xmalloc(((size_t)p->n + 1) * sizeof *p->start);
            memcpy(p->start, parts[i].start, ((size_t)p->n + 1) * sizeof *p->start);
            size_t ne = p->start[p->n];
            p->opts = xmalloc((ne ? ne : 1) * sizeof *p->opts);
            if (ne)
                memcpy(p->opts, parts[i].opts, ne * sizeof *p->opts);
        }
    }
    m->name = xstrdup(name);
    m->hg = (HeapGame){m, mix_options, max_parts, -1, m->name};
    return m;
}

void mqmix_free(MqMix *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->k; i++) {
        free(m->parts[i].start);
        free(m->parts[i].opts);
    }
    free(m->parts);
    free(m->name);
    free(m);
}

const HeapGame *mqmix_heapgame(const MqMix *m)
{
    return &m->hg;
}

size_t mqmix_parts(const MqMix *m)
{
    return m->k;
}

uint32_t mqmix_part_size(const MqMix *m, size_t i)
{
    return m->parts[i].n;
}

uint32_t mqmix_index(const MqMix *m, size_t i, uint32_t h)
{
    return h ? m->parts[i].off + h : 0;
}

uint32_t mqmix_top(const MqMix *m)
{
    return m->top;
}
