/* AST nodes, the arena they live in, and the source registry. */
#include "lang/ast.h"

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
        "operation", "operation", "and", "or", "call", "call", "index", "field", "record", "comprehension", "game", "nim heap", "block", "expression",
        "assignment", "if", "for", "while", "fn", "return", "break", "continue", "print",
        "check", "assert", "command", "declaration", "try", "timeout", "set", "rules", "sequence",
        "presentation", "relation", "word", "factor", "with"};
    return (k >= 0 && k < AST_KIND_COUNT) ? names[k] : "?";
}
