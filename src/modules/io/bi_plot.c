/* `plot VALUE to "FILE.svg"` (docs/language.md "Plots"): SVG written here,
 * no plotting library.
 *   - a game with computed Grundy values, or a list of integers: the
 *     scatter of G(n) against n that the octal literature prints, with the
 *     rare values marked (the minority class of the parity of G(n) & m for
 *     the mask m that makes one class smallest: Gangolli and Plambeck's
 *     "rare" and "common" values, Winning Ways ch. 4 on 0.16 and kin);
 *   - a quotient (or the record quotient(g, N) returns): |Q(n)| and |P(n)|
 *     against n, recomputed heap by heap by a fresh engine (a log scale
 *     when |Q| spans more than a factor 64);
 *   - an m,n,k record (m, n and replies [{move, reply}] as mnk's JSON
 *     gives them): the board with Breaker's proven reply to each first
 *     move written in its cell;
 *   - a genetic algorithm's record (kind "ga"): the best and the mean
 *     fitness of each generation of its history against the generation.
 * Every data point is an element with data-* attributes holding its values
 * and the plot frame is <rect class="frame">, so tests can check the
 * coordinates (tests/scripts/plot.sh). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modules/io/module.h"
#include "modules/io/export.h"
#include "modules/games/gameobj.h"
#include "modules/misere/quotobj.h"
#include "lib/util/xalloc.h"

#define PLOT_W 800.0
#define PLOT_H 500.0
#define PL 70.0  /* left margin */
#define PR 20.0  /* right */
#define PT 40.0  /* top */
#define PB 50.0  /* bottom */
#define PLOT_MAX_POINTS 100000

static void svg_begin(StrBuf *b, double w, double h, const char *title)
{
    sb_printf(b,
              "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
              "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
              "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n"
              "<rect class=\"background\" x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" "
              "fill=\"white\"/>\n<text class=\"title\" x=\"%.1f\" y=\"22\" "
              "text-anchor=\"middle\" font-size=\"15\">",
              w, h, w, h, w, h, w / 2);
    ex_xml_text(title, b);
    sb_puts(b, "</text>\n");
}

void ex_xml_text(const char *s, StrBuf *b)
{
    for (; *s; s++) {
        if (*s == '<')
            sb_puts(b, "&lt;");
        else if (*s == '>')
            sb_puts(b, "&gt;");
        else if (*s == '&')
            sb_puts(b, "&amp;");
        else if (*s == '"')
            sb_puts(b, "&quot;");
        else
            sb_putc(b, *s);
    }
}

/* Round tick step for a span (1, 2 or 5 times a power of ten). */
static double tick_step(double span, int want)
{
    double raw = span / want;
    if (raw <= 0)
        return 1;
    double p = pow(10, floor(log10(raw)));
    double m = raw / p;
    return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

typedef struct Axes {
    double x0, x1, y0, y1; /* data ranges */
    bool ylog;             /* y axis is log2 */
} Axes;

static double ax_x(const Axes *a, double x)
{
    double w = PLOT_W - PL - PR;
    return PL + (a->x1 > a->x0 ? (x - a->x0) / (a->x1 - a->x0) : 0.5) * w;
}

static double ax_y(const Axes *a, double y)
{
    double h = PLOT_H - PT - PB;
    if (a->ylog)
        y = log2(y);
    return PT + h - (a->y1 > a->y0 ? (y - a->y0) / (a->y1 - a->y0) : 0.5) * h;
}

static void axes_out(const Axes *a, const char *xlabel, const char *ylabel, StrBuf *b)
{
    sb_printf(b,
              "<rect class=\"frame\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
              "fill=\"none\" stroke=\"black\" data-xmin=\"%g\" data-xmax=\"%g\" "
              "data-ymin=\"%g\" data-ymax=\"%g\" data-yscale=\"%s\"/>\n",
              PL, PT, PLOT_W - PL - PR, PLOT_H - PT - PB, a->x0, a->x1, a->y0, a->y1,
              a->ylog ? "log2" : "linear");
    double sx = tick_step(a->x1 - a->x0, 8);
    sb_puts(b, "<g class=\"xticks\" text-anchor=\"middle\">\n");
    for (double t = ceil(a->x0 / sx) * sx; t <= a->x1 + 1e-9; t += sx) {
        double x = ax_x(a, t);
        sb_printf(b,
                  "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"black\"/>"
                  "<text x=\"%.2f\" y=\"%.2f\">%g</text>\n",
                  x, PLOT_H - PB, x, PLOT_H - PB + 5, x, PLOT_H - PB + 18, t);
    }
    sb_puts(b, "</g>\n<g class=\"yticks\" text-anchor=\"end\">\n");
    double sy = a->ylog ? 1 : tick_step(a->y1 - a->y0, 6);
    if (a->ylog && a->y1 - a->y0 > 12)
        sy = ceil((a->y1 - a->y0) / 8);
    for (double t = ceil(a->y0 / sy) * sy; t <= a->y1 + 1e-9; t += sy) {
        double y = PT + (PLOT_H - PT - PB) -
                   (a->y1 > a->y0 ? (t - a->y0) / (a->y1 - a->y0) : 0.5) * (PLOT_H - PT - PB);
        sb_printf(b,
                  "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"black\"/>"
                  "<text x=\"%.2f\" y=\"%.2f\">%g</text>\n",
                  PL - 5, y, PL, y, PL - 8, y + 4, a->ylog ? pow(2, t) : t);
    }
    sb_printf(b,
              "</g>\n<text class=\"xlabel\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s"
              "</text>\n<text class=\"ylabel\" x=\"16\" y=\"%.1f\" text-anchor=\"middle\" "
              "transform=\"rotate(-90 16 %.1f)\">%s</text>\n",
              PL + (PLOT_W - PL - PR) / 2, PLOT_H - 12, xlabel, PT + (PLOT_H - PT - PB) / 2,
              PT + (PLOT_H - PT - PB) / 2, ylabel);
}

/* ---- Grundy scatter ---- */

/* The mask m (value bits) under which the class parity(G(n) & m) of n >= 1
 * has the fewest members; *rare_class gets that class.  Returns 0 when no
 * mask makes a class rarer than a tenth of the heaps (no rare values). */
static uint32_t rare_mask(const uint32_t *g, uint64_t n, unsigned *rare_class)
{
    uint32_t maxv = 0;
    for (uint64_t i = 0; i < n; i++)
        if (g[i] > maxv)
            maxv = g[i];
    if (n < 20 || maxv >= 1024)
        return 0;
    uint32_t span = 1;
    while (span <= maxv)
        span *= 2;
    uint64_t *hist = xcalloc(span, sizeof *hist);
    for (uint64_t i = 1; i < n; i++)
        hist[g[i]]++;
    uint32_t best = 0;
    uint64_t best_count = (n - 1) / 10 + 1;
    for (uint32_t m = 1; m < span; m++) {
        uint64_t odd = 0;
        for (uint32_t v = 0; v < span; v++)
            if (__builtin_popcount(v & m) & 1)
                odd += hist[v];
        uint64_t even = (n - 1) - odd;
        uint64_t k = odd < even ? odd : even;
        if (k < best_count) {
            best_count = k;
            best = m;
            *rare_class = odd < even;
        }
    }
    free(hist);
    return best;
}

static void grundy_scatter(const uint32_t *g, uint64_t n, const char *name, StrBuf *b)
{
    unsigned rc = 0;
    uint32_t m = rare_mask(g, n, &rc);
    uint32_t maxv = 0;
    for (uint64_t i = 0; i < n; i++)
        if (g[i] > maxv)
            maxv = g[i];
    Axes a = {0, n > 1 ? (double)(n - 1) : 1, 0, maxv > 0 ? maxv : 1, false};
    char title[300];
    if (m)
        snprintf(title, sizeof title, "Grundy values of %s, n = 0..%llu (rare values under "
                                      "mask %u in red)", name, (unsigned long long)(n - 1), m);
    else
        snprintf(title, sizeof title, "Grundy values of %s, n = 0..%llu", name,
                 (unsigned long long)(n - 1));
    svg_begin(b, PLOT_W, PLOT_H, title);
    axes_out(&a, "n", "G(n)", b);
    sb_printf(b, "<g class=\"points\" data-mask=\"%u\" data-count=\"%llu\">\n", m,
              (unsigned long long)n);
    double r = n > 2000 ? 1.2 : n > 300 ? 1.8 : 2.5;
    for (uint64_t i = 0; i < n; i++) {
        bool rare = m && i > 0 && (unsigned)(__builtin_popcount(g[i] & m) & 1) == rc;
        sb_printf(b,
                  "<circle class=\"%s\" cx=\"%.2f\" cy=\"%.2f\" r=\"%.1f\" fill=\"%s\" "
                  "data-n=\"%llu\" data-g=\"%u\"/>\n",
                  rare ? "rare" : "common", ax_x(&a, (double)i), ax_y(&a, g[i]),
                  rare ? r + 1 : r, rare ? "#d62728" : "#1f3b73", (unsigned long long)i, g[i]);
    }
    sb_puts(b, "</g>\n</svg>\n");
}

/* ---- quotient growth ---- */

static bool quotient_growth(Call *c, const QuotObj *o, StrBuf *b)
{
    if (o->inf) {
        rt_error(c->I, DIAG_TYPE, c->arg_locs[0], "plot of an infinite quotient: plot the "
                                                  "finite part (quotient q = g to N)");
        return false;
    }
    const GameObj *g = game_of(o->game);
    uint32_t n = quotient_max_heap(o->q);
    uint32_t *qs = xmalloc((n + 1) * sizeof *qs), *ps = xmalloc((n + 1) * sizeof *ps);
    MqEngine *e = mq_new(ruleset_heapgame(g->rs), NULL);
    CgtError err;
    cgt_error_clear(&err);
    for (uint32_t h = 0; h <= n; h++) {
        if (mq_extend_to(e, h, &err) != CGT_OK) {
            mq_free(e);
            free(qs);
            free(ps);
            rt_error_from(c->I, c->arg_locs[0], &err);
            return false;
        }
        qs[h] = mq_current_size(e);
        ps[h] = mq_current_psize(e);
    }
    mq_free(e);
    uint32_t maxq = qs[n];
    Axes a = {0, n ? n : 1, 0, maxq > 1 ? maxq : 1, false};
    if (maxq >= 64) {
        a.ylog = true;
        a.y0 = 0;
        a.y1 = ceil(log2(maxq));
    }
    char title[300];
    snprintf(title, sizeof title, "misere quotients of %s: |Q(n)| and |P(n)|, n = 0..%u",
             g->name, n);
    svg_begin(b, PLOT_W, PLOT_H, title);
    axes_out(&a, "n (largest heap)", a.ylog ? "size (log scale)" : "size", b);
    static const char *const cls[] = {"q", "p"};
    static const char *const col[] = {"#1f3b73", "#d62728"};
    for (int s = 0; s < 2; s++) {
        const uint32_t *v = s ? ps : qs;
        sb_printf(b, "<g class=\"series-%s\">\n<polyline fill=\"none\" stroke=\"%s\" points=\"",
                  cls[s], col[s]);
        for (uint32_t h = 0; h <= n; h++) {
            if (a.ylog && v[h] == 0)
                continue;
            sb_printf(b, "%.2f,%.2f ", ax_x(&a, h), ax_y(&a, v[h]));
        }
        sb_puts(b, "\"/>\n");
        for (uint32_t h = 0; h <= n; h++) {
            if (a.ylog && v[h] == 0)
                continue; /* |P| = 0 has no place on a log scale */
            sb_printf(b,
                      "<circle class=\"%s\" cx=\"%.2f\" cy=\"%.2f\" r=\"2.5\" fill=\"%s\" "
                      "data-n=\"%u\" data-v=\"%u\"/>\n",
                      cls[s], ax_x(&a, h), ax_y(&a, v[h]), col[s], h, v[h]);
        }
        sb_puts(b, "</g>\n");
    }
    sb_printf(b,
              "<g class=\"legend\"><circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>"
              "<text x=\"%.1f\" y=\"%.1f\">|Q(n)|</text><circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" "
              "fill=\"%s\"/><text x=\"%.1f\" y=\"%.1f\">|P(n)|</text></g>\n</svg>\n",
              PL + 15, PT + 15, col[0], PL + 25, PT + 19, PL + 15, PT + 32, col[1], PL + 25,
              PT + 36);
    free(qs);
    free(ps);
    return true;
}

/* ---- genetic algorithm history ---- */

static bool ga_history(Call *c, const Value *rec, StrBuf *b)
{
    const Value *h = val_map_get(rec, "history");
    size_t n = h && h->kind == VAL_LIST ? h->u.list.len : 0;
    if (n == 0 || n > PLOT_MAX_POINTS) {
        rt_error(c->I, DIAG_TYPE, c->arg_locs[0],
                 "a ga plot needs a history of 1 to %d generations", PLOT_MAX_POINTS);
        rt_hint(c->I, "history is a list of {generation, best, mean}, as ga gives");
        return false;
    }
    double *g = xmalloc(n * sizeof *g), *v[2];
    v[0] = xmalloc(n * sizeof *v[0]);
    v[1] = xmalloc(n * sizeof *v[1]);
    bool ok = true;
    double lo = 0, hi = 0;
    for (size_t i = 0; i < n && ok; i++) {
        const Value *row = h->u.list.items[i];
        const Value *gv = row->kind == VAL_MAP ? val_map_get(row, "generation") : NULL;
        const Value *bv = row->kind == VAL_MAP ? val_map_get(row, "best") : NULL;
        const Value *mv = row->kind == VAL_MAP ? val_map_get(row, "mean") : NULL;
        int64_t gi, bi;
        char *end = NULL;
        ok = gv && bv && mv && val_get_i64(gv, &gi) && val_get_i64(bv, &bi) &&
             mv->kind == VAL_STR;
        if (ok) {
            v[1][i] = strtod(mv->u.str.s, &end);
            ok = end != mv->u.str.s && *end == 0;
        }
        if (!ok) {
            rt_error(c->I, DIAG_TYPE, c->arg_locs[0],
                     "history row %zu is not {generation, best, mean} (integers, and the mean "
                     "a decimal string)", i + 1);
            break;
        }
        g[i] = (double)gi;
        v[0][i] = (double)bi;
        for (int s = 0; s < 2; s++) {
            if (i == 0 && s == 0)
                lo = hi = v[s][i];
            lo = v[s][i] < lo ? v[s][i] : lo;
            hi = v[s][i] > hi ? v[s][i] : hi;
        }
    }
    if (ok) {
        Axes a = {g[0], g[n - 1] > g[0] ? g[n - 1] : g[0] + 1, lo, hi > lo ? hi : lo + 1, false};
        const Value *fn = val_map_get(rec, "function");
        char title[300];
        bool named = fn && fn->kind == VAL_STR;
        snprintf(title, sizeof title, "genetic algorithm%s%s: fitness by generation (seed %lld)",
                 named ? " on " : "", named ? fn->u.str.s : "",
                 (long long)val_field_int(rec, "seed"));
        svg_begin(b, PLOT_W, PLOT_H, title);
        axes_out(&a, "generation", "fitness", b);
        static const char *const cls[] = {"best", "mean"};
        static const char *const col[] = {"#d62728", "#1f3b73"};
        for (int s = 0; s < 2; s++) {
            sb_printf(b, "<g class=\"series-%s\">\n<polyline fill=\"none\" stroke=\"%s\" "
                         "points=\"", cls[s], col[s]);
            for (size_t i = 0; i < n; i++)
                sb_printf(b, "%.2f,%.2f ", ax_x(&a, g[i]), ax_y(&a, v[s][i]));
            sb_puts(b, "\"/>\n");
            for (size_t i = 0; i < n; i++)
                sb_printf(b,
                          "<circle class=\"%s\" cx=\"%.2f\" cy=\"%.2f\" r=\"2\" fill=\"%s\" "
                          "data-generation=\"%.0f\" data-v=\"%g\"/>\n",
                          cls[s], ax_x(&a, g[i]), ax_y(&a, v[s][i]), col[s], g[i], v[s][i]);
            sb_puts(b, "</g>\n");
        }
        sb_printf(b,
                  "<g class=\"legend\"><circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>"
                  "<text x=\"%.1f\" y=\"%.1f\">best</text><circle cx=\"%.1f\" cy=\"%.1f\" "
                  "r=\"4\" fill=\"%s\"/><text x=\"%.1f\" y=\"%.1f\">mean</text></g>\n</svg>\n",
                  PLOT_W - PR - 70, PLOT_H - PB - 32, col[0], PLOT_W - PR - 60, PLOT_H - PB - 28,
                  PLOT_W - PR - 70, PLOT_H - PB - 15, col[1], PLOT_W - PR - 60, PLOT_H - PB - 11);
    }
    free(g);
    free(v[0]);
    free(v[1]);
    return ok;
}

/* ---- m,n,k board ---- */

/* Cell index of a name "C3" (column letter, row from the bottom), -1 if bad. */
static int cell_of(const char *s, int m, int n)
{
    if (!s || s[0] < 'A' || s[0] >= 'A' + m)
        return -1;
    char *end;
    long r = strtol(s + 1, &end, 10);
    if (*end || r < 1 || r > n)
        return -1;
    return (int)(r - 1) * m + (s[0] - 'A');
}

static bool mnk_board(Call *c, const Value *rec, StrBuf *b)
{
    int64_t m, n, k = 0;
    Value *mv = val_map_get(rec, "m"), *nv = val_map_get(rec, "n"), *kv = val_map_get(rec, "k");
    Value *rv = val_map_get(rec, "replies");
    if (!mv || !nv || !val_get_i64(mv, &m) || !val_get_i64(nv, &n) || m < 1 || n < 1 ||
        m > 26 || n > 26 || m * n > 64 || !rv || rv->kind != VAL_LIST) {
        rt_error(c->I, DIAG_TYPE, c->arg_locs[0],
                 "an m,n,k plot needs a record with m, n (at most 64 cells) and replies");
        rt_hint(c->I, "replies is a list of {move: \"A1\", reply: \"B2\" or null}, as mnk gives");
        return false;
    }
    if (kv)
        val_get_i64(kv, &k);
    const double cs = 56, x0 = 40, y0 = 50;
    double w = x0 + cs * (double)m + 20, h = y0 + cs * (double)n + 40;
    if (w < 480)
        w = 480; /* room for the title and the note */
    char title[200];
    Value *res = val_map_get(rec, "result");
    snprintf(title, sizeof title, "%lld,%lld,%lld: Breaker's proven replies%s%s",
             (long long)m, (long long)n, (long long)k, res && res->kind == VAL_STR ? "; " : "",
             res && res->kind == VAL_STR ? res->u.str.s : "");
    svg_begin(b, w, h, title);
    sb_printf(b, "<g class=\"board\" data-m=\"%lld\" data-n=\"%lld\" data-cell=\"%.0f\">\n",
              (long long)m, (long long)n, cs);
    for (int64_t r = 0; r < n; r++)
        for (int64_t col = 0; col < m; col++) {
            /* row r counted from the bottom, drawn from the top */
            double x = x0 + cs * (double)col, y = y0 + cs * (double)(n - 1 - r);
            sb_printf(b,
                      "<rect class=\"cell\" x=\"%.1f\" y=\"%.1f\" width=\"%.0f\" height=\"%.0f\" "
                      "fill=\"#f4f1e8\" stroke=\"#555\" data-name=\"%c%lld\"/>\n",
                      x, y, cs, cs, (char)('A' + col), (long long)(r + 1));
        }
    for (int64_t col = 0; col < m; col++)
        sb_printf(b, "<text class=\"collabel\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%c"
                     "</text>\n",
                  x0 + cs * ((double)col + 0.5), y0 + cs * (double)n + 16, (char)('A' + col));
    for (int64_t r = 0; r < n; r++)
        sb_printf(b, "<text class=\"rowlabel\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%lld"
                     "</text>\n",
                  x0 - 6, y0 + cs * ((double)(n - 1 - r) + 0.55), (long long)(r + 1));
    for (size_t i = 0; i < rv->u.list.len; i++) {
        const Value *e = rv->u.list.items[i];
        Value *mo = e->kind == VAL_MAP ? val_map_get(e, "move") : NULL;
        Value *re = e->kind == VAL_MAP ? val_map_get(e, "reply") : NULL;
        int cell = mo && mo->kind == VAL_STR ? cell_of(mo->u.str.s, (int)m, (int)n) : -1;
        int rcell = re && re->kind == VAL_STR ? cell_of(re->u.str.s, (int)m, (int)n) : -1;
        if (cell < 0 || (re && re->kind != VAL_NULL && rcell < 0)) {
            rt_error(c->I, DIAG_DOMAIN, c->arg_locs[0],
                     "reply %zu: the cells must be names such as \"B2\" on the %lldx%lld board",
                     i + 1, (long long)m, (long long)n);
            return false;
        }
        double x = x0 + cs * (cell % m + 0.5), y = y0 + cs * ((double)(n - 1 - cell / m) + 0.62);
        char rn[16];
        snprintf(rn, sizeof rn, "%s", rcell >= 0 ? re->u.str.s : "pot.");
        sb_printf(b,
                  "<text class=\"reply\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
                  "font-size=\"%s\" data-move=\"%s\" data-reply=\"%s\">%s%s</text>\n",
                  x, y, rcell >= 0 ? "15" : "11", mo->u.str.s, rcell >= 0 ? rn : "",
                  rcell >= 0 ? "\xe2\x86\x92" : "", rn);
    }
    sb_printf(b, "</g>\n<text class=\"note\" x=\"%.1f\" y=\"%.1f\">Cell: Maker's first move; "
                 "text: Breaker's reply (pot. = the potential closes it)</text>\n</svg>\n",
              x0, h - 10);
    return true;
}

Value *bi_plot(Call *c)
{
    const Value *v = c->args[0];
    Value *to = call_opt(c, "to");
    if (!to)
        return rt_error(c->I, DIAG_TYPE, c->loc, "plot needs a file: plot VALUE to \"FILE.svg\"");
    const char *path = to->u.str.s;
    size_t pl = strlen(path);
    if (pl < 4 || strcmp(path + pl - 4, ".svg") != 0) {
        rt_error(c->I, DIAG_DOMAIN, call_opt_loc(c, "to"), "plot writes SVG: name the file "
                                                          "FILE.svg");
        return NULL;
    }
    v = ex_quotient_of(v);
    StrBuf b;
    sb_init(&b);
    bool ok = true;
    if (val_is_obj(v, &quotient_type)) {
        ok = quotient_growth(c, v->u.obj.ptr, &b);
    } else if (val_is_obj(v, &game_type)) {
        GameObj *g = game_of(v);
        if (g->kind != GAME_HEAP || !g->gt || grundy_count(g->gt) == 0) {
            sb_free(&b);
            rt_error(c->I, DIAG_DOMAIN, c->arg_locs[0], "no Grundy values of %s computed yet",
                     g->name);
            rt_hint(c->I, "run `period %s;` or `grundy %s 0..N;` first", g->name, g->name);
            return NULL;
        }
        uint64_t n = grundy_count(g->gt);
        if (n > PLOT_MAX_POINTS)
            n = PLOT_MAX_POINTS;
        uint32_t *vals = xmalloc((n + 1) * sizeof *vals);
        grundy_copy(g->gt, 0, n, vals);
        grundy_scatter(vals, n, g->name, &b);
        free(vals);
    } else if (v->kind == VAL_LIST && v->u.list.len > 0) {
        size_t n = v->u.list.len;
        if (n > PLOT_MAX_POINTS) {
            sb_free(&b);
            return rt_error(c->I, DIAG_LIMIT, c->arg_locs[0], "more than %d points to plot",
                            PLOT_MAX_POINTS);
        }
        uint32_t *g = xmalloc(n * sizeof *g);
        for (size_t i = 0; i < n && ok; i++) {
            int64_t x;
            if (!val_get_i64(v->u.list.items[i], &x) || x < 0 || x > UINT32_MAX) {
                rt_error(c->I, DIAG_TYPE, c->arg_locs[0],
                         "element %zu of the list is not an integer in 0..2^32-1", i);
                ok = false;
            } else {
                g[i] = (uint32_t)x;
            }
        }
        if (ok)
            grundy_scatter(g, n, "the sequence", &b);
        free(g);
    } else if (v->kind == VAL_MAP && val_result_kind(v) &&
               strcmp(val_result_kind(v), "ga") == 0) {
        ok = ga_history(c, v, &b);
    } else if (v->kind == VAL_MAP && val_map_get(v, "replies")) {
        ok = mnk_board(c, v, &b);
    } else {
        sb_free(&b);
        rt_error(c->I, DIAG_TYPE, c->arg_locs[0], "cannot plot a %s", val_kind_name(v));
        rt_hint(c->I, "plot takes a game or list of Grundy values, a quotient, an mnk record "
                      "or a ga record");
        return NULL;
    }
    if (!ok) {
        sb_free(&b);
        return NULL;
    }
    return ex_write_file(c, path, "plot file", &b);
}
