/* Printing of an infinite misère quotient proved by src/lib/misere/mqinf.h
 * (docs/misere.md, "Infinite quotients"): the finite description (states,
 * top and partner heaps, reduction, relation, distinct powers, P-portion as
 * a union of linear sets) as text and JSON, and the game line of the proof
 * file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modules/misere/mqinfrt.h"
#include "lib/util/xalloc.h"

char *mqinf_game_line(const Ruleset *rs)
{
    if (rs->kind == RULESET_CODE) {
        bool hex = false;
        for (const char *s = rs->name; *s; s++)
            if ((*s >= '8' && *s <= '9') || (*s >= 'A' && *s <= 'F') || (*s >= 'a' && *s <= 'f'))
                hex = true;
        return xasprintf("%s %s", hex ? "hex" : "octal", rs->name);
    }
    return xasprintf("ruleset %s", rs->name);
}

/* The linear set of table cell (a, b) of red's image: base (a, b) plus the
 * periods (q,q) (*diag), (0,pb) (*bp) and (pa,0) (*ap) that red folds
 * onto it (docs/misere.md, Lemma 2: the diagonal steps leave
 * min(a, b) in [t, t+q-1]). */
static bool cell_set(const MqInfProof *p, uint32_t a, uint32_t b, bool *diag, bool *bp, bool *ap)
{
    *diag = *bp = *ap = false;
    if (a < p->t + p->q) {
        if (b > p->TB)
            return false;
        *diag = a >= p->t && b >= p->t;
        *bp = b >= p->b0;
        return true;
    }
    if (b >= p->t + p->q || a > p->TA)
        return false;
    *diag = b >= p->t;
    *ap = a >= p->a0;
    return true;
}

/* "heap H" or "heaps 7, 8" of group g. */
static void group_text(StrBuf *b, const MqInfProof *p, int g)
{
    uint32_t *h = xmalloc((p->N + 1) * sizeof *h);
    uint32_t n = mqinf_group(p, g, h);
    sb_puts(b, n > 1 ? "heaps " : "heap ");
    for (uint32_t i = 0; i < n; i++)
        sb_printf(b, "%s%u", i ? (i + 1 == n ? " and " : ", ") : "", h[i]);
    free(h);
}

static void linear_text(StrBuf *b, const MqInfProof *p, uint32_t a, uint32_t bb, bool diag,
                        bool bp, bool ap)
{
    sb_printf(b, "(%u,%u)", a, bb);
    if (diag)
        sb_printf(b, "+N(%u,%u)", p->q, p->q);
    if (bp)
        sb_printf(b, "+N(0,%u)", p->pb);
    if (ap)
        sb_printf(b, "+N(%u,0)", p->pa);
}

static void context_text(StrBuf *b, const MqInfProof *p)
{
    for (uint32_t i = 0; i < p->nw; i++)
        sb_printf(b, "%s%u", i ? " + " : "", p->wheaps[i]);
    if (p->nw)
        sb_puts(b, " + ");
    if (p->we == 0)
        sb_printf(b, "%u^a", p->G);
    else if (p->we > 0)
        sb_printf(b, "%u^(a+%d)", p->G, p->we);
    else
        sb_printf(b, "%u^(a-%d)", p->G, -p->we);
}

void mqinf_text(const MqInfProof *p, const char *game, uint32_t fin_size, uint32_t fin_psize,
                bool fin_certified, const char *proof_path, uint32_t asked, StrBuf *b)
{
    uint32_t H = p->H, G = p->G, t = p->t;
    uint32_t h0 = mqinf_first(p);
    sb_printf(b, "Q(%u) of %s is INFINITE\n", p->N, game);
    if (h0 < p->N)
        sb_printf(b, "  infinite from heap %u on (decided there); the description below is "
                     "carried to heap %u (heaps that act as states: %s), each step proved by the "
                     "certificate "
                     "(docs/misere.md, \"Beyond the first infinite heap\")\n",
                  h0, p->N, p->ext_text ? p->ext_text : "?");
    if (asked > p->N)
        sb_printf(b, "  so Q(n) is infinite for every n >= %u, including the Q(%u) asked for "
                     "(the separating contexts stay in every larger closure)\n", h0, asked);
    if (asked > p->N && p->ext_stop[0])
        sb_printf(b, "  not described past heap %u: %s\n", p->N, p->ext_stop);
    sb_printf(b, "  proved: certificate checked (%u states, %llu pairs, %llu row checks on the "
                 "region a <= %u, b <= %u; Lemma %d of docs/misere.md extends it to all a, b)\n",
              p->S, (unsigned long long)p->pairs, (unsigned long long)p->checks, p->A1, p->B1,
              mqinf_is_v1(p) ? 1 : 2);
    if (proof_path && mqinf_is_v1(p))
        sb_printf(b, "  proof file: %s (format cgt-misere-infinite 1; check it with "
                     "`mq_infcheck %s`: PREFIX/libexec/cgt/mq_infcheck beside an installed "
                     "cgt, build/oracle/mq_infcheck in the source tree)\n",
                  proof_path, proof_path);
    else if (proof_path)
        sb_printf(b, "  proof file: %s (format cgt-misere-infinite 2, docs/misere.md)\n",
                  proof_path);
    sb_printf(b, "  finite part: Q(%u) has |Q| = %u, |P| = %u%s\n", h0 - 1, fin_size, fin_psize,
              fin_certified ? ", verified by certificate" : ", NOT certified");
    if (mqinf_is_v1(p)) {
        sb_printf(b, "  description: a position is X + %u^a + %u^b with X free of heaps %u and "
                     "%u; its misere outcome is lab(psi(X), red(a, b)), where psi(X) is one of "
                     "%u states (heap tables over the heaps other than %u and %u)\n",
                  H, G, H, G, p->S, H, G);
        sb_printf(b, "  reduction red: while a > %u and b > %u, (a, b) -> (a-1, b-1); then if "
                     "a <= %u and b >= %u, b -> b - %u (repeatedly); if a > %u and a >= %u, "
                     "a -> a - %u (repeatedly); lab is a table over a <= %u, b <= %u\n",
                  t, t, t, p->b0 + p->pb, p->pb, t, p->a0 + p->pa, p->pa, p->TA, p->TB);
    } else {
        sb_puts(b, "  description (Lemma 2): a position is X + Z, Z made of ");
        group_text(b, p, 1);
        sb_puts(b, " (a of them) and ");
        group_text(b, p, 2);
        sb_printf(b, " (b of them), X free of these; its misere outcome is lab(psi(X), red(a, "
                     "b)), where psi(X) is one of %u states (heap tables over the other heaps)\n",
                  p->S);
        sb_printf(b, "  reduction red: while a >= %u and b >= %u, (a, b) -> (a-%u, b-%u); then "
                     "if a < %u and b >= %u, b -> b - %u (repeatedly); if a >= %u and a >= %u, "
                     "a -> a - %u (repeatedly); lab is a table over a <= %u, b <= %u\n",
                  t + p->q, t + p->q, p->q, p->q, t + p->q, p->b0 + p->pb, p->pb, t + p->q,
                  p->a0 + p->pa, p->pa, p->TA, p->TB);
    }
    sb_printf(b, "  relation: %u^%u %u^%u = %u^%u %u^%u, so every element is psi(X) %u^a %u^b "
                 "with min(a, b) <= %u\n",
              H, t + p->q, G, t + p->q, H, t, G, t, H, G, t + p->q - 1);
    if (p->have_witness) {
        sb_printf(b, "  distinct: the powers %u^a, a >= %u, are pairwise distinct: the context ",
                  H, p->wa);
        context_text(b, p);
        sb_printf(b, " gives %s to %u^a and %s to every %u^a', a' > a\n",
                  mqinf_label(p, p->wstate, p->wa, p->wa + (uint64_t)((int64_t)p->we)) ? "P"
                                                                                        : "N",
                  H,
                  mqinf_label(p, p->wstate, p->wa, p->wa + (uint64_t)((int64_t)p->we)) ? "N"
                                                                                        : "P",
                  H);
    }
    uint64_t nsets = 0;
    for (uint32_t s = 0; s < p->S; s++)
        for (uint32_t a = 0; a <= p->TA; a++)
            for (uint32_t bb = 0; bb <= p->TB; bb++) {
                bool d, bp, ap;
                if (cell_set(p, a, bb, &d, &bp, &ap) && mqinf_label(p, s, a, bb))
                    nsets++;
            }
    sb_printf(b, "  P-portion: for each state, the P-positions (a, b) form a union of linear "
                 "sets base + N(1,1) / N(0,%u) / N(%u,0); %llu sets over %u states "
                 "(listed in --format=json)\n",
              p->pb, p->pa, (unsigned long long)nsets, p->S);
    if (p->have_witness) {
        sb_puts(b, "  P-positions of the context ");
        for (uint32_t i = 0; i < p->nw; i++)
            sb_printf(b, "%s%u", i ? " + " : "", p->wheaps[i]);
        if (!p->nw)
            sb_puts(b, "(none)");
        sb_printf(b, " plus %u^a %u^b:", H, G);
        bool first = true;
        for (uint32_t a = 0; a <= p->TA; a++)
            for (uint32_t bb = 0; bb <= p->TB; bb++) {
                bool d, bp, ap;
                if (cell_set(p, a, bb, &d, &bp, &ap) && mqinf_label(p, p->wstate, a, bb)) {
                    sb_puts(b, first ? " " : ", ");
                    linear_text(b, p, a, bb, d, bp, ap);
                    first = false;
                }
            }
        if (first)
            sb_puts(b, " none");
        sb_putc(b, '\n');
    }
    if (b->len && b->s[b->len - 1] == '\n')
        b->s[--b->len] = '\0';
}

void mqinf_json(const MqInfProof *p, JsonWriter *w)
{
    jw_key(w, "description");
    jw_obj_begin(w);
    jw_kv_int(w, "top", p->H);
    jw_kv_int(w, "partner", p->G);
    jw_kv_int(w, "states", p->S);
    if (mqinf_first(p) < p->N) {
        /* carried past the heap proved infinite (docs/misere.md, "Beyond
         * the first infinite heap") */
        jw_kv_int(w, "infinite_from", mqinf_first(p));
        jw_kv_str(w, "beyond", p->ext_text ? p->ext_text : "");
    }
    if (p->ext_stop[0])
        jw_kv_str(w, "not_beyond", p->ext_stop);
    jw_key(w, "reduce");
    jw_obj_begin(w);
    jw_kv_int(w, "t", p->t);
    jw_kv_int(w, "b0", p->b0);
    jw_kv_int(w, "pb", p->pb);
    jw_kv_int(w, "a0", p->a0);
    jw_kv_int(w, "pa", p->pa);
    if (p->q != 1)
        jw_kv_int(w, "q", p->q);
    jw_obj_end(w);
    if (!mqinf_is_v1(p)) {
        /* the heaps counted by a and by b (Lemma 2) */
        uint32_t *h = xmalloc((p->N + 1) * sizeof *h);
        jw_key(w, "groups");
        jw_arr_begin(w);
        for (int g = 1; g <= 2; g++) {
            uint32_t n = mqinf_group(p, g, h);
            jw_arr_begin(w);
            for (uint32_t i = 0; i < n; i++)
                jw_int(w, h[i]);
            jw_arr_end(w);
        }
        jw_arr_end(w);
        free(h);
    }
    jw_key(w, "region");
    jw_arr_begin(w);
    jw_int(w, p->A1);
    jw_int(w, p->B1);
    jw_arr_end(w);
    jw_kv_int(w, "pairs", (long long)p->pairs);
    jw_kv_int(w, "row_checks", (long long)p->checks);
    jw_key(w, "witness");
    if (p->have_witness) {
        jw_obj_begin(w);
        jw_key(w, "context");
        jw_arr_begin(w);
        for (uint32_t i = 0; i < p->nw; i++)
            jw_int(w, p->wheaps[i]);
        jw_arr_end(w);
        jw_kv_int(w, "offset", p->we);
        jw_kv_int(w, "from", p->wa);
        jw_obj_end(w);
    } else {
        jw_null(w);
    }
    /* p_portion[s] = list of [a, b, diag, pb or 0, pa or 0] */
    jw_key(w, "p_portion");
    jw_arr_begin(w);
    for (uint32_t s = 0; s < p->S; s++) {
        jw_arr_begin(w);
        for (uint32_t a = 0; a <= p->TA; a++)
            for (uint32_t bb = 0; bb <= p->TB; bb++) {
                bool d, bp, ap;
                if (!cell_set(p, a, bb, &d, &bp, &ap) || !mqinf_label(p, s, a, bb))
                    continue;
                jw_arr_begin(w);
                jw_int(w, a);
                jw_int(w, bb);
                jw_int(w, d);
                jw_int(w, bp ? p->pb : 0);
                jw_int(w, ap ? p->pa : 0);
                jw_arr_end(w);
            }
        jw_arr_end(w);
    }
    jw_arr_end(w);
    jw_key(w, "state_words");
    jw_arr_begin(w);
    for (uint32_t s = 0; s < p->S; s++) {
        jw_arr_begin(w);
        for (uint32_t i = p->woff[s]; i < p->woff[s + 1]; i++)
            jw_int(w, p->word[i]);
        jw_arr_end(w);
    }
    jw_arr_end(w);
    jw_obj_end(w);
}
