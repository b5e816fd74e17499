/* cgt: the command line.  Runs script files (all parsed before anything
 * runs), -e CODE, a script on stdin, or the REPL on a terminal. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "lang/ast.h"
#include "runtime/env.h"
#include "modules/modules.h"
#include "runtime/interp_state.h"
#include "lib/util/par.h"
#include "lib/util/poll.h"
#include "lib/util/xalloc.h"

#define CGT_VERSION "0.1.0"

static const char usage_text[] =
    "usage: cgt [OPTIONS] [FILE.cgt ...]\n"
    "       cgt [OPTIONS] -e CODE\n"
    "       cgt [OPTIONS] -          (script on standard input)\n"
    "       cgt                      (REPL on a terminal)\n"
    "\n"
    "options:\n"
    "  -e CODE              run CODE (named <expr> in messages); repeatable, run in order\n"
    "  --check              parse only; report syntax errors\n"
    "  --format=text|json   result format; json prints one object per line\n"
    "  --timeout=SECONDS    stop any computation after SECONDS (exit 4)\n"
    "  --timeout-cpu=SECONDS  the same after SECONDS of CPU time (user + system)\n"
    "  --seed=N             seed for randomised statements (gp); overrides scripts\n"
    "  --threads=N          default of `quotient`'s `threads` option (1 to 64; default\n"
    "                       1, or the environment's CGT_THREADS); results do not change\n"
    "  -v, --verbose        progress on stderr even when it is not a terminal\n"
    "  -q, --quiet          no progress, even on a terminal\n"
    "  --stats              CPU, wall time and peak memory of every module statement\n"
    "                       (quotient: per phase, with counters), and at the end the\n"
    "                       total CPU, wall time and peak memory, on stderr\n"
    "  --color=auto|always|never   colour in diagnostics (NO_COLOR is honoured)\n"
    "  --builtins-markdown  print docs/builtins.md from the builtin table\n"
    "  --man                print the man page cgt.1 (roff) from the same table\n"
    "  --help, --version\n"
    "\n"
    "exit status: 0 ok, 1 error or failed check, 2 usage, 3 syntax error,\n"
    "4 limit or timeout, 70 internal error, 130 interrupted (docs/errors.md)\n";

/* While the REPL waits in readline there is nothing to save: a SIGTERM or
 * SIGHUP then ends cgt at once. */
static volatile sig_atomic_t in_readline = 0;

/* SIGINT, SIGTERM and SIGHUP alike: the first sets the interrupt flag, so
 * that the running statement stops at its next poll, saves its checkpoint
 * and reports (exit 130, or 128 + the signal for SIGTERM/SIGHUP); a second
 * signal while a computation ignores the first exits at once. */
/* Ctrl-C at the REPL's prompt: the line or pending block is dropped (the
 * REPL's getc function sees it); no interrupt is left for the next statement. */
static volatile sig_atomic_t repl_sigint = 0;

static void on_signal(int sig)
{
    if (in_readline && sig == SIGINT) {
        repl_sigint = 1;
        return;
    }
    if (cgt_interrupt_flag || (in_readline && sig != SIGINT)) {
        static const char msg[] = "\ncgt: interrupted\n";
        ssize_t r = write(2, msg, sizeof msg - 1);
        (void)r;
        _exit(128 + sig);
    }
    cgt_interrupt_signal = sig;
    cgt_interrupt_flag = 1;
}

/* The exit status of an interrupted run: 130 for SIGINT, 128 + the signal
 * for SIGTERM and SIGHUP (as if the signal had killed cgt). */
static int interrupted_rc(int rc)
{
    if (rc == 130 && cgt_interrupt_signal != 0 && cgt_interrupt_signal != SIGINT)
        return 128 + cgt_interrupt_signal;
    return rc;
}

/* Progress.  With -v (or when stderr is not a terminal) every line is kept,
 * a log; on a terminal without -v the lines are one status line, redrawn in
 * place and erased before any other output and when the statement ends, so
 * that no stale progress line stays on the screen. */
static bool progress_status_line = false;
static bool progress_shown = false;

static void progress_sink(const char *subsystem, const char *line)
{
    if (!progress_status_line) {
        fprintf(stderr, "[%s] %s\n", subsystem, line);
        return;
    }
    fflush(stdout);
    /* \r and erase-line redraw; one line, cut to 150 bytes so it never wraps
       on a wide terminal */
    fprintf(stderr, "\r\033[K[%s] %.150s", subsystem, line);
    fflush(stderr);
    progress_shown = true;
}

static void progress_erase(void)
{
    if (!progress_shown)
        return;
    fputs("\r\033[K", stderr);
    fflush(stderr);
    progress_shown = false;
}

/* The man page cgt.1: this header and the options (from usage_text), then
 * the builtins and keywords from the builtin table (`make docs` writes it
 * to docs/cgt.1; `make check` checks that it is current). */
static void man_roff(FILE *out, const char *t, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (t[i] == '-')
            fputs("\\-", out);
        else if (t[i] == '\\')
            fputs("\\e", out);
        else
            fputc(t[i], out);
}

static void man_page(FILE *out)
{
    fprintf(out, ".TH CGT 1 \"\" \"cgt %s\" \"User Commands\"\n", CGT_VERSION);
    fputs(".\\\" generated by cgt --man from src/cli/main.c and src/modules/*/builtins_*.def; do not edit\n"
          ".SH NAME\n"
          "cgt \\- a workbench for impartial combinatorial games\n"
          ".SH SYNOPSIS\n"
          ".B cgt\n[\\fIOPTIONS\\fR] [\\fIFILE.cgt\\fR ...]\n.br\n"
          ".B cgt\n[\\fIOPTIONS\\fR] \\fB\\-e\\fR \\fICODE\\fR ...\n.br\n"
          ".B cgt\n[\\fIOPTIONS\\fR] \\fB\\-\\fR\n.br\n"
          ".B cgt\n(the REPL on a terminal)\n"
          ".SH DESCRIPTION\n"
          ".B cgt\n"
          "runs scripts in the .cgt language about impartial games: octal, hex and\n"
          "subtraction games and heap rulesets (Grundy values, periods, genus, outcomes),\n"
          "mis\\(`ere quotients with their presentations, pretending functions and\n"
          "P\\-position types, Knuth\\(enBendix completion of presentations, checks of\n"
          "published claims, m,n,k\\-games, and genetic programming of Grundy formulas.\n"
          "Every file is parsed before anything runs. Results go to standard output,\n"
          "diagnostics (file:line:col: error: ...) and progress to standard error.\n"
          "Every result says how far it was verified.\n"
          ".SH OPTIONS\n",
          out);
    const char *p = strstr(usage_text, "options:\n");
    p = p ? p + 9 : usage_text;
    const char *end = strstr(p, "\n\n");
    while (p && p < end) {
        const char *nl = strchr(p, '\n');
        const char *t = p;
        while (*t == ' ')
            t++;
        const char *gap = strstr(t, "  ");
        if (t - p == 2 && *t == '-' && gap && gap < nl) {
            fputs(".TP\n.B ", out);
            man_roff(out, t, (size_t)(gap - t));
            fputc('\n', out);
            while (*gap == ' ')
                gap++;
            man_roff(out, gap, (size_t)(nl - gap));
            fputc('\n', out);
        } else if (t - p == 2 && *t == '-') {
            fputs(".TP\n.B ", out);
            man_roff(out, t, (size_t)(nl - t));
            fputc('\n', out);
        } else {
            man_roff(out, t, (size_t)(nl - t)); /* a continuation line */
            fputc('\n', out);
        }
        p = nl + 1;
    }
    fputs(".SH EXIT STATUS\n"
          "0 ok, 1 error or failed check, 2 usage, 3 syntax error, 4 limit or timeout,\n"
          "70 internal error, 130 interrupted (128 + the signal for SIGTERM and SIGHUP);\n"
          "see errors.md in the documentation.\n"
          ".SH FILES\n"
          ".TP\n.I ~/.cgt_history\nthe REPL's history, one entry per statement or block\n"
          ".TP\n.I PREFIX/share/doc/cgt\nthe documentation (language.md, builtins.md, ...)\n"
          "and the examples\n",
          out);
    builtin_man_sections(out);
    fputs(".SH SEE ALSO\n"
          "language.md, builtins.md, misere.md, kb.md, games.md, mnk.md, gp.md and\n"
          "errors.md in PREFIX/share/doc/cgt.\n",
          out);
}

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The interpreter whose format errors of the command line follow: set
 * before the options are read, so that --format=json anywhere on the
 * command line makes a usage error a JSON object too. */
static Interp *cli_interp;

/* An error outside any source (the command line, a script that cannot be
 * read): "cgt: error: MSG" and the hint on stderr, and under --format=json
 * its object on stdout. */
static int cli_error(DiagCat cat, const char *hint, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int cli_error(DiagCat cat, const char *hint, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int rc = diag_exit_code(cat);
    if (cli_interp)
        interp_json_error(cli_interp, cat, NULL, msg, hint, NULL, rc);
    fprintf(stderr, "cgt: error: %s\n", msg);
    if (hint)
        fprintf(stderr, "hint: %s\n", hint);
    return rc;
}

static int usage_error(const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return cli_error(DIAG_USAGE, "cgt --help lists the options", "%s", msg);
}

/* The whole of f, or NULL with errno set when it cannot be read (a
 * directory opens on Linux and fails only in fread with EISDIR). */
static char *read_stream(FILE *f, size_t *len)
{
    size_t cap = 4096, n = 0;
    char *buf = xmalloc(cap);
    size_t r;
    while ((r = fread(buf + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap) {
            cap *= 2;
            buf = xrealloc(buf, cap);
        }
    }
    if (ferror(f)) {
        int e = errno ? errno : EIO;
        free(buf);
        errno = e;
        return NULL;
    }
    *len = n;
    return buf;
}

/* Arenas of parsed units live until exit: functions defined in one unit
 * are called from later ones (REPL lines, later files). */
static Arena **arenas;
static size_t narenas;

static void keep_arena(Arena *a)
{
    arenas = xrealloc(arenas, (narenas + 1) * sizeof *arenas);
    arenas[narenas++] = a;
}

static void free_arenas(void)
{
    for (size_t i = 0; i < narenas; i++)
        arena_free(arenas[i]);
    free(arenas);
    arenas = NULL;
    narenas = 0;
}

static void print_parse_warnings(bool color)
{
    for (size_t i = 0; i < parse_warning_count(); i++) {
        Loc wl;
        const char *wm, *wh;
        parse_warning(i, &wl, &wm, &wh);
        diag_print(stderr, "warning", wl, wm, wh, NULL, color);
    }
}

/* Parse a registered source; on a syntax error print it and return NULL. */
static AstNode *parse_or_report(Interp *I, uint32_t id)
{
    Arena *a = arena_new();
    keep_arena(a);
    AstNode *root = NULL;
    Loc loc;
    char msg[1024];
    if (parse_source(id, a, &root, &loc, msg, sizeof msg) != 0) {
        char *hint = strstr(msg, "\nhint: ");
        if (hint) {
            *hint = '\0';
            hint += 7;
        }
        interp_json_error(I, DIAG_SYNTAX, &loc, msg, hint, NULL, diag_exit_code(DIAG_SYNTAX));
        fflush(stdout);
        diag_print(stderr, "error", loc, msg, hint, NULL, I->color_err);
        return NULL;
    }
    print_parse_warnings(I->color_err);
    return root;
}

/* A test hook's count from the environment (0 when unset); 2 (usage) when
 * it is not a decimal count. */
static int test_hook(const char *name, unsigned long long *n)
{
    const char *v = getenv(name);
    *n = 0;
    if (!v)
        return 0;
    char *end;
    errno = 0;
    *n = strtoull(v, &end, 10);
    if (*end || end == v || errno || v[0] == '-')
        return usage_error("bad %s value '%s' (a count)", name, v);
    return 0;
}

/* The default number of threads (src/lib/util/par.h) from --threads or
 * CGT_THREADS; 2 (usage) when it is not a count from 1 to
 * CGT_THREADS_MAX. */
static int set_threads(const char *what, const char *v)
{
    char *end;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 10);
    if (*end || end == v || errno || v[0] == '-' || n < 1 || n > CGT_THREADS_MAX)
        return usage_error("bad %s value '%s' (1 to %d)", what, v, CGT_THREADS_MAX);
    cgt_set_default_threads((unsigned)n);
    return 0;
}

static void census_line(void *ctx, const char *name)
{
    (void)ctx;
    fprintf(stderr, "construct: %s\n", name);
}

static int finish_checks(Interp *I, int rc)
{
    if (I->checks_failed > 0) {
        fflush(stdout);
        fprintf(stderr, "cgt: %d of %d check%s failed\n", I->checks_failed, I->checks_run,
                I->checks_run == 1 ? "" : "s");
        if (rc == 0)
            rc = 1;
    }
    return rc;
}

/* Text the command line itself prints on stdout (--help, --version, the
 * documents of --man and --builtins-markdown, the REPL's :help and
 * :version): under --format=json the result record rec instead, one JSON
 * object on a line, so that stdout holds nothing but JSON (docs/errors.md,
 * "Errors under --format=json"; the kinds are in docs/language.md,
 * "Results as records").  Takes rec. */
static void cli_emit(Interp *I, Value *rec, const char *text)
{
    if (I->format == FMT_JSON)
        rt_print_value(I, rec, (Loc){0, 0, 0});
    else
        fputs(text, stdout);
    val_unref(rec);
}

static Value *cli_record(const char *kind, const char *key, const char *text)
{
    Value *r = val_map();
    val_map_set_str(r, "kind", kind);
    if (key)
        val_map_set(r, key, text ? val_str(text) : val_null());
    return r;
}

/* --man and --builtins-markdown: the document, or under --format=json the
 * record {"kind":"document","name":NAME,"text":...}. */
static int cli_document(Interp *I, const char *name, void (*write)(FILE *))
{
    if (I->format != FMT_JSON) {
        write(stdout);
        return 0;
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return cli_error(DIAG_IO, NULL, "cannot write %s: %s", name, strerror(errno));
    write(f);
    fclose(f);
    Value *r = cli_record("document", "name", name);
    val_map_set_str(r, "text", buf);
    cli_emit(I, r, buf);
    free(buf);
    return 0;
}

/* ---- the REPL ---- */

static bool repl_incomplete(const char *msg)
{
    return strstr(msg, "unexpected end of file") != NULL;
}

static void repl_meta(Interp *I, const char *line, bool *quit)
{
    char cmd[32] = "", arg[256] = "";
    sscanf(line + 1, "%31s %255s", cmd, arg);
    if (strcmp(cmd, "quit") == 0 || strcmp(cmd, "q") == 0 || strcmp(cmd, "exit") == 0) {
        *quit = true;
    } else if (strcmp(cmd, "help") == 0 || strcmp(cmd, "h") == 0) {
        if (arg[0]) {
            char *t = builtin_help_text(arg);
            if (t) {
                Value *r = cli_record("help", "name", arg);
                val_map_set_str(r, "text", t);
                cli_emit(I, r, t);
                free(t);
            } else {
                cli_error(DIAG_NAME, "help lists the statements and functions",
                          "no builtin named '%s'", arg);
            }
        } else {
            const char *t = "Type statements ending with ';' (a missing final ';' is added).\n"
                            "  :help NAME   documentation of a builtin (help; lists them)\n"
                            "  :load FILE   run a script file\n"
                            "  :version     show the version\n"
                            "  :quit        leave (or Ctrl-D)\n"
                            "Ctrl-C interrupts a running computation.\n";
            Value *r = cli_record("help", "name", NULL);
            val_map_set_str(r, "text", t);
            cli_emit(I, r, t);
        }
    } else if (strcmp(cmd, "version") == 0) {
        cli_emit(I, cli_record("version", "version", CGT_VERSION), "cgt " CGT_VERSION "\n");
    } else if (strcmp(cmd, "load") == 0 && arg[0]) {
        FILE *f = fopen(arg, "rb");
        if (!f) {
            cli_error(DIAG_IO, NULL, "cannot open %s: %s", arg, strerror(errno));
            return;
        }
        size_t len;
        errno = 0;
        char *text = read_stream(f, &len);
        fclose(f);
        if (!text) {
            cli_error(DIAG_IO, NULL, "cannot read %s: %s", arg, strerror(errno));
            return;
        }
        uint32_t id = source_add(arg, text, len);
        free(text);
        AstNode *root = parse_or_report(I, id);
        if (root) {
            interp_run(I, root);
            finish_checks(I, 0);
        }
    } else {
        cli_error(DIAG_NAME, "try :help", "unknown command :%s", cmd);
    }
}

/* readline's character source: read(2) itself, so that Ctrl-C at the
 * prompt (the handler sets repl_sigint and the read fails with EINTR) ends
 * the line at once: "^C" is shown and the line is accepted, then dropped
 * with any pending block by run_repl. */
static int repl_getc(FILE *in)
{
    for (;;) {
        /* wait in slices of 100 ms, so that a Ctrl-C arriving just before
           the wait is seen too (the flag is checked before each slice) */
        if (!repl_sigint) {
            struct pollfd pfd = {.fd = fileno(in), .events = POLLIN};
            int pr = poll(&pfd, 1, 100);
            if (pr == 0 || (pr < 0 && errno == EINTR && !repl_sigint))
                continue;
        }
        unsigned char ch;
        ssize_t r = repl_sigint ? -1 : read(fileno(in), &ch, 1);
        if (r == 1)
            return ch;
        if (r == 0 || (r < 0 && !repl_sigint && errno != EINTR))
            return EOF;
        if (repl_sigint) {
            rl_point = rl_end;
            rl_insert_text("^C");
            rl_redisplay();
            rl_done = 1;
            return '\n';
        }
    }
}

/* ---- Tab completion: builtins, keywords, option names, variables ---- */

static Interp *repl_interp;
static char **completion_words;
static size_t ncompletion_words;

static void completion_add(const char *w, size_t n)
{
    for (size_t i = 0; i < ncompletion_words; i++)
        if (strlen(completion_words[i]) == n && strncmp(completion_words[i], w, n) == 0)
            return;
    completion_words = xrealloc(completion_words, (ncompletion_words + 1) * sizeof *completion_words);
    completion_words[ncompletion_words++] = xstrndup(w, n);
}

static void completion_free(void)
{
    for (size_t i = 0; i < ncompletion_words; i++)
        free(completion_words[i]);
    free(completion_words);
    completion_words = NULL;
    ncompletion_words = 0;
}

/* Where the word being completed stands, read from the line before it
 * (the statement it belongs to starts after the last ';', '{' or '}' out
 * of a string):
 *   - first word of a statement: every builtin, keyword and variable;
 *   - after `game NAME =`: the game kinds octal, hex, subtraction, rules
 *     (and `allbut` after `subtraction`);
 *   - in the arguments of a statement or declaration (not inside its
 *     parentheses or brackets): that builtin's option names, the functions,
 *     keywords and variables;
 *   - anywhere else (an expression): the functions, keywords and
 *     variables, never option names. */
typedef enum { COMP_START, COMP_GAME_KIND, COMP_ALLBUT, COMP_OPTIONS, COMP_EXPR } CompContext;

static CompContext completion_context(const char *line, int start, char *stmt, size_t cap)
{
    int from = 0;
    bool in_str = false;
    for (int i = 0; i < start; i++) {
        if (line[i] == '"' && (i == 0 || line[i - 1] != '\\'))
            in_str = !in_str;
        else if (!in_str && (line[i] == ';' || line[i] == '{' || line[i] == '}'))
            from = i + 1;
    }
    /* the words and symbols between the statement's start and the word */
    char first[64] = "", prev[64] = "";
    int ntok = 0, depth = 0;
    char last_sym = 0;
    for (int i = from; i < start;) {
        unsigned char ch = (unsigned char)line[i];
        if (ch == ' ' || ch == '\t') {
            i++;
            continue;
        }
        if (isalnum(ch) || ch == '_' || ch == '.') {
            int j = i;
            while (j < start && (isalnum((unsigned char)line[j]) || line[j] == '_' || line[j] == '.'))
                j++;
            snprintf(prev, sizeof prev, "%.*s", j - i, line + i);
            if (ntok == 0)
                snprintf(first, sizeof first, "%s", prev);
            last_sym = 0;
            ntok++;
            i = j;
            continue;
        }
        if (ch == '"') {
            int j = i + 1;
            while (j < start && !(line[j] == '"' && line[j - 1] != '\\'))
                j++;
            i = j + 1;
        } else {
            depth += ch == '(' || ch == '[';
            depth -= (ch == ')' || ch == ']') && depth > 0;
            i++;
        }
        prev[0] = '\0';
        last_sym = (char)ch;
        ntok++;
    }
    snprintf(stmt, cap, "%s", first);
    if (ntok == 0)
        return COMP_START;
    if (strcmp(first, "game") == 0 && last_sym == '=' && ntok == 3)
        return COMP_GAME_KIND;
    if (strcmp(first, "game") == 0 && strcmp(prev, "subtraction") == 0)
        return COMP_ALLBUT;
    const Builtin *b = builtin_find(first);
    if (b && (b->flags & (BI_CMD | BI_DECL)) && depth == 0)
        return COMP_OPTIONS;
    return COMP_EXPR;
}

/* The option names of a builtin's spec ("to:int" gives "to", "bound!"
 * gives "bound"), of every entry of that name (overloads too). */
static void completion_add_options(const char *name)
{
    size_t n;
    const Builtin *const *t = builtin_table(&n);
    for (size_t i = 0; i < n; i++) {
        if (strcmp(t[i]->name, name) != 0)
            continue;
        const char *p = t[i]->spec;
        while (p && *p) {
            while (*p == ' ')
                p++;
            size_t len = strcspn(p, " ");
            size_t nm = strcspn(p, ":!");
            if (nm < len)
                completion_add(p, nm);
            p += len;
        }
    }
}

static void completion_collect(CompContext ctx, const char *stmt)
{
    completion_free();
    size_t n;
    if (ctx == COMP_GAME_KIND) {
        static const char *const kinds[] = {"octal", "hex", "subtraction", "rules"};
        for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
            completion_add(kinds[i], strlen(kinds[i]));
        return;
    }
    if (ctx == COMP_ALLBUT) {
        completion_add("allbut", 6);
        return;
    }
    if (ctx == COMP_OPTIONS)
        completion_add_options(stmt);
    const Builtin *const *t = builtin_table(&n);
    for (size_t i = 0; i < n; i++)
        if (ctx == COMP_START || (t[i]->flags & BI_FUNC))
            completion_add(t[i]->name, strlen(t[i]->name));
    const char *const *kw = builtin_keywords(&n);
    for (size_t i = 0; i < n; i++)
        completion_add(kw[i], strlen(kw[i]));
    const char **vars;
    n = env_names(repl_interp->globals, &vars);
    for (size_t i = 0; i < n; i++)
        completion_add(vars[i], strlen(vars[i]));
    free(vars);
}

static CompContext comp_ctx;
static char comp_stmt[64];

static char *completion_next(const char *text, int state)
{
    static size_t at;
    if (state == 0) {
        completion_collect(comp_ctx, comp_stmt);
        at = 0;
    }
    size_t len = strlen(text);
    while (at < ncompletion_words) {
        const char *w = completion_words[at++];
        if (strncmp(w, text, len) == 0)
            return xstrdup(w);
    }
    return NULL;
}

static char **repl_complete(const char *text, int start, int end)
{
    (void)end;
    comp_ctx = completion_context(rl_line_buffer, start, comp_stmt, sizeof comp_stmt);
    rl_attempted_completion_over = 1; /* never file names */
    return rl_completion_matches(text, completion_next);
}

static int run_repl(Interp *I)
{
    I->repl = true;
    repl_interp = I;
    /* under --format=json stdout holds only JSON: the banner and the
       prompt, text for the person at the terminal, go to stderr */
    FILE *human = I->format == FMT_JSON ? stderr : stdout;
    fprintf(human,
            "cgt %s: impartial games and misere quotients. :help for help, :quit to leave.\n",
            CGT_VERSION);
    rl_outstream = human;
    rl_readline_name = "cgt";
    rl_catch_signals = 0; /* SIGINT is cgt's: see repl_getc */
    rl_getc_function = repl_getc;
    rl_attempted_completion_function = repl_complete;
    rl_basic_word_break_characters = " \t\n\"\\'`@$><=;|&{(,[]+-*/%^.";
    /* a multi-line block is one history entry, also in the history file */
    history_comment_char = '#'; /* timestamp lines "#T" delimit the entries */
    history_write_timestamps = 1;
    history_multiline_entries = 1;
    char hist[1024] = "";
    const char *home = getenv("HOME");
    if (home) {
        snprintf(hist, sizeof hist, "%s/.cgt_history", home);
        read_history(hist);
    }
    StrBuf pending, block;
    sb_init(&pending);
    sb_init(&block);
    unsigned lineno = 0;
    bool quit = false;
    while (!quit) {
        if (cgt_interrupt_flag && cgt_interrupt_signal != SIGINT)
            break; /* SIGTERM or SIGHUP during a statement: leave */
        cgt_progress_end();
        cgt_interrupt_flag = 0;
        cgt_interrupt_signal = 0;
        repl_sigint = 0;
        in_readline = 1;
        char *line = readline(pending.len ? "...> " : "cgt> ");
        in_readline = 0;
        if (repl_sigint) {
            /* Ctrl-C: drop the line and the pending block */
            free(line);
            repl_sigint = 0;
            pending.len = 0;
            pending.s[0] = '\0';
            block.len = 0;
            block.s[0] = '\0';
            continue;
        }
        if (!line) {
            putchar('\n');
            break;
        }
        if (pending.len == 0 && line[0] == ':') {
            if (line[0])
                add_history(line);
            repl_meta(I, line, &quit);
            free(line);
            continue;
        }
        if (pending.len == 0) {
            /* pad with newlines so that locations carry the session's line
             * numbers: <repl>:LINE:COL */
            for (unsigned k = 0; k < lineno; k++)
                sb_putc(&pending, '\n');
        }
        sb_puts(&pending, line);
        sb_putc(&pending, '\n');
        if (block.len)
            sb_putc(&block, '\n');
        sb_puts(&block, line);
        free(line);
        lineno++;
        const char *name = "<repl>";
        Arena *a = arena_new();
        AstNode *root = NULL;
        Loc loc;
        char msg[1024];
        uint32_t id = source_add(name, pending.s, pending.len);
        int rc = parse_source(id, a, &root, &loc, msg, sizeof msg);
        if (rc != 0) {
            arena_free(a);
            /* the end of input came too early: read another line (the last
             * statement's ';' may be omitted, so a complete line parses) */
            if (repl_incomplete(msg))
                continue;
        }
        if (block.s[strspn(block.s, " \t\n")])
            add_history(block.s);
        block.len = 0;
        block.s[0] = '\0';
        if (rc != 0) {
            char *hint = strstr(msg, "\nhint: ");
            if (hint) {
                *hint = '\0';
                hint += 7;
            }
            interp_json_error(I, DIAG_SYNTAX, &loc, msg, hint, NULL,
                              diag_exit_code(DIAG_SYNTAX));
            diag_print(stderr, "error", loc, msg, hint, NULL, I->color_err);
            pending.len = 0;
            pending.s[0] = '\0';
            continue;
        }
        print_parse_warnings(I->color_err);
        keep_arena(a);
        pending.len = 0;
        pending.s[0] = '\0';
        interp_run(I, root);
        if (I->checks_failed) {
            I->checks_failed = 0;
            I->checks_run = 0;
        }
    }
    cgt_progress_end();
    sb_free(&pending);
    sb_free(&block);
    completion_free();
    if (hist[0])
        write_history(hist);
    return 0;
}

/* A standard descriptor closed by the caller (cgt >&-) is held open on
 * /dev/null in the wrong direction: writes to it then fail (EBADF) and are
 * reported, and no file cgt opens later (a checkpoint) can take its number
 * and receive the output. */
static void hold_closed_std_fds(void)
{
    for (int fd = 0; fd <= 2; fd++)
        if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
            int h = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
            if (h >= 0 && h != fd) {
                dup2(h, fd);
                close(h);
            }
        }
}

static int real_main(int argc, char **argv)
{
    double t_start = cgt_now();
    xalloc_init_gmp();
    Interp *I = interp_new(cgt_modules);
    const char **codes = xmalloc((size_t)argc * sizeof *codes);
    int ncodes = 0;
    bool check_only = false, read_stdin = false, quiet = false;
    const char *color = "auto";
    const char **files = xmalloc((size_t)argc * sizeof *files);
    int nfiles = 0;
    int rc = 0;

    cli_interp = I;
    /* the last --format= decides, also for what comes before it (the
       argument of -e is code, not an option) */
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "-e") == 0)
            i++;
        else if (strncmp(argv[i], "--format=", 9) == 0)
            I->format = strcmp(argv[i] + 9, "json") == 0 ? FMT_JSON : FMT_TEXT;
    const char *env_threads = getenv("CGT_THREADS");
    if (env_threads && *env_threads && (rc = set_threads("CGT_THREADS", env_threads)) != 0)
        goto out;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-e") == 0) {
            if (i + 1 >= argc) {
                rc = usage_error("%s needs an argument", a);
                goto out;
            }
            codes[ncodes++] = argv[++i]; /* each -e is a unit, run in order */
        } else if (strcmp(a, "-") == 0) {
            read_stdin = true;
        } else if (strcmp(a, "--check") == 0) {
            check_only = true;
        } else if (strncmp(a, "--format=", 9) == 0) {
            if (strcmp(a + 9, "json") == 0)
                I->format = FMT_JSON;
            else if (strcmp(a + 9, "text") == 0)
                I->format = FMT_TEXT;
            else {
                rc = usage_error("unknown format '%s' (text or json)", a + 9);
                goto out;
            }
        } else if (strncmp(a, "--timeout=", 10) == 0) {
            char *end;
            double t = strtod(a + 10, &end);
            /* nan, inf and huge values are refused, never read as "no limit" */
            if (*end || end == a + 10 || !(t >= 0 && t <= CGT_MAX_TIMEOUT)) {
                rc = usage_error("bad --timeout value '%s' (seconds, 0 to %g)", a + 10,
                                 CGT_MAX_TIMEOUT);
                goto out;
            }
            cgt_set_timeout(t);
        } else if (strncmp(a, "--timeout-cpu=", 14) == 0) {
            char *end;
            double t = strtod(a + 14, &end);
            if (*end || end == a + 14 || t < 0) {
                rc = usage_error("bad --timeout-cpu value '%s' (CPU seconds)", a + 14);
                goto out;
            }
            cgt_set_timeout_cpu(t);
        } else if (strncmp(a, "--threads=", 10) == 0 || strcmp(a, "--threads") == 0) {
            if (!a[9] && i + 1 >= argc) {
                rc = usage_error("%s needs an argument", a);
                goto out;
            }
            if ((rc = set_threads("--threads", a[9] ? a + 10 : argv[++i])) != 0)
                goto out;
        } else if (strncmp(a, "--seed=", 7) == 0) {
            char *end;
            errno = 0;
            unsigned long long s = strtoull(a + 7, &end, 10);
            if (*end || end == a + 7 || errno || a[7] == '-') {
                rc = usage_error("bad --seed value '%s' (a non-negative integer)", a + 7);
                goto out;
            }
            I->seed = s;
            I->seed_set = true;
        } else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0 ||
                   strncmp(a, "--verbose=", 10) == 0) {
            I->verbose = true;
        } else if (strcmp(a, "--stats") == 0 || strcmp(a, "--time") == 0) {
            I->stats = true;
        } else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
            quiet = true;
        } else if (strncmp(a, "--color=", 8) == 0) {
            color = a + 8;
            if (strcmp(color, "auto") && strcmp(color, "always") && strcmp(color, "never")) {
                rc = usage_error("bad --color value '%s' (auto, always or never)", color);
                goto out;
            }
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            cli_emit(I, cli_record("usage", "text", usage_text), usage_text);
            goto out;
        } else if (strcmp(a, "--version") == 0) {
            cli_emit(I, cli_record("version", "version", CGT_VERSION), "cgt " CGT_VERSION "\n");
            goto out;
        } else if (strcmp(a, "--builtins-markdown") == 0) {
            rc = cli_document(I, "builtins.md", builtin_markdown);
            goto out;
        } else if (strcmp(a, "--man") == 0) {
            rc = cli_document(I, "cgt.1", man_page);
            goto out;
        } else if (a[0] == '-' && a[1]) {
            rc = usage_error("unknown option '%s'", a);
            goto out;
        } else {
            files[nfiles++] = a;
        }
    }
    if (ncodes && (nfiles || read_stdin)) {
        rc = usage_error("%s", "-e cannot be combined with script files");
        goto out;
    }

    if (strcmp(color, "always") == 0)
        I->color_err = true;
    else if (strcmp(color, "auto") == 0)
        I->color_err = isatty(2) && !getenv("NO_COLOR");
    if (!quiet && (I->verbose || isatty(2))) {
        cgt_set_progress_sink(progress_sink);
        progress_status_line = !I->verbose;
        cgt_set_progress_end(progress_erase);
    }
    cgt_catch_stop_signals(on_signal);
    {
        /* test hooks (docs/testing.md): stop the run at a point that does
           not depend on the machine's speed */
        unsigned long long n;
        if ((rc = test_hook("CGT_TEST_LIMIT_AFTER", &n)) != 0)
            goto out;
        I->limit_after_stmts = n;
        if ((rc = test_hook("CGT_TEST_LIMIT_AT_POLL", &n)) != 0)
            goto out;
        cgt_fire_run_limit_at_poll(n);
    }

    if (!ncodes && !nfiles && !read_stdin) {
        if (isatty(0) && !check_only) {
            rc = run_repl(I);
            goto out;
        }
        read_stdin = true;
    }

    /* register and parse everything before running anything */
    size_t nunits = (size_t)nfiles + (size_t)ncodes + (read_stdin ? 1 : 0);
    AstNode **units = xcalloc(nunits ? nunits : 1, sizeof *units);
    size_t u = 0;
    bool syntax_failed = false;
    for (int i = 0; i < nfiles; i++) {
        FILE *f = fopen(files[i], "rb");
        if (!f) {
            cli_error(DIAG_IO, NULL, "cannot open %s: %s", files[i], strerror(errno));
            free(units);
            rc = 1;
            goto out;
        }
        size_t len;
        errno = 0;
        char *text = read_stream(f, &len);
        fclose(f);
        if (!text) {
            cli_error(DIAG_IO, NULL, "cannot read %s: %s", files[i], strerror(errno));
            free(units);
            rc = 1;
            goto out;
        }
        uint32_t id = source_add(files[i], text, len);
        free(text);
        if (!(units[u++] = parse_or_report(I, id)))
            syntax_failed = true;
    }
    for (int i = 0; i < ncodes; i++) {
        uint32_t id = source_add("<expr>", codes[i], strlen(codes[i]));
        if (!(units[u++] = parse_or_report(I, id)))
            syntax_failed = true;
    }
    if (read_stdin) {
        size_t len;
        errno = 0;
        char *text = read_stream(stdin, &len);
        if (!text) {
            cli_error(DIAG_IO, NULL, "cannot read standard input: %s", strerror(errno));
            free(units);
            rc = 1;
            goto out;
        }
        uint32_t id = source_add("<stdin>", text, len);
        free(text);
        if (!(units[u++] = parse_or_report(I, id)))
            syntax_failed = true;
    }
    if (syntax_failed) {
        free(units);
        rc = 3;
        goto out;
    }
    {
        /* test hook (docs/testing.md): the constructs the units use, or
           with "all" every construct the census names, on stderr */
        const char *census = getenv("CGT_TEST_CONSTRUCTS");
        if (census && strcmp(census, "all") == 0)
            ast_construct_catalogue(census_line, NULL);
        else if (census)
            for (size_t i = 0; i < u; i++)
                ast_constructs(units[i], census_line, NULL);
    }
    if (!check_only) {
        for (size_t i = 0; i < u && rc == 0; i++)
            rc = interp_run(I, units[i]);
        rc = interrupted_rc(finish_checks(I, rc));
    }
    free(units);
    if (I->stats) {
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        double us = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6;
        double sy = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
        fflush(stdout);
        fprintf(stderr, "[stats] total: %.3f s CPU (user %.3f s, system %.3f s), %.3f s wall, "
                        "peak RSS %ld KB\n",
                us + sy, us, sy, cgt_now() - t_start, ru.ru_maxrss);
    }

out:
    {
        int e;
        if (rt_stdout_failed(&e) && rc == 0) {
            fprintf(stderr, "cgt: error: cannot write standard output: %s\n", strerror(e));
            rc = 1;
        }
    }
    interp_free(I);
    free_arenas();
    source_free_all();
    free(files);
    free(codes);
    return rc;
}

/* The interpreter runs on a thread with a large stack, so that deep
 * recursion in scripts (2000 calls) and deeply nested expressions are safe
 * even in sanitizer builds, whose frames are several times larger. */
typedef struct MainArgs {
    int argc;
    char **argv;
    int rc;
} MainArgs;

static void *main_thread(void *p)
{
    MainArgs *a = p;
    a->rc = real_main(a->argc, a->argv);
    return NULL;
}

int main(int argc, char **argv)
{
    hold_closed_std_fds();
    MainArgs a = {argc, argv, 0};
    pthread_attr_t attr;
    pthread_t t;
    /* 64 MB of the 512 MB stay free for the builtins called at the
       deepest point of an evaluation */
    interp_set_stack_budget((size_t)448 << 20);
    if (pthread_attr_init(&attr) == 0 && pthread_attr_setstacksize(&attr, (size_t)512 << 20) == 0 &&
        pthread_create(&t, &attr, main_thread, &a) == 0) {
        pthread_attr_destroy(&attr);
        /* signals go to the interpreter's thread, so that they interrupt its
           system calls (the REPL's read: Ctrl-C at the prompt) */
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, SIGINT);
        sigaddset(&set, SIGTERM);
        sigaddset(&set, SIGHUP);
        pthread_sigmask(SIG_BLOCK, &set, NULL);
        pthread_join(t, NULL);
        return a.rc;
    }
    interp_set_stack_budget((size_t)6 << 20);
    return real_main(argc, argv);
}
