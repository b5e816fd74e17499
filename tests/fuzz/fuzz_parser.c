/* libFuzzer target: the lexer and parser must accept or reject any byte
 * string without crashing, hanging, leaking or tripping a sanitizer. */
#include <stddef.h>
#include <stdint.h>

#include "lang/ast.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint32_t id = source_add("<fuzz>", (const char *)data, size);
    Arena *a = arena_new();
    AstNode *root = NULL;
    Loc loc;
    char msg[1024];
    (void)parse_source(id, a, &root, &loc, msg, sizeof msg);
    arena_free(a);
    source_free_all();
    return 0;
}
