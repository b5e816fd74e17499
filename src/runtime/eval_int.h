/* Internal to the evaluator (src/runtime/eval.c, eval_call.c, eval_stmt.c):
 * what the three files share.  Not for builtins: they use interp.h. */
#ifndef CGT_RUNTIME_EVAL_INT_H
#define CGT_RUNTIME_EVAL_INT_H
#include <stdbool.h>
#include <stddef.h>

#include "runtime/interp_state.h"

#define MAX_CALL_DEPTH 2000

typedef enum { EX_OK, EX_ERR, EX_RETURN, EX_BREAK, EX_CONTINUE } ExecStatus;

/* eval.c: output, variables, arithmetic, expressions */
extern size_t ev_stack_budget;
void ev_put_stdout(const char *text);
Value *ev_lookup(Interp *I, const char *name);
void ev_assign(Interp *I, const char *name, Value *v);
bool ev_assign_item(Interp *I, const AstNode *s);
Value *ev_undefined_name(Interp *I, const AstNode *e);
Value *ev_binop(Interp *I, int op, Value *a, Value *b, Loc loc);
bool ev_eval_pair(Interp *I, const AstNode *e, Value **a, Value **b);
bool ev_stack_exhausted(Interp *I, Loc loc);

/* eval.c: write b (a finished block of result text) to stdout and free it */
void rt_emit(Interp *I, StrBuf *b);

/* eval_call.c: calls and the builtin dispatcher */
void ev_trace_flush_repeats(Interp *I);
Value *ev_call_function(Interp *I, const AstNode *call);
Value *ev_apply(Interp *I, const AstNode *e);
Value *ev_run_command(Interp *I, const AstNode *cmd, bool stmt, const char *decl_name);

/* eval_stmt.c: statements */
ExecStatus ev_poll_status(Interp *I, Loc loc);
ExecStatus ev_exec_block(Interp *I, const AstNode *b, Value **ret);

#endif
