/* The m,n,k solver for boards of 129 to MNK_MAX_BOARD cells: the solver's
 * files compiled with Bits a vector of four 64-bit words (MNK_WIDE 2,
 * src/lib/mnk/mnk_int.h), functions renamed mnkx_*. */
#define MNK_WIDE 2
#include "lib/mnk/mnk_geo.c"
#include "lib/mnk/mnk_pair.c"
#include "lib/mnk/mnk_search.c"
#include "lib/mnk/mnk_proof.c"
#include "lib/mnk/mnk_ckpt.c"
#include "lib/mnk/mnk.c"
#include "lib/mnk/mnk_par.c"
