/* Genus g^{γ0γ1...} of positions of a heap game (Conway, ONAG ch. 12;
 * Winning Ways ch. 13): a memoised search over sorted multisets of heaps,
 * independent of the quotient; used to attach genera to P-position types. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/misere/misere.h"
#include "lib/util/hash.h"
#include "lib/util/poll.h"
#include "lib/util/xalloc.h"

#define GK 12 /* γ0 .. γ11 */

typedef struct GEnt {
    uint32_t off, len; /* key in pool */
    uint16_t v[GK + 1]; /* g, γ0..γ(K-1) */
} GEnt;

typedef struct GMemo {
    const HeapGame *game;
    HeapOptions *opts;
    uint32_t nopts;
    uint32_t *pool;
    size_t plen, pcap;
    GEnt *ents;
    size_t cnt, ecap;
    uint32_t *tab; /* index+1 */
    size_t hcap, max;
    CgtError *err;
    CgtStatus st;
} GMemo;

static uint64_t key_hash(const uint32_t *k, uint32_t len)
{
    return hash_bytes(k, (size_t)len * sizeof *k) ^ len;
}

static uint32_t *find_slot(GMemo *m, const uint32_t *k, uint32_t len)
{
    size_t i = (size_t)key_hash(k, len) & (m->hcap - 1);
    for (;;) {
        uint32_t v = m->tab[i];
        if (!v)
            return &m->tab[i];
        const GEnt *e = &m->ents[v - 1];
        if (e->len == len && (len == 0 || memcmp(m->pool + e->off, k, len * sizeof *k) == 0))
            return &m->tab[i];
        i = (i + 1) & (m->hcap - 1);
    }
}

static const HeapOptions *opts_of(GMemo *m, uint32_t h)
{
    if (h >= m->nopts) {
        m->opts = xrealloc(m->opts, (h + 1) * sizeof *m->opts);
        for (uint32_t i = m->nopts; i <= h; i++) {
            heapopts_init(&m->opts[i]);
            m->nopts = i + 1;
            if (m->st == CGT_OK)
                m->st = m->game->options(m->game->ctx, i, &m->opts[i], m->err);
        }
    }
    return &m->opts[h];
}

static int cmp_desc(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x < y) - (x > y);
}

static uint32_t mex(const uint8_t *seen, uint32_t lim)
{
    uint32_t v = 0;
    while (v < lim && seen[v])
        v++;
    return v;
}

/* key: heaps descending, each with at least one option.  Returns entry
 * index or UINT32_MAX on error/limit. */
static uint32_t genus_rec(GMemo *m, const uint32_t *key, uint32_t len)
{
    uint32_t *slot = find_slot(m, key, len);
    if (*slot)
        return *slot - 1;
    if (m->cnt >= m->max) {
        if (m->st == CGT_OK)
            m->st = cgt_error_set(m->err, CGT_ERR_LIMIT,
                                  "genus search needs more than %zu positions", m->max);
        return UINT32_MAX;
    }
    CgtStatus ps = cgt_poll();
    if (ps != CGT_OK) {
        if (m->st == CGT_OK)
            m->st = cgt_poll_error(m->err, ps, "genus");
        return UINT32_MAX;
    }
    /* collect option entries */
    size_t ocap = 16, on = 0;
    uint32_t *oe = xmalloc(ocap * sizeof *oe);
    uint32_t *nk = xmalloc((len + 16) * sizeof *nk);
    for (uint32_t i = 0; i < len; i++) {
        if (i > 0 && key[i] == key[i - 1])
            continue;
        const HeapOptions *o = opts_of(m, key[i]);
        if (m->st != CGT_OK)
            break;
        for (size_t j = 0; j < o->count; j++) {
            size_t np = o->start[j + 1] - o->start[j];
            nk = xrealloc(nk, (len + np + 1) * sizeof *nk);
            uint32_t k = 0;
            for (uint32_t a = 0; a < len; a++)
                if (a != i)
                    nk[k++] = key[a];
            for (size_t a = o->start[j]; a < o->start[j + 1]; a++) {
                const HeapOptions *po = opts_of(m, o->parts[a]);
                if (po->count)
                    nk[k++] = o->parts[a];
            }
            qsort(nk, k, sizeof *nk, cmp_desc);
            uint32_t r = genus_rec(m, nk, k);
            if (r == UINT32_MAX) {
                free(oe);
                free(nk);
                return UINT32_MAX;
            }
            if (on == ocap) {
                ocap *= 2;
                oe = xrealloc(oe, ocap * sizeof *oe);
            }
            oe[on++] = r;
        }
    }
    free(nk);
    if (m->st != CGT_OK) {
        free(oe);
        return UINT32_MAX;
    }
    GEnt e = {0};
    uint32_t lim = (uint32_t)on + 4;
    uint8_t *seen = xcalloc(lim + 1, 1);
    for (int c = 0; c <= GK; c++) {
        memset(seen, 0, lim + 1);
        for (size_t j = 0; j < on; j++)
            if (m->ents[oe[j]].v[c] < lim)
                seen[m->ents[oe[j]].v[c]] = 1;
        if (c >= 2) {
            uint32_t prev = e.v[c - 1];
            if (prev < lim)
                seen[prev] = 1;
            if ((prev ^ 1) < lim)
                seen[prev ^ 1] = 1;
        }
        if (c == 1 && on == 0)
            e.v[c] = 1;
        else
            e.v[c] = (uint16_t)mex(seen, lim + 1);
    }
    free(seen);
    free(oe);
    /* store */
    if (m->plen + len > m->pcap) {
        while (m->plen + len > m->pcap)
            m->pcap = m->pcap ? 2 * m->pcap : 1024;
        m->pool = xrealloc(m->pool, m->pcap * sizeof *m->pool);
    }
    if (len)
        memcpy(m->pool + m->plen, key, len * sizeof *key);
    e.off = (uint32_t)m->plen;
    e.len = len;
    m->plen += len;
    if (m->cnt == m->ecap) {
        m->ecap = m->ecap ? 2 * m->ecap : 1024;
        m->ents = xrealloc(m->ents, m->ecap * sizeof *m->ents);
    }
    m->ents[m->cnt++] = e;
    if (2 * m->cnt > m->hcap) {
        m->hcap *= 2;
        free(m->tab);
        m->tab = xcalloc(m->hcap, sizeof *m->tab);
        for (size_t i = 0; i < m->cnt; i++)
            *find_slot(m, m->pool + m->ents[i].off, m->ents[i].len) = (uint32_t)i + 1;
    } else {
        *find_slot(m, key, len) = (uint32_t)m->cnt;
    }
    return (uint32_t)m->cnt - 1;
}

static char *format_genus(const uint16_t *v)
{
    /* γ = v[1..GK]; print up to where the 2-alternation starts */
    int j = 0;
    for (j = 0; j + 2 < GK; j++) {
        bool alt = true;
        for (int i = j; i + 2 < GK; i++)
            if (v[1 + i] != v[1 + i + 2])
                alt = false;
        if (alt)
            break;
    }
    char buf[256];
    int len = snprintf(buf, sizeof buf, "%u^", v[0]);
    for (int i = 0; i <= j + 1 && i < GK; i++)
        len += snprintf(buf + len, sizeof buf - (size_t)len, "%u", v[1 + i]);
    return xstrdup(buf);
}

CgtStatus mq_genus_position(const HeapGame *game, const uint32_t *heaps, size_t k,
                            size_t max_positions, char **out, CgtError *err)
{
    GMemo m = {0};
    m.game = game;
    m.hcap = 1024;
    m.tab = xcalloc(m.hcap, sizeof *m.tab);
    m.max = max_positions ? max_positions : 2000000;
    m.err = err;
    uint32_t *key = xmalloc((k + 1) * sizeof *key), len = 0;
    for (size_t i = 0; i < k; i++) {
        const HeapOptions *o = opts_of(&m, heaps[i]);
        if (o->count)
            key[len++] = heaps[i];
    }
    qsort(key, len, sizeof *key, cmp_desc);
    *out = NULL;
    uint32_t r = m.st == CGT_OK ? genus_rec(&m, key, len) : UINT32_MAX;
    if (r != UINT32_MAX)
        *out = format_genus(m.ents[r].v);
    CgtStatus st = m.st;
    free(key);
    for (uint32_t i = 0; i < m.nopts; i++)
        heapopts_free(&m.opts[i]);
    free(m.opts);
    free(m.pool);
    free(m.ents);
    free(m.tab);
    return st;
}

CgtStatus quotient_genus(const Quotient *q, const HeapGame *game, uint32_t x, size_t max_positions,
                         char **out, CgtError *err)
{
    uint32_t maxh = quotient_max_heap(q);
    uint32_t *g = xcalloc(maxh + 1, sizeof *g);
    quotient_least_game(q, x, g);
    size_t k = 0;
    for (uint32_t h = 0; h <= maxh; h++)
        k += g[h];
    uint32_t *heaps = xmalloc((k + 1) * sizeof *heaps);
    k = 0;
    for (uint32_t h = 0; h <= maxh; h++)
        for (uint32_t i = 0; i < g[h]; i++)
            heaps[k++] = h;
    CgtStatus st = mq_genus_position(game, heaps, k, max_positions, out, err);
    free(heaps);
    free(g);
    return st;
}
