/* The interpreter: state, errors as values, the builtin dispatcher.
 *
 * Evaluation functions return a new Value* (owned by the caller) or NULL
 * after recording an error with rt_error(); the caller propagates NULL.
 * There are no longjmps. */
#ifndef CGT_RUNTIME_INTERP_H
#define CGT_RUNTIME_INTERP_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lang/ast.h"
#include "runtime/value.h"
#include "lib/util/error.h"

/* Error categories and their exit codes (docs/errors.md). */
typedef enum {
    DIAG_SYNTAX,      /* 3 */
    DIAG_NAME,        /* 1 */
    DIAG_TYPE,        /* 1 */
    DIAG_DOMAIN,      /* 1 */
    DIAG_LIMIT,       /* 4 */
    DIAG_IO,          /* 1 */
    DIAG_USAGE,       /* 2 */
    DIAG_INTERRUPTED, /* 130 */
    DIAG_INTERNAL,    /* 70 */
    DIAG_CHECK        /* 1: a false check, reported at the end */
} DiagCat;

int diag_exit_code(DiagCat c);
const char *diag_cat_name(DiagCat c);
/* Print "file:line:col: error: msg", the source line, a caret under the
 * span, "hint: ..." when hint is non-empty, and `trace` lines verbatim. */
void diag_print(FILE *f, const char *severity, Loc loc, const char *msg, const char *hint,
                const char *trace, bool color);
/* "file:line:col" of a location, into buf. */
void diag_where(Loc loc, char *buf, size_t size);
/* Line and column (1-based) of a location; returns the file's name. */
const char *diag_line_col(Loc loc, unsigned *line, unsigned *col);
/* The source text of a span (owned string). */
char *diag_source_text(Loc loc);

typedef enum { FMT_TEXT, FMT_JSON } OutFormat;

typedef struct Env Env;

typedef struct Interp {
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
} Interp;

/* Bytes of C stack the evaluator may use on the thread that runs it (main
 * sets the size of the interpreter thread's stack minus a margin for
 * builtins); deeper evaluation (recursion times nesting) is a limit error,
 * never a stack overflow. */
void interp_set_stack_budget(size_t bytes);
Interp *interp_new(void);
void interp_free(Interp *I);
/* Run a parsed unit.  Returns 0, or the exit code of the error that
 * stopped it (the error has been printed). */
int interp_run(Interp *I, const AstNode *block);
/* Print the pending error to stderr and clear it; returns its exit code. */
int interp_report(Interp *I);

/* Record an error (if none is pending yet).  Always returns NULL so that
 * builtins can `return rt_error(...)`. */
Value *rt_error(Interp *I, DiagCat cat, Loc loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void rt_hint(Interp *I, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Convert a library error record; returns NULL. */
Value *rt_error_from(Interp *I, Loc loc, const CgtError *e);

/* A claim a statement checked (verify, dawson): counted like a `check`;
 * a failed one (msg) is reported on stderr, the script goes on and exits 1
 * at the end. */
void rt_claim_result(Interp *I, Loc loc, bool holds, const char *msg);

/* Output: results go to stdout.  rt_print_value prints one value as a
 * result line (text, or one JSON object per line); false (an error at loc,
 * nothing printed) when its text passes VAL_TEXT_MAX or Ctrl-C or a time
 * limit stopped it. */
bool rt_print_value(Interp *I, const Value *v, Loc loc);
/* Write a finished text block (may contain several lines) to stdout. */
/* Flush stdout; true (with the errno of the failure) when anything written
 * to it since the start was lost (disk full, closed pipe or descriptor). */
bool rt_stdout_failed(int *err_no);
void rt_out(Interp *I, const char *text);
/* Write b to stdout and free it. */
void rt_emit(Interp *I, StrBuf *b);
/* A JSON result line: {"kind":KIND, ...}\n written into b. */
void rt_json_begin(JsonWriter *w, StrBuf *b, const char *kind);
void rt_json_end(JsonWriter *w);

/* ---- builtins ---- */

#define BI_CMD 1u  /* usable as a statement `name args;` */
#define BI_FUNC 2u /* usable in expressions `name(args)` */
#define BI_DECL 4u /* a declaration kind `name X = args;` */
#define BI_RAW 8u  /* receives the unevaluated arguments (spec ignored) */

#define CALL_MAX_ARGS 32

typedef struct Builtin Builtin;

typedef struct Call {
    Interp *I;
    const Builtin *bi;
    Loc loc;               /* the whole statement or call */
    bool stmt;             /* called as a statement (its result is printed) */
    const char *decl_name; /* for declarations: the name being declared */
    size_t nargs;
    Value *args[CALL_MAX_ARGS];
    Loc arg_locs[CALL_MAX_ARGS];
    /* options, indexed as in the spec */
    size_t nopts;
    const char *opt_names[CALL_MAX_ARGS];
    Value *opts[CALL_MAX_ARGS];
    Loc opt_locs[CALL_MAX_ARGS];
    const AstNode *raw; /* the AST_CMD node (BI_RAW) */
} Call;

typedef Value *(*BuiltinFn)(Call *c);

/* One entry of src/runtime/builtins.def.  `spec` declares the arguments:
 *   positional kinds, in order: int, range (an int n means n..n), list,
 *   str, bool, any, word (an identifier taken literally), or an object
 *   type name (game, quotient, semigroup, ...); a trailing ? = optional;
 *   then options: `name:kind` (a word followed by a value) and `name!`
 *   (a bare flag word, stored as true). */
struct Builtin {
    const char *name;
    BuiltinFn fn;
    unsigned flags;
    const char *spec;
    const char *synopsis;
    const char *doc; /* paragraphs; lines starting with "    " are examples */
    const char *module;
};

const Builtin *builtin_find(const char *name);
const Builtin *builtin_table(size_t *count);
/* The language's keywords (print, check, for, ...), which `help` also explains. */
const char *const *builtin_keywords(size_t *count);
/* "Misere quotients" for "misere": the heading of a module's builtins. */
const char *builtin_module_title(const char *module);
/* The width help text is wrapped to (the terminal's, $COLUMNS or 80). */
int help_width(void);
/* Option value by name, or NULL if absent. */
Value *call_opt(Call *c, const char *name);
/* Location of an option's value (or the call's location). */
Loc call_opt_loc(Call *c, const char *name);
/* Run stmt(c) holding the lock of the call's `checkpoint "FILE"`, when it
 * has one (docs/errors.md, checkpoint rule 8): a second run of cgt given
 * the same path is refused with an io error before stmt starts, and the
 * lock is held until stmt has made its last save. */
Value *call_with_checkpoint_lock(Call *c, Value *(*stmt)(Call *));
/* Helpers for argument checks inside builtins (they record the error). */
bool call_int(Call *c, Value *v, Loc loc, const char *what, int64_t lo, int64_t hi,
              int64_t *out);

/* Call a user function value with the (borrowed) arguments; returns its
 * result or NULL with the error recorded.  For map() and filter(). */
Value *rt_call_value(Interp *I, const Value *fv, Value *const *args, size_t nargs, Loc loc);

/* Evaluate one command argument AST (identifiers are variables). */
Value *rt_eval(Interp *I, const AstNode *e);

/* Closest builtin name to `name` (for "did you mean" hints), or NULL. */
const char *builtin_suggest(const char *name);
/* docs/builtins.md from the table. */
void builtin_markdown(FILE *f);
/* The BUILTINS and KEYWORDS sections of the man page cgt.1 (roff). */
void builtin_man_sections(FILE *f);
/* Text for `help NAME` / `:help NAME` (owned string), NULL if unknown. */
char *builtin_help_text(const char *name);

#endif
