/* m,n,k solver: partial-pairing reduction (Theorem 1) and the search for a
 * pairing strategy (Hsu et al. sec. 2.2, docs/mnk.md). */
#include "lib/mnk/mnk_int.h"

#include <string.h>


/* Partial-pairing reduction before a Maker move (Theorem 1, Algorithm 2):
 * empty cells on no live line are redundant, and two mutually dominated
 * cells (same live lines) form a partial pair.  Both kinds are given to
 * Breaker, which by Theorem 1 keeps the value of the game: marking every
 * cell of V_pair for Breaker removes exactly V_pair and E_pair.  Returns
 * the new Breaker mask; pairs and singles are reported if asked. */
Bits mnk_reduce(const Geo *g, Bits x, Bits o, int (*pairs)[2], int *npairs,
                    Bits *singles)
{
    Eval e;
    for (;;) {
        mnk_evaluate(g, x, o, true, &e);
        Bits empty = g->full & ~x & ~o;
        Bits dead = empty & ~e.live_cells;
        Bits add = dead;
        if (singles)
            *singles |= dead;
        Bits used = dead;
        for (Bits b = e.live_cells; bits_any(b); b = bits_drop(b)) {
            int v = bits_ctz(b);
            if (bits_has(used, v))
                continue;
            Bits cand = e.inter[v] & e.live_cells & ~used & ~(BIT(v));
            for (Bits d = cand; bits_any(d); d = bits_drop(d)) {
                int u = bits_ctz(d);
                if (bits_has(e.inter[u], v)) {
                    used |= BIT(v) | BIT(u);
                    add |= BIT(v) | BIT(u);
                    if (pairs) {
                        pairs[*npairs][0] = v;
                        pairs[*npairs][1] = u;
                        (*npairs)++;
                    }
                    break;
                }
            }
        }
        if (!bits_any(add))
            return o;
        o |= add;
    }
}


/* Add d (+1 or -1) to the unassigned-cell counts of the lines through c. */
static void ps_count(PairSearch *ps, int c, int d)
{
    for (int w = 0; w < ps->nw; w++)
        for (uint64_t b = ps->inc[c][w]; b; b &= b - 1) {
            int i = w * 64 + __builtin_ctzll(b);
            ps->bucket[ps->cnt[i]][w] &= ~(b & (~b + 1));
            ps->cnt[i] = (uint8_t)(ps->cnt[i] + d);
            ps->bucket[ps->cnt[i]][w] |= b & (~b + 1);
        }
}

static bool pair_rec(PairSearch *ps, const uint64_t *left, Bits assigned)
{
    int nw = ps->nw;
    bool any = false;
    for (int w = 0; w < nw; w++)
        any |= left[w] != 0;
    if (!any)
        return true;
    if (--ps->budget < 0)
        return false;
    /* the first remaining line with the fewest unassigned cells */
    int best = -1, bestn = 99;
    for (int c = 0; c <= ps->k && best < 0; c++)
        for (int w = 0; w < nw; w++)
            if (left[w] & ps->bucket[c][w]) {
                best = w * 64 + __builtin_ctzll(left[w] & ps->bucket[c][w]);
                bestn = c;
                break;
            }
    if (bestn < 2)
        return false;
    Bits free_cells = ps->lines[best] & ~assigned;
    int cells[MNK_MAX_CELLS], nc = 0;
    for (Bits b = free_cells; bits_any(b); b = bits_drop(b))
        cells[nc++] = bits_ctz(b);
    int na = 0, pa[64], pb[64], sc[64];
    for (int i = 0; i < nc && na < 64; i++)
        for (int j = i + 1; j < nc && na < 64; j++) {
            const uint64_t *ia = ps->inc[cells[i]], *ib = ps->inc[cells[j]];
            int score = 0;
            for (int w = 0; w < nw; w++)
                score += 4 * pc64(ia[w] & ib[w] & left[w]) - pc64((ia[w] ^ ib[w]) & left[w]);
            int p = na++;
            while (p > 0 && sc[p - 1] < score) {
                pa[p] = pa[p - 1];
                pb[p] = pb[p - 1];
                sc[p] = sc[p - 1];
                p--;
            }
            pa[p] = cells[i];
            pb[p] = cells[j];
            sc[p] = score;
        }
    int tries = bestn == 2 ? 1 : 3;
    for (int t = 0; t < na && t < tries; t++) {
        Bits pm = BIT(pa[t]) | BIT(pb[t]);
        uint64_t rest[PS_WORDS];
        for (int w = 0; w < nw; w++)
            rest[w] = left[w] & ~(ps->inc[pa[t]][w] & ps->inc[pb[t]][w]);
        ps->pairs[ps->npairs][0] = pa[t];
        ps->pairs[ps->npairs][1] = pb[t];
        ps->npairs++;
        ps_count(ps, pa[t], -1);
        ps_count(ps, pb[t], -1);
        bool ok = pair_rec(ps, rest, assigned | pm);
        ps_count(ps, pa[t], 1);
        ps_count(ps, pb[t], 1);
        if (ok)
            return true;
        ps->npairs--;
        if (ps->budget < 0)
            break;
    }
    return false;
}

/* The cells of the pairs found by find_pairing. */
Bits mnk_pair_cells(const PairSearch *ps)
{
    Bits z = BITS0;
    for (int i = 0; i < ps->npairs; i++)
        z |= BIT(ps->pairs[i][0]) | BIT(ps->pairs[i][1]);
    return z;
}

/* A pairing covering every live line of (x, o), into *ps; false if none found. */
bool mnk_find_pairing(const Geo *g, Bits x, Bits o, PairSearch *ps, int budget)
{
    int nl = 0;
    Bits empty = g->full & ~x & ~o;
    Bits live_cells = BITS0;
    for (int l = 0; l < g->nlines; l++)
        if (!bits_any(g->line[l] & o)) {
            ps->lines[nl++] = g->line[l] & empty;
            live_cells |= g->line[l] & empty;
        }
    ps->g = g;
    ps->budget = budget;
    ps->npairs = 0;
    ps->nw = (nl + 63) / 64;
    ps->k = g->k;
    memset(ps->bucket, 0, sizeof(ps->bucket[0]) * (size_t)(g->k + 1));
    for (Bits b = live_cells; bits_any(b); b = bits_drop(b))
        memset(ps->inc[bits_ctz(b)], 0, sizeof ps->inc[0]);
    uint64_t left[PS_WORDS] = {0};
    for (int i = 0; i < nl; i++) {
        left[i / 64] |= 1ULL << (i % 64);
        ps->cnt[i] = (uint8_t)bits_pc(ps->lines[i]);
        ps->bucket[ps->cnt[i]][i / 64] |= 1ULL << (i % 64);
        for (Bits b = ps->lines[i]; bits_any(b); b = bits_drop(b))
            ps->inc[bits_ctz(b)][i / 64] |= 1ULL << (i % 64);
    }
    return pair_rec(ps, left, BITS0);
}
