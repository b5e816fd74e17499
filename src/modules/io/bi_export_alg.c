/* Exports of algebraic results for `write` (src/modules/io/bi_export.c): a
 * quotient as its presentation, P-portion, Phi table and multiplication
 * table, and a presentation with its `with` items, in LaTeX (words with
 * real superscripts), Markdown or CSV. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modules/io/export.h"
#include "modules/games/gameobj.h"
#include "lib/util/xalloc.h"

enum { F_LATEX = 0, F_MARKDOWN = 1, F_CSV = 2 };

/* largest quotient whose multiplication table is written */
#define EX_MUL_MAX 32

/* A word in format f: the one notation `ab^2` (src/lib/rewrite/word.h) in Markdown
 * and CSV; in LaTeX math the factors with real superscripts, ab^{2}, and a
 * thin space between factors when some generator name has more than one
 * character (x1^{3}\,x2), identity 1. */
static void word_out(const uint32_t *w, int ng, char *const *names, int f, StrBuf *b)
{
    if (f != F_LATEX) {
        char *s = word_format(w, ng, names);
        sb_puts(b, s);
        free(s);
        return;
    }
    bool long_names = false;
    for (int g = 0; g < ng; g++)
        long_names |= strlen(names[g]) > 1;
    bool first = true;
    for (int g = 0; g < ng; g++) {
        if (!w[g])
            continue;
        if (!first && long_names)
            sb_puts(b, "\\,");
        sb_puts(b, names[g]);
        if (w[g] > 1)
            sb_printf(b, "^{%u}", w[g]);
        first = false;
    }
    if (first)
        sb_putc(b, '1');
}

static void elem_out(const Quotient *q, uint32_t x, int f, StrBuf *b)
{
    word_out(quotient_word(q, x), quotient_ngens(q), quotient_gen_names(q), f, b);
}

static void pres_out(const Presentation *p, int f, StrBuf *b)
{
    sb_puts(b, f == F_LATEX ? "\\langle " : "< ");
    for (int g = 0; g < p->ngens; g++) {
        sb_puts(b, g ? ", " : "");
        if (f == F_LATEX)
            ex_latex_text(p->gen_names[g], b);
        else
            sb_puts(b, p->gen_names[g]);
    }
    if (p->nrels)
        sb_puts(b, f == F_LATEX ? " \\mid " : " | ");
    for (size_t r = 0; r < p->nrels; r++) {
        for (int side = 0; side < 2; side++) {
            sb_puts(b, side ? " = " : r ? ", " : "");
            word_out(p->rels + (2 * r + (size_t)side) * (size_t)p->ngens, p->ngens, p->gen_names,
                     f, b);
        }
    }
    sb_puts(b, f == F_LATEX ? " \\rangle" : " >");
}

bool ex_quotient(Call *c, const QuotObj *o, int f, StrBuf *b)
{
    if (o->inf) {
        rt_error(c->I, DIAG_TYPE, c->arg_locs[0],
                 "an infinite quotient is written by print (its description), not by write");
        return false;
    }
    if (f != F_LATEX && f != F_MARKDOWN && f != F_CSV) {
        rt_error(c->I, DIAG_TYPE, c->arg_locs[0], "a quotient is written as latex, markdown, "
                                                  "csv or json");
        return false;
    }
    const Quotient *q = o->q;
    uint32_t n = quotient_max_heap(q), size = quotient_size(q);
    const char *game = quot_game_name(o);
    if (f == F_CSV) {
        sb_puts(b, "heap,phi,p_position\r\n");
        for (uint32_t h = 0; h <= n; h++) {
            sb_printf(b, "%u,", h);
            elem_out(q, quotient_phi(q, h), F_CSV, b);
            sb_printf(b, ",%s\r\n", quotient_is_p(q, quotient_phi(q, h)) ? "true" : "false");
        }
        return true;
    }
    bool tex = f == F_LATEX;
    sb_printf(b, tex ? "%% misere quotient Q(%u) of %s: |Q| = %u, |P| = %u%s\n"
                     : "## Q(%u) of %s: |Q| = %u, |P| = %u%s\n\n",
              n, game, size, quotient_psize(q), o->certified ? ", certified" : ", NOT certified");
    sb_puts(b, tex ? "\\[ \\mathcal{Q} = " : "Presentation: `");
    pres_out(quotient_presentation(q), f, b);
    sb_puts(b, tex ? " \\]\n\\[ \\mathcal{P} = \\{" : "`\n\nP-portion: `{");
    bool first = true;
    for (uint32_t x = 0; x < size; x++)
        if (quotient_is_p(q, x)) {
            sb_puts(b, first ? "" : ", ");
            elem_out(q, x, f, b);
            first = false;
        }
    sb_puts(b, tex ? "\\} \\]\n" : "}`\n\n");
    /* the pretending function phi(h), rows of ten heaps */
    if (tex) {
        sb_puts(b, "% pretending function Phi(h), rows of ten heaps\n"
                   "\\begin{tabular}{r|*{10}{c}}\n$h$");
        for (int k = 0; k < 10; k++)
            sb_printf(b, " & %d", k);
        sb_puts(b, " \\\\ \\hline\n");
    } else {
        sb_puts(b, "Phi(h):\n\n| h |");
        for (int k = 0; k < 10; k++)
            sb_printf(b, " %d |", k);
        sb_puts(b, "\n|---:|");
        for (int k = 0; k < 10; k++)
            sb_puts(b, "---|");
        sb_putc(b, '\n');
    }
    for (uint32_t r = 0; r <= n / 10; r++) {
        sb_printf(b, tex ? "%u" : "| %u |", r * 10);
        for (uint32_t k = 0; k < 10; k++) {
            uint32_t h = r * 10 + k;
            sb_puts(b, tex ? " & " : " ");
            if (h <= n) {
                if (tex)
                    sb_putc(b, '$');
                elem_out(q, quotient_phi(q, h), f, b);
                if (tex)
                    sb_putc(b, '$');
            }
            if (!tex)
                sb_puts(b, " |");
        }
        sb_puts(b, tex ? " \\\\\n" : "\n");
    }
    if (tex)
        sb_puts(b, "\\end{tabular}\n");
    if (size > EX_MUL_MAX) {
        sb_printf(b, tex ? "%% multiplication table omitted: |Q| = %u > %d\n"
                         : "\n(multiplication table omitted: |Q| = %u > %d)\n",
                  size, EX_MUL_MAX);
        return true;
    }
    /* multiplication table */
    if (tex) {
        sb_printf(b, "%% multiplication table of Q\n\\begin{tabular}{c|*{%u}{c}}\n$\\cdot$",
                  size);
        for (uint32_t y = 0; y < size; y++) {
            sb_puts(b, " & $");
            elem_out(q, y, f, b);
            sb_putc(b, '$');
        }
        sb_puts(b, " \\\\ \\hline\n");
    } else {
        sb_puts(b, "\nMultiplication table:\n\n| · |");
        for (uint32_t y = 0; y < size; y++) {
            sb_putc(b, ' ');
            elem_out(q, y, f, b);
            sb_puts(b, " |");
        }
        sb_puts(b, "\n|---|");
        for (uint32_t y = 0; y < size; y++)
            sb_puts(b, "---|");
        sb_putc(b, '\n');
    }
    for (uint32_t x = 0; x < size; x++) {
        sb_puts(b, tex ? "$" : "| **");
        elem_out(q, x, f, b);
        sb_puts(b, tex ? "$" : "** |");
        for (uint32_t y = 0; y < size; y++) {
            uint32_t z = quotient_mul(q, x, y);
            bool p = quotient_is_p(q, z);
            if (tex) {
                sb_puts(b, p ? " & $\\mathbf{" : " & $");
                elem_out(q, z, f, b);
                sb_puts(b, p ? "}$" : "$");
            } else {
                sb_puts(b, p ? " **" : " ");
                elem_out(q, z, f, b);
                sb_puts(b, p ? "** |" : " |");
            }
        }
        sb_puts(b, tex ? " \\\\\n" : "\n");
    }
    if (tex)
        sb_puts(b, "\\end{tabular}\n% products in the P-portion in bold\n");
    else
        sb_puts(b, "\nProducts in the P-portion in bold.\n");
    return true;
}

bool ex_presentation(Call *c, const SemiObj *s, int f, StrBuf *b)
{
    if (f != F_LATEX && f != F_MARKDOWN) {
        rt_error(c->I, DIAG_TYPE, c->arg_locs[0],
                 "a presentation is written as latex, markdown or json");
        return false;
    }
    bool tex = f == F_LATEX;
    if (!s->commutative) {
        /* non-commutative words are written as given */
        if (tex) {
            sb_printf(b, "%% monoid %s\n\\texttt{", s->name);
            ex_latex_text(s->text, b);
            sb_puts(b, "}\n");
        } else {
            sb_printf(b, "monoid %s = `%s`\n", s->name, s->text);
        }
        return true;
    }
    const Presentation *p = s->data.pres;
    if (tex) {
        sb_printf(b, "%% semigroup %s\n\\[ ", s->name);
        ex_latex_text(s->name, b);
        sb_puts(b, " = ");
    } else {
        sb_printf(b, "%s = `", s->name);
    }
    pres_out(p, f, b);
    sb_puts(b, tex ? " \\]\n" : "`\n");
    for (size_t i = 0; i < s->data.nwith; i++) {
        const PresWith *w = &s->data.with[i];
        bool isP = strcmp(w->name, "P") == 0;
        if (tex) {
            sb_puts(b, "\\[ ");
            if (isP)
                sb_puts(b, "\\mathcal{P}");
            else if (strcmp(w->name, "phi") == 0)
                sb_puts(b, "\\Phi");
            else
                ex_latex_text(w->name, b);
            sb_puts(b, w->is_list ? " = [" : " = \\{");
        } else {
            sb_printf(b, "\nwith %s = `%s", w->name, w->is_list ? "[" : "{");
        }
        for (size_t k = 0; k < w->n; k++) {
            sb_puts(b, k ? ", " : "");
            word_out(w->words + k * (size_t)p->ngens, p->ngens, p->gen_names, f, b);
        }
        sb_puts(b, tex ? (w->is_list ? "] \\]\n" : "\\} \\]\n") : (w->is_list ? "]`\n" : "}`\n"));
    }
    return true;
}
