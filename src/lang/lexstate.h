/* State shared by the lexer and the parser of one unit. */
#ifndef CGT_PARSER_LEXSTATE_H
#define CGT_PARSER_LEXSTATE_H
#include <stddef.h>
#include <stdint.h>

#include "lang/ast.h"

typedef struct LexState {
    uint32_t file;
    uint32_t offset;
    Arena *arena;
    const char *error; /* set with LEXERROR */
    const char *hint;
    char error_buf[96]; /* a formatted lexical error (error points here) */
    uint32_t str_start;
    int last_tok;  /* last token handed to the parser */
    int eof_semi;  /* the virtual final ';' was sent */
    int after_help; /* the last token was `help` starting a statement */
    Loc warn[8];   /* `//` after an operand: a comment that may be meant as division */
    int nwarn;
    char *buf; /* string literal being read */
    size_t buf_len, buf_cap;
    /* parser results */
    AstNode *root;
    int failed;
    Loc err_loc;
    char *err_msg;
    size_t err_size;
} LexState;

void lexstate_putc(LexState *s, char c);

#endif
