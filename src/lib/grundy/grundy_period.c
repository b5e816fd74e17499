/* Periodicity of Grundy sequences (src/lib/grundy/grundy.h): the least period and
 * preperiod of the computed values, proved by the periodicity theorem of
 * octal games (Winning Ways ch. 4) in the form of docs/games.md §3 (moves
 * leaving up to q heaps), or else labelled observed; and the values of any
 * heap from a proved period. */
#include "lib/grundy/grundy_int.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util/poll.h"
#include "lib/util/xalloc.h"

/* ---- periodicity ---------------------------------------------------------- */


static void fill_exceptional(const GrundyTable *gt, GrundyPeriod *out)
{
    out->has_exceptional = false;
    out->last_exceptional = 0;
    if (out->status == PERIOD_NONE || out->preperiod == 0)
        return;
    /* by minimality of the preperiod, preperiod-1 is exceptional */
    out->has_exceptional = true;
    out->last_exceptional = out->preperiod - 1;
    (void)gt;
}

/* Examines the values computed so far (no extension): fills *out with the
 * smallest proved period if the theorem's bound is met, else an observed
 * pure or arithmetic period, else PERIOD_NONE; the search for observed
 * periods only when `observed` (grundy_run_period skips it until the end
 * of its run). */
static void find_period(GrundyTable *gt, GrundyPeriod *out, bool observed)
{
    memset(out, 0, sizeof *out);
    uint64_t N = gt->n;
    out->checked = N;
    out->status = PERIOD_NONE;
    const Ruleset *rs = gt->rs;
    TailCands tc = {.n = 0};
    if (N < 2)
        return;
    if (rs->plain) {
        uint64_t q = rs->max_parts > 1 ? (uint64_t)rs->max_parts : 1;
        uint64_t t = (uint64_t)rs->max_take;
        /* A p whose tail is at most one value (G(N-2-p) != G(N-2)) has
         * i >= N-p-1 and q*(N-p-1) + q*p + t = q*N - q + t > N whenever
         * (q-1)*N + t > q (always for q >= 2): it is never proved, so
         * grundy_tail_next skips it; else only p with G(N-1-p) != G(N-1)
         * (i = N-p) are skipped. */
        bool two = (q - 1) * N + t > q;
        uint64_t pmax = N >= t + q ? (N - t - q) / q : 0;
        for (uint64_t p = 1; p <= pmax; p++) {
            p = grundy_tail_next(gt, N, p, pmax, two);
            if (p > pmax)
                break;
            uint64_t i = grundy_tail_pure(gt, N, p, &tc);
            uint64_t ie = i ? i : 1;
            /* Theorem (docs/games.md): G(n+p) = G(n) for ie <= n < q*ie +
             * (q-1)*p + t implies it for all n >= ie. */
            if (q * ie + q * p + t <= N) {
                out->status = PERIOD_PROVED;
                out->period = p;
                out->preperiod = i;
                out->proof_n = q * ie + q * p + t - 1;
                break;
            }
        }
        if (out->status == PERIOD_PROVED) {
            /* a smaller divisor may also be a period of the proved tail */
            uint64_t P = out->period, iP = out->preperiod;
            for (uint64_t d = 1; d < P; d++) {
                if (P % d || N < iP + P + d)
                    continue;
                uint64_t id = grundy_tail_start(gt, N, d, 0);
                if (id <= iP) {
                    out->period = d;
                    out->preperiod = id;
                    break;
                }
            }
            fill_exceptional(gt, out);
            return;
        }
    }
    if (!observed)
        return;
    /* Observed periods: the periodic tail repeats at least three times and
     * covers at least half of the values. */
    for (int pass = 0; pass < 2; pass++)
        for (uint64_t p = 1; 3 * p <= N; p++) {
            /* a tail of at most one value (i >= N-p-1) is never observed
             * (N - i >= 3p) */
            if (!pass && (p = grundy_tail_next(gt, N, p, N / 3, true)) > N / 3)
                break;
            int64_t s = pass ? (int64_t)grundy_get(gt, N - 1) - (int64_t)grundy_get(gt, N - 1 - p) : 0;
            if (pass && s == 0)
                continue;
            uint64_t i = pass ? grundy_tail_start(gt, N, p, s) : grundy_tail_pure(gt, N, p, &tc);
            if (N - i >= 3 * p && 2 * i <= N) {
                out->status = pass ? PERIOD_ARITH : PERIOD_OBSERVED;
                out->period = p;
                out->preperiod = i;
                out->saltus = s;
                fill_exceptional(gt, out);
                return;
            }
        }
}

CgtStatus grundy_run_period(GrundyTable *gt, uint64_t limit, GrundyPeriod *out, CgtError *err)
{
    uint64_t next = gt->n < 64 ? 64 : gt->n;
    gt->goal = limit;
    gt->run_n0 = gt->n;
    gt->run_t0 = cgt_now();
    for (;;) {
        if (next > limit)
            next = limit;
        gt->stepping = true;
        CgtStatus st = grundy_extend(gt, next, err);
        gt->stepping = false;
        if (st != CGT_OK) {
            find_period(gt, out, true);
            return st;
        }
        if (gt->rs->plain || gt->n >= limit) {
            find_period(gt, out, gt->n >= limit);
            if (out->status == PERIOD_PROVED || gt->n >= limit)
                return CGT_OK;
        }
        next = gt->n + (gt->n / 16 > 64 ? gt->n / 16 : 64);
    }
}

static uint64_t periodic_index(const GrundyPeriod *per, uint64_t n)
{
    return per->preperiod + (n - per->preperiod) % per->period;
}

CgtStatus grundy_value_at(const GrundyTable *gt, const GrundyPeriod *per, uint64_t n,
                          uint32_t *value, CgtError *err)
{
    if (n < gt->n) {
        *value = grundy_get(gt, n);
        return CGT_OK;
    }
    if (per && per->status == PERIOD_PROVED && per->period > 0) {
        *value = grundy_get(gt, periodic_index(per, n));
        return CGT_OK;
    }
    cgt_error_set(err, CGT_ERR_DOMAIN, "G(%llu) is not known: values computed to heap %llu",
                  (unsigned long long)n, (unsigned long long)(gt->n ? gt->n - 1 : 0));
    cgt_error_hint(err, "compute further, or prove a period first");
    return CGT_ERR_DOMAIN;
}

size_t grundy_exceptional(const GrundyTable *gt, const GrundyPeriod *per, uint64_t **list)
{
    if (list)
        *list = NULL;
    if (per->status == PERIOD_NONE || per->period == 0)
        return 0;
    size_t cnt = 0;
    uint64_t *l = list ? xmalloc((per->preperiod + 1) * sizeof *l) : NULL;
    for (uint64_t n = 0; n < per->preperiod && n < gt->n; n++) {
        uint64_t j = (per->preperiod - n + per->period - 1) / per->period;
        uint64_t m = n + j * per->period;
        if (m >= gt->n)
            continue;
        int64_t expect = (int64_t)grundy_get(gt, m) - (int64_t)j * per->saltus;
        if ((int64_t)grundy_get(gt, n) != expect) {
            if (l)
                l[cnt] = n;
            cnt++;
        }
    }
    if (list)
        *list = l;
    return cnt;
}

CgtStatus grundy_table_row(const GrundyTable *gt, const GrundyPeriod *per, uint64_t r,
                           uint32_t *row, CgtError *err)
{
    for (uint64_t c = 0; c < per->period; c++) {
        CgtStatus st = grundy_value_at(gt, per, r * per->period + c, &row[c], err);
        if (st != CGT_OK)
            return st;
    }
    return CGT_OK;
}

CgtStatus grundy_position(GrundyTable *gt, const uint64_t *heaps, size_t k, uint32_t *value,
                          CgtError *err)
{
    uint64_t mx = 0;
    for (size_t i = 0; i < k; i++)
        if (heaps[i] > mx)
            mx = heaps[i];
    CgtStatus st = grundy_extend(gt, mx + 1, err);
    if (st != CGT_OK)
        return st;
    uint32_t v = 0;
    for (size_t i = 0; i < k; i++)
        v ^= grundy_get(gt, heaps[i]);
    *value = v;
    return CGT_OK;
}
