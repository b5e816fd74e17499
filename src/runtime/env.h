/* Variable environments: string -> Value* hash maps (open addressing).
 * The map owns one reference to each stored value. */
#ifndef CGT_RUNTIME_ENV_H
#define CGT_RUNTIME_ENV_H
#include "runtime/value.h"

typedef struct Env Env;
Env *env_new(void);
void env_free(Env *e);
/* Borrowed value or NULL. */
Value *env_get(Env *e, const char *name);
/* Bind name to v (steals v), releasing any previous value. */
void env_set(Env *e, const char *name, Value *v);
/* Iterate: returns the i-th occupied slot's name (NULL when past the end),
 * for sorted listings. */
size_t env_names(Env *e, const char ***out);

#endif
