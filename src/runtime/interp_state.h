/* The interpreter's state, for the runtime and the program (src/cli) only:
 * builtins reach it through the functions of src/runtime/interp.h. */
#ifndef CGT_RUNTIME_INTERP_STATE_H
#define CGT_RUNTIME_INTERP_STATE_H
#include "runtime/interp.h"

struct Interp {
    const Module *const *modules;
    OutFormat format;
    bool color_err;     /* colour in diagnostics */
    bool verbose;
    bool stats; /* --stats: timings and counters on stderr */
    bool seed_set;
    uint64_t seed;
    bool repl;
    Env *globals;
    Env *locals; /* innermost function frame, or NULL at top level */
    int depth;   /* user-function call depth */
    uintptr_t stack_floor; /* evaluation below this stack address stops (0 = not set) */
    /* the pending error */
    bool failed;
    bool err_fatal; /* not catchable by try: interrupts, the run's limits, bugs */
    DiagCat err_cat;
    Loc err_loc;
    char err_msg[1024];
    char err_hint[512];
    StrBuf trace;
    char last_frame[320]; /* last trace line, to fold repeats */
    unsigned frame_repeats;
    /* a partial result a failed declaration leaves behind (bound to the
     * declared name, e.g. a quotient stopped by --timeout) */
    Value *partial;
    /* statistics */
    int checks_failed;
    int checks_run;
    /* test hook (docs/testing.md, CGT_TEST_LIMIT_AFTER): the run's limit
     * passes once this many statements have completed (0 = never) */
    uint64_t limit_after_stmts;
    uint64_t stmts_done;
};

#endif
