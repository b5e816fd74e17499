/* The m,n,k solver for boards of 129 to MNK_MAX_BOARD cells: the solver's
 * files compiled with Bits a vector of four 64-bit words (MNK_WIDE 2,
 * games/mnk_int.h), functions renamed mnkx_*. */
#define MNK_WIDE 2
#include "games/mnk_geo.c"
#include "games/mnk_pair.c"
#include "games/mnk_search.c"
#include "games/mnk_proof.c"
#include "games/mnk_ckpt.c"
#include "games/mnk.c"
#include "games/mnk_par.c"
