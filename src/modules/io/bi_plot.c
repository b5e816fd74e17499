/* `plot VALUE to "FILE.svg" [title T] [xlabel X] [ylabel Y] [log x|y|xy] [lines]`
 * (docs/language.md "Plots"): SVG written here, no plotting library.
 *   - data: a list of integers (y against its index), a list of [x, y]
 *     pairs, or a record of such lists (one series per field, with a
 *     legend), on linear or base-10 log axes;
 *   - a game with computed Grundy values: the scatter of G(n) against n
 *     that the octal literature prints, with the rare values marked (the
 *     minority class of the parity of G(n) & m for the mask m that makes
 *     one class smallest: Gangolli and Plambeck's "rare" and "common"
 *     values, Winning Ways ch. 4 on 0.16 and kin);
 *   - a quotient (or the record quotient(g, N) returns): |Q(n)| and |P(n)|
 *     against n, recomputed heap by heap by a fresh engine (a log scale
 *     when |Q| spans more than a factor 64);
 *   - an m,n,k record (m, n and replies [{move, reply}] as mnk's JSON
 *     gives them): the board with Breaker's proven reply to each first
 *     move written in its cell, or, when the side to move wins, the board
 *     with its winning first move;
 *   - a genetic algorithm's record (kind "ga"): the best and the mean
 *     fitness of each generation of its history against the generation.
 * Every data point is an element with data-* attributes holding its values
 * and the plot frame is <rect class="frame">, so tests can check the
 * coordinates (tests/scripts/plot.sh).  Text is given a font size at which
 * it fits its room, so nothing runs past the picture's edge. */
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

typedef struct PlotOpts {
    const char *title, *xlabel, *ylabel; /* NULL: the plot kind's own */
    bool xlog, ylog, lines;
    bool log_given;
} PlotOpts;

/* Width of a text at a font size, over-estimated (0.65 em a character;
 * sans-serif faces average nearer 0.55) so that the text fits. */
static double text_width(const char *s, double size)
{
    size_t chars = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        chars += (*p & 0xC0) != 0x80;
    return 0.65 * size * (double)chars;
}

/* The font size, at most `size` and at least 6, at which s fits in `room`. */
static double fit_size(const char *s, double room, double size)
{
    double w = text_width(s, size);
    if (w > room && w > 0)
        size = size * room / w;
    return size < 6 ? 6 : size;
}

static void svg_begin(StrBuf *b, double w, double h, const char *title)
{
    sb_printf(b,
              "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
              "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
              "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n"
              "<rect class=\"background\" x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" "
              "fill=\"white\"/>\n",
              w, h, w, h, w, h);
    if (!title[0])
        return;
    sb_printf(b, "<text class=\"title\" x=\"%.1f\" y=\"22\" text-anchor=\"middle\" "
                 "font-size=\"%.2f\">",
              w / 2, fit_size(title, w - 20, 15));
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

/* The axes: data ranges in the scale's units (log2 or log10 of the value
 * on a log axis; 0 = linear). */
typedef struct Axes {
    double x0, x1, y0, y1;
    int xlog, ylog; /* 0, 2 or 10 */
} Axes;

static double scaled(int base, double v)
{
    return base == 2 ? log2(v) : base == 10 ? log10(v) : v;
}

static double ax_x(const Axes *a, double x)
{
    double w = PLOT_W - PL - PR;
    x = scaled(a->xlog, x);
    return PL + (a->x1 > a->x0 ? (x - a->x0) / (a->x1 - a->x0) : 0.5) * w;
}

static double ax_y(const Axes *a, double y)
{
    double h = PLOT_H - PT - PB;
    y = scaled(a->ylog, y);
    return PT + h - (a->y1 > a->y0 ? (y - a->y0) / (a->y1 - a->y0) : 0.5) * h;
}

static const char *scale_name(int base)
{
    return base == 2 ? "log2" : base == 10 ? "log10" : "linear";
}

/* Tick positions of an axis from lo to hi (scale units): round steps on a
 * linear axis, whole powers on a log axis (both ends when no power falls
 * inside). */
static size_t ticks(int base, double lo, double hi, int want, double *t, size_t max)
{
    size_t k = 0;
    if (base == 10 && hi - lo <= 3) {
        /* a few decades: 1, 2 and 5 times each power of ten */
        static const double mult[] = {1, 2, 5};
        for (double e = floor(lo); e <= ceil(hi) && k < max; e++)
            for (int i = 0; i < 3 && k < max; i++) {
                double v = e + log10(mult[i]);
                if (v >= lo - 1e-9 && v <= hi + 1e-9)
                    t[k++] = v;
            }
        if (k > 0)
            return k;
    }
    /* the data are integers: a linear axis has no ticks between them */
    double step = base ? 1 : fmax(1, tick_step(hi - lo, want));
    if (base && hi - lo > want)
        step = ceil((hi - lo) / want);
    for (double v = ceil(lo / step - 1e-9) * step; v <= hi + 1e-9 && k < max; v += step)
        t[k++] = fabs(v) < 1e-9 ? 0 : v;
    if (base && k == 0) {
        t[k++] = lo;
        if (hi > lo)
            t[k++] = hi;
    }
    return k;
}

static void axes_out(const Axes *a, const char *xlabel, const char *ylabel, StrBuf *b)
{
    sb_printf(b,
              "<rect class=\"frame\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
              "fill=\"none\" stroke=\"black\" data-xmin=\"%.17g\" data-xmax=\"%.17g\" "
              "data-ymin=\"%.17g\" data-ymax=\"%.17g\" data-xscale=\"%s\" "
              "data-yscale=\"%s\"/>\n",
              PL, PT, PLOT_W - PL - PR, PLOT_H - PT - PB, a->x0, a->x1, a->y0, a->y1,
              scale_name(a->xlog), scale_name(a->ylog));
    double t[64];
    size_t nt = ticks(a->xlog, a->x0, a->x1, 8, t, 64);
    sb_puts(b, "<g class=\"xticks\" text-anchor=\"middle\">\n");
    for (size_t i = 0; i < nt; i++) {
        double x = PL + (a->x1 > a->x0 ? (t[i] - a->x0) / (a->x1 - a->x0) : 0.5) *
                            (PLOT_W - PL - PR);
        sb_printf(b,
                  "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"black\"/>"
                  "<text x=\"%.2f\" y=\"%.2f\">%g</text>\n",
                  x, PLOT_H - PB, x, PLOT_H - PB + 5, x, PLOT_H - PB + 18,
                  a->xlog ? pow(a->xlog, t[i]) : t[i]);
    }
    sb_puts(b, "</g>\n<g class=\"yticks\" text-anchor=\"end\">\n");
    nt = ticks(a->ylog, a->y0, a->y1, 6, t, 64);
    for (size_t i = 0; i < nt; i++) {
        double y = PT + (PLOT_H - PT - PB) -
                   (a->y1 > a->y0 ? (t[i] - a->y0) / (a->y1 - a->y0) : 0.5) * (PLOT_H - PT - PB);
        sb_printf(b,
                  "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"black\"/>"
                  "<text x=\"%.2f\" y=\"%.2f\" font-size=\"%.2f\">%g</text>\n",
                  PL - 5, y, PL, y, PL - 8, y + 4, 12.0, a->ylog ? pow(a->ylog, t[i]) : t[i]);
    }
    double xm = PL + (PLOT_W - PL - PR) / 2, ym = PT + (PLOT_H - PT - PB) / 2;
    sb_printf(b, "</g>\n<text class=\"xlabel\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
                 "font-size=\"%.2f\">",
              xm, PLOT_H - 12, fit_size(xlabel, PLOT_W - PL - PR, 12));
    ex_xml_text(xlabel, b);
    sb_printf(b, "</text>\n<text class=\"ylabel\" x=\"16\" y=\"%.1f\" text-anchor=\"middle\" "
                 "transform=\"rotate(-90 16 %.1f)\" font-size=\"%.2f\">",
              ym, ym, fit_size(ylabel, PLOT_H - PT - PB, 12));
    ex_xml_text(ylabel, b);
    sb_puts(b, "</text>\n");
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

static void grundy_scatter(const uint32_t *g, uint64_t n, const char *name, const PlotOpts *po,
                           StrBuf *b)
{
    unsigned rc = 0;
    uint32_t m = rare_mask(g, n, &rc);
    uint32_t maxv = 0;
    for (uint64_t i = 0; i < n; i++)
        if (g[i] > maxv)
            maxv = g[i];
    Axes a = {0, n > 1 ? (double)(n - 1) : 1, 0, maxv > 0 ? maxv : 1, 0, 0};
    char title[300];
    if (m)
        snprintf(title, sizeof title, "Grundy values of %s, n = 0..%llu (rare values under "
                                      "mask %u in red)", name, (unsigned long long)(n - 1), m);
    else
        snprintf(title, sizeof title, "Grundy values of %s, n = 0..%llu", name,
                 (unsigned long long)(n - 1));
    svg_begin(b, PLOT_W, PLOT_H, po->title ? po->title : title);
    axes_out(&a, po->xlabel ? po->xlabel : "n", po->ylabel ? po->ylabel : "G(n)", b);
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

static bool quotient_growth(Call *c, const QuotObj *o, const PlotOpts *po, StrBuf *b)
{
    if (o->inf) {
        rt_error(c->I, DIAG_TYPE, c->arg_locs[0], "plot of an infinite quotient: plot the "
                                                  "finite part (quotient q = g to N)");
        return false;
    }
    uint32_t n = quotient_max_heap(o->q);
    uint32_t *qs = xmalloc((n + 1) * sizeof *qs), *ps = xmalloc((n + 1) * sizeof *ps);
    MqEngine *e = mq_new(quot_heapgame(o), NULL);
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
    Axes a = {0, n ? n : 1, 0, maxq > 1 ? maxq : 1, 0, 0};
    if (maxq >= 64 || po->ylog) {
        a.ylog = 2;
        a.y0 = 0;
        a.y1 = ceil(log2(maxq));
    }
    char title[300];
    snprintf(title, sizeof title, "misere quotients of %s: |Q(n)| and |P(n)|, n = 0..%u",
             quot_game_name(o), n);
    svg_begin(b, PLOT_W, PLOT_H, po->title ? po->title : title);
    axes_out(&a, po->xlabel ? po->xlabel : "n (largest heap)",
             po->ylabel ? po->ylabel : a.ylog ? "size (log scale)" : "size", b);
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

static bool ga_history(Call *c, const Value *rec, const PlotOpts *po, StrBuf *b)
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
        Axes a = {g[0], g[n - 1] > g[0] ? g[n - 1] : g[0] + 1, lo, hi > lo ? hi : lo + 1, 0, 0};
        const Value *fn = val_map_get(rec, "function");
        char title[300];
        bool named = fn && fn->kind == VAL_STR;
        snprintf(title, sizeof title, "genetic algorithm%s%s: fitness by generation (seed %lld)",
                 named ? " on " : "", named ? fn->u.str.s : "",
                 (long long)val_field_int(rec, "seed"));
        svg_begin(b, PLOT_W, PLOT_H, po->title ? po->title : title);
        axes_out(&a, po->xlabel ? po->xlabel : "generation", po->ylabel ? po->ylabel : "fitness",
                 b);
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

static bool mnk_board(Call *c, const Value *rec, const PlotOpts *po, StrBuf *b)
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
    /* replies are Breaker's answers when Breaker wins; when the side to
       move wins, its winning first move is the thing to draw */
    Value *res = val_map_get(rec, "result");
    Value *wv = val_map_get(rec, "win_move");
    const char *result = res && res->kind == VAL_STR ? res->u.str.s : "";
    int win = -1;
    if (rv->u.list.len == 0) {
        if (wv && wv->kind == VAL_STR)
            win = cell_of(wv->u.str.s, (int)m, (int)n);
        if (win < 0) {
            rt_error(c->I, DIAG_DOMAIN, c->arg_locs[0],
                     "nothing to draw: the m,n,k record has no replies and no winning move");
            rt_hint(c->I, "a record of a Breaker win has replies, one of a win for the side to "
                          "move a win_move");
            return false;
        }
    }
    const double cs = 56, x0 = 40, y0 = 50;
    static const char note1[] = "Cell: Maker's first move; text: Breaker's reply",
                      note2[] = "(pot. = the potential closes it)";
    char note_win[120];
    double w = x0 + cs * (double)m + 20, h = y0 + cs * (double)n + 56;
    if (w < 480)
        w = 480; /* room for the title and the note */
    char title[200];
    if (win >= 0) {
        snprintf(title, sizeof title, "%lld,%lld,%lld: %s wins; the winning first move %s",
                 (long long)m, (long long)n, (long long)k,
                 strcmp(result, "maker") == 0 ? "Maker" : strcmp(result, "first") == 0
                                                              ? "the first player"
                                                              : result[0] ? result : "the side to move",
                 wv->u.str.s);
        snprintf(note_win, sizeof note_win, "Marked: the winning first move %s", wv->u.str.s);
    } else {
        snprintf(title, sizeof title, "%lld,%lld,%lld: Breaker's proven replies%s%s",
                 (long long)m, (long long)n, (long long)k, result[0] ? "; " : "", result);
    }
    svg_begin(b, w, h, po->title ? po->title : title);
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
    if (win >= 0) {
        double x = x0 + cs * (win % m), y = y0 + cs * (double)(n - 1 - win / m);
        sb_printf(b,
                  "<rect class=\"win\" x=\"%.1f\" y=\"%.1f\" width=\"%.0f\" height=\"%.0f\" "
                  "fill=\"#d62728\" fill-opacity=\"0.35\" stroke=\"#d62728\" "
                  "stroke-width=\"3\" data-move=\"%s\"/>\n",
                  x, y, cs, cs, wv->u.str.s);
        sb_printf(b, "</g>\n<text class=\"note\" x=\"%.1f\" y=\"%.1f\" font-size=\"%.2f\">",
                  x0, h - 24, fit_size(note_win, w - x0 - 10, 12));
        ex_xml_text(note_win, b);
        sb_puts(b, "</text>\n</svg>\n");
        return true;
    }
    sb_printf(b, "</g>\n<text class=\"note\" x=\"%.1f\" y=\"%.1f\" font-size=\"%.2f\">%s"
                 "</text>\n<text class=\"note\" x=\"%.1f\" y=\"%.1f\" font-size=\"%.2f\">%s"
                 "</text>\n</svg>\n",
              x0, h - 24, fit_size(note1, w - x0 - 10, 12), note1, x0, h - 8,
              fit_size(note2, w - x0 - 10, 12), note2);
    return true;
}

/* ---- data: lists of integers, [x, y] pairs, several series ---- */

typedef struct Series {
    char *name; /* NULL: the only series, unnamed */
    size_t n;
    double *x, *y;
    char **xs, **ys; /* the exact integers, for the data-* attributes */
} Series;

static void series_free(Series *s, size_t ns)
{
    for (size_t i = 0; i < ns; i++) {
        for (size_t j = 0; j < s[i].n; j++) {
            free(s[i].xs[j]);
            free(s[i].ys[j]);
        }
        free(s[i].name);
        free(s[i].x);
        free(s[i].y);
        free(s[i].xs);
        free(s[i].ys);
    }
    free(s);
}

static bool num_of(const Value *v, double *d, char **text)
{
    if (v->kind != VAL_INT)
        return false;
    int64_t x;
    if (val_get_i64(v, &x)) {
        *d = (double)x;
        *text = xasprintf("%lld", (long long)x);
        return true;
    }
    mpz_t z;
    mpz_init(z);
    val_get_mpz(v, z);
    *d = mpz_get_d(z);
    *text = mpz_get_str(NULL, 10, z);
    mpz_clear(z);
    return isfinite(*d);
}

/* One series from a list of integers (y against the index from 0) or of
 * [x, y] pairs; *total counts the points of all series. */
static bool series_of(Call *c, const Value *v, const char *name, Series *s, size_t *total)
{
    const char *what = name ? name : "the list";
    if (v->kind != VAL_LIST) {
        rt_error(c->I, DIAG_TYPE, c->arg_locs[0],
                 "field '%s' is a %s, not a list of integers or of [x, y] pairs", what,
                 val_kind_name(v));
        return false;
    }
    size_t n = v->u.list.len;
    if (n == 0) {
        rt_error(c->I, DIAG_DOMAIN, c->arg_locs[0], "nothing to plot: %s%s is empty",
                 name ? "field " : "", name ? name : what);
        return false;
    }
    if ((*total += n) > PLOT_MAX_POINTS) {
        rt_error(c->I, DIAG_LIMIT, c->arg_locs[0], "more than %d points to plot",
                 PLOT_MAX_POINTS);
        return false;
    }
    s->name = name ? xstrdup(name) : NULL;
    s->x = xcalloc(n, sizeof *s->x);
    s->y = xcalloc(n, sizeof *s->y);
    s->xs = xcalloc(n, sizeof *s->xs);
    s->ys = xcalloc(n, sizeof *s->ys);
    bool pairs = v->u.list.items[0]->kind == VAL_LIST;
    for (size_t i = 0; i < n; i++) {
        const Value *e = v->u.list.items[i];
        bool ok;
        if (pairs)
            ok = e->kind == VAL_LIST && e->u.list.len == 2 &&
                 num_of(e->u.list.items[0], &s->x[i], &s->xs[i]) &&
                 num_of(e->u.list.items[1], &s->y[i], &s->ys[i]);
        else
            ok = num_of(e, &s->y[i], &s->ys[i]) &&
                 (s->x[i] = (double)i, s->xs[i] = xasprintf("%zu", i), true);
        s->n = i + 1;
        if (!ok) {
            rt_error(c->I, DIAG_TYPE, c->arg_locs[0], "element %zu of %s%s is not %s", i,
                     name ? "field " : "", what,
                     pairs ? "an [x, y] pair of integers" : "an integer");
            rt_hint(c->I, "plot takes a list of integers, a list of [x, y] pairs of integers, "
                          "or a record of such lists (one series each)");
            return false;
        }
    }
    return true;
}

static const char *const palette[] = {"#1f3b73", "#d62728", "#2ca02c", "#ff7f0e",
                                      "#9467bd", "#8c564b", "#e377c2", "#17becf"};

static bool data_plot(Call *c, const Value *v, const PlotOpts *po, StrBuf *b)
{
    size_t ns = v->kind == VAL_MAP ? val_map_len(v) : 1, total = 0;
    if (ns == 0) {
        rt_error(c->I, DIAG_DOMAIN, c->arg_locs[0], "nothing to plot: the record is empty");
        return false;
    }
    Series *s = xcalloc(ns, sizeof *s);
    for (size_t i = 0; i < ns; i++) {
        bool ok = v->kind == VAL_MAP
                      ? series_of(c, v->u.map.vals[i], v->u.map.keys[i], &s[i], &total)
                      : series_of(c, v, NULL, &s[i], &total);
        if (!ok) {
            series_free(s, ns);
            return false;
        }
    }
    Axes a = {0, 0, 0, 0, po->xlog ? 10 : 0, po->ylog ? 10 : 0};
    bool first = true;
    for (size_t i = 0; i < ns; i++)
        for (size_t j = 0; j < s[i].n; j++) {
            double x = s[i].x[j], y = s[i].y[j];
            if ((a.xlog && x <= 0) || (a.ylog && y <= 0)) {
                rt_error(c->I, DIAG_DOMAIN, c->arg_locs[0],
                         "point %zu%s%s has %s = %s, which a log scale cannot show", j,
                         s[i].name ? " of " : "", s[i].name ? s[i].name : "",
                         a.ylog && y <= 0 ? "y" : "x", a.ylog && y <= 0 ? s[i].ys[j] : s[i].xs[j]);
                rt_hint(c->I, "a log axis shows positive values only; drop `log` or the point");
                series_free(s, ns);
                return false;
            }
            x = scaled(a.xlog, x);
            y = scaled(a.ylog, y);
            if (first || x < a.x0)
                a.x0 = x;
            if (first || x > a.x1)
                a.x1 = x;
            if (first || y < a.y0)
                a.y0 = y;
            if (first || y > a.y1)
                a.y1 = y;
            first = false;
        }
    bool pairs = v->kind == VAL_LIST ? v->u.list.items[0]->kind == VAL_LIST
                                     : v->u.map.vals[0]->u.list.items[0]->kind == VAL_LIST;
    svg_begin(b, PLOT_W, PLOT_H, po->title ? po->title : "");
    axes_out(&a, po->xlabel ? po->xlabel : pairs ? "x" : "n",
             po->ylabel ? po->ylabel : pairs ? "y" : "value", b);
    double r = total > 2000 ? 1.2 : total > 300 ? 1.8 : 2.5;
    for (size_t i = 0; i < ns; i++) {
        const char *col = palette[i % (sizeof palette / sizeof palette[0])];
        sb_puts(b, "<g class=\"series\" data-name=\"");
        ex_xml_text(s[i].name ? s[i].name : "", b);
        sb_printf(b, "\" data-count=\"%zu\">\n", s[i].n);
        if (po->lines) {
            sb_printf(b, "<polyline class=\"line\" fill=\"none\" stroke=\"%s\" points=\"", col);
            for (size_t j = 0; j < s[i].n; j++)
                sb_printf(b, "%.2f,%.2f ", ax_x(&a, s[i].x[j]), ax_y(&a, s[i].y[j]));
            sb_puts(b, "\"/>\n");
        }
        for (size_t j = 0; j < s[i].n; j++)
            sb_printf(b,
                      "<circle class=\"point\" cx=\"%.2f\" cy=\"%.2f\" r=\"%.1f\" fill=\"%s\" "
                      "data-x=\"%s\" data-y=\"%s\"/>\n",
                      ax_x(&a, s[i].x[j]), ax_y(&a, s[i].y[j]), r, col, s[i].xs[j], s[i].ys[j]);
        sb_puts(b, "</g>\n");
    }
    if (v->kind == VAL_MAP) {
        /* the legend, inside the frame at its top left */
        sb_puts(b, "<g class=\"legend\">\n");
        for (size_t i = 0; i < ns; i++) {
            double y = PT + 15 + 17 * (double)i;
            sb_printf(b,
                      "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/><text x=\"%.1f\" "
                      "y=\"%.1f\" font-size=\"%.2f\" data-name=\"",
                      PL + 15, y, palette[i % (sizeof palette / sizeof palette[0])], PL + 25,
                      y + 4, fit_size(s[i].name, PLOT_W - PL - PR - 40, 12));
            ex_xml_text(s[i].name, b);
            sb_puts(b, "\">");
            ex_xml_text(s[i].name, b);
            sb_puts(b, "</text>\n");
        }
        sb_puts(b, "</g>\n");
    }
    sb_puts(b, "</svg>\n");
    series_free(s, ns);
    return true;
}

static bool plot_opts(Call *c, PlotOpts *po)
{
    memset(po, 0, sizeof *po);
    Value *v;
    if ((v = call_opt(c, "title")))
        po->title = v->u.str.s;
    if ((v = call_opt(c, "xlabel")))
        po->xlabel = v->u.str.s;
    if ((v = call_opt(c, "ylabel")))
        po->ylabel = v->u.str.s;
    po->lines = call_opt(c, "lines") != NULL;
    if ((v = call_opt(c, "log"))) {
        const char *w = v->u.str.s;
        po->log_given = true;
        po->xlog = strcmp(w, "x") == 0 || strcmp(w, "xy") == 0;
        po->ylog = strcmp(w, "y") == 0 || strcmp(w, "xy") == 0;
        if (!po->xlog && !po->ylog) {
            rt_error(c->I, DIAG_DOMAIN, call_opt_loc(c, "log"),
                     "log takes x, y or xy, not '%s'", w);
            return false;
        }
    }
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
    PlotOpts po;
    if (!plot_opts(c, &po))
        return NULL;
    v = ex_quotient_of(v);
    bool quot = val_is_obj(v, &quotient_type), game = val_is_obj(v, &game_type);
    bool board = v->kind == VAL_MAP && val_map_get(v, "replies");
    bool garec = v->kind == VAL_MAP && val_result_kind(v) &&
                 strcmp(val_result_kind(v), "ga") == 0;
    if (po.log_given && (game || board || garec || (quot && po.xlog))) {
        rt_error(c->I, DIAG_DOMAIN, call_opt_loc(c, "log"), "a log scale cannot show %s",
                 game ? "G(n) = 0 (plot the values as a list to choose the scale)"
                 : board ? "a board"
                 : garec ? "a fitness history (fitnesses may be 0 or negative)"
                         : "heap 0 (a quotient plot takes `log y` only)");
        return NULL;
    }
    if (po.lines && !(v->kind == VAL_LIST || (v->kind == VAL_MAP && !board))) {
        rt_error(c->I, DIAG_DOMAIN, call_opt_loc(c, "lines"),
                 "lines joins the points of data: a list or a record of lists");
        return NULL;
    }
    StrBuf b;
    sb_init(&b);
    bool ok = true;
    if (quot) {
        ok = quotient_growth(c, v->u.obj.ptr, &po, &b);
    } else if (game) {
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
        grundy_scatter(vals, n, g->name, &po, &b);
        free(vals);
    } else if (garec) {
        ok = ga_history(c, v, &po, &b);
    } else if (board) {
        ok = mnk_board(c, v, &po, &b);
    } else if (v->kind == VAL_LIST || v->kind == VAL_MAP) {
        ok = data_plot(c, v, &po, &b);
    } else {
        sb_free(&b);
        rt_error(c->I, DIAG_TYPE, c->arg_locs[0], "cannot plot a %s", val_kind_name(v));
        rt_hint(c->I, "plot takes a list of integers or of [x, y] pairs, a record of such "
                      "lists, a game with Grundy values, a quotient, an mnk record or a ga "
                      "record");
        return NULL;
    }
    if (!ok) {
        sb_free(&b);
        return NULL;
    }
    return ex_write_file(c, path, "plot file", &b);
}
