/* Manual cross-check of kb_complete against the misère-quotient engine
 * (src/lib/misere/misere.h): the engine's presentation of Q(n) is, by
 * docs/misere.md ("Snapshots and presentation"), the reduced rewriting
 * system for its word order, which is
 * KB_ORDER_LEX in declaration order; since the reduced system of an order
 * is unique, completing the engine's presentation under LEX must give back
 * exactly its relations.  Build against a core library:
 *   cc -std=c11 -D_DEFAULT_SOURCE -O2 -I. bench/kb/crosscheck_mq.c \
 *      build/libcore.a -o build/crosscheck_mq -lgmp -lm -pthread
 *   build/crosscheck_mq 0.07 29 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/misere/misere.h"
#include "lib/rewrite/kb.h"
#include "lib/heap/ruleset.h"

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: crosscheck_mq CODE HEAP\n");
        return 2;
    }
    Ruleset *rs;
    size_t off;
    CgtError e;
    if (ruleset_parse_code(argv[1], &rs, &off, &e) != CGT_OK) {
        fprintf(stderr, "%s\n", e.msg);
        return 2;
    }
    MqEngine *m = mq_new(ruleset_heapgame(rs), NULL);
    if (mq_extend_to(m, (uint32_t)atoi(argv[2]), &e) != CGT_OK) {
        fprintf(stderr, "%s\n", e.msg);
        return 1;
    }
    Quotient *q = mq_quotient(m, NULL, 0, &e);
    if (!q) {
        fprintf(stderr, "%s\n", e.msg);
        return 1;
    }
    const Presentation *p = quotient_presentation(q);
    KbOrder o = {KB_ORDER_LEX, NULL, NULL};
    KbSystem *s = NULL;
    if (kb_complete(p, &o, NULL, &s, &e) != CGT_OK) {
        fprintf(stderr, "%s\n", e.msg);
        return 1;
    }
    size_t g = (size_t)p->ngens, same = 0;
    for (size_t i = 0; i < p->nrels; i++)
        for (size_t j = 0; j < s->nrules; j++)
            if (!memcmp(p->rels + 2 * i * g, s->rules + 2 * j * g, 2 * g * sizeof *p->rels))
                same++;
    printf("%s n=%s |Q|=%u engine relations %zu, kb (lex) rules %zu, identical %zu\n", argv[1],
           argv[2], quotient_size(q), p->nrels, s->nrules, same);
    kb_free(s);
    quotient_free(q);
    mq_free(m);
    ruleset_free(rs);
    return same == p->nrels && same == s->nrules ? 0 : 1;
}
