/* The m,n,k solver for boards of 65 to 128 cells: the solver's files
 * compiled with 128-bit bitboards (Bits = unsigned __int128, MNK_WIDE 1,
 * games/mnk_int.h) and the functions renamed mnkw_*, so the 64-cell
 * instance keeps its speed.  Proofs are the same text format; checkpoints
 * are format 4 (games/mnk_ckpt.c). */
#define MNK_WIDE 1
#include "games/mnk_geo.c"
#include "games/mnk_pair.c"
#include "games/mnk_search.c"
#include "games/mnk_proof.c"
#include "games/mnk_ckpt.c"
#include "games/mnk.c"
#include "games/mnk_par.c"
