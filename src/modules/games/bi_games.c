/* Builtins of the heap-games module: the `game` declaration, grundy,
 * period and table (docs/games.md); genus, outcome and moves are in
 * bi_play.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modules/games/module.h"
#include "modules/games/gameobj.h"
#include "modules/games/heaps.h"
#include "lib/util/atomicfile.h"
#include "lib/util/poll.h"
#include "lib/util/xalloc.h"

/* ---- `game NAME = ...` ---- */

static Value *decl_error(Call *c, Loc loc, const char *msg, const char *hint)
{
    rt_error(c->I, DIAG_DOMAIN, loc, "%s", msg);
    if (hint)
        rt_hint(c->I, "%s", hint);
    return NULL;
}

/* Collect non-negative integers from an integer, range, set or list AST
 * node into a bitmask over 0..63 (for leave counts) or a range list. */
typedef struct Ranges {
    RulesetRange r[64];
    size_t n;
} Ranges;

static bool eval_u32(Call *c, const AstNode *e, uint32_t *out)
{
    Value *v = rt_eval(c->I, e);
    if (!v)
        return false;
    int64_t x;
    bool ok = call_int(c, v, e->loc, "a token count", 0, 1000000000, &x);
    val_unref(v);
    if (ok)
        *out = (uint32_t)x;
    return ok;
}

static bool ranges_of(Call *c, const AstNode *e, Ranges *rg)
{
    if (e->kind == AST_SET || e->kind == AST_LIST) {
        for (size_t i = 0; i < e->nkids; i++)
            if (!ranges_of(c, e->kids[i], rg))
                return false;
        return true;
    }
    if (rg->n >= 64) {
        rt_error(c->I, DIAG_LIMIT, e->loc, "too many ranges in one rule (at most 64)");
        return false;
    }
    RulesetRange *r = &rg->r[rg->n];
    if (e->kind == AST_RANGE) {
        if (!eval_u32(c, e->kids[0], &r->lo))
            return false;
        const AstNode *hi = e->kids[1];
        if (hi->kind == AST_IDENT && strcmp(hi->text, "inf") == 0)
            r->hi = RULESET_UNBOUNDED;
        else if (!eval_u32(c, hi, &r->hi))
            return false;
        if (r->hi < r->lo) {
            rt_error(c->I, DIAG_DOMAIN, e->loc, "empty range");
            return false;
        }
    } else {
        if (!eval_u32(c, e, &r->lo))
            return false;
        r->hi = r->lo;
    }
    rg->n++;
    return true;
}

static bool rule_word(const AstNode *a, const char *w)
{
    return a->kind == AST_IDENT && strcmp(a->text, w) == 0;
}

static bool parse_rule(Call *c, const AstNode *seq, MoveRule *mr, RulesetRange *store,
                       size_t *nstore)
{
    memset(mr, 0, sizeof *mr);
    Ranges take = {.n = 0}, leave = {.n = 0};
    bool have_take = false, have_leave = false;
    for (size_t i = 0; i < seq->nkids; i++) {
        const AstNode *a = seq->kids[i];
        bool needs_value = rule_word(a, "take") || rule_word(a, "leave") ||
                           rule_word(a, "split") || rule_word(a, "min");
        if (needs_value && i + 1 >= seq->nkids) {
            rt_error(c->I, DIAG_DOMAIN, a->loc, "'%s' needs a value", a->text);
            return false;
        }
        if (rule_word(a, "take")) {
            if (have_take) {
                rt_error(c->I, DIAG_DOMAIN, a->loc, "'take' given twice in one rule");
                return false;
            }
            have_take = true;
            if (!ranges_of(c, seq->kids[++i], &take))
                return false;
        } else if (rule_word(a, "leave") || rule_word(a, "split")) {
            if (have_leave) {
                rt_error(c->I, DIAG_DOMAIN, a->loc, "'leave' or 'split' given twice in one rule");
                return false;
            }
            have_leave = true;
            if (rule_word(a, "split")) {
                if (have_take) {
                    rt_error(c->I, DIAG_DOMAIN, a->loc, "'split' means take 0: drop the 'take'");
                    return false;
                }
                have_take = true;
                take.r[0].lo = take.r[0].hi = 0;
                take.n = 1;
            }
            if (!ranges_of(c, seq->kids[++i], &leave))
                return false;
        } else if (rule_word(a, "half")) {
            mr->frac_num = 1;
            mr->frac_den = 2;
        } else if (rule_word(a, "unequal")) {
            mr->flags |= RULE_UNEQUAL;
        } else if (rule_word(a, "equal")) {
            mr->flags |= RULE_EQUAL;
        } else if (rule_word(a, "min")) {
            if (!eval_u32(c, seq->kids[++i], &mr->min_part))
                return false;
        } else {
            rt_error(c->I, DIAG_DOMAIN, a->loc, "unknown word in a move rule");
            rt_hint(c->I, "rules use take K, leave P, split P, half, unequal, equal, min M");
            return false;
        }
    }
    if (!have_take) {
        rt_error(c->I, DIAG_DOMAIN, seq->loc, "a move rule needs 'take K' or 'split P'");
        rt_hint(c->I, "for example: rules { take 1..2 leave 0..2; }");
        return false;
    }
    if (!have_leave) {
        mr->parts_mask = 3; /* leave nothing or one heap */
    } else {
        for (size_t i = 0; i < leave.n; i++) {
            if (leave.r[i].hi > 3) {
                rt_error(c->I, DIAG_DOMAIN, seq->loc, "a move leaves at most 3 heaps");
                return false;
            }
            for (uint32_t p = leave.r[i].lo; p <= leave.r[i].hi; p++)
                mr->parts_mask |= 1u << p;
        }
    }
    mr->ranges = store + *nstore;
    memcpy(mr->ranges, take.r, take.n * sizeof *take.r);
    mr->nranges = take.n;
    *nstore += take.n;
    return true;
}

static Value *game_from_rules(Call *c, const AstNode *block)
{
    if (block->kind != AST_RULES && !(block->kind == AST_SET && block->nkids == 0)) {
        return decl_error(c, block->loc, "expected a rule block { RULE; RULE; ... }",
                          "for example: rules { take 1..2 leave 0..2; }");
    }
    size_t n = block->nkids;
    MoveRule *rules = xcalloc(n ? n : 1, sizeof *rules);
    RulesetRange *store = xcalloc(64 * (n ? n : 1), sizeof *store);
    size_t nstore = 0;
    Value *res = NULL;
    for (size_t i = 0; i < n; i++)
        if (!parse_rule(c, block->kids[i], &rules[i], store, &nstore))
            goto done;
    Ruleset *rs;
    CgtError err;
    cgt_error_clear(&err);
    if (ruleset_from_rules(rules, n, &rs, &err) != CGT_OK) {
        rt_error_from(c->I, block->loc, &err);
        goto done;
    }
    res = game_value(GAME_HEAP, ruleset_name(rs), rs);
done:
    free(rules);
    free(store);
    return res;
}

/* `octal CODE` takes the digits 0-7 only: 0.08 is a hex code, which
 * `hex 0.08` (or `code 0.08`) states.  The offset of the first digit above
 * 7, or -1. */
static long octal_bad_digit(const char *code)
{
    for (size_t i = 0; code[i]; i++)
        if ((code[i] >= '8' && code[i] <= '9') || (code[i] >= 'A' && code[i] <= 'F') ||
            (code[i] >= 'a' && code[i] <= 'f'))
            return (long)i;
    return -1;
}

static Value *octal_digit_error(Call *c, const char *code, long at, Loc l)
{
    rt_error(c->I, DIAG_DOMAIN, l, "'%c' is not an octal digit: octal codes use 0-7",
             code[at]);
    rt_hint(c->I, "digits 8-F (moves that leave up to three heaps) make a hex code: write "
                  "hex %s",
            code);
    return NULL;
}

static Value *game_from_code(Call *c, const AstNode *code, bool octal)
{
    if (code->kind != AST_CODE && code->kind != AST_STR && code->kind != AST_INT) {
        /* a computed code: `octal (codes[i])` or `octal name` holding a string */
        Value *v = rt_eval(c->I, code);
        if (!v)
            return NULL;
        if (v->kind != VAL_STR) {
            val_unref(v);
            return decl_error(c, code->loc, "expected a code such as 0.07",
                              "octal codes are written d0.d1d2..., e.g. octal 0.137");
        }
        long at = octal ? octal_bad_digit(v->u.str.s) : -1;
        if (at >= 0) {
            octal_digit_error(c, v->u.str.s, at, code->loc);
            val_unref(v);
            return NULL;
        }
        Ruleset *rs;
        CgtError err;
        cgt_error_clear(&err);
        CgtStatus st = ruleset_parse_code(v->u.str.s, &rs, NULL, &err);
        val_unref(v);
        if (st != CGT_OK)
            return rt_error_from(c->I, code->loc, &err);
        return game_value(GAME_HEAP, ruleset_name(rs), rs);
    }
    long at = octal && code->text ? octal_bad_digit(code->text) : -1;
    if (at >= 0) {
        Loc l = code->loc;
        l.start += (uint32_t)at + (code->kind == AST_STR ? 1 : 0);
        l.end = l.start + 1;
        return octal_digit_error(c, code->text, at, l);
    }
    Ruleset *rs;
    size_t bad = (size_t)-1;
    CgtError err;
    cgt_error_clear(&err);
    if (ruleset_parse_code(code->text, &rs, &bad, &err) != CGT_OK) {
        Loc l = code->loc;
        if (bad != (size_t)-1 && code->kind != AST_STR && bad < strlen(code->text)) {
            l.start += (uint32_t)bad;
            l.end = l.start + 1;
        } else if (bad != (size_t)-1 && code->kind == AST_STR && bad < strlen(code->text)) {
            l.start += (uint32_t)bad + 1;
            l.end = l.start + 1;
        }
        return rt_error_from(c->I, l, &err);
    }
    return game_value(GAME_HEAP, ruleset_name(rs), rs);
}

static Value *game_from_subtraction(Call *c, const AstNode *const *args, size_t nargs, Loc loc)
{
    bool all_but = false;
    size_t i = 0;
    if (i < nargs && rule_word(args[i], "allbut")) {
        all_but = true;
        i++;
    }
    if (i + 1 != nargs)
        return decl_error(c, i < nargs ? args[i]->loc : loc, "expected one set of numbers",
                          "for example: subtraction {2, 3, 7} or subtraction allbut {1}");
    Value *v = rt_eval(c->I, args[i]);
    if (!v)
        return NULL;
    if (v->kind != VAL_LIST) {
        val_unref(v);
        return decl_error(c, args[i]->loc, "expected a set such as {2, 3, 7}", NULL);
    }
    size_t n = v->u.list.len;
    uint32_t *set = xcalloc(n ? n : 1, sizeof *set);
    for (size_t k = 0; k < n; k++) {
        int64_t x;
        if (!call_int(c, v->u.list.items[k], args[i]->loc, "a subtraction", 0, 1000000000,
                      &x)) {
            free(set);
            val_unref(v);
            return NULL;
        }
        set[k] = (uint32_t)x;
    }
    val_unref(v);
    Ruleset *rs;
    CgtError err;
    cgt_error_clear(&err);
    CgtStatus st = ruleset_subtraction(set, n, all_but, &rs, &err);
    free(set);
    if (st != CGT_OK)
        return rt_error_from(c->I, args[i]->loc, &err);
    return game_value(GAME_HEAP, ruleset_name(rs), rs);
}

Value *bi_game(Call *c)
{
    const AstNode *cmd = c->raw;
    if (cmd->nkids == 0 || cmd->kids[0]->kind != AST_IDENT)
        return decl_error(c, cmd->nkids ? cmd->kids[0]->loc : cmd->loc,
                          "expected the kind of game (octal, hex, subtraction, rules, ...)",
                          "for example: game g = octal 0.07;");
    const char *kind = cmd->kids[0]->text;
    const AstNode *const *args = (const AstNode *const *)cmd->kids + 1;
    size_t nargs = cmd->nkids - 1;
    if (strcmp(kind, "octal") == 0 || strcmp(kind, "hex") == 0 || strcmp(kind, "code") == 0) {
        if (nargs != 1)
            return decl_error(c, cmd->loc, "expected one code after octal",
                              "for example: game g = octal 0.07;");
        return game_from_code(c, args[0], strcmp(kind, "octal") == 0);
    }
    if (strcmp(kind, "subtraction") == 0)
        return game_from_subtraction(c, args, nargs, cmd->loc);
    if (strcmp(kind, "rules") == 0) {
        if (nargs != 1)
            return decl_error(c, cmd->loc, "expected one rule block after rules",
                              "for example: rules { take 1..2 leave 0..2; }");
        return game_from_rules(c, args[0]);
    }
    if (strcmp(kind, "ga1") == 0 || strcmp(kind, "ga2") == 0 ||
        strcmp(kind, "crossover_mutation") == 0 || strcmp(kind, "arc_kayles") == 0 ||
        strcmp(kind, "cram") == 0)
        return bi_game_paper(c, kind, args, nargs);
    rt_error(c->I, DIAG_DOMAIN, cmd->kids[0]->loc, "unknown kind of game '%s'", kind);
    rt_hint(c->I, "kinds: octal, hex, subtraction, rules, ga1, ga2, crossover_mutation, "
                  "arc_kayles, cram");
    return NULL;
}

/* ---- grundy ---- */

static int digits_u(uint64_t x)
{
    int d = 1;
    while (x >= 10) {
        x /= 10;
        d++;
    }
    return d;
}

/* Long ranges (10^8 heaps answered from a period, and the list of their
 * values) poll every RANGE_POLL values, so that the limits and Ctrl-C stop
 * them as they stop the computation: false, with the error, when one did. */
#define RANGE_POLL 65536u

static bool range_poll(Call *c, uint64_t i)
{
    if (i % RANGE_POLL != 0)
        return true;
    CgtStatus st = cgt_poll();
    if (st == CGT_OK)
        return true;
    CgtError e;
    cgt_poll_error(&e, st, "grundy values");
    rt_error_from(c->I, c->loc, &e);
    return false;
}

static void rows_text(StrBuf *b, const uint32_t *vals, uint64_t from, uint64_t n, uint64_t per)
{
    uint32_t mx = 0;
    for (uint64_t i = 0; i < n; i++)
        if (vals[i] > mx)
            mx = vals[i];
    int w = digits_u(mx) + 1;
    if (w < 3)
        w = 3;
    int iw = digits_u(from + n) < 4 ? 4 : digits_u(from + n);
    for (uint64_t i = 0; i < n; i += per) {
        sb_printf(b, "%*llu:", iw, (unsigned long long)(from + i));
        for (uint64_t j = i; j < i + per && j < n; j++)
            sb_printf(b, "%*u", w, vals[j]);
        sb_putc(b, '\n');
    }
}

static Value *grundy_lib_error(Call *c, CgtError *e)
{
    return rt_error_from(c->I, c->loc, e);
}

/* Results resting on values read from a checkpoint say so (docs/games.md
 * "Checkpoints"): a checkpoint's values past the prefix that is
 * recomputed when it is read are checked against their domain only.
 * `upto` is the largest heap the result read (for a period, or a value
 * from it, the last heap of its proof: period_upto). */
static uint64_t period_upto(const GameObj *g)
{
    const GrundyPeriod *p = &g->period;
    if (p->status == PERIOD_PROVED)
        return p->proof_n;
    return p->checked ? p->checked - 1 : 0;
}

/* The heap z as the largest heap a value read: itself when it is in the
 * table, else the period's (its value came from the period). */
static uint64_t heap_upto(GameObj *g, const mpz_t z)
{
    uint64_t n;
    return heap_index(z, GRUNDY_TABLE_BOUND, &n) && n < grundy_count(game_grundy(g))
               ? n
               : period_upto(g);
}

/* The field from_checkpoint of a result that read G(0..upto): null, or
 * {file, from, to} when some of them were read from a checkpoint. */
static Value *from_checkpoint(GameObj *g, uint64_t upto)
{
    uint64_t from, to;
    const char *paths;
    if (!grundy_read_values(game_grundy(g), &from, &to, &paths) || upto < from)
        return val_null();
    Value *r = val_map();
    val_map_set_str(r, "file", paths);
    val_map_set_int(r, "from", (int64_t)from);
    val_map_set_int(r, "to", (int64_t)(to - 1));
    return r;
}

/* Its line in the text of a result. */
static void from_checkpoint_text(StrBuf *b, const Value *fc)
{
    if (!fc || fc->kind != VAL_MAP)
        return;
    sb_printf(b, "  from checkpoint '%s': G(%lld..%lld) read, not recomputed\n",
              val_field_str(fc, "file"), (long long)val_field_int(fc, "from"),
              (long long)val_field_int(fc, "to"));
}

/* One step of grundy_fill: values to target, or with per the period
 * search to target (grundy_run_period, which goes on from the table's
 * end). */
static CgtStatus fill_step(GrundyTable *gt, uint64_t target, GrundyPeriod *per, CgtError *err)
{
    return per ? grundy_run_period(gt, target, per, err) : grundy_extend(gt, target, err);
}

/* Extend the table to n values (with per: search for a period up to n
 * values, stopping when one is proved); with a checkpoint path, resume
 * from it and save after each step (10^6 values or a quarter of those so
 * far, at most every 5 s: each value is written a few times in all) and
 * at the end (also when stopped).  The file is
 * always read first, even when the table already holds values, and is
 * never replaced by a table of fewer values (docs/errors.md, "Files cgt
 * writes").  When only the final save fails, the values are complete:
 * returns true with save_err set, for the caller to report after printing
 * the result. */
static bool grundy_fill(Call *c, GameObj *g, uint64_t n, const char *ckpt, GrundyPeriod *per,
                        CgtError *save_err)
{
    GrundyTable *gt = game_grundy(g);
    CgtError err;
    cgt_error_clear(&err);
    uint64_t on_disk = 0;
    if (ckpt) {
        uint64_t before = grundy_count(gt);
        if (grundy_load(gt, ckpt, &on_disk, &err) != CGT_OK) {
            rt_error_from(c->I, call_opt_loc(c, "checkpoint"), &err);
            return false;
        }
        if (grundy_count(gt) > before)
            cgt_progress_force("grundy", "resumed %s from %s at %llu values", g->name, ckpt,
                               (unsigned long long)grundy_count(gt));
        if (grundy_count(gt) < n && af_probe(ckpt, "checkpoint", &err) != CGT_OK) {
            rt_error_from(c->I, call_opt_loc(c, "checkpoint"), &err);
            return false;
        }
    }
    if (!ckpt) {
        if (fill_step(gt, n, per, &err) != CGT_OK) {
            grundy_lib_error(c, &err);
            return false;
        }
        return true;
    }
    double last = cgt_now();
    bool dirty = grundy_count(gt) > on_disk; /* the table holds values the file lacks */
    bool searched = false;
    for (;;) {
        CgtStatus st = CGT_OK;
        if (grundy_count(gt) < n || (per && !searched)) {
            uint64_t have = grundy_count(gt);
            uint64_t step = have < 1000000 ? 1000000 : have / 4;
            uint64_t target = have + step < n ? have + step : n;
            st = fill_step(gt, target, per, &err);
            searched = true;
            dirty |= grundy_count(gt) > have;
        }
        bool done = grundy_count(gt) >= n || (per && per->status == PERIOD_PROVED);
        if (dirty && (st != CGT_OK || cgt_now() - last > 5 || done)) {
            CgtError serr;
            cgt_error_clear(&serr);
            if (grundy_save(gt, ckpt, &serr) != CGT_OK) {
                if (done && st == CGT_OK) {
                    *save_err = serr;
                    return true;
                }
                rt_error_from(c->I, call_opt_loc(c, "checkpoint"), &serr);
                return false;
            }
            dirty = false;
            last = cgt_now();
        }
        if (st != CGT_OK) {
            grundy_lib_error(c, &err);
            if (rt_failed(c->I))
                rt_hint(c->I, "the %llu values computed are saved in %s; run again to resume",
                        (unsigned long long)grundy_count(gt), ckpt);
            return false;
        }
        if (done)
            return true;
    }
}

/* The values of a range of n heaps, widened to 32 bits for printing: NULL
 * with a limit error when they do not fit in memory (the table, and its
 * checkpoint, keep what was computed). */
static uint32_t *range_buffer(Call *c, uint64_t n)
{
    uint32_t *vals = n <= SIZE_MAX / sizeof *vals ? malloc((size_t)n * sizeof *vals) : NULL;
    if (!vals) {
        rt_error(c->I, DIAG_LIMIT, c->arg_locs[1],
                 "out of memory for a list of %llu Grundy values (%llu MB)",
                 (unsigned long long)n, (unsigned long long)(n * sizeof *vals >> 20));
        rt_hint(c->I, "ask for fewer heaps");
    }
    return vals;
}

/* A result computed whose checkpoint could not be written: an io error,
 * and the result is kept as e.partial (a statement prints it before the
 * error), so the work is not lost.  Steals r. */
static Value *save_failed(Call *c, Value *r, const CgtError *save_err)
{
    rt_error_from(c->I, call_opt_loc(c, "checkpoint"), save_err);
    rt_set_partial(c->I, r);
    return NULL;
}

/* The heap rule (heaps.h) for a heap at or past the default period limit:
 * a period is tried first.  With a checkpoint that search is the one of
 * `period G checkpoint "F"` (grundy_fill with the period): it resumes from
 * the file and saves to it periodically and on every stop, so that the
 * first phase of a long `grundy ... checkpoint` loses no work either. */
static bool period_first(Call *c, GameObj *g, const char *ckpt, CgtError *save_err)
{
    uint64_t limit = grundy_default_limit(g->rs);
    if (!ckpt || game_period_proved(g))
        return game_ensure_period(c, g, limit);
    if (!grundy_fill(c, g, limit, ckpt, &g->period, save_err))
        return false;
    g->period_done = true;
    return true;
}

static Value *grundy_range(Call *c, GameObj *g, int64_t lo, int64_t hi, const char *ckpt)
{
    if (lo < 0 || hi < lo)
        return rt_error(c->I, DIAG_DOMAIN, c->arg_locs[1], "expected a range a..b with 0 <= a <= b");
    uint64_t n = (uint64_t)(hi - lo) + 1;
    CgtError save_err;
    cgt_error_clear(&save_err);
    uint32_t *vals;
    /* the heap rule (heaps.h): past the default period limit a period is
       tried first, as for one heap */
    if ((uint64_t)hi >= grundy_default_limit(g->rs) && !g->period_done &&
        !period_first(c, g, ckpt, &save_err))
        return NULL;
    if ((uint64_t)hi >= GRUNDY_TABLE_BOUND ||
        (game_period_proved(g) && (uint64_t)hi >= grundy_count(game_grundy(g)))) {
        /* past the table bound (or the table): every value from the period,
           proved on demand; a range is tabulated, so its length is bounded */
        if (n > GRUNDY_TABLE_BOUND)
            return rt_error(c->I, DIAG_LIMIT, c->arg_locs[1],
                            "a range of %llu heaps is longer than the table bound %llu",
                            (unsigned long long)n, (unsigned long long)GRUNDY_TABLE_BOUND);
        mpz_t z;
        mpz_init(z);
        mpz_set_ui(z, (unsigned long)hi);
        uint32_t v;
        if (!heap_grundy(c, g, z, c->arg_locs[1], &v)) {
            mpz_clear(z);
            return NULL;
        }
        vals = range_buffer(c, n);
        if (!vals) {
            mpz_clear(z);
            return NULL;
        }
        for (uint64_t i = 0; i < n; i++) {
            mpz_set_ui(z, (unsigned long)((uint64_t)lo + i));
            if (!range_poll(c, i) || !heap_grundy(c, g, z, c->arg_locs[1], &vals[i])) {
                mpz_clear(z);
                free(vals);
                return NULL;
            }
        }
        mpz_clear(z);
    } else {
        cgt_error_clear(&save_err); /* a later save replaces a failed one */
        if (!grundy_fill(c, g, (uint64_t)hi + 1, ckpt, NULL, &save_err))
            return NULL;
        /* the table keeps 1-4 bytes per value: a widened copy of the range
         * (no larger than the text printed from it) */
        vals = range_buffer(c, n);
        if (!vals)
            return NULL;
        grundy_copy(game_grundy(g), (uint64_t)lo, n, vals);
    }
    Value *l = val_list();
    for (uint64_t i = 0; i < n; i++) {
        if (!range_poll(c, i)) {
            val_unref(l);
            free(vals);
            return NULL;
        }
        val_list_push(l, val_int(vals[i]));
    }
    free(vals);
    if (save_err.status != CGT_OK)
        return save_failed(c, l, &save_err);
    return l;
}

/* The line of grundy's text when the heaps of a (a range, a heap or a
 * list of heaps) read values of a checkpoint (from_checkpoint).  The
 * statement's value is a plain integer or list, so the text alone says
 * so. */
static void grundy_read_note(StrBuf *b, GameObj *g, const Value *a)
{
    uint64_t upto = 0;
    mpz_t z;
    mpz_init(z);
    if (a->kind == VAL_RANGE) {
        mpz_set_si(z, (long)a->u.range.hi);
        upto = heap_upto(g, z);
    } else if (a->kind == VAL_INT || a->kind == VAL_LIST) {
        size_t k = a->kind == VAL_LIST ? a->u.list.len : 1;
        for (size_t i = 0; i < k; i++) {
            const Value *h = a->kind == VAL_LIST ? a->u.list.items[i] : a;
            if (h->kind != VAL_INT)
                continue;
            val_get_mpz(h, z);
            uint64_t u = heap_upto(g, z);
            if (u > upto)
                upto = u;
        }
    }
    mpz_clear(z);
    Value *fc = from_checkpoint(g, upto);
    from_checkpoint_text(b, fc);
    val_unref(fc);
}

/* The text of `grundy`'s statement: a table of values for a range, else
 * G(position) = value. */
void games_grundy_text(const Call *c, const Value *v, StrBuf *b)
{
    const GameObj *g = game_of(c->args[0]);
    const Value *a = c->args[1];
    if (a->kind == VAL_RANGE && v->kind == VAL_LIST) {
        uint64_t n = v->u.list.len;
        uint32_t *vals = xmalloc((n + 1) * sizeof *vals);
        for (uint64_t i = 0; i < n; i++) {
            int64_t x = 0;
            val_get_i64(v->u.list.items[i], &x);
            vals[i] = (uint32_t)x;
        }
        sb_printf(b, "%s: Grundy values for n = %lld..%lld\n", g->name, (long long)a->u.range.lo,
                  (long long)a->u.range.hi);
        rows_text(b, vals, (uint64_t)a->u.range.lo, n, 10);
        free(vals);
        grundy_read_note(b, (GameObj *)g, a);
        return;
    }
    sb_printf(b, "%s: G(", g->name);
    if (g->kind == GAME_HEAP && a->kind == VAL_LIST) {
        for (size_t i = 0; i < a->u.list.len; i++) {
            if (i)
                sb_puts(b, " + ");
            val_format(a->u.list.items[i], b, false);
        }
        if (a->u.list.len == 0)
            sb_putc(b, '0');
    } else {
        val_format(a, b, false);
    }
    sb_puts(b, ") = ");
    val_format(v, b, true);
    sb_putc(b, '\n');
    if (g->kind == GAME_HEAP)
        grundy_read_note(b, (GameObj *)g, a);
}

static Value *grundy_stmt(Call *c)
{
    GameObj *g = game_of(c->args[0]);
    Value *a = c->args[1];
    Value *ck = call_opt(c, "checkpoint");
    const char *ckpt = ck ? ck->u.str.s : NULL;
    if (g->kind != GAME_HEAP)
        return bi_game_paper_grundy(c, g, a);
    if (a->kind == VAL_RANGE)
        return grundy_range(c, g, a->u.range.lo, a->u.range.hi, ckpt);
    if (a->kind == VAL_INT) {
        mpz_t z;
        mpz_init(z);
        uint64_t n;
        if (!heap_read(c, a, c->arg_locs[1], z)) {
            mpz_clear(z);
            return NULL;
        }
        uint32_t v;
        GrundyTable *gt = game_grundy(g);
        CgtError save_err;
        cgt_error_clear(&save_err);
        /* past the default limit a period is tried first; with a
           checkpoint that search saves to it (period_first) */
        if (ckpt && !g->period_done &&
            (!heap_index(z, GRUNDY_TABLE_BOUND, &n) || n >= grundy_default_limit(g->rs)) &&
            !period_first(c, g, ckpt, &save_err)) {
            mpz_clear(z);
            return NULL;
        }
        if (!heap_index(z, GRUNDY_TABLE_BOUND, &n) || n < grundy_count(gt) ||
            game_period_proved(g) ||
            (n >= grundy_default_limit(g->rs) && !g->period_done)) {
            /* the heap rule (heaps.h): in the table, from a proved period
               (G(n) = G(pre + (n - pre) mod p) for any GMP n), or past
               the default period limit, where a period is tried first */
            bool ok = heap_grundy(c, g, z, c->arg_locs[1], &v);
            mpz_clear(z);
            Value *r = ok ? val_int(v) : NULL;
            if (r && save_err.status != CGT_OK)
                return save_failed(c, r, &save_err);
            return r;
        }
        mpz_clear(z);
        cgt_error_clear(&save_err);
        if (!grundy_fill(c, g, n + 1, ckpt, NULL, &save_err))
            return NULL;
        v = grundy_get(gt, n);
        if (save_err.status != CGT_OK)
            return save_failed(c, val_int(v), &save_err);
        return val_int(v);
    }
    if (a->kind == VAL_LIST) {
        /* the nim-sum of the heaps' values, each by the heap rule */
        size_t k = a->u.list.len;
        uint32_t v = 0;
        mpz_t z;
        mpz_init(z);
        for (size_t i = 0; i < k; i++) {
            uint32_t hv;
            if (!heap_read(c, a->u.list.items[i], c->arg_locs[1], z) ||
                !heap_grundy(c, g, z, c->arg_locs[1], &hv)) {
                mpz_clear(z);
                return NULL;
            }
            v ^= hv;
        }
        mpz_clear(z);
        return val_int(v);
    }
    rt_error(c->I, DIAG_TYPE, c->arg_locs[1],
             "bad argument #2 to 'grundy' (range, integer or list of heaps expected, got %s)",
             val_kind_name(a));
    rt_hint(c->I, "usage: %s", c->bi->synopsis);
    return NULL;
}

/* ---- period and table ---- */

static const char *period_status_word(PeriodStatus s)
{
    switch (s) {
    case PERIOD_PROVED:
        return "proved";
    case PERIOD_OBSERVED:
        return "observed";
    case PERIOD_ARITH:
        return "observed";
    default:
        return "none";
    }
}

static Value *period_result(Call *c, GameObj *g, uint64_t limit);

static Value *period_stmt(Call *c)
{
    GameObj *g = game_heap_or_error(c->I, c->args[0], c->arg_locs[0], "period");
    if (!g)
        return NULL;
    /* the default is scaled with the cost of the ruleset's heaps */
    int64_t limit = (int64_t)grundy_default_limit(g->rs);
    Value *lv = call_opt(c, "limit");
    if (lv && !call_int(c, lv, call_opt_loc(c, "limit"), "the limit", 1,
                        (int64_t)GRUNDY_TABLE_BOUND, &limit))
        return NULL;
    Value *ck = call_opt(c, "checkpoint");
    CgtError save_err;
    cgt_error_clear(&save_err);
    if (ck && !game_period_proved(g)) {
        /* the period search in steps, the table saved after each */
        if (!grundy_fill(c, g, (uint64_t)limit, ck->u.str.s, &g->period, &save_err))
            return NULL;
        g->period_done = true;
    } else if (!game_ensure_period(c, g, (uint64_t)limit)) {
        return NULL;
    }
    Value *r = period_result(c, g, (uint64_t)limit);
    if (save_err.status != CGT_OK)
        return save_failed(c, r, &save_err);
    return r;
}

/* The result of `period` for a search to limit: the record of
 * docs/language.md ("Results as records").  The text statement names only
 * the count and the last exceptional heap (preperiod-1), so the heaps are
 * listed, and so stored, only for the function and JSON (for 0.1777 that
 * list was 1.1 GB); the text-only record has `exceptional` null. */
static Value *period_result(Call *c, GameObj *g, uint64_t limit)
{
    const GrundyPeriod *p = &g->period;
    bool list = !call_text_only(c), found = p->status != PERIOD_NONE;
    uint64_t *exc = NULL;
    size_t nexc = found ? grundy_exceptional(game_grundy(g), p, list ? &exc : NULL) : 0;
    Value *r = val_result("period");
    val_map_set_str(r, "game", g->name);
    val_map_set_opt_int(r, "period", found, (int64_t)p->period);
    val_map_set_opt_int(r, "preperiod", found, (int64_t)p->preperiod);
    val_map_set_int(r, "saltus", found ? p->saltus : 0);
    val_map_set_bool(r, "proved", p->status == PERIOD_PROVED);
    val_map_set_str(r, "status", period_status_word(p->status));
    val_map_set_opt_int(r, "proved_at", p->status == PERIOD_PROVED, (int64_t)p->proof_n);
    val_map_set_opt_int(r, "last_exceptional", found && nexc > 0,
                        (int64_t)p->last_exceptional);
    val_map_set_int(r, "exceptional_count", (int64_t)nexc);
    if (list) {
        Value *l = val_list();
        for (size_t i = 0; i < nexc; i++)
            val_list_push(l, val_int((int64_t)exc[i]));
        val_map_set(r, "exceptional", l);
    } else {
        val_map_set(r, "exceptional", val_null());
    }
    val_map_set_int(r, "checked", (int64_t)p->checked);
    val_map_set_int(r, "limit", (int64_t)limit);
    val_map_set(r, "from_checkpoint", from_checkpoint(g, period_upto(g)));
    free(exc);
    return r;
}

void games_period_text(const Call *c, const Value *r, StrBuf *b)
{
    (void)c;
    const char *name = val_field_str(r, "game"), *status = val_field_str(r, "status");
    if (strcmp(status, "none") == 0) {
        long long checked = (long long)val_field_int(r, "checked");
        sb_printf(b, "%s: no period found in the first %lld values\n", name, checked);
        if (checked >= (long long)val_field_int(r, "limit"))
            sb_printf(b, "  that is the search's limit: `period G limit %lld` searches "
                         "twice as far\n",
                      2 * checked);
        from_checkpoint_text(b, val_map_get(r, "from_checkpoint"));
        return;
    }
    sb_printf(b, "%s: period %lld, preperiod %lld", name, (long long)val_field_int(r, "period"),
              (long long)val_field_int(r, "preperiod"));
    if (val_field_int(r, "saltus"))
        sb_printf(b, ", saltus %lld", (long long)val_field_int(r, "saltus"));
    if (val_field_bool(r, "proved"))
        sb_printf(b, ", proved at heap %lld by the periodicity theorem\n",
                  (long long)val_field_int(r, "proved_at"));
    else
        sb_printf(b, ", observed in %lld values, not proved\n", (long long)val_field_int(r, "checked"));
    int64_t nexc = val_field_int(r, "exceptional_count");
    if (nexc == 0)
        sb_puts(b, "  no exceptional values\n");
    else
        sb_printf(b, "  last exceptional value at heap %lld (%lld exceptional heap%s)\n",
                  (long long)val_field_int(r, "last_exceptional"), (long long)nexc,
                  nexc == 1 ? "" : "s");
    from_checkpoint_text(b, val_map_get(r, "from_checkpoint"));
}

static Value *table_stmt(Call *c)
{
    GameObj *g = game_heap_or_error(c->I, c->args[0], c->arg_locs[0], "table");
    if (!g)
        return NULL;
    if (!(g->period_done && g->period.status == PERIOD_PROVED) &&
        grundy_cost_degree(g->rs) > 1)
        /* three-heap moves or a general ruleset: every heap costs more and
         * more; say what is being started (progress shows how far it is) */
        cgt_progress_force("table", "%s: searching for a period up to heap %llu (the default "
                           "limit for its moves; `period` with `limit N` sets another)",
                           g->name, (unsigned long long)grundy_default_limit(g->rs));
    if (!game_ensure_period(c, g, grundy_default_limit(g->rs)))
        return NULL;
    const GrundyPeriod *p = &g->period;
    if (p->status != PERIOD_PROVED) {
        rt_error(c->I, DIAG_DOMAIN, c->loc, "no proved period for %s", g->name);
        char *code = game_arg_code(c, 0);
        rt_hint(c->I, "`period %s limit N;` computes further", code);
        free(code);
        return NULL;
    }
    uint64_t per = p->period;
    uint64_t rows = (p->preperiod + per - 1) / per + 2;
    Value *rv = call_opt(c, "rows");
    int64_t r64;
    if (rv) {
        if (!call_int(c, rv, call_opt_loc(c, "rows"), "rows", 1, 100000, &r64))
            return NULL;
        rows = (uint64_t)r64;
    }
    if (per * rows > 10000000)
        return rt_error(c->I, DIAG_LIMIT, c->loc, "table too large (%llu values)",
                        (unsigned long long)(per * rows));
    uint32_t *vals = xcalloc(per * rows, sizeof *vals);
    CgtError err;
    cgt_error_clear(&err);
    for (uint64_t r = 0; r < rows; r++)
        if (grundy_table_row(game_grundy(g), p, r, vals + r * per, &err) != CGT_OK) {
            free(vals);
            return rt_error_from(c->I, c->loc, &err);
        }
    Value *t = val_result("table"), *rl = val_list();
    val_map_set_str(t, "game", g->name);
    val_map_set_int(t, "period", (int64_t)per);
    val_map_set_int(t, "preperiod", (int64_t)p->preperiod);
    for (uint64_t r = 0; r < rows; r++) {
        Value *row = val_list();
        for (uint64_t j = 0; j < per; j++)
            val_list_push(row, val_int(vals[r * per + j]));
        val_list_push(rl, row);
    }
    val_map_set(t, "rows", rl);
    val_map_set(t, "from_checkpoint", from_checkpoint(g, period_upto(g)));
    free(vals);
    return t;
}

/* The periodic table: one row per period, the first heap of each at the
 * left. */
void games_table_text(const Call *c, const Value *t, StrBuf *b)
{
    (void)c;
    const Value *rl = val_map_get(t, "rows");
    uint64_t per = (uint64_t)val_field_int(t, "period");
    size_t rows = rl && rl->kind == VAL_LIST ? rl->u.list.len : 0;
    sb_printf(b, "%s: period %llu, preperiod %lld\n", val_field_str(t, "game"),
              (unsigned long long)per, (long long)val_field_int(t, "preperiod"));
    uint32_t *vals = xcalloc(per * rows + 1, sizeof *vals);
    for (size_t r = 0; r < rows; r++) {
        const Value *row = rl->u.list.items[r];
        for (uint64_t j = 0; j < per && j < row->u.list.len; j++) {
            int64_t x = 0;
            val_get_i64(row->u.list.items[j], &x);
            vals[r * per + j] = (uint32_t)x;
        }
    }
    rows_text(b, vals, 0, per * rows, per);
    free(vals);
    from_checkpoint_text(b, val_map_get(t, "from_checkpoint"));
}

/* ---- threads T (grundy, period, table) ---- */

/* More threads than this is a typing error: the engine's stretches keep
 * two heaps in flight (docs/games.md §2 "Two threads"), so threads past 2
 * only check the ordering. */
#define GRUNDY_THREADS_MAX 64

/* Run a statement that may extend the Grundy table with `threads T` set
 * on the game's table, and one thread again after it. */
static Value *with_threads(Call *c, Value *(*stmt)(Call *))
{
    Value *tv = call_opt(c, "threads");
    if (!tv)
        return stmt(c);
    int64_t t;
    if (!call_int(c, tv, call_opt_loc(c, "threads"), "threads", 1, GRUNDY_THREADS_MAX, &t)) {
        rt_hint(c->I, "threads 2 uses both cores of a two-core machine");
        return NULL;
    }
    GameObj *g = game_of(c->args[0]);
    if (g->kind != GAME_HEAP)
        return stmt(c);
    GrundyTable *gt = game_grundy(g);
    grundy_set_threads(gt, (unsigned)t);
    Value *r = stmt(c);
    grundy_set_threads(gt, 1);
    return r;
}

static Value *grundy_threads(Call *c)
{
    return with_threads(c, grundy_stmt);
}

static Value *period_threads(Call *c)
{
    return with_threads(c, period_stmt);
}

Value *bi_grundy(Call *c)
{
    return call_with_checkpoint_lock(c, grundy_threads);
}

Value *bi_period(Call *c)
{
    return call_with_checkpoint_lock(c, period_threads);
}

Value *bi_table(Call *c)
{
    return with_threads(c, table_stmt);
}
