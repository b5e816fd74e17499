/* Grammar of .cgt scripts (Bison, pure, %expect 0).
 *
 * Module statements are generic: `NAME arg arg ... ;` is a command and
 * `KIND NAME = arg arg ... ;` a declaration; the builtin table decides what
 * the words mean.  Command arguments are atoms (names, numbers, codes,
 * strings, lists, ranges, brace sets, rule blocks, presentations,
 * parenthesised expressions), juxtaposed without commas, so that the
 * statement forms of docs/language.md parse exactly as written. */
%code requires {
#include "lang/ast.h"
#include "lang/lexstate.h"
typedef void *yyscan_t;
#define YYLLOC_DEFAULT(Cur, Rhs, N)                                                       \
    do {                                                                                  \
        if (N) {                                                                          \
            (Cur).file = YYRHSLOC(Rhs, 1).file;                                           \
            (Cur).start = YYRHSLOC(Rhs, 1).start;                                         \
            (Cur).end = YYRHSLOC(Rhs, N).end;                                             \
        } else {                                                                          \
            (Cur).file = YYRHSLOC(Rhs, 0).file;                                           \
            (Cur).start = (Cur).end = YYRHSLOC(Rhs, 0).end;                               \
        }                                                                                 \
    } while (0)
}

%code provides {
#ifndef YYSTYPE
#define YYSTYPE CGT_STYPE
#endif
#ifndef YYLTYPE
#define YYLTYPE Loc
#endif
int cgt_lex(CGT_STYPE *lvalp, Loc *llocp, yyscan_t scanner);
int cgt_lex_raw(CGT_STYPE *lvalp, Loc *llocp, yyscan_t scanner);
}

%code {
#include <stdio.h>
#include <string.h>

/* Bison's stack (heap-allocated) may grow to this many entries; deeper
 * input is reported as too deeply nested, not as "memory exhausted"
 * (docs/errors.md, "Limits of the interpreter").  Trees are bounded
 * separately by AST_MAX_DEPTH. */
#define YYMAXDEPTH 1000000

#define A (st->arena)

static void cgt_error(Loc *loc, yyscan_t scanner, LexState *st, const char *msg);
static AstNode *mk(LexState *st, AstKind k, Loc l)
{
    return ast_new(st->arena, k, l);
}
static AstNode *mk1(LexState *st, AstKind k, Loc l, AstNode *a)
{
    AstNode *n = ast_new(st->arena, k, l);
    ast_add(st->arena, n, a);
    return n;
}
static AstNode *mk2(LexState *st, AstKind k, Loc l, AstNode *a, AstNode *b)
{
    AstNode *n = mk1(st, k, l, a);
    ast_add(st->arena, n, b);
    return n;
}
/* A code literal (1.5) used as a number: cgt has no floats.  Codes stay
 * usable where strings are (== and !=, + with a string). */
static void no_floats(LexState *st, int op, const AstNode *a, const AstNode *b)
{
    for (int k = 0; k < 2; k++) {
        const AstNode *c = k ? b : a, *other = k ? a : b;
        if (!c || c->kind != AST_CODE || op == OP_EQ || op == OP_NE)
            continue;
        if ((op == '+' || op == '<' || op == '>' || op == OP_LE || op == OP_GE) && other &&
            other->kind == AST_STR)
            continue;
        char msg[512];
        snprintf(msg, sizeof msg,
                 "cgt has no floating-point numbers: %s is read as the code literal \"%s\" "
                 "(a string), not a number\nhint: integers are exact and of any size: scale "
                 "them (15 * 3 / 10 is 4) or keep a numerator and a denominator; codes such "
                 "as 0.07 name take-and-break games",
                 c->text, c->text);
        Loc l = c->loc;
        cgt_error(&l, NULL, st, msg);
        return;
    }
}

/* `2 * *3` and `2 * * 3`: the lexer refuses `**` written together, and
 * a product with a nim heap written right after the `*` is `**` with a
 * blank in it (a product of a game means nothing in the language), so it
 * gets the same error.  `2 * (*3)` is left to the evaluator. */
static void star_star(LexState *st, Loc op, const AstNode *b)
{
    if (b->kind != AST_STAR)
        return;
    const SourceFile *src = source_get(op.file);
    for (uint32_t i = op.end; i < b->loc.start; i++)
        if (src->text[i] != ' ' && src->text[i] != '\t' && src->text[i] != '\n' &&
            src->text[i] != '\r')
            return;
    Loc l = {op.file, op.start, b->loc.start + 1};
    cgt_error(&l, NULL, st,
              "there is no ** operator\nhint: powers are written ^, as in 2^3 (a '*' before a "
              "value is a nim heap: *3)");
}

static AstNode *binop(LexState *st, int op, Loc l, AstNode *a, AstNode *b)
{
    no_floats(st, op, a, b);
    AstNode *n = mk2(st, AST_BINOP, l, a, b);
    n->op = op;
    return n;
}
/* (x, y) -> e: an AST_FN with op 1, whose text is its source (cut at 60
 * bytes), shown by `print` and in messages; its body returns e. */
static AstNode *lambda(LexState *st, Loc l, AstNode *params, AstNode *body)
{
    AstNode *ret = mk1(st, AST_RETURN, body->loc, body);
    AstNode *block = mk1(st, AST_BLOCK, body->loc, ret);
    AstNode *n = mk2(st, AST_FN, l, params, block);
    n->op = 1;
    const SourceFile *src = source_get(l.file);
    size_t len = l.end - l.start;
    char text[80];
    if (len > 60)
        snprintf(text, sizeof text, "%.57s...", src->text + l.start);
    else
        snprintf(text, sizeof text, "%.*s", (int)len, src->text + l.start);
    for (char *p = text; *p; p++)
        if (*p == '\n' || *p == '\r' || *p == '\t')
            *p = ' ';
    n->text = arena_strndup(st->arena, text, strlen(text));
    return n;
}

/* `NAME (e) ARG ...`: a statement whose first argument is parenthesised
 * (docs/language.md: arguments are single values or parenthesised
 * expressions); `NAME (e)` alone stays a call. */
static AstNode *paren_command(LexState *st, Loc l, AstNode *name, AstNode *args, AstNode *next,
                              AstNode *rest)
{
    const SourceFile *src = source_get(l.file);
    uint32_t close = args->loc.end;
    while (close < next->loc.start && src->text[close] != ')')
        close++;
    if (memchr(src->text + close, '\n', next->loc.start - close)) {
        /* `f(1)` and a statement on the next line: a ';' is missing */
        unsigned line = 1;
        for (uint32_t i = 0; i < close; i++)
            line += src->text[i] == '\n';
        char msg[200], what[80];
        if (next->kind == AST_IDENT)
            snprintf(what, sizeof what, "'%.60s'", next->text);
        else
            snprintf(what, sizeof what, "a value");
        snprintf(msg, sizeof msg,
                 "%s on a new line is read as an argument of '%.60s'\nhint: is a ';' missing "
                 "at the end of line %u?",
                 what, name->text, line);
        Loc nl = next->loc;
        cgt_error(&nl, NULL, st, msg);
        return NULL;
    }
    if (args->nkids != 1) {
        Loc al = args->loc;
        cgt_error(&al, NULL, st,
                  "a statement's first argument in parentheses is one expression\nhint: "
                  "write NAME (EXPR) ARG ..., or call the function as NAME(A, B)");
        return NULL;
    }
    AstNode *cmd = mk1(st, AST_CMD, l, args->kids[0]);
    cmd->text = name->text;
    ast_add(st->arena, cmd, next);
    for (size_t i = 0; rest && i < rest->nkids; i++)
        ast_add(st->arena, cmd, rest->kids[i]);
    return cmd;
}

/* NAME = e, and x[i] = e, r.k = e, r["k"] = e to any depth (op: the
 * operator of `op=`, 0 for `=`): kids[0] is the value, kids[1] the target
 * when it is an item or field (text is the variable at its root).  Any
 * other target is a syntax error. */
static AstNode *assignment(LexState *st, Loc *tl, Loc l, AstNode *target, AstNode *value, int op)
{
    const AstNode *root = target;
    while (root->kind == AST_INDEX || root->kind == AST_FIELD)
        root = root->kids[0];
    if (root->kind != AST_IDENT) {
        cgt_error(tl, NULL, st,
                  root == target ? "cannot assign to this expression: the left of '=' is a "
                                   "name, an item x[i] or a field r.k"
                                 : "cannot assign into this expression: items and fields are "
                                   "assigned through a variable, as in x[i] = v");
        return NULL;
    }
    AstNode *n = mk1(st, AST_ASSIGN, l, value);
    n->text = root->text;
    n->op = op;
    if (root != target)
        ast_add(st->arena, n, target);
    return n;
}
}

%define api.pure full
%define api.prefix {cgt_}
%define api.location.type {Loc}
%define parse.error detailed
%locations
%expect 0

%lex-param {yyscan_t scanner}
%parse-param {yyscan_t scanner} {LexState *st}

%union {
    AstNode *node;
}

%token <node> INT "integer" CODE "code" STRING "string" IDENT "name"
%token IF "'if'" ELSE "'else'" FOR "'for'" IN "'in'" WHILE "'while'" FN "'fn'"
%token RETURN "'return'" BREAK "'break'" CONTINUE "'continue'"
%token TRUE "'true'" FALSE "'false'" NUL "'null'" AND "'and'" OR "'or'" NOT "'not'"
%token PRINT "'print'" CHECK "'check'" ASSERT "'assert'" WITH "'with'"
%token TRY "'try'" CATCH "'catch'" TIMEOUT "'timeout'"
%token DOTDOT "'..'" EQ "'=='" NE "'!='" LE "'<='" GE "'>='"
%token XOR "'xor'" ADDEQ "'+='" SUBEQ "'-='" MULEQ "'*='" DIVEQ "'/='" MODEQ "'%='"
%token LEXERROR "invalid token"
%token SLBRACKET "'['"
%token FNPAREN "'('" ARROW "'->'"

%type <node> stmts stmt block if_stmt expr expr_list opt_expr_list params param_list
%type <node> primary cmd_args cmd_first cmd_prim cmd_atom first_prim brace set_items
%type <node> rule_list seq pres gen_list rel_list rel word wfactor with_list with_item
%type <node> word_list opt_word_list map_items map_item assign_op comprehension
%type <node> paren_next paren_prim

/* CALL_LOW and '(' decide the two places where '(' after a name or a call
 * could also continue a longer form: `f(x)` stays a call of the name f
 * (AST_CALL, which also finds builtins), not a call of the value f, and at
 * the start of a statement `NAME (A) (B)` is the statement NAME with two
 * arguments (paren_command), not a call of NAME(A)'s value; anywhere else
 * a call of any postfix value, `fs[0](x)`, is AST_APPLY. */
%precedence CALL_LOW
%precedence '[' '{'
%precedence STAR
%precedence LAMBDA
%left OR
%left AND
%precedence NOT
%nonassoc EQ NE '<' LE '>' GE
%nonassoc DOTDOT
%left XOR
%left '+' '-'
%left '*' '/' '%'
%precedence UMINUS
%right '^'
%precedence '('

%start program

%%

program
    : stmts                 { st->root = $1; }
    ;

stmts
    : %empty                { $$ = mk(st, AST_BLOCK, @$); }
    | stmts stmt            { $$ = $1; if ($2) ast_add(A, $$, $2); $$->loc = loc_span($1->loc, @2); }
    ;

block
    : '{' stmts '}'         { $$ = $2; $$->loc = @$; }
    ;

stmt
    : ';'                   { $$ = NULL; }
    | expr ';'              { $$ = mk1(st, AST_EXPR, @1, $1); }
    | primary '=' expr ';'  { $$ = assignment(st, &@1, @$, $1, $3, 0);
                              if (!$$) YYERROR; }
    | primary assign_op expr ';'
                            { $$ = assignment(st, &@1, @$, $1, $3, $2->op);
                              if (!$$) YYERROR; }
    | IDENT cmd_first ';'   { $$ = mk1(st, AST_CMD, @$, $2);
                              $$->text = $1->text; }
    | IDENT cmd_first cmd_args ';'
                            { $$ = $3; $$->kind = AST_CMD; $$->text = $1->text; $$->loc = @$;
                              /* prepend the first argument */
                              ast_add(A, $$, NULL);
                              memmove($$->kids + 1, $$->kids, ($$->nkids - 1) * sizeof *$$->kids);
                              $$->kids[0] = $2; ast_note_kid(A, $$, $2); }
    | IDENT '(' opt_expr_list ')' paren_next ';'
                            { $$ = paren_command(st, @$, $1, $3, $5, NULL);
                              if (!$$) YYERROR; }
    | IDENT '(' opt_expr_list ')' paren_next cmd_args ';'
                            { $$ = paren_command(st, @$, $1, $3, $5, $6);
                              if (!$$) YYERROR; }
    | IDENT IDENT '=' cmd_args ';'
                            { AstNode *cmd = $4; cmd->kind = AST_CMD; cmd->text = $1->text;
                              cmd->loc = loc_span(@1, @4);
                              $$ = mk1(st, AST_DECL, @$, cmd); $$->text = $2->text; }
    | PRINT expr_list ';'   { $$ = $2; $$->kind = AST_PRINT; $$->loc = @$; }
    | CHECK expr ';'        { $$ = mk1(st, AST_CHECK, @$, $2); }
    | CHECK expr FOR IDENT IN expr ';'
                            { AstNode *f = mk1(st, AST_FOR, loc_span(@3, @6), $6);
                              f->text = $4->text;
                              $$ = mk2(st, AST_CHECK, @$, $2, f); }
    | ASSERT expr ';'       { $$ = mk1(st, AST_ASSERT, @$, $2); }
    | if_stmt               { $$ = $1; }
    | FOR IDENT IN expr block
                            { $$ = mk2(st, AST_FOR, @$, $4, $5); $$->text = $2->text; }
    | WHILE expr block      { $$ = mk2(st, AST_WHILE, @$, $2, $3); }
    | FN IDENT '(' params ')' block
                            { $$ = mk2(st, AST_FN, @$, $4, $6); $$->text = $2->text; }
    | FN IDENT '(' params ')' '=' expr ';'
                            { AstNode *ret = mk1(st, AST_RETURN, @7, $7);
                              AstNode *body = mk1(st, AST_BLOCK, @7, ret);
                              $$ = mk2(st, AST_FN, @$, $4, body); $$->text = $2->text; }
    | RETURN ';'            { $$ = mk(st, AST_RETURN, @$); }
    | RETURN expr ';'       { $$ = mk1(st, AST_RETURN, @$, $2); }
    | TRY block CATCH '(' IDENT ')' block
                            { $$ = mk2(st, AST_TRY, @$, $2, $7); $$->text = $5->text; }
    | TIMEOUT expr block    { $$ = mk2(st, AST_TIMEOUT, @$, $2, $3); }
    | BREAK ';'             { $$ = mk(st, AST_BREAK, @$); }
    | CONTINUE ';'          { $$ = mk(st, AST_CONTINUE, @$); }
    ;

/* x += e is x = x + e (op is the operator's character) */
assign_op
    : ADDEQ                 { $$ = mk(st, AST_NULL, @$); $$->op = '+'; }
    | SUBEQ                 { $$ = mk(st, AST_NULL, @$); $$->op = '-'; }
    | MULEQ                 { $$ = mk(st, AST_NULL, @$); $$->op = '*'; }
    | DIVEQ                 { $$ = mk(st, AST_NULL, @$); $$->op = '/'; }
    | MODEQ                 { $$ = mk(st, AST_NULL, @$); $$->op = '%'; }
    ;

if_stmt
    : IF expr block         { $$ = mk2(st, AST_IF, @$, $2, $3); }
    | IF expr block ELSE block
                            { $$ = mk2(st, AST_IF, @$, $2, $3); ast_add(A, $$, $5); }
    | IF expr block ELSE if_stmt
                            { $$ = mk2(st, AST_IF, @$, $2, $3); ast_add(A, $$, $5); }
    ;

params
    : %empty                { $$ = mk(st, AST_LIST, @$); }
    | param_list            { $$ = $1; }
    ;

param_list
    : IDENT                 { $$ = mk1(st, AST_LIST, @$, $1); }
    | param_list ',' IDENT  { $$ = $1; ast_add(A, $$, $3); }
    ;

expr_list
    : expr                  { $$ = mk1(st, AST_LIST, @$, $1); }
    | expr_list ',' expr    { $$ = $1; ast_add(A, $$, $3); $$->loc = @$; }
    ;

opt_expr_list
    : %empty                { $$ = mk(st, AST_LIST, @$); }
    | expr_list             { $$ = $1; }
    | expr_list ','         { $$ = $1; }
    ;

expr
    : primary               { $$ = $1; }
    | expr OR expr          { $$ = mk2(st, AST_OR, @$, $1, $3); }
    | expr AND expr         { $$ = mk2(st, AST_AND, @$, $1, $3); }
    | NOT expr              { $$ = mk1(st, AST_UNOP, @$, $2); $$->op = '!'; }
    | expr EQ expr          { $$ = binop(st, OP_EQ, @$, $1, $3); }
    | expr NE expr          { $$ = binop(st, OP_NE, @$, $1, $3); }
    | expr '<' expr         { $$ = binop(st, '<', @$, $1, $3); }
    | expr LE expr          { $$ = binop(st, OP_LE, @$, $1, $3); }
    | expr '>' expr         { $$ = binop(st, '>', @$, $1, $3); }
    | expr GE expr          { $$ = binop(st, OP_GE, @$, $1, $3); }
    | expr DOTDOT expr      { $$ = mk2(st, AST_RANGE, @$, $1, $3); }
    | expr XOR expr         { $$ = binop(st, OP_XOR, @$, $1, $3); }
    | expr '+' expr         { $$ = binop(st, '+', @$, $1, $3); }
    | expr '-' expr         { $$ = binop(st, '-', @$, $1, $3); }
    | expr '*' expr         { star_star(st, @2, $3); $$ = binop(st, '*', @$, $1, $3); }
    | expr '/' expr         { $$ = binop(st, '/', @$, $1, $3); }
    | expr '%' expr         { $$ = binop(st, '%', @$, $1, $3); }
    | expr '^' expr         { $$ = binop(st, '^', @$, $1, $3); }
    | '-' expr %prec UMINUS { no_floats(st, '-', $2, NULL);
                              $$ = mk1(st, AST_UNOP, @$, $2); $$->op = '-'; }
    | '*' expr %prec UMINUS { $$ = mk1(st, AST_STAR, @$, $2); }
    | FNPAREN params ')' ARROW expr %prec LAMBDA
                            { $$ = lambda(st, @$, $2, $5); }
    ;

primary
    : INT                   { $$ = $1; }
    | CODE                  { $$ = $1; }
    | STRING                { $$ = $1; }
    | TRUE                  { $$ = mk(st, AST_BOOL, @$); $$->op = 1; }
    | FALSE                 { $$ = mk(st, AST_BOOL, @$); $$->op = 0; }
    | NUL                   { $$ = mk(st, AST_NULL, @$); }
    | IDENT %prec CALL_LOW  { $$ = $1; }
    | '(' expr ')'          { $$ = $2; }
    | '[' opt_expr_list ']' { $$ = $2; $$->loc = @$; }
    | SLBRACKET opt_expr_list ']'
                            { $$ = $2; $$->loc = @$; }
    | '[' comprehension ']' { $$ = $2; $$->loc = @$; }
    | SLBRACKET comprehension ']'
                            { $$ = $2; $$->loc = @$; }
    | IDENT '(' opt_expr_list ')' %prec CALL_LOW
                            { $$ = $3; $$->kind = AST_CALL; $$->text = $1->text; $$->loc = @$; }
    | primary '(' opt_expr_list ')'
                            { $$ = mk2(st, AST_APPLY, @$, $1, $3); $3->loc = @$; }
    | primary '[' expr ']'  { $$ = mk2(st, AST_INDEX, @$, $1, $3); }
    | primary '.' IDENT     { $$ = mk1(st, AST_FIELD, @$, $1); $$->text = $3->text; }
    | '{' '}'               { $$ = mk(st, AST_MAP, @$); }
    | '{' map_items '}'     { $$ = $2; $$->loc = @$; }
    | '{' map_items ',' '}' { $$ = $2; $$->loc = @$; }
    | '{' expr_list '}'     { $$ = $2; $$->kind = AST_GAME; $$->loc = @$; }
    | '*' %prec STAR        { $$ = mk(st, AST_STAR, @$); }
    ;

/* [EXPR for NAME in ITERABLE] and [EXPR for NAME in ITERABLE if COND] */
comprehension
    : expr FOR IDENT IN expr
                            { $$ = mk2(st, AST_COMP, @$, $1, $5); $$->text = $3->text;
                              ast_add(A, $$, NULL); }
    | expr FOR IDENT IN expr IF expr
                            { $$ = mk2(st, AST_COMP, @$, $1, $5); $$->text = $3->text;
                              ast_add(A, $$, $7); }
    ;

/* ---- record / map literals: { period: 34, "two words": 1 } ----
 * kids alternate: key (AST_STR or AST_IDENT, taken as its name) and value. */

map_items
    : map_item              { $$ = $1; }
    | map_items ',' map_item
                            { $$ = $1; ast_add(A, $$, $3->kids[0]); ast_add(A, $$, $3->kids[1]);
                              $$->loc = loc_span($1->loc, @3); }
    ;

map_item
    : IDENT ':' expr        { $$ = mk2(st, AST_MAP, @$, $1, $3); }
    | STRING ':' expr       { $$ = mk2(st, AST_MAP, @$, $1, $3); }
    ;

/* ---- command arguments ---- */

cmd_first
    : first_prim            { $$ = $1; }
    | first_prim DOTDOT cmd_prim
                            { $$ = mk2(st, AST_RANGE, @$, $1, $3); }
    ;

first_prim
    : IDENT                 { $$ = $1; }
    | INT                   { $$ = $1; }
    | CODE                  { $$ = $1; }
    | STRING                { $$ = $1; }
    | SLBRACKET opt_expr_list ']'
                            { $$ = $2; $$->loc = @$; }
    ;

/* the argument after a parenthesised first one, `write (g.genus) to F`:
 * an atom that cannot continue an expression (no '-', '<' or '[') */
paren_next
    : paren_prim            { $$ = $1; }
    | paren_prim DOTDOT cmd_prim
                            { $$ = mk2(st, AST_RANGE, @$, $1, $3); }
    ;

paren_prim
    : IDENT                 { $$ = $1; }
    | INT                   { $$ = $1; }
    | CODE                  { $$ = $1; }
    | STRING                { $$ = $1; }
    | TRUE                  { $$ = mk(st, AST_BOOL, @$); $$->op = 1; }
    | FALSE                 { $$ = mk(st, AST_BOOL, @$); $$->op = 0; }
    | SLBRACKET opt_expr_list ']'
                            { $$ = $2; $$->loc = @$; }
    | '(' expr ')'          { $$ = $2; }
    | brace                 { $$ = $1; }
    ;

cmd_args
    : cmd_atom              { $$ = mk1(st, AST_SEQ, @$, $1); }
    | cmd_args cmd_atom     { $$ = $1; ast_add(A, $$, $2); $$->loc = @$; }
    ;

cmd_atom
    : cmd_prim              { $$ = $1; }
    | cmd_prim DOTDOT cmd_prim
                            { $$ = mk2(st, AST_RANGE, @$, $1, $3); }
    ;

cmd_prim
    : first_prim            { $$ = $1; }
    | TRUE                  { $$ = mk(st, AST_BOOL, @$); $$->op = 1; }
    | FALSE                 { $$ = mk(st, AST_BOOL, @$); $$->op = 0; }
    | '-' INT               { $$ = mk1(st, AST_UNOP, @$, $2); $$->op = '-'; }
    | '(' expr ')'          { $$ = $2; }
    | '[' opt_expr_list ']' { $$ = $2; $$->loc = @$; }
    | brace                 { $$ = $1; }
    | pres                  { $$ = $1; }
    ;

brace
    : '{' '}'               { $$ = mk(st, AST_SET, @$); }
    | '{' set_items '}'     { $$ = $2; $$->loc = @$; }
    | '{' rule_list '}'     { $$ = $2; $$->loc = @$; }
    ;

set_items
    : cmd_atom              { $$ = mk1(st, AST_SET, @$, $1); }
    | set_items ',' cmd_atom
                            { $$ = $1; ast_add(A, $$, $3); }
    ;

rule_list
    : seq ';'               { $$ = mk1(st, AST_RULES, @$, $1); }
    | rule_list seq ';'     { $$ = $1; ast_add(A, $$, $2); }
    ;

seq
    : cmd_atom              { $$ = mk1(st, AST_SEQ, @$, $1); }
    | seq cmd_atom          { $$ = $1; ast_add(A, $$, $2); $$->loc = @$; }
    ;

/* ---- presentations: < x, z | x^2 = 1, z^3 = z > with P = { x, z^2 } [with phi = [...]] ---- */

pres
    : '<' gen_list '>'      { $$ = mk1(st, AST_PRES, @$, $2);
                              ast_add(A, $$, mk(st, AST_LIST, @3));
                              ast_add(A, $$, mk(st, AST_LIST, @3)); }
    | '<' gen_list '|' '>'  { $$ = mk1(st, AST_PRES, @$, $2);
                              ast_add(A, $$, mk(st, AST_LIST, @4));
                              ast_add(A, $$, mk(st, AST_LIST, @4)); }
    | '<' gen_list '|' rel_list '>'
                            { $$ = mk2(st, AST_PRES, @$, $2, $4);
                              ast_add(A, $$, mk(st, AST_LIST, @5)); }
    | '<' gen_list '|' rel_list '>' WITH with_list
                            { $$ = mk2(st, AST_PRES, @$, $2, $4); ast_add(A, $$, $7); }
    ;

gen_list
    : IDENT                 { $$ = mk1(st, AST_LIST, @$, $1); }
    | gen_list ',' IDENT    { $$ = $1; ast_add(A, $$, $3); $$->loc = @$; }
    ;

rel_list
    : rel                   { $$ = mk1(st, AST_LIST, @$, $1); }
    | rel_list ',' rel      { $$ = $1; ast_add(A, $$, $3); $$->loc = @$; }
    ;

rel
    : word '=' word         { $$ = mk2(st, AST_REL, @$, $1, $3); }
    | rel '=' word          { $$ = $1; ast_add(A, $$, $3); $$->loc = @$; }
    ;

word
    : wfactor               { $$ = mk1(st, AST_WORD, @$, $1); }
    | word wfactor          { $$ = $1; ast_add(A, $$, $2); $$->loc = @$; }
    | word '*' wfactor      { $$ = $1; ast_add(A, $$, $3); $$->loc = @$; }
    ;

wfactor
    : IDENT                 { $$ = mk(st, AST_WFACTOR, @$); $$->text = $1->text; }
    | INT                   { $$ = mk(st, AST_WFACTOR, @$); $$->text = $1->text; }
    | IDENT '^' INT         { $$ = mk(st, AST_WFACTOR, @$); $$->text = $1->text;
                              $$->op = -1; ast_add(A, $$, $3); }
    ;

with_list
    : with_item             { $$ = mk1(st, AST_LIST, @$, $1); }
    | with_list WITH with_item
                            { $$ = $1; ast_add(A, $$, $3); $$->loc = @$; }
    ;

with_item
    : IDENT '=' '{' opt_word_list '}'
                            { $$ = $4; $$->kind = AST_WITH; $$->text = $1->text; $$->op = '{';
                              $$->loc = @$; }
    | IDENT '=' SLBRACKET opt_word_list ']'
                            { $$ = $4; $$->kind = AST_WITH; $$->text = $1->text; $$->op = '[';
                              $$->loc = @$; }
    | IDENT '=' '[' opt_word_list ']'
                            { $$ = $4; $$->kind = AST_WITH; $$->text = $1->text; $$->op = '[';
                              $$->loc = @$; }
    ;

opt_word_list
    : %empty                { $$ = mk(st, AST_LIST, @$); }
    | word_list             { $$ = $1; }
    ;

word_list
    : word                  { $$ = mk1(st, AST_LIST, @$, $1); }
    | word_list ',' word    { $$ = $1; ast_add(A, $$, $3); $$->loc = @$; }
    ;

%%

static void cgt_error(Loc *loc, yyscan_t scanner, LexState *st, const char *msg)
{
    (void)scanner;
    if (st->failed)
        return;
    st->failed = 1;
    st->err_loc = *loc;
    if (strncmp(msg, "syntax error, ", 14) == 0)
        msg += 14;
    if (strcmp(msg, "memory exhausted") == 0)
        msg = "nested too deeply (the parser's stack holds 1000000 entries)";
    snprintf(st->err_msg, st->err_size, "%s", msg);
}
