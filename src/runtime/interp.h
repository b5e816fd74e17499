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
typedef struct Module Module;

/* The interpreter's state is the runtime's own (src/runtime/interp_state.h);
 * builtins see it through these functions. */
typedef struct Interp Interp;
/* Results are printed as JSON (--format=json). */
bool rt_json(const Interp *I);
/* An error is pending. */
bool rt_failed(const Interp *I);
/* --stats: timings and counters on stderr. */
bool rt_stats(const Interp *I);
/* The seed --seed gave, if it was given. */
bool rt_seed(const Interp *I, uint64_t *seed);
/* The partial result a stopped computation leaves (e.partial, and what a
 * declaration binds): the current one (borrowed, or NULL), and setting it
 * (steals v, releases the previous one). */
Value *rt_partial(const Interp *I);
void rt_set_partial(Interp *I, Value *v);

/* Bytes of C stack the evaluator may use on the thread that runs it (main
 * sets the size of the interpreter thread's stack minus a margin for
 * builtins); deeper evaluation (recursion times nesting) is a limit error,
 * never a stack overflow. */
void interp_set_stack_budget(size_t bytes);
/* A new interpreter with the given modules (a NULL-terminated list, the
 * same on every call: src/modules/modules.h). */
Interp *interp_new(const Module *const *modules);
void interp_free(Interp *I);
/* Run a parsed unit.  Returns 0, or the exit code of the error that
 * stopped it (the error has been printed). */
int interp_run(Interp *I, const AstNode *block);
/* Print the pending error to stderr and clear it; returns its exit code. */
int interp_report(Interp *I);
/* Under --format=json, one error as a JSON object on a line of stdout
 * (docs/errors.md, "Errors under --format=json"); nothing in text mode.
 * loc is NULL for an error outside any source (the command line), partial
 * the partial result the error leaves (NULL: none), exit_code the exit
 * status the error gives the run. */
void interp_json_error(Interp *I, DiagCat cat, const Loc *loc, const char *msg,
                       const char *hint, const Value *partial, int exit_code);

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

/* Output: results go to stdout, and only the runtime writes them (a
 * builtin returns its result).  rt_print_value prints one value as a
 * result line (text, or one JSON object per line); false (an error at loc,
 * nothing printed) when its text passes VAL_TEXT_MAX or Ctrl-C or a time
 * limit stopped it. */
bool rt_print_value(Interp *I, const Value *v, Loc loc);
/* Flush stdout; true (with the errno of the failure) when anything written
 * to it since the start was lost (disk full, closed pipe or descriptor). */
bool rt_stdout_failed(int *err_no);

/* ---- builtins ---- */

#define BI_CMD 1u  /* usable as a statement `name args;` */
#define BI_FUNC 2u /* usable in expressions `name(args)` */
#define BI_DECL 4u /* a declaration kind `name X = args;` */
#define BI_RAW 8u  /* receives the unevaluated arguments (spec ignored) */
#define BI_OWN_STATS 16u /* prints its own --stats lines (the dispatcher does not) */
/* Another module's form of the builtin of the same name, called when the
 * first argument is of the kind its spec starts with (`outcome q [...]`
 * for a quotient is the misere module's): documented with the builtin it
 * overloads, so help and the docs do not list it. */
#define BI_OVERLOAD 32u

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
    char *shown;        /* the text call_show_so_far has written */
    size_t nshown;
} Call;

typedef Value *(*BuiltinFn)(Call *c);

/* One entry of a module's builtin table (src/modules/NAME/builtins_*.def).
 * `spec` declares the arguments:
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
    const char *doc;     /* paragraphs; lines starting with "    " are examples */
    const char *example; /* a script, run by the doc tests */
    const char *output;  /* exactly what the example prints */
};

/* The text form of a result, as a statement prints it.  A builtin returns
 * one value for its statement and its function form alike; under
 * --format=json the statement prints that value's JSON, in text a printer
 * renders it: for a result record (value.h) the printer of its kind, for
 * any other value the printer of the builtin, if its module has one (c
 * gives the call's arguments).  A result record is rendered by its kind's
 * printer also when an expression statement shows it (c is then NULL). */
typedef void (*ResultTextFn)(const Call *c, const Value *v, StrBuf *out);
typedef struct ResultPrinter {
    const char *kind;    /* a result record's kind, or NULL */
    const char *builtin; /* or a builtin whose plain values it renders */
    ResultTextFn text;
} ResultPrinter;

/* A module of the language (src/modules/NAME/module.c): its builtins,
 * result printers, and what to release when an interpreter ends. */
struct Module {
    const char *name;
    const char *title; /* the heading of its builtins in help and the docs */
    const Builtin *builtins;
    size_t nbuiltins;
    const ResultPrinter *printers;
    size_t nprinters;
    void (*release)(void);
    bool stats; /* --stats reports the CPU, wall time and memory of its statements */
    /* Evaluates a literal of the language that this module gives a
     * meaning to (the game literals `*n` and `{G, ...}`: AST_STAR,
     * AST_GAME), or NULL. */
    Value *(*literal)(Interp *I, const AstNode *e);
    /* f(args) for a value f that is not a function (`G(10)`, heap 10 of a
     * heap game as an explicit game): the result, or NULL with an error
     * recorded, or NULL without one when f is none of this module's. */
    Value *(*apply)(Interp *I, const Value *f, const AstNode *call);
};

/* Register the modules (interp_new does; the first list given stays). */
void builtin_register(const Module *const *mods);
/* Every builtin of the registered modules, in order. */
const Builtin *const *builtin_table(size_t *count);
/* The overload of b for a first argument like `first`, or NULL. */
const Builtin *builtin_overload(const Builtin *b, const Value *first);
/* The module a builtin belongs to. */
const Module *builtin_module(const Builtin *b);
/* The text printer of a value a builtin returned (bi NULL: a value shown
 * by itself), or NULL. */
ResultTextFn rt_result_printer(const Builtin *bi, const Value *v);
const Builtin *builtin_find(const char *name);
/* The language's keywords (print, check, for, ...), which `help` also explains. */
const char *const *builtin_keywords(size_t *count);
/* The width help text is wrapped to (the terminal's, $COLUMNS or 80). */
int help_width(void);
/* True when the call's result will only be shown as text (a statement
 * under --format=text): a builtin may then leave out of its record what
 * its text form does not show and would be costly to build (the list of
 * every exceptional heap of a period, say). */
bool call_text_only(const Call *c);
/* A statement that finds its result piece by piece (ptypes, one P-type
 * at a time) shows it as it grows: when call_text_only(c), the text the
 * printer of v's kind gives v, the value so far, is written up to its last
 * line end, less what an earlier call wrote.  The dispatcher then writes
 * only the rest of the text of the value the statement returns, or of the
 * partial result it leaves when stopped (rt_set_partial), so that the
 * statement's output is the text of its value, in one printer, whether it
 * ends or not.  Under --format=json and in a function call, nothing: the
 * value is printed whole, once. */
void call_show_so_far(Call *c, const Value *v);
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
