/* m,n,k solver: the And-Or search of Maker-Breaker nodes (Algorithms 4-5 of
 * Hsu et al., docs/mnk.md, with relevance zones) and of the strong game. */
#include "lib/mnk/mnk_int.h"

#include "lib/util/poll.h"

/* Count a node; every 1024 nodes poll for Ctrl-C, deadlines and checkpoints. */
bool mnk_tick(Solver *s)
{
    if (s->st != CGT_OK)
        return false;
    s->nodes++;
    if (s->node_limit && s->nodes > s->node_limit) {
        /* a labelled partial result: how far the search got */
        s->st = cgt_error_set(s->err, CGT_ERR_LIMIT, "mnk search stopped: node limit of %llu "
                              "reached (unfinished: %d root moves open, depth %d, max depth "
                              "%d, %zu proven positions in the table)",
                              (unsigned long long)s->node_limit,
                              s->root_left ? atomic_load(s->root_left) : -1, s->depth,
                              s->max_depth, __atomic_load_n(&s->tt->used, __ATOMIC_RELAXED));
        return false;
    }
    if ((s->stop && atomic_load_explicit(s->stop, memory_order_relaxed)) ||
        (s->watch && atomic_load_explicit(s->watch, memory_order_relaxed) == 2)) {
        s->st = CGT_ERR_LIMIT;
        s->cancelled = true;
        return false;
    }
    if (s->shared_nodes && (s->nodes & 1023) == 0)
        atomic_fetch_add_explicit(s->shared_nodes, 1024, memory_order_relaxed);
    if (!s->is_main)
        return true;
    CgtStatus st = cgt_poll();
    if (st != CGT_OK) {
        s->st = cgt_poll_error(s->err, st, "mnk search");
        return false;
    }
    if ((s->nodes & 1023) == 0) {
        double now = cgt_now();
        if (s->time_limit > 0 && now - s->t0 > s->time_limit) {
            s->st = cgt_error_set(s->err, CGT_ERR_LIMIT, "mnk search stopped: time limit of "
                                  "%g s reached", s->time_limit);
            return false;
        }
        if (s->ckpt && s->ckpt_every > 0 && now >= s->next_ckpt) {
            s->next_ckpt = now + s->ckpt_every;
            if (mnk_save_checkpoint(s) != CGT_OK) {
                s->st = CGT_ERR_IO;
                return false;
            }
        }
        if (s->tt->lock)
            pthread_mutex_lock(s->tt->lock);
        size_t used = s->tt->used;
        unsigned long long dropped = s->tt->evictions;
        if (s->tt->lock)
            pthread_mutex_unlock(s->tt->lock);
        /* threads: the nodes of all workers (each adds its own by 1024) */
        uint64_t total = s->shared_nodes ? atomic_load(s->shared_nodes) : s->nodes;
        cgt_progress("mnk", "%llu nodes, %.0f nodes/s, depth %d (max %d), %d root moves open, "
                     "%zu table entries, %llu dropped", (unsigned long long)total,
                     (double)total / (now - s->t0 + 1e-9), s->depth, s->max_depth,
                     s->root_left ? atomic_load(s->root_left) : 0, used, dropped);
    }
    return true;
}

/* Relevance zones (Hsu, Ko, Chen, Wei, Hsueh, Wu, TCS 815 (2020), the
 * published version of the m,n,k paper; docs/mnk.md "Relevance zones").  A Breaker
 * win of a position P comes with a set Z of P's empty cells such that
 * Breaker still wins (same player to move) when Maker is given any set of
 * empty cells outside Z.  Extra Maker marks only help Maker, so a Breaker
 * win of P + Xv + Ob with zone Z also refutes every other Maker move u
 * outside Z: P + Xu + Ob has fewer Maker marks than P + Xv + Ob + X(E \ Z).
 * Zones: no live line -> {}; Property 1 -> the empty cells on live lines;
 * pairing -> the paired cells; reduction -> the reduced zone plus V_pair;
 * Breaker reply b -> the child's zone plus b; Maker node -> the union of the
 * searched children's zones plus one dominator of each pruned dominated
 * move (Theorem 2 needs it empty).  Stored in the table in canonical
 * coordinates. */


/* The cheap tests of a Maker-to-move position: reduction (Theorem 1),
 * immediate Maker wins, the table, Property 1 for every Maker move, and a
 * pairing strategy.  Returns V_BREAKER, V_MAKER or 0 (undecided); *o gets
 * the reduced Breaker mask, *e, *key and *symp its analysis when undecided;
 * *zone the relevance zone (of the unreduced position) when V_BREAKER. */
int mnk_maker_quick(Solver *s, Bits x, Bits *op, Eval *e, uint64_t *key, int *symp,
                    int *move, bool use_tt, Bits *zone)
{
    const Geo *g = &s->g;
    Bits o = mnk_reduce(g, x, *op, NULL, NULL, NULL);
    *zone = o & ~*op; /* V_pair: the cells the reduction gave to Breaker */
    *op = o;
    mnk_evaluate(g, x, o, true, e);
    if (e->complete) {
        *zone = BITS0;
        return V_MAKER;
    }
    if (bits_any(e->threats)) {
        if (move)
            *move = bits_ctz(e->threats);
        *zone = bits_low(e->threats);
        return V_MAKER;
    }
    if (!bits_any(e->live_cells))
        return V_BREAKER;
    *key = mnk_geo_key_sym(g, x, o, SALT_MB, symp);
    Bits tz = BITS0;
    int v = mnk_tt_get_zone(s->tt, *key, &tz);
    if (v && use_tt) {
        s->hits++;
        if (v == V_BREAKER)
            *zone |= mnk_zone_from_canon(g, *symp, tz) & ~x & ~o;
        else
            *zone = mnk_zone_from_canon(g, *symp, tz) & ~x & ~o;
        return v;
    }
    if (e->pot + mnk_max_weight(e) < (1L << g->k)) {
        *zone |= mnk_potential_zone(g, x, o, e, true);
        return V_BREAKER;
    }
    PairSearch ps;
    if (mnk_find_pairing(g, x, o, &ps, PAIR_QUICK)) {
        *zone |= mnk_pair_cells(&ps);
        return V_BREAKER;
    }
    return 0;
}

/* Maker to move (Algorithm 4).  Returns true when Breaker wins; *move gets
 * Maker's winning move when Maker wins; *zone (if not NULL) the relevance
 * zone of the result (of a Breaker win, or of a Maker win: the cells that
 * must stay open to Maker, see mb_breaker_node).  With zones on, a Maker
 * move outside the zone of an already refuted move is refuted by that
 * move's reply and not searched. */
bool mnk_mb_maker_node(Solver *s, Bits x, Bits o, int *move, Bits *zone)
{
    const Geo *g = &s->g;
    Bits zdummy;
    if (!zone)
        zone = &zdummy;
    *zone = g->full & ~x & ~o;
    if (move)
        *move = -1;
    if (!mnk_tick(s))
        return true;
    Eval e;
    uint64_t key = 0, n0 = s->nodes;
    Bits o0 = o;
    int sym = 0;
    int q = mnk_maker_quick(s, x, &o, &e, &key, &sym, move, move == NULL, zone);
    if (q)
        return q == V_BREAKER;
    /* a longer pairing search before the expensive expansion */
    PairSearch ps;
    if (mnk_find_pairing(g, x, o, &ps, PAIR_DEEP)) {
        Bits pz = mnk_pair_cells(&ps);
        mnk_tt_put_zone(s->tt, key, V_BREAKER, mnk_zone_to_canon(g, sym, pz));
        *zone = pz | (o & ~o0);
        return true;
    }
    Bits empty = g->full & ~x & ~o;
    Bits undom = mnk_undominated(&e, e.live_cells);
    int mv[MNK_CELLS];
    int nm = mnk_order_moves(e.w, undom, mv);
    s->depth++;
    if (s->depth > s->max_depth)
        s->max_depth = s->depth;
    bool breaker = true;
    Bits z = BITS0, refuted = BITS0;
    int nloop = nm;
    if (s->par) {
        int tv = 0;
        Bits tz = BITS0;
        int i = mnk_par_children(s, true, x, o, mv, nm, empty, key, move == NULL, &z, &refuted,
                                 &tv, &tz);
        if (i == MNK_PAR_SOLVED) {
            s->depth--;
            tz = mnk_zone_from_canon(g, sym, tz) & empty;
            *zone = tv == V_BREAKER ? tz | (o & ~o0) : tz;
            return tv == V_BREAKER;
        }
        if (i >= 0) {
            breaker = false;
            if (move)
                *move = mv[i];
        }
        nloop = 0;
    }
    for (int i = 0; i < nloop; i++) {
        if (s->zones && bits_has(refuted, mv[i]))
            continue;
        Bits zc = BITS0;
        bool r = mnk_mb_breaker_node(s, x | BIT(mv[i]), o, NULL, &zc);
        if (s->st != CGT_OK)
            break;
        if (!r) {
            breaker = false;
            if (move)
                *move = mv[i];
            z = (zc | BIT(mv[i])) & empty;
            break;
        }
        z |= zc;
        refuted |= empty & ~zc;
    }
    s->depth--;
    if (s->st != CGT_OK)
        return true;
    if (!breaker) {
        /* Maker's zone: the move and the zone of the Breaker node after it
         * (the reduction's cells are Breaker's anyway) */
        mnk_tt_store(s->tt, key, V_MAKER, mnk_zone_to_canon(g, sym, z),
                     mnk_work_of(s->nodes - n0));
        *zone = z;
        return false;
    }
    /* A dominated move not refuted by a zone is refuted by Theorem 2, which
     * needs one of its dominators (after the reduction every dominator is
     * strict) to stay empty. */
    for (Bits b = e.live_cells & ~undom & ~refuted; bits_any(b); b = bits_drop(b)) {
        int u = mnk_dominator(&e, e.live_cells, bits_ctz(b));
        if (u >= 0)
            z |= BIT(u);
    }
    z &= empty;
    mnk_tt_store(s->tt, key, V_BREAKER, mnk_zone_to_canon(g, sym, z), mnk_work_of(s->nodes - n0));
    *zone = z | (o & ~o0);
    return true;
}

/* Breaker to move (Algorithm 5).  Returns true when Breaker wins; *reply
 * gets a winning reply (-1 when Property 1 already decides); *zone (if not
 * NULL) the relevance zone of the result.  Of a Breaker win: the reply's
 * zone plus the reply.  Of a Maker win, the dual notion: a set Z of empty
 * cells such that Maker still wins when Breaker is given every empty cell
 * outside Z (extra Breaker marks never help Maker, so any subset too).  A
 * Breaker reply b2 outside the Maker zone Z of a losing reply b loses as
 * well (P + Ob2 has fewer Breaker marks than P + Ob + O(E \ Z)), so it is
 * not searched. */
bool mnk_mb_breaker_node(Solver *s, Bits x, Bits o, int *reply, Bits *zone)
{
    const Geo *g = &s->g;
    Bits zdummy;
    if (!zone)
        zone = &zdummy;
    Bits empty = g->full & ~x & ~o;
    uint64_t n0 = s->nodes;
    *zone = empty;
    if (reply)
        *reply = -1;
    if (!mnk_tick(s))
        return true;
    Eval e;
    mnk_evaluate(g, x, o, true, &e);
    if (e.complete) {
        *zone = BITS0;
        return false;
    }
    if (e.pot < (1L << g->k)) {
        *zone = mnk_potential_zone(g, x, o, &e, false);
        return true; /* Property 1 */
    }
    Bits cand;
    int nt = bits_pc(e.threats);
    if (nt >= 2) {
        *zone = e.threats;
        return false;
    }
    if (nt == 1)
        cand = e.threats;
    else
        cand = mnk_undominated(&e, e.live_cells);
    int mv[MNK_CELLS];
    int nm = mnk_order_moves(e.w, cand, mv);
    int sym = 0;
    uint64_t key = mnk_geo_key_sym(g, x, o, SALT_MBB, &sym);
    Bits tz = BITS0;
    int tv = mnk_tt_get_zone(s->tt, key, &tz);
    if (tv && !reply) {
        s->hits++;
        *zone = mnk_zone_from_canon(g, sym, tz) & empty;
        return tv == V_BREAKER;
    }
    /* Try the replies that the cheap tests close before any deep search. */
    for (int i = 0; i < nm; i++) {
        Eval e2;
        Bits o2 = o | BIT(mv[i]), zq = BITS0;
        uint64_t k2 = 0;
        int sym2 = 0;
        if (mnk_maker_quick(s, x, &o2, &e2, &k2, &sym2, NULL, true, &zq) == V_BREAKER) {
            if (reply)
                *reply = mv[i];
            *zone = (zq | BIT(mv[i])) & empty;
            mnk_tt_put_zone(s->tt, key, V_BREAKER, mnk_zone_to_canon(g, sym, *zone));
            return true;
        }
    }
    s->depth++;
    if (s->depth > s->max_depth)
        s->max_depth = s->depth;
    bool breaker = false;
    Bits z = BITS0, lost = BITS0;
    int nloop = nm;
    if (s->par) {
        int tv2 = 0;
        Bits tz2 = BITS0;
        int i = mnk_par_children(s, false, x, o, mv, nm, empty, key, reply == NULL, &z, &lost,
                                 &tv2, &tz2);
        if (i == MNK_PAR_SOLVED) {
            s->depth--;
            *zone = mnk_zone_from_canon(g, sym, tz2) & empty;
            return tv2 == V_BREAKER;
        }
        if (i >= 0) {
            breaker = true;
            if (reply)
                *reply = mv[i];
        }
        nloop = 0;
    }
    for (int i = 0; i < nloop; i++) {
        if (s->zones && bits_has(lost, mv[i]))
            continue;
        Bits zc = BITS0;
        bool r = mnk_mb_maker_node(s, x, o | BIT(mv[i]), NULL, &zc);
        if (s->st != CGT_OK)
            break;
        if (r) {
            breaker = true;
            z = (zc | BIT(mv[i])) & empty;
            if (reply)
                *reply = mv[i];
            break;
        }
        z |= zc;
        lost |= empty & ~zc;
    }
    s->depth--;
    if (s->st != CGT_OK)
        return true;
    if (!breaker) {
        /* Other Breaker moves: with one threat they lose at once (the threat
         * cell must stay open); otherwise a dominated move not already lost
         * by a zone loses by Theorem 2 if its dominator stays open; a move
         * on no live line is a pass, no better than any move. */
        if (nt == 1)
            z |= e.threats;
        else
            for (Bits b = e.live_cells & ~cand & ~lost; bits_any(b); b = bits_drop(b)) {
                int u = mnk_dominator(&e, e.live_cells, bits_ctz(b));
                if (u >= 0)
                    z |= BIT(u);
            }
        z &= empty;
    }
    *zone = z;
    mnk_tt_store(s->tt, key, breaker ? V_BREAKER : V_MAKER, mnk_zone_to_canon(g, sym, z),
                 mnk_work_of(s->nodes - n0));
    return breaker;
}

/* ---------------------------------------------------------- strong game */

/* Strong game: can attacker A (marks a) complete a k-line before defender D
 * (marks d) does?  A Maker-Breaker Breaker win for D proves A cannot (D's
 * own lines only help D); forced moves answer single threats; two threats
 * of the side not to move win for it.  Returns true when A wins. */
bool mnk_strong_def(Solver *s, Bits a, Bits d);

void mnk_threats_of(const Geo *g, Bits a, Bits d, Bits *thr, bool *complete)
{
    Bits empty = g->full & ~a & ~d;
    *thr = BITS0;
    *complete = false;
    for (int l = 0; l < g->nlines; l++) {
        Bits ln = g->line[l];
        if (bits_any(ln & d))
            continue;
        int cnt = bits_pc(ln & a);
        if (cnt == g->k)
            *complete = true;
        else if (cnt == g->k - 1)
            *thr |= ln & empty;
    }
}

int mnk_strong_moves(const Geo *g, Bits a, Bits d, Bits cand, int *mv)
{
    Eval ea, ed;
    mnk_evaluate(g, a, d, false, &ea);
    mnk_evaluate(g, d, a, false, &ed);
    long w[MNK_CELLS];
    for (int c = 0; c < g->cells; c++)
        w[c] = ea.w[c] + ed.w[c];
    return mnk_order_moves(w, cand & (ea.live_cells | ed.live_cells), mv);
}

bool mnk_strong_att(Solver *s, Bits a, Bits d, int *move)
{
    const Geo *g = &s->g;
    if (move)
        *move = -1;
    if (!mnk_tick(s))
        return false;
    Bits ta, td;
    bool ca, cd;
    mnk_threats_of(g, a, d, &ta, &ca);
    mnk_threats_of(g, d, a, &td, &cd);
    if (ca)
        return true;
    if (cd)
        return false;
    if (bits_any(ta)) {
        if (move)
            *move = bits_ctz(ta);
        return true;
    }
    if (bits_pc(td) >= 2)
        return false;
    uint64_t key = mnk_geo_key(g, a, d, SALT_SA);
    int v = mnk_tt_get(s->tt, key);
    if (v && !move) {
        s->hits++;
        return v == S_WINS;
    }
    if (mnk_mb_maker_node(s, a, d, NULL, NULL))
        return false;
    if (s->st != CGT_OK)
        return false;
    Bits empty = g->full & ~a & ~d;
    int mv[MNK_CELLS];
    int nm = mnk_strong_moves(g, a, d, bits_any(td) ? td : empty, mv);
    bool wins = false;
    s->depth++;
    for (int i = 0; i < nm; i++) {
        bool r = mnk_strong_def(s, a | BIT(mv[i]), d);
        if (s->st != CGT_OK)
            break;
        if (r) {
            wins = true;
            if (move)
                *move = mv[i];
            break;
        }
    }
    s->depth--;
    if (s->st != CGT_OK)
        return false;
    mnk_tt_put(s->tt, key, wins ? S_WINS : S_FAILS);
    return wins;
}

bool mnk_strong_def(Solver *s, Bits a, Bits d)
{
    const Geo *g = &s->g;
    if (!mnk_tick(s))
        return false;
    Bits ta, td;
    bool ca, cd;
    mnk_threats_of(g, a, d, &ta, &ca);
    mnk_threats_of(g, d, a, &td, &cd);
    if (ca)
        return true;
    if (cd || bits_any(td))
        return false;
    if (bits_pc(ta) >= 2)
        return true;
    uint64_t key = mnk_geo_key(g, a, d, SALT_SD);
    int v = mnk_tt_get(s->tt, key);
    if (v) {
        s->hits++;
        return v == S_WINS;
    }
    if (mnk_mb_breaker_node(s, a, d, NULL, NULL))
        return false;
    if (s->st != CGT_OK)
        return false;
    Bits empty = g->full & ~a & ~d;
    int mv[MNK_CELLS];
    int nm = mnk_strong_moves(g, a, d, bits_any(ta) ? ta : empty, mv);
    bool wins = true;
    s->depth++;
    for (int i = 0; i < nm; i++) {
        bool r = mnk_strong_att(s, a, d | BIT(mv[i]), NULL);
        if (s->st != CGT_OK)
            break;
        if (!r) {
            wins = false;
            break;
        }
    }
    s->depth--;
    if (nm == 0)
        wins = false;
    if (s->st != CGT_OK)
        return false;
    mnk_tt_put(s->tt, key, wins ? S_WINS : S_FAILS);
    return wins;
}
