/* m,n,k solver: proof files, version 1 (Maker wins, strong game) and version
 * 2 (Breaker wins, following the relevance zones); format in docs/mnk.md. */
#include "lib/mnk/mnk_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/atomicfile.h"
#include "lib/util/poll.h"
#include "lib/util/xalloc.h"

/* ------------------------------------------------------------- proofs out */

/* The proof is a DAG of exact positions, each written once (docs/mnk.md):
 * R (reduction by a partial pairing), M (all Maker moves with Breaker's
 * replies), B (Breaker's move at a Breaker-to-move root), W (Maker's
 * winning move, all Breaker replies follow), D (all Breaker moves at a
 * Breaker-to-move root of a Maker win). */
typedef struct ProofOut {
    FILE *f;
    Tt seen; /* exact positions already written (keyed without symmetry) */
    uint64_t lines;
} ProofOut;

static void put_pos(const Geo *g, FILE *f, Bits x, Bits o)
{
    for (int c = 0; c < g->cells; c++)
        fputc(bits_has(x, c) ? 'X' : bits_has(o, c) ? 'O' : '.', f);
}

/* Positions equal up to a board symmetry are written once: the checker
 * looks children up under all symmetries. */
static bool proof_seen(const Geo *g, ProofOut *p, Bits x, Bits o, int kind)
{
    uint64_t k = mnk_geo_key(g, x, o, (uint64_t)kind * 0x9e3779b97f4a7c15ULL);
    if (mnk_tt_get(&p->seen, k))
        return true;
    mnk_tt_put(&p->seen, k, 1);
    return false;
}

/* Breaker-win proof below a Maker-to-move position. */
/* One proof line "TAG position v:reply ..." for every empty cell v (a
 * reply of -1 is written "*": that move is closed by the potential). */
static void put_reply_line(const Geo *g, ProofOut *p, const char *tag, Bits x, Bits o,
                           Bits empty, const int *reply)
{
    fprintf(p->f, "%s ", tag);
    put_pos(g, p->f, x, o);
    for (Bits b = empty; bits_any(b); b = bits_drop(b)) {
        int v = bits_ctz(b);
        if (reply[v] < 0)
            fprintf(p->f, " %d:*", v);
        else
            fprintf(p->f, " %d:%d", v, reply[v]);
    }
    fputc('\n', p->f);
    p->lines++;
}

static void proof_breaker(Solver *s, ProofOut *p, Bits x, Bits o)
{
    const Geo *g = &s->g;
    if (s->st != CGT_OK || proof_seen(g, p, x, o, 'M'))
        return;
    Eval e;
    mnk_evaluate(g, x, o, false, &e);
    if (!bits_any(e.live_cells))
        return; /* no live line: the checker accepts it without a node */
    int pairs[MNK_CELLS / 2][2], np = 0;
    Bits singles = BITS0;
    Bits o2 = mnk_reduce(g, x, o, pairs, &np, &singles);
    PairSearch ps;
    ps.npairs = 0;
    bool full = false;
    if (!bits_eq(o2, o) || (full = mnk_find_pairing(g, x, o, &ps, PAIR_DEEP))) {
        if (!full && mnk_find_pairing(g, x, o2, &ps, PAIR_DEEP)) {
            for (int i = 0; i < ps.npairs; i++) {
                pairs[np][0] = ps.pairs[i][0];
                pairs[np][1] = ps.pairs[i][1];
                np++;
            }
            o2 = g->full & ~x;
        } else if (full) {
            np = ps.npairs;
            memcpy(pairs, ps.pairs, sizeof(int) * 2 * (size_t)np);
            singles = BITS0;
            o2 = g->full & ~x;
        }
        fputs("R ", p->f);
        put_pos(g, p->f, x, o);
        for (int i = 0; i < np; i++)
            fprintf(p->f, " %d-%d", pairs[i][0], pairs[i][1]);
        for (Bits b = singles; bits_any(b); b = bits_drop(b))
            fprintf(p->f, " %d", bits_ctz(b));
        if (bits_eq(o2, g->full & ~x)) {
            /* a full pairing: every other empty cell is given to Breaker too */
            Bits inpairs = BITS0;
            for (int i = 0; i < np; i++)
                inpairs |= BIT(pairs[i][0]) | BIT(pairs[i][1]);
            for (Bits b = (g->full & ~x & ~o) & ~inpairs & ~singles; bits_any(b); b = bits_drop(b))
                fprintf(p->f, " %d", bits_ctz(b));
        }
        fputc('\n', p->f);
        p->lines++;
        if (!bits_eq(o2, g->full & ~x))
            proof_breaker(s, p, x, o2);
        return;
    }
    /* M node: every empty cell is a Maker move */
    Bits empty = g->full & ~x & ~o;
    int reply[MNK_CELLS] = {0};
    for (Bits b = empty; bits_any(b); b = bits_drop(b)) {
        int v = bits_ctz(b);
        Bits x2 = x | BIT(v);
        Eval e2;
        mnk_evaluate(g, x2, o, false, &e2);
        reply[v] = -1;
        if (e2.pot < (1L << g->k))
            continue;
        if (!mnk_mb_breaker_node(s, x2, o, &reply[v], NULL) || reply[v] < 0) {
            if (s->st == CGT_OK)
                s->st = cgt_error_set(s->err, CGT_ERR_INTERNAL, "mnk proof: no Breaker reply "
                                      "found for a proven position");
            return;
        }
    }
    put_reply_line(g, p, "M", x, o, empty, reply);
    for (Bits b = empty; bits_any(b); b = bits_drop(b)) {
        int v = bits_ctz(b);
        if (reply[v] >= 0)
            proof_breaker(s, p, x | BIT(v), o | BIT(reply[v]));
    }
}

/* ------------------------------------------------- Breaker-win proofs, v2 */

/* Version 2 of the proof format (docs/mnk.md "Proof files"), written for
 * Breaker-win claims.  Nodes are numbered in file order and written after
 * their children, and a child reference is met by any node at least as
 * good for Maker (more X, fewer O, up to symmetry).  That lets the writer
 * follow the search's relevance zones (Hsu et al., TCS 815 (2020)) instead
 * of answering every Maker move: a node is written for the position A =
 * P + X(E \ Z), P with Maker given every empty cell outside its zone Z, and
 * one child A' = P + Xv + Ob + X(E' \ Z') covers every Maker move outside
 * Z' (those positions have fewer X than A').  The zone of a node is the
 * writer's own, built from the nodes it wrote (not read from the table),
 * so each written node follows from its children by one local rule. */
typedef struct P2Map {
    uint64_t *key, *id;
    Bits *zone; /* in the canonical image's cells */
    size_t cap, used;
} P2Map;

static void p2map_init(P2Map *m, size_t cap)
{
    m->cap = cap;
    m->used = 0;
    m->key = xcalloc(cap, sizeof *m->key);
    m->id = xcalloc(cap, sizeof *m->id);
    m->zone = xcalloc(cap, sizeof *m->zone);
}

static void p2map_free(P2Map *m)
{
    free(m->key);
    free(m->id);
    free(m->zone);
}

static bool p2map_get(const P2Map *m, uint64_t key, uint64_t *id, Bits *zone)
{
    for (size_t i = key & (m->cap - 1); m->key[i]; i = (i + 1) & (m->cap - 1))
        if (m->key[i] == key) {
            *id = m->id[i];
            *zone = m->zone[i];
            return true;
        }
    return false;
}

/* The writer's memory of written positions is bounded (docs/mnk.md "Proof
 * files"): two generations of at most max_cap slots each.  New positions go
 * to the current one; when it is 85% full it becomes the old one (the
 * previous old one is dropped) and a fresh current one starts.  A position
 * found only in the old generation is copied into the current one, so the
 * positions in use stay remembered.  A position forgotten and met again is
 * written again (the proof stays valid, only larger), but a recent one is
 * never forgotten, so the DAG does not unfold into a tree (with one
 * generation that stops remembering when full, the 8,8,5 proof grew without
 * end once the map had filled). */
typedef struct P2Mem {
    P2Map cur, old; /* old.cap == 0: no old generation */
    size_t max_cap;
    uint64_t rotations;
} P2Mem;

static void p2map_insert(P2Map *m, uint64_t key, uint64_t id, Bits zone)
{
    size_t i = key & (m->cap - 1);
    while (m->key[i])
        i = (i + 1) & (m->cap - 1);
    m->key[i] = key;
    m->id[i] = id;
    m->zone[i] = zone;
    m->used++;
}

static void p2mem_put(P2Mem *p, uint64_t key, uint64_t id, Bits zone)
{
    P2Map *m = &p->cur;
    if (m->cap >= p->max_cap && 20 * (m->used + 1) > 17 * m->cap) {
        if (p->old.cap)
            p2map_free(&p->old);
        p->old = *m;
        p2map_init(m, p->max_cap);
        p->rotations++;
    } else if (2 * (m->used + 1) > m->cap && m->cap < p->max_cap) {
        P2Map old = *m;
        p2map_init(m, old.cap * 2);
        for (size_t i = 0; i < old.cap; i++)
            if (old.key[i])
                p2map_insert(m, old.key[i], old.id[i], old.zone[i]);
        p2map_free(&old);
    }
    p2map_insert(m, key, id, zone);
}

static bool p2mem_get(P2Mem *p, uint64_t key, uint64_t *id, Bits *zone)
{
    if (p2map_get(&p->cur, key, id, zone))
        return true;
    if (!p->old.cap || !p2map_get(&p->old, key, id, zone))
        return false;
    p2mem_put(p, key, *id, *zone);
    return true;
}

#define SALT_PROOF 0x94d049bb133111ebULL

typedef struct P2 {
    FILE *f;
    P2Mem mem;
    uint64_t next_id; /* number of node lines written */
} P2;

typedef struct P2Res {
    uint64_t id;   /* 0: the position has no live line */
    Bits zone; /* empty cells Maker may not be given */
} P2Res;

static void p2_cells(FILE *f, Bits set)
{
    for (bool first = true; bits_any(set); set = bits_drop(set), first = false)
        fprintf(f, first ? "%d" : ",%d", bits_ctz(set));
}

static P2Res p2_fail(Solver *s, const char *what)
{
    if (s->st == CGT_OK)
        s->st = cgt_error_set(s->err, CGT_ERR_INTERNAL, "mnk proof: %s", what);
    return (P2Res){0, BITS0};
}

static P2Res p2_done(Solver *s, P2 *p, uint64_t key, int sym, Bits zone)
{
    const Geo *g = &s->g;
    p->next_id++;
    p2mem_put(&p->mem, key, p->next_id, mnk_zone_to_canon(g, sym, zone));
    if (s->lines_out) /* a worker of the threaded writer (src/lib/mnk/mnk_pproof.c) */
        atomic_fetch_add_explicit(s->lines_out, 1, memory_order_relaxed);
    else
        cgt_progress("mnk", "proof: %llu lines, %llu search nodes",
                     (unsigned long long)p->next_id, (unsigned long long)s->nodes);
    return (P2Res){p->next_id, zone};
}

/* Writes the proof that Breaker wins (x, o), Maker to move (known to hold:
 * the search proved it), and returns its node and zone. */
static P2Res p2_breaker(Solver *s, P2 *p, Bits x, Bits o)
{
    const Geo *g = &s->g;
    if (s->st != CGT_OK)
        return (P2Res){0, BITS0};
    int sym = 0;
    uint64_t key = mnk_geo_key_sym(g, x, o, SALT_PROOF, &sym), id;
    Bits cz;
    if (p2mem_get(&p->mem, key, &id, &cz))
        return (P2Res){id, mnk_zone_from_canon(g, sym, cz)};
    Bits empty = g->full & ~x & ~o;
    Eval e;
    mnk_evaluate(g, x, o, true, &e);
    if (e.complete)
        return p2_fail(s, "Maker has a line in a position proven for Breaker");
    if (!bits_any(e.live_cells))
        return (P2Res){0, BITS0};
    /* Theorem 1 reduction: R node, zone = the child's plus V_pair */
    int pairs[MNK_CELLS / 2][2], np = 0;
    Bits singles = BITS0;
    Bits o2 = mnk_reduce(g, x, o, pairs, &np, &singles);
    if (!bits_eq(o2, o)) {
        P2Res c = p2_breaker(s, p, x, o2);
        if (s->st != CGT_OK)
            return c;
        Bits zone = (c.zone | (o2 & ~o)) & empty;
        fputs("R ", p->f);
        put_pos(g, p->f, x | (empty & ~zone), o);
        for (int i = 0; i < np; i++)
            fprintf(p->f, " %d-%d", pairs[i][0], pairs[i][1]);
        for (Bits b = singles; bits_any(b); b = bits_drop(b))
            fprintf(p->f, " %d", bits_ctz(b));
        fprintf(p->f, " >%llu\n", (unsigned long long)c.id);
        return p2_done(s, p, key, sym, zone);
    }
    /* Property 1 for every Maker move: all moves "*" */
    if (e.pot + mnk_max_weight(&e) < (1L << g->k)) {
        Bits zone = mnk_potential_zone(g, x, o, &e, true);
        if (!bits_any(zone))
            zone = e.live_cells;
        fputs("M ", p->f);
        put_pos(g, p->f, x | (empty & ~zone), o);
        fputs(" *:", p->f);
        p2_cells(p->f, zone);
        fputc('\n', p->f);
        return p2_done(s, p, key, sym, zone);
    }
    /* a pairing strategy: R node over the paired cells, every live line
     * holds a pair, so the other empty cells may all be Maker's */
    PairSearch ps;
    if (mnk_find_pairing(g, x, o, &ps, PAIR_QUICK) || mnk_find_pairing(g, x, o, &ps, PAIR_DEEP)) {
        Bits zone = mnk_pair_cells(&ps);
        fputs("R ", p->f);
        put_pos(g, p->f, x | (empty & ~zone), o);
        for (int i = 0; i < ps.npairs; i++)
            fprintf(p->f, " %d-%d", ps.pairs[i][0], ps.pairs[i][1]);
        fputs(" >0\n", p->f);
        return p2_done(s, p, key, sym, zone);
    }
    /* M node: the search's move order; a move outside the zone of an
     * answered one is covered by that answer's node */
    Bits undom = mnk_undominated(&e, e.live_cells);
    int mv[MNK_CELLS];
    int nm = mnk_order_moves(e.w, undom, mv);
    int ng = 0, gfirst[MNK_CELLS], greply[MNK_CELLS];
    uint64_t gid[MNK_CELLS];
    Bits gzone[MNK_CELLS]; /* greply -1: Property 1 */
    Bits covered = BITS0, zone = BITS0;
    for (int i = 0; i < nm; i++) {
        int v = mv[i];
        if (bits_has(covered, v))
            continue;
        Bits x2 = x | BIT(v);
        Eval e2;
        mnk_evaluate(g, x2, o, false, &e2);
        if (e2.complete)
            return p2_fail(s, "a Maker move completes a line in a position proven for Breaker");
        gfirst[ng] = v;
        if (e2.pot < (1L << g->k)) {
            greply[ng] = -1;
            gid[ng] = 0;
            gzone[ng] = mnk_potential_zone(g, x2, o, &e2, false);
        } else {
            int b = -1;
            if (!mnk_mb_breaker_node(s, x2, o, &b, NULL) || b < 0)
                return p2_fail(s, "no Breaker reply found for a proven position");
            P2Res c = p2_breaker(s, p, x2, o | BIT(b));
            if (s->st != CGT_OK)
                return c;
            greply[ng] = b;
            gid[ng] = c.id;
            gzone[ng] = c.zone | BIT(b);
        }
        gzone[ng] &= empty & ~BIT(v);
        covered |= empty & ~gzone[ng];
        zone |= gzone[ng];
        ng++;
    }
    /* Theorem 2: a move of the node (a cell of the zone) left uncovered is
     * dominated, and its dominator must stay open */
    int dom[MNK_CELLS];
    zone &= empty;
    for (Bits todo = zone & ~covered; bits_any(todo);) {
        int u = bits_ctz(todo);
        todo = bits_drop(todo);
        dom[u] = mnk_dominator(&e, e.live_cells, u);
        if (dom[u] < 0)
            return p2_fail(s, "a Maker move is neither answered nor dominated");
        Bits w = BIT(dom[u]);
        if (!bits_any(zone & w)) {
            zone |= w;
            if (!bits_any(covered & w))
                todo |= w;
        }
    }
    fputs("M ", p->f);
    put_pos(g, p->f, x | (empty & ~zone), o);
    Bits done = BITS0; /* the node's moves (cells of the zone) written so far */
    for (int j = 0; j < ng; j++) {
        Bits mine = zone & ~done & (~gzone[j] | BIT(gfirst[j]));
        if (!bits_any(mine))
            continue;
        if (greply[j] < 0)
            fputs(" *:", p->f);
        else
            fprintf(p->f, " %d@%llu:", greply[j], (unsigned long long)gid[j]);
        p2_cells(p->f, mine);
        done |= mine;
    }
    /* dominated moves, each after its dominator (chains end: every
     * domination is strict after the reduction) */
    while (bits_any(zone & ~done)) {
        Bits before = done;
        for (Bits b = zone & ~done; bits_any(b); b = bits_drop(b)) {
            int u = bits_ctz(b);
            if (!bits_has(covered, u) && bits_has(before, dom[u])) {
                fprintf(p->f, " <%d:%d", dom[u], u);
                done |= BIT(u);
            }
        }
        if (bits_eq(done, before))
            return p2_fail(s, "a cycle of dominated moves");
    }
    fputc('\n', p->f);
    return p2_done(s, p, key, sym, zone);
}

/* The whole version-2 proof of a Breaker win (Maker or Breaker to move). */
static void p2_write(Solver *s, FILE *f, Bits x, Bits o, bool maker_to_move,
                     uint64_t *nlines)
{
    const Geo *g = &s->g;
    P2 p = {.f = f};
    p.mem.max_cap = s->proof_map_cap;
    p2map_init(&p.mem.cur, p.mem.max_cap < (1u << 16) ? p.mem.max_cap : 1u << 16);
    fprintf(f, "mnk-proof 2\ngame %d %d %d\nclaim breaker\nroot %c ", g->m, g->n, g->k,
            maker_to_move ? 'X' : 'O');
    put_pos(g, f, x, o);
    fputc('\n', f);
    uint64_t top = 0;
    if (maker_to_move) {
        top = p2_breaker(s, &p, x, o).id;
    } else {
        int reply = -1;
        if (mnk_mb_breaker_node(s, x, o, &reply, NULL)) {
            P2Res c = {0, BITS0};
            if (reply >= 0)
                c = p2_breaker(s, &p, x, o | BIT(reply));
            fputs("B ", f);
            put_pos(g, f, x, o);
            if (reply < 0)
                fputs(" *\n", f);
            else
                fprintf(f, " %d@%llu\n", reply, (unsigned long long)c.id);
            top = ++p.next_id;
        } else {
            p2_fail(s, "no Breaker move found for a proven position");
        }
    }
    fprintf(f, "top %llu\n", (unsigned long long)top);
    *nlines = p.next_id;
    p2map_free(&p.mem.cur);
    if (p.mem.old.cap)
        p2map_free(&p.mem.old);
    s->proof_rotations = p.mem.rotations;
}

/* Maker-win proof below a Maker-to-move position. */
static void proof_maker(Solver *s, ProofOut *p, Bits x, Bits o)
{
    const Geo *g = &s->g;
    if (s->st != CGT_OK || proof_seen(g, p, x, o, 'W'))
        return;
    int move = -1;
    if (mnk_mb_maker_node(s, x, o, &move, NULL) || move < 0) {
        if (s->st == CGT_OK)
            s->st = cgt_error_set(s->err, CGT_ERR_INTERNAL, "mnk proof: no Maker move found "
                                  "for a proven position");
        return;
    }
    fputs("W ", p->f);
    put_pos(g, p->f, x, o);
    fprintf(p->f, " %d\n", move);
    p->lines++;
    Bits x2 = x | BIT(move);
    Eval e;
    mnk_evaluate(g, x2, o, false, &e);
    if (e.complete)
        return;
    for (Bits b = g->full & ~x2 & ~o; bits_any(b); b = bits_drop(b))
        proof_maker(s, p, x2, o | BIT(bits_ctz(b)));
}

static bool line_done(const Geo *g, Bits a)
{
    for (int l = 0; l < g->nlines; l++)
        if (bits_eq(g->line[l] & a, g->line[l]))
            return true;
    return false;
}

/* Strong game, attacker a (written X) to move and winning: A nodes give the
 * attacker's move; every defender reply must lead to another A node. */
static void proof_strong_win(Solver *s, ProofOut *p, Bits a, Bits d)
{
    const Geo *g = &s->g;
    if (s->st != CGT_OK || proof_seen(g, p, a, d, 'A'))
        return;
    int move = -1;
    if (!mnk_strong_att(s, a, d, &move) || move < 0) {
        if (s->st == CGT_OK)
            s->st = cgt_error_set(s->err, CGT_ERR_INTERNAL, "mnk proof: no winning move found "
                                  "for a proven strong position");
        return;
    }
    fputs("A ", p->f);
    put_pos(g, p->f, a, d);
    fprintf(p->f, " %d\n", move);
    p->lines++;
    Bits a2 = a | BIT(move);
    if (line_done(g, a2))
        return;
    for (Bits b = g->full & ~a2 & ~d; bits_any(b); b = bits_drop(b))
        proof_strong_win(s, p, a2, d | BIT(bits_ctz(b)));
}

/* Strong game, attacker a (written X) to move and unable to force a win: a
 * Maker-Breaker Breaker-win proof (R/M nodes) when one exists, else an H
 * node answering every attacker move with a defender reply. */
static void proof_strong_hold(Solver *s, ProofOut *p, Bits a, Bits d)
{
    const Geo *g = &s->g;
    if (s->st != CGT_OK || line_done(g, d) || !bits_any(g->full & ~a & ~d))
        return;
    if (mnk_mb_maker_node(s, a, d, NULL, NULL)) {
        if (s->st == CGT_OK)
            proof_breaker(s, p, a, d);
        return;
    }
    if (s->st != CGT_OK || proof_seen(g, p, a, d, 'H'))
        return;
    Bits empty = g->full & ~a & ~d;
    int reply[MNK_CELLS] = {0};
    for (Bits b = empty; bits_any(b); b = bits_drop(b)) {
        int v = bits_ctz(b);
        Bits a2 = a | BIT(v);
        reply[v] = -1;
        Bits left = empty & ~BIT(v);
        if (!bits_any(left))
            continue; /* board full, no attacker line: a draw */
        for (Bits c = left; bits_any(c) && reply[v] < 0; c = bits_drop(c)) {
            int r = bits_ctz(c);
            if (line_done(g, d | BIT(r)))
                reply[v] = r;
        }
        /* replies in the search's order (both players' weights), so the
         * first one tried is usually the one the search proved */
        int mv[MNK_CELLS];
        int nm = mnk_strong_moves(g, a2, d, left, mv);
        for (int i = 0; i < nm && reply[v] < 0; i++) {
            bool w = mnk_strong_att(s, a2, d | BIT(mv[i]), NULL);
            if (s->st != CGT_OK)
                return;
            if (!w)
                reply[v] = mv[i];
        }
        for (Bits c = left; bits_any(c) && reply[v] < 0; c = bits_drop(c)) {
            int r = bits_ctz(c);
            bool w = mnk_strong_att(s, a2, d | BIT(r), NULL);
            if (s->st != CGT_OK)
                return;
            if (!w)
                reply[v] = r;
        }
        if (reply[v] < 0) {
            s->st = cgt_error_set(s->err, CGT_ERR_INTERNAL, "mnk proof: no defending reply "
                                  "found for a proven strong position");
            return;
        }
    }
    put_reply_line(g, p, "H", a, d, empty, reply);
    for (Bits b = empty; bits_any(b); b = bits_drop(b)) {
        int v = bits_ctz(b);
        if (reply[v] >= 0)
            proof_strong_hold(s, p, a | BIT(v), d | BIT(reply[v]));
    }
}

/* kind: 'M' Maker-Breaker (claim from breaker_wins), 'A' strong, X to move
 * and winning, 'H' strong, X to move and not winning. */
CgtStatus mnk_write_proof(Solver *s, const char *path, Bits x, Bits o,
                          bool maker_to_move, bool breaker_wins, int kind, uint64_t *nlines)
{
    const Geo *g = &s->g;
    /* atomic (temporary file, fsync, rename) and sealed: the last line is
     * "crc64 HEX" over every byte before it, which the independent checker
     * (tests/oracle/mnk_check) verifies with its own code */
    AtomicFile af;
    if (af_open(&af, path, "proof file", true, s->err) != CGT_OK)
        return CGT_ERR_IO;
    ProofOut p = {0};
    p.f = af.f;
    if (kind == 'M' && breaker_wins) {
        p2_write(s, p.f, x, o, maker_to_move, &p.lines);
    } else {
        mnk_tt_init(&p.seen); /* version 1 only; tt_free below is a no-op otherwise */
        const char *claim = kind == 'A' ? "strong-win" : kind == 'H' ? "strong-hold" : "maker";
        fprintf(p.f, "mnk-proof 1\ngame %d %d %d\nclaim %s\nroot %c ", g->m, g->n, g->k, claim,
                maker_to_move ? 'X' : 'O');
        put_pos(g, p.f, x, o);
        fputc('\n', p.f);
        if (kind == 'A') {
            proof_strong_win(s, &p, x, o);
        } else if (kind == 'H') {
            proof_strong_hold(s, &p, x, o);
        } else if (maker_to_move) {
            proof_maker(s, &p, x, o);
        } else {
            fputs("D ", p.f);
            put_pos(g, p.f, x, o);
            fputc('\n', p.f);
            p.lines++;
            for (Bits b = g->full & ~x & ~o; bits_any(b); b = bits_drop(b))
                proof_maker(s, &p, x, o | BIT(bits_ctz(b)));
        }
    }
    fputs("end\n", p.f);
    mnk_tt_free(&p.seen);
    if (s->st != CGT_OK) {
        af_abort(&af);
        return s->st;
    }
    af_crc_from_file(&af); /* the nodes went to af.f directly */
    if (af_commit(&af, s->err) != CGT_OK)
        return CGT_ERR_IO;
    *nlines = p.lines;
    return CGT_OK;
}
