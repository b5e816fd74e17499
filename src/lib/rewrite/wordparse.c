/* Word and presentation text parsing (wordparse.h): greedy longest match of
 * generator names, optional `^` and decimal exponents, `1`/`e` identity.
 * Errors carry the byte offset of the offending character. */
#include "lib/rewrite/wordparse.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/rewrite/nckb.h"
#include "lib/util/vec.h"
#include "lib/util/xalloc.h"

static bool has_gen_named_e(const char *const *names, int ngens)
{
    for (int i = 0; i < ngens; i++)
        if (strcmp(names[i], "e") == 0)
            return true;
    return false;
}

/* Longest generator name matching text[pos..len-1]; returns the index or -1. */
static int match_gen(const char *text, size_t pos, size_t len, const char *const *names, int ngens,
                     size_t *mlen)
{
    int best = -1;
    size_t bestlen = 0;
    for (int i = 0; i < ngens; i++) {
        size_t n = strlen(names[i]);
        if (n > bestlen && n <= len - pos && memcmp(text + pos, names[i], n) == 0) {
            best = i;
            bestlen = n;
        }
    }
    *mlen = bestlen;
    return best;
}

static CgtStatus fail(CgtError *err, size_t *bad_offset, size_t off, const char *what)
{
    if (bad_offset)
        *bad_offset = off;
    return cgt_error_set(err, CGT_ERR_DOMAIN, "%s", what);
}

/* One factor loop shared by the commutative and non-commutative parsers:
 * calls back with (generator, exponent); generator -1 means identity. */
typedef CgtStatus (*FactorFn)(void *ctx, int gen, uint32_t exp, size_t off, CgtError *err);

static CgtStatus parse_factors(const char *text, size_t len, const char *const *names, int ngens,
                               FactorFn fn, void *ctx, size_t *bad_offset, CgtError *err)
{
    bool e_is_gen = has_gen_named_e(names, ngens);
    size_t pos = 0;
    int nfactors = 0;
    for (;;) {
        while (pos < len && (isspace((unsigned char)text[pos]) || text[pos] == '*')) {
            if (text[pos] == '*' && nfactors == 0)
                return fail(err, bad_offset, pos, "expected a generator before '*'");
            pos++;
        }
        if (pos >= len)
            break;
        size_t start = pos, mlen;
        int g = match_gen(text, pos, len, names, ngens, &mlen);
        if (g < 0) {
            if (text[pos] == '1' || (text[pos] == 'e' && !e_is_gen)) {
                pos++;
                CgtStatus st = fn(ctx, -1, 0, start, err);
                if (st != CGT_OK)
                    return st;
                nfactors++;
                continue;
            }
            if (isalpha((unsigned char)text[pos]) || text[pos] == '_') {
                size_t end = pos;
                while (end < len && (isalnum((unsigned char)text[end]) || text[end] == '_'))
                    end++;
                if (bad_offset)
                    *bad_offset = pos;
                cgt_error_set(err, CGT_ERR_DOMAIN, "unknown generator '%.*s'", (int)(end - pos),
                              text + pos);
                cgt_error_hint(err, "the generators are declared between '<' and '|'");
                return CGT_ERR_DOMAIN;
            }
            return fail(err, bad_offset, pos, "unexpected character in word");
        }
        pos += mlen;
        bool caret = false;
        if (pos < len && text[pos] == '^') {
            caret = true;
            pos++;
        }
        uint64_t exp = 1;
        if (pos < len && isdigit((unsigned char)text[pos])) {
            exp = 0;
            size_t dstart = pos;
            while (pos < len && isdigit((unsigned char)text[pos])) {
                exp = exp * 10 + (uint64_t)(text[pos] - '0');
                if (exp > WORDPARSE_MAX_EXP)
                    return fail(err, bad_offset, dstart, "exponent too large");
                pos++;
            }
        } else if (caret) {
            return fail(err, bad_offset, pos, "expected an exponent after '^'");
        }
        CgtStatus st = fn(ctx, g, (uint32_t)exp, start, err);
        if (st != CGT_OK)
            return st;
        nfactors++;
    }
    if (nfactors == 0)
        return fail(err, bad_offset, pos, "empty word");
    return CGT_OK;
}

typedef struct {
    uint32_t *out;
    size_t *bad_offset;
} CommCtx;

static CgtStatus comm_factor(void *ctx, int gen, uint32_t exp, size_t off, CgtError *err)
{
    CommCtx *c = ctx;
    if (gen < 0)
        return CGT_OK;
    if ((uint64_t)c->out[gen] + exp > WORDPARSE_MAX_EXP)
        return fail(err, c->bad_offset, off, "exponent too large");
    c->out[gen] += exp;
    return CGT_OK;
}

/* wordparse_compact on text[0..len-1]. */
static CgtStatus wordparse_compact_n(const char *text, size_t len, const char *const *names,
                                     int ngens, uint32_t *out, size_t *bad_offset, CgtError *err)
{
    memset(out, 0, (size_t)ngens * sizeof *out);
    CommCtx c = {out, bad_offset};
    return parse_factors(text, len, names, ngens, comm_factor, &c, bad_offset, err);
}

CgtStatus wordparse_compact(const char *text, const char *const *names, int ngens, uint32_t *out,
                            size_t *bad_offset, CgtError *err)
{
    return wordparse_compact_n(text, strlen(text), names, ngens, out, bad_offset, err);
}

typedef struct {
    VEC(uint32_t) w;
    size_t *bad_offset;
} NcCtx;

static CgtStatus nc_factor(void *ctx, int gen, uint32_t exp, size_t off, CgtError *err)
{
    NcCtx *c = ctx;
    if (gen < 0)
        return CGT_OK;
    if (c->w.len + exp > WORDPARSE_MAX_NCLEN) {
        if (c->bad_offset)
            *c->bad_offset = off;
        return cgt_error_set(err, CGT_ERR_LIMIT, "word longer than %u letters",
                             WORDPARSE_MAX_NCLEN);
    }
    for (uint32_t k = 0; k < exp; k++)
        VEC_PUSH(c->w, (uint32_t)gen);
    return CGT_OK;
}

CgtStatus wordparse_nc(const char *text, size_t textlen, const char *const *names, int ngens,
                       uint32_t **out, size_t *len, size_t *bad_offset, CgtError *err)
{
    NcCtx c = {{0}, bad_offset};
    CgtStatus st = parse_factors(text, textlen, names, ngens, nc_factor, &c, bad_offset, err);
    if (st != CGT_OK) {
        VEC_FREE(c.w);
        *out = NULL;
        *len = 0;
        return st;
    }
    *out = c.w.data;
    *len = c.w.len;
    return CGT_OK;
}

static size_t skip_space(const char *s, size_t pos)
{
    while (s[pos] && isspace((unsigned char)s[pos]))
        pos++;
    return pos;
}

/* What the shared presentation parser builds: one callback per relation
 * side, given the text span of the word. */
typedef struct {
    bool nc;
    Presentation *p;
    NcPresentation *q;
    const char *const *names;
    int g;
    uint32_t *a, *b;          /* commutative: previous and current word */
    uint32_t *na, *nb;        /* non-commutative words (owned) */
    size_t nal, nbl;
} PresBuild;

static CgtStatus build_word(PresBuild *pb, const char *text, size_t start, size_t end, bool first,
                            size_t *bad_offset, CgtError *err)
{
    size_t off = 0;
    CgtStatus st;
    if (!pb->nc) {
        st = wordparse_compact_n(text + start, end - start, pb->names, pb->g,
                                 first ? pb->a : pb->b, &off, err);
    } else {
        uint32_t *w;
        size_t wl;
        st = wordparse_nc(text + start, end - start, pb->names, pb->g, &w, &wl, &off, err);
        if (st == CGT_OK) {
            if (first) {
                free(pb->na);
                pb->na = w;
                pb->nal = wl;
            } else {
                free(pb->nb);
                pb->nb = w;
                pb->nbl = wl;
            }
        }
    }
    if (st != CGT_OK && bad_offset)
        *bad_offset = start + off;
    return st;
}

static void build_relation(PresBuild *pb)
{
    if (!pb->nc) {
        pres_add_relation(pb->p, pb->a, pb->b);
        memcpy(pb->a, pb->b, (size_t)pb->g * sizeof *pb->a);
    } else {
        ncpres_add_relation(pb->q, pb->na, pb->nal, pb->nb, pb->nbl);
        free(pb->na);
        pb->na = pb->nb;
        pb->nal = pb->nbl;
        pb->nb = NULL;
        pb->nbl = 0;
    }
}

static CgtStatus parse_presentation(const char *text, PresBuild *pb, size_t *bad_offset,
                                    CgtError *err)
{
    VEC(char *) names = {0};
    CgtStatus st = CGT_OK;
    size_t pos = skip_space(text, 0);
    bool angle = text[pos] == '<';
    if (angle)
        pos++;
    /* generator list */
    for (;;) {
        pos = skip_space(text, pos);
        if (!isalpha((unsigned char)text[pos]) && text[pos] != '_') {
            st = fail(err, bad_offset, pos, "expected a generator name");
            goto done;
        }
        size_t start = pos;
        while (isalnum((unsigned char)text[pos]) || text[pos] == '_')
            pos++;
        char *nm = xstrndup(text + start, pos - start);
        for (size_t i = 0; i < names.len; i++) {
            if (strcmp(names.data[i], nm) == 0) {
                free(nm);
                st = fail(err, bad_offset, start, "repeated generator name");
                goto done;
            }
        }
        VEC_PUSH(names, nm);
        /* words print as names side by side (`ab^2`, src/lib/rewrite/word.h), so
           no name may begin another: with a, b and ab, `ab` is ambiguous */
        int sh, lo;
        if (!names_prefix_free((const char *const *)names.data, (int)names.len, &sh, &lo)) {
            if (bad_offset)
                *bad_offset = start;
            st = cgt_error_set(err, CGT_ERR_DOMAIN,
                               "generator name '%s' is a prefix of '%s': words would be ambiguous",
                               names.data[sh], names.data[lo]);
            cgt_error_hint(err, "words are written with the names side by side (ab^2), so no "
                                "generator name may begin another");
            goto done;
        }
        pos = skip_space(text, pos);
        if (text[pos] == ',') {
            pos++;
            continue;
        }
        break;
    }
    if (text[pos] != '|' && !(angle && text[pos] == '>') && text[pos] != '\0') {
        st = fail(err, bad_offset, pos, "expected ',' or '|' after a generator");
        goto done;
    }
    int g = (int)names.len;
    pb->g = g;
    if (pb->nc) {
        pb->q = ncpres_new(g, (const char *const *)names.data);
        pb->names = (const char *const *)pb->q->gen_names;
    } else {
        pb->p = pres_new(g, (const char *const *)names.data);
        pb->names = (const char *const *)pb->p->gen_names;
    }
    pb->a = xcalloc((size_t)g, sizeof *pb->a);
    pb->b = xcalloc((size_t)g, sizeof *pb->b);
    if (text[pos] == '|') {
        pos++;
        /* relations: chains separated by ',' */
        for (;;) {
            pos = skip_space(text, pos);
            if (text[pos] == '\0' || text[pos] == '>')
                break;
            int nwords = 0;
            for (;;) {
                size_t start = pos;
                while (text[pos] && text[pos] != '=' && text[pos] != ',' && text[pos] != '>')
                    pos++;
                st = build_word(pb, text, start, pos, nwords == 0, bad_offset, err);
                if (st != CGT_OK)
                    goto done;
                if (nwords > 0)
                    build_relation(pb);
                nwords++;
                if (text[pos] != '=')
                    break;
                pos++;
            }
            if (nwords < 2) {
                st = fail(err, bad_offset, pos, "expected '=' in relation");
                goto done;
            }
            if (text[pos] == ',')
                pos++;
        }
    }
    if (angle) {
        if (text[pos] != '>') {
            st = fail(err, bad_offset, pos, "expected '>' at the end of the presentation");
            goto done;
        }
        pos++;
    }
    pos = skip_space(text, pos);
    if (text[pos] != '\0')
        st = fail(err, bad_offset, pos, "unexpected text after the presentation");
done:
    for (size_t i = 0; i < names.len; i++)
        free(names.data[i]);
    VEC_FREE(names);
    free(pb->a);
    free(pb->b);
    free(pb->na);
    free(pb->nb);
    return st;
}

CgtStatus wordparse_presentation(const char *text, Presentation **out, size_t *bad_offset,
                                 CgtError *err)
{
    PresBuild pb = {0};
    CgtStatus st = parse_presentation(text, &pb, bad_offset, err);
    if (st != CGT_OK) {
        pres_free(pb.p);
        pb.p = NULL;
    }
    *out = pb.p;
    return st;
}

CgtStatus wordparse_nc_presentation(const char *text, NcPresentation **out, size_t *bad_offset,
                                    CgtError *err)
{
    PresBuild pb = {0};
    pb.nc = true;
    CgtStatus st = parse_presentation(text, &pb, bad_offset, err);
    if (st != CGT_OK) {
        ncpres_free(pb.q);
        pb.q = NULL;
    }
    *out = pb.q;
    return st;
}
