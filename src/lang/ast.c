/* AST nodes, the arena they live in, and the source registry. */
#include "lang/ast.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/xalloc.h"

/* ---- source registry ---- */

static SourceFile *sources;
static uint32_t nsources, capsources;

uint32_t source_add(const char *name, const char *text, size_t len)
{
    if (nsources == capsources) {
        capsources = capsources ? 2 * capsources : 8;
        sources = xrealloc(sources, capsources * sizeof *sources);
    }
    SourceFile *s = &sources[nsources];
    s->name = xstrdup(name);
    s->text = xstrndup(text, len);
    s->len = len;
    return nsources++;
}

const SourceFile *source_get(uint32_t id)
{
    return id < nsources ? &sources[id] : NULL;
}

void source_free_all(void)
{
    for (uint32_t i = 0; i < nsources; i++) {
        free(sources[i].name);
        free(sources[i].text);
    }
    free(sources);
    sources = NULL;
    nsources = capsources = 0;
}

/* ---- arena: a chain of blocks, everything freed at once ---- */

typedef struct Block {
    struct Block *next;
    size_t used, size;
    max_align_t data[];
} Block;

struct Arena {
    Block *head;
    const AstNode *too_deep;
};

Arena *arena_new(void)
{
    return xcalloc(1, sizeof(Arena));
}

void *arena_alloc(Arena *a, size_t n)
{
    n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    if (!a->head || a->head->used + n > a->head->size) {
        size_t size = n > 16384 ? n : 16384;
        Block *b = xmalloc(sizeof(Block) + size);
        b->next = a->head;
        b->used = 0;
        b->size = size;
        a->head = b;
    }
    void *p = (char *)a->head->data + a->head->used;
    a->head->used += n;
    memset(p, 0, n);
    return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n)
{
    char *p = arena_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

void arena_free(Arena *a)
{
    if (!a)
        return;
    Block *b = a->head;
    while (b) {
        Block *n = b->next;
        free(b);
        b = n;
    }
    free(a);
}

/* ---- nodes ---- */

AstNode *ast_new(Arena *a, AstKind kind, Loc loc)
{
    AstNode *n = arena_alloc(a, sizeof *n);
    n->kind = kind;
    n->loc = loc;
    return n;
}

AstNode *ast_new_text(Arena *a, AstKind kind, Loc loc, const char *text, size_t len)
{
    AstNode *n = ast_new(a, kind, loc);
    n->text = arena_strndup(a, text, len);
    return n;
}

void ast_add(Arena *a, AstNode *parent, AstNode *kid)
{
    if (parent->nkids == parent->capkids) {
        size_t cap = parent->capkids ? 2 * parent->capkids : 4;
        AstNode **k = arena_alloc(a, cap * sizeof *k);
        if (parent->nkids)
            memcpy(k, parent->kids, parent->nkids * sizeof *k);
        parent->kids = k;
        parent->capkids = cap;
    }
    parent->kids[parent->nkids++] = kid;
    ast_note_kid(a, parent, kid);
}

void ast_note_kid(Arena *a, AstNode *parent, const AstNode *kid)
{
    if (!kid || kid->depth + 1 <= parent->depth)
        return;
    parent->depth = kid->depth + 1;
    if (parent->depth > AST_MAX_DEPTH && !a->too_deep)
        a->too_deep = parent;
}

const AstNode *arena_too_deep(const Arena *a)
{
    return a->too_deep;
}

Loc loc_span(Loc a, Loc b)
{
    Loc l = a;
    if (b.end > l.end)
        l.end = b.end;
    if (b.start < l.start)
        l.start = b.start;
    return l;
}

const char *ast_kind_name(AstKind k)
{
    static const char *const names[AST_KIND_COUNT] = {
        "integer", "code", "string", "boolean", "null", "identifier", "list", "range",
        "operation", "operation", "and", "or", "call", "call", "index", "field", "record",
        "comprehension", "game", "nim heap", "block", "expression",
        "assignment", "if", "for", "while", "fn", "return", "break", "continue", "print",
        "check", "assert", "command", "declaration", "try", "timeout", "set", "rules", "sequence",
        "presentation", "relation", "word", "factor", "with"};
    return (k >= 0 && k < AST_KIND_COUNT) ? names[k] : "?";
}

/* ---- the census of constructs ----
 * The names of the language's forms, for the test that every construct
 * of docs/language.md has a tested example there
 * (tests/scripts/doc_constructs.sh).  One name per form a reader tells
 * apart: a node kind, refined by its operator or shape. */
static const char *const construct_names[] = {"integer",
                                              "code literal",
                                              "string",
                                              "true or false",
                                              "null",
                                              "name",
                                              "list",
                                              "range",
                                              "comprehension",
                                              "comprehension with if",
                                              "record",
                                              "game braces",
                                              "nim heap *e",
                                              "nim heap *",
                                              "call",
                                              "call of a value",
                                              "index",
                                              "field",
                                              "and",
                                              "or",
                                              "not",
                                              "negation",
                                              "operator +",
                                              "operator -",
                                              "operator *",
                                              "operator /",
                                              "operator %",
                                              "operator ^",
                                              "operator ==",
                                              "operator !=",
                                              "operator <",
                                              "operator <=",
                                              "operator >",
                                              "operator >=",
                                              "operator xor",
                                              "expression statement",
                                              "assignment",
                                              "item assignment",
                                              "field assignment",
                                              "nested item or field assignment",
                                              "assignment +=",
                                              "assignment -=",
                                              "assignment *=",
                                              "assignment /=",
                                              "assignment %=",
                                              "op= into an item or field",
                                              "if",
                                              "else",
                                              "else if",
                                              "for",
                                              "while",
                                              "fn with a block",
                                              "fn NAME(...) = EXPR",
                                              "anonymous function",
                                              "return",
                                              "return without a value",
                                              "break",
                                              "continue",
                                              "print",
                                              "check",
                                              "check for",
                                              "assert",
                                              "command",
                                              "declaration",
                                              "try",
                                              "timeout",
                                              "brace set argument",
                                              "rule block",
                                              "presentation",
                                              "presentation with",
                                              "relation chain",
                                              "word with an exponent",
                                              NULL};

static const char *binop_name(int op)
{
    switch (op) {
    case '+':
        return "operator +";
    case '-':
        return "operator -";
    case '*':
        return "operator *";
    case '/':
        return "operator /";
    case '%':
        return "operator %";
    case '^':
        return "operator ^";
    case OP_EQ:
        return "operator ==";
    case OP_NE:
        return "operator !=";
    case '<':
        return "operator <";
    case OP_LE:
        return "operator <=";
    case '>':
        return "operator >";
    case OP_GE:
        return "operator >=";
    case OP_XOR:
        return "operator xor";
    default:
        return "operator ?";
    }
}

static void census_presentation(const AstNode *p, void (*emit)(void *, const char *), void *ctx)
{
    emit(ctx, "presentation");
    if (p->nkids > 2 && p->kids[2] && p->kids[2]->nkids)
        emit(ctx, "presentation with");
    const AstNode *rels = p->nkids > 1 ? p->kids[1] : NULL;
    for (size_t r = 0; rels && r < rels->nkids; r++) {
        const AstNode *rel = rels->kids[r];
        if (rel->nkids > 2)
            emit(ctx, "relation chain");
        for (size_t w = 0; w < rel->nkids; w++)
            for (size_t f = 0; f < rel->kids[w]->nkids; f++)
                if (rel->kids[w]->kids[f]->op)
                    emit(ctx, "word with an exponent");
    }
}

static void census(const AstNode *n, void (*emit)(void *, const char *), void *ctx);

static void census_kids(const AstNode *n, size_t from, void (*emit)(void *, const char *),
                        void *ctx)
{
    for (size_t i = from; i < n->nkids; i++)
        if (n->kids[i])
            census(n->kids[i], emit, ctx);
}

/* A builtin's use, "call NAME/ARITY", "command NAME", "declaration KIND". */
static void census_builtin(const char *what, const char *name, long arity,
                           void (*emit)(void *, const char *), void *ctx)
{
    char buf[160];
    if (arity >= 0)
        snprintf(buf, sizeof buf, "%s %.100s/%ld", what, name, arity);
    else
        snprintf(buf, sizeof buf, "%s %.100s", what, name);
    emit(ctx, buf);
}

static void census_args(const AstNode *cmd, void (*emit)(void *, const char *), void *ctx)
{
    for (size_t i = 0; i < cmd->nkids; i++) {
        const AstNode *a = cmd->kids[i];
        if (!a)
            continue;
        if (a->kind == AST_SEQ)
            census_kids(a, 0, emit, ctx);
        else
            census(a, emit, ctx);
    }
}

static void census(const AstNode *n, void (*emit)(void *, const char *), void *ctx)
{
    switch (n->kind) {
    case AST_INT:
        emit(ctx, "integer");
        return;
    case AST_CODE:
        emit(ctx, "code literal");
        return;
    case AST_STR:
        emit(ctx, "string");
        return;
    case AST_BOOL:
        emit(ctx, "true or false");
        return;
    case AST_NULL:
        emit(ctx, "null");
        return;
    case AST_IDENT:
        emit(ctx, "name");
        return;
    case AST_LIST:
        emit(ctx, "list");
        break;
    case AST_RANGE:
        emit(ctx, "range");
        break;
    case AST_COMP:
        emit(ctx, n->nkids > 2 && n->kids[2] ? "comprehension with if" : "comprehension");
        break;
    case AST_MAP:
        emit(ctx, "record");
        for (size_t i = 1; i < n->nkids; i += 2)
            census(n->kids[i], emit, ctx);
        return;
    case AST_GAME:
        emit(ctx, "game braces");
        break;
    case AST_STAR:
        emit(ctx, n->nkids ? "nim heap *e" : "nim heap *");
        break;
    case AST_CALL:
        emit(ctx, "call");
        census_builtin("call", n->text, (long)n->nkids, emit, ctx);
        break;
    case AST_APPLY:
        emit(ctx, "call of a value");
        census(n->kids[0], emit, ctx);
        census_kids(n->kids[1], 0, emit, ctx);
        return;
    case AST_INDEX:
        emit(ctx, "index");
        break;
    case AST_FIELD:
        emit(ctx, "field");
        break;
    case AST_AND:
        emit(ctx, "and");
        break;
    case AST_OR:
        emit(ctx, "or");
        break;
    case AST_UNOP:
        emit(ctx, n->op == '!' ? "not" : "negation");
        break;
    case AST_BINOP:
        emit(ctx, binop_name(n->op));
        break;
    case AST_BLOCK:
        break;
    case AST_EXPR:
        emit(ctx, "expression statement");
        break;
    case AST_ASSIGN: {
        const AstNode *t = n->nkids > 1 ? n->kids[1] : NULL;
        if (!t)
            emit(ctx, "assignment");
        else {
            emit(ctx, t->kind == AST_INDEX ? "item assignment" : "field assignment");
            if (t->kids[0]->kind != AST_IDENT)
                emit(ctx, "nested item or field assignment");
            if (n->op)
                emit(ctx, "op= into an item or field");
            /* the target's inner nodes (indices, the root name) */
            for (const AstNode *c = t; c->kind == AST_INDEX || c->kind == AST_FIELD;
                 c = c->kids[0])
                if (c->kind == AST_INDEX)
                    census(c->kids[1], emit, ctx);
        }
        if (n->op) {
            char buf[32];
            snprintf(buf, sizeof buf, "assignment %c=", n->op);
            emit(ctx, buf);
        }
        census(n->kids[0], emit, ctx);
        return;
    }
    case AST_IF:
        emit(ctx, "if");
        if (n->nkids > 2 && n->kids[2])
            emit(ctx, n->kids[2]->kind == AST_IF ? "else if" : "else");
        break;
    case AST_FOR:
        emit(ctx, "for");
        break;
    case AST_WHILE:
        emit(ctx, "while");
        break;
    case AST_FN: {
        /* fn NAME(...) = EXPR and (x) -> EXPR are a block holding a return
           at the expression's place; only a block's return is written */
        const AstNode *body = n->kids[1];
        bool expr_body = body->nkids == 1 && body->kids[0]->kind == AST_RETURN &&
                         body->kids[0]->loc.start == body->loc.start;
        emit(ctx, n->op       ? "anonymous function"
                  : expr_body ? "fn NAME(...) = EXPR"
                              : "fn with a block");
        census_kids(expr_body ? body->kids[0] : body, 0, emit, ctx);
        return;
    }
    case AST_RETURN:
        emit(ctx, n->nkids ? "return" : "return without a value");
        break;
    case AST_BREAK:
        emit(ctx, "break");
        return;
    case AST_CONTINUE:
        emit(ctx, "continue");
        return;
    case AST_PRINT:
        emit(ctx, "print");
        break;
    case AST_CHECK:
        emit(ctx, n->nkids > 1 ? "check for" : "check");
        census(n->kids[0], emit, ctx);
        if (n->nkids > 1)
            census(n->kids[1]->kids[0], emit, ctx);
        return;
    case AST_ASSERT:
        emit(ctx, "assert");
        break;
    case AST_CMD:
        emit(ctx, "command");
        census_builtin("command", n->text, -1, emit, ctx);
        census_args(n, emit, ctx);
        return;
    case AST_DECL:
        emit(ctx, "declaration");
        census_builtin("declaration", n->kids[0]->text, -1, emit, ctx);
        census_args(n->kids[0], emit, ctx);
        return;
    case AST_TRY:
        emit(ctx, "try");
        break;
    case AST_TIMEOUT:
        emit(ctx, "timeout");
        break;
    case AST_SET:
        emit(ctx, "brace set argument");
        break;
    case AST_RULES:
        emit(ctx, "rule block");
        for (size_t i = 0; i < n->nkids; i++)
            census_kids(n->kids[i], 0, emit, ctx);
        return;
    case AST_SEQ:
        break;
    case AST_PRES:
        census_presentation(n, emit, ctx);
        return;
    default:
        return;
    }
    census_kids(n, 0, emit, ctx);
}

void ast_constructs(const AstNode *root, void (*emit)(void *ctx, const char *name), void *ctx)
{
    if (root)
        census(root, emit, ctx);
}

void ast_construct_catalogue(void (*emit)(void *ctx, const char *name), void *ctx)
{
    for (size_t i = 0; construct_names[i]; i++)
        emit(ctx, construct_names[i]);
}
