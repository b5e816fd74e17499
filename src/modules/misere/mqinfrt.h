/* Runtime side of infinite misère quotients (src/modules/misere/bi_mqinf.c): text and
 * JSON of a proved description, and the proof file's game line. */
#ifndef CGT_RUNTIME_MQINFRT_H
#define CGT_RUNTIME_MQINFRT_H
#include "lib/misere/mqinf.h"
#include "lib/heap/ruleset.h"
#include "runtime/value.h"

/* "octal 0.07", "hex 4.C" or "ruleset NAME" (owned). */
char *mqinf_game_line(const Ruleset *rs);
/* The description as printed by `print q` (no trailing newline); asked =
 * the heap bound of the statement (a note when it is above p->N). */
void mqinf_text(const MqInfProof *p, const char *game, uint32_t fin_size, uint32_t fin_psize,
                bool fin_certified, const char *proof_path, uint32_t asked, StrBuf *b);
/* Adds the key "description" with the proof's data to an open object. */
void mqinf_json(const MqInfProof *p, JsonWriter *w);

#endif
