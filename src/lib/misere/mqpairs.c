/* The pair sets of the certificates' closures (src/lib/misere/mqpairs.h). */
#include "lib/misere/mqpairs.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util/xalloc.h"

void mqsetbuf_begin(MqSetBuf *c, size_t need)
{
    if (need > c->cap || !c->el) {
        c->cap = need ? need * 2 : 16;
        c->el = xrealloc(c->el, c->cap * sizeof *c->el);
    }
    if (2 * need > c->scap || !c->key) {
        if (c->scap < 64)
            c->scap = 64;
        while (2 * need > c->scap)
            c->scap *= 2;
        free(c->key);
        free(c->stamp);
        c->key = xmalloc(c->scap * sizeof *c->key);
        c->stamp = xcalloc(c->scap, sizeof *c->stamp);
        c->round = 0;
    }
    if (++c->round == 0) {
        memset(c->stamp, 0, c->scap * sizeof *c->stamp);
        c->round = 1;
    }
    c->len = 0;
    c->sum = 0;
}

void mqsetbuf_free(MqSetBuf *c)
{
    free(c->el);
    free(c->key);
    free(c->stamp);
    memset(c, 0, sizeof *c);
}

static bool setbuf_has(const MqSetBuf *c, uint32_t x)
{
    size_t i = mqsetbuf_slot(c, x);
    while (c->stamp[i] == c->round) {
        if (c->key[i] == x)
            return true;
        i = (i + 1) & (c->scap - 1);
    }
    return false;
}

static uint64_t pair_hash(uint32_t s, uint64_t elsum)
{
    uint64_t h = (s + 1) * 0x9e3779b97f4a7c15ULL + elsum * 0x100000001b3ULL;
    return h ^ (h >> 31);
}

static void pairs_rehash(MqPairs *P)
{
    free(P->tab);
    P->tab = xmalloc(P->tcap * sizeof *P->tab);
    memset(P->tab, 0xff, P->tcap * sizeof *P->tab);
    for (size_t i = 0; i < P->n; i++) {
        size_t sl = P->hash[i] & (P->tcap - 1);
        while (P->tab[sl] != UINT32_MAX)
            sl = (sl + 1) & (P->tcap - 1);
        P->tab[sl] = (uint32_t)i;
    }
}

void mqpairs_init(MqPairs *P)
{
    memset(P, 0, sizeof *P);
    P->cap = 1024;
    P->st = xmalloc(P->cap * sizeof *P->st);
    P->hash = xmalloc(P->cap * sizeof *P->hash);
    P->off = xmalloc((P->cap + 1) * sizeof *P->off);
    P->off[0] = 0;
    P->pcap = 4096;
    P->pool = xmalloc(P->pcap * sizeof *P->pool);
    P->tcap = 4096;
    pairs_rehash(P);
}

void mqpairs_free(MqPairs *P)
{
    free(P->st);
    free(P->hash);
    free(P->off);
    free(P->pool);
    free(P->tab);
    memset(P, 0, sizeof *P);
}

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}

bool mqpairs_add(MqPairs *P, uint32_t s, MqSetBuf *c)
{
    size_t len = c->len;
    uint64_t h = pair_hash(s, c->sum);
    size_t sl = h & (P->tcap - 1);
    while (P->tab[sl] != UINT32_MAX) {
        size_t i = P->tab[sl];
        if (P->hash[i] == h && P->st[i] == s && P->off[i + 1] - P->off[i] == len) {
            /* both sets are free of repeats: equal when one holds the other */
            size_t q = P->off[i];
            while (q < P->off[i + 1] && setbuf_has(c, P->pool[q]))
                q++;
            if (q == P->off[i + 1])
                return false;
        }
        sl = (sl + 1) & (P->tcap - 1);
    }
    if (P->n + 2 > P->cap) {
        P->cap *= 2;
        P->st = xrealloc(P->st, P->cap * sizeof *P->st);
        P->hash = xrealloc(P->hash, P->cap * sizeof *P->hash);
        P->off = xrealloc(P->off, (P->cap + 1) * sizeof *P->off);
    }
    while (P->plen + len > P->pcap) {
        P->pcap *= 2;
        P->pool = xrealloc(P->pool, P->pcap * sizeof *P->pool);
    }
    if (len) {
        qsort(c->el, len, sizeof *c->el, cmp_u32);
        memcpy(P->pool + P->plen, c->el, len * sizeof *c->el);
    }
    P->plen += len;
    P->st[P->n] = s;
    P->hash[P->n] = h;
    P->off[P->n + 1] = P->plen;
    P->tab[sl] = (uint32_t)P->n;
    P->n++;
    if (P->n * 2 > P->tcap) {
        P->tcap *= 2;
        pairs_rehash(P);
    }
    return true;
}
