/* Writer of the proof files `cgt-misere-infinite 1` and `2` (docs/misere.md,
 * "Proof file of an infinite quotient" and "Proof file in k coordinates"):
 * text, LF line ends, single spaces,
 * sealed by a CRC-64/XZ of every byte before the crc64 line (followed by
 * the line `end`, so not util/atomicfile's trailing seal); written through
 * util/atomicfile (temporary file, fsync, rename, fsync of the directory). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/misere/mqinf.h"
#include "lib/util/atomicfile.h"
#include "lib/util/crc64.h"
#include "lib/util/xalloc.h"

typedef struct Buf {
    char *s;
    size_t len, cap;
} Buf;

static void bput(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void bput(Buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (b->len + (size_t)n + 1 > b->cap) {
        b->cap = (b->len + (size_t)n + 1) * 2;
        b->s = xrealloc(b->s, b->cap);
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

static void put_options(Buf *b, const MqInfProof *p)
{
    for (uint32_t k = 1; k <= p->N; k++) {
        const HeapOptions *o = &p->opts[k];
        bput(b, "options %u %zu", k, o->count);
        for (size_t j = 0; j < o->count; j++) {
            if (j)
                bput(b, " ;");
            if (o->start[j] == o->start[j + 1])
                bput(b, " -");
            for (size_t q = o->start[j]; q < o->start[j + 1]; q++)
                bput(b, " %u", o->parts[q]);
        }
        bput(b, "\n");
    }
    bput(b, "states %u\n", p->S);
    for (uint32_t k = 1; k <= p->N; k++) {
        if (p->grp[k])
            continue;
        bput(b, "act %u", k);
        for (uint32_t s = 0; s < p->S; s++)
            bput(b, " %u", p->act[k][s]);
        bput(b, "\n");
    }
}

CgtStatus mqinf_write(const MqInfProof *p, const char *game_line, const char *path,
                      CgtError *err)
{
    return mqinf_write_version(p, game_line, path, mqinf_is_v1(p) ? 1 : 2, err);
}

CgtStatus mqinf_write_version(const MqInfProof *p, const char *game_line, const char *path,
                              int version, CgtError *err)
{
    Buf b = {NULL, 0, 0};
    if (version == 1) {
        bput(&b, "cgt-misere-infinite 1\ngame %s\nheaps %u\ntop %u\npartner %u\n", game_line,
             p->N, p->H, p->G);
        put_options(&b, p);
        bput(&b, "reduce %u %u %u %u %u\ntable %u %u\n", p->t, p->b0, p->pb, p->a0, p->pa,
             p->TA, p->TB);
    } else {
        /* Lemma 2 with k = 2: coordinate 1 the group of H, 2 that of G, one
         * pair block */
        bput(&b, "cgt-misere-infinite 2\ngame %s\nheaps %u\ngrow 2\n", game_line, p->N);
        uint32_t *g = xmalloc((p->N + 1) * sizeof *g);
        for (int c = 1; c <= 2; c++) {
            uint32_t n = mqinf_group(p, c, g);
            bput(&b, "group %d %u", c, n);
            for (uint32_t i = 0; i < n; i++)
                bput(&b, " %u", g[i]);
            bput(&b, "\n");
        }
        free(g);
        put_options(&b, p);
        bput(&b, "block pair 1 2 %u %u %u %u %u %u\ntable %u %u\n", p->t, p->q, p->b0, p->pb,
             p->a0, p->pa, p->TA, p->TB);
    }
    char *line = xmalloc(p->TB + 2);
    for (uint32_t s = 0; s < p->S; s++)
        for (uint32_t a = 0; a <= p->TA; a++) {
            for (uint32_t x = 0; x <= p->TB; x++)
                line[x] = p->lab[((size_t)s * (p->TA + 1) + a) * (p->TB + 1) + x] ? 'P' : 'N';
            line[p->TB + 1] = '\0';
            bput(&b, "lab %u %u %s\n", s, a, line);
        }
    free(line);
    if (version == 1) {
        bput(&b, "check %u %u\nwitness %d %u", p->A1, p->B1, p->we, p->wa);
    } else {
        bput(&b, "check %u %u\nwitness 1 %d %u\ncounts 0 0\ncontext", p->A1, p->B1, p->we,
             p->wa);
    }
    for (uint32_t i = 0; i < p->nw; i++)
        bput(&b, " %u", p->wheaps[i]);
    bput(&b, "\n");
    uint64_t crc = crc64_update(0, b.s, b.len);
    bput(&b, "crc64 %016llx\nend\n", (unsigned long long)crc);
    AtomicFile af;
    CgtStatus st = af_open(&af, path, "proof file", false, err);
    if (st == CGT_OK) {
        af_write(&af, b.s, b.len);
        st = af_commit(&af, err);
    }
    free(b.s);
    return st;
}
