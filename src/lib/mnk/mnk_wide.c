/* The m,n,k solver for boards of 65 to 128 cells: the solver's files
 * compiled with 128-bit bitboards (Bits = unsigned __int128, MNK_WIDE 1,
 * src/lib/mnk/mnk_int.h) and the functions renamed mnkw_*, so the 64-cell
 * instance keeps its speed.  Proofs are the same text format; checkpoints
 * are format 4 (src/lib/mnk/mnk_ckpt.c). */
#define MNK_WIDE 1
#include "lib/mnk/mnk_geo.c"
#include "lib/mnk/mnk_pair.c"
#include "lib/mnk/mnk_search.c"
#include "lib/mnk/mnk_proof.c"
#include "lib/mnk/mnk_ckpt.c"
#include "lib/mnk/mnk.c"
#include "lib/mnk/mnk_par.c"
