/* Carrying a proved description of an infinite quotient past its heap
 * (docs/misere.md, "Beyond the first infinite heap").  A description of
 * Q(N) (Lemma 1 or Lemma 2 of docs/misere.md: states, heap tables, two
 * groups, a reduced label table) covers heap N+1 when heap N+1 acts on the
 * states as some state c does, i.e. act_{N+1}(s) = fold of a word of c
 * from s: the groups, the table and the witness stay, and heap N+1 joins
 * the other heaps.  The candidates c are the states whose labels satisfy
 * the misère recursion of the single heap N+1 (condition D3 of Lemma 2 at
 * the pair of the position N+1); each is then decided by the certificate
 * (src/lib/misere/mqinfcert.c), first on a short prefix of its pair
 * closure, then on all of it.  Nothing here trusts the choice: only the
 * certificate's verdict makes the description longer, and its proof file
 * in format 2 is re-checked by tests/oracle/mq_infcheck. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/misere/mqinf.h"
#include "lib/util/poll.h"
#include "lib/util/xalloc.h"

enum { PREFIX_PAIRS = 4096 }; /* closure prefix that refutes most candidates */

uint32_t mqinf_first(const MqInfProof *p)
{
    return p->first ? p->first : p->N;
}

/* The state reached from s by the heaps of option j of heap h that are in
 * no group, in the listed order; the option's heaps in groups 1 and 2 are
 * counted in *ca, *cb. */
static uint32_t fold(const MqInfProof *p, const HeapOptions *o, size_t j, uint32_t s, uint32_t *ca,
                     uint32_t *cb)
{
    *ca = *cb = 0;
    for (size_t q = o->start[j]; q < o->start[j + 1]; q++) {
        uint32_t y = o->parts[q];
        if (p->grp[y] == 1)
            (*ca)++;
        else if (p->grp[y] == 2)
            (*cb)++;
        else if (y > 0)
            s = p->act[y][s];
    }
    return s;
}

/* Condition D3 of Lemma 2 on the region for the position made of one heap
 * n (options on) in state c: its label row must be the misère outcome of
 * the options of n, of the moves in a heap of each group, folded from c. */
static bool single_heap_ok(const MqInfProof *p, const HeapOptions *on, uint32_t c)
{
    for (uint32_t a = 0; a <= p->A1; a++)
        for (uint32_t b = 0; b <= p->B1; b++) {
            bool has = on->count > 0, win = false;
            uint32_t ca, cb;
            for (size_t j = 0; j < on->count && !win; j++) {
                uint32_t y = fold(p, on, j, 0, &ca, &cb);
                win = mqinf_label(p, y, a + ca, b + cb);
            }
            /* a move in heap H of group 1 or G of group 2 (the presence
             * {H} or {G}, possible whenever a or b >= 1: a necessary
             * condition for larger groups too; the certificate checks
             * every presence) */
            if (a >= 1) {
                const HeapOptions *oh = &p->opts[p->H];
                has = has || oh->count > 0;
                for (size_t j = 0; j < oh->count && !win; j++) {
                    uint32_t y = fold(p, oh, j, c, &ca, &cb);
                    win = mqinf_label(p, y, a - 1 + ca, b + cb);
                }
            }
            if (b >= 1) {
                const HeapOptions *og = &p->opts[p->G];
                has = has || og->count > 0;
                for (size_t j = 0; j < og->count && !win; j++) {
                    uint32_t y = fold(p, og, j, c, &ca, &cb);
                    win = mqinf_label(p, y, a + ca, b - 1 + cb);
                }
            }
            if ((has && !win) != mqinf_label(p, c, a, b))
                return false;
        }
    return true;
}

/* Shortest heap words of the states over the heaps in no group, in BFS
 * order of the states; *order gets the states in that order. */
static void state_words(const MqInfProof *p, uint32_t **word, uint32_t **woff, uint32_t **order)
{
    uint32_t S = p->S;
    uint32_t *par = xmalloc(S * sizeof *par), *ph = xmalloc(S * sizeof *ph);
    uint32_t *len = xmalloc(S * sizeof *len), *ord = xmalloc(S * sizeof *ord);
    for (uint32_t s = 0; s < S; s++)
        len[s] = UINT32_MAX;
    len[0] = 0;
    ord[0] = 0;
    uint32_t n = 1;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t K = 1; K <= p->N; K++) {
            if (p->grp[K])
                continue;
            uint32_t t = p->act[K][ord[i]];
            if (len[t] == UINT32_MAX) {
                len[t] = len[ord[i]] + 1;
                par[t] = ord[i];
                ph[t] = K;
                ord[n++] = t;
            }
        }
    size_t tot = 0;
    for (uint32_t s = 0; s < S; s++)
        tot += len[s] == UINT32_MAX ? 0 : len[s];
    *woff = xmalloc((S + 1) * sizeof **woff);
    *word = xmalloc((tot + 1) * sizeof **word);
    size_t at = 0;
    for (uint32_t s = 0; s < S; s++) {
        (*woff)[s] = (uint32_t)at;
        if (len[s] == UINT32_MAX)
            continue;
        at += len[s];
        size_t k = at;
        for (uint32_t x = s; x != 0; x = par[x])
            (*word)[--k] = ph[x];
    }
    (*woff)[S] = (uint32_t)at;
    *order = ord;
    for (uint32_t i = n; i < S; i++)
        ord[i] = UINT32_MAX; /* unreachable states are never candidates */
    free(par);
    free(ph);
    free(len);
}

/* Append "n as w1 + w2 + ..." to p->ext_text. */
static void ext_note(MqInfProof *p, uint32_t n, const uint32_t *w, uint32_t len)
{
    size_t old = p->ext_text ? strlen(p->ext_text) : 0;
    size_t cap = old + 40 + 16 * (size_t)len;
    p->ext_text = xrealloc(p->ext_text, cap);
    size_t at = old;
    at += (size_t)snprintf(p->ext_text + at, cap - at, "%s%u as ", old ? ", " : "", n);
    if (len == 0)
        at += (size_t)snprintf(p->ext_text + at, cap - at, "0");
    for (uint32_t k = 0; k < len; k++)
        at += (size_t)snprintf(p->ext_text + at, cap - at, "%s%u", k ? " + " : "", w[k]);
}

CgtStatus mqinf_extend(MqInfProof *p, const HeapGame *game, uint64_t max_pairs, bool *ok,
                       char *why, size_t wl, CgtError *err)
{
    *ok = false;
    why[0] = '\0';
    uint32_t N = p->N, n = N + 1, S = p->S;
    HeapOptions on;
    heapopts_init(&on);
    CgtStatus st = game->options(game->ctx, n, &on, err);
    if (st != CGT_OK) {
        heapopts_free(&on);
        return st;
    }
    heapopts_canonicalize(&on);
    for (size_t q = 0; q < on.start[on.count]; q++)
        if (on.parts[q] >= n) {
            heapopts_free(&on);
            snprintf(why, wl, "an option of heap %u has a heap of %u or more tokens", n, n);
            return CGT_OK;
        }
    if (p->first == 0)
        p->first = N;
    if (max_pairs == 0)
        max_pairs = 4000000;
    /* the candidates' words, over the heaps 1..N */
    uint32_t *word, *woff, *order;
    state_words(p, &word, &woff, &order);
    /* the description with heap n among the other heaps; its table is
     * filled for each candidate */
    p->grp = xrealloc(p->grp, (n + 1) * sizeof *p->grp);
    p->grp[n] = 0;
    p->act = xrealloc(p->act, (n + 1) * sizeof *p->act);
    p->act[n] = xmalloc(S * sizeof **p->act);
    p->opts = xrealloc(p->opts, (n + 1) * sizeof *p->opts);
    p->opts[n] = on;
    p->N = n;
    uint32_t ua0 = p->ua, ub0 = p->ub, A10 = p->A1, B10 = p->B1;
    uint64_t pairs0 = p->pairs, checks0 = p->checks;
    for (size_t j = 0; j < on.count; j++) {
        uint32_t ca, cb;
        fold(p, &on, j, 0, &ca, &cb);
        p->ua = ca > p->ua ? ca : p->ua;
        p->ub = cb > p->ub ? cb : p->ub;
    }
    /* the region of condition D2 for the new u_i */
    uint32_t amin = p->a0 + p->pa + p->q + p->ub + 1, bmin = p->b0 + p->pb + p->q + p->ua + 1;
    p->A1 = p->A1 > amin ? p->A1 : amin;
    p->B1 = p->B1 > bmin ? p->B1 : bmin;
    uint32_t tried = 0, passed = 0;
    const char *last_why = "";
    for (uint32_t i = 0; i < S && !*ok && st == CGT_OK; i++) {
        uint32_t c = order[i];
        if (c == UINT32_MAX)
            break;
        if ((i & 63) == 0 && (st = cgt_poll()) != CGT_OK) {
            cgt_poll_error(err, st, "the description of the heaps past the infinite one");
            break;
        }
        if (!single_heap_ok(p, &on, c))
            continue;
        tried++;
        for (uint32_t s = 0; s < S; s++) {
            uint32_t x = s;
            for (uint32_t k = woff[c]; k < woff[c + 1]; k++)
                x = p->act[word[k]][x];
            p->act[n][s] = x;
        }
        bool good;
        const char *w;
        CgtError e2;
        cgt_error_clear(&e2);
        CgtStatus s2 = mqinf_certify(p, PREFIX_PAIRS, &good, &w, &e2);
        if (s2 == CGT_OK && !good) {
            last_why = w;
            continue; /* refuted on the prefix of its closure */
        }
        if (s2 != CGT_OK && s2 != CGT_ERR_LIMIT) {
            st = s2;
            *err = e2;
            break;
        }
        passed++;
        cgt_progress_force("quotient",
                           "heap %u past the infinite heap %u: candidate state %u passes %u "
                           "pairs; certificate on its whole closure",
                           n, p->first, c, (unsigned)PREFIX_PAIRS);
        st = mqinf_certify(p, max_pairs, &good, &w, err);
        if (st == CGT_OK && good) {
            *ok = true;
            ext_note(p, n, word + woff[c], woff[c + 1] - woff[c]);
        } else if (st == CGT_OK) {
            last_why = w;
        }
    }
    free(word);
    free(woff);
    free(order);
    if (*ok)
        return CGT_OK;
    /* not covered: the description of heaps 1..N as it was */
    heapopts_free(&p->opts[n]);
    free(p->act[n]);
    p->N = N;
    p->ua = ua0;
    p->ub = ub0;
    p->A1 = A10;
    p->B1 = B10;
    p->pairs = pairs0;
    p->checks = checks0;
    if (st == CGT_OK)
        snprintf(why, wl,
                 "heap %u acts as no state of the description: %u of the %u states pass the "
                 "check of the single heap, and the certificate refutes each (%s%s)",
                 n, tried, S, passed ? "some only on their whole closure; " : "",
                 *last_why ? last_why : "no candidate");
    return st;
}
