/* Abstract syntax tree of .cgt scripts.  Every node carries a Loc of byte
 * offsets into its source file; line and column are computed only when a
 * diagnostic is printed (src/runtime/diag.c).  Nodes, their child arrays and
 * their text live in an Arena owned by the parsed unit and are freed with
 * it. */
#ifndef CGT_PARSER_AST_H
#define CGT_PARSER_AST_H
#include <stddef.h>
#include <stdint.h>

typedef struct Loc {
    uint32_t file;  /* index into the source registry */
    uint32_t start; /* byte offset of the first byte */
    uint32_t end;   /* byte offset one past the last byte */
} Loc;

/* A source text: name as shown in diagnostics ("examples/x.cgt",
 * "<expr>", "<repl>:3") and its bytes (NUL-terminated copy). */
typedef struct SourceFile {
    char *name;
    char *text;
    size_t len;
} SourceFile;

/* Register a source (name and text copied); returns its file id. */
uint32_t source_add(const char *name, const char *text, size_t len);
const SourceFile *source_get(uint32_t id);
void source_free_all(void);

typedef struct Arena Arena;
Arena *arena_new(void);
void *arena_alloc(Arena *a, size_t n); /* zeroed */
char *arena_strndup(Arena *a, const char *s, size_t n);
void arena_free(Arena *a);

typedef enum {
    /* expressions */
    AST_INT,    /* text = decimal digits */
    AST_CODE,   /* text = "0.07": a take-and-break code literal */
    AST_STR,    /* text = decoded string */
    AST_BOOL,   /* op = 0/1 */
    AST_NULL,
    AST_IDENT,  /* text = name */
    AST_LIST,   /* kids = items */
    AST_RANGE,  /* kids[0] .. kids[1] */
    AST_BINOP,  /* op = token code, kids[0], kids[1] */
    AST_UNOP,   /* op = '-' or AST_NOT marker, kids[0] */
    AST_AND,
    AST_OR,
    AST_CALL,   /* text = callee name, kids = arguments */
    AST_APPLY,  /* a call of a value: kids[0] = the callee expression, kids[1] = an
                   AST_LIST of the arguments, whose loc is the whole call */
    AST_INDEX,  /* kids[0][kids[1]] */
    AST_FIELD,  /* kids[0].text : a record field */
    AST_MAP,    /* { k: v, ... } : kids alternate key (AST_STR / AST_IDENT) and value */
    AST_COMP,   /* [kids[0] for text in kids[1] if kids[2]] (kids[2] may be NULL) */
    AST_GAME,   /* { G, H, ... } (no colons): an explicit game, kids = options */
    AST_STAR,   /* *n (kids[0] = AST_INT) or * (no kids): a nim heap */
    /* statements */
    AST_BLOCK,  /* kids = statements */
    AST_EXPR,   /* kids[0] */
    AST_ASSIGN, /* text = name, kids[0] = value; op = '+' etc. for x += value */
    AST_IF,     /* kids[0] cond, kids[1] then-block, kids[2] else (optional) */
    AST_FOR,    /* text = variable, kids[0] iterable, kids[1] body */
    AST_WHILE,  /* kids[0] cond, kids[1] body */
    AST_FN,     /* text = name, kids[0] = params (AST_LIST of IDENT), kids[1] = body */
    AST_RETURN, /* kids[0] optional */
    AST_BREAK,
    AST_CONTINUE,
    AST_PRINT,  /* kids = expressions */
    AST_CHECK,  /* kids[0] cond; optional kids[1] = AST_FOR header (text=var, kids[0]=iter) */
    AST_ASSERT, /* kids[0] cond */
    AST_CMD,    /* text = command name, kids = command arguments */
    AST_DECL,   /* text = declared name, kids[0] = AST_CMD (kind + arguments) */
    AST_TRY,    /* text = error variable, kids[0] body, kids[1] handler */
    AST_TIMEOUT,/* kids[0] seconds, kids[1] body */
    /* command arguments (only inside AST_CMD) */
    AST_SET,    /* { a, b, c } : kids = items */
    AST_RULES,  /* { seq; seq; } : kids = AST_SEQ */
    AST_SEQ,    /* kids = juxtaposed arguments */
    AST_PRES,   /* < gens | rels > [with ...]: kids[0] = AST_LIST of IDENT gens,
                   kids[1] = AST_LIST of AST_REL, kids[2] = AST_LIST of AST_WITH */
    AST_REL,    /* kids = words w1 = w2 = ... */
    AST_WORD,   /* kids = AST_WFACTOR */
    AST_WFACTOR,/* text = identifier or "1"; op = exponent (0 means none written) */
    AST_WITH,   /* text = name (e.g. "P"), op = '{' or '[', kids = words */
    AST_KIND_COUNT
} AstKind;

/* The operator of an AST_BINOP or AST_UNOP node (op): an operator of one
 * character is that character ('+', '-', '*', '/', '%', '^', '<', '>';
 * '!' for `not`, '-' for negation), the others these codes, so that no
 * code outside src/lang depends on the parser's token numbers. */
enum { OP_EQ = 256, OP_NE, OP_LE, OP_GE, OP_XOR };

typedef struct AstNode {
    AstKind kind;
    int op;
    Loc loc;
    char *text;
    size_t nkids;
    struct AstNode **kids;
    size_t capkids;
    uint32_t depth; /* 1 + the largest depth of a kid (0 for a leaf) */
} AstNode;

/* Syntax trees deeper than this are refused by the parser ("nested too
 * deeply", docs/language.md): evaluation recurses once per level, so the
 * bound keeps every script shape - a flat chain of 10^6 operators is a
 * tree of depth 10^6 - inside the interpreter's C stack. */
#define AST_MAX_DEPTH 10000

AstNode *ast_new(Arena *a, AstKind kind, Loc loc);
AstNode *ast_new_text(Arena *a, AstKind kind, Loc loc, const char *text, size_t len);
/* Append a child (NULL allowed for an absent optional child). */
void ast_add(Arena *a, AstNode *parent, AstNode *kid);
/* Account for kid (already stored in parent->kids) in parent's depth. */
void ast_note_kid(Arena *a, AstNode *parent, const AstNode *kid);
/* The first node built in the arena deeper than AST_MAX_DEPTH, or NULL. */
const AstNode *arena_too_deep(const Arena *a);
Loc loc_span(Loc a, Loc b);
const char *ast_kind_name(AstKind k);

/* The census of constructs, for the test that every construct of
 * docs/language.md has a tested example (tests/scripts/doc_constructs.sh):
 * ast_constructs calls emit with the name of each form a tree uses, once
 * per node ("item assignment", "operator xor", "else if"), and with each
 * use of a builtin ("call sort/2", "command plot", "declaration game");
 * ast_construct_catalogue with every form's name it can give. */
void ast_constructs(const AstNode *root, void (*emit)(void *ctx, const char *name), void *ctx);
void ast_construct_catalogue(void (*emit)(void *ctx, const char *name), void *ctx);

/* Parse a whole source (already registered with source_add).  On success
 * returns 0 and sets *out to an AST_BLOCK allocated in `arena`.  On a
 * syntax error returns -1 and fills *err_loc and err_msg (the first error
 * only; nothing of the unit may run). */
int parse_source(uint32_t file_id, Arena *arena, AstNode **out, Loc *err_loc, char *err_msg,
                 size_t err_size);
/* The warnings of the last parse_source that succeeded (a `//` comment
 * after an operand, which may be meant as division): their number, and
 * each one's location, message and hint. */
size_t parse_warning_count(void);
void parse_warning(size_t i, Loc *loc, const char **msg, const char **hint);

#endif
