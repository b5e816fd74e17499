/* Record builders for the function forms of computing statements (see
 * results.h). */
#include "runtime/results.h"

void rec_set_opt_int(Value *m, const char *key, bool have, int64_t x)
{
    val_map_set(m, key, have ? val_int(x) : val_null());
}

static const char *status_word(PeriodStatus s)
{
    switch (s) {
    case PERIOD_PROVED:
        return "proved";
    case PERIOD_OBSERVED:
    case PERIOD_ARITH:
        return "observed";
    default:
        return "none";
    }
}

Value *period_record(const char *game, const GrundyPeriod *p, const uint64_t *exc, size_t nexc,
                     uint64_t limit)
{
    Value *r = val_map();
    bool found = p->status != PERIOD_NONE;
    val_map_set_str(r, "game", game);
    rec_set_opt_int(r, "period", found, (int64_t)p->period);
    rec_set_opt_int(r, "preperiod", found, (int64_t)p->preperiod);
    val_map_set_int(r, "saltus", found ? p->saltus : 0);
    val_map_set_bool(r, "proved", p->status == PERIOD_PROVED);
    val_map_set_str(r, "status", status_word(p->status));
    rec_set_opt_int(r, "proved_at", p->status == PERIOD_PROVED, (int64_t)p->proof_n);
    rec_set_opt_int(r, "last_exceptional", found && nexc > 0,
                    nexc ? (int64_t)exc[nexc - 1] : 0);
    Value *l = val_list();
    for (size_t i = 0; i < nexc; i++)
        val_list_push(l, val_int((int64_t)exc[i]));
    val_map_set(r, "exceptional", l);
    val_map_set_int(r, "checked", (int64_t)p->checked);
    val_map_set_int(r, "limit", (int64_t)limit);
    return r;
}
