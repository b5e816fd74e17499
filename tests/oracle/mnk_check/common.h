/* What the parts of the independent m,n,k proof checker share
 * (tests/oracle/mnk_check.c: command line, seal, root; mnk_check/v1.c and
 * v2.c: the two proof formats).  The checker shares no code with src/lib/mnk/. */
#ifndef MNK_CHECK_COMMON_H
#define MNK_CHECK_COMMON_H

#include <stdint.h>
#include <stdio.h>

#define MAXC 256  /* cells: boards up to 16x16 */
#define MAXL 1024 /* at most 4 lines start at a cell */

/* The game of the proof being checked (from its header) and its k-lines,
 * lcell[l][0..K-1] the cells of line l (build_lines). */
extern int M, N, K, C, NL;
extern int lcell[MAXL][MAXC];

/* CRC-64/XZ of every byte read so far (the seal, docs/mnk.md "Proof files"). */
extern uint64_t crc_run;
void crc_feed(uint64_t *crc, const char *p, size_t n);
/* After the end line: 1 if sealed (and the CRC matches), 0 if unsealed;
 * fails otherwise. */
int seal_check(int lineno, const char *line);
void seal_report(int sealed);

/* Prints "FAIL: line N: WHY" and exits 1. */
int fail(int lineno, const char *why);
/* Refuses a proof of another game, claim or root than the command line's. */
void expect_header(int lineno, const char *claim, char rootmove, const char *rootpos);
/* The root the proof was verified for, as the last line of the output. */
void print_root(char rootmove, const char *rootpos);
void build_lines(void);
/* The image of cell (row r, column c) under board symmetry s (mnk_check.c). */
int sym_cell(int s, int r, int c);

int check_v1(FILE *f); /* version 1: nodes by position */
int check_v2(FILE *f); /* version 2: claim breaker, children by number */

#endif
