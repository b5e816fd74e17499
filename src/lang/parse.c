/* Whole-unit parsing: runs the Flex scanner and Bison parser over one
 * registered source and returns its AST or the first syntax error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grammar.h"
#include "lexer.h"
#include "lang/ast.h"
#include "lang/lexstate.h"
#include "lib/util/xalloc.h"

int cgt_parse(yyscan_t scanner, LexState *st);

/* The token stream the parser sees: the scanner's, plus one virtual ';'
 * at the end of input when the last token was not ';' (after a block it is
 * an empty statement), so that the
 * final statement of a file, of -e CODE or of a REPL line may omit its
 * ';' (docs/language.md). */
int cgt_lex(CGT_STYPE *lvalp, Loc *llocp, yyscan_t scanner)
{
    LexState *st = cgt_get_extra(scanner);
    int tok = cgt_lex_raw(lvalp, llocp, scanner);
    if (tok == 0 && !st->eof_semi && st->last_tok != 0 && st->last_tok != ';') {
        st->eof_semi = 1;
        llocp->file = st->file;
        llocp->start = llocp->end = st->offset;
        tok = ';';
    }
    /* `help print`: a keyword after a statement-initial `help` is the name
       of what to explain */
    if (st->after_help && tok != IDENT && tok > 255 && llocp->end > llocp->start) {
        const SourceFile *src = source_get(st->file);
        const char *t = src->text + llocp->start;
        uint32_t n = llocp->end - llocp->start, k = 0;
        while (k < n && ((t[k] >= 'a' && t[k] <= 'z') || t[k] == '_'))
            k++;
        if (k == n) {
            lvalp->node = ast_new_text(st->arena, AST_IDENT, *llocp, t, n);
            tok = IDENT;
        }
    }
    int prev = st->last_tok;
    st->after_help = tok == IDENT && (prev == 0 || prev == ';' || prev == '{' || prev == '}') &&
                     strcmp(lvalp->node->text, "help") == 0;
    st->last_tok = tok;
    return tok;
}

void lexstate_putc(LexState *s, char c)
{
    if (s->buf_len + 1 >= s->buf_cap) {
        s->buf_cap = s->buf_cap ? 2 * s->buf_cap : 64;
        s->buf = xrealloc(s->buf, s->buf_cap);
    }
    s->buf[s->buf_len++] = c;
    s->buf[s->buf_len] = '\0';
}

/* Whether the statement holding offset a starts with two words (a name
 * and an argument: `grundy g ...`), i.e. the error is among a statement's
 * juxtaposed arguments, where operators need parentheses. */
static int statement_args(const SourceFile *src, uint32_t a)
{
    uint32_t i = a;
    while (i > 0 && !strchr(";{}", src->text[i - 1]))
        i--;
    while (i < a && strchr(" \t\r\n", src->text[i]))
        i++;
    static const char *const kw[] = {"print", "check", "assert", "return", "if", "while",
                                     "for", "fn", "else", "not"};
    for (size_t k = 0; k < sizeof kw / sizeof kw[0]; k++) {
        size_t l = strlen(kw[k]);
        if (i + l <= a && strncmp(src->text + i, kw[k], l) == 0 &&
            strchr(" \t\r\n(", src->text[i + l]))
            return 0; /* an expression statement, not a command */
    }
    int words = 0;
    while (i < a && words < 2) {
        if (!((src->text[i] >= 'a' && src->text[i] <= 'z') ||
              (src->text[i] >= 'A' && src->text[i] <= 'Z') || src->text[i] == '_'))
            return 0;
        while (i < a && strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_",
                               src->text[i]) && src->text[i])
            i++;
        words++;
        if (i < a && src->text[i] != ' ' && src->text[i] != '\t')
            return 0;
        while (i < a && (src->text[i] == ' ' || src->text[i] == '\t'))
            i++;
    }
    return words == 2;
}

static int name_byte(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Whether offset a lies inside a '{' not closed before it, in the same
 * statement. */
static int inside_brace(const SourceFile *src, uint32_t a)
{
    int depth = 0;
    for (uint32_t i = a; i > 0; i--) {
        char c = src->text[i - 1];
        if (c == '}')
            depth++;
        else if (c == '{' && depth-- == 0)
            return 1;
        else if (c == ';')
            return 0;
    }
    return 0;
}

/* Whether the text ending at offset e is a name inside an expression (after
 * '=', an operator, '(' or ',', or after print, return, check or assert),
 * so that a value juxtaposed to it, `x = load "f"`, was meant as its
 * argument; *ws is where the name starts. */
static int call_wanted(const SourceFile *src, uint32_t e, uint32_t *ws)
{
    const char *t = src->text;
    uint32_t w = e;
    while (w > 0 && name_byte(t[w - 1]))
        w--;
    if (w == e || (t[w] >= '0' && t[w] <= '9'))
        return 0;
    *ws = w;
    uint32_t p = w;
    while (p > 0 && (t[p - 1] == ' ' || t[p - 1] == '\t'))
        p--;
    if (p == 0)
        return 0;
    if (strchr("=(,[+-*/%<>:", t[p - 1]))
        return 1;
    static const char *const kw[] = {"print", "return", "check", "assert"};
    for (size_t k = 0; k < sizeof kw / sizeof kw[0]; k++) {
        size_t l = strlen(kw[k]);
        if (p >= l && strncmp(t + p - l, kw[k], l) == 0 && (p == l || !name_byte(t[p - l - 1])))
            return 1;
    }
    return 0;
}

/* When the statement holding offset a starts with a call `NAME(...)`
 * whose ')' ends a line before a, the line of that ')' (a ';' is
 * probably missing after it, and the next line was read as arguments of
 * NAME); else 0. */
static unsigned call_then_newline(const SourceFile *src, uint32_t a)
{
    const char *t = src->text;
    uint32_t i = a;
    while (i > 0 && !strchr(";{}", t[i - 1]))
        i--;
    while (i < a && strchr(" \t\r\n", t[i]))
        i++;
    if (i >= a || !name_byte(t[i]) || (t[i] >= '0' && t[i] <= '9'))
        return 0;
    while (i < a && name_byte(t[i]))
        i++;
    while (i < a && (t[i] == ' ' || t[i] == '\t'))
        i++;
    if (i >= a || t[i] != '(')
        return 0;
    int depth = 0, quoted = 0;
    for (; i < a; i++) {
        if (quoted) {
            if (t[i] == '\\')
                i++;
            else if (t[i] == '"')
                quoted = 0;
            continue;
        }
        if (t[i] == '"')
            quoted = 1;
        else if (t[i] == '(')
            depth++;
        else if (t[i] == ')' && --depth == 0)
            break;
    }
    if (i >= a || !memchr(t + i, '\n', a - i))
        return 0;
    unsigned line = 1;
    for (uint32_t j = 0; j < i; j++)
        line += t[j] == '\n';
    return line;
}

/* Name the offending token ("unexpected name 'y'") and add a hint when a
 * ';' is probably missing at the end of the previous line. */
static void improve_message(const SourceFile *src, const LexState *st, char *msg, size_t size)
{
    static const char *const kinds[] = {"unexpected name", "unexpected integer",
                                        "unexpected code"};
    uint32_t a = st->err_loc.start, b = st->err_loc.end;
    if (strncmp(msg, "unexpected", 10) != 0)
        return; /* the grammar's own messages (assignment targets) are complete */
    for (size_t k = 0; k < 3; k++) {
        size_t kl = strlen(kinds[k]);
        if (strncmp(msg, kinds[k], kl) == 0 && b > a && b <= src->len && b - a < 60) {
            char rest[512];
            snprintf(rest, sizeof rest, "%s", msg + kl);
            snprintf(msg, size, "%s '%.*s'%s", kinds[k], (int)(b - a), src->text + a, rest);
            break;
        }
    }
    /* the previous non-blank byte, and whether a newline lies between */
    uint32_t i = a;
    int newline = 0;
    while (i > 0 && strchr(" \t\r\n", src->text[i - 1])) {
        if (src->text[i - 1] == '\n')
            newline = 1;
        i--;
    }
    size_t n = strlen(msg);
    uint32_t ws = 0;
    unsigned call_line = call_then_newline(src, a);
    int value_token = strncmp(msg, "unexpected name", 15) == 0 ||
                      strncmp(msg, "unexpected integer", 18) == 0 ||
                      strncmp(msg, "unexpected code", 15) == 0 ||
                      strncmp(msg, "unexpected string", 17) == 0 ||
                      strncmp(msg, "unexpected '['", 14) == 0;
    if (call_line && !newline) {
        snprintf(msg + n, size - n, "\nhint: is a ';' missing at the end of line %u?",
                 call_line);
    } else if (newline && i > 0 && !strchr(";{}", src->text[i - 1])) {
        unsigned line = 1;
        for (uint32_t j = 0; j < i; j++)
            line += src->text[j] == '\n';
        snprintf(msg + n, size - n, "\nhint: is a ';' missing at the end of line %u?", line);
    } else if (strncmp(msg, "unexpected '|'", 14) == 0 && inside_brace(src, a)) {
        snprintf(msg + n, size - n,
                 "\nhint: cgt's games are impartial: {G, H, ...} lists the options of a "
                 "game; partizan games {L | R} are out of scope (CGSuite handles them)");
    } else if (!newline && value_token && call_wanted(src, i, &ws) && b > a && b - a < 60) {
        snprintf(msg + n, size - n,
                 "\nhint: to use '%.*s' in an expression, call it as a function: %.*s(%.*s)",
                 (int)(i - ws), src->text + ws, (int)(i - ws), src->text + ws, (int)(b - a),
                 src->text + a);
    } else if (strstr(msg, "expecting ';'")) {
        snprintf(msg + n, size - n, "\nhint: statements end with ';'");
    } else if (statement_args(src, a) && (strncmp(msg, "unexpected '^'", 14) == 0 ||
                                           strncmp(msg, "unexpected '*'", 14) == 0 ||
                                           strncmp(msg, "unexpected '/'", 14) == 0 ||
                                           strncmp(msg, "unexpected '%'", 14) == 0 ||
                                           strncmp(msg, "unexpected '+'", 14) == 0)) {
        snprintf(msg + n, size - n,
                 "\nhint: the arguments of a statement are single values: put an expression "
                 "in parentheses, as in `grundy g 0..(10^12);`");
    }
}

static Loc warnings[8];
static size_t nwarnings;

size_t parse_warning_count(void)
{
    return nwarnings;
}

void parse_warning(size_t i, Loc *loc, const char **msg, const char **hint)
{
    *loc = warnings[i];
    *msg = "'//' starts a comment: the rest of the line is not read";
    *hint = "there is no '//' operator; '/' divides integers (rounding down), and '#' "
            "starts a comment without this warning";
}

/* The parser sees LEXERROR as an unexpected token; we replace its message
 * by the lexer's own. */
int parse_source(uint32_t file_id, Arena *arena, AstNode **out, Loc *err_loc, char *err_msg,
                 size_t err_size)
{
    const SourceFile *src = source_get(file_id);
    LexState st;
    memset(&st, 0, sizeof st);
    st.file = file_id;
    st.arena = arena;
    st.err_msg = err_msg;
    st.err_size = err_size;
    err_msg[0] = '\0';
    nwarnings = 0;

    /* a UTF-8 byte order mark (editors on Windows write one) is skipped;
       offsets still count it, so locations stay byte offsets of the file */
    uint32_t skip = src->len >= 3 && memcmp(src->text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    st.offset = skip;
    yyscan_t scanner;
    cgt_lex_init_extra(&st, &scanner);
    YY_BUFFER_STATE buf = cgt__scan_bytes(src->text + skip, (int)(src->len - skip), scanner);
    int rc = cgt_parse(scanner, &st);
    cgt__delete_buffer(buf, scanner);
    cgt_lex_destroy(scanner);
    free(st.buf);

    if (rc != 0 || st.failed) {
        if (st.error) {
            /* a lexical error: the parser's message names "invalid token" */
            snprintf(err_msg, err_size, "%s%s%s", st.error, st.hint ? "\nhint: " : "",
                     st.hint ? st.hint : "");
        } else if (!err_msg[0]) {
            snprintf(err_msg, err_size, "syntax error");
        } else {
            improve_message(src, &st, err_msg, err_size);
        }
        *err_loc = st.err_loc;
        if (st.eof_semi && st.err_loc.start >= src->len && strncmp(err_msg, "unexpected ';'", 14) == 0) {
            char rest[512];
            snprintf(rest, sizeof rest, "%s", err_msg + 14);
            snprintf(err_msg, err_size, "unexpected end of file%s", rest);
        }
        if (rc != 0 && !st.failed) {
            err_loc->file = file_id;
            err_loc->start = err_loc->end = (uint32_t)src->len;
        }
        return -1;
    }
    const AstNode *deep = arena_too_deep(arena);
    if (deep) {
        *err_loc = deep->loc;
        if (err_loc->end > err_loc->start + 1)
            err_loc->end = err_loc->start + 1;
        snprintf(err_msg, err_size,
                 "nested too deeply: more than %d levels of expressions and blocks\n"
                 "hint: each operator of a chain such as 1+1+...+1 counts one level; "
                 "split it with a variable or a loop",
                 AST_MAX_DEPTH);
        return -1;
    }
    nwarnings = (size_t)st.nwarn;
    memcpy(warnings, st.warn, nwarnings * sizeof *warnings);
    *out = st.root;
    return 0;
}
