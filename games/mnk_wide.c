/* The m,n,k solver for boards of 65 to MNK_MAX_BOARD cells: the same search
 * files compiled with 128-bit bitboards (Bits = unsigned __int128) and the
 * functions renamed mnkw_* (games/mnk_int.h), so the 64-cell instance keeps
 * its speed.  No proofs and no checkpoints here (games/mnk.c refuses them). */
#define MNK_WIDE 1
#include "games/mnk_geo.c"
#include "games/mnk_pair.c"
#include "games/mnk_search.c"
#include "games/mnk.c"
#include "games/mnk_par.c"
