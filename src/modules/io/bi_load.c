/* `load "FILE"`: reads a result file written by `save` (layout in
 * src/modules/io/bi_io.c) and rebuilds the value.  The file is read only if it is
 * a regular file (src/lib/util/atomicfile.h sf_open), parsed by the strict reader
 * (src/lib/util/json.h), its CRC-64 compared with the value's bytes, and every
 * field checked against its domain; a quotient is rebuilt from its tables
 * and certified again against its game (mq_certify) before it is returned.
 * Errors name the file, line and column: "FILE:L:C: what is wrong". */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang/ast.h"
#include "modules/io/module.h"
#include "modules/games/gameobj.h"
#include "modules/explicit/impgameobj.h"
#include "modules/misere/bi_misere.h"
#include "modules/misere/quotobj.h"
#include "modules/io/resultfile.h"
#include "modules/kb/semiobj.h"
#include "lib/util/atomicfile.h"
#include "lib/util/crc64.h"
#include "lib/util/json.h"
#include "lib/util/xalloc.h"

typedef struct Dec {
    Call *c;
    const char *path;
    const char *text;
    size_t len;
    bool failed;
} Dec;

static void line_col(const char *text, size_t len, size_t off, unsigned *line, unsigned *col)
{
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < off && i < len; i++) {
        if (text[i] == '\n') {
            (*line)++;
            *col = 1;
        } else {
            (*col)++;
        }
    }
}

static Value *dec_fail(Dec *d, const JsonNode *at, DiagCat cat, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static Value *dec_fail(Dec *d, const JsonNode *at, DiagCat cat, const char *fmt, ...)
{
    if (d->failed)
        return NULL;
    d->failed = true;
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    unsigned line, col;
    line_col(d->text, d->len, at ? at->start : 0, &line, &col);
    rt_error(d->c->I, cat, d->c->arg_locs[0], "cannot load %s:%u:%u: %s", d->path, line, col,
             msg);
    return NULL;
}

/* Refuse members other than the allowed ones (a NULL-terminated list). */
static bool only_keys(Dec *d, const JsonNode *o, const char *const *allowed)
{
    for (size_t i = 0; i < o->n; i++) {
        bool ok = false;
        for (const char *const *a = allowed; *a; a++)
            ok |= strcmp(o->keys[i], *a) == 0;
        if (!ok) {
            dec_fail(d, &o->items[i], DIAG_IO, "unexpected member \"%s\"", o->keys[i]);
            return false;
        }
    }
    return true;
}

static const JsonNode *member(Dec *d, const JsonNode *o, const char *key, JsonKind kind)
{
    const JsonNode *m = json_get(o, key);
    if (!m) {
        dec_fail(d, o, DIAG_IO, "missing member \"%s\"", key);
        return NULL;
    }
    if (m->kind != kind) {
        dec_fail(d, m, DIAG_IO, "\"%s\" should be a %s, not a %s", key, json_kind_name(kind),
                 json_kind_name(m->kind));
        return NULL;
    }
    return m;
}

/* A JSON integer in [lo, hi]. */
static bool num_in(Dec *d, const JsonNode *n, long long lo, long long hi, long long *out)
{
    if (n->kind != JSON_NUM || !n->is_int) {
        dec_fail(d, n, DIAG_IO, "an integer expected");
        return false;
    }
    char *end;
    long long v = strtoll(n->s, &end, 10);
    if (*end || n->slen > 20 || v < lo || v > hi) {
        dec_fail(d, n, DIAG_IO, "integer %s out of range %lld..%lld", n->s, lo, hi);
        return false;
    }
    *out = v;
    return true;
}

static bool member_num(Dec *d, const JsonNode *o, const char *key, long long lo, long long hi,
                       long long *out)
{
    const JsonNode *m = member(d, o, key, JSON_NUM);
    return m && num_in(d, m, lo, hi, out);
}

/* An array of n integers in [0, bound) (n = SIZE_MAX: any length). */
static uint32_t *u32_array(Dec *d, const JsonNode *a, size_t n, uint64_t bound, size_t *count)
{
    if (a->kind != JSON_ARR) {
        dec_fail(d, a, DIAG_IO, "an array expected");
        return NULL;
    }
    if (n != SIZE_MAX && a->n != n) {
        dec_fail(d, a, DIAG_IO, "an array of %zu entries expected, found %zu", n, a->n);
        return NULL;
    }
    uint32_t *out = xmalloc((a->n + 1) * sizeof *out);
    for (size_t i = 0; i < a->n; i++) {
        long long v;
        if (!num_in(d, &a->items[i], 0, (long long)bound - 1, &v)) {
            free(out);
            return NULL;
        }
        out[i] = (uint32_t)v;
    }
    if (count)
        *count = a->n;
    return out;
}

static Value *dec_value(Dec *d, const JsonNode *n, int depth);

/* ---- games ---- */

static Value *dec_game(Dec *d, const JsonNode *o)
{
    static const char *const keys[] = {"$cgt", "name", "paper", "code", "subtraction", "rules",
                                       NULL};
    if (!only_keys(d, o, keys))
        return NULL;
    const JsonNode *name = member(d, o, "name", JSON_STR);
    if (!name)
        return NULL;
    const JsonNode *paper = json_get(o, "paper"), *code = json_get(o, "code"),
                   *sub = json_get(o, "subtraction"), *rules = json_get(o, "rules");
    Ruleset *rs = NULL;
    CgtError err;
    cgt_error_clear(&err);
    if (paper) {
        static const char *const names[] = {"ga1", "ga2", "crossover_mutation", "arc_kayles",
                                            "cram"};
        static const GameKind kinds[] = {GAME_GA1, GAME_GA2, GAME_CM, GAME_ARC_KAYLES,
                                         GAME_CRAM};
        for (int i = 0; i < 5; i++)
            if (paper->kind == JSON_STR && strcmp(paper->s, names[i]) == 0 &&
                strcmp(name->s, names[i]) == 0)
                return game_value(kinds[i], names[i], NULL);
        return dec_fail(d, paper, DIAG_IO, "unknown game");
    }
    if (code) {
        if (code->kind != JSON_STR)
            return dec_fail(d, code, DIAG_IO, "a code string expected");
        if (ruleset_parse_code(code->s, &rs, NULL, &err) != CGT_OK)
            return dec_fail(d, code, DIAG_IO, "%s", err.msg);
    } else if (sub) {
        if (sub->kind != JSON_OBJ)
            return dec_fail(d, sub, DIAG_IO, "an object expected");
        const JsonNode *ab = member(d, sub, "all_but", JSON_BOOL);
        const JsonNode *set = member(d, sub, "set", JSON_ARR);
        if (!ab || !set)
            return NULL;
        size_t k;
        uint32_t *s = u32_array(d, set, SIZE_MAX, 1000000001u, &k);
        if (!s)
            return NULL;
        CgtStatus st = ruleset_subtraction(s, k, ab->b, &rs, &err);
        free(s);
        if (st != CGT_OK)
            return dec_fail(d, sub, DIAG_IO, "%s", err.msg);
    } else if (rules) {
        if (rules->kind != JSON_ARR || rules->n == 0)
            return dec_fail(d, rules, DIAG_IO, "an array of rules expected");
        MoveRule *mr = xcalloc(rules->n, sizeof *mr);
        bool ok = true;
        for (size_t r = 0; r < rules->n && ok; r++) {
            const JsonNode *ro = &rules->items[r];
            static const char *const rk[] = {"take", "frac", "parts", "flags", "min_part", NULL};
            long long parts, flags, minp;
            const JsonNode *take, *frac;
            ok = ro->kind == JSON_OBJ && only_keys(d, ro, rk) &&
                 (take = member(d, ro, "take", JSON_ARR)) &&
                 (frac = member(d, ro, "frac", JSON_ARR)) &&
                 member_num(d, ro, "parts", 0, 15, &parts) &&
                 member_num(d, ro, "flags", 0, 3, &flags) &&
                 member_num(d, ro, "min_part", 0, 1000000000, &minp);
            if (!ok) {
                if (ro->kind != JSON_OBJ)
                    dec_fail(d, ro, DIAG_IO, "a rule object expected");
                break;
            }
            mr[r].parts_mask = (unsigned)parts;
            mr[r].flags = (unsigned)flags;
            mr[r].min_part = (uint32_t)minp;
            uint32_t *fr = u32_array(d, frac, 2, 1000000001u, NULL);
            if (!fr) {
                ok = false;
                break;
            }
            mr[r].frac_num = fr[0];
            mr[r].frac_den = fr[1];
            free(fr);
            if (take->n == 0 || take->n > 4096) {
                ok = false;
                dec_fail(d, take, DIAG_IO, "1 to 4096 take ranges expected");
                break;
            }
            mr[r].ranges = xcalloc(take->n, sizeof *mr[r].ranges);
            mr[r].nranges = take->n;
            for (size_t i = 0; i < take->n && ok; i++) {
                const JsonNode *pr = &take->items[i];
                long long lo, hi = -1;
                ok = pr->kind == JSON_ARR && pr->n == 2 &&
                     num_in(d, &pr->items[0], 0, 1000000000, &lo) &&
                     (pr->items[1].kind == JSON_NULL ||
                      num_in(d, &pr->items[1], 0, 1000000000, &hi));
                if (!ok) {
                    dec_fail(d, pr, DIAG_IO, "a range [lo, hi] expected");
                    break;
                }
                mr[r].ranges[i].lo = (uint32_t)lo;
                mr[r].ranges[i].hi = hi < 0 ? RULESET_UNBOUNDED : (uint32_t)hi;
            }
        }
        if (ok && ruleset_from_rules(mr, rules->n, &rs, &err) != CGT_OK) {
            dec_fail(d, rules, DIAG_IO, "%s", err.msg);
            ok = false;
        }
        for (size_t r = 0; r < rules->n; r++)
            free(mr[r].ranges);
        free(mr);
        if (!ok)
            return NULL;
    } else {
        return dec_fail(d, o, DIAG_IO, "a game needs \"code\", \"subtraction\", \"rules\" or "
                                       "\"paper\"");
    }
    if (strcmp(ruleset_name(rs), name->s) != 0) {
        Value *r = dec_fail(d, name, DIAG_IO, "the game's moves are those of %s, not of %s",
                            ruleset_name(rs), name->s);
        ruleset_free(rs);
        return r;
    }
    return game_value(GAME_HEAP, ruleset_name(rs), rs);
}

/* ---- quotients ---- */

static bool valid_names(const JsonNode *a)
{
    for (size_t i = 0; i < a->n; i++) {
        const JsonNode *x = &a->items[i];
        if (x->kind != JSON_STR || x->slen == 0 || x->slen > 32)
            return false;
        for (size_t k = 0; k < x->slen; k++)
            if (!((x->s[k] >= 'a' && x->s[k] <= 'z') || (x->s[k] >= 'A' && x->s[k] <= 'Z')))
                return false;
        for (size_t j = 0; j < i; j++) {
            const JsonNode *y = &a->items[j];
            size_t m = x->slen < y->slen ? x->slen : y->slen;
            if (strncmp(x->s, y->s, m) == 0)
                return false;
        }
    }
    return true;
}

/* The data of a quotient from its "tables": gen_act (the generators'
 * actions), phi (element of each heap) and p_elements; or, in files of
 * earlier versions, the engine's letter tables hl/act and P flags p (their
 * least-game tree and expansions are derived again, not read).  The
 * arrays go to buf (freed by the caller). */
static bool dec_claim(Dec *d, const JsonNode *tb, uint32_t nh, uint32_t n, MqClaim *cl,
                      uint32_t **buf)
{
    const JsonNode *old = json_get(tb, "hl");
    static const char *const nkeys[] = {"gen_act", "phi", "p_elements", NULL};
    static const char *const okeys[] = {"hl", "act", "p", "pred", "predh", "expansions", NULL};
    if (!only_keys(d, tb, old ? okeys : nkeys))
        return false;
    const JsonNode *act = member(d, tb, old ? "act" : "gen_act", JSON_ARR);
    if (!act)
        return false;
    if ((uint64_t)act->n * n > (uint64_t)d->len) {
        dec_fail(d, act, DIAG_IO, "tables of the wrong size for a quotient of order %u", n);
        return false;
    }
    uint32_t *flat = buf[0] = xmalloc(((size_t)act->n * n + 1) * sizeof *flat);
    for (size_t g = 0; g < act->n; g++) {
        uint32_t *row = u32_array(d, &act->items[g], n, n, NULL);
        if (!row)
            return false;
        memcpy(flat + g * n, row, n * sizeof *row);
        free(row);
    }
    uint32_t *phi, *pl;
    size_t np = 0;
    if (old) {
        const JsonNode *pf = member(d, tb, "p", JSON_ARR);
        uint32_t *flags = pf ? u32_array(d, pf, n, 2, NULL) : NULL;
        if (!flags)
            return false;
        if (old->kind != JSON_ARR || old->n != nh) {
            free(flags);
            dec_fail(d, old, DIAG_IO, "an array of %u entries expected", nh);
            return false;
        }
        phi = buf[1] = xmalloc(nh * sizeof *phi);
        for (uint32_t h = 0; h < nh; h++) {
            long long v;
            if (!num_in(d, &old->items[h], -1, (long long)act->n - 1, &v)) {
                free(flags);
                return false;
            }
            phi[h] = v < 0 ? 0 : flat[(size_t)v * n];
        }
        pl = buf[2] = xmalloc((n + 1) * sizeof *pl);
        for (uint32_t x = 0; x < n; x++)
            if (flags[x])
                pl[np++] = x;
        free(flags);
    } else {
        const JsonNode *ph = member(d, tb, "phi", JSON_ARR);
        if (!ph || !(phi = buf[1] = u32_array(d, ph, nh, n, NULL)))
            return false;
        const JsonNode *pe = member(d, tb, "p_elements", JSON_ARR);
        if (!pe || !(pl = buf[2] = u32_array(d, pe, SIZE_MAX, n, &np)))
            return false;
        for (size_t i = 1; i < np; i++)
            if (pl[i] <= pl[i - 1]) {
                dec_fail(d, pe, DIAG_IO, "p_elements must be ascending");
                return false;
            }
    }
    *cl = (MqClaim){.size = n, .ngens = (int)act->n, .act = flat, .p = pl, .np = np, .phi = phi,
                    .n = nh - 1};
    return true;
}

/* w equals the file's word s, blanks in s aside (files of earlier
 * versions wrote "a b^2"). */
static bool same_word(const char *w, const JsonNode *s)
{
    if (s->kind != JSON_STR)
        return false;
    for (size_t i = 0; i < s->slen; i++)
        if (s->s[i] != ' ' && s->s[i] != *w++)
            return false;
    return *w == 0;
}

/* The words the file prints (p_portion, phi) must be the ones its tables
 * give: they are derived data, checked, not read. */
static bool words_agree(const Quotient *q, const JsonNode *pp, const JsonNode *ph)
{
    size_t k = 0;
    bool ok = pp->n == quotient_psize(q) && ph->n == quotient_max_heap(q) + 1;
    for (uint32_t x = 0; x < quotient_size(q) && ok; x++)
        if (quotient_is_p(q, x)) {
            char *w = quotient_format(q, x);
            ok = same_word(w, &pp->items[k++]);
            free(w);
        }
    for (uint32_t h = 0; h < ph->n && ok; h++) {
        char *w = quotient_format(q, quotient_phi(q, h));
        ok = same_word(w, &ph->items[h]);
        free(w);
    }
    return ok;
}

static Value *dec_quotient(Dec *d, const JsonNode *o)
{
    static const char *const keys[] = {"$cgt", "game", "to", "heap", "order", "p_count",
                                       "certified", "partial", "generators", "p_portion", "phi",
                                       "tables", NULL};
    if (!only_keys(d, o, keys))
        return NULL;
    /* a mixed or explicit-set quotient has the list of its games */
    const JsonNode *gl = json_get(o, "game");
    bool mixed = gl && gl->kind == JSON_ARR;
    const JsonNode *gn = mixed ? gl : member(d, o, "game", JSON_OBJ);
    const JsonNode *tn = json_get(o, "to");
    if (tn && (!mixed || tn->kind != JSON_ARR))
        return dec_fail(d, tn, DIAG_IO, "\"to\" is the list of heap bounds of a mixed quotient");
    const JsonNode *tb = gn ? member(d, o, "tables", JSON_OBJ) : NULL;
    const JsonNode *gens = tb ? member(d, o, "generators", JSON_ARR) : NULL;
    const JsonNode *partial = gens ? member(d, o, "partial", JSON_BOOL) : NULL;
    const JsonNode *pp = partial ? member(d, o, "p_portion", JSON_ARR) : NULL;
    const JsonNode *ph = pp ? member(d, o, "phi", JSON_ARR) : NULL;
    long long heap, order, pcount;
    if (!ph || !member_num(d, o, "heap", 0, (1 << 24) - 2, &heap) ||
        !member_num(d, o, "order", 1, 1 << 30, &order) ||
        !member_num(d, o, "p_count", 0, 1 << 30, &pcount))
        return NULL;
    if (!valid_names(gens))
        return dec_fail(d, gens, DIAG_IO, "generator names must be distinct words of letters, "
                                          "none a prefix of another");
    Value *gv = mixed ? dec_value(d, gn, 1) : dec_game(d, gn);
    if (!gv)
        return NULL;
    Value *tv = mixed && tn ? dec_value(d, tn, 1) : NULL;
    if (mixed && tn && !tv) {
        val_unref(gv);
        return NULL;
    }
    if (mixed) {
        /* the games of a mixed quotient are all heap games, each with a
         * bound, or all explicit games, without one */
        bool expl = gv->u.list.len && impgame_is(gv->u.list.items[0]);
        bool ok = gv->u.list.len > 0 && (expl ? !tv : tv && tv->u.list.len == gv->u.list.len);
        for (size_t i = 0; ok && i < gv->u.list.len; i++) {
            const Value *x = gv->u.list.items[i];
            ok = expl ? impgame_is(x)
                      : val_is_obj(x, &game_type) && game_of(x)->kind == GAME_HEAP &&
                            tv->u.list.items[i]->kind == VAL_INT;
        }
        if (!ok) {
            val_unref(gv);
            val_unref(tv);
            return dec_fail(d, gn, DIAG_IO,
                            "the games of a quotient are heap games with one bound each in "
                            "\"to\", or explicit games without \"to\"");
        }
    }
    GameObj *g = mixed ? NULL : game_of(gv);
    if (g && g->kind != GAME_HEAP) {
        val_unref(gv);
        return dec_fail(d, gn, DIAG_IO, "a quotient of %s: quotients are of heap games",
                        g->name);
    }
    Value *res = NULL;
    MqClaim cl;
    uint32_t *buf[3] = {NULL, NULL, NULL};
    if (!dec_claim(d, tb, (uint32_t)heap + 1, (uint32_t)order, &cl, buf))
        goto done;
    char **names = xmalloc((gens->n + 1) * sizeof *names);
    for (size_t i = 0; i < gens->n; i++)
        names[i] = gens->items[i].s;
    CgtError err;
    cgt_error_clear(&err);
    Quotient *q = quotient_from_claim(&cl, (const char *const *)names, (int)gens->n, &err);
    free(names);
    if (!q) {
        dec_fail(d, tb, DIAG_IO, "the tables are not a quotient (%s): the file was altered",
                 err.msg);
        goto done;
    }
    QuotObj *qo = xcalloc(1, sizeof *qo);
    qo->game = gv;
    gv = NULL;
    qo->q = q;
    if (mixed) {
        if (!quot_mix_make(d->c->I, qo->game, d->c->arg_locs[0], tv, d->c->arg_locs[0], qo)) {
            d->failed = true;
            quot_free(qo);
            goto done;
        }
        if (mqmix_top(qo->mix) != (uint32_t)heap) {
            dec_fail(d, o, DIAG_IO, "the file says heap %lld, its games give %u heaps", heap,
                     mqmix_top(qo->mix));
            quot_free(qo);
            goto done;
        }
    }
    qo->asked = (uint32_t)heap;
    qo->partial = partial->b;
    if (qo->partial)
        snprintf(qo->partial_note, sizeof qo->partial_note, "loaded from %s, saved as partial",
                 d->path);
    res = val_obj(&quotient_type, qo);
    quot_certify(qo);
    /* the certificate decides: tables that are not the game's quotient are
     * refused, whatever the file says about them */
    if (!qo->certified) {
        bool stopped = strncmp(qo->cert_note, "certificate check stopped", 25) == 0;
        dec_fail(d, tb, stopped ? DIAG_LIMIT : DIAG_IO,
                 stopped ? "the quotient could not be certified again (%s)"
                         : "the tables are not the misere quotient of %s on heaps 0..%lld: "
                           "the file was altered",
                 stopped ? qo->cert_note : quot_game_name(qo), heap);
        val_unref(res);
        res = NULL;
    } else if ((long long)quotient_size(q) != order || (long long)quotient_psize(q) != pcount) {
        dec_fail(d, o, DIAG_IO, "the file says |Q| = %lld, |P| = %lld, its tables give %u, %u",
                 order, pcount, quotient_size(q), quotient_psize(q));
        val_unref(res);
        res = NULL;
    } else if (!words_agree(q, pp, ph)) {
        dec_fail(d, pp, DIAG_IO,
                 "the words of p_portion or phi are not those of the tables: the file was "
                 "altered");
        val_unref(res);
        res = NULL;
    } else {
        /* certified again: `outcome G [...]` may answer through it */
        quot_remember(res);
    }
done:
    val_unref(gv);
    val_unref(tv);
    for (int i = 0; i < 3; i++)
        free(buf[i]);
    return res;
}

/* ---- presentations ---- */

/* Arenas of presentations read back: their `with` items borrow names from
 * the syntax tree, which must live as long as the value (freed at exit). */
static Arena **load_arenas;
static size_t nload_arenas;

void bi_load_release(void)
{
    for (size_t i = 0; i < nload_arenas; i++)
        arena_free(load_arenas[i]);
    free(load_arenas);
    load_arenas = NULL;
    nload_arenas = 0;
}

static Value *dec_semigroup(Dec *d, const JsonNode *o, bool commutative)
{
    static const char *const keys[] = {"$cgt", "name", "presentation", NULL};
    if (!only_keys(d, o, keys))
        return NULL;
    const JsonNode *name = member(d, o, "name", JSON_STR);
    const JsonNode *pres = name ? member(d, o, "presentation", JSON_STR) : NULL;
    if (!pres)
        return NULL;
    /* any name and presentation a declaration takes (the presentation is
       its source text, comments included); the parse below accepts one
       declaration and nothing after it */
    if (pres->s[0] != '<')
        return dec_fail(d, pres, DIAG_IO, "not a presentation < ... >");
    if (!name->s[0] || !val_is_ident_key(name->s))
        return dec_fail(d, name, DIAG_IO, "not a name");
    /* the declaration is parsed again, as a script would write it */
    char *src = xasprintf("%s %s = %s;", commutative ? "semigroup" : "monoid", name->s, pres->s);
    char *label = xasprintf("%s (presentation)", d->path);
    uint32_t id = source_add(label, src, strlen(src));
    free(label);
    free(src);
    Arena *a = arena_new();
    AstNode *root = NULL;
    Loc eloc;
    char emsg[512];
    if (parse_source(id, a, &root, &eloc, emsg, sizeof emsg) != 0 || root->nkids != 1 ||
        root->kids[0]->kind != AST_DECL) {
        arena_free(a);
        return dec_fail(d, pres, DIAG_IO, "not a presentation cgt can read");
    }
    const AstNode *cmd = root->kids[0]->kids[0];
    const Builtin *b = builtin_find(commutative ? "semigroup" : "monoid");
    Call c;
    memset(&c, 0, sizeof c);
    c.I = d->c->I;
    c.bi = b;
    c.loc = cmd->loc;
    c.raw = cmd;
    c.decl_name = root->kids[0]->text;
    Value *v = b->fn(&c);
    if (!v) {
        arena_free(a);
        d->failed = true;
        return NULL;
    }
    load_arenas = xrealloc(load_arenas, (nload_arenas + 1) * sizeof *load_arenas);
    load_arenas[nload_arenas++] = a;
    return v;
}

/* ---- explicit games ---- */

static Value *dec_impgame(Dec *d, const JsonNode *o)
{
    static const char *const keys[] = {"$cgt", "positions", "nodes", NULL};
    long long count;
    const JsonNode *nodes;
    if (!only_keys(d, o, keys) || !member_num(d, o, "positions", 1, RF_MAX_POSITIONS, &count) ||
        !(nodes = member(d, o, "nodes", JSON_ARR)))
        return NULL;
    if ((long long)nodes->n != count)
        return dec_fail(d, nodes, DIAG_IO, "%zu nodes, the file says %lld", nodes->n, count);
    IgStore *st = impgame_store();
    IgId *ids = xmalloc(nodes->n * sizeof *ids);
    Value *res = NULL;
    for (size_t i = 0; i < nodes->n; i++) {
        const JsonNode *nd = &nodes->items[i];
        if (nd->kind == JSON_OBJ) { /* the nim heap *k as {"nim": k} */
            static const char *const nkeys[] = {"nim", NULL};
            long long k;
            if (!only_keys(d, nd, nkeys) || !member_num(d, nd, "nim", 0, count - 1, &k))
                goto out;
            CgtError err;
            cgt_error_clear(&err);
            if (ig_nim(st, (uint32_t)k, &ids[i], &err) != CGT_OK) {
                dec_fail(d, nd, err.status == CGT_ERR_LIMIT ? DIAG_LIMIT : DIAG_IO, "%s", err.msg);
                goto out;
            }
            continue;
        }
        /* every option refers to an earlier node: the DAG is acyclic */
        uint32_t *ix = u32_array(d, nd, SIZE_MAX, i, NULL);
        if (!ix)
            goto out;
        IgId *opts = xmalloc((nd->n + 1) * sizeof *opts);
        for (size_t k = 0; k < nd->n; k++)
            opts[k] = ids[ix[k]];
        free(ix);
        CgtError err;
        cgt_error_clear(&err);
        CgtStatus s = ig_make(st, opts, nd->n, &ids[i], &err);
        free(opts);
        if (s != CGT_OK) {
            dec_fail(d, nd, s == CGT_ERR_LIMIT ? DIAG_LIMIT : DIAG_IO, "%s", err.msg);
            goto out;
        }
    }
    res = impgame_value(ids[nodes->n - 1]);
out:
    free(ids);
    return res;
}

/* ---- records of results ---- */

/* The record of quotient(g, N) (its keys, in order, and a quotient at q):
 * every other field is derived from q, so it is checked against the
 * record q gives now (quot_record), not read.  `certified` is taken from
 * q, which load has certified (a record saved with `certify off` says
 * false); another field that differs means the file was altered.  A
 * record with other keys is data and is returned as the file holds it. */
static bool check_quot_record(Dec *d, const JsonNode *n, Value *m)
{
    Value *qv = val_map_get(m, "q");
    if (!qv || qv->kind != VAL_OBJ || qv->u.obj.type != &quotient_type)
        return true;
    Value *want = quot_record(qv);
    bool same_keys = val_map_len(want) == val_map_len(m);
    for (size_t i = 0; i < val_map_len(want) && same_keys; i++)
        same_keys = strcmp(want->u.map.keys[i], m->u.map.keys[i]) == 0;
    if (!same_keys) {
        val_unref(want);
        return true;
    }
    for (size_t i = 0; i < val_map_len(want); i++) {
        const char *k = want->u.map.keys[i];
        if (strcmp(k, "q") == 0)
            continue;
        if (strcmp(k, "certified") == 0) {
            val_map_set(m, k, val_ref(want->u.map.vals[i]));
            continue;
        }
        if (!val_equal(want->u.map.vals[i], m->u.map.vals[i])) {
            StrBuf got, is;
            sb_init(&got);
            sb_init(&is);
            val_format_brief(m->u.map.vals[i], &got, false, 60);
            val_format_brief(want->u.map.vals[i], &is, false, 60);
            dec_fail(d, json_get(n, k), DIAG_IO,
                     "the record's \"%s\" is %s, but its quotient q gives %s: the file was "
                     "altered", k, got.s, is.s);
            sb_free(&got);
            sb_free(&is);
            val_unref(want);
            return false;
        }
    }
    val_unref(want);
    return true;
}

/* ---- values ---- */

static Value *dec_tagged(Dec *d, const JsonNode *o, int depth)
{
    const JsonNode *tag = &o->items[0];
    if (tag->kind != JSON_STR)
        return dec_fail(d, tag, DIAG_IO, "\"$cgt\" should name a kind of value");
    if (strcmp(tag->s, "map") == 0) {
        static const char *const keys[] = {"$cgt", "entries", NULL};
        const JsonNode *en;
        if (!only_keys(d, o, keys) || !(en = member(d, o, "entries", JSON_OBJ)))
            return NULL;
        Value *m = val_map();
        for (size_t i = 0; i < en->n; i++) {
            Value *x = dec_value(d, &en->items[i], depth + 1);
            if (!x) {
                val_unref(m);
                return NULL;
            }
            val_map_set(m, en->keys[i], x);
        }
        return m;
    }
    if (strcmp(tag->s, "range") == 0) {
        static const char *const keys[] = {"$cgt", "from", "to", NULL};
        long long lo, hi;
        if (!only_keys(d, o, keys) || !member_num(d, o, "from", INT64_MIN, INT64_MAX, &lo) ||
            !member_num(d, o, "to", INT64_MIN, INT64_MAX, &hi))
            return NULL;
        return val_range(lo, hi);
    }
    if (strcmp(tag->s, "game") == 0)
        return dec_game(d, o);
    if (strcmp(tag->s, "quotient") == 0)
        return dec_quotient(d, o);
    if (strcmp(tag->s, "impgame") == 0)
        return dec_impgame(d, o);
    if (strcmp(tag->s, "semigroup") == 0 || strcmp(tag->s, "monoid") == 0)
        return dec_semigroup(d, o, strcmp(tag->s, "semigroup") == 0);
    return dec_fail(d, tag, DIAG_IO, "unknown kind of value \"%s\"", tag->s);
}

static Value *dec_value(Dec *d, const JsonNode *n, int depth)
{
    switch (n->kind) {
    case JSON_NULL:
        return val_null();
    case JSON_BOOL:
        return val_bool(n->b);
    case JSON_NUM:
        if (!n->is_int)
            return dec_fail(d, n, DIAG_IO, "%s is not an integer (cgt numbers are integers)",
                            n->s);
        if (n->slen - (n->s[0] == '-') > RF_MAX_DIGITS)
            return dec_fail(d, n, DIAG_IO, "an integer of more than %u digits", RF_MAX_DIGITS);
        return val_int_str(n->s[0] == '-' && strcmp(n->s, "-0") == 0 ? "0" : n->s);
    case JSON_STR:
        return val_str_n(n->s, n->slen);
    case JSON_ARR: {
        Value *l = val_list();
        for (size_t i = 0; i < n->n; i++) {
            Value *x = dec_value(d, &n->items[i], depth + 1);
            if (!x) {
                val_unref(l);
                return NULL;
            }
            val_list_push(l, x);
        }
        return l;
    }
    case JSON_OBJ:
        if (n->n > 0 && strcmp(n->keys[0], "$cgt") == 0)
            return dec_tagged(d, n, depth);
        {
            Value *m = val_map();
            for (size_t i = 0; i < n->n; i++) {
                Value *x = dec_value(d, &n->items[i], depth + 1);
                if (!x) {
                    val_unref(m);
                    return NULL;
                }
                val_map_set(m, n->keys[i], x);
            }
            if (!check_quot_record(d, n, m)) {
                val_unref(m);
                return NULL;
            }
            return m;
        }
    }
    return dec_fail(d, n, DIAG_IO, "unexpected JSON value");
}

Value *bi_load(Call *c)
{
    const char *path = c->args[0]->u.str.s;
    CgtError err;
    cgt_error_clear(&err);
    SealedFile sf;
    if (sf_open(&sf, path, "result file", true, &err) != CGT_OK)
        return rt_error_from(c->I, c->arg_locs[0], &err);
    if (sf.absent)
        return rt_error(c->I, DIAG_IO, c->arg_locs[0], "cannot load '%s': no such file", path);
    if (!sf.unsealed || sf.len > RF_MAX_BYTES) {
        sf_close(&sf);
        return rt_error(c->I, DIAG_IO, c->arg_locs[0],
                        "cannot load '%s': not a result file written by save", path);
    }
    char *text = xmalloc(sf.len + 1);
    size_t got = fread(text, 1, sf.len, sf.f);
    sf_close(&sf);
    text[got] = '\0';
    Dec d = {c, path, text, got, false};
    JsonError je;
    JsonNode *root = json_parse(text, got, &je);
    Value *res = NULL;
    if (!root) {
        rt_error(c->I, DIAG_IO, c->arg_locs[0], "cannot load %s:%u:%u: %s", path, je.line,
                 je.col, je.msg);
        rt_hint(c->I, "files for load are written by save; this one is not valid JSON");
        free(text);
        return NULL;
    }
    static const char *const keys[] = {"format", "version", "kind", "crc64", "value", NULL};
    const JsonNode *fmt, *kind, *crc, *val;
    long long version;
    if (root->kind != JSON_OBJ) {
        dec_fail(&d, root, DIAG_IO, "not a result file written by save (no \"format\")");
        goto out;
    }
    if (!(fmt = member(&d, root, "format", JSON_STR)))
        goto out;
    if (strcmp(fmt->s, "cgt-result") != 0) {
        dec_fail(&d, fmt, DIAG_IO, "format \"%s\", expected \"cgt-result\"", fmt->s);
        goto out;
    }
    if (!member_num(&d, root, "version", 0, 1000000, &version))
        goto out;
    if (version != 1) {
        dec_fail(&d, json_get(root, "version"), DIAG_IO,
                 "format version %lld; this cgt reads version 1", version);
        goto out;
    }
    if (!only_keys(&d, root, keys) || !(kind = member(&d, root, "kind", JSON_STR)) ||
        !(crc = member(&d, root, "crc64", JSON_STR)) || !(val = json_get(root, "value"))) {
        if (!d.failed)
            dec_fail(&d, root, DIAG_IO, "missing member \"value\"");
        goto out;
    }
    {
        char want[17];
        snprintf(want, sizeof want, "%016llx",
                 (unsigned long long)crc64_update(0, text + val->start, val->end - val->start));
        if (strcmp(crc->s, want) != 0) {
            dec_fail(&d, crc, DIAG_IO, "checksum mismatch (the file is damaged or was edited)");
            goto out;
        }
    }
    res = dec_value(&d, val, 0);
    if (res && strcmp(val_kind_name(res), kind->s) != 0) {
        dec_fail(&d, kind, DIAG_IO, "the file says it holds a %s, but it holds a %s", kind->s,
                 val_kind_name(res));
        val_unref(res);
        res = NULL;
    }
out:
    json_free(root);
    free(text);
    if (!res && rt_failed(c->I))
        rt_hint(c->I, "the file is left untouched");
    return res;
}
