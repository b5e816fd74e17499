/* Shared by the libFuzzer targets that run scripts (fuzz_eval, fuzz_load):
 * parse SRC as one script and run it with a 0.5 s deadline (the interval
 * timer of --timeout), reporting any error as the command line would, on a
 * thread with a stack of STACK_MB megabytes as src/cli/main.c gives the
 * interpreter, so that the recursion limit is met before the stack ends. */
#ifndef CGT_FUZZ_RUN_H
#define CGT_FUZZ_RUN_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "lang/ast.h"
#include "modules/modules.h"
#include "runtime/interp.h"
#include "lib/util/poll.h"

typedef struct FuzzScript {
    const char *src;
    size_t len;
} FuzzScript;

static void *fuzz_script_thread(void *p)
{
    const FuzzScript *s = p;
    uint32_t id = source_add("<fuzz>", s->src, s->len);
    Arena *a = arena_new();
    AstNode *root = NULL;
    Loc loc;
    char msg[1024];
    if (parse_source(id, a, &root, &loc, msg, sizeof msg) == 0) {
        Interp *I = interp_new(cgt_modules);
        cgt_set_timeout(0.5);
        if (interp_run(I, root) != 0)
            (void)interp_report(I);
        cgt_set_timeout(0);
        interp_free(I);
    }
    arena_free(a);
    source_free_all();
    return NULL;
}

static void fuzz_run_script(const char *src, size_t len, size_t stack_mb)
{
    FuzzScript s = {src, len};
    pthread_attr_t attr;
    pthread_t t;
    if (pthread_attr_init(&attr) != 0)
        return;
    if (pthread_attr_setstacksize(&attr, stack_mb << 20) == 0 &&
        pthread_create(&t, &attr, fuzz_script_thread, &s) == 0)
        pthread_join(t, NULL);
    pthread_attr_destroy(&attr);
}

#endif
