/* libFuzzer target: any byte string run as a whole script (parse, then
 * evaluate every statement) must end with a result or a diagnostic, never
 * a crash, a sanitizer report or a leak.  Each input gets a 0.5 s deadline
 * through the same interval timer as --timeout, so long but legitimate
 * computations stop with a limit error (run with -close_fd_mask=3 so that
 * results and diagnostics are dropped; crash reports stay visible).  The
 * interpreter runs on a 512 MB stack thread as in src/cli/main.c,
 * so the 2000-call recursion limit is reached before the stack ends. */
#include <stddef.h>
#include <stdint.h>

#include "tests/fuzz/fuzz_run.h"
#include "lib/util/xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int init;
    if (!init) {
        xalloc_init_gmp();
        init = 1;
    }
    fuzz_run_script((const char *)data, size, 512);
    return 0;
}
