/* Internal to the GP engine (src/lib/gp/gp.c: functions, data sets, program
 * evaluation; gp_evolve.c: operators, selection, the run; gp_print.c:
 * printing, simplification and the formula parser): the types and
 * functions the three files share.  Not part of the src/lib/gp/gp.h API. */
#ifndef CGT_GAMES_GP_INT_H
#define CGT_GAMES_GP_INT_H
#include <stddef.h>
#include <stdint.h>

#include "lib/gp/gp.h"

/* Node codes of a program: functions 0..GP_NFUNCS-1, variables
 * CODE_VAR + v, constants CODE_CONST + (value - const_min). */
enum { CODE_VAR = 64, CODE_CONST = 128 };

typedef struct {
    uint8_t *code;
    int len;
    double raw, fit;
    long hits;
    uint32_t *err; /* per-row errors (lexicase selection only) */
    int cap;       /* allocated bytes of code */
} Prog;

typedef struct {
    size_t nrows;
    int nvars, nconst;
    const int64_t *col[GP_MAX_VARS];
    const int64_t *ccol[GP_MAX_CONSTS];
    const int64_t *y;
} Cols;

typedef struct {
    int64_t **slot;
    int nslots;
    size_t nrows;
} Scratch;

typedef struct {
    char *s;
    size_t len, cap;
} Buf;

enum { EX_FN, EX_VAR, EX_CONST };

typedef struct Ex {
    int kind, op;
    int64_t val;
    struct Ex *a, *b;
} Ex;

/* gp.c */
extern const char *const gpi_fn_names[GP_NFUNCS];
extern const int gpi_fn_arity[GP_NFUNCS];
int gpi_func_find(const char *name, size_t n);
void gpi_hint_functions(CgtError *err);
int64_t gpi_wrap(uint64_t x);
int64_t gpi_op_mod(int64_t a, int64_t b);
int64_t gpi_apply1(int f, int64_t a, int64_t b);
void gpi_prog_set(Prog *p, const uint8_t *code, int len);
int gpi_code_arity(uint8_t c);
void gpi_scratch_free(Scratch *s);
const int64_t *gpi_eval_prog(const Cols *c, Scratch *s, const uint8_t *code, int len);
void gpi_score(const Cols *c, GpFitness fit, const int64_t *p, double *raw, long *hits,
               uint32_t *err);

/* gp_print.c */
void gpi_ex_free(Ex *e);
Ex *gpi_ex_from_code(const uint8_t *code, int *pos, int const_min);
int64_t gpi_ex_eval(const Ex *e, const int64_t *x);
void gpi_ex_functional(Buf *b, const Ex *e, char *const *names);
Ex *gpi_ex_simplify(Ex *e);
void gpi_ex_infix(Buf *b, const Ex *e, int minlevel, char *const *names);

#endif
