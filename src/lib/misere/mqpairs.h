/* Internal to the certificates (src/lib/misere/mqcert_close.c, the pair
 * closure of a finite quotient; src/lib/misere/mqinfcert.c, that of an
 * infinite one): the set of pairs (state, finite set of 32-bit elements)
 * that a closure reaches, docs/misere.md "Certificate".
 *
 * A successor is built element by element in an MqSetBuf, which drops
 * repeats and keeps an order-free hash of the set (a sum of mixed
 * elements), and is looked up by that hash before it is sorted: most
 * successors are pairs already in the closure, and sorting each of them
 * was most of a closure's time.  Only a new pair is sorted, so a pair's
 * elements are stored ascending and the pairs come in the same order as
 * when every successor was sorted. */
#ifndef CGT_ALGEBRA_MQPAIRS_H
#define CGT_ALGEBRA_MQPAIRS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The successor being built: its distinct elements in order of arrival,
 * and a scratch hash set of them (slots stamped with the round, so that it
 * is never cleared). */
typedef struct MqSetBuf {
    uint32_t *el;
    size_t len, cap;
    uint32_t *key, *stamp;
    size_t scap;
    uint32_t round;
    uint64_t sum;
} MqSetBuf;

/* The pairs: pair i is (st[i], pool[off[i] .. off[i+1]-1]), ascending. */
typedef struct MqPairs {
    uint32_t *st;
    size_t *off;
    uint32_t *pool;
    uint64_t *hash; /* of pair i (state and the order-free sum) */
    size_t n, cap, plen, pcap;
    uint32_t *tab; /* open addressing, pair index or UINT32_MAX */
    size_t tcap;
} MqPairs;

/* The most pairs a set holds (its indices are 32-bit): the closures stop
 * at their own limit, below this one. */
#define MQPAIRS_MAX ((size_t)UINT32_MAX - 1)

static inline uint64_t mqpairs_mix(uint32_t x)
{
    uint64_t h = (x + 1) * 0x9e3779b97f4a7c15ULL;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ULL;
    return h ^ (h >> 32);
}

static inline size_t mqsetbuf_slot(const MqSetBuf *c, uint32_t x)
{
    return (size_t)((x * 0x9e3779b97f4a7c15ULL) >> 40) & (c->scap - 1);
}

/* Start a successor of at most need elements. */
void mqsetbuf_begin(MqSetBuf *c, size_t need);
void mqsetbuf_free(MqSetBuf *c);

/* Add x unless the successor already has it. */
static inline void mqsetbuf_add(MqSetBuf *c, uint32_t x)
{
    size_t i = mqsetbuf_slot(c, x);
    while (c->stamp[i] == c->round) {
        if (c->key[i] == x)
            return;
        i = (i + 1) & (c->scap - 1);
    }
    c->stamp[i] = c->round;
    c->key[i] = x;
    c->el[c->len++] = x;
    c->sum += mqpairs_mix(x);
}

void mqpairs_init(MqPairs *P);
void mqpairs_free(MqPairs *P);
/* Adds (s, the set in c) unless present; true when it was new (then c's
 * elements have been sorted ascending, as stored).  The caller keeps the
 * count at most MQPAIRS_MAX. */
bool mqpairs_add(MqPairs *P, uint32_t s, MqSetBuf *c);

#endif
