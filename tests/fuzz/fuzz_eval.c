/* libFuzzer target: any byte string run as a whole script (parse, then
 * evaluate every statement) must end with a result or a diagnostic, never
 * a crash, a sanitizer report or a leak.  Each input gets a 0.5 s deadline
 * through the same interval timer as --timeout, so long but legitimate
 * computations stop with a limit error (run with -close_fd_mask=3 so that
 * results and diagnostics are dropped; crash reports stay visible).  The
 * interpreter runs on a 512 MB stack thread as in main.c,
 * so the 2000-call recursion limit is reached before the stack ends. */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "parser/ast.h"
#include "runtime/interp.h"
#include "util/poll.h"
#include "util/xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct FuzzRun {
    const uint8_t *data;
    size_t size;
} FuzzRun;

static void *run_script(void *p)
{
    FuzzRun *r = p;
    uint32_t id = source_add("<fuzz>", (const char *)r->data, r->size);
    Arena *a = arena_new();
    AstNode *root = NULL;
    Loc loc;
    char msg[1024];
    if (parse_source(id, a, &root, &loc, msg, sizeof msg) == 0) {
        Interp *I = interp_new();
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int init;
    if (!init) {
        xalloc_init_gmp();
        init = 1;
    }
    FuzzRun r = {data, size};
    pthread_attr_t attr;
    pthread_t t;
    if (pthread_attr_init(&attr) != 0)
        return 0;
    if (pthread_attr_setstacksize(&attr, (size_t)512 << 20) == 0 &&
        pthread_create(&t, &attr, run_script, &r) == 0)
        pthread_join(t, NULL);
    pthread_attr_destroy(&attr);
    return 0;
}
