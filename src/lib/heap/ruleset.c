/* Heap rulesets: parsing octal/hex codes (Winning Ways ch. 4), subtraction
 * sets and general move rules into a list of MoveRule, generating the options
 * of a heap, and the HeapGame adapter used by the misère engine (src/lib/misere/). */
#include "lib/heap/ruleset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/vec.h"
#include "lib/util/xalloc.h"

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

static CgtStatus hg_options(void *ctx, uint32_t n, HeapOptions *out, CgtError *err)
{
    return ruleset_options(ctx, n, out, err);
}

static void free_rules(MoveRule *rules, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(rules[i].ranges);
    free(rules);
}

void ruleset_free(Ruleset *rs)
{
    if (!rs)
        return;
    free_rules(rs->rules, rs->nrules);
    free(rs->kmask);
    free(rs->ksplit[0]);
    free(rs->ksplit[1]);
    free(rs->name);
    free(rs);
}

/* Fill the derived fields (max_parts, max_take, plain, kmask, hg). */
static void finish(Ruleset *rs)
{
    rs->max_parts = 0;
    rs->max_take = 0;
    rs->plain = true;
    for (size_t i = 0; i < rs->nrules; i++) {
        const MoveRule *r = &rs->rules[i];
        for (int p = 3; p >= 0; p--)
            if ((r->parts_mask >> p) & 1) {
                if (p > rs->max_parts)
                    rs->max_parts = p;
                break;
            }
        for (size_t j = 0; j < r->nranges; j++) {
            if (r->ranges[j].hi == RULESET_UNBOUNDED)
                rs->max_take = -1;
            else if (rs->max_take >= 0 && (int)r->ranges[j].hi > rs->max_take)
                rs->max_take = (int)r->ranges[j].hi;
        }
        if (r->flags || r->min_part > 1 || r->frac_den != 0)
            rs->plain = false;
    }
    if (rs->max_take < 0)
        rs->plain = false;
    rs->kmask = NULL;
    if (rs->plain) {
        rs->kmask = xcalloc((size_t)rs->max_take + 1, sizeof *rs->kmask);
        for (size_t i = 0; i < rs->nrules; i++) {
            const MoveRule *r = &rs->rules[i];
            for (size_t j = 0; j < r->nranges; j++)
                for (uint32_t k = r->ranges[j].lo; k <= r->ranges[j].hi; k++)
                    rs->kmask[k] |= r->parts_mask;
        }
        /* k = 0 leaving nothing is not a move of any heap n >= 1. */
        rs->kmask[0] &= ~1u;
        for (int t = 0; t < 2; t++) {
            rs->ksplit[t] = xmalloc(((size_t)rs->max_take + 1) * sizeof *rs->ksplit[t]);
            for (int k = rs->max_take; k >= 0; k--)
                if (rs->kmask[k] & (4u << t))
                    rs->ksplit[t][rs->nsplit[t]++] = (uint32_t)k;
        }
    }
    rs->hg.ctx = rs;
    rs->hg.options = hg_options;
    rs->hg.max_parts = rs->max_parts;
    rs->hg.max_take = rs->max_take;
    rs->hg.name = rs->name;
}

static MoveRule single_rule(uint32_t lo, uint32_t hi, unsigned mask)
{
    MoveRule r;
    memset(&r, 0, sizeof r);
    r.ranges = xmalloc(sizeof *r.ranges);
    r.ranges[0].lo = lo;
    r.ranges[0].hi = hi;
    r.nranges = 1;
    r.parts_mask = mask;
    return r;
}

CgtStatus ruleset_parse_code(const char *code, Ruleset **out, size_t *bad_offset,
                             CgtError *err)
{
    *out = NULL;
    if (bad_offset)
        *bad_offset = SIZE_MAX;
    size_t len = strlen(code);
    for (size_t i = 0; i < len; i++) {
        if (i == 1 && code[i] == '.')
            continue;
        if (hexval(code[i]) < 0 || (i == 1 && code[i] != '.')) {
            if (bad_offset)
                *bad_offset = i;
            if (i == 1 || (i == 0 && code[i] == '.')) {
                cgt_error_set(err, CGT_ERR_DOMAIN,
                              "bad code '%s': expected one digit d0, a point, then digits",
                              code);
                cgt_error_hint(err, "write codes like 0.07, 0.137, 4.07 or 0.4C");
            } else {
                cgt_error_set(err, CGT_ERR_DOMAIN, "bad digit '%c' at offset %zu in code '%s'",
                              code[i], i, code);
                cgt_error_hint(err, "octal digits are 0-7; hex digits 8-F (leave up to three "
                                    "heaps) are written directly, as in 0.4C");
            }
            return CGT_ERR_DOMAIN;
        }
    }
    if (len < 2) {
        if (bad_offset)
            *bad_offset = len;
        cgt_error_set(err, CGT_ERR_DOMAIN, "bad code '%s': expected d0.d1d2...", code);
        cgt_error_hint(err, "write codes like 0.07, 0.137, 4.07 or 0.4C");
        return CGT_ERR_DOMAIN;
    }
    int d0 = hexval(code[0]);
    if (d0 & 2) {
        if (bad_offset)
            *bad_offset = 0;
        cgt_error_set(err, CGT_ERR_DOMAIN,
                      "code '%s' can loop: d0 = %c lets a move leave the same heap", code,
                      code[0]);
        cgt_error_hint(err, "bit 2 of d0 (remove nothing, leave one heap) is not a move; "
                            "use d0 = 0, 4, 8 or C");
        return CGT_ERR_DOMAIN;
    }
    Ruleset *rs = xcalloc(1, sizeof *rs);
    rs->kind = RULESET_CODE;
    size_t ndig = len - 2; /* d1..dt */
    while (ndig > 0 && code[1 + ndig] == '0')
        ndig--;
    rs->rules = xcalloc(ndig + 1, sizeof *rs->rules);
    if (d0 & 12)
        rs->rules[rs->nrules++] = single_rule(0, 0, (unsigned)d0 & 12u);
    for (size_t k = 1; k <= ndig; k++) {
        int d = hexval(code[1 + k]);
        if (d)
            rs->rules[rs->nrules++] = single_rule((uint32_t)k, (uint32_t)k, (unsigned)d);
    }
    if (rs->nrules == 0) {
        free_rules(rs->rules, 0);
        free(rs);
        cgt_error_set(err, CGT_ERR_DOMAIN, "code '%s' allows no move at all", code);
        cgt_error_hint(err, "every digit is 0 (or only bit 1 of d0 is set)");
        return CGT_ERR_DOMAIN;
    }
    /* Canonical name: upper-case hex digits, trailing zeros dropped. */
    rs->name = xmalloc(ndig + 3);
    rs->name[0] = (char)((d0 & ~1) < 10 ? '0' + (d0 & ~1) : 'A' + (d0 & ~1) - 10);
    rs->name[1] = '.';
    for (size_t k = 1; k <= ndig; k++) {
        int d = hexval(code[1 + k]);
        rs->name[1 + k] = (char)(d < 10 ? '0' + d : 'A' + d - 10);
    }
    rs->name[ndig + 2] = '\0';
    if (ndig == 0) {
        free(rs->name);
        rs->name = xasprintf("%c.0", d0 < 10 ? '0' + (d0 & ~1) : 'A' + (d0 & ~1) - 10);
    }
    finish(rs);
    *out = rs;
    return CGT_OK;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Append "{a,b,c}" to a growing string. */
static char *set_string(const uint32_t *s, size_t n)
{
    size_t cap = 4 + n * 11, len = 0;
    char *buf = xmalloc(cap);
    buf[len++] = '{';
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%u", i ? "," : "", s[i]);
    buf[len++] = '}';
    buf[len] = '\0';
    return buf;
}

CgtStatus ruleset_subtraction(const uint32_t *set, size_t n, bool all_but, Ruleset **out,
                              CgtError *err)
{
    *out = NULL;
    uint32_t *s = xmalloc((n ? n : 1) * sizeof *s);
    if (n)
        memcpy(s, set, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_u32);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (m == 0 || s[m - 1] != s[i])
            s[m++] = s[i];
    if (!all_but && (m == 0 || s[0] == 0)) {
        free(s);
        if (m == 0) {
            cgt_error_set(err, CGT_ERR_DOMAIN, "empty subtraction set allows no move");
            cgt_error_hint(err, "give at least one positive number, e.g. {1,2}");
        } else {
            cgt_error_set(err, CGT_ERR_DOMAIN, "subtraction set contains 0: the game can loop");
            cgt_error_hint(err, "subtraction sets hold positive numbers only");
        }
        return CGT_ERR_DOMAIN;
    }
    Ruleset *rs = xcalloc(1, sizeof *rs);
    rs->kind = RULESET_SUBTRACTION;
    rs->rules = xcalloc(1, sizeof *rs->rules);
    rs->nrules = 1;
    MoveRule *r = &rs->rules[0];
    r->parts_mask = 3;
    r->ranges = xmalloc((m + 1) * sizeof *r->ranges);
    if (!all_but) {
        for (size_t i = 0; i < m; i++)
            r->ranges[r->nranges++] = (RulesetRange){s[i], s[i]};
    } else {
        uint32_t next = 1; /* smallest k not yet covered nor excluded */
        for (size_t i = 0; i < m; i++) {
            if (s[i] < next)
                continue;
            if (s[i] > next)
                r->ranges[r->nranges++] = (RulesetRange){next, s[i] - 1};
            next = s[i] + 1;
        }
        r->ranges[r->nranges++] = (RulesetRange){next, RULESET_UNBOUNDED};
    }
    char *ss = set_string(s, m);
    rs->name = xasprintf("subtraction %s%s", all_but ? "all but " : "", ss);
    free(ss);
    free(s);
    finish(rs);
    *out = rs;
    return CGT_OK;
}

/* A readable description of a rule list, e.g.
 * "rules [take 1..2 leave 0|1|2; take 0 leave 2 unequal]". */
static char *rules_name(const MoveRule *rules, size_t n)
{
    VEC(char) b = {0};
    char tmp[96];
#define APPEND(str)                                                                               \
    do {                                                                                          \
        for (const char *c_ = (str); *c_; c_++)                                                   \
            VEC_PUSH(b, *c_);                                                                     \
    } while (0)
    APPEND("rules [");
    for (size_t i = 0; i < n; i++) {
        const MoveRule *r = &rules[i];
        if (i)
            APPEND("; ");
        APPEND("take ");
        for (size_t j = 0; j < r->nranges; j++) {
            if (j)
                APPEND(",");
            if (r->ranges[j].hi == RULESET_UNBOUNDED)
                snprintf(tmp, sizeof tmp, "%u..", r->ranges[j].lo);
            else if (r->ranges[j].lo == r->ranges[j].hi)
                snprintf(tmp, sizeof tmp, "%u", r->ranges[j].lo);
            else
                snprintf(tmp, sizeof tmp, "%u..%u", r->ranges[j].lo, r->ranges[j].hi);
            APPEND(tmp);
        }
        if (r->frac_den) {
            snprintf(tmp, sizeof tmp, " at most n*%u/%u", r->frac_num, r->frac_den);
            APPEND(tmp);
        }
        APPEND(" leave ");
        int first = 1;
        for (int p = 0; p <= 3; p++)
            if ((r->parts_mask >> p) & 1) {
                snprintf(tmp, sizeof tmp, "%s%d", first ? "" : "|", p);
                APPEND(tmp);
                first = 0;
            }
        if (r->flags & RULE_UNEQUAL)
            APPEND(" unequal");
        if (r->flags & RULE_EQUAL)
            APPEND(" equal");
        if (r->min_part > 1) {
            snprintf(tmp, sizeof tmp, " min %u", r->min_part);
            APPEND(tmp);
        }
    }
    APPEND("]");
    VEC_PUSH(b, '\0');
#undef APPEND
    return b.data;
}

CgtStatus ruleset_from_rules(const MoveRule *rules, size_t nrules, Ruleset **out,
                             CgtError *err)
{
    *out = NULL;
    bool any_move = false;
    for (size_t i = 0; i < nrules; i++) {
        const MoveRule *r = &rules[i];
        if (r->parts_mask & ~15u) {
            cgt_error_set(err, CGT_ERR_DOMAIN, "rule %zu: a move leaves 0 to 3 heaps", i + 1);
            return CGT_ERR_DOMAIN;
        }
        if (r->frac_den == 0 && r->frac_num != 0) {
            cgt_error_set(err, CGT_ERR_DOMAIN, "rule %zu: fraction with denominator 0", i + 1);
            return CGT_ERR_DOMAIN;
        }
        if ((r->flags & RULE_UNEQUAL) && (r->flags & RULE_EQUAL)) {
            cgt_error_set(err, CGT_ERR_DOMAIN, "rule %zu: parts cannot be both equal and unequal",
                          i + 1);
            return CGT_ERR_DOMAIN;
        }
        for (size_t j = 0; j < r->nranges; j++) {
            if (r->ranges[j].lo > r->ranges[j].hi) {
                cgt_error_set(err, CGT_ERR_DOMAIN, "rule %zu: empty take range %u..%u", i + 1,
                              r->ranges[j].lo, r->ranges[j].hi);
                return CGT_ERR_DOMAIN;
            }
            if (r->ranges[j].lo == 0 && (r->parts_mask & 2)) {
                cgt_error_set(err, CGT_ERR_DOMAIN,
                              "rule %zu can loop: taking 0 tokens and leaving one heap", i + 1);
                cgt_error_hint(err, "start the take range at 1, or leave 2 or 3 heaps when "
                                    "taking 0");
                return CGT_ERR_DOMAIN;
            }
        }
        /* A rule has a move for some heap if it has a take range and a
         * parts count other than "0 heaps with k = 0 only". */
        for (size_t j = 0; j < r->nranges; j++)
            if ((r->parts_mask & 14) || ((r->parts_mask & 1) && r->ranges[j].hi > 0))
                if (!(r->frac_den && r->frac_num == 0 && r->ranges[j].lo > 0))
                    any_move = true;
    }
    if (!any_move) {
        cgt_error_set(err, CGT_ERR_DOMAIN, "the ruleset allows no move at all");
        cgt_error_hint(err, "give at least one rule with a take range and heaps to leave");
        return CGT_ERR_DOMAIN;
    }
    Ruleset *rs = xcalloc(1, sizeof *rs);
    rs->kind = RULESET_RULES;
    rs->rules = xcalloc(nrules, sizeof *rs->rules);
    rs->nrules = nrules;
    for (size_t i = 0; i < nrules; i++) {
        rs->rules[i] = rules[i];
        rs->rules[i].ranges = xmalloc((rules[i].nranges + 1) * sizeof(RulesetRange));
        if (rules[i].nranges)
            memcpy(rs->rules[i].ranges, rules[i].ranges,
                   rules[i].nranges * sizeof(RulesetRange));
    }
    rs->name = rules_name(rules, nrules);
    finish(rs);
    *out = rs;
    return CGT_OK;
}

/* Enumerate the options of heap n under one rule into `out`. */
static void rule_options(const MoveRule *r, uint32_t n, HeapOptions *out)
{
    uint32_t kmax = n;
    if (r->frac_den)
        kmax = (uint32_t)(((uint64_t)n * r->frac_num) / r->frac_den);
    uint32_t mp = r->min_part > 1 ? r->min_part : 1;
    bool uneq = r->flags & RULE_UNEQUAL, eq = r->flags & RULE_EQUAL;
    for (size_t j = 0; j < r->nranges; j++) {
        uint32_t hi = r->ranges[j].hi < kmax ? r->ranges[j].hi : kmax;
        for (uint32_t k = r->ranges[j].lo; k <= hi; k++) {
            uint32_t rem = n - k, parts[3];
            if ((r->parts_mask & 1) && rem == 0 && n > 0)
                heapopts_add(out, parts, 0);
            if ((r->parts_mask & 2) && rem >= mp && k > 0) {
                parts[0] = rem;
                heapopts_add(out, parts, 1);
            }
            if (r->parts_mask & 4)
                for (uint32_t a = mp; 2 * a <= rem; a++) {
                    uint32_t b = rem - a;
                    if (b < mp || (uneq && a == b) || (eq && a != b))
                        continue;
                    parts[0] = a;
                    parts[1] = b;
                    heapopts_add(out, parts, 2);
                }
            if (r->parts_mask & 8)
                for (uint32_t a = mp; 3 * a <= rem; a++)
                    for (uint32_t b = a; a + 2 * b <= rem; b++) {
                        uint32_t c = rem - a - b;
                        if (uneq && (a == b || b == c))
                            continue;
                        if (eq && (a != b || b != c))
                            continue;
                        parts[0] = a;
                        parts[1] = b;
                        parts[2] = c;
                        heapopts_add(out, parts, 3);
                    }
            if (k == hi) /* avoid wrap-around at UINT32_MAX */
                break;
        }
    }
}

uint64_t ruleset_options_bound(const Ruleset *rs, uint64_t n)
{
    /* long double: the products below overflow 64 bits for huge n */
    long double total = 0, nn = (long double)n;
    for (size_t i = 0; i < rs->nrules; i++) {
        const MoveRule *r = &rs->rules[i];
        long double kmax = nn;
        if (r->frac_den)
            kmax = nn * r->frac_num / r->frac_den;
        long double per = 0; /* options per take, at most */
        if (r->parts_mask & 3)
            per += 1;
        if (r->parts_mask & 4)
            per += nn / 2 + 1;
        if (r->parts_mask & 8)
            per += nn * nn / 12 + nn + 1;
        for (size_t j = 0; j < r->nranges; j++) {
            long double hi = r->ranges[j].hi < kmax ? r->ranges[j].hi : kmax;
            if (hi >= r->ranges[j].lo)
                total += (hi - r->ranges[j].lo + 1) * per;
        }
    }
    return total >= 18446744073709551615.0L ? UINT64_MAX : (uint64_t)total;
}

/* The options of heap n of a plain ruleset, written straight in canonical
 * order (heapopts_canonicalize): by number of parts, then parts
 * lexicographically. Leaving k heaps of one count, the parts ascend as the
 * take k descends, so each count is a walk over the takes in descending
 * order under the smaller parts fixed before it; distinct takes give
 * distinct options, so there is nothing to drop. The count is known first,
 * so the list is allocated once. */
static void plain_options(const Ruleset *rs, uint32_t n, HeapOptions *out)
{
    const unsigned *km = rs->kmask;
    uint32_t kt = (uint32_t)rs->max_take < n ? (uint32_t)rs->max_take : n;
    size_t nopt = 0, nparts = 0;
    for (uint32_t k = 0; k <= kt; k++) {
        uint64_t rem = n - k;
        if ((km[k] & 1) && rem == 0)
            nopt++;
        if ((km[k] & 2) && rem >= 1 && k > 0) {
            nopt++;
            nparts++;
        }
        if (km[k] & 4) {
            nopt += rem / 2;
            nparts += 2 * (rem / 2);
        }
        if (km[k] & 8) { /* partitions of rem into 3 parts: round(rem^2 / 12) */
            nopt += (rem * rem + 6) / 12;
            nparts += 3 * ((rem * rem + 6) / 12);
        }
    }
    heapopts_reserve(out, nopt, nparts);
    uint32_t p[3];
    if (n > 0 && n <= kt && (km[n] & 1))
        heapopts_push(out, p, 0);
    for (uint32_t k = n - 1 < kt ? n - 1 : kt; n > 0 && k >= 1; k--)
        if (km[k] & 2) {
            p[0] = n - k;
            heapopts_push(out, p, 1);
        }
    const uint32_t *k2 = rs->ksplit[0], *k3 = rs->ksplit[1];
    size_t n2 = rs->nsplit[0], n3 = rs->nsplit[1], i0 = 0;
    /* two heaps (a, b), a <= b: k <= n - 2a */
    for (uint32_t a = 1; n2 > 0 && 2 * (uint64_t)a + k2[n2 - 1] <= n; a++) {
        while (i0 < n2 && k2[i0] + 2 * (uint64_t)a > n)
            i0++;
        p[0] = a;
        for (size_t i = i0; i < n2; i++) {
            p[1] = n - k2[i] - a;
            heapopts_push(out, p, 2);
        }
    }
    /* three heaps (a, b, c), a <= b <= c: k <= n - a - 2b */
    for (uint32_t a = 1; n3 > 0 && 3 * (uint64_t)a + k3[n3 - 1] <= n; a++)
        for (uint32_t b = a; (uint64_t)a + 2 * (uint64_t)b + k3[n3 - 1] <= n; b++) {
            p[0] = a;
            p[1] = b;
            for (size_t i = 0; i < n3; i++)
                if (k3[i] + a + 2 * (uint64_t)b <= n) {
                    p[2] = n - k3[i] - a - b;
                    heapopts_push(out, p, 3);
                }
        }
}

CgtStatus ruleset_options(const Ruleset *rs, uint32_t n, HeapOptions *out, CgtError *err)
{
    (void)err;
    heapopts_clear(out);
    if (rs->plain) {
        plain_options(rs, n, out);
        return CGT_OK;
    }
    for (size_t i = 0; i < rs->nrules; i++)
        rule_options(&rs->rules[i], n, out);
    heapopts_canonicalize(out);
    return CGT_OK;
}

const HeapGame *ruleset_heapgame(const Ruleset *rs)
{
    return &rs->hg;
}

const char *ruleset_name(const Ruleset *rs)
{
    return rs->name;
}
